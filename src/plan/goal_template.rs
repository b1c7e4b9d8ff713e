//! Goal templates: a goal's contract to start from (`plan add --template NAME`),
//! written in plan.md's own goal format with `{title}` where the title goes. Three
//! ship built in; `.plan/templates/NAME.md` overrides or adds one. Pure: the caller
//! reads the files.

use super::model::parse;

/// The templates plan ships, by name.
pub const BUILT_IN: [(&str, &str); 3] = [
    ("feature", include_str!("../../templates/feature.md")),
    ("bugfix", include_str!("../../templates/bugfix.md")),
    ("refactor", include_str!("../../templates/refactor.md")),
];

/// What a template gives a new goal.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Start {
    pub done_when: Option<String>,
    pub verify: Option<String>,
    pub depends_on: Vec<String>,
    pub failure_modes: Vec<String>,
    pub subtasks: Vec<String>,
}

/// Reads template `text` for a goal titled `title`; the error says what is wrong
/// with the template.
pub fn read(text: &str, title: &str) -> Result<Start, String> {
    let filled = text.replace("{title}", title);
    let plan = parse(&filled);
    if let Some(e) = plan.errors.first() {
        return Err(format!("line {}: {}", e.line, e.message));
    }
    let goal = match plan.goals.as_slice() {
        [goal] => goal,
        [] => return Err("it has no `## Goal: {title}` heading".to_string()),
        _ => return Err("it has more than one goal".to_string()),
    };
    Ok(Start {
        done_when: goal.done_when().map(str::to_string),
        verify: goal.verify().map(str::to_string),
        depends_on: goal.depends_on.iter().map(|d| d.to_string()).collect(),
        failure_modes: goal
            .failure_modes
            .iter()
            .map(|f| f.value.to_string())
            .collect(),
        subtasks: goal.subtasks.iter().map(|s| s.text.to_string()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_templates_read_and_carry_failure_modes() {
        for (name, text) in BUILT_IN {
            let start = read(text, "Fix the cache").unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(start.done_when.is_some(), "{name}");
            assert!(start.failure_modes.len() >= 3, "{name}");
            assert!(!start.subtasks.is_empty(), "{name}");
        }
        let bugfix = read(BUILT_IN[1].1, "x").unwrap();
        assert!(
            bugfix
                .failure_modes
                .contains(&"the test passes without reproducing the bug first".to_string())
        );
    }

    #[test]
    fn a_broken_template_says_why() {
        assert!(
            read("no heading\n", "x")
                .unwrap_err()
                .contains("no `## Goal")
        );
        assert!(
            read("## Goal: {title}\nstatus: doing\n", "x")
                .unwrap_err()
                .contains("line 2")
        );
        let two = "## Goal: {title}\n## Goal: other\n";
        assert!(read(two, "x").unwrap_err().contains("more than one"));
        let own = read("## Goal: {title}\ndone_when: {title} is fast\n", "Cache").unwrap();
        assert_eq!(own.done_when.as_deref(), Some("Cache is fast"));
    }
}
