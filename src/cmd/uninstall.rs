//! `plan uninstall`: take back exactly what `plan install` registered — our hook
//! entries, plan's pi extension, plan's plugin files — and nothing else.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::cmd::install::{
    self as install, Place, Target, invalid, listing, place, plugin_files, plugin_is_for_claude,
    program, read_settings, read_text, write_atomic,
};
use crate::ctx::Env;
use crate::exit::{Exit, OK};
use crate::install::hooks::{self as hooks, Host};
use crate::hosts::Registration;
use crate::install::mcp::{self as mcp_install, Client as McpClient};
use crate::out::print;

/// Remove plan's hooks from a coding agent's settings, leaving everything else
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agent to remove them from, agents-md for plan's section of AGENTS.md, git
    /// for plan's merge driver, or ci for plan's GitHub Actions workflow
    #[arg(value_enum, required_unless_present = "mcp")]
    pub host: Option<Target>,
    /// Remove plan's MCP server from CLIENT's MCP file instead
    #[arg(long, value_enum, value_name = "CLIENT", conflicts_with_all = ["host", "plugin"])]
    pub mcp: Option<McpClient>,
    /// Remove the registration for your user instead of this repository's
    #[arg(long)]
    pub global: bool,
    /// Remove the Claude Code plugin plan wrote into DIR
    #[arg(long, value_name = "DIR", conflicts_with = "global")]
    pub plugin: Option<PathBuf>,
    /// Also recognise hooks installed with this --command [plan and any path ending
    /// in /plan are always recognised]
    #[arg(long, value_name = "PATH")]
    pub command: Option<String>,
}

/// Removes plan's section of AGENTS.md, and nothing else.
fn agents_md(repo: Option<&crate::git::Repo>, global: bool) -> Result<u8> {
    let path = install::agents_md_path(repo, global)?;
    let Ok(old) = std::fs::read_to_string(&path) else {
        print("AGENTS.md: no file, nothing to remove\n")?;
        return Ok(OK);
    };
    let Some(new) = crate::install::agents_md::uninstall(&old) else {
        print("AGENTS.md: plan's section is not there, nothing to remove\n")?;
        return Ok(OK);
    };
    install::write_atomic(&path, "AGENTS.md", &new)?;
    print("AGENTS.md: removed plan's section\n")?;
    Ok(OK)
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    // Registering hooks touches a host's settings, never plan.md, and `--global`
    // works outside any repository.
    let repo = env.repo()?;
    let repo = repo.as_ref();
    if let Some(client) = args.mcp {
        return mcp_install::remove(client, args.global, repo);
    }
    let host = match args.host {
        Some(Target::Host(host)) => host,
        Some(Target::AgentsMd) => return agents_md(repo, args.global),
        Some(Target::Git) => {
            let repo = install::git_repo(repo, args.global)?;
            print(&crate::install::merge_driver::uninstall(repo)?)?;
            return Ok(OK);
        }
        Some(Target::Ci) => return crate::install::ci::uninstall(repo, args.global),
        None => {
            return Err(Exit::usage_hint(
                "name a host, or --mcp CLIENT",
                "see `plan uninstall --help`",
            ));
        }
    };
    let program = program(args.command.as_deref())?;
    if let Some(dir) = &args.plugin {
        plugin_is_for_claude(host)?;
        return plugin(dir, program);
    }
    let place = place(host, args.global, repo)?;
    if let Registration::File { what, is_ours, .. } = host.spec().registration {
        return file(host, &place, what, is_ours);
    }
    let title = host.title();
    let shown = &place.shown;
    let comments = host.spec().registration.comments();
    let Some(mut settings) = read_settings(&place.path, shown, comments)? else {
        print(&format!(
            "no plan hooks for {title}: {shown} does not exist\n"
        ))?;
        return Ok(OK);
    };
    let removed = hooks::uninstall(&mut settings.doc, host, program);
    if removed.is_empty() {
        print(&format!("no plan hooks for {title} in {shown}\n"))?;
        return Ok(OK);
    }
    let mut out = format!("removed plan's hooks for {title} from {shown}\n");
    out.push_str(&listing(&removed));
    out.push_str(&settle(&place, &settings.text(), settings.doc.is_empty())?);
    print(&out)?;
    Ok(OK)
}

/// Writes what is left; a file left as `{}` held only our hooks, so it goes.
pub(crate) fn settle(place: &Place, rest: &str, empty: bool) -> Result<String> {
    if !empty {
        write_atomic(&place.path, &place.shown, rest)?;
        return Ok(String::new());
    }
    remove(&place.path, &place.shown)?;
    prune(place);
    Ok(format!(
        "  deleted {}: nothing else was in it\n",
        place.shown
    ))
}

/// In a repository, the directories a deleted file leaves empty (`.claude/`,
/// `.pi/extensions/`) go too; nothing is pruned in the home directory.
fn prune(place: &Place) {
    let Some(root) = &place.root else {
        return;
    };
    for dir in place.path.ancestors().skip(1) {
        if dir == root || !dir.starts_with(root) || fs::remove_dir(dir).is_err() {
            break;
        }
    }
}

fn remove(path: &Path, shown: &str) -> Result<()> {
    match fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Exit::env(format!("cannot delete {shown}: {e}"))),
    }
}

/// A file of plan's own (pi's extension): deleted only while it is plan's.
fn file(host: Host, place: &Place, what: &str, is_ours: fn(&str) -> bool) -> Result<u8> {
    let shown = &place.shown;
    let title = host.title();
    match read_text(&place.path, shown)? {
        None => {
            print(&format!(
                "no plan {what} for {title}: {shown} does not exist\n"
            ))?;
            Ok(OK)
        }
        Some(text) if is_ours(&text) => {
            remove(&place.path, shown)?;
            prune(place);
            print(&format!("removed plan's {title} {what} {shown}\n"))?;
            Ok(OK)
        }
        Some(_) => Err(Exit::usage_hint(
            format!(
                "{shown} is not plan's {what} (its first line is not plan's marker); left it alone"
            ),
            "delete it by hand if it should go",
        )),
    }
}

/// The plugin's manifest if it is plan's, our entries in its hooks file, then the
/// directories this left empty.
fn plugin(dir: &Path, program: &str) -> Result<u8> {
    let (manifest, hooks_file) = plugin_files(dir);
    let manifest_doc = read_settings(&manifest.path, &manifest.shown, false)?;
    let mut hooks_doc = read_settings(&hooks_file.path, &hooks_file.shown, false)?;
    if let Some(doc) = manifest_doc.as_ref().map(|s| &s.doc)
        && !hooks::is_our_manifest(doc)
    {
        return Err(invalid(
            &manifest.shown,
            hooks::Invalid::OtherPlugin(
                doc.get("name")
                    .and_then(|n| n.as_str())
                    .unwrap_or("(unnamed)")
                    .to_string(),
            ),
        ));
    }
    let removed = hooks_doc
        .as_mut()
        .map(|s| hooks::uninstall(&mut s.doc, Host::Claude, program))
        .unwrap_or_default();
    let shown_dir = dir.display();
    if manifest_doc.is_none() && removed.is_empty() {
        print(&format!("no plan plugin in {shown_dir}\n"))?;
        return Ok(OK);
    }
    let mut out = format!("removed plan's Claude Code plugin from {shown_dir}\n");
    if let Some(doc) = &hooks_doc
        && !removed.is_empty()
    {
        out.push_str(&listing(&removed));
        out.push_str(&settle(&hooks_file, &doc.text(), doc.doc.is_empty())?);
    }
    if manifest_doc.is_some() {
        remove(&manifest.path, &manifest.shown)?;
        out.push_str(&format!("  deleted {}\n", manifest.shown));
    }
    // Only directories left empty go; anything else someone put there stays.
    for empty in [
        dir.join(".claude-plugin"),
        dir.join("hooks"),
        dir.to_path_buf(),
    ] {
        let _ = fs::remove_dir(empty);
    }
    print(&out)?;
    Ok(OK)
}
