//! README.md stays true: its quick start and its command examples run as written.

use std::path::Path;
use std::process::Command;

use crate::util::{BIN, NOW, Test};

/// The shell lines of the ```sh block after `<!-- readme-test: NAME -->`, with
/// backslash continuations joined.
fn block(name: &str) -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let marker = format!("<!-- readme-test: {name} -->");
    let after = &readme[readme
        .find(&marker)
        .unwrap_or_else(|| panic!("README lacks {marker}"))..];
    let body = after
        .split_once("```sh\n")
        .unwrap()
        .1
        .split_once("```\n")
        .unwrap()
        .0;
    let mut lines = Vec::new();
    let mut current = String::new();
    for line in body.lines() {
        match line.strip_suffix('\\') {
            Some(start) => current.push_str(start),
            None => {
                current.push_str(line);
                lines.push(std::mem::take(&mut current));
            }
        }
    }
    lines
}

/// A PATH whose `plan` is the binary under test.
fn bin_dir(t: &Test) -> String {
    std::os::unix::fs::symlink(BIN, t.bin().join("plan")).unwrap();
    format!("{}:{}", t.bin().display(), std::env::var("PATH").unwrap())
}

fn sh(t: &Test, path: &str, line: &str, cwd: &Path) -> std::process::Output {
    Command::new("sh")
        .args(["-c", line])
        .current_dir(cwd)
        .env("PATH", path)
        .env("HOME", t.dir.path().join("home"))
        .env("TMPDIR", t.dir.path())
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("PLAN_NOW", NOW)
        .env_remove("PLAN_FILE")
        .output()
        .unwrap()
}

#[test]
fn quick_start_runs() {
    let t = Test::outside_git();
    let path = bin_dir(&t);
    let lines = block("quickstart");
    assert_eq!(lines.len(), 1, "the quick start is one command");
    // Installing is what the test cannot do; the binary under test stands in.
    let line = lines[0]
        .strip_prefix("cargo install --locked --path . && ")
        .expect("the quick start installs first");
    let out = sh(&t, &path, line, &t.cwd);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Plan: Try plan"), "{stdout}");
    assert!(stdout.contains("[x] look at it"), "{stdout}");
}

#[test]
fn command_examples_run_in_order() {
    let t = Test::new();
    let path = bin_dir(&t);
    let lines = block("commands");
    assert!(lines.len() >= 10);
    for line in &lines {
        let out = sh(&t, &path, line, &t.root());
        assert!(
            out.status.success(),
            "README example failed: {line}\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let md = t.plan_md();
    assert!(md.contains("## Archive\n\n## Goal: Spike Redis"));
    assert!(md.contains("cache-layer criterion added: p99 < 120ms"));
}

#[test]
fn export_and_import_examples_run() {
    let t = Test::new();
    let path = bin_dir(&t);
    for line in &block("port") {
        let out = sh(&t, &path, line, &t.root());
        assert!(
            out.status.success(),
            "README example failed: {line}\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let md = t.plan_md();
    assert!(
        md.contains("run-the-tests imported as done from todos todos.json"),
        "{md}"
    );
    assert!(md.contains("## Goal: Fix the flaky test"));
    assert!(t.read("plan.schema.json").contains("plan/1"));
    assert!(
        !t.path(".git/plan/proposal.json").exists(),
        "rejected at the end"
    );
}

#[test]
fn claims_examples_run() {
    let t = Test::new();
    let path = bin_dir(&t);
    for line in &block("claims") {
        let out = sh(&t, &path, line, &t.root());
        assert!(
            out.status.success(),
            "README example failed: {line}\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(
        t.plan_md()
            .contains("cache-layer claim taken by bob from alice (steal)")
    );
    assert_eq!(t.git(&["for-each-ref", "refs/plan/claims/"]), "");
}

/// The body of the first fenced block with `info` after `heading` in README.md.
fn fenced_after(heading: &str, info: &str) -> String {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let after = &readme[readme
        .find(heading)
        .unwrap_or_else(|| panic!("README lacks {heading}"))..];
    let open = format!("```{info}\n");
    let body = &after[after.find(&open).unwrap() + open.len()..];
    body[..body.find("\n```\n").unwrap() + 1].to_string()
}

#[test]
fn the_example_file_parses_and_its_logged_contract_is_its_own() {
    let example = fenced_after("## The file", "markdown");
    let t = Test::new().plan(&example);
    let json = t.ok(&["show", "--all", "--json"]).json();
    assert_eq!(json["errors"], serde_json::json!([]), "{example}");
    let goal = &json["goals"][0];
    assert_eq!(goal["id"], "cache-layer");
    assert_eq!(goal["subtasks"].as_array().unwrap().len(), 2);
    assert_eq!(goal["failure_modes"].as_array().unwrap().len(), 2);
    let logged = format!("(contract {})", goal["contract"].as_str().unwrap());
    assert!(
        example.contains(&logged),
        "the example logs another contract than {logged}"
    );
    t.ok(&["lint"]);
    t.ok(&["doctor"]);
}

/// README says which bytes the fingerprint hashes; `git hash-object` on exactly
/// those bytes gives the documented id, and plan agrees.
#[test]
fn the_documented_fingerprint_bytes_hash_to_the_documented_value() {
    let bytes = fenced_after("The contract fingerprint", "text");
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let t = Test::new();
    t.write("contract.txt", &bytes);
    let id = t.git(&["hash-object", "contract.txt"]);
    let id = id.trim();
    assert!(
        readme.contains(&format!("`{id}`")),
        "README does not give the blob id {id} of:\n{bytes}"
    );
    let example = fenced_after("## The file", "markdown");
    let t = Test::new().plan(&example);
    let json = t.ok(&["show", "--all", "--json"]).json();
    assert_eq!(json["goals"][0]["contract"], &id[..8]);
}

#[test]
fn the_notify_examples_are_settings_plan_reads() {
    let example = fenced_after("## Events and notifications", "yaml");
    assert!(
        example.contains("notify-send") && example.contains("curl"),
        "{example}"
    );
    let t = Test::new();
    t.write(".plan/config.yaml", &example);
    t.ok(&["judge"]);
    t.write(
        ".plan/config.yaml",
        example.replace("sign_off_rejected", "rejected"),
    );
    t.run(&["judge"])
        .code(2)
        .stderr_has("unknown event \"rejected\"");
}
