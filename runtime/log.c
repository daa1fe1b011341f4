/* log.c - see log.h. */
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char *
log_default_path(void)
{
    return xdg_path("XDG_STATE_HOME", ".local/state", "agent-nook/agent-nook.log");
}

void
log_init(struct log *log, const char *prog)
{
    log->path = log_default_path();
    log->tag = xstrdup("agent_nook");
    log->prog = prog;
    log->level = LOG_INFO;
    log->console = LOG_WARNING;
    log->max_bytes = LOG_MAX_BYTES;
    log->backups = LOG_BACKUPS;
    log->warned = false;
}

void
log_set_name(struct log *log, const char *name)
{
    free(log->tag);
    log->tag = name && *name ? xasprintf("agent_nook[%s]", name) : xstrdup("agent_nook");
}

void
log_free(struct log *log)
{
    free(log->path);
    free(log->tag);
    log->path = log->tag = NULL;
}

static const char *const level_names[] = {"DEBUG", "INFO", "WARNING", "ERROR", "OFF"};

const char *
log_level_name(enum log_level level)
{
    return level_names[level];
}

int
log_level_from_name(const char *name)
{
    for (int i = 0; i <= LOG_OFF; i++)
        if (strcasecmp(level_names[i], name) == 0)
            return i;
    return -1;
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

static int
append_line(struct log *log, const struct buf *line)
{
    if (!log->path) {
        errno = ENOENT;
        return -1;
    }
    int fd = open_append(log->path);
    if (fd < 0 && errno == ENOENT && mkdir_parent(log->path, 0700) == 0)
        fd = open_append(log->path);
    if (fd < 0)
        return -1;
    struct stat st;
    if (log->max_bytes && fstat(fd, &st) == 0 && (uint64_t)st.st_size >= log->max_bytes) {
        close(fd);
        rotate(log);
        fd = open_append(log->path);
        if (fd < 0)
            return -1;
    }
    int r = write_all(fd, line->data, line->len);
    int saved = errno;
    close(fd);
    errno = saved;
    return r;
}

void
log_event(struct log *log, enum log_level level, const char *fmt, ...)
{
    if (level < log->level && level < log->console)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *msg = xvasprintf(fmt, ap);
    va_end(ap);
    struct buf line = {0};
    time_t now = time(NULL);
    struct tm tm;
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", localtime_r(&now, &tm));
    buf_printf(&line, "%s - %s - %s - ", stamp, log->tag, level_names[level]);
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
    if (level >= log->console)
        (void)!write_all(2, line.data, line.len);
    if (level >= log->level && append_line(log, &line) < 0 && !log->warned &&
        log->console <= LOG_WARNING) {
        log->warned = true;
        fprintf(stderr, "%s: warning: cannot write the log '%s': %s\n", log->prog,
                log->path ? log->path : "(no HOME or XDG_STATE_HOME)", strerror(errno));
    }
    buf_free(&line);
}
