//! The `Test` builder: a temp git repository, a hermetic environment, and the real
//! binary run in it. `t.ok(args)` / `t.run(args)` check what a test names; `t.case(args)`
//! checks everything exactly (status 0, empty stdout and stderr unless set), with
//! stdin. `t.judge(NAME)` signs off with a fixture judge; `t.fake_program` puts a
//! script on a PATH of its own.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_plan");
pub const NOW: &str = "2026-06-15T14:02";

/// The system's programs for a test's PATH: the machine's PATH with every folder
/// that holds a `plan` left out (`~/.cargo/bin` after `cargo install`, which rustup's
/// cargo puts back in front), so a test runs the binary under test or none, never an
/// installed one. `.ci/run` puts a stand-in `plan` first on PATH to hold this.
pub fn system_path() -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|dir| !dir.join("plan").exists())
        .collect();
    std::env::join_paths(kept)
        .expect("PATH's folders joined again")
        .into_string()
        .expect("PATH is UTF-8")
}

pub struct Test {
    pub dir: tempfile::TempDir,
    /// Where commands run (the repository root unless `cwd` changed it).
    pub cwd: PathBuf,
    env: Vec<(String, String)>,
}

impl Test {
    /// A fresh git repository with no plan.md.
    pub fn new() -> Test {
        let dir = tempfile::Builder::new()
            .prefix("plan-test-")
            .tempdir()
            .unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        let test = Test {
            cwd: root.clone(),
            dir,
            env: Vec::new(),
        };
        test.git(&["init", "-q", "-b", "main"]);
        test
    }

    /// A directory that is not inside any repository.
    pub fn outside_git() -> Test {
        let dir = tempfile::Builder::new()
            .prefix("plan-test-")
            .tempdir()
            .unwrap();
        let root = dir.path().join("plain");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        Test {
            cwd: root,
            dir,
            env: Vec::new(),
        }
    }

    pub fn root(&self) -> PathBuf {
        self.dir.path().join("repo")
    }

    pub fn plan(self, md: &str) -> Test {
        self.write("plan.md", md);
        self
    }

    pub fn env(mut self, key: &str, value: &str) -> Test {
        self.env.push((key.to_string(), value.to_string()));
        self
    }

    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) {
        let path = self.root().join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(path, content).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root().join(rel)).unwrap()
    }

    pub fn plan_md(&self) -> String {
        self.read("plan.md")
    }

    /// The hermetic base environment every process gets.
    fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .env("PATH", system_path())
            .env("HOME", self.dir.path().join("home"))
            // A copy a judge wrote in is kept for inspection: in the test's directory.
            .env("TMPDIR", self.dir.path())
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Test")
            .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
            .env("GIT_COMMITTER_NAME", "Test")
            .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
            .env("TZ", "UTC")
            .env("PLAN_NOW", NOW)
            .current_dir(&self.cwd)
            .stdin(Stdio::null());
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd
    }

    pub fn git(&self, args: &[&str]) -> String {
        let out = self.command("git").args(args).output().unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    pub fn commit_all(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }

    /// The plan binary with `args`, as a builder for more settings.
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut cmd = self.command(BIN);
        cmd.args(args);
        cmd
    }

    /// Spawns `cmd` (plan, a debug build) to stop where its store stops for tests
    /// (`PLAN_TEST_PAUSE`, after its command's first read), and returns once it has
    /// stopped there. Removing the returned gate file lets it go on.
    pub fn spawn_paused(&self, mut cmd: Command) -> (std::process::Child, PathBuf) {
        let gate = self.dir.path().join("gate");
        let reached = self.dir.path().join("gate.reached");
        let _ = std::fs::remove_file(&reached);
        std::fs::write(&gate, "").unwrap();
        let child = cmd
            .env("PLAN_TEST_PAUSE", &gate)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while !reached.exists() {
            assert!(std::time::Instant::now() < deadline, "{cmd:?} never paused");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        (child, gate)
    }

    pub fn run(&self, args: &[&str]) -> Run {
        Run::from(self.cmd(args).output().unwrap(), args)
    }

    /// Runs and expects exit code 0.
    pub fn ok(&self, args: &[&str]) -> Run {
        self.run(args).code(0)
    }

    /// The Claude Code stop hook for `session` (fixtures/hosts/claude/stop.json);
    /// a hook always exits 0.
    pub fn stop_hook(&self, session: &str) -> Run {
        let payload = fixture("hosts/claude/stop.json")
            .replace("CWD", self.root().to_str().unwrap())
            .replace("SESSION", session);
        self.case(&["hook", "claude", "stop"])
            .stdin(&payload)
            .check_status_only()
    }

    /// Runs `plan ARGS` on a pseudo-terminal (through `script`), with or without
    /// `NO_COLOR`, and returns what it printed.
    pub fn on_tty(&self, args: &str, no_color: bool) -> String {
        let program = format!("{BIN} {args}");
        let mut cmd = Command::new("script");
        cmd.args(["-qec", &program, "/dev/null"])
            .current_dir(&self.cwd)
            .env("PLAN_NOW", NOW)
            .env_remove("NO_COLOR");
        if no_color {
            cmd.env("NO_COLOR", "1");
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    /// Sign-offs are judged by `fixtures/judges/NAME` through the command backend.
    pub fn judge(&self, name: &str) -> &Test {
        self.judge_with(name, 10)
    }

    pub fn judge_with(&self, name: &str, timeout_secs: u64) -> &Test {
        let judge = fixture_path(&format!("judges/{name}"));
        self.write(
            ".plan/config.yaml",
            format!(
                "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: {timeout_secs}\n",
                judge.display()
            ),
        );
        self
    }

    /// The directory of the test's own programs, put in front of PATH by
    /// [`Test::with_bin`] (or alone on it by [`Test::only_bin`]).
    pub fn bin(&self) -> PathBuf {
        let bin = self.dir.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        bin
    }

    /// PATH: the test's programs, then the system's.
    pub fn with_bin(self) -> Test {
        let path = format!("{}:{}", self.bin().display(), system_path());
        self.env("PATH", &path)
    }

    /// PATH: the test's programs and nothing else.
    pub fn only_bin(self) -> Test {
        let bin = self.bin().display().to_string();
        self.env("PATH", &bin)
    }

    /// An executable `NAME` in the test's programs, running `script` with sh.
    pub fn fake_program(&self, name: &str, script: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = self.bin().join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{script}")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// `plan ARGS`, checked exactly: see [`Case`].
    pub fn case<'t>(&'t self, args: &[&str]) -> Case<'t> {
        Case {
            test: self,
            args: args.iter().map(|a| a.to_string()).collect(),
            stdin: None,
            status: 0,
            stdout: Some(String::new()),
            stderr: Some(String::new()),
        }
    }
}

/// One run of `plan`, in the style of just's test builder: status, stdout and
/// stderr are all checked, exactly, and default to 0, "" and "". `any_stdout`
/// waives that check, for output a test reads itself.
pub struct Case<'t> {
    test: &'t Test,
    args: Vec<String>,
    stdin: Option<String>,
    status: i32,
    stdout: Option<String>,
    stderr: Option<String>,
}

impl Case<'_> {
    pub fn stdin(mut self, text: &str) -> Self {
        self.stdin = Some(text.to_string());
        self
    }

    pub fn status(mut self, code: i32) -> Self {
        self.status = code;
        self
    }

    pub fn stdout(mut self, text: &str) -> Self {
        self.stdout = Some(text.to_string());
        self
    }

    pub fn stderr(mut self, text: &str) -> Self {
        self.stderr = Some(text.to_string());
        self
    }

    pub fn any_stdout(mut self) -> Self {
        self.stdout = None;
        self
    }

    /// Runs it and checks only the status; returns what it printed.
    #[track_caller]
    pub fn check_status_only(mut self) -> Run {
        self.stdout = None;
        self.stderr = None;
        self.check()
    }

    /// Runs it and checks everything set; returns what it printed.
    #[track_caller]
    pub fn check(self) -> Run {
        use std::io::Write as _;
        let args: Vec<&str> = self.args.iter().map(String::as_str).collect();
        let mut cmd = self.test.cmd(&args);
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        if self.stdin.is_some() {
            cmd.stdin(Stdio::piped());
        }
        let mut child = cmd.spawn().unwrap();
        if let Some(text) = &self.stdin {
            // A program may answer before reading everything; the write then fails.
            let _ = child.stdin.take().unwrap().write_all(text.as_bytes());
        }
        let run = Run::from(child.wait_with_output().unwrap(), &args);
        let run = run.code(self.status);
        if let Some(want) = &self.stdout {
            assert_eq!(
                &run.stdout, want,
                "plan {args:?}: stdout\n--- stderr\n{}",
                run.stderr
            );
        }
        if let Some(want) = &self.stderr {
            assert_eq!(
                &run.stderr, want,
                "plan {args:?}: stderr\n--- stdout\n{}",
                run.stdout
            );
        }
        run
    }
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    args: Vec<String>,
}

impl Run {
    pub fn from(out: Output, args: &[&str]) -> Run {
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            args: args.iter().map(|a| a.to_string()).collect(),
        }
    }

    #[track_caller]
    pub fn code(self, code: i32) -> Run {
        assert_eq!(
            self.code, code,
            "plan {:?} exited {}\n--- stdout\n{}--- stderr\n{}",
            self.args, self.code, self.stdout, self.stderr
        );
        self
    }

    #[track_caller]
    pub fn stdout_has(self, needle: &str) -> Run {
        assert!(
            self.stdout.contains(needle),
            "stdout lacks {needle:?}:\n{}",
            self.stdout
        );
        self
    }

    #[track_caller]
    pub fn stderr_has(self, needle: &str) -> Run {
        assert!(
            self.stderr.contains(needle),
            "stderr lacks {needle:?}:\n{}",
            self.stderr
        );
        self
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", self.stdout))
    }

    /// A hook's JSON answer; null when it printed none.
    pub fn answer(&self) -> serde_json::Value {
        if self.stdout.trim().is_empty() {
            serde_json::Value::Null
        } else {
            self.json()
        }
    }
}

/// `plan ARGS` with its data segment (heap and private writable mappings) capped
/// at `bytes` by the shell's `ulimit -d` (`unsafe` is forbidden here, so no
/// setrlimit in a pre_exec): past it an allocation fails and the process aborts.
pub fn capped(t: &Test, args: &[&str], bytes: u64) -> Run {
    limited(t, args, "-d", bytes)
}

/// `plan args` run under `ulimit LIMIT` of `bytes` (`-d` its data, `-s` its main
/// thread's stack).
pub fn limited(t: &Test, args: &[&str], limit: &str, bytes: u64) -> Run {
    let plan = t.cmd(args);
    let mut cmd = Command::new("sh");
    cmd.env_clear()
        .args(["-c", &format!(r#"ulimit {limit} "$0" && exec "$@""#)])
        .arg((bytes / 1024).to_string())
        .arg(plan.get_program())
        .args(plan.get_args())
        .stdin(Stdio::null());
    for (key, value) in plan.get_envs() {
        if let Some(value) = value {
            cmd.env(key, value);
        }
    }
    if let Some(dir) = plan.get_current_dir() {
        cmd.current_dir(dir);
    }
    Run::from(cmd.output().unwrap(), args)
}

pub fn fixture(rel: &str) -> String {
    std::fs::read_to_string(fixture_path(rel)).unwrap()
}

pub fn fixture_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

/// The hosts plan registers with, as the registry names them: `plan install
/// --help`'s possible values (AGENTS.md, which is no host, left out). Tests that
/// would otherwise spell the list take it from here, so a new host touches none.
pub fn hosts() -> Vec<String> {
    let help = Test::new().ok(&["install", "--help"]).stdout;
    let values = help
        .split_once("Possible values:")
        .expect("`plan install --help` lists its possible values")
        .1;
    let hosts: Vec<String> = values
        .lines()
        .skip(1)
        .map_while(|l| l.trim().strip_prefix("- "))
        .filter_map(|l| Some(l.split_once(':')?.0.to_string()))
        .filter(|name| name != "agents-md" && name != "git" && name != "ci")
        .collect();
    assert!(hosts.len() >= 2, "{help}");
    hosts
}

/// `text` with each run of host names that is exactly the hosts (each once, in any
/// order, joined by `, `, ` or ` or ` and `) written `HOSTS`, so a snapshot shows
/// the text around the list without spelling it.
pub fn redact_hosts(text: &str) -> String {
    let hosts = hosts();
    let word_at = |s: &str| -> usize {
        s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(s.len())
    };
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let starts_word = out
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-'));
        let mut seen: Vec<&str> = Vec::new();
        let mut end = 0;
        if starts_word {
            let mut at = 0;
            loop {
                let word = &rest[at..at + word_at(&rest[at..])];
                if !hosts.iter().any(|h| h == word) || seen.contains(&word) {
                    break;
                }
                seen.push(word);
                end = at + word.len();
                let Some(sep) = [", ", " or ", " and "]
                    .into_iter()
                    .find(|sep| rest[end..].starts_with(sep))
                else {
                    break;
                };
                at = end + sep.len();
            }
        }
        if seen.len() == hosts.len() {
            out.push_str("HOSTS");
            rest = &rest[end..];
        } else {
            let step = rest.chars().next().unwrap().len_utf8();
            out.push_str(&rest[..step]);
            rest = &rest[step..];
        }
    }
    out
}

#[test]
fn redact_hosts_takes_only_the_whole_list() {
    let hosts = hosts();
    let (last, rest) = hosts.split_last().unwrap();
    let all = format!("{} or {last}", rest.join(", "));
    assert_eq!(
        redact_hosts(&format!("(knows {all}); x")),
        "(knows HOSTS); x"
    );
    let short = rest.join(", ");
    assert_eq!(
        redact_hosts(&format!("knows {short}")),
        format!("knows {short}")
    );
    let glued = format!("x{}", hosts.join(", "));
    assert_eq!(redact_hosts(&glued), glued);
}

/// Exit code, stdout and stderr of one run as a snapshot shows them: the test's
/// temporary directory written `[TMP]`, the binary `[BIN]`, this checkout (where
/// fixtures live) `[CRATE]`,
/// and each commit id of the repository (whole, or cut to 7 or more digits) written
/// `[COMMIT]`, since git stamps commits with the clock.
pub fn shown(t: &Test, run: &Run) -> String {
    format!(
        "exit {}\n--- stdout\n{}--- stderr\n{}",
        run.code,
        redact(t, &run.stdout),
        redact(t, &run.stderr)
    )
}

/// [`shown`], with each `(text, name)` pair's text written as its name first, so a
/// snapshot still says which commit, checkpoint or file a line names.
pub fn shown_with(t: &Test, run: &Run, names: &[(&str, &str)]) -> String {
    let named = Run {
        code: run.code,
        stdout: named(&run.stdout, names),
        stderr: named(&run.stderr, names),
        args: run.args.clone(),
    };
    shown(t, &named)
}

/// [`redact`] after naming what the test knows (`[CHECKPOINT a]` for a commit), so a
/// snapshot says which commit it shows, where `[COMMIT]` would match any.
pub fn redact_with(t: &Test, text: &str, names: &[(&str, &str)]) -> String {
    redact(t, &named(text, names))
}

fn named(text: &str, names: &[(&str, &str)]) -> String {
    names
        .iter()
        .fold(text.to_string(), |text, (from, to)| text.replace(from, to))
}

/// `text` redacted as [`shown`] does, for a snapshot of one stream or of a part.
pub fn redact(t: &Test, text: &str) -> String {
    // The binary first: its target directory need not be under the checkout.
    let text = text
        .replace(&tmp_of(t), "[TMP]")
        // Where judges' copies are made: a private directory of the user's cache.
        .replace("[TMP]/home/.cache/plan/judges", "[JUDGES]")
        .replace(BIN, "[BIN]")
        .replace(env!("CARGO_MANIFEST_DIR"), "[CRATE]");
    redact_random(&redact_commits(
        t,
        &redact_other_tests(&redact_judge_time(&text)),
    ))
}

/// The seconds CI's judge took, in the gate's summary (`CI's judge: 1 call, 0 s.`),
/// written `[SECS]`: a loaded machine takes longer.
fn redact_judge_time(text: &str) -> String {
    text.lines()
        .map(|line| match line.strip_prefix("CI's judge: ") {
            Some(rest) => match rest.rsplit_once(", ") {
                Some((calls, _)) => format!("CI's judge: {calls}, [SECS] s."),
                None => line.to_string(),
            },
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + if text.ends_with('\n') { "\n" } else { "" }
}

/// `text` with what changes from run to run written as a name: a word of 12 hex
/// digits (a record's hash, a commit of another clone) `[HASH]`, and the random part
/// of a judge's temporary copy `plan-judge-[RANDOM]` or tree `plan-judged-[RANDOM]`.
fn redact_random(text: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let hex = word.len() == 12 && word.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f'));
        out.push_str(if hex { "[HASH]" } else { word });
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    // A commit of another clone written whole with its redacted abbreviation after it
    // (`Against base <id> ([HASH])`): the same commit, so the same name.
    let mut text = String::new();
    let mut rest = out.as_str();
    while let Some(at) = rest.find(" ([HASH])") {
        let before = &rest[..at];
        let id = before.len()
            - before
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_hexdigit())
                .count();
        if before.len() - id == 40 {
            text.push_str(&before[..id]);
            text.push_str("[HASH]");
        } else {
            text.push_str(before);
        }
        text.push_str(" ([HASH])");
        rest = &rest[at + " ([HASH])".len()..];
    }
    text.push_str(rest);
    // A judge's temporary copy, and the sign-off judge's tree beside its empty
    // starting directory (`/plan-judged-XXXXXX/tree`): a directory of six random
    // characters, so `plan-judge-model.1` keeps its name.
    for prefix in ["/plan-judge-", "/plan-judged-"] {
        let mut at = 0;
        while let Some(found) = text[at..].find(prefix) {
            let start = at + found + prefix.len();
            let len = text[start..]
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(text.len() - start);
            let directory = text[start + len..].chars().next().is_none_or(|c| c == '/');
            if len == 6 && directory {
                text.replace_range(start..start + len, "[RANDOM]");
            }
            at = start;
        }
    }
    text
}

/// `text` with the temporary directory of any other [`Test`] (a clone, a second
/// repository) written `[OTHER]`: its random name changes from run to run.
fn redact_other_tests(text: &str) -> String {
    let base = std::env::temp_dir().join("plan-test-");
    let base = base.to_str().unwrap();
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(base) {
        out.push_str(&rest[..at]);
        out.push_str("[OTHER]");
        let after = &rest[at + base.len()..];
        let name = after
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(after.len());
        rest = &after[name..];
    }
    out.push_str(rest);
    out
}

fn tmp_of(t: &Test) -> String {
    t.dir.path().to_str().unwrap().to_string()
}

/// `text` with the commit ids of `t`'s repository written `[COMMIT]`.
pub fn redact_commits(t: &Test, text: &str) -> String {
    // git from the system's PATH: a test may have given plan a PATH without it.
    let Ok(out) = t
        .command("git")
        .env("PATH", system_path())
        .args(["rev-list", "--all", "--reflog"])
        .output()
    else {
        return text.to_string();
    };
    let mut text = text.to_string();
    for sha in String::from_utf8_lossy(&out.stdout).lines() {
        for len in (7..=sha.len()).rev() {
            if text.contains(&sha[..len]) {
                text = text.replace(&sha[..len], "[COMMIT]");
            }
        }
    }
    text
}
