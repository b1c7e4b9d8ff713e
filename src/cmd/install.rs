//! `plan install`: register plan's hooks with a host — in its settings file, as a
//! Claude Code plugin, or as pi's extension file — and say what the host still
//! needs before they run. The merge itself is `hooks::install`; this file finds,
//! reads, writes and prints.

use std::fs;
use std::io::ErrorKind;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::{Map, Value};

use crate::atomic;
use crate::ctx::Env;
use crate::exit::{Exit, OK};
use crate::git::Repo;
use crate::install::hooks::{self as hooks, Action, Change, DEFAULT_PROGRAM, Host, Invalid};
use crate::install::jsonc;
use crate::hosts::{self, Registration};
use crate::install::mcp::{self as mcp_install, Client as McpClient};
use crate::out::print;

/// What `plan install` / `uninstall` register with: a host's hooks, or the section
/// in AGENTS.md that tells agents without hooks how this repository's plan works.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Host(Host),
    AgentsMd,
    /// plan's merge driver for plan.md, in this clone's git config and `.gitattributes`.
    Git,
    /// plan's pull-request gate as a GitHub Actions workflow.
    Ci,
}

/// Every target, in `--help`'s order: the hosts as the registry lists them, then
/// AGENTS.md.
static TARGETS: std::sync::LazyLock<Vec<Target>> = std::sync::LazyLock::new(|| {
    <Host as clap::ValueEnum>::value_variants()
        .iter()
        .map(|h| Target::Host(*h))
        .chain([Target::AgentsMd, Target::Git, Target::Ci])
        .collect()
});

impl clap::ValueEnum for Target {
    fn value_variants<'a>() -> &'a [Self] {
        &TARGETS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        match self {
            Target::Host(host) => host.to_possible_value(),
            Target::AgentsMd => Some(
                clap::builder::PossibleValue::new("agents-md")
                    .help("A section in AGENTS.md, for agents without hooks"),
            ),
            Target::Git => Some(clap::builder::PossibleValue::new("git").help(
                "plan's merge driver for plan.md, in this clone's git config and .gitattributes",
            )),
            Target::Ci => Some(
                clap::builder::PossibleValue::new("ci")
                    .help("A GitHub Actions workflow: plan's pull-request gate"),
            ),
        }
    }
}

/// Registers plan's merge driver in this clone and names it in `.gitattributes` for
/// plan.md and, when PLAN_FILE or --file names another, that file too.
fn git(env: &Env, repo: Option<&Repo>, global: bool, program: &str) -> Result<u8> {
    let repo = git_repo(repo, global)?;
    let mut patterns = vec!["plan.md".to_string()];
    if let Ok(ctx) = env.ctx()
        && let Some(rel) = ctx.plan_in_repo().or_else(|| {
            ctx.cwd
                .join(&ctx.store.path)
                .strip_prefix(&repo.root)
                .ok()
                .map(Path::to_path_buf)
        })
        && rel != Path::new("plan.md")
        && let Some(rel) = rel.to_str()
    {
        patterns.push(format!("/{rel}"));
    }
    print(&crate::install::merge_driver::install(repo, program, &patterns)?)?;
    Ok(OK)
}

/// The repository whose clone `plan install git` / `uninstall git` configures.
pub(crate) fn git_repo(repo: Option<&Repo>, global: bool) -> Result<&Repo> {
    if global {
        return Err(Exit::usage_hint(
            "plan's merge driver is registered per clone; there is no --global one",
            "run `plan install git` in each clone",
        ));
    }
    repo.ok_or_else(|| {
        Exit::env_hint(
            "not inside a git repository",
            "run it in the clone whose merges of plan.md should go goal by goal",
        )
    })
}

/// Writes or refreshes plan's section of AGENTS.md at the repository root.
fn agents_md(repo: Option<&Repo>, global: bool) -> Result<u8> {
    let path = agents_md_path(repo, global)?;
    let old = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(Exit::env(format!("cannot read AGENTS.md: {e}"))),
    };
    let new = crate::install::agents_md::install(&old);
    if new == old {
        print("AGENTS.md: plan's section is already current\n")?;
        return Ok(OK);
    }
    write_atomic(&path, "AGENTS.md", &new)?;
    print(
        "AGENTS.md: wrote plan's section (how this repository's plan works, for agents without hooks)\n",
    )?;
    Ok(OK)
}

/// AGENTS.md at the repository root: it describes this repository, so there is no
/// user-wide one.
pub(crate) fn agents_md_path(repo: Option<&Repo>, global: bool) -> Result<PathBuf> {
    if global {
        return Err(Exit::usage_hint(
            "AGENTS.md describes one repository; there is no --global one",
            "run `plan install agents-md` in the repository",
        ));
    }
    let repo = repo.ok_or_else(|| {
        Exit::env_hint(
            "not inside a git repository",
            "run it in the repository whose AGENTS.md should describe its plan",
        )
    })?;
    Ok(repo.root.join("AGENTS.md"))
}

/// Register plan's hooks with a coding agent, merging into its settings
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agent to register with, agents-md for a section in AGENTS.md, git for plan's
    /// merge driver (this clone's git config and .gitattributes), or ci for the
    /// pull-request gate as a GitHub Actions workflow
    #[arg(value_enum, required_unless_present_any = ["mcp", "all", "check"])]
    pub host: Option<Target>,
    /// Register with every host whose CLI is on PATH
    #[arg(long, conflicts_with_all = ["host", "mcp", "plugin", "check"])]
    pub all: bool,
    /// Change nothing; say per host whether plan's hooks are registered and current,
    /// a trust step is pending, and `plan` is on PATH. Exit 1 when something is
    /// missing for a host whose CLI is on PATH or that is registered
    #[arg(long, conflicts_with_all = ["host", "mcp", "plugin"])]
    pub check: bool,
    /// Register plan's MCP server with CLIENT instead (`plan mcp`, in the client's
    /// MCP file), not hooks
    #[arg(long, value_enum, value_name = "CLIENT", conflicts_with_all = ["host", "plugin"])]
    pub mcp: Option<McpClient>,
    /// Register for your user (under your home directory) instead of this repository
    #[arg(long)]
    pub global: bool,
    /// Write a Claude Code plugin into DIR instead (claude only)
    #[arg(long, value_name = "DIR", conflicts_with = "global")]
    pub plugin: Option<PathBuf>,
    /// The program the hooks run [default: plan, found on PATH]
    #[arg(long, value_name = "PATH")]
    pub command: Option<String>,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    // Registering hooks touches a host's settings, never plan.md, and `--global`
    // works outside any repository.
    let repo = env.repo()?;
    let repo = repo.as_ref();
    let program = program(args.command.as_deref())?;
    if let Some(client) = args.mcp {
        return mcp_install::add(client, args.global, repo, program);
    }
    if args.check {
        return check(args.global, repo, program);
    }
    if args.all {
        return all(args.global, repo, program);
    }
    let host = match args.host {
        Some(Target::Host(host)) => host,
        Some(Target::AgentsMd) => return agents_md(repo, args.global),
        Some(Target::Git) => return git(env, repo, args.global, program),
        Some(Target::Ci) => return crate::install::ci::install(repo, args.global),
        None => {
            return Err(Exit::usage_hint(
                "name a host, or --mcp CLIENT",
                "see `plan install --help`",
            ));
        }
    };
    if let Some(dir) = &args.plugin {
        plugin_is_for_claude(host)?;
        return plugin(dir, program);
    }
    install_host(host, args.global, repo, program)
}

/// Registers plan's hooks with one host, at the place `--global` picks.
fn install_host(host: Host, global: bool, repo: Option<&Repo>, program: &str) -> Result<u8> {
    let place = place(host, global, repo)?;
    if let Registration::File {
        what,
        text,
        is_ours,
        ..
    } = host.spec().registration
    {
        return file(host, &place, what, text(program), is_ours, program);
    }
    let comments = host.spec().registration.comments();
    let mut settings = read_settings(&place.path, &place.shown, comments)?.unwrap_or_default();
    let merge =
        hooks::install(&mut settings.doc, host, program).map_err(|e| invalid(&place.shown, e))?;
    if !merge.changed() {
        print(&format!(
            "plan's hooks for {} are already installed in {}\n",
            host.title(),
            place.shown
        ))?;
        return Ok(OK);
    }
    // Worked out before writing: a failure here must not follow a half-reported write.
    let next = next_steps(host, &place)?;
    write_atomic(&place.path, &place.shown, &settings.text())?;
    let mut out = format!(
        "installed plan's hooks for {} in {}\n",
        host.title(),
        place.shown
    );
    if let Registration::Settings {
        enable: Some(key), ..
    } = host.spec().registration
    {
        if merge.enabled {
            out.push_str(&format!("  set {key}.enabled: true\n"));
        }
        if merge.disabled {
            out.push_str(&format!(
                "  note: {} has {key}.enabled: false, which turns off every {} hook; plan left it, so its hooks will not run until you set it to true\n",
                place.shown,
                host.title()
            ));
        }
    }
    out.push_str(&listing(&merge.changes));
    out.push_str(&next);
    print(&out)?;
    warn_if_not_on_path(program);
    Ok(OK)
}

/// Every host whose CLI is on PATH, each registered as `plan install HOST` would;
/// one failing does not stop the others, and the worst exit code is returned.
fn all(global: bool, repo: Option<&Repo>, program: &str) -> Result<u8> {
    let found: Vec<Host> = Host::ALL
        .into_iter()
        .filter(|h| crate::exec::find_on_path(h.spec().judge.program).is_some())
        .collect();
    if found.is_empty() {
        let names: Vec<&str> = Host::ALL.iter().map(|h| h.spec().judge.program).collect();
        print(&format!(
            "no host CLI found on PATH (looked for {}); nothing was registered\n",
            names.join(", ")
        ))?;
        return Ok(OK);
    }
    let mut worst = OK;
    for host in found {
        let code = match install_host(host, global, repo, program) {
            Ok(code) => code,
            Err(e) => {
                let (code, shown) = Exit::shown(&e);
                eprintln!("{}", shown.unwrap_or_default());
                code
            }
        };
        worst = worst.max(code);
    }
    Ok(worst)
}

/// What `--check` found for one host.
enum Found {
    Missing,
    /// Registered, running `program`; `current` when a reinstall would change nothing.
    Registered {
        program: String,
        current: bool,
        /// The host's switch for all hooks is off (Gemini's `hooksConfig.enabled`).
        switched_off: bool,
    },
    Unreadable(String),
}

/// `plan install --check`: one line per host, exit 1 when a host in use lacks
/// something. A host counts as in use when its CLI is on PATH or plan is registered
/// with it.
fn check(global: bool, repo: Option<&Repo>, program: &str) -> Result<u8> {
    let width = Host::ALL.iter().map(|h| h.title().len()).max().unwrap_or(0) + 2;
    let mut out = String::new();
    let mut missing = false;
    for host in Host::ALL {
        let place = place(host, global, repo)?;
        let found = match registration(host, &place, program) {
            Ok(found) => found,
            Err(e) => Found::Unreadable(
                e.downcast_ref::<Exit>()
                    .and_then(|x| x.message.clone())
                    .unwrap_or_else(|| e.to_string()),
            ),
        };
        let on_path = crate::exec::find_on_path(host.spec().judge.program).is_some();
        let mut notes: Vec<String> = Vec::new();
        let mut bad = false;
        match &found {
            Found::Missing if !on_path => {
                notes.push(format!(
                    "not registered; {} is not on PATH",
                    host.spec().judge.program
                ));
            }
            Found::Missing => {
                bad = true;
                notes.push(format!(
                    "not registered in {}: run `plan install {}`",
                    place.shown,
                    host.name()
                ));
            }
            Found::Unreadable(why) => {
                bad = true;
                notes.push(format!("cannot tell: {why}"));
            }
            Found::Registered {
                program,
                current,
                switched_off,
            } => {
                notes.push(format!("registered in {}", place.shown));
                if *switched_off {
                    bad = true;
                    notes.push(format!(
                        "{}'s switch for all hooks is off in {}, so none run",
                        host.title(),
                        place.shown
                    ));
                }
                if !current {
                    bad = true;
                    notes.push(format!(
                        "written by an older plan: run `plan install {}` to bring it up to date",
                        host.name()
                    ));
                }
                if let Some(step) = (host.spec().trust_pending)(place.root.as_deref()) {
                    bad = true;
                    notes.push(format!("trust step pending: {step}"));
                }
                if !runnable(program) {
                    bad = true;
                    notes.push(format!(
                        "`{program}` is not on the hooks' PATH, so they cannot run it"
                    ));
                }
            }
        }
        missing |= bad;
        let mark = if bad {
            "✗"
        } else if matches!(found, Found::Registered { .. }) {
            "✓"
        } else {
            "-"
        };
        out.push_str(&format!(
            "{mark} {:<width$}{}\n",
            host.title(),
            notes.join("; ")
        ));
    }
    print(&out)?;
    Ok(if missing {
        crate::exit::CHECK_FAILED
    } else {
        OK
    })
}

/// Whether plan is registered with `host` at `place`, and with what program.
fn registration(host: Host, place: &Place, program: &str) -> Result<Found> {
    match &host.spec().registration {
        Registration::File { text, is_ours, .. } => {
            Ok(match read_text(&place.path, &place.shown)? {
                Some(found) if is_ours(&found) => Found::Registered {
                    program: program.to_string(),
                    current: found == text(program),
                    switched_off: false,
                },
                _ => Found::Missing,
            })
        }
        Registration::Settings { comments, .. } => {
            let Some(settings) = read_settings(&place.path, &place.shown, *comments)? else {
                return Ok(Found::Missing);
            };
            let Some(registered) = hooks::registered_program(&settings.doc, host, program) else {
                return Ok(Found::Missing);
            };
            let mut doc = settings.doc.clone();
            let merge = hooks::install(&mut doc, host, &registered)
                .map_err(|e| invalid(&place.shown, e))?;
            Ok(Found::Registered {
                current: !merge.changed(),
                program: registered,
                switched_off: merge.disabled,
            })
        }
    }
}

/// Whether a hook's program can be started: a path that is an executable file, or a
/// name found on PATH.
fn runnable(program: &str) -> bool {
    if program.contains('/') {
        return fs::metadata(program)
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    }
    crate::exec::find_on_path(program).is_some()
}

/// Where a host's registration lives, and how messages name it.
pub(crate) struct Place {
    pub path: PathBuf,
    /// Relative to the repository root, `~/…` under the home directory, else as is.
    pub shown: String,
    /// The repository root, for a project registration.
    pub root: Option<PathBuf>,
}

pub(crate) fn place(host: Host, global: bool, repo: Option<&Repo>) -> Result<Place> {
    let registration = &host.spec().registration;
    if global {
        let home = hosts::home()?;
        let path = registration.user(&home);
        let shown = hosts::tilde(&path, &home);
        return Ok(Place {
            path,
            shown,
            root: None,
        });
    }
    let Some(repo) = repo else {
        return Err(Exit::env_hint(
            "not inside a git repository",
            "run it in the repository the agent works in, or pass --global to register for your user",
        ));
    };
    let rel = registration.project();
    // git reports the work tree with a trailing slash; Codex's trust key has none.
    let root: PathBuf = repo.root.components().collect();
    Ok(Place {
        path: root.join(rel),
        shown: rel.to_string(),
        root: Some(root),
    })
}

/// The plugin's two files, named as the user named the directory.
pub(crate) fn plugin_files(dir: &Path) -> (Place, Place) {
    let file = |rel: &str| {
        let path = dir.join(rel);
        Place {
            shown: path.display().to_string(),
            path,
            root: None,
        }
    };
    (file(".claude-plugin/plugin.json"), file("hooks/hooks.json"))
}

pub(crate) fn plugin_is_for_claude(host: Host) -> Result<()> {
    if host == Host::Claude {
        return Ok(());
    }
    Err(Exit::usage_hint(
        format!(
            "--plugin writes a Claude Code plugin, not one for {}",
            host.title()
        ),
        format!(
            "`plan install {} [--global]` registers with {}",
            host.name(),
            host.title()
        ),
    ))
}

pub(crate) fn program(command: Option<&str>) -> Result<&str> {
    let program = command.unwrap_or(DEFAULT_PROGRAM);
    if program.trim().is_empty() || program.chars().any(char::is_control) {
        return Err(Exit::usage_hint(
            "--command needs a program path on one line",
            "e.g. --command /usr/local/bin/plan",
        ));
    }
    Ok(program)
}

/// A file's text; `None` when it does not exist.
pub(crate) fn read_text(path: &Path, shown: &str) -> Result<Option<String>> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) if e.kind() == ErrorKind::IsADirectory || path.is_dir() => {
            return Err(Exit::usage_hint(
                format!("{shown} is a directory, not a file"),
                "move it away and rerun; nothing was changed",
            ));
        }
        Err(e) => return Err(Exit::env(format!("cannot read {shown}: {e}"))),
    };
    String::from_utf8(bytes).map(Some).map_err(|_| {
        Exit::usage_hint(
            format!("{shown}: not valid UTF-8"),
            "save it as UTF-8 and rerun; nothing was changed",
        )
    })
}

/// A settings file as read: its text, what it held, and what plan makes of it.
#[derive(Default)]
pub(crate) struct Settings {
    text: String,
    before: Map<String, Value>,
    pub doc: Map<String, Value>,
}

impl Settings {
    /// The file's new text: as the person wrote it, with only plan's change made
    /// (comments, key order, indentation and the final newline kept).
    pub fn text(&self) -> String {
        jsonc::rewrite(&self.text, &self.before, &self.doc)
    }
}

/// A settings file, with comments where the host allows them; `None` when it does
/// not exist.
pub(crate) fn read_settings(path: &Path, shown: &str, comments: bool) -> Result<Option<Settings>> {
    let Some(text) = read_text(path, shown)? else {
        return Ok(None);
    };
    let doc = if comments {
        jsonc::parse(&text).map_err(|e| match e {
            Invalid::Syntax {
                line,
                column,
                message,
            } => Exit::usage_hint(format!("{shown}:{line}:{column}: not valid JSON: {message}"), "fix it (comments are fine, trailing commas are not) and rerun; nothing was changed"),
            other => invalid(shown, other),
        })?
    } else {
        hooks::parse(&text).map_err(|e| invalid(shown, e))?
    };
    Ok(Some(Settings {
        text,
        before: doc.clone(),
        doc,
    }))
}

pub(crate) fn invalid(shown: &str, invalid: Invalid) -> anyhow::Error {
    let (message, hint) = match invalid {
        Invalid::Syntax {
            line,
            column,
            message,
        } => (
            format!("{shown}:{line}:{column}: not valid JSON: {message}"),
            "fix it (JSON allows no comments or trailing commas) and rerun; nothing was changed"
                .to_string(),
        ),
        Invalid::NotAnObject => (
            format!("{shown}: not a JSON object"),
            "a settings file holds one object, { … }; nothing was changed".to_string(),
        ),
        Invalid::Shape { key, expected } => (
            format!("{shown}: `{key}` is not {expected}"),
            "plan adds its hooks there; fix it by hand and rerun; nothing was changed".to_string(),
        ),
        Invalid::OtherPlugin(name) => (
            format!("{shown} belongs to the plugin \"{name}\""),
            "choose another --plugin directory; nothing was changed".to_string(),
        ),
    };
    Exit::usage_hint(message, hint)
}

/// Atomic replace: a temp file beside the target, fsync, rename. Missing parent
/// directories are created; a symlinked file (dotfiles) is written through.
pub(crate) fn write_atomic(path: &Path, shown: &str, content: &str) -> Result<()> {
    let how = atomic::Replace {
        new_file: atomic::NewFile::Mode(0o644),
        ..atomic::Replace::DURABLE
    };
    atomic::replace(path, content.as_bytes(), &how).map_err(|e| match e {
        atomic::Failure::ReadOnly => Exit::env_hint(
            format!("{shown} is read-only; nothing was changed"),
            "make it writable (chmod u+w) and rerun",
        ),
        atomic::Failure::Dir(_, e) | atomic::Failure::Io(e) => {
            Exit::env(format!("cannot write {shown}: {e}; nothing was changed"))
        }
    })?;
    Ok(())
}

/// One line per entry that changed.
pub(crate) fn listing(changes: &[Change]) -> String {
    changes
        .iter()
        .filter_map(|c| {
            let verb = match c.action {
                Action::Added => "added",
                Action::Updated => "updated",
                Action::Removed => "removed",
                Action::Unchanged => return None,
            };
            Some(format!("  {verb} {}: {}\n", c.event, c.command))
        })
        .collect()
}

fn next_steps(host: Host, place: &Place) -> Result<String> {
    (host.spec().next_steps)(place.root.as_deref())
}

/// A file of plan's own (pi's extension), written whole.
fn file(
    host: Host,
    place: &Place,
    what: &str,
    wanted: String,
    is_ours: fn(&str) -> bool,
    program: &str,
) -> Result<u8> {
    let shown = &place.shown;
    let title = host.title();
    let verb = match read_text(&place.path, shown)? {
        None => "installed",
        Some(text) if text == wanted => {
            print(&format!(
                "plan's {title} {what} is already installed at {shown}\n"
            ))?;
            return Ok(OK);
        }
        Some(text) if is_ours(&text) => "updated",
        Some(_) => {
            return Err(Exit::usage_hint(
                format!("{shown} exists and is not plan's {what}"),
                "move it away and rerun; nothing was changed",
            ));
        }
    };
    let next = next_steps(host, place)?;
    write_atomic(&place.path, shown, &wanted)?;
    print(&format!("{verb} plan's {title} {what} at {shown}\n{next}"))?;
    warn_if_not_on_path(program);
    Ok(OK)
}

/// A Claude Code plugin: its manifest and `hooks/hooks.json`, both checked before
/// either is written.
fn plugin(dir: &Path, program: &str) -> Result<u8> {
    let (manifest, hooks_file) = plugin_files(dir);
    let version = env!("CARGO_PKG_VERSION");
    let mut manifest_doc =
        read_settings(&manifest.path, &manifest.shown, false)?.unwrap_or_default();
    let manifest_changed = hooks::merge_manifest(&mut manifest_doc.doc, version)
        .map_err(|e| invalid(&manifest.shown, e))?;
    let mut hooks_doc =
        read_settings(&hooks_file.path, &hooks_file.shown, false)?.unwrap_or_default();
    let merge = hooks::install(&mut hooks_doc.doc, Host::Claude, program)
        .map_err(|e| invalid(&hooks_file.shown, e))?;
    let shown_dir = dir.display();
    if !manifest_changed && !merge.changed() {
        print(&format!(
            "plan's Claude Code plugin is already installed in {shown_dir}\n"
        ))?;
        return Ok(OK);
    }
    let mut out = format!("installed plan's Claude Code plugin in {shown_dir}\n");
    if manifest_changed {
        write_atomic(&manifest.path, &manifest.shown, &manifest_doc.text())?;
        out.push_str(&format!("  wrote {} (plan {version})\n", manifest.shown));
    }
    if merge.changed() {
        write_atomic(&hooks_file.path, &hooks_file.shown, &hooks_doc.text())?;
        out.push_str(&format!("  wrote {}\n", hooks_file.shown));
        out.push_str(&listing(&merge.changes));
    }
    out.push_str(&format!(
        "next: try it with `claude --plugin-dir {shown_dir}`, or publish the directory in a plugin marketplace\n"
    ));
    print(&out)?;
    warn_if_not_on_path(program);
    Ok(OK)
}

/// A path given with --command: hooks run from the repository root, where a
/// relative one is taken from too.
fn warn_if_missing(program: &str) {
    let problem = match fs::metadata(program) {
        Err(_) => "does not exist",
        Ok(m) if !m.is_file() || m.permissions().mode() & 0o111 == 0 => "is not executable",
        Ok(_) => return,
    };
    eprintln!(
        "plan: warning: {program} {problem}, so the hooks cannot run it\n  hint: install again with --command naming the plan binary"
    );
}

/// The hooks fail open when `plan` cannot be found, so nothing would tell the user.
fn warn_if_not_on_path(program: &str) {
    if program.contains('/') {
        warn_if_missing(program);
        return;
    }
    let found = std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            fs::metadata(dir.join(program))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    });
    if !found {
        eprintln!(
            "plan: warning: `{program}` is not on PATH, so the hooks cannot run it yet\n  hint: put plan on PATH, or install again with --command /path/to/plan"
        );
    }
}
