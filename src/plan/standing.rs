//! A finished goal's standing, as the proof (proof.rs) decides it: a leaf type the
//! parsed plan keeps and every surface reads, without importing the check itself.

/// A finished goal's standing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Open or active: nothing to prove.
    Unfinished,
    /// The record checks out; `warnings` are weaker points worth showing.
    Proven { warnings: Vec<String> },
    /// Not backed by a record: `why` says what is wrong, `hint` how to resolve it.
    Unproven { why: String, hint: String },
}

impl Proof {
    pub fn is_proven(&self) -> bool {
        matches!(self, Proof::Proven { .. })
    }

    pub fn is_unproven(&self) -> bool {
        matches!(self, Proof::Unproven { .. })
    }

    /// The short reason, for one line of a list.
    pub fn why(&self) -> Option<&str> {
        match self {
            Proof::Unproven { why, .. } => Some(why),
            _ => None,
        }
    }

    pub fn warnings(&self) -> &[String] {
        match self {
            Proof::Proven { warnings } => warnings,
            _ => &[],
        }
    }
}
