//! `plan doctor`: what is inconsistent in plan.md and the pending draft proposal,
//! with the command that resolves each; `--fix` repairs the mechanical ones through
//! the lossless patcher. A check: exit 1 while findings remain.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use crate::ctx::{Ctx, Env};
use crate::exit::{CHECK_FAILED, Exit, OK};
use crate::out::println;
use crate::plan::diag::Severity;
use crate::plan::doctor::{self, Finding, Proposal, Repair};
use crate::plan::model;
use crate::plan::precondition::{self, Seen};
use crate::plan::rules::Rule;
use crate::plan::text::escape_controls as esc;

/// Find inconsistencies in plan.md and the command resolving each; exits 1 on findings
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Repair what is mechanical: missing id comments, missing status lines, a
    /// missing `## Log`, an expired draft proposal, and what a merge without
    /// plan's driver left (duplicated log lines, a signed-off contract split or
    /// stripped, restored from its transcript); a cut plan.md is rebuilt from its
    /// last whole version in git and the writes plan journaled since, the cut file
    /// kept beside it; writes a saved older copy lacks are made again on plan.md,
    /// the saved version kept beside it
    #[arg(long)]
    pub fix: bool,
    /// Say that the writes plan acknowledged which plan.md lacks (`lost-writes`)
    /// were taken out on purpose (`git checkout -- plan.md`, a line deleted by
    /// hand): the file is left as it is and they are no longer reported
    #[arg(long, conflicts_with = "fix")]
    pub discard_lost: bool,
    /// Print the findings as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Report<'a> {
    file: &'a str,
    proposal: Option<&'a str>,
    /// What `--fix` repaired.
    fixed: &'a [Finding],
    /// What is left.
    findings: &'a [Finding],
}

/// The proposal file and how messages name it.
struct ProposalFile {
    path: PathBuf,
    name: String,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let proposal_file = ctx.repo.as_ref().map(|repo| {
        let path = repo.git_dir.join("plan").join("proposal.json");
        let name = path
            .strip_prefix(&repo.root)
            .unwrap_or(&path)
            .display()
            .to_string();
        ProposalFile { path, name }
    });
    let proposal_name = proposal_file.as_ref().map_or("", |p| p.name.as_str());
    // The same clock `plan review` uses for a proposal's expiry: the real one.
    let now = i64::try_from(crate::draft::proposal::now()).unwrap_or(i64::MAX);
    let stamp = crate::clock::now()?.stamp();
    let mut src = ctx.store.read()?;
    let mut fixed: Vec<Finding> = Vec::new();
    // A cut file first: it is rebuilt before any line of it is repaired (a `## Log`
    // added to it would make it look whole), and its other findings are the cut's.
    if let Some(cut) = crate::rebuild::find(ctx, &src) {
        let (keep, keep_name) = crate::rebuild::keep_path(ctx, "cut")?;
        let finding = cut.finding(&ctx.store.name, &keep_name);
        if !args.fix {
            return report(ctx, &args, &src, proposal_file.as_ref(), &[], vec![finding]);
        }
        ctx.store.restore(&src, &cut.text, &keep)?;
        if !args.json {
            println(&cut.shown(&src, &ctx.store.name, &keep_name))?;
        }
        fixed.push(finding);
        src = ctx.store.read()?;
    }
    // A whole file that lacks writes plan acknowledged: made again on it as it is,
    // what was saved over them kept beside it.
    let mut stale = None;
    if let Some(lacking) = crate::rebuild::stale(ctx, &src) {
        let (keep, keep_name) = crate::rebuild::keep_path(ctx, "stale")?;
        let mut finding = lacking.finding(&ctx.store.name, &keep_name);
        if args.discard_lost {
            if !args.json {
                // What is taken as meant, as `--fix` would have made it.
                println(&lacking.shown(&src, &ctx.store.name, &keep_name))?;
            }
            ctx.store.mark_meant(&src)?;
            println(&format!(
                "{}: {} since {} taken as meant; the file is left as it is",
                ctx.store.name,
                crate::plan::text::count(lacking.lost, "lost write"),
                lacking.since
            ))?;
        } else if args.fix && finding.fixable {
            // A write that lands meanwhile (one a cut rebuilt just now let through)
            // leaves this for the next run: the rest of the repairs still go on.
            match ctx.store.restore(&src, &lacking.text, &keep) {
                Ok(()) => {
                    if !args.json {
                        println(&lacking.shown(&src, &ctx.store.name, &keep_name))?;
                    }
                    fixed.push(finding);
                    src = ctx.store.read()?;
                }
                Err(crate::store::WriteError::Conflict { message, .. }) => {
                    finding
                        .message
                        .push_str(&format!("; not made again: {message}"));
                    finding.fix = "rerun `plan doctor --fix`".to_string();
                    src = ctx.store.read()?;
                    stale = Some(finding);
                }
                Err(e) => return Err(e.into()),
            }
        } else {
            // What `--fix` would make, to choose between it and `--discard-lost`.
            if !args.json && finding.fixable {
                println(&lacking.shown(&src, &ctx.store.name, &keep_name))?;
            }
            stale = Some(finding);
        }
    } else if args.discard_lost {
        println(&format!("{}: no lost writes to discard", ctx.store.name))?;
    }
    let mut findings = all_findings(
        ctx,
        &src,
        &read_proposal(proposal_file.as_ref())?,
        proposal_name,
        now,
        &stamp,
    );
    findings.extend(stale.clone());
    // A merge left half done is the person's to finish: --fix writes nothing into it.
    if args.fix
        && model::parse(&src)
            .errors
            .iter()
            .any(|e| e.rule == Some(crate::plan::rules::Rule::ConflictMarker))
    {
        ctx.parse(&src)?;
    }
    let remaining = if args.fix && findings.iter().any(|f| f.fixable) {
        let edits = doctor::fix_edits(&findings);
        if !edits.is_empty() {
            // A contract is restored only onto the goal as found: still done,
            // still where it was.
            let read = model::parse(&src);
            let seen: Vec<Seen> = findings
                .iter()
                .filter(|f| f.fixable && f.rule == Rule::SplitContract)
                .filter_map(|f| read.goals.iter().find(|g| g.line == f.line))
                .map(Seen::of)
                .collect();
            drop(read);
            ctx.store
                .write_checked(&src, edits, |fresh| precondition::all(&seen, fresh))?;
        }
        if let Some(file) = &proposal_file
            && findings.iter().any(|f| f.repair == Repair::RemoveProposal)
        {
            remove(&file.path, &file.name)?;
        }
        fixed.extend(
            findings
                .into_iter()
                .filter(|f| f.fixable && f.rule != Rule::LostWrites),
        );
        // Judged afresh: the write re-read the file, and a person may have edited it.
        src = ctx.store.read()?;
        let mut left = all_findings(
            ctx,
            &src,
            &read_proposal(proposal_file.as_ref())?,
            proposal_name,
            now,
            &stamp,
        );
        left.extend(stale);
        left
    } else {
        findings
    };
    report(ctx, &args, &src, proposal_file.as_ref(), &fixed, remaining)
}

/// Adds what a merge left to `remaining`, prints the report, and gives the exit
/// code: 1 while findings remain.
fn report(
    ctx: &Ctx,
    args: &Args,
    src: &str,
    proposal_file: Option<&ProposalFile>,
    fixed: &[Finding],
    remaining: Vec<Finding>,
) -> Result<u8> {
    let proposal_name = proposal_file.map_or("", |p| p.name.as_str());
    let mut remaining = remaining;
    // What a merge left is the one line that matters then: first, never buried
    // under the findings it explains.
    if let Some(message) = ctx
        .repo
        .as_ref()
        .and_then(crate::install::merge_driver::unconfigured)
    {
        remaining.insert(
            0,
            Finding {
                rule: crate::plan::rules::Rule::NoMergeDriver,
                severity: Severity::Warning,
                line: 0,
                message,
                fix: "run `plan install git` in this clone".to_string(),
                fixable: false,
                repair: Repair::None,
            },
        );
    }
    if let (Some(repo), Some(rel)) = (ctx.repo.as_ref(), ctx.plan_in_repo())
        && let Some((message, fix)) = crate::install::merge_driver::unmerged(repo, &rel, src)
    {
        remaining.insert(
            0,
            Finding {
                rule: crate::plan::rules::Rule::UnmergedPlan,
                severity: Severity::Error,
                line: 0,
                message,
                fix,
                fixable: false,
                repair: Repair::None,
            },
        );
    }
    if args.json {
        let report = Report {
            file: &ctx.store.name,
            proposal: proposal_file.map(|p| p.name.as_str()),
            fixed,
            findings: &remaining,
        };
        println(&crate::out::json(&report)?)?;
    } else {
        let view = View {
            src,
            proposal: proposal_name,
            fix: args.fix,
        };
        println(&view.text(ctx, fixed, &remaining))?;
        // Another tool's plan reads as no goals: say so rather than nothing.
        if let Some(line) = crate::plan::foreign::line(&model::parse(src), &ctx.store.name) {
            println(&line)?;
        }
    }
    Ok(if remaining.is_empty() {
        OK
    } else {
        CHECK_FAILED
    })
}

/// The table's findings, and what a merge without plan's driver left (each with
/// its repair, read from the sign-off transcripts on disk).
fn all_findings(
    ctx: &Ctx,
    src: &str,
    proposal: &Proposal,
    proposal_name: &str,
    now: i64,
    stamp: &str,
) -> Vec<Finding> {
    let mut plan = model::parse(src);
    ctx.prove(&mut plan);
    let mut findings = doctor::check(&plan, proposal, proposal_name, now);
    let root = ctx.prompt_root();
    let merged = merged_copies(ctx, src, &doctor::copied_lines(&plan));
    let repairs = doctor::merge_damage(
        &plan,
        &|rel| crate::record::text(&root, rel),
        &|line| merged.get(line).copied().unwrap_or(0),
        stamp,
    );
    findings.extend(repairs);
    findings.extend(lost_goal_lines(ctx, &plan));
    findings
}

/// Open and active goals whose contract is not the one their log recorded, with
/// the lines a committed version of the goal (with that contract) had and they lack.
fn lost_goal_lines(ctx: &Ctx, plan: &model::Plan<'_>) -> Vec<Finding> {
    const DEPTH: usize = 200;
    let changed: Vec<(&model::Goal<'_>, &str)> = plan
        .goals
        .iter()
        .filter(|g| !g.archived)
        .filter_map(|g| {
            let logged = plan.logged_contract(&g.id)?;
            (g.fingerprint() != logged).then_some((g, logged))
        })
        .collect();
    let (Some(repo), Some(rel)) = (&ctx.repo, ctx.plan_in_repo()) else {
        return Vec::new();
    };
    if changed.is_empty() {
        return Vec::new();
    }
    // Every version HEAD reaches, the merged branch's too: the lines a merge lost
    // are on the side that is not HEAD's first parent as often as on it.
    let wanted: Vec<(&str, &str)> = changed.iter().map(|(g, l)| (g.id.as_ref(), *l)).collect();
    let Ok(revisions) = crate::git::file_versions_where(&repo.root, &rel, DEPTH, |text| {
        let then = model::parse(text);
        wanted
            .iter()
            .any(|(id, logged)| then.goal(id).is_some_and(|g| g.fingerprint() == *logged))
    }) else {
        return Vec::new();
    };
    changed
        .into_iter()
        .filter_map(|(goal, logged)| {
            let then = revisions.iter().find_map(|rev| {
                let then = model::parse(&rev.content);
                let g = then.goal(&goal.id)?;
                (g.fingerprint() == logged).then(|| {
                    (g.line..=g.last_content)
                        .map(|n| then.line_text(n).trim_end_matches(['\r', '\n']))
                        .collect::<Vec<_>>()
                        .join("\n")
                })
            })?;
            doctor::lost_goal_lines(plan, goal, &then)
        })
        .collect()
}

/// How many copies of each of `lines` merges made, by plan.md's history. Without a
/// repository or a readable history none: a copy is merge damage only when the
/// history shows a merge made it, and doctor never removes a line on a guess.
fn merged_copies(ctx: &Ctx, src: &str, lines: &[&str]) -> std::collections::HashMap<String, usize> {
    let (Some(repo), Some(rel)) = (&ctx.repo, ctx.plan_in_repo()) else {
        return Default::default();
    };
    if lines.is_empty() {
        return Default::default();
    }
    crate::git::merged_copies(&repo.root, &rel, src, lines).unwrap_or_default()
}

fn read_proposal(file: Option<&ProposalFile>) -> Result<Proposal> {
    let Some(file) = file else {
        return Ok(Proposal::Absent);
    };
    match crate::fsread::bytes(&file.path, crate::fsread::STATE) {
        Ok(bytes) => Ok(Proposal::parse(&bytes)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Proposal::Absent),
        Err(e) => Err(crate::fsread::exit(&file.name, &e)),
    }
}

fn remove(path: &Path, name: &str) -> Result<()> {
    match crate::atomic::remove(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Exit::env(format!("cannot delete {name}: {e}"))),
    }
}

/// What the text report needs besides the findings.
struct View<'a> {
    /// plan.md as it is now, after any fixes: the findings' line numbers are its.
    src: &'a str,
    proposal: &'a str,
    fix: bool,
}

impl View<'_> {
    fn text(&self, ctx: &Ctx, fixed: &[Finding], remaining: &[Finding]) -> String {
        let name = &ctx.store.name;
        let place = |f: &Finding| {
            if f.rule.in_proposal() {
                self.proposal.to_string()
            } else if f.line == 0 {
                name.to_string()
            } else {
                format!("{name}:{}", f.line)
            }
        };
        let plan = model::parse(self.src);
        let mut blocks: Vec<String> = Vec::new();
        if !fixed.is_empty() {
            let lines: Vec<String> = fixed
                .iter()
                .map(|f| {
                    let done = f.done().unwrap_or_default();
                    // The goal, not the line: lines moved as the fixes went in.
                    let place = if f.rule.in_proposal() {
                        self.proposal
                    } else {
                        name
                    };
                    ctx.style.paint("32", &format!("fixed {place}: {done}"))
                })
                .collect();
            blocks.push(lines.join("\n"));
        }
        // Weak sign-offs share one fix: said once under them all, so a line that
        // matters (no-merge-driver) is not buried under the same hint N times.
        // Only those whose fix is that one: a checkpoint to fetch, or a ref to
        // point back, keeps its own.
        let shared = |f: &Finding| {
            f.rule == Rule::WeakSignOff && f.fix.starts_with("plan audit shows its record")
        };
        let weak = remaining.iter().filter(|f| shared(f)).count();
        let grouped = weak >= 2;
        if !remaining.is_empty() {
            let ordered = remaining
                .iter()
                .filter(|f| !grouped || !shared(f))
                .chain(remaining.iter().filter(|f| grouped && shared(f)));
            let mut lines: Vec<String> = ordered
                .map(|f| {
                    // Messages and the quoted line are plan.md text: escaped.
                    // The same label and rule id as `plan lint` prints.
                    let label = match f.severity {
                        Severity::Error => "",
                        Severity::Warning => "warning: ",
                    };
                    let mut out = format!(
                        "{}: {label}{} [{}]",
                        place(f),
                        esc(&crate::plan::text::excerpt_at(
                            &f.message,
                            crate::plan::diag::MESSAGE_MAX
                        )),
                        f.rule.id()
                    );
                    if f.line > 0 && !f.rule.in_proposal() && f.line <= plan.lines.len() {
                        out.push_str(&format!(
                            "\n{:>5} | {}",
                            f.line,
                            esc(&crate::plan::text::excerpt(
                                plan.line_text(f.line).trim_end()
                            ))
                        ));
                    }
                    if !grouped || !shared(f) {
                        out.push_str(&format!(
                            "\n  {} {}",
                            ctx.style.paint("1", "fix:"),
                            esc(&f.fix)
                        ));
                    }
                    out
                })
                .collect();
            if grouped {
                lines.push(format!(
                    "  {} (the {weak} weak sign-offs above) plan audit shows each one's record; to have a model judge a goal, reopen it and run plan complete ID again",
                    ctx.style.paint("1", "fix:")
                ));
            }
            blocks.push(lines.join("\n"));
        }
        let n = remaining.len();
        let fixable = remaining.iter().filter(|f| f.fixable).count();
        blocks.push(match (n, fixable) {
            (0, _) if !fixed.is_empty() => format!("{name}: no findings left"),
            (0, _) => format!("{name}: no findings"),
            (n, 0) if self.fix => format!("{n} {} left", plural(n)),
            (n, 0) => format!("{n} {}", plural(n)),
            (n, k) => format!("{n} {}, {k} fixable with plan doctor --fix", plural(n)),
        });
        blocks.join("\n\n")
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "finding" } else { "findings" }
}
