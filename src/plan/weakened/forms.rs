//! Forms of weakening that counting markers misses: an assertion statement
//! loosened or made unable to fail. Pure and heuristic, like the rest of the
//! check.

/// Whether an assertion statement cannot fail: `assert True`, `assert x or True`,
/// `assert!(true)`, `expect(true).toBe(true)`, `self.assertTrue(True)`.
pub(super) fn trivial(statement: &str) -> bool {
    let s = statement.trim_end_matches([';', ')', ' ']);
    let open_true = |prefix: &str| {
        statement.strip_prefix(prefix).is_some_and(|rest| {
            let rest = rest.trim_start_matches(['(', ' ']);
            ["True", "true", "1", "not False", "!false"]
                .iter()
                .any(|t| {
                    rest.strip_prefix(t)
                        .is_some_and(|after| after.is_empty() || after.starts_with([')', ',', ';']))
                })
        })
    };
    open_true("assert ")
        || open_true("assert!")
        || open_true("assert(")
        || open_true("self.assertTrue")
        || (statement.starts_with("expect(true)")
            && [".toBe(true)", ".toBeTruthy()", ".toEqual(true)"]
                .iter()
                .any(|m| statement.ends_with(m)))
        || open_true("assert.ok")
        || s.ends_with(" or True")
        || s.contains(" or True,")
        || s.ends_with("|| true")
        || s.contains("|| true,")
        || (statement.starts_with("#[should_panic") && statement.contains("expected = \"\""))
}

/// A removed and an added statement that say the same but for a comparison or a
/// literal, where the new one passes for more: `==` to `>=`, a tolerance from
/// `1e-9` to `1e9`, fewer decimal places, an expected message cut to a part of it.
/// In words, for each added statement that loosens a removed one.
pub(super) fn loosened(removed: &[String], added: &[String]) -> Vec<String> {
    // Removed statements by skeleton, so a large rewrite costs one pass each side;
    // within one, by what [`looser`] can find of them, so an added statement is
    // held only against those it could loosen (a bulk update of expected values
    // is none of them).
    let mut by_shape: std::collections::HashMap<String, Vec<(usize, Vec<Lex>, Could)>> =
        std::collections::HashMap::new();
    for (k, old) in removed.iter().enumerate() {
        let lexed = lex(old);
        let could = Could::of(&lexed);
        by_shape
            .entry(shape(&lexed))
            .or_default()
            .push((k, lexed, could));
    }
    let mut out = Vec::new();
    let mut used = vec![false; removed.len()];
    for new in added {
        let new_lex = lex(new);
        let Some(olds) = by_shape.get(&shape(&new_lex)) else {
            continue;
        };
        let order = new_lex.iter().any(|l| comparison(l) == Some(Cmp::Order));
        let context = substring_context(new);
        for (k, old_lex, could) in olds {
            if used[*k]
                || !(could.number
                    || could.bound
                    || (could.exact && order)
                    || (could.text && context))
            {
                continue;
            }
            if let Some(why) = looser(old_lex, &new_lex, new) {
                used[*k] = true;
                out.push(format!(
                    "`{}` became `{}` ({why})",
                    clip(&removed[*k]),
                    clip(new)
                ));
                break;
            }
        }
    }
    out
}

/// The skeleton as a key: two statements of one key differ only in their
/// literals and comparisons.
fn shape(lexed: &[Lex]) -> String {
    let mut key = String::new();
    for l in skeleton(lexed) {
        match l {
            Lex::Word(w) | Lex::Op(w) => key.push_str(&w),
            Lex::Num(_) => key.push('#'),
            Lex::Str(_) => key.push('"'),
        }
        key.push('\u{1}');
    }
    key
}

/// At most 60 characters of a statement, for a finding's words.
pub(super) fn clip(s: &str) -> String {
    let s = s.replace(": ", ":\u{a0}");
    match s.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s,
    }
}

/// `was` and `now` each [`clip`]ped where the reader can tell them apart: when
/// they first differ past what a clip shows (a long snapshot changed deep
/// inside), both are shown from a little before that place, `…` first.
pub(super) fn clip_pair(was: &str, now: &str) -> (String, String) {
    let first = was
        .chars()
        .zip(now.chars())
        .take_while(|(a, b)| a == b)
        .count();
    if first < 40 {
        return (clip(was), clip(now));
    }
    let from = |s: &str| {
        let at = s
            .char_indices()
            .nth(first - 20)
            .map_or(s.len(), |(at, _)| at);
        // A backtick of the code cut off from its mate would open a quotation
        // the finding's parts are split by.
        format!("…{}", clip(&s[at..]).replace('`', "'"))
    };
    (from(was), from(now))
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Lex {
    Word(String),
    Num(f64),
    Str(String),
    Op(String),
}

/// An assertion's text as words, numbers, strings and operators.
pub(super) fn lex(s: &str) -> Vec<Lex> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || b[i] == b'.'
                    || b[i] == b'_'
                    || (matches!(b[i], b'+' | b'-') && matches!(b[i - 1], b'e' | b'E')))
            {
                i += 1;
            }
            let text: String = s[start..i].chars().filter(|&c| c != '_').collect();
            let text = text.trim_end_matches(|c: char| c.is_ascii_alphabetic() && c != 'e');
            match text.parse::<f64>() {
                Ok(n) => out.push(Lex::Num(n)),
                Err(_) => out.push(Lex::Word(s[start..i].to_string())),
            }
        } else if matches!(c, b'"' | b'\'' | b'`') {
            let start = i + 1;
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            let end = i.min(b.len());
            out.push(Lex::Str(s.get(start..end).unwrap_or("").to_string()));
            i = end + 1;
        } else if c == b'_' || c.is_ascii_alphabetic() || c >= 0x80 {
            let start = i;
            while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric() || b[i] >= 0x80) {
                i += 1;
            }
            out.push(Lex::Word(s[start..i].to_string()));
        } else {
            let ops = ["===", "!==", "==", "!=", "<=", ">=", "=>", "->", "::"];
            let op = ops
                .iter()
                .find(|op| b[i..].starts_with(op.as_bytes()))
                .map_or_else(
                    || s[i..].chars().next().map(String::from).unwrap_or_default(),
                    |op| (*op).to_string(),
                );
            i += op.len().max(1);
            out.push(Lex::Op(op));
        }
    }
    out
}

/// How a comparison compares: exactly, or by order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cmp {
    Exact,
    Order,
}

fn comparison(lex: &Lex) -> Option<Cmp> {
    let (Lex::Op(w) | Lex::Word(w)) = lex else {
        return None;
    };
    Some(match w.as_str() {
        "==" | "===" | "!=" | "!==" | "assertEqual" | "assertEquals" | "assertNotEqual"
        | "assert_eq" | "assert_ne" | "toBe" | "toEqual" | "toStrictEqual" | "Equal"
        | "NotEqual" | "EqualValues" | "Equals" | "toHaveLength" => Cmp::Exact,
        "<"
        | ">"
        | "<="
        | ">="
        | "assertGreater"
        | "assertGreaterEqual"
        | "assertLess"
        | "assertLessEqual"
        | "toBeGreaterThan"
        | "toBeGreaterThanOrEqual"
        | "toBeLessThan"
        | "toBeLessThanOrEqual"
        | "Greater"
        | "GreaterOrEqual"
        | "Less"
        | "LessOrEqual" => Cmp::Order,
        _ => return None,
    })
}

/// The statement with its literals and comparisons blanked: two statements of one
/// skeleton differ only there.
fn skeleton(lexed: &[Lex]) -> Vec<Lex> {
    lexed
        .iter()
        .map(|l| match l {
            _ if comparison(l).is_some() => Lex::Op("~".into()),
            Lex::Num(_) => Lex::Num(0.0),
            Lex::Str(_) => Lex::Str(String::new()),
            other => other.clone(),
        })
        .collect()
}

/// What [`looser`] can find of a removed statement, whatever replaced it: a
/// comparison made looser needs an exact one, a tolerance or fewer places a number
/// (below 1, or after `places`), an expected text cut a string.
struct Could {
    exact: bool,
    number: bool,
    text: bool,
    /// A number the check compares with as a bound or a tolerance ([`role`]).
    bound: bool,
}

impl Could {
    fn of(old: &[Lex]) -> Could {
        let number = old.iter().enumerate().any(|(k, l)| {
            let Lex::Num(x) = l else {
                return false;
            };
            x.abs() < 1.0 && *x != 0.0 || places_before(old, k)
        });
        Could {
            exact: old.iter().any(|l| comparison(l) == Some(Cmp::Exact)),
            number,
            text: old.iter().any(|l| matches!(l, Lex::Str(_))),
            bound: (0..old.len()).any(|k| matches!(old[k], Lex::Num(_)) && role(old, k).is_some()),
        }
    }
}

/// Whether the number at `k` of `old` counts decimal places.
fn places_before(old: &[Lex], k: usize) -> bool {
    let key = (1..=2)
        .filter_map(|d| k.checked_sub(d).and_then(|p| old.get(p)))
        .find_map(|l| match l {
            Lex::Word(w) => Some(w.as_str()),
            _ => None,
        });
    matches!(key, Some("places" | "toBeCloseTo" | "decimal"))
}

/// Whether a statement compares text by a part of it.
fn substring_context(text: &str) -> bool {
    [
        " in ",
        "match",
        "expected",
        "toThrow",
        "toContain",
        "toMatch",
        "Contains",
        "contains",
    ]
    .iter()
    .any(|m| text.contains(m))
}

/// Why `new` passes for more than `old` (same skeleton), if it does.
fn looser(old: &[Lex], new: &[Lex], text: &str) -> Option<&'static str> {
    // Go's `if` whose block fails the test is a statement too.
    let branch = matches!(old.first(), Some(Lex::Word(w)) if w == "if");
    let role_of = |k| match branch {
        true => branch_role(old, k),
        false => role(old, k),
    };
    if let Some(why) = moved(old, new, role_of) {
        return Some(why);
    }
    let substring_context = substring_context(text);
    for (k, (a, b)) in old.iter().zip(new).enumerate() {
        match (a, b) {
            _ if comparison(a) == Some(Cmp::Exact) && comparison(b) == Some(Cmp::Order) => {
                return Some("an exact comparison loosened");
            }
            (Lex::Num(x), Lex::Num(y)) if x != y => {
                let before = k.checked_sub(1).and_then(|p| old.get(p));
                let fewer_places = places_before(old, k);
                if fewer_places && y < x {
                    return Some("fewer decimal places checked");
                }
                let tolerance = x.abs() < 1.0 && *x != 0.0;
                let compared = matches!(before, Some(Lex::Op(o)) if matches!(o.as_str(), "<" | "<=" | ">" | ">=" | "="))
                    || matches!(before, Some(Lex::Op(o)) if o == ",");
                if tolerance && compared && !branch && y.abs() >= x.abs() * 10.0 {
                    return Some("a tolerance widened");
                }
            }
            (Lex::Str(x), Lex::Str(y)) if substring_context && x != y && x.contains(y.as_str()) => {
                return Some("an expected text cut to a part of it");
            }
            _ => {}
        }
    }
    None
}

/// What a number or a name stands for in the check it is in: the bound the
/// subject must stay under or over, a tolerance, or a count of places.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    Upper,
    Lower,
    Tolerance,
    Places,
}

impl Role {
    /// Whether the check passes for more with `y` in `x`'s place.
    fn looser(self, x: f64, y: f64) -> bool {
        match self {
            Role::Upper | Role::Tolerance => y > x,
            Role::Lower | Role::Places => y < x,
        }
    }

    pub(super) fn why(self) -> &'static str {
        match self {
            Role::Upper => "a bound raised",
            Role::Lower => "a bound lowered",
            Role::Tolerance => "a tolerance widened",
            Role::Places => "fewer decimal places checked",
        }
    }
}

/// Keywords that name a tolerance: `pytest.approx(x, rel=…)`, `math.isclose(…,
/// abs_tol=…)`, `assert_abs_diff_eq!(…, epsilon = …)`, `assertAlmostEqual(…,
/// delta=…)`, numpy's `rtol`/`atol`.
const TOLERANCES: [&str; 10] = [
    "rel",
    "abs",
    "rel_tol",
    "abs_tol",
    "delta",
    "epsilon",
    "max_relative",
    "rtol",
    "atol",
    "tolerance",
];

/// The role of the one token at `k` of a check (a number, or a name), read from
/// what stands around it: the right of `<` or the left of `>` is an upper bound,
/// `toBeLessThan(…)`'s argument too, testify's `Less(t, x, …)`'s second value; a
/// tolerance keyword's value or `InDelta`'s fourth argument is a tolerance;
/// `toBeCloseTo(x, …)`'s digits are places, as any `…CloseTo` matcher's. None
/// when the token is only a part of its operand (`x < N * 2`) or stands
/// elsewhere.
pub(super) fn role(lexed: &[Lex], k: usize) -> Option<Role> {
    let op =
        |l: Option<&Lex>, ops: &[&str]| matches!(l, Some(Lex::Op(o)) if ops.contains(&o.as_str()));
    let word =
        |l: Option<&Lex>, ws: &[&str]| matches!(l, Some(Lex::Word(w)) if ws.contains(&w.as_str()));
    let prev = k.checked_sub(1).and_then(|p| lexed.get(p));
    let next = lexed.get(k + 1);
    let ends = next.is_none()
        || op(next, &[")", ",", ";", "]", "}", "&", "|", ":"])
        || word(next, &["and", "or", "if", "else"]);
    let starts = prev.is_none()
        || op(prev, &["(", ",", "!", "&", "|", "{", "["])
        || word(prev, &["assert", "and", "or", "not", "return"]);
    if ends && op(prev, &["<", "<="]) {
        // `abs(got - want) < k`: the bound on a distance is a tolerance.
        return Some(match distance(lexed, k - 1) {
            true => Role::Tolerance,
            false => Role::Upper,
        });
    }
    if starts && op(next, &[">", ">="]) {
        return Some(Role::Upper);
    }
    if ends && op(prev, &[">", ">="]) || starts && op(next, &["<", "<="]) {
        return Some(Role::Lower);
    }
    if !ends {
        return None;
    }
    let key = k.checked_sub(2).and_then(|p| lexed.get(p));
    if op(prev, &["="]) {
        return match key {
            Some(Lex::Word(w)) if TOLERANCES.contains(&w.as_str()) => Some(Role::Tolerance),
            Some(Lex::Word(w)) if matches!(w.as_str(), "places" | "decimal") => Some(Role::Places),
            _ => None,
        };
    }
    if !op(prev, &["(", ","]) {
        return None;
    }
    let (callee, at, t_first) = argument(lexed, k)?;
    // testify's `t` first, then the values.
    let at = if t_first { at.checked_sub(1)? } else { at };
    match (callee, at) {
        ("toBeLessThan" | "toBeLessThanOrEqual", 0) => Some(Role::Upper),
        ("toBeGreaterThan" | "toBeGreaterThanOrEqual", 0) => Some(Role::Lower),
        ("assertLess" | "assertLessEqual" | "Less" | "LessOrEqual", 1)
        | ("assertGreater" | "assertGreaterEqual" | "Greater" | "GreaterOrEqual", 0) => {
            Some(Role::Upper)
        }
        ("assertLess" | "assertLessEqual" | "Less" | "LessOrEqual", 0)
        | ("assertGreater" | "assertGreaterEqual" | "Greater" | "GreaterOrEqual", 1) => {
            Some(Role::Lower)
        }
        ("InDelta" | "InEpsilon" | "InDeltaSlice" | "InEpsilonSlice", 2) => Some(Role::Tolerance),
        ("assertAlmostEqual", 2) => Some(Role::Places),
        // `toBeCloseTo`, `toBeDeepCloseTo`, `toMatchCloseTo`: the digits after
        // the expected value; fewer is a wider margin.
        (m, 1) if m.ends_with("CloseTo") => Some(Role::Places),
        (m, 1..) if op(next, &[")"]) && margin_matcher(m) => Some(Role::Tolerance),
        _ => None,
    }
}

/// The role of the token at `k` of an `if` whose block fails the test: the
/// test passes where the condition does not hold, so the bound is the other
/// way round from an assertion's ([`role`]), and a distance the branch fails
/// above is a tolerance (`if math.Abs(got-want) > 1e-9`).
fn branch_role(lexed: &[Lex], k: usize) -> Option<Role> {
    let above = k
        .checked_sub(1)
        .is_some_and(|p| matches!(&lexed[p], Lex::Op(o) if o == ">" || o == ">="));
    Some(match role(lexed, k)? {
        Role::Upper => Role::Lower,
        Role::Lower if above && distance(lexed, k - 1) => Role::Tolerance,
        Role::Lower => Role::Upper,
        other => other,
    })
}

/// A jest matcher a repository defines for itself whose name says it takes a
/// margin (`toRoughlyEqual(250, 150)`, `toBeApproximately`, `toBeNear`,
/// `toBeWithin`): its last argument, past the expected value, is the
/// tolerance. Not `toBeCloseTo`, whose is places.
fn margin_matcher(name: &str) -> bool {
    // Whole words of the camel-cased name: `toBeLinear` and `toBeClosed` say
    // no margin. A `…CloseTo` matcher's number is decimal places, as
    // `toBeCloseTo`'s is (`toBeDeepCloseTo`, `toMatchCloseTo`): more is
    // stricter, so it is no tolerance.
    let mut words: Vec<String> = Vec::new();
    for c in name.chars() {
        match words.last_mut() {
            Some(w) if !c.is_ascii_uppercase() => w.push(c),
            _ => words.push(c.to_ascii_lowercase().to_string()),
        }
    }
    name.starts_with("to")
        && !name.ends_with("CloseTo")
        && words.iter().any(|w| {
            [
                "roughly",
                "close",
                "approx",
                "approximately",
                "near",
                "within",
            ]
            .contains(&w.as_str())
        })
}

/// How many tokens back a bound's call or distance is looked for.
const REACH: usize = 64;

/// Whether the operand left of the comparison at `at` is an absolute value
/// (`abs(…)`, `Math.abs(…)`, `(…).abs()`, `math.Abs(…)`), read back to the
/// bracket or `,` that opens it.
fn distance(lexed: &[Lex], at: usize) -> bool {
    let mut depth = 0usize;
    for l in lexed[at.saturating_sub(REACH)..at].iter().rev() {
        match l {
            Lex::Word(w) if w == "abs" || w == "Abs" => return true,
            Lex::Op(o) if matches!(o.as_str(), ")" | "]") => depth += 1,
            Lex::Op(o) if matches!(o.as_str(), "(" | "[") => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            Lex::Op(o) if depth == 0 && matches!(o.as_str(), "," | "&" | "|") => return false,
            Lex::Word(w) if depth == 0 && matches!(w.as_str(), "and" | "or" | "assert") => {
                return false;
            }
            _ => {}
        }
    }
    false
}

/// The callee of the call whose argument list holds the token at `k`, the
/// index of the argument it is in, and whether the first argument is a test's
/// `t` (testify's `assert.Less(t, …)`).
fn argument(lexed: &[Lex], k: usize) -> Option<(&str, usize, bool)> {
    // Asked for every number of a statement: a walk to the start of a long
    // list for each was quadratic (helper 78: a golden list of 100k bytes).
    let mut depth = 0usize;
    let mut at = 0;
    let mut open = None;
    for p in (k.saturating_sub(REACH)..k).rev() {
        match &lexed[p] {
            Lex::Op(o) if matches!(o.as_str(), ")" | "]" | "}") => depth += 1,
            Lex::Op(o) if matches!(o.as_str(), "(" | "[" | "{") => {
                if depth == 0 {
                    open = Some(p);
                    break;
                }
                depth -= 1;
            }
            Lex::Op(o) if o == "," && depth == 0 => at += 1,
            _ => {}
        }
    }
    let open = open.filter(|&p| matches!(&lexed[p], Lex::Op(o) if o == "("))?;
    let Some(Lex::Word(callee)) = open.checked_sub(1).map(|p| &lexed[p]) else {
        return None;
    };
    let t_first = matches!(&lexed[open + 1..], [Lex::Word(w), Lex::Op(c), ..] if matches!(w.as_str(), "t" | "tb" | "b") && c == ",");
    Some((callee, at, t_first))
}

/// Why `new` passes for more than `old` when they differ only in numbers, each
/// of which `role_of` gives a role and each moved the looser way: a bound
/// tightened beside one loosened, or a number of no role changed (the subject,
/// an input, a condition), is none.
pub(super) fn moved(
    old: &[Lex],
    new: &[Lex],
    role_of: impl Fn(usize) -> Option<Role>,
) -> Option<&'static str> {
    if old.len() != new.len() {
        return None;
    }
    let mut why = None;
    for (k, (a, b)) in old.iter().zip(new).enumerate() {
        match (a, b) {
            (Lex::Num(x), Lex::Num(y)) if x != y => {
                // A number under a unary minus is the negative one.
                let negated = k
                    .checked_sub(1)
                    .is_some_and(|p| matches!(&old[p], Lex::Op(o) if o == "-"))
                    && k.checked_sub(2).is_none_or(
                        |p| matches!(&old[p], Lex::Op(o) if !matches!(o.as_str(), ")" | "]")),
                    );
                let (x, y) = if negated { (-x, -y) } else { (*x, *y) };
                let role = role_of(k)?;
                if !role.looser(x, y) {
                    return None;
                }
                why.get_or_insert(role.why());
            }
            _ if a != b => return None,
            _ => {}
        }
    }
    why
}
