/* report.c - see report.h. */
#include "report.h"

#include <string.h>

json_t *
report_json_string(const char *s)
{
    size_t len = strlen(s);
    if (utf8_valid(s, len))
        return json_stringn(s, len);
    /* Replace each byte that does not start a valid sequence. */
    struct buf b = {0};
    buf_adds(&b, "");
    for (size_t i = 0; i < len;) {
        size_t n = 1;
        while (n <= 4 && i + n <= len && !utf8_valid(s + i, n))
            n++;
        if (n <= 4 && i + n <= len) {
            buf_add(&b, s + i, n);
            i += n;
        } else {
            buf_adds(&b, "\xef\xbf\xbd");
            i++;
        }
    }
    json_t *j = json_stringn(b.data, b.len);
    buf_free(&b);
    return j;
}

json_t *
report_json_string_or_null(const char *s)
{
    return s ? report_json_string(s) : json_null();
}

int
report_json_take(json_t *root, struct buf *out)
{
    char *text = root ? json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    json_decref(root);
    if (!text)
        return -1;
    buf_adds(out, text);
    buf_addc(out, '\n');
    free(text);
    return 0;
}

json_t *
report_set(json_t *obj, const char *key, json_t *value)
{
    if (!obj || !value) {
        json_decref(obj);
        json_decref(value);
        return NULL;
    }
    if (json_object_set_new(obj, key, value) < 0) { /* it stole value */
        json_decref(obj);
        return NULL;
    }
    return obj;
}

json_t *
report_push(json_t *arr, json_t *value)
{
    if (!arr || !value) {
        json_decref(arr);
        json_decref(value);
        return NULL;
    }
    if (json_array_append_new(arr, value) < 0) { /* it stole value */
        json_decref(arr);
        return NULL;
    }
    return arr;
}

char *
report_size_text(uint64_t size)
{
    static const char units[] = "KMGT";
    int u = -1;
    while (u < 3 && size && size % 1024 == 0) {
        size /= 1024;
        u++;
    }
    if (u < 0)
        return xasprintf("%llu", (unsigned long long)size);
    return xasprintf("%llu%c", (unsigned long long)size, units[u]);
}
