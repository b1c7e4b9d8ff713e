//! A skip condition widened inside the helper the tests skip through: a function
//! of a test-tree file whose name says it decides a skip (`shouldSkipQuery`,
//! `should_skip`, `skipOnWindows`) and whose one `return` now holds for more
//! (`major === 21` became `major < 22`, `a` became `a || b`). The tests that call
//! it are unchanged, so no count of theirs moves. Read through tree-sitter. Pure.

use tree_sitter::Node;

use super::rules::{Part, RuleId};
use crate::plan::syntax::{Grammar, clean_tree, kids, preorder};

/// The finding for the file at `path` when a skip helper it kept by name returns
/// a condition that holds wherever the old one did and somewhere it did not.
pub(super) fn found(path: &str, before: Option<&str>, after: &str) -> Option<Part> {
    let grammar = Grammar::of(path)?;
    if !after.to_ascii_lowercase().contains("skip") {
        return None;
    }
    let old = helpers(grammar, before?)?;
    let new = helpers(grammar, after)?;
    new.iter().find_map(|(name, line, now)| {
        let (_, _, was) = old.iter().find(|(n, _, _)| n == name)?;
        let (then, here) = (&was.terms, &now.terms);
        let wider = covers(here, then) && !covers(then, here);
        wider.then(|| {
            Part::at(
                RuleId::TestsSkipped,
                *line,
                format!(
                    "a skip condition widened in its helper `{name}`, which now switches tests off for `{}` (it was `{}`, line {line})",
                    now.text, was.text
                ),
            )
        })
    })
}

/// A condition read as what decides whether it holds: a comparison of one
/// operand with a number, or any other expression by its text.
#[derive(Clone, Debug, PartialEq)]
enum Term {
    Compare {
        subject: String,
        op: &'static str,
        number: f64,
    },
    Other(String),
}

/// A helper's returned condition: its text as written and its terms under `||`.
#[derive(Clone, Debug)]
struct Returned {
    text: String,
    terms: Vec<Term>,
}

/// Each function of the file whose name says skip and whose body is one
/// `return` of a value (an arrow's expression body counts), with the line of
/// that value; `None` when the file does not parse cleanly.
fn helpers(grammar: Grammar, text: &str) -> Option<Vec<(String, usize, Returned)>> {
    let tree = clean_tree(grammar, text)?;
    let src = text;
    let mut out = Vec::new();
    for node in preorder(tree.root_node()) {
        let (name, body) = match node.kind() {
            "function_declaration" | "function_definition" | "method_declaration" => (
                node.child_by_field_name("name"),
                node.child_by_field_name("body"),
            ),
            "variable_declarator" => {
                let value = node.child_by_field_name("value").filter(|v| {
                    matches!(
                        v.kind(),
                        "arrow_function" | "function_expression" | "function"
                    )
                });
                (
                    node.child_by_field_name("name"),
                    value.and_then(|v| v.child_by_field_name("body")),
                )
            }
            _ => continue,
        };
        let (Some(name), Some(body)) = (name, body) else {
            continue;
        };
        let name = &src[name.byte_range()];
        if !skips_tests(name) {
            continue;
        }
        let Some(value) = returned(body) else {
            continue;
        };
        let terms = terms(src, value)?;
        let text = squeeze(&src[value.byte_range()]);
        let line = value.start_position().row + 1;
        out.push((name.to_string(), line, Returned { text, terms }));
    }
    Some(out)
}

/// The value a function body returns when the body is that one `return` (or,
/// for an arrow, an expression).
fn returned(body: Node<'_>) -> Option<Node<'_>> {
    if !matches!(body.kind(), "statement_block" | "block") {
        return Some(body);
    }
    let [only] = kids(body)[..] else {
        return None;
    };
    if only.kind() != "return_statement" {
        return None;
    }
    let value = *kids(only).first()?;
    match value.kind() {
        "expression_list" => match kids(value)[..] {
            [one] => Some(one),
            _ => None,
        },
        _ => Some(value),
    }
}

/// The terms of `node` under `||` (`or`), each a comparison with a number or
/// other text; `None` past a nesting a real helper never reaches.
fn terms(src: &str, node: Node<'_>) -> Option<Vec<Term>> {
    let mut out = Vec::new();
    let mut todo = vec![node];
    while let Some(n) = todo.pop() {
        if out.len() > 64 {
            return None;
        }
        if n.kind() == "parenthesized_expression"
            && let [inner] = kids(n)[..]
        {
            todo.push(inner);
            continue;
        }
        let parts = kids(n);
        let operator = match parts[..] {
            [left, right] => src[left.end_byte()..right.start_byte()].trim(),
            _ => "",
        };
        if matches!(operator, "||" | "or") {
            todo.extend(parts.iter().rev());
            continue;
        }
        out.push(
            compare(src, &parts, operator)
                .unwrap_or_else(|| Term::Other(squeeze(&src[n.byte_range()]))),
        );
    }
    Some(out)
}

/// `subject op number` (or `number op subject`, turned round).
fn compare(src: &str, parts: &[Node<'_>], operator: &str) -> Option<Term> {
    let [left, right] = parts else {
        return None;
    };
    let number = |n: &Node<'_>| src[n.byte_range()].trim().parse::<f64>().ok();
    let op = |o: &str| -> Option<&'static str> {
        Some(match o {
            "===" | "==" => "==",
            "!==" | "!=" => "!=",
            "<" => "<",
            "<=" => "<=",
            ">" => ">",
            ">=" => ">=",
            _ => return None,
        })
    };
    let flipped = |o: &'static str| match o {
        "<" => ">",
        "<=" => ">=",
        ">" => "<",
        ">=" => "<=",
        same => same,
    };
    let (subject, op, number) = match (number(left), number(right)) {
        (None, Some(n)) => (*left, op(operator)?, n),
        (Some(n), None) => (*right, flipped(op(operator)?), n),
        _ => return None,
    };
    Some(Term::Compare {
        subject: squeeze(&src[subject.byte_range()]),
        op,
        number,
    })
}

/// Whether `x` satisfies the comparison `op number`.
fn holds(op: &str, number: f64, x: f64) -> bool {
    match op {
        "==" => x == number,
        "!=" => x != number,
        "<" => x < number,
        "<=" => x <= number,
        ">" => x > number,
        _ => x >= number,
    }
}

/// Whether the terms of `wide` hold wherever those of `narrow` do: each term of
/// `narrow` is one of `wide`, or a comparison of a subject that, at every point
/// where the numbers of either side change what holds, holds only where one of
/// `wide`'s comparisons of that subject does.
fn covers(wide: &[Term], narrow: &[Term]) -> bool {
    narrow.iter().all(|term| match term {
        Term::Other(_) => wide.contains(term),
        Term::Compare {
            subject,
            op,
            number,
        } => {
            let same: Vec<(&str, f64)> = wide
                .iter()
                .filter_map(|w| match w {
                    Term::Compare {
                        subject: s,
                        op,
                        number,
                    } if s == subject => Some((*op, *number)),
                    _ => None,
                })
                .collect();
            let mut points: Vec<f64> = same.iter().map(|(_, n)| *n).collect();
            points.push(*number);
            points.sort_by(f64::total_cmp);
            points.dedup();
            let mut samples = points.clone();
            samples.extend(points.windows(2).map(|w| (w[0] + w[1]) / 2.0));
            samples.extend(points.first().map(|p| p - 1.0));
            samples.extend(points.last().map(|p| p + 1.0));
            samples
                .iter()
                .all(|&x| !holds(op, *number, x) || same.iter().any(|(o, n)| holds(o, *n, x)))
        }
    })
}

/// `text` with its whitespace runs made one space.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a function's name says it decides a test's skip (`shouldSkipQuery`,
/// `should_skip`, `skipOnWindows`, `skip_if_no_network`), not that it skips
/// input (`skipWhitespace`, `should_skip_frame`: helper 78's review). Read
/// without `_` and case: `skip` last, or followed by a condition's word or an
/// environment's, or after `should`/`must` and followed by none of input's.
fn skips_tests(name: &str) -> bool {
    let bare: String = name
        .chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    let Some(at) = bare.find("skip") else {
        return false;
    };
    let (before, after) = (&bare[..at], &bare[at + "skip".len()..]);
    let starts = |words: &[&str]| words.iter().any(|w| after.starts_with(w));
    let condition = [
        "if", "on", "unless", "when", "for", "test", "windows", "mac", "linux", "ci", "py",
    ];
    let input = [
        "whitespace",
        "space",
        "frame",
        "char",
        "line",
        "token",
        "byte",
        "comment",
    ];
    after.is_empty()
        || starts(&condition)
        || ((before.ends_with("should") || before.ends_with("must")) && !starts(&input))
}
