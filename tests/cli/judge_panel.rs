//! A judge panel (`judge.panel`): a sign-off needs every judge's accept, the line
//! names each judge, the one record holds each judge's section, and a panel
//! sign-off that lost a judge or whose record was edited is unproven.

use crate::setup::{complete_ship, plan, started, status_of};
use crate::util::{Test, fixture_path, redact, shown};

/// `judge.panel` of fixture command judges, each named by a model so the line tells
/// them apart: `command:first + command:second`.
fn panel(t: &Test, first: &str, second: &str) {
    let judge = |name: &str| {
        fixture_path(&format!("judges/{name}"))
            .display()
            .to_string()
    };
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  timeout_secs: 20\n  panel:\n    - backend: command\n      model: first\n      command: [\"{}\"]\n    - backend: command\n      model: second\n      command: [\"{}\"]\n",
            judge(first),
            judge(second)
        ),
    );
    t.commit_all("panel");
}

/// `ship` started with a panel of `first` and `second`.
fn with_panel(first: &str, second: &str) -> Test {
    let t = started(&plan("ship.md"));
    panel(&t, first, second);
    t
}

const LINE: &str = "judges command:first + command:second accept";

/// The sign-off line of `ship`.
fn signed_line(t: &Test) -> String {
    let md = t.plan_md();
    md.lines()
        .find(|l| l.contains("ship signed off"))
        .unwrap_or_else(|| panic!("no sign-off:\n{md}"))
        .to_string()
}

/// A record's head: the lines before its first section.
fn head(record: &str) -> &str {
    record.split_once("\n## ").expect("a record's sections").0
}

/// The transcript the sign-off line names.
fn transcript_path(line: &str) -> String {
    let (_, tail) = line.split_once("): ").unwrap();
    tail.split('#').next().unwrap().to_string()
}

#[test]
fn one_reject_in_the_panel_is_no_sign_off_and_its_reasons_are_logged_by_judge() {
    let t = with_panel("accept", "reject");
    let run = complete_ship(&t).code(1);
    insta::assert_snapshot!(redact(&t, &run.stdout));
    assert_eq!(status_of(&t, "ship"), "active");
    let md = t.plan_md();
    assert!(!md.contains("signed off"), "{md}");
    let rejected: Vec<&str> = md
        .lines()
        .filter(|l| l.contains("sign-off rejected"))
        .collect();
    assert_eq!(rejected.len(), 1, "{md}");
    assert_eq!(
        rejected,
        [
            "- 2026-06-15 14:02 ship sign-off rejected (judge command:second): eviction policy has no test that fills the cache past capacity; load-test.log is from before the last change to src/cache.rs (.plan/judge/ship-20260615-1402.md)"
        ]
    );
    // The record keeps both judges, the accept too.
    let path = rejected[0]
        .rsplit_once("(")
        .unwrap()
        .1
        .trim_end_matches(')');
    let record = t.read(path);
    insta::assert_snapshot!("reject_record_head", redact(&t, head(&record)));
}

#[test]
fn both_judges_rejecting_log_both_reasons_each_under_its_name() {
    let t = with_panel("reject", "no-verdict");
    let run = complete_ship(&t).code(1);
    // One list on stdout, each item under its judge's name.
    insta::assert_snapshot!(redact(&t, &run.stdout));
    let md = t.plan_md();
    assert!(
        md.contains("ship sign-off rejected (judge command:first): eviction policy"),
        "{md}"
    );
    assert!(
        md.contains("ship sign-off rejected (judge command:second): no verdict"),
        "{md}"
    );
    assert_eq!(status_of(&t, "ship"), "active");
}

#[test]
fn a_judge_of_the_panel_that_times_out_or_cannot_run_is_a_reject() {
    let t = with_panel("accept", "hang");
    t.write(
        ".plan/config.yaml",
        t.read(".plan/config.yaml")
            .replace("timeout_secs: 20", "timeout_secs: 1"),
    );
    let run = complete_ship(&t).code(1);
    insta::assert_snapshot!(redact(&t, &run.stdout));
    assert!(
        t.plan_md()
            .contains("ship sign-off rejected (judge command:second): could not judge: timed out"),
        "{}",
        t.plan_md()
    );
}

#[test]
fn every_judge_accepting_signs_off_naming_each_and_audit_checks_the_record() {
    let t = with_panel("accept", "json-accept");
    let run = complete_ship(&t).code(0);
    insta::assert_snapshot!(redact(&t, &run.stdout));
    let line = signed_line(&t);
    assert_eq!(
        redact(&t, &line),
        "- 2026-06-15 14:02 ship signed off (verify passed, judges command:first + command:second accept, contract d634ac80): .plan/judge/ship-20260615-1402.md#[HASH] (checkpoint [COMMIT])"
    );
    let record = t.read(&transcript_path(&line));
    insta::assert_snapshot!("accept_record_head", redact(&t, head(&record)));
    let judges: Vec<&str> = record
        .lines()
        .filter(|l| l.starts_with("## Judge "))
        .collect();
    assert_eq!(
        judges,
        [
            "## Judge panel",
            "## Judge 1 of 2: command:first",
            "## Judge 2 of 2: command:second"
        ]
    );
    t.ok(&["audit"]);
    t.ok(&["audit", "--reverify"]);
    t.ok(&["lint"]);
    let show = t.ok(&["show", "ship", "--json"]).json();
    assert_eq!(show["proof"]["state"], "proven", "{show}");
    // Command judges are weak, in a panel as alone.
    assert_eq!(
        show["proof"]["warnings"],
        serde_json::json!(["a judge of its panel is a command judge, not a model CLI"]),
        "{show}"
    );
    // As JSON the line lists the judges.
    let events = t.ok(&["events", "--json"]).stdout;
    insta::assert_snapshot!(redact(&t, &events));
}

/// The sign-off, then `edit` applied to plan.md or the record before they are
/// committed (a committed line's removal is caught by audit's history check too).
fn forged(edit: impl Fn(&Test, &str)) -> Test {
    let t = with_panel("accept", "accept");
    complete_ship(&t).code(0);
    t.ok(&["audit"]);
    let line = signed_line(&t);
    edit(&t, &line);
    t
}

/// `plan audit` fails, saying what the snapshot `name` shows, and `plan lint` fails.
fn assert_unproven(t: &Test, name: &str) {
    let audit = t.run(&["audit"]).code(1);
    insta::assert_snapshot!(name, shown(t, &audit));
    let lint = t.run(&["lint"]);
    assert_ne!(lint.code, 0, "lint passed:\n{}{}", lint.stdout, lint.stderr);
}

#[test]
fn a_panel_line_that_dropped_a_judge_is_unproven() {
    let t = forged(|t, line| {
        let dropped = line.replace(LINE, "judge command:first accept");
        t.write("plan.md", t.plan_md().replace(line, &dropped));
    });
    // Its sign-off names judge `command:first`.
    assert_unproven(&t, "audit_line_dropped_a_judge");
    let t = forged(|t, line| {
        let dropped = line.replace(" + command:second", "");
        t.write("plan.md", t.plan_md().replace(line, &dropped));
    });
    // `judges X accept` with one judge is no event at all: done by hand.
    assert_unproven(&t, "audit_line_of_one_judge");
}

#[test]
fn a_panel_record_whose_second_judge_was_edited_is_unproven() {
    let t = forged(|t, line| {
        let path = transcript_path(line);
        let record = t.read(&path);
        let at = record.find("## Judge 2 of 2").unwrap();
        let (head, tail) = record.split_at(at);
        t.write(
            &path,
            format!(
                "{head}{}",
                tail.replace("VERDICT: accept", "VERDICT: accept (edited)")
            ),
        );
    });
    // Its transcript was changed after the sign-off.
    assert_unproven(&t, "audit_second_judge_edited");
}

/// A record rewritten without its second judge's verdict, with the line's hash
/// brought up to date: the header still names the panel, and the line does.
#[test]
fn a_panel_record_that_lost_a_judge_is_unproven_even_with_its_hash_fixed() {
    let t = forged(|t, line| {
        let path = transcript_path(line);
        let record = t
            .read(&path)
            .replace("- panel judge: command:second accept\n", "");
        t.write(&path, &record);
        let hash = t.git(&["hash-object", &path]);
        let old = line.split('#').nth(1).unwrap().split(' ').next().unwrap();
        let fixed = line.replace(old, &hash.trim()[..12]);
        t.write("plan.md", t.plan_md().replace(line, &fixed));
    });
    // Its transcript records the judges command:first; the line names both.
    assert_unproven(&t, "audit_record_lost_a_judge");
}

#[test]
fn judge_flag_overrides_the_panel_with_one_judge() {
    let t = with_panel("reject", "reject");
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--judge",
        "none",
    ]);
    assert_eq!(
        redact(&t, &signed_line(&t)),
        "- 2026-06-15 14:02 ship signed off (verify passed, judge skipped, contract d634ac80): .plan/judge/ship-20260615-1402.md#[HASH] (checkpoint [COMMIT])"
    );
}

#[test]
fn a_panel_sign_off_stays_on_record_once_archived() {
    let t = with_panel("accept", "accept");
    complete_ship(&t).code(0);
    t.ok(&["archive"]);
    t.commit_all("archived");
    // The hooks read the archive on the log's word: a panel line is a sign-off.
    let statusline = t.ok(&["statusline"]).stdout;
    insta::assert_snapshot!(redact(&t, &statusline));
    let inject = t.ok(&["inject"]).stdout;
    insta::assert_snapshot!(redact(&t, &inject));
    t.ok(&["audit"]);
    // The control: the line without its second judge is no sign-off, there too.
    let line = signed_line(&t);
    t.write(
        "plan.md",
        t.plan_md()
            .replace(&line, &line.replace(" + command:second", "")),
    );
    let statusline = t.ok(&["statusline"]).stdout;
    insta::assert_snapshot!(redact(&t, &statusline));
    insta::assert_snapshot!(shown(&t, &t.ok(&["inject"])));
}

#[test]
fn panel_config_errors_name_the_line() {
    let t = started(&plan("ship.md"));
    let accept = fixture_path("judges/accept").display().to_string();
    for yaml in [
        // .plan/config.yaml:3: judge.panel: a panel needs two or more judges, found one
        format!("judge:\n  panel:\n    - backend: command\n      command: [\"{accept}\"]\n"),
        // .plan/config.yaml:4: judge.panel: unknown backend "clade"
        "judge:\n  panel:\n    - backend: claude\n    - backend: clade\n".to_string(),
        // .plan/config.yaml:3: judge.panel: set together with judge.backend in the same file
        "judge:\n  backend: claude\n  panel:\n    - backend: claude\n    - backend: codex\n"
            .to_string(),
        // .plan/config.yaml:4: judge.panel: a panel judge names its backend
        "judge:\n  panel:\n    - backend: claude\n    - backend: auto\n".to_string(),
    ] {
        t.write(".plan/config.yaml", &yaml);
        let run = complete_ship(&t).code(2);
        insta::assert_snapshot!(redact(&t, &run.stderr));
    }
}

/// A judge of the panel that writes to the working tree fails the panel, though
/// both accepted: the one snapshot around both runs sees it.
#[test]
fn a_panel_judge_that_changes_the_tree_fails_the_panel() {
    let t = with_panel("accept", "edits-file");
    let run = complete_ship(&t).code(1);
    insta::assert_snapshot!(redact(&t, &run.stdout));
    let md = t.plan_md();
    assert!(
        md.contains("ship sign-off rejected (containment): a judge of the panel changed the working tree (judge-was-here.txt)"),
        "{md}"
    );
    assert!(!md.contains("signed off"), "{md}");
}

/// The judges run at the same time: each waits for the other to have started, so
/// one after the other the first would give up and answer nothing.
#[test]
fn the_judges_of_a_panel_run_at_the_same_time() {
    let t = started(&plan("ship.md"));
    let marks = t.dir.path().display().to_string();
    let judge = |me: &str, other: &str| {
        t.fake_program(
            me,
            &format!(
                "cat >/dev/null\ntouch {marks}/{me}.started\nfor i in $(seq 1 50); do\n  [ -e {marks}/{other}.started ] && exec printf 'VERDICT: accept\\nmissing: none\\n'\n  sleep 0.1\ndone\nprintf 'the other judge never started\\n'\n"
            ),
        )
        .display()
        .to_string()
    };
    let (a, b) = (judge("a", "b"), judge("b", "a"));
    t.write(
        ".plan/config.yaml",
        format!("judge:\n  panel:\n    - backend: command\n      command: [\"{a}\"]\n    - backend: command\n      command: [\"{b}\"]\n"),
    );
    t.commit_all("panel");
    complete_ship(&t).code(0);
    assert_eq!(
        redact(&t, &signed_line(&t)),
        "- 2026-06-15 14:02 ship signed off (verify passed, judges command + command accept, contract d634ac80): .plan/judge/ship-20260615-1402.md#[HASH] (checkpoint [COMMIT])"
    );
}

#[test]
fn plan_judge_shows_the_panel() {
    let t = Test::new().with_bin();
    t.fake_program("codex", "exit 0");
    t.write(
        ".plan/config.yaml",
        "judge:\n  timeout_secs: 30\n  panel:\n    - backend: codex\n      model: o3\n    - backend: command\n      command: [\"./judge.sh\"]\n",
    );
    let codex = t.bin().join("codex").display().to_string();
    // The columns are as wide as the temporary path: compared word by word.
    let shown: Vec<String> = t
        .ok(&["judge"])
        .stdout
        .replace(&codex, "BIN/codex")
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        shown,
        [
            "a panel of 2: every judge must accept (`plan complete --judge NAME` runs one instead)",
            "judge 1 codex:o3 (BIN/codex) .plan/config.yaml",
            "judge 2 command (./judge.sh) .plan/config.yaml",
            "timeout 30s each .plan/config.yaml",
        ]
    );
    let json = t.ok(&["judge", "--json"]).json();
    assert_eq!(json["panel"][0]["backend"], "codex");
    assert_eq!(json["panel"][0]["model"], "o3");
    assert_eq!(json["panel"][0]["program"], codex);
    assert_eq!(json["panel"][1]["command"][0], "./judge.sh");
    assert_eq!(json["sources"]["panel"], "repo");
}

/// `plan export` lists a panel's judges, and its schema says so.
#[test]
fn export_lists_the_panel_and_validates_against_its_schema() {
    let t = with_panel("accept", "accept");
    complete_ship(&t).code(0);
    let schema: serde_json::Value =
        serde_json::from_str(&t.ok(&["export", "--schema"]).stdout).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let doc = t.ok(&["export"]).json();
    let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let judged: Vec<&serde_json::Value> = doc["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["event"].get("judged"))
        .collect();
    assert_eq!(
        judged,
        [&serde_json::json!({"kind": "panel", "judges": ["command:first", "command:second"]})]
    );
    // A panel whose judges are not a list fails the schema: it describes them.
    let mut bad = doc.clone();
    for line in bad["log"].as_array_mut().unwrap() {
        if line["event"].get("judged").is_some() {
            line["event"]["judged"]["judges"] = serde_json::json!("command:first + command:second");
        }
    }
    assert!(!validator.is_valid(&bad));
}

// Attack: a panel judge the agent wrote, inside the repository, named by its
// absolute path (a relative one would resolve in the judged copy, which is a copy
// of the agent's files too). The panel's other judge is genuine.
#[test]
fn a_panel_judge_inside_the_repository_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let t = started(&plan("ship.md"));
    t.write(
        "tools/judge",
        format!(
            "#!/bin/sh\nexec '{}' \"$@\"\n",
            fixture_path("judges/accept").display()
        ),
    );
    let inside = t.path("tools/judge");
    std::fs::set_permissions(&inside, std::fs::Permissions::from_mode(0o755)).unwrap();
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  timeout_secs: 20\n  panel:\n    - backend: command\n      model: first\n      command: [\"{}\"]\n    - backend: command\n      model: second\n      command: [\"{}\"]\n",
            fixture_path("judges/accept").display(),
            inside.display()
        ),
    );
    t.commit_all("panel");
    let before = t.plan_md();
    insta::assert_snapshot!(shown(&t, &complete_ship(&t).code(3)));
    assert_eq!(t.plan_md(), before, "nothing was written");
}
