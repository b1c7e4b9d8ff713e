//! `plan install` / `plan uninstall` end to end: what lands in each host's files,
//! what is left of other tools' settings, and what the user is told.

use std::path::PathBuf;

use crate::util::{BIN, Test, redact, redact_hosts, shown};

/// Another tool's Claude Code settings, as a person would have written them.
const THEIRS: &str = r#"{
  "permissions": {
    "allow": [
      "Bash(npm test:*)"
    ]
  },
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Edit|Write|MultiEdit|NotebookEdit",
        "hooks": [
          {
            "type": "command",
            "command": "npx prettier --write",
            "timeout": 30
          }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "notify-send done"
          }
        ]
      }
    ]
  },
  "model": "opus"
}
"#;

fn home(t: &Test) -> PathBuf {
    t.dir.path().join("home")
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn claude_merges_once_and_uninstall_leaves_the_other_tools_hooks() {
    let t = Test::new();
    t.write(".claude/settings.json", THEIRS);
    let run = t.ok(&["install", "claude"]);
    insta::assert_snapshot!(redact(&t, &run.stdout), @r"
    installed plan's hooks for Claude Code in .claude/settings.json
      added SessionStart: [BIN] hook claude session-start
      added UserPromptSubmit: [BIN] hook claude user-prompt-submit
      added PostToolUse: [BIN] hook claude post-tool-use
      added PreCompact: [BIN] hook claude pre-compact
      added Stop: [BIN] hook claude stop
      added StopFailure: [BIN] hook claude stop-failure
      added SubagentStart: [BIN] hook claude subagent-start
      added SubagentStop: [BIN] hook claude subagent-stop
      added TaskCompleted: [BIN] hook claude task-completed
      added TeammateIdle: [BIN] hook claude teammate-idle
    next: restart Claude Code sessions already running here; project hooks need no approval
    ");
    let installed = t.read(".claude/settings.json");
    let settings = json(&installed);
    let post = settings["hooks"]["PostToolUse"].as_array().unwrap();
    assert_eq!(post[0]["hooks"][0]["command"], "npx prettier --write");
    assert_eq!(
        post[1]["hooks"][0]["command"],
        format!("{BIN} hook claude post-tool-use")
    );
    assert_eq!(
        settings["hooks"]["Stop"][0]["hooks"][0]["command"],
        "notify-send done"
    );
    assert_eq!(settings["hooks"]["Stop"][1]["hooks"][0]["timeout"], 60);
    assert!(installed.ends_with("}\n"));

    let again = t.ok(&["install", "claude"]);
    insta::assert_snapshot!(again.stdout, @"plan's hooks for Claude Code are already installed in .claude/settings.json");
    assert_eq!(t.read(".claude/settings.json"), installed);

    let run = t.ok(&["uninstall", "claude"]);
    insta::assert_snapshot!(redact(&t, &run.stdout), @"
    removed plan's hooks for Claude Code from .claude/settings.json
      removed PostToolUse: [BIN] hook claude post-tool-use
      removed Stop: [BIN] hook claude stop
      removed SessionStart: [BIN] hook claude session-start
      removed UserPromptSubmit: [BIN] hook claude user-prompt-submit
      removed PreCompact: [BIN] hook claude pre-compact
      removed StopFailure: [BIN] hook claude stop-failure
      removed SubagentStart: [BIN] hook claude subagent-start
      removed SubagentStop: [BIN] hook claude subagent-stop
      removed TaskCompleted: [BIN] hook claude task-completed
      removed TeammateIdle: [BIN] hook claude teammate-idle
    ");
    // Written in the same layout it came in, so it comes back byte for byte.
    assert_eq!(t.read(".claude/settings.json"), THEIRS);
    insta::assert_snapshot!(shown(&t, &t.ok(&["uninstall", "claude"])));
}

// Attack (issue 69, item 9): the hooks ran `plan` by name, so a `plan` earlier on
// the host's PATH (`~/.local/bin`, which an agent can write) answered them: its
// TaskCompleted said allowed. plan registers its hooks by its own absolute path, as
// it does the merge driver (the name only where that path cannot be known); an
// entry an older plan wrote by name is moved to the path by the next install,
// while a program a person put there stays.
#[test]
fn hooks_run_this_plan_by_its_path_and_not_a_plan_earlier_on_path() {
    let t = Test::new().with_bin();
    let planted = t.dir.path().join("planted-plan-ran");
    t.fake_program("plan", &format!("touch '{}'\nexit 0\n", planted.display()));
    t.ok(&["install", "claude"]);
    t.ok(&["install", "copilot"]);
    let installed = t.read(".claude/settings.json");
    let settings = json(&installed);
    let command = settings["hooks"]["TaskCompleted"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    // As the host runs it: a shell, the planted `plan` first on PATH.
    let out = std::process::Command::new("sh")
        .args(["-c", &command])
        .current_dir(t.root())
        .env_clear()
        .env(
            "PATH",
            format!("{}:{}", t.bin().display(), crate::util::system_path()),
        )
        .env("HOME", home(&t))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!planted.exists(), "the planted plan answered: {out:?}");
    assert_eq!(command, format!("{BIN} hook claude task-completed"));
    let copilot = t.read(".github/hooks/plan.json");
    assert_eq!(
        copilot
            .matches(&format!("\"bash\": \"{BIN} hook copilot "))
            .count(),
        copilot.matches("\"bash\": ").count(),
        "{copilot}"
    );
    // Entries an older plan registered by name are moved to the path.
    let by_name = installed.replace(&format!("\"{BIN} hook"), "\"plan hook");
    assert_eq!(by_name.matches("\"plan hook claude ").count(), 10);
    t.write(".claude/settings.json", &by_name);
    t.write(
        ".github/hooks/plan.json",
        copilot.replace(&format!("\"bash\": \"{BIN} hook"), "\"bash\": \"plan hook"),
    );
    t.ok(&["install", "claude"]);
    t.ok(&["install", "copilot"]);
    assert_eq!(t.read(".claude/settings.json"), installed);
    assert_eq!(t.read(".github/hooks/plan.json"), copilot);
}

#[test]
fn a_file_that_held_only_our_hooks_is_deleted_with_its_directory() {
    let t = Test::new();
    t.ok(&["install", "claude"]);
    assert!(t.path(".claude/settings.json").is_file());
    insta::assert_snapshot!(shown(&t, &t.ok(&["uninstall", "claude"])));
    assert!(!t.path(".claude").exists());
}

#[test]
fn global_writes_under_home_even_outside_a_repository() {
    let t = Test::outside_git();
    let run = t.ok(&["install", "claude", "--global"]);
    insta::assert_snapshot!(run.stdout.lines().next().unwrap(), @"installed plan's hooks for Claude Code in ~/.claude/settings.json");
    let settings = json(&std::fs::read_to_string(home(&t).join(".claude/settings.json")).unwrap());
    assert_eq!(
        settings["hooks"]["SessionStart"][0]["matcher"],
        "startup|resume|clear|compact|fork"
    );

    let codex_home = t.dir.path().join("codex-home");
    let t = t.env("CODEX_HOME", codex_home.to_str().unwrap());
    let run = t.ok(&["install", "codex", "--global"]);
    assert!(codex_home.join("hooks.json").is_file());
    // Hooks in CODEX_HOME need only the hook trust, not a trusted project.
    insta::assert_snapshot!(crate::util::redact(&t, &run.stdout));

    t.ok(&["uninstall", "claude", "--global"]);
    assert!(!home(&t).join(".claude/settings.json").exists());
}

#[test]
fn without_a_repository_or_global_it_refuses() {
    let t = Test::outside_git();
    insta::assert_snapshot!(shown(&t, &t.run(&["install", "claude"]).code(3)));
    assert!(!home(&t).join(".claude").exists());
}

#[test]
fn the_plugin_gets_a_manifest_and_hooks_file() {
    let t = Test::new();
    let run = t.ok(&["install", "claude", "--plugin", "plan-plugin"]);
    insta::assert_snapshot!(run.stdout, @r"
    installed plan's Claude Code plugin in plan-plugin
      wrote plan-plugin/.claude-plugin/plugin.json (plan 0.1.0)
      wrote plan-plugin/hooks/hooks.json
      added SessionStart: command -v plan >/dev/null 2>&1 && p=plan || p='npx -y @plan-cli/plan@0.1.0'; exec $p hook claude session-start
      added UserPromptSubmit: command -v plan >/dev/null 2>&1 && p=plan || p='npx -y @plan-cli/plan@0.1.0'; exec $p hook claude user-prompt-submit
      added PostToolUse: command -v plan >/dev/null 2>&1 && p=plan || p='npx -y @plan-cli/plan@0.1.0'; exec $p hook claude post-tool-use
      added PreCompact: command -v plan >/dev/null 2>&1 && p=plan || p='npx -y @plan-cli/plan@0.1.0'; exec $p hook claude pre-compact
      added Stop: command -v plan >/dev/null 2>&1 && p=plan || p='npx -y @plan-cli/plan@0.1.0'; exec $p hook claude stop
      added StopFailure: command -v plan >/dev/null 2>&1 && p=plan || p='npx -y @plan-cli/plan@0.1.0'; exec $p hook claude stop-failure
      added SubagentStart: command -v plan >/dev/null 2>&1 && p=plan || p='npx -y @plan-cli/plan@0.1.0'; exec $p hook claude subagent-start
      added SubagentStop: command -v plan >/dev/null 2>&1 && p=plan || p='npx -y @plan-cli/plan@0.1.0'; exec $p hook claude subagent-stop
      added TaskCompleted: command -v plan >/dev/null 2>&1 && p=plan || p='npx -y @plan-cli/plan@0.1.0'; exec $p hook claude task-completed
      added TeammateIdle: command -v plan >/dev/null 2>&1 && p=plan || p='npx -y @plan-cli/plan@0.1.0'; exec $p hook claude teammate-idle
    next: try it with `claude --plugin-dir plan-plugin`, or publish the directory in a plugin marketplace
    ");
    let manifest = json(&t.read("plan-plugin/.claude-plugin/plugin.json"));
    assert_eq!(manifest["name"], "plan");
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"));
    let hooks = json(&t.read("plan-plugin/hooks/hooks.json"));
    assert_eq!(
        hooks.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["hooks"]
    );
    assert_eq!(
        hooks["hooks"]["Stop"][0]["hooks"][0]["command"],
        "command -v plan >/dev/null 2>&1 && p=plan || p='npx -y @plan-cli/plan@0.1.0'; exec $p hook claude stop"
    );
    // The plugin is not the project's settings.
    assert!(!t.path(".claude").exists());

    insta::assert_snapshot!(shown(
        &t,
        &t.ok(&["install", "claude", "--plugin", "plan-plugin"])
    ));
    t.ok(&["uninstall", "claude", "--plugin", "plan-plugin"]);
    assert!(!t.path("plan-plugin").exists());

    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["install", "codex", "--plugin", "x"]).code(2)
    ));
}

/// Attack (red team): `plan install --plugin DIR` wrote its files over a folder
/// holding another plugin (its manifest, its hooks, its `bin/plan`) without a
/// word. A folder is written only while it is plan's plugin, or holds none of
/// its files; a rerun over plan's own rewrites it.
#[test]
fn the_shared_plugin_is_not_written_over_another_plugin() {
    let t = Test::new();
    let theirs = [
        (
            "theirs/.claude-plugin/plugin.json",
            "{\"name\": \"myplugin\", \"version\": \"1\"}\n",
        ),
        (
            "theirs/hooks/hooks.json",
            "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"my-stop\"}]}]}}\n",
        ),
        ("theirs/bin/plan", "#!/bin/sh\necho mine\n"),
    ];
    for (path, text) in theirs {
        t.write(path, text);
    }
    t.write("loose/hooks/hooks.json", theirs[1].1);
    let refused = [
        t.run(&["install", "--plugin", "theirs"]).code(2),
        t.run(&["install", "--plugin", "loose"]).code(2),
    ];
    for (path, text) in theirs {
        assert_eq!(t.read(path), text, "{path}");
    }
    assert_eq!(t.read("loose/hooks/hooks.json"), theirs[1].1);
    insta::assert_snapshot!(
        refused.iter().map(|r| shown(&t, r)).collect::<Vec<_>>().join(""),
        @r#"
    exit 2
    --- stdout
    --- stderr
    plan: theirs/.claude-plugin/plugin.json belongs to the plugin "myplugin"
      hint: choose another --plugin directory; nothing was changed
    exit 2
    --- stdout
    --- stderr
    plan: loose/hooks/hooks.json exists and is not plan's
      hint: choose an empty --plugin directory, or one plan wrote; nothing was changed
    "#
    );
    t.ok(&["install", "--plugin", "ours"]);
    let hooks = t.read("ours/hooks/hooks.json");
    t.write("ours/hooks/hooks.json", "{}\n");
    t.ok(&["install", "--plugin", "ours"]);
    assert_eq!(t.read("ours/hooks/hooks.json"), hooks);
}

/// Attack (red team): a person's edits to plan's own hook entries were undone by
/// the next install: a wrapper or an environment before the program
/// (`PLAN_FILE=docs/plan.md plan hook claude stop`, so the hooks read another plan
/// file) and a longer timeout. Without `--command` the program they registered
/// stays, and a timeout is only ever raised to plan's; `--command` still sets it.
#[test]
fn reinstalling_keeps_the_program_and_a_longer_timeout_a_person_set() {
    let t = Test::new().with_bin();
    t.ok(&["install", "claude"]);
    let edited = t
        .read(".claude/settings.json")
        .replace(
            &format!("\"command\": \"{BIN} hook"),
            "\"command\": \"PLAN_FILE=docs/plan.md plan hook",
        )
        .replacen("\"timeout\": 60", "\"timeout\": 600", 1);
    assert_eq!(
        edited.matches("PLAN_FILE=docs/plan.md plan hook").count(),
        10
    );
    t.write(".claude/settings.json", &edited);
    let again = t.ok(&["install", "claude"]);
    assert_eq!(t.read(".claude/settings.json"), edited);
    insta::assert_snapshot!(again.stdout, @"plan's hooks for Claude Code are already installed in .claude/settings.json");
    t.ok(&["install", "claude", "--command", "/opt/plan/bin/plan"]);
    let set = t.read(".claude/settings.json");
    assert_eq!(
        set.matches("\"/opt/plan/bin/plan hook claude ").count(),
        10,
        "{set}"
    );
    assert_eq!(set.matches("\"timeout\": 600").count(), 1, "{set}");
    // The review's: what is no program of plan's choosing is put back, and
    // `--check` agrees with install on what is current.
    t.write(
        ".claude/settings.json",
        set.replacen(
            "\"/opt/plan/bin/plan hook claude stop",
            "\"exit 0; plan hook claude stop",
            1,
        ),
    );
    t.ok(&["install", "claude"]);
    let reset = t.read(".claude/settings.json");
    assert_eq!(
        reset
            .matches(&format!("\"{BIN} hook claude stop\""))
            .count(),
        1,
        "{reset}"
    );
    t.write(".claude/settings.json", &edited);
    t.ok(&["install", "copilot"]);
    let copilot = t.read(".github/hooks/plan.json").replace(
        &format!("\"bash\": \"{BIN} hook"),
        "\"bash\": \"PLAN_FILE=docs/plan.md plan hook",
    );
    t.write(".github/hooks/plan.json", &copilot);
    t.ok(&["install", "copilot"]);
    assert_eq!(t.read(".github/hooks/plan.json"), copilot);
    t.fake_program("plan", "exit 0");
    // A whole file's program is the one it names: pi's, from an earlier --command.
    t.ok(&["install", "pi", "--command", "/opt/plan/bin/plan"]);
    t.ok(&["install", "pi"]);
    let check = t.run(&["install", "--check"]);
    let said: Vec<&str> = check
        .stdout
        .lines()
        .filter(|l| l.contains("Claude Code") || l.contains("Copilot") || l.starts_with("✗ pi"))
        .collect();
    insta::assert_snapshot!(said.join("\n"), @"
    ✓ Claude Code    registered in .claude/settings.json
    ✗ pi             registered in .pi/extensions/plan.ts; `/opt/plan/bin/plan` is no executable file, so they cannot run it: run `plan install pi --command PATH` with the plan binary's path
    ✓ Copilot CLI    registered in .github/hooks/plan.json
    ");
}

#[test]
fn pi_gets_the_extension_file() {
    let t = Test::new();
    let run = t.ok(&["install", "pi"]);
    insta::assert_snapshot!(run.stdout, @r"
    installed plan's pi extension at .pi/extensions/plan.ts
    next: start a new pi session, or /reload in a running one
      pi 0.80 and later load a project's .pi/extensions only in a trusted project:
      trust it when pi asks (or /trust); headless, run `pi --approve -p …`
      or register for your user instead: `plan install pi --global` (loaded in every project)
    ");
    let shipped = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/pi/plan.ts"),
    )
    .unwrap()
    // Installed, it names this plan by its path (issue 69, item 9).
    .replace(
        "const PLAN_PROGRAM = \"plan\";",
        &format!(
            "const PLAN_PROGRAM = {};",
            serde_json::to_string(BIN).unwrap()
        ),
    );
    assert_eq!(t.read(".pi/extensions/plan.ts"), shipped);
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "pi"])));

    insta::assert_snapshot!(shown(
        &t,
        &t.ok(&["install", "pi", "--command", "/opt/plan/bin/plan"])
    ));
    assert!(
        t.read(".pi/extensions/plan.ts")
            .contains("const PLAN_PROGRAM = \"/opt/plan/bin/plan\";")
    );

    insta::assert_snapshot!(shown(&t, &t.ok(&["uninstall", "pi"])));
    assert!(!t.path(".pi").exists());

    // Someone else's file of that name is neither replaced nor deleted.
    t.write(".pi/extensions/plan.ts", "export default function () {}\n");
    insta::assert_snapshot!(shown(&t, &t.run(&["install", "pi"]).code(2)));
    t.run(&["uninstall", "pi"]).code(2);
    assert_eq!(
        t.read(".pi/extensions/plan.ts"),
        "export default function () {}\n"
    );
}

/// OpenCode loads a plugin file dropped into `.opencode/plugin/`: plan writes its
/// own, needs no entry in opencode.json, and takes out only that file.
#[test]
fn opencode_gets_the_plugin_file() {
    let t = Test::new();
    let run = t.ok(&["install", "opencode"]);
    insta::assert_snapshot!(run.stdout, @r"
    installed plan's OpenCode plugin at .opencode/plugin/plan.js
    next: OpenCode loads plugins with no trust step: start a new opencode session
      the first start with the plugin installs @opencode-ai/plugin beside it (needs the npm registry once)
      Kilo Code runs the same file: copy it to .kilo/plugin/plan.js
    ");
    let shipped = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/opencode/plan.js"),
    )
    .unwrap()
    // Installed, it names this plan by its path (issue 69, item 9).
    .replace(
        "const PLAN_PROGRAM = \"plan\";",
        &format!(
            "const PLAN_PROGRAM = {};",
            serde_json::to_string(BIN).unwrap()
        ),
    );
    assert_eq!(t.read(".opencode/plugin/plan.js"), shipped);
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "opencode"])));
    assert!(!t.path("opencode.json").exists() && !t.path(".opencode/opencode.json").exists());

    insta::assert_snapshot!(shown(
        &t,
        &t.ok(&["install", "opencode", "--command", "/opt/plan/bin/plan"])
    ));
    assert!(
        t.read(".opencode/plugin/plan.js")
            .contains("const PLAN_PROGRAM = \"/opt/plan/bin/plan\";")
    );

    // What OpenCode put beside it stays.
    t.write(".opencode/package.json", "{}\n");
    insta::assert_snapshot!(shown(&t, &t.ok(&["uninstall", "opencode"])));
    assert!(!t.path(".opencode/plugin").exists());
    assert_eq!(t.read(".opencode/package.json"), "{}\n");

    // Someone else's file of that name is neither replaced nor deleted.
    t.write(
        ".opencode/plugin/plan.js",
        "export const Mine = async () => ({})\n",
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["install", "opencode"]).code(2)));
    t.run(&["uninstall", "opencode"]).code(2);
    assert_eq!(
        t.read(".opencode/plugin/plan.js"),
        "export const Mine = async () => ({})\n"
    );
}

/// `--global` puts the plugin in OpenCode's user config directory, which
/// `XDG_CONFIG_HOME` moves as it does for OpenCode.
#[test]
fn opencode_global_follows_xdg_config_home() {
    let t = Test::new();
    let home = t.path("home");
    let xdg = t.path("xdg");
    let out = t
        .cmd(&["install", "opencode", "--global"])
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", &xdg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(xdg.join("opencode/plugin/plan.js").is_file());
    let out = t
        .cmd(&["install", "opencode", "--global"])
        .env("HOME", &home)
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(home.join(".config/opencode/plugin/plan.js").is_file());
}

#[test]
fn codex_says_how_its_hooks_get_trusted() {
    let t = Test::new();
    let run = t.ok(&["install", "codex"]);
    let root = t.root().display().to_string();
    insta::assert_snapshot!(redact(&t, &run.stdout.replace(&root, "[REPO]")), @r#"
    installed plan's hooks for Codex in .codex/hooks.json
      added SessionStart: [BIN] hook codex session-start
      added UserPromptSubmit: [BIN] hook codex user-prompt-submit
      added PostToolUse: [BIN] hook codex post-tool-use
      added PreToolUse: [BIN] hook codex pre-tool-use
      added PreCompact: [BIN] hook codex pre-compact
      added Stop: [BIN] hook codex stop
      added SubagentStart: [BIN] hook codex subagent-start
      added SubagentStop: [BIN] hook codex subagent-stop
    next: Codex skips hooks silently until they are trusted:
      1. trust this project in ~/.codex/config.toml:
           [projects."[REPO]"]
           trust_level = "trusted"
      2. trust the hooks: run `codex`, open /hooks and approve them
         (for `codex exec`, pass --dangerously-bypass-hook-trust)
      trust is tied to the hooks' content: approve them again after they change
    "#);
    let hooks = json(&t.read(".codex/hooks.json"));
    assert!(hooks["hooks"]["PostToolUse"][0].get("matcher").is_none());
}

#[test]
fn gemini_enables_hooks_and_says_how_the_workspace_gets_trusted() {
    let t = Test::new();
    t.write(
        ".gemini/settings.json",
        "{\"ui\": {\"theme\": \"GitHub\"}}\n",
    );
    let run = t.ok(&["install", "gemini", "--command", "/opt/my tools/plan"]);
    insta::assert_snapshot!(run.stdout, @r"
    installed plan's hooks for Gemini CLI in .gemini/settings.json
      set hooksConfig.enabled: true
      added SessionStart: '/opt/my tools/plan' hook gemini session-start
      added BeforeAgent: '/opt/my tools/plan' hook gemini before-agent
      added AfterTool: '/opt/my tools/plan' hook gemini after-tool
      added PreCompress: '/opt/my tools/plan' hook gemini pre-compress
      added AfterAgent: '/opt/my tools/plan' hook gemini after-agent
    next: Gemini CLI runs hooks only in a trusted workspace:
      trust the folder when Gemini asks, or with /permissions trust in a session;
      for headless runs, set GEMINI_CLI_TRUST_WORKSPACE=true
      then restart sessions already running
    ");
    let settings = json(&t.read(".gemini/settings.json"));
    assert_eq!(
        settings.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["ui", "hooksConfig", "hooks"]
    );
    assert_eq!(
        settings["hooks"]["AfterTool"][0]["matcher"],
        "write_file|replace"
    );
    assert_eq!(
        settings["hooks"]["AfterAgent"][0]["hooks"][0]["timeout"],
        60000
    );

    // Recognised by its --command; with no hook left, the hooksConfig that only
    // enabled them goes too.
    t.ok(&["uninstall", "gemini", "--command", "/opt/my tools/plan"]);
    assert_eq!(
        json(&t.read(".gemini/settings.json")),
        json(r#"{"ui": {"theme": "GitHub"}}"#)
    );
}

#[test]
fn invalid_json_is_refused_and_left_untouched() {
    let t = Test::new();
    let broken = "{\n  \"hooks\": {\n    \"Stop\": [],\n  }\n}\n";
    t.write(".claude/settings.json", broken);
    let run = t.run(&["install", "claude"]).code(2);
    insta::assert_snapshot!(run.stderr, @r"
    plan: .claude/settings.json:4:3: not valid JSON: trailing comma
      hint: fix it (JSON allows no comments or trailing commas) and rerun; nothing was changed
    ");
    assert_eq!(t.read(".claude/settings.json"), broken);
    t.run(&["uninstall", "claude"]).code(2);
    assert_eq!(t.read(".claude/settings.json"), broken);

    t.write(".codex/hooks.json", "{\"hooks\": {\"Stop\": {}}}");
    insta::assert_snapshot!(shown(&t, &t.run(&["install", "codex"]).code(2)));
    assert_eq!(t.read(".codex/hooks.json"), "{\"hooks\": {\"Stop\": {}}}");
}

#[test]
fn an_unknown_host_lists_the_known_ones() {
    let t = Test::new();
    let run = t.run(&["install", "cursor"]).code(2);
    assert!(
        redact_hosts(&run.stderr).contains("[possible values: HOSTS, agents-md, git, ci]"),
        "{}",
        run.stderr
    );
}

#[test]
fn droid_merges_into_factory_settings_and_uninstall_gives_back_the_rest() {
    let t = Test::new();
    let theirs = "{\n  \"model\": \"custom:fake-model\"\n}\n";
    t.write(".factory/settings.json", theirs);
    let run = t.ok(&["install", "droid"]);
    insta::assert_snapshot!(redact(&t, &run.stdout), @r"
    installed plan's hooks for Factory Droid in .factory/settings.json
      added SessionStart: [BIN] hook droid session-start
      added UserPromptSubmit: [BIN] hook droid user-prompt-submit
      added PostToolUse: [BIN] hook droid post-tool-use
      added PreCompact: [BIN] hook droid pre-compact
      added Stop: [BIN] hook droid stop
    next: Droid runs project hooks with no approval step (`droid exec` too);
      restart Droid sessions already running here
      `droid exec` fires no UserPromptSubmit: a changed plan comes with the next file edit
    ");
    let settings = json(&t.read(".factory/settings.json"));
    assert_eq!(settings["model"], "custom:fake-model");
    assert_eq!(
        settings["hooks"]["PostToolUse"][0]["matcher"],
        "Create|Edit|MultiEdit|ApplyPatch"
    );
    assert_eq!(settings["hooks"]["Stop"][0]["hooks"][0]["timeout"], 60);
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "droid"])));
    t.ok(&["uninstall", "droid"]);
    assert_eq!(json(&t.read(".factory/settings.json")), json(theirs));

    // --global: the user's ~/.factory/settings.json, where Droid keeps its models.
    let home = home(&t);
    std::fs::create_dir_all(home.join(".factory")).unwrap();
    std::fs::write(
        home.join(".factory/settings.json"),
        "{\"customModels\": []}\n",
    )
    .unwrap();
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "droid", "--global"])));
    let user = json(&std::fs::read_to_string(home.join(".factory/settings.json")).unwrap());
    assert_eq!(user["customModels"], serde_json::json!([]));
    assert_eq!(
        user["hooks"]["SessionStart"][0]["hooks"][0]["command"],
        format!("{BIN} hook droid session-start")
    );
}

/// A settings file as a person formatted it: four-space indentation, their own key
/// order, compact arrays, no final newline.
const HAND_FORMATTED: &str = "{
    \"model\": \"opus\",
    \"permissions\": { \"allow\": [\"Bash(npm test:*)\"], \"deny\": [] },
    \"hooks\": {
        \"Stop\": [ { \"hooks\": [ { \"type\": \"command\", \"command\": \"notify-send done\" } ] } ]
    },
    \"env\": { \"Z\": \"1\", \"A\": \"2\" }
}";

#[test]
fn a_hand_formatted_file_keeps_its_bytes_and_uninstall_gives_them_back() {
    let t = Test::new();
    t.write(".claude/settings.json", HAND_FORMATTED);
    t.ok(&["install", "claude"]);
    let installed = t.read(".claude/settings.json");
    // Everything that was there is there as it was written, plan's entries added.
    for line in [
        "    \"model\": \"opus\",",
        "    \"permissions\": { \"allow\": [\"Bash(npm test:*)\"], \"deny\": [] },",
        "    \"env\": { \"Z\": \"1\", \"A\": \"2\" }",
        "{ \"type\": \"command\", \"command\": \"notify-send done\" }",
    ] {
        assert!(installed.contains(line), "{line} is gone:\n{installed}");
    }
    assert!(!installed.ends_with('\n'), "no final newline was added");
    let v = json(&installed);
    assert_eq!(v["hooks"]["Stop"].as_array().unwrap().len(), 2);
    assert_eq!(
        v["hooks"]["SessionStart"][0]["hooks"][0]["command"],
        format!("{BIN} hook claude session-start")
    );
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "claude"])));
    assert_eq!(t.read(".claude/settings.json"), installed);
    t.ok(&["uninstall", "claude"]);
    assert_eq!(t.read(".claude/settings.json"), HAND_FORMATTED);
}

/// Gemini CLI reads its settings with comments; so does plan, and keeps them.
#[test]
fn gemini_settings_with_comments_are_accepted_and_kept() {
    let t = Test::new();
    let theirs = "// my Gemini settings\n{\n  \"ui\": {\n    \"theme\": \"GitHub\" // the light one\n  },\n  /* no telemetry */\n  \"telemetry\": { \"enabled\": false }\n}\n";
    t.write(".gemini/settings.json", theirs);
    t.ok(&["install", "gemini"]);
    let installed = t.read(".gemini/settings.json");
    for kept in [
        "// my Gemini settings\n",
        "\"theme\": \"GitHub\" // the light one\n",
        "/* no telemetry */\n",
        "\"telemetry\": { \"enabled\": false }",
    ] {
        assert!(installed.contains(kept), "{kept:?} is gone:\n{installed}");
    }
    assert!(installed.contains(&format!("\"command\": \"{BIN} hook gemini after-agent\"")));
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "gemini"])));
    t.ok(&["uninstall", "gemini"]);
    assert_eq!(t.read(".gemini/settings.json"), theirs);
}

#[test]
fn a_gemini_settings_error_does_not_blame_its_comments() {
    let t = Test::new();
    let broken = "{\n  // mine\n  \"ui\": {},\n}\n";
    t.write(".gemini/settings.json", broken);
    let run = t.run(&["install", "gemini"]).code(2);
    insta::assert_snapshot!(shown(&t, &run));
    assert_eq!(t.read(".gemini/settings.json"), broken);
}

/// `plan install agents-md` writes a marked section into AGENTS.md for agents
/// without hooks; a reinstall changes no byte, and uninstall removes exactly it.
#[test]
fn agents_md_section_is_stable_and_removed_exactly() {
    let t = Test::new();
    t.write("AGENTS.md", "# Agents\n\nBe kind to the build.\n");
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "agents-md"])));
    let once = t.read("AGENTS.md");
    insta::assert_snapshot!(redact(&t, &once));
    for needle in [
        "plan complete ID",
        "Never write",
        "`status: done` by hand",
        "plan next",
    ] {
        assert!(once.contains(needle), "lacks {needle:?}:\n{once}");
    }
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "agents-md"])));
    assert_eq!(t.read("AGENTS.md"), once, "a reinstall changes no byte");
    insta::assert_snapshot!(shown(&t, &t.ok(&["uninstall", "agents-md"])));
    assert_eq!(t.read("AGENTS.md"), "# Agents\n\nBe kind to the build.\n");
    insta::assert_snapshot!(shown(&t, &t.ok(&["uninstall", "agents-md"])));
    t.run(&["install", "agents-md", "--global"]).code(2);
}

/// `--all` registers the hosts whose CLI is on PATH and no other; `--check` then
/// says per host what is still missing (a trust step, an outdated entry, `plan`
/// off PATH) and exits 1 until nothing is.
#[test]
fn all_registers_the_hosts_on_path_and_check_says_what_is_missing() {
    let t = Test::new().only_bin();
    for cli in ["claude", "codex", "plan"] {
        t.fake_program(cli, "exit 0");
    }
    let run = t.run(&["install", "--check"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!(shown(&t, &run));

    let run = t.ok(&["install", "--all"]);
    insta::assert_snapshot!(shown(&t, &run));
    assert!(!t.root().join(".gemini").exists(), "gemini is not on PATH");
    assert!(!t.root().join(".pi").exists(), "pi is not on PATH");

    let run = t.run(&["install", "--check"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    insta::assert_snapshot!(shown(&t, &run));

    let root = t.root().components().collect::<PathBuf>();
    let config = home(&t).join(".codex/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(
        &config,
        format!(
            "[projects.{:?}]\ntrust_level = \"trusted\"\n",
            root.display().to_string()
        ),
    )
    .unwrap();
    let run = t.ok(&["install", "--check"]);
    insta::assert_snapshot!(shown(&t, &run));

    // An entry an older plan wrote (a shorter timeout) is outdated; a longer one
    // is a person's choice, and stays.
    let settings = t.read(".claude/settings.json");
    let older = settings.replacen("\"timeout\": 10", "\"timeout\": 5", 1);
    assert_ne!(older, settings);
    t.write(".claude/settings.json", &older);
    let run = t.run(&["install", "--check"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    insta::assert_snapshot!(shown(&t, &run));
    t.write(".claude/settings.json", &settings);

    // The hooks run the plan they name by its path: gone, they cannot run.
    let named = t.bin().join("plan");
    t.write(
        ".claude/settings.json",
        settings.replace(
            &format!("\"{BIN} hook"),
            &format!("\"{} hook", named.display()),
        ),
    );
    std::fs::remove_file(&named).unwrap();
    let run = t.run(&["install", "--check"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    insta::assert_snapshot!(shown(&t, &run));
}

#[test]
fn all_with_no_host_on_path_registers_nothing() {
    let t = Test::new().only_bin();
    let run = t.ok(&["install", "--all"]);
    insta::assert_snapshot!(shown(&t, &run));
    assert!(!t.root().join(".claude").exists());
}

#[test]
fn check_sees_gemini_trust_and_its_hooks_switched_off() {
    let t = Test::new().only_bin();
    for cli in ["gemini", "plan"] {
        t.fake_program(cli, "exit 0");
    }
    t.ok(&["install", "gemini"]);
    insta::assert_snapshot!(shown(&t, &t.run(&["install", "--check"])));
    let root = t.root().components().collect::<PathBuf>();
    let trusted = home(&t).join(".gemini/trustedFolders.json");
    std::fs::create_dir_all(trusted.parent().unwrap()).unwrap();
    std::fs::write(
        &trusted,
        format!(
            "{{{:?}: \"TRUST_PARENT\"}}",
            root.join("sibling").display().to_string()
        ),
    )
    .unwrap();
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "--check"])));
    let settings = t
        .read(".gemini/settings.json")
        .replace("\"enabled\": true", "\"enabled\": false");
    t.write(".gemini/settings.json", settings);
    let run = t.run(&["install", "--check"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    insta::assert_snapshot!(shown(&t, &run));
}

/// The repository is a Claude Code marketplace: `.claude-plugin/marketplace.json`
/// lists `plugins/plan`, which is byte for byte the plugin `plan install claude
/// --plugin` builds (so the two cannot drift), in the documented shape: a name, an
/// owner with a name, and plugins whose relative `./` source holds the plugin's
/// manifest under the same name. The real CLI adds it in the e2e tests.
#[test]
fn the_repository_marketplace_lists_the_plugin_plan_builds() {
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let t = Test::new();
    t.ok(&["install", "claude", "--plugin", "built"]);
    for rel in [".claude-plugin/plugin.json", "hooks/hooks.json"] {
        assert_eq!(
            std::fs::read_to_string(source.join("plugins/plan").join(rel)).unwrap(),
            t.read(&format!("built/{rel}")),
            "plugins/plan/{rel} differs from what plan builds: run `plan install claude --plugin plugins/plan`"
        );
    }
    let market =
        json(&std::fs::read_to_string(source.join(".claude-plugin/marketplace.json")).unwrap());
    assert!(
        market["name"]
            .as_str()
            .is_some_and(|n| !n.is_empty() && !n.contains(' '))
    );
    assert!(
        market["owner"]["name"]
            .as_str()
            .is_some_and(|n| !n.is_empty())
    );
    let plugins = market["plugins"].as_array().unwrap();
    assert_eq!(plugins.len(), 1);
    let dir = plugins[0]["source"].as_str().unwrap();
    insta::assert_snapshot!(redact(&t, dir));
    let manifest = json(
        &std::fs::read_to_string(source.join(dir).join(".claude-plugin/plugin.json")).unwrap(),
    );
    assert_eq!(plugins[0]["name"], manifest["name"]);
}

/// Attack (red team): a line a person added inside plan's section of AGENTS.md
/// was removed by the next install and by uninstall. An edited section is theirs:
/// both leave it and say so. A CRLF AGENTS.md gets the section with CRLF.
#[test]
fn an_edited_agents_md_section_is_left_and_crlf_is_kept() {
    let t = Test::new();
    t.write("AGENTS.md", "# Agents\n");
    t.ok(&["install", "agents-md"]);
    let edited = t.read("AGENTS.md").replace(
        "<!-- plan:end -->",
        "- Run `make lint` before `plan complete`.\n<!-- plan:end -->",
    );
    t.write("AGENTS.md", &edited);
    let said = [
        t.run(&["install", "agents-md"]).code(2),
        t.run(&["uninstall", "agents-md"]).code(2),
    ];
    assert_eq!(t.read("AGENTS.md"), edited);
    insta::assert_snapshot!(
        said.iter().map(|r| shown(&t, r)).collect::<Vec<_>>().join(""),
        @r#"
    exit 2
    --- stdout
    --- stderr
    plan: AGENTS.md: plan's section, edited since; left as it is
      hint: to write plan's current one, move what you added out of it, delete the section (from its plan:begin line to its plan:end line) and rerun
    exit 2
    --- stdout
    --- stderr
    plan: AGENTS.md: plan's section, edited since; left as it is
      hint: delete the section by hand (from its plan:begin line to its plan:end line) if it should go
    "#
    );
    t.write("AGENTS.md", "# Agents\r\n\r\nBe kind.\r\n");
    t.ok(&["install", "agents-md"]);
    let crlf = t.read("AGENTS.md");
    assert_eq!(
        crlf.matches('\n').count(),
        crlf.matches("\r\n").count(),
        "{crlf:?}"
    );
    t.ok(&["uninstall", "agents-md"]);
    assert_eq!(t.read("AGENTS.md"), "# Agents\r\n\r\nBe kind.\r\n");
}

/// An AGENTS.md that `plan install agents-md` created holds nothing but plan's
/// section and is new to git: uninstall removes the file. One git tracks stays,
/// emptied, for the user to commit or delete.
#[test]
fn agents_md_created_by_install_goes_with_uninstall() {
    let t = Test::new();
    t.ok(&["install", "agents-md"]);
    t.case(&["uninstall", "agents-md"])
        .stdout("AGENTS.md: removed it; it held only plan's section, and git does not track it\n")
        .check();
    assert!(!t.path("AGENTS.md").exists(), "AGENTS.md is left behind");
    assert_eq!(t.git(&["status", "--porcelain"]), "");

    t.ok(&["install", "agents-md"]);
    t.git(&["add", "AGENTS.md"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["uninstall", "agents-md"])));
    assert_eq!(t.read("AGENTS.md"), "");
}

/// Attack (red team): a person's line added to a file plan installs whole (pi's
/// extension, OpenCode's plugin, the pre-push hook) was written over by the next
/// install and deleted by uninstall; the pre-push hook is not in git, so nothing
/// brought it back. An edited file is the person's: each command leaves it as it
/// is and says so. (The CI workflow is edited by design, its placeholders filled
/// in, and committed: `plan uninstall ci` is how a person asks for it gone.)
/// Copilot's hooks file too: a key added to one of plan's hooks was lost to the
/// next install.
#[test]
fn a_file_plan_installed_and_a_person_edited_is_neither_rewritten_nor_removed() {
    let t = Test::new();
    let mut said = Vec::new();
    let line = |add: &'static str| move |text: String| text + add;
    let copilot_env = |text: String| {
        text.replacen(
            "\"timeoutSec\": 60",
            "\"timeoutSec\": 60,\n        \"env\": {\"PLAN_QUIET\": \"1\"}",
            1,
        )
    };
    type Edit = Box<dyn Fn(String) -> String>;
    let edits: [(&str, &str, Edit); 4] = [
        (
            "pi",
            ".pi/extensions/plan.ts",
            Box::new(line("// my note\n")),
        ),
        (
            "opencode",
            ".opencode/plugin/plan.js",
            Box::new(line("// my note\n")),
        ),
        (
            "git",
            ".git/hooks/pre-push",
            Box::new(line("./scripts/my-lint.sh || exit 1\n")),
        ),
        ("copilot", ".github/hooks/plan.json", Box::new(copilot_env)),
    ];
    for (host, path, edit) in edits {
        t.ok(&["install", host]);
        let edited = edit(t.read(path));
        assert_ne!(edited, t.read(path), "{host}: the edit took");
        t.write(path, &edited);
        for verb in ["install", "uninstall"] {
            let run = t.run(&[verb, host]);
            assert_eq!(t.read(path), edited, "plan {verb} {host}");
            said.extend(
                format!("{}{}", run.stdout, run.stderr)
                    .lines()
                    .filter(|l| l.contains(path.rsplit('/').next().unwrap()))
                    .map(|l| format!("{verb} {host} ({}): {l}", run.code)),
            );
        }
    }
    insta::assert_snapshot!(redact(&t, &said.join("\n")), @"
    install pi (2): plan: .pi/extensions/plan.ts is plan's extension, edited since (or written by a newer plan); left as it is
    uninstall pi (2): plan: .pi/extensions/plan.ts is plan's extension, edited since; left it alone
    install opencode (2): plan: .opencode/plugin/plan.js is plan's plugin, edited since (or written by a newer plan); left as it is
    uninstall opencode (2): plan: .opencode/plugin/plan.js is plan's plugin, edited since; left it alone
    install git (0): git: [TMP]/repo/.git/hooks/pre-push is plan's, edited since; left as it is
    uninstall git (0): git: [TMP]/repo/.git/hooks/pre-push is plan's, edited since; left it alone (delete it by hand if it should go)
    install copilot (2): plan: .github/hooks/plan.json is plan's hooks file, edited since (or written by a newer plan); left as it is
    uninstall copilot (2): plan: .github/hooks/plan.json is plan's hooks file, edited since; left it alone
    ");
}

/// The hooks file the first Copilot release of plan wrote (no `subagentStop`),
/// naming another program, is plan's unedited: an upgrade replaces it.
#[test]
fn copilot_s_hooks_file_from_an_earlier_plan_is_updated() {
    let t = Test::new();
    t.ok(&["install", "copilot", "--command", "/opt/plan/bin/plan"]);
    let path = ".github/hooks/plan.json";
    let current = t.read(path);
    let mut doc: serde_json::Value = serde_json::from_str(&current).unwrap();
    doc["hooks"].as_object_mut().unwrap().remove("subagentStop");
    t.write(path, &(serde_json::to_string_pretty(&doc).unwrap() + "\n"));
    let run = t.ok(&["install", "copilot", "--command", "/opt/plan/bin/plan"]);
    assert_eq!(t.read(path), current);
    assert_eq!(
        run.stdout.lines().next(),
        Some("updated plan's Copilot CLI hooks file at .github/hooks/plan.json")
    );
}

/// Attack (red team): a program that added a key to `.claude/settings.json` while
/// `plan install` merged its hooks (between plan's read and its rename) lost that
/// key to plan's write: 4 keys in 300 writes. The settings are written only while
/// the file still holds what plan read; otherwise nothing is written, and a rerun
/// merges into the new text.
#[test]
fn a_settings_file_changed_while_plan_merges_into_it_keeps_the_change() {
    let t = Test::new();
    t.ok(&["init", "Settings"]);
    let theirs = "{\n  \"model\": \"opus\"\n}\n";
    let changed = "{\n  \"model\": \"opus\",\n  \"theirs\": true\n}\n";
    let mut said = Vec::new();
    for args in [&["install", "claude"][..], &["uninstall", "claude"]] {
        t.write(".claude/settings.json", theirs);
        if args[0] == "uninstall" {
            t.ok(&["install", "claude"]);
        }
        let (run, _) = crate::preconditions::race_with(&t, args, || {
            t.write(".claude/settings.json", changed);
        });
        assert_eq!(t.read(".claude/settings.json"), changed, "plan {args:?}");
        said.push(format!("{} ({}): {}", args[0], run.code, run.stderr));
        // Rerun, it works on the file as it is now.
        t.ok(args);
        assert!(t.read(".claude/settings.json").contains("\"theirs\": true"));
    }
    insta::assert_snapshot!(said.join(""), @"
    install (3): plan: .claude/settings.json changed while plan was working on it; nothing was written
      hint: rerun the command: it works on the file as it is now
    uninstall (3): plan: .claude/settings.json changed while plan was working on it; nothing was written
      hint: rerun the command: it works on the file as it is now
    ");
}

// Attack: a hook entry removed from the host's settings (TaskCompleted, which
// refuses an unproven "done") was reported only as "written by an older plan",
// naming no event: nothing said which gate was gone.
#[test]
fn check_names_each_missing_hook_event() {
    let t = Test::new().only_bin();
    for cli in ["claude", "plan"] {
        t.fake_program(cli, "exit 0");
    }
    t.ok(&["install", "claude"]);
    let mut settings: serde_json::Value =
        serde_json::from_str(&t.read(".claude/settings.json")).unwrap();
    let hooks = settings["hooks"].as_object_mut().unwrap();
    assert!(hooks.remove("TaskCompleted").is_some(), "{hooks:?}");
    assert!(hooks.remove("Stop").is_some(), "{hooks:?}");
    t.write(
        ".claude/settings.json",
        serde_json::to_string_pretty(&settings).unwrap(),
    );
    let run = t.run(&["install", "--check"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let line = run
        .stdout
        .lines()
        .find(|l| l.contains("Claude Code"))
        .unwrap_or_default()
        .to_string();
    insta::assert_snapshot!(line);
}
