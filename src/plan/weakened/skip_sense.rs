//! What a skip condition means, read from its normal form
//! ([`crate::plan::syntax::Skip::condition`]) as far as a reading is sure: a
//! condition that always holds (`True`, `1 == 1`, `sys.version_info > (0,)`,
//! `cfg_attr(all(), ignore)`) and one turned round (`==` made `!=`, `not`
//! put before it, `cfg_attr(windows, …)` made `cfg_attr(not(windows), …)`).
//! Both switch a test off where it ran. Anything it cannot read is neither.
//! Pure.

/// Whether the skip whose condition is `condition` stops its test always: a
/// skip's condition that always holds, or a Rust `cfg` or a JavaScript test's
/// `if (…)`, which say where the test runs, that never does.
pub(super) fn always_skips(condition: &str) -> bool {
    if let Some(inner) = condition.strip_prefix("cfg_attr(") {
        return inner
            .strip_suffix(",ignore)")
            .is_some_and(|p| cfg_value(p) == Some(true));
    }
    if let Some(inner) = condition
        .strip_prefix("cfg(")
        .and_then(|c| c.strip_suffix(')'))
    {
        return cfg_value(inner) == Some(false);
    }
    if let Some(runs) = condition.strip_prefix("if (") {
        return value(runs.trim_end_matches(')')) == Some(false);
    }
    value(condition) == Some(true)
}

/// Whether `new` is `old` turned round: the one comparison's operator made
/// its opposite (`==` and `!=`, `<` and `>=`), or a `not`/`!` put before it
/// or taken off, a Rust predicate put under `not(…)` or taken out of one.
pub(super) fn inverted(old: &str, new: &str) -> bool {
    let cfg = |c: &str| -> Option<(String, String)> {
        let (head, rest) = c.split_once('(')?;
        let inner = rest.strip_suffix(')')?;
        match head {
            "cfg_attr" => {
                let p = inner.strip_suffix(",ignore")?;
                Some((format!("{head}:ignore"), p.to_string()))
            }
            "cfg" => Some((head.to_string(), inner.to_string())),
            _ => None,
        }
    };
    if let (Some((a, p)), Some((b, q))) = (cfg(old), cfg(new)) {
        let not =
            |x: &str, y: &str| x.strip_prefix("not(").and_then(|x| x.strip_suffix(')')) == Some(y);
        return a == b && (not(&p, &q) || not(&q, &p));
    }
    negated(old).as_deref() == Some(new.trim_start())
        || negated(new).as_deref() == Some(old.trim_start())
        || flipped(old).is_some_and(|f| f == new)
}

/// Whether `old` and `new` are one condition written two ways: Rust's
/// `target_os = "windows"` for `windows`, `target_family = "unix"` for `unix`;
/// `not a == b` for `a != b`, `!!c` for `c`.
pub(super) fn respelled(old: &str, new: &str) -> bool {
    let cfg = |c: &str| {
        c.replace("target_os=\"windows\"", "windows")
            .replace("target_family=\"windows\"", "windows")
            .replace("target_family=\"unix\"", "unix")
    };
    // A `not` over one comparison is that comparison turned round.
    let plain = |c: &str| {
        let c = c.trim_start();
        negated(c)
            .and_then(|inner| negated(&inner).or_else(|| flipped(&inner)))
            .unwrap_or_else(|| c.to_string())
    };
    old != new && (old.starts_with("cfg") && cfg(old) == cfg(new) || plain(old) == plain(new))
}

/// `c` under `not`/`!`'s forms, when it is one: what it negates.
fn negated(c: &str) -> Option<String> {
    let c = c.trim_start();
    let inner = c
        .strip_prefix("(not_operator not ")
        .or_else(|| c.strip_prefix("(unary_expression ! "))?
        .strip_suffix(')')?;
    // Go keeps the brackets `!(…)` is written with.
    let inner = inner
        .strip_prefix("(parenthesized_expression ")
        .and_then(|i| i.strip_suffix(')'))
        .unwrap_or(inner);
    Some(inner.trim_start().to_string())
}

/// `c`, a comparison with one operator and no other, with that operator made
/// its opposite.
fn flipped(c: &str) -> Option<String> {
    const OPPOSITE: [(&str, &str); 8] = [
        (" == ", " != "),
        (" != ", " == "),
        (" === ", " !== "),
        (" !== ", " === "),
        (" < ", " >= "),
        (" >= ", " < "),
        (" > ", " <= "),
        (" <= ", " > "),
    ];
    let found: Vec<(usize, &str, &str)> = OPPOSITE
        .iter()
        .flat_map(|(op, other)| c.match_indices(op).map(move |(k, _)| (k, *op, *other)))
        .collect();
    let booleans = [" and ", " or ", " && ", " || ", " not ", " ! "];
    match found[..] {
        [(k, op, other)] if !booleans.iter().any(|b| c.contains(b)) => {
            Some(format!("{}{other}{}", &c[..k], &c[k + op.len()..]))
        }
        _ => None,
    }
}

/// What a Rust `cfg` predicate always comes to under test: `all()` and `test`
/// (set wherever a test is compiled) hold, `any()` does not, `not(…)` of one
/// the other way; none for one that depends.
fn cfg_value(p: &str) -> Option<bool> {
    match p {
        "all()" | "test" => Some(true),
        "any()" => Some(false),
        _ => p
            .strip_prefix("not(")
            .and_then(|x| x.strip_suffix(')'))
            .and_then(cfg_value)
            .map(|v| !v),
    }
}

/// What a condition in normal form always comes to: `True`/`true`, `False`,
/// negated, a comparison of two literals, Python's `sys.version_info` above
/// a version before 3.1, a platform's name ([`PLATFORMS`]) alone or compared
/// with a value it never has; none for one that depends.
fn value(c: &str) -> Option<bool> {
    let c = c.trim();
    match c {
        "true=True\u{1}" | "true=true\u{1}" => return Some(true),
        "false=False\u{1}" | "false=false\u{1}" => return Some(false),
        _ => {}
    }
    if let Some(inner) = negated(c) {
        return value(&inner).map(|v| !v);
    }
    // `skipIf(c)`'s one argument.
    if let Some(inner) = c.strip_prefix("(arguments ") {
        return value(inner.strip_suffix(')')?);
    }
    // No machine leaves it empty: a string that is never falsy.
    if platform(c).is_some() {
        return Some(true);
    }
    let inner = c
        .strip_prefix("(comparison_operator ")
        .or_else(|| c.strip_prefix("(binary_expression "))?
        .strip_suffix(')')?;
    let ops = [
        " == ", " != ", " === ", " !== ", " <= ", " >= ", " < ", " > ",
    ];
    let (k, op) = ops
        .iter()
        .filter_map(|op| inner.find(op).map(|k| (k, *op)))
        .min_by_key(|(k, _)| *k)?;
    let (left, right) = (&inner[..k], &inner[k + op.len()..]);
    if left == "(attribute identifier=sys\u{1} . identifier=version_info\u{1})" {
        let version: Vec<u32> = right
            .strip_prefix("(tuple ")?
            .strip_suffix(')')?
            .split('\u{1}')
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .map(|w| w.strip_prefix("integer=")?.parse().ok())
            .collect::<Option<_>>()?;
        // Every Python a test runs on is 3.x with five fields: above (3, 0).
        return (matches!(op, " > " | " >= ") && version.as_slice() <= [3, 0].as_slice())
            .then_some(true);
    }
    let unknown = |name: &str, side: &str| match (platform(name), literal(side)) {
        (Some(values), Some(Literal::Text(v))) => {
            !values
                .split_whitespace()
                .any(|p| match p.strip_suffix('*') {
                    Some(head) => v.starts_with(head),
                    None => v == p,
                })
        }
        _ => false,
    };
    if unknown(left, right) || unknown(right, left) {
        return match op.trim() {
            "==" | "===" => Some(false),
            "!=" | "!==" => Some(true),
            _ => None,
        };
    }
    let (a, b) = (literal(left)?, literal(right)?);
    let order = a.partial_cmp(&b)?;
    Some(match op.trim() {
        "==" | "===" => order.is_eq(),
        "!=" | "!==" => order.is_ne(),
        "<" => order.is_lt(),
        "<=" => order.is_le(),
        ">" => order.is_gt(),
        _ => order.is_ge(),
    })
}

/// Names of the platform a test runs on, each with every value it takes (one
/// ending `*`, any that starts so): a value none has is never equal.
const PLATFORMS: [(&str, &str); 4] = [
    (
        "sys.platform",
        "aix* android atheos beos* cygwin darwin dragonfly* emscripten freebsd* gnu* haiku* \
         hp-ux* illumos* ios irix* java* linux* mac msys netbsd* openbsd* os2* riscos sunos* \
         tvos visionos wasi watchos win32 cli unixware* qnx* vxworks",
    ),
    ("os.name", "posix nt java"),
    (
        "runtime.GOOS",
        "aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd \
         plan9 solaris wasip1 windows zos",
    ),
    (
        "process.platform",
        "aix android cygwin darwin freebsd haiku linux netbsd openbsd sunos win32 os390 \
         openharmony",
    ),
];

/// The values of `side` when it is a name of [`PLATFORMS`] in normal form
/// (`(attribute identifier=sys\u{1} . identifier=platform\u{1})`).
fn platform(side: &str) -> Option<&'static str> {
    let side = side.trim();
    let inner = side.strip_prefix('(')?.strip_suffix(')')?;
    let names: Vec<&str> = inner
        .split('\u{1}')
        .filter_map(|w| w.split_once("identifier=").map(|(_, name)| name))
        .collect();
    let dotted = names.join(".");
    let found = PLATFORMS.iter().find(|(n, _)| *n == dotted);
    found.filter(|_| !inner.contains('(')).map(|(_, v)| *v)
}

/// A literal of a condition in normal form: a number, or a string (compared
/// as text, never with a number).
#[derive(PartialEq, PartialOrd)]
enum Literal {
    Number(f64),
    Text(String),
}

fn literal(side: &str) -> Option<Literal> {
    let side = side.trim();
    if let Some(text) = side
        .strip_prefix("(string =")
        .or_else(|| side.strip_prefix("(interpreted_string_literal ="))
        .and_then(|s| s.strip_suffix(')'))
    {
        return Some(Literal::Text(text.to_string()));
    }
    let (kind, number) = side.strip_suffix('\u{1}')?.split_once('=')?;
    matches!(
        kind,
        "integer" | "float" | "number" | "int_literal" | "float_literal"
    )
    .then(|| number.replace('_', "").parse().ok().map(Literal::Number))?
}
