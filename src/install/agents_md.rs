//! The section `plan install agents-md` keeps in AGENTS.md, for agents without hooks
//! (or with them off): how this repository's plan works. Between two marker lines,
//! so a reinstall rewrites only it and `plan uninstall agents-md` removes exactly
//! it. The section's edit is pure; `add` and `remove` read and write the file.

use std::path::PathBuf;

use anyhow::Result;

use crate::exit::{Exit, OK};
use crate::git::Repo;
use crate::install::files::write_atomic;
use crate::out::print;

const BEGIN: &str = "<!-- plan:begin (written by `plan install agents-md`; `plan uninstall agents-md` removes it) -->";
const END: &str = "<!-- plan:end -->";

/// The section, markers included, with its final newline.
pub fn section() -> String {
    format!(
        "{BEGIN}
## Working with plan.md

This repository keeps its plan in `plan.md`: goals with a contract (`done_when`,
`verify`, `failure_modes`, subtasks) and an append-only log.

- Read `plan.md` (or run `plan`) before you start, and again after a compaction.
- Keep it current as you go: `plan start ID`, `plan tick ID N`, `plan log \"TEXT\"`.
- A goal is done only when `plan complete ID --evidence TEXT --path FILE` accepts
  it: that runs the goal's verify and an independent read-only judge. Never write
  `status: done` by hand; `plan audit` shows such a goal as unproven.
- Keep working while goals remain: `plan next` lists what can be worked now.
{END}
"
    )
}

/// Where the section is in `text`: the byte range of its lines, when both markers
/// are there in order.
fn span(text: &str) -> Option<(usize, usize)> {
    let start = line_start(text, BEGIN)?;
    let end_line = start + text[start..].find(&format!("\n{END}"))? + 1;
    let end = match text[end_line..].find('\n') {
        Some(n) => end_line + n + 1,
        None => text.len(),
    };
    Some((start, end))
}

/// The offset of the line that is exactly `line` (its start), if any.
fn line_start(text: &str, line: &str) -> Option<usize> {
    let mut at = 0;
    for l in text.split_inclusive('\n') {
        if l.trim_end_matches(['\n', '\r']) == line {
            return Some(at);
        }
        at += l.len();
    }
    None
}

/// `text` with the section written: refreshed in place if it is there, else added
/// at the end after a blank line.
pub fn install(text: &str) -> String {
    let section = section();
    if let Some((start, end)) = span(text) {
        return format!("{}{section}{}", &text[..start], &text[end..]);
    }
    if text.is_empty() {
        return section;
    }
    let sep = if text.ends_with("\n\n") {
        ""
    } else if text.ends_with('\n') {
        "\n"
    } else {
        "\n\n"
    };
    format!("{text}{sep}{section}")
}

/// `text` without the section (and the blank line `install` put before it);
/// `None` when it has none.
pub fn uninstall(text: &str) -> Option<String> {
    let (start, end) = span(text)?;
    let mut before = &text[..start];
    if end == text.len() && before.ends_with("\n\n") {
        before = &before[..before.len() - 1];
    }
    Some(format!("{before}{}", &text[end..]))
}

/// Writes or refreshes plan's section of AGENTS.md at the repository root.
pub fn add(repo: Option<&Repo>, global: bool) -> Result<u8> {
    let path = path(repo, global)?;
    let old = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(Exit::env(format!("cannot read AGENTS.md: {e}"))),
    };
    let new = install(&old);
    if new == old {
        print("AGENTS.md: plan's section is already current\n")?;
        return Ok(OK);
    }
    write_atomic(&path, "AGENTS.md", &new)?;
    print(
        "AGENTS.md: wrote plan's section (how this repository's plan works, for agents without hooks)\n",
    )?;
    Ok(OK)
}

/// AGENTS.md at the repository root: it describes this repository, so there is no
/// user-wide one.
fn path(repo: Option<&Repo>, global: bool) -> Result<PathBuf> {
    if global {
        return Err(Exit::usage_hint(
            "AGENTS.md describes one repository; there is no --global one",
            "run `plan install agents-md` in the repository",
        ));
    }
    let repo = repo.ok_or_else(|| {
        Exit::env_hint(
            "not inside a git repository",
            "run it in the repository whose AGENTS.md should describe its plan",
        )
    })?;
    Ok(repo.root.join("AGENTS.md"))
}

/// Removes plan's section of AGENTS.md, and nothing else.
pub fn remove(repo: Option<&Repo>, global: bool) -> Result<u8> {
    let path = path(repo, global)?;
    let Ok(old) = std::fs::read_to_string(&path) else {
        print("AGENTS.md: no file, nothing to remove\n")?;
        return Ok(OK);
    };
    let Some(new) = uninstall(&old) else {
        print("AGENTS.md: plan's section is not there, nothing to remove\n")?;
        return Ok(OK);
    };
    if new.trim().is_empty() && !tracked(&path)? {
        crate::atomic::remove(&path)
            .map_err(|e| Exit::env(format!("cannot remove AGENTS.md: {e}")))?;
        print("AGENTS.md: removed it; it held only plan's section, and git does not track it\n")?;
        return Ok(OK);
    }
    write_atomic(&path, "AGENTS.md", &new)?;
    print("AGENTS.md: removed plan's section\n")?;
    Ok(OK)
}

/// Whether git knows AGENTS.md (staged or committed). A file install created holds
/// nothing but the section and is new to git; one the user committed, even empty,
/// stays.
fn tracked(path: &std::path::Path) -> Result<bool> {
    let (Some(root), Some(name)) = (path.parent(), path.file_name()) else {
        return Ok(true);
    };
    let rel = std::path::Path::new(name);
    Ok(
        crate::git::tracking(root, rel)? == crate::git::Tracking::Tracked
            || crate::git::in_head(root, rel)?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_is_stable_and_uninstall_gives_the_file_back() {
        for original in ["", "# Agents\n\nBe kind.\n", "# Agents\nno newline"] {
            let once = install(original);
            assert_eq!(install(&once), once, "a reinstall changes no byte");
            assert_eq!(once.matches(BEGIN).count(), 1);
            let back = uninstall(&once).unwrap();
            let expected = if original.ends_with('\n') || original.is_empty() {
                original.to_string()
            } else {
                format!("{original}\n")
            };
            assert_eq!(back, expected, "{original:?}");
        }
        assert_eq!(uninstall("# Agents\n"), None);
    }

    #[test]
    fn a_section_in_the_middle_is_refreshed_in_place() {
        let old = format!("# A\n\n{BEGIN}\nold words\n{END}\n\n# After\n");
        let new = install(&old);
        assert!(new.starts_with("# A\n\n<!-- plan:begin"));
        assert!(new.ends_with(&format!("{END}\n\n# After\n")));
        assert!(!new.contains("old words"));
        assert_eq!(uninstall(&new).unwrap(), "# A\n\n\n# After\n");
    }
}
