//! What a transcript's body says that binds it to one sign-off: the contract its
//! `## Contract as judged` section shows and the commit its judge read. A record
//! copied from another goal with only its header relabelled still shows the other
//! goal's contract and names the other goal's checkpoint. The judge answers it
//! records are read back here too, for the edge to run the verdict parser on. Pure:
//! text in.

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

/// One judge's section of a transcript, as `record::judge_section` writes it: its
/// `- backend:` and `- model:` lines and the fenced text under `### The judge's
/// answer` (`None` when there is none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedJudge {
    pub backend: String,
    /// `None`: the backend's default model.
    pub model: Option<String>,
    pub answer: Option<String>,
}

/// Every judge section of `text` (`## Judge`, or `## Judge N of M: NAME` in a
/// panel's record), in order; none for a `--judge none` record. Lines inside fenced
/// text (evidence, a prompt, an answer) never start or fill a section.
pub fn judge_answers(text: &str) -> Vec<RecordedJudge> {
    let mut judges: Vec<RecordedJudge> = Vec::new();
    let mut in_section = false;
    let mut wants_answer = false;
    let mut open: Option<(&str, Vec<&str>)> = None;
    for line in text.lines() {
        if let Some((fence, body)) = &mut open {
            if line == *fence {
                let answer = body.join("\n");
                if wants_answer && let Some(judge) = judges.last_mut() {
                    judge.answer.get_or_insert(answer);
                }
                wants_answer = false;
                open = None;
            } else {
                body.push(line);
            }
            continue;
        }
        if let Some(ticks) = fence_opener(line) {
            open = Some((ticks, Vec::new()));
            continue;
        }
        if line.starts_with("## ") {
            in_section = line == "## Judge"
                || line
                    .strip_prefix("## Judge ")
                    .is_some_and(|rest| rest.contains(" of ") && rest.contains(": "));
            wants_answer = false;
            continue;
        }
        if !in_section {
            continue;
        }
        if let Some(backend) = line.strip_prefix("- backend: ") {
            judges.push(RecordedJudge {
                backend: backend.to_string(),
                model: None,
                answer: None,
            });
        } else if let Some(model) = line.strip_prefix("- model: ")
            && let Some(judge) = judges.last_mut()
        {
            judge.model = (model != "(the backend's default)").then(|| model.to_string());
        } else if line == "### The judge's answer" {
            wants_answer = true;
        } else if line.starts_with("### ") {
            wants_answer = false;
        }
    }
    judges
}

/// The backticks of a fence's opening line: four or more, then `text`.
fn fence_opener(line: &str) -> Option<&str> {
    line.strip_suffix("text")
        .filter(|ticks| ticks.len() >= 4 && ticks.bytes().all(|b| b == b'`'))
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
        if let Some(ticks) = fence_opener(line) {
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

    #[test]
    fn judge_answers_are_read_from_their_sections_only() {
        let quoted = "````text\n## Judge\n\n- backend: codex\n````";
        let text = format!(
            "## Evidence\n\n{quoted}\n\n## Judge\n\n- backend: claude\n- model: (the backend's default)\n- tree judged: 1\n\n### Prompt\n\n````text\n### The judge's answer\n````\n\n### The judge's answer\n\n````text\nVERDICT: reject\nmissing:\n- x\n````\n\n### Stderr\n\n````text\nVERDICT: accept\n````\n"
        );
        assert_eq!(
            judge_answers(&text),
            vec![RecordedJudge {
                backend: "claude".into(),
                model: None,
                answer: Some("VERDICT: reject\nmissing:\n- x".into()),
            }]
        );
        assert_eq!(
            judge_answers("## Judge\n\n(no judge: --judge none)\n"),
            vec![]
        );
        let panel = "## Judge panel\n\n- judges: a + b\n\n## Judge 1 of 2: a\n\n- backend: command\n- model: m\n\n### The judge's answer\n\n````text\nok\n````\n\n## Judge 2 of 2: b\n\n- backend: codex\n";
        let judges = judge_answers(panel);
        assert_eq!(judges.len(), 2);
        assert_eq!(judges[0].model.as_deref(), Some("m"));
        assert_eq!(judges[0].answer.as_deref(), Some("ok"));
        assert_eq!(judges[1].answer, None);
    }
}
