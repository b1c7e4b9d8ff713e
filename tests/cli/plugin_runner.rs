//! Which `plan` the hooks run without a Rust toolchain: the marketplace plugin's
//! hooks start `plan` from PATH where it is installed and this version's npm package
//! through npx where it is not, and `plan install --check` names the one they run.

use std::path::Path;
use std::process::Command;

use crate::util::{Test, redact, shown};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Every hook command of the repository's marketplace plugin.
fn plugin_commands() -> Vec<String> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("plugins/plan/hooks/hooks.json");
    let hooks: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let mut commands = Vec::new();
    for groups in hooks["hooks"].as_object().unwrap().values() {
        for group in groups.as_array().unwrap() {
            for hook in group["hooks"].as_array().unwrap() {
                commands.push(hook["command"].as_str().unwrap().to_string());
            }
        }
    }
    commands
}

/// `command` as the host runs it (a shell), with only `bin` on PATH.
fn run_hook(command: &str, bin: &Path) -> String {
    let out = Command::new("/bin/sh")
        .arg("-c")
        .arg(command)
        .env("PATH", bin)
        .output()
        .unwrap();
    assert!(out.status.success(), "{command}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_plugin_hooks_run_plan_from_path_else_the_pinned_npm_package() {
    let t = Test::new();
    let commands = plugin_commands();
    // Claude Code's ten: the session, prompt, tool, compaction, stop and
    // stop-failure events, and SubagentStart, SubagentStop, TaskCompleted,
    // TeammateIdle.
    assert_eq!(commands.len(), 10);
    let npx = t.fake_program("npx", "echo \"npx $*\"\n");
    for command in &commands {
        let event = command.rsplit(' ').next().unwrap();
        // No plan installed: node's npx fetches this version's package.
        assert_eq!(
            run_hook(command, &t.bin()),
            format!("npx -y @plan-cli/plan@{VERSION} hook claude {event}\n"),
            "{command}"
        );
    }
    std::fs::remove_file(npx).unwrap();
    t.fake_program("plan", "echo \"plan $*\"\n");
    for command in &commands {
        let event = command.rsplit(' ').next().unwrap();
        assert_eq!(
            run_hook(command, &t.bin()),
            format!("plan hook claude {event}\n"),
            "{command}"
        );
    }
}

/// A plugin an older plan built (another pinned version) is still plan's: a
/// reinstall updates it in place and uninstall takes it back.
#[test]
fn a_plugin_of_another_version_is_updated_and_removed() {
    let t = Test::new();
    t.ok(&["install", "claude", "--plugin", "p"]);
    let built = t.read("p/hooks/hooks.json");
    let older = built.replace(&format!("@plan-cli/plan@{VERSION}"), "@plan-cli/plan@0.0.9");
    assert_ne!(older, built);
    t.write("p/hooks/hooks.json", &older);
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "claude", "--plugin", "p"])));
    assert_eq!(t.read("p/hooks/hooks.json"), built);
    t.ok(&["uninstall", "claude", "--plugin", "p"]);
    assert!(!t.root().join("p").exists());
}

#[test]
fn install_check_names_the_plan_the_hooks_run() {
    let t = Test::new().only_bin();
    let run = t.run(&["install", "--check"]);
    insta::assert_snapshot!(redact(&t, &run.stdout));
    let plan = t.fake_program("plan", "exit 0\n");
    let run = t.run(&["install", "--check"]);
    insta::assert_snapshot!(redact(&t, &run.stdout));
    // npm's `plan`: a link to the node launcher.
    std::fs::remove_file(&plan).unwrap();
    let launcher = t.root().join("lib/node_modules/@plan-cli/plan/bin/plan.js");
    std::fs::create_dir_all(launcher.parent().unwrap()).unwrap();
    std::fs::write(&launcher, "#!/usr/bin/env node\n").unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&launcher, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::os::unix::fs::symlink(&launcher, &plan).unwrap();
    let run = t.run(&["install", "--check"]);
    insta::assert_snapshot!(redact(&t, &run.stdout));
}
