/* test-lint.c - nookc lint, explain and diff on in-memory profiles: the view of a plan,
 * rules, suppressions, and the JSON and SARIF reports parsed back with jansson and
 * checked field by field.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "../../compiler/compile.h"
#include "../../compiler/diff.h"
#include "../../compiler/explain.h"
#include "../../compiler/lint-output.h"
#include "../../compiler/lint.h"
#include "../../compiler/view.h"
#include "../../compiler/yamltree.h"

/* ---- helpers ------------------------------------------------------------------------ */

struct compiled {
    struct plan plan;
    struct ynode *tree;
    const char *yaml;
};

static void
compile_ok(const char *yaml, struct compiled *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    struct diag_sink sink;
    diag_init(&sink, f, "nookc");
    out->tree = NULL;
    out->yaml = yaml;
    struct compile_options opts = {.target = {0, 8, 0}, .tree = &out->tree};
    int r = compile_data("t.yaml", yaml, strlen(yaml), &opts, &sink, &out->plan);
    assert_int_equal(fclose(f), 0);
    if (r != 0)
        print_error("%s", text);
    free(text);
    assert_int_equal(r, 0);
    assert_non_null(out->tree);
}

static void
compiled_free(struct compiled *c)
{
    plan_free(&c->plan);
    ynode_free(c->tree);
}

static void
lint(const char *yaml, unsigned presets, struct lint_report *rep)
{
    struct compiled c;
    compile_ok(yaml, &c);
    struct lint_env env = {"/home/u", NULL, presets};
    lint_run("t.yaml", yaml, strlen(yaml), &c.plan, c.tree, &env, rep);
    compiled_free(&c);
}

/* The finding of rule `id` (the n-th one), or NULL. */
static const struct lint_finding *
find(const struct lint_report *rep, const char *id, size_t n)
{
    for (size_t i = 0; i < rep->n; i++)
        if (strcmp(lint_rules[rep->findings[i].rule].id, id) == 0 && n-- == 0)
            return &rep->findings[i];
    return NULL;
}

static size_t
count(const struct lint_report *rep, const char *id)
{
    size_t n = 0;
    while (find(rep, id, n))
        n++;
    return n;
}

#define CLEAN_TAIL                                                                             \
    "unshare: {pid: true, uts: true, ipc: true, cgroup: true, user: true, network: true}\n"    \
    "timeout: 60\n"                                                                            \
    "unset_vars: ALL\n"

/* ---- view --------------------------------------------------------------------------- */

static void
test_view_patterns_and_hiding(void **state)
{
    (void)state;
    struct compiled c;
    compile_ok("name: t\n"
               "mounts:\n"
               "  - {type: bind, source: /home, target: /home}\n"
               "  - {type: tmpfs, target: /home/u}\n"
               "  - {type: ro-bind, source: /srv/x, target: /x}\n" CLEAN_TAIL,
               &c);
    struct view v;
    view_init(&v, &c.plan);
    struct view_hit *hits = NULL;

    /* A mask over one user does not hide the pattern for every user. */
    size_t n = view_find_host(&v, "/home/*/.ssh", &hits);
    assert_int_equal(n, 1);
    assert_string_equal(hits[0].path, "/home/*/.ssh");
    assert_string_equal(hits[0].host, "/home/*/.ssh");
    assert_true(hits[0].writable);
    assert_false(hits[0].inside);
    view_hits_free(hits, n);

    /* ... but it hides that user. */
    n = view_find_path(&v, "/home/u/.ssh", &hits);
    assert_int_equal(n, 0);
    view_hits_free(hits, n);

    /* A source inside a match shows part of it; read-only through a ro-bind. */
    n = view_find_host(&v, "/srv", &hits);
    assert_int_equal(n, 1);
    assert_string_equal(hits[0].path, "/x");
    assert_string_equal(hits[0].host, "/srv/x");
    assert_false(hits[0].writable);
    assert_true(hits[0].inside);
    view_hits_free(hits, n);

    /* Decider and state. */
    struct view_state st;
    view_state_at(&c.plan, "/x/a/b", &st);
    assert_int_equal(st.access, VIEW_RO);
    assert_string_equal(st.host, "/srv/x/a/b");
    view_state_free(&st);
    view_state_at(&c.plan, "/home/u/.ssh", &st);
    assert_int_equal(st.access, VIEW_TMPFS);
    assert_null(st.host);
    view_state_free(&st);
    view_state_at(&c.plan, "/nothing", &st);
    assert_int_equal(st.access, VIEW_EMPTY);
    assert_int_equal(st.op, VIEW_NONE);
    view_state_free(&st);

    view_free(&v);
    compiled_free(&c);
}

/* ---- rules and suppressions ---------------------------------------------------------- */

static void
test_clean_profile_has_no_finding(void **state)
{
    (void)state;
    struct lint_report rep;
    lint("name: t\nmounts:\n  - {type: ro-bind, source: /usr, target: /usr}\n" CLEAN_TAIL, 0,
         &rep);
    assert_int_equal(rep.n, 0);
    lint_report_free(&rep);
}

static void
test_findings_carry_position_message_and_fix(void **state)
{
    (void)state;
    struct lint_report rep;
    lint("name: t\n"
         "mounts:\n"
         "  - type: ro-bind\n"
         "    source: /home/u\n"
         "    target: /home/u\n"
         "capabilities:\n"
         "  keep: [sys_ptrace]\n" CLEAN_TAIL,
         0, &rep);
    const struct lint_finding *f = find(&rep, "NKL-FS-003", 0);
    assert_non_null(f);
    assert_int_equal(f->severity, LINT_ERROR);
    assert_int_equal(f->line, 5);
    assert_int_equal(f->col, 13);
    assert_string_equal(f->message, "credential paths readable through this mount: "
                                    "'/home/u/.ssh', '/home/u/.aws', '/home/u/.gnupg' and "
                                    "17 more");
    assert_string_equal(f->fix, "hide them with a tmpfs over each ('/home/u/.ssh' first), or "
                                "bind only what the agent needs instead of an ancestor");
    f = find(&rep, "NKL-CAP-002", 0);
    assert_non_null(f);
    assert_int_equal(f->line, 7);
    assert_int_equal(f->col, 10);
    assert_string_equal(f->message, "capability 'CAP_SYS_PTRACE' is kept in the sandbox");
    assert_int_equal(rep.n, 2);
    lint_report_free(&rep);
}

static void
test_presets_raise_severities(void **state)
{
    (void)state;
    int net = lint_rule_find("NKL-NET-001"), pid = lint_rule_find("NKL-NS-001");
    int fs4 = lint_rule_find("NKL-FS-004"), life = lint_rule_find("NKL-LIFE-003");
    assert_true(net >= 0 && pid >= 0 && fs4 >= 0 && life >= 0);
    assert_int_equal(lint_rule_severity((size_t)net, 0), LINT_WARNING);
    assert_int_equal(lint_rule_severity((size_t)net, LINT_PRESET_AGENT), LINT_ERROR);
    assert_int_equal(lint_rule_severity((size_t)pid, LINT_PRESET_AGENT), LINT_ERROR);
    assert_int_equal(lint_rule_severity((size_t)fs4, LINT_PRESET_AGENT), LINT_ERROR);
    assert_int_equal(lint_rule_severity((size_t)life, 0), LINT_INFO);
    assert_int_equal(lint_rule_severity((size_t)life, LINT_PRESET_CI), LINT_WARNING);
    assert_int_equal(lint_rule_severity((size_t)life, LINT_PRESET_AGENT), LINT_INFO);
    assert_int_equal(lint_rule_find("NKL-NOPE"), -1);

    struct lint_report rep;
    lint("name: t\nmounts:\n  - {type: tmpfs, target: /x, size: 1M}\n"
         "unshare: {pid: true, uts: true, ipc: true, cgroup: true, user: true}\n"
         "timeout: 1\nunset_vars: ALL\n",
         LINT_PRESET_AGENT, &rep);
    const struct lint_finding *f = find(&rep, "NKL-NET-001", 0);
    assert_non_null(f);
    assert_int_equal(f->severity, LINT_ERROR);
    lint_report_free(&rep);
}

static const char suppressed_yaml[] =
    "# nook-lint: allow NKL-ENV-003 -- needs PATH\n"                        /* 1 */
    "name: t\n"                                                             /* 2 */
    "mounts:\n"                                                             /* 3 */
    "  # nook-lint: allow NKL-FS-012 -- small\n"                            /* 4 */
    "  # nook-lint: allow NKL-SOCK-002 -- nothing there\n"                  /* 5 */
    "  - type: tmpfs\n"                                                     /* 6 */
    "    target: /a\n"                                                      /* 7 */
    "  - type: tmpfs\n"                                                     /* 8 */
    "    target: /b  # nook-lint: allow NKL-FS-012\n"                       /* 9 */
    "  - type: tmpfs\n"                                                     /* 10 */
    "    target: /c  # nook-lint: allow NKL-FS-012 -- tiny\n"               /* 11 */
    "  - type: tmpfs\n"                                                     /* 12 */
    "\n"                                                                    /* 13 */
    "    # nook-lint: allow NKL-NOPE-1, NKL-FS-012 -- both\n"               /* 14 */
    "    target: /d\n"                                                      /* 15 */
    "  - {type: tmpfs, target: '/e # nook-lint: allow NKL-FS-012 -- no'}\n" /* 16 */
    "unshare: {pid: true, uts: true, ipc: true, cgroup: true, user: true, network: true}\n"
    "timeout: 60\n";

static void
test_suppressions(void **state)
{
    (void)state;
    struct lint_report rep;
    lint(suppressed_yaml, 0, &rep);
    /* above a top-level key */
    const struct lint_finding *f = find(&rep, "NKL-ENV-003", 0);
    assert_non_null(f);
    assert_int_equal(f->line, 2);
    assert_string_equal(f->justification, "needs PATH");
    /* block above the mount entry */
    f = find(&rep, "NKL-FS-012", 0);
    assert_int_equal(f->line, 7);
    assert_string_equal(f->justification, "small");
    /* no reason: not suppressed, and a finding of its own at the comment */
    f = find(&rep, "NKL-FS-012", 1);
    assert_int_equal(f->line, 9);
    assert_null(f->justification);
    f = find(&rep, "NKL-LINT-001", 0);
    assert_non_null(f);
    assert_int_equal(f->line, 9);
    assert_int_equal(f->col, 17);
    /* trailing with a reason */
    f = find(&rep, "NKL-FS-012", 2);
    assert_int_equal(f->line, 11);
    assert_string_equal(f->justification, "tiny");
    /* the known id of a comment that also names an unknown one still applies */
    f = find(&rep, "NKL-FS-012", 3);
    assert_int_equal(f->line, 15);
    assert_string_equal(f->justification, "both");
    f = find(&rep, "NKL-LINT-002", 0);
    assert_non_null(f);
    assert_int_equal(f->line, 14);
    assert_string_equal(f->message, "unknown rule 'NKL-NOPE-1' in suppression");
    /* inside a quoted scalar it is text */
    f = find(&rep, "NKL-FS-012", 4);
    assert_int_equal(f->line, 16);
    assert_null(f->justification);
    assert_int_equal(count(&rep, "NKL-FS-012"), 5);
    lint_report_free(&rep);
}

static void
test_fingerprints_survive_moving_lines(void **state)
{
    (void)state;
    static const char a[] = "name: t\nmounts:\n  - {type: tmpfs, target: /a}\n" CLEAN_TAIL;
    static const char b[] =
        "# a comment\n\nname: t\nmounts:\n  - type: tmpfs\n    target: /a\n" CLEAN_TAIL;
    struct lint_report ra, rb;
    lint(a, 0, &ra);
    lint(b, 0, &rb);
    assert_int_equal(ra.n, 1);
    assert_int_equal(rb.n, 1);
    assert_int_not_equal(ra.findings[0].line, rb.findings[0].line);
    char *fa = lint_fingerprint(&ra, 0), *fb = lint_fingerprint(&rb, 0);
    assert_int_equal(strlen(fa), 16);
    assert_string_equal(fa, fb);
    free(fa);
    free(fb);
    lint_report_free(&ra);
    lint_report_free(&rb);
}

/* ---- JSON and SARIF, parsed back ------------------------------------------------------ */

static json_t *
parse(const struct buf *b)
{
    json_error_t err;
    json_t *j = json_loads(b->data, JSON_REJECT_DUPLICATES, &err);
    if (!j)
        print_error("%d:%d: %s\n", err.line, err.column, err.text);
    assert_non_null(j);
    return j;
}

static const char *
str(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    assert_true(json_is_string(v));
    return json_string_value(v);
}

static json_int_t
num(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    assert_true(json_is_integer(v));
    return json_integer_value(v);
}

static void
test_json_report_fields(void **state)
{
    (void)state;
    struct lint_report rep[2];
    lint(suppressed_yaml, 0, &rep[0]);
    memset(&rep[1], 0, sizeof rep[1]);
    rep[1].file = xstrdup("bad.yaml");
    bool compiled[2] = {true, false};
    struct lint_run_info info = {LINT_WARNING, LINT_PRESET_CI, compiled};
    struct buf out = {0};
    assert_int_equal(lint_output_json(rep, 2, &info, &out), 0);
    json_t *j = parse(&out);

    assert_int_equal(num(j, "nook_lint"), 1);
    assert_string_equal(str(j, "fail_on"), "warning");
    json_t *presets = json_object_get(j, "presets");
    assert_int_equal(json_array_size(presets), 1);
    assert_string_equal(json_string_value(json_array_get(presets, 0)), "ci");
    json_t *profiles = json_object_get(j, "profiles");
    assert_int_equal(json_array_size(profiles), 2);
    assert_string_equal(str(json_array_get(profiles, 1), "file"), "bad.yaml");
    assert_true(json_is_false(json_object_get(json_array_get(profiles, 1), "compiled")));

    json_t *findings = json_object_get(j, "findings");
    assert_int_equal(json_array_size(findings), rep[0].n);
    size_t suppressed = 0;
    for (size_t i = 0; i < rep[0].n; i++) {
        const struct lint_finding *f = &rep[0].findings[i];
        json_t *o = json_array_get(findings, i);
        assert_string_equal(str(o, "rule"), lint_rules[f->rule].id);
        assert_string_equal(str(o, "severity"), lint_severity_name(f->severity));
        assert_string_equal(str(o, "file"), "t.yaml");
        assert_int_equal(num(o, "line"), f->line);
        assert_int_equal(num(o, "column"), f->col);
        assert_string_equal(str(o, "message"), f->message);
        assert_string_equal(str(o, "fix"), f->fix);
        char *fp = lint_fingerprint(&rep[0], i);
        assert_string_equal(str(o, "fingerprint"), fp);
        free(fp);
        json_t *s = json_object_get(o, "suppressed");
        assert_true(json_is_boolean(s));
        assert_int_equal(json_is_true(s), f->justification != NULL);
        if (f->justification) {
            assert_string_equal(str(o, "justification"), f->justification);
            suppressed++;
        } else {
            assert_null(json_object_get(o, "justification"));
        }
    }
    json_t *summary = json_object_get(j, "summary");
    assert_int_equal(num(summary, "suppressed"), suppressed);
    assert_int_equal(num(summary, "suppressed"), 4);
    assert_int_equal(num(summary, "error"), 0);
    assert_int_equal(num(summary, "warning"), 2); /* LINT-001, LINT-002 */
    assert_int_equal(num(summary, "info"), 2);    /* FS-012 on /b and /e */
    json_decref(j);
    buf_free(&out);
    lint_report_free(&rep[0]);
    lint_report_free(&rep[1]);
}

static void
test_sarif_report_fields(void **state)
{
    (void)state;
    struct lint_report rep;
    lint(suppressed_yaml, 0, &rep);
    free(rep.file);
    rep.file = xstrdup("./profiles/my agent.yaml");
    bool compiled[1] = {true};
    struct lint_run_info info = {LINT_ERROR, LINT_PRESET_CI, compiled};
    struct buf out = {0};
    assert_int_equal(lint_output_sarif(&rep, 1, &info, &out), 0);
    json_t *j = parse(&out);

    assert_string_equal(str(j, "version"), "2.1.0");
    assert_string_equal(str(j, "$schema"), "https://json.schemastore.org/sarif-2.1.0.json");
    json_t *runs = json_object_get(j, "runs");
    assert_int_equal(json_array_size(runs), 1);
    json_t *run = json_array_get(runs, 0);
    json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
    assert_string_equal(str(driver, "name"), "nookc");
    json_t *rules = json_object_get(driver, "rules");
    assert_int_equal(json_array_size(rules), lint_rule_count);
    for (size_t r = 0; r < lint_rule_count; r++) {
        json_t *rule = json_array_get(rules, r);
        assert_string_equal(str(rule, "id"), lint_rules[r].id);
        assert_string_equal(str(json_object_get(rule, "shortDescription"), "text"),
                            lint_rules[r].summary);
        assert_string_equal(str(json_object_get(rule, "help"), "text"), lint_rules[r].help);
        const char *level = str(json_object_get(rule, "defaultConfiguration"), "level");
        enum lint_severity sev = lint_rule_severity(r, LINT_PRESET_CI);
        assert_string_equal(level, sev == LINT_ERROR     ? "error"
                                   : sev == LINT_WARNING ? "warning"
                                                         : "note");
    }
    json_t *inv = json_array_get(json_object_get(run, "invocations"), 0);
    assert_true(json_is_true(json_object_get(inv, "executionSuccessful")));

    json_t *results = json_object_get(run, "results");
    assert_int_equal(json_array_size(results), rep.n);
    for (size_t i = 0; i < rep.n; i++) {
        const struct lint_finding *f = &rep.findings[i];
        json_t *res = json_array_get(results, i);
        assert_string_equal(str(res, "ruleId"), lint_rules[f->rule].id);
        assert_int_equal(num(res, "ruleIndex"), f->rule);
        assert_string_equal(str(res, "level"), f->severity == LINT_ERROR     ? "error"
                                               : f->severity == LINT_WARNING ? "warning"
                                                                             : "note");
        assert_string_equal(str(json_object_get(res, "message"), "text"), f->message);
        json_t *locs = json_object_get(res, "locations");
        assert_int_equal(json_array_size(locs), 1);
        json_t *phys = json_object_get(json_array_get(locs, 0), "physicalLocation");
        assert_string_equal(str(json_object_get(phys, "artifactLocation"), "uri"),
                            "profiles/my%20agent.yaml");
        json_t *region = json_object_get(phys, "region");
        assert_int_equal(num(region, "startLine"), f->line);
        assert_int_equal(num(region, "startColumn"), f->col);
        char *fp = lint_fingerprint(&rep, i);
        assert_string_equal(
            str(json_object_get(res, "partialFingerprints"), "nookLintFingerprint/v1"), fp);
        free(fp);
        json_t *sup = json_object_get(res, "suppressions");
        if (f->justification) {
            assert_int_equal(json_array_size(sup), 1);
            assert_string_equal(str(json_array_get(sup, 0), "kind"), "inSource");
            assert_string_equal(str(json_array_get(sup, 0), "justification"), f->justification);
        } else {
            assert_null(sup);
        }
        assert_string_equal(str(json_object_get(res, "properties"), "fix"), f->fix);
    }
    json_decref(j);
    buf_free(&out);
    lint_report_free(&rep);
}

/* ---- explain and diff ----------------------------------------------------------------- */

static void
test_explain_json_fields(void **state)
{
    (void)state;
    struct compiled c;
    compile_ok("name: t\n"
               "mounts:\n"
               "  - {type: ro-bind, source: /srv, target: /srv}\n"
               "  - {type: bind, source: /w, target: /w}\n"
               "  - {type: tmpfs, target: /w/secret, size: 1M}\n"
               "env_vars: {TOKEN: '${NOOK_TEST_UNSET_X:-none}'}\n"
               "unshare: {pid: true}\n",
               &c);
    struct buf out = {0};
    assert_int_equal(explain_json(&c.plan, c.tree, &out), 0);
    json_t *j = parse(&out);
    json_t *paths = json_object_get(j, "paths");
    assert_int_equal(json_array_size(paths), 3);
    static const char *const access[] = {"ro", "rw", "hidden"};
    static const char *const path[] = {"/srv", "/w", "/w/secret"};
    static const char *const origin[] = {"t.yaml:3:43", "t.yaml:4:38", "t.yaml:5:27"};
    for (size_t i = 0; i < 3; i++) {
        json_t *p = json_array_get(paths, i);
        assert_string_equal(str(p, "access"), access[i]);
        assert_string_equal(str(p, "path"), path[i]);
        assert_string_equal(str(p, "origin"), origin[i]);
    }
    assert_int_equal(num(json_array_get(paths, 2), "size"), 1048576);
    json_t *ns = json_object_get(j, "namespaces");
    assert_true(json_is_true(json_object_get(ns, "pid")));
    assert_true(json_is_false(json_object_get(ns, "network")));
    assert_string_equal(str(j, "network"), "shared");
    json_t *env = json_object_get(j, "environment");
    assert_true(json_is_true(json_object_get(env, "inherited")));
    json_t *set = json_array_get(json_object_get(env, "set"), 0);
    assert_string_equal(str(set, "name"), "TOKEN");
    assert_string_equal(str(set, "value_as_written"), "${NOOK_TEST_UNSET_X:-none}");
    assert_true(json_is_null(json_object_get(j, "timeout_ms")));
    json_decref(j);
    buf_free(&out);
    compiled_free(&c);
}

static void
test_diff_ro_to_rw_and_removed_mask_are_weaker(void **state)
{
    (void)state;
    /* A real directory: a read-only bind with a mount point inside needs it. */
    char dir[] = "/tmp/nook-test-lint.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *ssh = xasprintf("%s/.ssh", dir);
    assert_int_equal(mkdir(ssh, 0700), 0);
    char *ya = xasprintf("name: t\nmounts:\n"
                         "  - {type: ro-bind, source: %s, target: /w}\n"
                         "  - {type: tmpfs, target: /w/.ssh}\n" CLEAN_TAIL,
                         dir);
    char *yb = xasprintf("name: t\nmounts:\n"
                         "  - {type: bind, source: %s, target: /w}\n" CLEAN_TAIL,
                         dir);
    char *ro = xasprintf("ro '%s'", dir), *rw = xasprintf("rw '%s'", dir);
    char *rw_ssh = xasprintf("rw '%s'", ssh);
    struct compiled a, b;
    compile_ok(ya, &a);
    compile_ok(yb, &b);
    struct diff d;
    diff_plans(&a.plan, a.tree, &b.plan, b.tree, &d);
    assert_int_equal(d.n, 2);
    assert_int_equal(d.count[DIFF_WEAKER], 2);
    assert_string_equal(d.v[0].subject, "/w");
    assert_string_equal(d.v[0].old_state, ro);
    assert_string_equal(d.v[0].new_state, rw);
    assert_string_equal(d.v[1].subject, "/w/.ssh");
    assert_string_equal(d.v[1].old_state, "tmpfs");
    assert_string_equal(d.v[1].new_state, rw_ssh);
    assert_non_null(strstr(d.v[1].origin, "t.yaml:3:"));

    struct buf out = {0};
    assert_int_equal(diff_json(&d, "a.yaml", "b.yaml", &out), 0);
    json_t *j = parse(&out);
    assert_int_equal(num(j, "weaker"), 2);
    assert_int_equal(num(j, "stronger"), 0);
    json_t *ch = json_array_get(json_object_get(j, "changes"), 1);
    assert_string_equal(str(ch, "change"), "weaker");
    assert_string_equal(str(ch, "what"), "path");
    assert_string_equal(str(ch, "subject"), "/w/.ssh");
    assert_string_equal(str(ch, "old"), "tmpfs");
    json_decref(j);
    buf_free(&out);
    diff_free(&d);

    /* the other way round everything is stronger */
    diff_plans(&b.plan, b.tree, &a.plan, a.tree, &d);
    assert_int_equal(d.count[DIFF_STRONGER], 2);
    assert_int_equal(d.count[DIFF_WEAKER], 0);
    diff_free(&d);
    /* and a plan against itself is no difference */
    diff_plans(&a.plan, a.tree, &a.plan, a.tree, &d);
    assert_int_equal(d.n, 0);
    diff_free(&d);
    compiled_free(&a);
    compiled_free(&b);
    assert_int_equal(rmdir(ssh), 0);
    assert_int_equal(rmdir(dir), 0);
    free(ya);
    free(yb);
    free(ro);
    free(rw);
    free(rw_ssh);
    free(ssh);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view_patterns_and_hiding),
        cmocka_unit_test(test_clean_profile_has_no_finding),
        cmocka_unit_test(test_findings_carry_position_message_and_fix),
        cmocka_unit_test(test_presets_raise_severities),
        cmocka_unit_test(test_suppressions),
        cmocka_unit_test(test_fingerprints_survive_moving_lines),
        cmocka_unit_test(test_json_report_fields),
        cmocka_unit_test(test_sarif_report_fields),
        cmocka_unit_test(test_explain_json_fields),
        cmocka_unit_test(test_diff_ro_to_rw_and_removed_mask_are_weaker),
    };
    return cmocka_run_group_tests_name("lint", tests, NULL, NULL);
}
