/* test-plan.c - the plan model, its one bwrap lowering (runtime/plan.h) and the JSON
 * writer (runtime/plan-json.h), on plans built by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../runtime/plan-json.h"
#include "../../runtime/plan.h"
#include "unit-util.h"

/* ---- helpers ---------------------------------------------------------------------- */

/* plan_bwrap_args of plan must be exactly `expected`. */
static void
assert_args(const struct plan *plan, const char *const *expected)
{
    struct strv argv = {0};
    plan_bwrap_args(plan, &argv);
    assert_strv(&argv, expected);
    strv_free(&argv);
}

/* A plan with die_with_parent/new_session off, so only the ops and the unconditional
 * "--cap-drop ALL" remain. */
static void
bare_plan(struct plan *plan)
{
    plan_init(plan);
    plan->die_with_parent = false;
    plan->new_session = false;
}

static struct plan_op *
add(struct plan *plan, enum plan_op_kind kind, const char *source, const char *dest)
{
    struct plan_op *op = plan_add_op(plan, kind);
    op->source = source ? xstrdup(source) : NULL;
    op->dest = dest ? xstrdup(dest) : NULL;
    return op;
}

/* ---- plan model ------------------------------------------------------------------- */

static void
test_init_sets_defaults(void **state)
{
    (void)state;
    struct plan plan;
    memset(&plan, 0xa5, sizeof plan);
    plan_init(&plan);
    assert_true(plan.die_with_parent);
    assert_true(plan.new_session);
    assert_int_equal(plan.target.major, 0);
    assert_int_equal(plan.target.minor, 8);
    assert_int_equal(plan.target.patch, 0);
    assert_int_equal(plan.n_ops, 0);
    assert_null(plan.ops);
    assert_null(plan.name);
    assert_null(plan.hostname);
    assert_null(plan.chdir);
    assert_int_equal(plan.namespaces, 0);
    assert_false(plan.clearenv);
    assert_int_equal(plan.timeout_ms, 0);
    assert_int_equal(plan.command.n, 0);
    plan_free(&plan);
}

static void
test_add_op_is_zeroed_with_default_perms_and_decl(void **state)
{
    (void)state;
    struct plan plan;
    plan_init(&plan);
    for (int i = 0; i < 20; i++) {
        struct plan_op *op = plan_add_op(&plan, PLAN_OP_DIR);
        assert_int_equal(op->kind, PLAN_OP_DIR);
        assert_int_equal(op->perms, -1);
        assert_int_equal(op->size, 0);
        assert_false(op->optional);
        assert_int_equal(op->create_source, PLAN_CREATE_NONE);
        assert_null(op->source);
        assert_null(op->dest);
        assert_null(op->workdir);
        assert_int_equal(op->layers.n, 0);
        assert_null(op->origin.file);
        assert_int_equal(op->decl, (size_t)i);
        op->dest = xasprintf("/d%d", i);
    }
    assert_int_equal(plan.n_ops, 20);
    assert_string_equal(plan.ops[0].dest, "/d0");
    assert_string_equal(plan.ops[19].dest, "/d19");
    plan_free(&plan);
}

static void
test_op_kind_names_round_trip(void **state)
{
    (void)state;
    static const char *const names[PLAN_OP_KIND_COUNT] = {
        "bind", "ro-bind", "dev-bind",   "tmpfs",       "proc",    "dev",
        "dir",  "overlay", "ro-overlay", "tmp-overlay", "symlink", "remount-ro"};
    for (int k = 0; k < PLAN_OP_KIND_COUNT; k++) {
        assert_string_equal(plan_op_kind_name((enum plan_op_kind)k), names[k]);
        assert_int_equal(plan_op_kind_from_name(names[k]), k);
    }
    assert_int_equal(plan_op_kind_from_name("ro_bind"), -1);
    assert_int_equal(plan_op_kind_from_name("BIND"), -1);
    assert_int_equal(plan_op_kind_from_name(""), -1);
    assert_string_equal(plan_ns_names[0], "pid");
    assert_string_equal(plan_ns_names[5], "network");
}

static void
test_loc_str_and_copy(void **state)
{
    (void)state;
    struct plan_loc a = {0}, b = {0};
    assert_null(plan_loc_str(&a));
    plan_loc_set(&a, "p.yaml", 12, 5);
    char *s = plan_loc_str(&a);
    assert_string_equal(s, "p.yaml:12:5");
    free(s);
    plan_loc_copy(&b, &a);
    assert_ptr_not_equal(a.file, b.file);
    s = plan_loc_str(&b);
    assert_string_equal(s, "p.yaml:12:5");
    free(s);
    plan_loc_set(&b, NULL, 1, 1);
    assert_null(b.file);
    assert_null(plan_loc_str(&b));
    free(a.file);
}

/* ---- versions ------------------------------------------------------------------------- */

static void
assert_version(const char *s, unsigned major, unsigned minor, unsigned patch)
{
    struct plan_version v = {99, 99, 99};
    if (plan_version_parse(s, &v) != 0)
        fail_msg("plan_version_parse(\"%s\") failed", s);
    assert_int_equal(v.major, major);
    assert_int_equal(v.minor, minor);
    assert_int_equal(v.patch, patch);
}

static void
test_version_parse_accepts_major_minor_optional_patch(void **state)
{
    (void)state;
    assert_version("0.8.0", 0, 8, 0);
    assert_version("0.11.0", 0, 11, 0);
    assert_version("0.8", 0, 8, 0);
    assert_version("1.2.3", 1, 2, 3);
    assert_version("9999.9999.9999", 9999, 9999, 9999);
}

static void
test_version_parse_rejects_malformed(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",          "1",   "1.",   ".1",   "1..2",    "1.2.",    "1.2.3.4", "v1.2", "1.2a",
        "1.2.3-rc1", "1,2", " 1.2", "1.2 ", "10000.0", "0.10000", "-1.2",    "+1.2",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct plan_version v = {7, 7, 7};
        if (plan_version_parse(bad[i], &v) != -1)
            fail_msg("plan_version_parse(\"%s\") accepted", bad[i]);
        assert_int_equal(v.major, 7);
        assert_int_equal(v.minor, 7);
        assert_int_equal(v.patch, 7);
    }
}

static void
test_version_cmp_orders_numerically(void **state)
{
    (void)state;
    struct plan_version a = {0, 8, 0}, b = {0, 11, 0}, c = {0, 8, 1}, d = {1, 0, 0};
    struct plan_version a2 = {0, 8, 0};
    assert_int_equal(plan_version_cmp(&a, &b), -1);
    assert_int_equal(plan_version_cmp(&b, &a), 1);
    assert_int_equal(plan_version_cmp(&a, &c), -1);
    assert_int_equal(plan_version_cmp(&c, &b), -1);
    assert_int_equal(plan_version_cmp(&d, &b), 1);
    assert_int_equal(plan_version_cmp(&a, &a2), 0);
}

static void
test_option_since_table(void **state)
{
    (void)state;
    const struct plan_version *v = plan_bwrap_option_since("--size");
    assert_non_null(v);
    assert_int_equal(v->major, 0);
    assert_int_equal(v->minor, 7);
    assert_int_equal(v->patch, 0);
    v = plan_bwrap_option_since("--tmp-overlay");
    assert_non_null(v);
    assert_int_equal(v->minor, 11);
    v = plan_bwrap_option_since("--perms");
    assert_non_null(v);
    assert_int_equal(v->minor, 5);
    assert_null(plan_bwrap_option_since("--bogus"));
    assert_null(plan_bwrap_option_since("--"));
    assert_null(plan_bwrap_option_since("bind"));
}

/* ---- bwrap lowering: ops --------------------------------------------------------------- */

static void
test_args_binds_and_try_variants(void **state)
{
    (void)state;
    struct plan plan;
    bare_plan(&plan);
    add(&plan, PLAN_OP_BIND, "/h/a", "/a");
    add(&plan, PLAN_OP_RO_BIND, "/h/b", "/b");
    add(&plan, PLAN_OP_DEV_BIND, "/h/c", "/c");
    add(&plan, PLAN_OP_BIND, "/h/d", "/d")->optional = true;
    add(&plan, PLAN_OP_RO_BIND, "/h/e", "/e")->optional = true;
    add(&plan, PLAN_OP_DEV_BIND, "/h/f", "/f")->optional = true;
    /* create_source is done before bwrap starts; it adds no option */
    add(&plan, PLAN_OP_BIND, "/h/g", "/g")->create_source = PLAN_CREATE_DIR;
    /* clang-format off */
    static const char *const expected[] = {
        "--bind", "/h/a", "/a",
        "--ro-bind", "/h/b", "/b",
        "--dev-bind", "/h/c", "/c",
        "--bind-try", "/h/d", "/d",
        "--ro-bind-try", "/h/e", "/e",
        "--dev-bind-try", "/h/f", "/f",
        "--bind", "/h/g", "/g",
        "--cap-drop", "ALL", NULL};
    /* clang-format on */
    assert_args(&plan, expected);
    plan_free(&plan);
}

static void
test_args_tmpfs_and_dir_with_modifiers(void **state)
{
    (void)state;
    struct plan plan;
    bare_plan(&plan);
    add(&plan, PLAN_OP_TMPFS, NULL, "/t0");
    struct plan_op *op = add(&plan, PLAN_OP_TMPFS, NULL, "/t1");
    op->perms = 01777;
    op->size = 104857600;
    op = add(&plan, PLAN_OP_TMPFS, NULL, "/t2");
    op->perms = 0;
    op = add(&plan, PLAN_OP_TMPFS, NULL, "/t3");
    op->size = 9223372036854775807ULL;
    add(&plan, PLAN_OP_DIR, NULL, "/d0");
    op = add(&plan, PLAN_OP_DIR, NULL, "/d1");
    op->perms = 0700;
    /* a size on a dir means nothing to bwrap and is not emitted */
    op = add(&plan, PLAN_OP_DIR, NULL, "/d2");
    op->perms = 05;
    op->size = 4096;
    /* clang-format off */
    static const char *const expected[] = {
        "--tmpfs", "/t0",
        "--perms", "1777", "--size", "104857600", "--tmpfs", "/t1",
        "--perms", "0000", "--tmpfs", "/t2",
        "--size", "9223372036854775807", "--tmpfs", "/t3",
        "--dir", "/d0",
        "--perms", "0700", "--dir", "/d1",
        "--perms", "0005", "--dir", "/d2",
        "--cap-drop", "ALL", NULL};
    /* clang-format on */
    assert_args(&plan, expected);
    plan_free(&plan);
}

static void
test_args_proc_dev_symlink_remount(void **state)
{
    (void)state;
    struct plan plan;
    bare_plan(&plan);
    add(&plan, PLAN_OP_PROC, NULL, "/proc");
    add(&plan, PLAN_OP_DEV, NULL, "/dev");
    add(&plan, PLAN_OP_SYMLINK, "usr/lib", "/lib");
    add(&plan, PLAN_OP_REMOUNT_RO, NULL, "/srv");
    /* clang-format off */
    static const char *const expected[] = {
        "--proc", "/proc",
        "--dev", "/dev",
        "--symlink", "usr/lib", "/lib",
        "--remount-ro", "/srv",
        "--cap-drop", "ALL", NULL};
    /* clang-format on */
    assert_args(&plan, expected);
    plan_free(&plan);
}

static void
test_args_overlays_take_layers_bottom_first(void **state)
{
    (void)state;
    struct plan plan;
    bare_plan(&plan);
    struct plan_op *op = add(&plan, PLAN_OP_OVERLAY, "/h/upper", "/m");
    op->workdir = xstrdup("/h/work");
    strv_push(&op->layers, "/l/bottom");
    strv_push(&op->layers, "/l/top");
    op = add(&plan, PLAN_OP_RO_OVERLAY, NULL, "/r");
    strv_push(&op->layers, "/l/1");
    strv_push(&op->layers, "/l/2");
    strv_push(&op->layers, "/l/3");
    op = add(&plan, PLAN_OP_TMP_OVERLAY, NULL, "/t");
    strv_push(&op->layers, "/l/only");
    /* clang-format off */
    static const char *const expected[] = {
        "--overlay-src", "/l/bottom",
        "--overlay-src", "/l/top",
        "--overlay", "/h/upper", "/h/work", "/m",
        "--overlay-src", "/l/1",
        "--overlay-src", "/l/2",
        "--overlay-src", "/l/3",
        "--ro-overlay", "/r",
        "--overlay-src", "/l/only",
        "--tmp-overlay", "/t",
        "--cap-drop", "ALL", NULL};
    /* clang-format on */
    assert_args(&plan, expected);
    plan_free(&plan);
}

/* ---- bwrap lowering: globals ------------------------------------------------------------ */

static void
test_args_defaults_are_die_with_parent_new_session_cap_drop_all(void **state)
{
    (void)state;
    struct plan plan;
    plan_init(&plan);
    static const char *const expected[] = {"--die-with-parent", "--new-session", "--cap-drop",
                                           "ALL", NULL};
    assert_args(&plan, expected);
    plan.die_with_parent = false;
    static const char *const no_die[] = {"--new-session", "--cap-drop", "ALL", NULL};
    assert_args(&plan, no_die);
    plan.die_with_parent = true;
    plan.new_session = false;
    static const char *const no_session[] = {"--die-with-parent", "--cap-drop", "ALL", NULL};
    assert_args(&plan, no_session);
    plan_free(&plan);
}

static void
test_args_caps_drop_all_first_then_adds_then_drops(void **state)
{
    (void)state;
    struct plan plan;
    bare_plan(&plan);
    strv_push(&plan.cap_drop, "CAP_SYS_ADMIN");
    strv_push(&plan.cap_add, "ALL");
    strv_push(&plan.cap_drop, "CAP_NET_RAW");
    /* clang-format off */
    static const char *const expected[] = {
        "--cap-drop", "ALL",
        "--cap-add", "ALL",
        "--cap-drop", "CAP_SYS_ADMIN",
        "--cap-drop", "CAP_NET_RAW", NULL};
    /* clang-format on */
    assert_args(&plan, expected);
    plan_free(&plan);

    bare_plan(&plan);
    strv_push(&plan.cap_add, "CAP_CHOWN");
    strv_push(&plan.cap_add, "CAP_NET_BIND_SERVICE");
    static const char *const adds[] = {"--cap-drop", "ALL",       "--cap-add",
                                       "CAP_CHOWN",  "--cap-add", "CAP_NET_BIND_SERVICE",
                                       NULL};
    assert_args(&plan, adds);
    plan_free(&plan);
}

static void
test_args_namespaces_in_fixed_order(void **state)
{
    (void)state;
    struct plan plan;
    bare_plan(&plan);
    plan.namespaces =
        PLAN_NS_NET | PLAN_NS_USER | PLAN_NS_CGROUP | PLAN_NS_IPC | PLAN_NS_UTS | PLAN_NS_PID;
    /* clang-format off */
    static const char *const all[] = {
        "--cap-drop", "ALL",
        "--unshare-pid",
        "--unshare-uts",
        "--unshare-ipc",
        "--unshare-cgroup",
        "--unshare-user",
        "--unshare-net", NULL};
    /* clang-format on */
    assert_args(&plan, all);
    plan.namespaces = PLAN_NS_NET | PLAN_NS_PID;
    static const char *const two[] = {"--cap-drop", "ALL", "--unshare-pid", "--unshare-net",
                                      NULL};
    assert_args(&plan, two);
    plan_free(&plan);
}

static void
test_args_full_global_order(void **state)
{
    (void)state;
    struct plan plan;
    plan_init(&plan);
    add(&plan, PLAN_OP_TMPFS, NULL, "/tmp");
    plan.chdir = xstrdup("/tmp");
    strv_push(&plan.setenv_names, "B");
    strv_push(&plan.setenv_values, "2");
    strv_push(&plan.setenv_names, "A");
    strv_push(&plan.setenv_values, "");
    strv_push(&plan.unsetenv, "X");
    strv_push(&plan.unsetenv, "Y");
    plan.clearenv = true;
    plan.hostname = xstrdup("box");
    plan.namespaces = PLAN_NS_UTS;
    strv_push(&plan.cap_add, "CAP_KILL");
    plan.timeout_ms = 5000; /* timeout(1)'s business, not bwrap's */
    strv_push(&plan.command, "true");
    /* clang-format off */
    static const char *const expected[] = {
        "--die-with-parent",
        "--new-session",
        "--tmpfs", "/tmp",
        "--cap-drop", "ALL",
        "--cap-add", "CAP_KILL",
        "--unshare-uts",
        "--hostname", "box",
        "--clearenv",
        "--unsetenv", "X",
        "--unsetenv", "Y",
        "--setenv", "B", "2",
        "--setenv", "A", "",
        "--chdir", "/tmp", NULL};
    /* clang-format on */
    assert_args(&plan, expected);
    plan_free(&plan);
}

static void
test_args_are_appended_to_what_is_there(void **state)
{
    (void)state;
    struct plan plan;
    bare_plan(&plan);
    struct strv argv = {0};
    strv_push(&argv, "bwrap");
    plan_bwrap_args(&plan, &argv);
    static const char *const expected[] = {"bwrap", "--cap-drop", "ALL", NULL};
    assert_strv(&argv, expected);
    strv_free(&argv);
    plan_free(&plan);
}

static void
test_command_always_starts_with_double_dash(void **state)
{
    (void)state;
    struct plan plan;
    plan_init(&plan);
    struct strv argv = {0};
    plan_bwrap_command(&plan, &argv);
    static const char *const empty[] = {"--", NULL};
    assert_strv(&argv, empty);
    strv_free(&argv);

    strv_push(&plan.command, "--bind");
    strv_push(&plan.command, "/");
    strv_push(&plan.command, "/");
    strv_push(&plan.command, "--");
    strv_push(&plan.command, "");
    plan_bwrap_command(&plan, &argv);
    static const char *const words[] = {"--", "--bind", "/", "/", "--", "", NULL};
    assert_strv(&argv, words);
    strv_free(&argv);
    plan_free(&plan);
}

/* ---- plan_format_seconds ----------------------------------------------------------------- */

static void
assert_seconds(uint64_t ms, const char *expected)
{
    char *s = plan_format_seconds(ms);
    assert_string_equal(s, expected);
    free(s);
}

static void
test_format_seconds_drops_trailing_zeros(void **state)
{
    (void)state;
    assert_seconds(10000, "10");
    assert_seconds(2500, "2.5");
    assert_seconds(100, "0.1");
    assert_seconds(1, "0.001");
    assert_seconds(1010, "1.01");
    assert_seconds(1001, "1.001");
    assert_seconds(0, "0");
    assert_seconds(31536000000ULL, "31536000");
    assert_seconds(UINT64_MAX, "18446744073709551.615");
}

/* ---- JSON ------------------------------------------------------------------------------- */

static void
test_json_of_a_small_plan_is_exact(void **state)
{
    (void)state;
    struct plan plan;
    plan_init(&plan);
    plan.name = xstrdup("demo");
    plan.profile = xstrdup("p.yaml");
    plan.bwrap = xstrdup("/usr/bin/bwrap");
    plan.target = (struct plan_version){0, 11, 0};
    struct plan_op *op = add(&plan, PLAN_OP_TMPFS, NULL, "/tmp");
    op->perms = 01777;
    op->size = 1048576;
    plan_loc_set(&op->origin, "p.yaml", 3, 13);
    op = add(&plan, PLAN_OP_RO_BIND, "/usr", "/usr");
    op->optional = true;
    op->create_source = PLAN_CREATE_FILE;
    op = add(&plan, PLAN_OP_OVERLAY, "/u", "/m");
    op->workdir = xstrdup("/w");
    strv_push(&op->layers, "/l1");
    strv_push(&op->layers, "/l2");
    add(&plan, PLAN_OP_SYMLINK, "usr/lib", "/lib");
    plan.namespaces = PLAN_NS_PID | PLAN_NS_NET;
    plan.hostname = xstrdup("h");
    strv_push(&plan.cap_add, "CAP_CHOWN");
    plan.clearenv = true;
    strv_push(&plan.unsetenv, "FOO");
    strv_push(&plan.setenv_names, "A");
    strv_push(&plan.setenv_values, "1 \"q\"\n");
    plan.chdir = xstrdup("/tmp");
    plan.new_session = false;
    plan.timeout_ms = 1500;
    strv_push(&plan.command, "true");
    char *json = plan_to_json(&plan);
    assert_non_null(json);
    assert_string_equal(json, "{\n"
                              "  \"nook_plan\": 1,\n"
                              "  \"name\": \"demo\",\n"
                              "  \"profile\": \"p.yaml\",\n"
                              "  \"bwrap\": \"/usr/bin/bwrap\",\n"
                              "  \"target_bwrap\": \"0.11.0\",\n"
                              "  \"ops\": [\n"
                              "    {\n"
                              "      \"op\": \"tmpfs\",\n"
                              "      \"dest\": \"/tmp\",\n"
                              "      \"size\": 1048576,\n"
                              "      \"perms\": \"1777\",\n"
                              "      \"origin\": \"p.yaml:3:13\"\n"
                              "    },\n"
                              "    {\n"
                              "      \"op\": \"ro-bind\",\n"
                              "      \"source\": \"/usr\",\n"
                              "      \"dest\": \"/usr\",\n"
                              "      \"optional\": true,\n"
                              "      \"create_source\": \"file\"\n"
                              "    },\n"
                              "    {\n"
                              "      \"op\": \"overlay\",\n"
                              "      \"source\": \"/u\",\n"
                              "      \"dest\": \"/m\",\n"
                              "      \"workdir\": \"/w\",\n"
                              "      \"layers\": [\n"
                              "        \"/l1\",\n"
                              "        \"/l2\"\n"
                              "      ]\n"
                              "    },\n"
                              "    {\n"
                              "      \"op\": \"symlink\",\n"
                              "      \"target\": \"usr/lib\",\n"
                              "      \"dest\": \"/lib\"\n"
                              "    }\n"
                              "  ],\n"
                              "  \"namespaces\": [\n"
                              "    \"pid\",\n"
                              "    \"network\"\n"
                              "  ],\n"
                              "  \"hostname\": \"h\",\n"
                              "  \"capabilities\": {\n"
                              "    \"add\": [\n"
                              "      \"CAP_CHOWN\"\n"
                              "    ],\n"
                              "    \"drop\": []\n"
                              "  },\n"
                              "  \"env\": {\n"
                              "    \"clear\": true,\n"
                              "    \"unset\": [\n"
                              "      \"FOO\"\n"
                              "    ],\n"
                              "    \"set\": [\n"
                              "      {\n"
                              "        \"name\": \"A\",\n"
                              "        \"value\": \"1 \\\"q\\\"\\n\"\n"
                              "      }\n"
                              "    ]\n"
                              "  },\n"
                              "  \"chdir\": \"/tmp\",\n"
                              "  \"die_with_parent\": true,\n"
                              "  \"new_session\": false,\n"
                              "  \"timeout_ms\": 1500,\n"
                              "  \"command\": [\n"
                              "    \"true\"\n"
                              "  ]\n"
                              "}\n");
    /* deterministic: the same plan gives the same bytes */
    char *again = plan_to_json(&plan);
    assert_string_equal(json, again);
    free(again);
    free(json);
    plan_free(&plan);
}

static void
test_json_of_an_empty_plan(void **state)
{
    (void)state;
    struct plan plan;
    plan_init(&plan);
    char *json = plan_to_json(&plan);
    assert_non_null(json);
    assert_string_equal(json, "{\n"
                              "  \"nook_plan\": 1,\n"
                              "  \"name\": \"\",\n"
                              "  \"target_bwrap\": \"0.8.0\",\n"
                              "  \"ops\": [],\n"
                              "  \"namespaces\": [],\n"
                              "  \"capabilities\": {\n"
                              "    \"add\": [],\n"
                              "    \"drop\": []\n"
                              "  },\n"
                              "  \"env\": {\n"
                              "    \"clear\": false,\n"
                              "    \"unset\": [],\n"
                              "    \"set\": []\n"
                              "  },\n"
                              "  \"die_with_parent\": true,\n"
                              "  \"new_session\": true\n"
                              "}\n");
    free(json);
    plan_free(&plan);
}

static void
test_json_is_null_for_invalid_utf8_anywhere(void **state)
{
    (void)state;
    static const char *const bad[] = {"/a\xff", "/\xc3", "/\xc0\xaf", "/\xed\xa0\x80"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        for (int where = 0; where < 7; where++) {
            struct plan plan;
            plan_init(&plan);
            struct plan_op *op = add(&plan, PLAN_OP_BIND, "/src", "/dest");
            switch (where) {
            case 0:
                free(op->dest);
                op->dest = xstrdup(bad[i]);
                break;
            case 1:
                free(op->source);
                op->source = xstrdup(bad[i]);
                break;
            case 2:
                strv_push(&op->layers, bad[i]);
                break;
            case 3:
                plan.name = xstrdup(bad[i]);
                break;
            case 4:
                strv_push(&plan.setenv_names, "A");
                strv_push(&plan.setenv_values, bad[i]);
                break;
            case 5:
                strv_push(&plan.command, bad[i]);
                break;
            case 6:
                plan.chdir = xstrdup(bad[i]);
                break;
            }
            char *json = plan_to_json(&plan);
            if (json)
                fail_msg("invalid UTF-8 case %zu at place %d gave JSON:\n%s", i, where, json);
            plan_free(&plan);
        }
    }
}

/* A plan using every op kind and every global, with canonical paths. */
static void
full_plan(struct plan *plan)
{
    plan_init(plan);
    plan->name = xstrdup("full");
    plan->profile = xstrdup("p.yaml");
    plan->bwrap = xstrdup("/usr/bin/bwrap");
    plan->target = (struct plan_version){0, 11, 0};
    add(plan, PLAN_OP_RO_BIND, "/usr", "/usr");
    struct plan_op *op = add(plan, PLAN_OP_BIND, "/home/u/src", "/src");
    op->optional = true;
    op->create_source = PLAN_CREATE_DIR;
    plan_loc_set(&op->origin, "p.yaml", 7, 13);
    add(plan, PLAN_OP_DEV_BIND, "/dev/null", "/srv/null");
    op = add(plan, PLAN_OP_TMPFS, NULL, "/tmp");
    op->perms = 01777;
    op->size = 1048576;
    op = add(plan, PLAN_OP_DIR, NULL, "/tmp/d");
    op->perms = 0700;
    add(plan, PLAN_OP_PROC, NULL, "/proc");
    add(plan, PLAN_OP_DEV, NULL, "/dev");
    add(plan, PLAN_OP_SYMLINK, "usr/lib", "/lib");
    op = add(plan, PLAN_OP_OVERLAY, "/tmp/up", "/m");
    op->workdir = xstrdup("/tmp/work");
    strv_push(&op->layers, "/usr/share");
    op = add(plan, PLAN_OP_RO_OVERLAY, NULL, "/r");
    strv_push(&op->layers, "/usr/share");
    strv_push(&op->layers, "/usr/lib");
    op = add(plan, PLAN_OP_TMP_OVERLAY, NULL, "/t");
    strv_push(&op->layers, "/usr/share");
    add(plan, PLAN_OP_REMOUNT_RO, NULL, "/usr");
    plan->namespaces = PLAN_NS_PID | PLAN_NS_UTS | PLAN_NS_IPC | PLAN_NS_NET;
    plan->hostname = xstrdup("box");
    strv_push(&plan->cap_add, "ALL");
    strv_push(&plan->cap_drop, "CAP_SYS_ADMIN");
    plan->clearenv = true;
    strv_push(&plan->unsetenv, "FOO");
    strv_push(&plan->setenv_names, "A");
    strv_push(&plan->setenv_values, "it's \"q\" $(x)\n");
    plan->chdir = xstrdup("/tmp");
    plan->die_with_parent = false;
    plan->timeout_ms = 2500;
    strv_push(&plan->command, "sh");
    strv_push(&plan->command, "-c");
    strv_push(&plan->command, "echo hi");
}

static void
test_options_used_lists_each_option_once_in_first_use_order(void **state)
{
    (void)state;
    struct plan plan;
    full_plan(&plan);
    struct strv used = {0};
    plan_bwrap_options_used(&plan, &used);
    /* clang-format off */
    static const char *const expected[] = {
        "--new-session",
        "--ro-bind",
        "--bind-try",
        "--dev-bind",
        "--perms", "--size", "--tmpfs",
        "--dir",
        "--proc",
        "--dev",
        "--symlink",
        "--overlay-src",
        "--overlay",
        "--ro-overlay",
        "--tmp-overlay",
        "--remount-ro",
        "--cap-drop",
        "--cap-add",
        "--unshare-pid",
        "--unshare-uts",
        "--unshare-ipc",
        "--unshare-net",
        "--hostname",
        "--clearenv",
        "--unsetenv",
        "--setenv",
        "--chdir", NULL};
    /* clang-format on */
    assert_strv(&used, expected);
    strv_free(&used);
    plan_free(&plan);
}

static void
test_json_round_trips_through_the_reader(void **state)
{
    (void)state;
    struct plan plan;
    full_plan(&plan);
    char *json = plan_to_json(&plan);
    assert_non_null(json);
    struct plan back;
    char *err = NULL;
    if (plan_from_json("plan.json", json, strlen(json), &back, &err) != 0)
        fail_msg("plan_from_json refused plan_to_json's output: %s\n%s", err, json);
    assert_null(err);
    struct strv a = {0}, b = {0};
    plan_bwrap_args(&plan, &a);
    plan_bwrap_command(&plan, &a);
    plan_bwrap_args(&back, &b);
    plan_bwrap_command(&back, &b);
    char *ja = join_argv(&a), *jb = join_argv(&b);
    assert_string_equal(jb, ja);
    assert_int_equal(back.timeout_ms, 2500);
    assert_int_equal(back.target.minor, 11);
    char *again = plan_to_json(&back);
    assert_non_null(again);
    assert_string_equal(again, json);
    free(again);
    free(ja);
    free(jb);
    strv_free(&a);
    strv_free(&b);
    free(json);
    plan_free(&back);
    plan_free(&plan);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_sets_defaults),
        cmocka_unit_test(test_add_op_is_zeroed_with_default_perms_and_decl),
        cmocka_unit_test(test_op_kind_names_round_trip),
        cmocka_unit_test(test_loc_str_and_copy),
        cmocka_unit_test(test_version_parse_accepts_major_minor_optional_patch),
        cmocka_unit_test(test_version_parse_rejects_malformed),
        cmocka_unit_test(test_version_cmp_orders_numerically),
        cmocka_unit_test(test_option_since_table),
        cmocka_unit_test(test_args_binds_and_try_variants),
        cmocka_unit_test(test_args_tmpfs_and_dir_with_modifiers),
        cmocka_unit_test(test_args_proc_dev_symlink_remount),
        cmocka_unit_test(test_args_overlays_take_layers_bottom_first),
        cmocka_unit_test(test_args_defaults_are_die_with_parent_new_session_cap_drop_all),
        cmocka_unit_test(test_args_caps_drop_all_first_then_adds_then_drops),
        cmocka_unit_test(test_args_namespaces_in_fixed_order),
        cmocka_unit_test(test_args_full_global_order),
        cmocka_unit_test(test_args_are_appended_to_what_is_there),
        cmocka_unit_test(test_command_always_starts_with_double_dash),
        cmocka_unit_test(test_format_seconds_drops_trailing_zeros),
        cmocka_unit_test(test_json_of_a_small_plan_is_exact),
        cmocka_unit_test(test_json_of_an_empty_plan),
        cmocka_unit_test(test_json_is_null_for_invalid_utf8_anywhere),
        cmocka_unit_test(test_options_used_lists_each_option_once_in_first_use_order),
        cmocka_unit_test(test_json_round_trips_through_the_reader),
    };
    return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
