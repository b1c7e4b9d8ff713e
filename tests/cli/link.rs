//! How the `plan` binary is linked: statically and at a fixed address where the
//! build could (build.rs), since a hook is one process start and the dynamic
//! loader's work was most of what a cached hook cost.

use crate::util::BIN;

/// ELF program header types.
const PT_DYNAMIC: u32 = 2;
const PT_INTERP: u32 = 3;
/// ELF file type of an executable at a fixed address (a PIE is `ET_DYN`).
const ET_EXEC: u16 = 2;

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(b[at..at + 2].try_into().unwrap())
}

/// The file type and the program header types of a 64-bit little-endian ELF file.
fn elf(bytes: &[u8]) -> (u16, Vec<u32>) {
    assert_eq!(&bytes[..4], b"\x7fELF", "not an ELF file");
    assert_eq!((bytes[4], bytes[5]), (2, 1), "not 64-bit little-endian");
    let phoff = u64::from_le_bytes(bytes[0x20..0x28].try_into().unwrap()) as usize;
    let (size, count) = (u16_at(bytes, 0x36) as usize, u16_at(bytes, 0x38) as usize);
    let types = (0..count)
        .map(|i| {
            let at = phoff + i * size;
            u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
        })
        .collect();
    (u16_at(bytes, 0x10), types)
}

/// Where build.rs found the static archives (it says which way it linked in
/// PLAN_LINK), the binary has no program interpreter, nothing to link at start,
/// and no relocation to make.
#[test]
fn the_binary_is_static_and_not_position_independent_where_it_can_be() {
    let linux_gnu = cfg!(all(target_os = "linux", target_env = "gnu"));
    let link = option_env!("PLAN_LINK");
    assert!(
        !linux_gnu || link.is_some(),
        "build.rs did not decide how plan is linked"
    );
    if link != Some("static") {
        return;
    }
    let (kind, headers) = elf(&std::fs::read(BIN).unwrap());
    assert!(
        !headers.contains(&PT_INTERP),
        "{BIN} asks for the dynamic loader"
    );
    assert!(
        !headers.contains(&PT_DYNAMIC),
        "{BIN} has a dynamic section"
    );
    assert_eq!(kind, ET_EXEC, "{BIN} is position-independent");
}
