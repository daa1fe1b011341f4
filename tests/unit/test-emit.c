/* test-emit.c - the launch script and argv outputs (compiler/emit.h).
 *
 * The script is run for real, by dash and by bash --posix under an empty environment,
 * with a stub in place of bwrap that prints its arguments NUL-separated; what arrives
 * must be byte for byte the vector plan_bwrap_args + plan_bwrap_command produce.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../compiler/emit.h"
#include "../../runtime/plan.h"

#define STUB_TEXT "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done\n"

struct fixture {
    char dir[64];        /* private temp directory */
    char *stub;          /* owned: DIR/stub, prints its arguments NUL-separated */
    char *script;        /* owned: DIR/script.sh */
    struct strv hostile; /* owned: the hostile words */
};

static const char *const shells[][2] = {{"/bin/sh", NULL}, {"/bin/bash", "--posix"}};

/* ---- helpers ---------------------------------------------------------------------- */

static void
write_file(const char *path, const void *data, size_t len, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    assert_true(fd >= 0);
    assert_int_equal(write_all(fd, data, len), 0);
    assert_int_equal(close(fd), 0);
    assert_int_equal(chmod(path, mode), 0);
}

static void
read_file(const char *path, struct buf *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    assert_true(fd >= 0);
    buf_add(out, "", 0);
    for (;;) {
        char chunk[8192];
        ssize_t r = read(fd, chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        assert_true(r >= 0);
        if (r == 0)
            break;
        buf_add(out, chunk, (size_t)r);
    }
    close(fd);
}

static int
remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Runs `env -i LC_ALL=C SHELL [SHELL_OPT] SCRIPT ARGS...` in the fixture directory.
 * Returns the exit status (128 + signal when killed); stdout and stderr are stored in
 * out and err. */
static int
run_script(const struct fixture *fx, const char *const *shell, const char *script,
           const struct strv *args, struct buf *out, struct buf *err)
{
    char *out_path = xasprintf("%s/stdout", fx->dir);
    char *err_path = xasprintf("%s/stderr", fx->dir);
    struct strv argv = {0};
    strv_push(&argv, "env");
    strv_push(&argv, "-i");
    strv_push(&argv, "LC_ALL=C");
    strv_push(&argv, shell[0]);
    if (shell[1])
        strv_push(&argv, shell[1]);
    strv_push(&argv, script);
    for (size_t i = 0; args && i < args->n; i++)
        strv_push(&argv, args->v[i]);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (o < 0 || e < 0 || chdir(fx->dir) < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
            _exit(126);
        execv("/usr/bin/env", argv.v);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        assert_int_equal(errno, EINTR);
    strv_free(&argv);
    read_file(out_path, out);
    read_file(err_path, err);
    unlink(out_path);
    unlink(err_path);
    free(out_path);
    free(err_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* No file whose name starts with "pwned" may exist in the fixture directory. */
static void
assert_no_payload_ran(const struct fixture *fx)
{
    DIR *d = opendir(fx->dir);
    assert_non_null(d);
    struct dirent *de;
    char *found = NULL;
    while ((de = readdir(d)))
        if (!found && strncmp(de->d_name, "pwned", 5) == 0)
            found = xstrdup(de->d_name);
    closedir(d);
    if (found) {
        char *path = xasprintf("%s/%s", fx->dir, found);
        unlink(path);
        free(path);
        fail_msg("a payload ran: '%s' was created", found);
    }
}

/* The NUL-terminated concatenation of vector words, as the stub prints them. */
static void
nul_join(const struct strv *sv, struct buf *out)
{
    buf_add(out, "", 0);
    for (size_t i = 0; i < sv->n; i++)
        buf_add(out, sv->v[i], strlen(sv->v[i]) + 1);
}

/* Finds the first difference for a readable failure message. */
static void
assert_bytes_equal(const struct buf *got, const struct buf *expected, const char *what)
{
    if (got->len == expected->len && memcmp(got->data, expected->data, got->len) == 0)
        return;
    size_t i = 0;
    while (i < got->len && i < expected->len && got->data[i] == expected->data[i])
        i++;
    fail_msg("%s: %zu bytes, expected %zu; first difference at byte %zu", what, got->len,
             expected->len, i);
}

static void
expected_vector(const struct plan *plan, const struct strv *extra, struct buf *out)
{
    struct strv argv = {0};
    plan_bwrap_args(plan, &argv);
    plan_bwrap_command(plan, &argv);
    for (size_t i = 0; extra && i < extra->n; i++)
        strv_push(&argv, extra->v[i]);
    nul_join(&argv, out);
    strv_free(&argv);
}

/* Emits plan's script (bwrap = the stub), runs it with every shell and checks that the
 * stub got exactly the plan's vector followed by `args`. */
static void
assert_round_trip(const struct fixture *fx, const struct plan *plan, const struct strv *args)
{
    struct buf script = {0};
    emit_sh(plan, fx->stub, NULL, false, &script);
    write_file(fx->script, script.data, script.len, 0644);
    struct buf expected = {0};
    expected_vector(plan, args, &expected);
    for (size_t s = 0; s < sizeof shells / sizeof shells[0]; s++) {
        struct buf out = {0}, err = {0};
        int status = run_script(fx, shells[s], fx->script, args, &out, &err);
        if (status != 0)
            fail_msg("%s exited with %d: %s", shells[s][0], status, err.data);
        assert_string_equal(err.data, "");
        assert_bytes_equal(&out, &expected, shells[s][0]);
        assert_no_payload_ran(fx);
        buf_free(&out);
        buf_free(&err);
    }
    buf_free(&expected);
    buf_free(&script);
}

/* A plan whose every user-controlled string is hostile. */
static void
hostile_plan(const struct fixture *fx, struct plan *plan, bool bake_command)
{
    plan_init(plan);
    plan->name = xstrdup("hostile\n'name");
    struct plan_op *op = plan_add_op(plan, PLAN_OP_TMPFS);
    op->dest = xstrdup("/tmp");
    op = plan_add_op(plan, PLAN_OP_BIND);
    op->source = xasprintf("/src/it's $(touch %s/pwned-src)", fx->dir);
    op->dest = xstrdup("/dst/\"q\" `x` ${IFS}");
    plan->hostname = xstrdup("h'o\"st");
    plan->namespaces = PLAN_NS_UTS;
    strv_push(&plan->setenv_names, "HOSTILE");
    strv_push_take(&plan->setenv_values,
                   xasprintf("$(touch %s/pwned-env)'\"`/usr/bin/touch %s/pwned-env2`\n${HOME}"
                             "\\'' ;|&",
                             fx->dir, fx->dir));
    if (bake_command)
        for (size_t i = 0; i < fx->hostile.n; i++)
            strv_push(&plan->command, fx->hostile.v[i]);
}

/* ---- fixture ------------------------------------------------------------------------ */

static int
teardown(void **state)
{
    struct fixture *fx = *state;
    if (!fx)
        return 0;
    int r = nftw(fx->dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
    free(fx->stub);
    free(fx->script);
    strv_free(&fx->hostile);
    free(fx);
    return r == 0 ? 0 : -1;
}

static int
setup(void **state)
{
    struct fixture *fx = xcalloc(1, sizeof *fx);
    snprintf(fx->dir, sizeof fx->dir, "/tmp/nook-test-emit.XXXXXX");
    if (!mkdtemp(fx->dir)) {
        free(fx);
        return -1;
    }
    fx->stub = xasprintf("%s/stub", fx->dir);
    fx->script = xasprintf("%s/script.sh", fx->dir);
    *state = fx;
    int fd = open(fx->stub, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
    if (fd < 0 || write_all(fd, STUB_TEXT, strlen(STUB_TEXT)) < 0 || close(fd) < 0) {
        teardown(state);
        *state = NULL;
        return -1;
    }

    struct strv *h = &fx->hostile;
    strv_push(h, "it's");
    strv_push(h, "'");
    strv_push(h, "''");
    strv_push(h, "'\\''");
    strv_push(h, "\"double\" \"quotes\"");
    strv_push_take(h, xasprintf("$(touch %s/pwned-dollar)", fx->dir));
    strv_push_take(h, xasprintf("$(/usr/bin/touch %s/pwned-dollar-abs)", fx->dir));
    strv_push_take(h, xasprintf("`touch %s/pwned-backtick`", fx->dir));
    strv_push_take(h, xasprintf("`/usr/bin/touch %s/pwned-backtick-abs`", fx->dir));
    strv_push_take(h, xasprintf("; /usr/bin/touch %s/pwned-semicolon", fx->dir));
    strv_push(h, "${IFS}x${IFS}");
    strv_push(h, "$@ $* $0 $1 $# $$ $? $!");
    strv_push(h, "line1\nline2\n");
    strv_push(h, "a\tb");
    strv_push(h, "a\rb");
    strv_push(h, ";&|<>#");
    strv_push(h, "* ? [ ] ~ {a,b}");
    strv_push(h, "~");
    strv_push(h, "~root/x");
    strv_push(h, "!");
    strv_push(h, "-");
    strv_push(h, "--bind");
    strv_push(h, "--");
    strv_push(h, "");
    strv_push(h, "\\");
    strv_push(h, "\\n\\0\\'");
    strv_push(h, "%s%n%%");
    strv_push(h, "  spaces around  ");
    char high[129];
    for (int i = 0; i < 128; i++)
        high[i] = (char)(0x80 + i);
    high[128] = '\0';
    strv_push(h, high);
    strv_push(h, "\xc3\x28 \xff\xfe \xed\xa0\x80 \xc0\xaf");
    struct buf big = {0};
    static const char piece[] = "ab'c$d`e\"f\\g\n${X}$(y)*\xff";
    while (big.len < 10240)
        buf_adds(&big, piece);
    strv_push_take(h, xstrndup(big.data, 10240));
    buf_free(&big);
    return 0;
}

/* ---- tests ---------------------------------------------------------------------------- */

static void
test_payload_detection_works(void **state)
{
    /* Control: the same payload unquoted does create its file, so a clean run below
     * means the quoting held, not that the payload could not run. */
    struct fixture *fx = *state;
    char *script = xasprintf("%s/control.sh", fx->dir);
    char *text = xasprintf("x=$(touch %s/pwned-control)\n", fx->dir);
    write_file(script, text, strlen(text), 0644);
    struct buf out = {0}, err = {0};
    assert_int_equal(run_script(fx, shells[0], script, NULL, &out, &err), 0);
    char *made = xasprintf("%s/pwned-control", fx->dir);
    assert_int_equal(access(made, F_OK), 0);
    unlink(made);
    unlink(script);
    assert_no_payload_ran(fx);
    free(made);
    free(text);
    free(script);
    buf_free(&out);
    buf_free(&err);
}

static void
test_sh_round_trips_hostile_command_and_env(void **state)
{
    struct fixture *fx = *state;
    struct plan plan;
    hostile_plan(fx, &plan, true);
    assert_round_trip(fx, &plan, NULL);
    plan_free(&plan);
}

static void
test_sh_round_trips_each_hostile_word_alone(void **state)
{
    struct fixture *fx = *state;
    for (size_t i = 0; i < fx->hostile.n; i++) {
        struct plan plan;
        plan_init(&plan);
        struct plan_op *op = plan_add_op(&plan, PLAN_OP_TMPFS);
        op->dest = xstrdup(fx->hostile.v[i]);
        strv_push(&plan.setenv_names, "V");
        strv_push(&plan.setenv_values, fx->hostile.v[i]);
        strv_push(&plan.command, fx->hostile.v[i]);
        assert_round_trip(fx, &plan, NULL);
        plan_free(&plan);
    }
}

static void
test_sh_passes_script_arguments_as_the_command(void **state)
{
    struct fixture *fx = *state;
    struct plan plan;
    hostile_plan(fx, &plan, false);
    assert_round_trip(fx, &plan, &fx->hostile);
    plan_free(&plan);
}

static void
test_sh_appends_script_arguments_to_a_baked_command(void **state)
{
    struct fixture *fx = *state;
    struct plan plan;
    hostile_plan(fx, &plan, true);
    struct strv extra = {0};
    strv_push(&extra, "--extra");
    strv_push(&extra, "it's $(x)");
    strv_push(&extra, "");
    assert_round_trip(fx, &plan, &extra);
    strv_free(&extra);
    plan_free(&plan);
}

static void
test_sh_timeout_wraps_bwrap(void **state)
{
    /* The stub stands in for timeout(1) too: it prints timeout's arguments, which
     * are the timeout options, the bwrap path and then bwrap's vector. */
    struct fixture *fx = *state;
    struct plan plan;
    hostile_plan(fx, &plan, true);
    plan.timeout_ms = 2500;
    struct buf script = {0};
    emit_sh(&plan, fx->stub, fx->stub, false, &script);
    write_file(fx->script, script.data, script.len, 0644);
    struct strv prefix = {0};
    strv_push(&prefix, "--foreground");
    strv_push(&prefix, "--kill-after=5");
    strv_push(&prefix, "2.5");
    strv_push(&prefix, fx->stub);
    plan_bwrap_args(&plan, &prefix);
    plan_bwrap_command(&plan, &prefix);
    struct buf expected = {0};
    nul_join(&prefix, &expected);
    for (size_t s = 0; s < sizeof shells / sizeof shells[0]; s++) {
        struct buf out = {0}, err = {0};
        assert_int_equal(run_script(fx, shells[s], fx->script, NULL, &out, &err), 0);
        assert_string_equal(err.data, "");
        assert_bytes_equal(&out, &expected, shells[s][0]);
        buf_free(&out);
        buf_free(&err);
    }
    assert_no_payload_ran(fx);
    buf_free(&expected);
    strv_free(&prefix);
    buf_free(&script);
    plan_free(&plan);
}

static void
test_sh_without_command_and_arguments_prints_usage_and_exits_2(void **state)
{
    struct fixture *fx = *state;
    struct plan plan;
    hostile_plan(fx, &plan, false);
    struct buf script = {0};
    emit_sh(&plan, fx->stub, NULL, false, &script);
    write_file(fx->script, script.data, script.len, 0644);
    for (size_t s = 0; s < sizeof shells / sizeof shells[0]; s++) {
        struct buf out = {0}, err = {0};
        assert_int_equal(run_script(fx, shells[s], fx->script, NULL, &out, &err), 2);
        assert_int_equal(out.len, 0);
        assert_string_equal(err.data, "usage: sh SCRIPT COMMAND [ARGS...]\n");
        buf_free(&out);
        buf_free(&err);
    }
    assert_no_payload_ran(fx);
    buf_free(&script);
    plan_free(&plan);
}

static void
test_sh_text_of_a_small_plan(void **state)
{
    (void)state;
    struct plan plan;
    plan_init(&plan);
    plan.name = xstrdup("x\ny'\x01\xc3\xa9");
    struct plan_op *op = plan_add_op(&plan, PLAN_OP_TMPFS);
    op->dest = xstrdup("/it's");
    struct buf script = {0};
    emit_sh(&plan, "/usr/bin/bwrap", NULL, false, &script);
    assert_string_equal(script.data,
                        "#!/bin/sh\n"
                        "# agent-nook launch script for sandbox 'x?y'\?\?\?'.\n"
                        "# Regenerate it rather than editing: every word below is quoted "
                        "data.\n"
                        "# Usage: sh SCRIPT COMMAND [ARGS...]\n"
                        "set -eu\n"
                        "if [ \"$#\" -eq 0 ]; then\n"
                        "    printf '%s\\n' 'usage: sh SCRIPT COMMAND [ARGS...]' >&2\n"
                        "    exit 2\n"
                        "fi\n"
                        "exec '/usr/bin/bwrap' \\\n"
                        "    '--die-with-parent' \\\n"
                        "    '--new-session' \\\n"
                        "    '--tmpfs' '/it'\\''s' \\\n"
                        "    '--cap-drop' 'ALL' \\\n"
                        "    '--' \"$@\"\n");
    buf_free(&script);

    /* a baked command, a profile name and a timeout */
    plan.profile = xstrdup("p\n.yaml");
    strv_push(&plan.command, "true");
    plan.timeout_ms = 100;
    emit_sh(&plan, "/b'w", "/usr/bin/timeout", false, &script);
    assert_string_equal(
        script.data,
        "#!/bin/sh\n"
        "# agent-nook launch script for sandbox 'x?y'\?\?\?', compiled by nookc " NOOK_VERSION
        " from 'p?.yaml'.\n"
        "# Regenerate it rather than editing: every word below is quoted "
        "data.\n"
        "# Usage: sh SCRIPT [EXTRA ARGS...]\n"
        "set -eu\n"
        "exec '/usr/bin/timeout' '--foreground' '--kill-after=5' '0.1' "
        "'/b'\\''w' \\\n"
        "    '--die-with-parent' \\\n"
        "    '--new-session' \\\n"
        "    '--tmpfs' '/it'\\''s' \\\n"
        "    '--cap-drop' 'ALL' \\\n"
        "    '--' 'true' \"$@\"\n");
    buf_free(&script);

    /* timeout(1) visible inside: it becomes the command's parent in the sandbox */
    emit_sh(&plan, "/b'w", "/usr/bin/timeout", true, &script);
    assert_string_equal(
        script.data,
        "#!/bin/sh\n"
        "# agent-nook launch script for sandbox 'x?y'\?\?\?', compiled by nookc " NOOK_VERSION
        " from 'p?.yaml'.\n"
        "# Regenerate it rather than editing: every word below is quoted "
        "data.\n"
        "# Usage: sh SCRIPT [EXTRA ARGS...]\n"
        "set -eu\n"
        "exec '/b'\\''w' \\\n"
        "    '--die-with-parent' \\\n"
        "    '--new-session' \\\n"
        "    '--tmpfs' '/it'\\''s' \\\n"
        "    '--cap-drop' 'ALL' \\\n"
        "    '--' '/usr/bin/timeout' '--kill-after=5' '0.1' 'true' \"$@\"\n");
    buf_free(&script);
    plan_free(&plan);
}

static void
test_sh_timeout_inside_wraps_the_command(void **state)
{
    /* The stub is bwrap and, inside, timeout(1): it prints bwrap's vector, in which
     * timeout and its options come right after "--", before the command. */
    struct fixture *fx = *state;
    struct plan plan;
    hostile_plan(fx, &plan, true);
    plan.timeout_ms = 2500;
    struct buf script = {0};
    emit_sh(&plan, fx->stub, fx->stub, true, &script);
    write_file(fx->script, script.data, script.len, 0644);
    struct strv vec = {0};
    plan_bwrap_args(&plan, &vec);
    strv_push(&vec, "--");
    strv_push(&vec, fx->stub);
    strv_push(&vec, "--kill-after=5");
    strv_push(&vec, "2.5");
    for (size_t i = 0; i < plan.command.n; i++)
        strv_push(&vec, plan.command.v[i]);
    struct buf expected = {0};
    nul_join(&vec, &expected);
    for (size_t s = 0; s < sizeof shells / sizeof shells[0]; s++) {
        struct buf out = {0}, err = {0};
        assert_int_equal(run_script(fx, shells[s], fx->script, NULL, &out, &err), 0);
        assert_string_equal(err.data, "");
        assert_bytes_equal(&out, &expected, shells[s][0]);
        buf_free(&out);
        buf_free(&err);
    }
    assert_no_payload_ran(fx);
    buf_free(&expected);
    strv_free(&vec);
    buf_free(&script);
    plan_free(&plan);
}

static void
test_argv_is_the_vector_joined_with_nuls(void **state)
{
    struct fixture *fx = *state;
    struct plan plan;
    hostile_plan(fx, &plan, true);
    struct buf got = {0}, expected = {0};
    emit_argv(&plan, &got);
    expected_vector(&plan, NULL, &expected);
    assert_bytes_equal(&got, &expected, "emit_argv");
    /* and it is appended, not overwritten */
    struct buf twice = {0};
    buf_adds(&twice, "head");
    emit_argv(&plan, &twice);
    assert_int_equal(twice.len, 4 + expected.len);
    assert_memory_equal(twice.data, "head", 4);
    assert_memory_equal(twice.data + 4, expected.data, expected.len);
    buf_free(&twice);
    buf_free(&got);
    buf_free(&expected);
    plan_free(&plan);

    plan_init(&plan);
    emit_argv(&plan, &got);
    static const char minimal[] = "--die-with-parent\0--new-session\0--cap-drop\0ALL\0--";
    assert_int_equal(got.len, sizeof minimal);
    assert_memory_equal(got.data, minimal, sizeof minimal);
    buf_free(&got);
    plan_free(&plan);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_payload_detection_works),
        cmocka_unit_test(test_sh_round_trips_hostile_command_and_env),
        cmocka_unit_test(test_sh_round_trips_each_hostile_word_alone),
        cmocka_unit_test(test_sh_passes_script_arguments_as_the_command),
        cmocka_unit_test(test_sh_appends_script_arguments_to_a_baked_command),
        cmocka_unit_test(test_sh_timeout_wraps_bwrap),
        cmocka_unit_test(test_sh_timeout_inside_wraps_the_command),
        cmocka_unit_test(test_sh_without_command_and_arguments_prints_usage_and_exits_2),
        cmocka_unit_test(test_sh_text_of_a_small_plan),
        cmocka_unit_test(test_argv_is_the_vector_joined_with_nuls),
    };
    return cmocka_run_group_tests_name("emit", tests, setup, teardown);
}
