//! `plan install --mcp CLIENT` / `plan uninstall --mcp CLIENT`: plan's MCP server
//! registered in each client's own file, merged into what is there, and taken back
//! to the byte.

use std::path::PathBuf;

use crate::util::{Test, shown};

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

fn home(t: &Test) -> PathBuf {
    t.dir.path().join("home")
}

#[test]
fn claude_code_gets_a_fresh_mcp_json_and_uninstall_deletes_it() {
    let t = Test::new();
    let run = t.ok(&["install", "--mcp", "claude"]);
    insta::assert_snapshot!(shown(&t, &run));
    assert_eq!(
        json(&t.read(".mcp.json")),
        json(r#"{"mcpServers": {"plan": {"command": "plan", "args": ["mcp"]}}}"#)
    );
    let again = t.ok(&["install", "--mcp", "claude"]);
    assert_eq!(
        again.stdout,
        "plan's MCP server for Claude Code is already registered in .mcp.json\n"
    );
    let gone = t.ok(&["uninstall", "--mcp", "claude"]);
    insta::assert_snapshot!(shown(&t, &gone));
    assert!(!t.path(".mcp.json").exists());
    let nothing = t.ok(&["uninstall", "--mcp", "claude"]);
    insta::assert_snapshot!(shown(&t, &nothing));
}

#[test]
fn cursor_keeps_the_other_servers_and_gets_its_bytes_back() {
    let t = Test::new();
    let theirs = "{\n    \"mcpServers\": {\n        \"github\": {\n            \"command\": \"npx\",\n            \"args\": [\"-y\", \"@modelcontextprotocol/server-github\"],\n            \"env\": {\"GITHUB_TOKEN\": \"x\"}\n        }\n    }\n}\n";
    t.write(".cursor/mcp.json", theirs);
    t.ok(&["install", "--mcp", "cursor"]);
    let installed = t.read(".cursor/mcp.json");
    let doc = json(&installed);
    assert_eq!(doc["mcpServers"]["github"]["env"]["GITHUB_TOKEN"], "x");
    assert_eq!(
        doc["mcpServers"]["plan"],
        json(r#"{"command": "plan", "args": ["mcp"]}"#)
    );
    // The person's own lines stay as they wrote them.
    assert!(
        installed
            .contains("            \"args\": [\"-y\", \"@modelcontextprotocol/server-github\"],\n"),
        "{installed}"
    );
    t.ok(&["uninstall", "--mcp", "cursor"]);
    assert_eq!(t.read(".cursor/mcp.json"), theirs);
}

#[test]
fn vs_code_takes_servers_with_a_type_and_keeps_comments() {
    let t = Test::new();
    let theirs = "// shared with the team\n{\n  \"inputs\": [],\n  \"servers\": {\n    \"db\": {\"type\": \"stdio\", \"command\": \"db-mcp\"} // ours\n  }\n}\n";
    t.write(".vscode/mcp.json", theirs);
    t.ok(&["install", "--mcp", "vscode"]);
    let installed = t.read(".vscode/mcp.json");
    assert!(
        installed.starts_with("// shared with the team\n"),
        "{installed}"
    );
    assert!(installed.contains("// ours"), "{installed}");
    assert!(!installed.contains("mcpServers"), "{installed}");
    t.ok(&["uninstall", "--mcp", "vscode"]);
    assert_eq!(t.read(".vscode/mcp.json"), theirs);

    // A fresh one: VS Code's shape, and the directory goes with the file.
    std::fs::remove_dir_all(t.path(".vscode")).unwrap();
    t.ok(&["install", "--mcp", "vscode"]);
    assert_eq!(
        json(&t.read(".vscode/mcp.json")),
        json(r#"{"servers": {"plan": {"type": "stdio", "command": "plan", "args": ["mcp"]}}}"#)
    );
    t.ok(&["uninstall", "--mcp", "vscode"]);
    assert!(!t.path(".vscode").exists());
}

#[test]
fn claude_desktop_is_global_only_and_names_the_repository() {
    let t = Test::new();
    insta::assert_snapshot!(shown(&t, &t.run(&["install", "--mcp", "desktop"]).code(2)));
    let config = home(&t).join(".config/Claude/claude_desktop_config.json");
    let theirs = "{\n  \"globalShortcut\": \"Ctrl+Space\"\n}\n";
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, theirs).unwrap();
    let run = t.ok(&["install", "--mcp", "desktop", "--global"]);
    insta::assert_snapshot!(shown(&t, &run));
    let doc = json(&std::fs::read_to_string(&config).unwrap());
    let root = std::fs::canonicalize(t.root()).unwrap();
    assert_eq!(doc["globalShortcut"], "Ctrl+Space");
    assert_eq!(
        doc["mcpServers"]["plan"],
        serde_json::json!({"command": "plan", "args": ["mcp", "--root", root.display().to_string()]})
    );
    t.ok(&["uninstall", "--mcp", "desktop", "--global"]);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), theirs);
}

#[test]
fn another_server_named_plan_is_left_alone() {
    let t = Test::new();
    let theirs =
        "{\"mcpServers\": {\"plan\": {\"command\": \"python\", \"args\": [\"planner.py\"]}}}\n";
    t.write(".mcp.json", theirs);
    insta::assert_snapshot!(shown(&t, &t.run(&["install", "--mcp", "claude"]).code(2)));
    assert_eq!(t.read(".mcp.json"), theirs);
    t.run(&["uninstall", "--mcp", "claude"]).code(2);
    assert_eq!(t.read(".mcp.json"), theirs);
}

#[test]
fn another_program_path_is_updated_in_place() {
    let t = Test::new();
    t.write(
        ".mcp.json",
        "{\"mcpServers\": {\"plan\": {\"command\": \"/opt/plan/bin/plan\", \"args\": [\"mcp\"], \"env\": {\"A\": \"1\"}}}}\n",
    );
    let run = t.ok(&["install", "--mcp", "claude"]);
    insta::assert_snapshot!(shown(&t, &run));
    assert_eq!(
        json(&t.read(".mcp.json"))["mcpServers"]["plan"],
        json(r#"{"command": "plan", "args": ["mcp"], "env": {"A": "1"}}"#)
    );
}

#[test]
fn a_broken_file_is_refused_with_its_place() {
    let t = Test::new();
    t.write(".cursor/mcp.json", "{\n  \"mcpServers\": {,}\n}\n");
    insta::assert_snapshot!(shown(&t, &t.run(&["install", "--mcp", "cursor"]).code(2)));
    t.write(".mcp.json", "{\"mcpServers\": []}\n");
    insta::assert_snapshot!(shown(&t, &t.run(&["install", "--mcp", "claude"]).code(2)));
}

#[test]
fn a_host_or_mcp_is_needed_and_not_both() {
    let t = Test::new();
    t.run(&["install"]).code(2);
    t.run(&["install", "claude", "--mcp", "claude"]).code(2);
    t.run(&["install", "--mcp", "claude", "--plugin", "x"])
        .code(2);
}
