// plan: OpenCode plugin (installed by plan install opencode)
//
// Bridges OpenCode's plugin hooks to `plan hook opencode EVENT`: the event as JSON on
// the hook's stdin, `{"message": "..."}` (for the model), `{"notice": "..."}` (for the
// person: why the loop let go, a broken plan.md) or `{}` on its stdout. It decides
// nothing itself and fails open: a missing `plan`, a crash, a timeout or bad output
// means the agent carries on as if this file were not here. `plan uninstall opencode`
// deletes this file only while the first line above is unchanged. Kilo Code, an
// OpenCode fork, runs it unchanged from `.kilo/plugin/`.

import { spawn } from "node:child_process";

// `plan install opencode --command PATH` rewrites this line.
const PLAN_PROGRAM = "plan";

const TIMEOUT_MS = 10_000;
// The stop check may ask the loop judge, which has 30 s of its own.
const STOP_TIMEOUT_MS = 60_000;
// How long a continuation may take to show in the session before the turn ends anyway.
const QUEUE_WAIT_MS = 5_000;
// OpenCode's built-in tools that never change a file: a reminder cannot come due
// after them, so no process is started for them.
const READ_ONLY_TOOLS = new Set([
	"read",
	"grep",
	"glob",
	"list",
	"ls",
	"todoread",
	"todowrite",
	"webfetch",
	"websearch",
	"codesearch",
	"skill",
	"lsp",
	"question",
	"task",
]);
// A note or warning longer than this is cut; it is only ever shown, never sent to
// the model.
const WARNING_LIMIT = 300;
// `opencode run` (and `kilo run`): one prompt, then the process exits once the session
// is idle, so a continuation must be queued before the agent loop ends, from
// experimental.text.complete. In the TUI and `serve` the session outlives its idle
// moments, and the continuation goes on session.idle.
const HEADLESS = process.argv.slice(1, 4).includes("run");

/** The host's own goal tool, also under a plugin's or server's prefix. */
function isGoalTool(name) {
	return typeof name === "string" && (name === "update_goal" || name.endsWith("_update_goal") || name.endsWith(".update_goal"));
}

/** `text` as JSON, or nothing. */
function parseJson(text) {
	try {
		return typeof text === "string" ? JSON.parse(text) : undefined;
	} catch {
		return undefined;
	}
}

function disabled() {
	// Judge and drafting runs set PLAN_JUDGE; their own hooks must stay silent.
	return process.env.PLAN_DISABLED === "1" || process.env.PLAN_JUDGE === "1";
}

/** Runs `plan hook opencode EVENT` (argv, no shell) with `input` on stdin. */
function hook(event, input, cwd, tell, timeout = TIMEOUT_MS) {
	if (disabled()) return Promise.resolve({});
	return new Promise((resolve) => {
		let settled = false;
		let timer;
		const done = (answer) => {
			if (settled) return;
			settled = true;
			if (timer) clearTimeout(timer);
			resolve(answer);
		};
		try {
			const child = spawn(PLAN_PROGRAM, ["hook", "opencode", event], {
				cwd,
				stdio: ["pipe", "pipe", "pipe"],
			});
			timer = setTimeout(() => {
				child.kill("SIGTERM");
				done({});
			}, timeout);
			const out = [];
			const err = [];
			child.stdout?.on("data", (chunk) => out.push(chunk));
			child.stderr?.on("data", (chunk) => err.push(chunk));
			// plan may answer and exit before reading all of stdin.
			child.stdin?.on("error", () => {});
			child.on("error", () => done({}));
			child.on("close", (code) => {
				tell(Buffer.concat(err).toString("utf8"), "warning");
				if (code !== 0) return done({});
				done(parse(Buffer.concat(out).toString("utf8"), tell));
			});
			child.stdin?.end(JSON.stringify(input));
		} catch {
			done({});
		}
	});
}

/** The message for the model, or a refusal of the tool about to run, if any; a
 * notice for the person is shown here. */
function parse(stdout, tell) {
	try {
		const value = JSON.parse(stdout);
		if (typeof value !== "object" || value === null) return {};
		const { message, notice, deny } = value;
		if (typeof notice === "string") tell(notice, "info");
		if (typeof deny === "string" && deny.trim() !== "") return { deny };
		return typeof message === "string" && message.trim() !== "" ? { message } : {};
	} catch {
		return {};
	}
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const PlanPlugin = async ({ client, directory }) => {
	const cwd = directory || process.cwd();
	// Sessions seen since this process started; sessions compacted since their last
	// model call. Both only shape what plan is told (`source`); plan keeps the state.
	const seen = new Set();
	const compacted = new Set();
	// Assistant messages already answered with a continuation.
	const continued = new Set();

	/**
	 * What plan has for the person (its notices, and its fail-open warnings on stderr)
	 * reaches the person, never the model: on stderr under `run` (stdout is the
	 * answer there), as a toast in the TUI.
	 */
	const tell = (text, level) => {
		try {
			const trimmed = String(text ?? "").trim();
			if (trimmed === "") return;
			const line = trimmed.length > WARNING_LIMIT ? `${trimmed.slice(0, WARNING_LIMIT)}…` : trimmed;
			if (HEADLESS) {
				process.stderr.write(`${line}\n`);
				return;
			}
			Promise.resolve(
				client.tui.showToast({ body: { message: line, variant: level === "info" ? "info" : "warning" } }),
			).catch(() => {});
		} catch {
			// No UI to show it in: nothing the agent needs.
		}
	};

	/** The message `messageID` of `sessionID` as `{info, parts}`, or undefined. */
	const message = async (sessionID, messageID) => {
		try {
			const res = await client.session.message({ path: { id: sessionID, messageID } });
			return res?.data;
		} catch {
			return undefined;
		}
	};

	/** Whether the session's messages include a user message holding `text`. */
	const queued = async (sessionID, text) => {
		try {
			const res = await client.session.messages({ path: { id: sessionID } });
			return (res?.data ?? []).some(
				(m) => m.info?.role === "user" && (m.parts ?? []).some((p) => p.type === "text" && p.text === text),
			);
		} catch {
			return false;
		}
	};

	/**
	 * The continuation guard: plan decides whether the agent goes on, and with what
	 * words; they are sent as the next user message, with the model and agent of the
	 * turn that wanted to stop.
	 */
	const stop = async (event, sessionID, info, lastText, hasToolCalls, wait) => {
		const { message: text } = await hook(
			event,
			{ session_id: sessionID, cwd, last_assistant_message: lastText ?? "", has_tool_calls: hasToolCalls },
			cwd,
			tell,
			STOP_TIMEOUT_MS,
		);
		if (!text) return;
		const body = { parts: [{ type: "text", text }] };
		if (info?.providerID && info?.modelID) body.model = { providerID: info.providerID, modelID: info.modelID };
		const agent = info?.agent ?? info?.mode;
		if (typeof agent === "string" && agent !== "") body.agent = agent;
		await client.session.promptAsync({ path: { id: sessionID }, body });
		if (!wait) return;
		// The agent loop looks for a newer user message when this hook returns: it
		// must be stored by then.
		const until = Date.now() + QUEUE_WAIT_MS;
		while (Date.now() < until && !(await queued(sessionID, text))) await sleep(50);
	};

	/** A message that is not one of the agent's own steps: a compaction summary. */
	const isSummary = (info) => info?.summary === true || info?.mode === "compaction" || info?.agent === "compaction";

	return {
		// Every model call, compaction included, rebuilds the system prompt: the block
		// goes into each one, as plan.md stands now.
		"experimental.chat.system.transform": async (input, output) => {
			try {
				const sessionID = input?.sessionID;
				if (!sessionID || disabled()) return;
				const source = !seen.has(sessionID) ? "startup" : compacted.has(sessionID) ? "compact" : "system";
				seen.add(sessionID);
				compacted.delete(sessionID);
				const { message: text } = await hook("system", { session_id: sessionID, cwd, source }, cwd, tell);
				if (text) output.system.push(text);
			} catch {
				// Fail open: the call goes out without the block.
			}
		},

		// The summariser is asked to keep the plan's skeleton.
		"experimental.session.compacting": async (input, output) => {
			try {
				const sessionID = input?.sessionID;
				if (!sessionID || disabled()) return;
				const { message: text } = await hook("compacting", { session_id: sessionID, cwd }, cwd, tell);
				if (text) output.context.push(text);
			} catch {
				// Fail open: OpenCode compacts as usual.
			}
		},

		// The host's own goal marked complete (oh-my-openagent's `update_goal`) while
		// plan's loop has goals not signed off: refused, so the tool never runs and the
		// model reads plan's reason as the tool's error. No other tool starts a process.
		"tool.execute.before": async (input, output) => {
			if (!input?.sessionID || !isGoalTool(input.tool) || disabled()) return;
			let answer;
			try {
				answer = await hook(
					"tool-before",
					{ session_id: input.sessionID, cwd, tool_name: input.tool, tool_input: output?.args ?? {} },
					cwd,
					tell,
				);
			} catch {
				return; // Fail open: the tool runs.
			}
			if (answer?.deny) throw new Error(answer.deny);
		},

		// The reminder is appended to the result of the tool call that made it due, so
		// the model reads it before its next step, with no extra message.
		"tool.execute.after": async (input, output) => {
			try {
				if (!input?.sessionID || READ_ONLY_TOOLS.has(input.tool) || disabled()) return;
				const event = { session_id: input.sessionID, cwd, tool_name: input.tool, tool_input: input.args ?? {} };
				// The goal tool's result says whether the host's goal is now complete.
				if (isGoalTool(input.tool)) event.tool_response = parseJson(output?.output);
				const { message: text } = await hook("tool-after", event, cwd, tell);
				if (text) output.output = `${output.output ?? ""}\n\n${text}`;
			} catch {
				// Fail open: the tool result stays as it was.
			}
		},

		// `run`: OpenCode has no stop veto. The agent loop awaits this hook for every
		// finished text part, and takes another turn when a newer user message is
		// waiting once the step ends: plan's continuation is queued here.
		"experimental.text.complete": async (input, output) => {
			try {
				if (!HEADLESS || disabled()) return;
				const { sessionID, messageID } = input ?? {};
				if (!sessionID || !messageID || continued.has(messageID)) return;
				const found = await message(sessionID, messageID);
				const info = found?.info;
				if (isSummary(info)) return;
				// A tool call streamed in the same message, before this text ended: the
				// step goes on with its result, so the agent is not stopping. (Where a
				// provider streams the call after the text, it is not seen here.)
				const hasToolCalls = (found?.parts ?? []).some((p) => p.type === "tool");
				continued.add(messageID);
				await stop("text-complete", sessionID, info, output?.text, hasToolCalls, true);
			} catch {
				// Fail open: the agent stops.
			}
		},

		event: async ({ event }) => {
			try {
				if (event?.type === "session.compacted") {
					const sessionID = event.properties?.sessionID;
					if (sessionID) compacted.add(sessionID);
					return;
				}
				// The TUI and `serve`: the session went idle, and a prompt sent now starts
				// another turn.
				if (event?.type !== "session.idle" || HEADLESS || disabled()) return;
				const sessionID = event.properties?.sessionID;
				if (!sessionID) return;
				const res = await client.session.messages({ path: { id: sessionID } });
				const last = (res?.data ?? []).at(-1);
				if (!last || last.info?.role !== "assistant" || isSummary(last.info)) return;
				if (continued.has(last.info.id)) return;
				continued.add(last.info.id);
				const text = (last.parts ?? [])
					.filter((p) => p.type === "text")
					.map((p) => p.text)
					.join("\n");
				await stop("session-idle", sessionID, last.info, text, false, false);
			} catch {
				// Fail open: the session stays idle.
			}
		},
	};
};
