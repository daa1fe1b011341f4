#!/bin/bash
# agent-nook run, the namespace options, seen from inside through /proc/self/ns/* inodes
# compared with the host's, $$, and the interfaces in /proc/net/dev. On a profile that
# unshares only the user namespace: `--unshare pid uts ipc CMD` (space form) and
# `--unshare pid,ipc` (comma form) create exactly those (control: without them the
# inodes are the host's and $$ is a host pid); `--unshare-net` leaves only lo (control:
# without it the host's interfaces); `--unshare-all` creates all six; `--unshare-all
# --share-net` all but the network; `--share-net --unshare-all` all (in order). On a
# profile with network: true, `--share-net` alone keeps the host network (control:
# without it only lo).
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"
# shellcheck source-path=SCRIPTDIR source=cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

mkprofile nons <<'EOF'
unshare:
  user: true
EOF
mkprofile net <<'EOF'
unshare:
  pid: true
  user: true
  network: true
EOF
NONS=$T/nons.yaml
host_ifaces=$(sh -c "$IFACES")
all_ns=(pid uts ipc cgroup net)
declare -A HOST_NS
for ns in "${all_ns[@]}"; do HOST_NS[$ns]=$(host_ns "$ns"); done

# ns_check EXPECTED LABEL ARGS...: runs the namespace probe with `agent-nook run ARGS` and
# compares, in one test, a summary of what it saw with EXPECTED: for each of pid uts
# ipc cgroup net "NS=new" (an inode other than the host's) or "NS=host", then "$$=low"
# (at most 3) or "$$=host"; a failed run adds "status=N"
ns_check() {
    local want=$1 label=$2 k=2 ns inside got=
    shift 2
    an run "$@" sh -c "$NS_PROBE" probe "${all_ns[@]}"
    for ns in "${all_ns[@]}"; do
        inside=$(sed -n ${k}p "$OUT")
        k=$((k + 1))
        case $inside in
        "${HOST_NS[$ns]}") got+="$ns=host " ;;
        "$ns:["*) got+="$ns=new " ;;
        *) got+="$ns=? " ;;
        esac
    done
    inside=$(sed -n 1p "$OUT")
    if [ -n "$inside" ] && [ "$inside" -le 3 ] 2>/dev/null; then got+='$$=low'; else got+='$$=host'; fi
    [ "$RC" -eq 0 ] || got+=" status=$RC"
    if [ "$got" = "$want" ]; then ok "$label: $want"; else
        not_ok "$label: $want" "got: $got" "$(show_run)"
    fi
}

# ---- control: the profile alone shares everything but the user namespace
ns_check 'pid=host uts=host ipc=host cgroup=host net=host $$=host' "control: no --unshare" \
    --config "$NONS"

# ---- --unshare, both forms
ns_check 'pid=new uts=new ipc=new cgroup=host net=host $$=low' "--unshare pid uts ipc CMD" \
    --config "$NONS" --unshare pid uts ipc
ns_check 'pid=new uts=host ipc=new cgroup=host net=host $$=low' "--unshare pid,ipc" \
    --config "$NONS" --unshare pid,ipc
ns_check 'pid=host uts=new ipc=host cgroup=new net=host $$=host' "--unshare=uts,cgroup" \
    --config "$NONS" --unshare=uts,cgroup
ns_check 'pid=host uts=new ipc=new cgroup=host net=new $$=host' \
    "--unshare network (which implies uts and ipc)" --config "$NONS" --unshare network

# ---- --unshare-net
an run --config "$NONS" --unshare-net sh -c "$IFACES"
assert_out lo "--unshare-net: /proc/net/dev inside lists only lo"
an run --config "$NONS" sh -c "$IFACES"
if [ "$host_ifaces" = lo ]; then
    skip "control: without --unshare-net the host's interfaces show inside" "the host has only lo"
else
    assert_out "$host_ifaces" "control: without --unshare-net the host's interfaces show inside (${host_ifaces//$'\n'/ })"
fi
an run --unshare-net sh -c "$IFACES"
assert_out lo "--unshare-net with the default profile (network shared): only lo"

# ---- --unshare-all, --share-net
ns_check 'pid=new uts=new ipc=new cgroup=new net=new $$=low' "--unshare-all" \
    --config "$NONS" --unshare-all
ns_check 'pid=new uts=new ipc=new cgroup=new net=host $$=low' "--unshare-all --share-net" \
    --config "$NONS" --unshare-all --share-net
an run --config "$NONS" --unshare-all --share-net sh -c "$IFACES"
assert_out "$host_ifaces" "--unshare-all --share-net: the host's interfaces show inside"
ns_check 'pid=new uts=new ipc=new cgroup=new net=new $$=low' \
    "--share-net --unshare-all (in order: the network goes)" --config "$NONS" --share-net --unshare-all

# ---- --share-net alone, on a profile that unshares the network
an run --config "$T/net.yaml" sh -c "$IFACES"
assert_out lo "control: the network: true profile alone lists only lo"
an run --config "$T/net.yaml" --share-net sh -c "$IFACES"
assert_out "$host_ifaces" "--share-net on a network: true profile: the host's interfaces show inside"
ns_check 'pid=new uts=new ipc=new cgroup=host net=host $$=low' \
    "--share-net on a network: true profile (uts and ipc stay)" --config "$T/net.yaml" --share-net

finish
