#!/bin/bash
# tests/golden/run.sh [--update] - golden tests for nookc, TAP output.
#
# valid/<case>/profile.yaml   compiled three ways; the outputs must equal expect.argv
#                             (one argument per line), expect.sh and expect.json
# invalid/<case>/profile.yaml must be rejected with exit 1, no stdout, and stderr equal
#                             to expect.stderr
# lint/<case>/, explain/<case>/, diff/<case>/
#                             `nookc lint|explain|diff ARGS FILES`, FILES being the
#                             lines of `files` if there is one, else profile.yaml
#                             (diff: old.yaml new.yaml); stdout must equal expect.out,
#                             stderr expect.err (empty when missing), the exit status
#                             expect.status (0 when missing). $NOOK_FIXTURE is a tree of
#                             its own there (a project with .git, a symlink, data) and
#                             $NOOK_CASE the case directory; @ROOT@ stands for the
#                             repository in expectations.
# Every profile in profiles/ must pass `nookc lint --fail-on warning`.
# Optional per case: `args` (extra nookc arguments, one per line) and `env` (extra
# environment, NAME=VALUE per line). nookc runs in the case directory under a fixed,
# minimal environment. $NOOK_FIXTURE names a small host tree made for the run; it is
# written @FIXTURE@ in expectations. --update rewrites the expectations.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
nookc="$root/${BUILD:-build/debug}/nookc"
nook_exec="$root/${BUILD:-build/debug}/nook-exec"
update=0
[ "${1:-}" = --update ] && update=1
# Under valgrind the tool wraps `env -i ...` and traces into the program: valgrind is a
# shell script, and a shell resets PWD, which ${PWD} in profiles reads.
wrap=()
[ "${VALGRIND:-0}" = 1 ] && wrap=(valgrind -q --trace-children=yes --error-exitcode=99
    --leak-check=full --errors-for-leak-kinds=definite)

fixture=$(mktemp -d /tmp/nook-golden.XXXXXX)
trap 'rm -rf "$fixture"' EXIT
# A small host tree for the room-making cases: directories, a file, a symlink.
mkdir -p "$fixture/root/etc" "$fixture/root/usr/lib" "$fixture/root/usr/share" "$fixture/root/data/sub"
echo hosts >"$fixture/root/etc/hosts"
ln -s usr/lib "$fixture/root/lib"
chmod 0750 "$fixture/root/usr/share"
chmod 0700 "$fixture/root/usr"
echo x >"$fixture/root/file"

n=0
fail=0
tap() { # tap STATUS NAME
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}

run_nookc() { # run_nookc CASEDIR OUT ERR EXTRA-ARGS... ; returns nookc's status
    local dir=$1 out=$2 err=$3
    shift 3
    local args=() envs=()
    [ -f "$dir/args" ] && mapfile -t args <"$dir/args"
    [ -f "$dir/env" ] && mapfile -t envs <"$dir/env"
    # The command (after --) must stay last.
    local pre=() post=() seen=0 a
    for a in "${args[@]}"; do
        if [ "$a" = -- ] || [ $seen = 1 ]; then seen=1; post+=("$a"); else pre+=("$a"); fi
    done
    (cd "$dir" && "${wrap[@]}" env -i HOME=/home/golden PWD=/home/golden/project \
        PATH=/usr/bin:/bin LC_ALL=C NOOK_FIXTURE="$fixture/root" "${envs[@]}" \
        "$nookc" "$@" "${pre[@]}" profile.yaml "${post[@]}" >"$out" 2>"$err")
}

# compare NAME EXPECTED ACTUAL: diff, or update
compare() {
    local name=$1 exp=$2 act=$3
    sed -i "s#$fixture/root#@FIXTURE@#g" "$act"
    if [ $update = 1 ]; then
        cp "$act" "$exp"
        tap 0 "$name (updated)"
    elif diff -u "$exp" "$act" >&2; then
        tap 0 "$name"
    else
        tap 1 "$name"
    fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$fixture" "$tmp"' EXIT

for dir in "$here"/valid/*/; do
    c=$(basename "$dir")
    run_nookc "$dir" "$tmp/argv" "$tmp/err" --emit argv
    rc=$?
    if [ $rc -ne 0 ]; then
        cat "$tmp/err" >&2
        tap 1 "valid/$c compiles (exit $rc)"
        continue
    fi
    tr '\0' '\n' <"$tmp/argv" >"$tmp/argv.txt"
    compare "valid/$c argv" "$dir/expect.argv" "$tmp/argv.txt"
    run_nookc "$dir" "$tmp/sh" "$tmp/err" --bwrap /usr/bin/bwrap
    compare "valid/$c sh" "$dir/expect.sh" "$tmp/sh"
    run_nookc "$dir" "$tmp/json" "$tmp/err" --emit json
    compare "valid/$c json" "$dir/expect.json" "$tmp/json"
    # Same profile and environment: byte-identical output.
    run_nookc "$dir" "$tmp/json2" "$tmp/err" --emit json
    # The runtime reads back exactly what the compiler wrote.
    "$nook_exec" --print-plan "$tmp/json2" >"$tmp/json3" 2>"$tmp/err"
    cmp -s "$tmp/json2" "$tmp/json3" || cat "$tmp/err" >&2
    tap $? "valid/$c plan round trip through nook-exec"
    sed -i "s#$fixture/root#@FIXTURE@#g" "$tmp/json2"
    cmp -s "$tmp/json" "$tmp/json2"
    tap $? "valid/$c deterministic"
done

for dir in "$here"/invalid/*/; do
    c=$(basename "$dir")
    rm -f "$tmp/out.sh"
    run_nookc "$dir" "$tmp/out" "$tmp/err" -o "$tmp/out.sh"
    rc=$?
    ok=0
    [ $rc -eq 1 ] || { echo "# invalid/$c: exit $rc, expected 1" >&2; ok=1; }
    [ -s "$tmp/out" ] && { echo "# invalid/$c: wrote to stdout" >&2; ok=1; }
    [ -e "$tmp/out.sh" ] && { echo "# invalid/$c: wrote the output file" >&2; ok=1; }
    tap $ok "invalid/$c rejected with exit 1 and no output"
    compare "invalid/$c stderr" "$dir/expect.stderr" "$tmp/err"
done
# plans/<case>/plan.json: nook-exec must refuse it with exit 125 and expect.stderr,
# without starting bwrap (NOOK_BWRAP points at a stub that would leave a mark).
cat >"$tmp/stub-bwrap" <<STUB
#!/bin/sh
touch "$tmp/bwrap-ran"
exit 0
STUB
chmod 0755 "$tmp/stub-bwrap"
for dir in "$here"/plans/*/; do
    c=$(basename "$dir")
    rm -f "$tmp/bwrap-ran"
    (cd "$dir" && "${wrap[@]}" env -i HOME="$tmp" PATH=/usr/bin:/bin LC_ALL=C \
        NOOK_BWRAP="$tmp/stub-bwrap" "$nook_exec" plan.json -- true >"$tmp/out" 2>"$tmp/err")
    rc=$?
    ok=0
    [ $rc -eq 125 ] || { echo "# plans/$c: exit $rc, expected 125" >&2; ok=1; }
    [ -s "$tmp/out" ] && { echo "# plans/$c: wrote to stdout" >&2; ok=1; }
    [ -e "$tmp/bwrap-ran" ] && { echo "# plans/$c: bwrap was started" >&2; ok=1; }
    tap $ok "plans/$c refused with exit 125, nothing started"
    compare "plans/$c stderr" "$dir/expect.stderr" "$tmp/err"
done

# ---- review: lint, explain, diff ----------------------------------------------------
review="$fixture/review"
mkdir -p "$review/proj/.git/hooks" "$review/proj/src" "$review/data"
echo '[core]' >"$review/proj/.git/config"
echo x >"$review/proj/file.txt"
ln -s src "$review/proj/link"
root_real=$(cd "$root" && pwd -P)

run_review() { # run_review SUBCOMMAND CASEDIR OUT ERR DEFAULT-FILES... ; returns the status
    local cmd=$1 dir=$2 out=$3 err=$4
    shift 4
    local args=() envs=() files=("$@")
    [ -f "$dir/args" ] && mapfile -t args <"$dir/args"
    [ -f "$dir/env" ] && mapfile -t envs <"$dir/env"
    [ -f "$dir/files" ] && mapfile -t files <"$dir/files"
    (cd "$dir" && "${wrap[@]}" env -i HOME=/home/golden PWD=/home/golden/project \
        PATH=/usr/bin:/bin LC_ALL=C NOOK_FIXTURE="$review" NOOK_CASE="${dir%/}" "${envs[@]}" \
        "$nookc" "$cmd" "${args[@]}" "${files[@]}" >"$out" 2>"$err")
}

# compare_review NAME EXPECTED ACTUAL [optional]: host paths replaced, then diff or update.
# An optional expectation that is missing means empty; --update writes it only when
# there is something to expect.
compare_review() {
    local name=$1 exp=$2 act=$3 optional=${4:-}
    sed -i -e "s#$review#@FIXTURE@#g" -e "s#$root_real#@ROOT@#g" -e "s#$root#@ROOT@#g" "$act"
    if [ $update = 1 ]; then
        if [ -n "$optional" ] && [ ! -s "$act" ]; then rm -f "$exp"; else cp "$act" "$exp"; fi
        tap 0 "$name (updated)"
        return
    fi
    local e=$exp
    [ -n "$optional" ] && [ ! -e "$exp" ] && e=/dev/null
    if diff -u "$e" "$act" >&2; then tap 0 "$name"; else tap 1 "$name"; fi
}

for sub in lint explain diff; do
    [ -d "$here/$sub" ] || continue
    for dir in "$here/$sub"/*/; do
        c=$(basename "$dir")
        if [ $sub = diff ]; then defaults=(old.yaml new.yaml); else defaults=(profile.yaml); fi
        run_review $sub "$dir" "$tmp/out" "$tmp/err" "${defaults[@]}"
        rc=$?
        echo $rc >"$tmp/status"
        if [ $update = 1 ]; then
            if [ $rc = 0 ]; then rm -f "$dir/expect.status"; else cp "$tmp/status" "$dir/expect.status"; fi
        else
            want=0
            [ -f "$dir/expect.status" ] && want=$(cat "$dir/expect.status")
            [ "$rc" = "$want" ] || echo "# $sub/$c: exit $rc, expected $want" >&2
            [ "$rc" = "$want" ]
            tap $? "$sub/$c exit status"
        fi
        compare_review "$sub/$c stdout" "$dir/expect.out" "$tmp/out"
        compare_review "$sub/$c stderr" "$dir/expect.err" "$tmp/err" optional
    done
done

# Every shipped profile passes its own lint (justified suppressions allowed).
for p in "$root"/profiles/*.yaml; do
    (cd "$tmp" && "${wrap[@]}" env -i HOME=/home/golden PWD=/home/golden/project \
        PATH=/usr/bin:/bin LC_ALL=C "$nookc" lint --fail-on warning "$p" >"$tmp/out" 2>"$tmp/err")
    rc=$?
    [ $rc = 0 ] || cat "$tmp/out" "$tmp/err" >&2
    tap $rc "profiles/$(basename "$p") passes nookc lint --fail-on warning"
done

# The first word selects a subcommand; a profile file named like one is given as ./NAME
# and compiles exactly as under any other name.
mkdir -p "$tmp/named"
cp "$here/valid/timeout/profile.yaml" "$tmp/named/lint"
cp "$here/valid/timeout/profile.yaml" "$tmp/named/profile.yaml"
(cd "$tmp/named" && env -i HOME=/home/golden PWD=/home/golden/project PATH=/usr/bin:/bin LC_ALL=C \
    "$nookc" ./lint --emit argv >"$tmp/a1" 2>&1 &&
    env -i HOME=/home/golden PWD=/home/golden/project PATH=/usr/bin:/bin LC_ALL=C \
        "$nookc" --emit argv profile.yaml >"$tmp/a2" 2>&1) && cmp -s "$tmp/a1" "$tmp/a2"
tap $? "nookc ./lint compiles a profile file named 'lint' as any other"

# Output that cannot be written is an I/O error (exit 2), for every review command.
for cmd in "lint --format json" "explain" "diff"; do
    files=("$here/lint/fs-012/profile.yaml")
    [ "$cmd" = diff ] && files+=("$here/lint/fs-012-ok/profile.yaml")
    # shellcheck disable=SC2086 # $cmd is the subcommand and its options
    (cd "$tmp" && env -i HOME=/home/golden PWD=/home/golden/project PATH=/usr/bin:/bin LC_ALL=C \
        NOOK_FIXTURE="$review" "$nookc" $cmd "${files[@]}" >/dev/full 2>"$tmp/err")
    rc=$?
    [ $rc = 2 ] || echo "# nookc $cmd >/dev/full: exit $rc, expected 2" >&2
    [ $rc = 2 ]
    tap $? "nookc $cmd: output that cannot be written exits 2"
done

exit $fail
