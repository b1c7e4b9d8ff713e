//! `plan audit --reverify`: a verify made to pass by gutting what it runs after the
//! sign-off (its own script, or a file that script sources) is found.

use crate::setup::{plan, sign_off_ship};
use crate::util::{Test, shown};

/// `plan audit --reverify` runs the verify line again, but the script it names can
/// be gutted after the sign-off: the goal stays proven and reverify passes though
/// what the judge saw (the script's text, in the transcript) is gone.
#[test]
fn reverify_notices_a_verify_script_gutted_after_sign_off() {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("check.sh", "test -s README.md\n");
    t.write(
        "plan.md",
        plan("ship.md").replace("verify: test -f README.md", "verify: sh check.sh"),
    );
    t.judge("accept");
    t.ok(&["start", "ship"]);
    t.commit_all("start");
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit", "--reverify"])));
    // The work regresses, and the check is gutted to hide it.
    t.write("README.md", "");
    t.write("check.sh", "exit 0\n");
    let run = t.run(&["audit", "--reverify"]);
    assert!(
        run.code != 0,
        "a gutted verify script still reverifies:\n{}",
        run.stdout
    );
    insta::assert_snapshot!(shown(&t, &run));
    // The script restored: the check is the signed-off one again, and it runs.
    t.write("check.sh", "test -s README.md\n");
    insta::assert_snapshot!(shown(&t, &t.run(&["audit", "--reverify"]).code(1)));
    t.write("README.md", "# Hello\n");
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit", "--reverify"])));
}

/// The verify-file record covered only the files verify names literally. A script
/// that sources (or runs) another file hid that file from the record: gutting it
/// after the sign-off let `plan audit --reverify` pass a regression. The record now
/// follows the files their text names, a directory argument and make's Makefile
/// (a runner's own conventions, such as `cargo test`'s sources, stay out of reach).
#[test]
fn reverify_notices_a_gutted_file_the_verify_script_sources() {
    // `make check` rests on the Makefile; `sh run.sh tests` on every file in tests/.
    for (verify, setup, gut) in [
        (
            "make check",
            ("Makefile", "check:\n\ttest -s README.md\n"),
            ("Makefile", "check:\n\ttrue\n"),
        ),
        (
            "sh run.sh tests",
            ("tests/readme.sh", "test -s README.md\n"),
            ("tests/readme.sh", "true\n"),
        ),
    ] {
        // A stand-in make, so the test does not depend on one being installed.
        let t = Test::new().with_bin();
        t.fake_program("make", "sed -n 's/^\t//p' Makefile | sh");
        t.write("README.md", "# Hello\n");
        t.write(
            "run.sh",
            "for f in \"$1\"/*; do sh \"$f\" || exit 1; done\n",
        );
        t.write(setup.0, setup.1);
        t.write(
            "plan.md",
            plan("ship.md").replace("verify: test -f README.md", &format!("verify: {verify}")),
        );
        t.judge("accept");
        t.ok(&["start", "ship"]);
        t.commit_all("start");
        sign_off_ship(&t);
        insta::assert_snapshot!(shown(&t, &t.ok(&["audit", "--reverify"])));
        t.write("README.md", "");
        t.write(gut.0, gut.1);
        let run = t.run(&["audit", "--reverify"]);
        assert_ne!(
            run.code, 0,
            "{verify}: a gutted check reverifies as passed:\n{}",
            run.stdout
        );
        insta::assert_snapshot!(shown(&t, &run));
    }

    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("check.sh", ". ./checks/readme.sh\n");
    t.write("checks/readme.sh", "test -s README.md\n");
    t.write(
        "plan.md",
        plan("ship.md").replace("verify: test -f README.md", "verify: sh check.sh"),
    );
    t.judge("accept");
    t.ok(&["start", "ship"]);
    t.commit_all("start");
    sign_off_ship(&t);
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit", "--reverify"])));
    // The work regresses; the file that really checks it is gutted.
    t.write("README.md", "");
    t.write("checks/readme.sh", "true\n");
    let run = t.run(&["audit", "--reverify"]);
    assert_ne!(
        run.code, 0,
        "a gutted check reverifies as passed:\n{}",
        run.stdout
    );
}
