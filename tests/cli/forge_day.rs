//! A team's day through the stand-in forge (issue 69): four agents, each in its own
//! clone, open fourteen pull requests, each adding a goal and signing it off; the
//! forge merges them one at a time with its three buttons (a merge commit, a
//! squash, a rebase where the branch is the base's tip, as docs/src/team.md says).
//! After each merge the workflow's update step syncs the pull requests still open
//! and, with no `PLAN_PUSH_TOKEN`, starts the gate on each branch it pushed (a
//! dispatch). The gate, the workflow's own steps, runs on every head a pull request
//! has, and is green on each: no honest pull request is red, and no person
//! restarts a gate or merges plan.md by hand.

use crate::forge::{clone, gate, git, git_in, plan, update_job_for};
use crate::util::Test;

const PLAN: &str = "# Plan: Team day

## Log
";

/// The buttons of the forge.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Button {
    Merge,
    Squash,
    Rebase,
}

/// One pull request: its number and branch.
struct Pr {
    number: u32,
    branch: String,
}

#[test]
fn four_agents_and_fourteen_pull_requests_need_no_person() {
    let t = Test::new();
    t.write("plan.md", PLAN);
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 10\n",
            crate::util::fixture_path("judges/accept").display()
        ),
    );
    t.commit_all("plan");
    let origin = t.dir.path().join("origin.git");
    let origin_s = origin.to_str().unwrap();
    git(
        &t,
        t.dir.path(),
        &["init", "-q", "--bare", "-b", "main", origin_s],
    );
    t.git(&["remote", "add", "origin", origin_s]);
    t.git(&["push", "-q", "origin", "main"]);
    let agents: Vec<_> = (0..4)
        .map(|n| clone(&t, &origin, &format!("agent-{n}")))
        .collect();
    let forge = clone(&t, &origin, "forge");

    // Each agent's pull request: a goal added on the base as it is now, started,
    // its work written, signed off, committed and pushed with its checkpoints.
    let open = |number: u32, agent: usize| -> Pr {
        let dir = &agents[agent];
        let branch = format!("pr-{number}");
        let id = format!("g{number}");
        git(&t, dir, &["fetch", "-q", "origin"]);
        git(&t, dir, &["checkout", "-q", "-b", &branch, "origin/main"]);
        let now = format!("2026-06-15T{:02}:{:02}", 8 + number / 4, (number % 4) * 10);
        let file = format!("{id}.txt");
        let verify = format!("test -s {file}");
        // The id is made from the title: `G3` is `g3`.
        let title = format!("G{number}");
        let steps: [&[&str]; 3] = [
            &[
                "add",
                &title,
                "--done-when",
                "the file is written",
                "--verify",
                &verify,
                "--failure-mode",
                "the file is empty",
            ],
            &["start", &id],
            &["log", &format!("{id}: written by agent {agent}")],
        ];
        for args in steps {
            plan(&t, dir, &now, args).code(0);
        }
        std::fs::write(dir.join(&file), format!("agent {agent}\n")).unwrap();
        plan(
            &t,
            dir,
            &now,
            &[
                "complete",
                &id,
                "--evidence",
                "the file is there",
                "--path",
                &file,
            ],
        )
        .code(0);
        git(&t, dir, &["add", "-A"]);
        git(&t, dir, &["commit", "-q", "-m", &branch]);
        git(&t, dir, &["push", "-q", "origin", &branch]);
        git(
            &t,
            dir,
            &[
                "push",
                "-q",
                "origin",
                "refs/plan/checkpoints/*:refs/plan/checkpoints/*",
            ],
        );
        Pr { number, branch }
    };

    let mut gates = 0u32;
    let mut updates = 0u32;
    let mut dispatches = 0;
    let mut buttons: Vec<Button> = Vec::new();
    // The gate on a pull request's head as the forge runs it (the test merge of the
    // head into the base): green, or the test fails naming the pull request.
    let gate_on = |pr: &Pr, gates: &mut u32| {
        git(
            &t,
            &forge,
            &[
                "fetch",
                "-q",
                "origin",
                "+refs/heads/*:refs/remotes/origin/*",
            ],
        );
        git(&t, &forge, &["checkout", "-q", "--detach", "origin/main"]);
        let base = git(&t, &forge, &["rev-parse", "HEAD"]).trim().to_string();
        let (clean, said) = git_in(
            &t,
            &forge,
            &[
                "merge",
                "--no-ff",
                "--no-edit",
                &format!("origin/{}", pr.branch),
            ],
        );
        assert!(
            clean,
            "#{} does not merge into the base:\n{said}",
            pr.number
        );
        *gates += 1;
        gate(&t, &forge, &base, 100 + *gates);
        base
    };

    let mut number = 0;
    for round in 0..4 {
        // This round's pull requests, opened on the base as it is; the last round
        // has two, for fourteen in all.
        let count = if round == 3 { 2 } else { 4 };
        let mut prs: Vec<Pr> = (0..count)
            .map(|agent| {
                number += 1;
                open(number, agent)
            })
            .collect();
        let mut first = true;
        while !prs.is_empty() {
            let pr = prs.remove(0);
            gate_on(&pr, &mut gates);
            git(&t, &forge, &["checkout", "-q", "-B", "main", "origin/main"]);
            let tip = git(&t, &forge, &["rev-parse", "HEAD"]).trim().to_string();
            let at_tip = git_in(
                &t,
                &forge,
                &[
                    "merge-base",
                    "--is-ancestor",
                    &tip,
                    &format!("origin/{}", pr.branch),
                ],
            )
            .0 && !git(
                &t,
                &forge,
                &[
                    "log",
                    "--merges",
                    "--format=%H",
                    &format!("{tip}..origin/{}", pr.branch),
                ],
            )
            .contains(char::is_alphanumeric);
            // A rebase where the branch is the base's tip plus its own commits; the
            // others by turns, a merge commit and a squash.
            let button = if first && at_tip {
                Button::Rebase
            } else if pr.number.is_multiple_of(2) {
                Button::Merge
            } else {
                Button::Squash
            };
            first = false;
            buttons.push(button);
            let head = format!("origin/{}", pr.branch);
            match button {
                Button::Merge => {
                    git(&t, &forge, &["merge", "-q", "--no-ff", "--no-edit", &head]);
                }
                Button::Squash => {
                    git(&t, &forge, &["merge", "-q", "--squash", &head]);
                    git(
                        &t,
                        &forge,
                        &["commit", "-q", "-m", &format!("#{}", pr.number)],
                    );
                }
                Button::Rebase => {
                    let (ok, said) = git_in(
                        &t,
                        &forge,
                        &["rebase", "-q", "--onto", "main", "main", &head],
                    );
                    assert!(ok, "#{} does not rebase:\n{said}", pr.number);
                    git(&t, &forge, &["checkout", "-q", "-B", "main"]);
                }
            }
            git(&t, &forge, &["push", "-q", "origin", "main"]);
            if prs.is_empty() {
                continue;
            }
            // The update job on the push to main: every pull request still open.
            updates += 1;
            let list: String = prs
                .iter()
                .map(|p| format!("{} false {}\n", p.number, p.branch))
                .collect();
            let said = update_job_for(&t, &origin, &list, updates, false, "");
            assert!(
                !said.contains("re-run the gate"),
                "update {updates} asked a person:\n{said}"
            );
            for p in &prs {
                let pushed = said.contains(&format!(
                    "dispatch plan.yml --ref {} -f pr={}",
                    p.branch, p.number
                ));
                if pushed {
                    dispatches += 1;
                    // The dispatched gate, on the head the job pushed.
                    gate_on(p, &mut gates);
                }
            }
        }
    }
    assert_eq!(number, 14);
    for b in [Button::Merge, Button::Squash, Button::Rebase] {
        assert!(buttons.contains(&b), "{b:?} never pressed: {buttons:?}");
    }
    assert!(dispatches > 0, "no branch needed a sync");

    // The day's end on main: every goal once and done, its log line once, audit
    // and lint green.
    git(&t, &forge, &["checkout", "-q", "-B", "main", "origin/main"]);
    let md = std::fs::read_to_string(forge.join("plan.md")).unwrap();
    assert!(!md.contains("<<<<<<<"), "{md}");
    for n in 1..=14 {
        assert_eq!(
            md.matches(&format!("<!-- id: g{n} -->")).count(),
            1,
            "g{n}:\n{md}"
        );
        assert_eq!(
            md.matches(&format!("g{n}: written by agent")).count(),
            1,
            "{md}"
        );
    }
    let audit = plan(&t, &forge, "2026-06-15T19:00", &["audit"]);
    assert_eq!(audit.code, 0, "{}{}", audit.stdout, audit.stderr);
    assert!(
        audit.stdout.contains("14 finished goals: 14 proven"),
        "{}",
        audit.stdout
    );
    plan(&t, &forge, "2026-06-15T19:00", &["lint"]).code(0);
    // Each branch the job synced was told once which buttons keep the sync.
    let comments = t.dir.path().join("forge-comments");
    let mut told = 0;
    for n in 1..=14 {
        let said = std::fs::read_to_string(comments.join(n.to_string())).unwrap_or_default();
        let count = said.matches("<!-- plan sync: merged -->").count();
        assert!(count <= 1, "#{n} told {count} times:\n{said}");
        if count == 1 {
            assert!(
                said.contains("\"Create a merge commit\" or \"Squash and merge\""),
                "{said}"
            );
            told += 1;
        }
    }
    assert!(
        told > 0 && told <= dispatches,
        "{told} told, {dispatches} dispatched"
    );
    // Each pull request's gate before its merge, and one on each head the update
    // job pushed and dispatched: every one green.
    assert_eq!(gates as usize, 14 + dispatches, "{updates} updates");
}
