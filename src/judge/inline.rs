//! A command judge that is a line of script rather than a program: `judge.command`
//! handing a shell or interpreter its program as text (`sh -c '…'`, `python3 -c`,
//! `node -e`, `perl -e`, an awk program) or on stdin, where plan writes the prompt.
//! The checks on a command judge read its program's path (outside the repository)
//! and its arguments (no file inside it); a line of shell is neither, and
//! `sh -c 'cd "$PLAN_JUDGE_TREE" && sh judge.sh'` runs the agent's own script from
//! the tree it judges. Such a judge is refused: its text belongs in a file outside
//! the repository, named by path.

/// How a command judge's argv gives an interpreter its program other than as a file.
#[derive(Debug, PartialEq, Eq)]
pub struct Inline {
    /// The interpreter, as the argv names it.
    pub program: String,
    /// How: the option that takes the text, or stdin.
    pub how: How,
}

#[derive(Debug, PartialEq, Eq)]
pub enum How {
    /// The program text follows this option (`-c`, `-e`, `--eval`).
    Option(String),
    /// The program text is an operand (awk's first operand).
    Operand,
    /// No script operand, or one naming stdin: the program is read from stdin.
    Stdin,
}

/// One kind of interpreter: how its options hand it a program.
struct Family {
    names: &'static [&'static str],
    /// Short option letters whose value is program text (`c` in `-ec`).
    inline_short: &'static str,
    /// Short option letters that take a value (the rest of the word, or the next).
    value_short: &'static str,
    /// Short option letters that read the program from stdin (`sh -s`).
    stdin_short: &'static str,
    /// Whole words whose value is program text (`--eval`; `--eval=…` too).
    inline_long: &'static [&'static str],
    /// Whole words that take the next word as a value.
    value_long: &'static [&'static str],
    /// The first operand is the program text unless a file option came (awk).
    operand_is_text: bool,
    /// Short option letters naming the program's file or module (awk's `-f`,
    /// python's `-m`): then no operand is no program on stdin.
    file_short: &'static str,
}

const SHELLS: Family = Family {
    names: &[
        "sh", "bash", "dash", "zsh", "ksh", "mksh", "pdksh", "oksh", "loksh", "ash", "yash",
        "posh", "rbash", "fish", "tcsh", "csh", "elvish", "nu", "xonsh", "pwsh", "expect",
    ],
    inline_short: "c",
    value_short: "oO",
    stdin_short: "s",
    inline_long: &["--command", "-command", "-Command", "-EncodedCommand"],
    value_long: &["--init-file", "--rcfile", "--init-command"],
    operand_is_text: false,
    file_short: "",
};

const FAMILIES: &[Family] = &[
    SHELLS,
    Family {
        names: &["python", "pypy", "micropython"],
        inline_short: "c",
        value_short: "WXm",
        stdin_short: "",
        inline_long: &[],
        value_long: &["--check-hash-based-pycs"],
        operand_is_text: false,
        file_short: "m",
    },
    Family {
        names: &["node", "nodejs", "deno", "bun", "qjs"],
        inline_short: "",
        value_short: "",
        stdin_short: "",
        inline_long: &["-e", "--eval", "-p", "--print", "eval"],
        value_long: &[
            "-r",
            "--require",
            "--import",
            "--loader",
            "--experimental-loader",
            "-C",
            "--conditions",
        ],
        operand_is_text: false,
        file_short: "",
    },
    Family {
        names: &["perl"],
        inline_short: "eE",
        value_short: "IMmxdDC",
        stdin_short: "",
        inline_long: &[],
        value_long: &[],
        operand_is_text: false,
        file_short: "",
    },
    Family {
        names: &["ruby", "jruby"],
        inline_short: "e",
        value_short: "IrCxKEF",
        stdin_short: "",
        inline_long: &[],
        value_long: &[],
        operand_is_text: false,
        file_short: "",
    },
    Family {
        names: &["php"],
        inline_short: "rBRE",
        value_short: "cdfFzt",
        stdin_short: "",
        inline_long: &["--run"],
        value_long: &[],
        operand_is_text: false,
        file_short: "f",
    },
    Family {
        names: &[
            "lua",
            "luajit",
            "tclsh",
            "wish",
            "jimsh",
            "Rscript",
            "R",
            "julia",
            "osascript",
        ],
        inline_short: "eE",
        value_short: "lf",
        stdin_short: "",
        inline_long: &["--eval", "--print"],
        value_long: &[],
        operand_is_text: false,
        file_short: "f",
    },
    Family {
        names: &["awk", "gawk", "mawk", "nawk", "busybox-awk"],
        inline_short: "e",
        value_short: "Fvf",
        stdin_short: "",
        inline_long: &["--source"],
        value_long: &["--assign", "--field-separator"],
        operand_is_text: true,
        file_short: "f",
    },
];

/// Programs that run the rest of their argv as a command, and their short options
/// that take a value. `timeout` takes its duration as an operand first.
const WRAPPERS: &[(&str, &str)] = &[
    ("env", "uC"),
    ("nice", "n"),
    ("nohup", ""),
    ("setsid", ""),
    ("timeout", "sk"),
    ("stdbuf", "ioe"),
    ("time", "fo"),
    ("command", ""),
    ("exec", ""),
    ("ionice", "cnpPu"),
    ("sudo", "ugCDhprtUT"),
    ("doas", "uC"),
    ("busybox", ""),
];

/// Whether `argv` (a command judge's) gives an interpreter its program as text or
/// on stdin, seen through wrappers such as `env` and `timeout`.
pub fn inline_script(argv: &[String]) -> Option<Inline> {
    let mut i = 0;
    loop {
        let word = argv.get(i)?;
        let name = base_name(word);
        let Some((wrapper, values)) = WRAPPERS.iter().find(|(w, _)| *w == name) else {
            break;
        };
        i += 1;
        while let Some(arg) = argv.get(i) {
            if *wrapper == "env" && (arg.starts_with("-S") || arg.starts_with("--split-string")) {
                return Some(Inline {
                    program: word.clone(),
                    how: How::Option("-S".to_string()),
                });
            }
            if arg == "--" {
                i += 1;
                break;
            }
            if arg.starts_with('-') && arg.len() > 1 {
                let letters = &arg[1..];
                // A value-taking letter last in the word takes the next word.
                if !arg.starts_with("--")
                    && letters
                        .char_indices()
                        .find(|(_, c)| values.contains(*c))
                        .is_some_and(|(at, _)| at + 1 == letters.len())
                {
                    i += 1;
                }
                i += 1;
            } else if *wrapper == "env" && arg.contains('=') {
                i += 1;
            } else {
                break;
            }
        }
        if *wrapper == "timeout" {
            i += 1;
        }
    }
    let word = &argv[i];
    let name = interpreter_name(word);
    let family = FAMILIES.iter().find(|f| f.names.contains(&name.as_str()))?;
    let found = |how| {
        Some(Inline {
            program: word.clone(),
            how,
        })
    };
    let mut file_given = false;
    let mut j = i + 1;
    while let Some(arg) = argv.get(j) {
        j += 1;
        if arg == "--" {
            return match argv.get(j) {
                Some(op) => operand(family, op, file_given).and_then(found),
                None => found(How::Stdin),
            };
        }
        if let Some(flag) = family
            .inline_long
            .iter()
            .find(|f| arg == *f || arg.strip_prefix(*f).is_some_and(|r| r.starts_with('=')))
        {
            return found(How::Option((*flag).to_string()));
        }
        if family.value_long.contains(&arg.as_str()) {
            j += 1;
            continue;
        }
        if arg.starts_with("--") {
            continue;
        }
        if (arg.starts_with('-') || arg.starts_with('+')) && arg.len() > 1 {
            for (at, c) in arg.char_indices().skip(1) {
                if family.inline_short.contains(c) {
                    return found(How::Option(format!("-{c}")));
                }
                if family.stdin_short.contains(c) {
                    return found(How::Stdin);
                }
                if family.file_short.contains(c) {
                    file_given = true;
                }
                if family.value_short.contains(c) {
                    if at + c.len_utf8() == arg.len() {
                        j += 1;
                    }
                    break;
                }
            }
            continue;
        }
        return operand(family, arg, file_given).and_then(found);
    }
    if family.operand_is_text || file_given {
        return None;
    }
    found(How::Stdin)
}

/// What the first operand `op` makes of the judge: `Some(how)` when the program
/// is text after all (awk's program, stdin by name).
fn operand(family: &Family, op: &str, file_given: bool) -> Option<How> {
    if op == "-" || op.starts_with("/dev/") || op.starts_with("/proc/") {
        return Some(How::Stdin);
    }
    (family.operand_is_text && !file_given).then_some(How::Operand)
}

/// The last part of a path.
fn base_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// An interpreter's name without its version (`python3.12`, `perl5.36`, `ksh93`).
fn interpreter_name(word: &str) -> String {
    let name = base_name(word);
    let bare = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    if bare.is_empty() {
        name.to_string()
    } else {
        bare.to_string()
    }
}

/// The refusal of a command judge [`inline_script`] found: the message and a hint.
pub fn refusal(inline: &Inline) -> (String, &'static str) {
    let how = match &inline.how {
        How::Option(flag) => format!("gives {} its program as text ({flag})", inline.program),
        How::Operand => format!(
            "gives {} its program as text (its first argument)",
            inline.program
        ),
        How::Stdin => format!(
            "has {} read its program from stdin, where plan writes the prompt",
            inline.program
        ),
    };
    (
        format!(
            "refusing the command judge: judge.command {how}; a judge is a program, and a line of script can run anything in the tree it judges (`cd \"$PLAN_JUDGE_TREE\" && sh judge.sh` runs the agent's own script) where the checks on the program's path and arguments cannot see it"
        ),
        "put the judge's script in a file outside the repository and give its path, e.g. `plan judge command sh ~/.local/share/my-judge.sh` or `plan judge command ~/.local/bin/my-judge`",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    fn how(words: &[&str]) -> Option<How> {
        inline_script(&argv(words)).map(|i| i.how)
    }

    #[test]
    fn program_text_and_stdin_are_found_through_wrappers() {
        let opt = |f: &str| Some(How::Option(f.to_string()));
        let cases: &[(&[&str], Option<How>)] = &[
            (
                &["sh", "-c", "cd \"$PLAN_JUDGE_TREE\" && sh judge.sh"],
                opt("-c"),
            ),
            (&["/bin/bash", "-ec", "x"], opt("-c")),
            (&["bash", "-o", "pipefail", "-c", "x"], opt("-c")),
            (&["/usr/bin/env", "sh", "-c", "x"], opt("-c")),
            (&["env", "A=1", "-u", "B", "bash", "-c", "x"], opt("-c")),
            (&["env", "-S", "sh -c x"], opt("-S")),
            (&["timeout", "-k", "5", "60", "sh", "-c", "x"], opt("-c")),
            (&["nice", "-n", "5", "python3.12", "-c", "x"], opt("-c")),
            (&["python3", "-I", "-c", "x"], opt("-c")),
            (&["node", "--eval=x"], opt("--eval")),
            (&["perl", "-lne", "x"], opt("-e")),
            (&["php", "-r", "x"], opt("-r")),
            (
                &["awk", "BEGIN { system(\"sh judge.sh\") }"],
                Some(How::Operand),
            ),
            (&["sh"], Some(How::Stdin)),
            (&["bash", "-s"], Some(How::Stdin)),
            (&["python3", "-"], Some(How::Stdin)),
            (&["sh", "/dev/stdin"], Some(How::Stdin)),
        ];
        for (words, want) in cases {
            assert_eq!(&how(words), want, "{words:?}");
        }
    }

    #[test]
    fn programs_and_scripts_in_files_are_judges() {
        for words in [
            &["/home/u/.local/bin/my-judge"][..],
            &["sh", "/home/u/judge.sh"],
            &["sh", "/home/u/judge.sh", "-c", "strict"],
            &["/usr/bin/env", "python3", "/home/u/judge.py"],
            &["python3", "-m", "myjudge"],
            &["python3", "-W", "ignore", "/home/u/judge.py"],
            &["perl", "-Mstrict", "/home/u/judge.pl"],
            &["awk", "-f", "/home/u/judge.awk"],
            &["timeout", "60", "/home/u/judge"],
            &["llm", "-m", "gpt"],
        ] {
            assert_eq!(how(words), None, "{words:?}");
        }
    }
}
