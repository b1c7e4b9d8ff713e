//! Verifies that check nothing: `true`, `echo ok`, `test -e .`, `sh -c 'exit 0'`,
//! `python3 -c pass`. Each exits 0 whatever the repository holds, so a sign-off
//! resting on one proved nothing. Pure: reads the parsed argv lists, runs nothing.
//!
//! Conservative on purpose: a command it does not know can fail. It only names the
//! forms that are certain to pass, so a real check is never called hollow.

use super::Verify;

/// Why `verify` can never fail (`` `true` always exits 0 ``), or `None` when it can.
/// A chain fails when any pipeline does, and a pipeline when any command does
/// (verify runs pipelines as `pipefail` would), so it cannot fail only when every
/// command cannot.
pub fn cannot_fail(verify: &Verify) -> Option<String> {
    let mut why = None;
    for pipeline in &verify.chain {
        if let Some(reason) = literal_grep(&pipeline.commands) {
            why.get_or_insert(reason);
            continue;
        }
        for argv in &pipeline.commands {
            let reason = command(argv, 0)?;
            why.get_or_insert(reason);
        }
    }
    why
}

/// How deep `sh -c "sh -c '…'"` is followed before the command counts as able to fail.
const DEPTH: usize = 4;

/// Why one command (an argv) always exits 0, or `None` when it can fail.
fn command(argv: &[String], depth: usize) -> Option<String> {
    if depth > DEPTH {
        return None;
    }
    let (program, args) = argv.split_first()?;
    let name = program.rsplit('/').next().unwrap_or(program);
    let shown = || format!("`{}`", written(argv));
    match name {
        "true" | ":" | "echo" | "printf" | "pwd" | "sleep" | "date" | "whoami" | "uname"
        | "tee" => Some(format!("{} always exits 0", shown())),
        "ls" if args.iter().all(|a| a.starts_with('-') || is_here(a)) => {
            Some(format!("{} lists a folder that is always there", shown()))
        }
        "exit" if args.is_empty() || args == ["0"] => Some(format!("{} exits 0", shown())),
        // A program's own version or help: it looks at nothing of the repository.
        _ if !args.is_empty() && args.iter().all(|a| a == "--version" || a == "--help") => Some(
            format!("{} prints the program's own version or help", shown()),
        ),
        "expr" if matches!(args, [one] if is_true_literal(one)) => {
            Some(format!("{} is a literal that is never 0", shown()))
        }
        "test" => test(args).then(|| format!("{} is true whatever the repository holds", shown())),
        "[" => {
            let inner = args.strip_suffix(&["]".to_string()])?;
            test(inner).then(|| format!("{} is true whatever the repository holds", shown()))
        }
        // Wrappers that run the rest as the command.
        "env" => {
            let rest: Vec<String> = args
                .iter()
                .skip_while(|a| a.starts_with('-') || a.contains('='))
                .cloned()
                .collect();
            command(&rest, depth + 1)
        }
        "nice" | "nohup" | "command" | "exec" | "time" => command(args, depth + 1),
        "timeout" => {
            let rest: Vec<String> = args
                .iter()
                .skip_while(|a| a.starts_with('-'))
                .skip(1)
                .cloned()
                .collect();
            command(&rest, depth + 1)
        }
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "ash" => {
            let script = flag_value(args, "-c")?;
            shell(script, depth + 1).map(|why| format!("{}: {why}", shown()))
        }
        _ if is_python(name) => {
            let script = flag_value(args, "-c")?;
            statements(script, PYTHON).then(|| format!("{} runs nothing that can fail", shown()))
        }
        "node" | "nodejs" | "deno" | "bun" => {
            let script = flag_value(args, "-e").or_else(|| flag_value(args, "--eval"))?;
            statements(script, NODE).then(|| format!("{} runs nothing that can fail", shown()))
        }
        "ruby" | "perl" => {
            let script = flag_value(args, "-e")?;
            statements(script, RUBY).then(|| format!("{} runs nothing that can fail", shown()))
        }
        _ => None,
    }
}

/// The command as a person would type it: a word quoted only when it holds a space
/// or a quote, or is empty (`[ -e . ]`, `bash -c 'exit 0'`).
fn written(argv: &[String]) -> String {
    argv.iter()
        .map(|w| {
            if w.is_empty() || w.contains(|c: char| c.is_whitespace() || c == '\'' || c == '"') {
                format!("'{}'", w.replace('\'', r"'\''"))
            } else {
                w.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn is_python(name: &str) -> bool {
    name == "python"
        || name
            .strip_prefix("python")
            .is_some_and(|v| v.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
}

/// The word after `flag`, when it is the first option given (`sh -c SCRIPT`,
/// `python3 -c CODE`); later options would make the script's meaning uncertain.
fn flag_value<'a>(args: &'a [String], flag: &str) -> Option<&'a str> {
    let at = args.iter().position(|a| a == flag)?;
    args[..at]
        .iter()
        .all(|a| a.starts_with('-') && a.len() > 1)
        .then(|| args.get(at + 1).map(String::as_str))
        .flatten()
}

/// A literal `expr` prints and exits 0 on: a number other than 0, or a word.
fn is_true_literal(word: &str) -> bool {
    !word.is_empty()
        && !word.trim_start_matches(['-', '+', '0']).is_empty()
        && !word.starts_with('(')
}

/// `echo TEXT | grep PATTERN` (or `printf`) where the text holds the pattern: the
/// check reads only what the line itself says. Fixed patterns of plain characters
/// only, so a pattern that could fail on that text is never called hollow.
fn literal_grep(commands: &[Vec<String>]) -> Option<String> {
    let [producer, grep] = commands else {
        return None;
    };
    let (program, words) = producer.split_first()?;
    let text = match program.rsplit('/').next()? {
        "echo" => words
            .iter()
            .skip_while(|w| *w == "-n")
            .cloned()
            .collect::<Vec<_>>()
            .join(" "),
        "printf" if words.len() == 1 && !words[0].contains(['%', '\\']) => words[0].clone(),
        _ => return None,
    };
    let (name, args) = grep.split_first()?;
    if !matches!(name.rsplit('/').next()?, "grep" | "egrep" | "fgrep") {
        return None;
    }
    let mut pattern = None;
    let mut fold = false;
    for arg in args {
        match arg.as_str() {
            "-q" | "-s" | "-F" | "--quiet" | "--silent" | "-qs" | "-sq" | "-qF" | "-Fq" => {}
            "-i" | "-qi" | "-iq" => fold = true,
            _ if arg.starts_with('-') => return None,
            _ if pattern.is_none() => pattern = Some(arg.as_str()),
            // A file operand: grep reads that, not the text.
            _ => return None,
        }
    }
    let pattern = pattern?;
    let plain = !pattern.is_empty()
        && pattern
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | ',' | ':' | '='));
    let holds = if fold {
        text.to_lowercase().contains(&pattern.to_lowercase())
    } else {
        text.contains(pattern)
    };
    (plain && holds).then(|| {
        format!(
            "`{} | {}` finds in the text what the line itself printed",
            written(producer),
            written(grep)
        )
    })
}

/// `.`, `./`, `/`, `..`: paths that exist in every checkout.
fn is_here(path: &str) -> bool {
    matches!(path, "." | "./" | ".." | "../" | "/")
}

/// Whether a `test` expression (its words, literal: verify expands nothing) is true
/// whatever the repository holds: a string comparison of two literals, a string's
/// length, or a folder that always exists. A file test on any other path can fail.
fn test(args: &[String]) -> bool {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        [] => false,
        ["!", rest @ ..] => constant(rest) == Some(false),
        _ => constant(&words) == Some(true),
    }
}

/// The value of a `test` expression that does not depend on the repository, or
/// `None` when it does (or is not understood).
fn constant(words: &[&str]) -> Option<bool> {
    match *words {
        [one] => Some(!one.is_empty()),
        ["-n", s] => Some(!s.is_empty()),
        ["-z", s] => Some(s.is_empty()),
        ["-e" | "-d" | "-r" | "-x" | "-w", path] if is_here(path) => Some(true),
        ["-e" | "-r" | "-w" | "-c", "/dev/null" | "/dev/zero"] => Some(true),
        ["-e" | "-d" | "-r" | "-w" | "-x", "/tmp"] => Some(true),
        [a, "=" | "==", b] => Some(a == b),
        [a, "!=", b] => Some(a != b),
        [a, op @ ("-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge"), b] => {
            let (a, b) = (a.parse::<i64>().ok()?, b.parse::<i64>().ok()?);
            Some(match op {
                "-eq" => a == b,
                "-ne" => a != b,
                "-lt" => a < b,
                "-le" => a <= b,
                "-gt" => a > b,
                _ => a >= b,
            })
        }
        _ => None,
    }
}

/// Why a shell script always exits 0, or `None` when it can fail. Lists (`;`,
/// newlines) end with their last command's status; `a || b` fails only when both
/// can; `a && b` when either can; a pipeline (no `pipefail` in `sh`) ends with its
/// last command's. Anything the splitter does not understand can fail.
fn shell(script: &str, depth: usize) -> Option<String> {
    let list = split_list(script)?;
    let last = list.last()?;
    and_or(last, depth)
}

/// A script's lists, split at `;` and newlines outside quotes; `None` for what this
/// does not read (`$(…)`, backquotes, braces, subshells, `&`).
fn split_list(script: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    for c in script.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                current.push(c);
            }
            (Some(_), c) => current.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                current.push(c);
            }
            (None, '`' | '(' | ')' | '{' | '}' | '$' | '<' | '>') => return None,
            (None, ';' | '\n') => out.push(std::mem::take(&mut current)),
            (None, c) => current.push(c),
        }
    }
    if quote.is_some() {
        return None;
    }
    out.push(current);
    out.retain(|part| !part.trim().is_empty());
    Some(out)
}

/// An and-or list (`a && b || c`), read left to right as `sh` does.
fn and_or(list: &str, depth: usize) -> Option<String> {
    let mut parts = split_ops(list, &["&&", "||"])?.into_iter();
    let (_, first) = parts.next()?;
    let mut why = pipeline(&first, depth);
    for (op, part) in parts {
        let next = pipeline(&part, depth);
        why = match op {
            "&&" => why.and(next),
            _ => why.or(next),
        };
    }
    why
}

/// A pipeline ends with its last command's status in `sh`.
fn pipeline(text: &str, depth: usize) -> Option<String> {
    let parts = split_ops(text, &["|"])?;
    let (_, last) = parts.last()?;
    let verify = super::parse(last).ok()?;
    let [one] = verify.chain.as_slice() else {
        return None;
    };
    let [argv] = one.commands.as_slice() else {
        return None;
    };
    command(argv, depth)
}

/// `text` split at each of `ops` outside quotes, each part with the operator before
/// it (`""` for the first). `&` alone (a background job) is not read.
fn split_ops<'o>(text: &str, ops: &[&'o str]) -> Option<Vec<(&'o str, String)>> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut before: &'o str = "";
    let mut quote: Option<char> = None;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if quote.is_none() {
            if let Some(op) = ops.iter().find(|op| rest.starts_with(**op)) {
                out.push((before, std::mem::take(&mut current)));
                before = op;
                rest = &rest[op.len()..];
                continue;
            }
            // `|` is the pipeline's, read a level down; `&` alone is a background job.
            if c == '&' {
                return None;
            }
        }
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            _ => {}
        }
        current.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out.push((before, current));
    out.iter()
        .all(|(_, part)| !part.trim().is_empty())
        .then_some(out)
}

/// Python statements that cannot fail.
const PYTHON: &[&str] = &[
    "pass",
    "None",
    "True",
    "False",
    "0",
    "1",
    "...",
    "import sys",
    "sys.exit(0)",
    "sys.exit()",
    "exit(0)",
    "exit()",
    "quit()",
    "raise SystemExit(0)",
    "raise SystemExit",
];

/// JavaScript statements that cannot fail.
const NODE: &[&str] = &[
    "0",
    "1",
    "true",
    "false",
    "null",
    "undefined",
    "''",
    "\"\"",
    "process.exit(0)",
    "process.exit()",
];

/// Ruby and Perl statements that cannot fail.
const RUBY: &[&str] = &["0", "1", "true", "nil", "exit", "exit 0", "exit(0)"];

/// Whether every statement of `script` (split at `;` and newlines) is one of
/// `known`, or prints a string literal: a script that can do nothing but exit 0.
fn statements(script: &str, known: &[&str]) -> bool {
    script
        .split([';', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .all(|s| known.contains(&s) || prints_literal(s))
}

/// `print("ok")`, `console.log('ok')`, `puts "ok"`: output of a plain string.
fn prints_literal(statement: &str) -> bool {
    let arg = ["print(", "console.log("]
        .iter()
        .find_map(|f| statement.strip_prefix(f)?.strip_suffix(')'))
        .or_else(|| {
            ["puts ", "print "]
                .iter()
                .find_map(|f| statement.strip_prefix(f))
        });
    arg.is_some_and(|arg| {
        let arg = arg.trim();
        arg.is_empty()
            || arg.bytes().all(|b| b.is_ascii_digit())
            || ['\'', '"'].iter().any(|q| {
                arg.len() >= 2
                    && arg.starts_with(*q)
                    && arg.ends_with(*q)
                    && !arg[1..arg.len() - 1].contains(*q)
                    && !arg[1..arg.len() - 1].contains('\\')
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hollow(line: &str) -> Option<String> {
        cannot_fail(&super::super::parse(line).unwrap())
    }

    #[test]
    fn verifies_that_check_nothing_are_named() {
        for line in [
            "true",
            ":",
            "/bin/true",
            "exit 0",
            "echo ok",
            "printf done",
            "test -e .",
            "test -d .",
            "[ -e . ]",
            "test 1 = 1",
            "test ! -z x",
            "ls",
            "ls -la .",
            "pwd",
            "sh -c true",
            "bash -c 'exit 0'",
            "sh -c 'cargo test || true'",
            "sh -c 'cargo test; exit 0'",
            "bash -c 'pytest | tee out.log'",
            "sh -c \"sh -c 'echo hi'\"",
            "python -c pass",
            "python3 -c pass",
            "python3 -c 'import sys; sys.exit(0)'",
            "python3 -c 'print(\"ok\")'",
            "node -e ''",
            "node -e 'console.log(1)'",
            "env FOO=1 true",
            "timeout 10 echo hi",
            "true && echo ok",
            "echo ok | true",
            "ruby -e 'exit 0'",
            "echo ok | grep -q ok",
            "printf 'all good' | grep -qi GOOD",
            "test -r /dev/null",
            "[ -d /tmp ]",
            "git --version",
            "cargo --help",
            "expr 1",
        ] {
            assert!(hollow(line).is_some(), "{line} can fail?");
        }
    }

    #[test]
    fn real_checks_can_fail() {
        for line in [
            "cargo test x",
            "pytest -q",
            "test -f out.txt",
            "test -e src/main.rs",
            "[ -d build ]",
            "grep -q x f",
            "ls out.txt",
            "true && cargo test",
            "cargo test | tee log",
            "sh -c 'cargo test && true'",
            "sh -c 'exit 1'",
            "sh -c 'true; cargo test'",
            "sh -c 'test -f $FILE'",
            "bash run.sh",
            "python3 -c 'import app; app.check()'",
            "python3 -m pytest",
            "node -e 'require(\"./check\")'",
            "node test.js",
            "test 1 = 2",
            "make test",
            "exit 1",
            "echo ok | grep -q ko",
            "echo ok | grep -q 'o.'",
            "echo ok | grep -q ok out.txt",
            "echo ok | grep -vq ok",
            "cat out.txt | grep -q ok",
            "test -r /etc/app.conf",
            "make version",
            "git --version && cargo test",
            "expr 0",
            "expr 1 + 1",
        ] {
            assert_eq!(hollow(line), None, "{line}");
        }
    }

    #[test]
    fn the_reason_names_the_command() {
        assert_eq!(hollow("true").unwrap(), "`true` always exits 0");
        assert_eq!(
            hollow("test -e .").unwrap(),
            "`test -e .` is true whatever the repository holds"
        );
        assert_eq!(
            hollow("bash -c 'exit 0'").unwrap(),
            "`bash -c 'exit 0'`: `exit 0` exits 0"
        );
    }
}
