/* test-yamltree.c - the locator (compiler/yamltree.h) and the sink (compiler/diag.h).
 *
 * Every rejected input is checked against the whole text the sink wrote, so a change
 * of position, wording or escaping shows up here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../compiler/diag.h"
#include "../../compiler/yamltree.h"

/* ---- helpers ---------------------------------------------------------------------- */

struct parsed {
    int r;
    struct ynode *tree; /* owned */
    char *text;         /* owned: everything the sink wrote */
    unsigned errors, warnings;
};

static struct parsed
parse_len(const char *data, size_t len)
{
    struct parsed p = {0};
    size_t tlen = 0;
    FILE *f = open_memstream(&p.text, &tlen);
    assert_non_null(f);
    struct diag_sink sink;
    diag_init(&sink, f, "nookc");
    p.r = ytree_parse("t.yaml", data, len, &sink, &p.tree);
    assert_int_equal(fclose(f), 0);
    p.errors = sink.errors;
    p.warnings = sink.warnings;
    return p;
}

static struct parsed
parse(const char *data)
{
    return parse_len(data, strlen(data));
}

static void
parsed_free(struct parsed *p)
{
    ynode_free(p->tree);
    free(p->text);
}

/* Asserts that data is rejected with exactly `expected` on the sink and `errors` errors,
 * and that no tree is handed out. */
static void
assert_rejected_len(const char *data, size_t len, const char *expected, unsigned errors)
{
    struct parsed p = parse_len(data, len);
    assert_int_equal(p.r, -1);
    assert_null(p.tree);
    assert_string_equal(p.text, expected);
    assert_int_equal(p.errors, errors);
    parsed_free(&p);
}

static void
assert_rejected(const char *data, const char *expected)
{
    assert_rejected_len(data, strlen(data), expected, 1);
}

static void
assert_scalar(const struct ynode *n, const char *value, unsigned line, unsigned col, bool plain)
{
    assert_non_null(n);
    assert_int_equal(n->type, YNODE_SCALAR);
    assert_string_equal(n->value, value);
    assert_int_equal(n->len, strlen(value));
    assert_int_equal(n->line, line);
    assert_int_equal(n->col, col);
    assert_int_equal(n->plain, plain);
    assert_int_equal(n->n, 0);
}

/* A scalar node as ytree_parse would make it, for ynode_is_null. */
static bool
is_null(const char *value, bool plain)
{
    struct ynode n = {.type = YNODE_SCALAR, .line = 1, .col = 1};
    n.value = (char *)value;
    n.len = strlen(value);
    n.plain = plain;
    return ynode_is_null(&n);
}

/* ---- successful trees ---------------------------------------------------------------- */

static void
test_tree_records_types_positions_and_style(void **state)
{
    (void)state;
    struct parsed p = parse("name: x\n"
                            "'q': \"v\"\n"
                            "m:\n"
                            "  - 1\n"
                            "  - {k: v, k2: [a]}\n"
                            "blk: |\n"
                            "  text\n");
    assert_int_equal(p.r, 0);
    assert_string_equal(p.text, "");
    assert_int_equal(p.errors, 0);
    const struct ynode *root = p.tree;
    assert_non_null(root);
    assert_int_equal(root->type, YNODE_MAP);
    assert_int_equal(root->line, 1);
    assert_int_equal(root->col, 1);
    assert_int_equal(root->n, 4);

    assert_scalar(root->keys[0], "name", 1, 1, true);
    assert_scalar(root->vals[0], "x", 1, 7, true);
    /* a quoted scalar starts at its quote */
    assert_scalar(root->keys[1], "q", 2, 1, false);
    assert_scalar(root->vals[1], "v", 2, 6, false);
    assert_scalar(root->keys[2], "m", 3, 1, true);

    const struct ynode *seq = root->vals[2];
    assert_int_equal(seq->type, YNODE_SEQ);
    assert_int_equal(seq->line, 4);
    assert_int_equal(seq->col, 3);
    assert_int_equal(seq->n, 2);
    assert_null(seq->keys);
    assert_scalar(seq->vals[0], "1", 4, 5, true);

    const struct ynode *flow = seq->vals[1];
    assert_int_equal(flow->type, YNODE_MAP);
    assert_int_equal(flow->line, 5);
    assert_int_equal(flow->col, 5);
    assert_int_equal(flow->n, 2);
    assert_scalar(flow->keys[0], "k", 5, 6, true);
    assert_scalar(flow->vals[0], "v", 5, 9, true);
    assert_scalar(flow->keys[1], "k2", 5, 12, true);
    assert_int_equal(flow->vals[1]->type, YNODE_SEQ);
    assert_int_equal(flow->vals[1]->line, 5);
    assert_int_equal(flow->vals[1]->col, 16);
    assert_scalar(flow->vals[1]->vals[0], "a", 5, 17, true);

    /* a block scalar is not plain */
    assert_scalar(root->keys[3], "blk", 6, 1, true);
    assert_scalar(root->vals[3], "text\n", 6, 6, false);

    assert_ptr_equal(ymap_get(root, "m"), seq);
    assert_ptr_equal(ymap_key(root, "m"), root->keys[2]);
    assert_ptr_equal(ymap_get(root, "q"), root->vals[1]);
    assert_null(ymap_get(root, "missing"));
    assert_null(ymap_key(root, "missing"));
    assert_null(ymap_get(seq, "m"));
    assert_null(ymap_get(NULL, "m"));
    assert_string_equal(ynode_kind(root), "a mapping");
    assert_string_equal(ynode_kind(seq), "a sequence");
    assert_string_equal(ynode_kind(root->vals[0]), "a scalar");
    parsed_free(&p);
}

static void
test_tree_empty_value_is_plain_empty_scalar(void **state)
{
    (void)state;
    struct parsed p = parse("a:\nb: ~\nc: ''\n");
    assert_int_equal(p.r, 0);
    assert_string_equal(p.text, "");
    assert_int_equal(p.tree->n, 3);
    assert_int_equal(p.tree->vals[0]->type, YNODE_SCALAR);
    assert_string_equal(p.tree->vals[0]->value, "");
    assert_true(p.tree->vals[0]->plain);
    assert_true(ynode_is_null(p.tree->vals[0]));
    assert_true(ynode_is_null(p.tree->vals[1]));
    assert_false(ynode_is_null(p.tree->vals[2]));
    assert_string_equal(ynode_kind(p.tree->vals[1]), "null");
    parsed_free(&p);
}

static void
test_tree_knows_where_scalars_end(void **state)
{
    (void)state;
    /* a: "x # y"   b: |  (two content lines)   c: >- folded   d: é#  (columns count
     * characters, as libyaml's do) */
    struct parsed p = parse("a: \"x # y\"  # c\n"
                            "b: |\n  # one\n  two\n"
                            "c: >-\n  f\n  # g\n"
                            "d: \xc3\xa9 #\n");
    assert_int_equal(p.r, 0);
    const struct ynode *a = p.tree->vals[0], *b = p.tree->vals[1], *c = p.tree->vals[2];
    assert_int_equal(a->line, 1);
    assert_int_equal(a->col, 4);
    assert_int_equal(a->end_line, 1);
    assert_int_equal(a->end_col, 11);
    assert_int_equal(b->end_line, 5); /* the block ends where the next line starts */
    assert_int_equal(b->end_col, 1);
    assert_int_equal(c->end_line, 8);
    assert_true(ynode_in_scalar(p.tree, 1, 8));   /* the '#' inside the quotes */
    assert_false(ynode_in_scalar(p.tree, 1, 13)); /* the comment after them */
    assert_true(ynode_in_scalar(p.tree, 3, 3));   /* '# one' is block content */
    assert_true(ynode_in_scalar(p.tree, 7, 3));   /* '# g' is folded content */
    assert_false(ynode_in_scalar(p.tree, 8, 6));  /* d's comment: column 6, not byte 7 */
    assert_true(ynode_in_scalar(p.tree, 8, 4));
    parsed_free(&p);
}

static void
test_tree_scalar_keeps_embedded_nul(void **state)
{
    (void)state;
    struct parsed p = parse("a: \"x\\0y\"\n");
    assert_int_equal(p.r, 0);
    const struct ynode *v = p.tree->vals[0];
    assert_int_equal(v->len, 3);
    assert_memory_equal(v->value, "x\0y", 4);
    parsed_free(&p);
}

static void
test_tree_root_may_be_a_sequence_or_scalar(void **state)
{
    (void)state;
    struct parsed p = parse("- a\n- b\n");
    assert_int_equal(p.r, 0);
    assert_int_equal(p.tree->type, YNODE_SEQ);
    assert_int_equal(p.tree->n, 2);
    assert_scalar(p.tree->vals[1], "b", 2, 3, true);
    parsed_free(&p);

    p = parse("word\n");
    assert_int_equal(p.r, 0);
    assert_scalar(p.tree, "word", 1, 1, true);
    parsed_free(&p);
}

static void
test_tree_explicit_document_markers_are_one_document(void **state)
{
    (void)state;
    struct parsed p = parse("---\na: 1\n...\n");
    assert_int_equal(p.r, 0);
    assert_string_equal(p.text, "");
    assert_scalar(p.tree->keys[0], "a", 2, 1, true);
    parsed_free(&p);
}

static void
test_tree_nesting_of_64_is_accepted(void **state)
{
    (void)state;
    char text[200];
    memset(text, '[', 64);
    memset(text + 64, ']', 64);
    text[128] = '\n';
    text[129] = '\0';
    struct parsed p = parse(text);
    assert_int_equal(p.r, 0);
    assert_string_equal(p.text, "");
    const struct ynode *n = p.tree;
    for (int depth = 1; depth < 64; depth++) {
        assert_int_equal(n->type, YNODE_SEQ);
        assert_int_equal(n->col, depth);
        assert_int_equal(n->n, 1);
        n = n->vals[0];
    }
    assert_int_equal(n->type, YNODE_SEQ);
    assert_int_equal(n->n, 0);
    parsed_free(&p);
}

/* ---- refused YAML --------------------------------------------------------------------- */

static void
test_duplicate_key_is_an_error_with_a_note(void **state)
{
    (void)state;
    assert_rejected("a: 1\nb: 2\na: 3\n", "t.yaml:3:1: error: duplicate key 'a'\n"
                                          "t.yaml:1:1: note: 'a' first defined here\n");
    assert_rejected("m:\n  x: 1\n  'x': 2\n", "t.yaml:3:3: error: duplicate key 'x'\n"
                                              "t.yaml:2:3: note: 'x' first defined here\n");
    assert_rejected("- {k: 1, k: 2}\n", "t.yaml:1:10: error: duplicate key 'k'\n"
                                        "t.yaml:1:4: note: 'k' first defined here\n");
}

static void
test_keys_differing_after_a_nul_are_distinct(void **state)
{
    (void)state;
    struct parsed p = parse("\"a\\0b\": 1\n\"a\\0c\": 2\n");
    assert_int_equal(p.r, 0);
    assert_string_equal(p.text, "");
    assert_int_equal(p.tree->n, 2);
    parsed_free(&p);
}

static void
test_anchor_and_alias_are_errors(void **state)
{
    (void)state;
    assert_rejected("a: &x 1\nb: *x\n",
                    "t.yaml:1:4: error: anchors and aliases are not supported\n");
    assert_rejected("a: 1\nb: *x\n",
                    "t.yaml:2:4: error: anchors and aliases are not supported\n");
    assert_rejected("a: &m\n  k: v\n",
                    "t.yaml:1:4: error: anchors and aliases are not supported\n");
    assert_rejected("a: &s [1]\n",
                    "t.yaml:1:4: error: anchors and aliases are not supported\n");
}

static void
test_tag_is_an_error_naming_it(void **state)
{
    (void)state;
    assert_rejected(
        "a: !!str 1\n",
        "t.yaml:1:4: error: tags are not supported (found 'tag:yaml.org,2002:str')\n");
    assert_rejected("a: !foo 1\n",
                    "t.yaml:1:4: error: tags are not supported (found '!foo')\n");
    assert_rejected(
        "a: !!map {b: 1}\n",
        "t.yaml:1:4: error: tags are not supported (found 'tag:yaml.org,2002:map')\n");
    assert_rejected(
        "a:\n  - !!seq []\n",
        "t.yaml:2:5: error: tags are not supported (found 'tag:yaml.org,2002:seq')\n");
}

static void
test_second_document_is_an_error(void **state)
{
    (void)state;
    assert_rejected("a: 1\n---\nb: 2\n",
                    "t.yaml:2:1: error: exactly one YAML document expected\n");
    assert_rejected("---\na: 1\n...\n---\nb: 2\n",
                    "t.yaml:4:1: error: exactly one YAML document expected\n");
}

static void
test_directive_is_an_error(void **state)
{
    (void)state;
    assert_rejected("%YAML 1.1\n---\na: 1\n",
                    "t.yaml:1:1: error: YAML directives are not supported\n");
    assert_rejected("%TAG !e! tag:example.com,2000:\n---\na: 1\n",
                    "t.yaml:1:1: error: YAML directives are not supported\n");
}

static void
test_empty_input_is_empty_profile(void **state)
{
    (void)state;
    assert_rejected("", "t.yaml:1:1: error: empty profile\n");
    assert_rejected("\n\n", "t.yaml:1:1: error: empty profile\n");
    assert_rejected("# just a comment\n   # another\n", "t.yaml:1:1: error: empty profile\n");
    assert_rejected("~\n", "t.yaml:1:1: error: empty profile\n");
    assert_rejected("null\n", "t.yaml:1:1: error: empty profile\n");
    assert_rejected("---\n...\n", "t.yaml:1:1: error: empty profile\n");
}

static void
test_non_scalar_key_is_an_error(void **state)
{
    (void)state;
    assert_rejected("? [a]\n: b\n", "t.yaml:1:3: error: mapping keys must be plain strings\n");
    assert_rejected("x: 1\n? {a: 1}\n: b\n",
                    "t.yaml:2:3: error: mapping keys must be plain strings\n");
    assert_rejected("{[a]: b}\n", "t.yaml:1:2: error: mapping keys must be plain strings\n");
}

static void
test_nesting_over_64_is_an_error(void **state)
{
    (void)state;
    char text[200];
    memset(text, '[', 65);
    memset(text + 65, ']', 65);
    text[130] = '\n';
    text[131] = '\0';
    assert_rejected(text, "t.yaml:1:65: error: nesting deeper than 64 levels\n");

    /* block mappings count the same */
    struct buf b = {0};
    for (int i = 0; i < 65; i++) {
        for (int s = 0; s < i; s++)
            buf_addc(&b, ' ');
        buf_adds(&b, i < 64 ? "k:\n" : "k: v\n");
    }
    assert_rejected(b.data, "t.yaml:65:65: error: nesting deeper than 64 levels\n");
    buf_free(&b);
}

static void
test_syntax_error_reports_problem_and_context(void **state)
{
    (void)state;
    assert_rejected("a: 1\nb: 2\n\tc: 3\n",
                    "t.yaml:3:1: error: found a tab character that violates indentation "
                    "(while scanning a plain scalar at 2:4)\n");
    assert_rejected("a: [1, 2\n", "t.yaml:2:1: error: did not find expected ',' or ']' "
                                  "(while parsing a flow sequence at 1:4)\n");
    assert_rejected("a: b\n@c: d\n", "t.yaml:2:1: error: found character that cannot start any "
                                     "token (while scanning for the next token at 2:1)\n");
    assert_rejected("a: 'x\n", "t.yaml:2:1: error: found unexpected end of stream (while "
                               "scanning a quoted scalar at 1:4)\n");
}

static void
test_invalid_utf8_position_comes_from_the_byte_offset(void **state)
{
    (void)state;
    /* "a: 1\n" is 5 bytes, the bad byte is the 5th of line 2 */
    assert_rejected("a: 1\nb: x\xff\n", "t.yaml:2:5: error: invalid leading UTF-8 octet\n");
    assert_rejected("\x80", "t.yaml:1:1: error: invalid leading UTF-8 octet\n");
    /* a truncated sequence is reported at the byte that fails to continue it */
    assert_rejected("ab: \xc3\n", "t.yaml:1:6: error: invalid trailing UTF-8 octet\n");
    /* CESU/overlong form of '/' */
    assert_rejected("a: \xc0\xaf\n", "t.yaml:1:4: error: invalid length of a UTF-8 sequence\n");
    /* the reader decodes ahead: a bad byte is found before later structure errors */
    assert_rejected("a: 1\na: 2\nc: \xfe\n",
                    "t.yaml:3:4: error: invalid leading UTF-8 octet\n");
}

static void
test_nul_and_control_bytes_are_reader_errors(void **state)
{
    (void)state;
    assert_rejected_len("a: b\0c\n", 7,
                        "t.yaml:1:5: error: control characters are not allowed\n", 1);
    assert_rejected_len("a: 1\n\0", 6,
                        "t.yaml:2:1: error: control characters are not allowed\n", 1);
    assert_rejected("a: \x01\n", "t.yaml:1:4: error: control characters are not allowed\n");
    assert_rejected("a: 1\n\x1b[2J: x\n",
                    "t.yaml:2:1: error: control characters are not allowed\n");
}

static void
test_sink_escapes_control_characters_in_keys(void **state)
{
    (void)state;
    assert_rejected("\"a\\nb\\x01\": 1\n\"a\\nb\\x01\": 2\n",
                    "t.yaml:2:1: error: duplicate key 'a\\nb\\x01'\n"
                    "t.yaml:1:1: note: 'a\\nb\\x01' first defined here\n");
    assert_rejected("\"\\t\\r\\e\\x7f\": 1\n\"\\t\\r\\e\\x7f\": 2\n",
                    "t.yaml:2:1: error: duplicate key '\\t\\x0d\\x1b\\x7f'\n"
                    "t.yaml:1:1: note: '\\t\\x0d\\x1b\\x7f' first defined here\n");
    /* bytes >= 0x80 are text, not control characters */
    assert_rejected("\"\\u00e9\": 1\n\"\\u00e9\": 2\n",
                    "t.yaml:2:1: error: duplicate key '\xc3\xa9'\n"
                    "t.yaml:1:1: note: '\xc3\xa9' first defined here\n");
}

static void
test_tag_text_is_escaped(void **state)
{
    (void)state;
    /* %0A in a tag is decoded by libyaml into a newline */
    assert_rejected("a: !foo%0Abar 1\n",
                    "t.yaml:1:4: error: tags are not supported (found '!foo\\nbar')\n");
}

/* ---- the sink itself ------------------------------------------------------------------ */

static void
test_sink_formats_lines_counts_and_escapes(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    struct diag_sink sink;
    diag_init(&sink, f, "nookc");
    struct plan_loc loc = {(char *)"p\n.yaml", 3, 7};
    struct plan_loc nofile = {NULL, 9, 9};
    assert_int_equal(diag_error(&sink, &loc, "bad '%s'", "x\ty\x1f"), -1);
    assert_int_equal(diag_warning(&sink, NULL, "w %d", 1), -1);
    assert_int_equal(diag_note(&sink, &nofile, "n"), -1);
    assert_int_equal(diag_emit(&sink, DIAG_ERROR, NULL, "e\r"), -1);
    assert_int_equal(fclose(f), 0);
    assert_string_equal(text, "p\\n.yaml:3:7: error: bad 'x\\ty\\x1f'\n"
                              "nookc: warning: w 1\n"
                              "nookc: note: n\n"
                              "nookc: error: e\\x0d\n");
    assert_int_equal(sink.errors, 2);
    assert_int_equal(sink.warnings, 1);
    free(text);
}

/* ---- ynode_is_null ----------------------------------------------------------------------- */

static void
test_is_null_only_for_plain_null_words(void **state)
{
    (void)state;
    assert_true(is_null("", true));
    assert_true(is_null("~", true));
    assert_true(is_null("null", true));
    assert_true(is_null("Null", true));
    assert_true(is_null("NULL", true));
    assert_false(is_null("nULL", true));
    assert_false(is_null("none", true));
    assert_false(is_null("~~", true));
    assert_false(is_null("", false));
    assert_false(is_null("null", false));
    assert_false(is_null("~", false));
}

static void
test_is_null_for_parsed_quoted_null_is_false(void **state)
{
    (void)state;
    struct parsed p = parse("a: \"null\"\nb: 'NULL'\nc: null\nd: ''\ne: \"~\"\nf: ~\n");
    assert_int_equal(p.r, 0);
    assert_false(ynode_is_null(ymap_get(p.tree, "a")));
    assert_false(ynode_is_null(ymap_get(p.tree, "b")));
    assert_true(ynode_is_null(ymap_get(p.tree, "c")));
    assert_false(ynode_is_null(ymap_get(p.tree, "d")));
    assert_false(ynode_is_null(ymap_get(p.tree, "e")));
    assert_true(ynode_is_null(ymap_get(p.tree, "f")));
    assert_false(ynode_is_null(p.tree));
    parsed_free(&p);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree_records_types_positions_and_style),
        cmocka_unit_test(test_tree_empty_value_is_plain_empty_scalar),
        cmocka_unit_test(test_tree_knows_where_scalars_end),
        cmocka_unit_test(test_tree_scalar_keeps_embedded_nul),
        cmocka_unit_test(test_tree_root_may_be_a_sequence_or_scalar),
        cmocka_unit_test(test_tree_explicit_document_markers_are_one_document),
        cmocka_unit_test(test_tree_nesting_of_64_is_accepted),
        cmocka_unit_test(test_duplicate_key_is_an_error_with_a_note),
        cmocka_unit_test(test_keys_differing_after_a_nul_are_distinct),
        cmocka_unit_test(test_anchor_and_alias_are_errors),
        cmocka_unit_test(test_tag_is_an_error_naming_it),
        cmocka_unit_test(test_second_document_is_an_error),
        cmocka_unit_test(test_directive_is_an_error),
        cmocka_unit_test(test_empty_input_is_empty_profile),
        cmocka_unit_test(test_non_scalar_key_is_an_error),
        cmocka_unit_test(test_nesting_over_64_is_an_error),
        cmocka_unit_test(test_syntax_error_reports_problem_and_context),
        cmocka_unit_test(test_invalid_utf8_position_comes_from_the_byte_offset),
        cmocka_unit_test(test_nul_and_control_bytes_are_reader_errors),
        cmocka_unit_test(test_sink_escapes_control_characters_in_keys),
        cmocka_unit_test(test_tag_text_is_escaped),
        cmocka_unit_test(test_sink_formats_lines_counts_and_escapes),
        cmocka_unit_test(test_is_null_only_for_plain_null_words),
        cmocka_unit_test(test_is_null_for_parsed_quoted_null_is_false),
    };
    return cmocka_run_group_tests_name("yamltree", tests, NULL, NULL);
}
