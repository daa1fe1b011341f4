/* parse.c - see parse.h. */
#include "parse.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/util.h"

static int
fail(const char **why, const char *msg)
{
    *why = msg;
    return -1;
}

int
parse_size(const char *s, uint64_t *out, const char **why)
{
    static const struct {
        const char *unit;
        unsigned shift;
    } units[] = {
        {"", 0},     {"B", 0},  {"K", 10},  {"KB", 10},  {"KiB", 10}, {"M", 20},  {"MB", 20},
        {"MiB", 20}, {"G", 30}, {"GB", 30}, {"GiB", 30}, {"T", 40},   {"TB", 40}, {"TiB", 40},
    };
    const char *p = s;
    while (*p == ' ')
        p++;
    if (*p < '0' || *p > '9')
        return fail(why, "expected a number of bytes with an optional unit (B, K, M, G, T)");
    uint64_t whole = 0;
    while (*p >= '0' && *p <= '9') {
        unsigned d = (unsigned)(*p++ - '0');
        if (whole > (UINT64_MAX - d) / 10)
            return fail(why, "size is too large");
        whole = whole * 10 + d;
    }
    /* The fraction is kept as digits so "2.5G" is exact, not a float round trip. */
    uint64_t frac = 0, frac_scale = 1;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return fail(why, "expected digits after the decimal point");
        while (*p >= '0' && *p <= '9') {
            if (frac_scale < 1000000000000ULL) {
                frac = frac * 10 + (unsigned)(*p - '0');
                frac_scale *= 10;
            }
            p++;
        }
    }
    const char *unit = p;
    const char *end = unit;
    while (*end && *end != ' ')
        end++;
    const char *rest = end;
    while (*rest == ' ')
        rest++;
    if (*rest)
        return fail(why, "unexpected characters after the size");
    size_t ulen = (size_t)(end - unit);
    int shift = -1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i].unit) == ulen && strncmp(units[i].unit, unit, ulen) == 0)
            shift = (int)units[i].shift;
    if (shift < 0)
        return fail(why, "unknown size unit (expected B, K, KB, KiB, M, MB, MiB, G, GB, GiB, "
                         "T, TB or TiB)");
    if (whole > ((uint64_t)INT64_MAX >> shift))
        return fail(why, "size is too large");
    uint64_t bytes = whole << shift;
    /* frac / frac_scale of one unit; frac < frac_scale <= 1e12 and 1 << shift <= 2^40 */
    unsigned __int128 part = ((unsigned __int128)frac << shift) / frac_scale;
    if (bytes + (uint64_t)part > (uint64_t)INT64_MAX)
        return fail(why, "size is too large");
    bytes += (uint64_t)part;
    if (bytes == 0)
        return fail(why, "size must be at least 1 byte");
    *out = bytes;
    return 0;
}

int
parse_mode(const char *s, unsigned *out, const char **why)
{
    if (!*s)
        return fail(why, "expected an octal mode such as \"0755\"");
    unsigned v = 0;
    size_t n = 0;
    for (const char *p = s; *p; p++, n++) {
        if (*p < '0' || *p > '7' || n >= 5)
            return fail(why, "expected an octal mode such as \"0755\"");
        v = v * 8 + (unsigned)(*p - '0');
    }
    if (v > 07777)
        return fail(why, "mode is larger than 07777");
    *out = v;
    return 0;
}

int
parse_timeout(const char *s, uint64_t *ms, const char **why)
{
    /* Decimal text, not a double: "2.007" must be 2007 ms exactly. */
    const uint64_t max_ms = 31536000000ULL;
    const char *p = s;
    if (*p < '0' || *p > '9')
        return fail(why, "expected a number of seconds");
    uint64_t whole = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        whole = whole * 10 + (unsigned)(*p - '0');
        if (whole > max_ms / 1000)
            return fail(why, "timeout must be at most 31536000 seconds (365 days)");
    }
    uint64_t frac = 0;
    bool rest = false;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return fail(why, "expected a number of seconds");
        int d = 0;
        for (; *p >= '0' && *p <= '9'; p++, d++) {
            if (d < 3)
                frac = frac * 10 + (unsigned)(*p - '0');
            else if (*p != '0')
                rest = true; /* below a millisecond: round up */
        }
        for (; d < 3; d++)
            frac *= 10;
    }
    if (*p)
        return fail(why, "expected a number of seconds");
    uint64_t r = whole * 1000 + frac + (rest ? 1 : 0);
    if (r == 0)
        return fail(why, "timeout must be greater than 0");
    if (r > max_ms)
        return fail(why, "timeout must be at most 31536000 seconds (365 days)");
    *ms = r;
    return 0;
}

static bool
is_name_start(char c)
{
    return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static bool
is_name_char(char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

char *
expand_vars(const char *in, char **err)
{
    struct buf b = {0};
    buf_add(&b, "", 0);
    const char *p = in;
    if (p[0] == '~' && (p[1] == '\0' || p[1] == '/')) {
        const char *home = getenv("HOME");
        if (!home || !*home) {
            *err = xstrdup("'~' used but HOME is not set");
            buf_free(&b);
            return NULL;
        }
        buf_adds(&b, home);
        p++;
    }
    while (*p) {
        if (p[0] == '$' && p[1] == '$') {
            /* "$$" is a literal '$', so "$${X}" writes "${X}" */
            buf_addc(&b, '$');
            p += 2;
            continue;
        }
        if (p[0] != '$' || p[1] != '{') {
            buf_addc(&b, *p++);
            continue;
        }
        const char *name = p + 2;
        const char *q = name;
        if (is_name_start(*q))
            while (is_name_char(*q))
                q++;
        size_t nlen = (size_t)(q - name);
        const char *close = strchr(q, '}');
        if (nlen == 0 || !close || (*q != '}' && strncmp(q, ":-", 2) != 0)) {
            const char *end = close ? close + 1 : q + strlen(q);
            *err = xasprintf("invalid variable reference '%.*s' (expected ${NAME} or "
                             "${NAME:-default})",
                             (int)(end - p), p);
            buf_free(&b);
            return NULL;
        }
        char *var = xstrndup(name, nlen);
        const char *val = getenv(var);
        if (*q == '}') {
            if (!val) {
                *err = xasprintf("environment variable '%s' is not set (write ${%s:-default} "
                                 "to give a default)",
                                 var, var);
                free(var);
                buf_free(&b);
                return NULL;
            }
            buf_adds(&b, val);
        } else if (val && *val) {
            buf_adds(&b, val);
        } else {
            buf_add(&b, q + 2, (size_t)(close - (q + 2)));
        }
        free(var);
        p = close + 1;
    }
    return b.data;
}
