//! The programs a verify names that cannot be started where it runs: not on PATH,
//! not in the repository, or a shell builtin with no shell to run it. Said when the
//! verify is set (a warning) and before `plan complete` runs it (exit 3, nothing
//! written): a missing program is the machine's problem, not a failed check.

use std::path::Path;

use anyhow::Result;

use super::Verify;
use crate::exit::Exit;

/// A shell's own commands: verify has no shell, and `cd` or `source` on PATH (some
/// systems ship a `/usr/bin/cd`) would change nothing for the next command.
const BUILTINS: [&str; 20] = [
    "cd", "pushd", "popd", "source", ".", "export", "unset", "set", "alias", "eval", "exec",
    "shopt", "ulimit", "umask", "builtin", "declare", "local", "readonly", "typeset", "trap",
];

/// One program a verify cannot start, and why, in a few words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    pub program: String,
    pub why: String,
}

/// Every command of `verify` whose program cannot be started from `root` (where
/// verify runs), in order, each once. Without a root (a plan file outside any
/// repository) only PATH and the builtins are checked. A path after the first `&&`
/// may be what an earlier step builds (`cargo build && target/debug/app`): only
/// the first pipeline's paths must be there already.
pub fn missing(verify: &Verify, root: Option<&Path>) -> Vec<Missing> {
    let mut found: Vec<Missing> = Vec::new();
    for (step, pipeline) in verify.chain.iter().enumerate() {
        let root = if step == 0 { root } else { None };
        for argv in &pipeline.commands {
            check(argv, root, &mut found);
        }
    }
    found
}

/// Adds `argv`'s program to `found` when it cannot start, unless it is there already.
fn check(argv: &[String], root: Option<&Path>, found: &mut Vec<Missing>) {
    let Some(program) = program_of(argv) else {
        return;
    };
    if let Some(why) = why_missing(program, root)
        && !found.iter().any(|m| m.program == program)
    {
        found.push(Missing {
            program: program.to_string(),
            why,
        });
    }
}

/// The program a command starts: the first word, or for `env`, the word after its
/// options and assignments.
fn program_of(argv: &[String]) -> Option<&str> {
    let first = argv.first()?.as_str();
    if first != "env" {
        return Some(first);
    }
    let mut words = argv[1..].iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-u" | "-C" | "--unset" | "--chdir" | "-S" | "--split-string" => {
                words.next();
            }
            "--" => return words.next().map(String::as_str),
            w if w.starts_with('-') || w.contains('=') => {}
            w => return Some(w),
        }
    }
    // `env` alone prints the environment: it runs.
    Some(first)
}

fn why_missing(program: &str, root: Option<&Path>) -> Option<String> {
    if BUILTINS.contains(&program) {
        return Some("is a shell builtin, and verify runs without a shell".to_string());
    }
    if program.contains('/') {
        let path = match root {
            Some(root) => root.join(program),
            None if Path::new(program).is_absolute() => program.into(),
            None => return None,
        };
        return match std::fs::metadata(&path) {
            Err(_) if Path::new(program).is_absolute() => Some("does not exist".to_string()),
            Err(_) => Some("is not in the repository".to_string()),
            Ok(m) if !m.is_file() => Some("is not a file".to_string()),
            Ok(m) if !executable(&m) => Some("is not executable".to_string()),
            Ok(_) => None,
        };
    }
    crate::exec::find_on_path(program)
        .is_none()
        .then(|| "is not on PATH".to_string())
}

fn executable(m: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    m.permissions().mode() & 0o111 != 0
}

/// What to do about the first missing program.
fn hint(first: &Missing, id: &str) -> String {
    let fix = format!("or change the verify: `plan edit {id} --verify '…'`");
    if first.why.contains("builtin") {
        return format!(
            "verify runs each command from the repository root without a shell: use the program's own flag for a directory (`make -C sub`, `cargo test --manifest-path sub/Cargo.toml`, `env -C sub CMD`) {fix}"
        );
    }
    if first.why.contains("executable") {
        return format!("`chmod +x {}` and commit it, {fix}", first.program);
    }
    format!(
        "install it or put it on PATH (a virtualenv's program by its path, e.g. `.venv/bin/pytest`), check its spelling, {fix}"
    )
}

fn listed(missing: &[Missing]) -> String {
    missing
        .iter()
        .map(|m| format!("`{}` {}", m.program, m.why))
        .collect::<Vec<_>>()
        .join("; ")
}

/// For `plan add` and `plan edit`: a warning on stderr, since the program may be
/// installed or written before the goal is signed off.
pub fn warn_missing(id: &str, line: Option<&str>, root: Option<&Path>) {
    let Some(verify) = line.and_then(|l| super::parse(l).ok()) else {
        return;
    };
    let missing = missing(&verify, root);
    if let Some(first) = missing.first() {
        crate::out::warn(&format!(
            "plan: warning: the verify of {id} cannot run here: {}; `plan complete {id}` will refuse it until it can\n  hint: {}",
            listed(&missing),
            hint(first, id)
        ));
    }
}

/// What a shell would have expanded in `line`, outside quotes that stop it: a glob
/// (`*`, `?`, `[`), a `~` that starts a word, a `$NAME` or `${…}` (inside double
/// quotes too). verify runs its words as written, so each reaches the program as is.
pub fn shell_words(line: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    let mut note = |what: &'static str| {
        if !found.contains(&what) {
            found.push(what);
        }
    };
    let (mut single, mut double, mut escaped) = (false, false, false);
    let mut word_start = true;
    let chars: Vec<char> = line.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if escaped {
            escaped = false;
            word_start = false;
            continue;
        }
        match c {
            '\\' if !single => escaped = true,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '$' if !single
                && chars
                    .get(i + 1)
                    .is_some_and(|n| n.is_ascii_alphabetic() || *n == '_' || *n == '{') =>
            {
                note("a `$` variable")
            }
            '*' | '?' | '[' if !single && !double => note("a glob"),
            '~' if !single && !double && word_start => note("a `~`"),
            _ => {}
        }
        word_start = !single && !double && (c == ' ' || c == '\t');
    }
    found
}

/// For `plan add`: a warning on stderr when the verify holds what only a shell
/// expands (`ls *.py`, `~/bin/check`, `$HOME`), which verify passes on unexpanded.
pub fn warn_shell_words(id: &str, line: Option<&str>) {
    let Some(line) = line else { return };
    let found = shell_words(line);
    if found.is_empty() {
        return;
    }
    crate::out::warn(&format!(
        "plan: warning: the verify of {id} holds {}, which no shell expands: verify runs its words as written\n  hint: name the files or paths themselves, or put the command in a script (`sh check.sh`)",
        found.join(" and ")
    ));
}

/// For `plan complete`, before verify runs: exit 3 naming each program that cannot
/// start, with nothing written. A verify that cannot start has checked nothing, so
/// it is no rejection of the work.
pub fn refuse_missing(verify: Option<&Verify>, root: &Path, id: &str) -> Result<()> {
    let Some(verify) = verify else {
        return Ok(());
    };
    let missing = missing(verify, Some(root));
    match missing.first() {
        None => Ok(()),
        Some(first) => Err(Exit::env_hint(
            format!(
                "cannot run the verify of {id}: {}; nothing was written",
                listed(&missing)
            ),
            hint(first, id),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_shell_would_expand_is_found_outside_quotes() {
        assert_eq!(shell_words("ls *.py"), ["a glob"]);
        assert_eq!(shell_words("cat ~/x"), ["a `~`"]);
        assert_eq!(shell_words("test -n \"$HOME\""), ["a `$` variable"]);
        assert_eq!(shell_words("echo ${X} a?"), ["a `$` variable", "a glob"]);
        for plain in [
            "grep -q 'a.*b' f.txt",
            "grep -q \"a.*b\" f.txt",
            "echo 'cost: $5'",
            "echo a~b",
            "test $ = x",
            "pytest -q tests/test_a.py",
        ] {
            assert!(shell_words(plain).is_empty(), "{plain}");
        }
    }

    fn names(line: &str, root: Option<&Path>) -> Vec<String> {
        missing(&super::super::parse(line).unwrap(), root)
            .into_iter()
            .map(|m| format!("{} {}", m.program, m.why))
            .collect()
    }

    #[test]
    fn names_each_program_that_cannot_start() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("plain.sh"), "").unwrap();
        let root = Some(dir.path());
        assert_eq!(
            names(
                "./gone.sh | ./plain.sh && pytset-no-such-xyz -q && cd sub",
                root
            ),
            [
                "./gone.sh is not in the repository",
                "./plain.sh is not executable",
                "pytset-no-such-xyz is not on PATH",
                "cd is a shell builtin, and verify runs without a shell",
            ]
        );
        assert_eq!(
            names("env -u X A=1 no-such-prog-xyz && env", root),
            ["no-such-prog-xyz is not on PATH"]
        );
        assert!(names("sh -c 'exit 1'", root).is_empty());
        assert!(names("./gone.sh", None).is_empty(), "no root: not checked");
        assert!(
            names("sh -c 'exit 0' && ./built-by-the-first-step", root).is_empty(),
            "a later step may run what an earlier one built"
        );
    }
}
