//! `plan draft`: plan mode. A read-only drafting model proposes goals for an
//! objective; on a terminal they are reviewed at once (Ready / Edit / $EDITOR /
//! Cancel), otherwise approved with `--yes` or kept for `plan review`. plan.md
//! changes only on approval.

use std::io::IsTerminal;

use anyhow::Result;

use crate::config::{self, BackendChoice, Config, edit};
use crate::ctx::Env;
use crate::draft::prompt::Revision;
use crate::draft::review::{self, Outcome, Terminal};
use crate::draft::run::{Drafter, Failure, Request, check};
use crate::draft::{apply, proposal};
use crate::exit::{Exit, OK};
use crate::git::Repo;
use crate::judge::backend::Backend;
use crate::out::println;
use crate::plan::ops::one_line;

/// Draft goals for an objective with the plan-phase model, then review them
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What the goals should achieve, in a sentence
    pub objective: String,
    /// The drafting model, as its backend names it (`none`: the backend's default);
    /// kept as draft.model in .plan/config.yaml
    #[arg(long, value_name = "REF")]
    pub model: Option<String>,
    // The names come from the registry, so the help stays true as hosts are added.
    #[arg(long, value_name = "NAME", help = format!(
        "The drafting backend: auto, {}; kept as draft.backend in .plan/config.yaml",
        crate::judge::backend::model_names()
    ))]
    pub backend: Option<String>,
    /// Approve the draft as it comes, without a review
    #[arg(long)]
    pub yes: bool,
    /// On approval, first cancel the open and active goals and archive the finished
    /// ones (in the same write)
    #[arg(long)]
    pub replace: bool,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let repo = ctx.repo()?;
    let objective = one_line(&args.objective);
    if objective.is_empty() {
        return Err(Exit::usage_hint(
            "say what the goals should achieve",
            "plan draft \"Add a cache in front of the database\"",
        ));
    }
    crate::service::plain("the objective", &objective)?;
    remember(repo, &args)?;
    let config = config::load(Some(&repo.root))?;
    let drafter = Drafter::new(&config.draft, &repo.root)?;
    let src = match ctx.store.path.exists() {
        true => ctx.store.read()?,
        false => String::new(),
    };
    let plan = ctx.parse(&src)?;
    let request = Request {
        objective: &objective,
        plan: &plan,
        replace: args.replace,
    };
    let checked = drafter.draft(&request, None).map_err(Failure::into_error)?;

    if args.yes {
        apply::ready(ctx, &checked.text, &objective, args.replace, false)?;
        return Ok(OK);
    }
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        let outcome = review::review(
            &mut Terminal,
            checked,
            &mut |current, feedback| {
                let revision = Revision {
                    draft: &current.text,
                    feedback,
                };
                drafter.draft(&request, Some(revision))
            },
            &|text| check(text, &plan),
        )?;
        return match outcome {
            Outcome::Ready(approved) => {
                apply::ready(ctx, &approved.text, &objective, args.replace, true)?;
                Ok(OK)
            }
            Outcome::Cancelled => {
                println("cancelled: nothing was written")?;
                Ok(OK)
            }
        };
    }
    // No one to ask here (a script, CI, a chat bot): keep it for `plan review`.
    let now = proposal::now();
    let pending = proposal::Proposal::new(
        &objective,
        &checked.text,
        drafter.backend().as_str(),
        drafter.model(),
        args.replace,
        now,
    );
    if let Ok(Some(waiting)) = proposal::load(&repo.git_dir) {
        crate::out::warn(&format!(
            "plan: note: this replaces the draft that was waiting for \"{}\"",
            waiting.objective
        ));
    }
    proposal::save(&repo.git_dir, &pending)?;
    println(&proposal::show(&pending, &checked.render_problems(), now))?;
    Ok(OK)
}

/// `--backend` and `--model` are sticky: they are written to .plan/config.yaml,
/// changing only their line, before the model runs.
fn remember(repo: &Repo, args: &Args) -> Result<()> {
    if let Some(name) = &args.backend {
        let choice: BackendChoice = name.trim().parse().map_err(|message: String| {
            Exit::usage_hint(
                message.to_string(),
                format!(
                    "auto takes the first of {} found on PATH",
                    crate::judge::backend::auto_names_and()
                ),
            )
        })?;
        if choice == BackendChoice::Fixed(Backend::None) {
            return Err(Exit::usage_hint(
                "--backend none: drafting needs a model",
                format!("pick {} (or auto)", crate::judge::backend::model_names()),
            ));
        }
        set(
            repo,
            "backend",
            &edit::scalar(Some(choice.as_str())),
            &choice.to_string(),
            &|c| c.draft.backend == choice,
        )?;
    }
    if let Some(model) = &args.model {
        let model = match model.trim() {
            "" => {
                return Err(Exit::usage_hint(
                    "the model is empty",
                    "`--model none` goes back to the backend's default",
                ));
            }
            "none" => None,
            m => Some(m.to_string()),
        };
        let shown = model
            .clone()
            .unwrap_or_else(|| "null (the backend's default)".to_string());
        set(
            repo,
            "model",
            &edit::scalar(model.as_deref()),
            &shown,
            &|c| c.draft.model == model,
        )?;
    }
    Ok(())
}

/// Sets `draft.KEY` in the repository's settings, as `plan judge model` sets
/// `judge.model`.
fn set(
    repo: &Repo,
    key: &str,
    yaml: &str,
    shown: &str,
    took: &dyn Fn(&Config) -> bool,
) -> Result<()> {
    let (path, name) = (config::repo_file(&repo.root), config::REPO_NAME);
    if config::set_key(&path, name, ("draft", key), yaml, took)? {
        crate::out::warn(&format!("plan: set draft.{key} to {shown} in {name}"));
    }
    Ok(())
}
