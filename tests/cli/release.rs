//! A release: .github/workflows/release.yml builds every platform of
//! scripts/platforms, scripts/release-check refuses a release that lacks one before
//! anything is published, and install.sh installs an archive from dist/ only when
//! its checksum matches.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::dist::{ok, root, small_binary};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// scripts/platforms: (Rust target, npm os, npm cpu), one a line.
fn platforms() -> Vec<(String, String, String)> {
    std::fs::read_to_string(root().join("scripts/platforms"))
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 3, "scripts/platforms: {l}");
            (f[0].to_string(), f[1].to_string(), f[2].to_string())
        })
        .collect()
}

fn archive(target: &str, os: &str) -> String {
    let ext = if os == "win32" { "zip" } else { "tar.gz" };
    format!("plan-{VERSION}-{target}.{ext}")
}

/// A scratch directory, the binary to pack, and scripts/dist's output for `targets`
/// in `work/dist`.
struct Release {
    _dir: tempfile::TempDir,
    work: PathBuf,
    binary: PathBuf,
}

impl Release {
    /// Packs the real (stripped) binary: for a test that installs and runs it.
    fn new() -> Release {
        let (dir, work) = Release::scratch();
        let binary = small_binary(&work);
        Release {
            _dir: dir,
            work,
            binary,
        }
    }

    /// Packs a few-line script that runs the binary under test, for a test of what
    /// release-check and install.sh make of the archives and checksums, which never
    /// runs what it packed. scripts/dist still runs it to write the plugin, and it
    /// answers as plan; gzipping the 43 MB binary once per platform took most of a
    /// minute of these tests.
    #[cfg(unix)]
    fn with_stand_in() -> Release {
        use std::os::unix::fs::PermissionsExt;
        let (dir, work) = Release::scratch();
        let binary = work.join("plan");
        std::fs::write(
            &binary,
            format!("#!/bin/sh\nexec '{}' \"$@\"\n", crate::util::BIN),
        )
        .unwrap();
        std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
        Release {
            _dir: dir,
            work,
            binary,
        }
    }

    /// Without the executable bit a script cannot stand in.
    #[cfg(not(unix))]
    fn with_stand_in() -> Release {
        Release::new()
    }

    fn scratch() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::Builder::new()
            .prefix("plan-release-")
            .tempdir()
            .unwrap();
        let work = dir.path().to_path_buf();
        (dir, work)
    }

    fn dist(&self) -> PathBuf {
        self.work.join("dist")
    }

    /// Packs the host's binary as built for `target` (only the names differ).
    fn pack(&self, target: &str) {
        ok(
            Command::new(root().join("scripts/dist"))
                .arg("--binary")
                .arg(&self.binary)
                .arg("--target")
                .arg(target)
                .arg("--out")
                .arg(self.dist())
                .env("TMPDIR", &self.work)
                .output()
                .unwrap(),
            "scripts/dist",
        );
    }

    fn run(&self, program: &str, args: &[&str]) -> Output {
        Command::new(root().join(program))
            .args(args)
            .env("TMPDIR", &self.work)
            .output()
            .unwrap()
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_workflow_builds_every_platform_and_publishes_the_main_package_last() {
    let workflow = std::fs::read_to_string(root().join(".github/workflows/release.yml")).unwrap();
    let built: Vec<&str> = workflow
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- { target: "))
        .map(|rest| rest.split(',').next().unwrap().trim())
        .collect();
    let listed: Vec<String> = platforms().into_iter().map(|(t, _, _)| t).collect();
    assert_eq!(
        built, listed,
        "release.yml's build matrix and scripts/platforms differ"
    );
    // Platform packages, then the check that they are all on the registry, then
    // the main package.
    let at = |needle: &str| {
        workflow
            .find(needle)
            .unwrap_or_else(|| panic!("release.yml lacks {needle}"))
    };
    let platforms_published = at("head -n -1 publish-order | xargs -n 1 npm publish");
    let checked = at("scripts/release-check --published");
    let main_published = at("npm publish --access public \"$(tail -n 1 publish-order)\"");
    assert!(platforms_published < checked && checked < main_published);
    assert!(at("scripts/release-check --tag \"$GITHUB_REF_NAME\" dist") < platforms_published);
    assert!(workflow.contains("dist/plan-* dist/SHA256SUMS"));
}

#[test]
fn release_check_refuses_a_release_missing_a_platform_or_a_checksum() {
    let r = Release::with_stand_in();
    let all = platforms();
    let (first, rest) = all.split_first().unwrap();
    r.pack(&first.0);
    let dist = r.dist();
    let dist_arg = dist.to_str().unwrap();

    let out = r.run("scripts/release-check", &[dist_arg]);
    assert_eq!(out.status.code(), Some(1));
    let mut want = String::new();
    for (target, os, cpu) in rest {
        want.push_str(&format!(
            "release-check: {} is missing\nrelease-check: npm/plan-cli-plan-{os}-{cpu}-{VERSION}.tgz is missing (@plan-cli/plan-{os}-{cpu})\n",
            archive(target, os)
        ));
    }
    assert_eq!(stderr(&out), want);
    assert!(!dist.join("SHA256SUMS").exists());

    for (target, _, _) in rest {
        r.pack(target);
    }
    let tag = format!("v{VERSION}");
    let out = r.run("scripts/release-check", &["--tag", &tag, dist_arg]);
    let order = ok(out, "release-check");
    let mut want = String::new();
    let mut sums = String::new();
    for (target, os, cpu) in &all {
        want.push_str(&format!(
            "{dist_arg}/npm/plan-cli-plan-{os}-{cpu}-{VERSION}.tgz\n"
        ));
        let name = archive(target, os);
        sums.push_str(&std::fs::read_to_string(dist.join(format!("{name}.sha256"))).unwrap());
    }
    want.push_str(&format!("{dist_arg}/npm/plan-cli-plan-{VERSION}.tgz\n"));
    assert_eq!(
        order, want,
        "platform packages first, the main package last"
    );
    assert_eq!(
        std::fs::read_to_string(dist.join("SHA256SUMS")).unwrap(),
        sums
    );

    let out = r.run("scripts/release-check", &["--tag", "v9.9.9", dist_arg]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!("release-check: the tag v9.9.9 is not v{VERSION}, the version in Cargo.toml\n")
    );

    let name = archive(&first.0, &first.1);
    let mut bytes = std::fs::read(dist.join(&name)).unwrap();
    bytes.push(0);
    std::fs::write(dist.join(&name), bytes).unwrap();
    let out = r.run("scripts/release-check", &[dist_arg]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!("release-check: {name} does not match {name}.sha256\n")
    );
}

/// `--published` asks the registry (here a stand-in `npm` that knows a list of
/// packages) for each platform package before the main one goes out.
#[cfg(unix)]
#[test]
fn release_check_wants_every_platform_package_on_the_registry() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let registry = dir.path().join("registry");
    std::fs::write(
        bin.join("npm"),
        "#!/bin/sh\n[ \"$1\" = view ] && [ \"$3\" = version ] || exit 9\ngrep -qxF \"$2\" \"$FAKE_REGISTRY\" || { echo 'npm error 404' >&2; exit 1; }\necho \"${2##*@}\"\n",
    )
    .unwrap();
    std::fs::set_permissions(bin.join("npm"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), crate::util::system_path());
    let check = || {
        Command::new(root().join("scripts/release-check"))
            .arg("--published")
            .env("PATH", &path)
            .env("FAKE_REGISTRY", &registry)
            .output()
            .unwrap()
    };
    let all = platforms();
    let names: Vec<String> = all
        .iter()
        .map(|(_, os, cpu)| format!("@plan-cli/plan-{os}-{cpu}@{VERSION}"))
        .collect();
    let (last, before) = names.split_last().unwrap();
    std::fs::write(&registry, before.join("\n") + "\n").unwrap();
    let out = check();
    assert_eq!(out.status.code(), Some(1));
    let (_, os, cpu) = all.last().unwrap();
    assert_eq!(
        stderr(&out),
        format!(
            "release-check: {last} is not on the registry, so @plan-cli/plan@{VERSION} would install without a binary on {os} {cpu}\n"
        )
    );
    std::fs::write(&registry, names.join("\n") + "\n").unwrap();
    assert_eq!(
        ok(check(), "release-check --published"),
        format!(
            "all {} platform packages of {VERSION} are on the registry\n",
            all.len()
        )
    );
}

/// The archive install.sh picks on this machine.
fn install_target() -> String {
    let cpu = std::env::consts::ARCH;
    match std::env::consts::OS {
        "linux" => format!("{cpu}-unknown-linux-gnu"),
        "macos" => format!("{cpu}-apple-darwin"),
        other => panic!("install.sh does not install on {other}"),
    }
}

/// install.sh run by `sh` (POSIX sh: dash on Debian) from `from` into `dir`.
fn install_sh(r: &Release, from: &Path, dir: &Path, path: &str) -> Output {
    Command::new("sh")
        .arg(root().join("install.sh"))
        .env("PLAN_INSTALL_FROM", from)
        .env("PLAN_INSTALL_DIR", dir)
        .env("PATH", path)
        .env("TMPDIR", &r.work)
        .output()
        .unwrap()
}

fn path() -> String {
    crate::util::system_path()
}

#[cfg(unix)]
#[test]
fn install_sh_installs_the_checked_archive_from_dist() {
    let r = Release::new();
    r.pack(&install_target());
    let bin = r.work.join("home/.local/bin");
    let out = install_sh(&r, &r.dist(), &bin, &path());
    let shown = bin.display();
    assert_eq!(
        ok(out, "install.sh"),
        format!(
            "installed plan {VERSION} as {shown}/plan\n{shown} is not on PATH; add it, e.g. in ~/.profile:\n  export PATH=\"{shown}:$PATH\"\n"
        )
    );
    let version = ok(
        Command::new(bin.join("plan"))
            .arg("--version")
            .output()
            .unwrap(),
        "plan --version",
    );
    assert_eq!(version, format!("plan {VERSION}\n"));
    // Again, with the directory on PATH: the binary is replaced, nothing to add.
    let on_path = format!("{shown}:{}", path());
    let out = install_sh(&r, &r.dist(), &bin, &on_path);
    assert_eq!(
        ok(out, "install.sh again"),
        format!("installed plan {VERSION} as {shown}/plan\n")
    );
    let left: Vec<_> = std::fs::read_dir(&bin).unwrap().collect();
    assert_eq!(left.len(), 1, "no temporary file left beside plan");
}

#[cfg(unix)]
#[test]
fn install_sh_refuses_a_tampered_archive_and_a_missing_platform() {
    let r = Release::with_stand_in();
    let target = install_target();
    r.pack(&target);
    let dist = r.dist();
    let name = format!("plan-{VERSION}-{target}.tar.gz");
    let mut bytes = std::fs::read(dist.join(&name)).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(dist.join(&name), bytes).unwrap();

    // A fresh directory is not even made; a plan already installed stays.
    let fresh = r.work.join("fresh/bin");
    let out = install_sh(&r, &dist, &fresh, &path());
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "install.sh: {name} does not match its checksum (sha256 "
        )) && err.ends_with(
            "); nothing installed\n  hint: download it again; if it still differs, do not use it\n"
        ),
        "{err}"
    );
    assert!(!r.work.join("fresh").exists());
    let old = r.work.join("old/bin");
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(old.join("plan"), "the old plan").unwrap();
    let out = install_sh(&r, &dist, &old, &path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(old.join("plan")).unwrap(),
        "the old plan"
    );

    // Another platform's archive only.
    std::fs::remove_file(dist.join(&name)).unwrap();
    std::fs::remove_file(dist.join(format!("{name}.sha256"))).unwrap();
    let other = platforms()
        .into_iter()
        .find(|(t, os, _)| *t != target && os != "win32")
        .unwrap()
        .0;
    r.pack(&other);
    let out = install_sh(&r, &dist, &fresh, &path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        format!(
            "install.sh: no plan archive for {target} in {}\n  hint: build it from source: git clone https://github.com/plan-cli/plan && cd plan && cargo install --locked --path . (Rust 1.89 or later; about 7 minutes on 2 cores)\n",
            dist.display()
        )
    );
    assert!(!r.work.join("fresh").exists());
}

/// Issue 71: with no release published, the download answers 404, and install.sh
/// said "check the network" and sent people to an npm package that does not exist
/// yet. It says no release is published and names the source build. A stand-in
/// `curl` first on PATH answers as GitHub does for a missing release.
#[cfg(unix)]
#[test]
fn install_sh_says_no_release_yet_for_a_404_and_names_the_source_build() {
    use std::os::unix::fs::PermissionsExt;
    let r = Release::new();
    let bin = r.work.join("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    // curl -sSL -o FILE -w '%{http_code}' URL: the body written, the code printed.
    std::fs::write(
        bin.join("curl"),
        "#!/bin/sh\nwhile [ $# -gt 1 ]; do [ \"$1\" = -o ] && printf 'Not Found' > \"$2\"; shift; done\nprintf 404\n",
    )
    .unwrap();
    std::fs::set_permissions(bin.join("curl"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = Command::new("sh")
        .arg(root().join("install.sh"))
        .env("PLAN_INSTALL_DIR", r.work.join("home/.local/bin"))
        .env("PATH", format!("{}:{}", bin.display(), path()))
        .env("TMPDIR", &r.work)
        .env("HOME", r.work.join("home"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "install.sh: no release of plan is published yet (https://github.com/plan-cli/plan/releases/latest/download/SHA256SUMS is not there)\n  hint: build it from source: git clone https://github.com/plan-cli/plan && cd plan && cargo install --locked --path . (Rust 1.89 or later; about 7 minutes on 2 cores)\n"
    );
}
