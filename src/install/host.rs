//! plan's hooks registered with a host, and taken back: in its settings file, as a
//! Claude Code plugin, or as a file of plan's own (pi's extension), with what the
//! host still needs before they run, and `--check`'s report. The merge itself is
//! `install::hooks`; this file finds, reads, writes and prints.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use anyhow::Result;

use crate::exit::{Exit, OK};
use crate::git::Repo;
use crate::hosts::Registration;
use crate::install::files::{
    Place, invalid, listing, place, plugin_files, prune, read_settings, read_text, remove, settle,
    write_atomic,
};
use crate::install::hooks::{self, Host};
use crate::out::print;

/// Registers plan's hooks with one host, at the place `--global` picks. With
/// `keep` (no `--command` given) a program a person registered in plan's entries
/// stays ([`hooks::install_keeping`]).
pub fn install(
    host: Host,
    global: bool,
    repo: Option<&Repo>,
    program: &str,
    keep: bool,
) -> Result<u8> {
    let place = place(host, global, repo)?;
    if let Registration::File {
        what,
        text,
        is_ours,
        ..
    } = host.spec().registration
    {
        return write_file(host, &place, (what, text, is_ours), program, keep);
    }
    let comments = host.spec().registration.comments();
    let mut settings = read_settings(&place.path, &place.shown, comments)?.unwrap_or_default();
    let merge = match keep {
        true => hooks::install_keeping(&mut settings.doc, host, program),
        false => hooks::install(&mut settings.doc, host, program),
    }
    .map_err(|e| invalid(&place.shown, e))?;
    if !merge.changed() {
        print(&format!(
            "plan's hooks for {} are already installed in {}\n",
            host.title(),
            place.shown
        ))?;
        return Ok(OK);
    }
    // Worked out before writing: a failure here must not follow a half-reported write.
    let next = next_steps(host, &place)?;
    settings.save(&place.path, &place.shown)?;
    let mut out = format!(
        "installed plan's hooks for {} in {}\n",
        host.title(),
        place.shown
    );
    if let Registration::Settings(crate::hosts::Settings {
        enable: Some(key), ..
    }) = host.spec().registration
    {
        if merge.enabled {
            out.push_str(&format!("  set {key}.enabled: true\n"));
        }
        if merge.disabled {
            out.push_str(&format!(
                "  note: {} has {key}.enabled: false, which turns off every {} hook; plan left it, so its hooks will not run until you set it to true\n",
                place.shown,
                host.title()
            ));
        }
    }
    out.push_str(&listing(&merge.changes));
    out.push_str(&next);
    print(&out)?;
    warn_if_not_on_path(program);
    Ok(OK)
}

/// Every host whose CLI is on PATH, each registered as `plan install HOST` would;
/// one failing does not stop the others, and the worst exit code is returned.
pub fn install_all(global: bool, repo: Option<&Repo>, program: &str, keep: bool) -> Result<u8> {
    let found: Vec<Host> = Host::ALL
        .into_iter()
        .filter(|h| crate::exec::find_on_path(h.spec().judge.program).is_some())
        .collect();
    if found.is_empty() {
        let names: Vec<&str> = Host::ALL.iter().map(|h| h.spec().judge.program).collect();
        print(&format!(
            "no host CLI found on PATH (looked for {}); nothing was registered\n",
            names.join(", ")
        ))?;
        return Ok(OK);
    }
    let mut worst = OK;
    for host in found {
        let code = match install(host, global, repo, program, keep) {
            Ok(code) => code,
            Err(e) => {
                let (code, shown) = Exit::shown(&e);
                crate::out::warn(&shown.unwrap_or_default());
                code
            }
        };
        worst = worst.max(code);
    }
    Ok(worst)
}

/// What `--check` found for one host.
enum Found {
    Missing,
    /// Registered, running `program`; `current` when a reinstall would change nothing.
    Registered {
        program: String,
        current: bool,
        /// The host's switch for all hooks is off (Gemini's `hooksConfig.enabled`).
        switched_off: bool,
        /// A file plan writes whole that a person edited: theirs, left as it is.
        edited: bool,
        /// The hook events plan registers that have no entry of plan's, and those
        /// whose entry a reinstall would rewrite: `--check` names each, since a
        /// removed TaskCompleted is a gate gone, not an old entry.
        missing: Vec<String>,
        outdated: Vec<String>,
    },
    Unreadable(String),
}

/// `plan install --check`: one line per host, exit 1 when a host in use lacks
/// something. A host counts as in use when its CLI is on PATH or plan is registered
/// with it.
pub fn check(global: bool, repo: Option<&Repo>, program: &str) -> Result<u8> {
    let width = Host::ALL.iter().map(|h| h.title().len()).max().unwrap_or(0) + 2;
    let mut out = String::new();
    let mut missing = false;
    for host in Host::ALL {
        let place = place(host, global, repo)?;
        let found = match registration(host, &place, program) {
            Ok(found) => found,
            Err(e) => Found::Unreadable(
                e.downcast_ref::<Exit>()
                    .and_then(|x| x.message.clone())
                    .unwrap_or_else(|| e.to_string()),
            ),
        };
        let on_path = crate::exec::find_on_path(host.spec().judge.program).is_some();
        let mut notes: Vec<String> = Vec::new();
        let mut bad = false;
        match &found {
            Found::Missing if !on_path => {
                notes.push(format!(
                    "not registered; {} is not on PATH",
                    host.spec().judge.program
                ));
            }
            Found::Missing => {
                bad = true;
                notes.push(format!(
                    "not registered in {}: run `plan install {}`",
                    place.shown,
                    host.name()
                ));
            }
            Found::Unreadable(why) => {
                bad = true;
                notes.push(format!("cannot tell: {why}"));
            }
            Found::Registered {
                program,
                current,
                switched_off,
                edited,
                missing: absent,
                outdated,
            } => {
                notes.push(format!("registered in {}", place.shown));
                if *edited {
                    notes.push(
                        "edited since it was installed, so plan leaves it as it is".to_string(),
                    );
                }
                if *switched_off {
                    bad = true;
                    notes.push(format!(
                        "{}'s switch for all hooks is off in {}, so none run",
                        host.title(),
                        place.shown
                    ));
                }
                if !absent.is_empty() {
                    bad = true;
                    notes.push(format!(
                        "no hook for {}: run `plan install {}` to add {}",
                        absent.join(", "),
                        host.name(),
                        if absent.len() == 1 { "it" } else { "them" }
                    ));
                }
                if !current && (absent.is_empty() || !outdated.is_empty()) {
                    bad = true;
                    let which = match outdated.is_empty() {
                        true => String::new(),
                        false => format!(" ({})", outdated.join(", ")),
                    };
                    notes.push(format!(
                        "written by an older plan{which}: run `plan install {}` to bring it up to date",
                        host.name()
                    ));
                }
                if let Some(step) = (host.spec().trust_pending)(place.root.as_deref()) {
                    bad = true;
                    notes.push(format!("trust step pending: {step}"));
                }
                let word = crate::hosts::protocol::program_word(program);
                if !runnable(word) {
                    bad = true;
                    // A path (plan registers its own) is gone when plan moved: an
                    // install without --command keeps it, so the hint names one.
                    notes.push(match word.contains('/') {
                        true => format!(
                            "`{word}` is no executable file, so they cannot run it: run `plan install {} --command PATH` with the plan binary's path",
                            host.name()
                        ),
                        false => format!("`{word}` is not on the hooks' PATH, so they cannot run it"),
                    });
                }
            }
        }
        missing |= bad;
        let mark = if bad {
            "✗"
        } else if matches!(found, Found::Registered { .. }) {
            "✓"
        } else {
            "-"
        };
        out.push_str(&format!(
            "{mark} {:<width$}{}\n",
            host.title(),
            notes.join("; ")
        ));
    }
    out.push_str(&runner_line(program));
    print(&out)?;
    Ok(if missing {
        crate::exit::CHECK_FAILED
    } else {
        OK
    })
}

/// Whether plan is registered with `host` at `place`, and with what program.
fn registration(host: Host, place: &Place, program: &str) -> Result<Found> {
    match &host.spec().registration {
        Registration::File { text, is_ours, .. } => {
            Ok(match read_text(&place.path, &place.shown)? {
                Some(found) if is_ours(&found) => {
                    let shipped = text(crate::hosts::protocol::DEFAULT_PROGRAM);
                    let edited = !crate::hosts::as_written(&found, *text);
                    Found::Registered {
                        program: crate::hosts::program_in(&found)
                            .unwrap_or_else(|| program.to_string()),
                        current: edited
                            || found == crate::hosts::naming_program_of(&found, &shipped),
                        switched_off: false,
                        edited,
                        missing: Vec::new(),
                        outdated: Vec::new(),
                    }
                }
                _ => Found::Missing,
            })
        }
        Registration::Settings(registered) => {
            let Some(settings) = read_settings(&place.path, &place.shown, registered.comments)?
            else {
                return Ok(Found::Missing);
            };
            let Some(registered) = hooks::registered_program(&settings.doc, host, program) else {
                return Ok(Found::Missing);
            };
            let mut doc = settings.doc.clone();
            let merge = hooks::install_keeping(&mut doc, host, &registered)
                .map_err(|e| invalid(&place.shown, e))?;
            let events = |action: hooks::Action| {
                merge
                    .changes
                    .iter()
                    .filter(|c| c.action == action)
                    .map(|c| c.event.clone())
                    .collect::<Vec<_>>()
            };
            Ok(Found::Registered {
                current: !merge.changed(),
                program: registered,
                switched_off: merge.disabled,
                edited: false,
                missing: events(hooks::Action::Added),
                outdated: events(hooks::Action::Updated),
            })
        }
    }
}

/// Whether a hook's program can be started: a path that is an executable file, or a
/// name found on PATH.
fn runnable(program: &str) -> bool {
    if program.contains('/') {
        return fs::metadata(program)
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    }
    crate::exec::find_on_path(program).is_some()
}

fn next_steps(host: Host, place: &Place) -> Result<String> {
    (host.spec().next_steps)(place.root.as_deref())
}

/// A file plan writes whole: what it is, its text for a program, and whether a
/// file is plan's (`Registration::File`'s own fields).
type WholeFile<'a> = (&'a str, fn(&str) -> String, fn(&str) -> bool);

/// A file of plan's own (pi's extension), written whole. With `keep` (no
/// `--command`), one of plan's keeps the program it names.
fn write_file(
    host: Host,
    place: &Place,
    (what, text, is_ours): WholeFile<'_>,
    program: &str,
    keep: bool,
) -> Result<u8> {
    let shown = &place.shown;
    let title = host.title();
    let found = read_text(&place.path, shown)?;
    // As for settings' entries (`hooks::install_keeping`): a program a person named
    // stays, the bare `plan` an older plan wrote does not.
    let wanted = match &found {
        Some(found)
            if keep
                && is_ours(found)
                && crate::hosts::program_in(found).as_deref()
                    != Some(crate::hosts::protocol::DEFAULT_PROGRAM) =>
        {
            crate::hosts::naming_program_of(found, &text(crate::hosts::protocol::DEFAULT_PROGRAM))
        }
        _ => text(program),
    };
    let verb = match found {
        None => "installed",
        Some(found) if found == wanted => {
            print(&format!(
                "plan's {title} {what} is already installed at {shown}\n"
            ))?;
            return Ok(OK);
        }
        // A person's edit to plan's file is theirs: not written over.
        Some(found) if is_ours(&found) && !crate::hosts::as_written(&found, text) => {
            return Err(Exit::usage_hint(
                format!(
                    "{shown} is plan's {what}, edited since (or written by a newer plan); left as it is"
                ),
                "to write plan's current one, keep what you changed elsewhere, delete the file and rerun",
            ));
        }
        Some(found) if is_ours(&found) => "updated",
        Some(_) => {
            return Err(Exit::usage_hint(
                format!("{shown} exists and is not plan's {what}"),
                "move it away and rerun; nothing was changed",
            ));
        }
    };
    let next = next_steps(host, place)?;
    write_atomic(&place.path, shown, &wanted)?;
    print(&format!("{verb} plan's {title} {what} at {shown}\n{next}"))?;
    warn_if_not_on_path(program);
    Ok(OK)
}

/// A Claude Code plugin: its manifest and `hooks/hooks.json`, both checked before
/// either is written.
pub fn install_plugin(dir: &Path, program: &str) -> Result<u8> {
    // Published, the plugin runs where plan may not be installed yet: its hooks fall
    // back to npx. A --command path is taken as it is.
    let portable = program == hooks::DEFAULT_PROGRAM;
    let plugin_program = hooks::plugin_program();
    let program = if portable { &plugin_program } else { program };
    let (manifest, hooks_file) = plugin_files(dir);
    let version = env!("CARGO_PKG_VERSION");
    let mut manifest_doc =
        read_settings(&manifest.path, &manifest.shown, false)?.unwrap_or_default();
    let manifest_changed = hooks::merge_manifest(&mut manifest_doc.doc, version)
        .map_err(|e| invalid(&manifest.shown, e))?;
    let mut hooks_doc =
        read_settings(&hooks_file.path, &hooks_file.shown, false)?.unwrap_or_default();
    let merge = hooks::install(&mut hooks_doc.doc, Host::Claude, program)
        .map_err(|e| invalid(&hooks_file.shown, e))?;
    let shown_dir = dir.display();
    if !manifest_changed && !merge.changed() {
        print(&format!(
            "plan's Claude Code plugin is already installed in {shown_dir}\n"
        ))?;
        return Ok(OK);
    }
    let mut out = format!("installed plan's Claude Code plugin in {shown_dir}\n");
    if manifest_changed {
        manifest_doc.save(&manifest.path, &manifest.shown)?;
        out.push_str(&format!("  wrote {} (plan {version})\n", manifest.shown));
    }
    if merge.changed() {
        hooks_doc.save(&hooks_file.path, &hooks_file.shown)?;
        out.push_str(&format!("  wrote {}\n", hooks_file.shown));
        out.push_str(&listing(&merge.changes));
    }
    out.push_str(&format!(
        "next: try it with `claude --plugin-dir {shown_dir}`, or publish the directory in a plugin marketplace\n"
    ));
    print(&out)?;
    if !portable {
        warn_if_not_on_path(program);
    }
    Ok(OK)
}

/// `--check`'s last line: the `plan` the hooks start, as the shell finds it, or
/// what the plugin's hooks fall back to when there is none.
fn runner_line(program: &str) -> String {
    let found = if program.contains('/') {
        Some(std::path::PathBuf::from(program)).filter(|_| runnable(program))
    } else {
        crate::exec::find_on_path(program)
    };
    match found {
        // npm's `plan` is a link to the node launcher, which starts the binary.
        Some(path)
            if fs::canonicalize(&path).is_ok_and(|p| p.extension().is_some_and(|e| e == "js")) =>
        {
            format!(
                "hooks run: {} (npm's node launcher, a node start before plan's own; install.sh's binary skips it)\n",
                path.display()
            )
        }
        Some(path) => format!("hooks run: {}\n", path.display()),
        None => format!(
            "hooks run: no `{program}` on PATH; the marketplace plugin's hooks fall back to `{}`, which starts npm each time\n",
            hooks::npx_program()
        ),
    }
}

/// A path given with --command: hooks run from the repository root, where a
/// relative one is taken from too.
fn warn_if_missing(program: &str) {
    let problem = match fs::metadata(program) {
        Err(_) => "does not exist",
        Ok(m) if !m.is_file() || m.permissions().mode() & 0o111 == 0 => "is not executable",
        Ok(_) => return,
    };
    crate::out::warn(&format!(
        "plan: warning: {program} {problem}, so the hooks cannot run it\n  hint: install again with --command naming the plan binary"
    ));
}

/// The hooks fail open when `plan` cannot be found, so nothing would tell the user.
fn warn_if_not_on_path(program: &str) {
    if program.contains('/') {
        warn_if_missing(program);
        return;
    }
    let found = crate::env::os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            fs::metadata(dir.join(program))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    });
    if !found {
        crate::out::warn(&format!(
            "plan: warning: `{program}` is not on PATH, so the hooks cannot run it yet\n  hint: put plan on PATH, or install again with --command /path/to/plan"
        ));
    }
}

/// A file of plan's own (pi's extension): deleted only while it is plan's.
fn remove_file(
    host: Host,
    place: &Place,
    what: &str,
    text: fn(&str) -> String,
    is_ours: fn(&str) -> bool,
) -> Result<u8> {
    let shown = &place.shown;
    let title = host.title();
    match read_text(&place.path, shown)? {
        None => {
            print(&format!(
                "no plan {what} for {title}: {shown} does not exist\n"
            ))?;
            Ok(OK)
        }
        Some(found) if is_ours(&found) && !crate::hosts::as_written(&found, text) => {
            Err(Exit::usage_hint(
                format!("{shown} is plan's {what}, edited since; left it alone"),
                "delete it by hand if it should go",
            ))
        }
        Some(found) if is_ours(&found) => {
            remove(&place.path, shown)?;
            prune(place);
            print(&format!("removed plan's {title} {what} {shown}\n"))?;
            Ok(OK)
        }
        Some(_) => Err(Exit::usage_hint(
            format!(
                "{shown} is not plan's {what} (its first line is not plan's marker); left it alone"
            ),
            "delete it by hand if it should go",
        )),
    }
}

/// The plugin's manifest if it is plan's, our entries in its hooks file, then the
/// directories this left empty.
pub fn uninstall_plugin(dir: &Path, program: &str) -> Result<u8> {
    let (manifest, hooks_file) = plugin_files(dir);
    let manifest_doc = read_settings(&manifest.path, &manifest.shown, false)?;
    let mut hooks_doc = read_settings(&hooks_file.path, &hooks_file.shown, false)?;
    if let Some(doc) = manifest_doc.as_ref().map(|s| &s.doc)
        && !hooks::is_our_manifest(doc)
    {
        return Err(invalid(
            &manifest.shown,
            hooks::Invalid::OtherPlugin(
                doc.get("name")
                    .and_then(|n| n.as_str())
                    .unwrap_or("(unnamed)")
                    .to_string(),
            ),
        ));
    }
    let removed = hooks_doc
        .as_mut()
        .map(|s| hooks::uninstall(&mut s.doc, Host::Claude, program))
        .unwrap_or_default();
    let shown_dir = dir.display();
    if manifest_doc.is_none() && removed.is_empty() {
        print(&format!("no plan plugin in {shown_dir}\n"))?;
        return Ok(OK);
    }
    let mut out = format!("removed plan's Claude Code plugin from {shown_dir}\n");
    if let Some(doc) = &hooks_doc
        && !removed.is_empty()
    {
        out.push_str(&listing(&removed));
        out.push_str(&settle(&hooks_file, doc)?);
    }
    if manifest_doc.is_some() {
        remove(&manifest.path, &manifest.shown)?;
        out.push_str(&format!("  deleted {}\n", manifest.shown));
    }
    // Only directories left empty go; anything else someone put there stays.
    for empty in [
        dir.join(".claude-plugin"),
        dir.join("hooks"),
        dir.to_path_buf(),
    ] {
        let _ = crate::atomic::remove_empty_dir(empty);
    }
    print(&out)?;
    Ok(OK)
}

/// Takes plan's hooks back from one host, at the place `--global` picks, and
/// nothing else.
pub fn uninstall(host: Host, global: bool, repo: Option<&Repo>, program: &str) -> Result<u8> {
    let place = place(host, global, repo)?;
    if let Registration::File {
        what,
        text,
        is_ours,
        ..
    } = host.spec().registration
    {
        return remove_file(host, &place, what, text, is_ours);
    }
    let title = host.title();
    let shown = &place.shown;
    let comments = host.spec().registration.comments();
    let Some(mut settings) = read_settings(&place.path, shown, comments)? else {
        print(&format!(
            "no plan hooks for {title}: {shown} does not exist\n"
        ))?;
        return Ok(OK);
    };
    let removed = hooks::uninstall(&mut settings.doc, host, program);
    if removed.is_empty() {
        print(&format!("no plan hooks for {title} in {shown}\n"))?;
        return Ok(OK);
    }
    let mut out = format!("removed plan's hooks for {title} from {shown}\n");
    out.push_str(&listing(&removed));
    out.push_str(&settle(&place, &settings)?);
    print(&out)?;
    Ok(OK)
}
