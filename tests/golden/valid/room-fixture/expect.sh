#!/bin/sh
# agent-nook launch script for sandbox 'room', compiled by nookc 0.1.0 from 'profile.yaml'.
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
    '--ro-bind' '@FIXTURE@/data' '/data' \
    '--ro-bind' '@FIXTURE@/file' '/file' \
    '--symlink' 'usr/lib' '/lib' \
    '--perms' '0700' \
    '--tmpfs' '/usr' \
    '--ro-bind' '@FIXTURE@/usr/lib' '/usr/lib' \
    '--ro-bind' '@FIXTURE@/usr/share' '/usr/share' \
    '--bind' '/tmp' '/sandbox/data' \
    '--tmpfs' '/usr/local/new' \
    '--tmpfs' '/etc' \
    '--remount-ro' '/' \
    '--remount-ro' '/usr' \
    '--cap-drop' 'ALL' \
    '--' "$@"
