//! plan in git: the `.gitattributes` lines that send plan.md to plan's merge driver
//! (committed, so every clone has them), this clone's `merge.plan.*` config (each
//! clone needs its own), what `plan doctor` says when the two disagree, and what
//! makes sign-offs travel with plain `git push` / `git fetch`: a fetch refspec per
//! remote and a pre-push hook. The merge itself is `plan::merge`; the driver git
//! runs is `plan merge-driver`.

use std::io::ErrorKind;
use std::path::Path;

use anyhow::Result;

use crate::exit::Exit;
use crate::git::{self, Repo};
use crate::install::files::write_atomic;

/// The driver's name: `merge=plan` in `.gitattributes`, `merge.plan.*` in config.
pub const NAME: &str = "plan";
const TITLE: &str = "plan.md goal by goal (plan merge-driver; where plan cannot run, git merge-file: git's own line merge, with conflict markers)";
const ATTRIBUTES: &str = ".gitattributes";

/// What git runs (through `sh`): plan's driver on the base, ours (the result goes
/// there), theirs and the path. Exit 0 is clean and 1 is conflicts left in OURS;
/// any other (127: `plan` is not on git's PATH, 126, a crash) means plan wrote
/// nothing, and then git's own line merge writes conflict markers into OURS. With
/// no driver that runs, git would report a conflict and leave OURS alone: the
/// other side's lines gone if that is committed.
pub fn driver(program: &str) -> String {
    format!(
        "{} merge-driver %O %A %B %P; s=$?; [ $s -le 1 ] && exit $s; echo \"plan: plan merge-driver could not run (exit $s); git merged plan.md line by line\" >&2; git merge-file -L ours -L base -L theirs %A %O %B",
        shell_word(program)
    )
}

/// The program `plan install git` registers when `--command` names none: the
/// absolute path of the binary running now, so a git that lacks plan on its PATH
/// (a GUI client, an editor's git, CI) still finds it; the name when that path
/// cannot be known.
pub fn default_program() -> String {
    std::env::current_exe()
        .ok()
        .filter(|p| p.is_absolute() && p.is_file())
        .and_then(|p| p.to_str().map(str::to_string))
        .unwrap_or_else(|| crate::install::hooks::DEFAULT_PROGRAM.to_string())
}

fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_./:@%+=,-".contains(&b));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The pattern of a line [`add_lines`] writes, unquoted, or `None` for any other line.
fn ours(line: &str) -> Option<String> {
    let line = line.trim();
    let (pattern, rest) = match line.strip_prefix('"') {
        Some(quoted) => {
            let mut out = String::new();
            let mut chars = quoted.char_indices();
            let end = loop {
                match chars.next()? {
                    (i, '"') => break i,
                    (_, '\\') => out.push(chars.next()?.1),
                    (_, c) => out.push(c),
                }
            };
            (out, &quoted[end + 1..])
        }
        None => {
            let end = line.find(char::is_whitespace)?;
            (line[..end].to_string(), &line[end..])
        }
    };
    let mut words = rest.split_whitespace();
    (words.next() == Some("merge=plan") && words.next().is_none()).then_some(pattern)
}

/// The `.gitattributes` pattern that names the one file at `path` (relative to the
/// repository's root, `/`-separated): anchored, and its glob characters escaped as
/// git reads them. Written raw, `docs/v[1].md` matched `docs/v1.md` and not itself,
/// and `docs/*.md` every Markdown file beside it.
pub fn path_pattern(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 1);
    out.push('/');
    for c in path.chars() {
        if matches!(c, '*' | '?' | '[' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The `.gitattributes` line that sends files matching `pattern` to plan's driver:
/// quoted as git reads quoted patterns when it holds a space, a quote or a
/// backslash (unquoted, a space ends the pattern and the rest reads as attributes).
pub fn attr_line(pattern: &str) -> String {
    let plain = !pattern
        .chars()
        .any(|c| c.is_whitespace() || c == '"' || c == '\\');
    if plain {
        format!("{pattern} merge=plan")
    } else {
        let quoted = pattern.replace('\\', "\\\\").replace('"', "\\\"");
        format!("\"{quoted}\" merge=plan")
    }
}

/// `text` with a `PATTERN merge=plan` line for each pattern it lacks one for.
pub fn add_lines(text: &str, patterns: &[String]) -> String {
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut out = text.to_string();
    for pattern in patterns {
        if out
            .lines()
            .any(|l| ours(l).as_deref() == Some(pattern.as_str()))
        {
            continue;
        }
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(eol);
        }
        out.push_str(&format!("{}{eol}", attr_line(pattern)));
    }
    out
}

/// `text` without the lines [`add_lines`] writes.
pub fn remove_lines(text: &str) -> String {
    text.split_inclusive('\n')
        .filter(|l| ours(l).is_none())
        .collect()
}

/// Whether a line of `text` sends some file to plan's driver.
pub fn names_driver(text: &str) -> bool {
    text.lines().any(|l| {
        !l.trim_start().starts_with('#') && l.split_whitespace().skip(1).any(|a| a == "merge=plan")
    })
}

fn read(path: &Path) -> Result<Option<String>> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| {
            Exit::usage_hint(
                format!("{ATTRIBUTES} is not UTF-8 text"),
                "fix or move it and rerun; nothing was changed",
            )
        }),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Exit::env(format!("cannot read {ATTRIBUTES}: {e}"))),
    }
}

/// The first lines of the pre-push hook plan writes: what uninstall looks for.
const HOOK_MARK: &str = "# Written by `plan install git`";

/// The pre-push hook: git gives it the remote's name and, on stdin, the refs being
/// pushed; plan pushes the checkpoints their sign-offs name. It never stops the
/// push: a checkpoint that cannot go is a warning.
pub fn pre_push_hook(program: &str) -> String {
    format!(
        "#!/bin/sh\n{HOOK_MARK}: a push carries the checkpoint refs its sign-offs name\n# (plan checkpoints --for-push). `plan uninstall git` removes this file.\np={}\n[ -x \"$p\" ] || p=plan\n\"$p\" checkpoints --for-push \"$1\" || echo \"plan: the checkpoints of this push's sign-offs were not pushed; plan checkpoints --push $1 pushes them\" >&2\nexit 0\n",
        shell_word(program)
    )
}

/// Whether `found`, a pre-push hook marked as plan's, is as `plan install git` wrote
/// it for some program: not edited since (a person's check added to it is theirs).
fn hook_as_written(found: &str) -> bool {
    let back: String = found
        .split_inclusive('\n')
        .map(|line| match line.starts_with("p=") {
            true => "p=plan\n".to_string(),
            false => line.to_string(),
        })
        .collect();
    back == pre_push_hook("plan")
        || EARLIER_HOOKS.contains(&crate::plan::model::blob_id(back.as_bytes()).as_str())
}

/// The blob ids of the pre-push hooks earlier versions of plan wrote (for the
/// program `plan`): a hook one of them wrote is plan's unedited, so an upgrade
/// replaces it. A change to [`pre_push_hook`] adds the id of the text it replaces
/// here (its test says which). None yet: the hook is as first written.
const EARLIER_HOOKS: &[&str] = &[];

/// Every remote's checkpoints come with a plain `git fetch`, into a namespace of
/// their own; what changed, for the user.
fn fetch_checkpoints(repo: &Repo, out: &mut String) -> Result<()> {
    let remotes = git::remotes(&repo.root)?;
    if remotes.is_empty() {
        out.push_str("git: no remote yet; after `git remote add`, run `plan install git` again so fetches bring its checkpoints\n");
    }
    for remote in remotes {
        let refspec = git::checkpoint_refspec(&remote);
        if git::add_fetch_refspec(&repo.root, &remote, &refspec)? {
            out.push_str(&format!(
                "git: `git fetch {remote}` brings its sign-offs' checkpoints (remote.{remote}.fetch {refspec})\n"
            ));
        } else {
            out.push_str(&format!(
                "git: `git fetch {remote}` already brings its checkpoints\n"
            ));
        }
    }
    Ok(())
}

/// Writes the pre-push hook unless a hook of someone else's is there.
fn hook(repo: &Repo, program: &str, out: &mut String) -> Result<()> {
    let dir = git::hooks_dir(&repo.root)?;
    let path = dir.join("pre-push");
    let shown = path.display();
    let new = pre_push_hook(program);
    match std::fs::read_to_string(&path) {
        Ok(old) if old == new => {
            out.push_str(&format!(
                "git: {shown} already pushes the checkpoints a push's sign-offs name\n"
            ));
            return Ok(());
        }
        Ok(old) if !old.contains(HOOK_MARK) => {
            out.push_str(&format!(
                "git: {shown} is another's, left as it is: a push does not carry checkpoints\n  hint: add the line `{} checkpoints --for-push \"$1\"` to it (stdin is git's)\n",
                shell_word(program)
            ));
            return Ok(());
        }
        Ok(old) if !hook_as_written(&old) => {
            out.push_str(&format!(
                "git: {shown} is plan's, edited since; left as it is\n  hint: to write plan's current one, keep what you changed elsewhere, delete the file and rerun\n"
            ));
            return Ok(());
        }
        Ok(_) => {}
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => return Err(Exit::env(format!("cannot read {shown}: {e}"))),
    }
    crate::atomic::make_dirs(&dir)
        .map_err(|e| Exit::env(format!("cannot create {}: {e}", dir.display())))?;
    write_atomic(&path, "the pre-push hook", &new)?;
    crate::atomic::set_mode(&path, 0o755)
        .map_err(|e| Exit::env(format!("cannot make {shown} executable: {e}")))?;
    out.push_str(&format!(
        "git: {shown} makes `git push` carry the checkpoints its sign-offs name\n"
    ));
    Ok(())
}

/// Registers the driver in this clone's config and names it in `.gitattributes`
/// for `patterns`, and makes checkpoints travel with git; what it did, for the user.
pub fn install(repo: &Repo, program: &str, patterns: &[String]) -> Result<String> {
    let configured = git::set_merge_driver(&repo.root, NAME, TITLE, &driver(program))?;
    let path = repo.root.join(ATTRIBUTES);
    let old = read(&path)?;
    let new = add_lines(old.as_deref().unwrap_or(""), patterns);
    let mut out = String::new();
    out.push_str(if configured {
        "git: registered plan's merge driver in this clone's config (merge.plan.driver)\n"
    } else {
        "git: plan's merge driver is already registered in this clone's config\n"
    });
    if old.as_deref() == Some(new.as_str()) {
        out.push_str(&format!(
            "git: {ATTRIBUTES} already sends {} to it\n",
            patterns.join(", ")
        ));
    } else {
        write_atomic(&path, ATTRIBUTES, &new)?;
        out.push_str(&format!(
            "git: {ATTRIBUTES} sends {} to it; commit {ATTRIBUTES} so every clone merges plan.md goal by goal (each clone still runs `plan install git` once)\n",
            patterns.join(", ")
        ));
    }
    fetch_checkpoints(repo, &mut out)?;
    hook(repo, program, &mut out)?;
    Ok(out)
}

/// Takes back what [`install`] did; what it removed, for the user.
pub fn uninstall(repo: &Repo) -> Result<String> {
    let mut out = String::new();
    if git::unset_merge_driver(&repo.root, NAME)? {
        out.push_str("git: removed plan's merge driver from this clone's config\n");
    } else {
        out.push_str("git: no merge driver of plan's in this clone's config\n");
    }
    let path = repo.root.join(ATTRIBUTES);
    match read(&path)? {
        Some(old) => {
            let new = remove_lines(&old);
            if new == old {
                out.push_str(&format!("git: {ATTRIBUTES} names no driver of plan's\n"));
            } else if new.trim().is_empty() {
                crate::atomic::remove(&path)
                    .map_err(|e| Exit::env(format!("cannot delete {ATTRIBUTES}: {e}")))?;
                out.push_str(&format!(
                    "git: deleted {ATTRIBUTES}: nothing else was in it\n"
                ));
            } else {
                write_atomic(&path, ATTRIBUTES, &new)?;
                out.push_str(&format!("git: removed plan's lines from {ATTRIBUTES}\n"));
            }
        }
        None => out.push_str(&format!("git: no {ATTRIBUTES}\n")),
    }
    for remote in git::remotes(&repo.root)? {
        if git::remove_fetch_refspec(&repo.root, &remote, &git::checkpoint_refspec(&remote))? {
            out.push_str(&format!(
                "git: `git fetch {remote}` no longer brings checkpoints (those fetched stay)\n"
            ));
        }
    }
    let hook = git::hooks_dir(&repo.root)?.join("pre-push");
    match std::fs::read_to_string(&hook) {
        Ok(text) if text.contains(HOOK_MARK) && !hook_as_written(&text) => {
            out.push_str(&format!(
                "git: {} is plan's, edited since; left it alone (delete it by hand if it should go)\n",
                hook.display()
            ));
        }
        Ok(text) if text.contains(HOOK_MARK) => {
            crate::atomic::remove(&hook)
                .map_err(|e| Exit::env(format!("cannot delete {}: {e}", hook.display())))?;
            out.push_str(&format!("git: removed plan's {}\n", hook.display()));
        }
        _ => {}
    }
    Ok(out)
}

/// When `.gitattributes` sends files to plan's driver but this clone has none
/// configured, git merges them line by line, silently: what to say about it.
pub fn unconfigured(repo: &Repo) -> Option<String> {
    let text = read(&repo.root.join(ATTRIBUTES)).ok()??;
    if !names_driver(&text) || git::merge_driver(&repo.root, NAME).ok()?.is_some() {
        return None;
    }
    Some(format!(
        "{ATTRIBUTES} sends plan.md to plan's merge driver (merge=plan), but this clone has none configured, so git merges plan.md line by line"
    ))
}

/// When a merge in progress left `rel` (plan.md) unmerged in git's index: what
/// happened and what to do, for `plan doctor`.
pub fn unmerged(repo: &Repo, rel: &Path, text: &str) -> Option<(String, String)> {
    if !git::unmerged(&repo.root, rel).ok()? {
        return None;
    }
    let name = rel.display();
    let marked = text.lines().any(|l| l.starts_with("<<<<<<<"));
    if marked {
        return Some((
            "unmerged: a merge in progress left conflict markers in it".to_string(),
            format!(
                "keep what each side meant between the markers, delete the marker lines, `plan lint`, then `git add {name}`"
            ),
        ));
    }
    let driver = git::merge_driver(&repo.root, NAME).ok().flatten();
    let why = match driver {
        Some(driver) => format!("git's merge driver `{driver}` could not run"),
        None => "git's merge left it without conflict markers".to_string(),
    };
    Some((
        format!(
            "unmerged, and it holds our side only: {why}, so the other side's goals and log lines are not in it; committing it now loses them"
        ),
        format!(
            "run `plan install git` (it registers plan by its path, with git's line merge behind it), then `git checkout -m {name}` merges it again"
        ),
    ))
}

/// The repository whose clone `plan install git` / `uninstall git` configures.
pub fn git_repo(repo: Option<&Repo>, global: bool) -> Result<&Repo> {
    if global {
        return Err(Exit::usage_hint(
            "plan's merge driver is registered per clone; there is no --global one",
            "run `plan install git` in each clone",
        ));
    }
    repo.ok_or_else(|| {
        Exit::env_hint(
            "not inside a git repository",
            "run it in the clone whose merges of plan.md should go goal by goal",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An upgrade must not take the hook an earlier plan wrote for a person's edit:
    /// a change to the hook puts the id it had into `EARLIER_HOOKS`, then its new
    /// id here. Written for any program, it is plan's; a line added is not.
    #[test]
    fn a_changed_pre_push_hook_keeps_the_earlier_text_as_plans() {
        let id = "0a3979eaf15b6266810d704d6cb0b9a80b6f26f8";
        assert_eq!(
            crate::plan::model::blob_id(pre_push_hook("plan").as_bytes()),
            id,
            "the pre-push hook changed: add {id} to EARLIER_HOOKS, then put its new id here"
        );
        assert!(hook_as_written(&pre_push_hook("/opt/my plan")));
        assert!(!hook_as_written(&(pre_push_hook("plan") + "./lint.sh\n")));
    }

    #[test]
    fn lines_are_added_once_and_taken_back_alone() {
        let p = |s: &str| vec![s.to_string()];
        let first = add_lines("*.png binary", &p("plan.md"));
        assert_eq!(first, "*.png binary\nplan.md merge=plan\n");
        assert_eq!(add_lines(&first, &p("plan.md")), first);
        let both = add_lines(&first, &p("/docs/road.md"));
        assert_eq!(
            both,
            "*.png binary\nplan.md merge=plan\n/docs/road.md merge=plan\n"
        );
        assert!(names_driver(&both));
        assert_eq!(remove_lines(&both), "*.png binary\n");
        assert!(!names_driver("# plan.md merge=plan\n"));
        assert_eq!(
            add_lines("a\r\n", &p("plan.md")),
            "a\r\nplan.md merge=plan\r\n"
        );
    }

    /// Attack (red team): a plan file whose path has a space (`PLAN_FILE="my
    /// docs/road map.md"`) was written as `/my docs/road map.md merge=plan`, which
    /// git reads as the pattern `/my` and attributes `docs/road`, `map.md`: the
    /// file was never sent to the driver, git said "not a valid attribute name" on
    /// every command, and a second install added the line again.
    #[test]
    fn a_path_with_spaces_is_quoted_as_git_reads_it() {
        let p = |s: &str| vec![s.to_string()];
        let once = add_lines("", &p("/my docs/road map.md"));
        assert_eq!(once, "\"/my docs/road map.md\" merge=plan\n");
        assert_eq!(add_lines(&once, &p("/my docs/road map.md")), once);
        assert!(names_driver(&once));
        assert_eq!(remove_lines(&once), "");
        let odd = add_lines("", &p("/a\"b\\c.md"));
        assert_eq!(odd, "\"/a\\\"b\\\\c.md\" merge=plan\n");
        assert_eq!(remove_lines(&odd), "");
        assert_eq!(attr_line("plan.md"), "plan.md merge=plan");
    }

    #[test]
    fn a_path_s_glob_characters_are_escaped() {
        assert_eq!(path_pattern("docs/road.md"), "/docs/road.md");
        assert_eq!(path_pattern("v[1]*?.md"), "/v\\[1]\\*\\?.md");
        assert_eq!(path_pattern("a\\b.md"), "/a\\\\b.md");
        let p = vec![path_pattern("my v[1].md")];
        let once = add_lines("", &p);
        assert_eq!(once, "\"/my v\\\\[1].md\" merge=plan\n");
        assert_eq!(add_lines(&once, &p), once);
        assert_eq!(remove_lines(&once), "");
    }

    #[test]
    fn the_driver_command_quotes_a_path_with_spaces() {
        let fallback = "; s=$?; [ $s -le 1 ] && exit $s; echo \"plan: plan merge-driver could not run (exit $s); git merged plan.md line by line\" >&2; git merge-file -L ours -L base -L theirs %A %O %B";
        assert_eq!(
            driver("plan"),
            format!("plan merge-driver %O %A %B %P{fallback}")
        );
        assert_eq!(
            driver("/opt/my plan/plan"),
            format!("'/opt/my plan/plan' merge-driver %O %A %B %P{fallback}")
        );
    }
}
