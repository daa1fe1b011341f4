/* probe.c - see probe.h. */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROBE_MAX_HELP (256 * 1024)

void
probe_parse_help(const char *text, struct strv *options)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (p[0] == '-' && p[1] == '-' && p[2] != '\0' && p[2] != ' ') {
            size_t n = 2 + strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
            if (n > 2)
                strv_push_take(options, xstrndup(p, n));
        }
        const char *nl = strchr(p, '\n');
        if (!nl)
            break;
        p = nl + 1;
    }
}

static char *
cache_path(void)
{
    return xdg_path("XDG_CACHE_HOME", ".cache", "agent-nook/bwrap-probe");
}

static char *
read_small(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return NULL;
    struct buf b = {0};
    int r = read_fd_capped(fd, PROBE_MAX_HELP, &b);
    close(fd);
    return r == 0 ? b.data : NULL;
}

/* Runs `bwrap --help` and returns its stdout (owned) or NULL. */
static char *
run_help(const char *bwrap, char **err)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0) {
        *err = xasprintf("cannot probe '%s': %s", bwrap, strerror(errno));
        return NULL;
    }
    pid_t pid = fork();
    if (pid < 0) {
        *err = xasprintf("cannot probe '%s': %s", bwrap, strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return NULL;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(fds[1], 1) < 0 || dup2(devnull, 2) < 0)
            _exit(127);
        char *const argv[] = {(char *)bwrap, (char *)"--help", NULL};
        execv(bwrap, argv);
        _exit(127);
    }
    close(fds[1]);
    struct buf b = {0};
    buf_add(&b, "", 0);
    char chunk[8192];
    for (;;) {
        ssize_t r = read(fds[0], chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        if (b.len < PROBE_MAX_HELP)
            buf_add(&b, chunk, (size_t)r);
    }
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !strstr(b.data, "--")) {
        *err = xasprintf("'%s --help' failed; is it bubblewrap?", bwrap);
        buf_free(&b);
        return NULL;
    }
    return b.data;
}

int
probe_bwrap(const char *bwrap, struct strv *options, char **err)
{
    struct stat st;
    if (stat(bwrap, &st) < 0) {
        *err = xasprintf("cannot probe '%s': %s", bwrap, strerror(errno));
        return -1;
    }
    char *key =
        xasprintf("nook-bwrap-probe 1 %s %llu %llu %lld %lld.%09ld\n", bwrap,
                  (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
                  (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    char *path = cache_path();
    char *cached = path ? read_small(path) : NULL;
    if (cached && strncmp(cached, key, strlen(key)) == 0) {
        probe_parse_help(cached + strlen(key), options);
        free(cached);
        free(path);
        free(key);
        return 0;
    }
    free(cached);
    char *help = run_help(bwrap, err);
    if (!help) {
        free(path);
        free(key);
        return -1;
    }
    probe_parse_help(help, options);
    if (path) {
        /* Best effort: a cache that cannot be written only costs the next run a fork. */
        struct buf data = {0};
        buf_adds(&data, key);
        for (size_t i = 0; i < options->n; i++)
            buf_printf(&data, "%s\n", options->v[i]);
        mkdir_parent(path, 0700);
        write_file_atomic(path, data.data, data.len, 0600);
        buf_free(&data);
    }
    free(help);
    free(path);
    free(key);
    return 0;
}
