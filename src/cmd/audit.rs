//! `plan audit`: one report over every done and cancelled goal, archived ones
//! included: proven from its record or not, and why. `--reverify` runs each proven
//! goal's verify again (no judge), so "done stays done" can be checked in CI.
//! `--base REV` is the pull-request gate. The work is the gate service's
//! (`gate/audit.rs`); this file takes the flags and prints what it returns.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::{CHECK_FAILED, Exit, OK};
use crate::gate::audit::{Outcome, Request, audit};
use crate::gate::report;
use crate::out::println;

/// Check every done and cancelled goal against its sign-off record; exit 1 if any is unproven
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the report as JSON
    #[arg(long)]
    pub json: bool,
    /// Run each proven done goal's verify again (without a judge) and report the ones that no longer pass
    #[arg(long)]
    pub reverify: bool,
    /// The pull-request gate: every log line and goal of REV's plan files must still be here, in
    /// order; --rejudge and --strict then look only at what is new since REV
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
    /// With --base: for each goal signed off since REV, re-run its verify in a clean copy of HEAD
    /// and ask the judge again, with the judge from --judge or your user config (never the
    /// repository's .plan/config.yaml or .plan/prompts/)
    #[arg(long, requires = "base")]
    pub rejudge: bool,
    /// The judge --rejudge asks, over your user config's judge.backend
    #[arg(long, value_name = "BACKEND", requires = "rejudge")]
    pub judge: Option<String>,
    /// The gate's first job, which holds no secret: with --base, run the verify of each goal
    /// --rejudge would judge (in a clean copy of HEAD, a scrubbed environment and a throwaway
    /// HOME) and write what it found to --results FILE as JSON; no judge is asked
    #[arg(long, requires_all = ["base", "results"], conflicts_with_all = ["rejudge", "verified"])]
    pub verify_only: bool,
    /// Where --verify-only writes its results (JSON: the commit, and per goal its verify,
    /// passed or failed, the end of its output)
    #[arg(long, value_name = "FILE", requires = "verify_only")]
    pub results: Option<std::path::PathBuf>,
    /// The gate's second job, which holds the judge's key and runs none of the pull request's
    /// code: with --rejudge, run no verify and take its outcomes from FILE (written by
    /// --verify-only on the same commit), read as untrusted data: a wrong shape, another
    /// commit, an unknown goal or an oversize field is refused (exit 3); a goal it lacks fails
    #[arg(long, value_name = "FILE", requires = "rejudge")]
    pub verified: Option<std::path::PathBuf>,
    /// Also fail on weak sign-offs (no judge, a command judge), contract changes approved
    /// without a terminal, transcripts git does not track, weakened tests, and verifies
    /// that cannot fail or already passed when the goal started
    #[arg(long)]
    pub strict: bool,
    /// With --base: the person who approved the pull request's cancels and contract changes
    /// through the forge (the workflow passes it for a `plan-approved` label or an approving
    /// review); without it --strict fails on each of them
    #[arg(long, value_name = "NAME", requires = "base")]
    pub approved_by: Option<String>,
    /// Print the report as Markdown (a table of goal, state, judge, verify, findings), for a CI
    /// job summary or a pull-request comment
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
    /// The gate's judge job: once the gate passes, write the sign-offs CI's judge accepted to
    /// FILE, signed with HMAC-SHA256 under PLAN_RECORD_KEY and naming the run GITHUB_RUN_ID
    #[arg(long, value_name = "FILE", requires = "rejudge")]
    pub ci_accepted: Option<std::path::PathBuf>,
    /// The workflow's update job, after a merge: check FILE (--ci-accepted's) under
    /// PLAN_RECORD_KEY and log `judged again by CI` for each sign-off plan.md still has as it
    /// was accepted; a file that does not check is refused and nothing is written
    #[arg(long, value_name = "FILE", conflicts_with_all = ["base", "reverify", "strict", "json", "markdown"])]
    pub record_ci: Option<std::path::PathBuf>,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    // An empty name would approve in the name of no one: a workflow whose
    // expression came out blank must not pass the gate for it.
    if args
        .approved_by
        .as_deref()
        .is_some_and(|name| !name.chars().any(char::is_alphanumeric))
    {
        return Err(Exit::usage_hint(
            "--approved-by names no one",
            "pass the login of the person who approved the pull request, or leave the flag out when no one did",
        ));
    }
    let ctx = env.ctx()?;
    if let Some(file) = &args.record_ci {
        let done = crate::gate::ci_record::record(ctx, file)?;
        for line in &done.logged {
            println(&format!("logged: {line}"))?;
        }
        for why in &done.skipped {
            println(&format!("skipped {why}"))?;
        }
        if done.logged.is_empty() {
            println("nothing to log")?;
        }
        return Ok(OK);
    }
    // Checked before any verify or judge runs.
    let ci_accepted = match args.ci_accepted {
        Some(file) => Some((file, crate::gate::ci_record::Signer::from_env()?)),
        None => None,
    };
    let request = Request {
        reverify: args.reverify,
        base: args.base,
        rejudge: args.rejudge,
        judge: args.judge,
        verify_only: args.verify_only.then_some(args.results).flatten(),
        verified: args.verified,
        strict: args.strict,
        approved_by: args.approved_by,
        ci_accepted,
    };
    let (report, failed) = match audit(ctx, &request)? {
        Outcome::VerifiedOnly {
            goals,
            failed,
            commit,
            file,
        } => {
            println(&format!(
                "verified {goals} goal{} at {}: {failed} failed; results in {}",
                if goals == 1 { "" } else { "s" },
                &commit[..12],
                file.display()
            ))?;
            return Ok(OK);
        }
        Outcome::Report { report, failed } => (report, failed),
    };
    if args.json {
        println(&crate::out::json(&report)?)?;
    } else if args.markdown {
        crate::out::print(&report::markdown(&report))?;
    } else {
        println(&report::human(&report, ctx.style))?;
    }
    if failed > 0 {
        return Err(Exit::quiet(CHECK_FAILED));
    }
    Ok(OK)
}
