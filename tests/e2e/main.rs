//! End-to-end tests: the real host CLIs (Claude Code, Codex, pi, Gemini CLI, Factory
//! Droid, GitHub Copilot CLI, Qwen Code), installed
//! from the npm registry at pinned versions, run headless against a scripted model
//! server on 127.0.0.1, with plan's hooks installed by the freshly built `plan`.
//! Ignored by default (they install the hosts on first use and take minutes); run
//! them with `cargo test --test e2e -- --ignored`.
#![allow(
    clippy::disallowed_methods,
    reason = "tests read their own environment; the ban is for plan's code"
)]

mod fake;
mod gate;
mod harness;
mod inspector;
mod isolation;
mod mcp;
mod overnight;
mod scenarios;

use harness::Host;

/// The scenarios every host runs.
macro_rules! host_tests {
    ($module:ident, $host:expr) => {
        mod $module {
            use super::*;

            #[test]
            #[ignore = "e2e: runs the real host"]
            fn injects_at_session_start() {
                scenarios::injects_at_session_start($host);
            }

            #[test]
            #[ignore = "e2e: runs the real host"]
            fn reminds_once_after_three_edits() {
                scenarios::reminds_once_after_three_edits($host);
            }

            #[test]
            #[ignore = "e2e: runs the real host"]
            fn continues_until_the_budget() {
                scenarios::continues_until_the_budget($host);
            }

            #[test]
            #[ignore = "e2e: runs the real host"]
            fn lets_go_when_stalled() {
                scenarios::lets_go_when_stalled($host);
            }

            #[test]
            #[ignore = "e2e: runs the real host"]
            fn judge_accepts() {
                scenarios::judge_accepts($host);
            }

            #[test]
            #[ignore = "e2e: runs the real host"]
            fn judge_is_isolated() {
                isolation::judge_is_isolated($host);
            }

            #[test]
            #[ignore = "e2e: runs the real host"]
            fn judge_cannot_escape() {
                scenarios::judge_cannot_escape($host);
            }

            #[test]
            #[ignore = "e2e: runs the real host"]
            fn judge_rejects_without_a_verdict() {
                scenarios::judge_rejects_without_a_verdict($host);
            }

            #[test]
            #[ignore = "e2e: runs the real host"]
            fn the_loop_judge_lets_a_blocked_agent_pause() {
                scenarios::the_loop_judge_lets_a_blocked_agent_pause($host);
            }

            #[test]
            #[ignore = "e2e: runs the real host"]
            fn disabled_changes_nothing() {
                scenarios::disabled_changes_nothing($host);
            }
        }
    };
}

host_tests!(claude, Host::Claude);

#[test]
#[ignore = "e2e: runs the real host"]
fn claude_compaction_injects_again() {
    scenarios::claude_compaction_injects_again();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn claude_a_stop_waiting_on_a_background_task_is_let_go() {
    scenarios::claude_a_stop_waiting_on_a_background_task_is_let_go();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn claude_a_subagent_holding_a_goal_is_held_at_its_stop() {
    scenarios::claude_a_subagent_holding_a_goal_is_held_at_its_stop();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn claude_a_task_naming_a_goal_is_refused_until_it_is_signed_off() {
    scenarios::claude_a_task_naming_a_goal_is_refused_until_it_is_signed_off();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn claude_eight_blocks_in_a_row() {
    scenarios::blocks_in_a_row(Host::Claude, 8);
}

#[test]
#[ignore = "e2e: runs the real host"]
fn claude_overnight_report() {
    overnight::claude_overnight_report();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn claude_plugin_hooks_work() {
    scenarios::claude_plugin_hooks_work();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn claude_marketplace_installs_the_plugin() {
    scenarios::claude_marketplace_installs_the_plugin();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn claude_installs_the_dist_plugin_and_runs_it_without_plan_on_path() {
    scenarios::claude_installs_the_dist_plugin_and_runs_it_without_plan_on_path();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn claude_ci_judges_key_never_reaches_the_agents_server() {
    gate::the_ci_judges_key_never_reaches_the_agents_server();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn claude_the_workflows_two_jobs_pass_an_honest_pull_request() {
    gate::the_workflows_two_jobs_pass_an_honest_pull_request();
}

/// The attacks of #32's "Why" (1)–(3) through both jobs of the workflow, each
/// failing the gate.
macro_rules! gate_attacks {
    ($run:path: $($name:ident),*) => {
        $(
            #[test]
            #[ignore = "e2e: runs the real host"]
            fn $name() {
                $run(stringify!($name));
            }
        )*
    };
}

mod claude_two_jobs_the_verify_job_cannot_reach_the_judge {
    gate_attacks!(crate::gate::attack_on_the_judge: settings, program, copy, detached);
}

mod claude_two_jobs_fail_the_pull_request {
    gate_attacks!(crate::gate::attack_on_the_gate:
        breaks_a_done_goal, done_again_by_hand, cancel_and_replace, softened_contract,
        conftest_deselects, green_at_start);
}

host_tests!(codex, Host::Codex);

#[test]
#[ignore = "e2e: runs the real host"]
fn codex_compaction_injects_again() {
    scenarios::codex_compaction_injects_again();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn codex_update_goal_complete_is_refused_until_sign_off() {
    scenarios::codex_update_goal_complete_is_refused_until_sign_off();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn codex_installs_the_dist_plugin_and_runs_it_without_plan_on_path() {
    scenarios::codex_installs_the_dist_plugin_and_runs_it_without_plan_on_path();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn codex_project_hooks_need_the_project_trusted() {
    scenarios::codex_project_hooks_need_the_project_trusted();
}

host_tests!(pi, Host::Pi);

#[test]
#[ignore = "e2e: runs the real host"]
fn pi_compaction_keeps_the_plan() {
    scenarios::pi_compaction_keeps_the_plan();
}
host_tests!(gemini, Host::Gemini);

#[test]
#[ignore = "e2e: runs the real host"]
fn gemini_compression_injects_again() {
    scenarios::gemini_compression_injects_again();
}

host_tests!(droid, Host::Droid);

host_tests!(opencode, Host::Opencode);

#[test]
#[ignore = "e2e: runs the real host"]
fn droid_brings_a_changed_plan_with_the_next_edit() {
    scenarios::droid_brings_a_changed_plan_with_the_next_edit();
}

host_tests!(copilot, Host::Copilot);

#[test]
#[ignore = "e2e: runs the real host"]
fn gemini_injects_once_without_a_compression() {
    scenarios::gemini_injects_once_without_a_compression();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn opencode_compaction_keeps_the_plan() {
    scenarios::opencode_compaction_keeps_the_plan();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn copilot_a_subagent_holding_a_goal_is_held_at_its_stop() {
    scenarios::copilot_a_subagent_holding_a_goal_is_held_at_its_stop();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn copilot_eight_blocks_in_a_row() {
    scenarios::blocks_in_a_row(Host::Copilot, 8);
}

#[test]
#[ignore = "e2e: runs the real host"]
fn opencode_oh_my_openagents_goal_is_refused_until_sign_off() {
    scenarios::opencode_oh_my_openagents_goal_is_refused_until_sign_off();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn opencode_serve_continues_on_session_idle() {
    scenarios::opencode_serve_continues_on_session_idle();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn copilot_compaction_injects_again() {
    scenarios::copilot_compaction_injects_again();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn opencode_a_text_before_a_tool_call_is_no_stop() {
    scenarios::opencode_a_text_before_a_tool_call_is_no_stop();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn copilot_project_hooks_need_the_folder_trusted() {
    scenarios::copilot_project_hooks_need_the_folder_trusted();
}

host_tests!(qwen, Host::Qwen);

#[test]
#[ignore = "e2e: runs the real host"]
fn qwen_seven_blocks_in_a_row() {
    scenarios::blocks_in_a_row(Host::Qwen, 7);
}

#[test]
#[ignore = "e2e: runs the real host"]
fn qwen_compaction_injects_again() {
    scenarios::qwen_compaction_injects_again();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn claude_a_teammate_holding_a_goal_is_held_at_teammate_idle() {
    scenarios::claude_a_teammate_holding_a_goal_is_held_at_teammate_idle();
}

#[test]
#[ignore = "e2e: runs the real host"]
fn codex_a_subagent_holding_a_goal_is_held_at_its_stop() {
    scenarios::codex_a_subagent_holding_a_goal_is_held_at_its_stop();
}
