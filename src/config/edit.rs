//! Line-level edits to a settings file: set one `section.key` and keep every other
//! byte — comments, key order, blank lines, line endings, a BOM. Pure: text in, text
//! out. It does not understand all of YAML, so the caller re-reads the result and
//! refuses to write one that does not load or does not say what was set.

/// `value` as a YAML scalar: plain when it cannot read as anything but that text,
/// else double-quoted (a JSON string is a valid YAML one). `None` is `null`.
pub fn scalar(value: Option<&str>) -> String {
    let Some(text) = value else {
        return "null".to_string();
    };
    const RESERVED: [&str; 10] = [
        "null", "true", "false", "yes", "no", "on", "off", "y", "n", "~",
    ];
    let plain = text.starts_with(|c: char| c.is_ascii_alphabetic())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./@+:".contains(c))
        && !text.ends_with(':')
        && !RESERVED.iter().any(|r| r.eq_ignore_ascii_case(text));
    match plain {
        true => text.to_string(),
        false => serde_json::Value::String(text.to_string()).to_string(),
    }
}

/// `text` with `key` under the top-level `section` set to `value` (YAML, as from
/// `scalar`): the key's line rewritten, or a line inserted at the end of the
/// section, or the section appended. Err: why the file cannot be edited by lines.
pub fn set(text: &str, section: &str, key: &str, value: &str) -> Result<String, String> {
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(body) => ("\u{feff}", body),
        None => ("", text),
    };
    let eol = if body.contains("\r\n") { "\r\n" } else { "\n" };
    let mut lines: Vec<String> = body.split_inclusive('\n').map(String::from).collect();

    let Some(header) = lines
        .iter()
        .position(|l| first_key(l) == Some((0, section)))
    else {
        if lines.last().is_some_and(|l| !l.ends_with('\n')) {
            lines.last_mut().unwrap().push_str(eol);
        }
        lines.push(format!("{section}:{eol}"));
        lines.push(format!("  {key}: {value}{eol}"));
        return Ok(format!("{bom}{}", lines.concat()));
    };
    let after = value_of(after_colon(content(&lines[header]), section));
    if !after.is_empty() {
        return Err(match after.starts_with('{') {
            true => format!(
                "`{section}:` is written in flow style ({{...}}), which plan does not edit\n  hint: write it as a block: `{section}:` alone on its line, each key on its own line indented under it"
            ),
            false => format!(
                "`{section}:` has `{after}` on its line, which plan does not edit\n  hint: write `{section}:` alone on its line, each key on its own line indented under it"
            ),
        });
    }

    let end = (header + 1..lines.len())
        .find(|&i| {
            let line = content(&lines[i]);
            !is_blank_or_comment(line) && indent_of(line) == 0
        })
        .unwrap_or(lines.len());
    let members: Vec<usize> = (header + 1..end)
        .filter(|&i| !is_blank_or_comment(content(&lines[i])))
        .collect();
    let indent = members
        .first()
        .map_or(2, |&i| indent_of(content(&lines[i])));

    let found = members
        .iter()
        .copied()
        .find(|&i| first_key(&lines[i]) == Some((indent, key)));
    if let Some(at) = found {
        let line = content(&lines[at]);
        let ending = &lines[at][line.len()..];
        let rest = after_colon(line, key);
        let head = &line[..line.len() - rest.len()];
        let comment = comment_start(rest).map(|c| &rest[c..]);
        let old_value = value_of(rest);
        let gap = match comment {
            Some(comment) => {
                let before = &rest[..rest.len() - comment.len()];
                let gap = &before[before.trim_end().len()..];
                if old_value.is_empty() || gap.is_empty() {
                    " "
                } else {
                    gap
                }
            }
            None => "",
        };
        let rewritten = format!("{head} {value}{gap}{}{ending}", comment.unwrap_or(""));
        // A value continued on more indented lines (a block scalar, a wrapped
        // string) goes with the old value; comments among them stay.
        let continued: Vec<usize> = (at + 1..end)
            .take_while(|&i| {
                let l = content(&lines[i]);
                l.trim().is_empty() || indent_of(l) > indent
            })
            .filter(|&i| !is_blank_or_comment(content(&lines[i])))
            .collect();
        lines[at] = rewritten;
        for i in continued.into_iter().rev() {
            lines.remove(i);
        }
        return Ok(format!("{bom}{}", lines.concat()));
    }

    let last = (header + 1..end)
        .rev()
        .find(|&i| {
            let l = content(&lines[i]);
            !l.trim().is_empty() && indent_of(l) > 0
        })
        .unwrap_or(header);
    if !lines[last].ends_with('\n') {
        lines[last].push_str(eol);
    }
    lines.insert(
        last + 1,
        format!("{:indent$}{key}: {value}{eol}", "", indent = indent),
    );
    Ok(format!("{bom}{}", lines.concat()))
}

/// The line without its line ending.
fn content(line: &str) -> &str {
    line.trim_end_matches('\n').trim_end_matches('\r')
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_blank_or_comment(line: &str) -> bool {
    let trimmed = line.trim_start();
    trimmed.is_empty() || trimmed.starts_with('#')
}

/// The line's leading plain `key:` and its indentation, when it starts with one.
fn first_key(line: &str) -> Option<(usize, &str)> {
    let line = content(line);
    let indent = indent_of(line);
    let rest = &line[indent..];
    let end = rest
        .find(|c: char| ":,{}[]# \"'".contains(c))
        .unwrap_or(rest.len());
    let colon = rest[end..].trim_start_matches(' ').strip_prefix(':')?;
    (end > 0 && (colon.is_empty() || colon.starts_with(' '))).then_some((indent, &rest[..end]))
}

/// What follows the colon of the line's leading `key:` (which `first_key` found).
fn after_colon<'a>(line: &'a str, key: &str) -> &'a str {
    let from = indent_of(line) + key.len();
    let colon = line[from..].find(':').map_or(line.len(), |c| from + c + 1);
    &line[colon..]
}

/// The value in what follows a colon, without a comment or surrounding spaces.
fn value_of(rest: &str) -> &str {
    match comment_start(rest) {
        Some(c) => rest[..c].trim(),
        None => rest.trim(),
    }
}

/// Where a `#` comment starts: after a space, outside quotes.
fn comment_start(rest: &str) -> Option<usize> {
    let mut quote = None;
    let mut prev = ' ';
    for (i, c) in rest.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' && (prev == ' ' || prev == '\t') => return Some(i),
            None => {}
        }
        prev = c;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_read_back_as_the_text() {
        assert_eq!(scalar(None), "null");
        assert_eq!(scalar(Some("claude-opus-4")), "claude-opus-4");
        assert_eq!(
            scalar(Some("anthropic/claude-sonnet-4")),
            "anthropic/claude-sonnet-4"
        );
        assert_eq!(scalar(Some("openrouter/x:free")), "openrouter/x:free");
        assert_eq!(scalar(Some("gpt-5@2025")), "gpt-5@2025");
        for quoted in [
            "null", "No", "on", "~", "12", "1e3", "-x", "a b", "", "x:", "#x", "é",
        ] {
            assert!(scalar(Some(quoted)).starts_with('"'), "{quoted}");
        }
        assert_eq!(scalar(Some("say \"hi\"\n")), r#""say \"hi\"\n""#);
    }

    fn set_ok(text: &str, key: &str, value: &str) -> String {
        let out = set(text, "judge", key, value).unwrap();
        crate::config::from_text(&out, "test.yaml").unwrap();
        out
    }

    const SHARED: &str = "\
# Team settings: keep the judge strict.
judge:
  backend: claude   # the team's judge
  model: claude-sonnet-4  # cheaper
  timeout_secs: 900

# Plan-phase model.
draft:
  model: gpt-5
loop:
  judge: on
";

    #[test]
    fn a_key_is_rewritten_in_place_with_its_comment() {
        let out = set_ok(SHARED, "model", "claude-opus-4");
        assert_eq!(
            out,
            SHARED.replace(
                "  model: claude-sonnet-4  # cheaper",
                "  model: claude-opus-4  # cheaper"
            )
        );
        let out = set_ok(SHARED, "backend", "codex");
        assert_eq!(
            out,
            SHARED.replace("  backend: claude   #", "  backend: codex   #")
        );
        assert_eq!(set_ok(SHARED, "model", "claude-sonnet-4"), SHARED);
    }

    #[test]
    fn a_missing_key_goes_at_the_end_of_its_section_at_its_indent() {
        let text = "judge:\n    backend: pi\n    # model: maybe later\n\n# next\nverify:\n  timeout_secs: 5\n";
        assert_eq!(
            set_ok(text, "model", "m"),
            "judge:\n    backend: pi\n    # model: maybe later\n    model: m\n\n# next\nverify:\n  timeout_secs: 5\n"
        );
        assert_eq!(
            set_ok("judge:\n# c\n", "model", "m"),
            "judge:\n  model: m\n# c\n"
        );
        assert_eq!(
            set_ok("judge:\n  backend: pi", "model", "m"),
            "judge:\n  backend: pi\n  model: m\n"
        );
    }

    #[test]
    fn a_missing_section_is_appended() {
        assert_eq!(set_ok("", "model", "m"), "judge:\n  model: m\n");
        assert_eq!(
            set_ok("# mine\nverify:\n  timeout_secs: 5", "backend", "llm"),
            "# mine\nverify:\n  timeout_secs: 5\njudge:\n  backend: llm\n"
        );
        let no_judge = SHARED.replace(
            "judge:\n  backend: claude   # the team's judge\n  model: claude-sonnet-4  # cheaper\n  timeout_secs: 900\n",
            "",
        );
        let out = set_ok(&no_judge, "model", "x");
        assert_eq!(out, format!("{no_judge}judge:\n  model: x\n"));
    }

    #[test]
    fn line_endings_and_a_bom_are_kept() {
        let crlf = "\u{feff}judge:\r\n  backend: pi\r\n";
        assert_eq!(
            set_ok(crlf, "model", "m"),
            "\u{feff}judge:\r\n  backend: pi\r\n  model: m\r\n"
        );
        assert_eq!(
            set_ok(crlf, "backend", "llm"),
            "\u{feff}judge:\r\n  backend: llm\r\n"
        );
        assert_eq!(
            set_ok("verify:\r\n  timeout_secs: 5", "model", "m"),
            "verify:\r\n  timeout_secs: 5\r\njudge:\r\n  model: m\r\n"
        );
    }

    #[test]
    fn only_the_set_key_of_the_judge_section_changes() {
        let text = "draft:\n  model: a\nloop:\n  judge: off\njudge:\n  model: b\n";
        assert_eq!(
            set_ok(text, "model", "null"),
            "draft:\n  model: a\nloop:\n  judge: off\njudge:\n  model: null\n"
        );
    }

    #[test]
    fn an_empty_or_continued_value_is_replaced_whole() {
        assert_eq!(
            set_ok("judge:\n  model:   # default\n", "model", "m"),
            "judge:\n  model: m # default\n"
        );
        assert_eq!(
            set_ok(
                "judge:\n  model:\n    long-name\n  # c\n  backend: pi\n",
                "model",
                "m"
            ),
            "judge:\n  model: m\n  # c\n  backend: pi\n"
        );
        assert_eq!(
            set_ok("judge:\n  model: \"a # b\" # c\n", "model", "m"),
            "judge:\n  model: m # c\n"
        );
    }

    #[test]
    fn flow_style_and_values_on_the_section_line_are_refused() {
        let err = set("judge: {model: x}\n", "judge", "model", "y").unwrap_err();
        assert!(
            err.starts_with("`judge:` is written in flow style"),
            "{err}"
        );
        let err = set("judge: &j\n  model: x\n", "judge", "model", "y").unwrap_err();
        assert!(err.starts_with("`judge:` has `&j` on its line"), "{err}");
    }

    mod lossless {
        use super::*;
        use proptest::prelude::*;

        /// A valid settings file: sections in any order, each with some of its keys
        /// in any order, comments and blank lines anywhere, LF or CRLF, with or
        /// without a final line ending.
        fn document() -> impl Strategy<Value = String> {
            let filler = prop::sample::select(vec!["", "# a comment", "  # indented", "#"]);
            let section = |name: &'static str, keys: Vec<&'static str>| {
                (
                    prop::sample::subsequence(keys.clone(), 0..=keys.len()).prop_shuffle(),
                    prop::collection::vec(filler.clone(), 0..3),
                    prop::sample::select(vec![2usize, 4]),
                )
                    .prop_map(move |(keys, fill, indent)| {
                        let mut lines = vec![format!("{name}:")];
                        for (i, key) in keys.iter().enumerate() {
                            lines.push(format!("{:indent$}{key}", ""));
                            if let Some(f) = fill.get(i) {
                                lines.push(f.to_string());
                            }
                        }
                        lines
                    })
            };
            (
                prop::option::of(section(
                    "judge",
                    vec![
                        "backend: pi",
                        "model: a  # note",
                        "timeout_secs: 5",
                        "command: [x]",
                    ],
                )),
                prop::option::of(section("draft", vec!["model: b", "backend: llm"])),
                prop::option::of(section("loop", vec!["judge: on", "budget: 3"])),
                prop::collection::vec(filler, 0..3),
                any::<bool>(),
                any::<bool>(),
            )
                .prop_map(|(judge, draft, looping, top, crlf, final_eol)| {
                    let mut blocks: Vec<Vec<String>> =
                        vec![top.iter().map(|s| s.to_string()).collect()];
                    blocks.extend([draft, judge, looping].into_iter().flatten());
                    let lines: Vec<String> = blocks.concat();
                    let eol = if crlf { "\r\n" } else { "\n" };
                    let mut text = lines.join(eol);
                    if final_eol && !text.is_empty() {
                        text.push_str(eol);
                    }
                    text
                })
        }

        proptest! {
            #[test]
            fn setting_a_key_changes_only_its_line(text in document(), model in "[a-z][a-z0-9-]{0,8}") {
                let out = set(&text, "judge", "model", &model).unwrap();
                let config = crate::config::from_text(&out, "t.yaml").unwrap();
                prop_assert_eq!(config.judge.model.as_deref(), Some(model.as_str()));
                let before = crate::config::from_text(&text, "t.yaml").unwrap();
                prop_assert_eq!(config.judge.backend, before.judge.backend);
                prop_assert_eq!(config.draft, before.draft);
                prop_assert_eq!(config.loop_budget, before.loop_budget);

                let diff = similar::TextDiff::from_lines(&text, &out);
                for change in diff.iter_all_changes() {
                    let line = change.value().trim_end_matches(['\r', '\n']);
                    match change.tag() {
                        similar::ChangeTag::Equal => {}
                        // The old model line, or a last line that gains its ending.
                        similar::ChangeTag::Delete => prop_assert!(
                            line.trim_start().starts_with("model: a") || !change.value().ends_with('\n'),
                            "deleted {:?}", line
                        ),
                        similar::ChangeTag::Insert => prop_assert!(
                            line.trim_start().starts_with("model: ") || line == "judge:"
                                || text.ends_with(line),
                            "inserted {:?}", line
                        ),
                    }
                }
                if text.contains("\r\n") {
                    prop_assert!(!out.replace("\r\n", "").contains('\n'), "mixed endings: {:?}", out);
                }
            }
        }
    }
}
