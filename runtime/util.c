/* util.c - see util.h. */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void
die_oom(void)
{
    static const char msg[] = "agent-nook: out of memory\n";
    (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    abort();
}

void *
xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        die_oom();
    return p;
}

void *
xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        die_oom();
    return p;
}

void *
xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (!p)
        die_oom();
    return p;
}

void *
xgrow(void *ptr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return ptr;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            die_oom();
        ncap *= 2;
    }
    if (ncap > SIZE_MAX / size)
        die_oom();
    ptr = xrealloc(ptr, ncap * size);
    *cap = ncap;
    return ptr;
}

char *
xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        die_oom();
    return s;
}

char *
xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    return s;
}

void
strv_push_take(struct strv *sv, char *s)
{
    sv->v = xgrow(sv->v, &sv->cap, sv->n + 2, sizeof *sv->v);
    sv->v[sv->n++] = s;
    sv->v[sv->n] = NULL;
}

void
strv_push(struct strv *sv, const char *s)
{
    strv_push_take(sv, xstrdup(s));
}

void
strv_free(struct strv *sv)
{
    for (size_t i = 0; i < sv->n; i++)
        free(sv->v[i]);
    free(sv->v);
    sv->v = NULL;
    sv->n = sv->cap = 0;
}

bool
strv_has(const struct strv *sv, const char *s)
{
    for (size_t i = 0; i < sv->n; i++)
        if (strcmp(sv->v[i], s) == 0)
            return true;
    return false;
}

void
buf_add(struct buf *b, const void *data, size_t len)
{
    b->data = xgrow(b->data, &b->cap, b->len + len + 1, 1);
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void
buf_adds(struct buf *b, const char *s)
{
    buf_add(b, s, strlen(s));
}

void
buf_addc(struct buf *b, char c)
{
    buf_add(b, &c, 1);
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    buf_adds(b, s);
    free(s);
}

void
buf_free(struct buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void
buf_add_shell_word(struct buf *b, const char *s)
{
    /* Inside single quotes every byte is literal except the closing quote, so the
     * only transformation needed is ' -> '\'' (close, escaped quote, reopen). This
     * holds for dash, bash --posix and every POSIX sh; no $'...' or "..." is used. */
    buf_addc(b, '\'');
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            buf_adds(b, "'\\''");
        else
            buf_addc(b, *p);
    }
    buf_addc(b, '\'');
}

bool
utf8_valid(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i];
        size_t n;
        uint32_t cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            n = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (len - i <= n)
            return false;
        for (size_t k = 1; k <= n; k++) {
            if ((p[i + k] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += n + 1;
    }
    return true;
}

int
write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

int
write_file_atomic(const char *path, const void *data, size_t len, unsigned mode)
{
    cleanup_free char *dir = NULL;
    const char *slash = strrchr(path, '/');
    if (slash)
        dir = xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
    else
        dir = xstrdup(".");
    cleanup_free char *tmp = xasprintf("%s/.nook-tmp-XXXXXX", dir);
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0)
        return -1;
    int saved;
    if (fchmod(fd, mode) < 0 || write_all(fd, data, len) < 0 || fsync(fd) < 0)
        goto fail;
    if (close(fd) < 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (rename(tmp, path) < 0)
        goto fail;
    return 0;
fail:
    saved = errno;
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    errno = saved;
    return -1;
}

int
read_fd_capped(int fd, size_t cap, struct buf *out)
{
    buf_add(out, "", 0);
    for (;;) {
        char chunk[65536];
        ssize_t r = read(fd, chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int saved = errno;
            buf_free(out);
            errno = saved;
            return -1;
        }
        if (r == 0)
            return 0;
        buf_add(out, chunk, (size_t)r);
        if (out->len > cap) {
            buf_free(out);
            return -2;
        }
    }
}

char *
xdg_path(const char *var, const char *home_rel, const char *leaf)
{
    const char *dir = getenv(var);
    if (dir && dir[0] == '/')
        return xasprintf("%s/%s", dir, leaf);
    const char *home = getenv("HOME");
    if (home && home[0] == '/')
        return xasprintf("%s/%s/%s", home, home_rel, leaf);
    return NULL;
}

int
mkdir_p(const char *path, unsigned mode)
{
    char *p = xstrdup(path);
    int r = 0;
    for (char *s = p + 1;; s++) {
        if (*s != '/' && *s != '\0')
            continue;
        char c = *s;
        *s = '\0';
        if (mkdir(p, mode) < 0 && errno != EEXIST)
            r = -1;
        *s = c;
        if (!c || r < 0)
            break;
    }
    int saved = errno;
    free(p);
    errno = saved;
    return r;
}

int
mkdir_parent(const char *path, unsigned mode)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return 0;
    char *dir = xstrndup(path, (size_t)(slash - path));
    int r = mkdir_p(dir, mode);
    int saved = errno;
    free(dir);
    errno = saved;
    return r;
}

char *
find_in_path(const char *name)
{
    if (strchr(name, '/')) {
        if (access(name, X_OK) != 0)
            return NULL;
        if (name[0] == '/')
            return xstrdup(name);
        char *cwd = getcwd(NULL, 0);
        if (!cwd)
            return NULL;
        char *r = xasprintf("%s/%s", cwd, name);
        free(cwd);
        return r;
    }
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    const char *p = path;
    while (*p) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        /* Relative PATH entries would make the resolved program depend on the cwd. */
        if (n > 0 && p[0] == '/') {
            char *cand = xasprintf("%.*s/%s", (int)n, p, name);
            struct stat st;
            if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
                return cand;
            free(cand);
        }
        if (!e)
            break;
        p = e + 1;
    }
    return NULL;
}

int
cli_error(int status, const char *prog, const char *help, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    if (help)
        fprintf(stderr, "Try '%s' for more information.\n", help);
    va_end(ap);
    return status;
}
