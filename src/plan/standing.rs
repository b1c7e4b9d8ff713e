//! A finished goal's standing, as the proof (proof.rs) decides it: a leaf type the
//! parsed plan keeps and every surface reads, without importing the check itself.

/// A finished goal's standing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Open or active: nothing to prove.
    Unfinished,
    /// The record checks out; `warnings` are weaker points worth showing.
    /// `by_ci`: the CI run whose own model judge accepted this very sign-off, as
    /// the workflow's update job logged it on the default branch (`ci_judged`).
    Proven {
        warnings: Vec<String>,
        by_ci: Option<String>,
    },
    /// Not backed by a record: `why` says what is wrong, `hint` how to resolve it.
    Unproven { why: String, hint: String },
    /// Done in another tool and imported so (`ID imported as done from FILE` in the
    /// log), not signed off here since: honest history, not an error, and no
    /// sign-off either. `changed` says where its contract changed after the import
    /// (`audit --strict` fails that one).
    Imported {
        from: String,
        changed: Option<String>,
    },
}

impl Proof {
    pub fn is_proven(&self) -> bool {
        matches!(self, Proof::Proven { .. })
    }

    /// Finished without a sign-off here: a hand-marked goal and an imported one
    /// alike, since signing it off with `plan complete` is what proves either.
    pub fn is_unproven(&self) -> bool {
        matches!(self, Proof::Unproven { .. } | Proof::Imported { .. })
    }

    /// Imported as done and not signed off here since.
    pub fn is_imported(&self) -> bool {
        matches!(self, Proof::Imported { .. })
    }

    /// The short reason, for one line of a list.
    pub fn why(&self) -> Option<&str> {
        match self {
            Proof::Unproven { why, .. } => Some(why),
            Proof::Imported {
                changed: Some(why), ..
            } => Some(why),
            _ => None,
        }
    }

    /// How a goal imported as done reads everywhere:
    /// `done (imported from FILE, not signed off by plan)`.
    pub fn imported_label(&self) -> Option<String> {
        match self {
            Proof::Imported { from, .. } => Some(format!(
                "done (imported from {from}, not signed off by plan)"
            )),
            _ => None,
        }
    }

    /// `proven (judged again by CI, run R)` when CI's judge accepted the sign-off.
    pub fn by_ci(&self) -> Option<&str> {
        match self {
            Proof::Proven { by_ci, .. } => by_ci.as_deref(),
            _ => None,
        }
    }

    pub fn warnings(&self) -> &[String] {
        match self {
            Proof::Proven { warnings, .. } => warnings,
            _ => &[],
        }
    }
}
