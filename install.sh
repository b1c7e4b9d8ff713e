#!/bin/sh
# Installs plan's prebuilt binary from a release archive, checked against its sha256
# checksum (README, "Install"):
#
#   curl -fsSL https://raw.githubusercontent.com/plan-cli/plan/main/install.sh | sh
#
# PLAN_INSTALL_DIR   where the binary goes (default ~/.local/bin)
# PLAN_INSTALL_FROM  a directory holding the archives and their checksums
#                    (scripts/dist's dist/, or a release's files); nothing is downloaded
# PLAN_INSTALL_REPO  the GitHub repository whose latest release to take
#                    (default plan-cli/plan)
#
# The archive for this machine is the one SHA256SUMS (or, in a directory without it,
# a *.sha256 file) lists for its Rust target. An archive that does not match its
# checksum, or whose binary does not run here, installs nothing and exits 1.
set -eu

repo=${PLAN_INSTALL_REPO:-plan-cli/plan}
from=${PLAN_INSTALL_FROM:-}
dir=${PLAN_INSTALL_DIR:-${HOME:?HOME is not set}/.local/bin}

die() {
    printf 'install.sh: %s\n' "$1" >&2
    [ -z "${2:-}" ] || printf '  hint: %s\n' "$2" >&2
    exit 1
}
other_ways="build it from source: git clone https://github.com/$repo && cd plan && cargo install --locked --path . (Rust 1.89 or later; about 7 minutes on 2 cores)"

# The Rust target of this machine, as the archives are named. Linux binaries are
# linked statically, so the gnu one runs on musl systems too.
case $(uname -m) in
    x86_64 | amd64) cpu=x86_64 ;;
    aarch64 | arm64) cpu=aarch64 ;;
    *) die "no prebuilt plan for the $(uname -m) processor" "$other_ways" ;;
esac
case $(uname -s) in
    Linux) target=$cpu-unknown-linux-gnu ;;
    Darwin) target=$cpu-apple-darwin ;;
    *) die "install.sh installs on Linux and macOS, not $(uname -s)" "$other_ways" ;;
esac

sha256() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d' ' -f1
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 "$1" | cut -d' ' -f1
    else
        die "neither sha256sum nor shasum is installed, so the download cannot be checked; nothing installed" "install coreutils (sha256sum) or perl (shasum)"
    fi
}

# Downloads $1 to $2: status 0, 4 when the server answers 404 (no release is
# published there), 1 for anything else.
fetch() {
    if command -v curl >/dev/null 2>&1; then
        code=$(curl -sSL --proto '=https' -o "$2" -w '%{http_code}' "$1") || return 1
        case $code in
            2??) return 0 ;;
            404) return 4 ;;
            *) return 1 ;;
        esac
    elif command -v wget >/dev/null 2>&1; then
        wget -q -O "$2" "$1" && return 0
        # 8: the server answered with an error; wget does not say which.
        [ "$?" = 8 ] && return 4
        return 1
    else
        die "neither curl nor wget is installed" "install one, or set PLAN_INSTALL_FROM to a directory holding the release files"
    fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/plan-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

if [ -n "$from" ]; then
    [ -d "$from" ] || die "PLAN_INSTALL_FROM=$from is not a directory"
    where=$from
    if [ -f "$from/SHA256SUMS" ]; then
        cp "$from/SHA256SUMS" "$tmp/sums"
    else
        cat "$from"/*.sha256 >"$tmp/sums" 2>/dev/null || : >"$tmp/sums"
    fi
else
    base=https://github.com/$repo/releases/latest/download
    where="the latest release of $repo"
    status=0
    fetch "$base/SHA256SUMS" "$tmp/sums" || status=$?
    case $status in
        0) ;;
        4) die "no release of plan is published yet ($base/SHA256SUMS is not there)" "$other_ways" ;;
        *) die "cannot download $base/SHA256SUMS" "check the network, or set PLAN_INSTALL_FROM to a directory holding the release files" ;;
    esac
fi

line=$(grep "^[0-9a-f]\{64\}  plan-[^ ]*-$target\.tar\.gz\$" "$tmp/sums" | head -n 1 || :)
[ -n "$line" ] || die "no plan archive for $target in $where" "$other_ways"
want=${line%%  *}
name=${line#*  }

if [ -n "$from" ]; then
    [ -f "$from/$name" ] || die "$name is listed in $from's checksums, but not there"
    cp "$from/$name" "$tmp/$name"
else
    fetch "$base/$name" "$tmp/$name" || die "cannot download $base/$name" "check the network, and try again"
fi

got=$(sha256 "$tmp/$name")
[ "$got" = "$want" ] ||
    die "$name does not match its checksum (sha256 $got, expected $want); nothing installed" "download it again; if it still differs, do not use it"

(cd "$tmp" && tar -xzf "$name") || die "cannot unpack $name; nothing installed"
bin=$tmp/${name%.tar.gz}/plan
[ -f "$bin" ] || die "$name holds no plan binary; nothing installed"
version=$("$bin" --version 2>/dev/null) ||
    die "the plan binary of $name does not run on this machine; nothing installed" "$other_ways"

mkdir -p "$dir" || die "cannot create $dir" "set PLAN_INSTALL_DIR to a directory you can write"
# Copied beside, then renamed: a plan already there is replaced whole or not at all.
cp "$bin" "$dir/.plan.install.$$" && chmod 755 "$dir/.plan.install.$$" &&
    mv -f "$dir/.plan.install.$$" "$dir/plan" ||
    { rm -f "$dir/.plan.install.$$"; die "cannot write $dir/plan" "set PLAN_INSTALL_DIR to a directory you can write"; }

echo "installed $version as $dir/plan"
case ":${PATH:-}:" in
    *":$dir:"* | *":$dir/:"*) ;;
    *) printf '%s is not on PATH; add it, e.g. in ~/.profile:\n  export PATH="%s:$PATH"\n' "$dir" "$dir" ;;
esac
