#!/bin/bash
# A plan file nook-exec must not read: a symbolic link, a directory, a FIFO (without
# waiting for a writer), a file over 1 MiB, a missing file, an unreadable file. Each is
# exit 125 with one "nook-exec: error:" line naming the file, nothing on stdout, and
# bwrap is never started: NOOK_BWRAP names a stub that leaves a mark whenever it runs.
# Controls: the same plan by its real path does start the stub; a plan of exactly 1 MiB
# runs. (The JSON-level cases are tests/golden/plans/.)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"

mkdir "$T/stub"
stub=$T/stub/bwrap
stub_mark=$T/stub.mark
printf '#!/bin/sh\necho "$*" >>"%s"\nexit 0\n' "$stub_mark" >"$stub"
chmod 0755 "$stub"

mkplan good <<'EOF'
unshare:
  pid: true
  user: true
  network: true
EOF
plan=$T/good.json

# refused NAME PATH MESSAGE: nook-exec PATH -- true with the stub bwrap gives 125, exactly
# "nook-exec: error: MESSAGE" on stderr, nothing on stdout, and the stub did not run
refused() {
    local name=$1 path=$2 msg=$3
    rm -f "$stub_mark"
    NOOK_BWRAP=$stub nx "$path" -- true
    assert_status 125 "$name: exit 125"
    printf 'nook-exec: error: %s\n' "$msg" | assert_file_is "$ERR" "$name: the message"
    assert_eq "" "$(cat "$OUT")" "$name: nothing on stdout"
    assert_absent "$stub_mark" "$name: bwrap is not started"
}

ln -s "$plan" "$T/link.json"
refused "a symlink to a good plan" "$T/link.json" "cannot open '$T/link.json': is a symbolic link"
mkdir "$T/dir.json"
refused "a directory" "$T/dir.json" "cannot read '$T/dir.json': not a regular file"
mkfifo "$T/fifo.json"
t0=$(date +%s%N)
refused "a FIFO" "$T/fifo.json" "cannot read '$T/fifo.json': not a regular file"
ms=$(elapsed_ms "$t0")
if [ "$ms" -lt 5000 ]; then ok "a FIFO: refused without waiting for a writer (${ms} ms)"; else
    not_ok "a FIFO: refused without waiting for a writer" "elapsed: ${ms} ms"
fi
# a good plan padded with spaces (valid JSON) to exactly 1 MiB, and one byte more
size=$(stat -c %s "$plan")
{
    cat "$plan"
    head -c $((1048576 - size)) /dev/zero | tr '\0' ' '
} >"$T/1mib.json"
{
    cat "$T/1mib.json"
    printf ' '
} >"$T/big.json"
refused "a file of 1 MiB + 1 byte" "$T/big.json" "cannot read '$T/big.json': larger than 1048576 bytes"
refused "a missing file" "$T/missing.json" "cannot open '$T/missing.json': No such file or directory"
cp "$plan" "$T/unreadable.json"
chmod 000 "$T/unreadable.json"
if [ "$(id -u)" -ne 0 ]; then
    refused "an unreadable file" "$T/unreadable.json" \
        "cannot open '$T/unreadable.json': Permission denied"
else
    skip "an unreadable file: exit 125" "root reads mode 000 files; checked as nobody"
fi

# ---- controls
rm -f "$stub_mark"
NOOK_BWRAP=$stub nx "$plan" -- true
assert_exists "$stub_mark" "control: the good plan by its real path does start the stub bwrap"
nx "$T/1mib.json" -- true
assert_status 0 "control: a plan of exactly 1 MiB runs (exit 0)"

finish
