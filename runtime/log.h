/* log.h - the agent-nook log.
 *
 * One line per event, "YYYY-MM-DD HH:MM:SS - agent_nook[NAME] - LEVEL - message",
 * appended to $XDG_STATE_HOME/agent-nook/agent-nook.log (default
 * ~/.local/state/agent-nook/), the original agent-nook's file and format. Rotated before
 * a write that finds it at max_bytes or more: agent-nook.log.1 .. .N keep older lines.
 * Events at or above console_level also go to stderr (never stdout). A log file that
 * cannot be written never fails a run: the first failure is one warning on stderr.
 */
#ifndef NOOK_LOG_H
#define NOOK_LOG_H

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

#define LOG_MAX_BYTES (10 * 1024 * 1024)
#define LOG_BACKUPS 10

enum log_level {
    LOG_DEBUG,
    LOG_INFO,
    LOG_WARNING,
    LOG_ERROR,
    LOG_OFF, /* as a threshold: nothing */
};

struct log {
    char *path;             /* owned: the log file, or NULL for none */
    char *tag;              /* owned: "agent_nook[NAME]" or "agent_nook" */
    const char *prog;       /* borrowed: prefix of the warning about the file */
    enum log_level level;   /* file threshold (default INFO) */
    enum log_level console; /* stderr threshold (default WARNING) */
    uint64_t max_bytes;     /* rotate at this size; 0 = never */
    unsigned backups;       /* rotated files kept */
    bool warned;            /* the file failure has been reported */
};

/* Default log path: $XDG_STATE_HOME/agent-nook/agent-nook.log, or
 * ~/.local/state/agent-nook/agent-nook.log when XDG_STATE_HOME is unset, empty or
 * relative. Owned; NULL when neither variable helps. */
char *log_default_path(void);

/* Defaults: the default path, INFO to the file, WARNING to stderr, 10 MiB x 10. */
void log_init(struct log *log, const char *prog);
void log_set_name(struct log *log, const char *name);
void log_free(struct log *log);

/* "DEBUG" ... "ERROR" <-> enum (case-insensitive); -1 when unknown. */
const char *log_level_name(enum log_level level);
int log_level_from_name(const char *name);

/* Logs one event (control characters in the message are escaped). Creates the log's
 * directory (mode 0700) when missing. */
void log_event(struct log *log, enum log_level level, const char *fmt, ...) NOOK_PRINTF(3, 4);

#endif
