/* report.h - small helpers shared by the review reports (lint, explain, diff). */
#ifndef NOOK_REPORT_H
#define NOOK_REPORT_H

#include <jansson.h>

#include "../runtime/util.h"

/* A JSON string for s; bytes that are not valid UTF-8 (a host file name can hold any)
 * become U+FFFD, so a report never fails on them. New reference. */
json_t *report_json_string(const char *s);

/* The same, or JSON null when s is NULL. */
json_t *report_json_string_or_null(const char *s);

/* "512M", "1G", "1000": a size in bytes as a person would write it. Owned. */
char *report_size_text(uint64_t size);

/* Sets obj[key] = value and returns obj, stealing value; on any failure (a NULL obj or
 * value: jansson returns NULL only for OOM or invalid input) frees both and returns
 * NULL, so a chain of calls needs one check at its end. */
json_t *report_set(json_t *obj, const char *key, json_t *value);
/* The same for appending to an array. */
json_t *report_push(json_t *arr, json_t *value);

/* Appends root as two-space indented JSON and a newline; takes the reference. Returns
 * -1 when jansson cannot encode it. */
int report_json_take(json_t *root, struct buf *out);

#endif
