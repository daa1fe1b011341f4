/* log.c - see log.h. */
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char *
log_default_path(void)
{
    const char *state = getenv("XDG_STATE_HOME");
    if (state && state[0] == '/')
        return xasprintf("%s/agent-nook/agent-nook.log", state);
    const char *home = getenv("HOME");
    if (home && home[0] == '/')
        return xasprintf("%s/.local/state/agent-nook/agent-nook.log", home);
    return NULL;
}

void
log_init(struct log *log, const char *path, const char *name)
{
    log->path = path ? xstrdup(path) : NULL;
    log->tag = name && *name ? xasprintf("agent_nook[%s]", name) : xstrdup("agent_nook");
    log->max_bytes = LOG_MAX_BYTES;
    log->backups = LOG_BACKUPS;
}

void
log_free(struct log *log)
{
    free(log->path);
    free(log->tag);
    log->path = log->tag = NULL;
}

/* mkdir -p of path's directory. */
static int
make_parent(const char *path)
{
    char *dir = xstrdup(path);
    int r = 0;
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0700) < 0 && errno != EEXIST)
            r = -1;
        *p = '/';
    }
    free(dir);
    return r;
}

static int
open_append(const char *path)
{
    return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
}

static void
rotate(const struct log *log)
{
    for (unsigned i = log->backups; i >= 1; i--) {
        char *from = i == 1 ? xstrdup(log->path) : xasprintf("%s.%u", log->path, i - 1);
        char *to = xasprintf("%s.%u", log->path, i);
        rename(from, to); /* a missing backup is fine */
        free(from);
        free(to);
    }
}

int
log_write(struct log *log, const char *level, const char *fmt, ...)
{
    if (!log->path) {
        errno = ENOENT;
        return -1;
    }
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&msg, fmt, ap) < 0)
        abort();
    va_end(ap);
    struct buf line = {0};
    time_t now = time(NULL);
    struct tm tm;
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", localtime_r(&now, &tm));
    buf_printf(&line, "%s - %s - %s - ", stamp, log->tag, level);
    /* One event, one line: escape what would break the line format. */
    for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
        if (*p == '\n')
            buf_adds(&line, "\\n");
        else if (*p < 0x20 || *p == 0x7f)
            buf_printf(&line, "\\x%02x", *p);
        else
            buf_addc(&line, (char)*p);
    }
    buf_addc(&line, '\n');
    free(msg);

    int fd = open_append(log->path);
    if (fd < 0 && errno == ENOENT && make_parent(log->path) == 0)
        fd = open_append(log->path);
    int r = -1;
    if (fd >= 0) {
        struct stat st;
        if (log->max_bytes && fstat(fd, &st) == 0 && (uint64_t)st.st_size >= log->max_bytes) {
            close(fd);
            rotate(log);
            fd = open_append(log->path);
        }
    }
    if (fd >= 0) {
        r = write_all(fd, line.data, line.len);
        int saved = errno;
        close(fd);
        errno = saved;
    }
    buf_free(&line);
    return r;
}
