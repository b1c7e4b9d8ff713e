//! The review of a draft: Ready / Edit / $EDITOR / Cancel, until Ready or Cancel.
//! The decisions sit behind [`Reviewer`], so the loop is tested with a script and
//! runs on a terminal with dialoguer. Only the caller writes, and only on Ready.

use anyhow::Result;

use super::run::Failure;
use crate::plan::draft::Checked;

/// What the person picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Add the goals to plan.md.
    Ready,
    /// Say what to change; the model redrafts.
    Edit,
    /// Edit the draft text by hand.
    Editor,
    /// Write nothing.
    Cancel,
}

/// The person reviewing.
pub trait Reviewer {
    /// Shows the draft and its problems (rendered, may be empty) and asks what to do.
    fn choose(&mut self, draft: &str, problems: &[String]) -> Result<Choice>;
    /// What should change, in words.
    fn feedback(&mut self) -> Result<String>;
    /// The draft after a hand edit; `None` when it was not saved.
    fn edit(&mut self, text: &str) -> Result<Option<String>>;
    /// Tells the person something, e.g. why the draft did not change.
    fn note(&mut self, message: &str);
}

/// How a review ended.
#[derive(Debug)]
pub enum Outcome {
    Ready(Checked),
    Cancelled,
}

/// Runs the menu until Ready (on a draft without errors) or Cancel. `redraft` asks
/// the model again with feedback; `reread` checks a hand-edited text. A redraft that
/// fails leaves the draft as it was; a model that touched the working tree ends the
/// review, since nothing it then says can be trusted.
pub fn review(
    reviewer: &mut dyn Reviewer,
    draft: Checked,
    redraft: &mut dyn FnMut(&Checked, &str) -> Result<Checked, Failure>,
    reread: &dyn Fn(&str) -> Checked,
) -> Result<Outcome> {
    let mut current = draft;
    loop {
        match reviewer.choose(&current.text, &current.render_problems())? {
            Choice::Ready if current.is_ok() => return Ok(Outcome::Ready(current)),
            Choice::Ready => reviewer.note(
                "the draft has errors: fix them (Edit, or $EDITOR) before it can be added, or Cancel",
            ),
            Choice::Edit => {
                let feedback = reviewer.feedback()?;
                if feedback.trim().is_empty() {
                    continue;
                }
                match redraft(&current, &feedback) {
                    Ok(new) => current = new,
                    Err(Failure::Bad(bad)) => reviewer.note(&format!(
                        "the redraft still had problems; the draft is as it was\n{}",
                        bad.render_problems().join("\n")
                    )),
                    Err(Failure::NoAnswer(reason)) => reviewer.note(&format!(
                        "the drafting model gave no draft ({reason}); the draft is as it was"
                    )),
                    Err(failure) => return Err(failure.into_error()),
                }
            }
            Choice::Editor => {
                if let Some(text) = reviewer.edit(&current.text)? {
                    current = reread(&text);
                }
            }
            Choice::Cancel => return Ok(Outcome::Cancelled),
        }
    }
}

/// The review on a terminal: the menu on stderr, so stdout stays the result.
pub struct Terminal;

impl Reviewer for Terminal {
    fn choose(&mut self, draft: &str, problems: &[String]) -> Result<Choice> {
        crate::out::warn(&format!("\n{}\n", draft.trim_end()));
        if !problems.is_empty() {
            crate::out::warn(&format!("{}\n", problems.join("\n")));
        }
        let items = [
            "Ready: add these goals to plan.md",
            "Edit: say what to change, and the model redrafts",
            "$EDITOR: edit the draft yourself",
            "Cancel: write nothing",
        ];
        let pick = dialoguer::Select::new()
            .with_prompt("Plan mode")
            .items(items)
            .default(0)
            .interact_opt()?;
        Ok(match pick {
            Some(0) => Choice::Ready,
            Some(1) => Choice::Edit,
            Some(2) => Choice::Editor,
            _ => Choice::Cancel,
        })
    }

    fn feedback(&mut self) -> Result<String> {
        Ok(dialoguer::Input::<String>::new()
            .with_prompt("What should change?")
            .allow_empty(true)
            .interact_text()?)
    }

    fn edit(&mut self, text: &str) -> Result<Option<String>> {
        Ok(dialoguer::Editor::new().extension(".md").edit(text)?)
    }

    fn note(&mut self, message: &str) {
        crate::out::warn(&format!("plan: {message}"));
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::*;
    use crate::draft::run::check;
    use crate::plan::model::parse;

    /// A reviewer that follows a script and records what it was shown.
    #[derive(Default)]
    struct Scripted {
        choices: VecDeque<Choice>,
        feedback: VecDeque<String>,
        edits: VecDeque<Option<String>>,
        shown: Vec<(String, Vec<String>)>,
        notes: Vec<String>,
    }

    impl Scripted {
        fn new(choices: &[Choice]) -> Scripted {
            Scripted {
                choices: choices.iter().copied().collect(),
                ..Scripted::default()
            }
        }
    }

    impl Reviewer for Scripted {
        fn choose(&mut self, draft: &str, problems: &[String]) -> Result<Choice> {
            self.shown.push((draft.to_string(), problems.to_vec()));
            Ok(self.choices.pop_front().expect("the script has a choice"))
        }
        fn feedback(&mut self) -> Result<String> {
            Ok(self.feedback.pop_front().expect("the script has feedback"))
        }
        fn edit(&mut self, _text: &str) -> Result<Option<String>> {
            Ok(self.edits.pop_front().expect("the script has an edit"))
        }
        fn note(&mut self, message: &str) {
            self.notes.push(message.to_string());
        }
    }

    fn goal(title: &str) -> String {
        format!(
            "## Goal: {title}\ndone_when: it works\nfailure_modes:\n- a test passes trivially\n- b\n- [ ] do it\n"
        )
    }

    fn checked(text: &str) -> Checked {
        check(text, &parse(""))
    }

    fn run(
        reviewer: &mut Scripted,
        redraft: &mut dyn FnMut(&Checked, &str) -> Result<Checked, Failure>,
    ) -> Outcome {
        review(reviewer, checked(&goal("First")), redraft, &|t| checked(t)).unwrap()
    }

    fn no_redraft(_: &Checked, _: &str) -> Result<Checked, Failure> {
        panic!("no redraft expected")
    }

    fn titles(outcome: &Outcome) -> Vec<String> {
        match outcome {
            Outcome::Ready(c) => c.goals.iter().map(|g| g.title.clone()).collect(),
            Outcome::Cancelled => vec!["(cancelled)".to_string()],
        }
    }

    #[test]
    fn ready_takes_the_draft_as_it_is() {
        let mut r = Scripted::new(&[Choice::Ready]);
        let out = run(&mut r, &mut no_redraft);
        assert_eq!(titles(&out), ["First"]);
        assert_eq!(r.shown.len(), 1);
        assert!(r.shown[0].0.starts_with("## Goal: First"));
        assert_eq!(r.shown[0].1, Vec::<String>::new());
    }

    #[test]
    fn cancel_takes_nothing() {
        let mut r = Scripted::new(&[Choice::Cancel]);
        assert_eq!(titles(&run(&mut r, &mut no_redraft)), ["(cancelled)"]);
    }

    #[test]
    fn edit_redrafts_with_the_feedback_and_the_menu_comes_back() {
        let mut r = Scripted::new(&[Choice::Edit, Choice::Edit, Choice::Ready]);
        r.feedback = ["".to_string(), "call it Second".to_string()].into();
        let mut asked = Vec::new();
        let out = run(&mut r, &mut |current, feedback| {
            asked.push((current.goals[0].title.clone(), feedback.to_string()));
            Ok(checked(&goal("Second")))
        });
        assert_eq!(titles(&out), ["Second"]);
        assert_eq!(
            asked,
            [("First".to_string(), "call it Second".to_string())],
            "empty feedback asks nothing"
        );
        assert_eq!(r.shown.len(), 3);
        assert!(r.shown[2].0.starts_with("## Goal: Second"));
    }

    #[test]
    fn a_failed_redraft_keeps_the_draft_and_says_why() {
        let mut r = Scripted::new(&[Choice::Edit, Choice::Edit, Choice::Ready]);
        r.feedback = ["more".to_string(), "again".to_string()].into();
        let mut calls = 0;
        let out = run(&mut r, &mut |_, _| {
            calls += 1;
            match calls {
                1 => Err(Failure::Bad(checked("## Goal: X\n"))),
                _ => Err(Failure::NoAnswer("timed out".to_string())),
            }
        });
        assert_eq!(titles(&out), ["First"]);
        assert!(r.notes[0].starts_with("the redraft still had problems"));
        assert!(r.notes[0].contains("has no done_when"));
        assert!(r.notes[1].contains("timed out"));
    }

    #[test]
    fn a_redraft_that_touched_the_tree_ends_the_review() {
        let mut r = Scripted::new(&[Choice::Edit]);
        r.feedback = ["more".to_string()].into();
        let err = review(
            &mut r,
            checked(&goal("First")),
            &mut |_, _| Err(Failure::Changed(vec!["src/main.rs".to_string()])),
            &|t| checked(t),
        )
        .unwrap_err();
        assert!(err.to_string().contains("src/main.rs"), "{err}");
    }

    #[test]
    fn editor_text_is_checked_and_ready_waits_for_a_clean_draft() {
        let mut r = Scripted::new(&[
            Choice::Editor,
            Choice::Ready,
            Choice::Editor,
            Choice::Editor,
            Choice::Ready,
        ]);
        r.edits = [
            Some("## Goal: Broken\n- [ ] no contract\n".to_string()),
            None,
            Some(format!("{}\n{}", goal("Mine"), goal("Also mine"))),
        ]
        .into();
        let out = run(&mut r, &mut no_redraft);
        assert_eq!(titles(&out), ["Mine", "Also mine"]);
        assert!(
            r.shown[1].1.iter().any(|p| p.contains("has no done_when")),
            "the edited draft's problems are shown: {:?}",
            r.shown[1]
        );
        assert!(r.notes[0].starts_with("the draft has errors"));
        assert_eq!(
            r.shown[2].0, r.shown[3].0,
            "an unsaved edit changes nothing"
        );
    }
}
