#!/bin/bash
# nook-exec: descriptors the caller leaves open do not reach the payload, which gets 0,
# 1 and 2 only -- not even a directory fd on a host dir the sandbox does not bind (a way
# out of the sandbox through /proc/self/fd/N/). Control: plain bwrap passes the same fds
# on, and a file is readable through the directory fd.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"

hostdir=$(mktemp -d "$T/hostdir.XXXXXX")
secret="secret $$ $RANDOM"
printf '%s\n' "$secret" >"$hostdir/secret"

# The probe: every fd of `ls` but the one it reads /proc/self/fd through, "N -> TARGET";
# then whether fd 7 leads to the host dir.
# shellcheck disable=SC2016 # expanded inside the sandbox
probe='ls -l /proc/self/fd | sed -n "s/.* \([0-9][0-9]*\) -> \(.*\)/\1 -> \2/p" |
    grep -Ev "^[0-9]+ -> /proc/[0-9]+/fd\$"
if [ -e /proc/self/fd/7/ ]; then echo "fd7: dir"; else echo "fd7: none"; fi
if cat /proc/self/fd/7/secret 2>/dev/null; then echo "fd7: read"; else echo "fd7: unreadable"; fi'

# with_fds CMD...: runs CMD bounded, with fds 3, 4, 5, 7, 9 and 20 on the host dir, 8 on
# a file in it and 12 open for writing; $OUT, $ERR, $RC
with_fds() {
    RC=0
    timeout -k 5 "$SANDBOX_TIMEOUT" "$@" 3<"$hostdir" 4<"$hostdir" 5<"$hostdir" 7<"$hostdir" \
        8<"$hostdir/secret" 9<"$hostdir" 12>>"$T/fd12" 20<"$hostdir" \
        </dev/null >"$OUT" 2>"$ERR" || RC=$?
}

mkplan fds <<'EOF'
unshare:
  pid: true
  user: true
  network: true
EOF
with_fds "$NOOK_EXEC" "$T/fds.json" -- sh -c "$probe"
assert_status 0 "the fd probe exits 0 inside"
fds=$(grep -Eo '^[0-9]+' "$OUT" | sort -n | tr '\n' ' ')
assert_eq "0 1 2 " "$fds" "the payload has fds 0, 1 and 2 only (besides ls's own)"
assert_grep '^fd7: none$' "$OUT" "/proc/self/fd/7/ does not exist inside"
assert_grep '^fd7: unreadable$' "$OUT" "the host file is not readable through /proc/self/fd/7/secret"
assert_no_grep "$secret" "$OUT" "the host file's content does not show inside"

# ---- control: plain bwrap passes the caller's fds on
with_fds "$BWRAP" --ro-bind / / --proc /proc --dev /dev --tmpfs /tmp --unshare-pid \
    --unshare-user --unshare-net -- sh -c "$probe"
assert_status 0 "control: the fd probe exits 0 in plain bwrap"
missing=
for fd in 3 4 5 7 8 9 12 20; do
    grep -Eq "^$fd -> " "$OUT" || missing="$missing $fd"
done
# (it may show more: whatever else the test's shell has open)
assert_empty_str "$missing" "control: plain bwrap passes fds 3 4 5 7 8 9 12 20 on"
assert_grep '^fd7: dir$' "$OUT" "control: /proc/self/fd/7/ exists in plain bwrap"
assert_grep "^$secret\$" "$OUT" "control: plain bwrap: the host file is readable through fd 7"

finish
