/* diag.c - see diag.h. */
#include "diag.h"

#include <stdarg.h>

static const char *const sev_names[] = {"error", "warning", "note"};

void
diag_init(struct diag_sink *sink, FILE *out, const char *prog)
{
    sink->out = out;
    sink->prog = prog;
    sink->errors = 0;
    sink->warnings = 0;
}

void
diag_escape(struct buf *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\n')
            buf_adds(out, "\\n");
        else if (*p == '\t')
            buf_adds(out, "\\t");
        else if (*p < 0x20 || *p == 0x7f)
            buf_printf(out, "\\x%02x", *p);
        else
            buf_addc(out, (char)*p);
    }
}

static void
put_escaped(FILE *out, const char *s)
{
    struct buf b = {0};
    buf_adds(&b, "");
    diag_escape(&b, s);
    fputs(b.data, out);
    buf_free(&b);
}

static int
vemit(struct diag_sink *sink, enum diag_severity sev, const struct plan_loc *loc,
      const char *fmt, va_list ap)
{
    char *msg = xvasprintf(fmt, ap);
    if (sev == DIAG_ERROR)
        sink->errors++;
    else if (sev == DIAG_WARNING)
        sink->warnings++;
    if (loc && loc->file && loc->line > 0) {
        put_escaped(sink->out, loc->file);
        fprintf(sink->out, ":%u:%u: %s: ", loc->line, loc->col, sev_names[sev]);
    } else {
        fprintf(sink->out, "%s: %s: ", sink->prog, sev_names[sev]);
        if (loc && loc->file) { /* a command-line option, say */
            put_escaped(sink->out, loc->file);
            fputs(": ", sink->out);
        }
    }
    put_escaped(sink->out, msg);
    fputc('\n', sink->out);
    fflush(sink->out);
    free(msg);
    return -1;
}

int
diag_emit(struct diag_sink *sink, enum diag_severity sev, const struct plan_loc *loc,
          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vemit(sink, sev, loc, fmt, ap);
    va_end(ap);
    return -1;
}

#define DEFINE_DIAG(fn, sev)                                                                   \
    int fn(struct diag_sink *sink, const struct plan_loc *loc, const char *fmt, ...)           \
    {                                                                                          \
        va_list ap;                                                                            \
        va_start(ap, fmt);                                                                     \
        vemit(sink, sev, loc, fmt, ap);                                                        \
        va_end(ap);                                                                            \
        return -1;                                                                             \
    }

int
diag_verror(struct diag_sink *sink, const struct plan_loc *loc, const char *fmt, va_list ap)
{
    return vemit(sink, DIAG_ERROR, loc, fmt, ap);
}

DEFINE_DIAG(diag_error, DIAG_ERROR)
DEFINE_DIAG(diag_warning, DIAG_WARNING)
DEFINE_DIAG(diag_note, DIAG_NOTE)
