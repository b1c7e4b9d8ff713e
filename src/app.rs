//! The context every command runs in — repository, plan file, colour — and the one
//! dispatch match.

use std::cell::RefCell;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::cli::{Cli, Command};
use crate::cmd;
use crate::exit::{Exit, USAGE};
use crate::git::{self, Repo};
use crate::plan::diag::Diagnostic;
use crate::plan::model::{Goal, Lookup, Plan};
use crate::plan::render::Style;
use crate::store::Store;

pub struct Ctx {
    pub cwd: PathBuf,
    pub repo: Option<Repo>,
    pub store: Store,
    pub style: Style,
}

pub fn run(cli: Cli) -> Result<u8> {
    let command = cli
        .command
        .unwrap_or(Command::Show(cmd::show::Args::default()));
    // Built only by the commands that need a plan file: hooks find their own way from
    // the host's cwd, and `plan judge --global` works outside a repository.
    let file = cli.file;
    let ctx = || Ctx::new(file.clone());
    match command {
        Command::Hook(args) => Ok(cmd::hook::run(args)),
        Command::Init(args) => cmd::init::run(&ctx()?, args),
        Command::Show(args) => cmd::show::run(&ctx()?, args),
        Command::Add(args) => cmd::add::run(&ctx()?, args),
        Command::Start(args) => cmd::start::run(&ctx()?, args),
        Command::Tick(args) => cmd::tick::run(&ctx()?, args),
        Command::Untick(args) => cmd::untick::run(&ctx()?, args),
        Command::Edit(args) => cmd::edit::run(&ctx()?, args),
        Command::Reopen(args) => cmd::reopen::run(&ctx()?, args),
        Command::Subtask(args) => cmd::subtask::run(&ctx()?, args),
        Command::Subgoal(args) => cmd::subgoal::run(&ctx()?, args),
        Command::Log(args) => cmd::log::run(&ctx()?, args),
        Command::Cancel(args) => cmd::cancel::run(&ctx()?, args),
        Command::Archive(args) => cmd::archive::run(&ctx()?, args),
        Command::Lint(args) => cmd::lint::run(&ctx()?, args),
        Command::Next(args) => cmd::next::run(&ctx()?, args),
        Command::Diff(args) => cmd::diff::run(&ctx()?, args),
        Command::Doctor(args) => cmd::doctor::run(&ctx()?, args),
        Command::Audit(args) => cmd::audit::run(&ctx()?, args),
        Command::Complete(args) => cmd::complete::run(&ctx()?, args),
        Command::Goal(args) => cmd::goal::run(&ctx()?, args),
        Command::Inject(args) => cmd::inject::run(&ctx()?, args),
        Command::Remind(args) => cmd::remind::run(&ctx()?, args),
        Command::Skeleton(args) => cmd::skeleton::run(&ctx()?, args),
        Command::Statusline(args) => cmd::statusline::run(&ctx()?, args),
        Command::Draft(args) => cmd::draft::run(&ctx()?, args),
        Command::Review(args) => cmd::review::run(&ctx()?, args),
        Command::Judge(args) => cmd::judge::run(discover()?.as_ref(), args),
        // Registering hooks touches a host's settings, never plan.md, and `--global`
        // works outside any repository.
        Command::Install(args) => cmd::install::run(discover()?.as_ref(), args),
        Command::Uninstall(args) => cmd::uninstall::run(discover()?.as_ref(), args),
        // Finds its repository from the client's roots; runs no hooks.
        Command::Mcp(args) => cmd::mcp::run(file, args),
    }
}

/// The git repository around the current directory, if any.
pub fn discover() -> Result<Option<Repo>> {
    git::discover(&current_dir()?)
}

fn current_dir() -> Result<PathBuf> {
    std::env::current_dir()
        .map_err(|e| Exit::env(format!("cannot read the current directory: {e}")))
}

impl Ctx {
    fn new(file: Option<PathBuf>) -> Result<Ctx> {
        Ctx::at(current_dir()?, file)
    }

    /// As if plan ran in `cwd`: `plan mcp` serves the repository its client names.
    pub fn at(cwd: PathBuf, file: Option<PathBuf>) -> Result<Ctx> {
        let repo = git::discover(&cwd)?;
        let (path, name) = match (file, &repo) {
            (Some(file), _) => {
                let name = file.display().to_string();
                (file, name)
            }
            (None, Some(repo)) => (repo.root.join("plan.md"), "plan.md".to_string()),
            (None, None) => {
                return Err(Exit::env(
                    "not inside a git repository\n  hint: plan keeps plan.md at the root of a git repository; run `git init`, or name a file with --file or PLAN_FILE",
                ));
            }
        };
        let store = Store::new(path, name);
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let style = Style {
            color: !no_color && std::io::stdout().is_terminal(),
        };
        Ok(Ctx {
            cwd,
            repo,
            store,
            style,
        })
    }

    /// The repository, for commands that need one even when --file names the plan.
    pub fn repo(&self) -> Result<&Repo> {
        self.repo.as_ref().ok_or_else(|| {
            Exit::env("not inside a git repository\n  hint: this command needs the repository around plan.md; run it inside one")
        })
    }

    /// plan.md's path inside the repository (`plan.md`, `docs/plan.md`), however
    /// --file or PLAN_FILE named it: relative to the current directory, through a
    /// symlink, or `..`. `None` when it lies outside the repository.
    pub fn plan_in_repo(&self) -> Option<PathBuf> {
        let repo = self.repo.as_ref()?;
        let root = std::fs::canonicalize(&repo.root).ok()?;
        let path = std::fs::canonicalize(self.cwd.join(&self.store.path)).ok()?;
        path.strip_prefix(&root).ok().map(Path::to_path_buf)
    }

    /// Where a repository's prompt overrides (`.plan/prompts/`) are looked for: the
    /// repository root, or the current directory when --file works outside one.
    pub fn prompt_root(&self) -> PathBuf {
        self.repo
            .as_ref()
            .map_or_else(|| self.cwd.clone(), |r| r.root.clone())
    }

    /// Parses `src`, refusing a plan with format errors: every error with its line.
    /// Live finished goals, and those live goals depend on, are checked against
    /// their sign-off records; a command that shows archived goals' standing calls
    /// [`Ctx::prove`] for all of them.
    pub fn parse<'a>(&self, src: &'a str) -> Result<Plan<'a>> {
        let mut plan = crate::plan::model::parse(src);
        if plan.errors.is_empty() {
            self.prove_live(&mut plan);
            return Ok(plan);
        }
        Err(Exit::diagnostics(USAGE, self.render(&plan, &plan.errors)))
    }

    /// The commit HEAD points at, for started events: the judge later sees
    /// everything changed since. `None` outside a repository or on an unborn branch.
    pub fn head_commit(&self) -> Result<Option<String>> {
        match &self.repo {
            Some(repo) => git::head_commit(&repo.root),
            None => Ok(None),
        }
    }

    /// The text of goal `id`'s contract with this fingerprint, from the newest
    /// committed version of plan.md that had it (the last 200 commits touching it).
    pub fn contract_text(&self, id: &str, fingerprint: &str) -> Option<String> {
        const DEPTH: usize = 200;
        let repo = self.repo.as_ref()?;
        let rel = self
            .plan_in_repo()
            .unwrap_or_else(|| self.store.path.clone());
        let revisions = git::file_history(&repo.root, &rel, DEPTH).ok()?;
        revisions.iter().find_map(|rev| {
            let then = crate::plan::model::parse(&rev.content);
            let goal = then.goal(id)?;
            (goal.fingerprint() == fingerprint).then(|| goal.contract())
        })
    }

    /// Checks every finished goal of `plan` against its record on disk.
    pub fn prove(&self, plan: &mut Plan<'_>) {
        let root = self.prompt_root();
        plan.prove(&|rel| crate::record::facts(&root, rel));
    }

    /// As [`Ctx::prove`], for live goals and their dependencies only: archived
    /// goals are most of a long plan, and each proven one costs a transcript read.
    pub fn prove_live(&self, plan: &mut Plan<'_>) {
        let root = self.prompt_root();
        plan.prove_live(&|rel| crate::record::facts(&root, rel));
    }

    pub fn render(&self, plan: &Plan<'_>, diagnostics: &[Diagnostic]) -> String {
        diagnostics
            .iter()
            .map(|d| {
                let text =
                    (d.line > 0 && d.line <= plan.lines.len()).then(|| plan.line_text(d.line));
                d.render(&self.store.name, text)
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The goal an id (or unique prefix) names; otherwise the candidates.
    pub fn find<'p, 'a>(&self, plan: &'p Plan<'a>, query: &str) -> Result<&'p Goal<'a>> {
        plan.resolve(query).map_err(|lookup| match lookup {
            Lookup::Unknown { candidates } if candidates.is_empty() => Exit::usage(format!(
                "no goal \"{query}\": {} has no goals yet\n  hint: `plan add TITLE` adds one",
                self.store.name
            )),
            Lookup::Unknown { candidates } => Exit::usage(format!(
                "no goal \"{query}\"\n  hint: goals are {}",
                candidates.join(", ")
            )),
            Lookup::Ambiguous { candidates } => Exit::usage(format!(
                "\"{query}\" could be {}\n  hint: give more of the id",
                candidates.join(", ")
            )),
        })
    }
}

/// Where a command's output goes instead of stdout while [`capture`] runs it, and
/// who hears its [`progress`]. Per thread: `plan mcp` runs each tool call on its own.
struct Sink {
    out: String,
    progress: Box<dyn FnMut(&str)>,
}

thread_local! {
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
}

/// Runs `f` with everything it prints collected rather than written to stdout (which
/// `plan mcp` owns for the protocol), and `progress` told each [`progress`] step.
/// Returns `f`'s result and the text.
pub fn capture<T>(progress: impl FnMut(&str) + 'static, f: impl FnOnce() -> T) -> (T, String) {
    /// Clears the sink however `f` ends, a panic included.
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            SINK.with(|s| s.borrow_mut().take());
        }
    }
    SINK.with(|s| {
        *s.borrow_mut() = Some(Sink {
            out: String::new(),
            progress: Box::new(progress),
        });
    });
    let reset = Reset;
    let result = f();
    let out = SINK.with(|s| s.borrow_mut().as_mut().map(|s| std::mem::take(&mut s.out)));
    drop(reset);
    (result, out.unwrap_or_default())
}

/// A step of a long command (a sign-off's verify, its judge), for whoever
/// [`capture`]s it; nothing otherwise: the CLI says the same on stderr.
pub fn progress(step: &str) {
    SINK.with(|s| {
        if let Some(sink) = s.borrow_mut().as_mut() {
            (sink.progress)(step);
        }
    });
}

/// Writes to stdout, or to the [`capture`] sink when one is set; a closed pipe
/// surfaces as an error `main` treats as success.
pub fn print(text: &str) -> Result<()> {
    let captured = SINK.with(|s| {
        s.borrow_mut()
            .as_mut()
            .map(|sink| sink.out.push_str(text))
            .is_some()
    });
    if captured {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

pub fn println(text: &str) -> Result<()> {
    print(&format!("{text}\n"))
}
