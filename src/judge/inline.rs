//! Which command judges plan runs: an allow-list of argv shapes. A judge is a
//! program of the person's own (outside the repository and outside the system's
//! directories, where the programs that run other programs live: `xargs`,
//! `taskset`, `flock`, GNU sed's `e`), or a script of theirs in a file, given to a
//! shell or interpreter with no option but a harmless few; `env`, `timeout` and
//! `nice` may come first in their plain forms. Anything else could hand a program
//! the agent's text to run (`sh -c 'cd "$PLAN_JUDGE_TREE" && sh judge.sh'`,
//! `bash -oc posix '…'`, `python3 -m timeit '…'`, `perl -M'…'`), which the checks on
//! the program's path and arguments cannot see, so it is refused. A list of what
//! runs code never ends; this lists what a judge is.

use std::path::{Path, PathBuf};

/// A command judge refused, and why.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The word of the argv the refusal is about.
    pub word: String,
    pub why: Why,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Why {
    /// An option of a shell or interpreter other than the harmless few (`-c`,
    /// `-o`, `-m`, `-M`, `--eval`): it may take program text, a module, a setting.
    Option,
    /// A shell or interpreter with no script file: it reads its program from stdin,
    /// where plan writes the prompt (or awk's program is its first operand).
    NoScript,
    /// A script named relatively: a command judge starts in an empty directory.
    Relative,
    /// A script or program that names no file.
    Missing,
    /// A program or script in the system's directories (it resolves there).
    System(PathBuf),
    /// A program that runs others or a project's code whatever its location
    /// (`npx`, `cargo`, `make`, `ipython`).
    Runner,
    /// `env` with an option or a setting that may load code (`BASH_ENV=…`, `-S`,
    /// `-C`, a relative PATH), or `timeout`
    /// or `nice` with an option they do not take.
    Wrapper,
}

/// How [`refused`] finds a word's file: a program by PATH (a word with a slash as
/// a path), a script as a path. Both return the file with symlinks resolved.
pub trait Find {
    fn program(&self, word: &str) -> Option<PathBuf>;
    /// A program as `env PATH=dirs` finds it: in `dirs` only.
    fn program_on(&self, word: &str, dirs: &str) -> Option<PathBuf>;
    fn script(&self, word: &str) -> Option<PathBuf>;
    /// Whether `path` (resolved) is the file plan's own stdin is: the judge's
    /// stdin is the prompt, and a script named through it would run the prompt.
    fn is_stdin(&self, path: &Path) -> bool;
}

/// The real files: programs on PATH, absolute paths as they are.
pub struct OnDisk;

impl Find for OnDisk {
    fn program(&self, word: &str) -> Option<PathBuf> {
        let found = match word.contains('/') {
            true => Path::new(word).is_file().then(|| PathBuf::from(word)),
            false => crate::exec::find_on_path(word),
        }?;
        Some(std::fs::canonicalize(&found).unwrap_or(found))
    }

    fn program_on(&self, word: &str, dirs: &str) -> Option<PathBuf> {
        use std::os::unix::fs::PermissionsExt;
        let found = dirs
            .split(':')
            .map(|dir| Path::new(dir).join(word))
            .find(|file| {
                std::fs::metadata(file)
                    .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            })?;
        Some(std::fs::canonicalize(&found).unwrap_or(found))
    }

    fn script(&self, word: &str) -> Option<PathBuf> {
        let path = Path::new(word);
        path.is_file().then(|| std::fs::canonicalize(path).ok())?
    }

    fn is_stdin(&self, path: &Path) -> bool {
        std::fs::canonicalize("/proc/self/fd/0").is_ok_and(|stdin| stdin == path)
    }
}

/// One kind of interpreter: its names and the options it may be given.
struct Family {
    names: &'static [&'static str],
    /// Short option letters that take no value and load no code (`-u`, `-e`).
    flags: &'static str,
    /// Short option letters that take a value that is no code (python's `-W`).
    values: &'static str,
    /// Short option letters whose value (the next word) must be one of a few
    /// (a shell's `-o pipefail`).
    named: &'static [(char, &'static [&'static str])],
    /// Short option letters whose value, joined to them, must be one of a few
    /// (ruby's `-W0`, python's `-Xutf8`).
    joined: &'static [(char, &'static [&'static str])],
    /// Whole-word options that take no value and load no code.
    long: &'static [&'static str],
    /// awk: the script comes as `-f FILE`, never as an operand.
    script_option: bool,
}

/// Python's `-X` modes that load no code (unlike `presite=`, which imports a
/// module) and name no file.
const PYTHON_X: &[&str] = &[
    "utf8",
    "utf8=0",
    "utf8=1",
    "dev",
    "faulthandler",
    "importtime",
    "tracemalloc",
    "warn_default_encoding",
    "no_debug_ranges",
    "frozen_modules=on",
    "frozen_modules=off",
];

/// Environment settings `env` may give a judge: none loads code (LD_PRELOAD,
/// BASH_ENV, PYTHONSTARTUP, NODE_OPTIONS do), `LC_…` included; PATH is taken
/// apart and its program found through it.
const SETTINGS: &[&str] = &[
    "LANG", "LANGUAGE", "TZ", "NO_COLOR", "TERM", "COLUMNS", "LINES",
];

const FAMILIES: &[Family] = &[
    Family {
        names: &[
            "sh", "bash", "dash", "zsh", "ksh", "mksh", "pdksh", "oksh", "loksh", "ash", "yash",
            "posh", "rbash", "fish", "tcsh", "csh", "elvish", "nu", "xonsh", "pwsh", "expect",
        ],
        flags: "eux",
        values: "",
        named: &[(
            'o',
            &[
                "pipefail",
                "errexit",
                "nounset",
                "xtrace",
                "verbose",
                "noclobber",
                "noglob",
                "posix",
            ],
        )],
        joined: &[],
        long: &["--norc", "--noprofile", "--posix"],
        script_option: false,
    },
    Family {
        names: &["python", "pypy", "micropython"],
        flags: "BEIOqsSuR",
        values: "W",
        named: &[('X', PYTHON_X)],
        joined: &[('X', PYTHON_X)],
        long: &[],
        script_option: false,
    },
    Family {
        names: &["node", "nodejs", "qjs"],
        flags: "",
        values: "",
        named: &[],
        joined: &[],
        long: &["--no-warnings", "--no-deprecation", "--enable-source-maps"],
        script_option: false,
    },
    Family {
        names: &["perl"],
        flags: "wWXtT",
        values: "",
        named: &[],
        joined: &[],
        long: &[],
        script_option: false,
    },
    Family {
        names: &["ruby", "jruby"],
        flags: "wWv",
        values: "",
        named: &[],
        joined: &[(
            'W',
            &[
                "0",
                "1",
                "2",
                ":deprecated",
                ":no-deprecated",
                ":experimental",
                ":no-experimental",
                ":performance",
                ":no-performance",
            ],
        )],
        long: &[],
        script_option: false,
    },
    Family {
        names: &[
            "php",
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
        flags: "",
        values: "",
        named: &[],
        joined: &[],
        long: &[],
        script_option: false,
    },
    Family {
        names: &["awk", "gawk", "mawk", "nawk", "busybox-awk"],
        flags: "",
        values: "",
        named: &[],
        joined: &[],
        long: &[],
        script_option: true,
    },
];

/// Programs that run others, or a project's code, wherever they are installed
/// (a user's own toolchain under HOME included): never a judge by themselves.
const RUNNERS: &[&str] = &[
    "npx",
    "npm",
    "pnpm",
    "pnpx",
    "yarn",
    "bun",
    "bunx",
    "deno",
    "tsx",
    "ts-node",
    "uv",
    "uvx",
    "pipx",
    "poetry",
    "pdm",
    "hatch",
    "tox",
    "nox",
    "ipython",
    "jupyter",
    "cargo",
    "rustup",
    "go",
    "make",
    "gmake",
    "just",
    "task",
    "rake",
    "bundle",
    "gem",
    "composer",
    "dotnet",
    "java",
    "mvn",
    "gradle",
    "sudo",
    "doas",
    "busybox",
    "xargs",
    "parallel",
    "mise",
    "rtx",
    "asdf",
    "pyenv",
    "rbenv",
    "nodenv",
    "goenv",
    "conda",
    "mamba",
    "micromamba",
    "pixi",
    "volta",
    "fnm",
    "direnv",
    "nix",
    "nix-shell",
    "docker",
    "podman",
];

/// Where the system keeps its programs and libraries: none is a judge of the
/// person's own, and many run what their arguments say. Package managers' trees
/// count (Homebrew's on either Mac, MacPorts' `/opt/local`, Nix, snap). Source
/// trees (`/usr/src`, `/usr/local/src`, the rest of `/opt`) are not among them: a
/// checkout there is the person's.
const SYSTEM: &[&str] = &[
    "/bin/",
    "/sbin/",
    "/lib/",
    "/lib32/",
    "/lib64/",
    "/libx32/",
    "/etc/",
    "/usr/bin/",
    "/usr/sbin/",
    "/usr/lib/",
    "/usr/lib32/",
    "/usr/lib64/",
    "/usr/libexec/",
    "/usr/share/",
    "/usr/games/",
    "/usr/local/bin/",
    "/usr/local/sbin/",
    "/usr/local/lib/",
    "/usr/local/libexec/",
    "/usr/local/share/",
    "/opt/homebrew/",
    "/usr/local/Cellar/",
    "/usr/local/opt/",
    "/usr/local/Homebrew/",
    "/opt/local/bin/",
    "/opt/local/sbin/",
    "/opt/local/lib/",
    "/opt/local/libexec/",
    "/opt/local/share/",
    "/home/linuxbrew/",
    "/nix/store/",
    "/gnu/store/",
    "/run/current-system/",
    "/snap/",
    "/System/",
    "/Library/",
];

/// Why `argv` (a command judge's) is not a judge plan runs, or `None` when it is.
/// A program that cannot be found is not refused here: the sign-off says it is not
/// found.
pub fn refused(argv: &[String], find: &dyn Find) -> Option<Refusal> {
    let refusal = |word: &str, why| {
        Some(Refusal {
            word: word.to_string(),
            why,
        })
    };
    let (mut i, dirs) = match wrapped(argv, find) {
        Ok(found) => found,
        Err(wrapper) => return refusal(wrapper, Why::Wrapper),
    };
    let word = argv.get(i)?;
    let real = locate(find, word, dirs);
    let name = identity(word, real.as_deref());
    let family = FAMILIES.iter().find(|f| f.names.contains(&name.as_str()));
    if RUNNERS.contains(&name.as_str()) {
        return refusal(word, Why::Runner);
    }
    let Some(family) = family else {
        return match real {
            Some(path) if system(&path) => refusal(word, Why::System(path)),
            _ => None,
        };
    };
    i += 1;
    let mut script = None;
    while let Some(arg) = argv.get(i) {
        i += 1;
        if arg == "--" {
            break;
        }
        if !(arg.starts_with('-') || arg.starts_with('+')) || arg.len() == 1 {
            i -= 1;
            break;
        }
        if family.long.contains(&arg.as_str()) {
            continue;
        }
        if family.script_option && arg == "-f" {
            // One program file: a second `-f` (`-f /dev/stdin -f ~/j.awk`) is
            // a second program, the first unchecked.
            if script.is_some() {
                return refusal(arg, Why::Option);
            }
            script = argv.get(i);
            i += 1;
            continue;
        }
        match short(&arg[1..], family, argv.get(i)) {
            Some(takes_next) if !arg.starts_with("--") && !arg.starts_with('+') => {
                i += usize::from(takes_next);
            }
            _ => return refusal(arg, Why::Option),
        }
    }
    let script = match (script, family.script_option) {
        (Some(s), _) => s,
        (None, true) => return refusal(word, Why::NoScript),
        (None, false) => match argv.get(i) {
            Some(s) => s,
            None => return refusal(word, Why::NoScript),
        },
    };
    if script == "-" || stream(script) {
        return refusal(script, Why::NoScript);
    }
    if !Path::new(script).is_absolute() {
        return refusal(script, Why::Relative);
    }
    match find.script(script) {
        Some(path) if in_git_dir(&path) || find.is_stdin(&path) => refusal(script, Why::NoScript),
        None => refusal(script, Why::Missing),
        Some(path) if system(&path) => refusal(script, Why::System(path)),
        Some(_) => None,
    }
}

/// The file of the program `argv` runs behind `env`, `timeout` and `nice`, found
/// as the wrapper finds it (through an `env PATH=…` when one is set), with
/// symlinks resolved; `None` when argv[0] is the program or none is found. It is
/// checked against the repository as argv[0] is: `nice myjudge` runs the agent's
/// `bin/myjudge` when PATH finds it there as surely as `myjudge` does.
pub fn behind_wrappers(argv: &[String], find: &dyn Find) -> Option<PathBuf> {
    let (i, dirs) = wrapped(argv, find).ok()?;
    if i == 0 {
        return None;
    }
    locate(find, argv.get(i)?, dirs)
}

/// Whether the short option letters `letters` are the family's flags, ending in at
/// most one value letter with its value joined (`-uWignore`) or in the next word
/// (`next`), or in a named one whose value is one of a few (`-euo pipefail`):
/// `Some(true)` when the next word is the value, `None` when an option is not taken.
fn short(letters: &str, family: &Family, next: Option<&String>) -> Option<bool> {
    for (at, c) in letters.char_indices() {
        let rest = &letters[at + c.len_utf8()..];
        if let Some((_, values)) = family.joined.iter().find(|(j, _)| *j == c)
            && !rest.is_empty()
        {
            return values.contains(&rest).then_some(false);
        }
        if family.values.contains(c) {
            let value = if rest.is_empty() {
                next.map(String::as_str)
            } else {
                Some(rest)
            };
            // Python's `-W action:message:category:…`: a category with a dot is
            // imported (`ignore::pkg.Warning` runs `import pkg`), from a sys.path
            // an editable install puts the repository on.
            if value
                .and_then(|v| v.split(':').nth(2))
                .is_some_and(|c| c.contains('.'))
            {
                return None;
            }
            return Some(rest.is_empty());
        }
        if let Some((_, names)) = family.named.iter().find(|(n, _)| *n == c) {
            let last = at + c.len_utf8() == letters.len();
            return (last && next.is_some_and(|v| names.contains(&v.as_str()))).then_some(true);
        }
        if !family.flags.contains(c) {
            return None;
        }
    }
    (!letters.is_empty()).then_some(false)
}

/// Where the program comes after `env`, `timeout` and `nice` in their plain forms
/// (`env -i`, `env -u NAME`, `env LANG=C`, `timeout --preserve-status -k 5 60`,
/// `nice -n 5`, `nice -10`), with the PATH an `env PATH=…` gives it; or the wrapper
/// given an option or a setting it may not have (`env BASH_ENV=…`, `env -S`,
/// `env -C DIR`).
fn wrapped<'a>(argv: &'a [String], find: &dyn Find) -> Result<(usize, Option<&'a str>), &'a str> {
    let mut i = 0;
    let mut dirs = None;
    while let Some(word) = argv.get(i) {
        let name = identity(word, locate(find, word, dirs).as_deref());
        let name = name.as_str();
        // Options that take a value, then those that take none.
        let (takes, plain): (&[&str], &[&str]) = match name {
            "env" => (&["-u", "--unset"], &["-i", "--ignore-environment"]),
            "timeout" => (
                &["-k", "-s", "--kill-after", "--signal"],
                &["--foreground", "--preserve-status", "--verbose", "-v"],
            ),
            "nice" => (&["-n", "--adjustment"], &[]),
            _ => return Ok((i, dirs)),
        };
        i += 1;
        while let Some(arg) = argv.get(i) {
            if arg == "--" {
                i += 1;
                break;
            }
            // env's lone `-` is its `-i`; nice's `-10` and `--5` its old `-n`.
            let digits = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-'));
            let niceness = name == "nice"
                && digits.is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
            if (name == "env" && arg == "-") || niceness {
                i += 1;
                continue;
            }
            if !arg.starts_with('-') || arg.len() == 1 {
                break;
            }
            if plain.contains(&arg.as_str()) {
                i += 1;
                continue;
            }
            let (flag, joined) = match arg.split_once('=') {
                Some((f, _)) => (f, true),
                None if !arg.starts_with("--") && arg.len() > 2 => (&arg[..2], true),
                None => (arg.as_str(), false),
            };
            if !takes.contains(&flag) {
                return Err(word);
            }
            i += if joined { 1 } else { 2 };
        }
        // Settings come after env's options (and after `--` all the same).
        while name == "env"
            && let Some((key, value)) = argv.get(i).and_then(|a| a.split_once('='))
        {
            match key {
                "PATH" if value.split(':').all(|d| d.starts_with('/')) => dirs = Some(value),
                _ if SETTINGS.contains(&key) => {}
                _ if key.strip_prefix("LC_").is_some_and(|k| {
                    !k.is_empty() && k.bytes().all(|b| b.is_ascii_uppercase())
                }) => {}
                _ => return Err(word),
            }
            i += 1;
        }
        if name == "timeout" {
            i += 1;
        }
    }
    Ok((i, dirs))
}

/// `word`'s file: by the PATH an `env PATH=…` set (`dirs`) when it has no slash.
fn locate(find: &dyn Find, word: &str, dirs: Option<&str>) -> Option<PathBuf> {
    match dirs {
        Some(dirs) if !word.contains('/') => find.program_on(word, dirs),
        _ => find.program(word),
    }
}

/// Programs that act as the one their argv names (`sh` linked to busybox).
const MULTI_CALL: &[&str] = &["busybox", "toybox", "coreutils"];

/// What a program is, by the name its argv gives (`word`) and the file it resolves
/// to (`real`): the word's name where the file is a multi-call program or of the
/// same family (`sh` to dash, `python3` to python3.12, `awk` to mawk), else the
/// file's (`my-python` linked to python3 is python; a link named `env` or `sh` to
/// awk or find is awk or find, whatever its name says).
fn identity(word: &str, real: Option<&Path>) -> String {
    let named = interpreter_name(word);
    let Some(real) = real else {
        return named;
    };
    let resolved = interpreter_name(&real.to_string_lossy());
    let family = |n: &str| FAMILIES.iter().position(|f| f.names.contains(&n));
    let same = resolved == named
        || MULTI_CALL.contains(&resolved.as_str())
        || family(&named).is_some_and(|f| family(&resolved) == Some(f));
    if same { named } else { resolved }
}

/// Whether `word`, read as a path with `//`, `/./` and `..` taken out, is under
/// /dev or /proc: a stream (`//dev/stdin`, `/proc/self/fd/0`), not a script.
fn stream(word: &str) -> bool {
    let mut parts: Vec<&str> = Vec::new();
    for part in word.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    word.starts_with('/') && matches!(parts.first(), Some(&"dev" | &"proc"))
}

/// Whether `path` is inside a git directory (`.git/…`, a linked worktree's
/// `.git/worktrees/NAME/COMMIT_EDITMSG`): git writes there what the agent gives
/// it (a commit message), outside the working tree's files.
fn in_git_dir(path: &Path) -> bool {
    path.components().any(|c| c.as_os_str() == ".git")
}

/// Whether `path` is in the system's directories.
fn system(path: &Path) -> bool {
    let text = path.to_string_lossy();
    SYSTEM.iter().any(|dir| text.starts_with(dir))
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

/// The refusal's message and hint.
pub fn message(refusal: &Refusal) -> (String, &'static str) {
    let word = format!("`{}`", crate::plan::text::escape_controls(&refusal.word));
    let why = match &refusal.why {
        Why::Option => format!(
            "gives its shell or interpreter the option {word}, which may take program text, a module or a setting (only a script file and a few harmless flags are taken)"
        ),
        Why::NoScript => format!(
            "gives {word} no script file: it would read its program from stdin, where plan writes the prompt, or take it as text"
        ),
        Why::Relative => format!(
            "names its script {word} relatively: a command judge starts in an empty directory of its own, and a name found in the repository is a file the agent under review could have written"
        ),
        Why::Missing => format!("names {word}, which is no file"),
        Why::System(path) => format!(
            "runs {word} from the system's directories ({}), where the programs that run what their arguments say live (xargs, taskset, flock, sed's `e`), not a judge of your own",
            path.display()
        ),
        Why::Runner => format!(
            "runs {word}, which runs other programs or a project's code, not a judge of your own"
        ),
        Why::Wrapper => format!(
            "gives {word} an option or a setting (only `env`, `timeout DURATION` and `nice -n N` in their plain forms may come first, and `env` only the settings LANG, LC_…, TZ, TERM, NO_COLOR, COLUMNS, LINES and a PATH of absolute directories: a setting such as BASH_ENV or LD_PRELOAD runs code)"
        ),
    };
    (
        format!(
            "refusing the command judge: judge.command {why}; a judge is a program of your own, and anything that can run a line of script can run the agent's own script from the tree it judges"
        ),
        "put the judge in a file outside the repository and the system's directories and give its absolute path, e.g. `plan judge command ~/.local/bin/my-judge` or `plan judge command sh ~/.local/share/my-judge.sh` (a script may call any program: `exec llm -m gpt`)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Files by word, as a machine would have them.
    struct Files(HashMap<&'static str, &'static str>);

    impl Find for Files {
        fn program(&self, word: &str) -> Option<PathBuf> {
            self.0.get(word).map(PathBuf::from)
        }
        fn program_on(&self, word: &str, dirs: &str) -> Option<PathBuf> {
            dirs.split(':')
                .find_map(|dir| self.0.get(format!("{dir}/{word}").as_str()))
                .map(PathBuf::from)
        }
        fn script(&self, word: &str) -> Option<PathBuf> {
            self.0.get(word).map(PathBuf::from)
        }
        fn is_stdin(&self, path: &Path) -> bool {
            path == Path::new("/home/u/stdin.txt")
        }
    }

    fn machine() -> Files {
        Files(HashMap::from([
            ("sh", "/usr/bin/dash"),
            ("bash", "/usr/bin/bash"),
            ("/bin/bash", "/usr/bin/bash"),
            ("python3", "/usr/bin/python3.12"),
            ("env", "/usr/bin/env"),
            ("/usr/bin/env", "/usr/bin/env"),
            ("sed", "/usr/bin/sed"),
            ("taskset", "/usr/bin/taskset"),
            ("flock", "/usr/bin/flock"),
            ("llm", "/home/u/.local/bin/llm"),
            ("apt-llm", "/usr/bin/llm"),
            ("npx", "/home/u/.nvm/versions/node/v22/bin/npx"),
            ("judge-npx", "/home/u/.nvm/versions/node/v22/bin/npx"),
            ("/opt/alpine/bin/sh", "/usr/bin/busybox"),
            ("/r/tools/env", "/usr/bin/mawk"),
            ("/home/u/in", "/home/u/stdin.txt"),
            (
                "/r/.git/worktrees/side/COMMIT_EDITMSG",
                "/r/.git/worktrees/side/COMMIT_EDITMSG",
            ),
            ("/r/tools/sh", "/usr/bin/find"),
            ("my-python", "/usr/bin/python3.12"),
            ("/home/u/.local/bin/my-judge", "/home/u/.local/bin/my-judge"),
            ("/home/u/judge", "/home/u/judge"),
            ("/home/u/bin/llm", "/home/u/bin/llm"),
            ("gxargs", "/usr/local/Cellar/findutils/4.9.0/bin/gxargs"),
            ("port-find", "/opt/local/bin/gfind"),
            ("/opt/judges/run", "/opt/judges/run"),
            ("mise", "/home/u/.local/bin/mise"),
            ("/usr/bin/apt-llm", "/usr/bin/apt-llm"),
            ("/home/u/judge.rb", "/home/u/judge.rb"),
            ("/home/u/judge.sh", "/home/u/judge.sh"),
            ("/home/u/judge.py", "/home/u/judge.py"),
            ("/home/u/judge.pl", "/home/u/judge.pl"),
            ("/home/u/judge.awk", "/home/u/judge.awk"),
            (
                "/usr/lib/python3.12/timeit.py",
                "/usr/lib/python3.12/timeit.py",
            ),
        ]))
    }

    fn why(words: &[&str]) -> Option<Why> {
        let argv: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        refused(&argv, &machine()).map(|r| r.why)
    }

    #[test]
    fn only_a_program_or_a_script_of_ones_own_is_a_judge() {
        let system = |p: &str| Some(Why::System(PathBuf::from(p)));
        let cases: &[(&[&str], Option<Why>)] = &[
            (
                &["sh", "-c", "cd \"$PLAN_JUDGE_TREE\" && sh judge.sh"],
                Some(Why::Option),
            ),
            (&["/bin/bash", "-ec", "x"], Some(Why::Option)),
            (&["bash", "-oc", "posix", "x"], Some(Why::Option)),
            (&["env", "sh", "-c", "x"], Some(Why::Option)),
            (
                &["env", "A=1", "bash", "/home/u/judge.sh"],
                Some(Why::Wrapper),
            ),
            (
                &["env", "BASH_ENV=/r/x", "bash", "/home/u/judge.sh"],
                Some(Why::Wrapper),
            ),
            (&["env", "-S", "sh -c x"], Some(Why::Wrapper)),
            (&["env", "--split-string=sh -c x"], Some(Why::Wrapper)),
            (
                &["timeout", "-k", "5", "60", "sh", "-c", "x"],
                Some(Why::Option),
            ),
            (&["python3", "-I", "-c", "x"], Some(Why::Option)),
            (&["python3", "-m", "timeit", "x"], Some(Why::Option)),
            (
                &["python3", "/usr/lib/python3.12/timeit.py", "x"],
                system("/usr/lib/python3.12/timeit.py"),
            ),
            (&["my-python", "-c", "x"], Some(Why::Option)),
            (&["node", "--eval=x"], Some(Why::Option)),
            (
                &["node", "--require", "/r/x.js", "/home/u/judge.js"],
                Some(Why::Option),
            ),
            (
                &["perl", "-Mstrict;system(1)", "/home/u/judge.pl"],
                Some(Why::Option),
            ),
            (
                &["awk", "BEGIN { system(\"sh judge.sh\") }"],
                Some(Why::NoScript),
            ),
            (&["sh"], Some(Why::NoScript)),
            (&["bash", "-s"], Some(Why::Option)),
            (&["python3", "-"], Some(Why::NoScript)),
            (&["sh", "/dev/stdin"], Some(Why::NoScript)),
            (&["sh", "judge.sh"], Some(Why::Relative)),
            (&["sh", "/home/u/gone.sh"], Some(Why::Missing)),
            (
                &["taskset", "-c", "0", "sh", "-c", "x"],
                system("/usr/bin/taskset"),
            ),
            (
                &["flock", "/tmp", "sh", "-c", "x"],
                system("/usr/bin/flock"),
            ),
            (&["sed", "-n", "1e sh judge.sh"], system("/usr/bin/sed")),
            (
                &["xargs", "-a", "/etc/hostname", "sh", "-c", "x"],
                Some(Why::Runner),
            ),
            (&["npx", "-c", "sh judge.sh"], Some(Why::Runner)),
            (&["apt-llm", "-m", "gpt"], system("/usr/bin/llm")),
            (&["bash", "-euo", "posix", "-c", "x"], Some(Why::Option)),
            (
                &["bash", "-o", "history", "/home/u/judge.sh"],
                Some(Why::Option),
            ),
            (
                &["bash", "-oe", "pipefail", "/home/u/judge.sh"],
                Some(Why::Option),
            ),
            (
                &["env", "-C", "/r", "sh", "/home/u/judge.sh"],
                Some(Why::Wrapper),
            ),
            (&["judge-npx"], Some(Why::Runner)),
            (&["env", "-", "sh", "-c", "x"], Some(Why::Option)),
            (&["env", "--", "X=1", "sh", "-c", "x"], Some(Why::Wrapper)),
            (
                &["awk", "-f", "/dev/stdin", "-f", "/home/u/judge.awk"],
                Some(Why::Option),
            ),
            (&["sh", "//dev/stdin"], Some(Why::NoScript)),
            (&["sh", "/./proc/self/fd/0"], Some(Why::NoScript)),
            (&["sh", "/home/u/in"], Some(Why::NoScript)),
            (
                &["sh", "/r/.git/worktrees/side/COMMIT_EDITMSG"],
                Some(Why::NoScript),
            ),
            (
                &["/r/tools/env", "BEGIN { system(\"x\") }"],
                Some(Why::NoScript),
            ),
            (
                &[
                    "/r/tools/sh",
                    "/home/u/judge.sh",
                    "-exec",
                    "sh",
                    "-c",
                    "x",
                    ";",
                ],
                system("/usr/bin/find"),
            ),
        ];
        for (words, want) in cases {
            assert_eq!(&why(words), want, "{words:?}");
        }
    }

    #[test]
    fn programs_and_scripts_in_files_of_ones_own_are_judges() {
        for words in [
            &["/home/u/.local/bin/my-judge"][..],
            &["sh", "/home/u/judge.sh"],
            &["sh", "-eu", "/home/u/judge.sh", "-c", "strict"],
            &["bash", "--", "/home/u/judge.sh"],
            &["/usr/bin/env", "python3", "/home/u/judge.py"],
            &["python3", "-u", "-W", "ignore", "/home/u/judge.py"],
            &["python3", "-Wignore", "/home/u/judge.py"],
            &["perl", "-w", "/home/u/judge.pl"],
            &["awk", "-f", "/home/u/judge.awk"],
            &["timeout", "60", "/home/u/judge"],
            &[
                "timeout",
                "--kill-after=5",
                "60",
                "nice",
                "-n",
                "5",
                "/home/u/judge",
            ],
            &["llm", "-m", "gpt"],
            &["/nowhere/judge"],
            &["bash", "-euo", "pipefail", "/home/u/judge.sh"],
            &["bash", "-o", "pipefail", "/home/u/judge.sh"],
            &["/opt/alpine/bin/sh", "/home/u/judge.sh"],
            &["timeout", "--preserve-status", "60", "/home/u/judge"],
            &["env", "-i", "-u", "HOME", "/home/u/judge"],
        ] {
            assert_eq!(why(words), None, "{words:?}");
        }
    }

    /// Shapes honest people write (stop 77's limits): an old-style niceness, a
    /// ruby warning level, a python `-X` mode and an environment setting that
    /// loads no code, a PATH whose program is found where the judge will find it.
    #[test]
    fn plain_wrapper_and_interpreter_settings_are_judges() {
        for words in [
            &["nice", "-10", "/home/u/judge"][..],
            &["nice", "--5", "/home/u/judge"],
            &["ruby", "-W0", "/home/u/judge.rb"],
            &["ruby", "-W:no-deprecated", "/home/u/judge.rb"],
            &["python3", "-X", "utf8", "/home/u/judge.py"],
            &["python3", "-Xutf8", "-u", "/home/u/judge.py"],
            &["env", "LANG=C.UTF-8", "TZ=UTC", "/home/u/judge"],
            &["env", "LC_ALL=C", "python3", "/home/u/judge.py"],
            &["env", "PATH=/home/u/bin:/usr/bin", "llm", "-m", "gpt"],
            &["/opt/judges/run"],
        ] {
            assert_eq!(why(words), None, "{words:?}");
        }
    }

    /// What those shapes must not open: a setting that runs code, a mode that
    /// imports a module, a PATH that finds the program in the agent's tree or
    /// among the system's runners.
    #[test]
    fn settings_that_load_code_or_move_the_program_are_refused() {
        let system = |p: &str| Some(Why::System(PathBuf::from(p)));
        let cases: &[(&[&str], Option<Why>)] = &[
            (&["mise", "exec", "--", "sh", "-c", "x"], Some(Why::Runner)),
            (&["conda", "run", "sh", "-c", "x"], Some(Why::Runner)),
            (
                &["gxargs", "-a", "/etc/hostname", "sh", "-c", "x"],
                system("/usr/local/Cellar/findutils/4.9.0/bin/gxargs"),
            ),
            (
                &["port-find", "/home/u/judge", "-exec", "sh", "-c", "x", ";"],
                system("/opt/local/bin/gfind"),
            ),
            (&["nice", "-1x", "/home/u/judge"], Some(Why::Wrapper)),
            (&["ruby", "-W3", "/home/u/judge.rb"], Some(Why::Option)),
            (
                &["ruby", "-Wrequire", "/home/u/judge.rb"],
                Some(Why::Option),
            ),
            (
                &["python3", "-X", "presite=evil", "/home/u/judge.py"],
                Some(Why::Option),
            ),
            (
                &["python3", "-Ximporttime=x", "/home/u/judge.py"],
                Some(Why::Option),
            ),
            (
                &["env", "LD_PRELOAD=/r/x.so", "/home/u/judge"],
                Some(Why::Wrapper),
            ),
            (
                &["env", "PYTHONSTARTUP=/r/x.py", "/home/u/judge"],
                Some(Why::Wrapper),
            ),
            (&["env", "PATH=bin", "llm"], Some(Why::Wrapper)),
            (&["env", "PATH=/usr/bin:", "llm"], Some(Why::Wrapper)),
            (
                &["env", "PATH=/usr/bin", "apt-llm", "-m", "gpt"],
                system("/usr/bin/apt-llm"),
            ),
            (
                &["env", "PATH=/home/u/bin", "sh", "-c", "x"],
                Some(Why::Option),
            ),
        ];
        for (words, want) in cases {
            assert_eq!(&why(words), want, "{words:?}");
        }
    }

    /// Red team (stop79-red2): python's `-W` filter names a warning category, and a
    /// category with a dot is imported (`warnings._getcategory`: `ignore::pkg.W`
    /// runs `import pkg` at startup, before the judge's script), from sys.path,
    /// where an editable install (`pip install -e .`) puts the repository under
    /// review. A filter whose category is a builtin's name imports nothing.
    #[test]
    fn a_warning_filter_that_imports_a_module_is_refused() {
        for words in [
            &["python3", "-W", "ignore::evil.Warning", "/home/u/judge.py"][..],
            &["python3", "-Wignore::evil.Warning", "/home/u/judge.py"],
            &["python3", "-uWdefault:x:evil.W:y:0", "/home/u/judge.py"],
            &["python3", "-W", "error::.W", "/home/u/judge.py"],
        ] {
            assert_eq!(why(words), Some(Why::Option), "{words:?}");
        }
        for words in [
            &[
                "python3",
                "-W",
                "ignore::DeprecationWarning",
                "/home/u/judge.py",
            ][..],
            &["python3", "-Wignore:a.b.c", "/home/u/judge.py"],
            &["python3", "-W", "default:::my.module:3", "/home/u/judge.py"],
        ] {
            assert_eq!(why(words), None, "{words:?}");
        }
    }
}
