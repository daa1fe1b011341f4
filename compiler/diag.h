/* diag.h - the diagnostics sink.
 *
 * Every user-visible problem goes through here: "FILE:LINE:COL: error: MESSAGE", or
 * "nookc: error: MESSAGE" without a location. Passes never print; they report to the
 * sink, which counts errors and writes the formatted lines to its stream. Control
 * characters in messages are escaped, so an echoed user string cannot forge output.
 */
#ifndef NOOK_DIAG_H
#define NOOK_DIAG_H

#include <stdarg.h>
#include <stdio.h>

#include "../runtime/plan.h"

enum diag_severity {
    DIAG_ERROR,
    DIAG_WARNING,
    DIAG_NOTE,
};

struct diag_sink {
    FILE *out;        /* borrowed: where lines go (stderr, or a memstream in tests) */
    const char *prog; /* borrowed: prefix for lines without a location */
    unsigned errors;
    unsigned warnings;
};

void diag_init(struct diag_sink *sink, FILE *out, const char *prog);

/* Reports one diagnostic; loc may be NULL or have a NULL file. Returns -1 so a caller
 * can `return diag_error(...)`. */
int diag_emit(struct diag_sink *sink, enum diag_severity sev, const struct plan_loc *loc,
              const char *fmt, ...) NOOK_PRINTF(4, 5);
int diag_error(struct diag_sink *sink, const struct plan_loc *loc, const char *fmt, ...)
    NOOK_PRINTF(3, 4);
int diag_warning(struct diag_sink *sink, const struct plan_loc *loc, const char *fmt, ...)
    NOOK_PRINTF(3, 4);
int diag_note(struct diag_sink *sink, const struct plan_loc *loc, const char *fmt, ...)
    NOOK_PRINTF(3, 4);
/* diag_error for wrappers that take their own format arguments. */
int diag_verror(struct diag_sink *sink, const struct plan_loc *loc, const char *fmt, va_list ap)
    NOOK_PRINTF(3, 0);

/* Appends s to out with control characters escaped as in diagnostics (\n, \t, \x1b),
 * for other reports that echo user strings (lint, explain, diff). */
void diag_escape(struct buf *out, const char *s);

#endif
