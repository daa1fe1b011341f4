/* fuzz-shell.c - libFuzzer target: the shell emitter round trip.
 *
 * The input is cut into words at its first byte (NULs dropped: argv cannot carry them);
 * the words become the command and an environment value of a plan, which is emitted as
 * a launch script. Every iteration, an in-process reader of the script's quoting must
 * give back the exact argument vector; for one input in 64 (by a hash of the input),
 * the script really runs under dash and
 * under `bash --posix` (env -i LC_ALL=C) with bwrap replaced by a stub that prints its
 * arguments NUL-separated, and the bytes must come back exact.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../compiler/emit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static void
setup(void)
{
    if (dir[0])
        return;
    strcpy(dir, "/tmp/nook-fuzz-shell-XXXXXX");
    if (!mkdtemp(dir))
        abort();
    char stub[128];
    snprintf(stub, sizeof stub, "%s/stub", dir);
    FILE *f = fopen(stub, "w");
    fputs("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done\n", f);
    fclose(f);
    chmod(stub, 0755);
}

/* Reads the words of the script's exec line back: single-quoted pieces, \' and
 * backslash-newline continuations; "$@" ends it. */
static void
read_words(const char *script, struct strv *out)
{
    const char *p = strstr(script, "\nexec ");
    if (!p)
        abort();
    p += 6;
    for (;;) {
        while (*p == ' ' || (p[0] == '\\' && p[1] == '\n'))
            p += *p == ' ' ? 1 : 2;
        if (strncmp(p, "\"$@\"\n", 5) == 0)
            return;
        struct buf w = {0};
        buf_add(&w, "", 0);
        while (*p == '\'' || (p[0] == '\\' && p[1] == '\'')) {
            if (*p == '\\') {
                buf_addc(&w, '\'');
                p += 2;
                continue;
            }
            const char *end = strchr(p + 1, '\'');
            if (!end)
                abort();
            buf_add(&w, p + 1, (size_t)(end - p - 1));
            p = end + 1;
        }
        if (*p != ' ' && *p != '\\')
            abort(); /* something unquoted in the script */
        strv_push_take(out, w.data);
    }
}

static void
run_shell(const char *shell_argv0, const char *opt, const char *script, const struct buf *want)
{
    int fds[2];
    if (pipe(fds) < 0)
        abort();
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        char *const envp[] = {(char *)"LC_ALL=C", NULL};
        if (opt)
            execle(shell_argv0, shell_argv0, opt, script, (char *)NULL, envp);
        else
            execle(shell_argv0, shell_argv0, script, (char *)NULL, envp);
        _exit(127);
    }
    close(fds[1]);
    struct buf got = {0};
    buf_add(&got, "", 0);
    char chunk[65536];
    for (;;) {
        /* libFuzzer's SIGALRM (for -timeout) interrupts reads: retry, or the script
         * would die of SIGPIPE. */
        ssize_t r = read(fds[0], chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        buf_add(&got, chunk, (size_t)r);
    }
    close(fds[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || got.len != want->len ||
        memcmp(got.data, want->data, got.len) != 0) {
        fprintf(stderr, "%s %s: status %d, %zu bytes back, %zu expected\n", shell_argv0,
                opt ? opt : "", st, got.len, want->len);
        abort();
    }
    buf_free(&got);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    if (size == 0 || size > 4096)
        return 0;
    char sep = (char)data[0];
    struct plan plan;
    plan_init(&plan);
    struct plan_op *op = plan_add_op(&plan, PLAN_OP_TMPFS);
    op->dest = xstrdup("/tmp");
    struct buf word = {0};
    buf_add(&word, "", 0);
    for (size_t i = 1; i <= size; i++) {
        if (i == size || (char)data[i] == sep) {
            strv_push(&plan.command, word.data);
            word.len = 0;
            word.data[0] = '\0';
        } else if (data[i] != 0) {
            buf_addc(&word, (char)data[i]);
        }
    }
    buf_free(&word);
    strv_push(&plan.setenv_names, "V");
    strv_push(&plan.setenv_values, plan.command.v[plan.command.n - 1]);

    char stub[128];
    snprintf(stub, sizeof stub, "%s/stub", dir);
    struct buf script = {0};
    emit_sh(&plan, stub, NULL, false, &script);
    struct strv want = {0};
    strv_push(&want, stub);
    plan_bwrap_args(&plan, &want);
    plan_bwrap_command(&plan, &want);
    struct strv got = {0};
    read_words(script.data, &got);
    if (got.n != want.n)
        abort();
    for (size_t i = 0; i < got.n; i++)
        if (strcmp(got.v[i], want.v[i]) != 0)
            abort();

    /* Which inputs also run real shells depends on the input only, so a failure
     * reproduces from its saved input. */
    unsigned long h = 5381;
    for (size_t i = 0; i < size; i++)
        h = h * 33 + data[i];
    if (h % 64 == 0) {
        char path[160];
        snprintf(path, sizeof path, "%s/launch.sh", dir);
        FILE *f = fopen(path, "w");
        fwrite(script.data, 1, script.len, f);
        fclose(f);
        struct buf expect = {0};
        for (size_t i = 1; i < want.n; i++)
            buf_add(&expect, want.v[i], strlen(want.v[i]) + 1);
        run_shell("/bin/dash", NULL, path, &expect);
        run_shell("/bin/bash", "--posix", path, &expect);
        buf_free(&expect);
    }
    strv_free(&got);
    strv_free(&want);
    buf_free(&script);
    plan_free(&plan);
    return 0;
}
