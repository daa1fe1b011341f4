#!/bin/bash
# Capabilities inside are empty (I08). As root this is the property that matters: bwrap
# keeps root's capabilities unless told to drop them. Controls: plain bwrap without
# --cap-drop (root), and with --cap-add ALL in a user namespace (nobody), shows them.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

P=$NOOK_PROFILES/default.yaml
# Without a user namespace: as root, the sandbox runs with the real root's credentials.
cat >"$T/nouserns.yaml" <<'EOF'
name: caps-no-userns
mounts:
  - type: ro-bind
    source: /
    target: /
  - type: proc
    target: /proc
  - type: dev
    target: /dev
  - type: tmpfs
    target: /tmp
unshare:
  pid: true
  network: true
EOF

zero=0000000000000000
uid=$(id -u)

# cap VALUE-NAME: the value of a Cap* line of the last run's output
cap() { sed -n "s/^$1:[[:space:]]*//p" "$OUT"; }

check_caps() {
    local m="$1 ($label)" c
    assert_status 0 "reading /proc/self/status exits 0 via $m"
    for c in CapInh CapPrm CapEff CapAmb; do
        assert_eq "$zero" "$(cap "$c")" "$c is 0 via $m"
    done
    if [ "$uid" -ne 0 ]; then
        assert_eq "$zero" "$(cap CapBnd)" "CapBnd is 0 (unprivileged) via $m"
    else
        diag "CapBnd as root via $m: $(cap CapBnd) (may stay full as root on bwrap 0.8.0)"
    fi
    assert_eq 1 "$(sed -n 's/^NoNewPrivs:[[:space:]]*//p' "$OUT")" "NoNewPrivs is 1 via $m"
}
label=default.yaml
run_both check_caps "$P" grep -E '^(Cap|NoNewPrivs)' /proc/self/status
label="no user namespace"
run_both check_caps "$T/nouserns.yaml" grep -E '^(Cap|NoNewPrivs)' /proc/self/status

# ---- controls: the probe does see capabilities when they are there
if [ "$uid" -eq 0 ]; then
    bwrap_plain --ro-bind / / --unshare-pid --proc /proc grep -E '^Cap' /proc/self/status
    assert_status 0 "control: plain bwrap as root runs the probe"
    assert_ne "$zero" "$(cap CapEff)" "control: plain bwrap as root without --cap-drop has CapEff $(cap CapEff)"
else
    bwrap_plain --ro-bind / / --unshare-user --uid 0 --cap-add ALL --unshare-pid --proc /proc \
        grep -E '^Cap' /proc/self/status
    assert_status 0 "control: plain bwrap --cap-add ALL in a user namespace runs the probe"
    assert_ne "$zero" "$(cap CapEff)" "control: with --cap-add ALL CapEff is non-zero ($(cap CapEff))"
fi

finish
