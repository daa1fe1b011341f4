#!/bin/bash
# The shipped profiles/default.yaml: runs a command, sets the hostname, hides the host /tmp.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

P=$NOOK_PROFILES/default.yaml

RC=0
"$NOOKC" "$P" --check >"$OUT" 2>"$ERR" || RC=$?
assert_status 0 "default.yaml passes --check"

# ---- a command runs, stdout byte-exact
check_hello() {
    assert_status 0 "echo exits 0 via $1"
    printf 'hello from sandbox\n' | assert_file_is "$OUT" "stdout is exactly 'hello from sandbox' via $1"
}
run_both check_hello "$P" echo hello from sandbox

# ---- hostname (I07)
host_name=$(uname -n)
check_hostname() {
    assert_status 0 "uname -n exits 0 via $1"
    printf 'agent-sandbox\n' | assert_file_is "$OUT" "hostname inside is agent-sandbox via $1"
}
run_both check_hostname "$P" uname -n
assert_eq "$host_name" "$(uname -n)" "host hostname unchanged after the runs"
# controls: the probe can tell the names apart, and without a uts namespace it shows the host's
assert_ne agent-sandbox "$host_name" "control: the host hostname ('$host_name') differs from agent-sandbox"
bwrap_plain --ro-bind / / uname -n
printf '%s\n' "$host_name" | assert_file_is "$OUT" "control: plain bwrap without --unshare-uts shows the host hostname"

# ---- a host file under /tmp is invisible (I01); default.yaml has a tmpfs on /tmp
canary_dir=$(mktemp -d "$T/canary.XXXXXX") # a fresh dir under /tmp on the host
canary=$canary_dir/canary
echo "canary $$" >"$canary"
probe='for p in "$@"; do if [ -e "$p" ]; then echo "visible $p"; else echo "absent $p"; fi; done
cat "$1" 2>&1 || true'
check_canary() {
    assert_status 0 "canary probe exits 0 via $1"
    assert_grep "^absent $canary\$" "$OUT" "host canary file is invisible inside via $1"
    assert_grep "^absent $canary_dir\$" "$OUT" "host canary dir is invisible inside via $1"
    assert_grep "No such file or directory" "$OUT" "reading the canary fails with ENOENT via $1"
    assert_no_grep "^canary" "$OUT" "the canary's content does not leak via $1"
}
run_both check_canary "$P" sh -c "$probe" probe "$canary" "$canary_dir"
# controls: visible on the host, and visible to the same probe in a sandbox without the tmpfs
assert_eq "canary $$" "$(cat "$canary")" "control: the canary is readable on the host"
bwrap_plain --ro-bind / / sh -c "$probe" probe "$canary" "$canary_dir"
assert_grep "^visible $canary\$" "$OUT" "control: the probe sees the canary in plain bwrap with / bound"
assert_grep "^canary $$\$" "$OUT" "control: the probe reads the canary in plain bwrap with / bound"

finish
