// plan: pi extension (installed by plan install pi)
//
// Bridges pi's extension events to `plan hook pi EVENT`: the event as JSON on the
// hook's stdin, `{"message": "..."}` (for the model), `{"notice": "..."}` (for the
// person: why the loop let go, a broken plan.md) or `{}` on its stdout. It decides nothing
// itself and fails open: a missing `plan`, a crash, a timeout or bad output means
// the agent carries on as if this file were not here. `plan uninstall pi` deletes
// this file only while the first line above is unchanged.

import { spawn, spawnSync } from "node:child_process";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { compact, VERSION } from "@mariozechner/pi-coding-agent";

// `plan install pi --command PATH` rewrites this line.
const PLAN_PROGRAM = "plan";

const TIMEOUT_MS = 10_000;
const CUSTOM_TYPE = "plan";
// pi's built-in tools that never change a file: a reminder cannot come due after
// them, so no process is started for them.
const READ_ONLY_TOOLS = new Set(["read", "grep", "find", "ls"]);
// A note or warning longer than this is cut; it is only ever shown, never sent to
// the model.
const WARNING_LIMIT = 300;

/** Whether pi says when a run has settled (`agent_settled`, from 0.80.4): after its
 * retries, compaction retries and queued follow-ups, where the last turn_end may
 * still be followed by more. Older pi has only the final turn_end. */
function settles(version: string): boolean {
	const [major, minor, patch] = version.split(".").map((part) => Number.parseInt(part, 10) || 0);
	return major > 0 || minor > 80 || (minor === 80 && patch >= 4);
}
const SETTLES = settles(typeof VERSION === "string" ? VERSION : "0");

interface Answer {
	message?: string;
}

function disabled(): boolean {
	// Judge and drafting runs set PLAN_JUDGE; their own hooks must stay silent.
	return process.env.PLAN_DISABLED === "1" || process.env.PLAN_JUDGE === "1";
}

function base(ctx: ExtensionContext): Record<string, unknown> {
	return { session_id: ctx.sessionManager.getSessionId(), cwd: ctx.cwd };
}

/** Runs `plan hook pi EVENT` (argv, no shell) with `input` on stdin. */
function hook(event: string, input: Record<string, unknown>, ctx: ExtensionContext): Promise<Answer> {
	if (disabled()) return Promise.resolve({});
	return new Promise((resolve) => {
		let settled = false;
		let timer: ReturnType<typeof setTimeout> | undefined;
		const done = (answer: Answer) => {
			if (settled) return;
			settled = true;
			if (timer) clearTimeout(timer);
			resolve(answer);
		};
		try {
			const child = spawn(PLAN_PROGRAM, ["hook", "pi", event], {
				cwd: ctx.cwd,
				stdio: ["pipe", "pipe", "pipe"],
				signal: ctx.signal,
			});
			timer = setTimeout(() => {
				child.kill("SIGTERM");
				done({});
			}, TIMEOUT_MS);
			const out: Buffer[] = [];
			const err: Buffer[] = [];
			child.stdout?.on("data", (chunk: Buffer) => out.push(chunk));
			child.stderr?.on("data", (chunk: Buffer) => err.push(chunk));
			// plan may answer and exit before reading all of stdin.
			child.stdin?.on("error", () => {});
			child.on("error", () => done({}));
			child.on("close", (code) => {
				tell(ctx, Buffer.concat(err).toString("utf8"), "warning");
				if (code !== 0) return done({});
				done(parse(Buffer.concat(out).toString("utf8"), ctx));
			});
			child.stdin?.end(JSON.stringify(input));
		} catch {
			done({});
		}
	});
}

/**
 * The same, blocking. Only for turn_end: pi does not wait for that handler, and a
 * follow-up queued after the handler first yields to I/O arrives once the loop has
 * already looked for follow-ups and ended (and, in print mode, the runtime is gone).
 */
function hookSync(event: string, input: Record<string, unknown>, ctx: ExtensionContext): Answer {
	if (disabled()) return {};
	try {
		const child = spawnSync(PLAN_PROGRAM, ["hook", "pi", event], {
			cwd: ctx.cwd,
			input: JSON.stringify(input),
			encoding: "utf8",
			timeout: TIMEOUT_MS,
			killSignal: "SIGTERM",
		});
		tell(ctx, child.stderr ?? "", "warning");
		if (child.error || child.status !== 0) return {};
		return parse(child.stdout ?? "", ctx);
	} catch {
		return {};
	}
}

/** The message for the model, if any; a notice for the person is shown here. */
function parse(stdout: string, ctx: ExtensionContext): Answer {
	try {
		const value: unknown = JSON.parse(stdout);
		if (typeof value !== "object" || value === null) return {};
		const { message, notice } = value as { message?: unknown; notice?: unknown };
		if (typeof notice === "string") tell(ctx, notice, "info");
		return typeof message === "string" && message.trim() !== "" ? { message } : {};
	} catch {
		return {};
	}
}

/**
 * What plan has for the person (its notices, and its fail-open warnings on stderr)
 * reaches the person, never the model: as a notification where pi has a UI, on
 * stderr in print and JSON mode (stdout is the answer there).
 */
function tell(ctx: ExtensionContext, text: string, level: "info" | "warning"): void {
	try {
		const trimmed = text.trim();
		if (trimmed === "") return;
		const line = trimmed.length > WARNING_LIMIT ? `${trimmed.slice(0, WARNING_LIMIT)}…` : trimmed;
		if (ctx.hasUI) ctx.ui.notify(line, level);
		else process.stderr.write(`${line}\n`);
	} catch {
		// A ctx gone stale while plan ran: no reason to fail the agent.
	}
}

export default function (pi: ExtensionAPI) {
	// The injection block arrives as an extra user-role message after the prompt.
	pi.on("before_agent_start", async (_event, ctx) => {
		const { message } = await hook("before-agent-start", base(ctx), ctx);
		if (!message) return;
		return { message: { customType: CUSTOM_TYPE, content: message, display: false } };
	});

	// The reminder is appended to the result of the tool call that made it due, so
	// the model reads it before its next step, in every mode, with no extra message.
	pi.on("tool_result", async (event, ctx) => {
		if (READ_ONLY_TOOLS.has(event.toolName)) return;
		const { message } = await hook(
			"tool-result",
			{ ...base(ctx), tool_name: event.toolName, input: event.input },
			ctx,
		);
		if (!message) return;
		return { content: [...event.content, { type: "text" as const, text: message }] };
	});

	// session_before_compact cannot amend pi's instructions, only replace the whole
	// summary, so the skeleton goes to pi's own summariser as extra instructions and
	// its result is returned. Anything missing or failing: pi compacts as usual.
	pi.on("session_before_compact", async (event, ctx) => {
		try {
			// Everything from ctx and pi is read before the first await: in print
			// mode the run can end, and ctx go stale, while plan is answering.
			const model = ctx.model;
			const registry = ctx.modelRegistry;
			const thinking = pi.getThinkingLevel();
			if (!model) return;
			const { message } = await hook("session-before-compact", base(ctx), ctx);
			if (!message) return;
			const auth = await registry.getApiKeyAndHeaders(model);
			if (!auth.ok || !auth.apiKey) return;
			const instructions = [event.customInstructions, message].filter((s) => s && s.trim() !== "").join("\n\n");
			const compaction = await compact(
				event.preparation,
				model,
				auth.apiKey,
				auth.headers,
				instructions,
				event.signal,
				thinking,
			);
			return { compaction };
		} catch {
			return;
		}
	});

	// The continuation guard. pi has no stop veto, and a follow-up queued from
	// agent_end is never delivered in print mode. pi 0.80.4 and later settle a run
	// after its retries and queued work: the guard runs then, on the run's final
	// turn (kept below), and a follow-up sent there starts another run. Older pi:
	// one queued on the final turn_end (no tool calls) is delivered, and starts
	// another turn — if it is queued before that handler yields, hence the
	// blocking call and no await.
	let ended: { stop_reason: unknown; error_message: unknown } | undefined;
	const guard = (turn: { stop_reason: unknown; error_message: unknown }, ctx: ExtensionContext) => {
		const { message } = hookSync(
			"turn-end",
			// error_message is set with stop_reason "error": plan pauses the loop and says why.
			{ ...base(ctx), has_tool_calls: false, ...turn },
			ctx,
		);
		if (!message) return;
		pi.sendMessage(
			{ customType: CUSTOM_TYPE, content: message, display: true },
			{ deliverAs: "followUp", triggerTurn: true },
		);
	};
	pi.on("turn_end", (event, ctx) => {
		try {
			const last = event.message;
			if (last.role !== "assistant") return;
			const hasToolCalls = last.content.some((part) => part.type === "toolCall");
			// Esc means the person stopped the agent; already-queued messages run
			// another turn anyway, and its final turn asks again.
			if (hasToolCalls || last.stopReason === "aborted" || ctx.hasPendingMessages()) {
				ended = undefined;
				return;
			}
			const turn = { stop_reason: last.stopReason, error_message: last.errorMessage };
			if (SETTLES) {
				ended = turn;
				return;
			}
			guard(turn, ctx);
		} catch {
			// A runtime already torn down refuses the message; the agent just stops.
		}
	});
	// pi from 0.80.4: the run has settled, nothing of pi's own follows; a follow-up
	// sent here starts another run, in print mode too (seen with 0.87.1).
	pi.on("agent_settled", (_event, ctx) => {
		const turn = ended;
		ended = undefined;
		if (!SETTLES || !turn) return;
		try {
			guard(turn, ctx);
		} catch {
			// A runtime already torn down refuses the message; the agent just stops.
		}
	});
}
