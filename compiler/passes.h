/* passes.h - the passes over a lowered plan.
 *
 * Each pass takes the plan and the diagnostics sink, returns the number of errors it
 * reported, and never prints or exits. The driver (compile.h) runs them in order and
 * stops at the first pass that reports an error.
 */
#ifndef NOOK_PASSES_H
#define NOOK_PASSES_H

#include "../runtime/plan.h"
#include "diag.h"

/* Lexical canonical paths for every op's target, source, layers and workdir: "//",
 * "/./" and a trailing '/' go; relative paths and ".." are errors. */
unsigned pass_normalize(struct plan *plan, struct diag_sink *sink);

/* Two ops with the same target: error at the later one, note at the first. */
unsigned pass_duplicates(struct plan *plan, struct diag_sink *sink);

/* Orders ops so that every op comes after each op whose target is an ancestor of its
 * target; among ops free to go, the earliest declared goes first (a stable topological
 * sort, O(n log n)). Reports nothing. */
unsigned pass_sort(struct plan *plan, struct diag_sink *sink);

/* Drops mounts that cannot change what the sandbox sees: a bind whose nearest ancestor
 * mount is a bind of the same kind (bind, ro-bind or dev-bind; neither optional) that
 * already shows the same host directory there - its source is the ancestor's source
 * plus the same relative path, that path exists on the host and no component of it is a
 * symlink (a bind would follow it; the parent shows the link). Each bind costs bwrap a
 * mount and a mountinfo re-read at start-up. Run after the sort. */
unsigned pass_optimize(struct plan *plan, struct diag_sink *sink);

/* Makes room for mount points that do not exist under a read-only mount (bwrap cannot
 * create them there): the read-only bind is lowered into a tmpfs (bwrap's own root for
 * '/') holding one read-only bind or symlink per host entry, and is remounted read-only
 * once everything under it is in place. Where no sound lowering exists (a symlink or
 * a file on the way, a mount that is not a directory, proc), it is an error at the
 * op's position. Reads the host filesystem. */
unsigned pass_room(struct plan *plan, struct diag_sink *sink);

/* Where a top-level profile setting was written, for errors about it. */
typedef struct plan_loc (*key_loc_fn)(void *ctx, const char *key);

/* Options newer than plan->target (error naming the version needed) and bwrap's hard
 * limits (9000 arguments, 131072 bytes per argument) over the whole argument vector. */
unsigned pass_check(struct plan *plan, struct diag_sink *sink, key_loc_fn key_loc, void *ctx);

#endif
