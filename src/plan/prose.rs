//! What a program can run in a document written for people (Markdown,
//! reStructuredText, a `NOTES.txt`): its code blocks (rustdoc's tests of a README
//! it includes, a doctest runner's examples, Sphinx's `.. testcode::`) and any
//! doctest prompt (Python's doctest reads a line opening with `>>>` in any text
//! file). The prose around them is for people: a sentence or a blank line added
//! there gives a test runner nothing new to run. Pure: text in, an answer out.

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

/// Past this many bytes a side is not read: the answer is "the same", so a file
/// padded past it cannot end a finding (as for the grammars' cap).
pub const MAX_BYTES: usize = crate::plan::syntax::MAX_BYTES;

/// Folders whose files a test reads as its data, besides the tests' own
/// ([`crate::plan::weakened::TEST_DIRS`]): there a document can be a case the
/// tests run, prose and all.
const DATA_DIRS: &[&str] = &["fixtures", "testdata", "snapshots", "__snapshots__"];

/// Where tests are written in Markdown, besides the tests' folders: Gherkin in
/// Markdown, as cucumber-js reads it (`features/add.feature.md`, each list item
/// of a scenario a step it runs), by its folder or by its name.
const FEATURES_DIR: &str = "features";
const FEATURE_MD: &str = ".feature.md";

/// The names (before the extension, in any case) of plain-text files written
/// for people: a `.txt` of another name may be a test's data (`expected.txt`), a
/// tool's list (`requirements.txt`) or code (`CMakeLists.txt`).
const TEXT_NAMES: &[&str] = &[
    "readme",
    "notes",
    "changelog",
    "changes",
    "history",
    "news",
    "todo",
    "authors",
    "contributors",
    "contributing",
    "license",
    "licence",
    "copying",
    "install",
    "thanks",
    "credits",
    "notice",
];

/// Folders of documentation, where a `.txt` is written for people (Django's
/// docs are), but for a tool's list kept there (`docs/requirements.txt`).
const DOC_DIRS: &[&str] = &["doc", "docs"];

/// The info strings of code blocks no runner runs (rustdoc, doctest runners and
/// the like skip them): their text is for people, as the prose is.
const NOT_RUN: &[&str] = &["text", "txt", "plain", "plaintext"];

/// The documents read here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Markdown,
    Rst,
    Text,
}

/// What `path` names, when it is a document written for people: Markdown,
/// reStructuredText, or a `.txt` named as notes ([`TEXT_NAMES`]) or kept in a
/// documentation folder ([`DOC_DIRS`]); never one in the tests' folders or their
/// data's, nor a test written in Markdown ([`FEATURE_MD`]).
fn kind(path: &str) -> Option<Kind> {
    let mut parts = path.split('/').rev();
    let name = parts.next()?;
    let dirs: Vec<&str> = parts.collect();
    let test = |d: &&str| {
        crate::plan::weakened::TEST_DIRS.contains(d) || DATA_DIRS.contains(d) || *d == FEATURES_DIR
    };
    if dirs.iter().any(test) || name.to_ascii_lowercase().ends_with(FEATURE_MD) {
        return None;
    }
    let (stem, ext) = name.rsplit_once('.')?;
    let stem = stem.to_ascii_lowercase();
    match ext.to_ascii_lowercase().as_str() {
        "md" | "markdown" => Some(Kind::Markdown),
        "rst" => Some(Kind::Rst),
        "txt" if TEXT_NAMES.contains(&stem.as_str()) => Some(Kind::Text),
        "txt"
            if dirs.iter().any(|d| DOC_DIRS.contains(d))
                && !stem.starts_with("requirements")
                && !stem.starts_with("constraints") =>
        {
            Some(Kind::Text)
        }
        _ => None,
    }
}

/// Whether `path` names a document written for people ([`kind`]): Markdown,
/// reStructuredText or notes in plain text, outside the tests' folders and
/// their data's.
pub fn is_prose(path: &str) -> bool {
    kind(path).is_some()
}

/// Whether `path` names a Markdown file (`.md`, `.markdown`, in any case).
pub fn is_markdown(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| matches!(ext.to_ascii_lowercase().as_str(), "md" | "markdown"))
}

/// Whether `before` and `after`, two versions of the document at `path`
/// ([`is_prose`]), hold the same code ([`code_blocks`] for Markdown,
/// [`rst_code`] for reStructuredText; none in plain text), with no doctest
/// prompt ([`has_prompt`]) in either: only prose and layout differ. A side past
/// [`MAX_BYTES`] reads as the same; a path of no document as different.
pub fn same_code(path: &str, before: &str, after: &str) -> bool {
    let Some(kind) = kind(path) else {
        return false;
    };
    if before.len() > MAX_BYTES || after.len() > MAX_BYTES {
        return true;
    }
    if has_prompt(before) || has_prompt(after) {
        return false;
    }
    match kind {
        Kind::Markdown => code_blocks(before) == code_blocks(after),
        Kind::Rst => rst_code(before) == rst_code(after),
        Kind::Text => true,
    }
}

/// Whether `text` holds a doctest prompt: a line opening with `>>>` past spaces
/// and tabs, as Python's doctest finds its examples (one inside a sentence is
/// JavaScript's shift, or words, to it too).
fn has_prompt(text: &str) -> bool {
    text.lines()
        .any(|line| line.trim_start_matches([' ', '\t']).starts_with(">>>"))
}

/// Each code block of `text` as CommonMark reads it (fenced or indented) that a
/// runner could run (not one marked [`NOT_RUN`]): its info string (empty for an
/// indented one) and its text.
fn code_blocks(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut open: Option<(String, String)> = None;
    for event in Parser::new(text) {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                open = Some((info, String::new()));
            }
            Event::Text(text) => {
                if let Some((_, body)) = open.as_mut() {
                    body.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => out.extend(open.take()),
            _ => {}
        }
    }
    out.retain(|(info, _)| {
        let language = info.split_whitespace().next().unwrap_or_default();
        !NOT_RUN.contains(&language.to_ascii_lowercase().as_str())
    });
    out
}

/// A line of a reStructuredText document as [`rst_code`] keeps it.
#[derive(Debug, PartialEq, Eq)]
enum RstLine<'a> {
    /// A line a runner could read: a directive or comment (opening `..`) or an
    /// indented line (a directive's body, a literal block), as written.
    Code(&'a str),
    /// A blank line between two code lines: within one block, or between an
    /// option list and a body.
    Blank,
    /// One or more lines of prose (and blank lines) between two code lines: a
    /// block ends there.
    Prose,
}

/// The lines of a reStructuredText document a runner could run (Sphinx's `..
/// doctest::` and `.. testcode::`, what a literal block holds), in order: each
/// code line as written, each blank line between two of them, and each run of
/// prose between two of them as one mark. A sentence added between two blocks
/// changes none of it, but prose that splits a block in two (or joins two) does;
/// what comes before the first code line and after the last is left out.
fn rst_code(text: &str) -> Vec<RstLine<'_>> {
    let mut out = Vec::new();
    for line in text.split('\n') {
        let blank = line.trim().is_empty();
        let next = if blank {
            RstLine::Blank
        } else if line.starts_with([' ', '\t']) || line.starts_with("..") {
            RstLine::Code(line)
        } else {
            RstLine::Prose
        };
        match next {
            RstLine::Code(_) => out.push(next),
            RstLine::Blank => {
                if matches!(out.last(), Some(RstLine::Code(_) | RstLine::Blank)) {
                    out.push(next);
                }
            }
            RstLine::Prose => {
                while matches!(out.last(), Some(RstLine::Blank)) {
                    out.pop();
                }
                if matches!(out.last(), Some(RstLine::Code(_))) {
                    out.push(next);
                }
            }
        }
    }
    while matches!(out.last(), Some(RstLine::Blank | RstLine::Prose)) {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const README: &str = "# Calc\n\nAdds numbers.\n\n```js\nadd(2, 3) // 5\n```\n";

    #[test]
    fn prose_and_layout_are_no_code() {
        for after in [
            "# Calc\n\nAdds numbers.\n\n\n```js\nadd(2, 3) // 5\n```\n",
            "# Calc\n\nAdds two numbers, quickly.\n\nSee below.\n\n```js\nadd(2, 3) // 5\n```\n",
            "# Calc\n\n```js\nadd(2, 3) // 5\n```\n\n## More\n\n- a list\n",
        ] {
            assert!(same_code("README.md", README, after), "{after:?}");
        }
    }

    #[test]
    fn a_code_block_changed_added_or_a_doctest_prompt_is_code() {
        for after in [
            "# Calc\n\nAdds numbers.\n\n```js\nadd(2, 3) // 6\n```\n",
            "# Calc\n\nAdds numbers.\n\n```rust\nadd(2, 3) // 5\n```\n",
            "# Calc\n\nAdds numbers.\n\n```js\nadd(2, 3) // 5\n```\n\n    add(1, 1)\n",
            "# Calc\n\nAdds numbers.\n\n>>> add(2, 3)\n5\n\n```js\nadd(2, 3) // 5\n```\n",
            "# Calc\n\nAdds numbers.\n",
        ] {
            assert!(!same_code("README.md", README, after), "{after:?}");
        }
    }

    #[test]
    fn a_block_no_runner_runs_and_a_shift_in_a_sentence_are_prose() {
        for after in [
            "# Calc\n\nAdds numbers.\n\n```text\nadd(2, 3) is 5\n```\n\n```js\nadd(2, 3) // 5\n```\n",
            "# Calc\n\nAdds numbers.\n\n~~~Plain\nout\n~~~\n\n```js\nadd(2, 3) // 5\n```\n",
            "# Calc\n\nAdds numbers; shifts use >>> too.\n\n```js\nadd(2, 3) // 5\n```\n",
        ] {
            assert!(same_code("README.md", README, after), "{after:?}");
        }
        // A prompt past blanks, in a block no runner runs, is one all the same.
        for after in [
            "# Calc\n\nAdds numbers.\n\n```text\n>>> add(2, 3)\n```\n\n```js\nadd(2, 3) // 5\n```\n",
            "# Calc\n\nAdds numbers.\n\n  \t>>> add(2, 3)\n\n```js\nadd(2, 3) // 5\n```\n",
            "# Calc\n\nAdds numbers.\n\n```js\nadd(2, 3) // 5\n```\n\n```text-js\nx\n```\n",
        ] {
            assert!(!same_code("README.md", README, after), "{after:?}");
        }
    }

    const RST: &str = "Calc\n====\n\n.. testcode::\n\n   print(add(2, 3))\n\n   print(1)\n\nSee also::\n\n   add(1, 1)\n";

    #[test]
    fn prose_around_rst_blocks_is_no_code() {
        for after in [
            "Calc\n====\n\nAdds two numbers.\n\n.. testcode::\n\n   print(add(2, 3))\n\n   print(1)\n\nSee also::\n\n   add(1, 1)\n\nThe end.\n",
            "Calc\n====\n\n.. testcode::\n\n   print(add(2, 3))\n\n   print(1)\n\nSee this,\nand that::\n\n\n   add(1, 1)\n",
        ] {
            assert!(same_code("docs/index.rst", RST, after), "{after:?}");
        }
        for after in [
            "Calc\n====\n\n.. testcode::\n\n   print(add(2, 4))\n\n   print(1)\n\nSee also::\n\n   add(1, 1)\n",
            "Calc\n====\n\n.. testcode::\n   print(add(2, 3))\n\n   print(1)\n\nSee also::\n\n   add(1, 1)\n",
            "Calc\n====\n\n.. testcode::\n\n   print(add(2, 3))\n\nSplit.\n\n   print(1)\n\nSee also::\n\n   add(1, 1)\n",
            "Calc\n====\n\n.. testcode::\n\n   print(add(2, 3))\n\n   print(1)\n\nSee also::\n\n   add(1, 1)\n\n.. doctest::\n",
            "Calc\n====\n\n>>> add(2, 3)\n\n.. testcode::\n\n   print(add(2, 3))\n\n   print(1)\n\nSee also::\n\n   add(1, 1)\n",
        ] {
            assert!(!same_code("docs/index.rst", RST, after), "{after:?}");
        }
    }

    #[test]
    fn notes_in_plain_text_are_prose_but_for_a_prompt() {
        assert!(same_code(
            "NOTES.txt",
            "Notes\n",
            "Notes\n\nAdds two numbers.\n"
        ));
        assert!(!same_code(
            "NOTES.txt",
            "Notes\n",
            "Notes\n\n>>> add(2, 3)\n5\n"
        ));
        // Not a document: the bytes decide.
        assert!(!same_code("expected.txt", "5\n", "5\n"));
    }

    #[test]
    fn prose_is_markdown_outside_the_tests_and_their_data() {
        for path in ["README.md", "docs/guide.md", "CHANGELOG.markdown"] {
            assert!(is_prose(path), "{path}");
        }
        for path in [
            "NOTES.txt",
            "docs/Changelog.TXT",
            "docs/topics/add.txt",
            "docs/index.rst",
        ] {
            assert!(is_prose(path), "{path}");
        }
        for path in [
            "expected.txt",
            "requirements.txt",
            "CMakeLists.txt",
            "docs/requirements-dev.txt",
            "tests/README.txt",
            "features/add.feature.md",
            "docs/features/add.md",
            "Add.Feature.MD",
            "fixtures/a.rst",
            ".gitignore",
            "tests/cases/add.md",
            "src/test/README.md",
            "fixtures/plan.md",
            "pkg/testdata/golden.md",
            "README",
        ] {
            assert!(!is_prose(path), "{path}");
        }
    }

    #[test]
    fn markdown_by_its_name() {
        for path in ["README.md", "docs/Guide.MD", "a/b.markdown"] {
            assert!(is_markdown(path), "{path}");
        }
        for path in ["README", "notes.txt", "md", "page.mdx", "docs.md/x.rs"] {
            assert!(!is_markdown(path), "{path}");
        }
    }
}
