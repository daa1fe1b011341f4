#!/bin/sh
# agent-nook launch script for sandbox 'agent-sandbox', compiled by nookc 0.1.0 from 'profile.yaml'.
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
    '--ro-bind' '/' '/' \
    '--proc' '/proc' \
    '--dev' '/dev' \
    '--tmpfs' '/home' \
    '--tmpfs' '/tmp' \
    '--tmpfs' '/var/tmp' \
    '--tmpfs' '/run' \
    '--bind' '/home/golden/project' '/home/golden/project' \
    '--cap-drop' 'ALL' \
    '--unshare-pid' \
    '--unshare-uts' \
    '--unshare-ipc' \
    '--unshare-cgroup' \
    '--unshare-user' \
    '--hostname' 'agent-sandbox' \
    '--chdir' '/home/golden/project' \
    '--' "$@"
