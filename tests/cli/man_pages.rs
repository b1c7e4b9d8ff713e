//! `plan man` has a page for every subcommand plan(1) refers to: `plan man SUB` prints
//! one, and `plan man --all DIR` writes them all.

use crate::util::{Test, redact};

/// The pages plan(1) refers to, as file names: `plan\-judge\-model(1)` → plan-judge-model.1.
fn referred(page: &str) -> Vec<String> {
    let mut names: Vec<String> = page
        .match_indices("plan\\-")
        .filter_map(|(at, _)| {
            let rest = &page[at..];
            let end = rest.find("(1)")?;
            let name = rest[..end].replace("\\-", "-");
            name.chars()
                .all(|c| c.is_ascii_lowercase() || c == '-')
                .then(|| format!("{name}.1"))
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn every_page_plan_1_refers_to_exists() {
    let t = Test::outside_git();
    let main = t.ok(&["man"]).stdout;
    let pages = referred(&main);
    assert!(pages.len() > 30, "{pages:?}");
    assert!(pages.contains(&"plan-complete.1".to_string()), "{pages:?}");
    let dir = t.dir.path().join("man/man1");
    let run = t.ok(&["man", "--all", dir.to_str().unwrap()]);
    for page in &pages {
        assert!(
            dir.join(page).is_file(),
            "plan(1) refers to {page}, not written"
        );
    }
    assert!(dir.join("plan-judge-model.1").is_file());
    let written = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(
        run.stdout,
        format!("wrote {written} pages into {}\n", dir.display())
    );
    // plan.1 is plan man's own page, sections included.
    assert_eq!(std::fs::read_to_string(dir.join("plan.1")).unwrap(), main);
    // Every page's title line names it and plan's version, not the subcommand's
    // name (`"add 0.1.0"`).
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let title = text.lines().find(|l| l.starts_with(".TH ")).unwrap();
        let name = path.file_stem().unwrap().to_str().unwrap();
        assert_eq!(
            title,
            format!(".TH {name} 1  \"plan {}\" ", env!("CARGO_PKG_VERSION"))
        );
    }
}

#[test]
fn man_subcommand_prints_its_page() {
    let t = Test::outside_git();
    let page = t.ok(&["man", "complete"]).stdout;
    insta::assert_snapshot!(redact(&t, &page));
    let nested = t.ok(&["man", "judge", "model"]).stdout;
    insta::assert_snapshot!(redact(&t, &nested));
    t.case(&["man", "nope"])
        .status(2)
        .stderr("plan: no manual page for `plan nope`\n  hint: `plan --help` lists the commands; `plan man --all DIR` writes every page\n")
        .check();
}
