//! Links the `plan` binary statically, without position-independent code, on
//! Linux with glibc: a hook is one process start, and the dynamic loader's work
//! (mapping libc, libgcc_s and libz, binding their symbols, relocating a PIE) is
//! most of what a cached hook costs (docs/src/performance.md). Cargo can ask for
//! `+crt-static` only for every crate of a build, proc-macros included, which
//! cannot be built that way; so the link is made static here, for the binary
//! alone, with the static archives of the libraries rustc names. Where one is
//! missing (no libc.a installed), or PLAN_DYNAMIC=1, the binary links as usual.
//! Where the linker takes a symbol ordering file (rustc's own lld), the functions
//! the hooks run are laid side by side (link/hooks.order, from scripts/hook-order).
#![allow(
    clippy::disallowed_methods,
    reason = "a build script reads what cargo sets"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// What std and libgit2-sys ask for by name (`-lc`, `-lz`, …): the static archive
/// of each is put first on the search path, where the linker takes it over the
/// shared library.
const LIBS: [&str; 7] = ["c", "m", "rt", "pthread", "dl", "util", "z"];

/// The functions the hooks run, for the linker to lay side by side (scripts/hook-order).
const ORDER: &str = "link/hooks.order";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PLAN_DYNAMIC");
    println!("cargo:rerun-if-env-changed=CC");
    println!("cargo:rerun-if-changed={ORDER}");
    // The linker cargo reads from the environment for this target.
    let linker =
        format!("CARGO_TARGET_{}_LINKER", var("TARGET").to_uppercase()).replace(['-', '.'], "_");
    println!("cargo:rerun-if-env-changed={linker}");
    let link = if link_static() { "static" } else { "dynamic" };
    // Read by tests/cli/link.rs, which checks the binary is what was asked for.
    println!("cargo:rustc-env=PLAN_LINK={link}");
}

/// Asks for the static link; whether it did.
fn link_static() -> bool {
    let wanted = var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu"
        && var("PLAN_DYNAMIC") != "1"
        // The archives are found through the host's `cc`: a cross build links as usual.
        && var("HOST") == var("TARGET")
        // Asked for already (RUSTFLAGS): rustc links it so itself.
        && !var("CARGO_CFG_TARGET_FEATURE")
            .split(',')
            .any(|f| f == "crt-static");
    let dir = PathBuf::from(var("OUT_DIR")).join("static");
    if !wanted || shadow(&dir).is_none() {
        return false;
    }
    let mut args = vec![
        format!("-L{}", dir.display()),
        // No PIE either: a static PIE relocates itself at start, which is the
        // work saved.
        "-static".into(),
        "-no-pie".into(),
        // The unwinder std asks for as libgcc_s: its static half, as `+crt-static`
        // links it.
        "-Wl,--start-group".into(),
        "-lgcc_eh".into(),
        "-lgcc".into(),
        "-lc".into(),
        "-Wl,--end-group".into(),
    ];
    // The functions the hooks run, side by side (scripts/hook-order): scattered
    // over .text, the pages the kernel maps around each were most of a hook's peak
    // RSS. A name this build lacks is skipped. Each its own argument: `-Wl,` would
    // split a path at its commas.
    let order = PathBuf::from(var("CARGO_MANIFEST_DIR")).join(ORDER);
    let ordering = [
        "-Xlinker".to_string(),
        format!("--symbol-ordering-file={}", order.display()),
        "-Xlinker".into(),
        "--no-warn-symbol-ordering".into(),
    ];
    if order.exists() && links_with(&ordering) {
        args.extend(ordering);
    }
    for arg in args {
        println!("cargo:rustc-link-arg-bins={arg}");
    }
    true
}

/// Whether the linker rustc runs here takes `args`, tried on an empty program with
/// the flags and linker cargo gives this build: which linker that is (rustc's own
/// lld, the default of rust-lang's builds for x86_64 Linux from 1.90; GNU ld, a
/// distribution's rustc's and other targets' usual linker, which knows no symbol
/// ordering) cannot be told from outside. Not seen: flags given to `cargo rustc
/// -- …` (PLAN_DYNAMIC=1 there, or RUSTFLAGS), and a linker named in cargo's
/// settings after this script last ran (`cargo clean -p plan --release` then).
fn links_with(args: &[String]) -> bool {
    let out = PathBuf::from(var("OUT_DIR")).join("probe");
    let src = out.join("probe.rs");
    // A doc line: `-D missing_docs` in the flags checks a binary's root too.
    if std::fs::create_dir_all(&out).is_err()
        || std::fs::write(
            &src,
            "//! Does the linker take plan's link arguments?\nfn main() {}\n",
        )
        .is_err()
    {
        return false;
    }
    let rustc = var("RUSTC");
    let mut probe = Command::new(if rustc.is_empty() { "rustc" } else { &rustc });
    probe.arg(&src).arg("-o").arg(out.join("probe"));
    // Where cargo puts it: before the flags, so a linker in them wins, as there.
    if let Some(linker) = std::env::var_os("RUSTC_LINKER") {
        let mut flag = std::ffi::OsString::from("-Clinker=");
        flag.push(linker);
        probe.arg(flag);
    }
    probe.args(
        var("CARGO_ENCODED_RUSTFLAGS")
            .split('\x1f')
            .filter(|f| !f.is_empty()),
    );
    // Linked even where the flags ask rustc for other output.
    probe.arg("--emit=link");
    for arg in args {
        probe.arg(format!("-Clink-arg={arg}"));
    }
    let linked = probe
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    let _ = std::fs::remove_dir_all(&out);
    linked
}

/// What cargo set `name` to, or nothing.
fn var(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}

/// Fills `dir` with a link to each static archive, and an empty `libgcc_s.a`; `None`
/// when an archive is not installed.
fn shadow(dir: &Path) -> Option<()> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).ok()?;
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    for lib in LIBS.iter().chain(&["gcc_eh"]) {
        let name = format!("lib{lib}.a");
        let out = Command::new(&cc)
            .arg(format!("-print-file-name={name}"))
            .output()
            .ok()?;
        let found = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
        // A file not found is printed back as its bare name.
        if !out.status.success() || !found.is_absolute() || !found.exists() {
            return None;
        }
        if *lib != "gcc_eh" {
            std::os::unix::fs::symlink(&found, dir.join(&name)).ok()?;
        }
    }
    std::fs::write(dir.join("libgcc_s.a"), "!<arch>\n").ok()?;
    Some(())
}
