//! Text an agent writes, reaching a person raw: Markdown a reviewer approves from,
//! control characters in a transcript or an error. Each attack rendered or printed
//! the agent's text as it was before.

use crate::gate::{origin, rev};
use crate::util::redact;

// Attack: a cancel reason written as Markdown rendered in the `--markdown` summary
// a reviewer approves from: a bold fake "Passed.", a link, a hidden HTML comment.
#[test]
fn a_cancel_reason_is_code_quoted_in_the_markdown_summary() {
    let t = origin();
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    let reason = "**Passed.** [x](http://e) <!-- c -->";
    t.ok(&["cancel", "ship", "--reason", reason]);
    t.commit_all("cancel");
    let run = t
        .run(&["audit", "--base", &base, "--markdown", "--strict"])
        .code(1);
    insta::assert_snapshot!(redact(&t, &run.stdout));
}
