//! What a skip condition means: the set of environments it skips in, read from
//! its normal form ([`crate::plan::syntax::Skip::condition`]) over a small fixed
//! grid (every operating system a platform name can report, [`ROWS`], times
//! Python 2.7, 3.0 to 3.15 and any later 3.x the conditions name, each cut
//! after the patch releases they name, `(3, 12, 1)`, at most
//! [`MAX_PATCHES`]), and how a new
//! condition's set stands to an old one's ([`change`]).
//!
//! Every spelling of the platform is read off the same row (`sys.platform`,
//! `os.name`, `platform.system()`, `process.platform`, `os.platform()`,
//! `runtime.GOOS`, Rust's `cfg(windows|unix|target_os = "…")`), and
//! `sys.version_info` (whole, indexed, sliced, `.major`) off the version.
//! `and`/`or`/`not` in each grammar's spelling, `all()`/`any()`/`not()`,
//! comparisons with literals, `in` a tuple and `startswith` are read, and a
//! pytest condition given as a string is read as its code. Anything
//! else (`os.environ`, a feature, a helper's result) is a free variable: the
//! set is over environments and every assignment of those, so `X and win32`
//! is read as no wider than `win32` whatever `X` is. A value a row may or may
//! not have (`sys.platform == "freebsd13"` on FreeBSD) is such a variable too.
//!
//! A new condition is [`Change::Wider`] (the test switched off where it ran)
//! when it always holds, when it is the old one turned round (its exact
//! complement, unread parts and all: `not c` for `c`, as before this reading;
//! or its complement on the common CI machines, a rare one's value unknown:
//! `platform.system() != "Windows"` for `sys.platform == "win32"`), or when
//! its set holds the old one's and more, and the more includes a
//! common CI machine (Linux, macOS or Windows on any Python 3) that it now
//! skips whatever the free variables are and that the old one never skipped:
//! a gain that rests on an unread part is no finding. A new set that gains
//! some environments and loses others (`== "win32"` made `== "darwin"`) is no
//! wider: no reading says the test runs less, and such a move is mostly a
//! correction. Any Python 3 counts as common, not only current ones: a review
//! reads commits of every era, and pytest's `sys.version_info < (3, 3)` from
//! `[0] == 2` (2014) switched tests off on the Pythons CI ran then.
//!
//! Bounded: a condition longer than [`MAX_TEXT`] bytes, of more than
//! [`MAX_NODES`] nodes or deeper than [`MAX_DEPTH`], or the two with more than
//! [`MAX_VARS`] free variables between them, is not read (no finding). Pure.

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::plan::syntax;

/// How a skip's new condition stands to one the test had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Change {
    /// The same set of environments: one condition written another way.
    Same,
    /// It now skips where the test ran (see the module's note).
    Wider,
    /// Narrower, moved, or not read.
    Other,
}

/// How `new` stands to `old`, both skip conditions in normal form.
pub(super) fn change(old: &str, new: &str) -> Change {
    let mut grid = Grid::of(&[old, new]);
    let (Some(was), Some(now)) = (grid.skips(old), grid.skips(new)) else {
        // The old one unread: only a new one that holds everywhere says anything.
        let mut alone = Grid::of(&[new]);
        return match alone.skips(new) {
            Some(now) if now.is_full() => Change::Wider,
            _ => Change::Other,
        };
    };
    if now == was {
        return Change::Same;
    }
    let gains = grid.surely_gains_common(&was, &now);
    let turned = now == was.not() && !now.is_empty();
    // Turned round on the machines that matter, a rare one's spelling unknown
    // (`platform.system()` on IronPython): as much a skip turned round.
    let turned_on_common = gains && grid.complement_on_common(&was, &now);
    let gained = now.holds(&was) && gains;
    if now.is_full() || turned || turned_on_common || gained {
        Change::Wider
    } else {
        Change::Other
    }
}

/// Whether `new` skips where `old` did not, as [`change`] reads it ([`Change::Wider`]):
/// `old` `None` is a check no condition switched off, which skipped nowhere.
pub(super) fn narrows(old: Option<&str>, new: &str) -> bool {
    let Some(old) = old else {
        let mut grid = Grid::of(&[new]);
        let Some(now) = grid.skips(new) else {
            return false;
        };
        let never = grid.empty();
        return now.is_full() || grid.surely_gains_common(&never, &now);
    };
    change(old, new) == Change::Wider
}

/// Whether skip conditions `a` and `b` skip in the same environments: one
/// condition written two ways.
pub(super) fn same(a: &str, b: &str) -> bool {
    change(a, b) == Change::Same
}

/// Whether `a` holds exactly where `b` does not, read in one grid (a test
/// guarded by `if a` made one skipped when `b`: it runs where it ran).
pub(super) fn opposite(a: &str, b: &str) -> bool {
    let mut grid = Grid::of(&[a, b]);
    match (grid.skips(a), grid.skips(b)) {
        (Some(x), Some(y)) => y == x.not(),
        _ => false,
    }
}

/// Whether a test skipped under each of `when`, and run only under each of
/// `runs_if`, runs only where `over` skips (`None`: nowhere at all on the
/// grid), read in one grid. `over` is a skip's condition, or with `true` a
/// condition a test ran only under (its skip, where that fails). An `over`
/// that skips everywhere says nothing of where (a test unskipped), and a
/// condition not read is no answer.
pub(super) fn runs_within(when: &[String], runs_if: &[String], over: Option<(&str, bool)>) -> bool {
    let all: Vec<&str> = (when.iter().chain(runs_if).map(String::as_str))
        .chain(over.map(|o| o.0))
        .collect();
    let mut grid = Grid::of(&all);
    let mut runs = grid.full();
    for (c, skips) in (when.iter().map(|c| (c, true))).chain(runs_if.iter().map(|c| (c, false))) {
        let Some(holds) = grid.skips(c) else {
            return false;
        };
        runs = runs.and(&if skips { holds.not() } else { holds });
    }
    match over {
        None => runs.is_empty(),
        Some((o, guard)) => grid
            .skips(o)
            .map(|s| if guard { s.not() } else { s })
            .is_some_and(|s| !s.is_full() && s.holds(&runs)),
    }
}

/// A condition longer than this is not read.
const MAX_TEXT: usize = 4096;
/// Nodes a condition may parse into.
const MAX_NODES: usize = 512;
/// How deep a condition may nest.
const MAX_DEPTH: usize = 48;
/// Free variables (parts not read) two conditions may hold between them: the
/// grid is copied for each assignment of them.
const MAX_VARS: usize = 4;
const ASSIGNMENTS: usize = 1 << MAX_VARS;

/// An operating system as each spelling reports it: `sys.platform`,
/// `os.name`, `platform.system()`, Node's `process.platform`, Go's
/// `runtime.GOOS`, Rust's `target_os` and `target_family` (space-separated).
/// `""`: that spelling has no value there (its language does not run there); a
/// value ending `*` is any that starts so. Linux's `sys.platform` is `linux2`
/// before Python 3.3 ([`Grid::value`]).
struct Os {
    sys: &'static str,
    os_name: &'static str,
    system: &'static str,
    node: &'static str,
    goos: &'static str,
    target_os: &'static str,
    family: &'static str,
}

const fn os(row: [&'static str; 7]) -> Os {
    let [sys, os_name, system, node, goos, target_os, family] = row;
    Os {
        sys,
        os_name,
        system,
        node,
        goos,
        target_os,
        family,
    }
}

/// The first three are the common CI machines.
const COMMON: usize = 3;
const ROWS: [Os; 34] = [
    os(["linux", "posix", "Linux", "linux", "linux", "linux", "unix"]),
    os([
        "darwin", "posix", "Darwin", "darwin", "darwin", "macos", "unix",
    ]),
    os([
        "win32", "nt", "Windows", "win32", "windows", "windows", "windows",
    ]),
    os(["cygwin", "posix", "CYGWIN*", "cygwin", "", "", ""]),
    os(["msys", "posix", "MSYS*", "", "", "", ""]),
    os([
        "freebsd*", "posix", "FreeBSD", "freebsd", "freebsd", "freebsd", "unix",
    ]),
    os([
        "openbsd*", "posix", "OpenBSD", "openbsd", "openbsd", "openbsd", "unix",
    ]),
    os([
        "netbsd*", "posix", "NetBSD", "netbsd", "netbsd", "netbsd", "unix",
    ]),
    os([
        "dragonfly*",
        "posix",
        "DragonFly",
        "",
        "dragonfly",
        "dragonfly",
        "unix",
    ]),
    os([
        "sunos*", "posix", "SunOS", "sunos", "solaris", "solaris", "unix",
    ]),
    os([
        "illumos*", "posix", "SunOS", "sunos", "illumos", "illumos", "unix",
    ]),
    os(["aix*", "posix", "AIX", "aix", "aix", "aix", "unix"]),
    os([
        "android", "posix", "Android", "android", "android", "android", "unix",
    ]),
    os(["ios", "posix", "iOS", "", "ios", "ios", "unix"]),
    os(["tvos", "posix", "tvOS", "", "", "tvos", "unix"]),
    os(["watchos", "posix", "watchOS", "", "", "watchos", "unix"]),
    os(["visionos", "posix", "visionOS", "", "", "visionos", "unix"]),
    os(["haiku*", "posix", "Haiku", "haiku", "", "haiku", "unix"]),
    os(["gnu*", "posix", "GNU", "", "hurd", "hurd", "unix"]),
    os(["hp-ux*", "posix", "HP-UX", "", "", "", ""]),
    os(["irix*", "posix", "IRIX*", "", "", "", ""]),
    os(["atheos", "posix", "AtheOS", "", "", "", ""]),
    os(["beos*", "posix", "BeOS", "", "", "", ""]),
    os(["os2*", "os2", "OS/2", "", "", "", ""]),
    os(["riscos", "riscos", "RISCOS", "", "", "", ""]),
    os(["unixware*", "posix", "UnixWare", "", "", "", ""]),
    os(["qnx*", "posix", "QNX", "", "", "nto", "unix"]),
    os(["vxworks", "posix", "VxWorks", "", "", "vxworks", "unix"]),
    os([
        "emscripten",
        "posix",
        "Emscripten",
        "",
        "js",
        "emscripten",
        "unix wasm",
    ]),
    os(["wasi", "posix", "WASI", "", "wasip1", "wasi", "wasm"]),
    os(["java*", "java", "Java", "", "", "", ""]),
    os(["cli", "nt", "*", "", "", "", ""]),
    os(["zos", "posix", "OS/390", "os390", "zos", "", ""]),
    os(["", "", "", "openharmony", "plan9", "", ""]),
];

/// Pythons: 2.7, then 3.0 to 3.15.
const PYTHONS: [[i64; 2]; 17] = {
    let mut out = [[3, 0]; 17];
    out[0] = [2, 7];
    let mut minor = 1;
    while minor < 17 {
        out[minor] = [3, minor as i64 - 1];
        minor += 1;
    }
    out
};
/// Patch releases the conditions may name that cut a Python of the grid in
/// two: past these, a bound on a micro version is not read (a free variable).
const MAX_PATCHES: usize = 8;

/// A point of the grid's Pythons: every release from `at` (major, minor,
/// micro) up to the micro version `next` (`i64::MAX`: the minor's last).
#[derive(Clone, Copy)]
struct Python {
    at: [i64; 3],
    next: i64,
}

/// Later Pythons 3 than [`PYTHONS`] the conditions may name, each a point of
/// the grid: a test of the next Python (`>= (3, 16)`) runs on its
/// pre-releases in CI, not nowhere.
const MAX_LATER: usize = 4;

/// The grid's Pythons: [`PYTHONS`] and the later ones `conditions` name (at
/// most [`MAX_LATER`]), each cut after each patch release they name in a tuple
/// of three or more (`(3, 12, 1)`), at most [`MAX_PATCHES`] of them.
fn pythons(conditions: &[&str]) -> Vec<Python> {
    let mut named: Vec<[i64; 3]> = Vec::new();
    for c in conditions.iter().filter(|c| c.len() <= MAX_TEXT) {
        let c = c
            .strip_prefix("if (")
            .and_then(|c| c.strip_suffix(')'))
            .unwrap_or(c);
        let Some(nodes) = parse(c) else {
            continue;
        };
        match pytest_string(&nodes).as_deref().and_then(parse) {
            Some(code) => patches(&code, &mut named, 0),
            None => patches(&nodes, &mut named, 0),
        }
    }
    named.sort_unstable();
    named.dedup();
    let last = PYTHONS[PYTHONS.len() - 1];
    let mut minors: Vec<[i64; 2]> = PYTHONS.to_vec();
    let later = (named.iter())
        .map(|v| [v[0], v[1]])
        .filter(|v| v[0] == last[0] && v[1] > last[1] && v[1] < 100);
    for v in later {
        if !minors.contains(&v) && minors.len() < PYTHONS.len() + MAX_LATER {
            minors.push(v);
        }
    }
    let mut cuts: Vec<[i64; 3]> = named.into_iter().filter(|v| v[2] > 0).collect();
    cuts.truncate(MAX_PATCHES);
    let mut at: Vec<[i64; 3]> = minors.iter().map(|[a, b]| [*a, *b, 0]).collect();
    at.extend(cuts.iter().filter(|c| minors.contains(&[c[0], c[1]])));
    let mut sorted = at.clone();
    sorted.sort_unstable();
    at.iter()
        .map(|v| {
            let after = sorted.partition_point(|w| w <= v);
            let next = sorted
                .get(after)
                .filter(|w| w[..2] == v[..2])
                .map_or(i64::MAX, |w| w[2]);
            Python { at: *v, next }
        })
        .collect()
}

/// The versions (`(3, 12)`, `(3, 12, 1)`: micro 0 where none is named) the
/// tuples of `nodes` name.
fn patches(nodes: &[Sx<'_>], out: &mut Vec<[i64; 3]>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    for x in nodes {
        match literal(x) {
            Some(Literal::Tuple(t)) => match t[..] {
                [major, minor, micro, ..] => out.push([major, minor, micro]),
                [major, minor] => out.push([major, minor, 0]),
                _ => {}
            },
            _ => patches(x.kids(), out, depth + 1),
        }
    }
}

/// Points of the grid (environment, assignment of the free variables) where a
/// condition holds; `.1` how many there are.
#[derive(Clone, PartialEq, Eq)]
struct Set(Vec<u64>, usize);

impl Set {
    fn empty(bits: usize) -> Set {
        Set(vec![0; bits.div_ceil(64)], bits)
    }

    fn full(bits: usize) -> Set {
        Set::empty(bits).not()
    }

    fn constant(held: bool, bits: usize) -> Set {
        if held {
            Set::full(bits)
        } else {
            Set::empty(bits)
        }
    }

    fn not(&self) -> Set {
        let mut out = Set(self.0.iter().map(|w| !w).collect(), self.1);
        let spare = self.0.len() * 64 - self.1;
        if let Some(last) = out.0.last_mut() {
            *last &= u64::MAX >> spare;
        }
        out
    }

    fn and(&self, other: &Set) -> Set {
        let words = self.0.iter().zip(&other.0).map(|(a, b)| a & b);
        Set(words.collect(), self.1)
    }

    fn or(&self, other: &Set) -> Set {
        let words = self.0.iter().zip(&other.0).map(|(a, b)| a | b);
        Set(words.collect(), self.1)
    }

    fn set(&mut self, bit: usize) {
        self.0[bit / 64] |= 1 << (bit % 64);
    }

    fn get(&self, bit: usize) -> bool {
        self.0[bit / 64] >> (bit % 64) & 1 == 1
    }

    fn is_full(&self) -> bool {
        *self == Set::full(self.1)
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    /// Whether every point of `other` is one of these.
    fn holds(&self, other: &Set) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| b & !a == 0)
    }
}

/// The free variables two conditions share, by the text of what each stands
/// for: read jointly, the same unread part is the same variable in both; and
/// the Pythons both are read over.
struct Grid {
    vars: HashMap<String, usize>,
    too_many: bool,
    pythons: Vec<Python>,
}

impl Grid {
    /// The grid to read `conditions` in, jointly.
    fn of(conditions: &[&str]) -> Grid {
        Grid {
            vars: HashMap::new(),
            too_many: false,
            pythons: pythons(conditions),
        }
    }

    /// How many points a set has: environments times assignments.
    fn bits(&self) -> usize {
        ROWS.len() * self.pythons.len() * ASSIGNMENTS
    }

    fn full(&self) -> Set {
        Set::full(self.bits())
    }

    fn empty(&self) -> Set {
        Set::empty(self.bits())
    }

    fn constant(&self, held: bool) -> Set {
        Set::constant(held, self.bits())
    }

    /// The points where the skip whose condition is `c` stops its test: a
    /// Rust `cfg(…)` and a JavaScript test's `if (…)` say where it runs,
    /// `cfg_attr(…, ignore)` and the rest where it is skipped.
    fn skips(&mut self, c: &str) -> Option<Set> {
        if c.len() > MAX_TEXT {
            return None;
        }
        let out = if let Some(p) = c
            .strip_prefix("cfg_attr(")
            .and_then(|c| c.strip_suffix(",ignore)"))
        {
            self.cfg(p)?
        } else if let Some(p) = c.strip_prefix("cfg(").and_then(|c| c.strip_suffix(')')) {
            self.cfg(p)?.not()
        } else if let Some(runs) = c.strip_prefix("if (").and_then(|c| c.strip_suffix(')')) {
            self.sequence(&parse(runs)?, 0)?.not()
        } else {
            let nodes = parse(c)?;
            match pytest_string(&nodes) {
                Some(code) => self.sequence(&parse(&code)?, 0)?,
                None => self.sequence(&nodes, 0)?,
            }
        };
        (!self.too_many).then_some(out)
    }

    /// Whether some common CI machine on a Python 3 is skipped by `now` under
    /// every assignment of the free variables and by `was` under none.
    fn surely_gains_common(&self, was: &Set, now: &Set) -> bool {
        let versions = self.pythons.len();
        (0..COMMON * versions)
            .filter(|e| self.pythons[e % versions].at[0] == 3)
            .any(|e| {
                let points = || (0..ASSIGNMENTS).map(|a| e * ASSIGNMENTS + a);
                points().all(|b| now.get(b)) && !points().any(|b| was.get(b))
            })
    }

    /// Whether on every common CI machine on a Python 3, under every
    /// assignment, `now` holds exactly where `was` does not.
    fn complement_on_common(&self, was: &Set, now: &Set) -> bool {
        let versions = self.pythons.len();
        (0..COMMON * versions * ASSIGNMENTS)
            .filter(|b| self.pythons[(b / ASSIGNMENTS) % versions].at[0] == 3)
            .all(|b| now.get(b) != was.get(b))
    }

    /// The points where `per_env` (of a row and a version) holds; where it
    /// cannot say, those of the free variable named `key`.
    fn atom(&mut self, key: &str, per_env: impl Fn(usize, Python) -> Option<bool>) -> Set {
        let mut out = self.empty();
        let mut var = None;
        let versions = self.pythons.len();
        for e in 0..ROWS.len() * versions {
            let value = per_env(e / versions, self.pythons[e % versions]);
            for a in 0..ASSIGNMENTS {
                let held = match value {
                    Some(held) => held,
                    None => a >> *var.get_or_insert_with(|| self.var(key)) & 1 == 1,
                };
                if held {
                    out.set(e * ASSIGNMENTS + a);
                }
            }
        }
        out
    }

    fn var(&mut self, key: &str) -> usize {
        let next = self.vars.len();
        if next >= MAX_VARS && !self.vars.contains_key(key) {
            self.too_many = true;
            return 0;
        }
        *self.vars.entry(key.to_string()).or_insert(next)
    }

    fn free(&mut self, key: &str) -> Set {
        self.atom(key.trim(), |_, _| None)
    }

    /// A JavaScript test's `if (…)` joins its conditions with ` && ` and puts
    /// `not (…)` round those it is in the `else` of; elsewhere a sequence is
    /// one node.
    fn sequence(&mut self, nodes: &[Sx<'_>], depth: usize) -> Option<Set> {
        let mut out = self.full();
        for part in nodes.split(|n| n.is_token("&&")) {
            let held = match part {
                [one] => self.truth(one, depth)?,
                [not, group] if not.is_token("not") => match &group.kind {
                    Kind::List("", inner) => self.sequence(inner, depth + 1)?.not(),
                    _ => return None,
                },
                _ => return None,
            };
            out = out.and(&held);
        }
        Some(out)
    }

    /// Where a condition node holds.
    fn truth(&mut self, x: &Sx<'_>, depth: usize) -> Option<Set> {
        if depth > MAX_DEPTH {
            return None;
        }
        let depth = depth + 1;
        if let Some(n) = name(x) {
            // A name alone: a platform's is never empty, a number may be 0.
            return Some(self.atom(x.text, |row, v| match value(n, row, v) {
                Value::Int(i) => Some(i != 0),
                _ => Some(true),
            }));
        }
        let kids = match &x.kind {
            Kind::Leaf("true", _) => return Some(self.full()),
            Kind::Leaf("false" | "none" | "null" | "undefined", _) => return Some(self.empty()),
            Kind::List(_, kids) => kids,
            _ => {
                return Some(match literal(x) {
                    Some(Literal::Number(n)) => self.constant(n != 0.0),
                    _ => self.free(x.text),
                });
            }
        };
        let is = |n: &Sx<'_>, words: &[&str]| words.iter().any(|w| n.is_token(w));
        match (x.kind_name(), &kids[..]) {
            ("not_operator" | "unary_expression", [op, a]) if is(op, &["not", "!"]) => {
                Some(self.truth(a, depth)?.not())
            }
            ("parenthesized_expression" | "arguments" | "", [a]) => self.truth(a, depth),
            ("boolean_operator" | "binary_expression", [a, op, b]) if is(op, &["and", "&&"]) => {
                Some(self.truth(a, depth)?.and(&self.truth(b, depth)?))
            }
            ("boolean_operator" | "binary_expression", [a, op, b]) if is(op, &["or", "||"]) => {
                Some(self.truth(a, depth)?.or(&self.truth(b, depth)?))
            }
            ("comparison_operator" | "binary_expression", [l, op, r]) => match op.kind {
                Kind::Token(op) => Some(self.compare(x, l, op, r)),
                _ => Some(self.free(x.text)),
            },
            ("comparison_operator", [l, not, inn, r])
                if not.is_token("not") && inn.is_token("in") =>
            {
                Some(self.compare(x, l, "in", r).not())
            }
            ("call", _) => Some(self.starts_with(x).unwrap_or_else(|| self.free(x.text))),
            _ => Some(self.free(x.text)),
        }
    }

    /// `l op r`: a name of the environment against a literal, read per row;
    /// two literals, a constant; else a free variable, the same one for the
    /// comparison written the other way round (`a != b` is `not a == b`,
    /// `a >= b` is `not a < b`, `a > b` is `b < a`).
    fn compare(&mut self, x: &Sx<'_>, l: &Sx<'_>, op: &str, r: &Sx<'_>) -> Set {
        let (op, negated) = match op {
            "==" | "===" => ("==", false),
            "!=" | "!==" => ("==", true),
            "<" | ">" | "in" => (op, false),
            ">=" => ("<", true),
            "<=" => (">", true),
            _ => return self.free(x.text),
        };
        let held = match (name(l), literal(l), name(r), literal(r)) {
            (Some(n), _, _, _) if op == "in" => match texts(r) {
                Some(among) => self.atom(x.text, |row, v| {
                    let each = among
                        .iter()
                        .map(|t| holds(value(n, row, v), "==", &Literal::Text(t.to_string())));
                    any(each)
                }),
                None => self.free(x.text),
            },
            (Some(n), _, _, Some(lit)) => {
                self.atom(x.text, |row, v| holds(value(n, row, v), op, &lit))
            }
            (_, Some(lit), Some(n), _) if op != "in" => {
                let op = match op {
                    "<" => ">",
                    ">" => "<",
                    _ => op,
                };
                self.atom(x.text, |row, v| holds(value(n, row, v), op, &lit))
            }
            (_, Some(a), _, Some(b)) if op != "in" => {
                self.constant(literals(op, &a, &b).unwrap_or(false))
            }
            _ => {
                let (a, b) = (l.text.trim(), r.text.trim());
                let key = match op {
                    ">" => format!("< {b} {a}"),
                    "==" if b < a => format!("== {b} {a}"),
                    _ => format!("{op} {a} {b}"),
                };
                self.free(&key)
            }
        };
        if negated { held.not() } else { held }
    }

    /// `sys.platform.startswith("win")`, and the like on another name.
    fn starts_with(&mut self, x: &Sx<'_>) -> Option<Set> {
        let [callee, args] = x.kids() else {
            return None;
        };
        let [subject, _, method] = callee.kids() else {
            return None;
        };
        let n = name(subject).filter(|_| matches!(method.kind, Kind::Leaf(_, "startswith")))?;
        let [
            Sx {
                kind: Kind::Str(head),
                ..
            },
        ] = args.kids()
        else {
            return None;
        };
        let head = *head;
        Some(self.atom(x.text, |row, v| match value(n, row, v) {
            Value::Text(p) => match p.strip_suffix('*') {
                Some(known) if known.starts_with(head) => Some(true),
                Some(known) if head.starts_with(known) => None,
                Some(_) => Some(false),
                None => Some(!p.is_empty() && p.starts_with(head)),
            },
            _ => None,
        }))
    }

    /// Where a Rust `cfg` predicate holds: `test` everywhere a test is built,
    /// `unix`/`windows` and `target_os`/`target_family` off the row, and
    /// anything else (a feature, a name never set) a free variable.
    fn cfg(&mut self, p: &str) -> Option<Set> {
        let mut tokens = cfg_tokens(p)?;
        tokens.reverse();
        let out = self.cfg_predicate(&mut tokens, 0)?;
        tokens.is_empty().then_some(out)
    }

    fn cfg_predicate(&mut self, tokens: &mut Vec<&str>, depth: usize) -> Option<Set> {
        if depth > MAX_DEPTH {
            return None;
        }
        let word = tokens.pop()?;
        match tokens.last().copied() {
            Some("(") => {
                tokens.pop();
                let mut kids = Vec::new();
                while tokens.last() != Some(&")") {
                    kids.push(self.cfg_predicate(tokens, depth + 1)?);
                    if tokens.last() == Some(&",") {
                        tokens.pop();
                    }
                }
                tokens.pop();
                match (word, &kids[..]) {
                    ("all", _) => Some(kids.iter().fold(self.full(), |a, b| a.and(b))),
                    ("any", _) => Some(kids.iter().fold(self.empty(), |a, b| a.or(b))),
                    ("not", [one]) => Some(one.not()),
                    _ => None,
                }
            }
            Some("=") => {
                tokens.pop();
                let quoted = tokens.pop()?;
                let wanted = quoted.strip_prefix('"')?.strip_suffix('"')?;
                Some(match word {
                    "target_os" => self.atom("", |row, _| Some(ROWS[row].target_os == wanted)),
                    "target_family" => self.atom("", |row, _| {
                        Some(ROWS[row].family.split(' ').any(|f| f == wanted))
                    }),
                    _ => self.free(&format!("cfg {word}={quoted}")),
                })
            }
            _ => Some(match word {
                "test" => self.full(),
                "unix" | "windows" => self.atom("", |row, _| {
                    Some(ROWS[row].family.split(' ').any(|f| f == word))
                }),
                _ => self.free(&format!("cfg {word}")),
            }),
        }
    }
}

/// The expression a condition that is one string holds, in normal form, when
/// it reads a name pytest evaluates such a string with (`sys`, `os`,
/// `platform`, `config`): any other string is a skip's reason or a truthy
/// value, not code.
fn pytest_string(nodes: &[Sx<'_>]) -> Option<String> {
    let [
        Sx {
            kind: Kind::Str(code),
            ..
        },
    ] = nodes
    else {
        return None;
    };
    let code = syntax::python_expression(code)?;
    let names = ["sys", "os", "platform", "config"];
    names
        .iter()
        .any(|n| code.contains(&format!("identifier={n}\u{1}")))
        .then_some(code)
}

/// A squeezed `cfg` predicate's tokens: names, `(`, `)`, `,`, `=` and quoted
/// strings (kept with their quotes).
fn cfg_tokens(p: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let mut rest = p.trim();
    while let Some(c) = rest.chars().next() {
        let len = match c {
            '(' | ')' | ',' | '=' => 1,
            '"' => rest[1..].find('"')? + 2,
            c if c.is_alphanumeric() || c == '_' => rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len()),
            c if c.is_whitespace() => {
                rest = rest.trim_start();
                continue;
            }
            _ => return None,
        };
        out.push(&rest[..len]);
        if out.len() > MAX_NODES {
            return None;
        }
        rest = &rest[len..];
    }
    Some(out)
}

/// Kleene's `or` of what each part says: true if one is, false if all are.
fn any(parts: impl Iterator<Item = Option<bool>>) -> Option<bool> {
    let mut out = Some(false);
    for part in parts {
        match part {
            Some(true) => return Some(true),
            None => out = None,
            Some(false) => {}
        }
    }
    out
}

/// `op` ("==", "<", ">") given how the sides order.
fn apply(op: &str, order: Ordering) -> bool {
    match op {
        "==" => order.is_eq(),
        "<" => order.is_lt(),
        _ => order.is_gt(),
    }
}

/// Two literals compared: texts and numbers among their kind, tuples as
/// Python's (in order, the shorter first); of two kinds, never equal.
fn literals(op: &str, a: &Literal, b: &Literal) -> Option<bool> {
    let order = match (a, b) {
        (Literal::Number(x), Literal::Number(y)) => x.partial_cmp(y)?,
        (Literal::Text(x), Literal::Text(y)) => x.cmp(y),
        (Literal::Tuple(x), Literal::Tuple(y)) => x.cmp(y),
        _ => return (op == "==").then_some(false),
    };
    Some(apply(op, order))
}

/// `value op lit` on one row, or none where the row cannot say (a platform
/// known only by how it starts, a micro version the grid is not cut at, an
/// order across kinds).
fn holds(value: Value, op: &str, lit: &Literal) -> Option<bool> {
    let never = (op == "==").then_some(false);
    match (value, lit) {
        (Value::Text(""), _) => never,
        (Value::Text(p), Literal::Text(s)) => match p.strip_suffix('*') {
            Some(known) if s.starts_with(known) => None,
            Some(_) => never,
            None => Some(apply(op, p.cmp(s.as_str()))),
        },
        (Value::Version(v), Literal::Tuple(t)) => {
            let k = t.len().min(3);
            match v.at[..k].cmp(&t[..k]) {
                // From a micro version below the bound's to one past it.
                Ordering::Less if k == 3 && v.at[..2] == t[..2] && v.next > t[2] => None,
                Ordering::Equal if t.len() > 3 => None,
                // `version_info` has five fields: above any prefix of itself.
                Ordering::Equal => Some(apply(op, Ordering::Greater)),
                order => Some(apply(op, order)),
            }
        }
        (Value::Prefix(v, n), Literal::Tuple(t)) => Some(apply(op, v[..n].cmp(t))),
        (Value::Int(i), Literal::Number(n)) => Some(apply(op, (i as f64).partial_cmp(n)?)),
        _ => never,
    }
}

/// What a name of the environment is on a row.
#[derive(Clone, Copy)]
enum Value {
    /// A platform's name; `""` none, ending `*` any that starts so.
    Text(&'static str),
    /// `sys.version_info`: its micro version is on the grid only where a
    /// condition names one.
    Version(Python),
    /// `sys.version_info[:n]`, n of 1 or 2.
    Prefix([i64; 2], usize),
    Int(i64),
}

/// A name of the environment a condition reads.
#[derive(Clone, Copy)]
enum Name {
    /// `sys.platform`.
    Sys,
    /// Python's `os.name`.
    PyOs,
    /// `platform.system()`.
    System,
    /// `process.platform`, `os.platform()`.
    Node,
    /// `runtime.GOOS`.
    Goos,
    /// `sys.version_info`.
    Version,
    /// `sys.version_info[:n]`.
    Prefix(usize),
    /// `sys.version_info[0]`, `.major`.
    Major,
    /// `sys.version_info[1]`, `.minor`.
    Minor,
}

fn value(n: Name, row: usize, v: Python) -> Value {
    let os = &ROWS[row];
    let py = [v.at[0], v.at[1]];
    match n {
        // Linux's was `linux2` before Python 3.3.
        Name::Sys if row == 0 && py < [3, 3] => Value::Text("linux2"),
        Name::Sys => Value::Text(os.sys),
        Name::PyOs => Value::Text(os.os_name),
        Name::System => Value::Text(os.system),
        Name::Node => Value::Text(os.node),
        Name::Goos => Value::Text(os.goos),
        Name::Version => Value::Version(v),
        Name::Prefix(k) => Value::Prefix(py, k),
        Name::Major => Value::Int(py[0]),
        Name::Minor => Value::Int(py[1]),
    }
}

/// The name of the environment `x` reads, when it is one.
fn name(x: &Sx<'_>) -> Option<Name> {
    if x.kind_name() == "subscript"
        && let [of, index] = x.kids()
        && dotted(of, 0).as_deref() == Some("sys.version_info")
    {
        return match (&index.kind, index.kids()) {
            (Kind::Leaf("integer", "0"), _) => Some(Name::Major),
            (Kind::Leaf("integer", "1"), _) => Some(Name::Minor),
            (Kind::List("slice", _), [colon, end]) if colon.is_token(":") => match end.kind {
                Kind::Leaf("integer", "1") => Some(Name::Prefix(1)),
                Kind::Leaf("integer", "2") => Some(Name::Prefix(2)),
                _ => None,
            },
            _ => None,
        };
    }
    Some(match dotted(x, 0)?.as_str() {
        "sys.platform" => Name::Sys,
        "os.name" => Name::PyOs,
        "platform.system()" => Name::System,
        "process.platform" | "os.platform()" => Name::Node,
        "runtime.GOOS" => Name::Goos,
        "sys.version_info" => Name::Version,
        "sys.version_info.major" => Name::Major,
        "sys.version_info.minor" => Name::Minor,
        _ => return None,
    })
}

/// `a.b.c` or `a.b()` spelled by `x`'s attributes, members and calls.
fn dotted(x: &Sx<'_>, depth: usize) -> Option<String> {
    if depth > 4 {
        return None;
    }
    match (&x.kind, x.kids()) {
        (Kind::Leaf(kind, word), _) if kind.ends_with("identifier") => Some(word.to_string()),
        (Kind::List("attribute" | "member_expression" | "selector_expression", _), [a, dot, b])
            if dot.is_token(".") =>
        {
            let Kind::Leaf(_, field) = b.kind else {
                return None;
            };
            Some(format!("{}.{field}", dotted(a, depth + 1)?))
        }
        (Kind::List("call" | "call_expression", _), [f, args]) if args.kids().is_empty() => {
            Some(format!("{}()", dotted(f, depth + 1)?))
        }
        _ => None,
    }
}

/// A literal a name is compared with.
#[derive(Clone, Debug, PartialEq)]
enum Literal {
    Text(String),
    Number(f64),
    Tuple(Vec<i64>),
}

fn literal(x: &Sx<'_>) -> Option<Literal> {
    match &x.kind {
        Kind::Str(text) => Some(Literal::Text(text.to_string())),
        Kind::Leaf(
            "integer" | "float" | "number" | "int_literal" | "float_literal" | "integer_literal",
            n,
        ) => n.replace('_', "").parse().ok().map(Literal::Number),
        Kind::List("tuple", items) => items
            .iter()
            .map(|i| match i.kind {
                Kind::Leaf("integer", n) => n.parse().ok(),
                _ => None,
            })
            .collect::<Option<_>>()
            .map(Literal::Tuple),
        _ => None,
    }
}

/// The texts of a tuple, list or set of strings (`in ("win32", "cygwin")`).
fn texts<'a>(x: &Sx<'a>) -> Option<Vec<&'a str>> {
    if !matches!(x.kind_name(), "tuple" | "list" | "set" | "array") {
        return None;
    }
    x.kids()
        .iter()
        .map(|i| match i.kind {
            Kind::Str(t) => Some(t),
            _ => None,
        })
        .collect()
}

/// A node of a condition's normal form, with the text it was read from.
struct Sx<'a> {
    kind: Kind<'a>,
    text: &'a str,
}

enum Kind<'a> {
    /// `(kind child …)`; a bare `( …)` (a JavaScript `if`'s `not (…)`) has
    /// kind `""`.
    List(&'a str, Vec<Sx<'a>>),
    /// `kind=text`, ended by `\u{1}`.
    Leaf(&'a str, &'a str),
    /// `(string =text)`.
    Str(&'a str),
    /// An operator or keyword: `==`, `not`, `.`.
    Token(&'a str),
}

impl<'a> Sx<'a> {
    fn is_token(&self, word: &str) -> bool {
        matches!(self.kind, Kind::Token(t) if t == word)
    }

    fn kind_name(&self) -> &'a str {
        match self.kind {
            Kind::List(kind, _) => kind,
            _ => "\u{1}",
        }
    }

    fn kids(&self) -> &[Sx<'a>] {
        match &self.kind {
            Kind::List(_, kids) => kids,
            _ => &[],
        }
    }
}

/// The nodes of a normal form, or none when it is not one or is past the
/// bounds.
fn parse(s: &str) -> Option<Vec<Sx<'_>>> {
    let mut p = Parser { s, at: 0, nodes: 0 };
    let out = p.items(0)?;
    (p.at == s.len()).then_some(out)
}

struct Parser<'a> {
    s: &'a str,
    at: usize,
    nodes: usize,
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        &self.s[self.at..]
    }

    fn items(&mut self, depth: usize) -> Option<Vec<Sx<'a>>> {
        let mut out = Vec::new();
        loop {
            self.at = self.s.len() - self.rest().trim_start_matches(' ').len();
            if self.rest().is_empty() || self.rest().starts_with(')') {
                return Some(out);
            }
            out.push(self.item(depth)?);
        }
    }

    fn item(&mut self, depth: usize) -> Option<Sx<'a>> {
        self.nodes += 1;
        if self.nodes > MAX_NODES || depth > MAX_DEPTH {
            return None;
        }
        let start = self.at;
        let rest = self.rest();
        let kind = if let Some(open) = rest.strip_prefix('(') {
            let name = &open[..open.find([' ', ')'])?];
            self.at += 1 + name.len();
            let strings = ["string", "interpreted_string_literal", "string_literal"];
            if strings.contains(&name)
                && let Some(value) = self.rest().strip_prefix(" =")
            {
                // The value runs to the `)` that closes what it opened.
                let mut open = 0usize;
                let end = value.char_indices().find_map(|(k, c)| match c {
                    '(' => {
                        open += 1;
                        None
                    }
                    ')' if open == 0 => Some(k),
                    ')' => {
                        open -= 1;
                        None
                    }
                    _ => None,
                })?;
                self.at += 2 + end + 1;
                Kind::Str(&value[..end])
            } else {
                let kids = self.items(depth + 1)?;
                self.rest().starts_with(')').then_some(())?;
                self.at += 1;
                Kind::List(name, kids)
            }
        } else {
            let word = &rest[..rest.find([' ', ')', '\u{1}']).unwrap_or(rest.len())];
            match word.split_once('=') {
                Some((kind, _))
                    if !kind.is_empty()
                        && kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') =>
                {
                    let end = rest.find('\u{1}')?;
                    self.at += end + 1;
                    Kind::Leaf(kind, &rest[kind.len() + 1..end])
                }
                _ => {
                    let end = rest.find([' ', ')']).unwrap_or(rest.len());
                    self.at += end;
                    Kind::Token(&rest[..end])
                }
            }
        };
        Some(Sx {
            kind,
            text: &self.s[start..self.at],
        })
    }
}

#[cfg(test)]
#[path = "skip_sense_tests.rs"]
mod tests;
