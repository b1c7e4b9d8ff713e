//! Settings: the repository's `.plan/config.yaml` over the user's
//! `~/.config/plan/config.yaml`, key by key, over built-in defaults. Read on hook
//! calls, so it only reads: a missing file costs one failed open, nothing is spawned
//! or cached. A bad file is an error naming the file, the line and the key.

pub mod edit;

use std::fmt;
#[cfg(test)]
use std::fs;
use std::io::ErrorKind;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::Result;
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use serde_saphyr::{ExternalMessageSource, MessageFormatter};

use crate::atomic;
use crate::exit::{Exit, USAGE};
use crate::judge::backend::Backend;
use crate::plan::diag::Diagnostic;

/// How messages name the repository's settings file, relative to the repository root.
pub const REPO_NAME: &str = ".plan/config.yaml";

/// Every section and key a settings file may hold, with the default as YAML, for
/// messages ("did you mean", "remove the line to use the default").
const SCHEMA: &[(&str, &[(&str, &str)])] = &[
    ("judge", JUDGE_KEYS),
    ("verify", &[("timeout_secs", "900")]),
    ("draft", MODEL_KEYS),
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
    ("sign_off", &[("stage", "on")]),
];

const MODEL_KEYS: &[(&str, &str)] = &[
    ("backend", "auto"),
    ("model", "null"),
    ("command", "[]"),
    ("timeout_secs", "600"),
];

/// The judge's keys: a model's, and `panel`.
const JUDGE_KEYS: &[(&str, &str)] = &[
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
        EveryPrompt::ALL
            .into_iter()
            .find(|e| e.as_str() == word)
            .ok_or_else(|| {
                let names: Vec<&str> = EveryPrompt::ALL.iter().map(|e| e.as_str()).collect();
                format!("unknown value \"{word}\" (expected {})", one_of(&names))
            })
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
        }
    }
}

/// Which file a value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Default,
    User,
    Repo,
}

/// Where each key's value came from, by dotted key (`judge.model`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sources {
    set: Vec<((&'static str, &'static str), Source)>,
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
    let mut layers = Vec::with_capacity(2);
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
        match (parse(&text, &name), notes.as_deref_mut()) {
            (Ok(raw), _) => layers.push((source, raw)),
            (Err(_), Some(notes)) => {
                let (raw, left_out) = parse_sections(&text, &name);
                notes.extend(left_out);
                layers.push((source, raw));
            }
            (Err(e), None) => return Err(e),
        }
    }
    Ok(resolve(&layers))
}

fn first_line(e: &anyhow::Error) -> String {
    format!("{e:#}")
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Each top-level section of `text` read on its own; the ones that do not read are
/// left out, each with a note.
fn parse_sections(text: &str, name: &str) -> (RawFile, Vec<String>) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let starts: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim_end();
            !t.is_empty() && !t.starts_with([' ', '\t', '#']) && t != "---" && t != "..."
        })
        .map(|(i, _)| i)
        .collect();
    let mut raw = RawFile::default();
    let mut notes = Vec::new();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(lines.len());
        // Blank lines in front keep the parser's line numbers those of the file.
        let chunk = "\n".repeat(start) + &lines[start..end].concat();
        let key = lines[start].split(':').next().unwrap_or_default().trim();
        match parse(&chunk, name) {
            Ok(part) => {
                raw.judge = raw.judge.or(part.judge);
                raw.verify = raw.verify.or(part.verify);
                raw.draft = raw.draft.or(part.draft);
                raw.reminder = raw.reminder.or(part.reminder);
                raw.inject = raw.inject.or(part.inject);
                raw.looping = raw.looping.or(part.looping);
                raw.notify = raw.notify.or(part.notify);
                raw.claims = raw.claims.or(part.claims);
            }
            Err(e) => notes.push(format!(
                "plan: {}; `{key}` left at its defaults",
                first_line(&e)
            )),
        }
    }
    (raw, notes)
}

/// One file's settings over the defaults; `name` is how errors name the file.
pub fn from_text(text: &str, name: &str) -> Result<Config> {
    let raw = parse(text, name)?;
    Ok(resolve(&[(Source::Repo, raw)]).0)
}

pub fn repo_file(repo_root: &Path) -> PathBuf {
    repo_root.join(".plan").join("config.yaml")
}

/// `$XDG_CONFIG_HOME/plan/config.yaml`, else `$HOME/.config/plan/config.yaml`;
/// `None` when neither is set. A relative XDG_CONFIG_HOME is ignored, as the XDG
/// spec asks.
pub fn user_file() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    let dir = match xdg {
        Some(dir) => dir,
        None => PathBuf::from(std::env::var_os("HOME").filter(|h| !h.is_empty())?).join(".config"),
    };
    Some(dir.join("plan").join("config.yaml"))
}

/// How messages name a settings file: the user's home directory as `~`.
pub fn display_path(path: &Path) -> String {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty());
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

fn parse(text: &str, name: &str) -> Result<RawFile> {
    // `Option`: a file of only comments, `---` or `null` is an empty one.
    let raw = serde_saphyr::from_str::<Option<RawFile>>(text)
        .map(Option::unwrap_or_default)
        .map_err(|e| describe(&e, text, name))?;
    check_panel(&raw, text, name)?;
    check_notify(&raw, text, name)?;
    Ok(raw)
}

/// Layers highest first: each key takes its value from the first layer setting it.
struct Resolver<'a> {
    layers: &'a [(Source, RawFile)],
    sources: Sources,
}

impl Resolver<'_> {
    fn get<T>(
        &mut self,
        key: (&'static str, &'static str),
        get: impl Fn(&RawFile) -> Option<T>,
    ) -> Option<T> {
        self.layers.iter().find_map(|(source, raw)| {
            let value = get(raw)?;
            self.sources.set.push((key, *source));
            Some(value)
        })
    }

    fn model(
        &mut self,
        section: &'static str,
        get: impl Fn(&RawFile) -> Option<&RawModel>,
    ) -> ModelConfig {
        let d = ModelConfig::default();
        ModelConfig {
            backend: self
                .get((section, "backend"), |r| get(r)?.backend)
                .unwrap_or(d.backend),
            model: self
                .get((section, "model"), |r| get(r)?.model.clone())
                .unwrap_or(d.model),
            command: self
                .get((section, "command"), |r| Some(get(r)?.command.clone()?.0))
                .unwrap_or(d.command),
            timeout_secs: self
                .get((section, "timeout_secs"), |r| Some(get(r)?.timeout_secs?.0))
                .unwrap_or(d.timeout_secs),
            panel: Vec::new(),
        }
    }
}

impl Resolver<'_> {
    /// `judge.panel` and `judge.backend` are one choice: the highest file that sets
    /// either decides, so a repository's `backend:` is not outvoted by a user's panel.
    fn panel(&mut self) -> Vec<PanelJudge> {
        let decides = self.layers.iter().find(|(_, raw)| {
            raw.judge
                .as_ref()
                .is_some_and(|j| j.backend.is_some() || j.panel.is_some())
        });
        let Some((source, raw)) = decides else {
            return Vec::new();
        };
        let Some(panel) = raw.judge.as_ref().and_then(|j| j.panel.as_ref()) else {
            return Vec::new();
        };
        self.sources.set.push((("judge", "panel"), *source));
        panel.0.clone()
    }
}

fn resolve(layers: &[(Source, RawFile)]) -> (Config, Sources) {
    let mut r = Resolver {
        layers,
        sources: Sources::default(),
    };
    let d = Config::default();
    let mut judge = r.model("judge", |f| f.judge.as_ref());
    judge.panel = r.panel();
    let config = Config {
        judge,
        verify_timeout_secs: r
            .get(("verify", "timeout_secs"), |f| {
                Some(f.verify.as_ref()?.timeout_secs?.0)
            })
            .unwrap_or(d.verify_timeout_secs),
        draft: r.model("draft", |f| f.draft.as_ref()),
        reminder_every_file_edits: r
            .get(("reminder", "every_file_edits"), |f| {
                Some(f.reminder.as_ref()?.every_file_edits?.0)
            })
            .unwrap_or(d.reminder_every_file_edits),
        inject_every_prompt: r
            .get(("inject", "every_prompt"), |f| {
                f.inject.as_ref()?.every_prompt
            })
            .unwrap_or(d.inject_every_prompt),
        loop_budget: r
            .get(("loop", "budget"), |f| Some(f.looping.as_ref()?.budget?.0))
            .unwrap_or(d.loop_budget),
        loop_stall_limit: r
            .get(("loop", "stall_limit"), |f| {
                Some(f.looping.as_ref()?.stall_limit?.0)
            })
            .unwrap_or(d.loop_stall_limit),
        loop_judge: r
            .get(("loop", "judge"), |f| Some(f.looping.as_ref()?.judge?.0))
            .unwrap_or(d.loop_judge),
        loop_goal_budget: r
            .get(("loop", "goal_budget"), |f| {
                Some(
                    f.looping
                        .as_ref()?
                        .goal_budget
                        .as_ref()?
                        .as_ref()
                        .map(|b| b.0),
                )
            })
            .unwrap_or(d.loop_goal_budget),
        loop_token_budget: r
            .get(("loop", "token_budget"), |f| {
                Some(f.looping.as_ref()?.token_budget?.map(|n| n.0))
            })
            .unwrap_or(d.loop_token_budget),
        loop_time_budget: r
            .get(("loop", "time_budget"), |f| {
                Some(f.looping.as_ref()?.time_budget?.map(|d| d.0))
            })
            .unwrap_or(d.loop_time_budget),
        claims_lease_minutes: r
            .get(("claims", "lease_minutes"), |f| {
                Some(f.claims.as_ref()?.lease_minutes?.0)
            })
            .unwrap_or(d.claims_lease_minutes),
        claims_remote: r
            .get(("claims", "remote"), |f| f.claims.as_ref()?.remote.clone())
            .unwrap_or(d.claims_remote),
        sign_off_stage: r
            .get(("sign_off", "stage"), |f| {
                Some(f.sign_off.as_ref()?.stage?.0)
            })
            .unwrap_or(d.sign_off_stage),
        // Both files' commands run: a team's webhook and a person's desktop popup.
        notify: layers
            .iter()
            .flat_map(|(_, raw)| raw.notify.iter().flatten())
            .map(|n| NotifyRule {
                events: n.events.as_ref().map(|e| e.0.clone()).unwrap_or_default(),
                command: n.command.0.clone(),
                timeout_secs: n.timeout_secs.map_or(NOTIFY_TIMEOUT_SECS, |t| t.0),
                report: n.report,
            })
            .collect(),
    };
    (config, r.sources)
}

/// One file as written: `None` is "not set here".
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    judge: Option<RawModel>,
    verify: Option<RawVerify>,
    draft: Option<RawModel>,
    reminder: Option<RawReminder>,
    inject: Option<RawInject>,
    #[serde(rename = "loop")]
    looping: Option<RawLoop>,
    notify: Option<Vec<RawNotify>>,
    claims: Option<RawClaims>,
    sign_off: Option<RawSignOff>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSignOff {
    stage: Option<OnOff>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClaims {
    lease_minutes: Option<Whole<u32>>,
    /// `Some(None)`: an explicit `remote: null`, over a lower file's remote.
    #[serde(default, deserialize_with = "explicit_model")]
    remote: Option<Option<String>>,
}

/// One `notify:` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNotify {
    /// `None` only with `report` (checked in [`check_notify`]).
    events: Option<EventNames>,
    command: Command,
    timeout_secs: Option<Whole<u64>>,
    report: Option<ReportForm>,
}

/// What a `notify:` entry with `report:` gets on stdin when a work loop ends:
/// `plan report` in that form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReportForm {
    Text,
    Markdown,
    Json,
}

/// What serde cannot say of a notify entry: it runs on `events`, or with the
/// report when a loop ends (`report`), one or the other.
fn check_notify(raw: &RawFile, text: &str, name: &str) -> Result<()> {
    for (i, entry) in raw.notify.iter().flatten().enumerate() {
        let problem = match (&entry.events, entry.report) {
            (Some(_), Some(_)) => (
                "notify: an entry has both `events` and `report`",
                "an entry with `report:` runs once when a work loop ends, with the report on stdin; leave out its `events:`, or make it two entries",
            ),
            (None, None) => (
                "notify: an entry has neither `events` nor `report`",
                "give it `events: [signed_off, loop_let_go]` (the events it runs on), or `report: markdown` (runs when a work loop ends, with the report on stdin)",
            ),
            _ => continue,
        };
        let line = notify_entry_line(text, i);
        let source = text.lines().nth(line.wrapping_sub(1));
        return Err(Exit::diagnostics(
            USAGE,
            Diagnostic::error(line, problem.0)
                .hint(problem.1)
                .render(name, source.map(|l| l.trim_start_matches('\u{feff}'))),
        ));
    }
    Ok(())
}

/// The 1-based line where the `index`th entry under `notify:` starts (`- `), or of
/// `notify:` itself when it is not found.
fn notify_entry_line(text: &str, index: usize) -> usize {
    let mut section = 0;
    let mut seen = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_start_matches('\u{feff}');
        if line.trim_start().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if indent_of(line) == 0 {
            if section > 0 {
                break;
            }
            if line.split(':').next() == Some("notify") {
                section = i + 1;
            }
            continue;
        }
        if section > 0 && line.trim_start().starts_with("- ") {
            if seen == index {
                return i + 1;
            }
            seen += 1;
        }
    }
    section
}

/// A list of event names, each one plan has.
#[derive(Clone, Debug)]
struct EventNames(Vec<String>);

impl<'de> Deserialize<'de> for EventNames {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let names = Vec::<String>::deserialize(d)?;
        if names.is_empty() {
            return Err(de::Error::custom("expected at least one event name"));
        }
        let known: Vec<&str> = notify_event_names().collect();
        for name in &names {
            if !known.contains(&name.as_str()) {
                return Err(de::Error::custom(format!(
                    "unknown event \"{name}\" (expected {}){}",
                    one_of(&known),
                    did_you_mean(name, &known, "")
                )));
            }
        }
        Ok(EventNames(names))
    }
}

/// An argv list that names a program.
#[derive(Clone, Debug)]
struct Command(Vec<String>);

impl<'de> Deserialize<'de> for Command {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let Argv(argv) = Argv::deserialize(d)?;
        match argv.first() {
            Some(program) if !program.is_empty() => Ok(Command(argv)),
            _ => Err(de::Error::custom(
                "expected a command: a list whose first item is the program",
            )),
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawModel {
    backend: Option<BackendChoice>,
    /// `Some(None)`: an explicit `model: null`, which overrides a lower file's model.
    #[serde(default, deserialize_with = "explicit_model")]
    model: Option<Option<String>>,
    command: Option<Argv>,
    timeout_secs: Option<Whole<u64>>,
    /// `judge.panel` only; a `draft.panel` is refused after parsing.
    panel: Option<Panel>,
}

/// `judge.panel`: two or more judges, or `[]` for none.
#[derive(Clone, Debug)]
struct Panel(Vec<PanelJudge>);

impl<'de> Deserialize<'de> for Panel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let judges = Vec::<RawPanelJudge>::deserialize(d)?;
        if judges.len() == 1 {
            return Err(de::Error::custom(
                "a panel needs two or more judges, found one (for one judge, set judge.backend instead)",
            ));
        }
        Ok(Panel(
            judges
                .into_iter()
                .map(|j| PanelJudge {
                    backend: j.backend.0,
                    model: j.model.flatten(),
                    command: j.command.map(|c| c.0).unwrap_or_default(),
                })
                .collect(),
        ))
    }
}

/// One entry of `judge.panel` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPanelJudge {
    backend: PanelBackend,
    #[serde(default, deserialize_with = "explicit_model")]
    model: Option<Option<String>>,
    command: Option<Command>,
}

/// A panel judge's backend: a judge by name; `auto` and `none` are no judge of
/// their own.
#[derive(Debug)]
struct PanelBackend(Backend);

impl<'de> Deserialize<'de> for PanelBackend {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match String::deserialize(d)?.parse::<BackendChoice>() {
            Ok(BackendChoice::Fixed(Backend::None)) | Ok(BackendChoice::Auto) => {
                Err(de::Error::custom(
                    "a panel judge names its backend: auto and none are not judges here",
                ))
            }
            Ok(BackendChoice::Fixed(backend)) => Ok(PanelBackend(backend)),
            Err(e) => Err(de::Error::custom(e)),
        }
    }
}

/// What serde cannot say of a panel: it replaces `judge.backend` (both in one file
/// is a contradiction), it is the judge's only, and a `command` judge needs its argv.
fn check_panel(raw: &RawFile, text: &str, name: &str) -> Result<()> {
    let error = |path: &[&str], message: &str, hint: &str| {
        let line = line_of(text, path);
        let source = text.lines().nth(line.wrapping_sub(1));
        Exit::diagnostics(
            USAGE,
            Diagnostic::error(line, message)
                .hint(hint)
                .render(name, source.map(|l| l.trim_start_matches('\u{feff}'))),
        )
    };
    if raw.draft.as_ref().is_some_and(|d| d.panel.is_some()) {
        return Err(error(
            &["draft", "panel"],
            "draft.panel: unknown key",
            "a panel is for the sign-off judge only: write it under `judge:`",
        ));
    }
    let Some(judge) = &raw.judge else {
        return Ok(());
    };
    let Some(panel) = judge.panel.as_ref().filter(|p| !p.0.is_empty()) else {
        return Ok(());
    };
    if judge.backend.is_some() {
        return Err(error(
            &["judge", "panel"],
            "judge.panel: set together with judge.backend in the same file",
            "a panel replaces judge.backend: remove the `backend:` line under `judge:`, or the panel",
        ));
    }
    if panel
        .0
        .iter()
        .any(|j| j.backend == Backend::Command && j.command.is_empty())
    {
        return Err(error(
            &["judge", "panel"],
            "judge.panel: a judge with backend command has no command",
            "give it its argv: `- backend: command` with `command: [\"./judge.sh\"]` under it",
        ));
    }
    Ok(())
}

/// The 1-based line of `section:` `key:` (indented under it), or of the section
/// when the key is not found; 0 when neither is.
fn line_of(text: &str, path: &[&str]) -> usize {
    let mut in_section = false;
    let mut section_line = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_start_matches('\u{feff}');
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if indent_of(line) == 0 {
            in_section = line.split(':').next() == Some(path[0]);
            if in_section {
                section_line = i + 1;
            }
            continue;
        }
        if in_section && path.len() > 1 && trimmed.split(':').next() == Some(path[1]) {
            return i + 1;
        }
    }
    section_line
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVerify {
    timeout_secs: Option<Whole<u64>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReminder {
    every_file_edits: Option<Whole<u32>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInject {
    every_prompt: Option<EveryPrompt>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLoop {
    budget: Option<Whole<u32>>,
    stall_limit: Option<Whole<u32>>,
    judge: Option<OnOff>,
    /// `Some(None)`: an explicit `goal_budget: null`, over a lower file's budget.
    #[serde(default, deserialize_with = "explicit_budget")]
    goal_budget: Option<Option<Whole<u32>>>,
    /// `Some(None)`: an explicit `null`, over a lower file's budget.
    #[serde(default, deserialize_with = "explicit")]
    token_budget: Option<Option<Whole<u64>>>,
    #[serde(default, deserialize_with = "explicit")]
    time_budget: Option<Option<Duration>>,
}

/// A per-goal budget: a whole number from 1, or null for none.
fn explicit_budget<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Option<Whole<u32>>>, D::Error> {
    match Option::<Whole<u32>>::deserialize(d)? {
        Some(Whole(0)) => Err(de::Error::custom(
            "expected a whole number from 1 or null, found 0 (0 continuations would never continue)",
        )),
        budget => Ok(Some(budget)),
    }
}

/// A key whose `null` is a value of its own (no limit), not an absent key.
fn explicit<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// A wall-time duration in seconds, written `90m`, `8h`, `1h30m`
/// ([`crate::loop_budget::parse_duration`]).
#[derive(Clone, Copy, Debug)]
struct Duration(u64);

impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Duration;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a duration such as 90m or 8h")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Duration, E> {
                crate::loop_budget::parse_duration(s)
                    .map(Duration)
                    .map_err(E::custom)
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Duration, E> {
                Err(E::custom(format!(
                    "expected a duration such as 90m or 8h, found {n} (write its unit: {n}m, {n}h)"
                )))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Duration, E> {
                Err(E::custom(format!(
                    "expected a duration such as 90m or 8h, found {n}"
                )))
            }
        }
        d.deserialize_any(V)
    }
}

fn explicit_model<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    let model = Option::<String>::deserialize(d)?;
    Ok(Some(
        model
            .map(|m| m.trim().to_string())
            .filter(|m| !m.is_empty()),
    ))
}

impl<'de> Deserialize<'de> for BackendChoice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?.parse().map_err(de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for EveryPrompt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?.parse().map_err(de::Error::custom)
    }
}

/// A count or a number of seconds: a whole number, not negative. A quoted number is
/// taken; anything else is an error that shows what was found.
#[derive(Clone, Copy, Debug)]
struct Whole<T>(T);

impl<'de, T: TryFrom<u64>> Deserialize<'de> for Whole<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<T: TryFrom<u64>> V<T> {
            fn fit<E: de::Error>(n: u64) -> Result<Whole<T>, E> {
                T::try_from(n)
                    .map(Whole)
                    .map_err(|_| E::custom(format!("{n} is too large")))
            }
        }
        impl<T: TryFrom<u64>> Visitor<'_> for V<T> {
            type Value = Whole<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a whole number")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Whole<T>, E> {
                V::fit(n)
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Whole<T>, E> {
                match u64::try_from(n) {
                    Ok(n) => V::fit(n),
                    Err(_) => Err(E::custom(format!("expected a whole number, found {n}"))),
                }
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Whole<T>, E> {
                Err(E::custom(format!("expected a whole number, found {n}")))
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Whole<T>, E> {
                Err(E::custom(format!("expected a whole number, found {b}")))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Whole<T>, E> {
                match s.trim().parse::<u64>() {
                    Ok(n) => V::fit(n),
                    Err(_) => Err(E::custom(format!("expected a whole number, found \"{s}\""))),
                }
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

/// `on`/`off`, also `true`/`false`.
#[derive(Clone, Copy, Debug)]
struct OnOff(bool);

impl<'de> Deserialize<'de> for OnOff {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = OnOff;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("on or off")
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<OnOff, E> {
                Ok(OnOff(b))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<OnOff, E> {
                match s {
                    "on" | "true" => Ok(OnOff(true)),
                    "off" | "false" => Ok(OnOff(false)),
                    _ => Err(E::custom(format!("expected on or off, found \"{s}\""))),
                }
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<OnOff, E> {
                Err(E::custom(format!("expected on or off, found {n}")))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<OnOff, E> {
                Err(E::custom(format!("expected on or off, found {n}")))
            }
        }
        d.deserialize_any(V)
    }
}

/// An argv list. A bare string is refused rather than split: splitting would need
/// shell rules, and the judge's argv is never given to a shell.
#[derive(Clone, Debug)]
struct Argv(Vec<String>);

impl<'de> Deserialize<'de> for Argv {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Argv;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of arguments")
            }
            fn visit_seq<S: de::SeqAccess<'de>>(self, mut seq: S) -> Result<Argv, S::Error> {
                let mut argv = Vec::new();
                while let Some(arg) = seq.next_element::<String>()? {
                    argv.push(arg);
                }
                Ok(Argv(argv))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Argv, E> {
                Err(E::custom(format!(
                    "expected a list of arguments, found \"{s}\" (write it as [\"{}\"])",
                    s.split_whitespace().collect::<Vec<_>>().join("\", \"")
                )))
            }
            fn visit_map<M: de::MapAccess<'de>>(self, _: M) -> Result<Argv, M::Error> {
                Err(de::Error::custom(
                    "expected a list of arguments, found a mapping",
                ))
            }
        }
        d.deserialize_any(V)
    }
}

/// A saphyr error as `file:line: section.key: what`, the line, and a hint. The key
/// comes from the text around the error's line: saphyr knows where, not which key.
fn describe(err: &serde_saphyr::Error, text: &str, name: &str) -> anyhow::Error {
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
    let column = err.location().map_or(0, |l| l.column() as usize);
    let source_line = text.lines().nth(line.wrapping_sub(1));
    let syntax = matches!(
        inner,
        serde_saphyr::Error::ExternalMessage { source, .. }
            if matches!(**source, ExternalMessageSource::Parser(_))
    );
    let diagnostic = if syntax {
        Diagnostic::error(line, format!("invalid YAML: {message}")).hint(SHAPE_HINT)
    } else {
        let mut path = source_line.map_or_else(Vec::new, |_| key_path(text, line, column));
        // In a flow mapping saphyr may point at the mapping rather than at the key;
        // serde's wording names the key.
        let unknown = message
            .strip_prefix("unknown field `")
            .and_then(|m| m.split_once('`'))
            .map(|(key, _)| key.to_string());
        if let Some(unknown) = unknown
            && path.last() != Some(&unknown)
        {
            path.truncate(usize::from(path.first().is_some_and(|s| is_section(s))));
            path.push(unknown);
        }
        explain(line, &path, &message)
    };
    Exit::diagnostics(
        USAGE,
        diagnostic.render(name, source_line.map(|l| l.trim_start_matches('\u{feff}'))),
    )
}

const SHAPE_HINT: &str =
    "a settings file is sections (`judge:`) with `key: value` lines indented under them";

/// `notify:` is a list, not a section of keys, so it has its own words.
const NOTIFY_KEYS: [&str; 4] = ["events", "command", "timeout_secs", "report"];
const NOTIFY_HINT: &str = "notify is a list of entries like `- events: [signed_off, loop_let_go]` with `command: [\"notify-send\", \"plan\"]` under it (and optionally `timeout_secs: 5`); `report: markdown` (or text, json) in place of `events` runs it when a work loop ends, with the report on stdin";

fn explain(line: usize, path: &[String], message: &str) -> Diagnostic {
    let mut sections: Vec<&str> = SCHEMA.iter().map(|(s, _)| *s).collect();
    sections.push("notify");
    if path.first().is_some_and(|s| s == "notify") {
        let key = path.get(1).map(String::as_str);
        if let Some(key) = key.filter(|k| !NOTIFY_KEYS.contains(k)) {
            return Diagnostic::error(line, format!("notify.{key}: unknown key")).hint(format!(
                "a notify entry takes {}{}",
                one_of(&NOTIFY_KEYS),
                did_you_mean(key, &NOTIFY_KEYS, "")
            ));
        }
        let place = key.map_or_else(|| "notify".to_string(), |k| format!("notify.{k}"));
        return Diagnostic::error(line, format!("{place}: {}", reword(message))).hint(NOTIFY_HINT);
    }
    let Some(section) = path.first() else {
        return Diagnostic::error(line, reword(message)).hint(format!(
            "{SHAPE_HINT}; the sections are {}",
            one_of(&sections)
        ));
    };
    let Some((_, keys)) = SCHEMA.iter().find(|(s, _)| s == section) else {
        return Diagnostic::error(line, format!("{section}: unknown key")).hint(format!(
            "the sections are {}{}",
            one_of(&sections),
            did_you_mean(section, &sections, "")
        ));
    };
    let names: Vec<&str> = keys.iter().map(|(k, _)| *k).collect();
    let Some(key) = path.get(1) else {
        return Diagnostic::error(line, format!("{section}: {}", reword(message))).hint(format!(
            "write `{section}:` alone on its line and its keys indented under it: {}",
            one_of(&names)
        ));
    };
    let Some((_, default)) = keys.iter().find(|(k, _)| k == key) else {
        return Diagnostic::error(line, format!("{section}.{key}: unknown key")).hint(format!(
            "{section} takes {}{}",
            one_of(&names),
            did_you_mean(key, &names, &format!("{section}."))
        ));
    };
    if message.starts_with("duplicate mapping key") {
        return Diagnostic::error(line, format!("{section}.{key}: set more than once"))
            .hint(format!("keep one `{key}:` line under `{section}:`"));
    }
    Diagnostic::error(line, format!("{section}.{key}: {}", reword(message)))
        .hint(format!("remove the line to use the default, {default}"))
}

fn is_section(name: &str) -> bool {
    name == "notify" || SCHEMA.iter().any(|(s, _)| *s == name)
}

/// saphyr's own words for a wrong shape, in ours.
fn reword(message: &str) -> String {
    let ours = match message {
        "expected mapping start" => "expected indented `key: value` lines",
        "expected string scalar" => "expected text",
        "expected sequence start" => "expected a list",
        m if m.starts_with("duplicate mapping key") => "set more than once",
        m => m,
    };
    ours.to_string()
}

/// "; did you mean judge.model?", or nothing: the one "did you mean" of plan.
fn did_you_mean(word: &str, names: &[&str], prefix: &str) -> String {
    crate::plan::nearest::did_you_mean(word, names.iter().copied(), prefix)
        .map_or(String::new(), |hint| format!("; {hint}"))
}

/// The keys leading to `column` of `line` (both 1-based): the keys written on that
/// line before the column, under the keys of the less indented lines above it.
fn key_path(text: &str, line: usize, column: usize) -> Vec<String> {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim_start_matches('\u{feff}'))
        .collect();
    let Some(here) = lines.get(line.wrapping_sub(1)) else {
        return Vec::new();
    };
    // Within the line, a key nests in the one before it only if it is deeper in
    // the flow mapping; a sibling replaces it.
    let mut nested: Vec<(usize, String)> = Vec::new();
    for key in keys_on_line(here) {
        if key.column >= column.max(1) {
            break;
        }
        nested.retain(|(depth, _)| *depth < key.depth);
        nested.push((key.depth, key.name));
    }
    let mut path: Vec<String> = nested.into_iter().map(|(_, name)| name).collect();
    let mut indent = indent_of(here);
    for above in lines[..line - 1].iter().rev() {
        if indent == 0 {
            break;
        }
        let trimmed = above.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || indent_of(above) >= indent {
            continue;
        }
        match keys_on_line(above).into_iter().next() {
            Some(key) if key.column == indent_of(above) => path.insert(0, key.name),
            _ => {}
        }
        indent = indent_of(above);
    }
    path
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// A `key:` written on a line.
#[derive(Debug, PartialEq, Eq)]
struct Key {
    /// 0-based, in chars.
    column: usize,
    /// How many flow collections (`{`, `[`) are open where it starts.
    depth: usize,
    name: String,
}

/// The `key:` tokens of a line: at the line's start after the indentation, and after
/// `{` or `,` in a flow mapping.
fn keys_on_line(line: &str) -> Vec<Key> {
    let chars: Vec<char> = line.chars().collect();
    let mut keys = Vec::new();
    let mut i = 0;
    let mut depth = 0usize;
    let mut key_may_start = true;
    while i < chars.len() {
        let c = chars[i];
        if c == ' ' {
            i += 1;
            continue;
        }
        if c == '#' && (i == 0 || chars[i - 1] == ' ') {
            break;
        }
        if key_may_start {
            key_may_start = false;
            let start = i;
            let name = match c {
                '"' | '\'' => {
                    let close = chars[i + 1..].iter().position(|&q| q == c);
                    let Some(close) = close else { break };
                    let name: String = chars[i + 1..i + 1 + close].iter().collect();
                    i += close + 2;
                    name
                }
                _ => {
                    let end = chars[i..]
                        .iter()
                        .position(|&k| matches!(k, ':' | ',' | '{' | '}' | '[' | ']' | '#' | ' '))
                        .map_or(chars.len(), |p| i + p);
                    let name: String = chars[i..end].iter().collect();
                    i = end;
                    name
                }
            };
            let mut j = i;
            while chars.get(j) == Some(&' ') {
                j += 1;
            }
            if !name.is_empty()
                && chars.get(j) == Some(&':')
                && chars.get(j + 1).is_none_or(|&n| n == ' ')
            {
                keys.push(Key {
                    column: start,
                    depth,
                    name,
                });
                i = j + 1;
            }
            continue;
        }
        match c {
            '{' | '[' => {
                depth += 1;
                key_may_start = c == '{';
            }
            '}' | ']' => depth = depth.saturating_sub(1),
            ',' => key_may_start = true,
            '"' | '\'' => {
                i += chars[i + 1..]
                    .iter()
                    .position(|&q| q == c)
                    .map_or(chars.len(), |p| p + 1);
            }
            _ => {}
        }
        i += 1;
    }
    keys
}

/// "a, b or c".
fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
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

/// Every event name a rule may choose: plan's log events, then the loop's.
pub fn notify_event_names() -> impl Iterator<Item = &'static str> {
    crate::plan::event::Event::NAMES
        .into_iter()
        .chain(crate::loop_budget::LoopEvent::NAMES)
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
        let raw = parse(&yaml, REPO_NAME).unwrap();
        let (config, sources) = resolve(&[(Source::Repo, raw)]);
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
                claims_lease_minutes: 60,
                claims_remote: None,
                notify: config.notify.clone(),
                sign_off_stage: true,
            }
        );
    }

    #[test]
    fn a_notify_entry_names_known_events_and_a_program() {
        let err = |text: &str| format!("{:#}", from_text(text, REPO_NAME).unwrap_err());
        let e = err("notify:\n  - events: [signed_of]\n    command: [x]\n");
        assert!(e.contains(".plan/config.yaml:2:"), "{e}");
        assert!(e.contains("unknown event \"signed_of\""), "{e}");
        assert!(e.contains("did you mean signed_off?"), "{e}");
        let e = err("notify:\n  - events: [signed_off]\n    command: []\n");
        assert!(e.contains("expected a command"), "{e}");
        let e = err("notify:\n  - events: [signed_off]\n    command: notify-send plan\n");
        assert!(e.contains("[\"notify-send\", \"plan\"]"), "{e}");
        let e = err("notify:\n  - events: [signed_off]\n    comand: [x]\n");
        assert!(e.contains("comand"), "{e}");
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
        assert!(
            notes
                .iter()
                .any(|n| n.contains("`notify` left at its defaults")),
            "{notes:?}"
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
        assert!(
            err("draft:\n  panel:\n    - backend: claude\n    - backend: codex\n")
                .contains(".plan/config.yaml:2: draft.panel: unknown key")
        );
        assert!(
            err("judge:\n  panel:\n    - backend: command\n    - backend: claude\n").contains(
                ".plan/config.yaml:2: judge.panel: a judge with backend command has no command"
            )
        );
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
        assert!(
            notes[0].contains(":3:") && notes[0].contains("`judge` left at its defaults"),
            "{notes:?}"
        );
        assert!(
            notes[1].contains(":7:") && notes[1].contains("`loop`"),
            "{notes:?}"
        );
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
          hint: the sections are judge, verify, draft, reminder, inject, loop, claims, sign_off or notify; did you mean judge?
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
          hint: remove the line to use the default, []
        "#);
        insta::assert_snapshot!(err("judge:\n  command:\n    - ./judge.sh\n    - [x]\n"), @"
        .plan/config.yaml:4: judge.command: expected text
            4 |     - [x]
          hint: remove the line to use the default, []
        ");
        insta::assert_snapshot!(err("- judge\n"), @"
        .plan/config.yaml:1: expected indented `key: value` lines
            1 | - judge
          hint: a settings file is sections (`judge:`) with `key: value` lines indented under them; the sections are judge, verify, draft, reminder, inject, loop, claims, sign_off or notify
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

    #[test]
    fn key_paths_follow_indentation_and_flow_mappings() {
        let text = "judge:\n  command:\n    - a\n    - [b]\n# c\nloop: {judge: x}\n";
        assert_eq!(key_path(text, 1, 1), ["judge"]);
        assert_eq!(key_path(text, 2, 3), ["judge", "command"]);
        assert_eq!(key_path(text, 4, 7), ["judge", "command"]);
        assert_eq!(key_path(text, 6, 15), ["loop", "judge"]);
        assert_eq!(key_path(text, 6, 1), ["loop"]);
        assert_eq!(key_path(text, 5, 1), Vec::<String>::new());
        assert_eq!(
            key_path("\"judge\":\n  'model': x\n", 2, 12),
            ["judge", "model"]
        );
        assert_eq!(
            keys_on_line("  a: 'x: y' # b: c"),
            [Key {
                column: 2,
                depth: 0,
                name: "a".into()
            }]
        );
        let line = "judge: {backend: claude, modle: x}";
        assert_eq!(key_path(line, 1, 26), ["judge", "modle"]);
        assert_eq!(key_path(line, 1, 18), ["judge", "backend"]);
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
