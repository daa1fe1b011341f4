#!/bin/bash
# SIGTERM, SIGINT, SIGHUP and SIGQUIT sent to nook-exec reach the payload: its trap runs
# (it writes a file into a bound host dir) and nook-exec exits with the payload's status
# (7). Control: SIGTERM sent to plain bwrap running the same payload kills bwrap (143)
# and the trap never runs.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"

data=$T/data
mkdir "$data"
mkplan sig <<EOF
  - type: bind
    source: "$data"
    target: /tmp/data
unshare:
  pid: true
  user: true
  network: true
EOF

# $1: the signal, $2: the marker of the payload's sleep
# shellcheck disable=SC2016 # expanded by the payload
payload='trap "echo trapped $1 >/tmp/data/got; exit 7" "$1"
echo ready >/tmp/data/ready
sleep 30 "$2" &
wait'

# sig_run SIG LABEL CMD...: starts CMD (nook-exec or bwrap, whose last words are the
# payload's), waits until the payload's trap is in place, sends SIG to CMD's process
# itself and waits for it; $RC
sig_run() {
    local sig=$1 label=$2
    shift 2
    rm -f "$data/ready" "$data/got"
    bg_start "$T/run.pid" "$@" || not_ok "$label: started"
    if wait_for "$data/ready"; then
        kill -"$sig" "$BG_PID"
    else
        not_ok "$label: the payload started" "$(show_run)"
    fi
    bg_wait
}

n=0
for sig in TERM INT HUP QUIT; do
    n=$((n + 1))
    m=$(mark $n)
    track_marker "sleep 30 $m"
    sig_run $sig "SIG$sig" "$NOOK_EXEC" "$T/sig.json" -- sh -c "$payload" payload $sig "$m"
    assert_status 7 "SIG$sig to nook-exec: the payload's trap status 7 is returned"
    assert_eq "trapped $sig" "$(cat "$data/got" 2>&1)" "SIG$sig to nook-exec: the payload's trap ran"
done

# ---- control: plain bwrap (the same profile's argv) killed by SIGTERM
m=$(mark 9)
track_marker "sleep 30 $m"
if nookc_argv args "$T/sig.yaml" -- sh -c "$payload" payload TERM "$m"; then
    sig_run TERM "control: plain bwrap" "$BWRAP" "${args[@]}"
    assert_status 143 "control: SIGTERM to plain bwrap: exit 143"
    sleep 0.3
    assert_absent "$data/got" "control: SIGTERM to plain bwrap: the payload's trap does not run"
else
    not_ok "control: nookc --emit argv" "$(show_file stderr "$ERR")"
fi

# ---- the payload starts with default dispositions and an empty signal mask, even when
# the caller ignores INT, QUIT and PIPE (as a script's background job does)
sigs=(grep -E '^Sig(Blk|Ign):' /proc/self/status)
ignoring() { # ignoring CMD...: runs CMD with INT, QUIT and PIPE ignored; $OUT, $ERR, $RC
    # shellcheck disable=SC2016 # $@ belongs to the inner shell
    _run sh -c 'trap "" INT QUIT PIPE; exec "$@"' sh "$@"
}
ignoring "$NOOK_EXEC" "$T/sig.json" -- "${sigs[@]}"
assert_status 0 "a caller ignoring INT QUIT PIPE: the probe exits 0"
printf 'SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n' | assert_file_is "$OUT" \
    "a caller ignoring INT QUIT PIPE: the payload has no blocked and no ignored signal"
ignoring "$BWRAP" --ro-bind / / --proc /proc --dev /dev --unshare-pid --unshare-user -- "${sigs[@]}"
assert_status 0 "control: plain bwrap: the probe exits 0"
# (the caller may ignore more, e.g. glibc's internal signals 32 and 33 in some CI runners)
ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' "$OUT")
if [ -n "$ign" ] && [ $((0x$ign & 0x1006)) -eq $((0x1006)) ]; then
    ok "control: plain bwrap passes the caller's ignored INT, QUIT and PIPE on (SigIgn has 1006)"
else
    not_ok "control: plain bwrap passes the caller's ignored INT, QUIT and PIPE on (SigIgn has 1006)" \
        "SigIgn: $ign"
fi

finish
