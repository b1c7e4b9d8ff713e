//! Whether a transcript holds a judge's accept, not just a header that says so: the
//! answers recorded in its body (read at the edge with the judge's own verdict
//! parser) and the log's `sign-off rejected` lines, which name the transcripts of
//! rejects. Pure: the plan and the header's fields in (not the header itself, which
//! `proof` owns and which calls here).

use super::event::Event;
use super::model::Plan;

/// The plan.md line of the `sign-off rejected` line, of any goal, that names the
/// transcript at `path` (plan appends it as ` (PATH)`): that transcript holds a
/// reject, whatever its header was edited to say. Each log line costs a suffix
/// compare; only a match is parsed.
pub fn rejected_at(plan: &Plan<'_>, path: &str) -> Option<usize> {
    let named = format!("({path})");
    plan.log
        .iter()
        .filter(|entry| entry.text.ends_with(&named))
        .find(|entry| {
            matches!(Event::parse(entry.text), Some(Event::Rejected { missing, .. }) if missing.ends_with(&named))
        })
        .map(|entry| entry.line)
}

/// Whether the judge answers the body records back the header: none for `judge:
/// none`; for one judge, one answer, from the judge the header names, that reads
/// as an accept; for a panel, one accept from each judge, in the header's order.
/// `judge`, `panel` and `answers` are the header's fields of those names; answers
/// not read (`None`) are left to the other checks.
pub fn answers_back(
    judge: &str,
    panel: &[(String, String)],
    answers: Option<&[(String, String)]>,
    path: &str,
) -> Result<(), String> {
    let Some(answers) = answers else {
        return Ok(());
    };
    if judge == "none" {
        return match answers.first() {
            None => Ok(()),
            Some((judge, _)) => Err(format!(
                "its transcript {path} says no judge ran, but records an answer from judge {judge}"
            )),
        };
    }
    let named: Vec<&str> = if panel.is_empty() {
        vec![judge]
    } else {
        panel.iter().map(|(j, _)| j.as_str()).collect()
    };
    if answers.is_empty() {
        return Err(format!(
            "its transcript {path} records no answer from judge {}",
            named.join(", ")
        ));
    }
    let recorded: Vec<&str> = answers.iter().map(|(j, _)| j.as_str()).collect();
    if recorded != named {
        return Err(format!(
            "its transcript {path} names judge {}, but records answers from {}",
            named.join(", "),
            recorded.join(", ")
        ));
    }
    match answers.iter().find(|(_, verdict)| verdict != "accept") {
        Some((judge, verdict)) => Err(format!(
            "its transcript {path} records judge {judge}'s answer as {}",
            verdict.replace('-', " ")
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header's judge, panel and answers.
    struct Header {
        judge: String,
        panel: Vec<(String, String)>,
        answers: Option<Vec<(String, String)>>,
    }

    fn header(judge: &str, answers: &[(&str, &str)]) -> Header {
        Header {
            judge: judge.into(),
            panel: Vec::new(),
            answers: Some(
                answers
                    .iter()
                    .map(|(j, v)| (j.to_string(), v.to_string()))
                    .collect(),
            ),
        }
    }

    fn check(h: &Header) -> Result<(), String> {
        answers_back(&h.judge, &h.panel, h.answers.as_deref(), "t.md")
    }

    #[test]
    fn only_the_named_judges_accept_backs_a_header() {
        let why = |h: &Header| check(h).unwrap_err();
        assert_eq!(check(&header("claude", &[("claude", "accept")])), Ok(()));
        assert_eq!(check(&header("none", &[])), Ok(()));
        assert_eq!(answers_back("claude", &[], None, "t.md"), Ok(()));
        assert_eq!(
            why(&header("claude", &[("claude", "reject")])),
            "its transcript t.md records judge claude's answer as reject"
        );
        assert!(why(&header("claude", &[("claude", "no-verdict")])).ends_with("as no verdict"));
        assert_eq!(
            why(&header("claude", &[])),
            "its transcript t.md records no answer from judge claude"
        );
        assert!(why(&header("none", &[("claude", "accept")])).contains("says no judge ran"));
        assert!(
            why(&header("claude", &[("codex", "accept")])).contains("records answers from codex")
        );
        let two = [("claude", "accept"), ("claude", "accept")];
        assert!(why(&header("claude", &two)).contains("records answers from claude, claude"));
        let mut panel = header("a + b", &[("a", "accept"), ("b", "reject")]);
        panel.panel = vec![("a".into(), "accept".into()), ("b".into(), "accept".into())];
        assert!(why(&panel).contains("judge b's answer as reject"));
    }

    #[test]
    fn a_rejected_line_of_any_goal_names_its_transcript() {
        let src = "## Goal: A\n<!-- id: a -->\nstatus: done\n\n## Log\n- 2026-01-01 10:00 b sign-off rejected (judge): tests (see .plan/judge/x.md) (.plan/judge/a-1.md)\n";
        let plan = super::super::model::parse(src);
        assert_eq!(rejected_at(&plan, ".plan/judge/a-1.md"), Some(6));
        assert_eq!(rejected_at(&plan, ".plan/judge/x.md"), None);
    }
}
