//! A goal's status words (`open`, `active`, `done`, `cancelled`): a leaf that the
//! parser, the rule table (one severity per status) and the proof all name.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Open,
    Active,
    Done,
    Cancelled,
}

impl Status {
    pub const ALL: [Status; 4] = [
        Status::Open,
        Status::Active,
        Status::Done,
        Status::Cancelled,
    ];

    pub fn parse(word: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == word)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Active => "active",
            Status::Done => "done",
            Status::Cancelled => "cancelled",
        }
    }

    /// Done and cancelled goals are finished: they no longer block dependants.
    pub fn is_finished(self) -> bool {
        matches!(self, Status::Done | Status::Cancelled)
    }
}
