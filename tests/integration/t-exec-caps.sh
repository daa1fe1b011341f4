#!/bin/bash
# nook-exec: the payload has no capabilities (CapInh, CapPrm, CapEff, CapAmb all zero) as
# root and as nobody, with and without a user namespace. Controls: the same nook-exec
# with `capabilities: keep: [ALL]` shows them; as root, plain bwrap without --cap-drop
# shows them too.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"

zero=0000000000000000
cap() { sed -n "s/^$1:[[:space:]]*//p" "$OUT"; }
probe=(grep -E '^Cap' /proc/self/status)

check_zero() { # check_zero LABEL
    local c
    assert_status 0 "$1: reading /proc/self/status exits 0"
    for c in CapInh CapPrm CapEff CapAmb; do
        assert_eq "$zero" "$(cap $c)" "$1: $c is 0"
    done
}

if compile_plan "$NOOK_PROFILES/default.yaml" "$T/default.json"; then
    nx "$T/default.json" -- "${probe[@]}"
    check_zero "default profile"
fi
mkplan nouserns <<'EOF'
unshare:
  pid: true
  network: true
EOF
nx "$T/nouserns.json" -- "${probe[@]}"
check_zero "no user namespace"

# ---- controls
mkplan keepall <<'EOF'
capabilities:
  keep: [ALL]
unshare:
  pid: true
  user: true
  network: true
EOF
nx "$T/keepall.json" -- "${probe[@]}"
assert_status 0 "control: keep [ALL]: reading /proc/self/status exits 0"
assert_ne "$zero" "$(cap CapEff)" "control: with keep [ALL] CapEff is non-zero ($(cap CapEff))"
if [ "$(id -u)" -eq 0 ]; then
    bwrap_plain --ro-bind / / --unshare-pid --proc /proc --dev /dev -- "${probe[@]}"
    assert_status 0 "control: plain bwrap as root runs the probe"
    assert_ne "$zero" "$(cap CapEff)" \
        "control: plain bwrap as root without --cap-drop has CapEff $(cap CapEff)"
fi

finish
