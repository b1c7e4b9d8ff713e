//! `plan install --mcp CLIENT` / `plan uninstall --mcp CLIENT`: plan's MCP server
//! registered in a client's own MCP file (Claude Code, Cursor, VS Code, Claude
//! Desktop), merged losslessly into what is there, and taken back to the byte.
//! The merge is pure; `add` and `remove` find, read, write and print, with the
//! settings helpers hooks use (`install::files`).

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::{Map, Value, json};

use crate::exit::{Exit, OK};
use crate::git::Repo;
use crate::hosts;
use crate::install::files::{Place, read_settings};
use crate::install::hooks::{DEFAULT_PROGRAM, Invalid};
use crate::out::print;

/// The name plan's server has in every client's file.
pub const NAME: &str = "plan";

/// The MCP clients `plan install --mcp` registers with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Client {
    /// Claude Code: .mcp.json
    Claude,
    /// Cursor: .cursor/mcp.json, or ~/.cursor/mcp.json with --global
    Cursor,
    /// VS Code: .vscode/mcp.json, or the user profile's mcp.json with --global
    Vscode,
    /// Claude Desktop: its claude_desktop_config.json (--global only)
    Desktop,
}

impl Client {
    pub fn title(self) -> &'static str {
        match self {
            Client::Claude => "Claude Code",
            Client::Cursor => "Cursor",
            Client::Vscode => "VS Code",
            Client::Desktop => "Claude Desktop",
        }
    }

    /// The object of servers: VS Code calls it `servers`, the others `mcpServers`.
    fn key(self) -> &'static str {
        match self {
            Client::Vscode => "servers",
            _ => "mcpServers",
        }
    }

    /// VS Code reads its mcp.json as JSON with comments; the others as JSON.
    fn comments(self) -> bool {
        self == Client::Vscode
    }

    fn project(self) -> Option<&'static str> {
        match self {
            Client::Claude => Some(".mcp.json"),
            Client::Cursor => Some(".cursor/mcp.json"),
            Client::Vscode => Some(".vscode/mcp.json"),
            Client::Desktop => None,
        }
    }

    /// The user's file. Claude Code keeps user servers in `~/.claude.json`, a
    /// file it rewrites itself all the time, so plan leaves that to `claude mcp add`.
    fn user(self, home: &Path) -> Option<PathBuf> {
        let app = |name: &str| app_config(home).join(name);
        match self {
            Client::Claude => None,
            Client::Cursor => Some(home.join(".cursor/mcp.json")),
            Client::Vscode => Some(app("Code/User/mcp.json")),
            Client::Desktop => Some(app("Claude/claude_desktop_config.json")),
        }
    }

    fn next_steps(self) -> &'static str {
        match self {
            Client::Claude => {
                "next: Claude Code asks once before it starts a project's servers from .mcp.json; approve `plan` (`/mcp` lists it)"
            }
            Client::Cursor => {
                "next: check that `plan` is on in Cursor's settings, under MCP (Cursor reloads the file itself)"
            }
            Client::Vscode => {
                "next: VS Code asks you to trust the server the first time it starts it (`MCP: List Servers` shows it)"
            }
            Client::Desktop => "next: restart Claude Desktop; it reads its config at start-up",
        }
    }
}

/// Where desktop apps keep their settings (Electron's appData): the Application
/// Support folder on macOS, else `$XDG_CONFIG_HOME` or `~/.config`.
fn app_config(home: &Path) -> PathBuf {
    if cfg!(target_os = "macos") {
        return home.join("Library/Application Support");
    }
    match crate::env::os("XDG_CONFIG_HOME").map(PathBuf::from) {
        Some(dir) if dir.is_absolute() => dir,
        _ => home.join(".config"),
    }
}

/// What an install did to the document.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Added,
    Updated,
    Unchanged,
}

/// Why plan will not touch a client's file. Nothing is to be written.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    Invalid(Invalid),
    /// A server named `plan` that is not plan's: its command.
    Foreign(String),
}

/// The entry plan wants: the program found on PATH (or `--command`) run with `args`,
/// with no shell between, so no quoting.
pub fn entry(client: Client, program: &str, args: &[String]) -> Value {
    let mut argv = vec![Value::from("mcp")];
    argv.extend(args.iter().map(|a| Value::from(a.as_str())));
    match client {
        Client::Vscode => json!({"type": "stdio", "command": program, "args": argv}),
        _ => json!({"command": program, "args": argv}),
    }
}

/// A server entry plan wrote: a program whose file name starts with `plan`, run as
/// `… mcp`. Another `--command` is then an update, not a second server.
fn is_ours(entry: &Value) -> bool {
    let command = entry.get("command").and_then(Value::as_str).unwrap_or("");
    let file_name = command.rsplit('/').next().unwrap_or(command);
    let first = entry
        .get("args")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .and_then(Value::as_str);
    file_name.starts_with(DEFAULT_PROGRAM) && first == Some("mcp")
}

fn foreign(entry: &Value) -> Refusal {
    let command = entry
        .get("command")
        .or_else(|| entry.get("url"))
        .map_or_else(
            || entry.to_string(),
            |c| c.as_str().map_or_else(|| c.to_string(), str::to_string),
        );
    Refusal::Foreign(command)
}

/// Adds plan's server to `doc`, or brings an entry of ours up to date in place
/// (keys someone added to it, such as `env`, stay).
pub fn install(
    doc: &mut Map<String, Value>,
    client: Client,
    wanted: &Value,
) -> Result<Outcome, Refusal> {
    let key = client.key();
    let servers = doc
        .entry(key)
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or_else(|| {
            Refusal::Invalid(Invalid::Shape {
                key: key.to_string(),
                expected: "an object",
            })
        })?;
    let Some(current) = servers.get_mut(NAME) else {
        servers.insert(NAME.to_string(), wanted.clone());
        return Ok(Outcome::Added);
    };
    if !is_ours(current) {
        return Err(foreign(current));
    }
    let (Some(entry), Some(fields)) = (current.as_object_mut(), wanted.as_object()) else {
        return Err(foreign(current));
    };
    let mut changed = false;
    for (k, v) in fields {
        if entry.get(k) != Some(v) {
            entry.insert(k.clone(), v.clone());
            changed = true;
        }
    }
    Ok(if changed {
        Outcome::Updated
    } else {
        Outcome::Unchanged
    })
}

/// Takes plan's server out of `doc`, and the object of servers when that leaves it
/// empty. `Ok(false)`: there was none.
pub fn uninstall(doc: &mut Map<String, Value>, client: Client) -> Result<bool, Refusal> {
    let key = client.key();
    let Some(servers) = doc.get_mut(key).and_then(Value::as_object_mut) else {
        return Ok(false);
    };
    let Some(entry) = servers.get(NAME) else {
        return Ok(false);
    };
    if !is_ours(entry) {
        return Err(foreign(entry));
    }
    servers.shift_remove(NAME);
    if servers.is_empty() {
        doc.shift_remove(key);
    }
    Ok(true)
}

/// Where the client's file is, and the arguments the server needs there.
fn place(client: Client, global: bool, repo: Option<&Repo>) -> Result<(Place, Vec<String>)> {
    let title = client.title();
    let root: Option<PathBuf> = repo.map(|r| r.root.components().collect());
    if global {
        let home = hosts::home()?;
        let Some(path) = client.user(&home) else {
            return Err(Exit::usage_hint(
                format!(
                    "plan does not write {title}'s user MCP servers (~/.claude.json is {title}'s own)"
                ),
                "run `claude mcp add --scope user plan -- plan mcp`, or `plan install --mcp claude` in a repository",
            ));
        };
        // Claude Desktop starts its servers outside any project and names no roots,
        // so its entry names the repository.
        let args = match (client, &root) {
            (Client::Desktop, Some(root)) => {
                vec!["--root".to_string(), root.display().to_string()]
            }
            (Client::Desktop, None) => {
                return Err(Exit::env_hint(
                    "not inside a git repository",
                    "run it in the repository Claude Desktop should serve; its entry names it with --root",
                ));
            }
            _ => Vec::new(),
        };
        let shown = hosts::tilde(&path, &home);
        let place = Place {
            path,
            shown,
            root: None,
        };
        return Ok((place, args));
    }
    let Some(rel) = client.project() else {
        return Err(Exit::usage_hint(
            format!("{title} has one MCP config, for your user"),
            "run `plan install --mcp desktop --global` in the repository it should serve",
        ));
    };
    let Some(root) = root else {
        return Err(Exit::env_hint(
            "not inside a git repository",
            "run it in the repository the agent works in, or pass --global to register for your user",
        ));
    };
    let place = Place {
        path: root.join(rel),
        shown: rel.to_string(),
        root: Some(root),
    };
    Ok((place, Vec::new()))
}

fn refused(place: &Place, client: Client, refusal: Refusal) -> anyhow::Error {
    match refusal {
        Refusal::Invalid(invalid) => crate::install::files::invalid(&place.shown, invalid),
        Refusal::Foreign(command) => Exit::usage_hint(
            format!(
                "{}: `{}.{NAME}` is another server (it runs {command}); left it alone",
                place.shown,
                client.key()
            ),
            "rename or remove that entry by hand if plan's should go there; nothing was changed",
        ),
    }
}

/// `plan install --mcp CLIENT`.
pub fn add(client: Client, global: bool, repo: Option<&Repo>, program: &str) -> Result<u8> {
    let (place, args) = place(client, global, repo)?;
    let title = client.title();
    let mut settings =
        read_settings(&place.path, &place.shown, client.comments())?.unwrap_or_default();
    let wanted = entry(client, program, &args);
    let outcome =
        install(&mut settings.doc, client, &wanted).map_err(|r| refused(&place, client, r))?;
    let verb = match outcome {
        Outcome::Unchanged => {
            print(&format!(
                "plan's MCP server for {title} is already registered in {}\n",
                place.shown
            ))?;
            return Ok(OK);
        }
        Outcome::Added => "added",
        Outcome::Updated => "updated",
    };
    settings.save(&place.path, &place.shown)?;
    let argv: Vec<String> = std::iter::once("mcp".to_string()).chain(args).collect();
    print(&format!(
        "registered plan's MCP server for {title} in {}\n  {verb} {}.{NAME}: {program} {}\n{}\n",
        place.shown,
        client.key(),
        argv.join(" "),
        client.next_steps()
    ))?;
    Ok(OK)
}

/// `plan uninstall --mcp CLIENT`.
pub fn remove(client: Client, global: bool, repo: Option<&Repo>) -> Result<u8> {
    let (place, _) = place(client, global, repo)?;
    let title = client.title();
    let Some(mut settings) = read_settings(&place.path, &place.shown, client.comments())? else {
        print(&format!(
            "no plan MCP server for {title}: {} does not exist\n",
            place.shown
        ))?;
        return Ok(OK);
    };
    if !uninstall(&mut settings.doc, client).map_err(|r| refused(&place, client, r))? {
        print(&format!(
            "no plan MCP server for {title} in {}\n",
            place.shown
        ))?;
        return Ok(OK);
    }
    let mut out = format!(
        "removed plan's MCP server for {title} from {}\n",
        place.shown
    );
    out.push_str(&crate::install::files::settle(&place, &settings)?);
    print(&out)?;
    Ok(OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Map<String, Value> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn install_then_uninstall_leaves_the_document_as_it_was() {
        for client in [
            Client::Claude,
            Client::Cursor,
            Client::Vscode,
            Client::Desktop,
        ] {
            for original in [
                "{}",
                r#"{"a": 1}"#,
                r#"{"mcpServers": {"x": {"command": "y"}}, "servers": {"z": {}}}"#,
            ] {
                let before = doc(original);
                let mut d = before.clone();
                let wanted = entry(client, "plan", &[]);
                assert_eq!(install(&mut d, client, &wanted), Ok(Outcome::Added));
                assert_eq!(install(&mut d, client, &wanted), Ok(Outcome::Unchanged));
                assert_eq!(d[client.key()][NAME], wanted);
                assert_eq!(uninstall(&mut d, client), Ok(true));
                assert_eq!(d, before, "{client:?} {original}");
                assert_eq!(uninstall(&mut d, client), Ok(false));
            }
        }
    }

    #[test]
    fn only_plan_run_as_mcp_is_ours() {
        assert!(is_ours(&json!({"command": "plan", "args": ["mcp"]})));
        assert!(is_ours(
            &json!({"command": "/opt/x/plan-dev", "args": ["mcp", "--root", "/r"]})
        ));
        assert!(!is_ours(&json!({"command": "plan", "args": ["hook"]})));
        assert!(!is_ours(&json!({"command": "python", "args": ["mcp"]})));
        assert!(!is_ours(&json!({"url": "https://plan.example/mcp"})));
        let mut d = doc(r#"{"mcpServers": {"plan": {"url": "https://plan.example/mcp"}}}"#);
        let before = d.clone();
        let wanted = entry(Client::Claude, "plan", &[]);
        assert_eq!(
            install(&mut d, Client::Claude, &wanted),
            Err(Refusal::Foreign("https://plan.example/mcp".to_string()))
        );
        assert!(uninstall(&mut d, Client::Claude).is_err());
        assert_eq!(d, before);
    }
}
