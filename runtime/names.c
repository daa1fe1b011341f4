/* names.c - see names.h. */
#include "names.h"

#include <string.h>
#include <strings.h>

#include "util.h"

static int
fail(const char **why, const char *msg)
{
    *why = msg;
    return -1;
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

int
path_order(const char *a, const char *b)
{
    for (;; a++, b++) {
        unsigned ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca == cb) {
            if (!ca)
                return 0;
            continue;
        }
        unsigned ka = ca == '/' ? 1 : ca ? ca + 1 : 0;
        unsigned kb = cb == '/' ? 1 : cb ? cb + 1 : 0;
        return ka < kb ? -1 : 1;
    }
}
