//! One rule, one verdict: lint, doctor and the task list judge a plan by one table
//! of rules, and name each rule by its id.

use crate::util::{Test, fixture, shown};

/// A goal whose status line is `status`, with an otherwise clean contract.
fn with_status_line(status: &str) -> String {
    format!(
        "# Plan: x\n\n## Goal: A\n<!-- id: a -->\n{status}\ndone_when: y\nfailure_modes:\n- verify passes on a trivial test\n\n## Log\n"
    )
}

#[test]
fn near_miss_status_lines_get_one_verdict_and_one_repair() {
    for line in [
        "Status: Active",
        "status active",
        "status: ACTIVE",
        "  status: active",
    ] {
        let t = Test::new().plan(&with_status_line(line));
        insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
        let json = t.run(&["lint", "--json"]).code(1).json();
        assert_eq!(json["problems"][0]["rule"], "malformed-status", "{line}");
        assert_eq!(json["problems"][0]["severity"], "error", "{line}");
        // Read as open, shown with the error, and not written to.
        insta::assert_snapshot!(shown(&t, &t.ok(&["show"])));
        t.run(&["log", "x"]).code(0);
        t.run(&["start", "a"]).code(2);
        let json = t.run(&["doctor", "--json"]).code(1).json();
        assert_eq!(json["findings"][0]["rule"], "malformed-status", "{line}");
        assert_eq!(json["findings"][0]["fixable"], true, "{line}");
        insta::assert_snapshot!(shown(&t, &t.ok(&["doctor", "--fix"])));
        assert!(
            t.plan_md().starts_with(&with_status_line("status: active")),
            "{line}"
        );
        insta::assert_snapshot!(shown(&t, &t.ok(&["lint"])));
    }
}

#[test]
fn a_status_line_naming_no_status_is_reported_not_repaired() {
    let t = Test::new().plan(&with_status_line("Status: doing"));
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
    t.run(&["doctor", "--fix"]).code(1);
    assert_eq!(t.plan_md(), with_status_line("Status: doing"));
    // Prose that starts with the word is not a status line.
    let t = Test::new().plan(&with_status_line(
        "status: open\nStatus of the work is unclear",
    ));
    insta::assert_snapshot!(shown(&t, &t.ok(&["lint"])));
}

#[test]
fn missing_failure_modes_are_judged_alike_on_open_and_active_goals() {
    for status in ["open", "active"] {
        let t = Test::new().plan(&format!(
            "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: {status}\ndone_when: y\n\n## Log\n"
        ));
        insta::assert_snapshot!(shown(&t, &t.ok(&["lint"])));
    }
}

#[test]
fn lint_names_each_rule_in_text_and_json() {
    let t = Test::new().plan(
        "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\nverify: make\nfailure_modes:\n- slow\n\n## Log\n",
    );
    let run = t.run(&["lint"]).code(1);
    insta::assert_snapshot!(shown(&t, &run));
    let json = t.run(&["lint", "--json"]).code(1).json();
    let rules: Vec<&str> = json["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["no-done-when", "no-gaming-failure-mode"]);
}

#[test]
fn lint_and_doctor_give_a_rule_the_same_severity() {
    let t = Test::new().plan(&fixture("plans/doctor-before.md"));
    let lint = t.run(&["lint", "--json"]).code(1).json();
    let doctor = t.run(&["doctor", "--json"]).code(1).json();
    let findings = doctor["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    for finding in findings {
        let same = lint["problems"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["rule"] == finding["rule"] && p["line"] == finding["line"])
            .unwrap_or_else(|| panic!("lint does not report {finding}"));
        assert_eq!(same["severity"], finding["severity"], "{finding}");
    }
    insta::assert_snapshot!(shown(&t, &t.run(&["doctor"]).code(1)));
}

#[test]
fn lint_lists_the_rule_table() {
    let t = Test::new();
    let table = t.ok(&["lint", "--rules"]).stdout;
    let row = |id: &str| {
        table
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("no row for {id}:\n{table}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(
        row("no-failure-modes"),
        "no-failure-modes plan.md warning warning - - error - -"
    );
    assert_eq!(
        row("malformed-status"),
        "malformed-status plan.md error error error error - yes rewrites it as plan reads it"
    );
    // The table is plan's, not the repository's: it prints anywhere.
    assert_eq!(Test::outside_git().ok(&["lint", "--rules"]).stdout, table);
    let json = t.ok(&["lint", "--rules", "--json"]).json();
    let unproven = json
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rule"] == "unproven")
        .unwrap();
    assert_eq!(unproven["done"], "error");
    assert_eq!(unproven["open"], serde_json::Value::Null);
    assert_eq!(unproven["task_list"], true);
}
