/* test-compile.c - compile_data (compiler/compile.h) end to end on in-memory profiles.
 *
 * Accepted profiles are checked by their whole bwrap vector (plan_bwrap_args +
 * plan_bwrap_command, the one lowering every output uses), rejected ones by the whole
 * diagnostic text.
 */
#include <setjmp.h>
#include <signal.h>
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

#include "../../compiler/compile.h"
#include "../../compiler/parse.h"
#include "../../runtime/plan.h"
#include "unit-util.h"

#define V080                                                                                   \
    {                                                                                          \
        0, 8, 0                                                                                \
    }
#define V0110                                                                                  \
    {                                                                                          \
        0, 11, 0                                                                               \
    }

/* ---- helpers ---------------------------------------------------------------------- */

struct result {
    int r;
    struct strv argv; /* owned: the whole vector on success */
    char *text;       /* owned: everything the sink wrote */
    unsigned errors;
};

static struct result
compile_with(const char *yaml, struct plan_version target, char *const *command,
             size_t n_command)
{
    struct result res = {0};
    size_t len = 0;
    FILE *f = open_memstream(&res.text, &len);
    assert_non_null(f);
    struct diag_sink sink;
    diag_init(&sink, f, "nookc");
    struct compile_options opts = {
        .target = target, .command = command, .n_command = n_command};
    struct plan plan;
    res.r = compile_data("t.yaml", yaml, strlen(yaml), &opts, &sink, &plan);
    assert_int_equal(fclose(f), 0);
    res.errors = sink.errors;
    if (res.r == 0) {
        plan_bwrap_args(&plan, &res.argv);
        plan_bwrap_command(&plan, &res.argv);
    } else {
        /* a failed compile leaves an empty plan */
        assert_int_equal(plan.n_ops, 0);
        assert_null(plan.ops);
        assert_int_equal(plan.command.n, 0);
    }
    plan_free(&plan);
    return res;
}

static struct result
compile(const char *yaml)
{
    return compile_with(yaml, (struct plan_version)V080, NULL, 0);
}

static void
result_free(struct result *res)
{
    strv_free(&res->argv);
    free(res->text);
}

static bool
strv_equal(const struct strv *a, const struct strv *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->v[i], b->v[i]) != 0)
            return false;
    return true;
}

static void
assert_compiles_to(const char *yaml, const char *const *expected)
{
    struct result res = compile(yaml);
    if (res.r != 0)
        fail_msg("compile failed:\n%s", res.text);
    assert_string_equal(res.text, "");
    assert_strv(&res.argv, expected);
    result_free(&res);
}

static void
assert_rejected_with(const char *yaml, struct plan_version target, const char *expected,
                     unsigned errors)
{
    struct result res = compile_with(yaml, target, NULL, 0);
    assert_int_equal(res.r, -1);
    assert_int_equal(res.argv.n, 0);
    assert_string_equal(res.text, expected);
    assert_int_equal(res.errors, errors);
    result_free(&res);
}

static void
assert_rejected(const char *yaml, const char *expected, unsigned errors)
{
    assert_rejected_with(yaml, (struct plan_version)V080, expected, errors);
}

#define CHILD_COMPILED 10
#define CHILD_REJECTED 11

/* Compiles in a child process, so a crash fails one test instead of ending the run.
 * Returns the child's exit status (CHILD_COMPILED, CHILD_REJECTED, anything else when it
 * died: 128 + signal, or a sanitizer's exit code); *text gets what the sink wrote. */
static int
compile_in_child(const char *yaml, struct plan_version target, char **text)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* cmocka catches these to go on with the next test; here they must end the
         * child */
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        signal(SIGILL, SIG_DFL);
        signal(SIGFPE, SIG_DFL);
        signal(SIGABRT, SIG_DFL);
        struct diag_sink sink;
        diag_init(&sink, f, "nookc");
        struct compile_options opts = {.target = target};
        struct plan plan;
        int r = compile_data("t.yaml", yaml, strlen(yaml), &opts, &sink, &plan);
        fflush(f);
        _exit(r == 0 ? CHILD_COMPILED : CHILD_REJECTED);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    struct buf b = {0};
    buf_adds(&b, "");
    rewind(f);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_add(&b, chunk, n);
    fclose(f);
    *text = b.data;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* ---- accepted profiles ---------------------------------------------------------------- */

static void
test_minimal_profile_argv(void **state)
{
    (void)state;
    /* clang-format off */
    static const char *const expected[] = {
        "--die-with-parent",
        "--new-session",
        "--tmpfs", "/tmp",
        "--cap-drop", "ALL",
        "--", NULL};
    /* clang-format on */
    assert_compiles_to("name: t\nmounts:\n  - {type: tmpfs, target: /tmp}\n", expected);
}

static void
test_full_profile_argv(void **state)
{
    (void)state;
    unsetenv("NOOK_T_GREETING");
    /* clang-format off */
    static const char *const expected[] = {
        "--ro-bind", "/usr", "/usr",
        "--bind-try", "/nonexistent/nook-src", "/srv/data",
        "--perms", "1777", "--size", "67108864", "--tmpfs", "/tmp",
        "--perms", "0700", "--dir", "/srv/work",
        "--proc", "/proc",
        "--dev", "/dev",
        "--tmpfs", "/srv/work/cache",
        "--cap-drop", "ALL",
        "--cap-add", "CAP_NET_BIND_SERVICE",
        "--cap-add", "CAP_CHOWN",
        "--unshare-pid",
        "--unshare-uts",
        "--unshare-ipc",
        "--unshare-user",
        "--unshare-net",
        "--hostname", "box",
        "--clearenv",
        "--setenv", "LANG", "C.UTF-8",
        "--setenv", "GREETING", "hello",
        "--chdir", "/srv/work",
        "--", NULL};
    /* clang-format on */
    assert_compiles_to("name: rich\n"
                       "mounts:\n"
                       "  - type: ro-bind\n"
                       "    source: /usr\n"
                       "    target: /usr\n"
                       "  - type: bind\n"
                       "    source: /nonexistent//nook-src/\n"
                       "    target: /srv/./data\n"
                       "    optional: true\n"
                       "  - type: tmpfs\n"
                       "    target: /tmp\n"
                       "    size: 64M\n"
                       "    mode: \"1777\"\n"
                       "  - type: dir\n"
                       "    target: /srv/work\n"
                       "    mode: '0700'\n"
                       "  - type: proc\n"
                       "  - type: dev\n"
                       "  - type: tmpfs\n"
                       "    target: /srv/work/cache\n"
                       "capabilities:\n"
                       "  keep: [net_bind_service, CAP_CHOWN, NET_BIND_SERVICE]\n"
                       "unshare:\n"
                       "  pid: true\n"
                       "  network: true\n"
                       "  user: true\n"
                       "hostname: box\n"
                       "chdir: /srv/work//\n"
                       "die_with_parent: false\n"
                       "new_session: false\n"
                       "timeout: 2.5\n"
                       "env_vars:\n"
                       "  LANG: C.UTF-8\n"
                       "  GREETING: \"${NOOK_T_GREETING:-hello}\"\n"
                       "unset_vars: [ALL]\n",
                       expected);
}

static void
test_keep_all_with_drops_argv(void **state)
{
    (void)state;
    /* clang-format off */
    static const char *const expected[] = {
        "--die-with-parent",
        "--new-session",
        "--tmpfs", "/tmp",
        "--cap-drop", "ALL",
        "--cap-add", "ALL",
        "--cap-drop", "CAP_SYS_ADMIN",
        "--cap-drop", "CAP_NET_RAW",
        "--unsetenv", "FOO",
        "--unsetenv", "BAR",
        "--", NULL};
    /* clang-format on */
    assert_compiles_to("name: t\n"
                       "mounts:\n"
                       "  - {type: tmpfs, target: /tmp}\n"
                       "capabilities:\n"
                       "  keep: [all]\n"
                       "  drop: [sys_admin, CAP_NET_RAW, sys_admin]\n"
                       "unset_vars: FOO, BAR FOO\n",
                       expected);
}

static void
test_baked_command_follows_double_dash(void **state)
{
    (void)state;
    char *const command[] = {(char *)"--bind", (char *)"/",  (char *)"/",
                             (char *)"sh",     (char *)"-c", (char *)"echo $HOME"};
    struct result res = compile_with("name: t\nmounts:\n  - {type: tmpfs, target: /tmp}\n",
                                     (struct plan_version)V080, command, 6);
    assert_int_equal(res.r, 0);
    /* clang-format off */
    static const char *const expected[] = {
        "--die-with-parent",
        "--new-session",
        "--tmpfs", "/tmp",
        "--cap-drop", "ALL",
        "--",
        "--bind", "/", "/", "sh", "-c", "echo $HOME", NULL};
    /* clang-format on */
    assert_strv(&res.argv, expected);
    result_free(&res);
}

/* ---- rejected profiles ------------------------------------------------------------------ */

static void
test_unknown_key_suggests_the_nearest(void **state)
{
    (void)state;
    assert_rejected("name: x\n"
                    "mount:\n"
                    "  - type: tmpfs\n"
                    "    target: /tmp\n",
                    "t.yaml:2:1: error: unknown key 'mount'; did you mean 'mounts'?\n", 1);
    assert_rejected("name: x\n"
                    "mounts:\n"
                    "  - type: tmpfs\n"
                    "    targte: /tmp\n"
                    "    bogus: 1\n",
                    "t.yaml:4:5: error: unknown key 'targte'; did you mean 'target'?\n"
                    "t.yaml:5:5: error: unknown key 'bogus'\n",
                    2);
}

static void
test_duplicate_target_is_reported_with_a_note(void **state)
{
    (void)state;
    assert_rejected("name: x\n"
                    "mounts:\n"
                    "  - type: tmpfs\n"
                    "    target: /srv\n"
                    "  - type: dir\n"
                    "    target: /srv/a\n"
                    "  - type: tmpfs\n"
                    "    target: //srv/./\n",
                    "t.yaml:8:13: error: duplicate mount target '/srv'\n"
                    "t.yaml:4:13: note: '/srv' is first mounted here\n",
                    1);
}

static void
test_timeout_must_be_a_number(void **state)
{
    (void)state;
    assert_rejected("name: x\n"
                    "mounts:\n"
                    "  - {type: tmpfs, target: /tmp}\n"
                    "timeout: ten\n",
                    "t.yaml:4:10: error: expected a number for 'timeout', got 'ten'\n", 1);
    assert_rejected(
        "name: x\n"
        "mounts:\n"
        "  - {type: tmpfs, target: /tmp}\n"
        "timeout: \"ten\"\n",
        "t.yaml:4:10: error: expected a number for 'timeout', got a quoted string\n", 1);
    assert_rejected("name: x\n"
                    "mounts:\n"
                    "  - {type: tmpfs, target: /tmp}\n"
                    "timeout: 0\n",
                    "t.yaml:4:10: error: invalid timeout: timeout must be greater than 0\n", 1);
}

static void
test_value_errors_carry_their_positions(void **state)
{
    (void)state;
    assert_rejected(
        "name: x\n"
        "mounts:\n"
        "  - type: tmpfs\n"
        "    target: /tmp\n"
        "    size: 1 M\n"
        "  - {type: dir, target: rel}\n"
        "hostname: a/b\n",
        "t.yaml:5:11: error: invalid size '1 M': unexpected characters after the "
        "size\n"
        "t.yaml:7:11: error: invalid hostname 'a/b': hostname must not contain '/'\n",
        2);
}

/* Regression: with both spellings of the overlay layers, lower_mount() once reported
 * the conflict, then read the layer values from one spelling and their YAML nodes from
 * the other: `overlay-src: []` with `overlay_src: [/usr, /lib]` indexed the empty
 * list's nodes and crashed (SIGSEGV). It runs in a child so a crash fails only this. */
static void
test_both_overlay_spellings_are_rejected_without_crashing(void **state)
{
    (void)state;
    static const char *const yaml[] = {
        "name: x\n"
        "mounts:\n"
        "  - type: tmp-overlay\n"
        "    target: /srv\n"
        "    overlay-src: [/a]\n"
        "    overlay_src: [/usr, /lib]\n",
        "name: x\n"
        "mounts:\n"
        "  - type: tmp-overlay\n"
        "    target: /srv\n"
        "    overlay-src: []\n"
        "    overlay_src: [/usr, /lib]\n",
    };
    for (size_t i = 0; i < sizeof yaml / sizeof yaml[0]; i++) {
        char *text = NULL;
        int status = compile_in_child(yaml[i], (struct plan_version)V0110, &text);
        if (status != CHILD_REJECTED) {
            print_error("profile %zu: compile ended with status %d (expected %d, rejected); "
                        "diagnostics:\n%s",
                        i, status, CHILD_REJECTED, text);
            free(text);
            fail();
        }
        assert_string_equal(text, "t.yaml:6:5: error: 'overlay-src' and 'overlay_src' are the "
                                  "same setting; keep only 'overlay-src'\n");
        free(text);
    }
}

static void
test_overlay_needs_bwrap_0_11(void **state)
{
    (void)state;
    static const char yaml[] = "name: x\n"
                               "mounts:\n"
                               "  - type: tmp-overlay\n"
                               "    target: /srv\n"
                               "    overlay-src: [/usr]\n";
    assert_rejected(yaml,
                    "t.yaml:4:13: error: bwrap option '--overlay-src' needs bubblewrap 0.11.0 "
                    "or newer; the target is 0.8.0 (see --target-bwrap)\n"
                    "t.yaml:4:13: error: bwrap option '--tmp-overlay' needs bubblewrap 0.11.0 "
                    "or newer; the target is 0.8.0 (see --target-bwrap)\n",
                    2);
    assert_rejected_with(yaml, (struct plan_version){0, 10, 99},
                         "t.yaml:4:13: error: bwrap option '--overlay-src' needs bubblewrap "
                         "0.11.0 or newer; the target is 0.10.99 (see --target-bwrap)\n"
                         "t.yaml:4:13: error: bwrap option '--tmp-overlay' needs bubblewrap "
                         "0.11.0 or newer; the target is 0.10.99 (see --target-bwrap)\n",
                         2);

    struct result res = compile_with(yaml, (struct plan_version)V0110, NULL, 0);
    assert_int_equal(res.r, 0);
    assert_string_equal(res.text, "");
    /* clang-format off */
    static const char *const expected[] = {
        "--die-with-parent",
        "--new-session",
        "--overlay-src", "/usr",
        "--tmp-overlay", "/srv",
        "--cap-drop", "ALL",
        "--", NULL};
    /* clang-format on */
    assert_strv(&res.argv, expected);
    result_free(&res);
}

static void
test_old_targets_refuse_size_perms_and_globals(void **state)
{
    (void)state;
    assert_rejected_with("name: x\n"
                         "mounts:\n"
                         "  - {type: tmpfs, target: /tmp, size: 1M, mode: '0700'}\n"
                         "hostname: h\n",
                         (struct plan_version){0, 4, 0},
                         "t.yaml:3:27: error: bwrap option '--perms' needs bubblewrap 0.5.0 or "
                         "newer; the target is 0.4.0 (see --target-bwrap)\n"
                         "t.yaml:3:27: error: bwrap option '--size' needs bubblewrap 0.7.0 or "
                         "newer; the target is 0.4.0 (see --target-bwrap)\n",
                         2);
    assert_rejected_with("name: x\n"
                         "mounts:\n"
                         "  - {type: tmpfs, target: /tmp}\n",
                         (struct plan_version){0, 1, 7},
                         "t.yaml:1:1: error: bwrap option '--die-with-parent' needs bubblewrap "
                         "0.1.8 or newer; the target is 0.1.7 (see --target-bwrap)\n"
                         "t.yaml:1:1: error: bwrap option '--cap-drop' needs bubblewrap 0.2.0 "
                         "or newer; the target is 0.1.7 (see --target-bwrap)\n",
                         2);
}

static void
test_plan_wide_options_are_reported_once_at_their_key(void **state)
{
    (void)state;
    /* Diagnostics follow the lowering's order; --cap-drop is emitted twice (ALL, then
     * SYS_ADMIN) but reported once, at the capabilities key. */
    assert_rejected_with("name: x\n"
                         "mounts:\n"
                         "  - {type: tmpfs, target: /tmp, size: 1M}\n"
                         "capabilities: {drop: [SYS_ADMIN]}\n",
                         (struct plan_version){0, 1, 7},
                         "t.yaml:1:1: error: bwrap option '--die-with-parent' needs bubblewrap "
                         "0.1.8 or newer; the target is 0.1.7 (see --target-bwrap)\n"
                         "t.yaml:3:27: error: bwrap option '--size' needs bubblewrap 0.7.0 "
                         "or newer; the target is 0.1.7 (see --target-bwrap)\n"
                         "t.yaml:4:1: error: bwrap option '--cap-drop' needs bubblewrap 0.2.0 "
                         "or newer; the target is 0.1.7 (see --target-bwrap)\n",
                         3);
}

/* A profile with `n` tmpfs mounts (two arguments each) and `tail` appended. */
static char *
many_mounts(size_t n, const char *tail)
{
    struct buf b = {0};
    buf_printf(&b, "name: x\nmounts:\n");
    for (size_t i = 0; i < n; i++)
        buf_printf(&b, "  - {type: tmpfs, target: /m/%zu}\n", i);
    buf_printf(&b, "%s", tail);
    return b.data;
}

static void
test_argument_limits_are_checked(void **state)
{
    (void)state;
    /* 4500 mounts: 9000 arguments, plus bwrap itself, --die-with-parent, --new-session,
     * --cap-drop ALL and "--". */
    char *yaml = many_mounts(4500, "");
    assert_rejected(yaml,
                    "t.yaml:2:1: error: the sandbox needs 9006 bwrap arguments; bwrap accepts "
                    "at most 9000\n",
                    1);
    free(yaml);
    yaml = many_mounts(4490, "");
    struct result res = compile_with(yaml, (struct plan_version)V080, NULL, 0);
    assert_int_equal(res.r, 0);
    assert_int_equal(res.argv.n + 1, 8986);
    result_free(&res);
    free(yaml);

    /* One word of 128 KiB: the kernel's MAX_ARG_STRLEN counts the NUL. */
    char *big = xmalloc(PLAN_MAX_ARG_LEN + 1);
    memset(big, 'a', PLAN_MAX_ARG_LEN);
    big[PLAN_MAX_ARG_LEN] = '\0';
    const char *tmp = "name: x\nmounts:\n  - {type: tmpfs, target: /tmp}\n";
    char *env = xasprintf("%senv_vars:\n  X: %s\n", tmp, big);
    assert_rejected(env,
                    "t.yaml:4:1: error: a bwrap argument is 131072 bytes long; the kernel "
                    "accepts at most 131071\n",
                    1);
    free(env);
    char echo[] = "echo";
    char *command[] = {echo, big};
    res = compile_with(tmp, (struct plan_version)V080, command, 2);
    assert_int_equal(res.r, -1);
    assert_string_equal(res.text, "t.yaml:1:1: error: a bwrap argument is 131072 bytes long; "
                                  "the kernel accepts at most 131071\n");
    result_free(&res);
    big[PLAN_MAX_ARG_LEN - 1] = '\0'; /* 131071 bytes: accepted */
    res = compile_with(tmp, (struct plan_version)V080, command, 2);
    assert_int_equal(res.r, 0);
    result_free(&res);
    free(big);
}

/* ---- sort properties -------------------------------------------------------------------- */

static const char *const mount_entries[] = {
    /* unrelated */
    "  - {type: tmpfs, target: /srv/alpha}\n",
    "  - {type: tmpfs, target: /srv/beta}\n",
    "  - {type: tmpfs, target: /opt/gamma}\n",
    "  - {type: tmpfs, target: /var/delta}\n",
    "  - {type: tmpfs, target: /srv/a-b}\n",
    "  - {type: tmpfs, target: /srv/a.b}\n",
    "  - {type: tmpfs, target: /srv/a+b}\n",
    "  - {type: dir, target: /mnt/x}\n",
    /* parents and children, with names that sort between a parent and its children
     * when compared as plain bytes ('+', '-', '.' are below '/') */
    "  - {type: dir, target: /srv/a}\n",
    "  - {type: tmpfs, target: /srv/a/b}\n",
    "  - {type: dir, target: /srv/a/b/c, mode: '0750'}\n",
    "  - {type: tmpfs, target: /srv/a/b-c}\n",
    "  - {type: tmpfs, target: /data, size: 1M}\n",
    "  - {type: tmpfs, target: /data/x}\n",
    "  - {type: dir, target: /data/x.y}\n",
    "  - {type: tmpfs, target: /home}\n",
    "  - {type: dir, target: /home/u, mode: '0700'}\n",
};
#define N_ENTRIES (sizeof mount_entries / sizeof mount_entries[0])

/* The target written in an entry. */
static char *
entry_target(size_t i)
{
    const char *t = strstr(mount_entries[i], "target: ") + strlen("target: ");
    return xstrndup(t, strcspn(t, ",}"));
}

static char *
profile_of(const size_t *order, size_t n)
{
    struct buf b = {0};
    buf_adds(&b, "name: sort\nmounts:\n");
    for (size_t i = 0; i < n; i++)
        buf_adds(&b, mount_entries[order[i]]);
    return b.data;
}

static struct strv
argv_of(const size_t *order, size_t n)
{
    char *yaml = profile_of(order, n);
    struct result res = compile(yaml);
    if (res.r != 0)
        fail_msg("compile failed:\n%s\nprofile:\n%s", res.text, yaml);
    free(yaml);
    free(res.text);
    return res.argv;
}

/* Targets of the mounts in argv, in argv order. */
static struct strv
targets_in(const struct strv *argv)
{
    struct strv t = {0};
    for (size_t i = 0; i + 1 < argv->n; i++)
        if (strcmp(argv->v[i], "--tmpfs") == 0 || strcmp(argv->v[i], "--dir") == 0)
            strv_push(&t, argv->v[++i]);
    return t;
}

/* Every mount comes after all mounts whose target is an ancestor of its target, and
 * every entry appears exactly once. */
static void
assert_ancestors_first(const struct strv *argv)
{
    struct strv t = targets_in(argv);
    assert_int_equal(t.n, N_ENTRIES);
    for (size_t i = 0; i < N_ENTRIES; i++) {
        char *target = entry_target(i);
        size_t seen = 0;
        for (size_t k = 0; k < t.n; k++)
            seen += strcmp(t.v[k], target) == 0;
        if (seen != 1)
            fail_msg("'%s' appears %zu times", target, seen);
        free(target);
    }
    for (size_t k = 0; k < t.n; k++)
        for (size_t j = k + 1; j < t.n; j++)
            if (path_is_ancestor(t.v[j], t.v[k]))
                fail_msg("'%s' is mounted before its ancestor '%s'", t.v[k], t.v[j]);
    strv_free(&t);
}

static uint32_t
lcg_next(uint32_t *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return *seed >> 8;
}

static void
shuffle(size_t *v, size_t n, uint32_t *seed)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = lcg_next(seed) % i;
        size_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

static void
test_sort_parent_after_child_equals_parent_before_child(void **state)
{
    (void)state;
    /* clang-format off */
    static const char *const expected[] = {
        "--die-with-parent",
        "--new-session",
        "--tmpfs", "/srv",
        "--dir", "/srv/a",
        "--tmpfs", "/srv/a/b",
        "--cap-drop", "ALL",
        "--", NULL};
    /* clang-format on */
    assert_compiles_to("name: x\nmounts:\n"
                       "  - {type: tmpfs, target: /srv}\n"
                       "  - {type: dir, target: /srv/a}\n"
                       "  - {type: tmpfs, target: /srv/a/b}\n",
                       expected);
    assert_compiles_to("name: x\nmounts:\n"
                       "  - {type: tmpfs, target: /srv/a/b}\n"
                       "  - {type: dir, target: /srv/a}\n"
                       "  - {type: tmpfs, target: /srv}\n",
                       expected);
    assert_compiles_to("name: x\nmounts:\n"
                       "  - {type: dir, target: /srv/a}\n"
                       "  - {type: tmpfs, target: /srv/a/b}\n"
                       "  - {type: tmpfs, target: /srv}\n",
                       expected);
}

static void
test_sort_keeps_declaration_order_among_unrelated(void **state)
{
    (void)state;
    size_t order[N_ENTRIES];
    for (size_t i = 0; i < N_ENTRIES; i++)
        order[i] = i;
    struct strv argv = argv_of(order, N_ENTRIES);
    /* clang-format off */
    static const char *const expected[] = {
        "--die-with-parent",
        "--new-session",
        "--tmpfs", "/srv/alpha",
        "--tmpfs", "/srv/beta",
        "--tmpfs", "/opt/gamma",
        "--tmpfs", "/var/delta",
        "--tmpfs", "/srv/a-b",
        "--tmpfs", "/srv/a.b",
        "--tmpfs", "/srv/a+b",
        "--dir", "/mnt/x",
        "--dir", "/srv/a",
        "--tmpfs", "/srv/a/b",
        "--perms", "0750", "--dir", "/srv/a/b/c",
        "--tmpfs", "/srv/a/b-c",
        "--size", "1048576", "--tmpfs", "/data",
        "--tmpfs", "/data/x",
        "--dir", "/data/x.y",
        "--tmpfs", "/home",
        "--perms", "0700", "--dir", "/home/u",
        "--cap-drop", "ALL",
        "--", NULL};
    /* clang-format on */
    assert_strv(&argv, expected);
    strv_free(&argv);

    /* reversed: every child waits for its parent, the rest keep declaration order */
    for (size_t i = 0; i < N_ENTRIES; i++)
        order[i] = N_ENTRIES - 1 - i;
    argv = argv_of(order, N_ENTRIES);
    /* clang-format off */
    static const char *const reversed[] = {
        "--die-with-parent",
        "--new-session",
        "--tmpfs", "/home",
        "--perms", "0700", "--dir", "/home/u",
        "--size", "1048576", "--tmpfs", "/data",
        "--dir", "/data/x.y",
        "--tmpfs", "/data/x",
        "--dir", "/srv/a",
        "--tmpfs", "/srv/a/b-c",
        "--tmpfs", "/srv/a/b",
        "--perms", "0750", "--dir", "/srv/a/b/c",
        "--dir", "/mnt/x",
        "--tmpfs", "/srv/a+b",
        "--tmpfs", "/srv/a.b",
        "--tmpfs", "/srv/a-b",
        "--tmpfs", "/var/delta",
        "--tmpfs", "/opt/gamma",
        "--tmpfs", "/srv/beta",
        "--tmpfs", "/srv/alpha",
        "--cap-drop", "ALL",
        "--", NULL};
    /* clang-format on */
    assert_strv(&argv, reversed);
    strv_free(&argv);
}

static void
test_sort_every_shuffle_puts_ancestors_first(void **state)
{
    (void)state;
    uint32_t seed = 20240601u;
    size_t order[N_ENTRIES];
    for (size_t i = 0; i < N_ENTRIES; i++)
        order[i] = i;
    for (int round = 0; round < 50; round++) {
        shuffle(order, N_ENTRIES, &seed);
        struct strv argv = argv_of(order, N_ENTRIES);
        assert_ancestors_first(&argv);
        strv_free(&argv);
    }
}

static void
test_sort_swapping_an_adjacent_ancestor_pair_changes_nothing(void **state)
{
    (void)state;
    uint32_t seed = 7u;
    size_t order[N_ENTRIES];
    for (size_t i = 0; i < N_ENTRIES; i++)
        order[i] = i;
    size_t swaps = 0;
    for (int round = 0; round < 50; round++) {
        shuffle(order, N_ENTRIES, &seed);
        struct strv base = argv_of(order, N_ENTRIES);
        for (size_t j = 0; j + 1 < N_ENTRIES; j++) {
            char *a = entry_target(order[j]), *b = entry_target(order[j + 1]);
            bool related = path_is_ancestor(a, b) || path_is_ancestor(b, a);
            if (related) {
                size_t swapped[N_ENTRIES];
                memcpy(swapped, order, sizeof order);
                swapped[j] = order[j + 1];
                swapped[j + 1] = order[j];
                struct strv other = argv_of(swapped, N_ENTRIES);
                if (!strv_equal(&base, &other)) {
                    char *g = join_argv(&other), *e = join_argv(&base);
                    print_error("swapping '%s' and '%s' changed the argv\n  %s\n  %s\n", a, b,
                                e, g);
                    free(g);
                    free(e);
                    fail();
                }
                strv_free(&other);
                swaps++;
            }
            free(a);
            free(b);
        }
        strv_free(&base);
    }
    /* the shuffles must actually have produced adjacent pairs to swap */
    assert_true(swaps >= 10);
}

static void
test_compile_is_deterministic(void **state)
{
    (void)state;
    uint32_t seed = 99u;
    size_t order[N_ENTRIES];
    for (size_t i = 0; i < N_ENTRIES; i++)
        order[i] = i;
    for (int round = 0; round < 5; round++) {
        shuffle(order, N_ENTRIES, &seed);
        struct strv a = argv_of(order, N_ENTRIES);
        struct strv b = argv_of(order, N_ENTRIES);
        assert_true(strv_equal(&a, &b));
        strv_free(&a);
        strv_free(&b);
    }
}

/* ---- room for mount points (host lookups in a private fixture) ----------------------- */

static void
test_room_opens_up_a_read_only_bind(void **state)
{
    (void)state;
    char dir[] = "/tmp/nook-test-compile.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *etc = xasprintf("%s/etc", dir), *file = xasprintf("%s/file", dir),
         *link = xasprintf("%s/link", dir);
    assert_int_equal(mkdir(etc, 0755), 0);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(symlink("etc", link), 0);
    assert_int_equal(chmod(dir, 0750), 0);

    char *yaml = xasprintf("name: room\n"
                           "mounts:\n"
                           "  - {type: tmpfs, target: /srv/r/new}\n"
                           "  - {type: ro-bind, source: '%s', target: /srv/r}\n"
                           "  - {type: tmpfs, target: /srv/r/etc}\n",
                           dir);
    struct result res = compile(yaml);
    if (res.r != 0)
        fail_msg("compile failed:\n%s", res.text);
    /* clang-format off */
    const char *const expected[] = {
        "--die-with-parent",
        "--new-session",
        "--perms", "0750", "--tmpfs", "/srv/r",
        "--ro-bind", file, "/srv/r/file",
        "--symlink", "etc", "/srv/r/link",
        "--tmpfs", "/srv/r/new",
        "--tmpfs", "/srv/r/etc",
        "--remount-ro", "/srv/r",
        "--cap-drop", "ALL",
        "--", NULL};
    /* clang-format on */
    assert_strv(&res.argv, expected);
    result_free(&res);
    free(yaml);

    assert_int_equal(unlink(link), 0);
    assert_int_equal(unlink(file), 0);
    assert_int_equal(rmdir(etc), 0);
    assert_int_equal(rmdir(dir), 0);
    free(etc);
    free(file);
    free(link);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimal_profile_argv),
        cmocka_unit_test(test_full_profile_argv),
        cmocka_unit_test(test_keep_all_with_drops_argv),
        cmocka_unit_test(test_baked_command_follows_double_dash),
        cmocka_unit_test(test_unknown_key_suggests_the_nearest),
        cmocka_unit_test(test_duplicate_target_is_reported_with_a_note),
        cmocka_unit_test(test_timeout_must_be_a_number),
        cmocka_unit_test(test_value_errors_carry_their_positions),
        cmocka_unit_test(test_both_overlay_spellings_are_rejected_without_crashing),
        cmocka_unit_test(test_overlay_needs_bwrap_0_11),
        cmocka_unit_test(test_old_targets_refuse_size_perms_and_globals),
        cmocka_unit_test(test_plan_wide_options_are_reported_once_at_their_key),
        cmocka_unit_test(test_argument_limits_are_checked),
        cmocka_unit_test(test_sort_parent_after_child_equals_parent_before_child),
        cmocka_unit_test(test_sort_keeps_declaration_order_among_unrelated),
        cmocka_unit_test(test_sort_every_shuffle_puts_ancestors_first),
        cmocka_unit_test(test_sort_swapping_an_adjacent_ancestor_pair_changes_nothing),
        cmocka_unit_test(test_compile_is_deterministic),
        cmocka_unit_test(test_room_opens_up_a_read_only_bind),
    };
    return cmocka_run_group_tests_name("compile", tests, NULL, NULL);
}
