//! The judge's prompt: the embedded template (or the repository's override) with the
//! goal's facts filled in. Pure.

use crate::plan::template::fill;

pub const EVIDENCE_JUDGE: &str = include_str!("../../prompts/evidence_judge.md");
pub const JUDGE_SYSTEM: &str = include_str!("../../prompts/judge_system.md");

/// What stage 1 did.
pub enum VerifyFacts<'a> {
    None,
    Passed { command: &'a str, tail: &'a str },
}

pub struct Facts<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub done_when: &'a str,
    pub failure_modes: Vec<&'a str>,
    pub verify: VerifyFacts<'a>,
    pub evidence: &'a str,
    pub paths: &'a [String],
    /// The evidence files' text, for a judge that cannot read the repository.
    pub file_contents: Option<String>,
    pub diff_stat: &'a str,
}

pub fn render(template: &str, facts: &Facts<'_>) -> String {
    fill(template, |name| value(name, facts))
}

fn value(name: &str, f: &Facts<'_>) -> Option<String> {
    Some(match name {
        "id" => f.id.to_string(),
        "title" => f.title.to_string(),
        "done_when" => f.done_when.to_string(),
        "failure_modes" if f.failure_modes.is_empty() => "(none listed)".to_string(),
        "failure_modes" => f.failure_modes.iter().map(|m| format!("- {m}\n")).collect::<String>().trim_end().to_string(),
        "verify" => match &f.verify {
            VerifyFacts::None => "The goal has no verify command; nothing was run.".to_string(),
            VerifyFacts::Passed { command, tail } => {
                let tail = if tail.trim().is_empty() { "(no output)" } else { tail.trim_end() };
                format!("`{command}` ran without a shell and exited 0. The end of its output:\n\n```\n{tail}\n```")
            }
        },
        "evidence" if f.evidence.trim().is_empty() => "(no text given)".to_string(),
        "evidence" => f.evidence.trim().to_string(),
        "paths" if f.paths.is_empty() => {
            "none given. You have only the text evidence above; say so, and check it against the repository yourself.".to_string()
        }
        "paths" => f.paths.join(", "),
        "file_contents" => f.file_contents.clone().unwrap_or_default(),
        "diff_stat" if f.diff_stat.trim().is_empty() => "(no changes against HEAD)".to_string(),
        "diff_stat" => format!("```\n{}\n```", f.diff_stat.trim_end()),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> Facts<'static> {
        Facts {
            id: "cache",
            title: "Cache layer",
            done_when: "p95 < 50ms",
            failure_modes: vec!["cache bypassed", "verify gamed"],
            verify: VerifyFacts::Passed {
                command: "cargo test",
                tail: "ok {{id}}\n",
            },
            evidence: "bench.log shows 41ms",
            paths: &[],
            file_contents: None,
            diff_stat: "",
        }
    }

    #[test]
    fn the_embedded_prompt_has_every_fact() {
        let out = render(EVIDENCE_JUDGE, &facts());
        for needle in [
            "# Sign-off review: Cache layer (cache)",
            "done_when: p95 < 50ms",
            "- cache bypassed\n- verify gamed",
            "`cargo test` ran without a shell and exited 0",
            "bench.log shows 41ms",
            "Evidence files: none given",
            "(no changes against HEAD)",
            "VERDICT: accept",
        ] {
            assert!(out.contains(needle), "missing {needle:?} in\n{out}");
        }
        assert!(
            !out.replace("ok {{id}}", "").contains("{{"),
            "a placeholder was left:\n{out}"
        );
    }

    #[test]
    fn values_are_not_expanded_twice_and_unknown_names_stay() {
        let out = render("{{verify}} {{nope}} {{", &facts());
        assert!(out.contains("ok {{id}}"));
        assert!(out.ends_with(" {{nope}} {{"));
    }
}
