//! Diagnostics with a place: `plan.md:14: message`, the source line, and a hint.

use serde::Serialize;

use super::rules::Rule;
pub use super::rules::Severity;
use super::text::escape_controls as esc;
use super::text::{excerpt, excerpt_at};

/// The most of a message or a hint printed: they quote plan.md text in excerpts
/// already; this bounds one that quotes a whole line or title of any length.
pub const MESSAGE_MAX: usize = 1000;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// 1-based; 0 when the problem belongs to the whole file.
    pub line: usize,
    pub severity: Severity,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The rule of the one table (src/plan/rules.rs) it comes from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<Rule>,
}

impl Diagnostic {
    pub fn error(line: usize, message: impl Into<String>) -> Self {
        Diagnostic {
            line,
            severity: Severity::Error,
            message: message.into(),
            hint: None,
            rule: None,
        }
    }

    pub fn warning(line: usize, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(line, message)
        }
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn rule(mut self, rule: Rule) -> Self {
        self.rule = Some(rule);
        self
    }

    /// `name:line: message`, then the source line (its first
    /// [`super::text::ECHO_MAX`] characters: a 10 MB id is never printed whole) and the hint, each indented.
    /// Warnings say so; errors need no label.
    pub fn render(&self, name: &str, line_text: Option<&str>) -> String {
        self.render_as(name, line_text, false)
    }

    /// As [`Diagnostic::render`], with the rule's id after the message
    /// (`plan.md:3: goal "a" has no done_when [no-done-when]`): what the reports of
    /// `plan lint` and `plan doctor` print, so a rule can be looked up and named.
    pub fn render_with_rule(&self, name: &str, line_text: Option<&str>) -> String {
        self.render_as(name, line_text, true)
    }

    fn render_as(&self, name: &str, line_text: Option<&str>, with_rule: bool) -> String {
        let mut out = String::new();
        let label = match self.severity {
            Severity::Error => "",
            Severity::Warning => "warning: ",
        };
        // Messages quote titles and the line itself: plan.md text, shown escaped so
        // a control sequence in it reaches no terminal.
        let message = excerpt_at(&self.message, MESSAGE_MAX);
        let message = esc(&message);
        if self.line == 0 {
            out.push_str(&format!("{name}: {label}{message}"));
        } else {
            out.push_str(&format!("{name}:{}: {label}{message}", self.line));
        }
        if let Some(rule) = self.rule.filter(|_| with_rule) {
            out.push_str(&format!(" [{}]", rule.id()));
        }
        if let Some(text) = line_text.filter(|_| self.line > 0) {
            out.push_str(&format!(
                "\n{:>5} | {}",
                self.line,
                esc(&excerpt(text.trim_end()))
            ));
        }
        if let Some(hint) = &self.hint {
            out.push_str(&format!(
                "\n  hint: {}",
                esc(&excerpt_at(hint, MESSAGE_MAX))
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_place_line_and_hint() {
        let d = Diagnostic::error(14, "unknown status \"doing\"").hint("use open");
        assert_eq!(
            d.render("plan.md", Some("status: doing")),
            "plan.md:14: unknown status \"doing\"\n   14 | status: doing\n  hint: use open"
        );
        let w = Diagnostic::warning(0, "no log");
        assert_eq!(w.render("plan.md", None), "plan.md: warning: no log");
    }

    #[test]
    fn the_rule_id_follows_the_message() {
        let d = Diagnostic::warning(3, "no log")
            .hint("add one")
            .rule(Rule::NoLog);
        assert_eq!(
            d.render_with_rule("plan.md", Some("x")),
            "plan.md:3: warning: no log [no-log]\n    3 | x\n  hint: add one"
        );
        assert_eq!(
            d.render("plan.md", Some("x")),
            "plan.md:3: warning: no log\n    3 | x\n  hint: add one"
        );
    }
}
