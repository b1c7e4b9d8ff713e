//! What a transcript's body says that binds it to one sign-off: the contract its
//! `## Contract as judged` section shows and the commit its judge read. A record
//! copied from another goal with only its header relabelled still shows the other
//! goal's contract and names the other goal's checkpoint. Pure: text in.

use super::model::blob_id;

/// The whole git blob id of the contract in the body's `## Contract as judged`
/// section: the text between its `## Goal:` line and `## Contract history`, as
/// `record::Transcript::render` writes [`super::model::Goal::contract`] there.
/// The section comes before any text the agent or a judge wrote (evidence, prompt,
/// answer), so its first occurrence is plan's own.
pub fn judged_contract(text: &str) -> Option<String> {
    const SECTION: &str = "\n## Contract as judged\n\n## Goal: ";
    let at = text.find(SECTION)? + SECTION.len();
    let rest = &text[at..];
    let contract = &rest[rest.find('\n')? + 1..];
    let end = contract.find("\n## Contract history\n")?;
    Some(blob_id(&contract.as_bytes()[..end]))
}

/// The commit the judge read: the first `- tree judged:` line outside fenced text
/// (evidence, a prompt and an answer are fenced, and may quote such a line), when
/// it names a commit.
pub fn tree_judged(text: &str) -> Option<String> {
    let commit = outside_fences(text).find_map(|l| l.strip_prefix("- tree judged: "))?;
    let commit = commit.split(' ').next()?;
    (commit.len() >= 7 && commit.bytes().all(|b| b.is_ascii_hexdigit())).then(|| commit.to_string())
}

/// The lines of `text` outside the fences `judge::prompt::fence` writes: an opening
/// line of four or more backticks then `text`, closed by the same backticks alone,
/// which are longer than any run inside.
fn outside_fences(text: &str) -> impl Iterator<Item = &str> {
    let mut open: Option<&str> = None;
    text.lines().filter(move |line| {
        if let Some(fence) = open {
            if *line == fence {
                open = None;
            }
            return false;
        }
        let opener = line
            .strip_suffix("text")
            .filter(|ticks| ticks.len() >= 4 && ticks.bytes().all(|b| b == b'`'));
        if let Some(ticks) = opener {
            open = Some(ticks);
            return false;
        }
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contract_as_judged_is_read_exactly() {
        let contract = "done_when: it works\nverify: \nfailure_modes:\n- it breaks\n";
        let text = format!(
            "# Sign-off record: a\n\n- goal: a\n\n## Contract as judged\n\n## Goal: A\n{contract}\n## Contract history\n\n- x\n"
        );
        assert_eq!(judged_contract(&text), Some(blob_id(contract.as_bytes())));
        assert_eq!(judged_contract("# Sign-off record: a\n"), None);
    }

    #[test]
    fn the_tree_judged_is_the_one_outside_fences() {
        let quoted = "````text\n- tree judged: 1111111111111111111111111111111111111111 (x)\n````";
        let text = format!(
            "## Evidence\n\n{quoted}\n\n## Judge\n\n- tree judged: 2222222222222222222222222222222222222222 (the working tree)\n\n### Prompt\n\n{quoted}\n"
        );
        assert_eq!(tree_judged(&text).unwrap(), "2".repeat(40));
        assert_eq!(tree_judged("- tree judged:  (the working tree)\n"), None);
        assert_eq!(tree_judged(&format!("{quoted}\n")), None);
    }
}
