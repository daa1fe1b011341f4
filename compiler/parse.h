/* parse.h - the small strict parsers of profile values (the checks the runtime shares
 * with the compiler - paths, capabilities, hostnames, environment names - are in
 * runtime/names.h).
 *
 * Each returns 0 and writes its result, or -1 and points *why at a static message
 * (lowercase, no trailing period) that the caller wraps with the value's position.
 */
#ifndef NOOK_PARSE_H
#define NOOK_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../runtime/names.h"

/* tmpfs size: a decimal number (fraction allowed: "2.5G") and an optional unit B, K, KB,
 * KiB, M, MB, MiB, G, GB, GiB, T, TB, TiB - all binary multiples. Surrounding spaces are
 * ignored. The result is in 1 .. 2^63-1 bytes (bwrap's range). */
int parse_size(const char *s, uint64_t *out, const char **why);

/* Permission bits: octal digits, optional leading 0, at most 07777 ("0700", "755"). */
int parse_mode(const char *s, unsigned *out, const char **why);

/* Timeout in seconds, decimal text ("10", "2.5"): > 0 and at most 365 days; exact to the
 * millisecond, anything finer rounded up. */
int parse_timeout(const char *s, uint64_t *ms, const char **why);

/* Expands ${NAME} and ${NAME:-default} anywhere, and a leading "~" or "~/" to $HOME;
 * "$$" is a literal '$'. Any other '$' is literal.
 * An unset variable without a default is an error. Returns an owned string, or NULL
 * with *err set to an owned message. */
char *expand_vars(const char *in, char **err);

#endif
