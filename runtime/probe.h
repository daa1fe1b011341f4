/* probe.h - which options the installed bwrap has.
 *
 * Features are read from `bwrap --help`, never inferred from `bwrap --version`: Debian's
 * 0.8.0 carries the 0.10.0 --bind-fd backport. The answer is cached per binary (device,
 * inode, size, modification time) under $XDG_CACHE_HOME/agent-nook/, so the probe costs
 * a fork only when bwrap changes.
 */
#ifndef NOOK_PROBE_H
#define NOOK_PROBE_H

#include "util.h"

/* Parses --help text: every "--option" that starts a line (after spaces). */
void probe_parse_help(const char *text, struct strv *options);

/* Fills `options` for the bwrap at absolute path `bwrap`. Returns 0, or -1 with *err an
 * owned message. */
int probe_bwrap(const char *bwrap, struct strv *options, char **err);

#endif
