//! A [`Cut`] part-way through a plan, as bytes and back: what the hooks keep of a
//! long plan.md's read, so a file that only grew at its end is read on from where
//! the last read stopped. Pure: the caller decides where the bytes live and checks
//! that the text they were cut from is still the file's start.

use std::ops::Range;

use super::{Cut, Ids, Item, Open};
use crate::plan::model::Status;
use crate::plan::scan::Carry;

/// Bumped whenever [`Cut`]'s state or this encoding changes shape.
const MAGIC: &[u8; 8] = b"plancut4";

impl Cut {
    /// The cut so far, as bytes [`Cut::restore`] reads back into the same state,
    /// with every archived goal's record read from the log so far
    /// ([`Cut::settle_records`]); `None` when it is already unsure (nothing to go
    /// on from).
    pub fn snapshot(&mut self) -> Option<Vec<u8>> {
        if self.unsure {
            return None;
        }
        self.settle_records();
        let mut w = Writer(Vec::with_capacity(
            self.out.len() + self.items.len() * 20 + 4096,
        ));
        // First, so that reading it back takes it in place (`restore`); its length
        // goes last.
        w.0.extend_from_slice(self.out.as_bytes());
        w.0.extend_from_slice(MAGIC);
        w.str(&self.pend);
        w.num(self.items.len());
        for item in &self.items {
            match item {
                Item::Keep(r) => {
                    w.0.push(0);
                    w.range(r);
                }
                Item::Log { line, word } => {
                    w.0.push(1);
                    w.range(line);
                    w.range(word);
                }
                Item::Archived {
                    text,
                    id,
                    status,
                    record,
                } => {
                    w.0.push(2);
                    w.range(text);
                    w.range(id);
                    w.str(status.as_str());
                    w.0.push(record.map_or(0, |on| 1 + u8::from(on)));
                }
            }
        }
        match &self.goal {
            None => w.0.push(0),
            Some(open) => {
                w.0.push(1);
                w.range(&open.title);
                w.0.push(u8::from(open.archived));
                w.ranges(&open.ids);
                match &open.status {
                    None => w.0.push(0),
                    Some(r) => {
                        w.0.push(1);
                        w.range(r);
                    }
                }
                w.0.push(open.statuses);
                w.ranges(&open.depends);
                w.ranges(&open.kept);
                w.0.extend_from_slice(&open.contract_fields);
            }
        }
        for set in [
            &self.relevant,
            &self.needed,
            &self.known,
            &self.shared,
            &self.archived_ids,
        ] {
            w.num(set.len());
            for id in set {
                w.str(id);
            }
        }
        match self.carry {
            None => w.0.push(0),
            Some(carry) => {
                w.0.push(1);
                for part in carry.to_parts() {
                    w.0.extend_from_slice(&part.to_le_bytes());
                }
            }
        }
        w.0.extend_from_slice(&[
            u8::from(self.in_log),
            u8::from(self.seen_log),
            u8::from(self.archived),
        ]);
        match self.last_log {
            None => w.0.push(0),
            Some(i) => {
                w.0.push(1);
                w.num(i);
            }
        }
        w.num(self.settled);
        w.num(self.out.len());
        Some(w.0)
    }

    /// The cut [`Cut::snapshot`] saved in `bytes` up to `end`; `None` for bytes it
    /// never writes, or ranges that do not fit the text they point into. The kept
    /// text, most of a long plan's cut, is taken over in place from `bytes` (it
    /// comes first), so the hooks never hold it twice nor move it.
    pub fn restore(mut bytes: Vec<u8>, end: usize) -> Option<Cut> {
        let (fields, len) = bytes.get(..end)?.split_at_checked(end.checked_sub(8)?)?;
        let len = usize::try_from(u64::from_le_bytes(len.try_into().ok()?)).ok()?;
        let mut r = Reader(fields.get(len..)?.strip_prefix(MAGIC)?);
        let pend = r.str()?.to_string();
        let n = r.num()?;
        let mut items = Vec::with_capacity(n.min(bytes.len()));
        for _ in 0..n {
            // Checked against the kept text once it is read, last.
            items.push(match r.byte()? {
                0 => Item::Keep(r.range()?),
                1 => {
                    let line = r.range()?;
                    let word = r.range()?;
                    Item::Log { line, word }
                }
                2 => {
                    let text = r.range()?;
                    let id = r.range()?;
                    let status = Status::parse(r.str()?)?;
                    let record = match r.byte()? {
                        0 => None,
                        1 => Some(false),
                        2 => Some(true),
                        _ => return None,
                    };
                    Item::Archived {
                        text,
                        id,
                        status,
                        record,
                    }
                }
                _ => return None,
            });
        }
        let goal = match r.byte()? {
            0 => None,
            1 => Some(Open {
                title: r.range_in(&pend)?,
                archived: r.flag()?,
                ids: r.ranges_in(&pend)?,
                status: match r.byte()? {
                    0 => None,
                    1 => Some(r.range_in(&pend)?),
                    _ => return None,
                },
                statuses: r.byte()?,
                depends: r.ranges_in(&pend)?,
                kept: r.ranges_in(&pend)?,
                contract_fields: [r.byte()?, r.byte()?, r.byte()?],
            }),
            _ => return None,
        };
        let mut sets: [Ids; 5] = Default::default();
        for set in &mut sets {
            let n = r.num()?;
            set.reserve(n.min(bytes.len()));
            for _ in 0..n {
                set.insert(r.str()?.to_string());
            }
        }
        let carry = match r.byte()? {
            0 => None,
            1 => {
                let mut parts = [0u64; 4];
                for part in &mut parts {
                    *part = u64::from_le_bytes(r.take(8)?.try_into().ok()?);
                }
                Some(Carry::from_parts(parts)?)
            }
            _ => return None,
        };
        let (in_log, seen_log, archived) = (r.flag()?, r.flag()?, r.flag()?);
        let last_log = match r.byte()? {
            0 => None,
            1 => Some(r.num()?).filter(|&i| i < items.len()),
            _ => return None,
        };
        let settled = Some(r.num()?).filter(|&n| n <= items.len())?;
        if !r.0.is_empty() {
            return None;
        }
        bytes.truncate(len);
        let out = String::from_utf8(bytes).ok()?;
        let fits = |r: &Range<usize>| out.get(r.clone()).is_some();
        let sound = items.iter().all(|item| match item {
            Item::Keep(r) => fits(r),
            Item::Log { line, word } => fits(line) && fits(word),
            Item::Archived { text, id, .. } => fits(text) && fits(id),
        });
        if !sound {
            return None;
        }
        let [relevant, needed, known, shared, archived_ids] = sets;
        Some(Cut {
            out,
            items,
            pend,
            goal,
            relevant,
            needed,
            known,
            shared,
            archived_ids,
            carry,
            in_log,
            seen_log,
            archived,
            last_log,
            settled,
            unsure: false,
            spare: Default::default(),
        })
    }
}

struct Writer(Vec<u8>);

impl Writer {
    fn num(&mut self, n: usize) {
        self.0.extend_from_slice(&(n as u64).to_le_bytes());
    }

    fn str(&mut self, s: &str) {
        self.num(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }

    fn range(&mut self, r: &Range<usize>) {
        self.num(r.start);
        self.num(r.end);
    }

    fn ranges(&mut self, list: &[Range<usize>]) {
        self.num(list.len());
        for r in list {
            self.range(r);
        }
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(head)
    }

    fn byte(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn flag(&mut self) -> Option<bool> {
        match self.byte()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    fn num(&mut self) -> Option<usize> {
        usize::try_from(u64::from_le_bytes(self.take(8)?.try_into().ok()?)).ok()
    }

    fn str(&mut self) -> Option<&'a str> {
        let n = self.num()?;
        std::str::from_utf8(self.take(n)?).ok()
    }

    fn range(&mut self) -> Option<Range<usize>> {
        Some(self.num()?..self.num()?)
    }

    /// A range into `text` that slicing it never panics on.
    fn range_in(&mut self, text: &str) -> Option<Range<usize>> {
        let range = self.range()?;
        text.get(range.clone())?;
        Some(range)
    }

    fn ranges_in(&mut self, text: &str) -> Option<Vec<Range<usize>>> {
        let n = self.num()?;
        let mut list = Vec::with_capacity(n.min(self.0.len()));
        for _ in 0..n {
            list.push(self.range_in(text)?);
        }
        Some(list)
    }
}
