//! `plan lint`: the rules of the one table that hold against plan.md, each named by
//! its id; exit 1 on errors. `--rules` prints the table itself.

use anyhow::Result;
use serde::Serialize;

use crate::ctx::Env;
use crate::exit::{CHECK_FAILED, OK};
use crate::out::println;
use crate::plan::diag::{Diagnostic, Severity};
use crate::plan::{lint, model, rules};

mod transcripts;

/// Check plan.md's format and each goal's contract; exits 1 on problems
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the problems as JSON
    #[arg(long)]
    pub json: bool,
    /// List the rules instead: each id with its severity by goal status, in a
    /// draft, whether doctor reports it, and its repair
    #[arg(long)]
    pub rules: bool,
}

#[derive(Serialize)]
struct Report<'a> {
    file: &'a str,
    errors: usize,
    warnings: usize,
    problems: &'a [Diagnostic],
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    // The table is the same everywhere: no repository needed to print it.
    if args.rules {
        let text = if args.json {
            crate::out::json(&rules::rows())?
        } else {
            rules::table().trim_end().to_string()
        };
        println(&text)?;
        return Ok(OK);
    }
    let ctx = env.ctx()?;
    let src = ctx.store.read()?;
    let mut plan = model::parse(&src);
    ctx.prove(&mut plan);
    let mut problems = lint::lint_full(
        &plan,
        &|line| {
            crate::verify::parse(line)
                .err()
                .map(|e| (e.message, e.hint))
        },
        &crate::red_first::cannot_fail,
    );
    if let Ok(repo) = ctx.repo() {
        transcripts::check(&repo.root, &plan, &mut problems);
    }
    if let Some(limit) = crate::clock::future_limit() {
        problems.extend(crate::plan::stamps::ahead(&plan.log, &limit));
    }
    if let Some(cut) = ctx.store.cut_against_written(&src) {
        let hint = "`plan doctor --fix` rebuilds it from git and the writes plan journaled, keeping this file beside it; or the stash (`git stash pop`), if it was stashed";
        problems.insert(
            0,
            Diagnostic::error(0, cut)
                .hint(hint)
                .rule(rules::Rule::CutFile),
        );
    }
    let errors = problems
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = problems.len() - errors;
    if args.json {
        let report = Report {
            file: &ctx.store.name,
            errors,
            warnings,
            problems: &problems,
        };
        println(&crate::out::json(&report)?)?;
    } else if problems.is_empty() {
        println(&format!("{}: no problems", ctx.store.name))?;
    } else {
        let text = problems
            .iter()
            .map(|d| {
                let line =
                    (d.line > 0 && d.line <= plan.lines.len()).then(|| plan.line_text(d.line));
                d.render_with_rule(&ctx.store.name, line)
            })
            .collect::<Vec<_>>()
            .join("\n");
        println(&text)?;
        println(&format!(
            "\n{}: {errors} {}, {warnings} {}",
            ctx.store.name,
            if errors == 1 { "problem" } else { "problems" },
            if warnings == 1 { "warning" } else { "warnings" },
        ))?;
    }
    // Another tool's plan reads as no goals: say so rather than nothing.
    if let Some(line) = crate::plan::foreign::line(&plan, &ctx.store.name).filter(|_| !args.json) {
        println(&line)?;
    }
    Ok(if errors > 0 { CHECK_FAILED } else { OK })
}
