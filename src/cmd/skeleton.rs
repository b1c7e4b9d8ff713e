//! `plan skeleton`: the plan-structured summary a compaction should keep.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::out::println;
use crate::plan::blocks::{self, Templates};
use crate::prompts::{self, overrides::or_embedded};

/// Print the summary a context compaction should keep: done, active, open goals
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print it as JSON: `{"text": …}`
    #[arg(long)]
    pub json: bool,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let src = ctx.store.read()?;
    let plan = ctx.read(&src);
    let root = ctx.prompt_root();
    let t = or_embedded(&root, "skeleton.md", prompts::SKELETON);
    let text = blocks::skeleton(
        &plan,
        Templates {
            skeleton: &t,
            ..Templates::default()
        },
    );
    let text = text.trim_end();
    if args.json {
        println(&serde_json::json!({ "text": text }).to_string())?;
    } else {
        println(text)?;
    }
    Ok(OK)
}
