//! The `Test` builder: a temp git repository, a hermetic environment, and the real
//! binary run in it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_plan");
pub const NOW: &str = "2026-06-15T14:02";

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
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.dir.path().join("home"))
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

    pub fn run(&self, args: &[&str]) -> Run {
        Run::from(self.cmd(args).output().unwrap(), args)
    }

    /// Runs and expects exit code 0.
    pub fn ok(&self, args: &[&str]) -> Run {
        self.run(args).code(0)
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
}

pub fn fixture(rel: &str) -> String {
    std::fs::read_to_string(fixture_path(rel)).unwrap()
}

pub fn fixture_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}
