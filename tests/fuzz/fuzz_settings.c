/* fuzz_settings.c -- libFuzzer target for msg_parse (msg.c), the one parse
 * of a client's message, and for msg_settings_parse, its part that reads the
 * settings of seek, challenge, play_bot, local and table.
 *
 * The input's first byte chooses how the rest is read: even, as JSON text
 * (parsed as the server parses a WebSocket message); odd, as choices that
 * build a message field by field (variant, clock, move limit, rated,
 * options), each from a list of telling values or raw bytes, so the
 * boundaries are met often.
 *
 * Checked, when msg_settings_parse takes the message: the settings are within
 * docs/api.md's ranges (clock 0-3 h, increment 0-60 s, no increment
 * without a clock, a move limit the variant offers or allows, rated only
 * for rated variants, options the variant has within their ranges), and
 * they say what the message said (or its defaults). When it refuses the
 * message: there is a reason, and made valid UTF-8 as client_error makes
 * it (text_utf8: the reason quotes input cut at a byte count) it is valid
 * UTF-8, which a JSON error needs. msg_parse, given the same message:
 * when it takes it, the kind is the message's type, every field is one the
 * kind lists, and a kind that makes a game has settings as above; when it
 * refuses, it says why in UTF-8 as above.
 *
 * A first byte of 0x7f..0xff with bit 1 set (mod 4 == 2 or 3, above 0x7e)
 * instead gives the rest to text_utf8 alone: the result must be valid
 * UTF-8, as long as the input, and the input itself if that was valid.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/server/core/http.h"
#include "server_fake.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static fake_world W;

typedef struct rd {
    const uint8_t *p;
    size_t n;
} rd;

static unsigned u8(rd *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

static int64_t i64(rd *r)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | u8(r);
    return (int64_t)v;
}

static json_t *pick_int(rd *r, const int64_t *list, size_t n)
{
    unsigned k = u8(r);
    if (k < n)
        return json_integer(list[k]);
    if (k == 250)
        return json_string("100");
    if (k == 251)
        return json_real(100.0);
    if (k == 252)
        return json_null();
    if (k == 253)
        return json_true();
    if (k >= 254)
        return json_integer(i64(r));
    return NULL;  /* absent */
}

/* A message built from choices. */
static json_t *build(rd *r)
{
    static const int64_t base[] = {0, 1, 1000, 60000, 300000, 10799999, 10800000, 10800001,
                                   -1, INT64_MAX, INT64_MIN};
    static const int64_t inc[] = {0, 1, 1000, 59999, 60000, 60001, -1, INT64_MIN};
    static const int64_t limit[] = {0, 1, 49, 50, 100, 150, 200, 201, 1000, 100000, 100001,
                                    -1, 2147483648LL, -2147483648LL, 4294967346LL};
    static const int64_t optv[] = {0, 1, 2, 3, -1, 2147483649LL};
    static const char *const names[] = {"GameType", "KingResult", "MoveLimit", "gametype",
                                        "Other", ""};
    json_t *m = json_object();
    const game_variant *const *vs = game_variants();
    int nv = 0;
    while (vs[nv])
        nv++;
    unsigned k = u8(r);
    if ((int)k < nv)
        json_object_set_new(m, "variant", json_string(vs[k]->name));
    else if (k == 200)
        json_object_set_new(m, "variant", json_string("rampart "));
    else if (k == 201)
        json_object_set_new(m, "variant", json_integer(1));
    else if (k == 202)
        json_object_set_new(m, "variant", json_string(""));
    else if (k >= 203 && k < 240) {
        /* a long name of letters and two-byte letters, cut anywhere */
        char buf[128];
        size_t len = 0;
        unsigned n = u8(r) % 60;
        for (unsigned i = 0; i < n && len + 2 < sizeof buf; i++) {
            if (u8(r) & 1) {
                buf[len++] = (char)0xc3;
                buf[len++] = (char)0xa9;
            } else {
                buf[len++] = 'x';
            }
        }
        buf[len] = 0;
        json_object_set_new(m, "variant", json_string(buf));
    }
    json_t *v;
    if ((v = pick_int(r, base, sizeof base / sizeof base[0])))
        json_object_set_new(m, "base_ms", v);
    if ((v = pick_int(r, inc, sizeof inc / sizeof inc[0])))
        json_object_set_new(m, "inc_ms", v);
    if ((v = pick_int(r, limit, sizeof limit / sizeof limit[0])))
        json_object_set_new(m, "move_limit", v);
    k = u8(r) % 6;
    if (k == 1)
        json_object_set_new(m, "rated", json_true());
    else if (k == 2)
        json_object_set_new(m, "rated", json_false());
    else if (k == 3)
        json_object_set_new(m, "rated", json_integer(1));
    k = u8(r) % 8;
    if (k == 1)
        json_object_set_new(m, "options", json_array());
    else if (k >= 2) {
        json_t *o = json_object();
        unsigned n = u8(r) % 7;
        for (unsigned i = 0; i < n; i++) {
            json_t *val = pick_int(r, optv, sizeof optv / sizeof optv[0]);
            json_object_set_new(o, names[u8(r) % (sizeof names / sizeof names[0])],
                                val ? val : json_integer(0));
        }
        json_object_set_new(m, "options", o);
    }
    /* a type, for msg_parse: the kinds that make a game, with what else they need */
    static const char *const types[] = {"seek", "challenge", "local", "play_bot", "table",
                                        "move"};
    unsigned t = u8(r);
    if (t < sizeof types / sizeof *types) {
        json_object_set_new(m, "type", json_string(types[t]));
        if (strcmp(types[t], "play_bot") == 0)
            json_object_set_new(m, "bot", json_string("bot-random"));
        if (strcmp(types[t], "table") == 0)
            json_object_set_new(m, "seats", json_pack("[s,s,s,s]", "me", "open", "open", "open"));
    }
    return m;
}

static const game_option *option_of(const game_variant *v, const char *name)
{
    for (const game_option *o = v->options; o && o->name; o++)
        if (strcmp(o->name, name) == 0)
            return o;
    return NULL;
}

static void check_ok(json_t *msg, const game_settings *set)
{
    const char *vname = json_string_value(json_object_get(msg, "variant"));
    if (!set->v || !vname || set->v != game_variant_find(vname))
        fake_fail("msg_settings_parse took a message with variant %s as %s", vname ? vname : "(none)",
                  set->v ? set->v->name : "(none)");
    if (set->base_ms < 0 || set->base_ms > SRV_MAX_BASE_MS)
        fake_fail("base_ms %lld out of range", (long long)set->base_ms);
    if (set->inc_ms < 0 || set->inc_ms > SRV_MAX_INC_MS)
        fake_fail("inc_ms %lld out of range", (long long)set->inc_ms);
    if (set->base_ms == 0 && set->inc_ms != 0)
        fake_fail("an increment (%lld) without a clock", (long long)set->inc_ms);
    json_t *b = json_object_get(msg, "base_ms"), *i = json_object_get(msg, "inc_ms");
    json_t *l = json_object_get(msg, "move_limit"), *r = json_object_get(msg, "rated");
    if (set->base_ms != (b ? json_integer_value(b) : 300000))
        fake_fail("base_ms %lld, asked for %s", (long long)set->base_ms, b ? "another" : "none");
    if (set->inc_ms != (i ? json_integer_value(i) : 0))
        fake_fail("inc_ms %lld, asked for another", (long long)set->inc_ms);
    if (set->rated != (r && json_is_true(r)))
        fake_fail("rated %d, asked for another", set->rated);
    if (set->rated && !set->v->rated)
        fake_fail("%s is never rated, but took rated", set->v->name);
    const game_option *lim = option_of(set->v, "MoveLimit");
    if (!lim) {
        if (set->move_limit != 0)
            fake_fail("%s has no move limit but got %d", set->v->name, set->move_limit);
    } else {
        int want = l ? (int)json_integer_value(l) : lim->offered ? lim->offer_def : lim->def;
        if (l && json_integer_value(l) != (json_int_t)set->move_limit)
            fake_fail("move_limit %d, asked for %lld", set->move_limit,
                      (long long)json_integer_value(l));
        if (set->move_limit != want)
            fake_fail("move_limit %d, want %d", set->move_limit, want);
        if (set->move_limit < lim->min || set->move_limit > lim->max)
            fake_fail("move_limit %d outside %d-%d", set->move_limit, lim->min, lim->max);
        if (lim->offered) {
            int offered = 0;
            for (const int *o = lim->offered; *o >= 0; o++)
                offered |= *o == set->move_limit;
            if (!offered)
                fake_fail("%s does not offer move_limit %d", set->v->name, set->move_limit);
        }
    }
    json_t *opts = json_object_get(msg, "options");
    if (set->nopts < 0 || set->nopts > SRV_MAX_OPTIONS ||
        (size_t)set->nopts != (opts ? json_object_size(opts) : 0))
        fake_fail("%d options taken of %zu", set->nopts, opts ? json_object_size(opts) : 0);
    for (int k = 0; k < set->nopts; k++) {
        const game_option *o = set->opts[k].name ? option_of(set->v, set->opts[k].name) : NULL;
        if (!o || strcmp(o->name, "MoveLimit") == 0)
            fake_fail("option '%s' is not %s's", set->opts[k].name ? set->opts[k].name : "(null)",
                      set->v->name);
        if (set->opts[k].value < o->min || set->opts[k].value > o->max)
            fake_fail("option %s = %d outside %d-%d", o->name, set->opts[k].value, o->min,
                      o->max);
        json_t *given = json_object_get(opts, o->name);
        if (!given || json_integer_value(given) != set->opts[k].value)
            fake_fail("option %s = %d, asked for another", o->name, set->opts[k].value);
        for (int j = 0; j < k; j++)
            if (set->opts[j].name == set->opts[k].name)
                fake_fail("option %s taken twice", o->name);
    }
}

static void check_reason(json_t *msg, const char *who, char *err, size_t size)
{
    size_t n = strnlen(err, size);
    if (n == size || n == 0)
        fake_fail("%s refused without a reason", who);
    text_utf8(err);
    if (!fake_utf8_ok(err, strlen(err))) {
        char *text = json_dumps(msg, JSON_COMPACT | JSON_ENSURE_ASCII);
        fake_fail("%s's reason is not UTF-8 even after text_utf8, so client_error cannot "
                  "send it: \"%s\" for %s",
                  who, err, text ? text : "?");
    }
}

/* The whole message through msg_parse. */
static void check_msg(json_t *msg)
{
    cmsg m;
    char err[200];
    memset(&m, 0x5a, sizeof m);
    memset(err, 0x5a, sizeof err);
    int rc = msg_parse(msg, &m, err, sizeof err);
    if (rc != 0) {
        if (rc != -1)
            fake_fail("msg_parse returned %d", rc);
        check_reason(msg, "msg_parse", err, sizeof err);
        return;
    }
    const char *type = json_string_value(json_object_get(msg, "type"));
    if (!type || !msg_name(m.kind) || strcmp(type, msg_name(m.kind)) != 0)
        fake_fail("msg_parse took type %s as kind %d", type ? type : "(none)", (int)m.kind);
    int n;
    const msg_field *f = msg_fields(m.kind, &n);
    const char *key;
    json_t *v;
    json_object_foreach(msg, key, v) {
        int i = 0;
        while (i < n && strcmp(f[i].name, key) != 0)
            i++;
        if (i == n)
            fake_fail("msg_parse took field '%s', which %s has not", key, type);
    }
    if (json_object_get(msg, "variant"))
        check_ok(msg, &m.set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!W.s)
        fake_world_new(&W, NULL, NULL, 0);  /* one server for every input: nothing changes it */
    if (size == 0)
        return 0;
    json_t *msg;
    if (data[0] > 0x7e && (data[0] & 2)) {
        /* text_utf8 on its own */
        char *text = malloc(size);
        if (!text)
            return 0;
        memcpy(text, data + 1, size - 1);
        text[size - 1] = 0;
        size_t n = strlen(text);
        int valid = fake_utf8_ok(text, n);
        char *before = strdup(text);
        text_utf8(text);
        if (strlen(text) != n || !fake_utf8_ok(text, n) || (valid && strcmp(text, before) != 0))
            fake_fail("text_utf8 made \"%s\" into \"%s\"", before, text);
        free(before);
        free(text);
        return 0;
    }
    if (data[0] & 1) {
        rd r = {data + 1, size - 1};
        msg = build(&r);
    } else {
        json_error_t jerr;
        msg = json_loadb((const char *)data + 1, size - 1, JSON_REJECT_DUPLICATES, &jerr);
        if (!msg)
            return 0;
    }
    check_msg(msg);
    game_settings set;
    memset(&set, 0x5a, sizeof set);
    char err[160];
    memset(err, 0x5a, sizeof err);
    int rc = msg_settings_parse(msg, &set, err, sizeof err);
    if (rc == 0) {
        check_ok(msg, &set);
    } else {
        if (rc != -1)
            fake_fail("msg_settings_parse returned %d", rc);
        check_reason(msg, "msg_settings_parse", err, sizeof err);
    }
    json_decref(msg);
    return 0;
}
