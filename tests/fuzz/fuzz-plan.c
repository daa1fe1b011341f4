/* fuzz-plan.c - libFuzzer target: the plan JSON loader and validator.
 *
 * No crash, no leak; every accepted plan re-serialises to text that loads into an
 * identical plan (same JSON again, same bwrap argument vector).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../runtime/plan-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct plan plan;
    char *err = NULL;
    if (plan_from_json("f.json", (const char *)data, size, &plan, &err) < 0) {
        if (!err || strncmp(err, "f.json", 6) != 0)
            abort(); /* every refusal names the file */
        free(err);
        return 0;
    }
    char *text = plan_to_json(&plan);
    if (!text)
        abort(); /* the loader accepted something the writer cannot write */
    struct plan again;
    if (plan_from_json("f.json", text, strlen(text), &again, &err) < 0)
        abort();
    char *text2 = plan_to_json(&again);
    if (strcmp(text, text2) != 0)
        abort();
    struct strv a = {0}, b = {0};
    plan_bwrap_args(&plan, &a);
    plan_bwrap_args(&again, &b);
    if (a.n != b.n)
        abort();
    for (size_t i = 0; i < a.n; i++)
        if (strcmp(a.v[i], b.v[i]) != 0)
            abort();
    strv_free(&a);
    strv_free(&b);
    free(text);
    free(text2);
    plan_free(&plan);
    plan_free(&again);
    return 0;
}
