//! Runs the drafting model read-only in a watched working tree, reads its answer as
//! a draft, and asks once more when the draft does not check. Writes nothing: any
//! change the model makes to the working tree is reported, never kept or undone.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;

use super::prompt::{self, Revision, Templates};
use crate::config::{BackendChoice, ModelConfig};
use crate::exec;
use crate::exit::{CHECK_FAILED, Exit};
use crate::git;
use crate::judge::backend::Backend;
use crate::judge::run::{self as judge_run, Judge};
use crate::plan::draft::{self, Checked};
use crate::plan::model::Plan;
use crate::prompts::overrides::or_embedded;
use crate::verify;

/// Why no usable draft came back.
#[derive(Debug)]
pub enum Failure {
    /// The model changed these paths in the working tree (left as they are).
    Changed(Vec<String>),
    /// The draft had errors, and still had after the model was asked again.
    Bad(Checked),
    /// The model ran but gave no answer: timeout, crash, non-zero exit, nothing.
    NoAnswer(String),
    /// Something around the model failed: it could not start, git could not tell.
    Other(anyhow::Error),
}

impl Failure {
    /// The error `plan` exits with: nothing was written in any case.
    pub fn into_error(self) -> anyhow::Error {
        match self {
            Failure::Changed(paths) => Exit::diagnostics(
                CHECK_FAILED,
                format!(
                    "plan: the drafting model changed the working tree ({}); nothing was written\n  hint: the changes are left for you to inspect (git status, git diff); a drafting model must only read",
                    paths.join(", ")
                ),
            ),
            Failure::Bad(checked) => Exit::diagnostics(
                CHECK_FAILED,
                format!(
                    "{}\n\n{}\nplan: the draft still has problems after the model was asked again; nothing was written\n  hint: run `plan draft` again, perhaps with a stronger model (--model REF)",
                    checked.text.trim_end(),
                    checked.render_problems().join("\n")
                ),
            ),
            Failure::NoAnswer(reason) => Exit::env_hint(
                format!("the drafting model gave no draft: {reason}"),
                "`plan draft --backend NAME` or `--model REF` picks another; draft.timeout_secs sets the time it gets",
            ),
            Failure::Other(e) => e,
        }
    }
}

/// What to draft for, and what against.
pub struct Request<'a> {
    /// One line.
    pub objective: &'a str,
    /// The plan the goals would join: dependencies resolve against it.
    pub plan: &'a Plan<'a>,
    pub replace: bool,
}

/// The plan-phase model, ready to run in one repository.
pub struct Drafter {
    judge: Judge,
    root: PathBuf,
    templates: Templates,
}

impl Drafter {
    /// The drafting model the `draft` settings name. `none` and a missing program
    /// are refused before anything runs.
    pub fn new(config: &ModelConfig, root: &Path) -> Result<Drafter> {
        let backend = match config.backend {
            BackendChoice::Fixed(Backend::None) => {
                return Err(Exit::env_hint("draft.backend is none: drafting needs a model", format!("pick one with `plan draft OBJECTIVE --backend NAME` ({}); it is kept in .plan/config.yaml", crate::judge::backend::model_names())));
            }
            BackendChoice::Fixed(backend) => backend,
            BackendChoice::Auto => judge_run::auto_backend().ok_or_else(|| {
                Exit::env_hint(format!("no drafting model found: none of {} is on PATH", crate::judge::backend::auto_names()), "install one, or set draft.backend (and draft.command for a command) in .plan/config.yaml")
            })?,
        };
        let program = match backend {
            Backend::Command => config.command.first().cloned().ok_or_else(|| {
                Exit::usage_hint(
                    "draft.backend is command but draft.command is empty",
                    "set draft.command in .plan/config.yaml to an argv list, e.g. [\"./draft.sh\"]",
                )
            })?,
            other => other.program().unwrap_or_default().to_string(),
        };
        // A relative path with a slash is left to the spawn: which directory it is
        // relative to is the runner's business.
        let found = match Path::new(&program) {
            p if p.is_absolute() => p.is_file(),
            _ if program.contains('/') => true,
            _ => exec::find_on_path(&program).is_some(),
        };
        if !found {
            return Err(Exit::env_hint(
                format!("cannot run the drafting model: {program} not found"),
                "install it, or pick another with `plan draft OBJECTIVE --backend NAME`",
            ));
        }
        let templates = Templates {
            drafting: or_embedded(root, "plan_drafting.md", prompt::DRAFTING),
            revision: or_embedded(root, "plan_revision.md", prompt::REVISION),
            problems: or_embedded(root, "plan_problems.md", prompt::PROBLEMS),
            system: or_embedded(root, "draft_system.md", prompt::SYSTEM),
            examples: prompt::examples(&goal_templates(root)),
        };
        Ok(Drafter {
            judge: Judge {
                backend,
                model: config.model.clone(),
                command: config.command.clone(),
                timeout: Duration::from_secs(config.timeout_secs),
            },
            root: root.to_path_buf(),
            templates,
        })
    }

    pub fn backend(&self) -> Backend {
        self.judge.backend
    }

    pub fn model(&self) -> Option<&str> {
        self.judge.model.as_deref()
    }

    /// `claude`, `claude (model opus)`.
    pub fn describe(&self) -> String {
        match self.model() {
            Some(model) => format!("{} (model {model})", self.backend()),
            None => self.backend().to_string(),
        }
    }

    /// A draft for `request`; with `revision`, a redraft of one. A draft with errors
    /// is shown, with its problems, and the model asked again once.
    pub fn draft(
        &self,
        request: &Request<'_>,
        revision: Option<Revision<'_>>,
    ) -> Result<Checked, Failure> {
        let existing = prompt::existing(request.plan, request.replace);
        let render = |revision: Option<&Revision<'_>>| {
            prompt::render(&self.templates, request.objective, &existing, revision)
        };
        let answer = self.ask(&render(revision.as_ref()))?;
        let first = check(&answer, request.plan);
        if first.is_ok() {
            return Ok(first);
        }
        let problems = first.render_problems();
        crate::out::warn(&format!(
            "plan: draft: this draft has problems:\n\n{}\n\n{}\nplan: draft: asking the model again",
            first.text.trim_end(),
            problems.join("\n")
        ));
        let fix = prompt::problems(&self.templates, &problems);
        let feedback = match &revision {
            Some(r) => format!("{}\n\n{fix}", r.feedback.trim()),
            None => fix,
        };
        let again = Revision {
            draft: &first.text,
            feedback: &feedback,
        };
        let answer = self.ask(&render(Some(&again)))?;
        let second = check(&answer, request.plan);
        match second.is_ok() {
            true => Ok(second),
            false => Err(Failure::Bad(second)),
        }
    }

    /// One model run, with the working tree compared before and after. plan.md is
    /// not exempt: nobody, model or person, should edit while a draft is made.
    fn ask(&self, prompt: &str) -> Result<String, Failure> {
        // A rewind must not move the files while the model reads them.
        let _running = crate::running::judge_or_draft(&self.root).map_err(Failure::Other)?;
        let before = git::snapshot(&self.root).map_err(Failure::Other)?;
        crate::out::warn(&format!(
            "plan: draft: asking {} (timeout {}s)",
            self.describe(),
            self.judge.timeout.as_secs()
        ));
        let answer = judge_run::ask(&self.judge, &self.root, prompt, &self.templates.system);
        let after = git::snapshot(&self.root).map_err(Failure::Other)?;
        let changed = before.changes(&after);
        if !changed.is_empty() {
            return Err(Failure::Changed(changed));
        }
        answer.map_err(|e| match e.downcast_ref::<Exit>() {
            // The runner's own errors (could not start it) carry an exit code.
            Some(_) => Failure::Other(e),
            None => Failure::NoAnswer(format!("{e:#}")),
        })
    }
}

/// The goal templates by name: the built-in ones, each replaced by
/// `.plan/templates/NAME.md` where there is one, then the repository's others by name.
fn goal_templates(root: &Path) -> Vec<(String, String)> {
    let dir = root.join(".plan").join("templates");
    let mut own: Vec<(String, String)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_str()?.strip_suffix(".md")?.to_string();
            Some((name, std::fs::read_to_string(entry.path()).ok()?))
        })
        .collect();
    own.sort();
    let mut all: Vec<(String, String)> = crate::plan::goal_template::BUILT_IN
        .iter()
        .map(
            |(name, text)| match own.iter().position(|(n, _)| n == name) {
                Some(at) => own.remove(at),
                None => (name.to_string(), text.to_string()),
            },
        )
        .collect();
    all.extend(own);
    all
}

/// A model's answer (or a person's edit) checked against `plan`, with verify lines
/// checked by the verify parser.
pub fn check(answer: &str, plan: &Plan<'_>) -> Checked {
    draft::check(answer, plan, &|line| {
        verify::parse(line).err().map(|e| (e.message, e.hint))
    })
}
