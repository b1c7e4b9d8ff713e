//! Reads a long plan.md cut down ([`lean::Cut`]) in pieces, going on from a saved
//! cut when the file still starts with the bytes it was cut from: a plan that only
//! grew at its end (plan's own log lines, a goal added last) is cut from where the
//! last read stopped. The saved cut (`.git/plan/cache/cut.bin`) is keyed on the
//! content of that start, never on file times, so a file read mid-save cannot make
//! it wrong: whatever bytes are read, the cut is of exactly those bytes.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use super::{ContentHasher, Identity};
use crate::plan::lean;

/// How much of a long plan.md is read at a time.
pub(super) const PIECE: usize = 64 * 1024;

/// A grown tail longer than this is worth saving the cut again for: below it,
/// reading the tail costs less than writing the cut.
const RESAVE: u64 = 64 * 1024;

/// Last in the file, after its header: the cut comes first, so that reading it
/// back takes its text over where it lies ([`lean::Cut::restore`]).
const MAGIC: &[u8; 8] = b"plantai2";

/// The header's numbers: the build's identity, then `len`, `hash` and `check`.
const HEADER: usize = 10 * 8;

#[cfg(test)]
thread_local! {
    /// How many reads went on from a saved cut: the tests check the path taken.
    static RESUMED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Where the saved cut lives and which build may read it (another build may cut
/// differently).
pub(super) struct Saved<'a> {
    pub path: &'a Path,
    pub exe: Identity,
}

/// A saved cut's header: it was cut from `len` bytes whose [`ContentHasher`] digest
/// is `hash`; `cut` is [`lean::Cut::snapshot`]'s bytes, `check` their xxh3.
struct Header<'a> {
    len: u64,
    hash: u64,
    check: u64,
    cut: &'a [u8],
}

fn encode(exe: &Identity, len: u64, hash: u64, cut: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(cut.len() + HEADER + MAGIC.len());
    out.extend_from_slice(cut);
    for n in identity_parts(exe) {
        out.extend_from_slice(&n.to_le_bytes());
    }
    for n in [len, hash, xxhash_rust::xxh3::xxh3_64(cut)] {
        out.extend_from_slice(&n.to_le_bytes());
    }
    out.extend_from_slice(MAGIC);
    out
}

fn identity_parts(id: &Identity) -> [u64; 7] {
    [
        id.dev,
        id.ino,
        id.size,
        id.mtime.0 as u64,
        id.mtime.1 as u64,
        id.ctime.0 as u64,
        id.ctime.1 as u64,
    ]
}

fn decode<'a>(bytes: &'a [u8], exe: &Identity) -> Option<Header<'a>> {
    let bytes = bytes.strip_suffix(MAGIC)?;
    let (cut, mut rest) = bytes.split_at_checked(bytes.len().checked_sub(HEADER)?)?;
    let mut num = || {
        let (head, tail) = rest.split_at_checked(8)?;
        rest = tail;
        Some(u64::from_le_bytes(head.try_into().ok()?))
    };
    for want in identity_parts(exe) {
        if num()? != want {
            return None;
        }
    }
    let (len, hash, check) = (num()?, num()?, num()?);
    Some(Header {
        len,
        hash,
        check,
        cut,
    })
}

/// A long plan.md cut down while it is read in pieces, so the whole file is never
/// held, and the [`super::content_hash`] of the bytes read: `(cut plan, hash)`.
/// `None` (read it whole) when the file is short, cannot be read, is not UTF-8,
/// changed length under the read, or the cut is unsure. With `saved`, a cut saved
/// from the file's start is gone on from, and the cut saved again when it is new
/// or the tail read was long; a saved cut that cannot be read is ignored.
pub(super) fn read_cut(path: &Path, saved: Option<&Saved<'_>>) -> Option<(String, String)> {
    let mut file = crate::fsread::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    // Past the cap, the whole read refuses it (src/fsread.rs) without reading
    // 128 MB of it here first (a sparse terabyte cost a hook 2 s and 275 MB).
    if len < lean::WORTH_IT as u64 || len > crate::fsread::PLAN {
        return None;
    }
    if let Some(s) = saved
        && let Some((read, from)) = go_on(&mut file, len, s)
    {
        #[cfg(test)]
        RESUMED.with(|r| r.set(r.get() + 1));
        let (mut cut, hash) = read?;
        if len - from > RESAVE {
            save(s, &mut cut);
        }
        return finish(cut, hash);
    }
    // No saved cut, or the file no longer starts with its text: from the start.
    file.seek(SeekFrom::Start(0)).ok()?;
    let sized = lean::Cut::sized(usize::try_from(len.min(crate::fsread::PLAN)).ok()?);
    let (mut cut, hash) = read_on(&mut file, len, 0, ContentHasher::new(), sized)?;
    if let Some(s) = saved {
        save(s, &mut cut);
    }
    finish(cut, hash)
}

/// A read's outcome: `None` when it failed.
type Outcome = Option<(Pending, ContentHasher)>;

/// A cut of the file's whole lines, and its last line when that has no newline
/// yet: the saved cut stops before it, since an append would lengthen it.
struct Pending {
    cut: lean::Cut,
    /// How many bytes the whole lines are, and their [`ContentHasher`] digest.
    whole: u64,
    whole_hash: u64,
    last: String,
}

fn finish(p: Pending, hash: ContentHasher) -> Option<(String, String)> {
    let mut cut = p.cut;
    if !p.last.is_empty() {
        cut.feed(&p.last);
    }
    Some((cut.finish()?, hash.finish()))
}

fn save(s: &Saved<'_>, p: &mut Pending) {
    if p.whole == 0 {
        return;
    }
    if let Some(cut) = p.cut.snapshot() {
        super::write(s.path, &encode(&s.exe, p.whole, p.whole_hash, &cut));
    }
}

/// Reads on from the saved cut when the file's first bytes hash as those it was
/// cut from did: the read's outcome and where it went on from; `None` when there
/// is no saved cut from this build, the file does not start with its text, or it
/// does not read back.
fn go_on(file: &mut std::fs::File, len: u64, saved: &Saved<'_>) -> Option<(Outcome, u64)> {
    let bytes = crate::fsread::bytes(saved.path, crate::fsread::STATE).ok()?;
    let header = decode(&bytes, &saved.exe)?;
    // Only a start no longer than the file can still be its start.
    if header.len == 0 || header.len > len {
        return None;
    }
    let mut hash = ContentHasher::new();
    let mut left = header.len;
    let mut buf = vec![0; PIECE];
    while left > 0 {
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        let n = match file.read(&mut buf[..want]) {
            Ok(0) => return None,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        hash.write(&buf[..n]);
        left -= n as u64;
    }
    if hash.0.digest() != header.hash || xxhash_rust::xxh3::xxh3_64(header.cut) != header.check {
        return None;
    }
    let (from, end) = (header.len, header.cut.len());
    drop(buf);
    // Takes the saved bytes over, so they are not held twice: the hooks' peak memory.
    let cut = lean::Cut::restore(bytes, end)?;
    Some((read_on(file, len, from, hash, cut), from))
}

/// Reads the file on from `from` (where `hash` and `cut` stand) to its end in
/// pieces of whole lines, feeding `cut`; `None` when a read fails, the text is not
/// UTF-8 or the file's length is not `len`.
fn read_on(
    file: &mut std::fs::File,
    len: u64,
    from: u64,
    mut hash: ContentHasher,
    mut cut: lean::Cut,
) -> Outcome {
    let mut file = file.take(crate::fsread::PLAN.saturating_sub(from));
    let mut buf = vec![0; PIECE];
    let (mut filled, mut whole) = (0, from);
    loop {
        if filled == buf.len() {
            // A line longer than a piece.
            buf.resize(buf.len() * 2, 0);
        }
        let n = match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        filled += n;
        let Some(i) = memchr::memrchr(b'\n', &buf[..filled]) else {
            continue;
        };
        let end = i + 1;
        // The hasher takes whole lines, so its digest where they end is the key a
        // saved cut is kept under.
        hash.write(&buf[..end]);
        // Pieces end after a newline, which no UTF-8 sequence holds: each piece is
        // valid on its own exactly when the file is.
        cut.feed(std::str::from_utf8(&buf[..end]).ok()?);
        whole += end as u64;
        buf.copy_within(end..filled, 0);
        filled -= end;
    }
    let whole_hash = hash.0.digest();
    hash.write(&buf[..filled]);
    if whole + filled as u64 != len {
        return None;
    }
    let last = std::str::from_utf8(&buf[..filled]).ok()?.to_string();
    Some((
        Pending {
            cut,
            whole,
            whole_hash,
            last,
        },
        hash,
    ))
}

#[cfg(test)]
mod tests {
    use super::super::{Place, derive};
    use super::*;
    use crate::plan::model::{blob_id, parse};
    use crate::plan::proof::Header;
    use std::fs;

    struct Repo {
        dir: tempfile::TempDir,
        plan: std::path::PathBuf,
        git: std::path::PathBuf,
    }

    fn contract(i: usize) -> String {
        format!("done_when: thing {i} works\nverify: cargo test -p c{i}\n")
    }

    /// A plan as the benchmark makes them, long enough to be cut: g1 active, the
    /// first half after it proven done and archived with their transcripts (the
    /// last of them cancelled instead), the rest open; every goal's `added` line,
    /// and each sign-off or cancel, in the log.
    fn base(repo: &Repo, n: usize) -> String {
        let (mut live, mut archived, mut log) = (String::new(), String::new(), String::new());
        for i in 1..=n {
            let done = (2..n / 2 + 2).contains(&i);
            let cancelled = i == n / 2 + 1;
            let status = if i == 1 {
                "active"
            } else if cancelled {
                "cancelled"
            } else if done {
                "done"
            } else {
                "open"
            };
            let goal = format!(
                "## Goal: Goal {i} about caching\n<!-- id: g{i} -->\nstatus: {status}\n{}- [x] wire it\n- [ ] evict\n\n",
                contract(i)
            );
            let fp = parse(&format!("# Plan: p\n\n{goal}"))
                .goal(&format!("g{i}"))
                .unwrap()
                .contract_id();
            log.push_str(&format!(
                "- 2026-06-15 14:02 g{i} added (contract {})\n",
                &fp[..8]
            ));
            if !done {
                live.push_str(&goal);
                continue;
            }
            archived.push_str(&goal);
            if cancelled {
                log.push_str(&format!("- 2026-06-15 15:02 g{i} cancelled: dropped\n"));
                continue;
            }
            let header = Header {
                goal: format!("g{i}"),
                contract: fp.clone(),
                verdict: "accept".into(),
                judge: "claude:opus".into(),
                overrides: Vec::new(),
                verify_files: Vec::new(),
                weakened_tests: None,
                panel: Vec::new(),
                when: "2026-06-15 15:02".into(),
                judged: None,
                tree: None,
                answers: None,
            };
            let judged = parse(&format!("# Plan: p\n\n{goal}"))
                .goal(&format!("g{i}"))
                .unwrap()
                .contract();
            let text = crate::plan::proof::test_record(&header, &judged);
            fs::write(repo.dir.path().join(format!(".plan/judge/g{i}.md")), &text).unwrap();
            log.push_str(&format!(
                "- 2026-06-15 15:02 g{i} signed off (verify passed, judge claude:opus accept, contract {}): .plan/judge/g{i}.md#{}\n",
                &fp[..8],
                &blob_id(text.as_bytes())[..12]
            ));
        }
        format!("# Plan: p\n\n{live}## Archive\n\n{archived}## Log\n{log}")
    }

    impl Repo {
        fn new() -> Repo {
            let dir = tempfile::tempdir().unwrap();
            let git = dir.path().join(".git");
            fs::create_dir_all(git.join("plan/cache")).unwrap();
            fs::create_dir_all(dir.path().join(".plan/judge")).unwrap();
            let plan = dir.path().join("plan.md");
            Repo { dir, plan, git }
        }

        fn place(&self) -> Place<'_> {
            Place {
                root: self.dir.path(),
                plan: &self.plan,
                git_dir: &self.git,
            }
        }

        /// A changed plan's hook, which may go on from the saved cut, against the
        /// view derived from the files alone; whether it went on.
        fn hook(&self, what: &str) -> bool {
            let before = RESUMED.with(|r| r.get());
            let place = self.place();
            let got = derive(&place, true, super::super::Reading::Hooks).map(|(view, _)| view);
            let resumed = RESUMED.with(|r| r.get()) > before;
            assert_eq!(
                got,
                derive(&place, true, super::super::Reading::Whole).map(|(view, _)| view),
                "{what} (went on from the saved cut: {resumed})"
            );
            resumed
        }

        fn text(&self) -> String {
            fs::read_to_string(&self.plan).unwrap()
        }

        fn set(&self, text: &str) {
            fs::write(&self.plan, text).unwrap();
        }

        fn append(&self, text: &str) {
            self.set(&(self.text() + text));
        }
    }

    /// Each edit after a hook saved its cut: the view read on from the saved cut,
    /// or from the start when the file no longer starts as it did, is the one a
    /// whole read gives.
    #[test]
    fn an_edited_plan_reads_as_a_whole_read_whatever_the_edit() {
        type Edit = fn(&Repo, &str);
        let appended: &[(&str, Edit, bool)] = &[
            (
                "a log line",
                |r, _| r.append("- 2026-06-16 09:00 g1 wired the client\n"),
                true,
            ),
            (
                "a sign-off of an earlier archived goal, its record changed",
                |r, _| {
                    r.append("- 2026-06-16 09:00 g2 signed off (verify passed, judge claude:opus accept, contract 00000000): .plan/judge/g2.md#000000000000\n")
                },
                true,
            ),
            (
                "a reopening of an earlier archived goal",
                |r, _| r.append("- 2026-06-16 09:00 g3 reopened: flaky\n"),
                true,
            ),
            (
                "a cancelling of an earlier live goal",
                |r, _| r.append("- 2026-06-16 09:00 g1 cancelled: dropped\n"),
                true,
            ),
            (
                "a line about an id no goal has",
                |r, _| r.append("- 2026-06-16 09:00 g999 added (contract 0123abcd)\n"),
                true,
            ),
            (
                "a line with a carriage return",
                |r, _| r.append("- 2026-06-16 09:00 g1 note\r\n"),
                true,
            ),
            ("a conflict marker", |r, _| r.append("<<<<<<< HEAD\n"), true),
            (
                "an opening fence",
                |r, _| r.append("```\n- 2026-06-16 09:00 g1 fenced\n"),
                true,
            ),
            (
                "a goal after the log",
                |r, _| r.append("## Goal: Late\n<!-- id: late -->\nstatus: active\ndone_when: x\n"),
                true,
            ),
            (
                "a second goal by an earlier id",
                |r, _| r.append("## Goal: Again\n<!-- id: g7 -->\nstatus: open\n"),
                true,
            ),
            (
                "a contract field twice in a goal after the log",
                |r, _| {
                    r.append(
                        "## Goal: Twice\n<!-- id: tw -->\nstatus: open\nverify: a\nverify: b\n",
                    )
                },
                true,
            ),
            (
                "a line with no newline",
                |r, _| r.append("- 2026-06-16 09:00 g1 half"),
                true,
            ),
            ("nothing (a touch)", |_, _| {}, true),
            (
                "a long tail of log lines",
                |r, _| {
                    let lines: String = (0..3000)
                        .map(|k| format!("- 2026-06-16 09:00 g{} note {k}\n", k % 40 + 1))
                        .collect();
                    r.append(&lines)
                },
                true,
            ),
            (
                "a status flipped in place, same length",
                |r, t| r.set(&t.replacen("status: open", "status: done", 1)),
                false,
            ),
            (
                "an archived goal's status flipped in place",
                |r, t| {
                    let at = t.find("## Archive").unwrap();
                    r.set(
                        &(t[..at].to_string()
                            + &t[at..].replacen("status: done", "status: open", 1)),
                    )
                },
                false,
            ),
            (
                "a log line's byte changed in place",
                |r, t| r.set(&t.replacen("g2 signed off", "g2 signed of!", 1)),
                false,
            ),
            (
                "truncated at a line end",
                |r, t| r.set(&t[..t[..t.len() / 2].rfind('\n').unwrap() + 1]),
                false,
            ),
            (
                "truncated inside a line",
                |r, t| r.set(&t[..t.len() / 2 + 3]),
                false,
            ),
            (
                "the last line cut short",
                |r, t| r.set(&t[..t.len() - 5]),
                false,
            ),
            (
                "every line ending CRLF",
                |r, t| r.set(&t.replace('\n', "\r\n")),
                false,
            ),
            (
                "a byte-order mark put first",
                |r, t| r.set(&format!("\u{feff}{t}")),
                false,
            ),
            (
                "replaced wholesale",
                |r, t| r.set(&t.replace("Goal ", "Target ")),
                false,
            ),
            ("emptied", |r, _| r.set(""), false),
        ];
        let repo = Repo::new();
        let start = base(&repo, 240);
        assert!(start.len() > lean::WORTH_IT, "{}", start.len());
        for (what, edit, resumes) in appended {
            repo.set(&start);
            let _ = fs::remove_file(repo.git.join("plan/cache/cut.bin"));
            assert!(!repo.hook("the first read"), "nothing saved yet");
            edit(&repo, &start);
            assert_eq!(repo.hook(what), *resumes, "{what}: the path taken");
            // And after it, another line: read on from whatever was saved.
            repo.append("- 2026-06-16 09:05 g1 more\n");
            repo.hook(&format!("{what}, then a log line"));
            repo.append("- 2026-06-16 09:06 g4 reopened: again\n");
            repo.hook(&format!("{what}, then two"));
        }
    }

    /// The saved cut keeps whether each archived goal is on record: a later line
    /// about one (a sign-off again, a reopening, a cancel, an `added`) is read
    /// with the goal's older lines as a whole read reads them, and so is an
    /// archived goal first seen after the save; a long tail saves the records
    /// again.
    #[test]
    fn an_archived_goals_saved_record_follows_the_lines_after_it() {
        let repo = Repo::new();
        let start = base(&repo, 240);
        let line = |id: &str, what: &str| {
            start
                .lines()
                .find(|l| l.contains(&format!(" {id} {what}")))
                .unwrap()
                .to_string()
                + "\n"
        };
        // g3 off record when the cut is saved; its last line, about an open goal,
        // is dropped when the next line comes, so that line takes its place.
        repo.set(&format!(
            "{start}- 2026-06-16 09:00 g3 reopened: flaky\n- 2026-06-16 09:00 g130 note\n"
        ));
        assert!(!repo.hook("saved with g3 reopened"));
        let steps: Vec<(&str, String)> = vec![
            (
                "g7 reopened where the dropped line was",
                "- 2026-06-16 09:00 g7 reopened: flaky\n".into(),
            ),
            (
                "g3 signed off again, back on record",
                line("g3", "signed off"),
            ),
            (
                "g3 cancelled while done: no verdict",
                "- 2026-06-16 09:01 g3 cancelled: dropped\n".into(),
            ),
            (
                "g3 a note: no verdict",
                "- 2026-06-16 09:02 g3 note\n".into(),
            ),
            (
                "g5 reopened, off record",
                "- 2026-06-16 09:03 g5 reopened: flaky\n".into(),
            ),
            (
                "g5 started again, its contract logged",
                "- 2026-06-16 09:04 g5 started (contract 0123abcd)\n".into(),
            ),
            ("g5 signed off again", line("g5", "signed off")),
            (
                "the cancelled g121 added again, off record",
                "- 2026-06-16 09:05 g121 added (contract 0123abcd)\n".into(),
            ),
            (
                "g121 cancelled again, on record",
                "- 2026-06-16 09:06 g121 cancelled: dropped\n".into(),
            ),
            (
                "g121 reopened",
                "- 2026-06-16 09:07 g121 reopened: back\n".into(),
            ),
            (
                "an archived goal after the log, its sign-off before it",
                "## Archive\n\n## Goal: Again\n<!-- id: g9 -->\nstatus: done\n\n## Log\n".into(),
            ),
            (
                "g9's second goal reopened",
                "- 2026-06-16 09:08 g9 reopened: twice\n".into(),
            ),
        ];
        // Each followed by a line about a live goal: the last log line is always
        // kept, with its goal, so only then is a goal's record what keeps it.
        let after = "- 2026-06-16 09:30 g1 wired more\n";
        for (what, text) in &steps {
            repo.append(text);
            assert!(repo.hook(what), "{what}: went on from the saved cut");
            repo.append(after);
            assert!(repo.hook(&format!("{what}, then a line about g1")));
        }
        // A tail long enough to save the cut again, records settled anew, then
        // lines about goals settled before and after it.
        let lines: String = (0..3000)
            .map(|k| format!("- 2026-06-16 10:00 g{} reopened: round {k}\n", k % 7 + 10))
            .collect();
        repo.append(&lines);
        assert!(repo.hook("a long tail of reopenings"));
        for (what, text) in [
            ("g12 signed off after the resave", line("g12", "signed off")),
            (
                "g3 reopened after the resave",
                "- 2026-06-16 11:00 g3 reopened: again\n".into(),
            ),
            (
                "g30 reopened after the resave",
                "- 2026-06-16 11:01 g30 reopened: once\n".into(),
            ),
        ] {
            repo.append(&text);
            assert!(repo.hook(what), "{what}: went on from the saved cut");
            repo.append(after);
            assert!(repo.hook(&format!("{what}, then a line about g1")));
        }
    }

    /// The file's last line with no newline is never part of the saved cut: an
    /// append lengthens that line, and a cut saved after it would read the rest as
    /// a line of its own.
    #[test]
    fn a_last_line_without_its_newline_is_read_again_when_it_grows() {
        let repo = Repo::new();
        let start = base(&repo, 240);
        repo.set(&format!("{start}- 2026-06-16 09:00 g3 reop"));
        assert!(!repo.hook("a file ending inside a line"));
        repo.append("ened: flaky\n");
        assert!(repo.hook("the line completed"));
    }

    /// A saved cut that is damaged, or from another build, is never gone on from.
    #[test]
    fn a_damaged_or_foreign_saved_cut_is_ignored() {
        let repo = Repo::new();
        let start = base(&repo, 240);
        repo.set(&start);
        repo.hook("the first read");
        let path = repo.git.join("plan/cache/cut.bin");
        let good = fs::read(&path).unwrap();
        repo.append("- 2026-06-16 09:00 g3 reopened: flaky\n");
        let mut bad = good.clone();
        bad[good.len() / 2] ^= 1;
        fs::write(&path, &bad).unwrap();
        assert!(!repo.hook("a flipped byte in the saved cut"));
        let mut foreign = good.clone();
        // The first number of the header after the cut: the build's identity.
        foreign[good.len() - MAGIC.len() - HEADER] ^= 1;
        fs::write(&path, &foreign).unwrap();
        assert!(!repo.hook("another build's saved cut"));
        fs::write(&path, &good[..good.len() / 2]).unwrap();
        assert!(!repo.hook("a saved cut cut short"));
        fs::write(&path, &good).unwrap();
        assert!(repo.hook("the saved cut back"));
    }
}
