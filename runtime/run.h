/* run.h - start bwrap for a plan and supervise it.
 *
 * What bubblewrap itself lacks: options go through a sealed memfd (--args), the command
 * stays on the real argv after "--", the child gets default signal dispositions, an
 * empty signal mask and no file descriptor but 0, 1, 2; SIGTERM, SIGINT, SIGHUP and
 * SIGQUIT are forwarded to the payload; a timeout sends SIGTERM to the payload and,
 * after the grace period, SIGKILL to the sandbox's PID 1, which ends the whole PID
 * namespace; --json-status-fd tells a payload's exit status from a sandbox that never
 * started.
 */
#ifndef NOOK_RUN_H
#define NOOK_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"

/* Exit statuses (as GNU timeout and env use them). */
enum {
    RUN_EXIT_TIMEOUT = 124,
    RUN_EXIT_FAILURE = 125,  /* the tool's own failure or a sandbox that could not start */
    RUN_EXIT_NOEXEC = 126,   /* the command exists but cannot be executed */
    RUN_EXIT_NOTFOUND = 127, /* the command was not found */
};

struct run_options {
    const char *bwrap; /* borrowed: absolute path */
    uint64_t grace_ms; /* between SIGTERM and SIGKILL on timeout */
};

struct run_result {
    int status; /* what the tool should exit with */
    bool timed_out;
    bool payload_ran; /* bwrap reported the payload's exit code */
    int signal;       /* the signal that ended bwrap, or 0 */
    uint64_t elapsed_ms;
};

/* Finds bwrap: `explicit_path` (the plan's), else $NOOK_BWRAP, else PATH, and checks it
 * is a regular executable file that only its owner (root or the caller) can write and
 * that is not setuid. Returns an owned absolute path, or NULL with *err set. */
char *run_find_bwrap(const char *explicit_path, char **err);

/* Before starting: every non-optional bind source must exist, and create_source ops get
 * their source created (a directory, or an empty file). Returns 0, or -1 with *err an
 * owned message naming the path and the op's origin. */
int run_prepare(const struct plan *plan, char **err);

/* Options the plan needs that the bwrap at `bwrap` lacks, as an owned ", "-separated
 * list (empty string when none), or NULL with *err set when probing failed. */
char *run_missing_options(const struct plan *plan, const char *bwrap, char **err);

/* Starts bwrap with the plan (plan->command must not be empty) and waits for it.
 * Returns 0 with *res filled, or -1 with *err when bwrap could not be started. */
int run_plan(const struct plan *plan, const struct run_options *opts, struct run_result *res,
             char **err);

/* Best effort after a sandbox reported no exit code: 127 when the command does not
 * exist in the sandbox's view of the host, 126 when it is not executable there, 125
 * otherwise (the sandbox itself failed). */
int run_classify_failure(const struct plan *plan);

#endif
