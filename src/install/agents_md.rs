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

/// The section in `text`'s line endings: CRLF where the file has them.
fn section_for(text: &str) -> String {
    match text.contains("\r\n") {
        true => section().replace('\n', "\r\n"),
        false => section(),
    }
}

/// Whether the section at `start..end` of `text` is as some `plan install
/// agents-md` wrote it, in either line ending: not edited since. (The section's
/// text has not changed since it shipped; a change keeps the earlier one here.)
fn as_written(text: &str, (start, end): (usize, usize)) -> bool {
    text[start..end].replace("\r\n", "\n") == section()
}

/// Why plan leaves a section a person edited.
pub const EDITED: &str = "AGENTS.md: plan's section, edited since; left as it is";

/// `text` with the section written: refreshed in place if it is there, else added
/// at the end after a blank line. `None`: the section there was edited, and is
/// the person's.
pub fn install(text: &str) -> Option<String> {
    let section = section_for(text);
    if let Some(at @ (start, end)) = span(text) {
        if !as_written(text, at) {
            return None;
        }
        return Some(format!("{}{section}{}", &text[..start], &text[end..]));
    }
    if text.is_empty() {
        return Some(section);
    }
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let blank = format!("{eol}{eol}");
    let sep = if text.ends_with(&blank) {
        String::new()
    } else if text.ends_with('\n') {
        eol.to_string()
    } else {
        blank
    };
    Some(format!("{text}{sep}{section}"))
}

/// What uninstall finds.
#[derive(Debug, PartialEq, Eq)]
pub enum Removed {
    /// `text` without the section (and the blank line `install` put before it).
    Text(String),
    /// No section there.
    None,
    /// The section was edited: the person's, left.
    Edited,
}

pub fn uninstall(text: &str) -> Removed {
    let Some(at @ (start, end)) = span(text) else {
        return Removed::None;
    };
    if !as_written(text, at) {
        return Removed::Edited;
    }
    let mut before = &text[..start];
    for blank in ["\r\n\r\n", "\n\n"] {
        if end == text.len() && before.ends_with(blank) {
            before = &before[..before.len() - blank.len() / 2];
            break;
        }
    }
    Removed::Text(format!("{before}{}", &text[end..]))
}

/// Writes or refreshes plan's section of AGENTS.md at the repository root.
pub fn add(repo: Option<&Repo>, global: bool) -> Result<u8> {
    let path = path(repo, global)?;
    let old = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(Exit::env(format!("cannot read AGENTS.md: {e}"))),
    };
    let Some(new) = install(&old) else {
        return Err(Exit::usage_hint(
            EDITED,
            "to write plan's current one, move what you added out of it, delete the section (from its plan:begin line to its plan:end line) and rerun",
        ));
    };
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
    let new = match uninstall(&old) {
        Removed::Text(new) => new,
        Removed::None => {
            print("AGENTS.md: plan's section is not there, nothing to remove\n")?;
            return Ok(OK);
        }
        Removed::Edited => {
            return Err(Exit::usage_hint(
                EDITED,
                "delete the section by hand (from its plan:begin line to its plan:end line) if it should go",
            ));
        }
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
        for original in [
            "",
            "# Agents\n\nBe kind.\n",
            "# Agents\nno newline",
            "# Agents\r\n\r\nBe kind.\r\n",
        ] {
            let once = install(original).unwrap();
            assert_eq!(install(&once).unwrap(), once, "a reinstall changes no byte");
            assert_eq!(once.matches(BEGIN).count(), 1);
            let Removed::Text(back) = uninstall(&once) else {
                panic!("{original:?}: the section is plan's");
            };
            let expected = if original.ends_with('\n') || original.is_empty() {
                original.to_string()
            } else {
                format!("{original}\n")
            };
            assert_eq!(back, expected, "{original:?}");
        }
        assert_eq!(uninstall("# Agents\n"), Removed::None);
    }

    #[test]
    fn a_section_in_the_middle_is_removed_in_place_and_an_edited_one_is_left() {
        let new = install("# A\n\n# After\n").unwrap();
        let moved = format!(
            "# A\n\n{}\n# After\n",
            new.strip_prefix("# A\n\n# After\n\n").unwrap()
        );
        assert_eq!(install(&moved).unwrap(), moved);
        assert_eq!(
            uninstall(&moved),
            Removed::Text("# A\n\n\n# After\n".to_string())
        );
        let old = format!("# A\n\n{BEGIN}\nold words\n{END}\n\n# After\n");
        assert_eq!(install(&old), None);
        assert_eq!(uninstall(&old), Removed::Edited);
    }

    /// A change to the section must keep the text it replaces as plan's, so an
    /// upgrade is not taken for a person's edit: this id changes with it.
    #[test]
    fn the_section_is_the_one_that_shipped() {
        assert_eq!(
            crate::plan::model::blob_id(section().as_bytes()),
            "fedd2bf7135abc679531fbd055c61df436d17432",
            "the section changed: make as_written know the earlier text, then put its new id here"
        );
    }
}
