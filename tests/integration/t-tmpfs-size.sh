#!/bin/bash
# tmpfs `size: 1M` gives a 1 MiB filesystem inside; control: an unsized tmpfs is larger.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

cat >"$T/size.yaml" <<'EOF'
name: tmpfs-size-test
mounts:
  - type: ro-bind
    source: /
    target: /
  - type: dev
    target: /dev
  - type: tmpfs
    target: /tmp
  - type: tmpfs
    target: /tmp/small
    size: 1M
  - type: tmpfs
    target: /tmp/big
unshare:
  pid: true
  user: true
  network: true
EOF

# For each dir: "total DIR BYTES" from stat -f (block size x blocks), "df DIR BYTES" from
# df, then the result of writing 2 MiB and 512 KiB.
probe='for d in /tmp/small /tmp/big; do
    set -- $(stat -f -c "%S %b" "$d")
    echo "total $d $(($1 * $2))"
    echo "df $d $(df -B1 --output=size "$d" | tail -n 1 | tr -d " ")"
    if err=$(head -c 2097152 /dev/zero 2>&1 >"$d/two-mib"); then
        echo "write2M $d ok"
    else
        case $err in *"No space left on device"*) echo "write2M $d ENOSPC" ;; *) echo "write2M $d other: $err" ;; esac
    fi
    rm -f "$d/two-mib"
    if head -c 524288 /dev/zero >"$d/half-mib"; then echo "write512K $d ok"; else echo "write512K $d failed"; fi
done'

check_size() {
    local m=$1 big
    assert_status 0 "probe exits 0 via $m"
    assert_grep '^total /tmp/small 1048576$' "$OUT" "size 1M: stat -f reports exactly 1048576 bytes via $m"
    assert_grep '^df /tmp/small 1048576$' "$OUT" "size 1M: df reports exactly 1048576 bytes via $m"
    assert_grep '^write2M /tmp/small ENOSPC$' "$OUT" "size 1M: writing 2 MiB fails with ENOSPC via $m"
    assert_grep '^write512K /tmp/small ok$' "$OUT" "size 1M: writing 512 KiB succeeds via $m"
    # control: the same probe on an unsized tmpfs
    big=$(sed -n 's#^total /tmp/big ##p' "$OUT")
    if [ -n "$big" ] && [ "$big" -gt 1048576 ]; then
        ok "control: an unsized tmpfs reports more ($big bytes) via $m"
    else
        not_ok "control: an unsized tmpfs reports more via $m" "$(show_run)"
    fi
    assert_grep '^write2M /tmp/big ok$' "$OUT" "control: writing 2 MiB to an unsized tmpfs succeeds via $m"
}
run_both check_size "$T/size.yaml" sh -c "$probe"

# the size reaches bwrap as bytes
args=()
nookc_argv args "$T/size.yaml" -- true
found=1
for ((i = 0; i + 3 < ${#args[@]}; i++)); do
    if [ "${args[i]}" = --size ] && [ "${args[i + 1]}" = 1048576 ] &&
        [ "${args[i + 2]}" = --tmpfs ] && [ "${args[i + 3]}" = /tmp/small ]; then
        found=0
    fi
done
check $found "argv has --size 1048576 --tmpfs /tmp/small" "$(tr '\0' ' ' <"$T/.argv")"

finish
