//! `plan mcp`'s server: the MCP handshake, the tool list, tool calls run on a
//! blocking thread (progress sent, cancellation honoured), the plan's repository
//! taken from the client's roots, and `plan://plan.md` as a read-only resource.
//! The only place an async runtime starts.

pub mod tools;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use anyhow::Result;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler, ServiceExt};

use crate::exec;
use crate::exit::Exit;
use tools::{Place, Reply};

/// The URI of the one resource: the plan file itself.
pub const PLAN_URI: &str = "plan://plan.md";

/// How long a client may take to list its roots before the working directory is used.
const ROOTS_TIMEOUT: Duration = Duration::from_secs(5);

const INSTRUCTIONS: &str = "plan keeps this repository's plan.md: goals with a contract and an append-only log. Call plan_status first. Keep working while goals remain; a goal is done only when plan_complete accepts it.";

/// Serves MCP on stdin and stdout until the client closes them. `file` is the
/// plan file named on the command line; `root`, the repository it named: either
/// wins over the client's roots.
pub fn serve(file: Option<PathBuf>, root: Option<PathBuf>) -> Result<u8> {
    let cwd = std::env::current_dir()
        .map_err(|e| Exit::env(format!("cannot read the current directory: {e}")))?;
    // Relative to where plan started, not to a root the client names later.
    let file = file.map(|f| cwd.join(f));
    let pinned = root.map(|r| cwd.join(r));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Exit::env(format!("cannot start the MCP server: {e}")))?;
    let server = Server {
        cwd,
        file,
        root: Arc::new(Mutex::new(pinned.clone())),
        pinned: pinned.is_some(),
    };
    runtime.block_on(async move {
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| Exit::env(format!("mcp: the handshake failed: {e}")))?;
        running
            .waiting()
            .await
            .map_err(|e| Exit::env(format!("mcp: the server stopped: {e}")))?;
        Ok(crate::exit::OK)
    })
}

#[derive(Clone)]
struct Server {
    cwd: PathBuf,
    file: Option<PathBuf>,
    /// The directory the client's first root names, once asked; cleared when the
    /// client says its roots changed.
    root: Arc<Mutex<Option<PathBuf>>>,
    /// `--root` named the repository: the client's roots are not asked.
    pinned: bool,
}

impl Server {
    /// Where calls run: the client's first `file://` root if it has roots, else the
    /// directory the server started in.
    async fn place(&self, peer: &Peer<RoleServer>) -> Place {
        let cached = self
            .root
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let cwd = match cached {
            Some(root) => root,
            None => {
                let root = client_root(peer).await.unwrap_or_else(|| self.cwd.clone());
                *self.root.lock().unwrap_or_else(PoisonError::into_inner) = Some(root.clone());
                root
            }
        };
        Place {
            cwd,
            file: self.file.clone(),
        }
    }
}

#[allow(deprecated)]
async fn client_root(peer: &Peer<RoleServer>) -> Option<PathBuf> {
    let info = peer.peer_info()?;
    info.capabilities.roots.as_ref()?;
    // Deprecated in the newest protocol revision, yet what today's clients send.
    #[allow(deprecated)]
    let listed = tokio::time::timeout(ROOTS_TIMEOUT, peer.list_roots()).await;
    let roots = listed.ok()?.ok()?.roots;
    roots.iter().find_map(|r| file_uri_path(&r.uri))
}

/// The path a `file://` URI names, its `%XX` escapes decoded.
fn file_uri_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://host/path`: only the local host is ours.
    let path = match rest.find('/') {
        Some(0) => rest,
        Some(i) if &rest[..i] == "localhost" => &rest[i..],
        _ => return None,
    };
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h)? * 16 + hex(l)?) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(out)))
}

fn tool(t: &tools::Tool) -> Tool {
    let schema = match (t.schema)() {
        serde_json::Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    Tool::new(t.name, t.description, Arc::new(schema)).with_annotations(
        ToolAnnotations::new()
            .read_only(t.read_only)
            // Every change plan makes is an added line or a logged transition.
            .destructive(false),
    )
}

fn result(reply: Reply) -> CallToolResult {
    let content = vec![ContentBlock::text(reply.text)];
    let mut result = if reply.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    result.structured_content = reply.structured;
    result
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("plan", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            tools::TOOLS.iter().map(tool).collect(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::find(name).map(tool)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(found) = tools::find(&request.name) else {
            return Err(ErrorData::invalid_params(
                format!("no tool {}", request.name),
                None,
            ));
        };
        let place = self.place(&context.peer).await;
        let args = request.arguments.unwrap_or_default();

        // A cancel sets the flag every process run of this call watches; the
        // watcher outlives this future, which the SDK may drop on a cancel.
        let cancel = Arc::new(AtomicBool::new(false));
        let watcher = {
            let (ct, cancel) = (context.ct.clone(), cancel.clone());
            tokio::spawn(async move {
                ct.cancelled().await;
                cancel.store(true, Ordering::SeqCst);
            })
        };
        // Progress steps cross to the runtime in order, and all are sent before
        // the result.
        let (steps, mut received) = tokio::sync::mpsc::unbounded_channel::<String>();
        let sender = {
            let peer = context.peer.clone();
            let token = context.meta.get_progress_token();
            tokio::spawn(async move {
                let mut n = 0.0;
                while let Some(step) = received.recv().await {
                    if let Some(token) = &token {
                        n += 1.0;
                        let note =
                            ProgressNotificationParam::new(token.clone(), n).with_message(step);
                        let _ = peer.notify_progress(note).await;
                    }
                }
            })
        };
        let call = tokio::task::spawn_blocking(move || {
            exec::cancellable(cancel, || {
                tools::call(found, &place, args, move |step| {
                    let _ = steps.send(step.to_string());
                })
            })
        });
        let reply = call.await.unwrap_or_else(|e| {
            Reply::error(format!(
                "plan: {}: the call failed inside plan: {e}\n  hint: this is a bug in plan; the plan file is as the call left it",
                found.name
            ))
        });
        watcher.abort();
        let _ = sender.await;
        Ok(CallToolResponse::Complete(result(reply)))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resource = Resource::new(PLAN_URI, "plan.md")
            .with_description("the plan file this server serves, read-only")
            .with_mime_type("text/markdown");
        Ok(ListResourcesResult::with_all_items(vec![resource]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != PLAN_URI {
            return Err(ErrorData::resource_not_found(
                format!("no resource {}; this server has {PLAN_URI}", request.uri),
                None,
            ));
        }
        let place = self.place(&context.peer).await;
        let read = tokio::task::spawn_blocking(move || place.ctx()?.store.read())
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        match read {
            Ok(text) => Ok(ReadResourceResult::new(vec![
                ResourceContents::text(text, PLAN_URI).with_mime_type("text/markdown"),
            ])
            .into()),
            Err(e) => Err(ErrorData::resource_not_found(format!("{e:#}"), None)),
        }
    }

    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        if self.pinned {
            return;
        }
        *self.root.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_decode_to_local_paths() {
        assert_eq!(
            file_uri_path("file:///home/a%20b/repo"),
            Some(PathBuf::from("/home/a b/repo"))
        );
        assert_eq!(
            file_uri_path("file://localhost/srv/x"),
            Some(PathBuf::from("/srv/x"))
        );
        assert_eq!(file_uri_path("file://other/srv/x"), None);
        assert_eq!(file_uri_path("https://example.com/x"), None);
    }
}
