//! What `plan install` registers with each host, merged into the host's settings
//! JSON: other keys and other tools' hooks stay as they were, in their order; an
//! entry of ours is updated in place, never duplicated; uninstall takes back exactly
//! what install put in. Pure: text and values in and out, no files, no environment.

use serde_json::{Map, Value, json};

pub use crate::hooks::host::Host;
pub use crate::hosts::protocol::DEFAULT_PROGRAM;
use crate::hosts::protocol::{hook_command, is_plain_program, shell_word};
use crate::hosts::{Event, Registration};

/// The object whose `enabled: true` the host needs before it runs any hook, if any.
fn enable_key(host: Host) -> Option<&'static str> {
    match &host.spec().registration {
        Registration::Settings(settings) => settings.enable,
        Registration::File { .. } => None,
    }
}

/// The key and number the host stamps into a settings file that lacks them.
fn version_key(host: Host) -> Option<(&'static str, u64)> {
    match &host.spec().registration {
        Registration::Settings(settings) => settings.version,
        Registration::File { .. } => None,
    }
}

/// The shell command a host runs for `slug`.
pub fn command(program: &str, host: Host, slug: &str) -> String {
    if is_plugin_program(program) {
        return format!("{program} hook {} {slug}", host.name());
    }
    hook_command(program, host.name(), slug)
}

/// This plan's npm package as npx runs it: needs node, no Rust and nothing installed.
pub fn npx_program() -> String {
    format!("npx -y @plan-cli/plan@{}", env!("CARGO_PKG_VERSION"))
}

/// What the hooks of a plugin built for others run (`plan install claude --plugin`
/// without `--command`; the repository's marketplace plugin): `plan` from PATH where
/// it is, exec'd by the shell the host runs the hook in, so one process start; else
/// this version's npm package through npx, which starts npm on every hook. A shell
/// prefix rather than a word: the hook's arguments follow it.
pub fn plugin_program() -> String {
    format!(
        "command -v {DEFAULT_PROGRAM} >/dev/null 2>&1 && p={DEFAULT_PROGRAM} || p='{}'; exec $p",
        npx_program()
    )
}

/// A plugin program of any plan version (another pinned npm version).
fn is_plugin_program(prefix: &str) -> bool {
    prefix.starts_with(&format!("command -v {DEFAULT_PROGRAM} ")) && prefix.ends_with("; exec $p")
}

/// Whether a command is one plan registers for `host`: `<program> hook <host> <event>`,
/// where the program is `program`, or any program whose file name starts with
/// `plan` (`plan`, `/opt/x/plan-dev`): reinstalling with another `--command` then
/// updates the old entries instead of adding a second set. Any event: an entry from
/// an older plan with another event name is still ours.
fn is_ours(command: &str, host: Host, program: &str) -> bool {
    let Some((prefix, event)) = command.split_once(&format!(" hook {} ", host.name())) else {
        return false;
    };
    let event_ok = !event.is_empty() && event.bytes().all(|b| b.is_ascii_lowercase() || b == b'-');
    let bare = prefix.trim_matches('\'');
    let file_name = bare.rsplit('/').next().unwrap_or(bare);
    let program_ok = prefix == shell_word(program)
        || file_name.starts_with(DEFAULT_PROGRAM)
        || is_plugin_program(prefix);
    event_ok && program_ok
}

/// What happened to one registration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Added,
    Updated,
    Unchanged,
    Removed,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub action: Action,
    pub event: String,
    pub command: String,
}

/// What an install did to a settings document.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Merge {
    pub changes: Vec<Change>,
    /// The host's switch for all hooks (Gemini's `hooksConfig.enabled`) was missing
    /// and now is `true`.
    pub enabled: bool,
    /// Someone turned the host's switch for all hooks off; plan leaves that choice
    /// alone, and its hooks will not run until it is changed.
    pub disabled: bool,
}

impl Merge {
    pub fn changed(&self) -> bool {
        self.enabled || self.changes.iter().any(|c| c.action != Action::Unchanged)
    }
}

/// Why a settings document cannot be merged. Nothing is to be written.
#[derive(Debug, PartialEq, Eq)]
pub enum Invalid {
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    NotAnObject,
    /// A key plan writes into holds something else: its dotted path and what it
    /// should hold.
    Shape {
        key: String,
        expected: &'static str,
    },
    /// A plugin manifest that names another plugin.
    OtherPlugin(String),
}

/// A settings file's text as an ordered object. Empty text is an empty object (a
/// file someone created and left blank); a byte-order mark is skipped.
pub fn parse(text: &str) -> Result<Map<String, Value>, Invalid> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(Invalid::NotAnObject),
        Err(e) => {
            let full = e.to_string();
            let message = match full.rfind(" at line ") {
                Some(at) => full[..at].to_string(),
                None => full,
            };
            Err(Invalid::Syntax {
                line: e.line(),
                column: e.column(),
                message,
            })
        }
    }
}

/// Two-space pretty JSON with a final newline, keys in document order.
pub fn render(doc: &Map<String, Value>) -> String {
    let mut text = serde_json::to_string_pretty(doc).unwrap_or_else(|_| "{}".to_string());
    text.push('\n');
    text
}

/// Adds `host`'s hooks to `doc`, updating older entries of ours in place to run
/// `program`. `Invalid::Shape` leaves `doc` half-merged: the caller must not write
/// it.
pub fn install(doc: &mut Map<String, Value>, host: Host, program: &str) -> Result<Merge, Invalid> {
    merge_hooks(doc, host, program, false)
}

/// As [`install`], for `plan install` without `--command`: an entry of ours keeps
/// the program a person registered there (a wrapper, an environment in front:
/// `PLAN_FILE=docs/plan.md plan`); new entries run `program`. The bare name
/// `plan`, which an older plan registered, is no one's choice: found on PATH, it is
/// whichever `plan` comes first there, so it becomes `program` too.
pub fn install_keeping(
    doc: &mut Map<String, Value>,
    host: Host,
    program: &str,
) -> Result<Merge, Invalid> {
    merge_hooks(doc, host, program, true)
}

fn merge_hooks(
    doc: &mut Map<String, Value>,
    host: Host,
    program: &str,
    keep: bool,
) -> Result<Merge, Invalid> {
    let mut merge = Merge::default();
    let created = doc.is_empty();
    if let Some(key) = enable_key(host) {
        match enable_hooks(doc, key)? {
            Some(enabled) => merge.enabled = enabled,
            None => merge.disabled = true,
        }
    }
    if host.hooks().is_empty() {
        return Ok(merge);
    }
    let hooks = object_at(doc, "hooks", "hooks")?;
    for hook in host.hooks() {
        let wanted = command(program, host, hook.slug);
        let (action, command) = upsert(hooks, host, hook, &wanted, program, keep)?;
        merge.changes.push(Change {
            action,
            event: hook.name.to_string(),
            command,
        });
    }
    // Last, where the host puts it itself.
    if let Some((key, number)) = version_key(host).filter(|_| created) {
        doc.insert(key.to_string(), json!(number));
    }
    Ok(merge)
}

/// Removes every entry of ours for `host`, under any event and any program path
/// plan recognises, then the groups, event lists and `hooks` object this left
/// empty. Everything else stays; `hooksConfig` too.
pub fn uninstall(doc: &mut Map<String, Value>, host: Host, program: &str) -> Vec<Change> {
    let mut changes = Vec::new();
    let Some(hooks) = doc.get_mut("hooks").and_then(Value::as_object_mut) else {
        return changes;
    };
    let events: Vec<String> = hooks.keys().cloned().collect();
    for event in events {
        let Some(groups) = hooks.get_mut(&event).and_then(Value::as_array_mut) else {
            continue;
        };
        let found = find_ours(groups, host, program);
        let mut removed = Vec::new();
        for &(g, h) in found.iter().rev() {
            let command = entry_command(&groups[g], h).unwrap_or_default().to_string();
            remove_entry(groups, g, h);
            removed.push(Change {
                action: Action::Removed,
                event: event.clone(),
                command,
            });
        }
        if !found.is_empty() && groups.is_empty() {
            hooks.shift_remove(&event);
        }
        changes.extend(removed.into_iter().rev());
    }
    if !changes.is_empty() && hooks.is_empty() {
        doc.shift_remove("hooks");
        // With no hook left at all, a `hooksConfig` that only enables hooks has
        // nothing to enable: it goes too, so install then uninstall leaves nothing.
        if let Some(key) = enable_key(host)
            && doc.get(key) == Some(&serde_json::json!({"enabled": true}))
        {
            doc.shift_remove(key);
        }
        // A version stamp alone is what a file plan created is left with.
        if let Some((key, number)) = version_key(host)
            && doc.len() == 1
            && doc.get(key) == Some(&json!(number))
        {
            doc.shift_remove(key);
        }
    }
    changes
}

/// Sets `<key>.enabled` (Gemini CLI's `hooksConfig`), which the host needs before it
/// runs any hook, when nobody has set it: `Some(true)` if it was added. An explicit
/// `false` is a person's choice to run no hooks at all and is left as it is: `None`.
fn enable_hooks(doc: &mut Map<String, Value>, key: &str) -> Result<Option<bool>, Invalid> {
    let config = object_at(doc, key, key)?;
    match config.get("enabled") {
        Some(Value::Bool(true)) => Ok(Some(false)),
        Some(Value::Bool(false)) => Ok(None),
        _ => {
            config.insert("enabled".to_string(), Value::Bool(true));
            Ok(Some(true))
        }
    }
}

/// Brings `hook`'s entry up to date, or adds it: the action, and the command the
/// entry runs.
fn upsert(
    hooks: &mut Map<String, Value>,
    host: Host,
    hook: &Event,
    wanted: &str,
    program: &str,
    keep: bool,
) -> Result<(Action, String), Invalid> {
    let groups = array_at(hooks, hook.name)?;
    // Every host gets one hook per event, so any entry of ours under this event is
    // this hook's: the first is brought up to date, the rest are duplicates.
    let found = find_ours(groups, host, program);
    let Some(&(g, h)) = found.first() else {
        groups.push(new_group(hook, wanted));
        return Ok((Action::Added, wanted.to_string()));
    };
    let marker = format!(" hook {} ", host.name());
    let wanted = match entry_command(&groups[g], h).and_then(|c| c.split_once(&marker)) {
        Some((prefix, _))
            if keep
                && prefix != DEFAULT_PROGRAM
                && !is_plugin_program(prefix)
                && is_plain_program(prefix) =>
        {
            format!("{prefix}{}", &wanted[shell_word(program).len()..])
        }
        _ => wanted.to_string(),
    };
    let wanted = wanted.as_str();
    // Later copies go first, so the kept entry's indices stay valid: it comes
    // before every one of them.
    for &(dg, dh) in found[1..].iter().rev() {
        remove_entry(groups, dg, dh);
    }
    let mut changed = found.len() > 1;
    let Some(group) = groups[g].as_object_mut() else {
        return Ok((Action::Unchanged, wanted.to_string()));
    };
    let matcher_ok = match hook.matcher {
        Some(m) => group.get("matcher").and_then(Value::as_str) == Some(m),
        None => !group.contains_key("matcher"),
    };
    let Some(entries) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
        return Ok((Action::Unchanged, wanted.to_string()));
    };
    if let Some(entry) = entries[h].as_object_mut() {
        // A longer timeout than plan's is a person's choice; a shorter one could
        // cut a stop that asks the loop's judge.
        let timeout = entry
            .get("timeout")
            .and_then(Value::as_u64)
            .map_or(hook.timeout, |t| t.max(hook.timeout));
        changed |= set(entry, "type", json!("command"));
        changed |= set(entry, "command", json!(wanted));
        changed |= set(entry, "timeout", json!(timeout));
    }
    if !matcher_ok {
        changed = true;
        if entries.len() == 1 {
            match hook.matcher {
                Some(m) => {
                    group.insert("matcher".to_string(), json!(m));
                }
                None => {
                    group.shift_remove("matcher");
                }
            }
        } else {
            // The group is shared with other hooks: theirs keep the old matcher.
            let entry = entries.remove(h);
            let mut moved = new_group(hook, wanted);
            moved["hooks"][0] = entry;
            groups.push(moved);
        }
    }
    let action = match changed {
        true => Action::Updated,
        false => Action::Unchanged,
    };
    Ok((action, wanted.to_string()))
}

/// Sets `key` unless it already holds `value`; whether it changed.
fn set(entry: &mut Map<String, Value>, key: &str, value: Value) -> bool {
    if entry.get(key) == Some(&value) {
        return false;
    }
    entry.insert(key.to_string(), value);
    true
}

fn new_group(hook: &Event, command: &str) -> Value {
    let entry = json!({"type": "command", "command": command, "timeout": hook.timeout});
    match hook.matcher {
        Some(m) => json!({"matcher": m, "hooks": [entry]}),
        None => json!({"hooks": [entry]}),
    }
}

/// (group, entry) indices of our entries, in document order.
fn find_ours(groups: &[Value], host: Host, program: &str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let Some(entries) = group.get("hooks").and_then(Value::as_array) else {
            continue;
        };
        for h in 0..entries.len() {
            if entry_command(group, h).is_some_and(|c| is_ours(c, host, program)) {
                found.push((g, h));
            }
        }
    }
    found
}

/// The program plan's entries for `host` in `doc` run (`plan`, `/opt/x/plan`), as
/// `install` would take it back; `None` when the file holds none of them.
pub fn registered_program(doc: &Map<String, Value>, host: Host, program: &str) -> Option<String> {
    let hooks = doc.get("hooks")?.as_object()?;
    let marker = format!(" hook {} ", host.name());
    hooks
        .values()
        .filter_map(Value::as_array)
        .find_map(|groups| {
            let (g, h) = *find_ours(groups, host, program).first()?;
            let command = entry_command(&groups[g], h)?;
            let (prefix, _) = command.split_once(&marker)?;
            let bare = match prefix.strip_prefix('\'').and_then(|p| p.strip_suffix('\'')) {
                Some(quoted) => quoted.replace(r"'\''", "'"),
                None => prefix.to_string(),
            };
            Some(bare)
        })
}

fn entry_command(group: &Value, h: usize) -> Option<&str> {
    group.get("hooks")?.get(h)?.get("command")?.as_str()
}

/// Removes one entry, and its group when that leaves the group empty.
fn remove_entry(groups: &mut Vec<Value>, g: usize, h: usize) {
    let Some(entries) = groups[g].get_mut("hooks").and_then(Value::as_array_mut) else {
        return;
    };
    entries.remove(h);
    if entries.is_empty() {
        groups.remove(g);
    }
}

/// The object under `key`, created (last in order) when missing.
fn object_at<'m>(
    map: &'m mut Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<&'m mut Map<String, Value>, Invalid> {
    map.entry(key)
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or_else(|| Invalid::Shape {
            key: path.to_string(),
            expected: "an object",
        })
}

fn array_at<'m>(
    hooks: &'m mut Map<String, Value>,
    event: &str,
) -> Result<&'m mut Vec<Value>, Invalid> {
    hooks
        .entry(event)
        .or_insert_with(|| Value::Array(Vec::new()))
        .as_array_mut()
        .ok_or_else(|| Invalid::Shape {
            key: format!("hooks.{event}"),
            expected: "a list",
        })
}

/// The Claude Code plugin manifest, `.claude-plugin/plugin.json`: name,
/// description and version set, any other key kept. Whether it changed.
pub fn merge_manifest(doc: &mut Map<String, Value>, version: &str) -> Result<bool, Invalid> {
    match doc.get("name") {
        None => {}
        Some(Value::String(name)) if name == DEFAULT_PROGRAM => {}
        Some(other) => {
            let name = other
                .as_str()
                .map_or_else(|| other.to_string(), str::to_string);
            return Err(Invalid::OtherPlugin(name));
        }
    }
    let mut changed = set(doc, "name", json!(DEFAULT_PROGRAM));
    changed |= set(
        doc,
        "description",
        json!(
            "Keeps the agent on plan.md: the plan in context, reminders to update it, and a guard against stopping while goals are active"
        ),
    );
    changed |= set(doc, "version", json!(version));
    Ok(changed)
}

/// Whether a plugin manifest is plan's, so uninstall may delete it.
pub fn is_our_manifest(doc: &Map<String, Value>) -> bool {
    doc.get("name").and_then(Value::as_str) == Some(DEFAULT_PROGRAM)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Map<String, Value> {
        parse(text).unwrap()
    }

    /// What a file holds after the change: order and all.
    fn text(doc: &Map<String, Value>) -> String {
        render(doc)
    }

    const THEIRS: &str = r#"{
  "model": "opus",
  "permissions": {"allow": ["Bash(cargo test:*)"], "deny": []},
  "hooks": {
    "PostToolUse": [
      {"matcher": "Edit|Write|MultiEdit|NotebookEdit",
       "hooks": [{"type": "command", "command": "prettier --write", "timeout": 30}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    "Notification": [{"hooks": [{"type": "command", "command": "say hi"}]}]
  },
  "env": {"Z": "1", "A": "2"}
}"#;

    #[test]
    fn into_an_empty_object() {
        let mut d = Map::new();
        let merge = install(&mut d, Host::Claude, "plan").unwrap();
        assert!(merge.changes.iter().all(|c| c.action == Action::Added));
        insta::assert_snapshot!(text(&d), @r#"
        {
          "hooks": {
            "SessionStart": [
              {
                "matcher": "startup|resume|clear|compact|fork",
                "hooks": [
                  {
                    "type": "command",
                    "command": "plan hook claude session-start",
                    "timeout": 10
                  }
                ]
              }
            ],
            "UserPromptSubmit": [
              {
                "hooks": [
                  {
                    "type": "command",
                    "command": "plan hook claude user-prompt-submit",
                    "timeout": 10
                  }
                ]
              }
            ],
            "PostToolUse": [
              {
                "matcher": "Edit|Write|MultiEdit|NotebookEdit",
                "hooks": [
                  {
                    "type": "command",
                    "command": "plan hook claude post-tool-use",
                    "timeout": 10
                  }
                ]
              }
            ],
            "PreCompact": [
              {
                "hooks": [
                  {
                    "type": "command",
                    "command": "plan hook claude pre-compact",
                    "timeout": 10
                  }
                ]
              }
            ],
            "Stop": [
              {
                "hooks": [
                  {
                    "type": "command",
                    "command": "plan hook claude stop",
                    "timeout": 60
                  }
                ]
              }
            ],
            "StopFailure": [
              {
                "hooks": [
                  {
                    "type": "command",
                    "command": "plan hook claude stop-failure",
                    "timeout": 10
                  }
                ]
              }
            ],
            "SubagentStart": [
              {
                "hooks": [
                  {
                    "type": "command",
                    "command": "plan hook claude subagent-start",
                    "timeout": 10
                  }
                ]
              }
            ],
            "SubagentStop": [
              {
                "hooks": [
                  {
                    "type": "command",
                    "command": "plan hook claude subagent-stop",
                    "timeout": 10
                  }
                ]
              }
            ],
            "TaskCompleted": [
              {
                "hooks": [
                  {
                    "type": "command",
                    "command": "plan hook claude task-completed",
                    "timeout": 10
                  }
                ]
              }
            ],
            "TeammateIdle": [
              {
                "hooks": [
                  {
                    "type": "command",
                    "command": "plan hook claude teammate-idle",
                    "timeout": 10
                  }
                ]
              }
            ]
          }
        }
        "#);
    }

    #[test]
    fn other_keys_and_other_hooks_are_kept_in_order() {
        let before = doc(THEIRS);
        let mut d = before.clone();
        install(&mut d, Host::Claude, "plan").unwrap();
        let keys: Vec<_> = d.keys().collect();
        assert_eq!(keys, ["model", "permissions", "hooks", "env"]);
        let env: Vec<_> = d["env"].as_object().unwrap().keys().collect();
        assert_eq!(env, ["Z", "A"]);
        let events: Vec<_> = d["hooks"].as_object().unwrap().keys().collect();
        assert_eq!(
            events,
            [
                "PostToolUse",
                "Stop",
                "Notification",
                "SessionStart",
                "UserPromptSubmit",
                "PreCompact",
                "StopFailure",
                "SubagentStart",
                "SubagentStop",
                "TaskCompleted",
                "TeammateIdle"
            ]
        );
        // Theirs first and untouched, ours in a group of its own after them.
        let post = d["hooks"]["PostToolUse"].as_array().unwrap();
        assert_eq!(post.len(), 2);
        assert_eq!(post[0], before["hooks"]["PostToolUse"][0]);
        assert_eq!(
            post[1]["hooks"][0]["command"],
            "plan hook claude post-tool-use"
        );
        assert_eq!(d["hooks"]["Stop"][0], before["hooks"]["Stop"][0]);
        assert_eq!(d["hooks"]["Notification"], before["hooks"]["Notification"]);
        for key in ["model", "permissions", "env"] {
            assert_eq!(d[key], before[key]);
        }
    }

    #[test]
    fn installing_twice_changes_nothing() {
        let mut d = doc(THEIRS);
        assert!(install(&mut d, Host::Claude, "plan").unwrap().changed());
        let once = text(&d);
        let again = install(&mut d, Host::Claude, "plan").unwrap();
        assert!(!again.changed());
        assert!(again.changes.iter().all(|c| c.action == Action::Unchanged));
        assert_eq!(text(&d), once);
    }

    #[test]
    fn an_older_entry_of_ours_is_updated_in_place() {
        let mut d = doc(r#"{"hooks": {
              "Stop": [{"hooks": [{"type": "command", "command": "plan hook claude stop", "timeout": 5, "statusMessage": "checking the plan"}]}],
              "PostToolUse": [
                {"matcher": "Edit", "hooks": [{"type": "command", "command": "/usr/local/bin/plan hook claude post-tool-use", "timeout": 5}]},
                {"matcher": "Write", "hooks": [
                  {"type": "command", "command": "prettier --write"},
                  {"type": "command", "command": "plan hook claude post-tool-use"}
                ]}
              ],
              "SessionStart": [{"matcher": "startup", "hooks": [
                {"type": "command", "command": "direnv export json"},
                {"type": "command", "command": "plan hook claude session-start", "timeout": 10}
              ]}]
            }}"#);
        let merge = install(&mut d, Host::Claude, "plan").unwrap();
        let action = |event: &str| {
            merge
                .changes
                .iter()
                .find(|c| c.event == event)
                .unwrap()
                .action
        };
        assert_eq!(action("Stop"), Action::Updated);
        assert_eq!(action("PostToolUse"), Action::Updated);
        assert_eq!(action("SessionStart"), Action::Updated);
        assert_eq!(action("UserPromptSubmit"), Action::Added);
        // Same place, new timeout; a key someone added to our entry stays.
        assert_eq!(
            d["hooks"]["Stop"],
            json!([{"hooks": [{"type": "command", "command": "plan hook claude stop", "timeout": 60, "statusMessage": "checking the plan"}]}])
        );
        // The first copy is kept and rewritten, the second (in a shared group) dropped.
        assert_eq!(
            d["hooks"]["PostToolUse"],
            json!([
                {"matcher": "Edit|Write|MultiEdit|NotebookEdit", "hooks": [{"type": "command", "command": "plan hook claude post-tool-use", "timeout": 10}]},
                {"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write"}]}
            ])
        );
        // A shared group keeps its matcher for the other hook; ours moves out.
        assert_eq!(
            d["hooks"]["SessionStart"],
            json!([
                {"matcher": "startup", "hooks": [{"type": "command", "command": "direnv export json"}]},
                {"matcher": "startup|resume|clear|compact|fork", "hooks": [{"type": "command", "command": "plan hook claude session-start", "timeout": 10}]}
            ])
        );
        assert!(!install(&mut d, Host::Claude, "plan").unwrap().changed());
    }

    #[test]
    fn uninstall_restores_the_original_exactly() {
        for original in [
            THEIRS,
            "{}",
            r#"{"x": [1, 2.5, null], "hooks": {"Notification": []}}"#,
        ] {
            let before = doc(original);
            for host in [Host::Claude, Host::Codex] {
                let mut d = before.clone();
                install(&mut d, host, "plan").unwrap();
                let removed = uninstall(&mut d, host, "plan");
                assert_eq!(removed.len(), host.hooks().len());
                assert!(removed.iter().all(|c| c.action == Action::Removed));
                assert_eq!(d, before);
                assert_eq!(text(&d), text(&before), "key order of {original}");
            }
        }
    }

    #[test]
    fn uninstall_takes_only_ours_and_empties_what_it_emptied() {
        let mut d = doc(THEIRS);
        install(&mut d, Host::Claude, "/opt/plan/bin/plan").unwrap();
        install(&mut d, Host::Codex, "plan").unwrap();
        // Codex's commands name another host: not Claude's to remove.
        let removed = uninstall(&mut d, Host::Claude, "plan");
        assert_eq!(removed.len(), 10);
        // In document order: their events first, then the ones install appended.
        assert_eq!(removed[0].event, "PostToolUse");
        assert_eq!(
            removed[0].command,
            "/opt/plan/bin/plan hook claude post-tool-use"
        );
        assert_eq!(uninstall(&mut d, Host::Claude, "plan"), []);
        uninstall(&mut d, Host::Codex, "plan");
        assert_eq!(text(&d), text(&doc(THEIRS)));

        let mut only_ours = Map::new();
        install(&mut only_ours, Host::Claude, "plan").unwrap();
        uninstall(&mut only_ours, Host::Claude, "plan");
        assert_eq!(only_ours, Map::new());
    }

    #[test]
    fn gemini_counts_milliseconds_and_enables_hooks() {
        let mut d = doc(r#"{"hooksConfig": {"notifications": false}, "ui": {"theme": "x"}}"#);
        let merge = install(&mut d, Host::Gemini, "plan").unwrap();
        assert!(merge.enabled);
        assert_eq!(
            d["hooksConfig"],
            json!({"notifications": false, "enabled": true})
        );
        assert_eq!(
            d["hooks"]["AfterTool"],
            json!([{"matcher": "write_file|replace", "hooks": [{"type": "command", "command": "plan hook gemini after-tool", "timeout": 10000}]}])
        );
        assert_eq!(d["hooks"]["AfterAgent"][0]["hooks"][0]["timeout"], 60_000);
        let events: Vec<_> = d["hooks"].as_object().unwrap().keys().collect();
        assert_eq!(
            events,
            [
                "SessionStart",
                "BeforeAgent",
                "AfterTool",
                "PreCompress",
                "AfterAgent"
            ]
        );
        // What plan needs to bring the block back after a compression.
        assert_eq!(
            d["hooks"]["PreCompress"],
            json!([{"hooks": [{"type": "command", "command": "plan hook gemini pre-compress", "timeout": 10000}]}])
        );
        assert!(!install(&mut d, Host::Gemini, "plan").unwrap().changed());

        // Uninstall leaves hooksConfig as it is now: others' hooks may need it.
        uninstall(&mut d, Host::Gemini, "plan");
        assert_eq!(
            text(&d),
            text(&doc(
                r#"{"hooksConfig": {"notifications": false, "enabled": true}, "ui": {"theme": "x"}}"#
            ))
        );

        let mut fresh = Map::new();
        install(&mut fresh, Host::Gemini, "plan").unwrap();
        let keys: Vec<_> = fresh.keys().collect();
        assert_eq!(keys, ["hooksConfig", "hooks"]);
        uninstall(&mut fresh, Host::Gemini, "plan");
        assert_eq!(fresh, Map::new(), "install then uninstall leaves nothing");
    }

    #[test]
    fn gemini_hooks_turned_off_by_a_person_stay_off() {
        let mut d = doc(r#"{"hooksConfig": {"enabled": false}}"#);
        let merge = install(&mut d, Host::Gemini, "plan").unwrap();
        assert!(merge.disabled && !merge.enabled);
        assert_eq!(d["hooksConfig"], json!({"enabled": false}));
        uninstall(&mut d, Host::Gemini, "plan");
        assert_eq!(d, doc(r#"{"hooksConfig": {"enabled": false}}"#));
    }

    #[test]
    fn reinstalling_with_another_program_updates_instead_of_doubling() {
        let mut d = Map::new();
        install(&mut d, Host::Claude, "/opt/x/plan-dev").unwrap();
        install(&mut d, Host::Claude, "plan").unwrap();
        let stop = d["hooks"]["Stop"].as_array().unwrap();
        assert_eq!(stop.len(), 1);
        assert_eq!(stop[0]["hooks"].as_array().unwrap().len(), 1);
        assert_eq!(stop[0]["hooks"][0]["command"], "plan hook claude stop");
        assert!(!is_ours(
            "planner hook-not claude stop",
            Host::Claude,
            "plan"
        ));
        assert!(!is_ours("other hook claude stop", Host::Claude, "plan"));
    }

    #[test]
    fn another_program_is_quoted_and_still_recognised() {
        assert_eq!(
            command("/opt/bin/plan", Host::Codex, "stop"),
            "/opt/bin/plan hook codex stop"
        );
        let odd = "/home/me/my tools/plan-dev";
        let quoted = command(odd, Host::Claude, "stop");
        assert_eq!(quoted, "'/home/me/my tools/plan-dev' hook claude stop");
        assert!(is_ours(&quoted, Host::Claude, odd));
        // Any program named plan-something is taken for an earlier install of plan.
        assert!(is_ours(&quoted, Host::Claude, "plan"));
        assert!(is_ours(
            "'/a b/plan' hook claude stop",
            Host::Claude,
            "plan"
        ));
        assert!(is_ours("plan hook claude stop-guard", Host::Claude, "plan"));
        assert!(!is_ours("plan hook claude stop", Host::Codex, "plan"));
        assert!(!is_ours("notplan hook claude stop", Host::Claude, "plan"));
        assert!(!is_ours(
            "plan hook claude stop && rm -rf x",
            Host::Claude,
            "plan"
        ));
        assert_eq!(command("it's", Host::Pi, "x"), r"'it'\''s' hook pi x");
    }

    #[test]
    fn an_entry_of_ours_under_an_old_name_is_renamed_or_removed() {
        let mut d = doc(r#"{"hooks": {
              "Stop": [{"hooks": [{"type": "command", "command": "plan hook claude stop-guard", "timeout": 60}]}],
              "SubagentStop": [{"hooks": [{"type": "command", "command": "plan hook claude subagent-stop"}]}]
            }}"#);
        let merge = install(&mut d, Host::Claude, "plan").unwrap();
        assert_eq!(merge.changes[4].event, "Stop");
        assert_eq!(merge.changes[4].action, Action::Updated);
        assert_eq!(d["hooks"]["Stop"].as_array().unwrap().len(), 1);
        assert_eq!(
            d["hooks"]["Stop"][0]["hooks"][0]["command"],
            "plan hook claude stop"
        );
        // SubagentStop is registered again (a subagent's stop is answered now): the
        // old entry is the one entry, brought up to date; uninstall takes all of ours.
        assert_eq!(d["hooks"]["SubagentStop"].as_array().unwrap().len(), 1);
        let removed = uninstall(&mut d, Host::Claude, "plan");
        assert_eq!(removed.len(), 10);
        assert_eq!(d, Map::new());
    }

    #[test]
    fn each_host_registers_one_hook_per_event() {
        for host in [Host::Claude, Host::Codex, Host::Gemini, Host::Pi] {
            let mut events: Vec<_> = host.hooks().iter().map(|h| h.name).collect();
            events.sort_unstable();
            events.dedup();
            assert_eq!(events.len(), host.hooks().len(), "{host:?}");
        }
    }

    #[test]
    fn the_settings_must_have_the_shape_plan_writes_into() {
        assert_eq!(parse("  \n"), Ok(Map::new()));
        assert_eq!(parse("\u{feff}{\"a\": 1}").unwrap()["a"], 1);
        assert_eq!(parse("[1]"), Err(Invalid::NotAnObject));
        assert_eq!(
            parse("{\n  \"hooks\": {,}\n}"),
            Err(Invalid::Syntax {
                line: 2,
                column: 13,
                message: "key must be a string".to_string()
            })
        );
        let mut d = doc(r#"{"hooks": {"Stop": {"command": "x"}}}"#);
        assert_eq!(
            install(&mut d, Host::Claude, "plan"),
            Err(Invalid::Shape {
                key: "hooks.Stop".to_string(),
                expected: "a list"
            })
        );
        let mut d = doc(r#"{"hooks": []}"#);
        assert!(matches!(
            install(&mut d, Host::Claude, "plan"),
            Err(Invalid::Shape { .. })
        ));
        // Uninstall judges nothing it does not recognise.
        assert_eq!(uninstall(&mut d, Host::Claude, "plan"), []);
    }

    #[test]
    fn the_plugin_manifest_is_ours_or_refused() {
        let mut d = Map::new();
        assert_eq!(merge_manifest(&mut d, "0.1.0"), Ok(true));
        assert_eq!(
            d.keys().collect::<Vec<_>>(),
            ["name", "description", "version"]
        );
        assert_eq!(merge_manifest(&mut d, "0.1.0"), Ok(false));
        assert!(is_our_manifest(&d));
        let mut other = doc(r#"{"name": "lint-bot"}"#);
        assert_eq!(
            merge_manifest(&mut other, "0.1.0"),
            Err(Invalid::OtherPlugin("lint-bot".to_string()))
        );
        assert!(!is_our_manifest(&other));
    }
}
