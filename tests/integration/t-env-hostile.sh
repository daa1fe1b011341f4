#!/bin/bash
# env_vars values full of shell syntax reach the sandbox byte-exact and are never evaluated.
# Control: the same values evaluated by sh in double quotes do run the embedded commands.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

work=$T/work # the cwd of every run: relative MARKER files would land here
ctl=$T/control
mkdir -p "$work" "$ctl"

# names and the values expected inside; the YAML below spells them on purpose
names=(SQ DQ CMD_SUBST CMD_SUBST_ABS BACKTICK BACKTICK_ABS BRACE_HOME DOLLARS NEWLINE TAB
    MIXED QUOTE_BREAK LEADING_DASH EMPTY TRAILING_NL)
vals=(
    "it's a 'quoted' word"
    'say "hi" to "$USER"'
    '$(touch MARKER1)'
    "\$(touch $T/MARKER1abs)"
    '`touch MARKER2`'
    "\`touch $T/MARKER2abs\`"
    '${HOME}'
    'cost: $$5 and $'
    $'line one\nline two'
    $'col1\tcol2'
    $'\'"$(touch MARKER3)`touch MARKER4`;|&<>*?[]~!#%\\ end'
    "'; touch MARKER5; echo '\\''"
    '--version'
    ''
    $'ends with newline\n'
)

cat >"$T/env.yaml" <<EOF
name: env-hostile
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
  user: true
  network: true
env_vars:
  SQ: "it's a 'quoted' word"
  DQ: 'say "hi" to "\$USER"'
  CMD_SUBST: "\$(touch MARKER1)"
  CMD_SUBST_ABS: "\$(touch $T/MARKER1abs)"
  BACKTICK: "\`touch MARKER2\`"
  BACKTICK_ABS: "\`touch $T/MARKER2abs\`"
  BRACE_HOME: "\$\${HOME}"
  DOLLARS: "cost: \$\$\$\$5 and \$\$"
  NEWLINE: "line one\nline two"
  TAB: "col1\tcol2"
  MIXED: "'\"\$(touch MARKER3)\`touch MARKER4\`;|&<>*?[]~!#%\\\\ end"
  QUOTE_BREAK: "'; touch MARKER5; echo '\\\\''"
  LEADING_DASH: "--version"
  EMPTY: ""
  TRAILING_NL: "ends with newline\n"
EOF

# markers: every MARKER file on the host where a leak could put one (not the control dir)
markers() {
    find "$T" "$HOME" -path "$ctl" -prune -o -name 'MARKER*' -print 2>/dev/null
    ls -d /tmp/MARKER* ./MARKER* 2>/dev/null
    return 0
}

cd "$work" || exit 1

check_env() {
    local m=$1 i got=()
    assert_status 0 "printenv finds every variable via $m"
    mapfile -d '' -t got <"$OUT"
    for i in "${!names[@]}"; do
        if [ "${got[i]-<unset>}" = "${vals[i]}" ]; then
            ok "${names[i]} is byte-exact inside via $m"
        else
            not_ok "${names[i]} is byte-exact inside via $m" \
                "expected: $(printf '%q' "${vals[i]}")" "actual:   $(printf '%q' "${got[i]-<unset>}")"
        fi
    done
}
run_both check_env "$T/env.yaml" printenv -0 "${names[@]}"

# the same values as command arguments (at run time, and baked in with --)
check_args() {
    assert_status 0 "hostile command arguments: printf exits 0 via $1"
    printf '%s\0' "${vals[@]}" | assert_file_is "$OUT" "hostile command arguments arrive byte-exact via $1"
}
run_both check_args "$T/env.yaml" printf '%s\0' "${vals[@]}"
RC=0
"$NOOKC" "$T/env.yaml" -o "$T/baked.sh" -- printf '%s\0' "${vals[@]}" 2>"$ERR" || RC=$?
assert_status 0 "nookc bakes hostile command arguments into a script"
_run sh "$T/baked.sh"
printf '%s\0' "${vals[@]}" | assert_file_is "$OUT" "baked hostile command arguments arrive byte-exact"

# a profile path full of shell syntax lands in the script's header comment: still inert
evil="$T/evil \$(touch MARKER6) \`touch MARKER7\`"$'\ntouch MARKER8\n'"'.yaml"
cp "$T/env.yaml" "$evil"
RC=0
"$NOOKC" "$evil" -o "$T/evil.sh" 2>"$ERR" || RC=$?
assert_status 0 "nookc compiles a profile whose path holds shell syntax"
_run sh "$T/evil.sh" printenv -0 SQ
printf '%s\0' "${vals[0]}" | assert_file_is "$OUT" "the script compiled from the hostile path runs"
rm -f "$evil"

found=$(markers)
if [ -z "$found" ]; then
    ok "no MARKER file was created (host temp dir, cwd, HOME, /tmp)"
else
    not_ok "no MARKER file was created (host temp dir, cwd, HOME, /tmp)" "$found"
fi

# ---- control: the probe catches an injection. Interpolating the values into a shell
# command in double quotes runs the $(...) and `...` commands; wrapping QUOTE_BREAK in
# naive single quotes runs its touch. (MIXED's markers only guard; its quotes make
# such a command a syntax error.)
(
    cd "$ctl" || exit 1
    for i in 2 3 4 5; do sh -c "echo \"${vals[i]}\"" >/dev/null 2>&1; done
    sh -c "echo '${vals[11]}'" >/dev/null 2>&1
)
for f in MARKER1 "$T/MARKER1abs" MARKER2 "$T/MARKER2abs" MARKER5; do
    case $f in /*) p=$f ;; *) p=$ctl/$f ;; esac
    assert_exists "$p" "control: naive shell interpolation creates $(basename "$f")"
    rm -f "$p"
done
assert_eq '/home/x' "$(HOME=/home/x sh -c "printf %s \"${vals[6]}\"")" \
    "control: sh -c expands the \${HOME} text"

finish
