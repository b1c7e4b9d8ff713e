//! A judge run as the process runner takes it, and what a host's module builds one
//! from. A leaf: it imports nothing of plan's, so a host declares its judge without
//! reaching up into `judge/`, which asks the host registry.

use std::path::{Path, PathBuf};

/// What a judge's answer comes in.
#[derive(Clone, Copy, Debug)]
pub enum Format {
    /// The answer's text on stdout.
    Text,
    /// Claude Code's `--output-format json` result object on stdout.
    ClaudeResult,
    /// Gemini CLI's `-o json` object (`response`, `error`) on stdout.
    GeminiJson,
    /// The final message in a file (`Invocation::reads_last_message`); stdout is progress.
    LastMessage,
    /// The host's module reads the answer out of stdout: its text, or why there is none.
    Extract(fn(stdout: &str) -> Result<String, String>),
}

/// A judge run, ready for the process runner. The prompt travels on stdin
/// (`stdin_prompt`) or as the last argument (`prompt_arg`), never both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    pub program: String,
    pub args: Vec<String>,
    pub stdin_prompt: bool,
    pub prompt_arg: bool,
    /// The backend has no flag for a system prompt: put the system text at the top of
    /// the prompt instead.
    pub system_in_prompt: bool,
    pub env: Vec<(String, String)>,
    /// The backend writes its final answer to this file rather than to stdout.
    pub reads_last_message: Option<PathBuf>,
    /// Files the run needs, to be written (path, text) before it starts. They go
    /// beside `out_file`, in the run's private temporary directory.
    pub files: Vec<(PathBuf, String)>,
    /// Where the run starts; `None`: the root the judge reads. A host that loads
    /// project settings and instruction files from its working directory starts in
    /// `Request::workdir` instead and is given the root by a flag.
    pub cwd: Option<PathBuf>,
    /// The CLI looks for `DIR/.env`, then `.env`, from where it starts up to `/`,
    /// and takes the first found over the user's own (Gemini CLI, Qwen Code): the
    /// run writes `DIR/.env` where it starts, holding the user's own, so no file an
    /// agent planted above it (in `$TMPDIR`) chooses the model's server.
    pub env_file_dir: Option<&'static str>,
}

impl Invocation {
    /// `program` with no arguments yet, the prompt on stdin or as the last argument.
    pub fn new(program: &str, stdin_prompt: bool) -> Invocation {
        Invocation {
            program: program.to_string(),
            args: Vec::new(),
            stdin_prompt,
            prompt_arg: !stdin_prompt,
            system_in_prompt: false,
            env: Vec::new(),
            reads_last_message: None,
            files: Vec::new(),
            cwd: None,
            env_file_dir: None,
        }
    }

    /// Starts the run in `workdir`, away from the root's project-level settings.
    pub fn start_in(&mut self, workdir: &Path) {
        self.cwd = Some(workdir.to_path_buf());
    }

    pub fn push(&mut self, items: &[&str]) {
        self.args.extend(items.iter().map(|s| s.to_string()));
    }
}

/// What a host's judge invocation is built from.
pub struct Request<'a> {
    /// Trimmed; `None` when unset or blank.
    pub model: Option<&'a str>,
    /// The root the judge reads: the tree under review.
    pub repo_root: &'a Path,
    /// An empty directory of the run's own, outside the root (`work` beside
    /// `out_file`): the working directory of a host whose project-level settings,
    /// hooks, MCP servers and instruction files would otherwise load from the root.
    pub workdir: &'a Path,
    /// Where a backend that writes its final message to a file writes it; files the
    /// run needs go beside it.
    pub out_file: &'a Path,
    /// Trimmed; may be empty.
    pub system: &'a str,
    pub max_turns: u32,
}
