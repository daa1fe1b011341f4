/* logconf.h - ~/.config/agent-nook/logging.yaml.
 *
 * The original agent-nook documented this file and never read it; here it configures
 * the log (runtime/log.h): `level` (file threshold), `console_level` (stderr threshold),
 * `file` (path, ~ and ${VAR} expanded), `max_bytes` (rotation size, 0 = never),
 * `backup_count` (rotated files kept, 0..100). Strict like a profile: every error has
 * its position.
 */
#ifndef NOOK_LOGCONF_H
#define NOOK_LOGCONF_H

#include "../runtime/log.h"
#include "diag.h"

/* $XDG_CONFIG_HOME/agent-nook (or ~/.config/agent-nook); owned, NULL without HOME. */
char *logconf_config_dir(void);

/* Applies `path` to log when it exists (a missing file changes nothing). Returns 0, or
 * -1 after reporting errors to the sink. */
int logconf_load(const char *path, struct log *log, struct diag_sink *sink);

#endif
