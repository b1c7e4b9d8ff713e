//! `plan templates`: the goal templates `plan add --template NAME` starts from, the
//! built-in ones and the repository's `.plan/templates/NAME.md` (which win by name).

use anyhow::Result;
use serde::Serialize;

use crate::ctx::Env;
use crate::exit::OK;
use crate::out::println;
use crate::plan::goal_template::{self, BUILT_IN};

/// List the goal templates for `plan add --template NAME`: built in, and the
/// repository's .plan/templates/NAME.md, each with the done_when it starts from
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print them as JSON: an array of `name`, `source` (`built-in` or the file) and
    /// `done_when` (null when the template has none), or `error` for one plan cannot read
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
struct Template {
    name: String,
    source: String,
    done_when: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let dir = ctx.prompt_root().join(".plan").join("templates");
    let mut own: Vec<(String, String)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let file = entry.file_name().to_string_lossy().into_owned();
            let name = file.strip_suffix(".md")?.to_string();
            // The names `plan add --template` accepts; any other file is not one.
            let valid = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            let text = std::fs::read_to_string(entry.path()).ok()?;
            valid.then_some((name, text))
        })
        .collect();
    own.sort();
    let mut all: Vec<Template> = BUILT_IN
        .iter()
        .filter(|(name, _)| !own.iter().any(|(n, _)| n == name))
        .map(|(name, text)| template(name, "built-in".to_string(), text))
        .collect();
    all.extend(
        own.iter()
            .map(|(name, text)| template(name, format!(".plan/templates/{name}.md"), text)),
    );
    if args.json {
        println(&crate::out::json(&all)?)?;
        return Ok(OK);
    }
    let width = all.iter().map(|t| t.name.len()).max().unwrap_or(0);
    let source_width = all.iter().map(|t| t.source.len()).max().unwrap_or(0);
    for t in &all {
        let what = match (&t.done_when, &t.error) {
            (_, Some(error)) => format!("unreadable: {error}"),
            (Some(done_when), None) => format!("done_when: {done_when}"),
            (None, None) => "no done_when".to_string(),
        };
        let over = if t.source != "built-in" && BUILT_IN.iter().any(|(n, _)| *n == t.name) {
            " (replaces the built-in)"
        } else {
            ""
        };
        println(&format!(
            "{:width$}  {:source_width$}  {what}{over}",
            t.name, t.source
        ))?;
    }
    Ok(OK)
}

fn template(name: &str, source: String, text: &str) -> Template {
    let (done_when, error) = match goal_template::read(text, "{title}") {
        Ok(start) => (start.done_when, None),
        Err(e) => (None, Some(e)),
    };
    Template {
        name: name.to_string(),
        source,
        done_when,
        error,
    }
}
