#!/bin/bash
# A child bind declared before its parent still shows inside: nookc sorts parents first.
# Control: plain bwrap with the two binds in the declared order hides the child.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

parent=$T/parent-src
child=$T/child-src
mkdir -p "$parent" "$child"
echo "parent-marker-$$" >"$parent/parent.marker"
echo "child-marker-$$" >"$child/child.marker"

cat >"$T/order.yaml" <<EOF
name: order-test
mounts:
  - type: ro-bind
    source: /
    target: /
  - type: dev
    target: /dev
  - type: bind
    source: "$child"
    target: /srv/x/sub
  - type: bind
    source: "$parent"
    target: /srv/x
unshare:
  pid: true
  user: true
  network: true
EOF

probe='cat /srv/x/sub/child.marker 2>/dev/null || echo "child missing"
cat /srv/x/parent.marker 2>/dev/null || echo "parent missing"'

check_order() {
    assert_status 0 "probe exits 0 via $1"
    printf 'child-marker-%s\nparent-marker-%s\n' $$ $$ |
        assert_file_is "$OUT" "the child's marker shows at /srv/x/sub and the parent's at /srv/x via $1"
}
run_both check_order "$T/order.yaml" sh -c "$probe"

# ---- control: nookc's own argv with the two binds swapped back to the declared order
args=()
nookc_argv args "$T/order.yaml" -- sh -c "$probe"
ip=-1
ic=-1
for ((i = 0; i + 2 < ${#args[@]}; i++)); do
    [ "${args[i]}" = --bind ] || continue
    [ "${args[i + 1]}" = "$parent" ] && [ "${args[i + 2]}" = /srv/x ] && ip=$i
    [ "${args[i + 1]}" = "$child" ] && [ "${args[i + 2]}" = /srv/x/sub ] && ic=$i
done
if [ $ip -ge 0 ] && [ $ic -ge 0 ]; then
    ok "argv binds the parent (at $ip) and the child (at $ic)"
    check $((ip < ic ? 0 : 1)) "argv binds the parent before the child"
    swapped=("${args[@]}")
    swapped[ip + 1]=$child
    swapped[ip + 2]=/srv/x/sub
    swapped[ic + 1]=$parent
    swapped[ic + 2]=/srv/x
    bwrap_plain "${swapped[@]}"
    assert_status 0 "control: bwrap with the declared (child-first) order runs"
    printf 'child missing\nparent-marker-%s\n' $$ |
        assert_file_is "$OUT" "control: with the declared order the parent bind hides the child's marker"
else
    not_ok "argv binds the parent (at $ip) and the child (at $ic)" "$(tr '\0' ' ' <"$T/.argv")"
fi

finish
