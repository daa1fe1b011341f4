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

/* Capability names of Linux 6.x (include/uapi/linux/capability.h), in number order. */
static const char *const cap_names[] = {
    "CHOWN",
    "DAC_OVERRIDE",
    "DAC_READ_SEARCH",
    "FOWNER",
    "FSETID",
    "KILL",
    "SETGID",
    "SETUID",
    "SETPCAP",
    "LINUX_IMMUTABLE",
    "NET_BIND_SERVICE",
    "NET_BROADCAST",
    "NET_ADMIN",
    "NET_RAW",
    "IPC_LOCK",
    "IPC_OWNER",
    "SYS_MODULE",
    "SYS_RAWIO",
    "SYS_CHROOT",
    "SYS_PTRACE",
    "SYS_PACCT",
    "SYS_ADMIN",
    "SYS_BOOT",
    "SYS_NICE",
    "SYS_RESOURCE",
    "SYS_TIME",
    "SYS_TTY_CONFIG",
    "MKNOD",
    "LEASE",
    "AUDIT_WRITE",
    "AUDIT_CONTROL",
    "SETFCAP",
    "MAC_OVERRIDE",
    "MAC_ADMIN",
    "SYSLOG",
    "WAKE_ALARM",
    "BLOCK_SUSPEND",
    "AUDIT_READ",
    "PERFMON",
    "BPF",
    "CHECKPOINT_RESTORE",
};

int
parse_cap(const char *s, char **out, const char **why)
{
    if (strcasecmp(s, "ALL") == 0) {
        *out = xstrdup("ALL");
        return 0;
    }
    const char *name = strncasecmp(s, "CAP_", 4) == 0 ? s + 4 : s;
    for (size_t i = 0; i < sizeof cap_names / sizeof cap_names[0]; i++) {
        if (strcasecmp(name, cap_names[i]) == 0) {
            *out = xasprintf("CAP_%s", cap_names[i]);
            return 0;
        }
    }
    return fail(why, "unknown capability");
}

int
check_hostname(const char *s, const char **why)
{
    size_t n = strlen(s);
    if (n == 0)
        return fail(why, "hostname must not be empty");
    if (n > 64)
        return fail(why, "hostname is longer than 64 bytes");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '/')
            return fail(why, "hostname must not contain '/'");
        if (*p < 0x20 || *p == 0x7f || *p == ' ')
            return fail(why, "hostname must not contain whitespace or control characters");
    }
    return 0;
}

int
check_env_name(const char *s, size_t len, const char **why)
{
    if (len == 0)
        return fail(why, "environment variable name must not be empty");
    if (strlen(s) != len)
        return fail(why, "environment variable name contains a NUL character");
    if (strchr(s, '='))
        return fail(why, "environment variable name must not contain '='");
    return 0;
}

int
parse_timeout(double seconds, uint64_t *ms, const char **why)
{
    if (!(seconds > 0))
        return fail(why, "timeout must be greater than 0");
    if (seconds > 365.0 * 24 * 3600)
        return fail(why, "timeout must be at most 31536000 seconds (365 days)");
    double m = seconds * 1000.0;
    uint64_t r = (uint64_t)m;
    if ((double)r < m)
        r++;
    *ms = r;
    return 0;
}

int
path_normalize(const char *in, char **out, const char **why)
{
    if (in[0] != '/')
        return fail(why, "must be an absolute path");
    size_t n = strlen(in);
    if (n > 4096)
        return fail(why, "path is longer than 4096 bytes");
    char *r = xmalloc(n + 2);
    size_t len = 0;
    const char *p = in;
    while (*p) {
        while (*p == '/')
            p++;
        if (!*p)
            break;
        const char *e = p;
        while (*e && *e != '/')
            e++;
        size_t clen = (size_t)(e - p);
        for (const char *c = p; c < e; c++) {
            if ((unsigned char)*c < 0x20 || *c == 0x7f) {
                free(r);
                return fail(why, "path contains a control character");
            }
        }
        if (clen == 2 && p[0] == '.' && p[1] == '.') {
            free(r);
            return fail(why, "'..' is not allowed in paths");
        }
        if (clen > 255) {
            free(r);
            return fail(why, "path component is longer than 255 bytes");
        }
        if (!(clen == 1 && p[0] == '.')) {
            r[len++] = '/';
            memcpy(r + len, p, clen);
            len += clen;
        }
        p = e;
    }
    if (len == 0)
        r[len++] = '/';
    r[len] = '\0';
    *out = r;
    return 0;
}

bool
path_is_ancestor(const char *anc, const char *path)
{
    if (strcmp(anc, "/") == 0)
        return strcmp(path, "/") != 0;
    size_t n = strlen(anc);
    return strncmp(anc, path, n) == 0 && path[n] == '/';
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
