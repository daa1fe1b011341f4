#!/bin/bash
# tests/integration/run.sh - integration tests with real bubblewrap, TAP output.
#
# Runs every tests/integration/t-*.sh twice: as root and as the unprivileged user
# nobody (setpriv --reuid=nobody --regid=<nobody's group> --clear-groups, HOME set to
# a temp dir nobody owns). Test files print "ok - NAME" / "not ok - NAME"; this
# script numbers them continuously, appends "[root]" or "[nobody]" and ends with the
# plan line. Exit status: 0 when every test passed.
#
# Each test file gets, in a clean environment: NOOKC, NOOK_EXEC and AGENT_NOOK (absolute
# paths of the binaries), NOOK_TMP (a private temp dir under /tmp that it must remove),
# NOOK_PROFILES and NOOK_USER; it is killed after FILE_TIMEOUT seconds (default 100).
# When nobody cannot reach the checkout (e.g. it lives under /root), the binaries, the
# test files and the profiles are copied to a world-readable temp dir first. When a sandbox
# cannot be created at all (e.g. user namespaces are disabled), that is reported as
# a failing test, never skipped.
#
# BUILD names the build directory (default build/debug, relative to the repo root).
# Arguments: optional test file names (t-cli.sh ...) to run only those.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-build/debug}
case $BUILD in
/*) nookc=$BUILD/nookc ;;
*) nookc=$root/$BUILD/nookc ;;
esac
nook_exec=$(dirname "$nookc")/nook-exec
agent_nook=$(dirname "$nookc")/agent-nook
FILE_TIMEOUT=${FILE_TIMEOUT:-100}
PATH_CLEAN=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C

n=0
failed=0

emit() { # emit ok|not-ok NAME
    n=$((n + 1))
    if [ "$1" = ok ]; then
        printf 'ok %d - %s\n' "$n" "$2"
    else
        printf 'not ok %d - %s\n' "$n" "$2"
        failed=$((failed + 1))
    fi
}

comment() { printf '%s\n' "$@" | sed 's/^/# /'; }

scratch=$(mktemp -d /tmp/nook-it-run.XXXXXX)
chmod 0755 "$scratch"
cleanup() {
    chmod -R u+rwX "$scratch" 2>/dev/null
    rm -rf "$scratch"
}
trap cleanup EXIT
tpid= # the running test file's timeout(1) process
on_signal() {
    # timeout(1) passes the signal on to the test file, whose traps clean up
    if [ -n "$tpid" ]; then
        kill -TERM "$tpid" 2>/dev/null
        wait "$tpid" 2>/dev/null
    fi
    exit 130
}
trap on_signal INT TERM HUP

# ------------------------------------------------------------------ preconditions
tests=()
if [ $# -gt 0 ]; then
    for t in "$@"; do tests+=("$here/$(basename "$t")"); done
else
    for t in "$here"/t-*.sh; do [ -f "$t" ] && tests+=("$t"); done
fi
if [ ${#tests[@]} -eq 0 ]; then
    emit not-ok "integration: test files found in $here"
    echo "1..$n"
    exit 1
fi
if [ ! -x "$nookc" ]; then
    emit not-ok "integration: nookc binary exists at $nookc (run make, or set BUILD)"
    echo "1..$n"
    exit 1
fi
if [ ! -x "$nook_exec" ]; then
    emit not-ok "integration: nook-exec binary exists at $nook_exec (run make, or set BUILD)"
    echo "1..$n"
    exit 1
fi
if [ ! -x "$agent_nook" ]; then
    emit not-ok "integration: agent-nook binary exists at $agent_nook (run make, or set BUILD)"
    echo "1..$n"
    exit 1
fi
bwrap=$(command -v bwrap || true)
if [ -z "$bwrap" ]; then
    emit not-ok "integration: bwrap is installed (apt-get install bubblewrap)"
    echo "1..$n"
    exit 1
fi
comment "nookc: $nookc ($("$nookc" --version 2>&1))" \
    "nook-exec: $nook_exec ($("$nook_exec" --version 2>&1))" \
    "agent-nook: $agent_nook ($("$agent_nook" --version 2>&1))" \
    "bwrap: $bwrap ($("$bwrap" --version 2>&1))" "kernel: $(uname -r)"

# users to run as: "root" and "nobody" when run as root; otherwise the current user
users=()
if [ "$(id -u)" -eq 0 ]; then
    users=(root)
    if ! command -v setpriv >/dev/null; then
        emit not-ok "integration: setpriv is installed (util-linux), needed to run as nobody"
    elif ! id nobody >/dev/null 2>&1; then
        emit not-ok "integration: the user nobody exists"
    else
        users+=(nobody)
    fi
else
    users=("$(id -un)")
    emit ok "integration: run as root and as nobody # SKIP the runner is not root; running as $(id -un) (uid $(id -u)) only"
fi

nobody_gid=$(id -g nobody 2>/dev/null || echo 65534)
is_root=0
[ "$(id -u)" -eq 0 ] && is_root=1
# switch_to USER: whether running as USER needs setpriv (only root switches to nobody)
switch_to() { [ "$1" = nobody ] && [ $is_root = 1 ]; }
as_user() { # as_user USER CMD...
    if switch_to "$1"; then
        shift
        setpriv --reuid=nobody --regid="$nobody_gid" --clear-groups "$@"
    else
        shift
        "$@"
    fi
}

# Makes what USER needs reachable: sets u_nookc, u_nook_exec, u_agent_nook, u_dir (test
# files) and u_profiles.
stage_for() {
    local user=$1
    u_nookc=$nookc
    u_nook_exec=$nook_exec
    u_agent_nook=$agent_nook
    u_dir=$here
    u_profiles=$root/profiles
    switch_to "$user" || return 0
    if as_user nobody test -x "$nookc" -a -x "$nook_exec" -a -x "$agent_nook" \
        -a -r "$here/lib.sh" -a -r "$root/profiles/default.yaml" \
        && as_user nobody "$nookc" --version >/dev/null 2>&1 \
        && as_user nobody "$nook_exec" --version >/dev/null 2>&1 \
        && as_user nobody "$agent_nook" --version >/dev/null 2>&1; then
        return 0
    fi
    comment "the checkout is not reachable by nobody;" \
        "copying nookc, nook-exec, agent-nook, tests and profiles to $scratch/stage"
    mkdir -p "$scratch/stage/bin" "$scratch/stage/tests" "$scratch/stage/profiles"
    install -m 0755 "$nookc" "$scratch/stage/bin/nookc"
    install -m 0755 "$nook_exec" "$scratch/stage/bin/nook-exec"
    install -m 0755 "$agent_nook" "$scratch/stage/bin/agent-nook"
    cp "$here"/*.sh "$scratch/stage/tests/"
    cp "$root"/profiles/*.yaml "$scratch/stage/profiles/"
    chmod -R a+rX "$scratch/stage"
    u_nookc=$scratch/stage/bin/nookc
    u_nook_exec=$scratch/stage/bin/nook-exec
    u_agent_nook=$scratch/stage/bin/agent-nook
    u_dir=$scratch/stage/tests
    u_profiles=$scratch/stage/profiles
}

# Runs one test file as USER and copies its TAP output, renumbered.
run_file() {
    local user=$1 file=$2 name
    name=$(basename "$file")
    local tmp home out rc=0
    tmp=$(mktemp -d /tmp/nook-it.XXXXXX)
    home=$(mktemp -d "$scratch/home.XXXXXX")
    out=$scratch/out
    if switch_to "$user"; then
        chown nobody:"$nobody_gid" "$tmp" "$home"
    fi
    chmod 0700 "$tmp" "$home"
    local pre=()
    switch_to "$user" && pre=(setpriv --reuid=nobody --regid="$nobody_gid" --clear-groups)
    (cd "$tmp" && exec timeout -k 5 "$FILE_TIMEOUT" "${pre[@]}" env -i PATH="$PATH_CLEAN" \
        HOME="$home" LC_ALL=C TERM=dumb USER="$user" LOGNAME="$user" NOOKC="$u_nookc" \
        NOOK_EXEC="$u_nook_exec" AGENT_NOOK="$u_agent_nook" NOOK_TMP="$tmp" \
        NOOK_PROFILES="$u_profiles" NOOK_USER="$user" bash "$u_dir/$name") >"$out" 2>&1 </dev/null &
    tpid=$!
    wait "$tpid" || rc=$?
    tpid=
    local count=0 fails=0 line desc
    while IFS= read -r line || [ -n "$line" ]; do
        case $line in
        "ok "* | "not ok "* | ok | "not ok")
            local st=ok
            case $line in "not ok"*) st=not-ok ;; esac
            desc=${line#not ok}
            desc=${desc#ok}
            desc=${desc# }
            desc=$(printf '%s' "$desc" | sed -E 's/^[0-9]+ *//; s/^- //')
            # keep a TAP directive (# SKIP / # TODO) after the user tag
            local directive=
            case $desc in *" # SKIP"* | *" # TODO"*)
                directive=" #${desc#* #}"
                desc=${desc%% #*}
                ;;
            esac
            count=$((count + 1))
            [ $st = ok ] || fails=$((fails + 1))
            emit $st "${name%.sh}: $desc [$user]$directive"
            ;;
        "#"*) printf '%s\n' "$line" ;;
        "") ;;
        *) printf '# %s\n' "$line" ;;
        esac
    done <"$out"
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        emit not-ok "${name%.sh}: finished within ${FILE_TIMEOUT}s [$user]"
    elif [ $count -eq 0 ]; then
        emit not-ok "${name%.sh}: ran at least one test (exit status $rc) [$user]"
    elif [ $rc -ne 0 ] && [ $fails -eq 0 ]; then
        emit not-ok "${name%.sh}: exited with status $rc without a failing test [$user]"
    fi
    if [ -e "$tmp" ]; then
        emit not-ok "${name%.sh}: removed its temp dir $tmp [$user]"
        chmod -R u+rwX "$tmp" 2>/dev/null
        rm -rf "$tmp"
    fi
    rm -rf "$home"
}

start=$(date +%s)
for user in "${users[@]}"; do
    comment "---- as $user"
    stage_for "$user"
    # Can bubblewrap create a sandbox at all as this user? If not, say why, loudly.
    if ! err=$(cd / && as_user "$user" timeout 30 "$bwrap" --ro-bind / / --unshare-user --unshare-pid \
        --proc /proc --dev /dev true 2>&1 </dev/null); then
        emit not-ok "integration: bwrap can create a sandbox as $user [$user]"
        comment "bwrap failed: $err"
        if [ "$(as_user "$user" id -u)" -ne 0 ]; then
            comment "user namespaces for unprivileged users are probably disabled:" \
                "  sysctl user.max_user_namespaces=$(cat /proc/sys/user/max_user_namespaces 2>/dev/null)" \
                "  sysctl kernel.unprivileged_userns_clone=$(cat /proc/sys/kernel/unprivileged_userns_clone 2>/dev/null || echo n/a)" \
                "  kernel.apparmor_restrict_unprivileged_userns=$(cat /proc/sys/kernel/apparmor_restrict_unprivileged_userns 2>/dev/null || echo n/a)" \
                "the tests cannot run as $user; this is a failure, not a skip"
        fi
        continue
    fi
    emit ok "integration: bwrap can create a sandbox as $user [$user]"
    for t in "${tests[@]}"; do
        if [ ! -f "$t" ]; then
            emit not-ok "$(basename "$t"): test file exists [$user]"
            continue
        fi
        run_file "$user" "$t"
    done
done
comment "integration run time: $(($(date +%s) - start))s"
echo "1..$n"
[ $failed -eq 0 ]
