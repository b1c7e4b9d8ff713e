//! What an import's source is written in, when plan cannot read it as it is:
//! UTF-16 (with a byte order mark or without) and lines ended by a lone carriage
//! return, named in the refusal with a way to convert. Pure: bytes in, words out.

/// How many leading bytes the UTF-16 guess looks at.
const SAMPLE: usize = 4096;

/// Why `bytes` cannot be imported as they are, and what to do, for a file named
/// `name`; `None` when UTF-8 (or anything else) may read them.
pub fn unreadable(bytes: &[u8], name: &str) -> Option<(String, String)> {
    let utf16 = |how: &str, from: &str| {
        (
            format!("it is UTF-16 ({how}); plan reads UTF-8"),
            format!(
                "convert it, e.g. `iconv -f {from} -t UTF-8 {name} > {name}.utf8`, and import that"
            ),
        )
    };
    match bytes {
        [0xFF, 0xFE, 0, 0, ..] | [0, 0, 0xFE, 0xFF, ..] => {
            return Some((
                "it is UTF-32 (it starts with a byte order mark); plan reads UTF-8".to_string(),
                format!(
                    "convert it, e.g. `iconv -f UTF-32 -t UTF-8 {name} > {name}.utf8`, and import that"
                ),
            ));
        }
        [0xFF, 0xFE, ..] => return Some(utf16("little-endian, with a byte order mark", "UTF-16")),
        [0xFE, 0xFF, ..] => return Some(utf16("big-endian, with a byte order mark", "UTF-16")),
        _ => {}
    }
    if let Some(little) = utf16_without_mark(bytes) {
        return Some(if little {
            utf16("little-endian, without a byte order mark", "UTF-16LE")
        } else {
            utf16("big-endian, without a byte order mark", "UTF-16BE")
        });
    }
    let lone_cr = bytes.contains(&b'\r') && !bytes.contains(&b'\n');
    if lone_cr && serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_err() {
        return Some((
            "its lines end in a lone carriage return (CR, as classic Mac OS wrote them), so it reads as one line".to_string(),
            format!("convert it, e.g. `tr '\\r' '\\n' < {name} > {name}.lf`, and import that"),
        ));
    }
    None
}

/// Whether the text reads as UTF-16 with no byte order mark: most of its
/// characters ASCII, so one byte of each pair is zero, always the same one. `Some`
/// little-endian (the zero second), big-endian; `None` when it does not look so.
fn utf16_without_mark(bytes: &[u8]) -> Option<bool> {
    let sample = &bytes[..bytes.len().min(SAMPLE) & !1];
    if sample.len() < 4 {
        return None;
    }
    let pairs = sample.len() / 2;
    let zero_at = |i: usize| sample.chunks_exact(2).filter(|p| p[i] == 0).count();
    let (first, second) = (zero_at(0), zero_at(1));
    // Nearly every pair zero on one side, hardly any on the other: UTF-8 text has
    // no zero bytes at all.
    let mostly = |n: usize| n * 10 >= pairs * 7;
    let few = |n: usize| n * 10 <= pairs;
    if mostly(second) && few(first) {
        Some(true)
    } else if mostly(first) && few(second) {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16le(text: &str, mark: bool) -> Vec<u8> {
        let mut out = if mark { vec![0xFF, 0xFE] } else { Vec::new() };
        out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        out
    }

    fn utf16be(text: &str, mark: bool) -> Vec<u8> {
        let mut out = if mark { vec![0xFE, 0xFF] } else { Vec::new() };
        out.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
        out
    }

    #[test]
    fn utf16_and_lone_cr_are_named_and_utf8_is_left_alone() {
        let text = "# TODO\n- [ ] one\n- [x] two\n";
        let said = |bytes: &[u8]| unreadable(bytes, "TODO.md").map(|(m, _)| m);
        assert!(
            said(&utf16le(text, true))
                .unwrap()
                .contains("little-endian, with a byte order mark")
        );
        assert!(
            said(&utf16be(text, true))
                .unwrap()
                .contains("big-endian, with a byte order mark")
        );
        assert!(
            said(&utf16le(text, false))
                .unwrap()
                .contains("little-endian, without")
        );
        assert!(
            said(&utf16be(text, false))
                .unwrap()
                .contains("big-endian, without")
        );
        assert!(
            said(text.replace('\n', "\r").as_bytes())
                .unwrap()
                .contains("lone carriage return")
        );
        assert_eq!(said(text.as_bytes()), None);
        assert_eq!(said(text.replace('\n', "\r\n").as_bytes()), None);
        assert_eq!(
            said("{\"todos\": []}\r".as_bytes()),
            None,
            "JSON reads whatever its line ends"
        );
        assert_eq!(said("# Tâches\n- [ ] café\n".as_bytes()), None);
        assert_eq!(said(b""), None);
    }
}
