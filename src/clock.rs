//! The clock: local time, or `PLAN_NOW` for tests and reproducible examples.

use anyhow::Result;

use crate::exit::Exit;

/// Minutes-precision local time, `YYYY-MM-DD HH:MM`, as log lines show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Now {
    pub date: String,
    pub time: String,
}

impl Now {
    /// `YYYY-MM-DD HH:MM`.
    pub fn stamp(&self) -> String {
        format!("{} {}", self.date, self.time)
    }

    /// This time, or `floor` (a `YYYY-MM-DD HH:MM` stamp) when that is later: what
    /// a log line written now will be stamped (src/stamp_floor.rs).
    pub fn not_before(self, floor: Option<&str>) -> Now {
        match floor.and_then(|f| f.split_once(' ')) {
            Some((date, time)) if (date, time) > (self.date.as_str(), self.time.as_str()) => Now {
                date: date.to_string(),
                time: time.to_string(),
            },
            _ => self,
        }
    }

    /// `YYYYMMDD-HHMM`, for file names.
    pub fn compact(&self) -> String {
        format!(
            "{}-{}",
            self.date.replace('-', ""),
            self.time.replace(':', "")
        )
    }
}

pub fn now() -> Result<Now> {
    match crate::env::text("PLAN_NOW") {
        Some(fixed) if !fixed.is_empty() => parse_fixed(&fixed).ok_or_else(|| {
            Exit::usage_hint(
                format!("PLAN_NOW=\"{fixed}\" is not a time"),
                "write it as YYYY-MM-DDTHH:MM, e.g. 2026-06-15T14:02",
            )
        }),
        _ => {
            let now = jiff::Zoned::now();
            Ok(Now {
                date: now.strftime("%Y-%m-%d").to_string(),
                time: now.strftime("%H:%M").to_string(),
            })
        }
    }
}

/// `PLAN_NOW`'s time, when it is set and reads: the one clock that costs nothing to
/// read as a local time.
pub fn fixed() -> Option<Now> {
    crate::env::text("PLAN_NOW").and_then(|fixed| parse_fixed(&fixed))
}

/// Seconds since the epoch. Cheap where [`now`] is not: local time means finding
/// the time zone, which costs a hook milliseconds.
pub fn epoch_seconds() -> i64 {
    jiff::Timestamp::now().as_second()
}

/// Seconds since the epoch on the clock `plan` keeps: `PLAN_NOW`'s time (as a local
/// time) when it is set, so tests move a loop's elapsed time by moving it; else the
/// system's.
pub fn epoch_now() -> i64 {
    fixed()
        .and_then(|now| {
            let civil: jiff::civil::DateTime =
                format!("{}T{}:00", now.date, now.time).parse().ok()?;
            Some(
                civil
                    .to_zoned(jiff::tz::TimeZone::system())
                    .ok()?
                    .timestamp()
                    .as_second(),
            )
        })
        .unwrap_or_else(epoch_seconds)
}

/// A day past the machine's own clock (never `PLAN_NOW`), as a stamp: a log line
/// stamped later is refused when written and a lint error when found.
pub fn future_limit() -> Option<String> {
    stamp_of(epoch_seconds() + 24 * 60 * 60)
}

/// Refuses `stamp` when it is more than a day past the machine's clock: as a floor
/// it would stamp every later line as late, the user's own among them. `file` is
/// what nothing was written to.
pub fn refuse_ahead(stamp: &str, file: &str) -> Result<()> {
    if !is_ahead(stamp) {
        return Ok(());
    }
    Err(Exit::usage_hint(
        format!(
            "the stamp {stamp} is more than a day ahead of this machine's clock; nothing was written to {file}"
        ),
        "unset PLAN_NOW or set it to the time it is; if the log already has a line stamped ahead, fix its stamp by hand (plan lint names it)",
    ))
}

/// Whether `stamp` is more than a day past the machine's clock.
pub fn is_ahead(stamp: &str) -> bool {
    future_limit().is_some_and(|limit| stamp > limit.as_str())
}

/// `seconds` since the epoch as a local `YYYY-MM-DD HH:MM` stamp, to compare with
/// log stamps.
pub fn stamp_of(seconds: i64) -> Option<String> {
    let at = jiff::Timestamp::from_second(seconds).ok()?;
    Some(
        at.to_zoned(jiff::tz::TimeZone::system())
            .strftime("%Y-%m-%d %H:%M")
            .to_string(),
    )
}

fn parse_fixed(text: &str) -> Option<Now> {
    let (date, time) = text.split_once('T')?;
    let shape_ok = date.len() == 10 && time.len() == 5;
    let civil: jiff::civil::DateTime = format!("{date}T{time}:00").parse().ok()?;
    shape_ok.then(|| Now {
        date: civil.strftime("%Y-%m-%d").to_string(),
        time: civil.strftime("%H:%M").to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_clock_parses_and_validates() {
        let now = parse_fixed("2026-06-15T14:02").unwrap();
        assert_eq!(now.stamp(), "2026-06-15 14:02");
        assert_eq!(now.compact(), "20260615-1402");
        assert!(parse_fixed("2026-02-30T14:02").is_none());
        assert!(parse_fixed("2026-06-15 14:02").is_none());
        assert!(parse_fixed("2026-06-15T14:02:00").is_none());
    }
}
