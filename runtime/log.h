/* log.h - the agent-nook log file.
 *
 * One line per event, "YYYY-MM-DD HH:MM:SS - agent_nook[NAME] - LEVEL - message", appended
 * to $XDG_STATE_HOME/agent-nook/agent-nook.log (default ~/.local/state/agent-nook/),
 * the same file and format as the original agent-nook. Rotated before a write that would
 * find it at 10 MiB or more: agent-nook.log.1 .. .10 keep the older lines. A log that
 * cannot be written never fails the run: log_write() returns -1 and the caller warns.
 */
#ifndef NOOK_LOG_H
#define NOOK_LOG_H

#include <stdint.h>

#include "util.h"

#define LOG_MAX_BYTES (10 * 1024 * 1024)
#define LOG_BACKUPS 10

struct log {
    char *path; /* owned: the log file */
    char *tag;  /* owned: "agent_nook[NAME]" or "agent_nook" */
    uint64_t max_bytes;
    unsigned backups;
};

/* Default log path: $XDG_STATE_HOME/agent-nook/agent-nook.log, or
 * ~/.local/state/agent-nook/agent-nook.log when XDG_STATE_HOME is unset, empty or
 * relative. Owned; NULL when neither variable helps. */
char *log_default_path(void);

void log_init(struct log *log, const char *path, const char *name);
void log_free(struct log *log);

/* Appends one line (message control characters are escaped). Creates the directory
 * (mode 0700) when missing. Returns 0, or -1 with errno set. */
int log_write(struct log *log, const char *level, const char *fmt, ...) NOOK_PRINTF(3, 4);

#endif
