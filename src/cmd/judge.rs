//! `plan judge`: the sign-off judge the settings give — backend (and what `auto` finds
//! on PATH right now), model, timeout, and the file each came from — and `plan judge
//! model|backend` to set one, editing only that line of a settings file.

use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;
use serde_json::json;

use crate::config::{self, BackendChoice, Config, ModelConfig, Source, edit};
use crate::ctx::Env;
use crate::exec;
use crate::exit::{Exit, OK};
use crate::git::Repo;
use crate::judge::backend::{self, Backend};
use crate::out::println;

/// Show the sign-off judge (backend, model, timeout and where each is set), or set it
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub set: Option<Set>,
    /// Print it as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Subcommand)]
pub enum Set {
    Model(ModelArgs),
    Backend(BackendArgs),
    Command(CommandArgs),
}

/// Judge with a program of your own: sets judge.command to ARGV and judge.backend to
/// command in .plan/config.yaml. The program gets the prompt on stdin and answers
/// with a `VERDICT:` line. plan's own flags (`--global`, `-q`, `--quiet`) count
/// anywhere before a `--`; the words after a `--` are the program's, whatever they
/// are: `plan judge command my-judge --strict -- --global`
#[derive(Debug, clap::Args)]
pub struct CommandArgs {
    /// The program and its arguments, run without a shell, e.g. `~/.local/bin/my-judge
    /// --strict` (a program inside the repository is refused)
    #[arg(value_name = "ARGV", required = true, num_args = 1.., trailing_var_arg = true,
          allow_hyphen_values = true)]
    pub argv: Vec<String>,
    /// Set it in your settings (~/.config/plan/config.yaml), not the repository's
    #[arg(long)]
    pub global: bool,
}

/// Set the judge's model in .plan/config.yaml; `none` or --clear: the backend's default
#[derive(Debug, clap::Args)]
pub struct ModelArgs {
    /// The model as the backend names it, e.g. claude-opus-4 or gpt-5
    #[arg(value_name = "REF", required_unless_present = "clear")]
    pub model: Option<String>,
    /// Go back to the backend's default model
    #[arg(long, conflicts_with = "model")]
    pub clear: bool,
    /// Set it in your settings (~/.config/plan/config.yaml), not the repository's
    #[arg(long)]
    pub global: bool,
}

/// Set the judge's backend in .plan/config.yaml
#[derive(Debug, clap::Args)]
pub struct BackendArgs {
    // The names come from the registry, so the help stays true as hosts are added.
    #[arg(value_name = "NAME", help = format!(
        "{}; auto takes the first of {} found on PATH",
        crate::config::BackendChoice::names(),
        backend::auto_names_and()
    ))]
    pub name: String,
    /// Set it in your settings (~/.config/plan/config.yaml), not the repository's
    #[arg(long)]
    pub global: bool,
}

fn no_repo() -> anyhow::Error {
    Exit::env_hint(
        "not inside a git repository",
        "the judge's settings are in .plan/config.yaml at the repository root; with --global, `plan judge model` and `plan judge backend` set yours",
    )
}

/// Takes plan's own flags out of a judge command's words (`plan judge command
/// ./judge --global` stored `--global` as the judge's), up to a `--`, which goes
/// too: what follows it is the program's. Returns whether `-q` was among them.
fn own_flags(a: &mut CommandArgs) -> bool {
    let end = a.argv.iter().position(|w| w == "--");
    let mut quiet = false;
    let mut kept = Vec::with_capacity(a.argv.len());
    for (i, word) in std::mem::take(&mut a.argv).into_iter().enumerate() {
        match (end.is_some_and(|e| i >= e), word.as_str()) {
            (false, "--global") => a.global = true,
            (false, "-q" | "--quiet") => quiet = true,
            _ if Some(i) == end => {}
            _ => kept.push(word),
        }
    }
    a.argv = kept;
    quiet
}

/// With `--quiet`, nothing on success but the notes.
pub fn run(env: &Env, args: Args) -> Result<u8> {
    let (repo, quiet) = (env.repo()?, env.quiet);
    let repo = repo.as_ref();
    match args.set {
        None => show(repo.ok_or_else(no_repo)?, args.json),
        Some(Set::Model(a)) => {
            let model = match (a.clear, a.model) {
                (true, _) | (_, None) => None,
                (false, Some(m)) if m.trim() == "none" => None,
                (false, Some(m)) if m.trim().is_empty() => {
                    return Err(Exit::usage_hint(
                        "the model is empty",
                        "`plan judge model --clear` goes back to the backend's default",
                    ));
                }
                (false, Some(m)) => Some(m.trim().to_string()),
            };
            let shown = match &model {
                Some(m) => m.clone(),
                None => "null (the backend's default)".to_string(),
            };
            let setting = Setting {
                key: "model",
                yaml: edit::scalar(model.as_deref()),
                shown,
                took: &|c: &Config| c.judge.model == model,
            };
            set(repo, a.global, setting, quiet)
        }
        Some(Set::Backend(a)) => {
            let choice: BackendChoice = a.name.trim().parse().map_err(|message: String| {
                Exit::usage_hint(
                    message.to_string(),
                    format!(
                        "auto takes the first of {} found on PATH",
                        backend::auto_names_and()
                    ),
                )
            })?;
            let setting = Setting {
                key: "backend",
                yaml: edit::scalar(Some(choice.as_str())),
                shown: choice.to_string(),
                took: &|c: &Config| c.judge.backend == choice,
            };
            set(repo, a.global, setting, quiet)
        }
        Some(Set::Command(mut a)) => {
            let quiet = own_flags(&mut a) || quiet;
            if a.argv.first().is_none_or(|p| p.trim().is_empty()) {
                return Err(Exit::usage_hint(
                    "the judge's program is empty",
                    "plan judge command /path/to/judge [ARG]…",
                ));
            }
            if let Some(refusal) =
                crate::judge::inline::refused(&a.argv, &crate::judge::inline::OnDisk)
            {
                let (message, hint) = crate::judge::inline::message(&refusal);
                return Err(Exit::usage_hint(message, hint));
            }
            if let Some(repo) = repo {
                crate::judge::program::refuse_inside(&a.argv[0], &repo.root)?;
                if let Some(path) =
                    crate::judge::program::arg_inside(&a.argv, &repo.root, &repo.root)
                {
                    let (message, hint) = crate::judge::program::arg_inside_message(&path);
                    return Err(Exit::usage_hint(message, hint));
                }
            }
            // A JSON array of strings is a YAML flow sequence, every word quoted.
            let yaml = serde_json::to_string(&a.argv)?;
            let words: Vec<String> = a
                .argv
                .iter()
                .map(|w| serde_json::Value::from(w.as_str()).to_string())
                .collect();
            let argv = a.argv;
            let command = Setting {
                key: "command",
                yaml,
                shown: format!("[{}]", words.join(", ")),
                took: &|c: &Config| c.judge.command == argv,
            };
            set(repo, a.global, command, quiet)?;
            let choice = BackendChoice::Fixed(Backend::Command);
            let backend = Setting {
                key: "backend",
                yaml: edit::scalar(Some(choice.as_str())),
                shown: choice.to_string(),
                took: &|c: &Config| c.judge.backend == choice,
            };
            set(repo, a.global, backend, quiet)
        }
    }
}

/// `plan judge --json`, keys in reading order.
#[derive(Serialize)]
struct View<'a> {
    backend: &'a str,
    /// What would run: the backend and its program; null when nothing would.
    resolved: serde_json::Value,
    model: Option<&'a str>,
    command: &'a [String],
    timeout_secs: u64,
    /// `judge.panel`: each judge with the program it runs; empty for one judge.
    panel: Vec<serde_json::Value>,
    sources: ViewSources,
    files: ViewFiles,
}

#[derive(Serialize)]
struct ViewSources {
    backend: Source,
    model: Source,
    command: Source,
    timeout_secs: Source,
    panel: Source,
}

#[derive(Serialize)]
struct ViewFiles {
    repo: PathBuf,
    user: Option<PathBuf>,
}

/// What the backend setting comes to on this machine, now.
enum Runs {
    /// A backend with a program: where PATH has it, if anywhere.
    Program(Backend, Option<PathBuf>),
    /// `auto` found none of its programs.
    NoneFound,
    /// The configured argv.
    Command,
    /// No judge.
    Nothing,
}

impl Runs {
    fn of(judge: &ModelConfig) -> Runs {
        match judge.backend {
            BackendChoice::Auto => match backend::resolve_auto(exec::find_on_path) {
                Some((b, path)) => Runs::Program(b, Some(path)),
                None => Runs::NoneFound,
            },
            BackendChoice::Fixed(Backend::Command) => Runs::Command,
            BackendChoice::Fixed(Backend::None) => Runs::Nothing,
            BackendChoice::Fixed(b) => Runs::Program(b, b.program().and_then(exec::find_on_path)),
        }
    }
}

fn show(repo: &Repo, json: bool) -> Result<u8> {
    let (config, sources) = config::load_with_sources(Some(&repo.root))?;
    let judge = &config.judge;
    let user = config::user_file();
    let from = |key: &str| match sources.get(key) {
        Source::Default => "default".to_string(),
        Source::Repo => config::REPO_NAME.to_string(),
        Source::User => user
            .as_deref()
            .map_or_else(String::new, config::display_path),
    };
    let runs = Runs::of(judge);
    if json {
        let resolved = match &runs {
            Runs::Program(b, path) => json!({"backend": b.as_str(), "program": path}),
            Runs::Command => json!({"backend": "command", "program": judge.command.first()}),
            Runs::NoneFound | Runs::Nothing => serde_json::Value::Null,
        };
        let view = View {
            backend: judge.backend.as_str(),
            resolved,
            model: judge.model.as_deref(),
            command: &judge.command,
            timeout_secs: judge.timeout_secs,
            panel: judge
                .panel
                .iter()
                .map(|j| {
                    json!({
                        "backend": j.backend.as_str(),
                        "model": j.model,
                        "command": j.command,
                        "program": panel_program(j),
                    })
                })
                .collect(),
            sources: ViewSources {
                backend: sources.get("judge.backend"),
                model: sources.get("judge.model"),
                command: sources.get("judge.command"),
                timeout_secs: sources.get("judge.timeout_secs"),
                panel: sources.get("judge.panel"),
            },
            files: ViewFiles {
                repo: config::repo_file(&repo.root),
                user,
            },
        };
        println(&crate::out::json(&view)?)?;
        return Ok(OK);
    }

    if !judge.panel.is_empty() {
        return show_panel(judge, &from("judge.panel"), &from("judge.timeout_secs"));
    }
    let backend = match (&judge.backend, &runs) {
        (BackendChoice::Auto, Runs::Program(b, Some(path))) => {
            format!("auto → {b} ({})", path.display())
        }
        (BackendChoice::Auto, _) => "auto → none found".to_string(),
        (_, Runs::Program(b, Some(path))) => format!("{b} ({})", path.display()),
        (_, Runs::Program(b, None)) => format!("{b} (not found on PATH)"),
        (choice, _) => choice.to_string(),
    };
    let mut rows = vec![("backend", backend, from("judge.backend"))];
    if matches!(runs, Runs::Command) {
        let argv = match judge.command.is_empty() {
            true => "[] (empty: set judge.command to the judge's argv)".to_string(),
            false => {
                let words: Vec<String> = judge
                    .command
                    .iter()
                    .map(|w| serde_json::Value::from(w.as_str()).to_string())
                    .collect();
                format!("[{}]", words.join(", "))
            }
        };
        rows.push(("command", argv, from("judge.command")));
    }
    let model = match (&judge.model, &runs) {
        (Some(model), Runs::Command) => format!("{model} (not passed to a command judge)"),
        (Some(model), _) => model.clone(),
        (None, _) => "the backend's default".to_string(),
    };
    rows.push(("model", model, from("judge.model")));
    rows.push((
        "timeout",
        format!("{}s", judge.timeout_secs),
        from("judge.timeout_secs"),
    ));
    // The repository's file is the agent's to write: a control character in a
    // value shows escaped, not run by the terminal.
    let rows: Vec<(&str, String, String)> = rows
        .into_iter()
        .map(|(l, v, s)| (l, crate::plan::text::escape_controls(&v).into_owned(), s))
        .collect();
    let width = rows
        .iter()
        .map(|(_, v, _)| v.chars().count())
        .max()
        .unwrap_or(0);
    let mut out: Vec<String> = rows
        .iter()
        .map(|(label, value, source)| {
            let pad = width - value.chars().count();
            format!("{label:<8} {value}{:pad$}  {source}", "")
        })
        .collect();
    if matches!(runs, Runs::NoneFound) {
        let names: Vec<&str> = backend::auto_order().iter().map(|b| b.as_str()).collect();
        out.push(format!(
            "none found: `plan complete --judge none` skips the judge, or install one of {}",
            names.join(", ")
        ));
    }
    println(&out.join("\n"))?;
    Ok(OK)
}

/// Where a panel judge's program is: the command's own, or the backend's on PATH.
fn panel_program(judge: &config::PanelJudge) -> Option<PathBuf> {
    match judge.backend {
        Backend::Command => judge.command.first().map(PathBuf::from),
        b => b.program().and_then(exec::find_on_path),
    }
}

/// `plan judge` for a panel: each judge, one to a line, and the timeout they share.
fn show_panel(judge: &ModelConfig, from: &str, timeout_from: &str) -> Result<u8> {
    let mut rows: Vec<(String, String, &str)> = Vec::new();
    for (i, j) in judge.panel.iter().enumerate() {
        let name = match &j.model {
            Some(model) => format!("{}:{}", j.backend, crate::record::one_word(model)),
            None => j.backend.to_string(),
        };
        let at = match (j.backend, panel_program(j)) {
            (Backend::Command, Some(program)) => format!("{name} ({})", program.display()),
            (Backend::Command, None) => format!("{name} (no command)"),
            (_, Some(path)) => format!("{name} ({})", path.display()),
            (_, None) => format!("{name} (not found on PATH)"),
        };
        rows.push((format!("judge {}", i + 1), at, from));
    }
    rows.push((
        "timeout".to_string(),
        format!("{}s each", judge.timeout_secs),
        timeout_from,
    ));
    let rows: Vec<(String, String, &str)> = rows
        .into_iter()
        .map(|(l, v, s)| (l, crate::plan::text::escape_controls(&v).into_owned(), s))
        .collect();
    let label = rows.iter().map(|(l, _, _)| l.len()).max().unwrap_or(0);
    let width = rows
        .iter()
        .map(|(_, v, _)| v.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = vec![format!(
        "a panel of {}: every judge must accept (`plan complete --judge NAME` runs one instead)",
        judge.panel.len()
    )];
    out.extend(rows.iter().map(|(l, value, source)| {
        let pad = width - value.chars().count();
        format!("{l:<label$} {value}{:pad$}  {source}", "")
    }));
    println(&out.join("\n"))?;
    Ok(OK)
}

/// One `judge.KEY` to write, and how to tell the edited file says it.
struct Setting<'a> {
    key: &'static str,
    yaml: String,
    shown: String,
    took: &'a dyn Fn(&Config) -> bool,
}

fn set(repo: Option<&Repo>, global: bool, setting: Setting<'_>, quiet: bool) -> Result<u8> {
    let (path, name) = match (global, repo) {
        (true, _) => {
            let path = config::user_file().ok_or_else(|| {
                Exit::env_hint(
                    "cannot tell where your settings go: neither XDG_CONFIG_HOME nor HOME is set",
                    "set HOME, or leave out --global to set the repository's",
                )
            })?;
            let name = config::display_path(&path);
            (path, name)
        }
        (false, Some(repo)) => (config::repo_file(&repo.root), config::REPO_NAME.to_string()),
        (false, None) => return Err(no_repo()),
    };
    let key = setting.key;
    config::set_key(&path, &name, ("judge", key), &setting.yaml, setting.took)?;
    let mut out = Vec::new();
    if !quiet {
        out.push(format!("set judge.{key} to {} in {name}", setting.shown));
    }
    out.extend(notes(repo, global, key));
    if !out.is_empty() {
        println(&out.join("\n"))?;
    }
    Ok(OK)
}

/// What the person should know after a write: a repository value that still wins, a
/// command backend without a command, a backend not on PATH.
fn notes(repo: Option<&Repo>, global: bool, key: &str) -> Vec<String> {
    let Ok((config, sources)) = config::load_with_sources(repo.map(|r| r.root.as_path())) else {
        return Vec::new();
    };
    let judge = &config.judge;
    let mut notes = Vec::new();
    if global && repo.is_some() && sources.get(&format!("judge.{key}")) == Source::Repo {
        let value = match key {
            "model" => judge.model.as_deref().unwrap_or("null").to_string(),
            "command" => serde_json::to_string(&judge.command).unwrap_or_default(),
            _ => judge.backend.to_string(),
        };
        notes.push(format!(
            "note: {} sets judge.{key} to {}, and the repository's file wins here",
            config::REPO_NAME,
            crate::plan::text::escape_controls(&value)
        ));
    }
    if key == "backend" {
        match Runs::of(judge) {
            Runs::Command if judge.command.is_empty() => notes.push(
                "note: judge.command is empty; set it with `plan judge command ~/.local/bin/my-judge` (a program outside the repository)".to_string(),
            ),
            Runs::Program(b, None) => notes.push(format!("note: {b} is not on PATH")),
            Runs::NoneFound => notes.push(format!(
                "note: none of {} is on PATH",
                backend::auto_names()
            )),
            _ => {}
        }
    }
    notes
}
