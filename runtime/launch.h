/* launch.h - from a checked plan to a finished sandbox, as nook-exec and agent-nook run
 * it: find and check bwrap, check the options it needs against the installed one,
 * prepare bind sources, log the start, run and supervise (run.h), log the end.
 */
#ifndef NOOK_LAUNCH_H
#define NOOK_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

#include "log.h"
#include "plan.h"

struct launch {
    const char *prog;   /* borrowed: "nook-exec" or "agent-nook", prefix of messages */
    const char *origin; /* borrowed: the plan or profile path, for the log */
    bool dry_run;       /* print the bwrap command line on stdout instead of running */
    bool verbose;       /* also print the bwrap command and the status on stderr */
    uint64_t grace_ms;  /* timeout: SIGTERM to SIGKILL */
    struct log *log;    /* borrowed: where events go */
};

/* The bwrap command line, shell-quoted; --setenv values masked as '***' when `redact`. */
char *launch_command_line(const char *bwrap, const struct plan *plan, bool redact);

/* Runs the plan (its command must be set) and returns the exit status for the tool:
 * the payload's, 128+N, 124, 125, 126 or 127 (see run.h), or 0 for a dry run. */
int launch_plan(const struct plan *plan, const struct launch *l);

#endif
