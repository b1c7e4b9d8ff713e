//! The skip-condition reader alone: sets compared, free variables, bounds.

use super::{Change, change};

/// `sys.platform == "{p}"` in Python's normal form.
fn platform(op: &str, p: &str) -> String {
    format!(
        " (comparison_operator (attribute identifier=sys\u{1} . identifier=platform\u{1}) {op} (string ={p}))"
    )
}

fn and(a: &str, b: &str) -> String {
    format!(" (boolean_operator {a} and {b})")
}

fn free(name: &str) -> String {
    format!(" identifier={name}\u{1}")
}

#[test]
fn conditions_are_compared_as_sets() {
    let win = platform("==", "win32");
    let not_ne = format!(" (not_operator not {})", platform("!=", "win32"));
    assert_eq!(change(&win, &not_ne), Change::Same);
    assert_eq!(change(&win, &platform("!=", "win32")), Change::Wider);
    assert_eq!(change(&win, &platform("!=", "cli")), Change::Wider);
    assert_eq!(change(&platform("!=", "cli"), &win), Change::Other);
    assert_eq!(change(&win, &platform("==", "darwin")), Change::Other);
    assert_eq!(
        change("cfg_attr(windows,ignore)", "cfg(windows)"),
        Change::Wider
    );
    assert_eq!(
        change(
            "cfg_attr(windows,ignore)",
            "cfg_attr(target_os=\"windows\",ignore)"
        ),
        Change::Same
    );
}

/// What is not read is a variable: a gain that rests on it is no widening, and
/// the same unread part turned round still is the condition turned round.
#[test]
fn parts_not_read_are_free_variables() {
    let win = platform("==", "win32");
    assert_eq!(change(&and(&win, &free("SLOW")), &win), Change::Other);
    assert_eq!(
        change(
            &free("SLOW"),
            &format!(" (not_operator not {})", free("SLOW"))
        ),
        Change::Wider
    );
    assert_eq!(
        change(&and(&win, &free("A")), &and(&free("A"), &win)),
        Change::Same
    );
    assert_eq!(change(&free("A"), &free("B")), Change::Other);
}

/// Past the bounds, or not a normal form at all, nothing is read and nothing
/// is found; nothing panics.
#[test]
fn a_condition_past_the_bounds_or_malformed_is_not_read() {
    let win = platform("==", "win32");
    let long = format!("{}{}", platform("!=", "cli"), " ".repeat(5000));
    assert_eq!(change(&win, &long), Change::Other);
    let many = (0..6).fold(win.clone(), |c, k| and(&c, &free(&format!("V{k}"))));
    assert_eq!(change(&win, &many), Change::Other);
    let deep = format!("{}{}", " (not_operator not".repeat(100), ")".repeat(100));
    assert_eq!(change(&win, &deep), Change::Other);
    for bad in [
        "(",
        ")",
        "\u{1}",
        "x=",
        "(string =(",
        "cfg(all(",
        "cfg_attr(\",ignore)",
        "if ()",
        "é(ü",
    ] {
        assert_ne!(change(&win, bad), Change::Wider, "{bad:?}");
        assert_ne!(change(bad, bad), Change::Wider, "{bad:?}");
    }
}

/// The grid is cut after at most [`super::MAX_PATCHES`] patch releases the
/// two conditions name, the lowest first: a bound on one past them is read as
/// a free variable, as before patches were read.
#[test]
fn patch_releases_past_the_bound_are_not_read() {
    let py = |c: &str| crate::plan::syntax::python_expression(c).unwrap_or_default();
    let with = |n: usize| {
        let others: Vec<String> = (1..=n)
            .map(|p| format!(" or sys.version_info < (3, 0, {p})"))
            .collect();
        py(&format!(
            "sys.version_info < (3, 11, 12){}",
            others.concat()
        ))
    };
    let now = py("sys.version_info < (3, 12)");
    assert_eq!(change(&with(super::MAX_PATCHES - 1), &now), Change::Wider);
    assert_eq!(change(&with(super::MAX_PATCHES), &now), Change::Other);
}
