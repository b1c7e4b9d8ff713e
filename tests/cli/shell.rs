//! Shell conventions: completions, the man page, --color, --quiet, --json on the
//! commands that report something, and what `plan --help` promises.

use std::process::Command;

use crate::util::{BIN, NOW, Test, fixture, redact, shown};

/// `plan ARGS` on a pseudo-terminal (through `script`) with `TERM` set, and what it printed.
fn tty(t: &Test, args: &str, term: &str) -> String {
    let out = Command::new("script")
        .args(["-qec", &format!("{BIN} {args}"), "/dev/null"])
        .current_dir(&t.cwd)
        .env("PLAN_NOW", NOW)
        .env("TERM", term)
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn completions_for_each_shell() {
    let t = Test::outside_git();
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let run = t.ok(&["completions", shell]);
        // The script asks plan for the words (goal_id_completion tests them).
        insta::assert_snapshot!(format!("completions_{shell}"), redact(&t, &run.stdout));
    }
    t.run(&["completions", "tcsh"]).code(2);
}

#[test]
fn man_page_is_roff_and_covers_the_commands() {
    let run = Test::outside_git().ok(&["man"]);
    assert!(
        run.stdout.starts_with(".ie") || run.stdout.contains(".TH plan"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(".TH plan 1"));
    for needle in [
        "completions",
        "statusline",
        "EXIT STATUS",
        "PLAN_FILE",
        "NO_COLOR",
    ] {
        assert!(run.stdout.contains(needle), "man page lacks {needle}");
    }
}

#[test]
fn color_flag_wins_over_the_terminal() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    let forced = t.ok(&["--color", "always", "show"]).stdout;
    insta::assert_snapshot!(redact(&t, &forced));
    assert!(!t.ok(&["show"]).stdout.contains("\x1b["));
    assert_eq!(tty(&t, "show", "xterm").replace("\r\n", "\n"), forced);
    let never = tty(&t, "--color never show", "xterm");
    insta::assert_snapshot!(redact(&t, &never));
    t.run(&["--color", "sometimes", "show"]).code(2);
}

#[test]
fn a_dumb_terminal_gets_no_colour() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    let dumb = tty(&t, "show", "dumb");
    insta::assert_snapshot!(redact(&t, &dumb));
    assert_eq!(
        tty(&t, "--color always show", "dumb").replace("\r\n", "\n"),
        t.ok(&["--color", "always", "show"]).stdout
    );
}

#[test]
fn quiet_silences_success_but_not_errors() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    let run = t.ok(&["--quiet", "tick", "cache-layer", "2"]);
    assert_eq!(run.stdout, "");
    assert!(t.plan_md().contains("- [x] eviction policy"));
    let run = t.ok(&["-q", "log", "eviction done"]);
    assert_eq!(run.stdout, "");
    t.ok(&["subtask", "cache-layer", "soak test", "--quiet"]);
    insta::assert_snapshot!(shown(&t, &t.run(&["-q", "tick", "nope", "1"]).code(2)));
    assert_eq!(t.ok(&["-q", "judge", "model", "opus-9"]).stdout, "");
    assert!(t.read(".plan/config.yaml").contains("model: opus-9"));
    // The id is what `add` answers, not chatter: scripts capture it.
    assert_eq!(t.ok(&["-q", "add", "Second"]).stdout, "second\n");
}

#[test]
fn add_json_gives_the_id_and_what_it_logged() {
    let t = Test::new().plan("# Plan: x\n\n## Log\n");
    let json = t
        .ok(&[
            "add",
            "Cache layer",
            "--done-when",
            "fast",
            "--active",
            "--json",
        ])
        .json();
    assert_eq!(json["id"], "cache-layer");
    assert_eq!(json["status"], "active");
    let contract = json["contract"].as_str().unwrap();
    assert_eq!(contract.len(), 8);
    let logged: Vec<&str> = json["logged"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(logged.len(), 2, "{logged:?}");
    assert_eq!(
        logged[0],
        format!("2026-06-15 14:02 cache-layer added (contract {contract})")
    );
    assert_eq!(
        logged[1],
        format!("2026-06-15 14:02 cache-layer started (contract {contract})")
    );
    for line in logged {
        assert!(t.plan_md().contains(&format!("- {line}\n")), "{line}");
    }
}

#[test]
fn start_json_gives_the_id_and_what_it_logged() {
    let t = Test::new().plan("# Plan: x\n\n## Log\n");
    t.ok(&["add", "Cache layer", "--done-when", "fast"]);
    let json = t.ok(&["start", "cache", "--json"]).json();
    assert_eq!(json["id"], "cache-layer");
    assert_eq!(json["status"], "active");
    let line = json["logged"][0].as_str().unwrap();
    insta::assert_snapshot!(redact(&t, line));
    assert!(t.plan_md().contains(line));
    let again = t.ok(&["start", "cache-layer", "--json"]).json();
    assert_eq!(again["logged"].as_array().unwrap().len(), 0);
    assert_eq!(again["contract"], json["contract"]);
}

#[test]
fn inject_json_has_structured_fields() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    let json = t.ok(&["inject", "--json"]).json();
    assert_eq!(json["objective"], "Ship the cache layer");
    let active = &json["active"][0];
    assert_eq!(active["id"], "cache-layer");
    assert_eq!(active["progress"]["done"], 1);
    assert_eq!(active["progress"]["total"], 3);
    assert_eq!(active["next_subtask"], "eviction policy");
    assert_eq!(
        active["done_when"],
        "p95 < 50ms on bench-X. If wrong: timeouts in load-test.log"
    );
    assert_eq!(json["ready"], serde_json::json!([]));
    assert_eq!(
        json["last_log"],
        "2026-06-15 14:02 cache client wired; eviction next"
    );
    assert_eq!(json["text"], t.ok(&["inject"]).stdout.trim_end());
}

#[test]
fn statusline_json_has_structured_fields() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    let json = t.ok(&["statusline", "--json"]).json();
    assert_eq!(json["active"], 1);
    assert_eq!(json["ready"], 0);
    assert_eq!(json["goal"], "cache-layer");
    assert_eq!(json["progress"]["done"], 1);
    assert_eq!(json["next_subtask"], "eviction policy");
    assert_eq!(json["text"], t.ok(&["statusline"]).stdout.trim_end());
    let broken = Test::new().plan("# Plan: x\n\n## Goal: A\nstatus: doing\n\n## Log\n");
    let json = broken.ok(&["statusline", "--json"]).json();
    assert_eq!(json["errors"], 1);
    // No plan.md: no line, but still JSON for a script.
    let none = Test::new();
    assert_eq!(none.ok(&["statusline"]).stdout, "");
    let json = none.ok(&["statusline", "--json"]).json();
    assert_eq!(json["active"], 0);
    assert_eq!(json["text"], "");
}

#[test]
fn goal_status_json_is_an_object_without_a_loop() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    let json = t.ok(&["goal", "status", "--json"]).json();
    assert_eq!(json["state"], "none");
    t.ok(&["goal", "--budget", "7"]);
    let json = t.ok(&["goal", "status", "--json"]).json();
    assert_eq!(json["state"], "running");
    assert_eq!(json["budget"], 7);
    t.ok(&["goal", "pause"]);
    assert_eq!(
        t.ok(&["goal", "status", "--json"]).json()["state"],
        "paused"
    );
}

#[test]
fn help_says_bare_plan_lists_and_names_exit_codes_and_environment() {
    let help = Test::outside_git().ok(&["--help"]).stdout;
    assert!(help.contains("`plan` alone shows the task list"), "{help}");
    for needle in [
        "Exit codes:",
        "0  ok",
        "1  a check failed",
        "2  usage",
        "3  environment",
        "PLAN_FILE",
        "PLAN_NOW",
        "PLAN_DISABLED",
        "PLAN_JUDGE",
        "NO_COLOR",
        "XDG_CONFIG_HOME",
        "--color <WHEN>",
        "--quiet",
    ] {
        assert!(help.contains(needle), "--help lacks {needle:?}\n{help}");
    }
}

/// Every variable the source reads is in `--help`, so the list cannot go stale.
#[test]
fn help_names_every_variable_the_source_reads() {
    let help = Test::outside_git().ok(&["--help"]).stdout;
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut missing = Vec::new();
    for var in env_vars_read(&src) {
        // Test seams read only under `cfg(debug_assertions)`: a release build has
        // none, so `--help` lists none (issue 71: no test-only variable there).
        if var.starts_with("PLAN_TEST_") {
            assert!(!help.contains(&var), "--help names the test seam {var}");
            continue;
        }
        if !help.contains(&var) {
            missing.push(var);
        }
    }
    assert!(missing.is_empty(), "--help lacks {missing:?}");
}

/// Names passed to `env::var`/`var_os` (and `crate::env::text`/`os`, their one
/// reader) as string literals, and clap `env = "…"`.
fn env_vars_read(dir: &std::path::Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(env_vars_read(&path));
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // Tests set variables for themselves; only the code that ships counts.
        let text = text.split("#[cfg(test)]").next().unwrap();
        for pat in [
            "env::var(\"",
            "env::var_os(\"",
            "env::text(\"",
            "env::os(\"",
            "env = \"",
            "disabled(\"",
        ] {
            for (i, _) in text.match_indices(pat) {
                let rest = &text[i + pat.len()..];
                let name = &rest[..rest.find('"').unwrap()];
                if !found.iter().any(|f| f == name) {
                    found.push(name.to_string());
                }
            }
        }
    }
    found
}

#[test]
fn install_warns_when_the_command_does_not_exist() {
    let t = Test::new();
    let run = t.ok(&["install", "claude", "--command", "/nonexistent/bin/plan"]);
    insta::assert_snapshot!(shown(&t, &run));
    let run = t.ok(&["install", "codex", "--command", BIN]);
    assert_eq!(run.stderr, "");
    t.write("bin/plan", "not a program");
    let run = t.ok(&["install", "gemini", "--command", "bin/plan"]);
    insta::assert_snapshot!(shown(&t, &run));
}

/// `skeleton` and `remind` report too: `--json` gives the same content as fields.
#[test]
fn skeleton_and_remind_have_json() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    let text = t.ok(&["skeleton"]).stdout;
    let json = t.ok(&["skeleton", "--json"]).json();
    assert_eq!(json["text"], text.trim_end());
    let json = t.ok(&["remind", "--json"]).json();
    assert_eq!(json["due"], false);
    assert_eq!(json["edits"], 0);
    assert_eq!(json["every"], 3);
    assert_eq!(json["text"], serde_json::Value::Null);
}
