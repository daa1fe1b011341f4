#!/bin/bash
# nook-exec, the namespaces, each seen from inside: with unshare.network only `lo` is in
# /proc/net/dev; with unshare.pid a host process is not in /proc; the profile's hostname
# is the hostname. Controls: the same probes without the namespace see the host's
# interfaces, the host's process and the host's name.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"

# ---- network
# shellcheck disable=SC2016 # a sed script
ifaces='sed -n "s/^ *\([^ :]*\):.*/\1/p" /proc/net/dev | sort'
host_ifaces=$(sh -c "$ifaces")
mkplan net <<'EOF'
unshare:
  pid: true
  user: true
  network: true
EOF
mkplan nonet <<'EOF'
unshare:
  pid: true
  user: true
EOF
nx "$T/net.json" -- sh -c "$ifaces"
assert_status 0 "network: reading /proc/net/dev inside exits 0"
assert_eq lo "$(cat "$OUT")" "network: true: /proc/net/dev inside lists only lo"
nx "$T/nonet.json" -- sh -c "$ifaces"
assert_status 0 "control: without network, reading /proc/net/dev inside exits 0"
if [ "$host_ifaces" = lo ]; then
    skip "control: without network the host's interfaces show inside" \
        "the host has no interface but lo"
else
    assert_eq "$host_ifaces" "$(cat "$OUT")" \
        "control: without network the host's interfaces show inside (${host_ifaces//$'\n'/ })"
fi

# ---- pid
m=$(mark 1)
track_marker "sleep 30 $m"
(sleep 30 "$m" >/dev/null 2>&1 &) # not our job: no "Killed" notice later
if wait_marker "sleep 30 $m"; then
    ok "control: the host scan finds the host's marked sleep"
else
    not_ok "control: the host scan finds the host's marked sleep"
fi
mkplan pid <<'EOF'
unshare:
  pid: true
  user: true
  network: true
EOF
mkplan nopid <<'EOF'
unshare:
  user: true
  network: true
EOF
nx "$T/pid.json" -- bash -c "$SCAN_PROBE" scan "sleep 30 $m"
assert_status 0 "pid: the scan inside exits 0"
assert_empty_str "$(cat "$OUT")" "pid: true: the host's marked sleep is not in /proc inside"
# shellcheck disable=SC2016 # expanded inside the sandbox
count='n=0; for p in /proc/[0-9]*; do n=$((n + 1)); done; echo $n'
nx "$T/pid.json" -- sh -c "$count"
n_in=$(cat "$OUT")
if [ "$n_in" -le 3 ]; then ok "pid: true: /proc inside holds 3 processes at most ($n_in)"; else
    not_ok "pid: true: /proc inside holds 3 processes at most" "$(show_run)"
fi
nx "$T/nopid.json" -- bash -c "$SCAN_PROBE" scan "sleep 30 $m"
assert_status 0 "control: without pid, the scan inside exits 0"
assert_nonempty_str "$(cat "$OUT")" "control: without pid the host's marked sleep is in /proc inside"
nx "$T/nopid.json" -- sh -c "$count"
if [ "$(cat "$OUT")" -gt 3 ]; then ok "control: without pid, /proc inside holds more ($(cat "$OUT"))"; else
    not_ok "control: without pid, /proc inside holds more" "$(show_run)"
fi
kill_marker "sleep 30 $m"

# ---- hostname
name=nook-h$$x$RANDOM
host_name=$(uname -n)
mkplan host <<EOF
unshare:
  pid: true
  user: true
  network: true
hostname: $name
EOF
mkplan nohost <<'EOF'
unshare:
  pid: true
  user: true
EOF
nx "$T/host.json" -- sh -c 'uname -n; cat /proc/sys/kernel/hostname'
assert_status 0 "hostname: the probe exits 0"
printf '%s\n%s\n' "$name" "$name" | assert_file_is "$OUT" \
    "hostname: $name: uname -n and /proc/sys/kernel/hostname inside say $name"
nx "$T/nohost.json" -- uname -n
assert_eq "$host_name" "$(cat "$OUT")" "control: without hostname the host's name ($host_name) shows"
assert_ne "$name" "$(cat "$OUT")" "control: without hostname the name inside is not $name"

finish
