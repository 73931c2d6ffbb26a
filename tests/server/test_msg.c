/* test_msg.c -- the one parse of a client's message (src/server/core/msg.c)
 * against docs/api.schema.json, the schema every message between page and
 * server follows.
 *
 * - The parse's table of kinds and fields equals the schema's ClientMessage:
 *   the same kinds, and for each the same fields, the same required ones,
 *   of the same type and range.
 * - From that table alone, each kind's smallest message is taken; without
 *   a required field, with a field of the wrong type, or with a field the
 *   schema does not list, it is refused with an error naming the field.
 * - Fields are read as sent, defaults where a field is absent; the
 *   settings of a new game are checked against the variant.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "server/core/msg.h"

static json_t *schema_defs(void)
{
    const char *path = getenv("CITADEL_SCHEMA");
    json_error_t jerr;
    json_t *s = json_load_file(path ? path : "docs/api.schema.json", 0, &jerr);
    if (!s)
        fail_msg("docs/api.schema.json: %s (line %d)", jerr.text, jerr.line);
    json_t *defs = json_incref(json_object_get(s, "$defs"));
    json_decref(s);
    assert_non_null(defs);
    return defs;
}

/* The msg_type a schema property means, or -1. */
static int schema_type(json_t *prop)
{
    const char *ref = json_string_value(json_object_get(prop, "$ref"));
    const char *type = json_string_value(json_object_get(prop, "type"));
    json_t *min = json_object_get(prop, "minimum"), *max = json_object_get(prop, "maximum");
    if (json_object_get(prop, "const"))
        return MSG_T_CONST;
    if (ref && strcmp(ref, "#/$defs/Id") == 0)
        return MSG_T_ID;
    if (ref && strcmp(ref, "#/$defs/Side") == 0)
        return MSG_T_SIDE;
    if (ref && strcmp(ref, "#/$defs/Ref") == 0)
        return MSG_T_ANY;
    if (!type)
        return -1;
    if (strcmp(type, "integer") == 0) {
        if (!min && !max)
            return MSG_T_INT;
        if (json_integer_value(min) == 0 && !max)
            return MSG_T_NATURAL;
        if (json_integer_value(min) == -1 && json_integer_value(max) == 1)
            return MSG_T_BOT_SIDE;
        return -1;
    }
    if (strcmp(type, "string") == 0)
        return json_integer_value(json_object_get(prop, "minLength")) == 1 ? MSG_T_TEXT
                                                                           : MSG_T_STRING;
    if (strcmp(type, "boolean") == 0)
        return MSG_T_BOOL;
    if (strcmp(type, "object") == 0)
        return MSG_T_OBJECT;
    if (strcmp(type, "array") == 0 &&
        json_integer_value(json_object_get(prop, "minItems")) == 2 &&
        json_integer_value(json_object_get(prop, "maxItems")) == GAME_MAX_SIDES &&
        strcmp(json_string_value(json_object_get(json_object_get(prop, "items"), "type")),
               "string") == 0)
        return MSG_T_SEATS;
    return -1;
}

static int in_array(json_t *a, const char *name)
{
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v)
        if (strcmp(json_string_value(v), name) == 0)
            return 1;
    return 0;
}

/* The parse's kinds and fields are the schema's ClientMessage, exactly. */
static void test_table_is_the_schema(void **state)
{
    (void)state;
    json_t *defs = schema_defs();
    json_t *one = json_object_get(json_object_get(defs, "ClientMessage"), "oneOf");
    assert_true(json_array_size(one) > 0);
    int seen[MSG_KINDS] = {0};
    size_t i;
    json_t *r;
    json_array_foreach(one, i, r) {
        const char *ref = json_string_value(json_object_get(r, "$ref"));
        assert_non_null(ref);
        json_t *def = json_object_get(defs, strrchr(ref, '/') + 1);
        json_t *props = json_object_get(def, "properties");
        json_t *req = json_object_get(def, "required");
        const char *name =
            json_string_value(json_object_get(json_object_get(props, "type"), "const"));
        assert_non_null(name);
        assert_true(json_is_false(json_object_get(def, "additionalProperties")));
        int k = 0;
        while (k < MSG_KINDS && strcmp(msg_name((msg_kind)k), name) != 0)
            k++;
        if (k == MSG_KINDS)
            fail_msg("the schema's '%s' is not a kind msg.c reads", name);
        seen[k]++;
        int n;
        const msg_field *f = msg_fields((msg_kind)k, &n);
        if ((size_t)n != json_object_size(props))
            fail_msg("%s: msg.c takes %d fields, the schema lists %zu", name, n,
                     json_object_size(props));
        for (int j = 0; j < n; j++) {
            json_t *p = json_object_get(props, f[j].name);
            if (!p)
                fail_msg("%s: msg.c takes '%s', the schema does not", name, f[j].name);
            if (f[j].required != in_array(req, f[j].name))
                fail_msg("%s: '%s' is %s in msg.c, not in the schema", name, f[j].name,
                         f[j].required ? "required" : "optional");
            if (schema_type(p) != f[j].type)
                fail_msg("%s: '%s' is of type %d in msg.c, %d in the schema", name,
                         f[j].name, f[j].type, schema_type(p));
        }
    }
    for (int k = 0; k < MSG_KINDS; k++)
        if (seen[k] != 1)
            fail_msg("kind '%s' is in the schema %d times", msg_name((msg_kind)k), seen[k]);
    json_decref(defs);
}

/* A value of field f's type, valid for the smallest message of its kind. */
static json_t *sample(msg_kind k, const msg_field *f)
{
    switch ((msg_type)f->type) {
    case MSG_T_CONST: return json_string(msg_name(k));
    case MSG_T_ANY: return json_pack("{s:i}", "any", 1);
    case MSG_T_ID: return json_integer(7);
    case MSG_T_SIDE: return json_integer(1);
    case MSG_T_BOT_SIDE: return json_integer(-1);
    case MSG_T_NATURAL: return json_integer(0);
    case MSG_T_INT: return json_integer(strcmp(f->name, "move_limit") == 0 ? 100 : 0);
    case MSG_T_STRING:
    case MSG_T_TEXT: return json_string(strcmp(f->name, "variant") == 0 ? "rampart" : "a1-a2");
    case MSG_T_BOOL: return json_false();
    case MSG_T_OBJECT: return json_object();
    case MSG_T_SEATS: return json_pack("[s,s]", "me", "open");
    }
    return NULL;
}

/* A value no field of type t takes. */
static json_t *wrong(int t)
{
    switch ((msg_type)t) {
    case MSG_T_ID: return json_integer(0);
    case MSG_T_SIDE: return json_integer(GAME_MAX_SIDES);
    case MSG_T_BOT_SIDE: return json_integer(2);
    case MSG_T_NATURAL: return json_integer(-1);
    case MSG_T_INT: return json_real(1.5);
    case MSG_T_STRING: return json_integer(3);
    case MSG_T_TEXT: return json_string("");
    case MSG_T_BOOL: return json_integer(1);
    case MSG_T_OBJECT: return json_pack("[i]", 1);
    case MSG_T_SEATS: return json_pack("[s]", "me");
    default: return NULL;
    }
}

static json_t *smallest(msg_kind k, int all)
{
    int n;
    const msg_field *f = msg_fields(k, &n);
    json_t *m = json_object();
    for (int i = 0; i < n; i++)
        if (all || f[i].required)
            json_object_set_new(m, f[i].name, sample(k, &f[i]));
    return m;
}

static void refused(json_t *m, const char *word)
{
    cmsg c;
    char err[200] = "";
    if (msg_parse(m, &c, err, sizeof err) == 0) {
        char *t = json_dumps(m, JSON_COMPACT);
        fail_msg("taken: %s", t);
    }
    if (!strstr(err, word)) {
        char *t = json_dumps(m, JSON_COMPACT);
        fail_msg("refused %s as \"%s\", which does not name '%s'", t, err, word);
    }
}

/* From the table: each kind's smallest message is taken, with and without
 * its optional fields; a missing, mistyped or unknown field is refused by
 * name. */
static void test_every_field_checked(void **state)
{
    (void)state;
    for (int k = 0; k < MSG_KINDS; k++) {
        for (int all = 0; all < 2; all++) {
            json_t *m = smallest((msg_kind)k, all);
            cmsg c;
            char err[200];
            if (msg_parse(m, &c, err, sizeof err) != 0) {
                char *t = json_dumps(m, JSON_COMPACT);
                fail_msg("refused %s: %s", t, err);
            }
            assert_int_equal(c.kind, k);
            json_decref(m);
        }
        int n;
        const msg_field *f = msg_fields((msg_kind)k, &n);
        for (int i = 0; i < n; i++) {
            json_t *bad = wrong(f[i].type);
            if (bad) {
                json_t *m = smallest((msg_kind)k, 1);
                json_object_set_new(m, f[i].name, bad);
                refused(m, f[i].name);
                json_decref(m);
            }
            if (f[i].required && strcmp(f[i].name, "type") != 0) {
                json_t *m = smallest((msg_kind)k, 0);
                json_object_del(m, f[i].name);
                refused(m, strcmp(f[i].name, "variant") == 0 ? "variant" : f[i].name);
                json_decref(m);
            }
        }
        json_t *m = smallest((msg_kind)k, 0);
        json_object_set_new(m, "colour", json_string("white"));
        refused(m, "colour");
        json_decref(m);
    }
}

static cmsg parse_ok(const char *text)
{
    json_error_t jerr;
    json_t *m = json_loads(text, 0, &jerr);
    assert_non_null(m);
    cmsg c;
    char err[200];
    if (msg_parse(m, &c, err, sizeof err) != 0)
        fail_msg("refused %s: %s", text, err);
    json_decref(m);  /* the fields below are numbers, read while m lived */
    return c;
}

static void refused_text(const char *text, const char *word)
{
    json_t *m = json_loads(text, 0, NULL);
    refused(m, word);
    json_decref(m);
}

static void test_fields_read(void **state)
{
    (void)state;
    cmsg c = parse_ok("{\"type\":\"move\",\"game\":12,\"ply\":3,\"move\":\"b2-b3\"}");
    assert_int_equal(c.kind, MSG_MOVE);
    assert_int_equal(c.game, 12);
    assert_int_equal(c.ply, 3);
    c = parse_ok("{\"type\":\"resign\",\"game\":5}");
    assert_int_equal(c.side, -1);  /* not named */
    c = parse_ok("{\"type\":\"resign\",\"game\":5,\"side\":2}");
    assert_int_equal(c.side, 2);
    c = parse_ok("{\"type\":\"sit\",\"table\":9,\"seat\":3}");
    assert_int_equal(c.table, 9);
    assert_int_equal(c.side, 3);
    c = parse_ok("{\"type\":\"cancel\",\"seek\":4294967297}");
    assert_int_equal(c.seek, 4294967297LL);  /* a seek of server 1 */
    c = parse_ok("{\"type\":\"play_bot\",\"variant\":\"rampart-xl\",\"bot\":\"bot-random\"}");
    assert_int_equal(c.side, -1);  /* either side */
    assert_int_equal(c.set.base_ms, 300000);
    assert_int_equal(c.set.inc_ms, 0);
    assert_int_equal(c.set.rated, 0);
    assert_string_equal(c.set.v->name, "rampart-xl");
    c = parse_ok("{\"type\":\"seek\",\"variant\":\"rampart\",\"base_ms\":60000,\"inc_ms\":1000,"
                 "\"rated\":true}");
    assert_int_equal(c.set.rated, 1);
    assert_int_equal(c.set.base_ms, 60000);
    assert_int_equal(c.set.inc_ms, 1000);
    c = parse_ok("{\"type\":\"table\",\"variant\":\"keeps-moats\",\"options\":{\"GameType\":2},"
                 "\"seats\":[\"me\",\"open\",\"bot-capture\",\"open\"]}");
    assert_int_equal(c.nseats, 4);
    assert_int_equal(c.set.nopts, 1);
    assert_string_equal(c.set.opts[0].name, "GameType");
    assert_int_equal(c.set.opts[0].value, 2);
    c = parse_ok("{\"type\":\"ping\",\"ref\":[1,\"x\"]}");
    assert_int_equal(c.kind, MSG_PING);

    /* strings are borrowed from the message: read them while it lives */
    json_t *m = json_loads("{\"type\":\"chat\",\"game\":3,\"text\":\"a\\u0000b\"}",
                           JSON_ALLOW_NUL, NULL);
    char err[200];
    assert_int_equal(msg_parse(m, &c, err, sizeof err), 0);
    assert_int_equal(c.text_len, 3);  /* the NUL is counted: chat.c refuses it */
    assert_string_equal(c.text, "a");
    json_decref(m);
}

static void test_refusals(void **state)
{
    (void)state;
    json_t *a = json_pack("[i]", 1);
    cmsg c;
    char err[200];
    assert_int_equal(msg_parse(a, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "not an object"));
    json_decref(a);
    refused_text("{\"game\":1}", "missing type");
    refused_text("{\"type\":7}", "type must be a string");
    refused_text("{\"type\":\"castle\"}", "unknown message type 'castle'");
    refused_text("{\"type\":\"move\",\"game\":1,\"ply\":0}", "missing move");
    refused_text("{\"type\":\"move\",\"game\":1,\"ply\":0,\"move\":\"a\",\"promote\":1}",
                 "promote");
    refused_text("{\"type\":\"seek\",\"variant\":\"chess\"}", "unknown variant 'chess'");
    refused_text("{\"type\":\"seek\",\"variant\":\"rampart\",\"base_ms\":-1}", "clock");
    refused_text("{\"type\":\"seek\",\"variant\":\"rampart\",\"base_ms\":0,\"inc_ms\":5}", "clock");
    refused_text("{\"type\":\"seek\",\"variant\":\"rampart\",\"base_ms\":10800001}", "clock");
    refused_text("{\"type\":\"seek\",\"variant\":\"rampart\",\"inc_ms\":60001}", "clock");
    refused_text("{\"type\":\"seek\",\"variant\":\"rampart\",\"options\":{\"Fog\":1}}", "Fog");
    /* one device is never rated: a local game takes no `rated` */
    refused_text("{\"type\":\"local\",\"variant\":\"rampart\",\"rated\":false}", "rated");
    /* a text too long to be anything the server takes */
    char *big = malloc(MSG_MAX_TEXT + 64);
    memset(big, 'a', MSG_MAX_TEXT + 63);
    big[MSG_MAX_TEXT + 63] = 0;
    json_t *m = json_pack("{s:s, s:i, s:i, s:s}", "type", "move", "game", 1, "ply", 0, "move",
                          big);
    refused(m, "move");
    json_decref(m);
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_is_the_schema),
        cmocka_unit_test(test_every_field_checked),
        cmocka_unit_test(test_fields_read),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
