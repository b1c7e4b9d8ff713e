//! The skill at `.agents/skills/plan/SKILL.md` (which the plugin carries): under 60
//! lines, with the front matter hosts read, and every `plan` command it teaches
//! exists with the flags it shows.

use crate::util::Test;

const SKILL: &str = include_str!("../../.agents/skills/plan/SKILL.md");

#[test]
fn the_skill_is_short_and_names_itself() {
    assert!(
        SKILL.lines().count() < 60,
        "{} lines",
        SKILL.lines().count()
    );
    let front: Vec<&str> = SKILL
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n"))
        .map(|(front, _)| front.lines().collect())
        .expect("front matter between --- lines");
    assert_eq!(front[0], "name: plan");
    assert!(front[1].starts_with("description: "), "{front:?}");
}

/// Each `plan …` the skill shows (in backticks, or indented as a block): its
/// subcommand runs `--help`, and each `--flag` it uses is in that help.
#[test]
fn every_command_the_skill_teaches_exists_with_its_flags() {
    let t = Test::new();
    let mut commands: Vec<String> = SKILL
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| s.starts_with("plan "))
        .map(str::to_string)
        .collect();
    commands.extend(
        SKILL
            .lines()
            .filter_map(|l| l.strip_prefix("    plan "))
            .map(|rest| format!("plan {rest}")),
    );
    assert!(commands.len() >= 12, "{commands:?}");
    for command in &commands {
        let words: Vec<&str> = command.split_whitespace().skip(1).collect();
        // The subcommand: the leading lowercase words (`goal status`).
        let sub: Vec<&str> = words
            .iter()
            .take_while(|w| w.bytes().all(|b| b.is_ascii_lowercase()))
            .copied()
            .collect();
        assert!(!sub.is_empty(), "{command}");
        let mut args = sub.clone();
        args.push("--help");
        let help = t.ok(&args).stdout;
        for flag in words.iter().filter(|w| w.starts_with("--")) {
            let flag = flag.trim_end_matches(|c: char| !c.is_ascii_alphanumeric() && c != '-');
            assert!(
                help.contains(flag),
                "`{command}`: {flag} is not in `plan {} --help`",
                sub.join(" ")
            );
        }
    }
}
