//! A count of the goals and format errors the plan's lookups step over, kept in
//! test builds only: a test holds lint and doctor to work linear in the plan's
//! size by counting, not timing.

#[cfg(test)]
thread_local! {
    static STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts `n` items a lookup stepped over; a no-op outside tests.
#[inline]
pub fn step(n: usize) {
    #[cfg(test)]
    STEPS.with(|s| s.set(s.get() + n as u64));
    #[cfg(not(test))]
    let _ = n;
}

/// The steps counted on this thread since the last call.
#[cfg(test)]
pub fn take() -> u64 {
    STEPS.with(|s| s.replace(0))
}

#[cfg(test)]
mod tests {
    use crate::plan::{doctor, lint, model};

    /// `goals` goals: a tenth with a misspelt status (a format error with its
    /// repair), a tenth done by hand (unproven), every fiftieth sharing the id of
    /// the one before, and a log line each.
    fn plan(goals: usize) -> String {
        let mut out = String::from("# Plan: linear\n\n");
        for i in 0..goals {
            let status = match i % 10 {
                3 => "doing",
                7 => "done",
                _ => "open",
            };
            let id = if i % 50 == 49 { i - 1 } else { i };
            out.push_str(&format!(
                "## Goal: Goal {i}\n<!-- id: g{id} -->\nstatus: {status}\ndone_when: it works\nverify: cargo test\nfailure_modes:\n- a trivial test passes\n- slow\n- [ ] step\n\n"
            ));
        }
        out.push_str("## Log\n");
        for i in 0..goals {
            out.push_str(&format!(
                "- 2026-01-01 10:00 g{i} added (contract 0123abcd)\n"
            ));
        }
        out
    }

    /// The steps lint and doctor take over a plan of `goals` goals.
    fn steps(goals: usize) -> u64 {
        let src = plan(goals);
        let mut plan = model::parse(&src);
        plan.prove_legacy();
        super::take();
        let problems = lint::lint(&plan);
        let findings = doctor::check(&plan, &doctor::Proposal::Absent, "", 0);
        let damage = doctor::merge_damage(&plan, &|_| None, &|_| 0, "2026-01-01 10:00");
        assert!(problems.len() > goals / 5 && findings.len() > goals / 10);
        assert!(damage.is_empty());
        super::take()
    }

    /// Lint and doctor look a goal's errors and a line's goal up, never scan the
    /// whole plan per goal: at 2,000 and 4,000 goals (each with format errors,
    /// duplicates and unproven goals) they step over a bounded number of goals and
    /// errors per goal (binary searches: a logarithm each), and twice the goals cost about twice the steps.
    #[test]
    fn lint_and_doctor_step_over_each_goal_a_bounded_number_of_times() {
        let (small, large) = (steps(2000), steps(4000));
        assert!(large <= 120 * 4000, "{large} steps for 4,000 goals");
        assert!(
            large * 10 <= small * 25,
            "{small} steps for 2,000 goals, {large} for 4,000: not linear"
        );
    }
}
