//! The hooks answer from their cache whatever the proof state of the goals: a plan
//! with goals done by hand (unproven), live and archived, is answered from
//! `.git/plan/cache/view.json` on the prompt and the stop hook, and the cached
//! view carries the "unproven" facts the fresh one does.

use crate::util::{Test, fixture};

const PLAN: &str = "# Plan: Ship the cache layer

## Goal: Implement cache layer
<!-- id: cache-layer -->
status: active
done_when: p95 < 50ms
failure_modes:
- cache bypassed
- [ ] eviction policy

## Goal: Pick a hashing crate
<!-- id: hashing -->
status: done
done_when: crate chosen

## Archive

## Goal: Spike Redis
<!-- id: spike-redis -->
status: done
done_when: decided

## Log
- 2026-06-15 14:02 client wired
";

fn prompt_hook(t: &Test, session: &str) -> String {
    let payload = fixture("hosts/claude/user-prompt-submit.json")
        .replace("CWD", t.root().to_str().unwrap())
        .replace("SESSION", session);
    t.case(&["hook", "claude", "user-prompt-submit"])
        .stdin(&payload)
        .check_status_only()
        .stdout
}

/// A cache file as plan seals it (src/cache/seal.rs): the xxh3 of its JSON with the
/// seal field, first, empty. What an agent set on forging the cache would have to
/// reimplement; here it puts a marker into the cached view that plan then trusts.
fn sealed(mut file: serde_json::Value) -> String {
    file.as_object_mut().unwrap().remove("seal");
    let rest = file.to_string();
    let empty = format!("{{\"seal\":\"\",{}", &rest[1..]);
    let mut bytes = b"plan cache seal 1\n".to_vec();
    bytes.extend_from_slice(empty.as_bytes());
    let seal = format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&bytes));
    format!("{{\"seal\":\"{seal}\",{}", &rest[1..])
}

/// The first settled hook stores the view with its "unproven" facts; the next
/// prompt and stop hooks answer from it (a marker put into the cached view shows
/// in their answers), though two goals are done by hand.
#[test]
fn prompt_and_stop_hooks_answer_from_the_cache_with_goals_done_by_hand() {
    let t = Test::new().plan(PLAN);
    t.ok(&["goal", "--budget", "50"]);
    // Past the cache's trust margin (2 s), the next hook stores the view.
    std::thread::sleep(std::time::Duration::from_millis(2200));
    let fresh = prompt_hook(&t, "s1");
    assert!(
        fresh.contains("unproven"),
        "the injection names the unproven goals: {fresh}"
    );
    let cache = t.root().join(".git/plan/cache/view.json");
    let mut view: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&cache).expect("the view was cached")).unwrap();
    let injection = view["view"]["injection"].as_str().unwrap().to_string();
    assert!(
        injection.contains("unproven"),
        "the cached view keeps the unproven facts: {injection}"
    );
    view["view"]["injection"] = format!("{injection}\nCACHED-INJECTION").into();
    let continuation = view["view"]["continuation"]
        .as_str()
        .expect("work is left")
        .to_string();
    view["view"]["continuation"] = format!("{continuation} CACHED-CONTINUATION").into();
    std::fs::write(&cache, sealed(view)).unwrap();
    let cached = prompt_hook(&t, "s2");
    assert!(
        cached.contains("CACHED-INJECTION"),
        "the prompt hook read plan.md again: {cached}"
    );
    let stop = t.stop_hook("s1").stdout;
    assert!(
        stop.contains("CACHED-CONTINUATION"),
        "the stop hook read plan.md again: {stop}"
    );
}
