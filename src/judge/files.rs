//! Reads the files the judge is shown in full: the ones the verify command names and
//! the evidence paths. Bounded per file and in total; directories are listed, not
//! read; nothing outside the repository is opened.

use std::fs;
use std::io::Read;
use std::path::{Component, Path};

use super::prompt::{FileBody, FileFacts, FileRole};
use crate::plan::weakened::not_read::VerifyCap;
use crate::verify::Verify;

/// Bytes shown of one file, and of all files together.
pub const FILE_BYTES: usize = 20 * 1024;
pub const TOTAL_BYTES: usize = 100 * 1024;
/// Entries listed of one directory.
pub const DIR_ENTRIES: usize = 200;

/// The repository files named by words of `verify` (`test -s NOTES.md`, `./bench/p95`),
/// then the evidence `paths` (repository-relative, already checked), each once.
pub fn gather(root: &Path, verify: Option<&Verify>, paths: &[String]) -> Vec<FileFacts> {
    let mut wanted: Vec<(String, FileRole)> = verify
        .map(|v| verify_paths(root, v))
        .unwrap_or_default()
        .into_iter()
        .map(|rel| (rel, FileRole::Verify))
        .collect();
    for rel in paths {
        let rel = rel.trim_end_matches('/').to_string();
        if !wanted.iter().any(|(p, _)| *p == rel) {
            wanted.push((rel, FileRole::Evidence));
        }
    }
    let mut budget = TOTAL_BYTES;
    wanted
        .into_iter()
        .map(|(path, role)| {
            let body = read(&root.join(&path), &mut budget);
            FileFacts { path, role, body }
        })
        .collect()
}

/// The regular files inside the repository that words of `verify` name
/// (`test -s NOTES.md`, `./bench/p95`, `--config=ci.toml`), each once.
pub fn verify_paths(root: &Path, verify: &Verify) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let words = verify.chain.iter().flat_map(|p| &p.commands).flatten();
    for word in words {
        if let Some(rel) = in_repo(root, value(word))
            && root.join(&rel).is_file()
            && !out.contains(&rel)
        {
            out.push(rel);
        }
    }
    out
}

/// What a word names: the value of `--config=ci.toml`, else the word.
fn value(word: &str) -> &str {
    word.rsplit_once('=').map_or(word, |(_, v)| v)
}

/// Commands that read only the files their words name (and stdin), run no other
/// program and load no code: a verify made of these alone rests on those files.
pub const READS_NAMED: &[&str] = &[
    "test",
    "[",
    "grep",
    "egrep",
    "fgrep",
    "cat",
    "wc",
    "head",
    "tail",
    "cmp",
    "diff",
    "true",
    "false",
    "echo",
    "printf",
    "stat",
    "ls",
    "sha256sum",
    "sha1sum",
    "md5sum",
    "cut",
    "tr",
    "uniq",
];

/// The names make reads its rules from, in its order.
const MAKEFILES: [&str; 3] = ["GNUmakefile", "makefile", "Makefile"];

/// Files followed from one verify command: how many, how deep, and the largest read.
const CLOSURE_FILES: usize = 256;
const _: () = assert!(CLOSURE_FILES == 256, "the check's not-read words say 256");
const CLOSURE_DEPTH: usize = 4;
const CLOSURE_BYTES: u64 = 1024 * 1024;

/// The files a verify rests on, as far as plan can tell without running it: the
/// files its words name, the files inside directories its words name
/// (`pytest tests`), the Makefile of `make`, and, followed through their text, the
/// scripts those name in turn (`. ./checks/readme.sh`), each once. Recorded at
/// sign-off so that gutting any of them later is seen; a file reached only through
/// a tool's own conventions (the sources `cargo test` compiles) is not.
pub fn verify_closure(root: &Path, verify: &Verify) -> Vec<String> {
    let mut out = Taken::default();
    closure(root, verify, false, &mut out);
    out.files
}

/// The part of [`verify_closure`] the verify runs or checks with, not the files it
/// only reads as data: the operands of [`READS_NAMED`] commands (`grep -q cache
/// README.md`, `test -s NOTES.md`) are the work the goal asks for, meant to change,
/// so they are left out, but not a pattern file grep checks with (`-f FILE`), a sum
/// file `sha256sum -c` checks, nor any file of a pipeline that compares files
/// (`cmp`, `diff`), whose reference plan cannot tell from the work. Scripts are
/// followed only through names their text could run: not names inside comments or
/// messages (`sys.exit("write solution.py first")`), and not through a test
/// file's imports, which reach the code it tests. What weakened tests weighs.
/// The project's names read as now: the check and the gate read them at a
/// commit ([`verify_runs_since`]).
#[cfg(test)]
pub fn verify_runs(root: &Path, verify: &Verify) -> Vec<String> {
    let mut out = Taken::default();
    closure(root, verify, true, &mut out);
    out.files
}

/// [`verify_runs_since`] with the project's names as they are now.
#[cfg(test)]
pub fn verify_runs_capped(
    root: &Path,
    verify: &Verify,
    kept: &[String],
    gone: &[String],
) -> (Vec<String>, Option<(String, VerifyCap)>) {
    verify_runs_since(root, verify, kept, gone, None)
}

/// [`verify_runs`], and the first file it rests on past the [`CLOSURE_FILES`] it
/// follows, when there are more: what the check compares, and where it stopped.
/// No file of `kept` it rests on is left out by that cap: the files the work
/// changed since the check's start, as many as the diff holds. Junk added to a
/// folder the verify walks must not push a gutted check past the cap (helper
/// 55's red team). Of `gone` (the files there at the check's start and no longer
/// at their path), those named like code it would have walked to or whose names
/// its files say are taken as well: a check deleted or moved out of a globbing
/// runner's reach, a gutted one added beside it, is compared with what it was
/// (helper 59's red team). `started`: the names the project's manifests gave it
/// at the check's start ([`project_names_in`]; `None`: as now); a runner's own
/// source is the product only where the repository was that runner from the
/// start, so that a manifest renamed since makes no vendored runner the work.
pub fn verify_runs_since(
    root: &Path,
    verify: &Verify,
    kept: &[String],
    gone: &[String],
    started: Option<&[String]>,
) -> (Vec<String>, Option<(String, VerifyCap)>) {
    let mut out = Taken {
        kept: kept.iter().cloned().collect(),
        gone: gone
            .iter()
            .filter(|g| named_like_code(g))
            .cloned()
            .collect(),
        started: started.map(<[String]>::to_vec),
        ..Taken::default()
    };
    closure(root, verify, true, &mut out);
    (out.files, out.past)
}

/// Commands that compare the files they name with each other.
const COMPARES: [&str; 2] = ["cmp", "diff"];

/// The scripts the verify line itself runs: of the files its own words name (read
/// as [`verify_runs`] reads them, `npm test`'s script included), those a check
/// could run or load, not what they run in turn. What the gate lays over a start
/// commit's checkout when it runs the verify there: a check the work added reads
/// as red there only because it was missing, however little it checks.
pub fn verify_scripts(root: &Path, verify: &Verify) -> Vec<String> {
    // `own` left empty: the gate lays a runner's own source too.
    let mut out = Taken::default();
    named_by(root, verify, true, &mut out);
    let run: Vec<String> = verify
        .chain
        .iter()
        .flat_map(|p| &p.commands)
        .filter_map(|c| in_repo(root, &c[script_operand(c)?]))
        .collect();
    out.files
        .retain(|rel| is_script(&root.join(rel)) || run.contains(rel));
    out.files
}

/// Programs that run the file their first word names (`python3 check`, `node
/// check`): a script, whatever its name.
const INTERPRETERS: &[&str] = &["python", "python3", "node", "ruby", "perl", "php"];

/// Where in `command` the script is that its program runs, whatever the
/// script's name or mode: a shell's ([`shell_operand`]), or the first word
/// after an interpreter ([`INTERPRETERS`]) with no option before it (an option
/// may take the next word, or make the program run none: `python3 -m x`).
pub fn script_operand(command: &[String]) -> Option<usize> {
    if let Some(at) = shell_operand(command) {
        return Some(at);
    }
    let program = command.first()?;
    let first = command.get(1)?;
    (INTERPRETERS.contains(&base_name(program)) && !first.starts_with('-')).then_some(1)
}

/// Where in `command` the script file is that it runs through a shell
/// ([`crate::plan::syntax::shell::SHELLS`]): the shell's first operand past its options, when
/// no option makes it read a command string (`-c`) or its stdin (`-s`, `-`).
pub fn shell_operand(command: &[String]) -> Option<usize> {
    let program = command.first()?;
    let name = program.rsplit('/').next().unwrap_or(program);
    if !crate::plan::syntax::shell::SHELLS.contains(&name) {
        return None;
    }
    let mut valued = false;
    for (i, word) in command.iter().enumerate().skip(1) {
        if std::mem::take(&mut valued) {
            continue;
        }
        match word.as_str() {
            "--" => return (i + 1 < command.len()).then_some(i + 1),
            "-" | "+" => return None,
            "--rcfile" | "--init-file" => valued = true,
            long if long.starts_with("--") => {}
            short if short.starts_with('-') || short.starts_with('+') => {
                if short.contains(['c', 's']) {
                    return None;
                }
                valued = short.ends_with(['o', 'O']);
            }
            _ => return Some(i),
        }
    }
    None
}

/// The files a closure took, up to [`CLOSURE_FILES`], and the first place a cap
/// stopped it: a cap the check says, not one it hides.
#[derive(Default)]
struct Taken {
    files: Vec<String>,
    past: Option<(String, VerifyCap)>,
    /// Files taken past the cap ([`verify_runs_since`]).
    kept: std::collections::BTreeSet<String>,
    /// Files gone since the check's start, taken where they were reached.
    gone: std::collections::BTreeSet<String>,
    /// The project names the manifests gave at the check's start (`None`: as now).
    started: Option<Vec<String>>,
    /// The runners the repository is, now and at the start, whose own source
    /// the verify runs as the product ([`runs_own_runner`]).
    own: Vec<String>,
}

/// Adds `rel` to `out` once, up to [`CLOSURE_FILES`] but for `out.kept`.
fn add(rel: String, out: &mut Taken) {
    if out.files.contains(&rel) {
        return;
    }
    if out.files.len() < CLOSURE_FILES || out.kept.contains(&rel) {
        out.files.push(rel);
    } else if out.past.is_none() {
        out.past = Some((rel, VerifyCap::Files));
    }
}

/// [`verify_closure`], or with `runs` [`verify_runs`], into `out`.
fn closure(root: &Path, verify: &Verify, runs: bool, out: &mut Taken) {
    if runs {
        let now = project_names(root);
        out.own = (now.into_iter())
            .filter(|n| out.started.as_ref().is_none_or(|s| s.contains(n)))
            .collect();
    }
    named_by(root, verify, runs, out);
    let mut from = 0;
    for _ in 0..CLOSURE_DEPTH {
        let upto = out.files.len();
        for i in from..upto {
            // What a test imports is the code it tests, the work: a check is
            // what runs the tests, not what they run.
            // Its own helpers and fixtures, tests' files too, still are.
            let test = runs && crate::plan::weakened::is_test_path(&out.files[i]);
            let rel = out.files[i].clone();
            let named = followed(root, &rel, runs, out);
            for rel in named {
                if !test || crate::plan::weakened::is_test_path(&rel) {
                    add(rel, out);
                }
            }
        }
        if out.files.len() == upto {
            return;
        }
        from = upto;
    }
    // The last level took files: one level more says whether they name others.
    if out.past.is_none() {
        let is_test = crate::plan::weakened::is_test_path;
        let deeper = (from..out.files.len())
            .flat_map(|i| {
                let test = runs && is_test(&out.files[i]);
                let named = named_in(root, &out.files[i], runs, &out.gone, &out.own);
                named.into_iter().filter(move |rel| !test || is_test(rel))
            })
            .find(|rel| !out.files.contains(rel));
        out.past = deeper.map(|rel| (rel, VerifyCap::Depth));
    }
}

/// The files `rel` names ([`named_in`]); a script too long to read for them is
/// noted in `past` (the first place a cap stopped the closure).
fn followed(root: &Path, rel: &str, runs: bool, out: &mut Taken) -> Vec<String> {
    let path = root.join(rel);
    let long = fs::metadata(&path).is_ok_and(|m| m.len() > CLOSURE_BYTES);
    if long && out.past.is_none() && is_script(&path) {
        out.past = Some((rel.to_string(), VerifyCap::Size));
    }
    named_in(root, rel, runs, &out.gone, &out.own)
}

/// The files the verify line's own words name (see [`closure`]), with the
/// commands of the package.json script an `npm test` runs read as its own.
fn named_by(root: &Path, verify: &Verify, runs: bool, out: &mut Taken) {
    for program in &verify.chain {
        named_by_commands(root, &program.commands, runs, out);
        for command in &program.commands {
            if let Some(script) = package_test_script(root, command) {
                let mut cwd: Option<String> = None;
                for commands in script_commands(&script) {
                    if let Some(to) = changed_dir(&commands) {
                        cwd = to.and_then(|dir| entered(root, &dir, out));
                        continue;
                    }
                    let commands = match &cwd {
                        Some(dir) => in_dir(root, dir, commands),
                        None => commands,
                    };
                    named_by_commands(root, &commands, runs, out);
                }
            }
        }
    }
}

/// A script's `cd DIR` or `pushd DIR` alone in its pipeline: `Some(Some(DIR))`;
/// `Some(None)` for one plan cannot follow (`cd -`, `popd`, `cd` home).
fn changed_dir(commands: &[Vec<String>]) -> Option<Option<String>> {
    let [command] = commands else {
        return None;
    };
    match command.as_slice() {
        [cd, dir] if cd == "cd" || cd == "pushd" => Some(Some(dir.clone())),
        [cd, ..] if cd == "cd" || cd == "pushd" || cd == "popd" => Some(None),
        _ => None,
    }
}

/// The script entered `dir`: where its next commands run, not a file they rest
/// on as a whole: every file under it but its code's folders (`src`, `lib`, …),
/// which are the work under test; its top files, helpers, mocks and a tests'
/// folder whole are what the run rests on. The folder, repository-relative,
/// when it is one.
fn entered(root: &Path, dir: &str, out: &mut Taken) -> Option<String> {
    let rel = in_repo(root, dir)?;
    let base = root.join(&rel);
    let tests = rel
        .split('/')
        .any(|d| crate::plan::weakened::TEST_DIRS.contains(&d));
    // Left out of the walk, not after it: they must not fill the cap.
    let code = |d: &Path| {
        !tests
            && d.parent() == Some(base.as_path())
            && d.file_name()
                .is_some_and(|n| CODE_DIRS.contains(&&*n.to_string_lossy()))
    };
    add_under(root, &rel, code, out);
    Some(rel)
}

/// The files under the folder `rel` into `out` ([`files_under`], one past the
/// cap and those `out.kept` takes past it, so that a cut walk still shows), and
/// those of `out.kept` under it the walk did not reach, and of `out.gone` those
/// it would have.
fn add_under(root: &Path, rel: &str, skip: impl Fn(&Path) -> bool, out: &mut Taken) {
    let base = root.join(rel);
    for file in files_under(&base, CLOSURE_FILES + 1 + out.kept.len(), &skip) {
        if let Ok(sub) = file.strip_prefix(root) {
            add(sub.to_string_lossy().into_owned(), out);
        }
    }
    let below = |path: &Path| {
        path.starts_with(&base)
            && path.parent().is_some_and(|dir| {
                dir.ancestors()
                    .take_while(|d| *d != base)
                    .all(|d| !skip(d) && d.file_name() != Some(".git".as_ref()))
            })
    };
    let kept = out.kept.iter().filter(|k| {
        let path = root.join(k);
        below(&path) && path.is_file()
    });
    let gone = out.gone.iter().filter(|g| below(&root.join(g)));
    let taken: Vec<String> = kept.chain(gone).cloned().collect();
    for rel in taken {
        add(rel, out);
    }
}

/// The folders a package keeps its code in, and what builds from it.
const CODE_DIRS: [&str; 7] = ["src", "lib", "dist", "build", "out", "node_modules", "pkg"];

/// `commands` run inside `dir`: each word naming something there names it by
/// its path from the root.
fn in_dir(root: &Path, dir: &str, commands: Vec<Vec<String>>) -> Vec<Vec<String>> {
    let inside = |w: String| {
        let there = format!("{dir}/{}", w.trim_start_matches("./"));
        match !w.starts_with('-') && !w.starts_with('/') && root.join(&there).exists() {
            true => there,
            false => w,
        }
    };
    commands
        .into_iter()
        .map(|c| c.into_iter().map(inside).collect())
        .collect()
}

/// The files one pipeline's `commands` name, into `out`.
fn named_by_commands(root: &Path, commands: &[Vec<String>], runs: bool, out: &mut Taken) {
    let compares = commands
        .iter()
        .any(|c| c.first().is_some_and(|p| COMPARES.contains(&p.as_str())));
    for command in commands {
        let program = program_at(command).map(|at| base_name(&command[at]));
        if let Some((_, files)) = RUNNER_FILES.iter().find(|(r, _)| program == Some(*r)) {
            for name in *files {
                if root.join(name).is_file() {
                    add(name.to_string(), out);
                }
            }
        }
        // The runner's own source in its own repository is the product: neither
        // the module nor the folder its name spells is what the check rests on.
        let own = runs && runs_own_runner(command, &out.own);
        if !own {
            for rel in run_module(root, Path::new(""), command) {
                add(rel, out);
            }
        }
        let mut names = task_names(root, command);
        if let Some((Some(at), _)) = module_run(command).filter(|_| own) {
            names.push(at);
        }
        let command: Vec<String> = command
            .iter()
            .enumerate()
            .filter(|(i, _)| !names.contains(i))
            .map(|(_, w)| w.clone())
            .collect();
        let words = if runs && !compares {
            checked_words(&command)
        } else {
            command.iter().map(|w| value(w)).collect()
        };
        for word in words {
            let Some(rel) = in_repo_or_gone(root, word, &out.gone) else {
                continue;
            };
            let path = root.join(&rel);
            if path.is_file() || out.gone.contains(&rel) {
                add(rel, out);
            } else if path.is_dir() {
                add_under(root, &rel, |_| false, out);
            }
        }
    }
}

/// The files task runners read their tasks from, in their order: what `make
/// test` or `just test` runs is written there, as a package.json script is.
const RUNNER_FILES: [(&str, &[&str]); 8] = [
    ("make", &MAKEFILES),
    ("gmake", &MAKEFILES),
    ("just", &["justfile", "Justfile", ".justfile"]),
    (
        "grunt",
        &["Gruntfile.js", "Gruntfile.coffee", "Gruntfile.ts"],
    ),
    (
        "gulp",
        &["gulpfile.js", "gulpfile.mjs", "gulpfile.cjs", "gulpfile.ts"],
    ),
    (
        "rake",
        &["Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"],
    ),
    (
        "task",
        &[
            "Taskfile.yml",
            "Taskfile.yaml",
            "taskfile.yml",
            "taskfile.yaml",
        ],
    ),
    ("invoke", &["tasks.py"]),
];

/// Where in `command` the program is, past `npx` and its kind and their options.
fn program_at(command: &[String]) -> Option<usize> {
    let mut at = 0;
    while command
        .get(at)
        .is_some_and(|w| matches!(base_name(w), "npx" | "pnpx" | "bunx"))
    {
        at += 1;
        while command.get(at).is_some_and(|w| w.starts_with('-')) {
            at += 1;
        }
    }
    command.get(at).map(|_| at)
}

/// The last part of a path.
fn base_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// Programs whose words before `--` name tasks, not files (`grunt test`, `make
/// test`): a task that spells a folder's name is not that folder.
const TASK_RUNNERS: [&str; 8] = [
    "make", "gmake", "just", "grunt", "gulp", "rake", "task", "invoke",
];

/// Options of package managers and task runners whose value is the next word.
const VALUED: [&str; 14] = [
    "-C",
    "-f",
    "-F",
    "-I",
    "-j",
    "--file",
    "--makefile",
    "--directory",
    "--filter",
    "--prefix",
    "--cwd",
    "--dir",
    "--gruntfile",
    "--gulpfile",
];

/// Where in `command` the words are names of subcommands, scripts or tasks, not
/// files: a package manager's subcommand (and `run`'s script), each task of a task
/// runner (a word with a `/` or naming a file in `root` is a file and stays, as
/// `bun check.ts` and `go run check.go` run it), `cargo`'s and `go`'s
/// subcommand (`go test ./...` keeps its package), through `npx` and its
/// kind; never after `--`, where the words are the script's own.
fn task_names(root: &Path, command: &[String]) -> Vec<usize> {
    let Some(at) = program_at(command) else {
        return Vec::new();
    };
    let program = base_name(&command[at]).to_string();
    let manager =
        PACKAGE_MANAGERS.contains(&program.as_str()) || matches!(program.as_str(), "cargo" | "go");
    if !manager && !TASK_RUNNERS.contains(&program.as_str()) {
        return Vec::new();
    }
    let mut names = Vec::new();
    let mut valued = false;
    for (i, word) in command.iter().enumerate().skip(at + 1) {
        if word == "--" {
            break;
        }
        if std::mem::take(&mut valued) {
            continue;
        }
        if word.starts_with('-') {
            valued = VALUED.contains(&word.as_str());
            continue;
        }
        // A word naming a file is one (`bun check.ts`, `go run check.go` run it),
        // but not where the runner takes its own subcommand: `cargo test` runs
        // cargo's tests, not a root script named `test`.
        let file = word.contains('/')
            || root.join(word).is_file()
                && (!manager || !names.is_empty() || runs_file(&program, word));
        if manager {
            if file {
                break;
            }
            names.push(i);
            // `run` names a script next; anything else is the one subcommand
            // (`bun test`'s own runner takes the words after it as paths).
            if !(names.len() == 1 && matches!(word.as_str(), "run" | "run-script")) {
                break;
            }
        } else if !file && !word.contains('=') {
            names.push(i);
        }
    }
    names
}

/// Whether `program`, given `word` where its subcommand goes, may run the file it
/// spells: cargo a `.rs` script; go never; a package manager (npm, yarn, pnpm,
/// bun) anything but its own commands, since `pnpm verify` runs package.json's
/// `verify` script, which may run `./verify` (helper 79), and bun runs a file
/// it is given.
fn runs_file(program: &str, word: &str) -> bool {
    match program {
        "cargo" => word.ends_with(".rs"),
        "go" => false,
        _ => !MANAGER_COMMANDS.contains(&word),
    }
}

/// The package managers' own commands: `bun test` or `npm test` runs the
/// manager's test, not a root file so named.
const MANAGER_COMMANDS: [&str; 24] = [
    "test", "run", "install", "i", "add", "a", "remove", "rm", "update", "outdated", "link",
    "unlink", "pm", "x", "build", "init", "create", "c", "upgrade", "exec", "publish", "patch",
    "audit", "repl",
];

/// Package managers whose `test` (or `run test`) runs package.json's `test` script.
const PACKAGE_MANAGERS: [&str; 4] = ["npm", "yarn", "pnpm", "bun"];

/// The `test` script of the package.json at `root` when `command` runs it
/// (`npm test --silent`, `npm run test`, `yarn test`; `bun test` is bun's own
/// runner, so bun only through `run`).
fn package_test_script(root: &Path, command: &[String]) -> Option<String> {
    let (program, args) = command.split_first()?;
    let program = program.rsplit('/').next().unwrap_or(program);
    if !PACKAGE_MANAGERS.contains(&program) {
        return None;
    }
    let mut words = args.iter().filter(|a| !a.starts_with('-'));
    let runs_test = match words.next().map(String::as_str) {
        Some("test" | "t" | "tst") => program != "bun",
        Some("run" | "run-script") => words.next().is_some_and(|w| w == "test"),
        _ => false,
    };
    if !runs_test {
        return None;
    }
    let path = root.join("package.json");
    if fs::metadata(&path).map_or(true, |m| m.len() > CLOSURE_BYTES) {
        return None;
    }
    let json: serde_json::Value = serde_json::from_str(&fs::read_to_string(path).ok()?).ok()?;
    json.get("scripts")?
        .get("test")?
        .as_str()
        .map(str::to_string)
}

/// A package.json script's text as pipelines of commands of words, split at the
/// shell's `&&`, `||`, `;` and `|`, quotes taken off: enough to see the files it
/// names, not a shell.
fn script_commands(script: &str) -> Vec<Vec<Vec<String>>> {
    let mut out = Vec::new();
    for part in script
        .split("&&")
        .flat_map(|p| p.split("||"))
        .flat_map(|p| p.split(';'))
    {
        let commands: Vec<Vec<String>> = part
            .split('|')
            .map(|c| {
                c.split_whitespace()
                    .map(|w| w.trim_matches(['"', '\'']).to_string())
                    .filter(|w| !w.is_empty())
                    .collect::<Vec<String>>()
            })
            .filter(|c| !c.is_empty())
            .collect();
        if !commands.is_empty() {
            out.push(commands);
        }
    }
    out
}

/// Linters, formatters and type checkers: the files they are given are the work
/// they check, meant to change, not a check (`eslint lib/**/*.js` in `npm test`
/// makes every source a linted file); their configuration, named by an option,
/// is.
const LINTS: &[&str] = &[
    "eslint",
    "prettier",
    "tsc",
    "tslint",
    "biome",
    "stylelint",
    "standard",
    "xo",
    "ruff",
    "flake8",
    "pylint",
    "mypy",
    "pyright",
    "black",
    "isort",
    "pycodestyle",
    "pydocstyle",
    "bandit",
    "gofmt",
    "goimports",
    "golint",
    "golangci-lint",
    "staticcheck",
    "rustfmt",
    "shellcheck",
    "markdownlint",
    "yamllint",
    "codespell",
];

/// Where a linter of [`LINTS`] runs in `command`: as its program, or behind a
/// word that runs it (`npx eslint`, `python -m mypy`, `node bin/hotfix.js
/// eslint`, `cross-env CI=1 prettier`). Not a linter's name given to another
/// program as a value (`pytest -k black`).
fn lint_at(command: &[String]) -> Option<usize> {
    command
        .iter()
        .position(|w| {
            let name = w.rsplit('/').next().unwrap_or(w);
            LINTS.contains(&name)
        })
        .filter(|&i| {
            let before = i.checked_sub(1).map(|k| command[k].as_str());
            before.is_none_or(|b| {
                matches!(
                    b,
                    "npx" | "exec" | "run" | "-m" | "x" | "dlx" | "--" | "cross-env" | "env"
                ) || [".js", ".cjs", ".mjs", ".sh"]
                    .iter()
                    .any(|e| b.ends_with(e))
                    || (b.contains('=') && !b.starts_with('-'))
            })
        })
}

/// The files a linter's options name as its configuration: `-c FILE`, `-p FILE`
/// (tsc's project), and any long option naming a config, rc file or project.
fn lint_config(args: &[String]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut next = false;
    for arg in args {
        if std::mem::take(&mut next) {
            out.push(arg.as_str());
            continue;
        }
        let config = ["config", "rcfile", "project"]
            .iter()
            .any(|w| arg.contains(w));
        match arg.split_once('=') {
            Some((option, file)) if option.starts_with("--") && config => out.push(file),
            None if arg.starts_with("--") && config => next = true,
            None if matches!(arg.as_str(), "-c" | "-p") => next = true,
            _ => {}
        }
    }
    out
}

/// The words of `command` naming files it runs or checks with: all of them, but of
/// a [`READS_NAMED`] command only grep's pattern file (`-f FILE`, `-fFILE`,
/// `--file=FILE`, `--file FILE`) and the operands of a checksum tool's `-c`, and
/// of a linter ([`LINTS`]) only what runs it and its configuration.
fn checked_words(command: &[String]) -> Vec<&str> {
    if let Some(at) = lint_at(command) {
        let mut out: Vec<&str> = command[..at].iter().map(|w| value(w)).collect();
        out.extend(lint_config(&command[at + 1..]));
        // A test a type checker or linter is given is a check it runs (`tsc
        // --noEmit test/types.test-d.ts`, `mypy tests/typing/check.py`).
        out.extend(
            command[at + 1..]
                .iter()
                .map(|w| value(w))
                .filter(|w| crate::plan::weakened::is_test_path(w)),
        );
        return out;
    }
    let Some((program, args)) = command.split_first() else {
        return Vec::new();
    };
    if !READS_NAMED.contains(&program.as_str()) {
        return command.iter().map(|w| value(w)).collect();
    }
    let mut out = Vec::new();
    if program.ends_with("grep") {
        let mut file_next = false;
        let mut skip_next = false;
        for arg in args {
            if std::mem::take(&mut file_next) {
                out.push(arg.as_str());
                continue;
            }
            if std::mem::take(&mut skip_next) || !arg.starts_with('-') {
                continue;
            }
            if arg == "--" {
                break;
            }
            if let Some(file) = arg.strip_prefix("--file=") {
                out.push(file);
            } else if arg == "--file" {
                file_next = true;
            } else if !arg.starts_with("--") {
                // A short cluster: `f` takes the rest as its file, or the next word;
                // an option with a value (`-e PATTERN`, `-m 1`) ends the cluster.
                for (i, c) in arg.char_indices().skip(1) {
                    let rest = &arg[i + c.len_utf8()..];
                    if c == 'f' {
                        if rest.is_empty() {
                            file_next = true;
                        } else {
                            out.push(rest);
                        }
                        break;
                    }
                    if "eABCmdD".contains(c) {
                        skip_next = rest.is_empty();
                        break;
                    }
                }
            }
        }
    } else if program.ends_with("sum")
        && args.iter().any(|a| {
            a == "--check" || (a.starts_with('-') && !a.starts_with("--") && a.contains('c'))
        })
    {
        out.extend(args.iter().map(|w| value(w)));
    }
    out
}

/// Repository scripts that words of the text file `rel` name, relative to the root
/// (where verify runs) or to the file's own directory, and those of `gone` it
/// names; with `runs`, only words outside comments and messages ([`program_text`]).
fn named_in(
    root: &Path,
    rel: &str,
    runs: bool,
    gone: &std::collections::BTreeSet<String>,
    own: &[String],
) -> Vec<String> {
    let path = root.join(rel);
    let small = fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= CLOSURE_BYTES);
    let Some(text) = small
        .then(|| fs::read(&path).ok())
        .flatten()
        .and_then(|b| String::from_utf8(b).ok())
    else {
        return Vec::new();
    };
    let dir = Path::new(rel).parent().unwrap_or(Path::new(""));
    let mut out = Vec::new();
    // What `out` holds, looked up in one step: a glob matching thousands of files,
    // or of those gone, in a script of many globs is not quadratic (helper 62).
    let mut seen = std::collections::HashSet::new();
    let text = match runs {
        true if block_comments(rel) => program_text(&without_block_comments(&text)),
        true => program_text(&text),
        false => text,
    };
    // Each command of a line (`python3 -m pytest -q && python3 -m checks`):
    // Python starts the first module of each, not of the line. A list of
    // arguments is one too (`subprocess.run([sys.executable, "-m", "checks"])`).
    for command in text.lines().flat_map(|l| l.split([';', '|', '&'])) {
        let command: Vec<String> = (command
            .split(|c: char| c.is_whitespace() || "[](),".contains(c)))
        .map(|w| w.trim_matches(['"', '\'']))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
        if runs && runs_own_runner(&command, own) {
            continue;
        }
        for found in run_module(root, dir, &command) {
            if found != rel && seen.insert(found.clone()) {
                out.push(found);
            }
        }
    }
    // Brackets cut words (`["sh", f]`) but for a glob's class (`t_[ab].sh`).
    let words = text
        .split(|c: char| c.is_whitespace() || "\"'`;|&<>(){},=:$".contains(c))
        .flat_map(|w| {
            let whole = is_glob(w).then_some(w).into_iter();
            let cut = w.split(['[', ']']).filter(move |_| !is_glob(w));
            whole.chain(cut)
        });
    let mut listed = Listed::default();
    // The code a runner's file names in its code folders (an entry, a lint
    // target, a module it requires) is the work under test, as an entered
    // folder's is; what it runs by name there is the check's.
    let ran = run_by_name(&text);
    // A declaration file (`index.d.ts`) declares types and runs nothing, but
    // for the type check a configuration lists it for: there the type tests'
    // own machinery (`type Expect<T extends true>`) can be one, gutted to pass
    // them all. The package's own types (a root `index.d.ts`, those in a code
    // folder) are the work it checks; a `types` field the work may write says
    // nothing the start did.
    let compiled = is_type_config(rel);
    let declared = |found: &str| {
        is_declaration(found) && (!compiled || !found.contains('/') && found.starts_with("index."))
    };
    let work = |found: &str, word: &str| {
        runs && (declared(found)
            || in_code_folder(found) && !ran.contains(word.trim_start_matches("./")))
    };
    for word in words.filter(|w| w.len() > 1 && (w.contains('/') || w.contains('.'))) {
        if is_glob(word) {
            for found in listed.globbed(root, dir, word, gone) {
                if found != rel && !work(&found, word) && seen.insert(found.clone()) {
                    out.push(found);
                }
            }
            continue;
        }
        let beside = dir.join(word);
        let candidates = [Some(word.to_string()), beside.to_str().map(str::to_string)];
        for candidate in candidates.into_iter().flatten() {
            if let Some(found) = in_repo_or_gone(root, &candidate, gone)
                && (is_script(&root.join(&found)) || gone.contains(&found))
                && found != rel
                && !work(&found, word)
                && seen.insert(found.clone())
            {
                out.push(found);
                break;
            }
        }
    }
    // A folder a type check's configuration includes (`"include": ["types"]`)
    // is compiled with the declarations in it (helper 123).
    if compiled {
        let folders = text.split(|c: char| c.is_whitespace() || "\"',[]{}:".contains(c));
        for word in folders.filter(|w| !w.is_empty() && !is_glob(w)) {
            let pattern = format!("{}/*.d.ts", word.trim_end_matches('/'));
            for found in listed.globbed(root, dir, &pattern, gone) {
                if found != rel && !work(&found, word) && seen.insert(found.clone()) {
                    out.push(found);
                }
            }
        }
    }
    out
}

/// Whether `rel` is a TypeScript declaration file (`index.d.ts`).
fn is_declaration(rel: &str) -> bool {
    [".d.ts", ".d.mts", ".d.cts"]
        .iter()
        .any(|e| rel.ends_with(e))
}

/// Whether `rel` is a TypeScript type check's configuration (`tsconfig.json`,
/// `tsconfig.test.json`).
fn is_type_config(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.starts_with("tsconfig") && name.ends_with(".json")
}

/// Extensions of languages whose `/* … */` is a comment.
const BLOCK_COMMENTED: &[&str] = &[
    "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "go", "rs", "c", "h", "cc", "cpp", "hpp",
    "java", "kt", "scala", "swift", "php", "css", "scss", "less",
];

/// Whether the file `rel` is in a language whose `/* … */` is a comment.
fn block_comments(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && BLOCK_COMMENTED.contains(&ext))
}

/// `text` with its block comments blanked (newlines kept): a `/*` or `/**` that
/// starts a word and is followed by a blank, to the next `*/`. Its words name no
/// program, and its `/*` is no glob of every script at the root (a Gruntfile's
/// banner, an `/* eslint-disable */` line). A glob's `/*` (`dist/*`,
/// `'/*.js'`) opens none; one left open is kept as it is. A `/*` in a line
/// comment (`// drops /* banners`) opens none, nor one in a string that does
/// not close it there (`l.startsWith('/* ')`): what follows up to a later `*/`
/// is code, and a script it names stays the check's.
fn without_block_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Blanked {
        text,
        out: String::with_capacity(text.len()),
        copied: 0,
    };
    let mut at = 0;
    while at < bytes.len() {
        let next = bytes.get(at + 1).copied();
        match bytes[at] {
            b'/' if next == Some(b'/') => {
                at = text[at..].find('\n').map_or(bytes.len(), |n| at + n);
            }
            quote @ (b'"' | b'\'' | b'`') => {
                let end = string_end(bytes, at + 1, quote);
                // A banner's comment closes in its string; one that does not
                // is the string's text.
                out.comments(at + 1, end, end);
                at = end + 1;
            }
            b'/' if next == Some(b'*') => match out.comments(at, at + 2, bytes.len()) {
                Some(end) => at = end,
                None => break,
            },
            _ => at += 1,
        }
    }
    out.out.push_str(&text[out.copied..]);
    out.out
}

/// Where the string whose body starts at `from` ends: its closing `quote`
/// (an escaped one passed over), or a `'` or `"` string's line end, or the end.
fn string_end(bytes: &[u8], from: usize, quote: u8) -> usize {
    let mut at = from;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'\n' if quote != b'`' => return at,
            c if c == quote => return at,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// [`without_block_comments`]'s text, copied to `out` up to `copied`.
struct Blanked<'t> {
    text: &'t str,
    out: String,
    copied: usize,
}

impl Blanked<'_> {
    /// Blanks the block comments that open from `from` on, before `open_end`,
    /// and close before `close_end`; where the last ended (`None`: one opened
    /// and did not close, so that none after can either).
    fn comments(&mut self, from: usize, open_end: usize, close_end: usize) -> Option<usize> {
        let text = self.text;
        let mut at = from;
        while let Some(found) = (text.get(at..open_end))
            .and_then(|rest| rest.find("/*"))
            .map(|f| at + f)
        {
            let before = text[..found].chars().next_back();
            let after = text[found + 2..].trim_start_matches('*').chars().next();
            let opens = before.is_none_or(|c| c.is_whitespace() || "\"'`(,;".contains(c))
                && after.is_some_and(char::is_whitespace);
            if !opens {
                at = found + 2;
                continue;
            }
            let end = text[found + 2..close_end].find("*/")? + found + 4;
            self.out.push_str(&text[self.copied..found]);
            let blank = |c: char| if c == '\n' { c } else { ' ' };
            self.out.extend(text[found..end].chars().map(blank));
            self.copied = end;
            at = end;
        }
        Some(at)
    }
}

/// Whether `rel` is the product's code: a file in a language's grammar under a
/// folder a package keeps its code in ([`CODE_DIRS`]), not a test's.
fn in_code_folder(rel: &str) -> bool {
    let folders = rel.rsplit_once('/').map_or("", |(d, _)| d);
    folders.split('/').any(|d| CODE_DIRS.contains(&d))
        && crate::plan::weakened::Lang::of(rel).is_some()
        && !crate::plan::weakened::is_test_path(rel)
}

/// The words of `text` on lines that may run a program: every word of a line
/// that holds anything that runs one (an interpreter, `exec`, `spawn`, `run`,
/// `command`, make's `@` or `$(…)`: `@python`, `$(PYTHON)`, `python3.12`, `uv
/// run`, `execSync('node …')`), and a line's first word unquoted (a shell
/// script's command). Read wide on purpose: a file kept that is only named
/// costs a false `verify-file-changed`, one dropped that runs is a check
/// gutted unseen (review 111). `./` taken off each.
fn run_by_name(text: &str) -> std::collections::HashSet<&str> {
    const RUNS: [&str; 16] = [
        "node", "python", "bash", "sh ", "deno", "bun", "tsx", "ruby", "perl", "npx", "exec",
        "spawn", "run", "command", "@", "$(",
    ];
    let mut out = std::collections::HashSet::new();
    fn bare(w: &str) -> &str {
        w.trim_matches(|c| "\"'`;&|()[],".contains(c))
            .trim_start_matches("./")
    }
    for line in text.lines() {
        let lower = line.to_ascii_lowercase();
        let mut words = line.split_whitespace();
        if RUNS.iter().any(|r| lower.contains(r)) {
            out.extend(words.map(bare));
        } else if let Some(first) = words.next().filter(|w| !w.starts_with(['"', '\'', '`'])) {
            out.insert(bare(first));
        }
    }
    out
}

/// Whether `word` is a glob: a `*` or `?`, or a bracket class (`[ab]`).
fn is_glob(word: &str) -> bool {
    word.contains(['*', '?'])
        || word
            .find('[')
            .is_some_and(|at| word[at + 1..].find(']').is_some_and(|end| end > 0))
}

/// Folders a script's globs were matched in, each listed once (its scripts): a
/// script of many globs over one large folder costs one listing.
#[derive(Default)]
struct Listed(std::collections::HashMap<String, Vec<String>>);

impl Listed {
    /// The scripts a runner's glob names (`for f in checks/t_*.sh`,
    /// `glob.glob("checks/t_*.py")`) in its folder, relative to the root or to
    /// `dir` (the script's own), and the files of `gone` it would have matched
    /// there: the checks it runs. The folder part is taken as written; a pattern
    /// in it, or `**`, is not followed (said in docs/src/sign-off.md).
    fn globbed(
        &mut self,
        root: &Path,
        dir: &Path,
        word: &str,
        gone: &std::collections::BTreeSet<String>,
    ) -> Vec<String> {
        // `"$DIR"/t_*.sh` and `"checks"/t_*.sh` are read as `/t_*.sh`: taken from
        // the root or the script's folder, where an absolute folder is not found.
        let word = word.trim_start_matches('/');
        let (folder, name) = word.rsplit_once('/').unwrap_or(("", word));
        if is_glob(folder) || name.is_empty() {
            return Vec::new();
        }
        let Ok(pattern) = glob::Pattern::new(name) else {
            return Vec::new();
        };
        let options = glob::MatchOptions {
            require_literal_leading_dot: true,
            ..glob::MatchOptions::new()
        };
        let here = dir.join(folder).to_string_lossy().into_owned();
        for base in [folder.to_string(), here] {
            let base = base.trim_end_matches('/');
            let Some(at) = (if base.is_empty() {
                Some(String::new())
            } else {
                in_repo(root, base)
            }) else {
                continue;
            };
            // Its scripts, each looked at once however many globs match it.
            let names = self.0.entry(at.clone()).or_insert_with(|| {
                let mut names: Vec<String> = fs::read_dir(root.join(&at))
                    .into_iter()
                    .flatten()
                    .flatten()
                    .filter_map(|e| e.file_name().into_string().ok())
                    .filter(|n| is_script(&root.join(&at).join(n)))
                    .collect();
                names.sort();
                names
            });
            let within = |file: &str| {
                if at.is_empty() {
                    file.to_string()
                } else {
                    format!("{at}/{file}")
                }
            };
            let mut found: Vec<String> = names
                .iter()
                .filter(|n| pattern.matches_with(n, options))
                .map(|n| within(n))
                .collect();
            found.extend(
                gone.iter()
                    .filter(|g| {
                        let (parent, file) = g.rsplit_once('/').unwrap_or(("", g));
                        parent == at && pattern.matches_with(file, options)
                    })
                    .cloned(),
            );
            if !found.is_empty() {
                return found;
            }
        }
        Vec::new()
    }
}

/// The repository files a `python -m MODULE` among `words` runs: `MODULE.py`, or
/// the package's `__main__.py`, its dots as folders, from the root (where verify
/// runs) or `dir` (a script's own). Python starts whatever program word comes
/// first on the line, so the words before it are passed over (`timeout 60 python3`).
fn run_module(root: &Path, dir: &Path, words: &[String]) -> Vec<String> {
    let Some((_, module)) = module_run(words) else {
        return Vec::new();
    };
    let base = module.replace('.', "/");
    let mut out = Vec::new();
    for file in [format!("{base}.py"), format!("{base}/__main__.py")] {
        for candidate in [file.clone(), dir.join(&file).to_string_lossy().into_owned()] {
            if let Some(rel) = in_repo(root, &candidate)
                && root.join(&rel).is_file()
                && !out.contains(&rel)
            {
                out.push(rel);
            }
        }
    }
    out
}

/// The module a `python -m MODULE` among `words` runs, and where in `words` it
/// stands alone (`None` when an option cluster holds it: `-mchecks`).
fn module_run(words: &[String]) -> Option<(Option<usize>, &str)> {
    let name =
        |w: &str| w.rsplit('/').next().unwrap_or(w).starts_with("python") || w == "sys.executable";
    let at = words.iter().position(|w| name(w))?;
    let mut args = words[at + 1..]
        .iter()
        .enumerate()
        .map(|(i, w)| (at + 1 + i, w.as_str()));
    // Python's options cluster (`-Bm checks`, `-um checks`): `m` takes the rest of
    // the word or the next one as the module, `c` ends them, `W` and `X` take a
    // value; the first operand is a script, not a module.
    let module = 'words: loop {
        let Some((_, word)) = args.next().filter(|(_, w)| w.starts_with('-') && *w != "-") else {
            break None;
        };
        if word.starts_with("--") {
            continue;
        }
        for (i, flag) in word.char_indices().skip(1) {
            let rest = &word[i + flag.len_utf8()..];
            match flag {
                'm' if rest.is_empty() => break 'words args.next().map(|(i, w)| (Some(i), w)),
                'm' => break 'words Some((None, rest)),
                'c' => break 'words None,
                'W' | 'X' => {
                    if rest.is_empty() {
                        args.next();
                    }
                    continue 'words;
                }
                _ => {}
            }
        }
    };
    module.filter(|(_, m)| {
        m.split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '_'))
    })
}

/// Test runners a verify starts as `python -m NAME`, besides [`LINTS`].
const RUNNER_MODULES: [&str; 5] = ["pytest", "py", "unittest", "nose", "nose2"];

/// Whether the `python -m` among `words` runs a test runner or linter that the
/// repository is (`own`, [`project_names`]): pytest's own repository runs its
/// tests with `python -m pytest`, and the module that resolves to is pytest, the
/// product its tests test, not a check. A runner's copy a project vendors, or a
/// check module whatever the project is called, stays the check.
fn runs_own_runner(words: &[String], own: &[String]) -> bool {
    let Some((_, module)) = module_run(words) else {
        return false;
    };
    let top = module.split('.').next().unwrap_or(module);
    (RUNNER_MODULES.contains(&top) || LINTS.contains(&top)) && own.contains(&project_name(top))
}

/// The files a Python project names itself in, each with the tables of it that
/// hold its name (none: anywhere).
pub const MANIFESTS: [(&str, &[&str]); 3] = [
    ("setup.py", &[]),
    ("setup.cfg", &["[metadata]"]),
    ("pyproject.toml", &["[project]", "[tool.poetry]"]),
];

/// [`project_names_in`] the manifests at `root`.
fn project_names(root: &Path) -> Vec<String> {
    project_names_in(&|file| {
        let path = root.join(file);
        let small = fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= CLOSURE_BYTES);
        small.then(|| fs::read_to_string(&path).ok()).flatten()
    })
}

/// The names a Python project's manifests (their text `read` gives, by file)
/// give it: `name=` in `setup.py`, `name =` under setup.cfg's `[metadata]` and
/// under pyproject.toml's `[project]` or `[tool.poetry]` ([`project_name`]'s
/// form).
pub fn project_names_in(read: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let mut out = Vec::new();
    for (file, tables) in MANIFESTS {
        let Some(text) = read(file) else {
            continue;
        };
        let mut inside = tables.is_empty();
        for line in text.lines() {
            let line = line.trim();
            if !tables.is_empty() && line.starts_with('[') {
                let header = line.split('#').next().unwrap_or("").trim();
                inside = tables.contains(&header);
                continue;
            }
            // A comment names nothing (`# was: name='pytest'`), nor in a table
            // a key other than the line's own (`authors = [{name = …}]`).
            let line = line.split('#').next().unwrap_or("");
            let keyed = tables.is_empty() || line.split('=').next().map(str::trim) == Some("name");
            if inside && keyed {
                out.extend(name_values(line).map(project_name));
            }
        }
    }
    out
}

/// The values of `name` keys on `line`: `name='x'`, `name = "x"`, `name = x`.
fn name_values(line: &str) -> impl Iterator<Item = &str> {
    line.match_indices("name").filter_map(move |(at, _)| {
        let before = line[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
            return None;
        }
        let rest = line[at + 4..].trim_start().strip_prefix('=')?;
        if rest.starts_with('=') {
            return None;
        }
        let rest = rest.trim_start().trim_start_matches(['"', '\'']);
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || "_-.".contains(c)))
            .unwrap_or(rest.len());
        (end > 0).then(|| &rest[..end])
    })
}

/// A project's or module's name as packaging compares them: case, `-` and `.`
/// as `_`.
fn project_name(name: &str) -> String {
    name.to_ascii_lowercase().replace(['-', '.'], "_")
}

/// Where `verify` names the repository file `target`: `the verify line` when its
/// own words do, else the first file of its closure ([`verify_closure`]) whose
/// text outside comments and messages does (relative to the root or to that
/// file's directory). `None`: nowhere.
pub fn naming(root: &Path, verify: &Verify, target: &str) -> Option<String> {
    let is_target = |word: &str, dir: &Path| {
        [
            Some(word.to_string()),
            dir.join(word).to_str().map(str::to_string),
        ]
        .into_iter()
        .flatten()
        .any(|w| {
            Path::new(&w)
                .components()
                .eq(Path::new(target).components())
        })
    };
    let words = verify.chain.iter().flat_map(|p| &p.commands).flatten();
    if words
        .map(|w| value(w).trim_start_matches("./"))
        .any(|w| is_target(w, Path::new("")))
    {
        return Some("the verify line".to_string());
    }
    verify_closure(root, verify).into_iter().find(|rel| {
        let path = root.join(rel);
        let small = fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= CLOSURE_BYTES);
        let Some(text) = small
            .then(|| fs::read(&path).ok())
            .flatten()
            .and_then(|b| String::from_utf8(b).ok())
        else {
            return false;
        };
        let dir = Path::new(rel.as_str()).parent().unwrap_or(Path::new(""));
        program_text(&text)
            .split(|c: char| c.is_whitespace() || "\"'`;|&<>(){}[],=:$".contains(c))
            .any(|w| !w.is_empty() && is_target(w.trim_start_matches("./"), dir))
    })
}

/// Programs a command line held in a string can start with; a string of words
/// that starts otherwise (`"write solution.py first"`) is a message.
const RUNNERS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "fish", "python", "python3", "node", "ruby", "perl", "php", "lua",
    "deno", "bun", "npx", "make", "exec", "source", ".", "env", "timeout", "xargs", "pytest",
    "tclsh", "awk", "sed", "jq", "command", "nice",
];

/// `text` with what names no program blanked: whole-line comments (`#`, `//`; not
/// a `#!` line), and quoted strings that are messages ([`is_message`]). A string
/// left open on its line is kept as it is.
fn program_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if (trimmed.starts_with('#') && !trimmed.starts_with("#!")) || trimmed.starts_with("//") {
            out.push('\n');
            continue;
        }
        let mut rest = line;
        while let Some(open) = rest.find(['"', '\'']) {
            let quote = rest[open..].chars().next().unwrap_or('"');
            let body_start = open + 1;
            let mut end = None;
            let mut escaped = false;
            for (i, c) in rest[body_start..].char_indices() {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == quote {
                    end = Some(body_start + i);
                    break;
                }
            }
            let Some(end) = end else {
                break;
            };
            out.push_str(&rest[..body_start]);
            let body = &rest[body_start..end];
            if is_message(body) || (said(line, &rest[..open]) && !body.contains("$(")) {
                out.extend(std::iter::repeat_n(' ', body.len()));
            } else {
                out.push_str(body);
            }
            out.push(quote);
            rest = &rest[end + 1..];
        }
        out.push_str(rest);
    }
    out
}

/// Calls whose string argument is said to a person, not run: a string right after
/// one (`sys.exit("solution.py printed nothing")`, `print(f"solution.py: {e}")`) is
/// a message even when its first word is a file's name.
const SAYS: &[&str] = &[
    "print(",
    "exit(",
    "Exit(",
    "Error(",
    "Exception(",
    "fail(",
    "warn(",
    "warning(",
    "error(",
    "info(",
    "debug(",
    "log(",
    "write(",
    "echo ",
];

/// Whether the string opening after `before` on `line` is a message: an argument
/// of a call that says it ([`SAYS`]) or an assertion's message.
fn said(line: &str, before: &str) -> bool {
    let before = before
        .trim_end_matches(['f', 'r', 'b', 'F', 'R', 'B'])
        .trim_end();
    // What `echo` prints can be piped to a shell that runs it.
    let piped = before.ends_with("echo") && line.contains('|');
    (SAYS.iter().any(|c| before.ends_with(c.trim_end())) && !piped)
        || (line.trim_start().starts_with("assert ") && before.ends_with(','))
}

/// A string of several words none of whose commands (split at `;`, `|`, `&`)
/// starts with a program of [`RUNNERS`] or a path (`./run.sh`, `check.py`), and
/// with no command substitution in it.
fn is_message(body: &str) -> bool {
    if !body.trim().contains(char::is_whitespace) || body.contains("$(") || body.contains('`') {
        return false;
    }
    !body.split([';', '|', '&']).any(|segment| {
        let first = segment
            .split_whitespace()
            .find(|w| !w.contains('=') || w.starts_with('='));
        first.is_some_and(|w| {
            RUNNERS.contains(&w)
                || w.contains('/')
                || w.rsplit_once('.')
                    .is_some_and(|(stem, ext)| !stem.is_empty() && CODE.contains(&ext))
        })
    })
}

/// Extensions of code a check could run or load.
const CODE: &[&str] = &[
    "sh", "bash", "zsh", "fish", "py", "rb", "pl", "js", "mjs", "cjs", "ts", "lua", "mk", "tcl",
    "php", "awk", "sed", "jq",
];

/// A file a check could run or load: executable, or named like code. The work a
/// script checks (`test -s README.md`) is not followed: it is meant to change.
fn is_script(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = fs::metadata(path) else {
        return false;
    };
    meta.is_file()
        && (named_like_code(&path.to_string_lossy()) || meta.permissions().mode() & 0o111 != 0)
}

/// Whether the file at `path` is named like code a check could run or load
/// ([`CODE`]'s extensions, a Makefile).
pub(crate) fn named_like_code(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && CODE.contains(&ext))
        || MAKEFILES.contains(&name)
}

/// Regular files below `dir`, the first `cap` of a stable walk (which stops there),
/// sorted; `.git` and the folders `skip` says are not walked.
fn files_under(dir: &Path, cap: usize, skip: impl Fn(&Path) -> bool) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(next) = stack.pop().filter(|_| out.len() < cap) {
        let Ok(entries) = fs::read_dir(&next) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| std::cmp::Reverse(e.file_name()));
        for entry in entries {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() && entry.file_name() != ".git" && !skip(&entry.path()) {
                stack.push(entry.path());
            } else if kind.is_file() && out.len() < cap {
                out.push(entry.path());
            }
        }
    }
    out.sort();
    out
}

/// `word` as a relative path inside the repository, or `None` when it is absolute,
/// climbs out with `..`, points into `.git`, or (through a symlink) leads outside.
pub fn in_repo(root: &Path, word: &str) -> Option<String> {
    let rel = relative(word)?;
    let real = fs::canonicalize(root.join(&rel)).ok()?;
    let root = fs::canonicalize(root).ok()?;
    real.starts_with(&root).then_some(rel)
}

/// `word` as a relative path that stays inside the repository by its words alone
/// (see [`in_repo`]), whether or not a file is there.
fn relative(word: &str) -> Option<String> {
    if word.is_empty() || word.starts_with('-') {
        return None;
    }
    let mut parts = Vec::new();
    for part in Path::new(word).components() {
        match part {
            Component::Normal(p) => parts.push(p.to_str()?),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if parts.is_empty() || parts[0] == ".git" {
        return None;
    }
    Some(parts.join("/"))
}

/// `word` as [`in_repo`] reads it, or as a file of `gone` it names.
fn in_repo_or_gone(
    root: &Path,
    word: &str,
    gone: &std::collections::BTreeSet<String>,
) -> Option<String> {
    in_repo(root, word).or_else(|| relative(word).filter(|rel| gone.contains(rel)))
}

fn read(path: &Path, budget: &mut usize) -> FileBody {
    let not_shown = |why: String| FileBody::NotShown { why };
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) => return not_shown(format!("cannot read it: {e}")),
    };
    if meta.is_dir() {
        return listing(path);
    }
    // Opening a fifo would wait forever; verify may have put one there.
    if !meta.is_file() {
        return not_shown("not a regular file".to_string());
    }
    let size = meta.len();
    if *budget == 0 {
        return not_shown(format!(
            "{size} bytes, over the {TOTAL_BYTES}-byte budget for all files; open it yourself"
        ));
    }
    let take = FILE_BYTES.min(*budget);
    let mut bytes = Vec::with_capacity(take.min(size as usize));
    let read = fs::File::open(path).and_then(|f| f.take(take as u64).read_to_end(&mut bytes));
    if let Err(e) = read {
        return not_shown(format!("cannot read it: {e}"));
    }
    if bytes.contains(&0) {
        return not_shown(format!("binary, {size} bytes"));
    }
    *budget -= bytes.len();
    // A cut can split a character; the lossy decode marks it instead of failing.
    let text = String::from_utf8_lossy(&bytes).into_owned();
    FileBody::Text { text, size }
}

fn listing(path: &Path) -> FileBody {
    let Ok(dir) = fs::read_dir(path) else {
        return FileBody::NotShown {
            why: "a directory that cannot be listed".to_string(),
        };
    };
    let mut entries: Vec<String> = dir
        .filter_map(Result::ok)
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            match e.file_type() {
                Ok(t) if t.is_dir() => format!("{name}/"),
                _ => name,
            }
        })
        .collect();
    entries.sort();
    let total = entries.len();
    entries.truncate(DIR_ENTRIES);
    FileBody::Listing { entries, total }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_a_shell_runs_is_its_first_operand() {
        let words = |line: &str| line.split(' ').map(str::to_string).collect::<Vec<_>>();
        for (line, at) in [
            ("bash check", Some(1)),
            ("/bin/sh -e ci/check", Some(2)),
            ("bash -o pipefail check", Some(3)),
            ("bash -euo pipefail check", Some(3)),
            ("bash --norc --rcfile x check", Some(4)),
            ("dash -- check", Some(2)),
            ("bash -c check", None),
            ("sh -s check", None),
            ("bash -ec check", None),
            ("bash -", None),
            ("bash", None),
            ("zsh check", None),
            ("python3 check", None),
        ] {
            assert_eq!(shell_operand(&words(line)), at, "{line}");
        }
        // Any interpreter's first word, with no option before it.
        for (line, at) in [
            ("python3 check", Some(1)),
            ("/usr/bin/node check", Some(1)),
            ("bash -e check", Some(2)),
            ("python3 -m check", None),
            ("node -e check", None),
            ("grep check", None),
            ("python3", None),
        ] {
            assert_eq!(script_operand(&words(line)), at, "{line}");
        }
    }

    fn verify(line: &str) -> Verify {
        crate::verify::parse(line).unwrap()
    }

    // Helper 54's review: past the closure's depth (scripts sourcing scripts) or
    // a script's size, the files named further on were dropped unsaid; now the
    // place the closure stopped comes back with its cap.
    #[test]
    fn a_script_past_the_closure_s_depth_or_size_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(root.join("run.sh"), "#!/bin/sh\n. ./s1.sh\n").unwrap();
        for i in 1..=5 {
            let next = format!("#!/bin/sh\n. ./s{}.sh\n", i + 1);
            fs::write(root.join(format!("s{i}.sh")), next).unwrap();
        }
        fs::write(root.join("s6.sh"), "#!/bin/sh\ntest -s out.txt\n").unwrap();
        let (files, past) = verify_runs_capped(root, &verify("sh run.sh"), &[], &[]);
        assert_eq!(files, ["run.sh", "s1.sh", "s2.sh", "s3.sh", "s4.sh"]);
        assert_eq!(past, Some(("s5.sh".to_string(), VerifyCap::Depth)));
        // Three levels fit: nothing past them.
        let (_, past) = verify_runs_capped(root, &verify("sh s3.sh"), &[], &[]);
        assert_eq!(past, None);
        let big = format!("#!/bin/sh\n. ./check.sh\n#{}\n", "-".repeat(2 << 20));
        fs::write(root.join("big.sh"), big).unwrap();
        fs::write(root.join("check.sh"), "#!/bin/sh\ntest -s out.txt\n").unwrap();
        let (_, past) = verify_runs_capped(root, &verify("sh big.sh"), &[], &[]);
        assert_eq!(past, Some(("big.sh".to_string(), VerifyCap::Size)));
    }

    // Helper 55's red team: files added to a folder the verify walks fill the
    // cap before the check the work gutted; a file the work changed is taken
    // past it, wherever the closure reaches it, and nothing else is.
    #[test]
    fn a_changed_file_is_taken_past_the_closure_s_cap() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let sub = |p: &str| {
            fs::create_dir_all(root.join(p).parent().unwrap()).unwrap();
            fs::write(root.join(p), "#!/bin/sh\n. helpers/h.sh\n").unwrap();
        };
        for i in 0..300 {
            sub(&format!("checks/a_{i:03}.txt"));
        }
        for p in [
            "checks/lib.sh",
            "checks/run.sh",
            "helpers/h.sh",
            "helpers/g.sh",
        ] {
            sub(p);
        }
        let line = verify("sh checks/run.sh checks");
        let (files, past) = verify_runs_capped(root, &line, &[], &[]);
        assert_eq!(files.len(), CLOSURE_FILES);
        assert!(
            !files
                .iter()
                .any(|f| f == "checks/lib.sh" || f == "helpers/h.sh")
        );
        assert!(matches!(past, Some((_, VerifyCap::Files))), "{past:?}");
        let kept = [
            "checks/lib.sh",
            "helpers/h.sh",
            "helpers/g.sh",
            "checks/gone.sh",
        ]
        .map(String::from);
        let (files, past) = verify_runs_capped(root, &line, &kept, &[]);
        assert_eq!(
            files.len(),
            CLOSURE_FILES + 2,
            "{:?}",
            &files[CLOSURE_FILES..]
        );
        assert!(files.iter().any(|f| f == "checks/lib.sh"));
        // Reached only through a script the walk passed: followed, still taken.
        assert!(files.iter().any(|f| f == "helpers/h.sh"));
        // Changed but named by nothing the verify runs, or gone: not taken.
        assert!(
            !files
                .iter()
                .any(|f| f == "helpers/g.sh" || f == "checks/gone.sh")
        );
        assert!(matches!(past, Some((_, VerifyCap::Files))), "{past:?}");
    }

    #[test]
    fn a_gone_check_is_taken_where_the_verify_reached_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("checks")).unwrap();
        fs::write(
            root.join("checks/run.sh"),
            "[ -f lib/h.sh ] && . lib/h.sh\n",
        )
        .unwrap();
        fs::write(root.join("checks/t_new.sh"), "true\n").unwrap();
        let gone = [
            "checks/t_add.sh",
            "checks/deep/t_mul.sh",
            "checks/cases.txt",
            "lib/h.sh",
            "other/t_x.sh",
        ]
        .map(String::from);
        let line = verify("sh checks/run.sh checks");
        let (files, _) = verify_runs_capped(root, &line, &[], &gone);
        for taken in [
            "checks/run.sh",
            "checks/t_new.sh",
            // Below the folder the verify walks.
            "checks/t_add.sh",
            "checks/deep/t_mul.sh",
            // Named by a script it runs.
            "lib/h.sh",
        ] {
            assert!(files.iter().any(|f| f == taken), "{taken} not in {files:?}");
        }
        // Data, and a script nothing the verify runs reaches: not taken.
        for left in ["checks/cases.txt", "other/t_x.sh"] {
            assert!(!files.iter().any(|f| f == left), "{left} in {files:?}");
        }
        // Named by the verify's own words.
        let (files, _) = verify_runs_capped(root, &verify("sh other/t_x.sh"), &[], &gone);
        assert_eq!(files, ["other/t_x.sh"]);
    }

    #[test]
    fn a_runner_s_glob_takes_the_scripts_it_matches() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("checks/deep")).unwrap();
        fs::create_dir_all(root.join("checks/own")).unwrap();
        let script = "for f in checks/t_*.sh; do sh $f; done\nfor g in own/*.py; do :; done\nls checks/**/*.sh\n";
        fs::write(root.join("checks/run.sh"), script).unwrap();
        for p in [
            "checks/t_a.sh",
            "checks/t_b.sh",
            "checks/.t_hidden.sh",
            "checks/t_cases.txt",
            "checks/u_a.sh",
            "checks/deep/t_c.sh",
            "checks/own/x.py",
        ] {
            fs::write(root.join(p), "true\n").unwrap();
        }
        let gone = ["checks/t_old.sh", "checks/u_old.sh"].map(String::from);
        let (files, _) = verify_runs_capped(root, &verify("sh checks/run.sh"), &[], &gone);
        for taken in [
            "checks/t_a.sh",
            "checks/t_b.sh",
            "checks/t_old.sh",
            // Relative to the script's own folder.
            "checks/own/x.py",
        ] {
            assert!(files.iter().any(|f| f == taken), "{taken} not in {files:?}");
        }
        // Not matched, hidden, not a script, or below a `**`.
        for left in [
            "checks/u_a.sh",
            "checks/u_old.sh",
            "checks/.t_hidden.sh",
            "checks/t_cases.txt",
            "checks/deep/t_c.sh",
        ] {
            assert!(!files.iter().any(|f| f == left), "{left} in {files:?}");
        }
    }

    // Helper 62's red team: a glob the word splitter cut was no glob: the folder
    // quoted or in a variable (`"checks"/t_*.sh`, `"$DIR"/t_*.sh`, read as
    // `/t_*.sh`), a bracket class (`t_[ab].sh`, cut at its brackets).
    #[test]
    fn a_glob_spelled_with_quotes_a_variable_or_a_class_takes_its_scripts() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("checks")).unwrap();
        for p in ["checks/t_a.sh", "checks/t_b.sh", "checks/t_c.sh"] {
            fs::write(root.join(p), "true\n").unwrap();
        }
        let gone = ["checks/t_gone.sh".to_string()];
        let runs = |script: &str| {
            fs::write(root.join("checks/run.sh"), script).unwrap();
            verify_runs_capped(root, &verify("sh checks/run.sh"), &[], &gone).0
        };
        for script in [
            "for f in \"checks\"/t_*.sh; do sh \"$f\"; done\n",
            "D=$(dirname \"$0\"); for f in \"$D\"/t_*.sh; do sh \"$f\"; done\n",
            "for f in ${D}/t_*.sh; do sh \"$f\"; done\n",
        ] {
            let files = runs(script);
            for taken in ["checks/t_a.sh", "checks/t_c.sh", "checks/t_gone.sh"] {
                assert!(files.iter().any(|f| f == taken), "{script}: {files:?}");
            }
        }
        let files = runs("for f in checks/t_[ab].sh; do sh \"$f\"; done\n");
        assert_eq!(files, ["checks/run.sh", "checks/t_a.sh", "checks/t_b.sh"]);
        // Brackets that are no class still cut words: a list, an index.
        let files = runs("subprocess.run([\"sh\", \"checks/t_c.sh\"])\nx = a[0]\n");
        assert_eq!(files, ["checks/run.sh", "checks/t_c.sh"]);
        // An absolute glob outside the repository names nothing.
        let files = runs("for f in /usr/share/nothing-here/*.sh; do :; done\n");
        assert_eq!(files, ["checks/run.sh"]);
    }

    // Helper 62's red team: every file a glob matched was looked for in a list of
    // those already named, and stat'ed again for each glob: 100 globs over 1,000
    // checks with 10,000 deleted took 146 s (debug build), 2.6 s now.
    #[test]
    fn many_globs_over_many_files_and_many_gone_are_not_quadratic() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("checks")).unwrap();
        for i in 0..1000 {
            fs::write(root.join(format!("checks/t_{i}.sh")), "true\n").unwrap();
        }
        let script = "for f in checks/t_*.sh; do sh $f; done\n".repeat(100);
        fs::write(root.join("run.sh"), script).unwrap();
        let gone: Vec<String> = (0..10_000)
            .map(|i| format!("checks/t_gone{i}.sh"))
            .collect();
        let started = std::time::Instant::now();
        let (files, past) = verify_runs_capped(root, &verify("sh run.sh"), &[], &gone);
        let took = started.elapsed();
        assert_eq!(files.len(), CLOSURE_FILES);
        assert!(matches!(past, Some((_, VerifyCap::Files))), "{past:?}");
        assert!(took.as_secs() < 30, "{took:?}");
    }

    #[test]
    fn verify_words_that_are_repository_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(root.join("NOTES.md"), "notes\n").unwrap();
        fs::create_dir_all(root.join("bench")).unwrap();
        fs::write(root.join("bench/p95"), "#!/bin/sh\n").unwrap();
        fs::write(root.join("out.json"), "{}").unwrap();
        let v = verify("test -s NOTES.md && ./bench/p95 --out=out.json -q ../x /etc/passwd src");
        let files = gather(root, Some(&v), &["NOTES.md".into(), "bench".into()]);
        let shown: Vec<(&str, FileRole)> =
            files.iter().map(|f| (f.path.as_str(), f.role)).collect();
        assert_eq!(
            shown,
            [
                ("NOTES.md", FileRole::Verify),
                ("bench/p95", FileRole::Verify),
                ("out.json", FileRole::Verify),
                ("bench", FileRole::Evidence),
            ]
        );
        assert_eq!(
            files[0].body,
            FileBody::Text {
                text: "notes\n".into(),
                size: 6
            }
        );
        assert_eq!(
            files[3].body,
            FileBody::Listing {
                entries: vec!["p95".into()],
                total: 1
            }
        );
    }

    #[test]
    fn verify_runs_leaves_out_what_the_verify_only_reads() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for name in ["README.md", "p.txt", "out.txt", "want.txt", "SUMS", "a.bin"] {
            fs::write(root.join(name), "x\n").unwrap();
        }
        let runs = |line: &str| verify_runs(root, &verify(line));
        assert!(runs("grep -q cache README.md && test -s out.txt").is_empty());
        assert_eq!(runs("grep -qf p.txt out.txt"), ["p.txt"]);
        assert_eq!(runs("grep -e x --file=p.txt out.txt"), ["p.txt"]);
        assert_eq!(runs("grep -q -e p.txt out.txt"), Vec::<String>::new());
        assert_eq!(runs("sha256sum -c SUMS"), ["SUMS"]);
        assert!(runs("sha256sum a.bin").is_empty());
        // Which side of a comparison is the reference plan cannot tell.
        assert_eq!(
            runs("cat want.txt | diff - out.txt"),
            ["want.txt", "out.txt"]
        );
        // A linter's files are the work it checks; its configuration checks.
        fs::create_dir_all(root.join("lib")).unwrap();
        fs::write(root.join("lib/a.js"), "x\n").unwrap();
        fs::write(root.join(".eslintrc.json"), "{}\n").unwrap();
        fs::write(root.join("hotfix.js"), "x\n").unwrap();
        assert!(runs("eslint lib/a.js").is_empty());
        assert_eq!(
            runs("node hotfix.js eslint -c .eslintrc.json lib/a.js"),
            ["hotfix.js", ".eslintrc.json"]
        );
        assert_eq!(
            runs("npx prettier --check --config=p.txt lib/a.js"),
            ["p.txt"]
        );
        // A linter's name given as a value to another program is no linter.
        assert_eq!(runs("python3 -m pytest -k black lib/a.js"), ["lib/a.js"]);
        // The closure for the judge and the record keeps them all.
        assert_eq!(
            verify_closure(root, &verify("grep -q cache README.md")),
            ["README.md"]
        );
    }

    /// Attacks: a check hidden behind a linter's name, or in a helper the test
    /// file runs its checks through.
    #[test]
    fn attack_a_check_a_linter_runs_or_a_test_helper_still_counts() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("test/helpers")).unwrap();
        fs::create_dir_all(root.join("lib")).unwrap();
        fs::write(root.join("lib/a.js"), "x\n").unwrap();
        fs::write(root.join("test/types.test-d.ts"), "x\n").unwrap();
        fs::write(
            root.join("test/check.js"),
            "require('./helpers/expect.js');\nrequire('../lib/a.js');\n",
        )
        .unwrap();
        fs::write(root.join("test/helpers/expect.js"), "x\n").unwrap();
        let runs = |line: &str| verify_runs(root, &verify(line));
        // A type test checked by tsc is the check itself.
        assert_eq!(
            runs("npx tsc --noEmit test/types.test-d.ts"),
            ["test/types.test-d.ts"]
        );
        // A test's own helper is the check; the code it tests is not.
        assert_eq!(
            runs("node test/check.js"),
            ["test/check.js", "test/helpers/expect.js"]
        );
    }

    /// A package manager's or task runner's subcommand and task names are no
    /// files: `npm test`, `grunt test` and `make test` made every file under a
    /// `test/` folder one the verify rests on (axios, commander, vitest in the
    /// tuning sample: a fixture or a manual page changed was `verify-file-changed`,
    /// high). The script `npm test` runs still names its own (`mocha test`), and
    /// what comes after `--` is the script's, and a runner's operand stays one.
    #[test]
    fn task_names_are_not_the_folders_they_spell() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("test/fixtures")).unwrap();
        fs::write(root.join("test/fixtures/pm"), "x\n").unwrap();
        fs::write(root.join("test/a.spec.js"), "x\n").unwrap();
        fs::write(root.join("Makefile"), "test:\n\tnode t.js\n").unwrap();
        let runs = |line: &str| verify_runs(root, &verify(line));
        for line in [
            "npm test",
            "npm run test",
            "yarn test",
            "pnpm -r test",
            "grunt test",
            "gulp test",
            "npx grunt test",
            "cargo test",
        ] {
            assert!(runs(line).is_empty(), "{line}: {:?}", runs(line));
        }
        assert_eq!(runs("make test"), ["Makefile"]);
        let all = ["test/a.spec.js", "test/fixtures/pm"];
        assert_eq!(sorted(runs("npx mocha test")), all);
        assert_eq!(sorted(runs("npm test -- test")), all);
        assert_eq!(sorted(runs("bun test test")), all);
        assert_eq!(runs("yarn jest test/a.spec.js"), ["test/a.spec.js"]);
        fs::write(
            root.join("package.json"),
            r#"{"scripts": {"test": "mocha test"}}"#,
        )
        .unwrap();
        assert_eq!(sorted(runs("npm test")), all);
    }

    /// Red team (stop79-red2): a package manager's "subcommand" that is the check
    /// itself. `bun check.ts` and `go run check.go` run the file they name, and
    /// `bun run check.ts` and `go run ./cmd/check` too; read as a subcommand or
    /// script name, the check was no file the verify rests on, and gutting it was
    /// no `verify-file-changed`. A word naming a file, or with a `/`, stays a file.
    #[test]
    fn a_file_a_package_manager_runs_is_no_task_name() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("cmd/check")).unwrap();
        fs::write(root.join("cmd/check/main.go"), "package main\n").unwrap();
        fs::write(root.join("check.ts"), "x\n").unwrap();
        fs::write(root.join("check.go"), "package main\n").unwrap();
        let runs = |line: &str| verify_runs(root, &verify(line));
        assert_eq!(runs("bun check.ts"), ["check.ts"]);
        assert_eq!(runs("bun run check.ts"), ["check.ts"]);
        assert_eq!(runs("go run check.go"), ["check.go"]);
        assert_eq!(runs("go run ./cmd/check"), ["cmd/check/main.go"]);
        assert_eq!(runs("make check.ts"), ["check.ts"]);
    }

    /// Helper 77's tune half of a fresh set (BurntSushi/jiff c7d5e618b5c6): `cargo
    /// test` beside a root script named `test` read the subcommand as that file, so
    /// the script gaining a test run was `verify-file-changed`, high. A runner's
    /// own subcommand is no file it runs; the script named as a path, given to a
    /// shell, or to bun (which runs a file it is given), still is.
    #[test]
    fn a_runner_s_subcommand_is_not_the_root_file_it_spells() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(
            root.join("test"),
            "#!/bin/sh
cargo test --all
",
        )
        .unwrap();
        fs::write(
            root.join("check.rs"),
            "fn main() {}
",
        )
        .unwrap();
        fs::write(root.join("check.ts"), "x\n").unwrap();
        let runs = |line: &str| verify_runs(root, &verify(line));
        for line in [
            "cargo test",
            "cargo test --all",
            "go test ./...",
            "bun test",
            "npm test",
        ] {
            assert!(runs(line).is_empty(), "{line}: {:?}", runs(line));
        }
        for line in ["./test", "sh test", "bash ./test", "cargo test && ./test"] {
            assert_eq!(runs(line), ["test"], "{line}");
        }
        assert_eq!(runs("bun check.ts"), ["check.ts"]);
        assert_eq!(runs("cargo check.rs"), ["check.rs"]);
        assert_eq!(runs("make test"), ["test"]);
        // Helper 79's attack: `pnpm verify` and `yarn check` run package.json's
        // script of that name, which runs the root script: read as the subcommand,
        // the script was gutted and the gate, red-first and sign-off passed.
        for (name, line) in [("verify", "pnpm verify"), ("check", "yarn check")] {
            fs::write(root.join(name), "#!/bin/sh\npython3 -c 'import calc'\n").unwrap();
            assert_eq!(runs(line), [name], "{line}");
        }
    }

    /// Red team (stop79-red2): `grunt test`, `just test`, `rake test` read their
    /// tasks from a file of the repository, as `make test` reads the Makefile;
    /// none was a file the verify rests on, so a task gutted there (`test:
    /// true`) was no `verify-file-changed`. Since task names stopped naming the
    /// `test/` folder, such a verify rested on nothing.
    #[test]
    fn a_task_runners_own_file_is_one_the_verify_rests_on() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for name in [
            "Gruntfile.js",
            "justfile",
            "Rakefile",
            "tasks.py",
            "Taskfile.yml",
        ] {
            fs::write(root.join(name), "x\n").unwrap();
        }
        fs::write(root.join("gulpfile.mjs"), "x\n").unwrap();
        fs::write(root.join("GNUmakefile"), "x\n").unwrap();
        let runs = |line: &str| verify_runs(root, &verify(line));
        assert_eq!(runs("grunt test"), ["Gruntfile.js"]);
        assert_eq!(runs("npx grunt test"), ["Gruntfile.js"]);
        assert_eq!(runs("gulp test"), ["gulpfile.mjs"]);
        assert_eq!(runs("just test"), ["justfile"]);
        assert_eq!(runs("rake test"), ["Rakefile"]);
        assert_eq!(runs("task test"), ["Taskfile.yml"]);
        assert_eq!(runs("invoke test"), ["tasks.py"]);
        assert_eq!(runs("gmake test"), ["GNUmakefile"]);
        assert_eq!(runs("/usr/bin/make test"), ["GNUmakefile"]);
    }

    #[test]
    fn a_folder_a_script_enters_is_where_it_runs_not_what_it_rests_on() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("pkg/src")).unwrap();
        fs::create_dir_all(root.join("pkg/scripts")).unwrap();
        let scripts = r#"{"scripts": {"test": "cd pkg && jest && ./scripts/check.sh"}}"#;
        fs::write(root.join("package.json"), scripts).unwrap();
        fs::write(root.join("pkg/package.json"), "{}").unwrap();
        fs::write(root.join("pkg/jest.config.js"), "module.exports = {}\n").unwrap();
        fs::write(root.join("pkg/src/types.ts"), "export type T = {}\n").unwrap();
        fs::write(root.join("pkg/scripts/check.sh"), "#!/bin/sh\nexit 0\n").unwrap();
        let runs = sorted(verify_runs(root, &verify("npm test")));
        // The code under test is the work; what runs it, and what it runs, is not.
        assert!(!runs.contains(&"pkg/src/types.ts".to_string()), "{runs:?}");
        for rests in [
            "pkg/jest.config.js",
            "pkg/package.json",
            "pkg/scripts/check.sh",
        ] {
            assert!(runs.contains(&rests.to_string()), "{rests} in {runs:?}");
        }
        // Its helpers outside the code's folders are what the run rests on.
        fs::create_dir_all(root.join("pkg/test-utils")).unwrap();
        fs::write(root.join("pkg/test-utils/matchers.js"), "x\n").unwrap();
        let runs = verify_runs(root, &verify("npm test"));
        assert!(
            runs.contains(&"pkg/test-utils/matchers.js".to_string()),
            "{runs:?}"
        );
        // A tests' folder entered is still every helper in it.
        fs::create_dir_all(root.join("tests/util")).unwrap();
        fs::write(root.join("tests/util/eq.js"), "module.exports = 1\n").unwrap();
        let scripts = r#"{"scripts": {"test": "cd tests && mocha"}}"#;
        fs::write(root.join("package.json"), scripts).unwrap();
        assert_eq!(verify_runs(root, &verify("npm test")), ["tests/util/eq.js"]);
    }

    // False alarm (axios 6b9b05b9, fresh TS tuning half): `npm test` runs grunt,
    // whose Gruntfile names webpack's config, whose entry `./index.js` requires
    // `./lib/axios.js`, which requires the rest of `lib/`: every change to the
    // library was a change of "the check". The code a runner's files name in its
    // code folders is the work under test, as an entered folder's is; a script
    // a runner's file runs by name from there (`node lib/selfcheck.js`) is still
    // what the check runs, and so is one the verify line names.
    #[test]
    fn the_code_a_runners_files_name_is_the_work_not_the_check() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("lib/core")).unwrap();
        let scripts = r#"{"scripts": {"test": "grunt test"}}"#;
        fs::write(root.join("package.json"), scripts).unwrap();
        fs::write(
            root.join("Gruntfile.js"),
            "var config = require('./webpack.config.js');\nmodule.exports = function (grunt) {};\n",
        )
        .unwrap();
        fs::write(
            root.join("webpack.config.js"),
            "module.exports = { entry: './lib/axios.js' };\n",
        )
        .unwrap();
        fs::write(
            root.join("lib/axios.js"),
            "var utils = require('./utils.js');\nvar Axios = require('./core/Axios.js');\n",
        )
        .unwrap();
        fs::write(root.join("lib/utils.js"), "module.exports = {};\n").unwrap();
        fs::write(root.join("lib/core/Axios.js"), "module.exports = {};\n").unwrap();
        let runs = sorted(verify_runs(root, &verify("npm test")));
        for code in ["lib/axios.js", "lib/utils.js", "lib/core/Axios.js"] {
            assert!(!runs.contains(&code.to_string()), "{code} in {runs:?}");
        }
        assert!(runs.contains(&"webpack.config.js".to_string()), "{runs:?}");
        // What the runner's file runs by name, and what the verify line names, stay.
        fs::write(root.join("lib/selfcheck.js"), "process.exit(0);\n").unwrap();
        fs::write(root.join("Makefile"), "check:\n\tnode lib/selfcheck.js\n").unwrap();
        let runs = verify_runs(root, &verify("make check"));
        assert!(runs.contains(&"lib/selfcheck.js".to_string()), "{runs:?}");
        let runs = verify_runs(root, &verify("node lib/utils.js"));
        assert!(runs.contains(&"lib/utils.js".to_string()), "{runs:?}");
    }

    // Attack (stop 80's own review): the walk of an entered folder stopped at the
    // closure's cap of files found, code files included, and only then left the
    // code out: a package with 300 source files filled the cap before its
    // `test-utils` was reached, so a gutted matcher there was no file the run
    // rested on.
    #[test]
    fn an_entered_folder_s_code_does_not_crowd_its_helpers_out() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("pkg/src")).unwrap();
        fs::create_dir_all(root.join("pkg/test-utils")).unwrap();
        for n in 0..300 {
            fs::write(root.join(format!("pkg/src/m{n:03}.ts")), "export {}\n").unwrap();
        }
        fs::write(root.join("pkg/test-utils/matchers.js"), "x\n").unwrap();
        let scripts = r#"{"scripts": {"test": "cd pkg && jest"}}"#;
        fs::write(root.join("package.json"), scripts).unwrap();
        let runs = verify_runs(root, &verify("npm test"));
        assert!(
            runs.contains(&"pkg/test-utils/matchers.js".to_string()),
            "{runs:?}"
        );
    }

    fn sorted(mut v: Vec<String>) -> Vec<String> {
        v.sort();
        v
    }

    #[test]
    fn a_script_is_followed_through_programs_not_messages() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for name in [
            "solution.py",
            "helper.sh",
            "noted.sh",
            "run.py",
            "gen.sh",
            "piped.py",
        ] {
            fs::write(root.join(name), "x\n").unwrap();
        }
        let check = "# noted.sh is old\nimport subprocess, sys\nsys.exit(\"write solution.py first\")\nsys.exit(\"solution.py printed nothing\")\nprint(f\"solution.py: {out}\")\nassert out, \"solution.py gave nothing\"\nsubprocess.run(\"python3 run.py --fast\", shell=True)\nsubprocess.run(['sh', 'helper.sh'])\nos.system(\"echo $(./gen.sh) done\")\n";
        fs::write(root.join("check.py"), check).unwrap();
        // What echo prints into a shell is run, not said.
        fs::write(root.join("helper.sh"), "echo \"python3 piped.py\" | sh\n").unwrap();
        let line = verify("python3 check.py");
        assert_eq!(
            verify_runs(root, &line),
            ["check.py", "run.py", "helper.sh", "gen.sh", "piped.py"]
        );
        let all = verify_closure(root, &line);
        assert!(all.contains(&"solution.py".to_string()), "{all:?}");
        assert!(all.contains(&"noted.sh".to_string()), "{all:?}");
    }

    #[test]
    fn a_symlink_out_of_the_repository_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("secret"), "s").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.path().join("link")).unwrap();
        assert!(gather(dir.path(), Some(&verify("cat link")), &[]).is_empty());
    }

    #[test]
    fn sizes_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let big = "x".repeat(FILE_BYTES * 2);
        let names: Vec<String> = (0..7).map(|i| format!("f{i}")).collect();
        for name in &names {
            fs::write(root.join(name), &big).unwrap();
        }
        fs::write(root.join("bin"), b"a\0b").unwrap();
        let mut paths = names.clone();
        paths.insert(0, "bin".into());
        let files = gather(root, None, &paths);
        assert_eq!(
            files[0].body,
            FileBody::NotShown {
                why: "binary, 3 bytes".into()
            }
        );
        let mut shown = 0;
        for file in &files[1..6] {
            let FileBody::Text { text, size } = &file.body else {
                panic!("{file:?}")
            };
            assert_eq!((text.len(), *size as usize), (FILE_BYTES, big.len()));
            shown += text.len();
        }
        assert_eq!(shown, TOTAL_BYTES);
        assert!(
            matches!(&files[6].body, FileBody::NotShown { why } if why.contains("budget")),
            "{:?}",
            files[6]
        );
        fs::create_dir(root.join("many")).unwrap();
        for i in 0..DIR_ENTRIES + 5 {
            fs::write(root.join(format!("many/{i:04}")), "").unwrap();
        }
        let files = gather(root, None, &["many/".into()]);
        let FileBody::Listing { entries, total } = &files[0].body else {
            panic!()
        };
        assert_eq!((entries.len(), *total), (DIR_ENTRIES, DIR_ENTRIES + 5));
    }

    // Review 111 (hole): a check script kept in `lib/` and run by a Makefile's
    // recipe in spellings `run_by_name` does not read as running it: make's
    // `@` (echo off), a variable for the interpreter, a versioned one, a
    // runner (`uv run`), an option with a value before the script (`node -r
    // X`). Each left the closure today, so the script's change is no
    // `verify-file-changed`.
    #[test]
    fn review111_a_check_in_lib_a_recipe_runs_stays_the_checks() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("lib")).unwrap();
        fs::write(root.join("lib/selfcheck.py"), "import sys\nsys.exit(0)\n").unwrap();
        fs::write(root.join("lib/selfcheck.js"), "process.exit(0);\n").unwrap();
        fs::write(root.join("lib/env.js"), "process.env.CI = '1';\n").unwrap();
        let mut missed = Vec::new();
        for (recipe, script) in [
            ("node lib/selfcheck.js", "lib/selfcheck.js"),
            ("python lib/selfcheck.py", "lib/selfcheck.py"),
            ("@python lib/selfcheck.py", "lib/selfcheck.py"),
            ("@node lib/selfcheck.js", "lib/selfcheck.js"),
            ("$(PYTHON) lib/selfcheck.py", "lib/selfcheck.py"),
            ("python3.12 lib/selfcheck.py", "lib/selfcheck.py"),
            ("uv run lib/selfcheck.py", "lib/selfcheck.py"),
            ("node -r ./lib/env.js lib/selfcheck.js", "lib/selfcheck.js"),
        ] {
            fs::write(root.join("Makefile"), format!("check:\n\t{recipe}\n")).unwrap();
            let runs = verify_runs(root, &verify("make check"));
            if !runs.contains(&script.to_string()) {
                missed.push(recipe);
            }
        }
        assert!(missed.is_empty(), "{missed:?}");
    }

    // Review 111 (false alarm, older): an entry listed alone on its line (a
    // webpack `entry: [` array) reads as a line running it by name, so the
    // library's code is still "the check".
    #[test]
    fn review111_an_entry_alone_on_its_line_is_the_work() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("lib")).unwrap();
        fs::write(
            root.join("package.json"),
            r#"{"scripts": {"test": "grunt test"}}"#,
        )
        .unwrap();
        fs::write(
            root.join("Gruntfile.js"),
            "var config = require('./webpack.config.js');\nmodule.exports = function (grunt) {};\n",
        )
        .unwrap();
        fs::write(
            root.join("webpack.config.js"),
            "module.exports = {\n  entry: [\n    './lib/axios.js'\n  ]\n};\n",
        )
        .unwrap();
        fs::write(root.join("lib/axios.js"), "module.exports = {};\n").unwrap();
        let runs = verify_runs(root, &verify("npm test"));
        assert!(!runs.contains(&"lib/axios.js".to_string()), "{runs:?}");
    }

    // Review 111 (hole): a check script in `lib/` that a runner's JavaScript
    // file runs by name, written as JavaScript writes it: a grunt-shell
    // command with a trailing comma, `execSync('node …')`, an argument list
    // (`spawnSync('node', ['lib/…'])`). `run_by_name` reads none as run.
    #[test]
    fn review111_a_check_in_lib_a_runners_js_runs_stays_the_checks() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("lib")).unwrap();
        fs::write(root.join("lib/selfcheck.js"), "process.exit(0);\n").unwrap();
        let scripts = r#"{"scripts": {"test": "grunt test"}}"#;
        fs::write(root.join("package.json"), scripts).unwrap();
        let mut missed = Vec::new();
        for line in [
            "  shell: { check: { command: 'node lib/selfcheck.js' } }",
            "  shell: { check: { command: 'node lib/selfcheck.js', stdout: true } }",
            "  execSync('node lib/selfcheck.js');",
            "  spawnSync('node', ['lib/selfcheck.js']);",
        ] {
            let grunt = format!("module.exports = function (grunt) {{\n{line}\n}};\n");
            fs::write(root.join("Gruntfile.js"), grunt).unwrap();
            let runs = verify_runs(root, &verify("npm test"));
            if !runs.contains(&"lib/selfcheck.js".to_string()) {
                missed.push(line);
            }
        }
        assert!(missed.is_empty(), "{missed:?}");
    }
}

#[cfg(test)]
#[path = "files_product_tests.rs"]
mod product_tests;
