/* plan-json.c - plan JSON writer. */
#include "plan-json.h"

#include <jansson.h>
#include <string.h>

/* jansson's json_*_set_new steal their value even on failure; a NULL value (invalid
 * UTF-8) makes the set fail, which we record in *ok. */
static void
set(json_t *obj, const char *key, json_t *value, bool *ok)
{
    if (!value || json_object_set_new(obj, key, value) < 0)
        *ok = false;
}

static void
append(json_t *arr, json_t *value, bool *ok)
{
    if (!value || json_array_append_new(arr, value) < 0)
        *ok = false;
}

static json_t *
strv_json(const struct strv *sv, bool *ok)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < sv->n; i++)
        append(arr, json_string(sv->v[i]), ok);
    return arr;
}

static json_t *
op_json(const struct plan_op *op, bool *ok)
{
    json_t *o = json_object();
    set(o, "op", json_string(plan_op_kind_name(op->kind)), ok);
    if (op->source)
        set(o, op->kind == PLAN_OP_SYMLINK ? "target" : "source", json_string(op->source), ok);
    set(o, "dest", json_string(op->dest), ok);
    if (op->workdir)
        set(o, "workdir", json_string(op->workdir), ok);
    if (op->layers.n)
        set(o, "layers", strv_json(&op->layers, ok), ok);
    if (op->size)
        set(o, "size", json_integer((json_int_t)op->size), ok);
    if (op->perms >= 0) {
        char perms[16];
        snprintf(perms, sizeof perms, "%04o", (unsigned)op->perms);
        set(o, "perms", json_string(perms), ok);
    }
    if (op->optional)
        set(o, "optional", json_true(), ok);
    if (op->create_source != PLAN_CREATE_NONE)
        set(o, "create_source",
            json_string(op->create_source == PLAN_CREATE_FILE ? "file" : "dir"), ok);
    char *origin = plan_loc_str(&op->origin);
    if (origin)
        set(o, "origin", json_string(origin), ok);
    free(origin);
    return o;
}

char *
plan_to_json(const struct plan *plan)
{
    bool ok = true;
    json_t *root = json_object();
    set(root, "nook_plan", json_integer(PLAN_VERSION), &ok);
    set(root, "name", json_string(plan->name ? plan->name : ""), &ok);
    if (plan->profile)
        set(root, "profile", json_string(plan->profile), &ok);
    if (plan->bwrap)
        set(root, "bwrap", json_string(plan->bwrap), &ok);
    char version[48];
    snprintf(version, sizeof version, "%u.%u.%u", plan->target.major, plan->target.minor,
             plan->target.patch);
    set(root, "target_bwrap", json_string(version), &ok);

    json_t *ops = json_array();
    for (size_t i = 0; i < plan->n_ops; i++)
        append(ops, op_json(&plan->ops[i], &ok), &ok);
    set(root, "ops", ops, &ok);

    json_t *ns = json_array();
    for (int i = 0; i < PLAN_NS_COUNT; i++)
        if (plan->namespaces & (1u << i))
            append(ns, json_string(plan_ns_names[i]), &ok);
    set(root, "namespaces", ns, &ok);
    if (plan->hostname)
        set(root, "hostname", json_string(plan->hostname), &ok);

    json_t *caps = json_object();
    set(caps, "add", strv_json(&plan->cap_add, &ok), &ok);
    set(caps, "drop", strv_json(&plan->cap_drop, &ok), &ok);
    set(root, "capabilities", caps, &ok);

    json_t *env = json_object();
    set(env, "clear", json_boolean(plan->clearenv), &ok);
    set(env, "unset", strv_json(&plan->unsetenv, &ok), &ok);
    json_t *envset = json_array();
    for (size_t i = 0; i < plan->setenv_names.n; i++) {
        json_t *pair = json_object();
        set(pair, "name", json_string(plan->setenv_names.v[i]), &ok);
        set(pair, "value", json_string(plan->setenv_values.v[i]), &ok);
        append(envset, pair, &ok);
    }
    set(env, "set", envset, &ok);
    set(root, "env", env, &ok);

    if (plan->chdir)
        set(root, "chdir", json_string(plan->chdir), &ok);
    set(root, "die_with_parent", json_boolean(plan->die_with_parent), &ok);
    set(root, "new_session", json_boolean(plan->new_session), &ok);
    if (plan->timeout_ms)
        set(root, "timeout_ms", json_integer((json_int_t)plan->timeout_ms), &ok);
    if (plan->command.n)
        set(root, "command", strv_json(&plan->command, &ok), &ok);

    char *text = NULL;
    if (ok) {
        char *dump = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        if (dump) {
            text = xasprintf("%s\n", dump);
            free(dump);
        }
    }
    json_decref(root);
    return text;
}
