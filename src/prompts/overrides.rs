//! The repository's prompt overrides under `.plan/prompts/`: read only from a regular
//! file, each read named so the transcript records every one that shaped a prompt.
//! Nothing else reads `.plan/prompts/`.

use std::fs::File;
use std::io::Read as _;
use std::path::Path;

use anyhow::Result;
use rustix::fs::{Mode, OFlags};

use crate::exit::Exit;

/// Where overrides live, relative to the repository root.
pub const DIR: &str = ".plan/prompts";

/// The override files a prompt was built from, in the order they were read.
#[derive(Debug, Default)]
pub struct Reads {
    pub names: Vec<String>,
}

impl Reads {
    /// `.plan/prompts/NAME` when the repository has one, else `embedded`. Anything
    /// there that is not a regular file (a FIFO, a directory, a device, a symlink to
    /// one, a dangling symlink) is refused: what it would give is not what a later
    /// reader finds.
    pub fn text(&mut self, root: &Path, name: &str, embedded: &str) -> Result<String> {
        match read(root, name) {
            Ok(None) => Ok(embedded.to_string()),
            Ok(Some(text)) => {
                self.names.push(name.to_string());
                Ok(text)
            }
            Err(what) => Err(Exit::env_hint(
                format!(
                    "{DIR}/{name} {what}; a prompt override is read only from a regular file of text"
                ),
                format!("remove {DIR}/{name}, or put the override's text in a regular file there"),
            )),
        }
    }
}

/// `.plan/prompts/NAME` when the repository has one that reads as text, else
/// `embedded`: for the hooks and blocks, which fail open and never block on a FIFO
/// there. A blank override is none: an empty continuation was a block with no
/// reason, which a host may not take as one.
pub fn or_embedded(root: &Path, name: &str, embedded: &str) -> String {
    read(root, name)
        .ok()
        .flatten()
        .filter(|text| !text.trim().is_empty())
        .unwrap_or_else(|| embedded.to_string())
}

/// `.plan/prompts/NAME`'s text, `None` when there is nothing there, `Err` saying
/// what is wrong with what is there (`is a named pipe`, `cannot be opened (…)`). Opened without blocking and checked
/// on the open file, so a FIFO swapped in after a look cannot hang the read.
pub fn read(root: &Path, name: &str) -> std::result::Result<Option<String>, String> {
    let path = root.join(DIR).join(name);
    let Ok(link) = std::fs::symlink_metadata(&path) else {
        return Ok(None);
    };
    let fd = rustix::fs::open(
        &path,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY,
        Mode::empty(),
    )
    .map_err(|e| {
        if link.file_type().is_symlink() {
            format!("is a symlink that cannot be opened ({e})")
        } else {
            format!("cannot be opened ({e})")
        }
    })?;
    let mut file = File::from(fd);
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot be read ({e})"))?;
    if !meta.file_type().is_file() {
        return Err(kind(&meta.file_type(), link.file_type().is_symlink()));
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| format!("cannot be read ({e})"))?;
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| "is not UTF-8 text".to_string())
}

fn kind(file_type: &std::fs::FileType, via_symlink: bool) -> String {
    use std::os::unix::fs::FileTypeExt as _;
    let what = if file_type.is_dir() {
        "a directory"
    } else if file_type.is_fifo() {
        "a named pipe"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_char_device() || file_type.is_block_device() {
        "a device"
    } else {
        "not a regular file"
    };
    if via_symlink {
        format!("is a symlink to {what}")
    } else {
        format!("is {what}")
    }
}
