//! Scan + model + render of generated plans of 10 to 5,000 goals, and the pure parse
//! of a 1 MB plan.

use plan::plan::{lint, model, render};

fn main() {
    divan::main();
}

/// A plan with `goals` goals shaped like real ones, and a log line per goal.
fn generate(goals: usize) -> String {
    let mut out = String::from("# Plan: Benchmark objective\n\nSome notes.\n\n");
    for i in 0..goals {
        let status = ["open", "active", "done", "cancelled"][i % 4];
        out.push_str(&format!(
            "## Goal: Goal number {i} with a realistic title\n<!-- id: goal-{i} -->\nstatus: {status}\n\
             done_when: the thing {i} works and p95 < 50ms on bench-{i}\nverify: cargo test -p crate{i} && ./bench --max-ms 50\n"
        ));
        if i > 0 {
            out.push_str(&format!("depends_on: goal-{}\n", i - 1));
        }
        out.push_str(
            "failure_modes:\n- cache silently bypassed\n- verify passes on a trivial test\n",
        );
        out.push_str("- [x] first subtask\n- [ ] second subtask\n- [ ] third subtask\n\n");
    }
    out.push_str("## Log\n");
    for i in 0..goals {
        out.push_str(&format!(
            "- 2026-06-15 14:02 goal-{i} started (contract 0123abcd)\n"
        ));
    }
    out
}

const SIZES: [usize; 4] = [10, 100, 1_000, 5_000];

#[divan::bench(args = SIZES)]
fn parse(bencher: divan::Bencher, goals: usize) {
    let src = generate(goals);
    bencher
        .counter(divan::counter::BytesCount::new(src.len()))
        .bench(|| model::parse(divan::black_box(&src)).goals.len());
}

#[divan::bench(args = SIZES)]
fn parse_and_render_widget(bencher: divan::Bencher, goals: usize) {
    let src = generate(goals);
    bencher.bench(|| {
        let plan = model::parse(divan::black_box(&src));
        render::widget(&plan, false, render::Style::default()).len()
    });
}

#[divan::bench(args = SIZES)]
fn parse_and_lint(bencher: divan::Bencher, goals: usize) {
    let src = generate(goals);
    bencher.bench(|| lint::lint(&model::parse(divan::black_box(&src))).len());
}

/// About 1 MB: the issue asks for well under a millisecond per 100 KB.
#[divan::bench]
fn parse_1mb(bencher: divan::Bencher) {
    let mut goals = 1;
    while generate(goals).len() < 1_000_000 {
        goals *= 2;
    }
    let src = generate(goals);
    bencher
        .counter(divan::counter::BytesCount::new(src.len()))
        .bench(|| model::parse(divan::black_box(&src)).goals.len());
}
