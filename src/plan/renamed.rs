//! A goal renamed in the middle of a work loop (its id changed, its contract not)
//! keeps what the loop counted of it: the loop keys its per-goal counts by id, so
//! a new id would be a fresh budget. Pure: the loop's records come in and are
//! moved to the new id.

use std::collections::{BTreeMap, BTreeSet};

/// What the loop keeps of each goal it charged, by id.
pub struct Charged<'l> {
    /// Continuations each goal took while named first.
    pub continuations: &'l mut BTreeMap<String, u32>,
    /// The budgets the loop froze.
    pub frozen: &'l mut BTreeMap<String, u32>,
    /// The goals that spent their budget.
    pub limited: &'l mut Vec<String>,
    /// The contract fingerprint of each goal charged, when it was.
    pub contracts: &'l mut BTreeMap<String, String>,
}

/// Moves the records of a charged goal that is gone from `now` (the goals a
/// continuation may name, with their contract fingerprints) to the goal there with
/// its contract and an id the loop never charged. Two goals with one contract both
/// in `now` are two goals: neither takes the other's records.
pub fn follow(now: &[(String, String)], loop_: Charged<'_>) {
    let here: BTreeSet<&str> = now.iter().map(|(id, _)| id.as_str()).collect();
    for (id, contract) in now {
        if loop_.contracts.contains_key(id) {
            continue;
        }
        let gone = loop_
            .contracts
            .iter()
            .find(|(old, c)| *c == contract && !here.contains(old.as_str()))
            .map(|(old, _)| old.clone());
        let Some(old) = gone else { continue };
        loop_.contracts.remove(&old);
        loop_.contracts.insert(id.clone(), contract.clone());
        if let Some(n) = loop_.continuations.remove(&old) {
            loop_.continuations.insert(id.clone(), n);
        }
        if let Some(n) = loop_.frozen.remove(&old) {
            loop_.frozen.insert(id.clone(), n);
        }
        for limited in loop_.limited.iter_mut().filter(|l| **l == old) {
            *limited = id.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(a: &str, b: &str) -> (String, String) {
        (a.to_string(), b.to_string())
    }

    #[test]
    fn a_renamed_goal_keeps_its_counts_and_a_twin_does_not_take_them() {
        let mut continuations = BTreeMap::from([("a".to_string(), 3)]);
        let mut frozen = BTreeMap::from([("a".to_string(), 3)]);
        let mut limited = vec!["a".to_string()];
        let mut contracts = BTreeMap::from([("a".to_string(), "1111".to_string())]);
        let mut both = |now: &[(String, String)]| {
            follow(
                now,
                Charged {
                    continuations: &mut continuations,
                    frozen: &mut frozen,
                    limited: &mut limited,
                    contracts: &mut contracts,
                },
            )
        };
        // `a` still here: its twin `b` with the same contract is another goal.
        both(&[s("a", "1111"), s("b", "1111")]);
        // `a` renamed `c`: `c` is `a`; `d`, another contract, is not.
        both(&[s("d", "2222"), s("c", "1111")]);
        assert_eq!(continuations, BTreeMap::from([("c".to_string(), 3)]));
        assert_eq!(frozen, BTreeMap::from([("c".to_string(), 3)]));
        assert_eq!(limited, ["c"]);
        assert_eq!(contracts.keys().collect::<Vec<_>>(), ["c"]);
    }
}
