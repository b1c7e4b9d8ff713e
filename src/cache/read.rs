//! Reads a long plan.md cut down ([`lean::Cut`]) in pieces of whole lines, with the
//! hash of every byte read, so the whole file is never held.

use std::io::Read as _;
use std::path::Path;

use super::ContentHasher;
use crate::plan::lean;

/// How much of a long plan.md is read at a time.
pub(super) const PIECE: usize = 64 * 1024;

/// A long plan.md cut down while it is read, the [`super::content_hash`] of the
/// bytes read and the number of the log's lines: `(cut plan, hash, log lines)`.
/// `None` (read it whole) when the file is short, cannot be read, is not UTF-8,
/// changed length under the read, or the cut is unsure.
pub(super) fn read_cut(path: &Path) -> Option<(String, String, usize)> {
    let (file, meta) = crate::fsread::opened(path).ok()?;
    let len = meta.len();
    // Past the cap, the whole read refuses it (src/fsread.rs) without reading
    // 128 MB of it here first (a sparse terabyte cost a hook 2 s and 275 MB).
    if len < lean::WORTH_IT as u64 || len > crate::fsread::PLAN {
        return None;
    }
    // glibc maps each block past 128 KiB on its own and unmaps it when freed, so the
    // cut's tables and then the parse of the cut plan each fault in fresh pages. A
    // large block freed first raises that line to its size (glibc moves it up to
    // the largest mapped block freed, mallopt(3)): the blocks after it come from the
    // heap, where a freed one is reused. It touches no page: one map, one unmap.
    // A 5,000-goal plan just changed: 1,055 page faults to 837 (this alone), 5% of a hook.
    // Asked for without aborting: where even that much cannot be had, nothing is lost.
    let mut block = Vec::<u8>::new();
    let _ = block.try_reserve_exact(8 << 20);
    drop(std::hint::black_box(block));
    let mut cut = lean::Cut::sized(usize::try_from(len).ok()?);
    let mut hash = ContentHasher::new();
    let mut file = file.take(crate::fsread::PLAN);
    let mut buf = vec![0; PIECE];
    let (mut filled, mut read) = (0, 0u64);
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
        read += n as u64;
        let Some(i) = memchr::memrchr(b'\n', &buf[..filled]) else {
            continue;
        };
        let end = i + 1;
        hash.write(&buf[..end]);
        // Pieces end after a newline, which no UTF-8 sequence holds: each piece is
        // valid on its own exactly when the file is.
        cut.feed(std::str::from_utf8(&buf[..end]).ok()?);
        buf.copy_within(end..filled, 0);
        filled -= end;
    }
    if read != len {
        return None;
    }
    hash.write(&buf[..filled]);
    cut.feed(std::str::from_utf8(&buf[..filled]).ok()?);
    let (short, lines) = cut.finish()?;
    Some((short, hash.finish(), lines))
}
