/* compile.h - the compiler driver: profile file -> checked plan.
 *
 * Runs the front end, the lowering and the passes (normalize, duplicates, sort, room,
 * check) in order, stopping after the first stage that reports an error. Shared by
 * nookc and agent-nook so both accept and reject exactly the same profiles.
 */
#ifndef NOOK_COMPILE_H
#define NOOK_COMPILE_H

#include "../runtime/plan.h"
#include "diag.h"

struct ynode;

struct compile_options {
    struct plan_version target; /* bubblewrap version to check against */
    char *const *command;       /* borrowed: command to bake in, or NULL */
    size_t n_command;
    /* Optional: changes the plan after lowering and path normalisation, before the
     * conflict checks and the sort (agent-nook's command-line overrides). Returns the
     * number of errors it reported. */
    unsigned (*adjust)(struct plan *plan, void *ctx, struct diag_sink *sink);
    void *adjust_ctx;
    bool no_optimize; /* keep mounts pass_optimize would drop (nookc --no-optimize) */
    /* Optional: on success receives the profile's locator tree (the position of every
     * key and value, see yamltree.h; the caller frees it with ynode_free), for tools that
     * point at settings no op carries: lint, explain, diff. Left alone on failure. */
    struct ynode **tree;
};

/* Compiles the profile in data (named `file` in diagnostics). On success returns 0 and
 * fills *plan (initialised here); otherwise returns -1 with everything reported to the
 * sink and *plan left empty. */
int compile_data(const char *file, const char *data, size_t len,
                 const struct compile_options *opts, struct diag_sink *sink, struct plan *plan);

/* Same, reading the profile file first. */
int compile_file(const char *path, const struct compile_options *opts, struct diag_sink *sink,
                 struct plan *plan);

#endif
