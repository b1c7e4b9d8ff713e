//! Writes to a huge plan hold a bounded multiple of its size: `plan add`, `plan log`
//! and `plan tick` on a plan of some 5 MB, each run with its data segment capped
//! (RLIMIT_DATA), land exactly, changing nothing else.

use crate::util::{Test, capped};

/// One goal as `scripts/bench-write-memory` writes it.
fn goal(i: usize, status: &str) -> String {
    format!(
        "## Goal: Goal {i} with a title about keeping the cache honest\n\
         <!-- id: g-{i} -->\n\
         status: {status}\n\
         done_when: the thing {i} works and p95 < 50ms on bench-{i}\n\
         verify: cargo test -p c{i}\n\
         failure_modes:\n- cache silently bypassed\n- verify passes on a trivial test\n\
         - [x] wire the client for {i}\n- [ ] eviction policy for {i}\n\n"
    )
}

/// A plan of `n` goals in three parts: the title and the live (open) goals, the
/// archive (cancelled goals, each with its record), the log.
fn huge(n: usize) -> (String, String, String) {
    let mut live = String::from("# Plan: Keep a long plan within bounds\n\n");
    let mut archive = String::from("## Archive\n\n");
    let mut log = String::from("## Log\n");
    for i in 1..=n / 2 {
        live.push_str(&goal(i, "open"));
        log.push_str(&format!(
            "- 2026-06-15 14:02 g-{i} measured the cache at {i} requests a second\n"
        ));
    }
    for i in n / 2 + 1..=n {
        archive.push_str(&goal(i, "cancelled"));
        log.push_str(&format!(
            "- 2026-06-15 14:02 g-{i} cancelled: superseded by a later goal\n"
        ));
    }
    (live, archive, log)
}

#[test]
fn writes_to_a_5_mb_plan_stay_under_a_cap_of_a_few_times_its_size() {
    // 5 MB, not 20: the debug build's three writes took some 90 s of CPU on 20 MB,
    // and the cap below is a multiple of the size either way.
    let (live, archive, log) = huge(12_500);
    let plan = format!("{live}{archive}{log}");
    let len = plan.len() as u64;
    assert!(len > 4_800_000, "{len}");
    let t = Test::new().plan(&plan);
    t.commit_all("a huge plan");
    // Before, `plan add` held two parses of its own beside the write's, the
    // preview, each read at up to twice its size and a record per line while
    // patching: some 15 to 19 times the file. A write now holds one parse at a
    // time (about four times the file) beside two copies of the text: on 20 MB it
    // passed from about 5.5 times, on 5 MB from about 7 (35 MB), the binary's own
    // few MB weighing more. The fixed part is 10 MiB, not the 16 it was on 20 MB,
    // so that what a write may hold per byte of plan stays about 8.5 times, as it
    // was there.
    let cap = 8 * len + 10 * 1024 * 1024;

    let added = capped(
        &t,
        &[
            "add",
            "A brand new goal",
            "--done-when",
            "it is there",
            "--json",
        ],
        cap,
    );
    let added = added.code(0);
    let contract = added.json()["contract"].as_str().unwrap().to_string();
    let block = "## Goal: A brand new goal\n<!-- id: a-brand-new-goal -->\nstatus: open\ndone_when: it is there\n\n";
    let after_add = format!(
        "{live}{block}{archive}{log}- 2026-06-15 14:02 a-brand-new-goal added (contract {contract})\n"
    );
    assert!(
        t.plan_md() == after_add,
        "plan add changed more than its goal and log line"
    );

    capped(&t, &["log", "a note about the cache"], cap).code(0);
    let after_log = format!("{after_add}- 2026-06-15 14:02 a note about the cache\n");
    assert!(
        t.plan_md() == after_log,
        "plan log changed more than its line"
    );

    capped(&t, &["tick", "g-1", "2"], cap).code(0);
    let after_tick = after_log.replacen(
        "- [ ] eviction policy for 1\n",
        "- [x] eviction policy for 1\n",
        1,
    );
    assert!(
        t.plan_md() == after_tick,
        "plan tick changed more than its subtask"
    );
}
