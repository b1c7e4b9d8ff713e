//! Which judge a sign-off, a re-judge or the loop asks: `--judge`, else the
//! configured backend (`auto` resolved on PATH now), else `judge.panel`. The one
//! place the choice is made; it runs nothing.

use std::time::Duration;

use anyhow::Result;

use super::backend::{self, Backend};
use super::run::{self, Judge};
use crate::config::{BackendChoice, Config};
use crate::exit::Exit;

/// The judges chosen.
pub enum Chosen {
    /// `none`: the judge is skipped.
    Skip,
    One(Judge),
    /// `judge.panel`: every one must accept.
    Panel(Vec<Judge>),
}

/// Whether a configured `judge.panel` may be chosen. The CI gate's re-judge and the
/// loop judge ask one judge; a sign-off asks the panel.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    Allowed,
    Ignored,
}

/// The judge for `flag` (`--judge`) under `config`. A flag names one judge, which
/// replaces a configured panel; a model configured for one backend is dropped when
/// the flag picks another, since it means nothing there.
pub fn resolve(flag: Option<&str>, config: &Config, panel: Panel) -> Result<Chosen> {
    let configured = &config.judge;
    if flag.is_none() && panel == Panel::Allowed && !configured.panel.is_empty() {
        let timeout = Duration::from_secs(configured.timeout_secs);
        let judges = configured
            .panel
            .iter()
            .map(|j| Judge {
                backend: j.backend,
                model: j.model.clone(),
                command: j.command.clone(),
                timeout,
            })
            .collect();
        return Ok(Chosen::Panel(judges));
    }
    let choice = match flag {
        None => configured.backend,
        Some("auto") => BackendChoice::Auto,
        Some(name) => BackendChoice::Fixed(
            name.parse::<Backend>()
                .map_err(|e| Exit::usage(format!("{e:#}")))?,
        ),
    };
    let model = match (flag, configured.backend) {
        (Some(_), BackendChoice::Fixed(b)) if choice != BackendChoice::Fixed(b) => None,
        _ => configured.model.clone(),
    };
    let backend = match choice {
        BackendChoice::Fixed(Backend::None) => return Ok(Chosen::Skip),
        BackendChoice::Fixed(backend) => backend,
        BackendChoice::Auto => run::auto_backend().ok_or_else(|| {
            Exit::env_hint(
                format!(
                    "no judge found: none of {} is on PATH",
                    backend::auto_names()
                ),
                "install one, set a command judge in .plan/config.yaml, or sign off without a judge: --judge none",
            )
        })?,
    };
    Ok(Chosen::One(Judge {
        backend,
        model,
        command: configured.command.clone(),
        timeout: Duration::from_secs(configured.timeout_secs),
    }))
}

/// One judge, or `None` for `none`: [`resolve`] with any panel ignored.
pub fn one(flag: Option<&str>, config: &Config) -> Result<Option<Judge>> {
    Ok(match resolve(flag, config, Panel::Ignored)? {
        Chosen::One(judge) => Some(judge),
        Chosen::Skip | Chosen::Panel(_) => None,
    })
}
