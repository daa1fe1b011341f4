/* logconf.c - see logconf.h. */
#include "logconf.h"

#include <cyaml/cyaml.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "parse.h"
#include "profile.h"

struct logconf_yaml {
    char *level;
    char *console_level;
    char *file;
    unsigned long long *max_bytes;
    unsigned *backup_count;
};

#define OPT CYAML_FLAG_OPTIONAL

static const cyaml_schema_field_t logconf_fields[] = {
    CYAML_FIELD_STRING_PTR("level", OPT, struct logconf_yaml, level, 0, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("console_level", OPT, struct logconf_yaml, console_level, 0,
                           CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("file", OPT, struct logconf_yaml, file, 0, CYAML_UNLIMITED),
    CYAML_FIELD_UINT_PTR("max_bytes", OPT, struct logconf_yaml, max_bytes),
    CYAML_FIELD_UINT_PTR("backup_count", OPT, struct logconf_yaml, backup_count),
    CYAML_FIELD_END,
};

static const cyaml_schema_value_t logconf_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct logconf_yaml, logconf_fields),
};

char *
logconf_config_dir(void)
{
    return xdg_path("XDG_CONFIG_HOME", ".config", "agent-nook");
}

static int
level_at(const char *file, const struct ynode *tree, const char *key, const char *value,
         enum log_level *out, struct diag_sink *sink)
{
    int l = log_level_from_name(value);
    if (l < 0) {
        struct plan_loc loc = ynode_loc(file, ymap_get(tree, key));
        return diag_error(sink, &loc,
                          "invalid %s '%s' (expected DEBUG, INFO, WARNING, ERROR or OFF)", key,
                          value);
    }
    *out = (enum log_level)l;
    return 0;
}

int
logconf_load(const char *path, struct log *log, struct diag_sink *sink)
{
    struct stat st;
    if (stat(path, &st) < 0 && errno == ENOENT)
        return 0;
    char *data = NULL;
    size_t len = 0;
    if (profile_read_file(path, sink, &data, &len) < 0)
        return -1;
    struct ynode *tree = NULL;
    struct logconf_yaml *y = NULL;
    int r = yaml_load_checked(path, data, len, &logconf_schema, sink, &tree, (void **)&y);
    free(data);
    if (r < 0)
        return -1;
    unsigned before = sink->errors;
    enum log_level level = log->level, console = log->console;
    if (y->level)
        level_at(path, tree, "level", y->level, &level, sink);
    if (y->console_level)
        level_at(path, tree, "console_level", y->console_level, &console, sink);
    char *file = NULL;
    if (y->file) {
        const struct ynode *n = ymap_get(tree, "file");
        struct plan_loc loc = ynode_loc(path, n);
        char *err = NULL;
        char *expanded = expand_vars(y->file, &err);
        const char *why;
        if (!expanded) {
            diag_error(sink, &loc, "%s", err);
            free(err);
        } else if (path_normalize(expanded, &file, &why) < 0) {
            diag_error(sink, &loc, "invalid file '%s': %s", expanded, why);
        }
        free(expanded);
    }
    if (y->backup_count && *y->backup_count > 100) {
        struct plan_loc loc = ynode_loc(path, ymap_get(tree, "backup_count"));
        diag_error(sink, &loc, "backup_count must be at most 100");
    }
    if (sink->errors == before) {
        log->level = level;
        log->console = console;
        if (file) {
            free(log->path);
            log->path = steal_pointer(&file);
        }
        if (y->max_bytes)
            log->max_bytes = *y->max_bytes;
        if (y->backup_count)
            log->backups = *y->backup_count;
    }
    free(file);
    yaml_free_checked(&logconf_schema, y);
    ynode_free(tree);
    return sink->errors == before ? 0 : -1;
}
