/* test_read.c -- POST /api/read over HTTP (docs/api.md): position strings
 * read by the games' own code for a page whose engine has not arrived.
 * Each string is read as the first variant of its family that takes it,
 * square by square in the string's order; the family's board facts come
 * with the answer; a string no variant takes gets the engine's words; bad
 * requests are refused with a reason; the positions quota counts each one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wire.h"

static const fixture_spec fixture = { .args = "--limit positions-per-minute=30" };

#define CLASSIC "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1"

static int ask(const char *body, json_t **out)
{
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/read", NULL, body, &r), 0);
    int status = r.status;
    *out = r.body ? json_loads(r.body, 0, NULL) : NULL;
    http_resp_free(&r);
    return status;
}

/* What stands on `square` in a reading's squares ("" for nothing). */
static const char *at(json_t *squares, const char *square)
{
    size_t i;
    json_t *pair;
    json_array_foreach(squares, i, pair)
        if (strcmp(json_string_value(json_array_get(pair, 0)), square) == 0)
            return json_string_value(json_array_get(pair, 1));
    fail_msg("no square %s", square);
    return NULL;
}

static void test_rampart_strings_are_read_by_the_variant_that_takes_them(void **state)
{
    (void)state;
    json_t *a;
    /* Classic's start, an XL board with Top to move, and text no variant takes */
    assert_int_equal(ask("{\"family\":\"rampart\",\"positions\":[\"" CLASSIC "\","
                         "\"7/7/7/3q3/7/7/7/3Q3/7 t 12\",\"1qqq1/x\"]}", &a),
                     200);
    assert_string_equal(json_string_value(json_object_get(a, "family")), "rampart");
    assert_string_equal(json_string_value(json_array_get(json_object_get(a, "variants"), 0)),
                        "rampart");
    json_t *r = json_object_get(a, "readings");
    assert_int_equal(json_array_size(r), 3);
    json_t *classic = json_array_get(r, 0), *xl = json_array_get(r, 1), *bad = json_array_get(r, 2);
    assert_string_equal(json_string_value(json_object_get(classic, "variant")), "rampart");
    json_t *sq = json_object_get(classic, "squares");
    assert_int_equal(json_array_size(sq), 45);
    /* the string's order: rank 9 first, a to e */
    assert_string_equal(json_string_value(json_array_get(json_array_get(sq, 0), 0)), "a9");
    assert_string_equal(at(sq, "b1"), "Q");
    assert_string_equal(at(sq, "c9"), "q");
    assert_string_equal(at(sq, "c5"), "");
    assert_int_equal(json_integer_value(json_object_get(classic, "to_move")), 0);
    assert_string_equal(json_string_value(json_object_get(xl, "variant")), "rampart-xl");
    assert_int_equal(json_array_size(json_object_get(xl, "squares")), 63);
    assert_string_equal(at(json_object_get(xl, "squares"), "d2"), "Q");
    assert_string_equal(at(json_object_get(xl, "squares"), "d6"), "q");
    assert_int_equal(json_integer_value(json_object_get(xl, "to_move")), 1);
    assert_null(json_object_get(bad, "squares"));
    assert_true(strlen(json_string_value(json_object_get(bad, "error"))) > 0);
    /* the facts of the family's board: its first variant's, from the start */
    json_t *b = json_object_get(a, "board");
    assert_string_equal(json_string_value(json_object_get(b, "variant")), "rampart");
    assert_string_equal(json_string_value(json_object_get(b, "start")), CLASSIC);
    assert_int_equal(json_array_size(json_object_get(b, "squares")), 45);
    json_t *kinds = json_object_get(b, "kinds");
    assert_int_equal(json_array_size(kinds), 4);
    assert_string_equal(json_string_value(json_object_get(json_array_get(kinds, 0), "name")), "Queen");
    json_decref(a);
}

static void test_a_stratego_view_and_the_boards_facts(void **state)
{
    (void)state;
    json_t *a;
    assert_int_equal(ask("{\"family\":\"stratego\"}", &a), 200);
    json_t *b = json_object_get(a, "board");
    json_t *sq = json_object_get(b, "squares");
    assert_int_equal(json_array_size(sq), 100);
    int lakes = 0;
    size_t i;
    json_t *pair;
    json_array_foreach(sq, i, pair)
        lakes += strcmp(json_string_value(json_array_get(pair, 1)), "~") == 0;
    assert_int_equal(lakes, 8); /* S1 */
    int setup = 0, army = 0;
    json_t *area, *kind;
    json_array_foreach(json_object_get(b, "areas"), i, area)
        if (strcmp(json_string_value(json_object_get(area, "area")), "setup") == 0)
            setup += (int)json_array_size(json_object_get(area, "squares"));
    json_array_foreach(json_object_get(b, "kinds"), i, kind)
        army += (int)json_integer_value(json_object_get(kind, "count"));
    assert_int_equal(setup, 80); /* S3: four rows a side */
    assert_int_equal(army, 40);  /* S2 */
    assert_int_equal(json_array_size(json_object_get(a, "readings")), 0);
    /* Red's view of the start: its own ranks, Blue's unknown */
    char body[512];
    char view[256];
    snprintf(view, sizeof view, "%s", json_string_value(json_object_get(b, "start")));
    json_decref(a);
    char *cut = strchr(view, '/');  /* Blue's back row hidden: every piece an 'x' */
    assert_non_null(cut);
    memcpy(view, "xxxxxxxxxx", 10);
    snprintf(body, sizeof body, "{\"family\":\"stratego\",\"positions\":[\"%s\"]}", view);
    assert_int_equal(ask(body, &a), 200);
    json_t *r = json_array_get(json_object_get(a, "readings"), 0);
    if (json_object_get(r, "error"))
        fail_msg("the view was not read: %s", json_string_value(json_object_get(r, "error")));
    assert_string_equal(at(json_object_get(r, "squares"), "a10"), "x");
    json_decref(a);
}

static void test_keeps_and_moats_has_four_kingdoms_areas(void **state)
{
    (void)state;
    json_t *a;
    assert_int_equal(ask("{\"family\":\"keeps-moats\",\"positions\":[]}", &a), 200);
    json_t *b = json_object_get(a, "board");
    int thrones = 0, moats = 0;
    size_t i;
    json_t *area;
    json_array_foreach(json_object_get(b, "areas"), i, area) {
        const char *name = json_string_value(json_object_get(area, "area"));
        thrones += strcmp(name, "throne") == 0;
        moats += strcmp(name, "moat") == 0;
    }
    assert_int_equal(thrones, 4);
    assert_int_equal(moats, 4);
    json_decref(a);
}

static void test_bad_requests_are_refused_with_a_reason(void **state)
{
    (void)state;
    char big[1200 + 64];
    memset(big, 'x', sizeof big);
    memcpy(big, "{\"family\":\"rampart\",\"positions\":[\"", 34);
    memcpy(big + sizeof big - 4, "\"]}", 4);
    char many[600] = "{\"family\":\"rampart\",\"positions\":[";
    for (int k = 0; k < 17; k++)
        strcat(many, k ? ",\"5/5 b 1\"" : "\"5/5 b 1\"");
    strcat(many, "]}");
    static const char *why[] = {
        "malformed JSON", "want family", "want family", "no such family", "want family",
        "want family", "want family", "want family",
    };
    const char *bodies[] = {
        "{\"family\":",
        "{}",
        "{\"family\":7}",
        "{\"family\":\"chess\"}",
        "{\"family\":\"rampart\",\"positions\":\"" CLASSIC "\"}",
        "{\"family\":\"rampart\",\"positions\":[3]}",
        many,
        big,
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        json_t *a;
        assert_int_equal(ask(bodies[i], &a), 400);
        const char *e = json_string_value(json_object_get(a, "error"));
        if (!e || !strstr(e, why[i]))
            fail_msg("request %zu: want '%s', got '%s'", i, why[i], e ? e : "(none)");
        json_decref(a);
    }
}

/* Last: it spends the address's positions quota. */
static void test_the_positions_quota_counts_each_request(void **state)
{
    (void)state;
    int refused = 0;
    for (int k = 0; k < 40 && !refused; k++) {
        json_t *a;
        int st = ask("{\"family\":\"rampart\"}", &a);
        assert_true(st == 200 || st == 429);
        refused = st == 429;
        json_decref(a);
    }
    assert_true(refused);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rampart_strings_are_read_by_the_variant_that_takes_them),
        cmocka_unit_test(test_a_stratego_view_and_the_boards_facts),
        cmocka_unit_test(test_keeps_and_moats_has_four_kingdoms_areas),
        cmocka_unit_test(test_bad_requests_are_refused_with_a_reason),
        cmocka_unit_test(test_the_positions_quota_counts_each_request),
    };
    return fixture_run_group(tests, &fixture);
}
