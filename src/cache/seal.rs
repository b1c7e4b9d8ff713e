//! The seal on the hooks' cache files: a hash of each file's own bytes, kept in its
//! first field, so a file edited by hand (one `sed` making the status line say
//! `plan: nothing open`) reads as no cache and the answer is derived afresh.
//!
//! No secret backs it: the agent runs as the same user and can read whatever key
//! plan could keep, so an agent that recomputes the seal (xxh3 of the file with the
//! field emptied) can still write a cache plan trusts. It makes the cheap edit fail,
//! not the determined one; `plan audit` reads everything afresh.

/// How a sealed file starts: its first field, the seal.
const HEAD: &[u8] = b"{\"seal\":\"";
/// The seal's hex digits (a 64-bit hash).
const DIGITS: usize = 16;

/// The seal of a file whose JSON with its seal field empty (`"seal":""`) is the
/// pieces `empty`, taken in order: hashed in place, so checking a seal copies
/// nothing.
fn of(empty: &[&[u8]]) -> String {
    let mut hasher = super::ContentHasher::new();
    hasher.write(b"plan cache seal 1\n");
    for piece in empty {
        hasher.write(piece);
    }
    hasher.finish()
}

/// Seals `json`, a struct serialized with `seal: ""` as its first field; `None`
/// when it does not start so (then nothing is written).
pub fn close(json: &[u8]) -> Option<Vec<u8>> {
    let rest = json.strip_prefix(HEAD)?.strip_prefix(b"\"")?;
    let seal = of(&[json]);
    let mut out = Vec::with_capacity(json.len() + DIGITS);
    out.extend_from_slice(HEAD);
    out.extend_from_slice(seal.as_bytes());
    out.push(b'"');
    out.extend_from_slice(rest);
    Some(out)
}

/// Whether `bytes`, as read, are a file [`close`] wrote and nothing changed since.
pub fn holds(bytes: &[u8]) -> bool {
    let Some(rest) = bytes.strip_prefix(HEAD) else {
        return false;
    };
    let (Some(seal), Some(rest)) = (rest.get(..DIGITS), rest.get(DIGITS..)) else {
        return false;
    };
    let Some(rest) = rest.strip_prefix(b"\"") else {
        return false;
    };
    of(&[HEAD, b"\"", rest]).as_bytes() == seal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_file_holds_and_any_edit_breaks_it() {
        let json = br#"{"seal":"","view":{"statusline":"plan: 2 active"}}"#;
        let sealed = close(json).unwrap();
        assert!(holds(&sealed));
        let text = String::from_utf8(sealed.clone()).unwrap();
        assert!(
            text.starts_with("{\"seal\":\"")
                && text.ends_with(r#""view":{"statusline":"plan: 2 active"}}"#)
        );
        let edited = text.replace("2 active", "nothing open");
        assert!(!holds(edited.as_bytes()));
        assert!(!holds(json), "an unsealed file");
        assert!(!holds(b"{\"seal\":\"00\"}"), "a short seal");
        assert_eq!(close(b"{\"view\":1}"), None, "no seal field first");
    }
}
