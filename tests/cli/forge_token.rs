//! The red team on the update job's push token (b436f31): unset in the step's
//! shell before plan or gh starts, it is still in that shell's environment as the
//! runner started it, which every program of the step (same user) can read in
//! /proc.

use std::process::Command;

use crate::forge::step_script;
use crate::util::Test;

// `unset PUSH_TOKEN` drops the variable from what bash passes on, not from the
// block the kernel shows as /proc/<bash>/environ: `gh` (and `plan sync`, and
// anything a build left running) reads the token there as the update step's
// children. Keeping it from them needs it out of the step's environment: a
// separate job or a file only git's credential helper reads, not an env var.
#[test]
#[ignore = "open attack: the update steps' PUSH_TOKEN, unset in bash, is still in /proc/<step shell>/environ for plan, gh and any process a build left running"]
fn the_push_token_is_not_in_the_update_steps_environment() {
    let t = Test::new();
    let work = t.dir.path().join("runner");
    let bin = work.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let leak = work.join("leak");
    // A stand-in gh that lists no pull request, and looks in its parent's
    // environment for the token.
    std::fs::write(
        bin.join("gh"),
        format!(
            "#!/bin/sh\nif tr '\\0' '\\n' < /proc/$PPID/environ | grep -q '^PUSH_TOKEN=s3cr3t-token$'; then echo found > '{}'; fi\nexit 0\n",
            leak.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("gh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let workflow = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/github/plan.yml"),
    )
    .unwrap();
    let script = step_script(&workflow, "Update pull requests");
    let out = Command::new("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
        .current_dir(t.root())
        .env_clear()
        .env(
            "PATH",
            format!("{}:{}", bin.display(), crate::util::system_path()),
        )
        .env("HOME", t.dir.path().join("home"))
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("RUNNER_TEMP", &work)
        .env("GH_TOKEN", "unused")
        .env("BASE", "main")
        .env("REPO", "acme/forge")
        .env("GATE_RUNS", "true")
        .env("ONLY", "")
        .env(
            "WORKFLOW",
            "acme/forge/.github/workflows/plan.yml@refs/heads/main",
        )
        .env("PUSH_TOKEN", "s3cr3t-token")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !leak.exists(),
        "gh read PUSH_TOKEN in /proc/$PPID/environ of the update step's shell"
    );
}
