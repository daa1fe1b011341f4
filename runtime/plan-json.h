/* plan-json.h - plan <-> JSON (plan format v1, see schema/plan.schema.json). */
#ifndef NOOK_PLAN_JSON_H
#define NOOK_PLAN_JSON_H

#include "plan.h"

/* Serialises the plan: deterministic (fixed key order, two-space indent, trailing
 * newline). Returns an owned string, or NULL when a string is not valid UTF-8. */
char *plan_to_json(const struct plan *plan);

#endif
