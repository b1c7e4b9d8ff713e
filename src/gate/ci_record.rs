//! CI's accepts, carried from the gate's judge job to the workflow's update job
//! (issue 71): the judge job writes the sign-offs its own model judge accepted to a
//! file (`plan audit --ci-accepted FILE`) signed with HMAC-SHA256 under the secret
//! `PLAN_RECORD_KEY`; after the merge, the update job checks the file
//! (`plan audit --record-ci FILE`) and logs a `ci_judged` line for each sign-off the
//! default branch's plan.md still has. The verify job, which runs the pull
//! request's code, gets no secret, so an artifact it uploads under the same name
//! does not check; the gate fails a pull request that writes `ci_judged` lines itself.

use std::path::Path;

use anyhow::Result;
use sha2::{Digest, Sha256};

use crate::ctx::Ctx;
use crate::exit::Exit;
use crate::plan::event::Event;
use crate::plan::model::{Plan, Status};

/// The secret the file is signed with; only the judge and update jobs get it.
pub const KEY_VAR: &str = crate::env::RECORD_KEY;

/// The CI run the judge job is part of, as GitHub Actions sets it.
const RUN_VAR: &str = "GITHUB_RUN_ID";

/// The file's first line: its kind and version.
const HEAD: &str = "plan ci-accepted 1";

/// A key shorter than this is refused: the workflow's docs make one with
/// `openssl rand -hex 32`.
const MIN_KEY: usize = 16;

/// A file larger than this is no file the judge job wrote (`gate.max_judged`
/// goals of a few dozen bytes each).
const MAX_FILE: u64 = 1 << 20;

/// One sign-off CI's judge accepted: the goal, the checkpoint and the contract
/// fingerprint its sign-off line names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accepted {
    pub goal: String,
    pub checkpoint: String,
    pub contract: String,
}

/// What signs the file: the key from `PLAN_RECORD_KEY`, and the run it names.
pub struct Signer {
    key: Vec<u8>,
    run: String,
}

/// The key from the environment, or why there is none to use.
fn key() -> Result<Vec<u8>> {
    let key = crate::env::text(KEY_VAR).unwrap_or_default();
    if key.is_empty() {
        return Err(Exit::usage_hint(
            format!("{KEY_VAR} is not set: CI's accepts are signed and checked with it"),
            format!(
                "add a repository secret {KEY_VAR} (`openssl rand -hex 32`) and pass it to the gate's judge job and the update job only, never to the verify job"
            ),
        ));
    }
    if key.len() < MIN_KEY {
        return Err(Exit::usage(format!(
            "{KEY_VAR} is {} characters, fewer than {MIN_KEY}: too short to sign with",
            key.len()
        )));
    }
    Ok(key.into_bytes())
}

/// The key is never printed, not even in a debug dump.
impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Signer")
            .field("run", &self.run)
            .finish_non_exhaustive()
    }
}

impl Signer {
    /// For `--ci-accepted`, checked before anything runs: the key, and the run.
    pub fn from_env() -> Result<Signer> {
        let key = key()?;
        let run = crate::env::text(RUN_VAR).unwrap_or_default();
        if !valid(
            &Accepted {
                goal: "a".into(),
                checkpoint: "0000000".into(),
                contract: String::new(),
            },
            &run,
        ) {
            return Err(Exit::usage(format!(
                "--ci-accepted names the CI run from {RUN_VAR}, which is {}: it is for the gate's judge job in GitHub Actions",
                if run.is_empty() {
                    "not set".to_string()
                } else {
                    format!("`{run}`, not a run id")
                }
            )));
        }
        Ok(Signer { key, run })
    }
}

/// HMAC-SHA256 (RFC 2104) of `message` under `key`: sha2 is already plan's, and
/// the construction is a dozen lines, so no crate is added for it.
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut block = [0u8; BLOCK];
    if key.len() > BLOCK {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    let outer = Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize();
    outer.into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether the entry, with `run`, makes a `ci_judged` line plan reads back as
/// itself: the same rules as the log's for the id, checkpoint and run.
fn valid(entry: &Accepted, run: &str) -> bool {
    let event = Event::CiJudged {
        id: &entry.goal,
        checkpoint: &entry.checkpoint,
        run,
    };
    let contract_ok = entry.contract.is_empty()
        || (entry.contract.len() == 8 && entry.contract.bytes().all(|b| b.is_ascii_hexdigit()));
    contract_ok && Event::parse(&event.render()) == Some(event)
}

/// The file's text: its lines, then `mac` and the HMAC of every byte before it.
pub fn render(signer: &Signer, commit: &str, accepted: &[Accepted]) -> String {
    let mut body = format!("{HEAD}\nrun {}\ncommit {commit}\n", signer.run);
    for a in accepted {
        body.push_str(&format!(
            "accept {} {} {}\n",
            a.goal, a.checkpoint, a.contract
        ));
    }
    let mac = hex(&hmac_sha256(&signer.key, body.as_bytes()));
    format!("{body}mac {mac}\n")
}

/// What a checked file says: the run and commit the judge job judged, and the
/// sign-offs it accepted.
#[derive(Debug, PartialEq, Eq)]
pub struct Checked {
    pub run: String,
    pub commit: String,
    pub accepted: Vec<Accepted>,
}

/// Reads a file [`render`] wrote, once its HMAC checks under `key` (compared in
/// constant time); any other text is refused whole, with why.
pub fn check(text: &str, key: &[u8]) -> Result<Checked, String> {
    let at = text
        .rfind("\nmac ")
        .ok_or("it has no `mac` line: it is no file `plan audit --ci-accepted` wrote")?;
    let (body, mac) = (&text[..=at], &text[at + "\nmac ".len()..]);
    let mac = mac.strip_suffix('\n').unwrap_or(mac);
    let want = hex(&hmac_sha256(key, body.as_bytes()));
    let differ = want
        .bytes()
        .zip(mac.bytes())
        .fold(want.len() ^ mac.len(), |acc, (a, b)| {
            acc | usize::from(a ^ b)
        });
    if differ != 0 {
        return Err(format!(
            "its HMAC does not check under {KEY_VAR}: it was not written by the gate's judge job with this key, or was changed since"
        ));
    }
    let mut lines = body.lines();
    if lines.next() != Some(HEAD) {
        return Err(format!("its first line is not `{HEAD}`"));
    }
    let mut field = |name: &str| {
        lines
            .next()
            .and_then(|l| l.strip_prefix(name))
            .and_then(|l| l.strip_prefix(' '))
            .map(str::to_string)
            .ok_or(format!("it has no `{name}` line where one belongs"))
    };
    let run = field("run")?;
    let commit = field("commit")?;
    let mut accepted = Vec::new();
    for line in lines {
        let words: Vec<&str> = line.split(' ').collect();
        let entry = match words.as_slice() {
            ["accept", goal, checkpoint, contract] => Accepted {
                goal: goal.to_string(),
                checkpoint: checkpoint.to_string(),
                contract: contract.to_string(),
            },
            _ => {
                return Err(format!(
                    "a line of it reads `{line}`, not `accept GOAL CHECKPOINT CONTRACT`"
                ));
            }
        };
        if !valid(&entry, &run) || entry.contract.is_empty() {
            return Err(format!(
                "a line of it reads `{line}`, which names no goal, checkpoint and contract plan writes"
            ));
        }
        accepted.push(entry);
    }
    Ok(Checked {
        run,
        commit,
        accepted,
    })
}

/// The checkpoint and contract the goal's latest sign-off names, if both.
fn latest_sign_off<'a>(plan: &Plan<'a>, id: &str) -> Option<(&'a str, &'a str)> {
    plan.events(id).rev().find_map(|(_, e)| match e {
        Event::SignedOff {
            checkpoint,
            contract,
            ..
        } => Some(checkpoint.zip(contract)),
        _ => None,
    })?
}

/// The judge job's file: each goal of `ids` (signed off in the pull request, its
/// re-judge accepted) whose sign-off names a checkpoint. Written only when at
/// least one does; returns how many it names.
pub fn write(
    file: &Path,
    signer: &Signer,
    plan: &Plan<'_>,
    commit: &str,
    ids: &[String],
) -> Result<usize> {
    let accepted: Vec<Accepted> = ids
        .iter()
        .filter_map(|id| {
            let (checkpoint, contract) = latest_sign_off(plan, id)?;
            Some(Accepted {
                goal: id.clone(),
                checkpoint: checkpoint.to_string(),
                contract: contract.to_string(),
            })
        })
        .filter(|a| valid(a, &signer.run))
        .collect();
    if accepted.is_empty() {
        return Ok(0);
    }
    let text = render(signer, commit, &accepted);
    #[expect(
        clippy::disallowed_methods,
        reason = "the file the person named with --ci-accepted, written where they said"
    )]
    std::fs::write(file, text).map_err(|e| {
        Exit::env(format!(
            "cannot write CI's accepts to {}: {e}",
            file.display()
        ))
    })?;
    Ok(accepted.len())
}

/// Why an accepted sign-off is not logged on this plan, or `None` when it is to
/// be: the goal done, its latest sign-off naming that checkpoint and contract, not
/// reopened since, and no `ci_judged` line for it yet.
fn not_to_log(plan: &Plan<'_>, entry: &Accepted) -> Option<String> {
    let id = entry.goal.as_str();
    let Some(goal) = plan.goal(id) else {
        return Some(format!("{id}: no such goal here"));
    };
    if goal.status() != Status::Done {
        return Some(format!("{id}: it is {}, not done", goal.status().as_str()));
    }
    match latest_sign_off(plan, id) {
        Some((c, f)) if c == entry.checkpoint && f == entry.contract => {}
        _ => {
            return Some(format!(
                "{id}: its latest sign-off does not name checkpoint {} and contract {}",
                entry.checkpoint, entry.contract
            ));
        }
    }
    let reopened = plan.events(id).rev().find_map(|(_, e)| match e {
        Event::SignedOff { .. } => Some(false),
        Event::Reopened { .. } => Some(true),
        _ => None,
    });
    if reopened == Some(true) {
        return Some(format!("{id}: it was reopened after that sign-off"));
    }
    if crate::plan::proof::judged_by_ci(plan, id).is_some() {
        return Some(format!(
            "{id}: CI's accept of that sign-off is logged already"
        ));
    }
    None
}

/// What `--record-ci` did: the lines it logged and the entries it passed over.
pub struct Recorded {
    pub logged: Vec<String>,
    pub skipped: Vec<String>,
}

/// The update job's step: checks `file` under `PLAN_RECORD_KEY`, then appends a
/// `ci_judged` line for each entry the plan still has as it was accepted, through
/// the store (under its lock, against a fresh read: nothing another write made
/// is lost). A file that does not check is refused whole, and nothing is written.
pub fn record(ctx: &Ctx, file: &Path) -> Result<Recorded> {
    let key = key()?;
    let too_big = std::fs::metadata(file).is_ok_and(|m| m.len() > MAX_FILE);
    let text = match too_big {
        true => Err(format!("it is larger than {MAX_FILE} bytes")),
        false => std::fs::read_to_string(file).map_err(|e| e.to_string()),
    };
    let checked = text.and_then(|t| check(&t, &key)).map_err(|why| {
        Exit::check_failed_hint(
            format!("refusing CI's accepts in {}: {why}; nothing was recorded", file.display()),
            "record only the plan-ci-accepted artifact of the gate's judge job, with the PLAN_RECORD_KEY that job had",
        )
    })?;
    // The checkout is the default branch just after a merge: its settings came
    // with the pull request, and this step holds the key and a push token. No
    // `notify:` command of it runs (red team, issue 71).
    ctx.store.announce_nothing();
    let src = ctx.store.read_for_write()?;
    let plan = ctx.parse(&src)?;
    let mut logged = Vec::new();
    let mut skipped = Vec::new();
    for entry in &checked.accepted {
        match not_to_log(&plan, entry) {
            Some(why) => skipped.push(why),
            None if logged
                .iter()
                .any(|(id, _): &(String, String)| *id == entry.goal) => {}
            None => logged.push((entry.goal.clone(), entry.checkpoint.clone())),
        }
    }
    if logged.is_empty() {
        return Ok(Recorded {
            logged: Vec::new(),
            skipped,
        });
    }
    let stamp = crate::clock::now()?.stamp();
    let lines: Vec<String> = logged
        .iter()
        .map(|(id, checkpoint)| {
            Event::CiJudged {
                id,
                checkpoint,
                run: &checked.run,
            }
            .render()
        })
        .collect();
    let edits = lines
        .iter()
        .map(|line| crate::plan::ops::log(&stamp, line))
        .collect();
    // Decided on the plan as first read: a sign-off that changed under the lock is
    // no longer the one CI's judge accepted.
    let entries: Vec<&Accepted> = checked
        .accepted
        .iter()
        .filter(|a| logged.iter().any(|(id, _)| *id == a.goal))
        .collect();
    ctx.store.write_checked(&src, edits, |fresh| {
        match entries.iter().find_map(|a| not_to_log(fresh, a)) {
            Some(why) => Err(format!("{why}, since plan read it")),
            None => Ok(()),
        }
    })?;
    Ok(Recorded {
        logged: lines,
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_hex(text: &str) -> Vec<u8> {
        (0..text.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
            .collect()
    }

    // RFC 4231's test cases 1, 2 and 6 (a key longer than a block).
    #[test]
    fn hmac_sha256_matches_rfc_4231() {
        assert_eq!(
            hex(&hmac_sha256(&[0x0b; 20], b"Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        assert_eq!(
            hex(&hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(
            hex(&hmac_sha256(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
        assert_eq!(from_hex("0b0c"), [0x0b, 0x0c]);
    }

    fn signer() -> Signer {
        Signer {
            key: b"0123456789abcdef0123".to_vec(),
            run: "42".into(),
        }
    }

    fn ship() -> Accepted {
        Accepted {
            goal: "ship".into(),
            checkpoint: "1a2b3c4d5e6f".into(),
            contract: "0123abcd".into(),
        }
    }

    #[test]
    fn a_file_checks_under_its_key_only_and_whole() {
        let s = signer();
        let text = render(&s, "c0ffee", &[ship()]);
        assert_eq!(
            check(&text, &s.key),
            Ok(Checked {
                run: "42".into(),
                commit: "c0ffee".into(),
                accepted: vec![ship()],
            })
        );
        assert!(check(&text, b"another key of enough length").is_err());
        let edited = text.replace("accept ship", "accept shop");
        assert!(check(&edited, &s.key).unwrap_err().contains("HMAC"));
        let cut = text.replace("mac ", "mac 0");
        assert!(check(&cut, &s.key).is_err());
        assert!(check("no mac here\n", &s.key).is_err());
    }

    #[test]
    fn a_signed_line_plan_would_not_log_is_refused() {
        let s = signer();
        let bad = Accepted {
            checkpoint: "not-hex".into(),
            ..ship()
        };
        let mut body = format!("{HEAD}\nrun 42\ncommit c\n");
        body.push_str(&format!(
            "accept {} {} {}\n",
            bad.goal, bad.checkpoint, bad.contract
        ));
        let text = format!("{body}mac {}\n", hex(&hmac_sha256(&s.key, body.as_bytes())));
        assert!(check(&text, &s.key).unwrap_err().contains("not-hex"));
    }
}
