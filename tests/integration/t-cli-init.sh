#!/bin/bash
# agent-nook's first use: with an empty XDG_CONFIG_HOME the first `run` writes
# $XDG_CONFIG_HOME/agent-nook/sandbox.yaml, byte for byte the shipped
# profiles/default.yaml, and runs with it (hostname agent-sandbox inside). An existing
# config -- a custom one, a broken one, a dangling symlink -- is never written over (its
# bytes are unchanged after the run) and a custom one is the one used (its hostname
# inside, its name in the log). XDG_CONFIG_HOME empty or relative means
# ~/.config/agent-nook (README); an XDG_CONFIG_HOME whose parents do not exist yet is
# made, as XDG_STATE_HOME's is for the log.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source-path=SCRIPTDIR source=exec-lib.sh
. "$(dirname "$0")/exec-lib.sh"
# shellcheck source-path=SCRIPTDIR source=cli-lib.sh
. "$(dirname "$0")/cli-lib.sh"

# ---- first use: the default profile is written, then used
assert_absent "$XDG_CONFIG_HOME" "precondition: XDG_CONFIG_HOME ($XDG_CONFIG_HOME) does not exist yet"
# shellcheck disable=SC2016 # expanded inside the sandbox
an run --command 'echo "ran on $(uname -n)"'
assert_status 0 "first run with an empty XDG_CONFIG_HOME: exit 0"
assert_out "ran on agent-sandbox" "first run: the command ran inside the default profile's sandbox"
if cmp -s "$NOOK_PROFILES/default.yaml" "$AN_CONF"; then
    ok "first run: $AN_CONF is byte for byte profiles/default.yaml"
else
    not_ok "first run: $AN_CONF is byte for byte profiles/default.yaml" \
        "$(show_file written "$AN_CONF")" "$(show_run)"
fi
assert_grep "^[-0-9 :]+ - agent_nook\[agent-sandbox\] - INFO - Starting sandbox from $AN_CONF: " \
    "$AN_LOG" "first run: the log names the written file as the profile"

# ---- an existing custom config is used and never written over
cat >"$AN_CONF" <<'EOF'
# a user's own profile
name: custom-init
mounts:
  - type: ro-bind
    source: /
    target: /
  - type: proc
    target: /proc
  - type: dev
    target: /dev
unshare:
  pid: true
  user: true
hostname: custom-init-host
EOF
cp "$AN_CONF" "$T/custom.copy"
an run uname -n
assert_status 0 "an existing custom config: exit 0"
assert_out custom-init-host "an existing custom config is the one used (its hostname inside)"
assert_file_is "$AN_CONF" "an existing custom config is not written over" <"$T/custom.copy"
assert_grep "agent_nook\[custom-init\] - INFO - Sandbox exited with status 0" "$AN_LOG" \
    "an existing custom config: its name tags the log"

# ---- a broken config is reported, not replaced
printf 'name: broken\nmounts: [\n' >"$AN_CONF"
cp "$AN_CONF" "$T/broken.copy"
an run --command 'echo ran'
assert_status 125 "an existing broken config: exit 125"
assert_grep "^$AN_CONF:[0-9]+:[0-9]+: error: " "$ERR" "an existing broken config: a FILE:LINE:COL error"
assert_empty_str "$(cat "$OUT")" "an existing broken config: nothing ran"
assert_file_is "$AN_CONF" "an existing broken config is not written over" <"$T/broken.copy"

# ---- a dangling symlink at the config path: nothing is written through it
rm -f "$AN_CONF"
ln -s "$T/symlink-target.yaml" "$AN_CONF"
an run --command 'echo ran'
assert_absent "$T/symlink-target.yaml" "a dangling symlink as the config: nothing is written through it"
if [ -L "$AN_CONF" ]; then ok "a dangling symlink as the config: the symlink is left as it was"; else
    not_ok "a dangling symlink as the config: the symlink is left as it was" "$(ls -l "$AN_CONF")"
fi

# ---- XDG_CONFIG_HOME empty or relative: ~/.config/agent-nook/sandbox.yaml
export HOME=$T/home
mkdir "$HOME"
XDG_CONFIG_HOME='' an run uname -n
assert_status 0 "XDG_CONFIG_HOME empty: exit 0"
if cmp -s "$NOOK_PROFILES/default.yaml" "$HOME/.config/agent-nook/sandbox.yaml"; then
    ok "XDG_CONFIG_HOME empty: the default profile is written to ~/.config/agent-nook/sandbox.yaml"
else
    not_ok "XDG_CONFIG_HOME empty: the default profile is written to ~/.config/agent-nook/sandbox.yaml" \
        "$(ls -lR "$HOME" 2>&1)"
fi
rm -rf "$HOME/.config"
XDG_CONFIG_HOME=relative an run uname -n
assert_status 0 "XDG_CONFIG_HOME relative: exit 0"
assert_exists "$HOME/.config/agent-nook/sandbox.yaml" \
    "XDG_CONFIG_HOME relative: the default profile is written to ~/.config/agent-nook/sandbox.yaml"
assert_absent "$PROJECT/relative" "XDG_CONFIG_HOME relative: nothing is made under the cwd"

# ---- XDG_CONFIG_HOME whose parent does not exist yet: made, as the log's directory is
export XDG_CONFIG_HOME=$T/deep/er/config
XDG_STATE_HOME=$T/deep/er/state an run uname -n
assert_status 0 "XDG_CONFIG_HOME two levels below a missing dir: exit 0"
assert_exists "$T/deep/er/state/agent-nook/agent-nook.log" \
    "control: XDG_STATE_HOME two levels below a missing dir: the log is written there"
if cmp -s "$NOOK_PROFILES/default.yaml" "$XDG_CONFIG_HOME/agent-nook/sandbox.yaml"; then
    ok "XDG_CONFIG_HOME two levels below a missing dir: the default profile is written there"
else
    not_ok "XDG_CONFIG_HOME two levels below a missing dir: the default profile is written there" \
        "$(show_run)"
fi

finish
