//! Fuzz target: a hook's stdin as any host sends it (or garbage). Reading it never
//! panics, and neither does working out the event for any host.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plan::hooks::host::{self, Host};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = host::parse_input(text);
    if let Some((event, body)) = text.split_once('\n') {
        for h in [Host::Claude, Host::Codex, Host::Gemini, Host::Pi] {
            let _ = host::kind(h, event);
        }
        if let Ok(input) = host::parse_input(body) {
            if let Some(tool) = &input.tool_name {
                let _ = host::edits_files(tool);
            }
        }
    }
});
