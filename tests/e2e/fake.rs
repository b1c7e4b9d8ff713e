//! A scripted model server on 127.0.0.1: Anthropic Messages, OpenAI Responses,
//! OpenAI Chat Completions and Gemini, streamed or not. It answers each model call
//! with the next reply of a script (text, or a tool call in the API's own format,
//! named after a tool the host offered), logs every request, and answers the other
//! endpoints hosts probe with the smallest valid JSON (or a 404).
//!
//! std only: one thread per connection, `Connection: close` on every answer.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

/// The wire format a request came in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    Anthropic,
    Responses,
    Chat,
    Gemini,
}

/// What the scripted model answers.
#[derive(Clone, Debug)]
pub enum Reply {
    Text(String),
    /// A whole-file write with the host's file-writing tool.
    Write {
        path: String,
        content: String,
    },
    /// A shell command with the host's shell tool.
    Shell(String),
    /// A call of the tool `name` with these arguments, whether the host offered
    /// it or not: what a model trying to get out of a read-only mode would send.
    Call {
        name: String,
        args: Value,
    },
    /// The reply, reporting this many input tokens: a context near full, so the
    /// host compacts before its next call.
    Heavy(Box<Reply>, u64),
    /// Text the model says before the reply's tool call, in the same message
    /// (streamed Chat Completions only; elsewhere the reply alone).
    Said(String, Box<Reply>),
}

pub fn text(s: &str) -> Reply {
    Reply::Text(s.to_string())
}

pub fn write(path: &str, content: &str) -> Reply {
    Reply::Write {
        path: path.to_string(),
        content: content.to_string(),
    }
}

pub fn shell(command: &str) -> Reply {
    Reply::Shell(command.to_string())
}

pub fn call(name: &str, args: Value) -> Reply {
    Reply::Call {
        name: name.to_string(),
        args,
    }
}

pub fn heavy(reply: Reply, input_tokens: u64) -> Reply {
    Reply::Heavy(Box::new(reply), input_tokens)
}

pub fn said(text: &str, reply: Reply) -> Reply {
    Reply::Said(text.to_string(), Box::new(reply))
}

/// One request as it reached the server.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    /// Path and query.
    pub target: String,
    pub body: String,
    /// The body as JSON (`Null` when it is not).
    pub json: Value,
    /// Which model API, when it was a model call.
    pub api: Option<Api>,
}

impl Request {
    /// The names of the tools the request offers the model.
    pub fn tools(&self) -> Vec<String> {
        tool_names(self.api, &self.json)
    }

    /// Every string in the request but the tool list: system text, messages, tool
    /// results, decoded from JSON.
    pub fn texts(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut v = self.json.clone();
        if let Some(obj) = v.as_object_mut() {
            obj.remove("tools");
        }
        strings(&v, &mut out);
        out
    }

    /// Whether some string of the request holds `needle`.
    pub fn has(&self, needle: &str) -> bool {
        self.texts().iter().any(|t| t.contains(needle))
    }

    /// The index, among the request's strings in document order, of the first that
    /// holds `needle`.
    pub fn position(&self, needle: &str) -> Option<usize> {
        self.texts().iter().position(|t| t.contains(needle))
    }

    /// The index of the last string that holds `needle`.
    pub fn last_position(&self, needle: &str) -> Option<usize> {
        self.texts().iter().rposition(|t| t.contains(needle))
    }

    /// How many times `needle` occurs in the request's strings.
    pub fn count(&self, needle: &str) -> usize {
        self.texts().iter().map(|t| t.matches(needle).count()).sum()
    }
}

fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
        Value::Object(map) => map.values().for_each(|i| strings(i, out)),
        _ => {}
    }
}

fn tool_names(api: Option<Api>, body: &Value) -> Vec<String> {
    let tools = body["tools"].as_array().cloned().unwrap_or_default();
    let mut names = Vec::new();
    for tool in &tools {
        match api {
            Some(Api::Chat) => names.extend(tool["function"]["name"].as_str().map(String::from)),
            Some(Api::Gemini) => {
                for decl in tool["functionDeclarations"]
                    .as_array()
                    .into_iter()
                    .flatten()
                {
                    names.extend(decl["name"].as_str().map(String::from));
                }
            }
            _ => names.extend(
                tool["name"]
                    .as_str()
                    .or_else(|| tool["function"]["name"].as_str())
                    .map(String::from),
            ),
        }
    }
    names
}

/// What a responder sees of a model call.
pub struct Call<'a> {
    pub request: &'a Request,
}

impl Call<'_> {
    pub fn tools(&self) -> Vec<String> {
        self.request.tools()
    }

    pub fn has(&self, needle: &str) -> bool {
        self.request.has(needle)
    }
}

pub type Responder = Box<dyn FnMut(&Call) -> Reply + Send>;

/// Replies in order to the calls that offer tools (the agent's own turns); a call
/// that offers none (a title, a summary, a side question) gets `side`. When the
/// script runs out, every call gets "Done.".
pub fn script(replies: Vec<Reply>) -> Responder {
    let mut queue: std::collections::VecDeque<Reply> = replies.into();
    Box::new(move |call: &Call| {
        if is_side(call) {
            return side(call);
        }
        queue.pop_front().unwrap_or_else(|| text("Done."))
    })
}

/// What the hosts say when they ask the model for a summary of the conversation
/// (a compaction) rather than for the agent's next step.
pub const COMPACTION_MARKERS: &[&str] = &[
    // Claude Code 2.1
    "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.",
    // Copilot CLI 1.0.102 (it offers the tools all the same)
    "Please create a detailed summary of the conversation so far.",
    // Qwen Code 0.24.4 (the same)
    "You are the component that summarizes a conversation",
];

/// A call that is not one of the agent's turns: it offers no tools, or it asks
/// for a compaction summary.
pub fn is_side(call: &Call) -> bool {
    call.tools().is_empty() || COMPACTION_MARKERS.iter().any(|m| call.has(m))
}

/// The answer to a call outside the script.
pub fn side(call: &Call) -> Reply {
    // Gemini CLI asks for JSON on its side calls (next speaker, routing).
    let wants_json = call.request.json["generationConfig"]["responseMimeType"]
        == "application/json"
        || call.request.json["generationConfig"]["responseJsonSchema"].is_object();
    if wants_json {
        return text(r#"{"reasoning": "the model finished its turn", "next_speaker": "user"}"#);
    }
    // Qwen Code keeps only a closed <state_snapshot> as its summary.
    if call.has("First, reason in your <analysis> block.") {
        return text("<state_snapshot>Summary: the work so far.</state_snapshot>");
    }
    text("<summary>Summary: the work so far.</summary>")
}

struct Shared {
    log: Mutex<Vec<Request>>,
    responder: Mutex<Responder>,
    counter: Mutex<u64>,
}

pub struct Fake {
    pub port: u16,
    shared: Arc<Shared>,
    stop: Arc<AtomicBool>,
}

impl Fake {
    pub fn start(responder: Responder) -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").expect("binding 127.0.0.1:0");
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Shared {
            log: Mutex::new(Vec::new()),
            responder: Mutex::new(responder),
            counter: Mutex::new(0),
        });
        let stop = Arc::new(AtomicBool::new(false));
        let (s, st) = (shared.clone(), stop.clone());
        thread::spawn(move || {
            for conn in listener.incoming() {
                if st.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let s = s.clone();
                thread::spawn(move || {
                    let _ = serve(conn, &s);
                });
            }
        });
        Fake { port, shared, stop }
    }

    /// Replaces the script (for the next host run against the same server).
    pub fn script(&self, responder: Responder) {
        *self.shared.responder.lock().unwrap() = responder;
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<Request> {
        self.shared.log.lock().unwrap().clone()
    }

    /// The model calls so far.
    pub fn calls(&self) -> Vec<Request> {
        self.requests()
            .into_iter()
            .filter(|r| r.api.is_some())
            .collect()
    }

    /// The agent's own turns: the model calls that offered tools and asked for no
    /// summary.
    pub fn turns(&self) -> Vec<Request> {
        self.calls()
            .into_iter()
            .filter(|r| !r.tools().is_empty() && !COMPACTION_MARKERS.iter().any(|m| r.has(m)))
            .collect()
    }

    /// The request log, for a failure report.
    pub fn dump(&self) -> String {
        let mut out = String::new();
        for (i, r) in self.requests().iter().enumerate() {
            let body = if r.body.len() > 6000 {
                format!("{}… ({} bytes)", cut(&r.body, 6000), r.body.len())
            } else {
                r.body.clone()
            };
            out.push_str(&format!(
                "--- request {i}: {} {} tools={:?}\n{body}\n",
                r.method,
                r.target,
                r.tools()
            ));
        }
        out
    }
}

impl Drop for Fake {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn cut(s: &str, max: usize) -> &str {
    let mut end = max.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

fn serve(conn: TcpStream, shared: &Shared) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(60)))?;
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("").to_string();
    let mut length = 0usize;
    let mut chunked = false;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 {
            break;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
            if k == "content-length" {
                length = v.parse().unwrap_or(0);
            } else if k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked") {
                chunked = true;
            }
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size)?;
            let n = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16)
                .unwrap_or(0);
            let mut chunk = vec![0; n + 2];
            reader.read_exact(&mut chunk)?;
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
    } else {
        body.resize(length, 0);
        reader.read_exact(&mut body)?;
    }
    let body = String::from_utf8_lossy(&body).into_owned();
    let path = target.split('?').next().unwrap_or("").to_string();
    let api = classify(&method, &path);
    let request = Request {
        method: method.clone(),
        target: target.clone(),
        json: serde_json::from_str(&body).unwrap_or(Value::Null),
        body,
        api,
    };
    shared.log.lock().unwrap().push(request.clone());
    let mut out = conn;
    if method == "HEAD" {
        // Claude Code's reachability probe (`HEAD /`): any answer will do, and an
        // answer to HEAD has no body.
        write!(
            out,
            "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )?;
        return out.flush();
    }
    let Some(api) = api else {
        let (status, json) = other(&method, &path);
        return respond_json(&mut out, status, &json);
    };
    let reply = (shared.responder.lock().unwrap())(&Call { request: &request });
    let id = {
        let mut c = shared.counter.lock().unwrap();
        *c += 1;
        *c
    };
    let stream = match api {
        Api::Gemini => target.contains("streamGenerateContent"),
        _ => request.json["stream"] == true,
    };
    let model = request.json["model"]
        .as_str()
        .map(String::from)
        .unwrap_or_else(|| {
            path.rsplit('/')
                .next()
                .and_then(|m| m.split(':').next())
                .unwrap_or("fake-model")
                .to_string()
        });
    let tools = request.tools();
    let (reply, input_tokens) = match reply {
        Reply::Heavy(inner, tokens) => (*inner, tokens),
        other => (other, 100),
    };
    let (said, reply) = match reply {
        Reply::Said(text, inner) => (Some(text), *inner),
        other => (None, other),
    };
    let action = action(api, &reply, &tools, &request.json, id);
    let u = input_tokens;
    match (api, stream) {
        (Api::Anthropic, true) => sse(&mut out, &anthropic_events(&action, &model, id, u)),
        (Api::Anthropic, false) => {
            respond_json(&mut out, 200, &anthropic_message(&action, &model, id, u))
        }
        (Api::Responses, _) => sse(&mut out, &responses_events(&action, &model, id, u)),
        (Api::Chat, true) => sse(
            &mut out,
            &chat_chunks(&action, said.as_deref(), &model, id, u),
        ),
        (Api::Chat, false) => respond_json(&mut out, 200, &chat_completion(&action, &model, id, u)),
        (Api::Gemini, true) => sse(&mut out, &[(None, gemini_response(&action, &model, u))]),
        (Api::Gemini, false) => respond_json(&mut out, 200, &gemini_response(&action, &model, u)),
    }
}

fn classify(method: &str, path: &str) -> Option<Api> {
    if method != "POST" {
        return None;
    }
    if path.ends_with("/messages") {
        Some(Api::Anthropic)
    } else if path.ends_with("/responses") {
        Some(Api::Responses)
    } else if path.ends_with("/chat/completions") {
        Some(Api::Chat)
    } else if path.ends_with(":streamGenerateContent") || path.ends_with(":generateContent") {
        Some(Api::Gemini)
    } else {
        None
    }
}

/// Endpoints other than model calls.
fn other(method: &str, path: &str) -> (u16, Value) {
    if path.ends_with("/count_tokens") {
        return (200, json!({"input_tokens": 100}));
    }
    if path.ends_with(":countTokens") {
        return (200, json!({"totalTokens": 100}));
    }
    if method == "GET" && path.ends_with("/models") {
        return (
            200,
            json!({"object": "list", "data": [{"id": "fake-model", "object": "model", "created": 0, "owned_by": "fake"}], "models": []}),
        );
    }
    (
        404,
        json!({"error": {"type": "not_found_error", "message": "not found"}}),
    )
}

fn respond_json(out: &mut TcpStream, status: u16, body: &Value) -> std::io::Result<()> {
    let text = body.to_string();
    let reason = if status == 200 { "OK" } else { "Not Found" };
    write!(
        out,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    )?;
    out.flush()
}

fn sse(out: &mut TcpStream, events: &[(Option<&str>, Value)]) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n"
    )?;
    for (name, data) in events {
        if let Some(name) = name {
            writeln!(out, "event: {name}")?;
        }
        match data {
            // `[DONE]` and the like go out as they are, not as a JSON string.
            Value::String(raw) => write!(out, "data: {raw}\n\n")?,
            json => write!(out, "data: {json}\n\n")?,
        }
    }
    out.flush()
}

/// A reply resolved against the tools the host offered.
#[derive(Debug)]
enum Action {
    Text(String),
    Tool {
        name: String,
        call_id: String,
        /// Function arguments.
        args: Value,
        /// Codex's freeform tools (apply_patch) take raw text instead.
        freeform: Option<String>,
    },
}

fn find_tool(tools: &[String], candidates: &[&str]) -> Option<String> {
    candidates
        .iter()
        .find(|c| tools.iter().any(|t| t == *c))
        .map(|c| c.to_string())
}

/// The parameter names a Chat Completions request declares for its tool `name`.
fn chat_params(body: &Value, name: &str) -> Vec<String> {
    body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["function"]["name"] == name)
        .and_then(|t| t["function"]["parameters"]["properties"].as_object())
        .map(|props| props.keys().cloned().collect())
        .unwrap_or_default()
}

fn action(api: Api, reply: &Reply, tools: &[String], body: &Value, id: u64) -> Action {
    let call_id = format!("call_{id}");
    let missing = |what: &str| {
        Action::Text(format!(
            "(fake: no {what} tool among {tools:?}; the script wanted one)"
        ))
    };
    match reply {
        Reply::Text(t) => Action::Text(t.clone()),
        Reply::Heavy(inner, _) => action(api, inner, tools, body, id),
        Reply::Said(_, inner) => action(api, inner, tools, body, id),
        Reply::Call { name, args } => Action::Tool {
            name: name.clone(),
            call_id,
            args: args.clone(),
            freeform: None,
        },
        Reply::Write { path, content } => match api {
            Api::Anthropic => match find_tool(tools, &["Write"]) {
                Some(name) => Action::Tool {
                    name,
                    call_id,
                    args: json!({"file_path": path, "content": content}),
                    freeform: None,
                },
                None => missing("write"),
            },
            // pi's `write`, Droid's `Create`, OpenCode's `write` (with `filePath`),
            // Copilot's `create`, Qwen's `write_file`.
            Api::Chat => match find_tool(tools, &["write", "Create", "create", "write_file"]) {
                Some(name) => Action::Tool {
                    args: match name.as_str() {
                        "Create" | "write_file" => json!({"file_path": path, "content": content}),
                        "create" => json!({"path": path, "file_text": content}),
                        _ if chat_params(body, &name).iter().any(|p| p == "filePath") => {
                            json!({"filePath": path, "content": content})
                        }
                        _ => json!({"path": path, "content": content}),
                    },
                    name,
                    call_id,
                    freeform: None,
                },
                None => missing("write"),
            },
            Api::Gemini => match find_tool(tools, &["write_file"]) {
                Some(name) => Action::Tool {
                    name,
                    call_id,
                    args: json!({"file_path": path, "content": content}),
                    freeform: None,
                },
                None => missing("write"),
            },
            Api::Responses => match find_tool(tools, &["apply_patch"]) {
                Some(name) => {
                    let mut patch = format!("*** Begin Patch\n*** Add File: {path}\n");
                    for line in content.lines() {
                        patch.push_str(&format!("+{line}\n"));
                    }
                    patch.push_str("*** End Patch\n");
                    Action::Tool {
                        name,
                        call_id,
                        args: json!({"input": patch}),
                        freeform: Some(patch),
                    }
                }
                None => missing("apply_patch"),
            },
        },
        Reply::Shell(cmd) => match api {
            Api::Anthropic => match find_tool(tools, &["Bash"]) {
                Some(name) => Action::Tool {
                    name,
                    call_id,
                    args: json!({"command": cmd, "description": "run a command"}),
                    freeform: None,
                },
                None => missing("shell"),
            },
            // pi's and Copilot's `bash`, Droid's `Execute`, Qwen's `run_shell_command`.
            Api::Chat => match find_tool(tools, &["bash", "Execute", "run_shell_command"]) {
                Some(name) => Action::Tool {
                    args: if name == "Execute" {
                        json!({"command": cmd, "summary": "run a command",
                               "riskLevel": "low", "riskLevelReason": "a test step"})
                    } else if chat_params(body, &name).iter().any(|p| p == "description") {
                        json!({"command": cmd, "description": "run a command"})
                    } else {
                        json!({"command": cmd})
                    },
                    name,
                    call_id,
                    freeform: None,
                },
                None => missing("shell"),
            },
            Api::Gemini => match find_tool(tools, &["run_shell_command"]) {
                Some(name) => Action::Tool {
                    name,
                    call_id,
                    args: json!({"command": cmd, "description": "run a command"}),
                    freeform: None,
                },
                None => missing("shell"),
            },
            Api::Responses => {
                if let Some(name) = find_tool(tools, &["exec_command"]) {
                    Action::Tool {
                        name,
                        call_id,
                        // Codex waits 10 s for output by default.
                        args: json!({"cmd": cmd, "yield_time_ms": 2000}),
                        freeform: None,
                    }
                } else if let Some(name) = find_tool(tools, &["shell_command"]) {
                    Action::Tool {
                        name,
                        call_id,
                        args: json!({"command": cmd}),
                        freeform: None,
                    }
                } else if let Some(name) = find_tool(tools, &["shell", "local_shell"]) {
                    Action::Tool {
                        name,
                        call_id,
                        args: json!({"command": ["bash", "-lc", cmd]}),
                        freeform: None,
                    }
                } else {
                    missing("shell")
                }
            }
        },
    }
}

fn anthropic_content(action: &Action) -> Value {
    match action {
        Action::Text(t) => json!({"type": "text", "text": t}),
        Action::Tool {
            name,
            call_id,
            args,
            ..
        } => {
            json!({"type": "tool_use", "id": format!("toolu_{call_id}"), "name": name, "input": args})
        }
    }
}

fn anthropic_stop(action: &Action) -> &'static str {
    match action {
        Action::Text(_) => "end_turn",
        Action::Tool { .. } => "tool_use",
    }
}

fn anthropic_usage(u: u64) -> Value {
    json!({"input_tokens": u, "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0})
}

fn anthropic_message(action: &Action, model: &str, id: u64, u: u64) -> Value {
    json!({
        "id": format!("msg_{id}"), "type": "message", "role": "assistant", "model": model,
        "content": [anthropic_content(action)],
        "stop_reason": anthropic_stop(action), "stop_sequence": null,
        "usage": anthropic_usage(u),
    })
}

fn anthropic_events(
    action: &Action,
    model: &str,
    id: u64,
    u: u64,
) -> Vec<(Option<&'static str>, Value)> {
    let (start, delta) = match action {
        Action::Text(t) => (
            json!({"type": "text", "text": ""}),
            json!({"type": "text_delta", "text": t}),
        ),
        Action::Tool {
            name,
            call_id,
            args,
            ..
        } => (
            json!({"type": "tool_use", "id": format!("toolu_{call_id}"), "name": name, "input": {}}),
            json!({"type": "input_json_delta", "partial_json": args.to_string()}),
        ),
    };
    vec![
        (
            Some("message_start"),
            json!({"type": "message_start", "message": {
                "id": format!("msg_{id}"), "type": "message", "role": "assistant", "model": model,
                "content": [], "stop_reason": null, "stop_sequence": null,
                "usage": {"input_tokens": u, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
            }}),
        ),
        (
            Some("content_block_start"),
            json!({"type": "content_block_start", "index": 0, "content_block": start}),
        ),
        (
            Some("content_block_delta"),
            json!({"type": "content_block_delta", "index": 0, "delta": delta}),
        ),
        (
            Some("content_block_stop"),
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            Some("message_delta"),
            json!({"type": "message_delta", "delta": {"stop_reason": anthropic_stop(action), "stop_sequence": null}, "usage": {"output_tokens": 10}}),
        ),
        (Some("message_stop"), json!({"type": "message_stop"})),
    ]
}

fn responses_item(action: &Action, id: u64) -> Value {
    match action {
        Action::Text(t) => json!({
            "type": "message", "id": format!("msg_{id}"), "status": "completed", "role": "assistant",
            "content": [{"type": "output_text", "text": t, "annotations": []}],
        }),
        Action::Tool {
            name,
            call_id,
            freeform: Some(input),
            ..
        } => json!({
            "type": "custom_tool_call", "id": format!("ctc_{id}"), "status": "completed",
            "call_id": call_id, "name": name, "input": input,
        }),
        Action::Tool {
            name,
            call_id,
            args,
            ..
        } => {
            // A tool of a namespace (Codex's `collaboration`) is named `NS.TOOL`.
            let mut item = json!({
                "type": "function_call", "id": format!("fc_{id}"), "status": "completed",
                "call_id": call_id, "name": name, "arguments": args.to_string(),
            });
            if let Some((namespace, tool)) = name.split_once('.') {
                item["namespace"] = json!(namespace);
                item["name"] = json!(tool);
            }
            item
        }
    }
}

fn responses_events(
    action: &Action,
    model: &str,
    id: u64,
    u: u64,
) -> Vec<(Option<&'static str>, Value)> {
    let item = responses_item(action, id);
    let response = |status: &str, output: Value| {
        json!({
            "id": format!("resp_{id}"), "object": "response", "created_at": 0, "status": status,
            "model": model, "output": output,
            "usage": {"input_tokens": u, "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens": 10, "output_tokens_details": {"reasoning_tokens": 0},
                      "total_tokens": u + 10},
        })
    };
    let mut events = vec![(
        Some("response.created"),
        json!({"type": "response.created", "response": response("in_progress", json!([]))}),
    )];
    events.push((
        Some("response.output_item.added"),
        json!({"type": "response.output_item.added", "output_index": 0, "item": item}),
    ));
    if let Action::Text(t) = action {
        events.push((
            Some("response.output_text.delta"),
            json!({"type": "response.output_text.delta", "item_id": format!("msg_{id}"), "output_index": 0, "content_index": 0, "delta": t}),
        ));
    }
    events.push((
        Some("response.output_item.done"),
        json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
    ));
    events.push((
        Some("response.completed"),
        json!({"type": "response.completed", "response": response("completed", json!([item]))}),
    ));
    events
}

fn chat_chunks(
    action: &Action,
    said: Option<&str>,
    model: &str,
    id: u64,
    u: u64,
) -> Vec<(Option<&'static str>, Value)> {
    let base = |choices: Value| {
        json!({"id": format!("chatcmpl-{id}"), "object": "chat.completion.chunk", "created": 0,
               "model": model, "choices": choices})
    };
    let (delta, finish) = match action {
        Action::Text(t) => (json!({"role": "assistant", "content": t}), "stop"),
        Action::Tool {
            name,
            call_id,
            args,
            ..
        } => (
            json!({"role": "assistant", "tool_calls": [{"index": 0, "id": call_id, "type": "function",
                   "function": {"name": name, "arguments": args.to_string()}}]}),
            "tool_calls",
        ),
    };
    let mut last = base(json!([]));
    last["usage"] = json!({"prompt_tokens": u, "completion_tokens": 10, "total_tokens": u + 10});
    // `said` first, then the tool call, in chunks of their own: as a model that says
    // what it is about to do streams it.
    let before = said.map(|text| {
        (
            None,
            base(json!([{"index": 0, "delta": {"role": "assistant", "content": text}, "finish_reason": null}])),
        )
    });
    before
        .into_iter()
        .chain([
            (
                None,
                base(json!([{"index": 0, "delta": delta, "finish_reason": null}])),
            ),
            (
                None,
                base(json!([{"index": 0, "delta": {}, "finish_reason": finish}])),
            ),
            (None, last),
            (None, Value::String("[DONE]".into())),
        ])
        .collect()
}

fn chat_completion(action: &Action, model: &str, id: u64, u: u64) -> Value {
    let message = match action {
        Action::Text(t) => json!({"role": "assistant", "content": t}),
        Action::Tool {
            name,
            call_id,
            args,
            ..
        } => {
            json!({"role": "assistant", "content": null, "tool_calls": [{"id": call_id, "type": "function",
                     "function": {"name": name, "arguments": args.to_string()}}]})
        }
    };
    let finish = if matches!(action, Action::Text(_)) {
        "stop"
    } else {
        "tool_calls"
    };
    json!({"id": format!("chatcmpl-{id}"), "object": "chat.completion", "created": 0, "model": model,
           "choices": [{"index": 0, "message": message, "finish_reason": finish}],
           "usage": {"prompt_tokens": u, "completion_tokens": 10, "total_tokens": u + 10}})
}

fn gemini_response(action: &Action, model: &str, u: u64) -> Value {
    let part = match action {
        Action::Text(t) => json!({"text": t}),
        Action::Tool { name, args, .. } => json!({"functionCall": {"name": name, "args": args}}),
    };
    json!({
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": u, "candidatesTokenCount": 10, "totalTokenCount": u + 10},
        "modelVersion": model,
    })
}

/// The fake itself, offline and fast: these run in a plain `cargo test`.
#[cfg(test)]
mod tests {
    use super::*;

    /// One request over a fresh connection: status line and body.
    fn send(fake: &Fake, method: &str, target: &str, body: &Value) -> (String, String) {
        let mut conn = TcpStream::connect(("127.0.0.1", fake.port)).unwrap();
        let body = body.to_string();
        write!(
            conn,
            "{method} {target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        conn.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        (head.lines().next().unwrap().to_string(), body.to_string())
    }

    /// The `data:` payloads of an SSE body, with their event names.
    fn events(body: &str) -> Vec<(String, String)> {
        body.split("\n\n")
            .filter(|e| !e.trim().is_empty())
            .map(|e| {
                let name = e
                    .lines()
                    .find_map(|l| l.strip_prefix("event: "))
                    .unwrap_or("")
                    .to_string();
                let data = e
                    .lines()
                    .find_map(|l| l.strip_prefix("data: "))
                    .unwrap()
                    .to_string();
                (name, data)
            })
            .collect()
    }

    #[test]
    fn anthropic_messages_streamed_and_not() {
        let fake = Fake::start(script(vec![write("/r/a.txt", "a\n"), text("Hi.")]));
        let tools = json!([{"name": "Read"}, {"name": "Write"}]);
        let (status, body) = send(
            &fake,
            "POST",
            "/v1/messages?beta=true",
            &json!({"model": "m", "stream": false, "tools": tools, "messages": []}),
        );
        assert_eq!(status, "HTTP/1.1 200 OK");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["stop_reason"], "tool_use");
        assert_eq!(v["content"][0]["name"], "Write");
        assert_eq!(v["content"][0]["input"]["file_path"], "/r/a.txt");
        let (_, body) = send(
            &fake,
            "POST",
            "/v1/messages",
            &json!({"model": "m", "stream": true, "tools": tools, "messages": []}),
        );
        let names: Vec<String> = events(&body).into_iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            [
                "message_start",
                "content_block_start",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop"
            ]
        );
        assert!(body.contains(r#""text":"Hi.""#));
        assert_eq!(fake.requests().len(), 2);
        assert_eq!(fake.turns().len(), 2);
    }

    #[test]
    fn responses_calls_codex_tools_by_their_kind() {
        let fake = Fake::start(script(vec![
            write("a.txt", "a\n"),
            shell("true"),
            text("Done."),
        ]));
        let body = json!({"model": "m", "stream": true, "input": [], "tools": [
            {"type": "function", "name": "exec_command"}, {"type": "custom", "name": "apply_patch"}]});
        let item = |n: usize| {
            let (_, sse) = send(&fake, "POST", "/v1/responses", &body);
            let evs = events(&sse);
            assert_eq!(evs.first().unwrap().0, "response.created");
            assert_eq!(evs.last().unwrap().0, "response.completed");
            let done = evs
                .iter()
                .find(|(name, _)| name == "response.output_item.done")
                .unwrap();
            let v: Value = serde_json::from_str(&done.1).unwrap();
            assert_eq!(v["output_index"], 0, "call {n}");
            v["item"].clone()
        };
        let patch = item(0);
        assert_eq!(patch["type"], "custom_tool_call");
        assert_eq!(
            patch["input"],
            "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n"
        );
        let exec = item(1);
        assert_eq!(exec["type"], "function_call");
        let args: Value = serde_json::from_str(exec["arguments"].as_str().unwrap()).unwrap();
        assert_eq!(args["cmd"], "true");
        assert_eq!(item(2)["content"][0]["text"], "Done.");
    }

    #[test]
    fn chat_completions_and_gemini() {
        let fake = Fake::start(script(vec![
            shell("ls"),
            text("Hi."),
            write("/r/b.txt", "b"),
            text("Bye."),
        ]));
        let chat = json!({"model": "m", "messages": [], "tools": [
            {"type": "function", "function": {"name": "bash"}}]});
        let (_, body) = send(&fake, "POST", "/v1/chat/completions", &chat);
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["choices"][0]["finish_reason"], "tool_calls");
        assert_eq!(
            v["choices"][0]["message"]["tool_calls"][0]["function"]["name"],
            "bash"
        );
        let mut streamed = chat.clone();
        streamed["stream"] = json!(true);
        let (_, body) = send(&fake, "POST", "/v1/chat/completions", &streamed);
        let data: Vec<String> = events(&body).into_iter().map(|(_, d)| d).collect();
        assert_eq!(data.last().unwrap(), "[DONE]");
        assert!(data[0].contains(r#""content":"Hi.""#));
        let gemini = json!({"contents": [], "tools": [{"functionDeclarations": [
            {"name": "write_file"}, {"name": "run_shell_command"}]}]});
        let (_, body) = send(&fake, "POST", "/v1beta/models/g:generateContent", &gemini);
        let v: Value = serde_json::from_str(&body).unwrap();
        let call = &v["candidates"][0]["content"]["parts"][0]["functionCall"];
        assert_eq!(call["name"], "write_file");
        assert_eq!(call["args"]["file_path"], "/r/b.txt");
        let (_, body) = send(
            &fake,
            "POST",
            "/v1beta/models/g:streamGenerateContent?alt=sse",
            &gemini,
        );
        assert!(events(&body)[0].1.contains(r#""text":"Bye.""#));
    }

    #[test]
    fn probes_and_side_calls() {
        let fake = Fake::start(script(vec![text("scripted")]));
        let (status, body) = send(&fake, "HEAD", "/", &json!({}));
        assert_eq!(
            (status.as_str(), body.as_str()),
            ("HTTP/1.1 404 Not Found", "")
        );
        let (_, body) = send(&fake, "POST", "/v1/messages/count_tokens", &json!({}));
        assert_eq!(body, r#"{"input_tokens":100}"#);
        // A call that offers no tools is not the agent's turn: the script waits.
        let (_, body) = send(&fake, "POST", "/v1/messages", &json!({"messages": []}));
        assert!(body.contains("Summary: the work so far."));
        let (_, body) = send(
            &fake,
            "POST",
            "/v1/messages",
            &json!({"messages": [], "tools": [{"name": "Read"}]}),
        );
        assert!(body.contains("scripted"));
        // A tool the host does not offer is never called: the model says so instead.
        fake.script(script(vec![write("/x", "y")]));
        let (_, body) = send(
            &fake,
            "POST",
            "/v1/messages",
            &json!({"messages": [], "tools": [{"name": "Read"}]}),
        );
        assert!(body.contains("no write tool"));
        assert_eq!(fake.calls().len(), 3, "the probes are no model calls");
    }
}
