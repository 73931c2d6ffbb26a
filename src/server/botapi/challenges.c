/* challenges.c -- the Bot API's challenges and seeks (docs/bot-api.md),
 * at lichess's paths: POST /api/challenge/{name}, .../{id}/accept,
 * decline, cancel and show, GET /api/challenge; and Citadel's own seeks,
 * POST /api/bot/seek and DELETE /api/bot/seek/{id}.
 *
 * A challenge's or seek's settings come as a form or as JSON, in lichess's
 * names (clock.limit and clock.increment in seconds, time in minutes,
 * rated, color, variant) or Citadel's (clock {limit, increment}, rated,
 * move_limit, options); a field neither knows is refused by name, never
 * ignored. The invariant: a request refused changes nothing, and every
 * challenge made, declined, withdrawn or taken is told on the event
 * streams of the player it concerns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "botapi_inside.h"

/* An integer field: a JSON integer, or a form's digits. 0, or -1. */
static int field_int(json_t *v, long long lo, long long hi, long long *out)
{
    if (json_is_integer(v)) {
        *out = json_integer_value(v);
    } else if (json_is_string(v)) {
        const char *t = json_string_value(v);
        char *end;
        if (!t[0] || strlen(t) > 12 || strspn(t, "0123456789") != strlen(t))
            return -1;
        *out = strtoll(t, &end, 10);
    } else {
        return -1;
    }
    return *out >= lo && *out <= hi ? 0 : -1;
}

/* A boolean field: JSON's, or a form's "true"/"false". 0, or -1. */
static int field_bool(json_t *v, int *out)
{
    const char *t = json_string_value(v);
    if (json_is_boolean(v))
        *out = json_is_true(v);
    else if (t && (strcmp(t, "true") == 0 || strcmp(t, "false") == 0))
        *out = t[0] == 't';
    else
        return -1;
    return 0;
}

/* The settings of a challenge's or seek's fields into *set and the side
 * asked for into *color (0 random, 1 white, 2 black): 0, or -1 with why. */
static int fields_settings(json_t *body, game_settings *set, int *color, char *err,
                           size_t errlen)
{
    static const char *const known[] = {"variant", "rated", "clock", "clock.limit",
                                        "clock.increment", "time", "increment", "color",
                                        "move_limit", "options", "days", "fen",
                                        "keepAliveStream"};
    const char *key;
    json_t *val;
    void *tmp;
    json_object_foreach_safe(body, tmp, key, val) {
        if (json_is_null(val)) {  /* lichess's clients send every field, null for unset */
            json_object_del(body, key);
            continue;
        }
        size_t i = 0;
        while (i < sizeof known / sizeof known[0] && strcmp(known[i], key) != 0)
            i++;
        if (i == sizeof known / sizeof known[0]) {
            snprintf(err, errlen, "unknown field '%.40s' (docs/bot-api.md, Challenges)", key);
            return -1;
        }
    }
    if (json_object_get(body, "days")) {
        snprintf(err, errlen, "days: games of days a move are not offered yet; give a clock, "
                              "or none for a game without one");
        return -1;
    }
    const char *fen = json_string_value(json_object_get(body, "fen"));
    if (json_object_get(body, "fen") && (!fen || strcmp(fen, "startpos") != 0)) {
        snprintf(err, errlen, "fen: games from a position of one's choosing are not offered");
        return -1;
    }
    int flag = 0;
    json_t *keep = json_object_get(body, "keepAliveStream");
    if (keep && (field_bool(keep, &flag) != 0 || flag)) {
        snprintf(err, errlen, "keepAliveStream: the answer is not streamed; follow the "
                              "challenge on the event stream");
        return -1;
    }
    json_t *msg = json_object();
    json_t *variant = json_object_get(body, "variant");
    json_object_set_new(msg, "variant", variant ? json_incref(variant) : json_string("rampart"));
    json_t *rated = json_object_get(body, "rated");
    if (rated && field_bool(rated, &flag) == 0)
        json_object_set_new(msg, "rated", json_boolean(flag));
    else if (rated)
        json_object_set(msg, "rated", rated);  /* refused below, by the usual words */
    json_t *ml = json_object_get(body, "move_limit");
    long long n;
    if (ml && json_is_string(ml) && field_int(ml, 0, 100000, &n) == 0)
        json_object_set_new(msg, "move_limit", json_integer(n));  /* a form's digits */
    else if (ml)
        json_object_set(msg, "move_limit", ml);
    if (json_object_get(body, "options"))
        json_object_set(msg, "options", json_object_get(body, "options"));
    /* the clock, in any of its three spellings; none: no clock */
    json_t *clock = json_object_get(body, "clock");
    json_t *limit = json_object_get(body, "clock.limit"), *inc = json_object_get(body, "clock.increment");
    json_t *minutes = json_object_get(body, "time");
    long long base_s = 0, inc_s = 0;
    int spellings = !!(clock && !json_is_null(clock)) + !!(limit || inc) + !!minutes;
    int bad = spellings > 1;
    if (clock && !json_is_null(clock)) {
        limit = json_object_get(clock, "limit");
        inc = json_object_get(clock, "increment");
        bad |= !json_is_object(clock) || !limit;
    }
    if (!bad && minutes) {
        bad = field_int(minutes, 0, SRV_MAX_BASE_MS / 60000, &base_s) != 0;
        base_s *= 60;
        inc = json_object_get(body, "increment");
    } else if (!bad && limit) {
        bad = field_int(limit, 0, SRV_MAX_BASE_MS / 1000, &base_s) != 0;
    } else if (!bad && inc) {
        bad = 1;  /* an increment alone */
    }
    if (!bad && inc)
        bad = field_int(inc, 0, SRV_MAX_INC_MS / 1000, &inc_s) != 0;
    if (bad) {
        json_decref(msg);
        snprintf(err, errlen, "the clock: clock.limit and clock.increment in seconds (or JSON "
                              "\"clock\": {\"limit\", \"increment\"}, or time in minutes with "
                              "increment); none for no clock");
        return -1;
    }
    json_object_set_new(msg, "base_ms", json_integer(base_s * 1000));
    json_object_set_new(msg, "inc_ms", json_integer(inc_s * 1000));
    const char *c = json_string_value(json_object_get(body, "color"));
    *color = !c || strcmp(c, "random") == 0 ? 0 : strcmp(c, "white") == 0 ? 1
           : strcmp(c, "black") == 0        ? 2
                                            : -1;
    int rc = msg_settings_parse(msg, set, err, errlen);
    json_decref(msg);
    if (rc == 0 && *color < 0) {
        snprintf(err, errlen, "color: random, white (the side that moves first) or black");
        return -1;
    }
    return rc;
}

/* The settings of a request's body: 0, or -1 after answering 400. */
static int body_settings(net_http *h, const net_request *req, game_settings *set, int *color)
{
    json_t *body = req_body_fields(req, h);
    if (!body)
        return -1;
    char err[240];
    int rc = fields_settings(body, set, color, err, sizeof err);
    json_decref(body);
    if (rc != 0)
        reply_error(h, 400, err);
    return rc;
}

/* The reasons to decline lichess's clients know (the key they match on),
 * each with Citadel's own words for the challenger. */
static const struct {
    const char *key, *text;
} reasons[] = {
    {"generic", "The challenge was declined."},
    {"later", "Not now; try again later."},
    {"toofast", "That clock is too fast; try a slower one."},
    {"tooslow", "That clock is too slow; try a faster one."},
    {"timecontrol", "Not with that clock."},
    {"rated", "Only rated games, please."},
    {"casual", "Only unrated games, please."},
    {"standard", "Not that form of the game."},
    {"variant", "Not that game or variant."},
    {"nobot", "No games with bots."},
    {"onlybot", "Games with bots only."},
};

/* The reason a decline's body gives (lichess's `reason`, any case), as an
 * index of reasons[]; "generic" for none or one not known, as lichess. */
static int decline_reason(const net_request *req, net_http *h)
{
    json_t *body = req_body_fields(req, h);
    if (!body)
        return -1;
    const char *r = json_string_value(json_object_get(body, "reason"));
    int k = 0;
    for (int i = 0; r && i < (int)(sizeof reasons / sizeof reasons[0]); i++)
        if (strcasecmp(r, reasons[i].key) == 0)
            k = i;
    json_decref(body);
    return k;
}

/* POST /api/challenge/{id}/accept|decline|cancel, GET .../show */
static void challenge_act(srv *s, net_http *h, const net_request *req, client *c, const ident *me,
                          const char *rest, const char *action)
{
    char tok[40], err[200];
    size_t n = (size_t)(action - 1 - rest);
    seek *k = NULL;
    if (n > 0 && n < sizeof tok) {
        memcpy(tok, rest, n);
        tok[n] = 0;
        k = lobby_challenge_find(s, tok);
    }
    int show = strcmp(action, "show") == 0;
    char site[200];
    ident_site(s, req, site, sizeof site);
    if (!k || (strcmp(action, "cancel") == 0 ? k->by.id != me->id
               : show                        ? k->by.id != me->id && k->to.id != me->id
                                             : k->to.id != me->id && k->to.id)) {
        reply_error(h, 404, "no such challenge of or for you (taken or withdrawn)");
        return;
    }
    if (show != (strcmp(req->method, "GET") == 0)) {
        reply_error(h, 405, show ? "GET only" : "POST only");
        return;
    }
    if (show) {
        json_t *j = shape_challenge(s, k, "created", NULL, site);
        json_object_set_new(j, "direction", json_string(k->by.id == me->id ? "out" : "in"));
        reply_json(h, 200, j, NULL);
    } else if (strcmp(action, "accept") == 0) {
        json_t *j = shape_challenge(s, k, "accepted", NULL, site);
        int64_t by = k->by.id;
        live *g = lobby_take(s, c, k, err, sizeof err);  /* k is gone if the game began */
        if (!g) {
            json_decref(j);
            reply_error(h, 400, err);
            return;
        }
        char id[24], url[260];
        snprintf(id, sizeof id, "%lld", (long long)g->id);
        snprintf(url, sizeof url, "%s/game/%s", site, id);
        json_object_set_new(j, "game", json_string(id));
        json_object_set_new(j, "url", json_string(url));
        for (int i = 0; i < g->v->nsides; i++)
            if (g->players[i].id == by)
                json_object_set_new(j, "finalColor", json_string(shape_color(i)));
        reply_json(h, 200, json_pack("{s:b, s:o}", "ok", 1, "challenge", j), NULL);
    } else if (strcmp(action, "decline") == 0 || strcmp(action, "cancel") == 0) {
        int decline = action[0] == 'd';
        int why = decline ? decline_reason(req, h) : 0;
        if (why < 0)
            return;
        json_t *j = shape_challenge(s, k, decline ? "declined" : "canceled", NULL, site);
        if (decline) {
            json_object_set_new(j, "declineReason", json_string(reasons[why].text));
            json_object_set_new(j, "declineReasonKey", json_string(reasons[why].key));
        }
        int64_t other = decline ? k->by.id : k->to.id;
        lobby_drop(s, k);
        api_tell_player(s, other, json_pack("{s:s, s:o}", "type",
                                            decline ? "challengeDeclined" : "challengeCanceled",
                                            "challenge", j));
        reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
    } else {
        reply_error(h, 404, "no such endpoint");
    }
}

/* GET /api/challenge: the challenges waiting for the player and its own. */
static void challenge_list(srv *s, net_http *h, const net_request *req, const ident *me)
{
    char site[200];
    ident_site(s, req, site, sizeof site);
    json_t *in = json_array(), *out = json_array();
    for (seek *k = s->seeks; k; k = k->next) {
        if (!k->token[0] || !k->to.id || (k->to.id != me->id && k->by.id != me->id))
            continue;
        json_t *j = shape_challenge(s, k, "created", NULL, site);
        int mine = k->by.id == me->id;
        json_object_set_new(j, "direction", json_string(mine ? "out" : "in"));
        json_array_append_new(mine ? out : in, j);
    }
    reply_json(h, 200, json_pack("{s:o, s:o}", "in", in, "out", out), NULL);
}

void challenges_http(srv *s, net_http *h, const net_request *req, const char *rest)
{
    const char *slash = strchr(rest, '/');
    int create = rest[0] && !slash;
    int get = strcmp(req->method, "GET") == 0;
    if (!rest[0] ? !get : !get && strcmp(req->method, "POST") != 0) {
        reply_error(h, 405, rest[0] ? "GET or POST" : "GET only");
        return;
    }
    ident me;
    int64_t token;
    apibot *b;
    client *c = api_client(s, h, req, create ? SC_CHALLENGE : SC_CHALLENGE | SC_BOT | SC_BOARD,
                           &me, &token, &b);
    if (!c)
        return;
    if (!rest[0]) {
        challenge_list(s, h, req, &me);
        return;
    }
    if (!create) {
        challenge_act(s, h, req, c, &me, rest, slash + 1);
        return;
    }
    if (get) {
        reply_error(h, 405, "POST only");
        return;
    }
    game_settings set;
    int color;
    if (body_settings(h, req, &set, &color) != 0)
        return;
    char err[200], site[200];
    ident_site(s, req, site, sizeof site);
    const ident *robot = lobby_bot_by_name(s, rest);
    if (robot) {
        live *g = lobby_play_bot(s, c, &set, robot, color - 1, err, sizeof err);
        if (!g) {
            reply_error(h, 400, err);
            return;
        }
        seek k = {.by = me, .to = *robot, .set = set, .color = color, .asked = color};
        json_t *j = shape_challenge(s, &k, "accepted", g, site);
        json_object_set(j, "id", json_object_get(j, "game"));  /* the game is the challenge */
        json_object_set_new(j, "direction", json_string("out"));
        reply_json(h, 200, j, NULL);
        return;
    }
    store_player p;
    store_err e;
    store_standing st;
    ident to;
    if (store_player_by_name(s->st, rest, &p, NULL, &e) != 0 || p.is_guest || p.is_bot ||
        store_standing_get(s->st, p.id, &st, &e) != 0 || st.closed) {
        reply_error(h, 404, "no such player");  /* a closed account is no one's to challenge */
        return;
    }
    ident_of(&p, &to);
    seek *k = lobby_challenge(s, c, &set, &to, err, sizeof err);
    if (!k) {
        reply_error(h, 400, err);
        return;
    }
    /* the side is settled now, as lichess's finalColor is: random drawn here */
    k->asked = color;
    k->color = color ? color : 1 + (int)rng_below(&s->rng, 2);
    json_t *j = shape_challenge(s, k, "created", NULL, site);
    json_t *told = json_deep_copy(j);
    json_object_set_new(told, "direction", json_string("in"));
    api_tell_player(s, to.id, json_pack("{s:s, s:o}", "type", "challenge", "challenge", told));
    json_object_set_new(j, "direction", json_string("out"));
    reply_json(h, 200, j, NULL);
}

void seeks_http(srv *s, net_http *h, const net_request *req, const char *rest)
{
    ident me;
    int64_t token;
    apibot *b;
    client *c = api_client(s, h, req, SC_BOT | SC_BOARD, &me, &token, &b);
    if (!c)
        return;
    if (strcmp(req->method, "DELETE") == 0 && rest[0] == '/') {
        const char *end;
        int64_t id = req_path_id(rest + 1, &end);
        if (id <= 0 || *end || lobby_withdraw(s, c, id) != 0)
            reply_error(h, 404, "no such seek of yours");
        else
            reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
        return;
    }
    if (strcmp(req->method, "POST") != 0 || rest[0]) {
        reply_error(h, 405, "POST /api/bot/seek, DELETE /api/bot/seek/ID");
        return;
    }
    game_settings set;
    int color;
    if (body_settings(h, req, &set, &color) != 0)
        return;
    char err[200];
    seek *k = lobby_seek(s, c, &set, err, sizeof err);
    if (!k) {
        reply_error(h, 400, err);
        return;
    }
    k->color = k->asked = color;
    reply_json(h, 200, json_pack("{s:I}", "id", (json_int_t)k->id), NULL);
}
