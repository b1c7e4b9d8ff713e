//! A crafted test file of 2 MB (nests that never close, one name per line) is read
//! within a bounded multiple of its size: `plan show ID --json`, which runs the
//! weakened-test check as a sign-off does, with its data segment capped, finishes.
//! Each shape took gigabytes before (`scripts/bench-crafted` has them all).

use crate::util::{Test, capped};

const PLAN: &str = "# Plan: T

## Goal: Calc
<!-- id: calc -->
status: open
done_when: calc works
verify: true
- [ ] write calc

## Log
";

/// `unit(0)`, `unit(1)`, … while the text stays under 1.9 MB, as bench-crafted's
/// `fill` does.
fn fill(unit: impl Fn(usize) -> String) -> String {
    let mut out = String::new();
    for n in 0.. {
        let next = unit(n);
        if out.len() + next.len() > 1_900_000 {
            break;
        }
        out.push_str(&next);
    }
    out
}

/// A JavaScript test file at the start: one test, one check.
const JS_START: &str = "test('a', () => {\n  expect(f(1)).toBe(1);\n});\n";

/// A goal started on `path` holding `start`, then `path` rewritten as `crafted`.
fn crafted(path: &str, start: &str, crafted: &str) -> Test {
    let t = Test::new();
    t.write(path, start);
    t.write("plan.md", PLAN);
    t.commit_all("base");
    t.ok(&["start", "calc"]);
    t.commit_all("start calc");
    t.write(path, crafted);
    t.commit_all("work");
    t
}

/// 512 MiB: well past what the check needs of a 2 MB file (`scripts/bench-crafted`
/// prints the peaks), and far below the 3 to 6 GB these shapes took when each line
/// kept a copy of the stack of functions around it.
const CAP: u64 = 512 << 20;

#[test]
fn a_rust_test_file_of_macro_rules_that_never_close_is_read_within_a_cap() {
    let t = crafted(
        "tests/x.rs",
        "#[test]\nfn a() { assert_eq!(f(1), 1); }\n",
        &fill(|n| format!("macro_rules! assert_{n} {{\n")),
    );
    let run = capped(&t, &["show", "calc", "--json"], CAP).code(0);
    assert!(run.stdout.contains("\"id\": \"calc\""), "{}", run.stdout);
}

#[test]
fn a_javascript_test_file_of_blocks_that_never_close_is_read_within_a_cap() {
    let start = JS_START;
    for unit in ["try{\n", "if(false){\n"] {
        let t = crafted("x.test.js", start, &fill(|_| unit.to_string()));
        let run = capped(&t, &["show", "calc", "--json"], CAP).code(0);
        assert!(
            run.stdout.contains("\"id\": \"calc\""),
            "{unit}: {}",
            run.stdout
        );
    }
    let t = crafted("x.test.js", start, &fill(|n| format!("function a{n} {{\n")));
    capped(&t, &["show", "calc", "--json"], CAP).code(0);
}

/// `plan show calc --json` on `t` finishes within `secs` seconds of wall time, on
/// a debug build: a generous bound, which a walk repeated per level of a nest
/// overshoots many times over. Killed at the bound, so a failure is quick.
fn within(t: &Test, secs: u64) {
    let started = std::time::Instant::now();
    let mut child = t
        .cmd(&["show", "calc", "--json"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            return;
        }
        if started.elapsed().as_secs() >= secs {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("still running after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn a_javascript_nest_of_30000_try_blocks_is_read_in_linear_time() {
    // Each `try` counted the checks of its whole body again: 57 s on an optimised
    // build before; 2.3 s on a debug one after.
    let nest = format!(
        "test('a', () => {{\n{}expect(1)\n{}}})\n",
        "try{\n".repeat(30_000),
        "}catch(e){}\n".repeat(30_000)
    );
    let t = crafted("x.test.js", JS_START, &nest);
    within(&t, 60);
}

#[test]
fn a_go_nest_of_60000_ifs_is_read_in_linear_time() {
    // Each block searched its ancestors for its function: 52 s on an optimised
    // build before; 10 s on a debug one after, most of it parsing.
    let nest = format!(
        "package x\n\nfunc TestA(t *testing.T) {{\n{}t.Fatal(1)\n{}}}\n",
        "if x {\n".repeat(60_000),
        "}\n".repeat(60_000)
    );
    let start =
        "package x\n\nfunc TestA(t *testing.T) {\n\tif f(1) != 1 {\n\t\tt.Fatal(1)\n\t}\n}\n";
    let t = crafted("x_test.go", start, &nest);
    within(&t, 60);
}

#[test]
fn a_nest_deeper_than_a_small_stack_is_read_without_overflowing_it() {
    // The syntax walks stop at 600 levels, each a few KB of stack on a debug
    // build: past the 2 MiB a thread gets by default (tokio's blocking threads,
    // where `plan mcp` signs off), the process aborted. The check now runs on a
    // thread of its own stack.
    let nest = format!(
        "{}x;\n{}test('a', () => {{\n  expect(f(1)).toBe(1);\n}});\n",
        "function a() {\n".repeat(3_000),
        "}\n".repeat(3_000)
    );
    let t = crafted("x.test.js", JS_START, &nest);
    let run = crate::util::limited(&t, &["show", "calc", "--json"], "-s", 2 << 20).code(0);
    assert!(run.stdout.contains("\"id\": \"calc\""), "{}", run.stdout);
}
