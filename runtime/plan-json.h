/* plan-json.h - plan <-> JSON (plan format v1, see schema/plan.schema.json). */
#ifndef NOOK_PLAN_JSON_H
#define NOOK_PLAN_JSON_H

#include "plan.h"

/* Serialises the plan: deterministic (fixed key order, two-space indent, trailing
 * newline). Returns an owned string, or NULL when a string is not valid UTF-8. */
char *plan_to_json(const struct plan *plan);

#define PLAN_MAX_BYTES (1024 * 1024)

/* Parses and validates a plan (the whole of schema/plan.schema.json, plus canonical
 * paths and bwrap's argument limits). On success fills *out (initialised here) and
 * returns 0. On failure returns -1 with *err an owned message naming the first problem:
 * "NAME:LINE:COL: error: ..." for JSON syntax, "NAME: PATH: error: ..." for the rest,
 * PATH being the JSON path of the value ("ops[3].dest"). */
int plan_from_json(const char *name, const char *data, size_t len, struct plan *out,
                   char **err);

/* Reads a plan file: no symlink, regular file, at most PLAN_MAX_BYTES. Returns 0 with an
 * owned NUL-terminated buffer, or -1 with *err an owned message. */
int plan_read_file(const char *path, char **data, size_t *len, char **err);

#endif
