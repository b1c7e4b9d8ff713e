//! The context a command runs in: the global options, and (built when a command
//! first asks) the repository, the plan file and how output looks.

use std::cell::OnceCell;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// When to colour the output (`--color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

use anyhow::Result;

use crate::exit::{Exit, USAGE};
use crate::git::{self, Repo};
use crate::out::println;
use crate::plan::diag::Diagnostic;
use crate::plan::model::{Goal, Lookup, Plan};
use crate::plan::render::Style;
use crate::store::Store;

/// What every command gets: the global options, and the [`Ctx`] built from them
/// the first time a command asks. Hooks never ask (they find their way from the
/// host's cwd), and `plan judge --global` works outside a repository.
pub struct Env {
    file: Option<PathBuf>,
    color: Color,
    pub quiet: bool,
    ctx: OnceCell<Ctx>,
}

impl Env {
    pub fn new(file: Option<PathBuf>, color: Color, quiet: bool) -> Env {
        Env {
            file,
            color,
            quiet,
            ctx: OnceCell::new(),
        }
    }

    /// An environment whose context is already built: `plan mcp` runs each tool call
    /// in the repository its client names.
    pub fn with(ctx: Ctx) -> Env {
        let env = Env::new(None, Color::Never, ctx.quiet);
        let _ = env.ctx.set(ctx);
        env
    }

    /// The plan file as `--file` or PLAN_FILE named it.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The repository, plan file and style; an error outside a repository without
    /// `--file`.
    pub fn ctx(&self) -> Result<&Ctx> {
        if let Some(ctx) = self.ctx.get() {
            return Ok(ctx);
        }
        let ctx = Ctx::new(self.file.clone(), self.color, self.quiet)?;
        Ok(self.ctx.get_or_init(|| ctx))
    }

    /// The git repository around the current directory, if any, for commands that
    /// work without a plan file (`install`, `judge`).
    pub fn repo(&self) -> Result<Option<Repo>> {
        discover()
    }
}

pub struct Ctx {
    pub cwd: PathBuf,
    pub repo: Option<Repo>,
    pub store: Store,
    pub style: Style,
    /// `--quiet`: writes say nothing on success.
    pub quiet: bool,
}

/// The git repository around the current directory, if any.
fn discover() -> Result<Option<Repo>> {
    git::discover(&current_dir()?)
}

fn current_dir() -> Result<PathBuf> {
    std::env::current_dir()
        .map_err(|e| Exit::env(format!("cannot read the current directory: {e}")))
}

impl Ctx {
    fn new(file: Option<PathBuf>, color: Color, quiet: bool) -> Result<Ctx> {
        let mut ctx = Ctx::at(current_dir()?, file)?;
        ctx.style = Style {
            color: use_color(color),
        };
        ctx.quiet = quiet;
        Ok(ctx)
    }

    /// As if plan ran in `cwd`, without colour: `plan mcp` serves the repository
    /// its client names.
    pub fn at(cwd: PathBuf, file: Option<PathBuf>) -> Result<Ctx> {
        let repo = git::discover(&cwd)?;
        let (path, name) = match (file, &repo) {
            (Some(file), _) => {
                let name = file.display().to_string();
                (file, name)
            }
            (None, Some(repo)) => (repo.root.join("plan.md"), "plan.md".to_string()),
            (None, None) => {
                return Err(Exit::env_hint(
                    "not inside a git repository",
                    "plan keeps plan.md at the root of a git repository; run `git init`, or name a file with --file or PLAN_FILE",
                ));
            }
        };
        let store = Store::new(path, name);
        Ok(Ctx {
            cwd,
            repo,
            store,
            style: Style::default(),
            quiet: false,
        })
    }

    /// Prints a write's success message, unless `--quiet`.
    pub fn say(&self, text: &str) -> Result<()> {
        if self.quiet {
            return Ok(());
        }
        println(text)
    }

    /// The repository, for commands that need one even when --file names the plan.
    pub fn repo(&self) -> Result<&Repo> {
        self.repo.as_ref().ok_or_else(|| {
            Exit::env_hint(
                "not inside a git repository",
                "this command needs the repository around plan.md; run it inside one",
            )
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

    /// Parses `src` for a command that writes. A file whose structure is broken is
    /// refused, every error with its line; errors inside some goals are a warning,
    /// and [`Ctx::find`] refuses those goals, so writes touch only healthy ones.
    /// Live finished goals, and those live goals depend on, are checked against
    /// their sign-off records; a command that shows archived goals' standing calls
    /// [`Ctx::prove`] for all of them.
    pub fn parse<'a>(&self, src: &'a str) -> Result<Plan<'a>> {
        let mut plan = crate::plan::model::parse(src);
        if plan.structure_broken() {
            return Err(Exit::diagnostics(USAGE, self.render(&plan, &plan.errors)));
        }
        if !plan.errors.is_empty() {
            let broken: Vec<&str> = plan
                .goals
                .iter()
                .filter(|g| !plan.errors_in(g).is_empty())
                .map(|g| g.id.as_ref())
                .collect();
            crate::out::warn(&format!(
                "plan: warning: {} has format errors in {}; those goals are left unchanged (plan lint lists them)",
                self.store.name,
                match broken.as_slice() {
                    [] => "some goals".to_string(),
                    [one] => format!("goal {one}"),
                    many => format!("goals {}", many.join(", ")),
                }
            ));
        }
        self.prove_live(&mut plan);
        Ok(plan)
    }

    /// Parses `src` for a command that only reads: whatever the errors, it shows
    /// what it can, and the errors go to stderr with their lines.
    pub fn read<'a>(&self, src: &'a str) -> Plan<'a> {
        let mut plan = crate::plan::model::parse(src);
        if !plan.errors.is_empty() {
            self.warn_errors(&plan);
        }
        self.prove_live(&mut plan);
        plan
    }

    /// As [`Ctx::read`], proven from plan.md's lines alone (no transcript read):
    /// what `plan inject` and `plan statusline` show, as the hooks do.
    pub fn read_lines<'a>(&self, src: &'a str) -> Plan<'a> {
        let mut plan = crate::plan::model::parse(src);
        if !plan.errors.is_empty() {
            self.warn_errors(&plan);
        }
        plan.prove_lines();
        plan
    }

    fn warn_errors(&self, plan: &Plan<'_>) {
        let n = plan.errors.len();
        crate::out::warn(&format!(
            "plan: warning: {} has {n} format error{}; goals with errors are shown as read and left unchanged (plan lint, plan doctor)\n{}",
            self.store.name,
            if n == 1 { "" } else { "s" },
            self.render(plan, &plan.errors)
        ));
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
        self.prove_with(plan, false);
    }

    /// As [`Ctx::prove`], for the pull-request gate: its workflow fetched every
    /// checkpoint, so one this clone lacks is in no repository it reaches, and the
    /// sign-off naming it is unproven rather than a warning to fetch.
    pub fn prove_in_gate(&self, plan: &mut Plan<'_>) {
        self.prove_with(plan, true);
    }

    fn prove_with(&self, plan: &mut Plan<'_>, gate: bool) {
        let root = self.prompt_root();
        plan.prove(&|rel| crate::record::facts(&root, rel));
        // One ref listing per command: the hooks (prove_live) never pay for it.
        if let Some(repo) = self.repo.as_ref()
            && let Some(refs) = crate::record::checkpoints(&repo.root)
        {
            let fetch = crate::record::checkpoint_fetch(&repo.root);
            let elsewhere = match &fetch {
                Some(command) if !gate => crate::plan::bind::Elsewhere::Fetch(command),
                Some(_) => crate::plan::bind::Elsewhere::Fetched,
                None => crate::plan::bind::Elsewhere::Nowhere,
            };
            let refs = crate::record::with_moved(&repo.root, plan, refs);
            crate::plan::bind::apply(plan, &refs, elsewhere);
            self.check_checkpoint_trees(plan, &refs);
        }
        if let Some(repo) = self.repo.as_ref() {
            never_committed(&repo.root, plan);
        }
    }

    /// Each live proven done goal's checkpoint, read from its tree: one taken for
    /// another goal (the goal absent there, or finished already) proves nothing here.
    /// A tree that cannot be read says nothing either way.
    fn check_checkpoint_trees(&self, plan: &mut Plan<'_>, refs: &[crate::plan::bind::Checkpoint]) {
        use crate::plan::model::Status;
        use crate::plan::proof::Proof;
        let (Some(repo), Some(rel)) = (&self.repo, self.plan_in_repo()) else {
            return;
        };
        let mut changes = Vec::new();
        for goal in plan
            .goals
            .iter()
            .filter(|g| !g.archived && g.status() == Status::Done)
        {
            if !plan.proof(goal).is_proven() {
                continue;
            }
            let id = goal.id.as_ref();
            let Some((entry, named)) = crate::plan::bind::latest_sign_off(plan, id) else {
                continue;
            };
            // A line that names no checkpoint is bound by the ref for its goal and
            // minute (bind::check): that ref's tree is checked the same.
            let Some(mine) = crate::plan::bind::kept_for(refs, id, entry, named) else {
                continue;
            };
            let short = named.unwrap_or(&mine.commit[..12]);
            let Ok(text) = git::file_at(&repo.root, &mine.commit, &rel) else {
                continue;
            };
            let then = text.as_deref().map(crate::plan::model::parse);
            if let Some((why, hint)) =
                crate::plan::bind::foreign_tree(then.as_ref(), id, short, entry)
            {
                changes.push((goal.line, Proof::Unproven { why, hint }));
            }
        }
        for (line, proof) in changes {
            plan.set_proof(line, proof);
        }
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

    /// The goal an id (or unique prefix) names, for a command that writes to it:
    /// a goal with format errors is refused, its errors listed. Otherwise the
    /// candidates.
    pub fn find<'p, 'a>(&self, plan: &'p Plan<'a>, query: &str) -> Result<&'p Goal<'a>> {
        let goal = self.lookup(plan, query)?;
        let errors: Vec<Diagnostic> = plan.errors_in(goal).into_iter().cloned().collect();
        if !errors.is_empty() {
            return Err(Exit::diagnostics(
                USAGE,
                format!(
                    "{}\n{}: goal \"{}\" has format errors; nothing was written\n  hint: fix the lines above (plan doctor --fix repairs the mechanical ones), then rerun",
                    self.render(plan, &errors),
                    self.store.name,
                    goal.id
                ),
            ));
        }
        Ok(goal)
    }

    /// The goals `--depends-on` names (ids or unique prefixes, blanks skipped), as
    /// ids, each once, in the order given.
    pub fn dependency_ids(&self, plan: &Plan<'_>, given: &[String]) -> Result<Vec<String>> {
        let mut ids: Vec<String> = Vec::new();
        for dep in given.iter().map(|d| d.trim()).filter(|d| !d.is_empty()) {
            let id = self.find(plan, dep)?.id.to_string();
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        Ok(ids)
    }

    /// The goal an id (or unique prefix) names, errors or not; otherwise the
    /// candidates.
    pub fn lookup<'p, 'a>(&self, plan: &'p Plan<'a>, query: &str) -> Result<&'p Goal<'a>> {
        // Every id starts with "": without this, an empty id lists them all as "could be".
        if query.trim().is_empty() {
            return Err(Exit::usage_hint(
                "no goal id given",
                "`plan show` lists the goals with their ids",
            ));
        }
        // Echoed (and matched against the ids for a hint) by its start only: a
        // 10 MB argument is never printed whole.
        let shown = crate::plan::text::excerpt(query);
        plan.resolve(query).map_err(|lookup| {
            let query = &*shown;
            match lookup {
                Lookup::Unknown { candidates } if candidates.is_empty() => Exit::usage_hint(
                    format!("no goal \"{query}\": {} has no goals yet", self.store.name),
                    "`plan add TITLE` adds one",
                ),
                Lookup::Unknown { candidates } => Exit::usage_hint(
                    format!("no goal \"{query}\""),
                    unknown_id_hint(query, &candidates),
                ),
                Lookup::Ambiguous { candidates } => Exit::usage_hint(
                    format!("\"{query}\" could be {}", candidates.join(", ")),
                    "give more of the id",
                ),
            }
        })
    }
}

/// What a mistyped id was meant to be: the nearest ids; else, in a short plan,
/// every id, and in a long one where to find them.
fn unknown_id_hint(query: &str, candidates: &[String]) -> String {
    let near = crate::plan::nearest::did_you_mean(query, candidates.iter().map(String::as_str), "");
    match near {
        Some(hint) => hint,
        None if candidates.len() <= 5 => format!("goals are {}", candidates.join(", ")),
        None => "`plan show` lists the goals with their ids".to_string(),
    }
}

/// `auto` colours a terminal, unless NO_COLOR is set (https://no-color.org) or the
/// terminal says it is dumb; the flag, when given, wins over both.
fn use_color(color: Color) -> bool {
    match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            let no_color = crate::env::os("NO_COLOR").is_some_and(|v| !v.is_empty());
            let dumb = crate::env::os("TERM").is_some_and(|t| t == "dumb");
            !no_color && !dumb && std::io::stdout().is_terminal()
        }
    }
}

/// A missing transcript git never had cannot be restored from it: its hint says
/// where it can come from instead. `plan lint` and `plan audit` both read it here.
fn never_committed(root: &Path, plan: &mut Plan<'_>) {
    let changes: Vec<(usize, crate::plan::proof::Proof)> = plan
        .goals
        .iter()
        .filter_map(|goal| {
            let crate::plan::proof::Proof::Unproven { why, .. } = plan.proof(goal) else {
                return None;
            };
            let path = why
                .strip_prefix("its transcript ")?
                .strip_suffix(" is missing")?;
            if git::in_head(root, Path::new(path)).unwrap_or(true) {
                return None;
            }
            let id = goal.id.as_ref();
            let hint = format!(
                "{path} was never committed, so git cannot restore it: commit it in the clone that signed {id} off and pull, or sign {id} off again here (`plan complete {id} --evidence TEXT --path FILE`)"
            );
            Some((goal.line, crate::plan::proof::Proof::Unproven { why, hint }))
        })
        .collect();
    for (line, proof) in changes {
        plan.set_proof(line, proof);
    }
}
