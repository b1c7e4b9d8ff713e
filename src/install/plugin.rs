//! The plugin that carries plan, for Claude Code and Codex from one folder: both
//! manifests, one `hooks/hooks.json` whose commands pick their host, a launcher in
//! `bin/` that runs the binary for the machine beside it, and the skill.
//!
//! Facts it rests on (Claude Code 2.1.197, Codex 0.169.0, seen in tests/e2e): both
//! read `hooks/hooks.json` at the plugin's root and run its commands with
//! `CLAUDE_PLUGIN_ROOT` set to the plugin's folder; Codex also sets `PLUGIN_ROOT`
//! to the same folder, Claude Code does not; each host skips the events it does
//! not know (Codex runs the file with Claude Code's StopFailure and TaskCompleted
//! in it). Claude Code puts the plugin's `bin/` on the agent's PATH.

use std::path::Path;

use anyhow::Result;
use serde_json::{Map, Value, json};

use crate::atomic;
use crate::exit::{Exit, OK};
use crate::hosts::{Event, Host};
use crate::install::files::write_atomic;
use crate::out::print;

/// The skill, in the cross-tool layout at the repository's root; the plugin carries
/// a copy under `skills/`, where both hosts look for a plugin's skills.
pub const SKILL: &str = include_str!("../../.agents/skills/plan/SKILL.md");

/// The launcher, `bin/plan`: the binary for this machine from `bin/OS-CPU/`, with
/// npm's names for both (scripts/platforms), or another `plan` on PATH.
const LAUNCHER: &str = r#"#!/bin/sh
# plan's launcher in its plugin (written by `plan install --plugin`): runs the
# binary for this machine from bin/OS-CPU/ beside it (scripts/dist puts them
# there), or else a plan found on PATH. One process (uname) before plan's own: a
# hook runs this at every event.
here=${0%/*}
[ "$here" != "$0" ] || here=.
case $(uname -sm) in
'Linux x86_64' | 'Linux amd64') p=linux-x64 ;;
'Linux aarch64' | 'Linux arm64') p=linux-arm64 ;;
'Darwin x86_64') p=darwin-x64 ;;
'Darwin arm64') p=darwin-arm64 ;;
MINGW*' x86_64' | MSYS*' x86_64' | CYGWIN*' x86_64') p=win32-x64 ;;
*) p=$(uname -s)-$(uname -m) ;;
esac
for bin in "$here/$p/plan" "$here/$p/plan.exe"; do
    if [ -f "$bin" ] && [ -x "$bin" ]; then exec "$bin" "$@"; fi
done
# Claude Code puts this folder on PATH: skip this launcher wherever PATH names it.
rest=$PATH
while [ -n "$rest" ]; do
    dir=${rest%%:*}
    case $rest in *:*) rest=${rest#*:} ;; *) rest= ;; esac
    [ -n "$dir" ] || continue
    if [ -f "$dir/plan" ] && [ -x "$dir/plan" ] && ! [ "$dir/plan" -ef "$0" ]; then
        exec "$dir/plan" "$@"
    fi
done
echo "plan: this plugin has no plan binary for $p and there is none on PATH; install plan (https://github.com/plan-cli/plan#install) or build the plugin for this machine with scripts/dist" >&2
# A hook fails open: the host goes on without plan.
[ "${1:-}" = hook ] && exit 0
exit 3
"#;

/// Which host runs a hook: Codex sets `PLUGIN_ROOT` to the plugin's folder, as
/// it sets `CLAUDE_PLUGIN_ROOT`; Claude Code sets only the second. Compared, not
/// just tested for presence, so a `PLUGIN_ROOT` inherited from elsewhere picks no
/// host wrongly.
const IS_CODEX: &str = r#"[ "${PLUGIN_ROOT:-}" = "$CLAUDE_PLUGIN_ROOT" ]"#;
const RUN: &str = r#"exec "$CLAUDE_PLUGIN_ROOT/bin/plan" hook"#;

const DESCRIPTION: &str = "Keeps the agent on plan.md: the plan in context, reminders to update it, a guard against stopping while goals are active, and sign-offs that a read-only judge checks";

/// The hooks both hosts read. An event both register alike is one entry whose
/// command names the host it runs under; one registered by one host, or with
/// another matcher, is an entry per host that the other host's run skips.
pub fn hooks_json() -> Value {
    let claude = Host::Claude.spec().events;
    let codex = Host::Codex.spec().events;
    let mut names: Vec<&str> = Vec::new();
    for e in claude.iter().chain(codex) {
        if !names.contains(&e.name) {
            names.push(e.name);
        }
    }
    let group = |matcher: Option<&str>, command: String, timeout: u64| {
        let mut g = Map::new();
        if let Some(m) = matcher {
            g.insert("matcher".into(), json!(m));
        }
        g.insert(
            "hooks".into(),
            json!([{"type": "command", "command": command, "timeout": timeout}]),
        );
        Value::Object(g)
    };
    let find = |events: &'static [Event], name: &str| events.iter().find(|e| e.name == name);
    let mut hooks = Map::new();
    for name in names {
        let groups = match (find(claude, name), find(codex, name)) {
            (Some(a), Some(b)) if a.matcher == b.matcher && a.slug == b.slug => vec![group(
                a.matcher,
                format!("h=claude; {IS_CODEX} && h=codex; {RUN} \"$h\" {}", a.slug),
                a.timeout.max(b.timeout),
            )],
            (a, b) => {
                let mut groups = Vec::new();
                if let Some(a) = a {
                    groups.push(group(
                        a.matcher,
                        format!("{IS_CODEX} && exit 0; {RUN} claude {}", a.slug),
                        a.timeout,
                    ));
                }
                if let Some(b) = b {
                    groups.push(group(
                        b.matcher,
                        format!("{IS_CODEX} || exit 0; {RUN} codex {}", b.slug),
                        b.timeout,
                    ));
                }
                groups
            }
        };
        hooks.insert(name.into(), Value::Array(groups));
    }
    json!({ "description": DESCRIPTION, "hooks": hooks })
}

/// `plan install --plugin DIR` with no host: writes the plugin for Claude Code and
/// Codex into DIR, whole (the folder is plan's own).
pub fn install(dir: &Path) -> Result<u8> {
    let version = env!("CARGO_PKG_VERSION");
    let author = json!({"name": "plan", "url": "https://github.com/plan-cli/plan"});
    let claude = json!({
        "name": crate::hosts::protocol::DEFAULT_PROGRAM,
        "version": version,
        "description": DESCRIPTION,
        "author": author,
        "homepage": "https://github.com/plan-cli/plan",
        "license": "MIT OR Apache-2.0",
    });
    let codex = json!({
        "name": crate::hosts::protocol::DEFAULT_PROGRAM,
        "version": version,
        "description": DESCRIPTION,
        "author": author,
        "homepage": "https://github.com/plan-cli/plan",
        "license": "MIT OR Apache-2.0",
        "skills": "./skills/",
        "interface": {
            "displayName": "plan",
            "shortDescription": "Goals in plan.md, signed off only when verify and a judge agree",
            "category": "Productivity",
        },
    });
    let pretty = |v: &Value| format!("{}\n", serde_json::to_string_pretty(v).unwrap_or_default());
    let files: [(&str, String); 4] = [
        (".claude-plugin/plugin.json", pretty(&claude)),
        (".codex-plugin/plugin.json", pretty(&codex)),
        ("hooks/hooks.json", pretty(&hooks_json())),
        ("skills/plan/SKILL.md", SKILL.to_string()),
    ];
    let shown_dir = dir.display();
    ours_to_write(dir, &files)?;
    let mut out = format!("wrote plan's plugin for Claude Code and Codex in {shown_dir}\n");
    for (rel, text) in &files {
        let path = dir.join(rel);
        write_atomic(&path, &path.display().to_string(), text)?;
        out.push_str(&format!("  {rel}\n"));
    }
    let launcher = dir.join("bin/plan");
    let how = atomic::Replace {
        new_file: atomic::NewFile::Mode(0o755),
        ..atomic::Replace::DURABLE
    };
    atomic::replace(&launcher, LAUNCHER.as_bytes(), &how).map_err(|e| {
        Exit::env(format!(
            "cannot write {}: {e:?}; the other files are written",
            launcher.display()
        ))
    })?;
    out.push_str("  bin/plan (the launcher: bin/OS-CPU/plan, else plan on PATH)\n");
    out.push_str(&format!(
        "next: put the binaries in {shown_dir}/bin/OS-CPU/ (scripts/dist does, with the marketplace files), then add the marketplace: `claude plugin marketplace add DIR`, `codex plugin marketplace add DIR`\n"
    ));
    print(&out)?;
    Ok(OK)
}

/// Whether `dir` may take plan's plugin: a manifest there names plan, or none of
/// the files it writes is there. Another plugin's folder, or files of someone's
/// where plan's would go, are refused before anything is written.
fn ours_to_write(dir: &Path, files: &[(&str, String)]) -> Result<()> {
    let mut manifests = 0;
    for rel in [".claude-plugin/plugin.json", ".codex-plugin/plugin.json"] {
        let path = dir.join(rel);
        let shown = path.display().to_string();
        let Some(text) = crate::install::files::read_text(&path, &shown)? else {
            continue;
        };
        manifests += 1;
        let name = match serde_json::from_str::<Value>(&text) {
            Ok(doc) => doc
                .get("name")
                .map(|n| n.as_str().map_or(n.to_string(), str::to_string)),
            Err(_) => None,
        };
        if name.as_deref() != Some(crate::hosts::protocol::DEFAULT_PROGRAM) {
            let name = name.unwrap_or_else(|| "(unnamed)".to_string());
            return Err(crate::install::files::invalid(
                &shown,
                crate::install::hooks::Invalid::OtherPlugin(name),
            ));
        }
    }
    if manifests > 0 {
        return Ok(());
    }
    // The launcher says it is plan's on its second line; it stays when scripts/dist
    // rebuilds the rest beside the binaries in `bin/`.
    let marker = |text: &str| text.lines().nth(1) == LAUNCHER.lines().nth(1);
    let launcher = ("bin/plan", LAUNCHER.to_string());
    for (rel, text) in files.iter().chain([&launcher]) {
        let path = dir.join(rel);
        let plans = match std::fs::read_to_string(&path) {
            Ok(found) => found == *text || (*rel == "bin/plan" && marker(&found)),
            Err(_) => path.symlink_metadata().is_err(),
        };
        if !plans {
            return Err(Exit::usage_hint(
                format!("{} exists and is not plan's", path.display()),
                "choose an empty --plugin directory, or one plan wrote; nothing was changed",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every event either host registers is in the shared file, under a command
    /// that runs only for its host, or names the host it runs under.
    #[test]
    fn every_event_of_both_hosts_is_in_the_shared_file() {
        let doc = hooks_json();
        for (host, events) in [
            (Host::Claude, Host::Claude.spec().events),
            (Host::Codex, Host::Codex.spec().events),
        ] {
            for e in events {
                let groups = doc["hooks"][e.name].as_array().unwrap();
                let ours = groups.iter().any(|g| {
                    let command = g["hooks"][0]["command"].as_str().unwrap();
                    g.get("matcher").and_then(Value::as_str) == e.matcher
                        && (command.ends_with(&format!("hook {} {}", host.name(), e.slug))
                            || command.ends_with(&format!("hook \"$h\" {}", e.slug)))
                });
                assert!(ours, "{} {}: {groups:?}", host.name(), e.name);
            }
        }
    }
}
