//! scripts/dist's release artifacts: the archive and its checksum, and the npm
//! packages, which install offline from the tarballs alone and run `plan` through the
//! launcher with its arguments and exit status.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sha2::Digest;

use crate::util::BIN;

const VERSION: &str = env!("CARGO_PKG_VERSION");

pub(crate) fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn ok(out: Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn has(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok()
}

/// The host's Rust target, as scripts/dist names the archive.
pub(crate) fn host_target() -> String {
    let out = ok(
        Command::new("rustc").arg("-vV").output().unwrap(),
        "rustc -vV",
    );
    out.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .unwrap()
        .to_string()
}

fn npm_arch() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => panic!("no npm cpu for {other}"),
    }
}

/// The debug binary without its debug info, so packing it takes seconds, not
/// minutes; the binary as built where `strip` is missing.
pub(crate) fn small_binary(dir: &Path) -> PathBuf {
    let stripped = dir.join("plan");
    let done = Command::new("strip")
        .arg("-o")
        .arg(&stripped)
        .arg(BIN)
        .status()
        .is_ok_and(|s| s.success());
    if done { stripped } else { PathBuf::from(BIN) }
}

struct Dist {
    _dir: tempfile::TempDir,
    work: PathBuf,
    out: PathBuf,
    target: String,
}

fn dist() -> Dist {
    let dir = tempfile::Builder::new()
        .prefix("plan-dist-")
        .tempdir()
        .unwrap();
    let work = dir.path().to_path_buf();
    let out = work.join("dist");
    // An older release's package, left from a previous run: it must go.
    std::fs::create_dir_all(out.join("npm")).unwrap();
    std::fs::write(out.join("npm/plan-cli-plan-0.0.1.tgz"), "stale").unwrap();
    let binary = small_binary(&work);
    let target = host_target();
    ok(
        Command::new(root().join("scripts/dist"))
            .arg("--binary")
            .arg(&binary)
            .arg("--out")
            .arg(&out)
            .env("TMPDIR", &work)
            .output()
            .unwrap(),
        "scripts/dist",
    );
    Dist {
        _dir: dir,
        work,
        out,
        target,
    }
}

/// `package/package.json` of an npm tarball.
fn package_json(tgz: &Path) -> serde_json::Value {
    let out = Command::new("tar")
        .arg("-xzOf")
        .arg(tgz)
        .arg("package/package.json")
        .output()
        .unwrap();
    serde_json::from_str(&ok(out, "tar -xzOf")).unwrap()
}

fn list(archive: &Path) -> Vec<String> {
    let out = Command::new("tar")
        .arg("-tzf")
        .arg(archive)
        .output()
        .unwrap();
    let mut names: Vec<String> = ok(out, "tar -tzf").lines().map(String::from).collect();
    names.sort();
    names
}

/// npm with no registry it can reach, an empty cache and no user config.
fn npm(work: &Path, args: &[&str]) -> Command {
    let home = work.join("npm-home");
    std::fs::create_dir_all(&home).unwrap();
    let mut cmd = Command::new("npm");
    cmd.args(args)
        .current_dir(work)
        .env("HOME", &home)
        .env("npm_config_cache", work.join("npm-cache"))
        .env("npm_config_userconfig", home.join(".npmrc"))
        .env("npm_config_registry", "http://127.0.0.1:9/")
        .env("npm_config_update_notifier", "false")
        .env("npm_config_audit", "false")
        .env("npm_config_fund", "false");
    cmd
}

#[test]
fn archive_checksum_and_npm_packages_install_offline() {
    for tool in ["tar", "gzip", "rustc"] {
        assert!(has(tool), "scripts/dist needs {tool}");
    }
    let d = dist();
    let name = format!("plan-{VERSION}-{}", d.target);
    let archive = d.out.join(format!("{name}.tar.gz"));

    assert_eq!(
        list(&archive),
        [
            format!("{name}/"),
            format!("{name}/LICENSE"),
            format!("{name}/LICENSE-APACHE"),
            format!("{name}/LICENSE-MIT"),
            format!("{name}/README.md"),
            format!("{name}/plan"),
        ]
    );

    let sum = std::fs::read_to_string(d.out.join(format!("{name}.tar.gz.sha256"))).unwrap();
    let digest = sha2::Sha256::digest(std::fs::read(&archive).unwrap());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(sum, format!("{hex}  {name}.tar.gz\n"));

    let os = std::env::consts::OS;
    let platform = format!("{os}-{}", npm_arch());
    let main_tgz = d.out.join(format!("npm/plan-cli-plan-{VERSION}.tgz"));
    let plat_tgz = d
        .out
        .join(format!("npm/plan-cli-plan-{platform}-{VERSION}.tgz"));

    let mut packed: Vec<String> = std::fs::read_dir(d.out.join("npm"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    packed.sort();
    assert_eq!(
        packed,
        [
            format!("plan-cli-plan-{VERSION}.tgz"),
            format!("plan-cli-plan-{platform}-{VERSION}.tgz"),
        ]
    );

    let main = package_json(&main_tgz);
    assert_eq!(main["name"], "@plan-cli/plan");
    assert_eq!(main["version"], VERSION);
    assert_eq!(main["bin"]["plan"], "bin/plan.js");
    assert!(main.get("scripts").is_none(), "no install scripts: {main}");
    let optional = main["optionalDependencies"].as_object().unwrap();
    let names: Vec<&str> = optional.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "@plan-cli/plan-linux-x64",
            "@plan-cli/plan-linux-arm64",
            "@plan-cli/plan-darwin-x64",
            "@plan-cli/plan-darwin-arm64",
            "@plan-cli/plan-win32-x64",
        ]
    );
    assert!(optional.values().all(|v| v == VERSION), "{main}");

    let plat = package_json(&plat_tgz);
    assert_eq!(plat["name"], format!("@plan-cli/plan-{platform}"));
    assert_eq!(plat["version"], VERSION);
    assert_eq!(plat["os"], serde_json::json!([os]));
    assert_eq!(plat["cpu"], serde_json::json!([npm_arch()]));
    assert!(
        plat.get("bin").is_none(),
        "the launcher is the command: {plat}"
    );
    assert!(plat.get("scripts").is_none(), "no install scripts: {plat}");
    // plan's Linux binary is static where the build host allows; a dynamic one
    // names its libc so npm installs it only where that libc is.
    if option_env!("PLAN_LINK") == Some("static") {
        assert!(plat.get("libc").is_none(), "{plat}");
    } else if cfg!(all(target_os = "linux", target_env = "gnu")) {
        assert_eq!(plat["libc"], serde_json::json!(["glibc"]));
    }
    assert_eq!(
        list(&plat_tgz),
        [
            "package/",
            "package/LICENSE",
            "package/LICENSE-APACHE",
            "package/LICENSE-MIT",
            "package/bin/",
            "package/bin/plan",
            "package/package.json",
        ]
    );

    if !has("npm") || !has("node") {
        #[expect(clippy::print_stderr, reason = "a skipped check says so")]
        {
            eprintln!("skipped: npm install of dist/npm/*.tgz, as npm or node is not on PATH");
        }
        return;
    }
    let prefix = d.work.join("prefix");
    let prefix_arg = prefix.to_str().unwrap();
    ok(
        npm(
            &d.work,
            &[
                "install",
                "--global",
                "--prefix",
                prefix_arg,
                "--offline",
                main_tgz.to_str().unwrap(),
                plat_tgz.to_str().unwrap(),
            ],
        )
        .output()
        .unwrap(),
        "npm install --offline",
    );
    let plan = prefix.join("bin/plan");
    let version = ok(
        Command::new(&plan).arg("--version").output().unwrap(),
        "plan --version",
    );
    assert_eq!(version, format!("plan {VERSION}\n"));

    // Arguments, stdout, stderr and the exit status pass through the launcher.
    let out = Command::new(&plan)
        .args(["no-such-command", "--x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("'no-such-command'"), "{stderr}");
    let dir = d.work.join("plain");
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(&plan)
        .arg("lint")
        .current_dir(&dir)
        .env("GIT_CEILING_DIRECTORIES", &d.work)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{out:?}");

    // Without its platform package the launcher says which one is missing.
    let bare = d.work.join("bare");
    ok(
        npm(
            &d.work,
            &[
                "install",
                "--global",
                "--prefix",
                bare.to_str().unwrap(),
                "--offline",
                main_tgz.to_str().unwrap(),
            ],
        )
        .output()
        .unwrap(),
        "npm install --offline (main package alone)",
    );
    let out = Command::new(bare.join("bin/plan"))
        .arg("--version")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "plan: @plan-cli/plan-{platform}, the package holding plan's binary for {platform}, is not installed\n  hint: install it with npm install @plan-cli/plan-{platform}@{VERSION}, or reinstall @plan-cli/plan without --omit=optional / --no-optional\n"
        )
    );
}

#[test]
fn dist_refuses_an_unknown_target_and_a_missing_binary() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::new(root().join("scripts/dist"))
            .args(args)
            .arg("--out")
            .arg(dir.path())
            .output()
            .unwrap()
    };
    let out = run(&["--binary", BIN, "--target", "riscv64gc-unknown-linux-gnu"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "dist: no npm platform for target riscv64gc-unknown-linux-gnu\n  hint: add it to scripts/platforms\n"
    );
    let missing = dir.path().join("nothing");
    let out = run(&["--binary", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "dist: no binary at {}\n  hint: build it first, or pass --binary PATH\n",
            missing.display()
        )
    );
}

/// The plugin folder: a marketplace for Claude Code and one for Codex naming
/// `plugins/plan`, which holds both manifests, the shared hooks file, the skill,
/// the launcher and this machine's binary; the launcher runs that binary with its
/// arguments and exit status, and a hook of a plugin without a binary for the
/// machine (and no plan on PATH) fails open.
#[test]
fn the_plugin_folder_carries_plan_for_claude_code_and_codex() {
    let d = dist();
    let plugin = d.out.join("plugin");
    let mut files: Vec<String> = walk(&plugin)
        .into_iter()
        .map(|p| p.strip_prefix(&plugin).unwrap().display().to_string())
        .collect();
    files.sort();
    let platform = format!("{}-{}", std::env::consts::OS, npm_arch());
    assert_eq!(
        files,
        [
            ".agents/plugins/marketplace.json".to_string(),
            ".claude-plugin/marketplace.json".to_string(),
            "plugins/plan/.claude-plugin/plugin.json".to_string(),
            "plugins/plan/.codex-plugin/plugin.json".to_string(),
            format!("plugins/plan/bin/{platform}/plan"),
            "plugins/plan/bin/plan".to_string(),
            "plugins/plan/hooks/hooks.json".to_string(),
            "plugins/plan/skills/plan/SKILL.md".to_string(),
        ]
    );
    let json = |rel: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(plugin.join(rel)).unwrap()).unwrap()
    };
    assert_eq!(
        json(".claude-plugin/marketplace.json")["plugins"][0]["source"],
        "./plugins/plan"
    );
    assert_eq!(
        json(".agents/plugins/marketplace.json")["plugins"][0]["source"]["path"],
        "./plugins/plan"
    );
    for manifest in [".claude-plugin", ".codex-plugin"] {
        let m = json(&format!("plugins/plan/{manifest}/plugin.json"));
        assert_eq!(
            (&m["name"], &m["version"]),
            (&"plan".into(), &VERSION.into())
        );
    }
    assert_eq!(
        std::fs::read_to_string(plugin.join("plugins/plan/skills/plan/SKILL.md")).unwrap(),
        std::fs::read_to_string(root().join(".agents/skills/plan/SKILL.md")).unwrap()
    );

    let launcher = plugin.join("plugins/plan/bin/plan");
    let run = Command::new(&launcher)
        .arg("--version")
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert_eq!(
        ok(run, "the launcher"),
        format!("plan {VERSION}\n"),
        "the plugin's own binary"
    );
    let exit = Command::new(&launcher)
        .args(["show", "--no-such-flag"])
        .env("PATH", "/usr/bin:/bin")
        .status()
        .unwrap();
    assert_eq!(exit.code(), Some(2), "plan's own exit status");

    // Without this machine's binary and with no plan on PATH: a command exits 3
    // saying what to do; a hook exits 0 and the host goes on.
    std::fs::remove_dir_all(plugin.join(format!("plugins/plan/bin/{platform}"))).unwrap();
    let missing = Command::new(&launcher)
        .arg("show")
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(3));
    assert_eq!(
        String::from_utf8_lossy(&missing.stderr),
        format!(
            "plan: this plugin has no plan binary for {platform} and there is none on PATH; install plan (https://github.com/plan-cli/plan#install) or build the plugin for this machine with scripts/dist\n"
        )
    );
    // PATH naming the launcher's own folder (as Claude Code puts it there), spelled
    // another way: the launcher does not run itself.
    let own = format!("{}/plugins/plan/bin/:/usr/bin:/bin", plugin.display());
    let again = Command::new(&launcher)
        .arg("show")
        .env("PATH", &own)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(3), "{again:?}");
    let hook = Command::new(&launcher)
        .args(["hook", "claude", "stop"])
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert_eq!((hook.status.code(), hook.stdout.len()), (Some(0), 0));
    // A plan on PATH is taken instead.
    let elsewhere = d.work.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let binary = small_binary(&elsewhere);
    if binary != elsewhere.join("plan") {
        std::fs::copy(binary, elsewhere.join("plan")).unwrap();
    }
    let path = format!("{}:/usr/bin:/bin", elsewhere.display());
    let found = Command::new(&launcher)
        .arg("--version")
        .env("PATH", &path)
        .output()
        .unwrap();
    assert_eq!(
        ok(found, "the launcher, plan on PATH"),
        format!("plan {VERSION}\n")
    );
}

/// Every file under `dir`, links not followed.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && !path.is_symlink() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
