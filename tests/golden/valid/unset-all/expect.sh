#!/bin/sh
# agent-nook launch script for sandbox 'clean-env', compiled by nookc 0.1.0 from 'profile.yaml'.
# Regenerate it rather than editing: every word below is quoted data.
# Usage: sh SCRIPT COMMAND [ARGS...]
set -eu
if [ "$#" -eq 0 ]; then
    printf '%s\n' 'usage: sh SCRIPT COMMAND [ARGS...]' >&2
    exit 2
fi
exec '/usr/bin/bwrap' \
    '--die-with-parent' \
    '--new-session' \
    '--tmpfs' '/tmp' \
    '--cap-drop' 'ALL' \
    '--clearenv' \
    '--setenv' 'PATH' '/usr/bin:/bin' \
    '--setenv' 'TERM' 'xterm' \
    '--' "$@"
