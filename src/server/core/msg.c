/* msg.c -- the one parse of a client's message (msg.h): its kind, its
 * fields against the kind's table, and the settings of a new game against
 * the variant's options.
 *
 * The tables below are the schema's ClientMessage in C; test_msg holds
 * them equal to docs/api.schema.json field by field, so the two cannot
 * drift apart. A refusal names the message and the field, and quotes at
 * most 40 bytes of what the client sent.
 */
#include <stdio.h>
#include <string.h>

#include "msg.h"

#define SETTINGS_FIELDS                                                                  \
    {"variant", 1, MSG_T_STRING}, {"base_ms", 0, MSG_T_INT}, {"inc_ms", 0, MSG_T_INT},  \
    {"move_limit", 0, MSG_T_INT}, {"options", 0, MSG_T_OBJECT}
#define HEAD {"type", 1, MSG_T_CONST}, {"ref", 0, MSG_T_ANY}

#define MSG_MAX_FIELDS 12
#define WORDS_(x) #x
#define WORDS(x) WORDS_(x)

static const struct kind {
    const char *name;
    msg_field f[MSG_MAX_FIELDS];  /* ends at the first without a name */
} kinds[MSG_KINDS] = {
    [MSG_PING] = {"ping", {HEAD}},
    [MSG_WATCH] = {"watch", {HEAD, {"game", 1, MSG_T_ID}}},
    [MSG_UNWATCH] = {"unwatch", {HEAD, {"game", 1, MSG_T_ID}}},
    [MSG_MOVE] = {"move",
                  {HEAD, {"game", 1, MSG_T_ID}, {"ply", 1, MSG_T_NATURAL},
                   {"move", 1, MSG_T_STRING}}},
    [MSG_RESIGN] = {"resign", {HEAD, {"game", 1, MSG_T_ID}, {"side", 0, MSG_T_SIDE}}},
    [MSG_DRAW] = {"draw", {HEAD, {"game", 1, MSG_T_ID}, {"decline", 0, MSG_T_BOOL}}},
    [MSG_ABORT] = {"abort", {HEAD, {"game", 1, MSG_T_ID}}},
    [MSG_UNCOVER] = {"uncover", {HEAD, {"game", 1, MSG_T_ID}}},
    [MSG_REMATCH] = {"rematch", {HEAD, {"game", 1, MSG_T_ID}}},
    [MSG_SETUP] = {"setup",
                   {HEAD, {"game", 1, MSG_T_ID}, {"setup", 1, MSG_T_STRING},
                    {"side", 0, MSG_T_SIDE}}},
    [MSG_SEEK] = {"seek", {HEAD, SETTINGS_FIELDS, {"rated", 0, MSG_T_BOOL}}},
    [MSG_CHALLENGE] = {"challenge", {HEAD, SETTINGS_FIELDS, {"rated", 0, MSG_T_BOOL}}},
    [MSG_CANCEL] = {"cancel", {HEAD, {"seek", 1, MSG_T_ID}}},
    [MSG_ACCEPT] = {"accept", {HEAD, {"seek", 1, MSG_T_ID}}},
    [MSG_ACCEPT_CHALLENGE] = {"accept_challenge", {HEAD, {"token", 1, MSG_T_STRING}}},
    [MSG_PLAY_BOT] = {"play_bot",
                      {HEAD, SETTINGS_FIELDS, {"rated", 0, MSG_T_BOOL}, {"bot", 1, MSG_T_STRING},
                       {"side", 0, MSG_T_BOT_SIDE}}},
    [MSG_LOCAL] = {"local", {HEAD, SETTINGS_FIELDS}},
    [MSG_TABLE] = {"table",
                   {HEAD, SETTINGS_FIELDS, {"rated", 0, MSG_T_BOOL}, {"seats", 1, MSG_T_SEATS}}},
    [MSG_SIT] = {"sit", {HEAD, {"table", 1, MSG_T_ID}, {"seat", 1, MSG_T_SIDE}}},
    [MSG_LOBBY] = {"lobby", {HEAD}},
    [MSG_UNLOBBY] = {"unlobby", {HEAD}},
    [MSG_CHAT] = {"chat", {HEAD, {"game", 1, MSG_T_ID}, {"text", 1, MSG_T_TEXT}}},
};

const char *msg_name(msg_kind k)
{
    return (unsigned)k < MSG_KINDS ? kinds[k].name : NULL;
}

const msg_field *msg_fields(msg_kind k, int *n)
{
    *n = 0;
    if ((unsigned)k >= MSG_KINDS)
        return NULL;
    while (*n < MSG_MAX_FIELDS && kinds[k].f[*n].name)
        (*n)++;
    return kinds[k].f;
}

int msg_names_game(msg_kind k)
{
    switch (k) {
    case MSG_WATCH: case MSG_UNWATCH: case MSG_MOVE: case MSG_RESIGN: case MSG_DRAW: case MSG_ABORT: case MSG_UNCOVER:
    case MSG_REMATCH: case MSG_SETUP: case MSG_CHAT:
        return 1;
    default:
        return 0;
    }
}

/* --- one field ------------------------------------------------------------------------ */

/* The value v of field f is of f's type and range; 0, or -1 with the reason. */
static int field_ok(const char *kind, const msg_field *f, json_t *v, char *err, size_t errlen)
{
    json_int_t i = json_is_integer(v) ? json_integer_value(v) : 0;
    const char *want = NULL;
    switch ((msg_type)f->type) {
    case MSG_T_ANY:
    case MSG_T_CONST:
        return 0;
    case MSG_T_ID:
        if (!json_is_integer(v) || i < 1)
            want = "an id (an integer from 1)";
        break;
    case MSG_T_SIDE:
        if (!json_is_integer(v) || i < 0 || i > GAME_MAX_SIDES - 1)
            want = "a side's number in turn order (0-3)";
        break;
    case MSG_T_BOT_SIDE:
        if (!json_is_integer(v) || i < -1 || i > 1)
            want = "0, 1, or -1 for either";
        break;
    case MSG_T_NATURAL:
        if (!json_is_integer(v) || i < 0)
            want = "an integer from 0";
        break;
    case MSG_T_INT:
        if (!json_is_integer(v))
            want = "an integer";
        break;
    case MSG_T_STRING:
    case MSG_T_TEXT:
        if (!json_is_string(v))
            want = "a string";
        else if (json_string_length(v) > MSG_MAX_TEXT)
            want = "at most " WORDS(MSG_MAX_TEXT) " bytes";
        else if (f->type == MSG_T_TEXT && json_string_length(v) == 0)
            want = "not empty";
        break;
    case MSG_T_BOOL:
        if (!json_is_boolean(v))
            want = "true or false";
        break;
    case MSG_T_OBJECT:
        if (!json_is_object(v))
            want = "an object";
        break;
    case MSG_T_SEATS:
        if (!json_is_array(v) || json_array_size(v) < 2 || json_array_size(v) > GAME_MAX_SIDES)
            want = "a list of 2-4 seats";
        else
            for (size_t k = 0; k < json_array_size(v) && !want; k++)
                if (!json_is_string(json_array_get(v, k)))
                    want = "a list of strings (\"me\", \"open\" or a bot's name)";
        break;
    }
    if (!want)
        return 0;
    snprintf(err, errlen, "%s: %s must be %s", kind, f->name, want);
    return -1;
}

/* --- the settings of a new game --------------------------------------------------- */

static int move_limit_parse(game_settings *set, json_t *l, char *err, size_t errlen)
{
    const game_option *limit = NULL;
    for (const game_option *o = set->v->options; o && o->name; o++)
        if (strcmp(o->name, "MoveLimit") == 0)
            limit = o;
    set->move_limit = 0;
    if (!limit) {
        if (l && json_integer_value(l) != 0) {
            snprintf(err, errlen, "%s has no move limit", set->v->name);
            return -1;
        }
        return 0;
    }
    json_int_t ml = l ? json_integer_value(l) : limit->offered ? limit->offer_def : limit->def;
    int ok = ml >= limit->min && ml <= limit->max;
    if (ok && limit->offered) {
        ok = 0;
        for (const int *o = limit->offered; *o >= 0; o++)
            ok |= *o == ml;
    }
    if (ok) {
        set->move_limit = (int)ml;
        return 0;
    }
    if (limit->offered) {
        char list[120] = "";
        size_t used = 0;
        for (const int *o = limit->offered; *o >= 0 && used < sizeof list - 16; o++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", used ? ", " : "",
                                     *o);
        snprintf(err, errlen, "move_limit must be one of %s", list);
    } else {
        snprintf(err, errlen, "move_limit must be %d-%d", limit->min, limit->max);
    }
    return -1;
}

int msg_settings_parse(json_t *msg, game_settings *set, char *err, size_t errlen)
{
    memset(set, 0, sizeof *set);
    const char *variant = json_string_value(json_object_get(msg, "variant"));
    if (!variant) {
        snprintf(err, errlen, "missing variant");
        return -1;
    }
    set->v = game_variant_find(variant);
    if (!set->v) {
        snprintf(err, errlen, "unknown variant '%.40s'", variant);
        return -1;
    }
    json_t *b = json_object_get(msg, "base_ms"), *i = json_object_get(msg, "inc_ms"),
           *l = json_object_get(msg, "move_limit"), *r = json_object_get(msg, "rated");
    if ((b && !json_is_integer(b)) || (i && !json_is_integer(i)) ||
        (l && !json_is_integer(l)) || (r && !json_is_boolean(r))) {
        snprintf(err, errlen, "base_ms, inc_ms and move_limit must be integers, rated a boolean");
        return -1;
    }
    set->base_ms = b ? json_integer_value(b) : 300000;
    set->inc_ms = i ? json_integer_value(i) : 0;
    set->rated = r ? json_is_true(r) : 0;
    if (set->base_ms < 0 || set->base_ms > SRV_MAX_BASE_MS || set->inc_ms < 0 ||
        set->inc_ms > SRV_MAX_INC_MS || (set->base_ms == 0 && set->inc_ms != 0)) {
        snprintf(err, errlen, "clock out of range (base 0-%lld ms, increment 0-%lld ms)",
                 (long long)SRV_MAX_BASE_MS, (long long)SRV_MAX_INC_MS);
        return -1;
    }
    if (move_limit_parse(set, l, err, errlen) != 0)
        return -1;
    if (set->rated && !set->v->rated) {
        snprintf(err, errlen, "%s is never rated", set->v->title);
        return -1;
    }
    /* the variant's other settings, by name: {"GameType": 2} */
    json_t *opts = json_object_get(msg, "options");
    if (opts && !json_is_object(opts)) {
        snprintf(err, errlen, "options must be an object of settings");
        return -1;
    }
    const char *key;
    json_t *val;
    json_object_foreach(opts, key, val) {
        const game_option *o = set->v->options;
        while (o && o->name && (strcmp(o->name, key) != 0 || strcmp(key, "MoveLimit") == 0))
            o++;
        if (!o || !o->name) {
            snprintf(err, errlen, "%s has no setting '%.40s'", set->v->title, key);
            return -1;
        }
        if (!json_is_integer(val) || json_integer_value(val) < o->min ||
            json_integer_value(val) > o->max) {
            snprintf(err, errlen, "%s must be %d-%d", o->name, o->min, o->max);
            return -1;
        }
        if (set->nopts == SRV_MAX_OPTIONS) {
            snprintf(err, errlen, "at most %d settings", SRV_MAX_OPTIONS);
            return -1;
        }
        set->opts[set->nopts].name = o->name;
        set->opts[set->nopts].value = (int)json_integer_value(val);
        set->nopts++;
    }
    return 0;
}

/* --- the message -------------------------------------------------------------------- */

static int64_t get_int(json_t *msg, const char *name, int64_t absent)
{
    json_t *v = json_object_get(msg, name);
    return v ? (int64_t)json_integer_value(v) : absent;
}

int msg_parse(json_t *msg, cmsg *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (!json_is_object(msg)) {
        snprintf(err, errlen, "malformed JSON: not an object");
        return -1;
    }
    m->ref = json_object_get(msg, "ref");
    json_t *jt = json_object_get(msg, "type");
    const char *type = json_string_value(jt);
    if (!type) {
        snprintf(err, errlen, jt ? "type must be a string" : "missing type");
        return -1;
    }
    int k = 0;
    while (k < MSG_KINDS && strcmp(kinds[k].name, type) != 0)
        k++;
    if (k == MSG_KINDS) {
        snprintf(err, errlen, "unknown message type '%.40s'", type);
        return -1;
    }
    m->kind = (msg_kind)k;
    int n;
    const msg_field *f = msg_fields(m->kind, &n);
    const char *key;
    json_t *v;
    json_object_foreach(msg, key, v) {
        int i = 0;
        while (i < n && strcmp(f[i].name, key) != 0)
            i++;
        if (i == n) {
            snprintf(err, errlen, "%s: no field '%.40s' (docs/api.md)", type, key);
            return -1;
        }
        if (field_ok(type, &f[i], v, err, errlen) != 0)
            return -1;
    }
    for (int i = 0; i < n; i++)
        if (f[i].required && !json_object_get(msg, f[i].name)) {
            snprintf(err, errlen, "%s: missing %s", type, f[i].name);
            return -1;
        }
    /* every field is present where required and of its type: read them */
    m->game = get_int(msg, "game", 0);
    m->seek = get_int(msg, "seek", 0);
    m->table = get_int(msg, "table", 0);
    m->ply = get_int(msg, "ply", 0);
    m->side = (int)get_int(msg, m->kind == MSG_SIT ? "seat" : "side", -1);
    m->decline = json_is_true(json_object_get(msg, "decline"));
    static const char *const text_field[MSG_KINDS] = {
        [MSG_MOVE] = "move", [MSG_SETUP] = "setup", [MSG_CHAT] = "text",
        [MSG_ACCEPT_CHALLENGE] = "token", [MSG_PLAY_BOT] = "bot",
    };
    if (text_field[m->kind]) {
        json_t *t = json_object_get(msg, text_field[m->kind]);
        m->text = json_string_value(t);
        m->text_len = json_string_length(t);
    }
    json_t *seats = json_object_get(msg, "seats");
    for (size_t i = 0; i < json_array_size(seats); i++)
        m->seats[m->nseats++] = json_string_value(json_array_get(seats, i));
    if (json_object_get(msg, "variant") && msg_settings_parse(msg, &m->set, err, errlen) != 0)
        return -1;
    return 0;
}
