/* names.h - checks shared by the compiler and the runtime: canonical paths, capability
 * names, hostnames and environment variable names. Each returns 0, or -1 and points
 * *why at a static message (lowercase, no trailing period).
 */
#ifndef NOOK_NAMES_H
#define NOOK_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* Capability name with or without CAP_, any case, or ALL. *out is owned: "CAP_X" or
 * "ALL". */
int parse_cap(const char *s, char **out, const char **why);

/* Hostname: 1..64 bytes, no '/', whitespace or control characters. */
int check_hostname(const char *s, const char **why);

/* Environment variable name: non-empty, no '=', no NUL (len is the real length). */
int check_env_name(const char *s, size_t len, const char **why);

/* Lexical canonical form of an absolute path: "//" and "/./" collapse, a trailing '/'
 * goes; ".." and relative paths are refused, as are control characters, paths over
 * 4096 bytes and components over 255 bytes. *out is owned. */
int path_normalize(const char *in, char **out, const char **why);

/* True when `anc` is a strict ancestor of `path`, comparing whole components (both
 * normalised): "/home" is an ancestor of "/home/u" but not of "/home-u". */
bool path_is_ancestor(const char *anc, const char *path);

/* Component-wise order of canonical paths: '/' sorts before every other byte, so each
 * path is followed directly by all of its descendants ("/a", "/a/b", "/a-b"). */
int path_order(const char *a, const char *b);

#endif
