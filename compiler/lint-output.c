/* lint-output.c - see lint-output.h. */
#include "lint-output.h"

#include <string.h>

#include "diag.h"
#include "report.h"

void
lint_output_text(const struct lint_report *reports, size_t n, struct buf *out)
{
    for (size_t r = 0; r < n; r++) {
        const struct lint_report *rep = &reports[r];
        for (size_t i = 0; i < rep->n; i++) {
            const struct lint_finding *f = &rep->findings[i];
            if (f->justification)
                continue;
            struct buf at = {0};
            diag_escape(&at, rep->file);
            buf_printf(&at, ":%u:%u: ", f->line, f->col);
            buf_adds(out, at.data);
            buf_printf(out, "%s: ", lint_severity_name(f->severity));
            diag_escape(out, f->message);
            buf_printf(out, " [%s]\n", lint_rules[f->rule].id);
            buf_adds(out, at.data);
            buf_adds(out, "note: fix: ");
            diag_escape(out, f->fix);
            buf_addc(out, '\n');
            buf_free(&at);
        }
    }
}

static json_t *
presets_json(unsigned presets)
{
    json_t *a = json_array();
    if (presets & LINT_PRESET_AGENT)
        a = report_push(a, json_string("agent"));
    if (presets & LINT_PRESET_CI)
        a = report_push(a, json_string("ci"));
    return a;
}

int
lint_output_json(const struct lint_report *reports, size_t n, const struct lint_run_info *info,
                 struct buf *out)
{
    size_t count[3] = {0, 0, 0}, suppressed = 0;
    json_t *profiles = json_array(), *findings = json_array();
    for (size_t r = 0; r < n; r++) {
        const struct lint_report *rep = &reports[r];
        json_t *p = json_object();
        p = report_set(p, "file", report_json_string(rep->file));
        p = report_set(p, "compiled", json_boolean(info->compiled[r]));
        profiles = report_push(profiles, p);
        for (size_t i = 0; i < rep->n; i++) {
            const struct lint_finding *f = &rep->findings[i];
            char *fp = lint_fingerprint(rep, i);
            json_t *o = json_object();
            o = report_set(o, "rule", json_string(lint_rules[f->rule].id));
            o = report_set(o, "severity", json_string(lint_severity_name(f->severity)));
            o = report_set(o, "file", report_json_string(rep->file));
            o = report_set(o, "line", json_integer(f->line));
            o = report_set(o, "column", json_integer(f->col));
            o = report_set(o, "message", report_json_string(f->message));
            o = report_set(o, "fix", report_json_string(f->fix));
            o = report_set(o, "fingerprint", json_string(fp));
            o = report_set(o, "suppressed", json_boolean(f->justification != NULL));
            if (f->justification)
                o = report_set(o, "justification", report_json_string(f->justification));
            findings = report_push(findings, o);
            free(fp);
            if (f->justification)
                suppressed++;
            else
                count[f->severity]++;
        }
    }
    json_t *summary = json_object();
    summary = report_set(summary, "error", json_integer((json_int_t)count[LINT_ERROR]));
    summary = report_set(summary, "warning", json_integer((json_int_t)count[LINT_WARNING]));
    summary = report_set(summary, "info", json_integer((json_int_t)count[LINT_INFO]));
    summary = report_set(summary, "suppressed", json_integer((json_int_t)suppressed));
    json_t *root = json_object();
    root = report_set(root, "nook_lint", json_integer(1));
    root = report_set(root, "tool", json_string("nookc " NOOK_VERSION));
    root = report_set(root, "fail_on", json_string(lint_severity_name(info->fail_on)));
    root = report_set(root, "presets", presets_json(info->presets));
    root = report_set(root, "profiles", profiles);
    root = report_set(root, "findings", findings);
    root = report_set(root, "summary", summary);
    return report_json_take(root, out);
}

/* ---- SARIF 2.1.0 ------------------------------------------------------------------------ */

static const char *
sarif_level(enum lint_severity sev)
{
    switch (sev) {
    case LINT_ERROR:
        return "error";
    case LINT_WARNING:
        return "warning";
    case LINT_INFO:
        return "note";
    }
    return "none";
}

/* GitHub code scanning ranks security results by this score (0.0 - 10.0). */
static const char *
security_severity(const char *threat)
{
    if (strcmp(threat, "critical") == 0)
        return "9.0";
    if (strcmp(threat, "high") == 0)
        return "7.0";
    if (strcmp(threat, "medium") == 0)
        return "5.0";
    if (strcmp(threat, "low") == 0)
        return "2.0";
    return NULL;
}

/* A relative URI reference for a file name: "./" dropped, bytes outside RFC 3986's
 * unreserved set and '/' percent-encoded; absolute names become file:// URIs. */
static char *
file_uri(const char *file)
{
    struct buf b = {0};
    while (strncmp(file, "./", 2) == 0)
        file += 2;
    if (file[0] == '/')
        buf_adds(&b, "file://");
    for (const unsigned char *p = (const unsigned char *)file; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p))
            buf_addc(&b, (char)*p);
        else
            buf_printf(&b, "%%%02X", *p);
    }
    return b.data ? b.data : xstrdup("");
}

static json_t *
sarif_rules(unsigned presets)
{
    json_t *rules = json_array();
    for (size_t r = 0; r < lint_rule_count; r++) {
        const struct lint_rule *rule = &lint_rules[r];
        json_t *o = json_object();
        o = report_set(o, "id", json_string(rule->id));
        json_t *sd = report_set(json_object(), "text", json_string(rule->summary));
        o = report_set(o, "shortDescription", sd);
        json_t *help = report_set(json_object(), "text", json_string(rule->help));
        o = report_set(o, "help", help);
        json_t *conf = report_set(json_object(), "level",
                                  json_string(sarif_level(lint_rule_severity(r, presets))));
        o = report_set(o, "defaultConfiguration", conf);
        json_t *props = json_object();
        props = report_set(props, "tags", report_push(json_array(), json_string("security")));
        const char *score = security_severity(rule->threat);
        if (score)
            props = report_set(props, "security-severity", json_string(score));
        o = report_set(o, "properties", props);
        rules = report_push(rules, o);
    }
    return rules;
}

static json_t *
sarif_result(const struct lint_report *rep, size_t i)
{
    const struct lint_finding *f = &rep->findings[i];
    char *uri = file_uri(rep->file);
    char *fp = lint_fingerprint(rep, i);
    json_t *o = json_object();
    o = report_set(o, "ruleId", json_string(lint_rules[f->rule].id));
    o = report_set(o, "ruleIndex", json_integer((json_int_t)f->rule));
    o = report_set(o, "level", json_string(sarif_level(f->severity)));
    o = report_set(o, "message",
                   report_set(json_object(), "text", report_json_string(f->message)));
    json_t *region = json_object();
    region = report_set(region, "startLine", json_integer(f->line));
    region = report_set(region, "startColumn", json_integer(f->col));
    json_t *phys = json_object();
    phys = report_set(phys, "artifactLocation",
                      report_set(json_object(), "uri", report_json_string(uri)));
    phys = report_set(phys, "region", region);
    json_t *loc = report_set(json_object(), "physicalLocation", phys);
    o = report_set(o, "locations", report_push(json_array(), loc));
    o = report_set(o, "partialFingerprints",
                   report_set(json_object(), "nookLintFingerprint/v1", json_string(fp)));
    if (f->justification) {
        json_t *s = json_object();
        s = report_set(s, "kind", json_string("inSource"));
        s = report_set(s, "justification", report_json_string(f->justification));
        o = report_set(o, "suppressions", report_push(json_array(), s));
    }
    o = report_set(o, "properties",
                   report_set(json_object(), "fix", report_json_string(f->fix)));
    free(uri);
    free(fp);
    return o;
}

int
lint_output_sarif(const struct lint_report *reports, size_t n, const struct lint_run_info *info,
                  struct buf *out)
{
    json_t *results = json_array();
    json_t *notes = json_array();
    bool ok = true;
    for (size_t r = 0; r < n; r++) {
        for (size_t i = 0; i < reports[r].n; i++)
            results = report_push(results, sarif_result(&reports[r], i));
        if (!info->compiled[r]) {
            ok = false;
            char *msg = xasprintf("profile '%s' does not compile", reports[r].file);
            json_t *note = json_object();
            note = report_set(note, "level", json_string("error"));
            note = report_set(note, "message",
                              report_set(json_object(), "text", report_json_string(msg)));
            notes = report_push(notes, note);
            free(msg);
        }
    }
    json_t *driver = json_object();
    driver = report_set(driver, "name", json_string("nookc"));
    driver = report_set(driver, "version", json_string(NOOK_VERSION));
    driver = report_set(driver, "rules", sarif_rules(info->presets));
    json_t *inv = json_object();
    inv = report_set(inv, "executionSuccessful", json_boolean(ok));
    inv = report_set(inv, "toolExecutionNotifications", notes);
    json_t *run = json_object();
    run = report_set(run, "tool", report_set(json_object(), "driver", driver));
    run = report_set(run, "invocations", report_push(json_array(), inv));
    run = report_set(run, "columnKind", json_string("unicodeCodePoints"));
    run = report_set(run, "results", results);
    json_t *root = json_object();
    root = report_set(root, "$schema",
                      json_string("https://json.schemastore.org/sarif-2.1.0.json"));
    root = report_set(root, "version", json_string("2.1.0"));
    root = report_set(root, "runs", report_push(json_array(), run));
    return report_json_take(root, out);
}

/* ---- the rule list ---------------------------------------------------------------------- */

void
lint_output_rules_text(unsigned presets, struct buf *out)
{
    for (size_t r = 0; r < lint_rule_count; r++)
        buf_printf(out, "%-13s %-8s %s\n", lint_rules[r].id,
                   lint_severity_name(lint_rule_severity(r, presets)), lint_rules[r].summary);
}

int
lint_output_rules_json(unsigned presets, struct buf *out)
{
    json_t *a = json_array();
    for (size_t r = 0; r < lint_rule_count; r++) {
        json_t *o = json_object();
        o = report_set(o, "id", json_string(lint_rules[r].id));
        o = report_set(o, "severity",
                       json_string(lint_severity_name(lint_rule_severity(r, presets))));
        o = report_set(o, "threat", json_string(lint_rules[r].threat));
        o = report_set(o, "summary", json_string(lint_rules[r].summary));
        o = report_set(o, "help", json_string(lint_rules[r].help));
        a = report_push(a, o);
    }
    return report_json_take(a, out);
}
