//! What a program can run in a Markdown file: its code blocks (rustdoc's tests of
//! a README it includes, a doctest runner's examples) and any `>>>` prompt
//! (Python's doctest reads those anywhere in a text file). The prose around them
//! is for people: a sentence or a blank line added there gives a test runner
//! nothing new to run. Pure: text in, an answer out.

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

/// Past this many bytes a side is not read: the answer is "the same", so a file
/// padded past it cannot end a finding (as for the grammars' cap).
pub const MAX_BYTES: usize = crate::plan::syntax::MAX_BYTES;

/// Folders whose files a test reads as its data, besides the tests' own
/// ([`crate::plan::weakened::TEST_DIRS`]): there a Markdown file can be a case the
/// tests run, prose and all.
const DATA_DIRS: &[&str] = &["fixtures", "testdata", "snapshots", "__snapshots__"];

/// Whether `path` names Markdown written for people: a Markdown file outside the
/// tests' folders and their data's.
pub fn is_prose(path: &str) -> bool {
    let mut dirs = path.split('/').rev().skip(1);
    is_markdown(path)
        && !dirs.any(|d| crate::plan::weakened::TEST_DIRS.contains(&d) || DATA_DIRS.contains(&d))
}

/// Whether `path` names a Markdown file (`.md`, `.markdown`, in any case).
pub fn is_markdown(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| matches!(ext.to_ascii_lowercase().as_str(), "md" | "markdown"))
}

/// Whether `before` and `after`, two versions of a Markdown file, hold the same
/// code blocks (each by its info string and text, in order), with no doctest
/// prompt (`>>>`) in either: only prose and layout differ. A side past
/// [`MAX_BYTES`] reads as the same.
pub fn same_code(before: &str, after: &str) -> bool {
    if before.len() > MAX_BYTES || after.len() > MAX_BYTES {
        return true;
    }
    if before.contains(">>>") || after.contains(">>>") {
        return false;
    }
    code_blocks(before) == code_blocks(after)
}

/// Each code block of `text` as CommonMark reads it (fenced or indented): its info
/// string (empty for an indented one) and its text.
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
            assert!(same_code(README, after), "{after:?}");
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
            assert!(!same_code(README, after), "{after:?}");
        }
    }

    #[test]
    fn prose_is_markdown_outside_the_tests_and_their_data() {
        for path in ["README.md", "docs/guide.md", "CHANGELOG.markdown"] {
            assert!(is_prose(path), "{path}");
        }
        for path in [
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
