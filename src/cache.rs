//! The hook-path cache: what the hooks derive from plan.md (the injection, the status
//! line, the active set, the continuation, the content hash) and each transcript's
//! proof facts, under `<git-dir>/plan/cache/`, keyed on the identity (device, inode,
//! size, mtime, ctime) of every file the answer was read from. A cached answer is
//! the fresh one; any failure to read or write the cache falls back to the fresh
//! path, and so does a cache file whose seal does not hold (edited by hand:
//! `cache::seal`).

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::plan::blocks::{self, Templates};
use crate::plan::model::{self, Plan, Status};
use crate::prompts;

mod read;
mod seal;

/// File times come from a coarse clock (a scheduler tick, a whole second on some
/// file systems), so a file rewritten within the same tick as its last change can
/// keep its ctime — and `touch -r` gives back its size and mtime. An identity is
/// trusted only once its ctime is this much older than the moment it was read:
/// every later write then moves the ctime. Younger files are read fresh.
pub const MARGIN: Duration = Duration::from_secs(2);

/// Bumped when what is cached, or how it is derived, changes shape.
const FORMAT: u32 = 7;

/// What a stat says about a file: any write, chmod or rename moves the ctime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Identity {
    fn of(meta: &fs::Metadata) -> Identity {
        Identity {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// Whether every later change of the file must show in its identity.
    fn settled(&self, now: SystemTime, margin: Duration) -> bool {
        let Some(limit) = now
            .duration_since(UNIX_EPOCH)
            .ok()
            .and_then(|n| n.checked_sub(margin))
        else {
            return false;
        };
        let (secs, nanos) = self.ctime;
        u64::try_from(secs)
            .ok()
            .zip(u32::try_from(nanos).ok())
            .is_some_and(|(s, n)| Duration::new(s, n) < limit)
    }
}

/// A file the answer depends on and what it was: `None` when it was absent (its
/// appearing is a change too). `follow`: stat through a symlink, as a read does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Dep {
    path: PathBuf,
    follow: bool,
    id: Option<Identity>,
}

impl Dep {
    fn stat(path: PathBuf, follow: bool) -> Dep {
        let meta = if follow {
            fs::metadata(&path)
        } else {
            fs::symlink_metadata(&path)
        };
        let id = meta.ok().map(|m| Identity::of(&m));
        Dep { path, follow, id }
    }

    fn unchanged(&self) -> bool {
        Dep::stat(self.path.clone(), self.follow).id == self.id
    }

    fn settled(&self, now: SystemTime, margin: Duration) -> bool {
        self.id.is_none_or(|id| id.settled(now, margin))
    }
}

/// Everything a hook, `plan inject` and `plan statusline` take from plan.md.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// [`content_hash`] of plan.md's bytes.
    pub hash: String,
    /// The first format error as a hook reports it; `None`: the plan is sound.
    pub broken: Option<String>,
    pub statusline: String,
    pub injection: String,
    /// Live active goals' ids.
    pub active: Vec<String>,
    pub has_work: bool,
    /// [`blocks::continuation_goals`].
    pub continuation: Option<String>,
    /// [`blocks::continuation_parts`]: the continuation goal by goal, so a session
    /// is kept on its own goals and unclaimed ones.
    pub parts: Vec<blocks::Part>,
    /// The goals with a `budget:` line, and theirs: the loop's per-goal budgets.
    pub goal_budgets: Vec<(String, u32)>,
    /// The contract fingerprint of each goal in `parts`: a goal renamed in a loop
    /// keeps its budget (src/plan/renamed.rs).
    #[serde(default)]
    pub contracts: Vec<(String, String)>,
    /// Set per session by the hooks: the plan has work, all of it claimed by others.
    #[serde(skip)]
    pub held_elsewhere: bool,
    /// The compaction skeleton, derived only for the hosts that inject one.
    pub skeleton: Option<String>,
    /// How many entries plan.md's log holds (the whole parse's `Plan::log`): where
    /// the loop's journal events stand among them (`plan events`), without reading
    /// plan.md a second time at a stop.
    pub log_lines: usize,
}

/// Where the cache answers from, and for what.
pub struct Place<'a> {
    /// Where `.plan/` (prompts, transcripts) is looked for.
    pub root: &'a Path,
    pub plan: &'a Path,
    pub git_dir: &'a Path,
}

#[derive(Serialize, Deserialize)]
struct ViewFile {
    /// [`seal`]: first, so it is the file's first field.
    seal: String,
    format: u32,
    root: PathBuf,
    deps: Vec<Dep>,
    view: View,
}

/// A [`ViewFile`] less its view, which is looked through and not built: enough to
/// tell whether what the view came from is as it was. A hook after an edit finds
/// it is not, and builds none of the view's text.
#[derive(Deserialize)]
struct Head {
    format: u32,
    root: PathBuf,
    deps: Vec<Dep>,
}

fn dir(git_dir: &Path) -> PathBuf {
    git_dir.join("plan").join("cache")
}

/// The view of plan.md at `place`, from the cache when nothing it was derived
/// from changed; `None` when there is no plan.md. `skeleton`: the caller needs it.
pub fn view(place: &Place<'_>, skeleton: bool) -> Option<View> {
    view_at(place, skeleton, SystemTime::now(), MARGIN)
}

/// As [`view`], with the clock and the trust margin given (tests shorten it).
pub fn view_at(
    place: &Place<'_>,
    skeleton: bool,
    now: SystemTime,
    margin: Duration,
) -> Option<View> {
    if let Some(view) = cached(place, skeleton) {
        return Some(view);
    }
    let (view, deps) = derive(place, skeleton, Reading::Hooks)?;
    store(place, &view, deps, now, margin);
    Some(view)
}

/// The view derived from the files alone, touching no cache, with every finished
/// goal's record read: what a stop that would end a running loop for want of work
/// is decided on (once, at the loop's end), so a goal that left the loop's open set
/// on a forged or replayed record, archived or not, keeps it going.
pub fn fresh(place: &Place<'_>, skeleton: bool) -> Option<View> {
    derive(place, skeleton, Reading::Proven).map(|(view, _)| view)
}

/// How [`derive`] reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// The goals proven from plan.md's lines, a long plan cut down as it is read.
    Hooks,
    /// Every finished goal's record read from the whole plan, touching no cache.
    Proven,
}

fn cached(place: &Place<'_>, skeleton: bool) -> Option<View> {
    let bytes =
        crate::fsread::bytes(&dir(place.git_dir).join("view.json"), crate::fsread::STATE).ok()?;
    // The agent can write this file: one edited by hand is no cache.
    if !seal::holds(&bytes) {
        return None;
    }
    let head: Head = serde_json::from_slice(&bytes).ok()?;
    let current = head.format == FORMAT
        && head.root == place.root
        && head.deps.first().is_some_and(|d| d.path == place.plan)
        && head.deps.iter().all(Dep::unchanged);
    if !current {
        return None;
    }
    let file: ViewFile = serde_json::from_slice(&bytes).ok()?;
    let fits = (!skeleton || file.view.skeleton.is_some())
        // The seal holds against a hand edit, not an agent that reseals: a view
        // that would say no work is left (ending a loop, or a status line saying
        // nothing is open) is never taken from here. Rare: once work runs out.
        && file.view.has_work
        && file.view.continuation.is_some()
        && !file.view.statusline.contains("nothing open");
    let mut view = file.view;
    if !skeleton {
        // The same answer a fresh derivation gives when none was asked for.
        view.skeleton = None;
    }
    fits.then_some(view)
}

/// Reads plan.md and everything the view depends on, stat first, so a change
/// after the stat shows as a new identity next time.
fn derive(place: &Place<'_>, skeleton: bool, read: Reading) -> Option<(View, Vec<Dep>)> {
    let mut deps = vec![Dep::stat(place.plan.to_path_buf(), true)];
    deps.extend(exe());
    let mut template = |name: &str, embedded: &'static str| {
        let path = place.root.join(".plan/prompts").join(name);
        let dep = Dep::stat(path, true);
        // Nothing there, through any link as a read goes: the embedded text, with no
        // second look (most repositories have no override).
        let absent = dep.id.is_none();
        deps.push(dep);
        if absent {
            return embedded.to_string();
        }
        // Never blocks on a FIFO there: this runs on every hook.
        crate::prompts::overrides::or_embedded(place.root, name, embedded)
    };
    let injection = template("injection.md", prompts::INJECTION);
    let idle = template("injection_idle.md", prompts::INJECTION_IDLE);
    let skeleton_template = skeleton.then(|| template("skeleton.md", prompts::SKELETON));
    let of = |mut plan: Plan<'_>, hash: String, log_lines: usize| {
        if read == Reading::Proven {
            plan.prove(&|rel| crate::record::facts(place.root, rel));
        } else {
            plan.prove_lines();
        }
        View::of(
            &plan,
            hash,
            Templates {
                injection: &injection,
                injection_idle: &idle,
                skeleton: skeleton_template.as_deref().unwrap_or(prompts::SKELETON),
                ..Templates::default()
            },
            skeleton,
            log_lines,
        )
    };
    // A long plan is read cut down to what the hooks' view depends on (plan::lean),
    // while it is read; a plan whose cut has format errors is read again, whole, as
    // is one every record of is read for.
    let cut = (read == Reading::Hooks)
        .then(|| read::read_cut(place.plan))
        .flatten();
    let view = match cut
        .as_ref()
        .map(|(short, hash, lines)| (model::parse(short), hash, *lines))
        .filter(|(plan, ..)| plan.errors.is_empty())
    {
        Some((plan, hash, lines)) => of(plan, hash.clone(), lines),
        None => {
            let src = crate::fsread::text(place.plan, crate::fsread::PLAN).ok()?;
            let hash = content_hash(src.as_bytes());
            // The cut was tried already (or the file is short): read it whole.
            let plan = model::parse(&src);
            let lines = plan.log.len();
            of(plan, hash, lines)
        }
    };
    Some((view, deps))
}

/// The contract fingerprint of each goal a continuation may name (`parts`).
fn contracts_of(plan: &Plan<'_>, parts: &[blocks::Part]) -> Vec<(String, String)> {
    let named: std::collections::HashSet<&str> = parts.iter().map(|p| p.goal.as_str()).collect();
    plan.goals
        .iter()
        .filter(|g| named.contains(g.id.as_ref()))
        .map(|g| (g.id.to_string(), g.fingerprint()))
        .collect()
}

impl View {
    /// The view of a parsed and proven plan; `hash`: of plan.md's bytes;
    /// `log_lines`: of the whole plan's log (a cut plan holds fewer).
    pub fn of(
        plan: &Plan<'_>,
        hash: String,
        t: Templates<'_>,
        skeleton: bool,
        log_lines: usize,
    ) -> View {
        let broken = plan
            .errors
            .first()
            .map(|first| format!("plan.md:{}: {}", first.line, first.message));
        // A plan with format errors is still injected and shown as far as it reads;
        // the blocks name the errors. Only the loop holds back (`broken`).
        let parts = blocks::continuation_parts(plan);
        View {
            hash,
            statusline: blocks::statusline(plan),
            injection: blocks::injection(plan, t),
            active: plan
                .live()
                .filter(|g| g.status() == Status::Active)
                .map(|g| g.id.to_string())
                .collect(),
            has_work: blocks::has_work(plan),
            // `blocks::continuation_goals`, from the parts already made.
            continuation: blocks::compose(&parts, &|_| false),
            contracts: contracts_of(plan, &parts),
            parts,
            goal_budgets: plan
                .live()
                .filter_map(|g| Some((g.id.to_string(), g.budget()?)))
                .collect(),
            held_elsewhere: false,
            skeleton: skeleton.then(|| blocks::skeleton(plan, t)),
            broken,
            log_lines,
        }
    }
}

/// The running binary: another build may derive differently.
fn exe() -> Option<Dep> {
    std::env::current_exe().ok().map(|p| Dep::stat(p, true))
}

/// Writes what was derived, best effort, and only when every file it came from is
/// settled.
fn store(place: &Place<'_>, view: &View, deps: Vec<Dep>, now: SystemTime, margin: Duration) {
    if !deps.iter().all(|d| d.settled(now, margin)) {
        return;
    }
    let dir = dir(place.git_dir);
    if crate::atomic::make_dirs(&dir).is_err() {
        return;
    }
    let file = ViewFile {
        seal: String::new(),
        format: FORMAT,
        root: place.root.to_path_buf(),
        deps,
        view: view.clone(),
    };
    if let Some(bytes) = serde_json::to_vec(&file).ok().and_then(|b| seal::close(&b)) {
        write(&dir.join("view.json"), &bytes);
    }
}

/// Replaces `path` whole, so a reader sees the old file or the new one.
/// A lost cache is rebuilt, so it skips the fsyncs: it is written on the hot path.
/// Keeps a cache file of another part's under `.git/plan/cache/` (the work
/// fingerprint's memo), written as this module writes its own.
pub fn keep(path: &Path, bytes: &[u8]) {
    if let Some(parent) = path.parent() {
        let _ = crate::atomic::make_dirs(parent);
    }
    write(path, bytes);
}

fn write(path: &Path, bytes: &[u8]) {
    let how = crate::atomic::Replace {
        new_file: crate::atomic::NewFile::Private,
        create_dirs: false,
        fsync: false,
        sync_dir: false,
        prefix: ".tmp",
    };
    let _ = crate::atomic::replace(path, bytes, &how);
}

/// The view for `plan inject` and `plan statusline`; `None` (read it fresh) outside
/// a repository and for an empty plan.md, which the store waits on as an editor
/// mid-save.
pub fn for_command(ctx: &crate::ctx::Ctx) -> Option<View> {
    let repo = ctx.repo.as_ref()?;
    if fs::metadata(&ctx.store.path).ok()?.len() == 0 {
        return None;
    }
    let root = ctx.prompt_root();
    view(
        &Place {
            root: &root,
            plan: &ctx.store.path,
            git_dir: &repo.git_dir,
        },
        false,
    )
}

/// A cheap, stable hash of plan.md's bytes: state only compares it with itself.
pub fn content_hash(bytes: &[u8]) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(bytes))
}

/// [`content_hash`] of bytes read in pieces: the one definition, so a hash taken
/// whole and one taken in pieces cannot differ. xxh3: a hook hashes all of a long
/// plan.md on every change, and SipHash cost as much as cutting it. A state file
/// written with the old hash reads as "plan.md changed" once (the hooks fail open).
pub struct ContentHasher(Box<xxhash_rust::xxh3::Xxh3>);

impl Default for ContentHasher {
    fn default() -> ContentHasher {
        ContentHasher::new()
    }
}

impl ContentHasher {
    pub fn new() -> ContentHasher {
        ContentHasher(Box::default())
    }

    pub fn write(&mut self, piece: &[u8]) {
        self.0.update(piece);
    }

    pub fn finish(&self) -> String {
        format!("{:016x}", self.0.digest())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::lean;
    use crate::plan::model::{blob_id, parse};
    use crate::plan::proof::Header;
    use proptest::prelude::*;

    /// The hash is xxh3 of the bytes, whole or in pieces of any size (the streaming
    /// hasher buffers across its own block boundaries).
    #[test]
    fn content_hash_is_xxh3_in_any_pieces() {
        let bytes: Vec<u8> = (0..5000u32).flat_map(|i| i.to_le_bytes()).collect();
        let want = format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&bytes));
        assert_eq!(content_hash(&bytes), want);
        for size in [1, 7, 64, 240, 1000, 4096] {
            let mut pieces = ContentHasher::new();
            for piece in bytes.chunks(size) {
                pieces.write(piece);
            }
            assert_eq!(pieces.finish(), want, "pieces of {size}");
        }
        assert_ne!(content_hash(b"a"), content_hash(b"b"));
        assert_eq!(
            content_hash(b""),
            format!("{:016x}", xxhash_rust::xxh3::xxh3_64(b""))
        );
    }

    /// The trust margin the tests use, and a wait that outlasts it: long enough for
    /// the coarsest tick a kernel uses (10 ms), short enough for many cases.
    const TEST_MARGIN: Duration = Duration::from_millis(30);
    const SETTLE: Duration = Duration::from_millis(40);

    struct Repo {
        dir: tempfile::TempDir,
        plan: PathBuf,
        git: PathBuf,
    }

    fn contract() -> String {
        let src = plan_text(0);
        let plan = parse(&src);
        plan.goal("a").unwrap().contract_id()
    }

    /// Plan variants of one size: a title letter and a subtask's box.
    fn plan_text(variant: u8) -> String {
        let title = if variant & 1 == 0 { "Alpha" } else { "Alphb" };
        let tick = if variant & 2 == 0 { ' ' } else { 'x' };
        format!(
            "# Plan: p\n\n## Goal: {title}\n<!-- id: a -->\nstatus: done\ndone_when: it works\n\n## Goal: Beta\n<!-- id: b -->\nstatus: active\ndone_when: fast\n- [{tick}] step\n- [ ] other\n\n## Log\n- 2026-01-01 10:00 a signed off (verify passed, judge claude:opus accept, contract {{fp}}): .plan/judge/a.md#{{hash}}\n"
        )
    }

    /// Transcript variants of one size: accepted or rejected.
    fn transcript(accept: bool, contract: &str) -> String {
        let header = Header {
            goal: "a".into(),
            contract: contract.into(),
            verdict: if accept { "accept" } else { "reject" }.into(),
            judge: "claude:opus".into(),
            overrides: Vec::new(),
            verify_files: Vec::new(),
            weakened_tests: None,
            panel: Vec::new(),
            when: "2026-01-01 10:00".into(),
            judged: None,
            tree: None,
            answers: None,
        };
        let judged = parse(&plan_text(0)).goal("a").unwrap().contract();
        crate::plan::proof::test_record(&header, &judged)
    }

    impl Repo {
        fn new() -> Repo {
            let dir = tempfile::tempdir().unwrap();
            let git = dir.path().join(".git");
            fs::create_dir_all(&git).unwrap();
            fs::create_dir_all(dir.path().join(".plan/judge")).unwrap();
            fs::create_dir_all(dir.path().join(".plan/prompts")).unwrap();
            let plan = dir.path().join("plan.md");
            let repo = Repo { dir, plan, git };
            repo.set_transcript(true);
            repo.set_plan(0);
            repo
        }

        fn place(&self) -> Place<'_> {
            Place {
                root: self.dir.path(),
                plan: &self.plan,
                git_dir: &self.git,
            }
        }

        /// Rewrites `path` in place and puts its mtime back, as `touch -r` would.
        fn rewrite(&self, path: &Path, text: &str) {
            let mtime = fs::metadata(path).and_then(|m| m.modified()).ok();
            fs::write(path, text).unwrap();
            if let Some(mtime) = mtime {
                let file = fs::File::options().write(true).open(path).unwrap();
                file.set_modified(mtime).unwrap();
            }
        }

        fn set_plan(&self, variant: u8) {
            let good = transcript(true, &contract());
            let text = plan_text(variant)
                .replace("{fp}", &contract()[..8])
                .replace("{hash}", &blob_id(good.as_bytes())[..12]);
            self.rewrite(&self.plan, &text);
        }

        fn set_transcript(&self, accept: bool) {
            let path = self.dir.path().join(".plan/judge/a.md");
            self.rewrite(&path, &transcript(accept, &contract()));
        }

        fn set_template(&self, variant: u8) {
            let path = self.dir.path().join(".plan/prompts/injection.md");
            match variant {
                0 => {
                    let _ = fs::remove_file(path);
                }
                1 => self.rewrite(&path, "A {{active}}\n"),
                _ => self.rewrite(&path, "B {{active}}\n"),
            }
        }

        /// A hook's view through the cache, checked against the fresh one; whether
        /// the cache answered.
        fn hook(&self, skeleton: bool) -> bool {
            let place = self.place();
            let hit = cached(&place, skeleton).is_some();
            let view = view_at(&place, skeleton, SystemTime::now(), TEST_MARGIN);
            assert_eq!(
                view,
                derive(&place, skeleton, Reading::Hooks).map(|(view, _)| view),
                "cached answer differs (hit: {hit})"
            );
            hit
        }
    }

    #[derive(Clone, Debug)]
    enum Op {
        Plan(u8),
        Transcript(bool),
        Template(u8),
        Wait,
        Hook(bool),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            2 => (0u8..4).prop_map(Op::Plan),
            2 => any::<bool>().prop_map(Op::Transcript),
            1 => (0u8..3).prop_map(Op::Template),
            2 => Just(Op::Wait),
            4 => any::<bool>().prop_map(Op::Hook),
        ]
    }

    #[test]
    fn the_generated_plan_is_proven_and_a_rejected_transcript_is_not() {
        let repo = Repo::new();
        let view = fresh(&repo.place(), false).unwrap();
        assert!(!view.statusline.contains("unproven"), "{}", view.statusline);
        repo.set_transcript(false);
        let view = fresh(&repo.place(), false).unwrap();
        assert!(
            view.statusline.contains("1 unproven"),
            "{}",
            view.statusline
        );
        // The hooks' view takes the sign-off line at its word: no transcript read.
        let hooks = view_at(&repo.place(), false, SystemTime::now(), TEST_MARGIN).unwrap();
        assert!(
            !hooks.statusline.contains("unproven"),
            "{}",
            hooks.statusline
        );
    }

    #[test]
    fn a_settled_plan_is_answered_from_the_cache_and_a_same_size_rewrite_is_not() {
        let repo = Repo::new();
        assert!(!repo.hook(false), "an empty cache answers nothing");
        assert!(
            !repo.hook(false),
            "files younger than the margin are not cached"
        );
        std::thread::sleep(SETTLE);
        assert!(!repo.hook(false));
        assert!(
            repo.hook(false),
            "settled files are answered from the cache"
        );
        // Same size, mtime put back: only the ctime tells.
        repo.set_plan(2);
        assert!(!repo.hook(false));
        std::thread::sleep(SETTLE);
        repo.hook(false);
        // A transcript is nothing the hooks' view depends on.
        repo.set_transcript(false);
        assert!(repo.hook(false));
    }

    #[test]
    fn a_damaged_or_unwritable_cache_fails_open() {
        let repo = Repo::new();
        std::thread::sleep(SETTLE);
        let cache = dir(&repo.git);
        fs::create_dir_all(&cache).unwrap();
        fs::write(cache.join("view.json"), "{not json").unwrap();
        fs::write(cache.join("facts.json"), "[1, 2").unwrap();
        assert!(!repo.hook(false));
        assert!(repo.hook(false), "the damaged files were replaced");
        fs::remove_dir_all(&cache).unwrap();
        fs::write(&cache, "a file where the cache directory goes").unwrap();
        assert!(!repo.hook(true));
        assert!(!repo.hook(true));
    }

    /// A long plan.md is cut while it is read in pieces, a line longer than a piece
    /// and fences across pieces included, into what cutting it whole gives, with the
    /// hash of all its bytes; a short or non-UTF-8 one is left to the whole read.
    #[test]
    fn a_long_plan_is_cut_while_read_with_the_whole_files_hash() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.md");
        let mut src = String::from("# Plan: long\n\n## Goal: First\n<!-- id: g0 -->\n");
        src.push_str(&format!(
            "status: active\n- [ ] {}\n\n",
            "é".repeat(read::PIECE)
        ));
        for i in 1..3000 {
            let status = ["open", "done", "open", "cancelled"][i % 4];
            src.push_str(&format!(
                "## Goal: Goal {i}\n<!-- id: g{i} -->\nstatus: {status}\ndone_when: it works\n- [ ] step\n\n"
            ));
            if i % 7 == 0 {
                src.push_str("```\n## Goal: fenced\n- [ ] hidden\n```\n\n");
            }
        }
        src.push_str("## Log\n");
        for i in 0..3000 {
            src.push_str(&format!(
                "- 2026-01-01 10:00 g{i} added (contract 0123abcd)\n"
            ));
        }
        assert!(src.len() > 4 * read::PIECE);
        fs::write(&path, &src).unwrap();
        let (short, hash, lines) = read::read_cut(&path).expect("a sound long plan is cut");
        assert_eq!(Some(short), lean::condense(&src));
        assert_eq!(hash, content_hash(src.as_bytes()));
        assert_eq!(lines, 3000, "every log line is counted, kept or not");
        let mut bad = src.clone().into_bytes();
        bad[3 * read::PIECE + 5] = 0xff;
        fs::write(&path, bad).unwrap();
        assert!(
            read::read_cut(&path).is_none(),
            "not UTF-8: read whole, and fail"
        );
        fs::write(&path, "# Plan: short\n").unwrap();
        assert!(read::read_cut(&path).is_none());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// Whatever is edited when — plan.md, a transcript, a prompt override,
        /// same-size rewrites with the mtime put back included — the cache answers
        /// what the files say.
        #[test]
        fn a_cached_view_always_equals_a_fresh_one(ops in proptest::collection::vec(op(), 1..10)) {
            let repo = Repo::new();
            std::thread::sleep(SETTLE);
            repo.hook(false);
            prop_assert!(repo.hook(false), "a settled plan is answered from the cache");
            for op in ops {
                match op {
                    Op::Plan(v) => repo.set_plan(v),
                    Op::Transcript(accept) => repo.set_transcript(accept),
                    Op::Template(v) => repo.set_template(v),
                    Op::Wait => std::thread::sleep(SETTLE),
                    Op::Hook(skeleton) => {
                        repo.hook(skeleton);
                    }
                }
            }
            repo.hook(false);
        }
    }
}
