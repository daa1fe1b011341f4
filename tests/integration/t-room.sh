#!/bin/bash
# The original agent-nook README case: `ro-bind / /` plus `bind HOSTDIR:/sandbox/data`
# where /sandbox does not exist on the host. nookc makes room for the mount point; /
# and /usr stay read-only. Control: plain bwrap cannot create /sandbox/data on the
# read-only root and fails.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

room=/sandbox
if [ -e "$room" ] || [ -L "$room" ]; then
    room=/nook-it-room-$$-$RANDOM
    diag "/sandbox exists on this host; using $room instead"
fi
target=$room/data
hostdir=$T/hostdir
mkdir "$hostdir"
echo "room-marker-$$" >"$hostdir/marker"

cat >"$T/room.yaml" <<EOF
name: room-test
mounts:
  - type: ro-bind
    source: /
    target: /
  - type: bind
    source: "$hostdir"
    target: $target
unshare:
  pid: true
  user: true
  network: true
EOF

# Each line: "NAME: ok" / "NAME: EROFS" / "NAME: other: MESSAGE"
probe='t=$1 r=$2
try() {
    name=$1
    shift
    if err=$("$@" 2>&1); then
        echo "$name: ok"
    else
        case $err in
        *"Read-only file system"*) echo "$name: EROFS" ;;
        *) echo "$name: other: $err" ;;
        esac
    fi
}
echo "marker: $(cat "$t/marker")"
try write-data sh -c "echo from-inside >\"\$1\"" sh "$t/written"
try touch-root touch /nook-it-newfile
try mkdir-root mkdir /nook-it-newdir
try touch-usr touch /usr/nook-it-newfile
try touch-room touch "$r/nook-it-newfile"
'

check_room() {
    local m=$1
    assert_status 0 "the sandbox starts with $target under a read-only / via $m"
    assert_grep "^marker: room-marker-$$\$" "$OUT" "$target shows the host dir's marker via $m"
    assert_grep '^write-data: ok$' "$OUT" "$target is writable via $m"
    assert_eq from-inside "$(cat "$hostdir/written" 2>/dev/null)" "the write inside reaches the host dir via $m"
    rm -f "$hostdir/written"
    assert_grep '^touch-root: EROFS$' "$OUT" "touch /newfile fails with EROFS via $m"
    assert_grep '^mkdir-root: EROFS$' "$OUT" "mkdir /newdir fails with EROFS via $m"
    assert_grep '^touch-usr: EROFS$' "$OUT" "/usr stays read-only via $m"
    assert_grep '^touch-room: EROFS$' "$OUT" "$room itself is read-only via $m"
}
run_both check_room "$T/room.yaml" sh -c "$probe" probe "$target" "$room"
assert_absent "$room" "$room was not created on the host"
assert_absent /nook-it-newfile "no /nook-it-newfile on the host"

# ---- control: without the room, bwrap cannot create the mount point on the read-only root
bwrap_plain --ro-bind / / --bind "$hostdir" "$target" true
if [ "$RC" -ne 0 ]; then
    ok "control: plain bwrap --ro-bind / / --bind HOSTDIR $target fails (status $RC)"
else
    not_ok "control: plain bwrap --ro-bind / / --bind HOSTDIR $target fails" "$(show_run)"
fi
assert_grep 'Read-only file system' "$ERR" "control: plain bwrap reports Read-only file system"
if [ -e "$room" ]; then
    not_ok "control: plain bwrap did not create $room on the host"
    rmdir "$target" "$room" 2>/dev/null
else
    ok "control: plain bwrap did not create $room on the host"
fi

finish
