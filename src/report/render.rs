//! The report in words: for a terminal, or as Markdown for a notification or a pull
//! request comment (headings and lists, no colour). Both come from the same sections,
//! so they never tell different stories.

use super::model::{Change, Report};
use crate::plan::text::escape_controls;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Text,
    Markdown,
}

struct Section {
    heading: String,
    items: Vec<String>,
}

pub fn render(report: &Report, form: Form) -> String {
    let md = form == Form::Markdown;
    let same_day = report
        .from
        .get(..10)
        .is_some_and(|d| report.to.starts_with(d));
    let when = |at: &Option<String>| -> String {
        match at {
            Some(at) if same_day && at.len() == 16 => at[11..].to_string(),
            Some(at) => at.clone(),
            None => "unstamped".to_string(),
        }
    };
    let code = |id: &str| {
        let id = escape_controls(id);
        if md {
            format!("`{id}`")
        } else {
            id.into_owned()
        }
    };
    let named = |id: &str, title: &Option<String>| match title {
        Some(title) => format!("{} {}", code(id), escape_controls(title)),
        None => code(id),
    };
    let strong = |text: &str| {
        if md {
            format!("**{text}**")
        } else {
            text.to_string()
        }
    };

    let title = title(report);
    let label = |name: &str| {
        if md {
            format!("**{name}:**")
        } else {
            format!("{}:", name.to_lowercase())
        }
    };
    let mut summary = Vec::new();
    let to = match &report.to {
        to if same_day && !report.from.is_empty() && to.len() == 16 => &to[11..],
        to => to.as_str(),
    };
    let mut span = if report.from.is_empty() {
        format!("{} to {to}", label("When"))
    } else {
        format!("{} {} to {to}", label("When"), report.from)
    };
    if let Some(m) = report.elapsed_minutes {
        span.push_str(&format!(" ({})", super::model::duration(m)));
    }
    summary.push(span);
    if let Some(run) = &report.run {
        let mut line = format!(
            "{} {}, {} of {} continuations",
            label("Loop"),
            run.state,
            run.used,
            run.budget
        );
        if let Some(tokens) = run.tokens {
            line.push_str(&format!(", {} tokens", thousands(tokens)));
        }
        if run.replaced {
            line.push_str(", replaced a running loop");
        }
        summary.push(line);
        if let Some(words) = run.host_goal.words() {
            summary.push(format!("{} {words}", label("Host's own goal")));
        }
    }
    for (name, end) in [
        ("Why it ended", &report.ended),
        ("Why it paused", &report.paused),
    ] {
        let Some(end) = end else { continue };
        let at = end
            .at
            .as_ref()
            .map(|_| format!(" at {}", when(&end.at)))
            .unwrap_or_default();
        summary.push(format!(
            "{} {}{at}: {}",
            label(name),
            code(&end.reason),
            escape_controls(&end.why)
        ));
    }

    let mut sections = Vec::new();
    let mut add = |heading: String, items: Vec<String>| {
        if !items.is_empty() {
            sections.push(Section { heading, items });
        }
    };
    add(
        format!("Signed off ({})", report.signed_off.len()),
        report
            .signed_off
            .iter()
            .map(|s| {
                let standing = match (&s.unproven, s.proven) {
                    (_, true) => "proven".to_string(),
                    (Some(why), false) => {
                        format!("{}: {}", strong("not proven"), escape_controls(why))
                    }
                    (None, false) => strong("not proven"),
                };
                let reopened = if s.reopened_after {
                    ", reopened since"
                } else {
                    ""
                };
                format!(
                    "{} ({}): {standing}{reopened}",
                    named(&s.id, &s.title),
                    when(&s.at)
                )
            })
            .collect(),
    );
    add(
        format!("Sign-offs rejected ({})", report.rejected.len()),
        report
            .rejected
            .iter()
            .map(|r| {
                let record = r
                    .record
                    .as_ref()
                    .map_or(String::new(), |p| format!(" ({p})"));
                format!(
                    "{} ({}, {}): {}{}",
                    named(&r.id, &r.title),
                    when(&r.at),
                    escape_controls(&r.stage),
                    escape_controls(&r.missing),
                    escape_controls(&record)
                )
            })
            .collect(),
    );
    let changes = |list: &[Change]| -> Vec<String> {
        list.iter()
            .map(|c| {
                let reason = if c.reason.is_empty() {
                    String::new()
                } else {
                    format!(": {}", escape_controls(&c.reason))
                };
                format!("{} ({}){reason}", named(&c.id, &c.title), when(&c.at))
            })
            .collect()
    };
    add(
        format!("Reopened ({})", report.reopened.len()),
        changes(&report.reopened),
    );
    add(
        format!("Cancelled ({})", report.cancelled.len()),
        changes(&report.cancelled),
    );
    add(
        format!("Continuations per goal ({} in all)", report.continuations),
        report
            .continuations_per_goal
            .iter()
            .map(|c| format!("{}: {}", code(&c.goal), c.continuations))
            .collect(),
    );
    add(
        format!("Budget-limited ({})", report.budget_limited.len()),
        report
            .budget_limited
            .iter()
            .map(|c| {
                format!(
                    "{}: its budget of {} is spent",
                    code(&c.goal),
                    crate::plan::text::count(c.continuations as usize, "continuation")
                )
            })
            .collect(),
    );
    add(
        format!("Budget rearmed ({})", report.rearmed.len()),
        report
            .rearmed
            .iter()
            .map(|r| {
                format!(
                    "{} ({}): {}",
                    named(&r.id, &r.title),
                    when(&r.at),
                    escape_controls(&r.approval)
                )
            })
            .collect(),
    );
    let left: Vec<String> = report
        .left
        .iter()
        .map(|l| {
            let state = match l.state {
                "unproven" => "not proven",
                state => state,
            };
            let mut line = format!("{}: {state}", named(&l.id, &Some(l.title.clone())));
            if !l.waiting_on.is_empty() {
                line.push_str(&format!(" on {}", l.waiting_on.join(", ")));
            }
            if l.total > 0 {
                line.push_str(&format!(", {}/{} subtasks", l.done, l.total));
            }
            if l.budget_limited {
                line.push_str(", budget-limited");
            }
            line
        })
        .collect();
    let nothing_left = left.is_empty();
    add(format!("Left ({})", report.left.len()), left);

    lay_out(md, &title, &summary, &sections, nothing_left)
}

/// The report's title: the span it covers.
fn title(report: &Report) -> String {
    match (report.scope, &report.since) {
        ("loop", _) => "the loop's latest run".to_string(),
        (_, Some(since)) if report.from.is_empty() => {
            format!("since {}", escape_controls(since))
        }
        (_, Some(since)) if report.from.starts_with(since.as_str()) => {
            format!("since {}", report.from)
        }
        (_, Some(since)) => format!("since {} ({})", escape_controls(since), report.from),
        _ => "everything".to_string(),
    }
}

/// The title, summary lines and sections, as Markdown (`md`) or as text.
fn lay_out(
    md: bool,
    title: &str,
    summary: &[String],
    sections: &[Section],
    nothing_left: bool,
) -> String {
    let mut out = String::new();
    if md {
        out.push_str(&format!("# plan report: {title}\n\n"));
        for line in summary {
            out.push_str(&format!("- {line}\n"));
        }
        for section in sections {
            out.push_str(&format!("\n## {}\n\n", section.heading));
            for item in &section.items {
                out.push_str(&format!("- {item}\n"));
            }
        }
        if nothing_left {
            out.push_str("\nNothing is left: every goal is done or cancelled.\n");
        }
    } else {
        out.push_str(&format!("plan report: {title}\n"));
        for line in summary {
            out.push_str(&format!("  {line}\n"));
        }
        for section in sections {
            out.push_str(&format!("\n{}:\n", section.heading.to_lowercase()));
            for item in &section.items {
                out.push_str(&format!("  {item}\n"));
            }
        }
        if nothing_left {
            out.push_str("\nnothing is left: every goal is done or cancelled\n");
        }
    }
    out
}

/// `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
