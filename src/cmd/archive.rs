//! `plan archive`: move proven done and cancelled goals, verbatim, under
//! `## Archive`. An unproven one stays in sight: it is remaining work.

use anyhow::Result;

use crate::clock;
use crate::ctx::Env;
use crate::exit::{CHECK_FAILED, Exit, OK};
use crate::plan::ops;
use crate::plan::precondition::{self, Seen};
use crate::plan::unarchive::Section;

/// Move done and cancelled goals under `## Archive` (kept verbatim, nothing deleted)
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(env: &Env, _args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let src = ctx.store.read_for_write()?;
    let plan = ctx.parse(&src)?;
    let (mut edits, moved) = ops::archive(&plan);
    // Goals already under `## Archive` are not this run's to move (`plan audit`
    // names an unproven one).
    let unproven: Vec<String> = plan
        .unproven()
        .filter(|g| !g.archived)
        .map(|g| {
            let proof = plan.proof(g);
            // A goal imported as done has no reason of its own (`why` is empty): it
            // was said as "unproven: " and nothing. Its label says what it is.
            match (proof.why(), proof.imported_label()) {
                (None, Some(label)) => format!(
                    "plan: not archived: {} is {}",
                    g.id,
                    crate::plan::text::escape_controls(&label)
                ),
                (why, _) => format!(
                    "plan: not archived: {} is {} but unproven: {}",
                    g.id,
                    g.status().as_str(),
                    crate::plan::text::escape_controls(why.unwrap_or_default())
                ),
            }
        })
        .collect();
    if !moved.is_empty() {
        let stamp = clock::now()?.stamp();
        let noun = if moved.len() == 1 { "goal" } else { "goals" };
        let summary = format!("archived {} {noun}: {}", moved.len(), moved.join(", "));
        edits.push(ops::log(&stamp, &summary));
        // Each goal moves only as it was found: reopened meanwhile, it stays.
        let seen: Vec<Seen> = plan
            .live()
            .filter(|g| moved.iter().any(|id| *id == *g.id))
            .map(Seen::of)
            .collect();
        // And only with the lines it had: the move deletes the goal's lines as read
        // and appends that copy, so a line added to it meanwhile (a note, a
        // subtask) would stay behind, the last line of the goal before it.
        let sections: Vec<Section> = plan
            .live()
            .filter(|g| moved.iter().any(|id| *id == *g.id))
            .map(|g| Section::of(&plan, g))
            .collect();
        // The write parses the file again: one parse of a long plan at a time.
        drop(plan);
        ctx.store.write_checked(&src, edits, |fresh| {
            precondition::all(&seen, fresh)?;
            sections.iter().try_for_each(|s| s.check(fresh))
        })?;
        ctx.say(&summary)?;
    } else if unproven.is_empty() {
        ctx.say("nothing to archive: no goal is done or cancelled")?;
    }
    if unproven.is_empty() {
        return Ok(OK);
    }
    crate::out::warn(&format!(
        "{}\n  hint: sign them off with `plan complete ID --evidence TEXT`, or record a cancel with `plan cancel ID --reason TEXT`; `plan audit` shows each record",
        unproven.join("\n")
    ));
    Err(Exit::quiet(CHECK_FAILED))
}
