//! Settings: the repository's `.plan/config.yaml` over the user's
//! `~/.config/plan/config.yaml`, key by key, over built-in defaults. Read on hook
//! calls, so it only reads: a missing file costs one failed open, nothing is spawned
//! or cached. A bad file is an error naming the file, the line and the key.
//!
//! One load: saphyr reads a file into a tree whose every node knows its line, and
//! one walk over the schema below turns the tree into values, so every message
//! names the key from the tree itself.

pub mod edit;

use std::fmt;
#[cfg(test)]
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::Result;
use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::options::DuplicateKeyPolicy;
use serde_saphyr::{ExternalMessageSource, MessageFormatter, Spanned};

use crate::atomic;
use crate::exit::{Exit, USAGE};
use crate::hosts::backend::Backend;
use crate::plan::diag::Diagnostic;

/// How messages name the repository's settings file, relative to the repository root.
pub const REPO_NAME: &str = ".plan/config.yaml";

/// Every section and key a settings file may hold, with its default as YAML, for
/// messages ("did you mean", "remove the line to use the default"). A key whose
/// default is `null` takes `null` as a value (`model: null` overrides a lower file);
/// on any other key `null` is "not set here".
const SCHEMA: &[(&str, &[Field])] = &[
    ("judge", JUDGE_KEYS),
    ("verify", &[("timeout_secs", "900")]),
    ("draft", JUDGE_KEYS.split_at(4).0),
    ("reminder", &[("every_file_edits", "3")]),
    ("inject", &[("every_prompt", "changed")]),
    (
        "loop",
        &[
            ("budget", "20"),
            ("stall_limit", "5"),
            ("judge", "off"),
            ("goal_budget", "null"),
            ("token_budget", "null"),
            ("time_budget", "null"),
        ],
    ),
    ("claims", &[("lease_minutes", "60"), ("remote", "null")]),
    (
        "sign_off",
        &[
            ("stage", "on"),
            ("reverify", "warn"),
            ("reverify_secs", "120"),
        ],
    ),
    ("gate", &[("max_judged", "25")]),
];

/// A key and its default as YAML.
type Field = (&'static str, &'static str);

/// The judge's keys: a model's (the first four, which `draft` shares), and `panel`.
const JUDGE_KEYS: &[Field] = &[
    ("backend", "auto"),
    ("model", "null"),
    ("command", "[]"),
    ("timeout_secs", "600"),
    ("panel", "[]"),
];

/// Which program judges (or drafts): `auto` picks the first agent CLI on PATH.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendChoice {
    Auto,
    Fixed(Backend),
}

impl BackendChoice {
    pub fn as_str(self) -> &'static str {
        match self {
            BackendChoice::Auto => "auto",
            BackendChoice::Fixed(backend) => backend.as_str(),
        }
    }

    /// "auto, claude, …, command or none", for messages.
    pub fn names() -> String {
        let names: Vec<&str> = std::iter::once("auto")
            .chain(Backend::ALL.iter().map(|b| b.as_str()))
            .collect();
        one_of(&names)
    }
}

impl fmt::Display for BackendChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for BackendChoice {
    /// A message fragment: callers put the place in front.
    type Err = String;

    fn from_str(word: &str) -> Result<BackendChoice, String> {
        if word == "auto" {
            return Ok(BackendChoice::Auto);
        }
        Backend::ALL
            .into_iter()
            .find(|b| b.as_str() == word)
            .map(BackendChoice::Fixed)
            .ok_or_else(|| {
                format!(
                    "unknown backend \"{word}\" (expected {})",
                    BackendChoice::names()
                )
            })
    }
}

/// The settings of one model role: the sign-off judge or the plan-phase model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelConfig {
    pub backend: BackendChoice,
    /// `None`: the backend's default model.
    pub model: Option<String>,
    /// The argv for `backend: command`.
    pub command: Vec<String>,
    pub timeout_secs: u64,
    /// `judge.panel`: two or more judges that must all accept; empty for one judge
    /// (and always for the drafting model).
    pub panel: Vec<PanelJudge>,
}

impl Default for ModelConfig {
    fn default() -> Self {
        ModelConfig {
            backend: BackendChoice::Auto,
            model: None,
            command: Vec::new(),
            timeout_secs: 600,
            panel: Vec::new(),
        }
    }
}

/// One judge of `judge.panel`: a backend by name (not `auto` or `none`), its model
/// and, for `backend: command`, its argv. The panel shares `judge.timeout_secs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanelJudge {
    pub backend: Backend,
    pub model: Option<String>,
    pub command: Vec<String>,
}

/// When the injection block goes in before a prompt. Session start and compaction
/// always inject.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EveryPrompt {
    Always,
    Changed,
    Never,
}

impl EveryPrompt {
    const ALL: [EveryPrompt; 3] = [
        EveryPrompt::Always,
        EveryPrompt::Changed,
        EveryPrompt::Never,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EveryPrompt::Always => "always",
            EveryPrompt::Changed => "changed",
            EveryPrompt::Never => "never",
        }
    }
}

impl fmt::Display for EveryPrompt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for EveryPrompt {
    type Err = String;

    fn from_str(word: &str) -> Result<EveryPrompt, String> {
        named(&EveryPrompt::ALL, EveryPrompt::as_str, word)
    }
}

/// What a sign-off does with the done goals its work breaks (`sign_off.reverify`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reverify {
    /// Their verifies are not run again.
    Off,
    /// Each that now fails is named in a warning; the sign-off goes on.
    Warn,
    /// Each that now fails is named, and the sign-off is rejected.
    Refuse,
}

impl Reverify {
    const ALL: [Reverify; 3] = [Reverify::Off, Reverify::Warn, Reverify::Refuse];

    pub fn as_str(self) -> &'static str {
        match self {
            Reverify::Off => "off",
            Reverify::Warn => "warn",
            Reverify::Refuse => "refuse",
        }
    }
}

impl FromStr for Reverify {
    type Err = String;

    fn from_str(word: &str) -> Result<Reverify, String> {
        named(&Reverify::ALL, Reverify::as_str, word)
    }
}

/// The effective settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub judge: ModelConfig,
    pub verify_timeout_secs: u64,
    pub draft: ModelConfig,
    pub reminder_every_file_edits: u32,
    pub inject_every_prompt: EveryPrompt,
    pub loop_budget: u32,
    pub loop_stall_limit: u32,
    pub loop_judge: bool,
    /// Continuations a goal may take while named first (`None`: no per-goal limit);
    /// a goal's `budget:` line overrides it.
    pub loop_goal_budget: Option<u32>,
    /// `loop.token_budget`: tokens the host may report before the loop lets go.
    pub loop_token_budget: Option<u64>,
    /// `loop.time_budget`, in seconds: wall time the loop may run.
    pub loop_time_budget: Option<u64>,
    /// Minutes without activity after which another holder may take a claim over.
    pub claims_lease_minutes: u32,
    /// The remote every claim is also a ref on (`None`: claims stay in this clone).
    pub claims_remote: Option<String>,
    /// Commands run on chosen events: the repository's entries, then the user's.
    pub notify: Vec<NotifyRule>,
    /// `sign_off.stage`: `plan complete` stages its transcript (`git add` of it).
    pub sign_off_stage: bool,
    /// `sign_off.reverify`: whether a sign-off verifies again the done goals that
    /// rest on files its work changed, and what a failure there does.
    pub sign_off_reverify: Reverify,
    /// `sign_off.reverify_secs`: the wall time those verifies may take together;
    /// the goals left when it runs out are named as not verified again.
    pub sign_off_reverify_secs: u64,
    /// `gate.max_judged`: how many goals one pull request's gate may ask CI's judge
    /// about; past it the gate fails before any verify runs. Read from the base.
    pub gate_max_judged: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            judge: ModelConfig::default(),
            verify_timeout_secs: 900,
            draft: ModelConfig::default(),
            reminder_every_file_edits: 3,
            inject_every_prompt: EveryPrompt::Changed,
            loop_budget: 20,
            loop_stall_limit: 5,
            loop_judge: false,
            loop_goal_budget: None,
            loop_token_budget: None,
            loop_time_budget: None,
            claims_lease_minutes: 60,
            claims_remote: None,
            notify: Vec::new(),
            sign_off_stage: true,
            sign_off_reverify: Reverify::Warn,
            sign_off_reverify_secs: 120,
            gate_max_judged: 25,
        }
    }
}

/// How long a notify command may run when its rule does not say.
pub const NOTIFY_TIMEOUT_SECS: u64 = 5;

/// One `notify:` entry: run `command` for each event named in `events`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotifyRule {
    pub events: Vec<String>,
    pub command: Vec<String>,
    pub timeout_secs: u64,
    /// Run once when a work loop ends, with `plan report` in this form on stdin.
    pub report: Option<ReportForm>,
}

/// What a `notify:` entry with `report:` gets on stdin when a work loop ends:
/// `plan report` in that form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportForm {
    Text,
    Markdown,
    Json,
}

/// Every event name a rule may choose: plan's log events, then the loop's.
pub fn notify_event_names() -> impl Iterator<Item = &'static str> {
    crate::plan::event::Event::NAMES
        .into_iter()
        .chain(crate::loop_budget::LoopEvent::NAMES)
}

/// Which file a value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Default,
    User,
    Repo,
}

type Key = (&'static str, &'static str);

/// Where each key's value came from, by dotted key (`judge.model`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sources {
    set: Vec<(Key, Source)>,
}

impl Sources {
    /// `key` is dotted: `judge.model`.
    pub fn get(&self, key: &str) -> Source {
        self.set
            .iter()
            .find(|((section, name), _)| key.split_once('.') == Some((section, name)))
            .map_or(Source::Default, |(_, source)| *source)
    }
}

/// The effective settings for a repository (or none: the user's and the defaults).
pub fn load(repo_root: Option<&Path>) -> Result<Config> {
    load_with_sources(repo_root).map(|(config, _)| config)
}

/// The user's settings over the defaults, the repository's file left out: what a
/// check the repository must not steer reads (`plan audit --rejudge`).
pub fn load_user() -> Result<Config> {
    load_files(None, user_file().as_deref()).map(|(config, _)| config)
}

/// The effective settings and where each value came from.
pub fn load_with_sources(repo_root: Option<&Path>) -> Result<(Config, Sources)> {
    load_files(repo_root.map(repo_file).as_deref(), user_file().as_deref())
}

fn load_files(repo: Option<&Path>, user: Option<&Path>) -> Result<(Config, Sources)> {
    load_layers(repo, user, None)
}

/// As [`load`], for the hooks: a top-level section of a settings file that does
/// not read (a typo under `judge:`, a bad value) is left at its defaults instead of
/// failing the whole file, so a setting a hook does not use never switches the hooks
/// off. Returns one line for each section, or file, left out.
pub fn load_lenient(repo_root: Option<&Path>) -> (Config, Vec<String>) {
    let mut notes = Vec::new();
    let repo = repo_root.map(repo_file);
    let loaded = load_layers(repo.as_deref(), user_file().as_deref(), Some(&mut notes));
    // A lenient load turns every failure into a note, so it cannot fail.
    (loaded.map_or_else(|_| Config::default(), |(c, _)| c), notes)
}

/// The one load: the repository's file over the user's, each read and parsed once.
/// With `notes` (the hooks' lenient load) a file that does not read is left out and
/// a section that does not parse is left at its defaults, each with a note; without,
/// the first error is the answer.
fn load_layers(
    repo: Option<&Path>,
    user: Option<&Path>,
    mut notes: Option<&mut Vec<String>>,
) -> Result<(Config, Sources)> {
    let mut loaded = Loaded::default();
    for (source, path) in [(Source::Repo, repo), (Source::User, user)] {
        let Some(path) = path else { continue };
        let name = match source {
            Source::Repo => REPO_NAME.to_string(),
            _ => display_path(path),
        };
        let text = match (read_text(path, &name), notes.as_deref_mut()) {
            (Ok(Some(text)), _) => text,
            (Ok(None), _) => continue,
            (Err(e), Some(notes)) => {
                notes.push(format!("plan: {}; using the defaults", first_line(&e)));
                continue;
            }
            (Err(e), None) => return Err(e),
        };
        parse(&text, &name, source, &mut loaded, notes.as_deref_mut())?;
    }
    Ok(loaded)
}

fn first_line(e: &anyhow::Error) -> String {
    format!("{e:#}")
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// One file's settings over the defaults; `name` is how errors name the file.
pub fn from_text(text: &str, name: &str) -> Result<Config> {
    let mut loaded = Loaded::default();
    parse(text, name, Source::Repo, &mut loaded, None)?;
    Ok(loaded.0)
}

pub fn repo_file(repo_root: &Path) -> PathBuf {
    repo_root.join(".plan").join("config.yaml")
}

/// `$XDG_CONFIG_HOME/plan/config.yaml`, else `$HOME/.config/plan/config.yaml`;
/// `None` when neither is set. A relative XDG_CONFIG_HOME is ignored, as the XDG
/// spec asks.
pub fn user_file() -> Option<PathBuf> {
    let xdg = crate::env::os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    let dir = match xdg {
        Some(dir) => dir,
        None => PathBuf::from(crate::env::os("HOME").filter(|h| !h.is_empty())?).join(".config"),
    };
    Some(dir.join("plan").join("config.yaml"))
}

/// How messages name a settings file: the user's home directory as `~`.
pub fn display_path(path: &Path) -> String {
    let home = crate::env::os("HOME").filter(|h| !h.is_empty());
    match home.and_then(|home| path.strip_prefix(home).ok().map(Path::to_path_buf)) {
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

/// The file's text, or `None` when there is no file.
pub fn read_text(path: &Path, name: &str) -> Result<Option<String>> {
    let bytes = match crate::fsread::bytes(path, crate::fsread::CONFIG) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(crate::fsread::exit(name, &e)),
    };
    String::from_utf8(bytes).map(Some).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        Exit::usage_hint(
            format!("{name}:{line}: not valid UTF-8 (byte offset {at})"),
            "save the file as UTF-8",
        )
    })
}

/// Atomic replace (src/atomic.rs). Creates the directory. A symlinked file (dotfile
/// managers) is written through the link. A new file is meant to be committed: 0666
/// less the umask, as any editor makes it.
pub fn write(path: &Path, name: &str, text: &str) -> Result<()> {
    let how = atomic::Replace {
        prefix: ".config-",
        ..atomic::Replace::DURABLE
    };
    atomic::replace(path, text.as_bytes(), &how).map_err(|e| match e {
        atomic::Failure::ReadOnly => Exit::env_hint(
            format!("{name} is read-only; nothing was written"),
            "make it writable (chmod u+w) and rerun",
        ),
        atomic::Failure::Dir(dir, e) => {
            anyhow::Error::new(e).context(format!("creating {}", dir.display()))
        }
        atomic::Failure::Io(e) => {
            Exit::env(format!("cannot write {name}: {e}; nothing was changed"))
        }
    })
}

/// Sets `section.key` to `yaml` (as from [`edit::scalar`]) in the settings file at
/// `path`, named `name` in messages, changing only that key's line. A file that
/// does not load is not edited (its own error says what to fix first), and the
/// edited text is written only once it loads and `took` finds the value in it.
/// Returns whether the file changed.
pub fn set_key(
    path: &Path,
    name: &str,
    (section, key): (&str, &str),
    yaml: &str,
    took: &dyn Fn(&Config) -> bool,
) -> Result<bool> {
    let text = read_text(path, name)?.unwrap_or_default();
    from_text(&text, name)?;
    let by_hand = format!("set `{key}:` under `{section}:` in {name} by hand");
    let edited = edit::set(&text, section, key, yaml)
        .map_err(|why| Exit::usage(format!("{name}: cannot set {section}.{key}: {why}")))?;
    let problem = match from_text(&edited, name) {
        Ok(config) if took(&config) => None,
        Ok(_) => Some(format!(
            "editing the file line by line did not set {section}.{key}"
        )),
        Err(e) => Some(format!(
            "setting {section}.{key} line by line would break the file ({})",
            first_line(&e)
        )),
    };
    if let Some(problem) = problem {
        let message = format!("{name}: {problem}; nothing was written");
        return Err(Exit::usage_hint(message, by_hand));
    }
    if edited == text {
        return Ok(false);
    }
    write(path, name, &edited)?;
    Ok(true)
}

/// A YAML document as saphyr reads it, every node with its place.
#[derive(Debug)]
enum Tree {
    Null,
    /// Scalars saphyr typed keep their text as written ([`with_text`]): `model: n`
    /// is the model `n`, not `false`.
    Bool(bool, String),
    Int(i128, String),
    Float(f64, String),
    Str(String),
    Seq(Vec<Node>),
    /// Entries in the file's order, repeated keys kept (they are an error of ours).
    Map(Vec<(Node, Node)>),
}

type Node = Spanned<Tree>;

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Tree;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("YAML")
            }
            fn visit_unit<E>(self) -> Result<Tree, E> {
                Ok(Tree::Null)
            }
            fn visit_none<E>(self) -> Result<Tree, E> {
                Ok(Tree::Null)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Tree, D::Error> {
                Tree::deserialize(d)
            }
            fn visit_bool<E>(self, b: bool) -> Result<Tree, E> {
                Ok(Tree::Bool(b, String::new()))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Tree, E> {
                Ok(Tree::Int(n.into(), String::new()))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Tree, E> {
                Ok(Tree::Int(n.into(), String::new()))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Tree, E> {
                Ok(Tree::Float(n, String::new()))
            }
            fn visit_str<E>(self, s: &str) -> Result<Tree, E> {
                Ok(Tree::Str(s.to_string()))
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Tree, S::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Tree::Seq(items))
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Tree, M::Error> {
                let mut entries = Vec::new();
                while let Some(key) = map.next_key()? {
                    entries.push((key, map.next_value()?));
                }
                Ok(Tree::Map(entries))
            }
        }
        d.deserialize_any(V)
    }
}

impl Tree {
    /// What was found, for messages.
    fn shown(&self) -> String {
        match self {
            Tree::Null => "null".into(),
            Tree::Bool(_, text) | Tree::Int(_, text) | Tree::Float(_, text) => text.clone(),
            Tree::Str(s) => format!("\"{s}\""),
            Tree::Seq(_) => "a list".into(),
            Tree::Map(_) => "a mapping".into(),
        }
    }
}

/// The tree with each typed scalar's text as written in `source`.
fn with_text(mut node: Node, source: &str) -> Node {
    let span = node.referenced.span();
    let written = span.byte_offset().and_then(|at| {
        source.get(usize::try_from(at).ok()?..usize::try_from(at + span.byte_len()?).ok()?)
    });
    node.value = match node.value {
        Tree::Seq(items) => Tree::Seq(items.into_iter().map(|n| with_text(n, source)).collect()),
        Tree::Map(entries) => Tree::Map(
            entries
                .into_iter()
                .map(|(k, v)| (with_text(k, source), with_text(v, source)))
                .collect(),
        ),
        Tree::Bool(b, _) => Tree::Bool(b, written.map_or_else(|| b.to_string(), str::to_string)),
        Tree::Int(n, _) => Tree::Int(n, written.map_or_else(|| n.to_string(), str::to_string)),
        Tree::Float(n, _) => Tree::Float(n, written.map_or_else(|| n.to_string(), str::to_string)),
        other => other,
    };
    node
}

fn line(node: &Node) -> usize {
    node.referenced.line() as usize
}

/// A problem with a value: the line of the node at fault and what is wrong.
struct Bad(usize, String);

fn bad<T>(node: &Node, message: impl Into<String>) -> Result<T, Bad> {
    Err(Bad(line(node), message.into()))
}

/// A scalar as text.
fn text(node: &Node) -> Result<String, Bad> {
    match &node.value {
        Tree::Str(s) => Ok(s.clone()),
        Tree::Seq(_) | Tree::Map(_) | Tree::Null => bad(node, "expected text"),
        scalar => Ok(scalar.shown()),
    }
}

/// A count or a number of seconds: a whole number, not negative. A quoted number is
/// taken.
fn whole(node: &Node) -> Result<u64, Bad> {
    let n = match &node.value {
        Tree::Int(n, _) => u64::try_from(*n).ok(),
        Tree::Str(s) => s.trim().parse().ok(),
        _ => None,
    };
    n.map_or_else(
        || {
            bad(
                node,
                format!("expected a whole number, found {}", node.value.shown()),
            )
        },
        Ok,
    )
}

fn count(node: &Node) -> Result<u32, Bad> {
    let n = whole(node)?;
    u32::try_from(n).or_else(|_| bad(node, format!("{n} is too large")))
}

/// `on`/`off`, also `true`/`false`.
fn on_off(node: &Node) -> Result<bool, Bad> {
    match &node.value {
        Tree::Bool(b, _) => Ok(*b),
        Tree::Str(s) if s == "on" || s == "true" => Ok(true),
        Tree::Str(s) if s == "off" || s == "false" => Ok(false),
        found => bad(node, format!("expected on or off, found {}", found.shown())),
    }
}

/// A wall-time duration in seconds, written `90m`, `8h`, `1h30m`
/// ([`crate::loop_budget::parse_duration`]).
fn duration(node: &Node) -> Result<u64, Bad> {
    let expected = "expected a duration such as 90m or 8h, found";
    match &node.value {
        Tree::Str(s) => crate::loop_budget::parse_duration(s).or_else(|e| bad(node, e)),
        Tree::Int(n, _) if *n >= 0 => {
            bad(node, format!("{expected} {n} (write its unit: {n}m, {n}h)"))
        }
        found => bad(node, format!("{expected} {}", found.shown())),
    }
}

/// An argv list. A bare string is refused rather than split: splitting would need
/// shell rules, and the judge's argv is never given to a shell.
fn argv(node: &Node) -> Result<Vec<String>, Bad> {
    match &node.value {
        Tree::Seq(items) => items.iter().map(text).collect(),
        Tree::Str(s) => bad(
            node,
            format!(
                "expected a list of arguments, found \"{s}\" (write it as [\"{}\"])",
                s.split_whitespace().collect::<Vec<_>>().join("\", \"")
            ),
        ),
        found => bad(
            node,
            format!("expected a list of arguments, found {}", found.shown()),
        ),
    }
}

/// An argv list that names a program.
fn command(node: &Node) -> Result<Vec<String>, Bad> {
    let argv = argv(node)?;
    match argv.first() {
        Some(program) if !program.is_empty() => Ok(argv),
        _ => bad(
            node,
            "expected a command: a list whose first item is the program",
        ),
    }
}

/// Text whose empty value is none.
fn model(node: &Node) -> Result<Option<String>, Bad> {
    match node.value {
        Tree::Null => Ok(None),
        _ => Ok(Some(text(node)?.trim().to_string()).filter(|m| !m.is_empty())),
    }
}

/// A mapping's entries by name, each name once.
fn entries(node: &Node) -> Option<Vec<(String, &Node, &Node)>> {
    let Tree::Map(entries) = &node.value else {
        return None;
    };
    let name = |key: &Node| match &key.value {
        Tree::Str(s) => s.clone(),
        other => other.shown(),
    };
    Some(entries.iter().map(|(k, v)| (name(k), k, v)).collect())
}

/// The first entry whose name came before: `set more than once`.
fn repeated<'a>(entries: &[(String, &'a Node, &Node)]) -> Option<(String, &'a Node)> {
    entries.iter().enumerate().find_map(|(i, (name, key, _))| {
        entries[..i]
            .iter()
            .any(|(n, _, _)| n == name)
            .then(|| (name.clone(), *key))
    })
}

/// `judge.panel`: two or more judges, or `[]` for none.
fn panel(node: &Node) -> Result<Vec<PanelJudge>, Bad> {
    let Tree::Seq(items) = &node.value else {
        return bad(
            node,
            format!("expected a list, found {}", node.value.shown()),
        );
    };
    if items.len() == 1 {
        return bad(
            node,
            "a panel needs two or more judges, found one (for one judge, set judge.backend instead)",
        );
    }
    let keys = ["backend", "model", "command"];
    items
        .iter()
        .map(|item| {
            let Some(entries) = entries(item) else {
                return bad(item, "expected indented `key: value` lines");
            };
            let mut judge = (None, None, Vec::new());
            for (name, key, value) in &entries {
                match name.as_str() {
                    "backend" => judge.0 = Some(panel_backend(value)?),
                    "model" => judge.1 = model(value)?,
                    "command" if matches!(value.value, Tree::Null) => {}
                    "command" => judge.2 = command(value)?,
                    _ => {
                        return bad(
                            key,
                            format!(
                                "a panel judge takes {}, not {name}{}",
                                one_of(&keys),
                                did_you_mean(name, &keys, "")
                            ),
                        );
                    }
                }
            }
            let Some(backend) = judge.0 else {
                return bad(item, "a panel judge needs `backend:`");
            };
            Ok(PanelJudge {
                backend,
                model: judge.1,
                command: judge.2,
            })
        })
        .collect()
}

/// A panel judge's backend: a judge by name; `auto` and `none` are no judge of
/// their own.
fn panel_backend(node: &Node) -> Result<Backend, Bad> {
    match text(node)?.parse::<BackendChoice>() {
        Ok(BackendChoice::Fixed(Backend::None)) | Ok(BackendChoice::Auto) => bad(
            node,
            "a panel judge names its backend: auto and none are not judges here",
        ),
        Ok(BackendChoice::Fixed(backend)) => Ok(backend),
        Err(e) => bad(node, e),
    }
}

/// A word of a fixed set (a backend, when to inject).
fn choice<T: FromStr<Err = String>>(node: &Node) -> Result<T, Bad> {
    text(node)?.parse().map_err(|e| Bad(line(node), e))
}

/// A limit: `null` for none.
fn limit<T>(node: &Node, read: fn(&Node) -> Result<T, Bad>) -> Result<Option<T>, Bad> {
    match node.value {
        Tree::Null => Ok(None),
        _ => read(node).map(Some),
    }
}

/// One key of [`SCHEMA`] read into `config`.
fn set(config: &mut Config, section: &str, name: &str, node: &Node) -> Result<(), Bad> {
    let role = match section {
        "judge" => &mut config.judge,
        "draft" => &mut config.draft,
        _ => return set_plain(config, (section, name), node),
    };
    match name {
        "backend" => role.backend = choice(node)?,
        "model" => role.model = model(node)?,
        "command" => role.command = argv(node)?,
        "timeout_secs" => role.timeout_secs = whole(node)?,
        _ => role.panel = panel(node)?,
    }
    Ok(())
}

fn set_plain(c: &mut Config, key: (&str, &str), node: &Node) -> Result<(), Bad> {
    match key {
        ("verify", _) => c.verify_timeout_secs = whole(node)?,
        ("reminder", _) => c.reminder_every_file_edits = count(node)?,
        ("inject", _) => c.inject_every_prompt = choice(node)?,
        ("loop", "budget") => c.loop_budget = count(node)?,
        ("loop", "stall_limit") => c.loop_stall_limit = count(node)?,
        ("loop", "judge") => c.loop_judge = on_off(node)?,
        ("loop", "goal_budget") => match limit(node, count)? {
            Some(0) => bad(
                node,
                "expected a whole number from 1 or null, found 0 (0 continuations would never continue)",
            )?,
            n => c.loop_goal_budget = n,
        },
        ("loop", "token_budget") => c.loop_token_budget = limit(node, whole)?,
        ("loop", _) => c.loop_time_budget = limit(node, duration)?,
        ("claims", "lease_minutes") => c.claims_lease_minutes = count(node)?,
        ("claims", _) => c.claims_remote = model(node)?,
        ("gate", _) => c.gate_max_judged = count(node)?,
        ("sign_off", "reverify") => c.sign_off_reverify = choice(node)?,
        ("sign_off", "reverify_secs") => c.sign_off_reverify_secs = whole(node)?,
        _ => c.sign_off_stage = on_off(node)?,
    }
    Ok(())
}

/// The settings the files read so far set, and where each came from.
type Loaded = (Config, Sources);

const SHAPE_HINT: &str =
    "a settings file is sections (`judge:`) with `key: value` lines indented under them";

/// `notify:` is a list, not a section of keys, so it has its own words.
const NOTIFY_KEYS: [&str; 4] = ["events", "command", "timeout_secs", "report"];
const NOTIFY_HINT: &str = "notify is a list of entries like `- events: [signed_off, loop_let_go]` with `command: [\"notify-send\", \"plan\"]` under it (and optionally `timeout_secs: 5`); `report: markdown` (or text, json) in place of `events` runs it when a work loop ends, with the report on stdin";

fn sections() -> Vec<&'static str> {
    SCHEMA.iter().map(|(s, _)| *s).chain(["notify"]).collect()
}

/// One file's settings into `loaded`, under the files read before it. With `notes`
/// (the lenient load) a section that does not read is left out whole, with a note;
/// without, the first problem is the error.
fn parse(
    text: &str,
    name: &str,
    source: Source,
    loaded: &mut Loaded,
    mut notes: Option<&mut Vec<String>>,
) -> Result<()> {
    let fail = |d: Diagnostic| {
        let source = text.lines().nth(d.line.wrapping_sub(1));
        Exit::diagnostics(
            USAGE,
            d.render(name, source.map(|l| l.trim_start_matches('\u{feff}'))),
        )
    };
    let options = serde_saphyr::options! { duplicate_keys: DuplicateKeyPolicy::PassThrough };
    let top = serde_saphyr::from_str_with_options::<Option<Node>>(text, options)
        .map(|top| top.map(|top| with_text(top, text)));
    let found = match &top {
        Ok(None) => return Ok(()),
        Ok(Some(top)) if matches!(top.value, Tree::Null) => return Ok(()),
        Ok(Some(top)) => entries(top).ok_or_else(|| {
            let hint = format!("{SHAPE_HINT}; the sections are {}", one_of(&sections()));
            Diagnostic::error(line(top), "expected indented `key: value` lines").hint(hint)
        }),
        Err(e) => Err(syntax(e)),
    };
    let found = match (found, notes.as_deref_mut()) {
        (Ok(found), _) => found,
        (Err(_), Some(notes)) => {
            parse_apart(text, name, source, loaded, notes);
            return Ok(());
        }
        (Err(d), None) => return Err(fail(d)),
    };
    for (i, (section, key, value)) in found.iter().enumerate() {
        let mut trial = loaded.clone();
        let read = match repeated(&found[..=i]) {
            Some(_) => Err(
                Diagnostic::error(line(key), format!("{section}: set more than once"))
                    .hint(format!("keep one `{section}:` section")),
            ),
            None => read_section(section, key, value, source, &mut trial),
        };
        match (read, notes.as_deref_mut()) {
            (Ok(()), _) => *loaded = trial,
            (Err(d), Some(notes)) => notes.push(format!(
                "plan: {}; `{section}` left at its defaults",
                first_line(&fail(d))
            )),
            (Err(d), None) => return Err(fail(d)),
        }
    }
    Ok(())
}

/// For a file that is not YAML: each top-level section read on its own, the ones
/// that do not read left out, each with a note.
fn parse_apart(
    text: &str,
    name: &str,
    source: Source,
    loaded: &mut Loaded,
    notes: &mut Vec<String>,
) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let starts: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            let t = lines[i].trim_end();
            !t.is_empty() && !t.starts_with([' ', '\t', '#']) && t != "---" && t != "..."
        })
        .collect();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(lines.len());
        // Blank lines in front keep the parser's line numbers those of the file.
        let chunk = "\n".repeat(start) + &lines[start..end].concat();
        let key = lines[start].split(':').next().unwrap_or_default().trim();
        if let Err(e) = parse(&chunk, name, source, loaded, None) {
            notes.push(format!(
                "plan: {}; `{key}` left at its defaults",
                first_line(&e)
            ));
        }
    }
}

/// A file saphyr cannot read as YAML.
fn syntax(err: &serde_saphyr::Error) -> Diagnostic {
    let inner = err.without_snippet();
    let message: String = serde_saphyr::UserMessageFormatter
        .format_message(inner)
        .chars()
        .map(|c| match c.is_control() {
            true => c.escape_default().to_string(),
            false => c.to_string(),
        })
        .collect();
    let line = err.location().map_or(0, |l| l.line() as usize);
    let parser = matches!(inner, serde_saphyr::Error::ExternalMessage { source, .. }
        if matches!(**source, ExternalMessageSource::Parser(_)));
    let message = match parser {
        true => format!("invalid YAML: {message}"),
        false => message,
    };
    Diagnostic::error(line, message).hint(SHAPE_HINT)
}

/// One top-level section into `loaded`. A key a file read before already set
/// is read all the same, for its errors, and then left as it was.
fn read_section(
    section: &str,
    key: &Node,
    node: &Node,
    source: Source,
    loaded: &mut Loaded,
) -> Result<(), Diagnostic> {
    let names = sections();
    if section == "notify" {
        return read_notify(node, &mut loaded.0.notify);
    }
    let Some((section, keys)) = SCHEMA.iter().find(|(s, _)| *s == section) else {
        return Err(
            Diagnostic::error(line(key), format!("{section}: unknown key")).hint(format!(
                "the sections are {}{}",
                one_of(&names),
                did_you_mean(section, &names, "")
            )),
        );
    };
    let names: Vec<&str> = keys.iter().map(|(k, _)| *k).collect();
    if matches!(node.value, Tree::Null) {
        return Ok(());
    }
    let Some(found) = entries(node) else {
        return Err(Diagnostic::error(
            line(node),
            format!("{section}: expected indented `key: value` lines"),
        )
        .hint(format!(
            "write `{section}:` alone on its line and its keys indented under it: {}",
            one_of(&names)
        )));
    };
    if let Some((name, key)) = repeated(&found) {
        return Err(
            Diagnostic::error(line(key), format!("{section}.{name}: set more than once"))
                .hint(format!("keep one `{name}:` line under `{section}:`")),
        );
    }
    for (name, key, value) in &found {
        let Some((name, default)) = keys.iter().find(|(k, _)| k == name) else {
            let hint = match (*section, name.as_str()) {
                ("draft", "panel") => {
                    "a panel is for the sign-off judge only: write it under `judge:`".to_string()
                }
                _ => format!(
                    "{section} takes {}{}",
                    one_of(&names),
                    did_you_mean(name, &names, &format!("{section}."))
                ),
            };
            return Err(
                Diagnostic::error(line(key), format!("{section}.{name}: unknown key")).hint(hint),
            );
        };
        let place = |Bad(at, message)| {
            Diagnostic::error(at, format!("{section}.{name}: {message}")).hint(match *default {
                "[]" => "remove the line to use the default, none".to_string(),
                default => format!("remove the line to use the default, {default}"),
            })
        };
        if matches!(value.value, Tree::Null) && *default != "null" {
            continue;
        }
        let id = (*section, *name);
        let (config, sources) = &mut *loaded;
        // A higher file that chose the judge (a panel or a backend) decides both,
        // so a repository's `backend:` is not outvoted by a user's panel.
        let taken = sources.set.iter().any(|(k, from)| {
            *k == id || (id == ("judge", "panel") && *k == ("judge", "backend") && *from != source)
        });
        let mut scratch = Config::default();
        let target = if taken { &mut scratch } else { config };
        set(target, section, name, value).map_err(place)?;
        if *name == "panel" {
            let judges = &target.judge.panel;
            let problem = match () {
                _ if judges.is_empty() => None,
                _ if found
                    .iter()
                    .any(|(n, _, v)| n == "backend" && !matches!(v.value, Tree::Null)) =>
                {
                    Some("set together with judge.backend in the same file")
                }
                _ if judges
                    .iter()
                    .any(|j| j.backend == Backend::Command && j.command.is_empty()) =>
                {
                    Some("a judge with backend command has no command")
                }
                _ => None,
            };
            if let Some(problem) = problem {
                let hint = match problem.starts_with("set") {
                    true => {
                        "a panel replaces judge.backend: remove the `backend:` line under `judge:`, or the panel"
                    }
                    false => {
                        "give it its argv: `- backend: command` with `command: [\"./judge.sh\"]` under it"
                    }
                };
                return Err(
                    Diagnostic::error(line(key), format!("judge.panel: {problem}")).hint(hint),
                );
            }
        }
        if !taken {
            sources.set.push((id, source));
        }
    }
    Ok(())
}

/// `notify:`, a list of entries; each runs on `events`, or with the report when a
/// loop ends (`report`), one or the other.
fn read_notify(node: &Node, notify: &mut Vec<NotifyRule>) -> Result<(), Diagnostic> {
    let fail = |at, message: String| Diagnostic::error(at, message).hint(NOTIFY_HINT);
    let items = match &node.value {
        Tree::Null => return Ok(()),
        Tree::Seq(items) => items,
        _ => return Err(fail(line(node), "notify: expected a list".into())),
    };
    for item in items {
        let Some(found) = entries(item) else {
            return Err(fail(
                line(item),
                "notify: expected indented `key: value` lines".into(),
            ));
        };
        if let Some((name, key)) = repeated(&found) {
            return Err(fail(
                line(key),
                format!("notify.{name}: set more than once"),
            ));
        }
        let mut rule = NotifyRule {
            events: Vec::new(),
            command: Vec::new(),
            timeout_secs: NOTIFY_TIMEOUT_SECS,
            report: None,
        };
        let mut events = false;
        for (name, key, value) in &found {
            let place = |Bad(at, message)| fail(at, format!("notify.{name}: {message}"));
            match name.as_str() {
                "events" => {
                    rule.events = events_of(value).map_err(place)?;
                    events = true;
                }
                "command" => rule.command = command(value).map_err(place)?,
                "timeout_secs" if matches!(value.value, Tree::Null) => {}
                "timeout_secs" => rule.timeout_secs = whole(value).map_err(place)?,
                "report" => rule.report = Some(report_form(value).map_err(place)?),
                _ => {
                    return Err(Diagnostic::error(
                        line(key),
                        format!("notify.{name}: unknown key"),
                    )
                    .hint(format!(
                        "a notify entry takes {}{}",
                        one_of(&NOTIFY_KEYS),
                        did_you_mean(name, &NOTIFY_KEYS, "")
                    )));
                }
            }
        }
        let problem = match (events, rule.report) {
            (true, Some(_)) => Some((
                "notify: an entry has both `events` and `report`",
                "an entry with `report:` runs once when a work loop ends, with the report on stdin; leave out its `events:`, or make it two entries",
            )),
            (false, None) => Some((
                "notify: an entry has neither `events` nor `report`",
                "give it `events: [signed_off, loop_let_go]` (the events it runs on), or `report: markdown` (runs when a work loop ends, with the report on stdin)",
            )),
            _ => None,
        };
        if let Some((message, hint)) = problem {
            return Err(Diagnostic::error(line(item), message).hint(hint));
        }
        if rule.command.is_empty() {
            return Err(fail(line(item), "notify: an entry has no `command`".into()));
        }
        notify.push(rule);
    }
    Ok(())
}

/// A list of event names, each one plan has.
fn events_of(node: &Node) -> Result<Vec<String>, Bad> {
    let Tree::Seq(items) = &node.value else {
        return bad(
            node,
            format!(
                "expected a list of event names, found {}",
                node.value.shown()
            ),
        );
    };
    if items.is_empty() {
        return bad(node, "expected at least one event name");
    }
    let known: Vec<&str> = notify_event_names().collect();
    items
        .iter()
        .map(|item| match text(item)? {
            name if known.contains(&name.as_str()) => Ok(name),
            name => bad(
                item,
                format!(
                    "unknown event \"{name}\" (expected {}){}",
                    one_of(&known),
                    did_you_mean(&name, &known, "")
                ),
            ),
        })
        .collect()
}

fn report_form(node: &Node) -> Result<ReportForm, Bad> {
    match text(node)?.as_str() {
        "text" => Ok(ReportForm::Text),
        "markdown" => Ok(ReportForm::Markdown),
        "json" => Ok(ReportForm::Json),
        other => bad(
            node,
            format!("unknown variant `{other}`, expected one of text, markdown, json"),
        ),
    }
}

/// "; did you mean judge.model?", or nothing: the one "did you mean" of plan.
fn did_you_mean(word: &str, names: &[&str], prefix: &str) -> String {
    crate::plan::nearest::did_you_mean(word, names.iter().copied(), prefix)
        .map_or(String::new(), |hint| format!("; {hint}"))
}

/// "a, b or c".
/// The one of `all` whose name (`name`) is `word`, or the message naming them all.
fn named<T: Copy>(all: &[T], name: fn(T) -> &'static str, word: &str) -> Result<T, String> {
    all.iter()
        .copied()
        .find(|e| name(*e) == word)
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|e| name(*e)).collect();
            format!("unknown value \"{word}\" (expected {})", one_of(&names))
        })
}

fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hosts::Host;

    fn err(text: &str) -> String {
        from_text(text, REPO_NAME).unwrap_err().to_string()
    }

    fn ok(text: &str) -> Config {
        from_text(text, REPO_NAME).unwrap()
    }

    #[test]
    fn empty_and_comment_only_files_are_the_defaults() {
        for text in [
            "",
            "\n",
            "# nothing yet\n",
            "judge:\n",
            "judge:\n  # model: x\n",
            "---\n",
            "~\n",
        ] {
            assert_eq!(ok(text), Config::default(), "{text:?}");
        }
    }

    #[test]
    fn the_schema_defaults_are_the_defaults() {
        let mut yaml = String::new();
        for (section, keys) in SCHEMA {
            yaml.push_str(&format!("{section}:\n"));
            for (key, default) in *keys {
                yaml.push_str(&format!("  {key}: {default}\n"));
            }
        }
        let mut loaded = Loaded::default();
        parse(&yaml, REPO_NAME, Source::Repo, &mut loaded, None).unwrap();
        let (config, sources) = loaded;
        assert_eq!(config, Config::default());
        for (section, keys) in SCHEMA {
            for (key, _) in *keys {
                assert_eq!(sources.get(&format!("{section}.{key}")), Source::Repo);
            }
        }
    }

    #[test]
    fn every_key_is_read() {
        let config = ok("\
judge:
  backend: command
  model: opus
  command: [./judge.sh, --strict]
  timeout_secs: 30
verify:
  timeout_secs: 60
draft:
  backend: codex
  model: gpt-5
  timeout_secs: 90
reminder:
  every_file_edits: 5
inject:
  every_prompt: always
loop:
  budget: 7
  stall_limit: 2
  judge: on
  goal_budget: 4
  token_budget: 500000
  time_budget: 90m
claims:
  lease_minutes: 15
  remote: origin
sign_off:
  stage: off
notify:
  - events: [signed_off, loop_let_go]
    command: [notify-send, plan]
  - events: [sign_off_rejected]
    command: [./hook.sh]
    timeout_secs: 30
");
        assert_eq!(
            config.notify,
            [
                NotifyRule {
                    events: vec!["signed_off".into(), "loop_let_go".into()],
                    command: vec!["notify-send".into(), "plan".into()],
                    timeout_secs: 5,
                    report: None,
                },
                NotifyRule {
                    events: vec!["sign_off_rejected".into()],
                    command: vec!["./hook.sh".into()],
                    timeout_secs: 30,
                    report: None,
                },
            ]
        );
        assert_eq!(
            config,
            Config {
                judge: ModelConfig {
                    backend: BackendChoice::Fixed(Backend::Command),
                    model: Some("opus".into()),
                    command: vec!["./judge.sh".into(), "--strict".into()],
                    timeout_secs: 30,
                    panel: vec![],
                },
                verify_timeout_secs: 60,
                draft: ModelConfig {
                    backend: BackendChoice::Fixed(Backend::Host(Host::Codex)),
                    model: Some("gpt-5".into()),
                    command: vec![],
                    timeout_secs: 90,
                    panel: vec![],
                },
                reminder_every_file_edits: 5,
                inject_every_prompt: EveryPrompt::Always,
                loop_budget: 7,
                loop_stall_limit: 2,
                loop_judge: true,
                loop_goal_budget: Some(4),
                loop_token_budget: Some(500_000),
                loop_time_budget: Some(5400),
                claims_lease_minutes: 15,
                claims_remote: Some("origin".into()),
                notify: config.notify.clone(),
                sign_off_stage: false,
                sign_off_reverify: Reverify::Warn,
                sign_off_reverify_secs: 120,
                gate_max_judged: 25,
            }
        );
    }

    #[test]
    fn a_notify_entry_names_known_events_and_a_program() {
        let said: Vec<String> = [
            "notify:\n  - events: [signed_of]\n    command: [x]\n",
            "notify:\n  - events: [signed_off]\n    command: []\n",
            "notify:\n  - events: [signed_off]\n    command: notify-send plan\n",
            "notify:\n  - events: [signed_off]\n    comand: [x]\n",
        ]
        .map(|text| err(text).lines().next().unwrap_or_default().to_string())
        .into();
        let known = notify_event_names().collect::<Vec<_>>();
        assert_eq!(
            said,
            [
                format!(
                    ".plan/config.yaml:2: notify.events: unknown event \"signed_of\" (expected {}); did you mean signed_off?",
                    one_of(&known)
                ),
                ".plan/config.yaml:3: notify.command: expected a command: a list whose first item is the program".into(),
                ".plan/config.yaml:3: notify.command: expected a list of arguments, found \"notify-send plan\" (write it as [\"notify-send\", \"plan\"])".into(),
                ".plan/config.yaml:3: notify.comand: unknown key".into(),
            ]
        );
        // Hooks keep going: the bad section is left out and said so.
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".plan")).unwrap();
        std::fs::write(
            repo_file(dir.path()),
            "loop:\n  budget: 3\nnotify:\n  - events: [nope]\n    command: [x]\n",
        )
        .unwrap();
        let (config, notes) = load_lenient(Some(dir.path()));
        assert_eq!((config.loop_budget, config.notify.len()), (3, 0));
        assert_eq!(
            notes,
            [format!(
                "plan: .plan/config.yaml:4: notify.events: unknown event \"nope\" (expected {}); `notify` left at its defaults",
                one_of(&notify_event_names().collect::<Vec<_>>())
            )]
        );
    }

    #[test]
    fn loop_judge_takes_on_off_and_booleans() {
        for (word, on) in [
            ("on", true),
            ("off", false),
            ("true", true),
            ("false", false),
        ] {
            assert_eq!(
                ok(&format!("loop:\n  judge: {word}\n")).loop_judge,
                on,
                "{word}"
            );
        }
    }

    #[test]
    fn values_are_lenient_where_it_is_harmless() {
        assert_eq!(ok("judge:\n  timeout_secs: '45'\n").judge.timeout_secs, 45);
        assert_eq!(ok("judge:\n  model: ''\n").judge.model, None);
        assert_eq!(ok("judge:\n  model: ~\n").judge.model, None);
        assert_eq!(ok("judge:\n  timeout_secs: null\n").judge.timeout_secs, 600);
        assert_eq!(ok("judge: {model: x}\n").judge.model.as_deref(), Some("x"));
        assert_eq!(
            ok("judge:\r\n  backend: pi\r\n").judge.backend,
            BackendChoice::Fixed(Backend::Host(Host::Pi))
        );
        assert_eq!(
            ok("\u{feff}judge:\n  model: m\n").judge.model.as_deref(),
            Some("m")
        );
    }

    fn layers(dir: &Path, repo: &str, user: &str) -> (Config, Sources) {
        let repo_path = dir.join("repo.yaml");
        let user_path = dir.join("user.yaml");
        fs::write(&repo_path, repo).unwrap();
        fs::write(&user_path, user).unwrap();
        load_files(Some(&repo_path), Some(&user_path)).unwrap()
    }

    /// `judge.panel` and `judge.backend` are one choice: the higher file that sets
    /// either decides; a file with neither leaves it to the other.
    #[test]
    fn the_higher_file_choosing_a_judge_decides_between_panel_and_backend() {
        let dir = tempfile::tempdir().unwrap();
        let panel = "judge:\n  panel:\n    - backend: claude\n    - backend: codex\n";
        let backend = "judge:\n  backend: pi\n";
        let (config, sources) = layers(dir.path(), backend, panel);
        assert!(config.judge.panel.is_empty());
        assert_eq!(sources.get("judge.panel"), Source::Default);
        let (config, sources) = layers(dir.path(), panel, backend);
        let names: Vec<Backend> = config.judge.panel.iter().map(|j| j.backend).collect();
        assert_eq!(
            names,
            [Backend::Host(Host::Claude), Backend::Host(Host::Codex)]
        );
        assert_eq!(sources.get("judge.panel"), Source::Repo);
        let (config, _) = layers(dir.path(), "judge:\n  model: m\n", panel);
        assert_eq!(config.judge.panel.len(), 2);
        insta::assert_snapshot!(err("draft:\n  panel:\n    - backend: claude\n    - backend: codex\n"), @"
        .plan/config.yaml:2: draft.panel: unknown key
            2 |   panel:
          hint: a panel is for the sign-off judge only: write it under `judge:`
        ");
        insta::assert_snapshot!(err("judge:\n  panel:\n    - backend: command\n    - backend: claude\n"), @r#"
        .plan/config.yaml:2: judge.panel: a judge with backend command has no command
            2 |   panel:
          hint: give it its argv: `- backend: command` with `command: ["./judge.sh"]` under it
        "#);
        assert!(
            ok("judge:\n  backend: claude\n  panel: []\n")
                .judge
                .panel
                .is_empty()
        );
    }

    #[test]
    fn the_readme_settings_are_the_defaults() {
        let readme = include_str!("../docs/src/settings.md");
        let settings = &readme[readme.find("# Settings").unwrap()..];
        let yaml = settings
            .split_once("```yaml\n")
            .unwrap()
            .1
            .split_once("```\n")
            .unwrap()
            .0;
        assert_eq!(
            from_text(yaml, "docs/src/settings.md").unwrap(),
            Config::default()
        );
    }

    #[test]
    fn lenient_loading_keeps_the_sections_that_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join(".plan")).unwrap();
        fs::write(
            repo_file(root),
            "# settings\njudge:\n  modle: typo\nreminder:\n  every_file_edits: 7\nloop:\n  budget: lots\n",
        )
        .unwrap();
        assert!(
            load(Some(root)).is_err(),
            "the strict load refuses the file"
        );
        let (config, notes) = load_lenient(Some(root));
        assert_eq!(config.reminder_every_file_edits, 7);
        assert_eq!(config.judge, Config::default().judge);
        assert_eq!(config.loop_budget, Config::default().loop_budget);
        assert_eq!(notes.len(), 2, "{notes:?}");
        insta::assert_snapshot!(notes.join("\n"), @r#"
        plan: .plan/config.yaml:3: judge.modle: unknown key; `judge` left at its defaults
        plan: .plan/config.yaml:7: loop.budget: expected a whole number, found "lots"; `loop` left at its defaults
        "#);
        // A section is left out whole: the keys above the bad one are not kept.
        fs::write(repo_file(root), "loop:\n  budget: 3\n  stall_limit: lots\n").unwrap();
        let (config, notes) = load_lenient(Some(root));
        assert_eq!((config.loop_budget, notes.len()), (20, 1), "{notes:?}");
        // A file that reads has no notes.
        fs::write(repo_file(root), "reminder:\n  every_file_edits: 2\n").unwrap();
        let (config, notes) = load_lenient(Some(root));
        assert_eq!((config.reminder_every_file_edits, notes.len()), (2, 0));
    }

    #[test]
    fn the_repository_file_wins_key_by_key() {
        let dir = tempfile::tempdir().unwrap();
        let (config, sources) = layers(
            dir.path(),
            "judge:\n  model: repo-model\n",
            "judge:\n  backend: codex\n  model: user-model\nloop:\n  budget: 7\n",
        );
        assert_eq!(
            config.judge.backend,
            BackendChoice::Fixed(Backend::Host(Host::Codex))
        );
        assert_eq!(config.judge.model.as_deref(), Some("repo-model"));
        assert_eq!(config.loop_budget, 7);
        assert_eq!(config.judge.timeout_secs, 600);
        assert_eq!(sources.get("judge.backend"), Source::User);
        assert_eq!(sources.get("judge.model"), Source::Repo);
        assert_eq!(sources.get("loop.budget"), Source::User);
        assert_eq!(sources.get("judge.timeout_secs"), Source::Default);
        assert_eq!(sources.get("draft.model"), Source::Default);
    }

    #[test]
    fn an_explicit_null_model_overrides_the_users() {
        let dir = tempfile::tempdir().unwrap();
        let (config, sources) = layers(
            dir.path(),
            "judge:\n  model: null\n",
            "judge:\n  model: m\n",
        );
        assert_eq!(config.judge.model, None);
        assert_eq!(sources.get("judge.model"), Source::Repo);
    }

    #[test]
    fn missing_files_are_the_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let nowhere = dir.path().join("nope.yaml");
        let (config, sources) = load_files(Some(&nowhere), Some(&nowhere)).unwrap();
        assert_eq!(config, Config::default());
        assert_eq!(sources, Sources::default());
        assert_eq!(load_files(None, None).unwrap().0, Config::default());
    }

    #[test]
    fn a_bad_user_file_is_named_by_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let user = dir.path().join("user.yaml");
        fs::write(&user, "judge:\n  backend: gpt\n").unwrap();
        let message = load_files(None, Some(&user)).unwrap_err().to_string();
        assert!(
            message.starts_with(&format!(
                "{}:2: judge.backend: unknown backend",
                user.display()
            )),
            "{message}"
        );
        fs::write(&user, b"judge:\n  model: \xff\n").unwrap();
        let message = load_files(None, Some(&user)).unwrap_err().to_string();
        assert!(
            message
                .ends_with(":2: not valid UTF-8 (byte offset 16)\n  hint: save the file as UTF-8"),
            "{message}"
        );
    }

    #[test]
    fn a_write_goes_through_a_symlink_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("dotfiles").join("config.yaml");
        fs::create_dir_all(real.parent().unwrap()).unwrap();
        fs::write(&real, "judge:\n").unwrap();
        let link = dir.path().join("plan").join("config.yaml");
        fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write(&link, "config.yaml", "judge:\n  model: m\n").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "judge:\n  model: m\n");
        let names: Vec<_> = fs::read_dir(real.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["config.yaml"]);
        let fresh = dir.path().join("new").join(".plan").join("config.yaml");
        write(&fresh, "config.yaml", "x").unwrap();
        assert_eq!(fs::read_to_string(&fresh).unwrap(), "x");
    }

    #[test]
    fn an_unknown_key_names_its_line_and_a_likely_one() {
        insta::assert_snapshot!(err("judge:\n  backend: claude\n  timout_secs: 3\n"), @"
        .plan/config.yaml:3: judge.timout_secs: unknown key
            3 |   timout_secs: 3
          hint: judge takes backend, model, command, timeout_secs or panel; did you mean judge.timeout_secs?
        ");
        insta::assert_snapshot!(err("# shared settings\njduge:\n  model: x\n"), @"
        .plan/config.yaml:2: jduge: unknown key
            2 | jduge:
          hint: the sections are judge, verify, draft, reminder, inject, loop, claims, sign_off, gate or notify; did you mean judge?
        ");
        insta::assert_snapshot!(err("judge: {backend: claude, modle: x}\n"), @"
        .plan/config.yaml:1: judge.modle: unknown key
            1 | judge: {backend: claude, modle: x}
          hint: judge takes backend, model, command, timeout_secs or panel; did you mean judge.model?
        ");
    }

    #[test]
    fn a_wrong_type_names_the_key() {
        insta::assert_snapshot!(err("judge:\n  backend: claude\n  timeout_secs: soon\n"), @r#"
        .plan/config.yaml:3: judge.timeout_secs: expected a whole number, found "soon"
            3 |   timeout_secs: soon
          hint: remove the line to use the default, 600
        "#);
        insta::assert_snapshot!(err("loop:\n  budget: -1\n"), @"
        .plan/config.yaml:2: loop.budget: expected a whole number, found -1
            2 |   budget: -1
          hint: remove the line to use the default, 20
        ");
        let zero = err("loop:\n  goal_budget: 0\n");
        assert!(
            zero.starts_with(".plan/config.yaml:2: loop.goal_budget: expected a whole number from 1 or null, found 0"),
            "{zero}"
        );
        assert_eq!(ok("loop:\n  goal_budget: 3\n").loop_goal_budget, Some(3));
        assert_eq!(ok("loop:\n  goal_budget: null\n").loop_goal_budget, None);
        insta::assert_snapshot!(err("verify:\n  timeout_secs: 1.5\n"), @"
        .plan/config.yaml:2: verify.timeout_secs: expected a whole number, found 1.5
            2 |   timeout_secs: 1.5
          hint: remove the line to use the default, 900
        ");
        insta::assert_snapshot!(err("judge: 3\n"), @"
        .plan/config.yaml:1: judge: expected indented `key: value` lines
            1 | judge: 3
          hint: write `judge:` alone on its line and its keys indented under it: backend, model, command, timeout_secs or panel
        ");
        insta::assert_snapshot!(err("judge:\n  command: ./judge.sh --strict\n"), @r#"
        .plan/config.yaml:2: judge.command: expected a list of arguments, found "./judge.sh --strict" (write it as ["./judge.sh", "--strict"])
            2 |   command: ./judge.sh --strict
          hint: remove the line to use the default, none
        "#);
        insta::assert_snapshot!(err("judge:\n  command:\n    - ./judge.sh\n    - [x]\n"), @"
        .plan/config.yaml:4: judge.command: expected text
            4 |     - [x]
          hint: remove the line to use the default, none
        ");
        insta::assert_snapshot!(err("- judge\n"), @"
        .plan/config.yaml:1: expected indented `key: value` lines
            1 | - judge
          hint: a settings file is sections (`judge:`) with `key: value` lines indented under them; the sections are judge, verify, draft, reminder, inject, loop, claims, sign_off, gate or notify
        ");
    }

    #[test]
    fn a_bad_choice_lists_the_good_ones() {
        // The hosts come from the registry (one literal list: tests/cli/config.rs).
        let err = |text: &str| err(text).replace(&host_list(), "HOSTS");
        insta::assert_snapshot!(err("verify:\n  timeout_secs: 5\njudge:\n  backend: gpt\n"), @r#"
        .plan/config.yaml:4: judge.backend: unknown backend "gpt" (expected auto, HOSTS, llm, command or none)
            4 |   backend: gpt
          hint: remove the line to use the default, auto
        "#);
        insta::assert_snapshot!(err("judge: {backend: gpt}\n"), @r#"
        .plan/config.yaml:1: judge.backend: unknown backend "gpt" (expected auto, HOSTS, llm, command or none)
            1 | judge: {backend: gpt}
          hint: remove the line to use the default, auto
        "#);
        insta::assert_snapshot!(err("inject:\n  every_prompt: sometimes\n"), @r#"
        .plan/config.yaml:2: inject.every_prompt: unknown value "sometimes" (expected always, changed or never)
            2 |   every_prompt: sometimes
          hint: remove the line to use the default, changed
        "#);
        insta::assert_snapshot!(err("loop:\n  judge: maybe\n"), @r#"
        .plan/config.yaml:2: loop.judge: expected on or off, found "maybe"
            2 |   judge: maybe
          hint: remove the line to use the default, off
        "#);
    }

    #[test]
    fn bad_yaml_names_its_line() {
        insta::assert_snapshot!(err("judge:\n  model: x\n   backend: claude\n"), @"
        .plan/config.yaml:3: invalid YAML: mapping values are not allowed in this context
            3 |    backend: claude
          hint: a settings file is sections (`judge:`) with `key: value` lines indented under them
        ");
        insta::assert_snapshot!(err("judge: {model: x\n"), @"
        .plan/config.yaml:1: invalid YAML: unclosed bracket '{'
            1 | judge: {model: x
          hint: a settings file is sections (`judge:`) with `key: value` lines indented under them
        ");
        insta::assert_snapshot!(err("judge:\n  model: x\n  model: y\n"), @"
        .plan/config.yaml:3: judge.model: set more than once
            3 |   model: y
          hint: keep one `model:` line under `judge:`
        ");
        insta::assert_snapshot!(err("judge:\r\n\tmodel: x\r\n"), @"
        .plan/config.yaml:2: invalid YAML: tabs disallowed within this context (block indentation)
            2 | 	model: x
          hint: a settings file is sections (`judge:`) with `key: value` lines indented under them
        ");
    }

    /// The key a message names is the tree's own: under indentation, in flow
    /// mappings and when quoted.
    #[test]
    fn messages_name_the_key_from_the_tree() {
        let first = |text: &str| err(text).lines().next().unwrap().to_string();
        let text = "judge:\n  command:\n    - a\n    - [b]\n# c\nloop: {judge: x}\n";
        assert_eq!(
            first(text),
            ".plan/config.yaml:4: judge.command: expected text"
        );
        assert_eq!(
            first("# c\nloop: {judge: x}\n"),
            ".plan/config.yaml:2: loop.judge: expected on or off, found \"x\""
        );
        assert_eq!(
            first("\"judge\":\n  'model': [x]\n"),
            ".plan/config.yaml:2: judge.model: expected text"
        );
        assert_eq!(
            first("judge: {backend: claude, modle: x}\n"),
            ".plan/config.yaml:1: judge.modle: unknown key"
        );
    }

    /// The hosts as the messages list them, in `auto`'s order.
    fn host_list() -> String {
        let names: Vec<&str> = Host::ALL.iter().map(|h| h.name()).collect();
        names.join(", ")
    }

    #[test]
    fn names_read_as_lists() {
        assert_eq!(
            BackendChoice::names(),
            format!("auto, {}, llm, command or none", host_list())
        );
        for name in ["auto", "claude", "none", "command"] {
            assert_eq!(name.parse::<BackendChoice>().unwrap().to_string(), name);
        }
    }
}
