//! Ready: the approved draft goes into plan.md in one write — checked again against
//! the plan as it is now — and the person is told how to start on it with a fresh
//! context. The only place plan mode writes plan.md; an approved import goes
//! through the same write ([`write_fresh`]).

use std::io::IsTerminal;

use anyhow::Result;

use super::run::check;
use crate::clock;
use crate::ctx::Ctx;
use crate::exit::{CHECK_FAILED, Exit};
use crate::out::println;
use crate::plan::draft::{Approval, Approved, approve};
use crate::plan::model::Status;
use crate::plan::patch::Edit;
use crate::store::WriteError;

/// Concurrent writers may take the ids or lines an approval meant to use; it is
/// worked out again from a fresh read.
const ATTEMPTS: usize = 8;

/// Adds the draft `text` to plan.md (creating it when there is none), with its
/// objective, and with `replace` cancelling and archiving what was there.
pub fn apply(ctx: &Ctx, text: &str, objective: &str, replace: bool) -> Result<Approved> {
    let stamp = clock::now()?.stamp();
    write_fresh(ctx, |src| {
        let plan = ctx.parse(src)?;
        let checked = check(text, &plan);
        if !checked.is_ok() {
            return Err(Exit::diagnostics(
                CHECK_FAILED,
                format!(
                    "{}\nplan: the draft does not fit {} as it is now; nothing was written\n  hint: `plan draft` again, or fix it by hand",
                    checked.render_problems().join("\n"),
                    ctx.store.name
                ),
            ));
        }
        // `--replace` cancels every open and active goal: one with format errors
        // (two `status:` lines) had its first line set and the other kept, so it
        // read as cancelled and not. Refused as `plan cancel` refuses it.
        if replace {
            let broken: Vec<_> = plan
                .live()
                .filter(|g| !g.status().is_finished())
                .filter_map(|g| {
                    let errors: Vec<_> = plan.errors_in(g).into_iter().cloned().collect();
                    (!errors.is_empty()).then(|| (g.id.to_string(), errors))
                })
                .collect();
            if !broken.is_empty() {
                let ids: Vec<&str> = broken.iter().map(|(id, _)| id.as_str()).collect();
                let errors: Vec<_> = broken.iter().flat_map(|(_, e)| e.clone()).collect();
                return Err(Exit::diagnostics(
                    crate::exit::USAGE,
                    format!(
                        "{}\n{}: --replace would cancel goal {} with format errors; nothing was written\n  hint: fix the lines above (plan doctor --fix repairs the mechanical ones), then approve again",
                        ctx.render(&plan, &errors),
                        ctx.store.name,
                        ids.join(", ")
                    ),
                ));
            }
        }
        let commit = ctx.head_commit()?;
        let how = Approval {
            objective,
            replace,
            stamp: &stamp,
            commit: commit.as_deref(),
            prove: &|p| ctx.prove(p),
        };
        let approved = approve(src, &checked, &how);
        Ok((approved.edits.clone(), approved.text.clone(), approved))
    })
}

/// Writes the change `make` works out from plan.md as it is (empty when there is
/// none) — its edits, or its whole text when plan.md is created — in one store
/// write. A proposal's goals land this way, a draft's or an import's.
pub fn write_fresh<T>(
    ctx: &Ctx,
    mut make: impl FnMut(&str) -> Result<(Vec<Edit>, String, T)>,
) -> Result<T> {
    for attempt in 1..=ATTEMPTS {
        let exists = ctx.store.path.exists();
        let src = match exists {
            true => ctx.store.read_for_write()?,
            false => String::new(),
        };
        let (edits, text, made) = make(&src)?;
        let written = match exists {
            // `make` decided on `src`; the store's own checks cover the lines.
            true => ctx
                .store
                .write_checked(&src, edits, crate::plan::precondition::intact)
                .map(drop),
            // Someone may create it meanwhile: then it is read and added to.
            false if ctx.store.path.exists() => Err(WriteError::Conflict {
                message: String::new(),
                hint: String::new(),
            }),
            false => ctx.store.create(&text).map_err(WriteError::Other),
        };
        match written {
            Ok(()) => return Ok(made),
            Err(WriteError::Conflict { .. }) if attempt < ATTEMPTS => continue,
            Err(e) => return Err(e.into()),
        }
    }
    unreachable!("the last attempt returns")
}

/// What the approval did, for the person.
pub fn report(ctx: &Ctx, approved: &Approved, objective: &str) -> String {
    let n = approved.added.len();
    let noun = if n == 1 { "goal" } else { "goals" };
    let mut out = vec![format!(
        "added {n} {noun} to {} for \"{objective}\":",
        ctx.store.name
    )];
    let width = approved
        .added
        .iter()
        .map(|a| a.id.chars().count())
        .max()
        .unwrap_or(0);
    for goal in &approved.added {
        let pad = width - goal.id.chars().count();
        let what = match (&goal.status, &goal.contract) {
            (Status::Active, Some(contract)) => format!("active (contract {contract})"),
            _ => format!("open, waits on {}", goal.waits_on.join(", ")),
        };
        out.push(format!("  {}{:pad$}  {what}", goal.id, ""));
    }
    if !approved.cancelled.is_empty() {
        out.push(format!(
            "cancelled (replaced): {}",
            approved.cancelled.join(", ")
        ));
    }
    if !approved.archived.is_empty() {
        out.push(format!("archived: {}", approved.archived.join(", ")));
    }
    out.join("\n")
}

/// Prints the fresh-context hints; on a terminal, only if the person wants them.
pub fn offer_fresh_context(ask: bool) -> Result<()> {
    if ask && std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        let show = dialoguer::Confirm::new()
            .with_prompt("Show how to start the work in a fresh context (per host)?")
            .default(true)
            .interact_opt()?
            .unwrap_or(false);
        if !show {
            return Ok(());
        }
    }
    println(&crate::hosts::fresh_context())
}

/// Ready, `--yes` and `plan review --approve`: apply, say what was added, and offer
/// the fresh start (on a terminal asking first, unless `ask` is off: `--yes`).
pub fn ready(ctx: &Ctx, text: &str, objective: &str, replace: bool, ask: bool) -> Result<()> {
    let approved = apply(ctx, text, objective, replace)?;
    println(&report(ctx, &approved, objective))?;
    offer_fresh_context(ask)
}
