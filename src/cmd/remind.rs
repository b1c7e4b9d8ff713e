//! `plan remind`: the reminder, if it is due for a session.

use anyhow::Result;

use crate::config;
use crate::ctx::Env;
use crate::exit::OK;
use crate::out::println;
use crate::plan::blocks::{self, Templates};
use crate::plan::model::Status;
use crate::prompts::{self, overrides::or_embedded};
use crate::state::State;

/// Print the reminder if due: a goal is active and enough files changed since plan.md did
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The host session whose edits count
    #[arg(long, default_value = "default")]
    pub session: String,
    /// Print `{"due", "edits", "every", "text"}`: whether it is due, the edits counted
    /// since plan.md last changed, the setting, and the reminder (null when not due)
    #[arg(long)]
    pub json: bool,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let repo = ctx.repo()?;
    let src = ctx.store.read()?;
    let plan = ctx.read(&src);
    let every = config::load(Some(&repo.root))?.reminder_every_file_edits;
    let hash = crate::cache::content_hash(src.as_bytes());
    let session = State::new(&repo.git_dir).session(&args.session, |s| s.clone())?;
    let counted = if session.plan_hash == hash {
        session.edits
    } else {
        0
    };
    let active = plan.live().any(|g| g.status() == Status::Active);
    let due = every > 0 && active && counted >= every;
    let text = due.then(|| {
        let t = or_embedded(&repo.root, "reminder.md", prompts::REMINDER);
        blocks::reminder(Templates {
            reminder: &t,
            ..Templates::default()
        })
    });
    if args.json {
        let view =
            serde_json::json!({ "due": due, "edits": counted, "every": every, "text": text });
        println(&view.to_string())?;
    } else if let Some(text) = text {
        println(&text)?;
    }
    Ok(OK)
}
