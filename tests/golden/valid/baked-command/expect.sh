#!/bin/sh
# agent-nook launch script for sandbox 'baked', compiled by nookc 0.1.0 from 'profile.yaml'.
# Regenerate it rather than editing: every word below is quoted data.
# Usage: sh SCRIPT [EXTRA ARGS...]
set -eu
exec '/usr/bin/bwrap' \
    '--die-with-parent' \
    '--new-session' \
    '--ro-bind' '/usr' '/usr' \
    '--cap-drop' 'ALL' \
    '--' '--version' 'it'\''s a $(test)' '' '-x' "$@"
