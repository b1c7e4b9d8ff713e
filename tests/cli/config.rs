//! Settings and `plan judge`: what it shows and from which file, what `plan judge
//! model|backend` writes (and keeps), and how a bad settings file is reported.

use std::path::Path;

use crate::util::{Test, redact, redact_hosts, shown};

/// A test whose PATH is one empty directory, so `auto` finds only what a test puts
/// there.
fn hermetic(t: Test) -> Test {
    t.only_bin()
}

fn fake_program(t: &Test, name: &str) {
    t.fake_program(name, "exit 0\n");
}

fn home(t: &Test) -> std::path::PathBuf {
    t.dir.path().join("home")
}

fn write_user_config(t: &Test, text: &str) {
    let dir = home(t).join(".config").join("plan");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.yaml"), text).unwrap();
}

fn read_user_config(t: &Test) -> String {
    std::fs::read_to_string(home(t).join(".config/plan/config.yaml")).unwrap()
}

#[test]
fn judge_shows_the_defaults_and_that_no_judge_was_found() {
    let t = hermetic(Test::new());
    insta::assert_snapshot!(redact_hosts(&t.ok(&["judge"]).stdout), @"
    backend  auto → none found      default
    model    the backend's default  default
    timeout  600s                   default
    none found: `plan complete --judge none` skips the judge, or install one of HOSTS, llm
    ");
}

#[test]
fn auto_takes_the_first_agent_on_path() {
    let t = hermetic(Test::new());
    fake_program(&t, "llm");
    fake_program(&t, "pi");
    let run = t.ok(&["judge"]);
    let pi = t.dir.path().join("bin").join("pi");
    assert_eq!(
        run.stdout.lines().next().unwrap(),
        format!("backend  auto → pi ({})  default", pi.display())
    );
    assert_eq!(run.stdout.lines().count(), 3, "{}", run.stdout);
}

#[test]
fn the_repository_file_wins_over_the_users_key_by_key() {
    let t = hermetic(Test::new());
    write_user_config(
        &t,
        "judge:\n  backend: codex\n  model: user-model\n  timeout_secs: 120\n",
    );
    t.write(".plan/config.yaml", "judge:\n  model: repo-model\n");
    insta::assert_snapshot!(t.ok(&["judge"]).stdout, @"
    backend  codex (not found on PATH)  ~/.config/plan/config.yaml
    model    repo-model                 .plan/config.yaml
    timeout  120s                       ~/.config/plan/config.yaml
    ");
    let json = t.ok(&["judge", "--json"]).json();
    assert_eq!(json["backend"], "codex");
    assert_eq!(json["resolved"]["backend"], "codex");
    assert_eq!(json["resolved"]["program"], serde_json::Value::Null);
    assert_eq!(json["model"], "repo-model");
    assert_eq!(json["timeout_secs"], 120);
    assert_eq!(json["sources"]["backend"], "user");
    assert_eq!(json["sources"]["model"], "repo");
    assert_eq!(json["sources"]["command"], "default");
    assert_eq!(
        json["files"]["repo"],
        t.root().join(".plan/config.yaml").display().to_string()
    );
}

#[test]
fn xdg_config_home_holds_the_users_file_when_set() {
    let xdg = tempfile::tempdir().unwrap();
    let t = hermetic(Test::new()).env("XDG_CONFIG_HOME", &xdg.path().display().to_string());
    let dir = xdg.path().join("plan");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.yaml"), "judge:\n  timeout_secs: 42\n").unwrap();
    write_user_config(&t, "judge:\n  timeout_secs: 7\n");
    let json = t.ok(&["judge", "--json"]).json();
    assert_eq!(json["timeout_secs"], 42);
    t.ok(&["judge", "model", "--global", "m"]);
    assert!(
        std::fs::read_to_string(dir.join("config.yaml"))
            .unwrap()
            .contains("  model: m\n")
    );
}

#[test]
fn judge_model_persists_to_the_repository_file_keeping_the_rest() {
    let t = hermetic(Test::new());
    let before = "# The team's judge. Ask before changing.\njudge:\n  backend: claude  # team default\n\nloop:\n  budget: 9\n";
    t.write(".plan/config.yaml", before);
    let run = t.ok(&["judge", "model", "claude-opus-4"]);
    insta::assert_snapshot!(run.stdout, @"set judge.model to claude-opus-4 in .plan/config.yaml");
    assert_eq!(
        t.read(".plan/config.yaml"),
        before.replace("team default\n", "team default\n  model: claude-opus-4\n")
    );
    insta::assert_snapshot!(t.ok(&["judge"]).stdout, @"
    backend  claude (not found on PATH)  .plan/config.yaml
    model    claude-opus-4               .plan/config.yaml
    timeout  600s                        default
    ");
    t.ok(&["judge", "model", "gpt-5"]);
    assert!(t.read(".plan/config.yaml").contains("  model: gpt-5\n"));
}

#[test]
fn judge_model_creates_the_file_and_clears_back_to_null() {
    let t = hermetic(Test::new());
    t.ok(&["judge", "model", "anthropic/claude-sonnet-4"]);
    assert_eq!(
        t.read(".plan/config.yaml"),
        "judge:\n  model: anthropic/claude-sonnet-4\n"
    );
    insta::assert_snapshot!(t.ok(&["judge", "model", "--clear"]).stdout, @"set judge.model to null (the backend's default) in .plan/config.yaml");
    assert_eq!(t.read(".plan/config.yaml"), "judge:\n  model: null\n");
    t.ok(&["judge", "model", "x"]);
    t.ok(&["judge", "model", "none"]);
    assert_eq!(t.read(".plan/config.yaml"), "judge:\n  model: null\n");
    t.run(&["judge", "model"]).code(2);
}

#[test]
fn judge_backend_validates_and_persists() {
    let t = hermetic(Test::new());
    // The one place the host list is spelled out, as a person reads it.
    let run = t.run(&["judge", "backend", "gpt"]).code(2);
    insta::assert_snapshot!(run.stderr, @r#"
    plan: unknown backend "gpt" (expected auto, claude, codex, pi, gemini, droid, opencode, copilot, qwen, llm, command or none)
      hint: auto takes the first of claude, codex, pi, gemini, droid, opencode, copilot, qwen and llm found on PATH
    "#);
    assert!(!t.path(".plan").exists());
    let run = t.ok(&["judge", "backend", "command"]);
    insta::assert_snapshot!(run.stdout, @r#"
    set judge.backend to command in .plan/config.yaml
    note: judge.command is empty; set it with `plan judge command ~/.local/bin/my-judge` (a program outside the repository)
    "#);
    t.write(
        ".plan/config.yaml",
        "judge:\n  backend: command\n  command: [./judge.sh, --strict]\n",
    );
    insta::assert_snapshot!(t.ok(&["judge"]).stdout, @r#"
    backend  command                     .plan/config.yaml
    command  ["./judge.sh", "--strict"]  .plan/config.yaml
    model    the backend's default       default
    timeout  600s                        default
    "#);
    fake_program(&t, "gemini");
    t.ok(&["judge", "backend", "auto"]);
    assert_eq!(
        t.read(".plan/config.yaml"),
        "judge:\n  backend: auto\n  command: [./judge.sh, --strict]\n"
    );
    assert_eq!(
        t.ok(&["judge", "--json"]).json()["resolved"]["backend"],
        "gemini"
    );
}

#[test]
fn global_writes_the_users_file_even_outside_a_repository() {
    let t = hermetic(Test::outside_git());
    let run = t.ok(&["judge", "model", "--global", "gpt-5"]);
    insta::assert_snapshot!(run.stdout, @"set judge.model to gpt-5 in ~/.config/plan/config.yaml");
    assert_eq!(read_user_config(&t), "judge:\n  model: gpt-5\n");
    t.ok(&["judge", "backend", "codex", "--global"]);
    assert_eq!(
        read_user_config(&t),
        "judge:\n  model: gpt-5\n  backend: codex\n"
    );
    let run = t.run(&["judge", "model", "x"]).code(3);
    insta::assert_snapshot!(redact(&t, &run.stderr));
    t.run(&["judge"]).code(3);
}

#[test]
fn global_says_when_the_repository_overrides_it() {
    let t = hermetic(Test::new());
    t.write(".plan/config.yaml", "judge:\n  model: team-model\n");
    insta::assert_snapshot!(t.ok(&["judge", "model", "--global", "mine"]).stdout, @"
    set judge.model to mine in ~/.config/plan/config.yaml
    note: .plan/config.yaml sets judge.model to team-model, and the repository's file wins here
    ");
    assert_eq!(t.ok(&["judge", "--json"]).json()["model"], "team-model");
}

#[test]
fn a_bad_settings_file_exits_2_naming_file_line_and_key() {
    let t = hermetic(Test::new());
    t.write(
        ".plan/config.yaml",
        "# shared\njudge:\n  backend: gpt\n  timeout_secs: 60\n",
    );
    let run = t.run(&["judge"]).code(2);
    insta::assert_snapshot!(redact_hosts(&run.stderr), @r#"
    .plan/config.yaml:3: judge.backend: unknown backend "gpt" (expected auto, HOSTS, llm, command or none)
        3 |   backend: gpt
      hint: remove the line to use the default, auto
    "#);
    // Nothing is edited in a file that does not load.
    t.run(&["judge", "model", "x"]).code(2);
    assert!(t.read(".plan/config.yaml").contains("backend: gpt"));

    t.write(".plan/config.yaml", "judge:\n  timout_secs: 60\n");
    let run = t.run(&["judge"]).code(2);
    insta::assert_snapshot!(run.stderr, @"
    .plan/config.yaml:2: judge.timout_secs: unknown key
        2 |   timout_secs: 60
      hint: judge takes backend, model, command, timeout_secs or panel; did you mean judge.timeout_secs?
    ");

    std::fs::remove_file(t.path(".plan/config.yaml")).unwrap();
    write_user_config(&t, "judge:\n  timeout_secs: soon\n");
    let run = t.run(&["judge"]).code(2);
    insta::assert_snapshot!(run.stderr, @r#"
    ~/.config/plan/config.yaml:2: judge.timeout_secs: expected a whole number, found "soon"
        2 |   timeout_secs: soon
      hint: remove the line to use the default, 600
    "#);
}

#[test]
fn a_flow_style_section_is_not_edited() {
    let t = hermetic(Test::new());
    let before = "judge: {backend: claude}\n";
    t.write(".plan/config.yaml", before);
    let run = t.run(&["judge", "model", "x"]).code(2);
    insta::assert_snapshot!(run.stderr, @"
    plan: .plan/config.yaml: cannot set judge.model: `judge:` is written in flow style ({...}), which plan does not edit
      hint: write it as a block: `judge:` alone on its line, each key on its own line indented under it
    ");
    assert_eq!(t.read(".plan/config.yaml"), before);
}

/// `plan judge`, `plan draft --backend` and `plan claims --remote` set a key by
/// editing lines, and write only what re-reads as the key set: a quoted key the line
/// editor does not see would be set twice, so the file is left as it was.
#[test]
fn a_key_the_line_editor_cannot_see_is_left_for_the_person() {
    let t = Test::new();
    t.git(&["remote", "add", "origin", "/nowhere"]);
    let t = hermetic(t);
    let cases: [(&str, &[&str]); 3] = [
        ("judge:\n  \"model\": x\n", &["judge", "model", "m"]),
        (
            "draft:\n  \"backend\": pi\n",
            &["draft", "--backend", "codex", "x"],
        ),
        (
            "claims:\n  \"remote\": x\n",
            &["claims", "--remote", "origin"],
        ),
    ];
    let mut said = Vec::new();
    for (before, args) in cases {
        t.write(".plan/config.yaml", before);
        said.push(t.run(args).code(2).stderr);
        assert_eq!(t.read(".plan/config.yaml"), before);
    }
    insta::assert_snapshot!(said.join(""), @"
    plan: .plan/config.yaml: setting judge.model line by line would break the file (.plan/config.yaml:3: judge.model: set more than once); nothing was written
      hint: set `model:` under `judge:` in .plan/config.yaml by hand
    plan: .plan/config.yaml: setting draft.backend line by line would break the file (.plan/config.yaml:3: draft.backend: set more than once); nothing was written
      hint: set `backend:` under `draft:` in .plan/config.yaml by hand
    plan: .plan/config.yaml: setting claims.remote line by line would break the file (.plan/config.yaml:3: claims.remote: set more than once); nothing was written
      hint: set `remote:` under `claims:` in .plan/config.yaml by hand
    ");
}

#[test]
fn the_readme_settings_are_the_defaults_and_load() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/settings.md"))
            .unwrap();
    let settings = &readme[readme.find("# Settings").unwrap()..];
    let yaml = settings
        .split_once("```yaml\n")
        .unwrap()
        .1
        .split_once("```\n")
        .unwrap()
        .0;
    let t = hermetic(Test::new());
    t.write(".plan/config.yaml", yaml);
    let json = t.ok(&["judge", "--json"]).json();
    assert_eq!(json["backend"], "auto");
    assert_eq!(json["model"], serde_json::Value::Null);
    assert_eq!(json["timeout_secs"], 600);
    assert_eq!(json["sources"]["backend"], "repo");
    assert_eq!(json["sources"]["timeout_secs"], "repo");
    // Every key equal to the default: `src/config.rs`'s unit test
    // `the_readme_settings_are_the_defaults` compares them all.
}

/// The settings page names every judge backend plan reads, in plan's order.
#[test]
fn the_readme_settings_name_every_backend() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/settings.md"))
            .unwrap();
    let settings = &readme[readme.find("# Settings").unwrap()..];
    let listed = settings
        .lines()
        .find_map(|l| l.strip_prefix("  backend: auto          # "))
        .expect("the settings list the backends")
        .replace(" | ", ", ");
    let t = hermetic(Test::new());
    t.write(".plan/config.yaml", "judge:\n  backend: nope\n");
    let run = t.run(&["judge"]).code(2);
    let expected = run
        .stderr
        .split_once("(expected ")
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(names, _)| names.replace(" or ", ", "))
        .unwrap_or_else(|| panic!("{}", run.stderr));
    assert_eq!(listed, expected);
}

/// Issue 71: `plan judge command PATH --global` stored `[PATH, "--global"]` in the
/// repository's settings and exited 0, and a trailing `-q` was swallowed the same
/// way. plan's own flags count anywhere before a `--`; after it, every word is the
/// program's.
#[test]
fn judge_command_takes_its_own_flags_before_a_double_dash() {
    let t = hermetic(Test::new());
    t.case(&[
        "judge",
        "command",
        "/opt/judge.sh",
        "--strict",
        "--global",
        "-q",
    ])
    .check();
    assert!(!t.root().join(".plan/config.yaml").exists());
    let user = t.dir.path().join("home/.config/plan/config.yaml");
    assert_eq!(
        std::fs::read_to_string(&user).unwrap(),
        "judge:\n  command: [\"/opt/judge.sh\",\"--strict\"]\n  backend: command\n"
    );
    t.ok(&["judge", "command", "/opt/judge.sh", "--", "--global", "-q"]);
    assert_eq!(
        t.read(".plan/config.yaml"),
        "judge:\n  command: [\"/opt/judge.sh\",\"--global\",\"-q\"]\n  backend: command\n"
    );
}

/// `plan judge command ARGV…` sets the command judge, argv and backend, without
/// hand-editing YAML; the judge it sets is the one `plan judge` then shows.
#[test]
fn judge_command_sets_the_argv_and_the_backend() {
    let t = hermetic(Test::new());
    t.write(
        ".plan/config.yaml",
        "# the team's judge\njudge:\n  model: m1\n",
    );
    t.case(&["judge", "command", "/opt/judge.sh", "--strict", "two words"])
        .stdout(
            "set judge.command to [\"/opt/judge.sh\", \"--strict\", \"two words\"] in .plan/config.yaml\nset judge.backend to command in .plan/config.yaml\n",
        )
        .check();
    assert_eq!(
        t.read(".plan/config.yaml"),
        "# the team's judge\njudge:\n  model: m1\n  command: [\"/opt/judge.sh\",\"--strict\",\"two words\"]\n  backend: command\n"
    );
    let json = t.ok(&["judge", "--json"]).json();
    assert_eq!(json["backend"], "command");
    assert_eq!(
        json["command"],
        serde_json::json!(["/opt/judge.sh", "--strict", "two words"])
    );
    t.case(&["judge", "command", ""])
        .status(2)
        .stderr("plan: the judge's program is empty\n  hint: plan judge command /path/to/judge [ARG]…\n")
        .check();
}

/// Attack: the agent, with a shell, sets a judge that always accepts in one line
/// (`plan judge command ~/bin/yes-judge`, a script it wrote outside the repository)
/// and signs its goal off. What issue 22 decided holds: the sign-off is named weak
/// everywhere it shows (the log line says `judge command`, `plan show` and `plan
/// audit` say a command judge), and `plan audit --strict`, the CI gate, fails on
/// it. The script given as text (`/bin/sh -c 'echo VERDICT: accept'`) is refused
/// when set: a command judge is a program (gate_key.rs).
#[test]
fn an_always_accept_command_judge_set_in_one_line_is_a_weak_sign_off() {
    let t = Test::new().plan(
        "# Plan: Ship\n\n## Goal: Hard thing\n<!-- id: hard -->\nstatus: active\ndone_when: README exists\nverify: test -f README.md\n\n## Log\n",
    );
    t.write("README.md", "hi\n");
    t.commit_all("start");
    let inline = [
        "judge",
        "command",
        "/bin/sh",
        "-c",
        "cat >/dev/null; echo 'VERDICT: accept'",
    ];
    t.run(&inline).code(2);
    let judge = t.fake_program("yes-judge", "cat >/dev/null; echo 'VERDICT: accept'\n");
    t.ok(&["judge", "command", judge.to_str().unwrap()]);
    t.ok(&[
        "complete",
        "hard",
        "--evidence",
        "done",
        "--path",
        "README.md",
    ]);
    assert!(
        t.plan_md()
            .contains("hard signed off (verify passed, judge command accept,"),
        "{}",
        t.plan_md()
    );
    insta::assert_snapshot!(crate::util::redact(&t, &t.ok(&["show", "hard"]).stdout));
    t.git(&["add", "-A"]);
    t.commit_all("signed off");
    insta::assert_snapshot!(crate::util::redact(
        &t,
        &t.run(&["audit", "--strict"]).code(1).stdout
    ));
}

/// Attack: `plan judge command` naming a judge the agent wrote inside the
/// repository, found through PATH (a `./bin` a direnv put first) or through a
/// symlink outside it. Both are refused when the sign-off runs, and no goal is
/// signed off (passes: caught by #22's containment).
#[test]
fn a_command_judge_inside_the_repository_is_refused_by_path_or_by_symlink() {
    use std::os::unix::fs::PermissionsExt as _;
    let plan = "# Plan: Ship\n\n## Goal: Hard thing\n<!-- id: hard -->\nstatus: active\ndone_when: README exists\nverify: test -f README.md\n\n## Log\n";
    let t = Test::new().plan(plan);
    let bin = t.root().join("bin");
    t.write("README.md", "hi\n");
    t.write(
        "bin/myjudge",
        "#!/bin/sh\ncat >/dev/null\necho 'VERDICT: accept'\n",
    );
    std::fs::set_permissions(bin.join("myjudge"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let link = t.dir.path().join("myjudge-link");
    std::os::unix::fs::symlink(bin.join("myjudge"), &link).unwrap();
    t.commit_all("start");
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let t = t.env("PATH", &path);
    for judge in ["myjudge", link.to_str().unwrap()] {
        // Set by hand: `plan judge command` refuses both when set (below).
        t.write(
            ".plan/config.yaml",
            format!("judge:\n  backend: command\n  command: [\"{judge}\"]\n"),
        );
        insta::assert_snapshot!(shown(
            &t,
            &t.run(&[
                "complete",
                "hard",
                "--evidence",
                "done",
                "--path",
                "README.md",
            ])
            .code(3)
        ));
    }
    assert!(!t.plan_md().contains("signed off"), "{}", t.plan_md());
}

/// Issue 36: `plan judge command ./judge.sh` (or a name PATH finds inside the
/// repository) is refused when it is set, exit 2 saying why and what to do, and the
/// settings are left as they were; before, it was accepted and every sign-off then
/// refused the judge.
#[test]
fn a_command_judge_inside_the_repository_is_refused_when_set() {
    use std::os::unix::fs::PermissionsExt as _;
    let t = hermetic(Test::new());
    t.write("judge.sh", "#!/bin/sh\necho 'VERDICT: accept'\n");
    t.write("bin/myjudge", "#!/bin/sh\necho 'VERDICT: accept'\n");
    for file in ["judge.sh", "bin/myjudge"] {
        std::fs::set_permissions(t.path(file), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    t.write(".plan/config.yaml", "judge:\n  model: m1\n");
    let root = t.root().canonicalize().unwrap();
    let inside = root.join("judge.sh");
    for program in [
        "./judge.sh",
        "judge.sh/../judge.sh",
        inside.to_str().unwrap(),
    ] {
        let run = t.run(&["judge", "command", program, "--strict"]).code(2);
        insta::assert_snapshot!(redact(&t, &run.stderr));
    }
    let path = format!("{}:/usr/bin:/bin", root.join("bin").display());
    let t = t.env("PATH", &path);
    insta::assert_snapshot!(shown(&t, &t.run(&["judge", "command", "myjudge"]).code(2)));
    assert_eq!(t.read(".plan/config.yaml"), "judge:\n  model: m1\n");
}
