//! The install page's lines that install the shell completions and the manual page work on a
//! fresh HOME, where none of their directories exists yet.

use std::path::Path;
use std::process::Command;

use crate::util::{BIN, Test};

/// The lines of the ```sh block after `<!-- readme-test: completions -->`.
fn lines() -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/install.md"))
            .unwrap();
    let marker = "<!-- readme-test: completions -->";
    let after = &readme[readme
        .find(marker)
        .expect("docs/src/install.md lacks the marker")..];
    let body = after.split_once("```sh\n").unwrap().1;
    let body = body.split_once("```\n").unwrap().0;
    body.lines().map(String::from).collect()
}

#[test]
fn the_completion_lines_make_their_directories_on_a_fresh_home() {
    let t = Test::outside_git();
    std::os::unix::fs::symlink(BIN, t.bin().join("plan")).unwrap();
    let home = t.dir.path().join("fresh-home");
    std::fs::create_dir(&home).unwrap();
    let path = format!("{}:{}", t.bin().display(), crate::util::system_path());
    let lines = lines();
    assert_eq!(lines.len(), 4, "{lines:?}");
    for line in &lines {
        let out = Command::new("sh")
            .args(["-c", line])
            .current_dir(&t.cwd)
            .env("PATH", &path)
            .env("HOME", &home)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{line}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for (file, needle) in [
        (".local/share/bash-completion/completions/plan", "_plan()"),
        (".zfunc/_plan", "#compdef plan"),
        (".config/fish/completions/plan.fish", "--command plan"),
        (".local/share/man/man1/plan.1", ".TH plan 1"),
    ] {
        let text = std::fs::read_to_string(home.join(file)).unwrap_or_default();
        assert!(
            text.contains(needle),
            "{file}: {}",
            &text[..text.len().min(200)]
        );
    }
}
