//! README.md and the book under docs/ stay true: every command block marked
//! `<!-- readme-test: NAME -->` runs as written, and the book's pages and links resolve.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{BIN, NOW, Test, fixture_path, redact, shown};

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, then every page of the book, as (path from the repository root, text).
fn documents() -> Vec<(String, String)> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(manifest().join("docs/src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    let mut docs = vec![("README.md".to_string(), read("README.md"))];
    for page in pages {
        let rel = page.strip_prefix(manifest()).unwrap().display().to_string();
        docs.push((rel.clone(), read(&rel)));
    }
    docs
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(manifest().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// One marked block: where it is, its name, and its shell lines with backslash
/// continuations joined.
struct Block {
    file: String,
    name: String,
    lines: Vec<String>,
}

/// Every marked block of README.md and docs/src/*.md, in that order. A name used
/// twice is an error: a test finds its block by name.
fn marked() -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    for (file, text) in documents() {
        for (at, _) in text.match_indices("<!-- readme-test: ") {
            let after = &text[at + "<!-- readme-test: ".len()..];
            let name = after.split_once(" -->").unwrap().0.to_string();
            let body = after
                .split_once("```sh\n")
                .unwrap_or_else(|| panic!("{file}: {name} marks no ```sh block"))
                .1
                .split_once("```\n")
                .unwrap()
                .0;
            assert!(
                !blocks.iter().any(|b| b.name == name),
                "{file}: a second block named {name}"
            );
            blocks.push(Block {
                file: file.clone(),
                name,
                lines: joined(body),
            });
        }
    }
    blocks
}

fn joined(body: &str) -> Vec<String> {
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

/// The shell lines of the block marked `<!-- readme-test: NAME -->`, wherever it is.
fn block(name: &str) -> Vec<String> {
    marked()
        .into_iter()
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("no block is marked <!-- readme-test: {name} -->"))
        .lines
}

/// A PATH whose `plan` is the binary under test.
fn bin_dir(t: &Test) -> String {
    std::os::unix::fs::symlink(BIN, t.bin().join("plan")).unwrap();
    format!("{}:{}", t.bin().display(), crate::util::system_path())
}

fn sh(t: &Test, path: &str, line: &str, cwd: &Path) -> std::process::Output {
    Command::new("sh")
        .args(["-c", line])
        .current_dir(cwd)
        .env("PATH", path)
        .env("HOME", t.dir.path().join("home"))
        .env("TMPDIR", t.dir.path())
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
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
    insta::assert_snapshot!(redact(&t, &stdout));
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
            "example failed: {line}\n{}{}",
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
            "example failed: {line}\n{}{}",
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
            "example failed: {line}\n{}{}",
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

/// The body of the first fenced block with `info` after `heading` in the book's `page`.
fn fenced_after(page: &str, heading: &str, info: &str) -> String {
    let text = read(&format!("docs/src/{page}"));
    let after = &text[text
        .find(heading)
        .unwrap_or_else(|| panic!("{page} lacks {heading}"))..];
    let open = format!("```{info}\n");
    let body = &after[after.find(&open).unwrap() + open.len()..];
    body[..body.find("\n```\n").unwrap() + 1].to_string()
}

#[test]
fn the_example_file_parses_and_its_logged_contract_is_its_own() {
    let example = fenced_after("file.md", "# The file", "markdown");
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

/// The book says which bytes the fingerprint hashes; `git hash-object` on exactly
/// those bytes gives the documented id, and plan agrees.
#[test]
fn the_documented_fingerprint_bytes_hash_to_the_documented_value() {
    let bytes = fenced_after("file.md", "The contract fingerprint", "text");
    let readme = read("docs/src/file.md");
    let t = Test::new();
    t.write("contract.txt", &bytes);
    let id = t.git(&["hash-object", "contract.txt"]);
    let id = id.trim();
    assert!(
        readme.contains(&format!("`{id}`")),
        "docs/src/file.md does not give the blob id {id} of:\n{bytes}"
    );
    let example = fenced_after("file.md", "# The file", "markdown");
    let t = Test::new().plan(&example);
    let json = t.ok(&["show", "--all", "--json"]).json();
    assert_eq!(json["goals"][0]["contract"], &id[..8]);
}

#[test]
fn the_notify_examples_are_settings_plan_reads() {
    let example = fenced_after("events.md", "# Events and notifications", "yaml");
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
    insta::assert_snapshot!(shown(&t, &t.run(&["judge"]).code(2)));
}

/// The marked blocks a test of their own runs, with what it needs (an install
/// stood in for, a fresh HOME, an agent) and checks on what they did.
const OWN_TEST: [&str; 9] = [
    "quickstart",
    "no-model",
    "command-judge",
    "team",
    "first-hour",
    "completions",
    "commands",
    "port",
    "claims",
];

/// Every other marked block runs line by line in a fresh repository; a block
/// added to README.md or a page of the book is run without anyone listing it.
#[test]
fn every_marked_block_runs() {
    let blocks = marked();
    for name in OWN_TEST {
        assert!(
            blocks.iter().any(|b| b.name == name),
            "no block is marked {name}"
        );
    }
    assert!(
        blocks.len() > OWN_TEST.len(),
        "no block is left to run here"
    );
    for b in blocks
        .iter()
        .filter(|b| !OWN_TEST.contains(&b.name.as_str()))
    {
        let t = Test::new();
        let path = bin_dir(&t);
        for line in &b.lines {
            let out = sh(&t, &path, line, &t.root());
            assert!(
                out.status.success(),
                "{}: block {} failed: {line}\n{}{}",
                b.file,
                b.name,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// The README's first hour, as one script: the agent and the judge are a fake
/// `claude` (an agent that writes the exporter, starts the goal and ticks it; a
/// judge that accepts), and `cargo test` a stand-in that passes once the exporter
/// exists. The block's own lines run unchanged.
#[test]
fn the_first_hour_runs_to_a_signed_off_goal() {
    let t = Test::new();
    let path = bin_dir(&t);
    let judge = fixture_path("judges/claude-accept");
    t.fake_program(
        "claude",
        &format!(
            "if [ \"$1\" = -p ]; then exec '{}' \"$@\"; fi\n\
             mkdir -p src && echo 'pub fn export() {{}}' > src/export.rs\n\
             plan start csv-export && plan tick csv-export 1 && plan tick csv-export 2\n",
            judge.display()
        ),
    );
    t.fake_program(
        "cargo",
        "test \"$1 $2\" = 'test csv_export' && test -s src/export.rs\n",
    );
    let lines = block("first-hour");
    assert!(
        lines.iter().any(|l| l.starts_with("plan complete ")),
        "{lines:?}"
    );
    let out = sh(
        &t,
        &path,
        &format!("set -e\n{}", lines.join("\n")),
        &t.root(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = t.plan_md();
    assert!(md.contains("status: done"), "{md}");
    assert!(
        md.contains("csv-export signed off (verify passed, judge claude accept"),
        "{md}"
    );
    assert!(t.path(".claude/settings.json").exists());
    t.ok(&["audit"]);
}

#[test]
fn the_readme_is_at_most_300_lines() {
    let lines = read("README.md").lines().count();
    assert!(lines <= 300, "README.md has {lines} lines");
}

/// mdBook builds only what SUMMARY.md lists, and fails on an entry with no file:
/// every entry is a page, and every page is an entry.
#[test]
fn the_book_lists_every_page_and_nothing_else() {
    assert!(read("docs/book.toml").contains("src = \"src\""));
    let summary = read("docs/src/SUMMARY.md");
    let listed: Vec<String> = summary
        .match_indices("](")
        .map(|(at, _)| summary[at + 2..].split_once(')').unwrap().0.to_string())
        .collect();
    for entry in &listed {
        assert!(
            manifest().join("docs/src").join(entry).is_file(),
            "SUMMARY.md lists {entry}, which is not there"
        );
    }
    for (file, _) in documents().iter().skip(1) {
        let name = file.strip_prefix("docs/src/").unwrap();
        assert!(
            name == "SUMMARY.md" || listed.iter().any(|l| l == name),
            "{file} is not in SUMMARY.md"
        );
    }
}

/// A heading's anchor as GitHub and mdBook make it.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            c if c.is_whitespace() => Some('-'),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown text's headings, fenced code left out.
fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            found.push(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

/// Every link from README.md or a page to a file of this repository names a file
/// that is there, and an anchor, when it has one, that a heading there makes.
#[test]
fn every_link_between_the_pages_resolves() {
    let mut checked = 0;
    for (file, text) in documents() {
        let dir = Path::new(&file).parent().unwrap().to_path_buf();
        for (at, _) in text.match_indices("](") {
            let target = text[at + 2..].split_once(')').unwrap().0;
            if target.contains("://") || target.contains(' ') {
                continue;
            }
            let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
            let to = if path.is_empty() {
                file.clone()
            } else {
                dir.join(path).display().to_string()
            };
            assert!(
                manifest().join(&to).exists(),
                "{file}: the link {target} names {to}, which is not there"
            );
            if !fragment.is_empty() {
                assert!(
                    anchors(&read(&to)).iter().any(|a| a == fragment),
                    "{file}: the link {target}: {to} has no heading #{fragment}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 30, "{checked}");
}

/// The README's team flow: a lead and an agent in two clones of one bare origin.
/// The lead's lines run unchanged in the lead's clone, the agent's in its own (ID,
/// NAME and the messages filled in, the judge a fake `claude` that accepts); then
/// the lead pulls with plain git and the agent's sign-off is proven there, its
/// checkpoint brought by `git pull` alone.
#[test]
fn the_team_flow_runs_from_two_clones() {
    let t = Test::new();
    let path = bin_dir(&t);
    let judge = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", judge.display()));
    let origin = t.dir.path().join("origin.git");
    let agent = t.dir.path().join("agent");
    let run = |line: &str, cwd: &Path| {
        let out = sh(&t, &path, line, cwd);
        assert!(
            out.status.success(),
            "{line}\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(
        &format!(
            "git init -q --bare -b main '{0}' && plan init 'Ship it' && plan add 'Write notes' --done-when 'notes.txt says hello' --verify 'grep -q hello notes.txt' && git add -A && git commit -qm plan && git remote add origin '{0}' && git push -q -u origin main",
            origin.display()
        ),
        &t.root(),
    );
    let lines = block("team");
    let split = lines
        .iter()
        .position(|l| l.starts_with("# each agent"))
        .expect("the block names the agent's part");
    let code = |l: &&String| !l.trim_start().starts_with('#') && !l.trim().is_empty();
    for line in lines[..split].iter().filter(code) {
        run(line, &t.root());
    }
    run(
        &format!("git clone -q '{}' '{}'", origin.display(), agent.display()),
        t.dir.path(),
    );
    for line in lines[split..].iter().filter(code) {
        if line.starts_with("plan complete") {
            run("echo hello > notes.txt && git add notes.txt", &agent);
        }
        let line = line
            .replace("ID", "write-notes")
            .replace("NAME", "alice")
            .replace('…', "the notes say hello");
        run(&line, &agent);
    }
    run("git pull -q", &t.root());
    let out = sh(&t, &path, "plan audit && plan lint", &t.root());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    insta::assert_snapshot!(redact(&t, &stdout));
}

/// The README's "Try it without a model", as written, in a directory outside any
/// repository with nothing but `plan` and the system's tools on PATH (no model CLI):
/// the first block signs a goal off with `--judge none`, the second sets the
/// four-line command judge outside the repository and signs a second goal off with it.
#[test]
fn trying_it_without_a_model_signs_goals_off() {
    let t = Test::outside_git();
    let path = bin_dir(&t);
    let first = block("no-model");
    assert!(
        first.len() <= 4,
        "at most four lines to a sign-off: {first:?}"
    );
    let lines: Vec<String> = first.into_iter().chain(block("command-judge")).collect();
    let out = sh(&t, &path, &format!("set -e\n{}", lines.join("\n")), &t.cwd);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = std::fs::read_to_string(t.cwd.join("demo/plan.md")).unwrap();
    assert!(
        md.contains("say-hello signed off (verify passed, judge skipped"),
        "{md}"
    );
    assert!(
        md.contains("say-bye signed off (verify passed, judge command accept"),
        "{md}"
    );
    let judge = std::fs::read_to_string(t.dir.path().join("home/.local/bin/my-judge")).unwrap();
    assert_eq!(judge.lines().count(), 4, "{judge}");
}

/// No README line runs past 200 characters (issue 36: 31 did, a table row 1,122);
/// the details live in docs/.
#[test]
fn readme_lines_are_under_200_characters() {
    let long: Vec<String> = read("README.md")
        .lines()
        .enumerate()
        .filter(|(_, l)| l.chars().count() >= 200)
        .map(|(i, l)| format!("line {}: {} characters", i + 1, l.chars().count()))
        .collect();
    assert!(long.is_empty(), "{long:?}");
}

/// Every install command the README shows as working today needs only what it
/// names; a channel a release will publish is said to be one, after them.
#[test]
fn the_readme_install_works_today_first() {
    let readme = read("README.md");
    let install = &readme[readme.find("## Install").unwrap()..];
    let install = &install[..install[3..].find("\n## ").unwrap()];
    let first = install
        .split_once("```sh\n")
        .unwrap()
        .1
        .lines()
        .next()
        .unwrap();
    assert_eq!(first, "cargo install --locked --path .");
    // The test command beside it, on the first screen (issue 71).
    assert!(
        install.contains("cargo install --locked --path .\ncargo test\n```"),
        "{install}"
    );
    for later in ["npm install --global @plan-cli/plan", "install.sh"] {
        let at = install.find(later).unwrap_or_else(|| panic!("{later}"));
        assert!(at > install.find(first).unwrap());
        assert!(
            install[..at].contains("once a release is published"),
            "{install}"
        );
    }
    assert!(readme.contains("`cargo test`") && readme.contains("`.ci/run`"));
}

/// The words of `text`, lowercased, split at everything but letters and digits.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The backticked names in `text` after `after`, up to the next `on PATH` or `)`.
fn ticked_names(text: &str, after: &str) -> Vec<String> {
    let from = &text[text.find(after).unwrap_or_else(|| panic!("no {after:?}")) + after.len()..];
    let end = ["on PATH", ")"]
        .iter()
        .filter_map(|e| from.find(e))
        .min()
        .unwrap_or(from.len());
    let sentence = &from[..end];
    sentence
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| *w != "auto")
        .map(str::to_string)
        .collect()
}

/// Issue 36: the docs' lists drifted from the code (settings.md left opencode out of
/// the automatic judge order, the introduction named 6 of the 8 hosts, development.md
/// said six CLIs). The hosts come from `plan install --help`, the order from `plan
/// judge backend --help`, both the code's own tables.
#[test]
fn the_docs_lists_of_hosts_and_judge_order_are_the_codes() {
    let hosts = crate::util::hosts();
    let first_paragraph = |rel: &str| {
        let text = read(rel);
        let body = text.split_once("\n\n").unwrap().1;
        body.split("\n\n").next().unwrap().to_string()
    };
    for rel in ["README.md", "docs/src/introduction.md"] {
        let said = words(&first_paragraph(rel));
        for host in &hosts {
            assert!(
                said.contains(host),
                "{rel}'s introduction leaves out {host}"
            );
        }
    }
    let heading = read("docs/src/hosts.md")
        .lines()
        .next()
        .unwrap()
        .to_string();
    for host in &hosts {
        assert!(
            words(&heading).contains(host),
            "hosts.md's title leaves out {host}"
        );
    }
    let help = Test::new().ok(&["judge", "backend", "--help"]).stdout;
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let order: Vec<String> = help
        .split_once("auto takes the first of ")
        .and_then(|(_, rest)| rest.split_once(" found on PATH"))
        .unwrap_or_else(|| panic!("{help}"))
        .0
        .replace(" and ", ", ")
        .split(", ")
        .map(str::to_string)
        .collect();
    assert!(order.len() > hosts.len(), "{order:?}");
    assert_eq!(
        ticked_names(&read("docs/src/settings.md"), "`auto` takes the first of"),
        order,
        "settings.md"
    );
    assert_eq!(
        ticked_names(&read("README.md"), "with a model CLI on PATH ("),
        order,
        "README.md"
    );
    let count = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ][hosts.len()];
    for (rel, says) in [
        (
            "docs/src/development.md",
            format!("installs the {count} CLIs"),
        ),
        ("README.md", format!("the {count} real host\nCLIs")),
    ] {
        assert!(read(rel).contains(&says), "{rel} does not say {says:?}");
    }
}
