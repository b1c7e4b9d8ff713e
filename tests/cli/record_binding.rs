//! Done means done: one goal's honest sign-off (its transcript, its checkpoint
//! commit) cannot be borrowed to prove another goal. Each step of the forgery
//! below is what an agent with a shell does next once the step before is caught;
//! every step up to the last is caught before any model is asked, with a reason
//! that names what was borrowed.

use crate::setup::{contract_of, proof_of};
use crate::util::{Test, shown};

const PLAN: &str = "# Plan: Borrowed

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty

## Goal: Docs
<!-- id: docs -->
status: active
done_when: DOCS.md explains every command
verify: test -f DOCS.md
failure_modes:
- DOCS.md is missing a command

## Log
";

/// `ship` honestly signed off with a fixture judge; `docs` started, not done.
fn ship_signed_off() -> Test {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("plan.md", PLAN);
    t.judge("accept");
    t.ok(&["start", "ship"]);
    t.ok(&["start", "docs"]);
    t.commit_all("start");
    t.ok(&["complete", "ship", "--evidence", "the file is written"]);
    t
}

/// The forger's kit: ship's record, and what it takes to name a copy of it for docs.
struct Forgery {
    t: Test,
    /// ship's transcript, as `plan complete` wrote it.
    original: String,
    ship_contract: String,
    docs_contract: String,
    /// ship's checkpoint commit, 40 hex digits.
    commit: String,
    /// plan.md before docs was forged done.
    md: String,
}

const COPY: &str = ".plan/judge/docs-20260615-1410.md";
const REF: &str = "refs/plan/checkpoints/docs/20260615-1410";

impl Forgery {
    fn new() -> Forgery {
        let t = ship_signed_off();
        let md = t.plan_md();
        let line = md
            .lines()
            .find(|l| l.contains("ship signed off"))
            .expect("ship's sign-off line");
        let path = line.split_once("): ").unwrap().1.split('#').next().unwrap();
        let original = t.read(path);
        let ship_contract = header_value(&original, "contract");
        let commit = t
            .git(&["rev-parse", "refs/plan/checkpoints/ship/20260615-1402"])
            .trim()
            .to_string();
        // The whole contract id, as a header carries it: the blob id of the contract.
        let docs_contract = {
            t.write(
                "contract.txt",
                "done_when: DOCS.md explains every command\nverify: test -f DOCS.md\nfailure_modes:\n- DOCS.md is missing a command\n",
            );
            let id = t.git(&["hash-object", "contract.txt"]).trim().to_string();
            std::fs::remove_file(t.path("contract.txt")).unwrap();
            id
        };
        assert!(docs_contract.starts_with(&contract_of(&t, "docs")));
        Forgery {
            t,
            original,
            ship_contract,
            docs_contract,
            commit,
            md,
        }
    }

    /// ship's transcript with its header relabelled for docs (goal, contract, when).
    fn relabelled(&self) -> String {
        self.original
            .replace("# Sign-off record: ship", "# Sign-off record: docs")
            .replace("- goal: ship\n", "- goal: docs\n")
            .replace(&self.ship_contract, &self.docs_contract)
            .replace("- when: 2026-06-15 14:02", "- when: 2026-06-15 14:10")
    }

    /// Writes `transcript` as docs' record, points docs' checkpoint ref at `commit`,
    /// and logs a sign-off for docs naming both, with `status: done`.
    fn forge(&self, transcript: &str, commit: &str) {
        let t = &self.t;
        t.write(COPY, transcript);
        t.git(&["update-ref", REF, commit]);
        let hash = t.git(&["hash-object", COPY]).trim()[..12].to_string();
        let line = format!(
            "- 2026-06-15 14:10 docs signed off (verify passed, judge command accept, contract {}): {COPY}#{hash} (checkpoint {})\n",
            &self.docs_contract[..8],
            &commit[..12]
        );
        let at = self.md.find("<!-- id: docs -->").unwrap();
        let md = format!(
            "{}{}{line}",
            &self.md[..at],
            self.md[at..].replacen("status: active", "status: done", 1)
        );
        t.write("plan.md", md);
    }

    fn unproven_because(&self, why: &str) {
        let (state, proof) = proof_of(&self.t, "docs");
        assert_eq!(
            state, "unproven",
            "docs is proven by ship's record: {proof}"
        );
        assert!(proof.contains(why), "{proof}");
        assert_eq!(proof_of(&self.t, "ship").0, "proven");
    }
}

fn header_value(text: &str, key: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("- {key}: ")))
        .unwrap_or_else(|| panic!("no `- {key}:` in\n{text}"))
        .to_string()
}

/// Step one: ship's transcript copied for docs with its header relabelled, docs'
/// checkpoint ref pointed at ship's checkpoint commit. The body still holds the
/// contract the judge was shown: ship's.
#[test]
fn a_record_relabelled_for_another_goal_is_unproven() {
    let f = Forgery::new();
    f.forge(&f.relabelled(), &f.commit);
    f.unproven_because(&format!(
        "its transcript {COPY} says it judged contract {}, but the contract in its `Contract as judged` section is {}",
        f.docs_contract, f.ship_contract
    ));
    for surface in [&["audit"][..], &["lint"]] {
        let run = f.t.run(surface);
        assert_ne!(run.code, 0, "plan {surface:?} passes:\n{}", run.stdout);
    }
    // The status line and the injection read plan.md's lines alone (issue 34): the
    // line names a transcript for the goal's contract, so they take it at its word.
    insta::assert_snapshot!(shown(&f.t, &f.t.ok(&["statusline"])));
    insta::assert_snapshot!(shown(&f.t, &f.t.ok(&["inject"])));
}

/// Step two: the body's contract rewritten too. Now the checkpoint gives it away:
/// its commit is ship's (`plan: checkpoint of ship`, and ship's ref names it).
#[test]
fn another_goals_checkpoint_does_not_bind_a_sign_off() {
    let f = Forgery::new();
    let body = f
        .relabelled()
        .replace("## Goal: Ship it\n", "## Goal: Docs\n")
        .replace(
            "done_when: README.md exists",
            "done_when: DOCS.md explains every command",
        )
        .replace("verify: test -f README.md", "verify: test -f DOCS.md")
        .replace("- README.md is empty", "- DOCS.md is missing a command");
    f.forge(&body, &f.commit);
    f.unproven_because(&format!(
        "the checkpoint belongs to goal ship: its sign-off (log line {}) names checkpoint {}, whose commit is `plan: checkpoint of ship`",
        f.t.plan_md().lines().count(),
        &f.commit[..12]
    ));
    insta::assert_snapshot!(shown(&f.t, &f.t.run(&["audit"]).code(1)));
    insta::assert_snapshot!(shown(&f.t, &f.t.ok(&["show", "docs"])));
    let report =
        f.t.ok(&["report", "--since", "2026-06-15", "--json"])
            .json();
    let docs = report["signed_off"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "docs")
        .expect("docs' sign-off in the report")
        .clone();
    assert_eq!(docs["proven"], false, "{docs}");
    assert!(
        docs["unproven"]
            .as_str()
            .unwrap()
            .starts_with("the checkpoint belongs to goal ship"),
        "{docs}"
    );

    // A new commit with ship's tree, named for docs: the transcript still says the
    // judge read ship's commit.
    let tree = f.t.git(&["rev-parse", &format!("{}^{{tree}}", f.commit)]);
    let parent = f.t.git(&["rev-parse", &format!("{}^", f.commit)]);
    let forged = f.t.git(&[
        "commit-tree",
        tree.trim(),
        "-p",
        parent.trim(),
        "-m",
        "plan: checkpoint of docs",
    ]);
    let forged = forged.trim();
    f.forge(&body, forged);
    f.unproven_because(&format!(
        "names checkpoint {}, but its transcript {COPY} says the judge read {}",
        &forged[..12],
        f.commit
    ));

    // Every line the agent can write made to agree: what is left is a judge that
    // never saw docs' work, which only `plan audit --rejudge` (run where the agent
    // has no hands) finds. Pinned, so the limit is known and its doc stays true.
    f.forge(&body.replace(&f.commit, forged), forged);
    assert_eq!(proof_of(&f.t, "docs").0, "proven");
}

/// Attack: ship reopened (its output broke), then "signed off" again by replaying
/// its honest sign-off: the record copied under a later stamp, a second checkpoint
/// ref for that stamp pointed at the first sign-off's commit, and a line naming
/// both. Every sign-off takes its own checkpoint commit, so a commit an earlier
/// sign-off of the goal named cannot stand for a later one.
#[test]
fn a_sign_off_replayed_after_a_reopen_is_unproven() {
    let t = ship_signed_off();
    t.commit_all("ship done");
    let md = t.plan_md();
    let line = md
        .lines()
        .find(|l| l.contains("ship signed off"))
        .expect("ship's sign-off line")
        .to_string();
    let path = line.split_once("): ").unwrap().1.split('#').next().unwrap();
    let commit = t
        .git(&["rev-parse", "refs/plan/checkpoints/ship/20260615-1402"])
        .trim()
        .to_string();
    t.ok(&["reopen", "ship", "--reason", "the README lost its heading"]);
    t.commit_all("reopen");
    let copy = ".plan/judge/ship-20260615-1410.md";
    t.write(
        copy,
        t.read(path)
            .replace("- when: 2026-06-15 14:02", "- when: 2026-06-15 14:10"),
    );
    t.git(&[
        "update-ref",
        "refs/plan/checkpoints/ship/20260615-1410",
        &commit,
    ]);
    let hash = t.git(&["hash-object", copy]).trim()[..12].to_string();
    let replayed = line
        .replacen("2026-06-15 14:02", "2026-06-15 14:10", 1)
        .replace(path, copy)
        .replace(
            line.rsplit_once('#').unwrap().1.split(' ').next().unwrap(),
            &hash,
        );
    let md = t.plan_md();
    let at = md.find("<!-- id: ship -->").unwrap();
    t.write(
        "plan.md",
        format!(
            "{}{}{replayed}\n",
            &md[..at],
            md[at..].replacen("status: active", "status: done", 1)
        ),
    );
    t.commit_all("fixed");
    let (state, proof) = proof_of(&t, "ship");
    assert_eq!(state, "unproven", "{proof}");
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
}
