//! Red team 126's attacks on the gate and the sign-off, through the real binary:
//! each test names the attack a dishonest agent with a shell would make and asserts
//! the honest outcome.

use crate::setup::{contract_of, plan, started};

/// The precomputed 32-bit collision of `fixtures/plans/ship.md`'s contract that
/// `sign_off_records.rs` holds the proof to: the same eight hex digits of
/// fingerprint, with `verify: true` and the failure mode swapped for another.
fn softened_with_collision(md: &str) -> String {
    md.replace("verify: test -f README.md", "verify: true")
        .replace(
            "- README.md is empty",
            "- verify may pass on a trivial or gamed test, id 1000000027a02b96",
        )
}

// Attack: a pull request softens a base goal's contract (its verify made `true`, a
// failure mode dropped) with a nonce ground offline so the eight hex digits of its
// fingerprint stay the base's. The gate compared fingerprints, so it saw no contract
// change: nothing asked a person's approval, `--strict` passed, and the softer
// contract landed on main for the next pull request to sign off against.
#[test]
fn a_softened_base_contract_with_a_colliding_fingerprint_needs_approval() {
    let t = started(&plan("ship.md"));
    let base = t.git(&["rev-parse", "main"]).trim().to_string();
    t.git(&["checkout", "-q", "-b", "pr"]);
    let before = contract_of(&t, "ship");
    t.write("plan.md", softened_with_collision(&t.plan_md()));
    assert_eq!(
        contract_of(&t, "ship"),
        before,
        "the collision no longer holds"
    );
    t.commit_all("tidy the contract");
    let run = t.run(&["audit", "--base", &base, "--strict"]);
    assert_eq!(
        run.code, 1,
        "a softened contract passed the gate:\n{}{}",
        run.stdout, run.stderr
    );
    assert!(
        run.stdout.contains("{+verify: true+}"),
        "the change is not shown:\n{}",
        run.stdout
    );
}
