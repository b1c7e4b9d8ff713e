//! Makefiles read for one question: do two versions mean the same to make, its
//! comment lines and blank lines aside? The Makefile of a `make check` verify is
//! what that check runs, and a `# graded` line added to it claims no work, as a
//! comment added to a script does not. Pure: text in, an answer out.

use super::MAX_BYTES;

/// Whether `path` names a makefile: `GNUmakefile`, `makefile`, `Makefile` (what
/// make reads unasked), or a `.mk` file (what one includes).
pub fn is_makefile(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(name, "GNUmakefile" | "makefile" | "Makefile")
        || name
            .rsplit_once('.')
            .is_some_and(|(stem, ext)| !stem.is_empty() && ext == "mk")
}

/// Whether `before` and `after`, two versions of a makefile, mean the same to
/// make: alike line for line once its comment lines and blank lines are left
/// out ([`kept`]). `false` (the bytes decide) past [`MAX_BYTES`], and for a
/// makefile with a `define`, whose body make keeps as written, `#` lines and
/// blank lines and all, or one that sets `.RECIPEPREFIX`, which moves what a
/// recipe line is.
pub fn same_meaning(before: &str, after: &str) -> bool {
    match (kept(before), kept(after)) {
        (Some(old), Some(new)) => old == new,
        _ => false,
    }
}

/// The lines of `text` make reads as more than a comment or a blank: a line
/// whose first character but spaces is `#` is a comment, and so is each line a
/// `\` at its end continues it onto; a line of nothing or spaces is blank. A line
/// a `\` continues onto is always kept (it is part of the line before), and so is
/// every line opening with a tab (a recipe line's `#` is the shell's). `None`
/// where [`same_meaning`] lets the bytes decide.
fn kept(text: &str) -> Option<Vec<&str>> {
    if text.len() > MAX_BYTES {
        return None;
    }
    let mut out = Vec::new();
    let mut continued = false;
    let mut in_comment = false;
    for line in text.split('\n') {
        let goes_on = line.ends_with('\\');
        let spaced = line.trim_start_matches(' ');
        if in_comment {
            in_comment = goes_on;
            continue;
        }
        if !continued && spaced.starts_with('#') {
            in_comment = goes_on;
            continue;
        }
        if !continued && spaced.is_empty() {
            continue;
        }
        if !continued && !line.starts_with('\t') && opens_verbatim(spaced) {
            return None;
        }
        continued = goes_on;
        out.push(line);
    }
    Some(out)
}

/// Whether a makefile line starts a `define` (past the words that may come
/// before it) or sets `.RECIPEPREFIX`.
fn opens_verbatim(line: &str) -> bool {
    let mut words = line
        .split_whitespace()
        .skip_while(|w| matches!(*w, "override" | "export" | "private" | "unexport"));
    words.next() == Some("define") || line.contains(".RECIPEPREFIX")
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAKEFILE: &str = "check:\n\ttest -f README.md\n";

    #[test]
    fn comment_and_blank_lines_added_mean_the_same() {
        for after in [
            "# graded\ncheck:\n\ttest -f README.md\n",
            "check:\n  # graded\n\ttest -f README.md\n",
            "\n\ncheck:\n\ttest -f README.md\n\n",
            "# graded \\\n  and still the comment\ncheck:\n\ttest -f README.md\n",
        ] {
            assert!(same_meaning(MAKEFILE, after), "{after:?}");
        }
    }

    #[test]
    fn what_make_reads_differs() {
        for after in [
            "check:\n\ttest -f README\n",
            "check:\n\t# graded\n\ttest -f README.md\n",
            "check:\n\n\ttest -f README.md\n\ttrue\n",
            "X = a \\\n# graded\ncheck:\n\ttest -f README.md\n",
            "X = a \\\n\ncheck:\n\ttest -f README.md\n",
            "check: # graded\n\ttest -f README.md\n",
        ] {
            assert!(!same_meaning(MAKEFILE, after), "{after:?}");
        }
    }

    #[test]
    fn a_define_or_a_recipe_prefix_leaves_it_to_the_bytes() {
        let defined = "define RUN\n# a\nendef\ncheck:\n\t$(RUN)\n";
        assert!(!same_meaning(defined, defined));
        let exported = "export define RUN\ntrue\nendef\n";
        assert!(!same_meaning(exported, exported));
        let prefixed = ".RECIPEPREFIX = >\ncheck:\n> true\n";
        assert!(!same_meaning(prefixed, prefixed));
        // A comment naming either is a comment.
        assert!(same_meaning(
            MAKEFILE,
            "# define .RECIPEPREFIX\ncheck:\n\ttest -f README.md\n"
        ));
        let big = "#\n".repeat(MAX_BYTES / 2 + 1);
        assert!(!same_meaning(&big, &big));
    }

    #[test]
    fn makefiles_by_their_names() {
        for path in [
            "Makefile",
            "a/makefile",
            "GNUmakefile",
            "rules.mk",
            "ci/x.mk",
        ] {
            assert!(is_makefile(path), "{path}");
        }
        for path in ["Makefile.am", "check", ".mk", "make.sh", "mk"] {
            assert!(!is_makefile(path), "{path}");
        }
    }
}
