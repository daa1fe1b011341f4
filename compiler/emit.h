/* emit.h - the three outputs of a checked plan.
 *
 * All three start from the same vector (plan_bwrap_args + plan_bwrap_command), so they
 * cannot disagree about what bwrap is told. Emitters fail only on unrepresentable data.
 */
#ifndef NOOK_EMIT_H
#define NOOK_EMIT_H

#include "../runtime/plan.h"

/* The whole argument vector that follows the bwrap program name, each argument
 * NUL-terminated: `nookc p.yaml --emit argv -- true | xargs -0 bwrap` runs it. */
void emit_argv(const struct plan *plan, struct buf *out);

/* A POSIX sh launch script. bwrap (and timeout(1) when the plan has a timeout) are
 * absolute paths resolved now. Without a baked-in command the script's arguments are
 * the command; with one, they are appended to it.
 *
 * The timeout: bwrap forwards no signal, so with `timeout_inside` (timeout_prog is
 * visible at the same path in the sandbox) timeout(1) runs inside, as the command's
 * parent: SIGTERM to the command, SIGKILL 5 s later, exit 124, and the PID namespace
 * ends with it. Otherwise timeout(1) wraps bwrap from outside and can only kill the
 * sandbox. */
void emit_sh(const struct plan *plan, const char *bwrap, const char *timeout_prog,
             bool timeout_inside, struct buf *out);

/* The JSON plan for nook-exec. Returns -1 when a string is not valid UTF-8. */
int emit_json(const struct plan *plan, struct buf *out);

#endif
