//! The registry of hosts: every coding agent plan works inside, one module each.
//! A host's module declares everything plan knows about it (its events, how its
//! answers are written, where its registration lives, its next steps, its
//! fresh-context command, its read-only headless judge); the rest of plan asks
//! the registry and never names a host itself.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::exit::Exit;
use invocation::{Format, Invocation, Request};
use protocol::{Answer, Kind};

pub mod backend;
pub mod invocation;
pub mod protocol;
pub mod usage;

/// Declares the hosts, one line each: the variant (its doc is `--help`'s), the
/// module whose `HOST` declares it, and its place in the order `judge.backend: auto`
/// tries hosts in. The line's order is the order `--help` lists them in.
macro_rules! hosts {
    ($($(#[doc = $doc:literal])* $variant:ident => $module:ident, auto $rank:literal;)*) => {
        $(pub mod $module;)*

        /// The hosts, as `plan install HOST`, `plan hook HOST …` and `--judge HOST` name them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
        pub enum Host {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Host {
            /// Every host, in the order `judge.backend: auto` tries them.
            pub const ALL: [Host; [$(Host::$variant),*].len()] =
                by_rank([$((Host::$variant, $rank)),*]);

            /// The host's declaration.
            pub fn spec(self) -> &'static Spec {
                match self {
                    $(Host::$variant => &$module::HOST,)*
                }
            }
        }
    };
}

hosts! {
    /// Claude Code
    Claude => claude, auto 0;
    /// OpenAI Codex CLI
    Codex => codex, auto 1;
    /// GitHub Copilot CLI
    Copilot => copilot, auto 6;
    /// Factory Droid
    Droid => droid, auto 4;
    /// Gemini CLI
    Gemini => gemini, auto 3;
    /// OpenCode (Kilo Code loads the same plugin)
    Opencode => opencode, auto 5;
    /// The pi coding agent
    Pi => pi, auto 2;
    /// Qwen Code
    Qwen => qwen, auto 7;
}

/// The hosts ordered by their `auto` rank, each rank `0..N` used once (checked at
/// compile time: a duplicate or missing rank fails the build).
const fn by_rank<const N: usize>(ranked: [(Host, usize); N]) -> [Host; N] {
    let mut all = [ranked[0].0; N];
    let mut seen = [false; N];
    let mut i = 0;
    while i < N {
        let (host, rank) = ranked[i];
        assert!(
            rank < N && !seen[rank],
            "each host needs its own auto rank in 0..N"
        );
        seen[rank] = true;
        all[rank] = host;
        i += 1;
    }
    all
}

impl Host {
    /// As in `plan hook HOST EVENT`.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// As people call it.
    pub fn title(self) -> &'static str {
        self.spec().title
    }

    /// The hooks plan registers in the host's settings; none for a host that gets a
    /// file of plan's own (pi's extension), which calls `plan hook` itself.
    pub fn hooks(self) -> &'static [Event] {
        match self.spec().registration {
            Registration::Settings(_) => self.spec().events,
            Registration::File { .. } => &[],
        }
    }

    /// The event `slug` (as in `plan hook HOST SLUG`).
    pub fn event(self, slug: &str) -> Option<&'static Event> {
        self.spec().events.iter().find(|e| e.slug == slug)
    }

    /// The host's event slugs, for error messages.
    pub fn events(self) -> String {
        let slugs: Vec<&str> = self.spec().events.iter().map(|e| e.slug).collect();
        slugs.join(", ")
    }
}

/// Everything plan knows about one host.
pub struct Spec {
    pub name: &'static str,
    pub title: &'static str,
    /// The events plan answers, in the order they are registered.
    pub events: &'static [Event],
    /// The host's stdout and stderr for an answer to `event` (the host's own name).
    pub render: fn(kind: Kind, event: &str, answer: &Answer) -> (String, String),
    pub registration: Registration,
    /// What the person still has to do after `plan install` (trust steps, restarts).
    /// `root` is the repository for a project registration, `None` for `--global`.
    pub next_steps: fn(root: Option<&Path>) -> Result<String>,
    /// A trust step the host still needs before it runs plan's hooks, when one is
    /// pending and can be seen from outside the host (`plan install --check`).
    /// `root` as for `next_steps`.
    pub trust_pending: fn(root: Option<&Path>) -> Option<String>,
    /// The host's command for a fresh context, in which plan injects again.
    pub fresh_context: &'static str,
    /// The compaction event may answer with the plan's skeleton, for the host's
    /// summariser to keep (pi); elsewhere that event cannot add context.
    pub skeleton_at_compaction: bool,
    /// Tools that write files whose names say nothing of it (plan counts any tool
    /// named with edit, write, patch or replace already).
    pub edit_tools: &'static [&'static str],
    /// Counts the compactions the host's transcript records, for a host whose
    /// compaction event fires whether or not it then compacts. `None` from the
    /// function: cannot tell, so the event counts as a compaction.
    pub compactions: Option<fn(transcript: &Path) -> Option<u64>>,
    /// Reads the tokens a line of the host's transcript reports, for the work
    /// loop's token budget (src/hosts/usage.rs); `None`: its transcript does not say.
    pub usage: Option<usage::Reader>,
    /// The host runs headless without its prompt event, so an injection that is due
    /// (plan.md changed, or a compaction took the block) rides on the next tool
    /// event instead.
    pub inject_at_tool: bool,
    pub judge: Judge,
}

impl Spec {
    /// What a host states only when it differs: no trust step, no skeleton at
    /// compaction, no extra edit tools, compactions not counted, injection at the
    /// prompt. The rest (name, title, events, render, registration, next steps,
    /// fresh context, judge program and invocation) every host states itself;
    /// `each_host_states_what_has_no_default` checks that it does.
    pub const DEFAULT: Spec = Spec {
        name: "",
        title: "",
        events: &[],
        render: |_, _, _| (String::new(), String::new()),
        registration: Registration::Settings(Settings::DEFAULT),
        next_steps: |_| Ok(String::new()),
        trust_pending: no_trust_step,
        fresh_context: "",
        skeleton_at_compaction: false,
        edit_tools: &[],
        compactions: None,
        usage: None,
        inject_at_tool: false,
        judge: Judge::DEFAULT,
    };
}

/// One event of the host's, as plan names it, handles it and registers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// As in `plan hook HOST SLUG`.
    pub slug: &'static str,
    pub kind: Kind,
    /// The host's own name (`hooks.<name>` in settings, `hookEventName` in answers).
    pub name: &'static str,
    pub matcher: Option<&'static str>,
    /// In the host's unit (seconds or milliseconds; the module says which).
    pub timeout: u64,
    /// A stop event's host ends the turn itself after this many blocks in a row,
    /// dropping the next one.
    pub blocks_in_a_row: Option<u32>,
    /// The variable of the host's that sets that cap instead (0: no cap), read from
    /// the environment the host gives its hooks.
    pub blocks_cap_var: Option<&'static str>,
}

pub const fn event(
    slug: &'static str,
    kind: Kind,
    name: &'static str,
    matcher: Option<&'static str>,
    timeout: u64,
) -> Event {
    Event {
        slug,
        kind,
        name,
        matcher,
        timeout,
        blocks_in_a_row: None,
        blocks_cap_var: None,
    }
}

impl Event {
    /// The host ends the turn itself after `n` blocks of this stop event in a row.
    pub const fn blocks_in_a_row(self, n: u32) -> Event {
        Event {
            blocks_in_a_row: Some(n),
            ..self
        }
    }

    /// The host reads its cap from `var` when it is set.
    pub const fn blocks_cap_var(self, var: &'static str) -> Event {
        Event {
            blocks_cap_var: Some(var),
            ..self
        }
    }

    /// The cap in force: the host's variable where it is set to a number (0 turns
    /// the cap off), else the host's default.
    pub fn cap(&self) -> Option<u32> {
        let set = self
            .blocks_cap_var
            .and_then(crate::env::text)
            .and_then(|v| v.trim().parse::<u32>().ok());
        match set {
            Some(0) => None,
            Some(n) => Some(n),
            None => self.blocks_in_a_row,
        }
    }
}

/// How plan's registration is written.
pub enum Registration {
    /// Entries merged into a JSON settings file under `hooks.<Event>`, Claude Code's
    /// layout.
    Settings(Settings),
    /// A file plan writes whole (an extension or plugin).
    File {
        project: &'static str,
        user: fn(home: &Path) -> PathBuf,
        /// What the file is called in messages ("extension").
        what: &'static str,
        /// The file calling `program`.
        text: fn(program: &str) -> String,
        /// Whether a file there is plan's, so it may be replaced or deleted.
        is_ours: fn(text: &str) -> bool,
    },
}

/// A settings file plan merges its hooks into. A host states its `project` and
/// `user` and whatever else differs from [`Settings::DEFAULT`], so a new field is
/// one edit here.
pub struct Settings {
    /// Relative to the repository root.
    pub project: &'static str,
    /// The user-level file, from the home directory.
    pub user: fn(home: &Path) -> PathBuf,
    /// An object whose `enabled: true` the host needs before it runs any hook.
    pub enable: Option<&'static str>,
    /// The host reads the file with comments in it, so plan does too.
    pub comments: bool,
    /// A key and number the host writes into any settings file without it when
    /// it loads one (Qwen's `$version`): a file plan creates carries it, so the
    /// host's first run leaves it alone.
    pub version: Option<(&'static str, u64)>,
}

impl Settings {
    /// No enable switch, no comments, no version stamp.
    pub const DEFAULT: Settings = Settings {
        project: "",
        user: |home| home.to_path_buf(),
        enable: None,
        comments: false,
        version: None,
    };
}

impl Registration {
    pub fn project(&self) -> &'static str {
        match self {
            Registration::Settings(Settings { project, .. })
            | Registration::File { project, .. } => project,
        }
    }

    /// Whether the host's settings file may hold comments.
    pub fn comments(&self) -> bool {
        matches!(
            self,
            Registration::Settings(Settings { comments: true, .. })
        )
    }

    pub fn user(&self, home: &Path) -> PathBuf {
        match self {
            Registration::Settings(Settings { user, .. }) | Registration::File { user, .. } => {
                user(home)
            }
        }
    }
}

/// The host's CLI as a read-only headless judge.
pub struct Judge {
    /// The executable, as found on PATH.
    pub program: &'static str,
    /// The judge's argv and how the prompt travels; read-only by construction.
    pub invocation: fn(&Request) -> Invocation,
    /// What its answer comes in.
    pub format: Format,
    /// Asks for the verdict's JSON shape, given the schema file, where the CLI takes one.
    pub schema: Option<fn(&mut Invocation, &Path)>,
    /// Why the host cannot judge the root (first argument) in isolation, when no
    /// flag keeps something there from reaching its model; the judge is then
    /// refused. The second argument is the user's home directory.
    pub refuse: Option<Refusal>,
}

impl Judge {
    /// A judge whose answer is plain text, with no schema flag and nothing refused;
    /// the host states its program and invocation.
    pub const DEFAULT: Judge = Judge {
        program: "",
        invocation: |_| Invocation::new("", true),
        format: Format::Text,
        schema: None,
        refuse: None,
    };
}

/// Why a host cannot judge `root` in isolation, given the user's home directory.
pub type Refusal = fn(root: &Path, home: Option<&Path>) -> Option<String>;

/// For a host whose hooks run once registered, with no trust step.
pub fn no_trust_step(_root: Option<&Path>) -> Option<String> {
    None
}

/// The first file under `root` (outside `.git`) whose name is one of `names`, as a
/// path relative to `root`. Symlinks are not followed.
pub fn find_named(root: &Path, names: &[String]) -> Option<String> {
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() && name != ".git" {
                dirs.push(entry.path());
            } else if !kind.is_dir() && names.iter().any(|n| name == n.as_str()) {
                let path = entry.path();
                let rel = path.strip_prefix(root).unwrap_or(&path);
                return Some(rel.display().to_string());
            }
        }
    }
    None
}

/// The home directory, for user-level registrations.
pub fn home() -> Result<PathBuf> {
    crate::env::os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| {
            Exit::env_hint(
                "HOME is not set",
                "--global writes under your home directory; set HOME",
            )
        })
}

/// `~/…` for a path under `home`, else the path as it is.
pub fn tilde(path: &Path, home: &Path) -> String {
    match path.strip_prefix(home) {
        Ok(rest) => format!("~/{}", rest.display()),
        Err(_) => path.display().to_string(),
    }
}

/// How to start on the plan with a fresh context, per host: plan's hooks inject the
/// plan at session start, so a cleared context loses nothing of it.
pub fn fresh_context() -> String {
    let width = Host::ALL.iter().map(|h| h.title().len()).max().unwrap_or(0) + 2;
    let mut out =
        "To start the work with a fresh context (the plan is injected again at session start):"
            .to_string();
    for host in Host::ALL {
        out.push_str(&format!(
            "\n  {:<width$}{}",
            host.title(),
            host.spec().fresh_context
        ));
    }
    out
}

/// The line of a script of plan's own (pi's extension, OpenCode's plugin) that names
/// the program; `--command` rewrites it.
pub const PROGRAM_LINE: &str = "const PLAN_PROGRAM = \"plan\";";

/// The shipped `script` calling `program`.
pub fn script_calling(script: &str, program: &str) -> String {
    if program == protocol::DEFAULT_PROGRAM {
        return script.to_string();
    }
    let literal = serde_json::to_string(program).unwrap_or_else(|_| "\"plan\"".to_string());
    script.replacen(PROGRAM_LINE, &format!("const PLAN_PROGRAM = {literal};"), 1)
}

/// The program a script's line names, when the line is exactly
/// `const PLAN_PROGRAM = "…";` with one JSON string and nothing else: what
/// `--command` writes there. Any other line under that name is an edit.
fn program_named(line: &str) -> Option<String> {
    let literal = line
        .strip_prefix("const PLAN_PROGRAM = ")?
        .strip_suffix(';')?;
    serde_json::from_str::<String>(literal).ok()
}

/// Whether `found`, a file of plan's own that `text` writes, is as some `plan
/// install` wrote it, whatever program it named: not edited since. Each line
/// naming the program is put back to name the shipped one before the two are
/// compared: a script's (pi's extension, OpenCode's plugin) `const PLAN_PROGRAM`
/// line, a hooks file's (Copilot's) `"bash": "PROGRAM hook …"` lines.
pub fn as_written(found: &str, text: fn(&str) -> String) -> bool {
    let shipped = text(protocol::DEFAULT_PROGRAM);
    let program = protocol::DEFAULT_PROGRAM;
    let back: String = found
        .split_inclusive('\n')
        .map(|line| {
            let bare = line.trim_end_matches('\n');
            let end = &line[bare.len()..];
            if program_named(bare).is_some() {
                return format!("{PROGRAM_LINE}{end}");
            }
            if let Some((head, _, hook)) = hook_command_line(bare) {
                return format!("{head}{program}{hook}{end}");
            }
            line.to_string()
        })
        .collect();
    back == shipped
        || EARLIER_FILES.contains(&crate::plan::model::blob_id(back.as_bytes()).as_str())
}

/// `shipped` (what a file plan writes whole holds for the shipped program) naming
/// the program `found` names: a script's `const PLAN_PROGRAM` line as it is there,
/// a hooks file's command prefix when it is a plain one
/// ([`protocol::is_plain_program`]). What a reinstall without `--command` writes,
/// so the program a person, or an earlier `--command`, chose stays.
pub fn naming_program_of(found: &str, shipped: &str) -> String {
    match (shipped.contains(PROGRAM_LINE), program_in(found)) {
        (true, Some(program)) => script_calling(shipped, &program),
        (false, Some(prefix)) => shipped.replace(
            &format!("{BASH}{} hook ", protocol::DEFAULT_PROGRAM),
            &format!("{BASH}{prefix} hook "),
        ),
        (_, None) => shipped.to_string(),
    }
}

/// The program a file plan writes whole names: a script's program line's, or a
/// hooks file's command prefix when it is a plain one
/// ([`protocol::is_plain_program`]). `None`: it names none plan would keep.
pub fn program_in(found: &str) -> Option<String> {
    if let Some(program) = found.lines().find_map(|l| program_named(l.trim_end())) {
        return Some(program);
    }
    let (_, prefix, _) = found.lines().find_map(hook_command_line)?;
    protocol::is_plain_program(prefix).then(|| prefix.to_string())
}

/// Where a hooks file's (Copilot's) line names its command.
const BASH: &str = "\"bash\": \"";

/// A hooks file's command line in three: what comes before the command, the
/// program part, and ` hook HOST SLUG…` (the last ` hook ` is plan's).
fn hook_command_line(line: &str) -> Option<(&str, &str, &str)> {
    let (head, command) = line.split_once(BASH)?;
    let at = command.rfind(" hook ")?;
    Some((
        &line[..head.len() + BASH.len()],
        &command[..at],
        &command[at..],
    ))
}

/// The blob ids of the files earlier versions of plan wrote whole (pi's extension,
/// OpenCode's plugin, Copilot's hooks file), naming the shipped program: a file one
/// of them wrote is plan's unedited, so an upgrade replaces it. A change to such a
/// text adds the id of the one it replaces here (`git hash-object`; the test beside
/// it says which).
const EARLIER_FILES: &[&str] = &[
    // integrations/pi/plan.ts
    "9b13fa196237dc24b09e1198a41822db009b0e31",
    "ca448bc0bb0fff0812b62bc5a514b35b77c7e6fd",
    "c398db91a1749c511af9884777ef7606ee811c66",
    "e7bc9fc822c625483d9fdf9cb73d00d0104e9842",
    // integrations/opencode/plan.js
    "201343c1f36f36aa9fdb88ffae96c3e34fff1c4d",
    "e38e3ff1207ad4c0a4619d6c22de87d2e78627cb",
    "f35864d918fbfc5f0b790e7f15d35933d7b0fb2a",
    // Copilot's .github/hooks/plan.json before subagentStop
    "eab36f4f2a623eaef4ce0764f7144213a56e8ee6",
];

/// Whether a file's text is the shipped `script` as plan wrote it: its first line
/// marks it as plan's, so uninstall never deletes someone else's file of that name.
pub fn is_script(script: &str, text: &str) -> bool {
    text.lines().next() == script.lines().next()
}

/// plan's answer to a script of its own: `{message}` for the model, `{notice}` for
/// the person, `{}` for nothing.
pub fn render_to_script(_kind: Kind, _event: &str, answer: &Answer) -> (String, String) {
    let v = match answer {
        Answer::Nothing => None,
        Answer::Context(text) | Answer::Block(text) => Some(serde_json::json!({ "message": text })),
        Answer::Note(text) => Some(serde_json::json!({ "notice": text })),
        Answer::Deny(text) => Some(serde_json::json!({ "deny": text })),
    };
    protocol::out(v, "{}")
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use super::*;

    #[test]
    fn the_registry_lists_every_host_once_under_its_own_name() {
        assert_eq!(Host::ALL.len(), Host::value_variants().len());
        for host in Host::value_variants() {
            assert_eq!(Host::ALL.iter().filter(|h| *h == host).count(), 1);
            let clap_name = host.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(host.name(), clap_name, "{host:?}");
            assert_eq!(host.spec().judge.program, host.name(), "{host:?}");
        }
    }

    /// pi's extension and OpenCode's plugin: each marked as plan's by its first line,
    /// with one line naming the program.
    #[test]
    fn each_script_is_marked_and_names_its_program() {
        let scripts = [
            (Host::Pi, pi::EXTENSION, "export default function () {}\n"),
            (
                Host::Opencode,
                opencode::PLUGIN,
                "export const Other = async () => ({})\n",
            ),
        ];
        for (host, script, theirs) in scripts {
            let Registration::File {
                text: calling,
                is_ours,
                ..
            } = host.spec().registration
            else {
                panic!("{host:?} registers a file of its own");
            };
            assert_eq!(script.matches(PROGRAM_LINE).count(), 1);
            assert!(is_ours(script));
            assert!(!is_ours(theirs));
            let custom = calling("/opt/my \"plan\"");
            assert!(custom.contains(r#"const PLAN_PROGRAM = "/opt/my \"plan\"";"#));
            assert!(is_ours(&custom));
            assert_eq!(calling("plan"), script);
            // Written for any program, it is as plan wrote it; a line added is not.
            assert!(as_written(&custom, calling) && as_written(script, calling));
            assert!(!as_written(&format!("{custom}// mine\n"), calling));
        }
    }

    /// Copilot's hooks file names the program in every command: written for any
    /// program it is as plan wrote it, and a key added to one of plan's hooks, or a
    /// changed timeout, is an edit.
    #[test]
    fn a_hooks_file_is_as_written_for_any_program_and_an_edit_is_seen() {
        let calling = copilot::hooks_file;
        let custom = calling("/opt/my 'hook' plan");
        assert!(custom.contains(r#""bash": "'/opt/my '\\''hook'\\'' plan' hook copilot"#));
        assert!(as_written(&custom, calling) && as_written(&calling("plan"), calling));
        let keyed = custom.replacen(
            "\"timeoutSec\": 60",
            "\"timeoutSec\": 60,\n        \"env\": {\"A\": \"1\"}",
            1,
        );
        assert_ne!(keyed, custom);
        assert!(!as_written(&keyed, calling));
        assert!(!as_written(&custom.replacen("60", "120", 1), calling));
    }

    /// A reinstall without `--command` keeps the program a file names, when it is
    /// one: a script's program line whatever it says, a hooks file's prefix when
    /// it is a plain word after assignments.
    #[test]
    fn a_reinstall_keeps_the_program_a_file_names() {
        let script = pi::EXTENSION;
        let custom = (match Host::Pi.spec().registration {
            Registration::File { text, .. } => text,
            _ => unreachable!(),
        })("/opt/my \"plan\"");
        assert_eq!(naming_program_of(&custom, script), custom);
        // The review's: code after the program on its line is an edit, never kept.
        let injected = script.replacen(
            PROGRAM_LINE,
            "const PLAN_PROGRAM = \"plan\"; require(\"child_process\").execSync(\"x\");",
            1,
        );
        assert!(!as_written(&injected, |p| script_calling(pi::EXTENSION, p)));
        assert_eq!(naming_program_of(&injected, script), script);
        let shipped = copilot::hooks_file("plan");
        for (prefix, kept) in [
            ("PLAN_FILE=docs/plan.md plan", true),
            ("'/home/me/my tools/plan'", true),
            ("/opt/plan/bin/plan", true),
            ("exit 0; plan", false),
            ("A=$(x) plan", false),
        ] {
            let found = shipped.replace(
                "\"bash\": \"plan hook",
                &format!("\"bash\": \"{prefix} hook"),
            );
            let written = naming_program_of(&found, &shipped);
            assert_eq!(written == found, kept, "{prefix}");
            assert_eq!(written == shipped, !kept, "{prefix}");
        }
        assert_eq!(
            protocol::program_word("PLAN_FILE=docs/plan.md plan"),
            "plan"
        );
        assert_eq!(
            protocol::program_word("'/my tools/plan'"),
            "'/my tools/plan'"
        );
    }

    /// An upgrade must not take the file an earlier plan wrote for a person's edit:
    /// a change to a file plan writes whole puts the id it had into `EARLIER_FILES`,
    /// then its new id here.
    #[test]
    fn a_changed_script_keeps_the_earlier_text_as_plans() {
        let hooks = copilot::hooks_file(protocol::DEFAULT_PROGRAM);
        for (script, id) in [
            (pi::EXTENSION, "5d13ba1d2b3e7c98cff4717e800a4b827cd4edff"),
            (opencode::PLUGIN, "81f611ba861a22e9eb13206f003cc49b1e116a40"),
            (hooks.as_str(), "e52f31d7fe2f6d93570b2fd7bdfc36aca0830794"),
        ] {
            assert_eq!(
                crate::plan::model::blob_id(script.as_bytes()),
                id,
                "a shipped script changed: add {id} to EARLIER_FILES, then put its new id here"
            );
        }
    }

    #[test]
    fn each_host_names_each_event_once() {
        for host in Host::ALL {
            let events = host.spec().events;
            for (i, e) in events.iter().enumerate() {
                assert!(
                    events[i + 1..]
                        .iter()
                        .all(|o| o.slug != e.slug && o.name != e.name),
                    "{host:?} {}",
                    e.slug
                );
            }
            // Every kind plan acts on is reachable, except where the host has no such event.
            assert!(events.iter().any(|e| e.kind == Kind::Stop), "{host:?}");
        }
    }

    /// `Spec::DEFAULT` leaves these empty: a host that forgot one would register
    /// nowhere or judge with no program.
    #[test]
    fn each_host_states_what_has_no_default() {
        for host in Host::ALL {
            let spec = host.spec();
            assert!(!spec.name.is_empty() && !spec.title.is_empty(), "{host:?}");
            assert!(!spec.events.is_empty(), "{host:?}");
            assert!(!spec.registration.project().is_empty(), "{host:?}");
            assert!(!spec.fresh_context.is_empty(), "{host:?}");
            assert!(!spec.judge.program.is_empty(), "{host:?}");
            let inv = (spec.judge.invocation)(&Request {
                model: None,
                repo_root: Path::new("/repo"),
                workdir: Path::new("/tmp/work"),
                out_file: Path::new("/tmp/out"),
                system: "",
                max_turns: 1,
            });
            assert_eq!(inv.program, spec.judge.program, "{host:?}");
        }
    }

    #[test]
    fn the_fresh_context_table_lines_up() {
        insta::assert_snapshot!(fresh_context(), @r"
        To start the work with a fresh context (the plan is injected again at session start):
          Claude Code    /clear
          Codex          /new
          pi             /new
          Gemini CLI     /clear
          Factory Droid  /clear
          OpenCode       /new
          Copilot CLI    /clear
          Qwen Code      /clear
        ");
    }
}
