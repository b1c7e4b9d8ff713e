//! Shell scripts read through tree-sitter's Bash grammar, for one question: do
//! two versions of a script mean the same, comments and layout aside? A verify's
//! own scripts (`sh check.sh`) are shell, and a comment added to one claims no
//! work. Pure: text in, an answer out.

use super::{MAX_BYTES, pruned};

/// The programs a `#!` line may name for its script to be read as shell here:
/// the POSIX shells and bash, whose grammar this is.
pub const SHELLS: &[&str] = &["sh", "bash", "dash", "ash", "ksh", "mksh"];

/// Nodes read byte for byte, their insides never normalised: in a quoted string
/// or a here-document a `#` or a blank line is what the script says.
const VERBATIM: &[&str] = &[
    "string",
    "raw_string",
    "ansi_c_string",
    "translated_string",
    "heredoc_body",
];

/// The characters after which a `#` starts a comment (bash's metacharacters, and
/// a line's start): anywhere else it is part of a word (`a#b`, `$#`, `${x#y}`).
const OPENS_COMMENT: &str = ";&|()<>";

/// Whether `text`, the file at `path`, is a shell script: its `#!` line runs one
/// of [`SHELLS`] (directly or through `env`), or, with no `#!` line, it is named
/// `.sh` or `.bash`. A `check.sh` whose `#!` names Python is Python.
pub fn is_shell(path: &str, text: &str) -> bool {
    if let Some(line) = text.strip_prefix("#!") {
        let line = line.lines().next().unwrap_or_default();
        let base = |w: &str| w.rsplit('/').next().unwrap_or(w).to_string();
        let mut words = line.split_whitespace().map(base);
        let program = match words.next() {
            Some(env) if env == "env" => words.find(|w| !w.starts_with('-')),
            first => first,
        };
        return program.is_some_and(|p| SHELLS.contains(&p.as_str()));
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(name.rsplit_once('.'), Some((_, "sh" | "bash")))
}

/// Whether `before` and `after`, two versions of the script at `path`, mean the
/// same to the shell: both are shell ([`is_shell`]), with the same `#!` line (a
/// comment to the grammar, but it picks the program), and alike once comments are
/// left out and layout reduced ([`normal`]). `false` when either is past
/// [`MAX_BYTES`] or does not parse clean: then the bytes decide.
pub fn same_meaning(path: &str, before: &str, after: &str) -> bool {
    is_shell(path, before) && is_shell(path, after) && same_script(before, after)
}

/// Whether `before` and `after`, two versions of a script a shell runs whatever
/// its name and `#!` line say (`bash check`), mean the same to it: the same `#!`
/// line (kept: a program may pick by it) and alike as [`same_meaning`] reads
/// them.
pub fn same_script(before: &str, after: &str) -> bool {
    if shebang(before) != shebang(after) {
        return false;
    }
    match (normal(before), normal(after)) {
        (Some(old), Some(new)) => old == new,
        _ => false,
    }
}

/// The `#!` line of `text`, if it has one.
fn shebang(text: &str) -> Option<&str> {
    text.starts_with("#!")
        .then(|| text.lines().next())
        .flatten()
}

/// `text`'s tokens in order, comments left out, and the layout between two
/// tokens reduced to what the shell tells apart there: nothing (`a$b`), a blank
/// (spaces and tabs), or a line's end (one or more, with the blank and comment
/// lines between); layout before the first token and after the last goes. Strings
/// and here-documents ([`VERBATIM`]) are kept as written, and so is layout that
/// holds anything but white space (a `\` continuing a line). `None` past
/// [`MAX_BYTES`], where the grammar finds an error, or where it reads a comment
/// that bash would not (a `#` inside a word, or on a line a `\` continues onto:
/// bash may read it as part of the word before, and the bytes decide).
fn normal(text: &str) -> Option<String> {
    if text.len() > MAX_BYTES {
        return None;
    }
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .ok()?;
    let tree = parser.parse(text, None)?;
    let root = tree.root_node();
    if root.has_error() {
        return None;
    }
    let verbatim = |kind: &str| VERBATIM.contains(&kind);
    // A here-document's body comes after the rest of its line in the text, not
    // always in the tree: the tokens are put in the text's order.
    let mut tokens: Vec<(std::ops::Range<usize>, bool)> =
        pruned(root, |kind| VERBATIM.contains(&kind))
            .filter(|n| n.child_count() == 0 || verbatim(n.kind()))
            .map(|n| (n.byte_range(), n.kind() == "comment"))
            .collect();
    tokens.sort_by_key(|(range, _)| range.start);
    let mut out = String::with_capacity(text.len());
    let mut gap = String::new();
    let mut at = 0;
    for (range, comment) in tokens {
        gap.push_str(text.get(at..range.start)?);
        at = range.end;
        let word = text.get(range.clone())?;
        if comment {
            let opens = |c: char| c.is_whitespace() || OPENS_COMMENT.contains(c);
            let ahead = text.get(..range.start)?;
            // Bash drops a `\` and the line's end before it reads words: what
            // follows is part of the word before (`v=a\`, `#1` is `a#1`).
            if !ahead.chars().next_back().is_none_or(opens) || ahead.ends_with("\\\n") {
                return None;
            }
            continue;
        }
        // A line's end is a token of the grammar's: layout all the same.
        if word.chars().all(char::is_whitespace) {
            gap.push_str(word);
            continue;
        }
        if !out.is_empty() && !gap.is_empty() {
            match gap.chars().all(char::is_whitespace) {
                true if gap.contains('\n') => out.push('\n'),
                true => out.push(' '),
                false => out.push_str(&gap),
            }
        }
        gap.clear();
        out.push_str(word);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECK: &str = "#!/bin/sh\nset -e\nsh inner.sh && test -f README.md\n";

    #[test]
    fn comments_and_layout_added_mean_the_same() {
        for after in [
            "#!/bin/sh\n# graded\nset -e\nsh inner.sh && test -f README.md\n",
            "#!/bin/sh\nset -e # stop at the first failure\nsh inner.sh && test -f README.md\n",
            "#!/bin/sh\n\n\nset -e\n\n  sh inner.sh   &&\ttest -f README.md   \n\n# the end\n",
            "#!/bin/sh\nset -e\nsh inner.sh && test -f README.md",
        ] {
            assert!(same_meaning("check.sh", CHECK, after), "{after:?}");
        }
        let plain = "sh inner.sh\n";
        assert!(same_meaning("check.sh", plain, "# graded\nsh inner.sh\n"));
        assert!(same_meaning("a/b.bash", plain, "sh inner.sh # ok\n"));
    }

    #[test]
    fn a_change_to_what_runs_differs() {
        for after in [
            "#!/bin/sh\nset -e\nsh inner.sh || test -f README.md\n",
            "#!/bin/sh\nset -e\nsh inner.sh\ntest -f README.md\n",
            "#!/bin/sh\nset -e\nsh inner.sh && test -f README\\ .md\n",
            "#!/bin/sh\nset -e\nsh inner.sh && test -f README.md#\n",
            "#!/bin/bash\nset -e\nsh inner.sh && test -f README.md\n",
        ] {
            assert!(normal(after).is_some(), "{after:?}");
            assert!(!same_meaning("check.sh", CHECK, after), "{after:?}");
        }
        // A quote left open does not parse: the bytes decide.
        let open = "#!/bin/sh\nset -e\nsh inner.sh && test -f 'README.md\n";
        assert_eq!(normal(open), None);
        // Words joined or split.
        assert!(!same_meaning("c.sh", "echo a$b\n", "echo a $b\n"));
        assert!(!same_meaning("c.sh", "echo a b\n", "echo ab\n"));
        // A line's end is no blank.
        assert!(!same_meaning("c.sh", "true\nexit 1\n", "true exit 1\n"));
    }

    // A `#` in a string, a here-document or a word is no comment: what follows it
    // is what the script says.
    #[test]
    fn a_hash_that_starts_no_comment_is_read_as_written() {
        let pairs = [
            ("echo '# a'\n", "echo '# b'\n"),
            ("echo \"# a\"\n", "echo \"# b\"\n"),
            ("echo $'# a'\n", "echo $'# b'\n"),
            ("echo a#b\n", "echo a#c\n"),
            ("echo ${x#a}\n", "echo ${x#b}\n"),
            ("echo $#\n", "echo $# # a comment\nexit 1\n"),
            ("cat <<EOF\n# a\nEOF\n", "cat <<EOF\n# b\nEOF\n"),
            ("cat <<'EOF'\n# a\nEOF\n", "cat <<'EOF'\n# b\nEOF\n"),
            ("cat <<-EOF\n\t# a\n\tEOF\n", "cat <<-EOF\n\t# b\n\tEOF\n"),
            (
                "cat <<EOF | sh\nexit 1\nEOF\n",
                "cat <<EOF | sh\n# exit 1\nEOF\n",
            ),
            ("cat <<EOF\na\nEOF\n", "cat <<EOF\na\n\nEOF\n"),
            ("x=\"$(echo '# a')\"\n", "x=\"$(echo '# b')\"\n"),
        ];
        for (before, after) in pairs {
            // Read, and read apart.
            assert!(
                normal(before).is_some() && normal(after).is_some(),
                "{before:?}"
            );
            assert!(!same_meaning("c.sh", before, after), "{before:?} {after:?}");
        }
        // A `#` opening a line a `\` continues onto is part of the word before.
        let (before, after) = ("v=release\\\n#1\ngrep x\n", "v=release\\\n#2\ngrep x\n");
        assert_eq!(normal(after), None);
        assert!(!same_meaning("c.sh", before, after));
        // A comment beside a here-document's line is one.
        assert!(same_meaning(
            "c.sh",
            "cat <<EOF | sh\nexit 1\nEOF\n",
            "cat <<EOF | sh # run it\nexit 1\nEOF\n"
        ));
    }

    #[test]
    fn only_shell_is_read_so() {
        assert!(is_shell("check.sh", "true\n"));
        assert!(is_shell("bin/check", "#!/usr/bin/env bash\ntrue\n"));
        assert!(is_shell("check", "#!/usr/bin/env -S bash -e\ntrue\n"));
        assert!(is_shell("check", "#! /bin/dash\ntrue\n"));
        assert!(!is_shell("check", "true\n"));
        assert!(!is_shell("check.sh", "#!/usr/bin/env python3\nprint(1)\n"));
        assert!(!is_shell("check.zsh", "true\n"));
        assert!(!is_shell("notes.md", "# Notes\n"));
        // Not shell: the bytes decide.
        assert!(!same_meaning("check.py", "x = 1\n", "# c\nx = 1\n"));
        assert!(!same_meaning(
            "check.sh",
            "#!/usr/bin/env python3\nx = 1\n",
            "#!/usr/bin/env python3\n# c\nx = 1\n"
        ));
    }

    #[test]
    fn a_script_that_does_not_parse_differs() {
        let broken = "if true; then\n  echo a\n";
        assert!(!same_meaning("c.sh", broken, broken));
        let big = format!("true\n{}", "# pad\n".repeat(MAX_BYTES / 6 + 1));
        assert!(!same_meaning("c.sh", &big, &big));
    }
}
