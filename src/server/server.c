/* server.c -- start-up, WebSocket connections, identity, seeks and the
 * lobby. See server.h for the map of the server, docs/api.md for the
 * protocol.
 */
#include <signal.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../ai/bots.h"
#include "botpool.h"
#include "serve.h"
#include "server.h"

static net *running;  /* for the signal handler */

void random_token(char *out, size_t bytes)
{
    unsigned char raw[64];
    if (bytes > sizeof raw)
        bytes = sizeof raw;
    randombytes_buf(raw, bytes);
    sodium_bin2hex(out, bytes * 2 + 1, raw, bytes);
}

json_t *ident_json(const ident *p)
{
    return json_pack("{s:I, s:s, s:b, s:b}", "id", (json_int_t)p->id, "name", p->name, "bot",
                     p->bot, "guest", p->guest);
}

int ident_load(srv *s, int64_t id, ident *out)
{
    store_player p;
    store_err e;
    if (store_player_by_id(s->st, id, &p, &e) != 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->id = p.id;
    snprintf(out->name, sizeof out->name, "%s", p.name);
    out->bot = p.is_bot;
    out->guest = p.is_guest;
    snprintf(out->spec, sizeof out->spec, "%s", p.bot_spec);
    return 0;
}

/* --- sending --------------------------------------------------------------- */

void client_send(client *c, json_t *msg)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    if (text) {
        net_ws_send(c->conn, text, strlen(text));
        free(text);
    }
}

void client_error(client *c, json_t *ref, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    json_t *m = json_pack("{s:s, s:s}", "type", "error", "error", buf);
    if (ref)
        json_object_set(m, "ref", ref);
    client_send(c, m);
    json_decref(m);
}

client *client_of_player(srv *s, int64_t player)
{
    for (client *c = s->clients; c; c = c->next)
        if (c->me.id == player)
            return c;
    return NULL;
}

void client_watch(client *c, int64_t game)
{
    for (int i = 0; i < c->nwatch; i++)
        if (c->watch[i] == game)
            return;
    if (c->nwatch == c->capwatch) {
        int cap = c->capwatch ? 2 * c->capwatch : 4;
        int64_t *w = realloc(c->watch, (size_t)cap * sizeof *w);
        if (!w)
            return;
        c->watch = w;
        c->capwatch = cap;
    }
    c->watch[c->nwatch++] = game;
}

void client_unwatch(client *c, int64_t game)
{
    for (int i = 0; i < c->nwatch; i++)
        if (c->watch[i] == game) {
            c->watch[i] = c->watch[--c->nwatch];
            return;
        }
}

/* --- lobby and seeks --------------------------------------------------------- */

static json_t *seek_json(const seek *k)
{
    json_t *j = json_pack("{s:I, s:s, s:s, s:I, s:I, s:i, s:b, s:o}", "id", (json_int_t)k->id,
                          "variant", k->set.v->name, "title", k->set.v->title, "base_ms",
                          (json_int_t)k->set.base_ms, "inc_ms", (json_int_t)k->set.inc_ms,
                          "move_limit", k->set.move_limit, "rated", k->set.rated, "player",
                          ident_json(&k->owner->me));
    json_t *opts = json_object();
    for (int i = 0; i < k->set.nopts; i++)
        json_object_set_new(opts, k->set.opts[i].name, json_integer(k->set.opts[i].value));
    json_object_set_new(j, "options", opts);
    if (k->nseats) {
        json_t *seats = json_array();
        for (int i = 0; i < k->nseats; i++)
            json_array_append_new(seats, k->seated[i] ? ident_json(&k->who[i]) : json_null());
        json_object_set_new(j, "seats", seats);
    }
    return j;
}

static json_t *lobby_json(srv *s)
{
    json_t *seeks = json_array();
    for (seek *k = s->seeks; k; k = k->next)
        if (!k->token[0])
            json_array_append_new(seeks, seek_json(k));
    return json_pack("{s:s, s:o, s:o}", "type", "lobby", "seeks", seeks, "games",
                     live_list(s, 100));
}

void lobby_changed(srv *s)
{
    json_t *m = NULL;
    for (client *c = s->clients; c; c = c->next)
        if (c->lobby) {
            if (!m)
                m = lobby_json(s);
            client_send(c, m);
        }
    json_decref(m);
}

json_t *lobby_now(srv *s)
{
    return lobby_json(s);
}

static void seek_remove(srv *s, seek *k)
{
    for (seek **p = &s->seeks; *p; p = &(*p)->next)
        if (*p == k) {
            *p = k->next;
            free(k);
            return;
        }
}

static seek *seek_find(srv *s, int64_t id, const char *token)
{
    for (seek *k = s->seeks; k; k = k->next)
        if (token ? (k->token[0] && strcmp(k->token, token) == 0) : k->id == id)
            return k;
    return NULL;
}

/* Reads the settings of seek, challenge, play_bot and local. */
int settings_parse(srv *s, json_t *msg, game_settings *set, char *err, size_t errlen)
{
    (void)s;
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
    set->move_limit = 0;
    const game_option *limit = NULL;
    for (const game_option *o = set->v->options; o && o->name; o++)
        if (strcmp(o->name, "MoveLimit") == 0)
            limit = o;
    if (limit) {
        json_int_t ml = l ? json_integer_value(l) : limit->offered ? limit->offer_def : limit->def;
        int ok = ml >= limit->min && ml <= limit->max;
        if (ok && limit->offered) {
            ok = 0;
            for (const int *o = limit->offered; *o >= 0; o++)
                ok |= *o == ml;
        }
        if (!ok) {
            char list[120] = "";
            size_t used = 0;
            for (const int *o = limit->offered; o && *o >= 0 && used < sizeof list - 16; o++)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%d",
                                         used ? ", " : "", *o);
            if (limit->offered)
                snprintf(err, errlen, "move_limit must be one of %s", list);
            else
                snprintf(err, errlen, "move_limit must be %d-%d", limit->min, limit->max);
            return -1;
        }
        set->move_limit = (int)ml;
    } else if (l && json_integer_value(l) != 0) {
        snprintf(err, errlen, "%s has no move limit", set->v->name);
        return -1;
    }
    if (set->rated && !set->v->rated) {
        snprintf(err, errlen, "%s is never rated", set->v->title);
        return -1;
    }
    /* the variant's other settings, by name: {"GameType": 2} */
    set->nopts = 0;
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
        if (set->nopts == SRV_MAX_OPTIONS)
            break;
        set->opts[set->nopts].name = o->name;
        set->opts[set->nopts].value = (int)json_integer_value(val);
        set->nopts++;
    }
    return 0;
}

/* The settings of a client's request, or -1 after telling it why not. */
static int client_settings(srv *s, client *c, json_t *msg, json_t *ref, game_settings *set)
{
    char err[160];
    if (settings_parse(s, msg, set, err, sizeof err) != 0) {
        client_error(c, ref, "%s", err);
        return -1;
    }
    if (set->rated && c->me.guest) {
        client_error(c, ref, "sign in to play rated games");
        return -1;
    }
    return 0;
}

static void on_seek(srv *s, client *c, json_t *msg, json_t *ref, int challenge)
{
    game_settings set;
    if (client_settings(s, c, msg, ref, &set) != 0)
        return;
    if (set.v->nsides != 2) {
        client_error(c, ref, "%s is played at a table (see `table`)", set.v->title);
        return;
    }
    int mine = 0;
    for (seek *k = s->seeks; k; k = k->next)
        mine += k->owner == c;
    if (mine >= 10) {
        client_error(c, ref, "at most 10 open seeks");
        return;
    }
    seek *k = calloc(1, sizeof *k);
    if (!k) {
        client_error(c, ref, "out of memory");
        return;
    }
    k->id = ++s->next_seek;
    k->owner = c;
    k->set = set;
    if (challenge)
        random_token(k->token, 16);
    k->next = s->seeks;
    s->seeks = k;
    json_t *m = challenge
        ? json_pack("{s:s, s:s, s:I}", "type", "challenge_created", "token", k->token, "seek",
                    (json_int_t)k->id)
        : json_pack("{s:s, s:I}", "type", "seek_created", "seek", (json_int_t)k->id);
    if (ref)
        json_object_set(m, "ref", ref);
    client_send(c, m);
    json_decref(m);
    if (!challenge)
        lobby_changed(s);
}

/* Starts the game of a seek taken by c; the seek's owner plays a random
 * side. */
static void take_seek(srv *s, client *c, seek *k, json_t *ref)
{
    if (k->owner->me.id == c->me.id) {
        client_error(c, ref, "that is your own seek");
        return;
    }
    if (k->set.rated && c->me.guest) {
        client_error(c, ref, "sign in to play rated games");
        return;
    }
    ident players[GAME_MAX_SIDES];
    memset(players, 0, sizeof players);
    int owner_side = (int)rng_below(&s->rng, 2);
    players[owner_side] = k->owner->me;
    players[owner_side ^ 1] = c->me;
    char err[160];
    game_settings set = k->set;
    client *owner = k->owner;
    seek_remove(s, k);
    live *g = live_start(s, &set, players, err, sizeof err);
    if (!g) {
        client_error(c, ref, "%s", err);
        return;
    }
    live_watch(s, g, owner);
    live_watch(s, g, c);
    lobby_changed(s);
}

static void on_accept(srv *s, client *c, json_t *msg, json_t *ref, int by_token)
{
    seek *k;
    if (by_token) {
        const char *token = json_string_value(json_object_get(msg, "token"));
        k = token ? seek_find(s, 0, token) : NULL;
    } else {
        json_t *id = json_object_get(msg, "seek");
        k = json_is_integer(id) ? seek_find(s, json_integer_value(id), NULL) : NULL;
        if (k && k->token[0])
            k = NULL;  /* challenges are taken by token only */
    }
    if (!k) {
        client_error(c, ref, "no such seek (taken or withdrawn)");
        return;
    }
    take_seek(s, c, k, ref);
}

/* --- tables: games of more than two sides --------------------------------------- */

static const ident *bot_by_name(srv *s, const char *name);

/* Starts a table's game once every seat is taken. */
static void table_full(srv *s, seek *k)
{
    ident players[GAME_MAX_SIDES];
    client *watchers[GAME_MAX_SIDES + 1];
    int nw = 0;
    for (int i = 0; i < k->nseats; i++) {
        players[i] = k->who[i];
        if (k->sitter[i])
            watchers[nw++] = k->sitter[i];
    }
    watchers[nw++] = k->owner;
    game_settings set = k->set;
    client *owner = k->owner;
    seek_remove(s, k);
    char err[160];
    live *g = live_start(s, &set, players, err, sizeof err);
    if (!g) {
        client_error(owner, NULL, "%s", err);
        lobby_changed(s);
        return;
    }
    for (int i = 0; i < nw; i++)
        live_watch(s, g, watchers[i]);
    lobby_changed(s);
}

/* table {variant, options, base_ms, inc_ms, move_limit, seats: ["me" |
 * "open" | a bot's name, one per side]} */
static void on_table(srv *s, client *c, json_t *msg, json_t *ref)
{
    game_settings set;
    if (client_settings(s, c, msg, ref, &set) != 0)
        return;
    json_t *seats = json_object_get(msg, "seats");
    int n = set.v->nsides;
    if (!json_is_array(seats) || (int)json_array_size(seats) != n) {
        client_error(c, ref, "seats: a list of %d entries (\"me\", \"open\" or a bot's name)",
                     n);
        return;
    }
    seek *k = calloc(1, sizeof *k);
    if (!k) {
        client_error(c, ref, "out of memory");
        return;
    }
    k->owner = c;
    k->set = set;
    k->nseats = n;
    int mine = 0, open = 0;
    for (int i = 0; i < n; i++) {
        const char *what = json_string_value(json_array_get(seats, (size_t)i));
        const ident *robot = what ? bot_by_name(s, what) : NULL;
        if (what && strcmp(what, "me") == 0) {
            k->seated[i] = 1;
            k->who[i] = c->me;
            k->sitter[i] = c;
            mine++;
        } else if (what && strcmp(what, "open") == 0) {
            open++;
        } else if (robot && bot_spec_can_play(robot->spec, set.v)) {
            k->seated[i] = 1;
            k->who[i] = *robot;
        } else {
            client_error(c, ref, "seat %d: want \"me\", \"open\" or a bot that plays %s", i,
                         set.v->title);
            free(k);
            return;
        }
    }
    if (!mine) {
        client_error(c, ref, "take at least one seat yourself");
        free(k);
        return;
    }
    k->id = ++s->next_seek;
    k->next = s->seeks;
    s->seeks = k;
    json_t *m = json_pack("{s:s, s:I}", "type", "table_created", "table", (json_int_t)k->id);
    if (ref)
        json_object_set(m, "ref", ref);
    client_send(c, m);
    json_decref(m);
    if (!open)
        table_full(s, k);
    else
        lobby_changed(s);
}

/* sit {table, seat} */
static void on_sit(srv *s, client *c, json_t *msg, json_t *ref)
{
    json_t *id = json_object_get(msg, "table"), *seat = json_object_get(msg, "seat");
    seek *k = json_is_integer(id) ? seek_find(s, json_integer_value(id), NULL) : NULL;
    if (!k || !k->nseats) {
        client_error(c, ref, "no such table");
        return;
    }
    json_int_t i = json_is_integer(seat) ? json_integer_value(seat) : -1;
    if (i < 0 || i >= k->nseats || k->seated[i]) {
        client_error(c, ref, "that seat is not open");
        return;
    }
    k->seated[i] = 1;
    k->who[i] = c->me;
    k->sitter[i] = c;
    int open = 0;
    for (int j = 0; j < k->nseats; j++)
        open += !k->seated[j];
    if (!open)
        table_full(s, k);
    else
        lobby_changed(s);
}

static void on_cancel(srv *s, client *c, json_t *msg, json_t *ref)
{
    json_t *id = json_object_get(msg, "seek");
    seek *k = json_is_integer(id) ? seek_find(s, json_integer_value(id), NULL) : NULL;
    if (!k || k->owner != c) {
        client_error(c, ref, "no such seek of yours");
        return;
    }
    int lobby = !k->token[0];
    seek_remove(s, k);
    if (lobby)
        lobby_changed(s);
}

static const ident *bot_by_name(srv *s, const char *name)
{
    for (int i = 0; i < s->nbots; i++)
        if (strcmp(s->bots[i].name, name) == 0)
            return &s->bots[i];
    return NULL;
}

static void on_play_bot(srv *s, client *c, json_t *msg, json_t *ref)
{
    game_settings set;
    char err[160];
    if (client_settings(s, c, msg, ref, &set) != 0)
        return;
    const char *name = json_string_value(json_object_get(msg, "bot"));
    const ident *robot = name ? bot_by_name(s, name) : NULL;
    if (!robot) {
        client_error(c, ref, "unknown bot (see /api/bots)");
        return;
    }
    if (set.v->nsides != 2 || !bot_spec_can_play(robot->spec, set.v)) {
        client_error(c, ref, "%s does not play %s", robot->name, set.v->title);
        return;
    }
    json_t *sd = json_object_get(msg, "side");
    json_int_t side = json_is_integer(sd) ? json_integer_value(sd) : -1;
    if (sd && !json_is_integer(sd)) {
        client_error(c, ref, "side must be 0, 1 or -1");
        return;
    }
    if (side < -1 || side > 1) {
        client_error(c, ref, "side must be 0, 1 or -1");
        return;
    }
    if (side < 0)
        side = (json_int_t)rng_below(&s->rng, 2);
    ident players[GAME_MAX_SIDES];
    memset(players, 0, sizeof players);
    players[side] = c->me;
    players[side ^ 1] = *robot;
    live *g = live_start(s, &set, players, err, sizeof err);
    if (!g) {
        client_error(c, ref, "%s", err);
        return;
    }
    live_watch(s, g, c);
    lobby_changed(s);
}

static void on_local(srv *s, client *c, json_t *msg, json_t *ref)
{
    game_settings set;
    char err[160];
    json_object_set_new(msg, "rated", json_false());  /* one device: never rated */
    if (client_settings(s, c, msg, ref, &set) != 0)
        return;
    ident players[GAME_MAX_SIDES];
    for (int i = 0; i < GAME_MAX_SIDES; i++)
        players[i] = c->me;
    live *g = live_start(s, &set, players, err, sizeof err);
    if (!g) {
        client_error(c, ref, "%s", err);
        return;
    }
    live_watch(s, g, c);
}

static void on_watch(srv *s, client *c, json_t *msg, json_t *ref, int on)
{
    json_t *id = json_object_get(msg, "game");
    live *g = json_is_integer(id) ? live_find(s, json_integer_value(id)) : NULL;
    if (!g) {
        if (json_is_integer(id) && on) {
            /* a finished game no longer in memory: send it as stored */
            char err[160];
            json_t *st = game_json_stored(s, json_integer_value(id), err, sizeof err);
            if (st) {
                json_t *m = json_pack("{s:s, s:o}", "type", "game", "game", st);
                client_send(c, m);
                json_decref(m);
                return;
            }
        }
        client_error(c, ref, "no such game");
        return;
    }
    if (on)
        live_watch(s, g, c);
    else
        live_unwatch(g, c);
}

/* --- WebSocket events ---------------------------------------------------------- */

static int on_ws_open(void *app, net_conn *conn, const char *cookie, const char *peer)
{
    (void)peer;
    srv *s = app;
    client *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    c->s = s;
    c->conn = conn;
    c->tokens = SRV_MSG_BURST;
    c->refill_ms = net_mono_ms();
    char token[65];
    if (session_player(s, cookie, &c->me) != 0 && guest_new(s, &c->me, token) != 0) {
        free(c);
        return -1;
    }
    net_conn_set_data(conn, c);
    c->next = s->clients;
    if (s->clients)
        s->clients->prev = c;
    s->clients = c;
    json_t *m = json_pack("{s:s, s:o, s:o}", "type", "hello", "player", ident_json(&c->me),
                          "games", live_of_player(s, c->me.id));
    client_send(c, m);
    json_decref(m);
    live_player_back(s, c->me.id);
    return 0;
}

static void on_ws_close(void *app, net_conn *conn)
{
    srv *s = app;
    client *c = net_conn_data(conn);
    if (!c)
        return;
    if (c->prev)
        c->prev->next = c->next;
    else
        s->clients = c->next;
    if (c->next)
        c->next->prev = c->prev;
    if (s->stopping) {
        free(c->watch);
        free(c);
        return;
    }
    for (int i = 0; i < c->nwatch; i++) {
        live *g = live_find(s, c->watch[i]);
        if (g)
            live_unwatch(g, c);
    }
    int lobby = 0;
    for (seek *k = s->seeks; k; k = k->next)
        for (int i = 0; i < k->nseats; i++)
            if (k->sitter[i] == c && k->owner != c) {
                k->seated[i] = 0;
                k->sitter[i] = NULL;
                lobby = 1;
            }
    for (seek **p = &s->seeks; *p;) {
        if ((*p)->owner == c) {
            seek *k = *p;
            lobby |= !k->token[0];
            *p = k->next;
            free(k);
        } else {
            p = &(*p)->next;
        }
    }
    if (!client_of_player(s, c->me.id))
        live_player_left(s, c->me.id);
    free(c->watch);
    free(c);
    if (lobby)
        lobby_changed(s);
}

/* 1 if the client may send another message now (token bucket). */
static int rate_ok(client *c)
{
    int64_t now = net_mono_ms();
    c->tokens += (double)(now - c->refill_ms) * SRV_MSG_RATE / 1000.0;
    if (c->tokens > SRV_MSG_BURST)
        c->tokens = SRV_MSG_BURST;
    c->refill_ms = now;
    if (c->tokens < 1.0)
        return 0;
    c->tokens -= 1.0;
    return 1;
}

static void on_ws_message(void *app, net_conn *conn, const char *text, size_t len)
{
    srv *s = app;
    client *c = net_conn_data(conn);
    if (!c)
        return;
    if (!rate_ok(c)) {
        client_error(c, NULL, "too many messages; slow down");
        return;
    }
    json_error_t jerr;
    json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!msg || !json_is_object(msg)) {
        client_error(c, NULL, "malformed JSON: %s", msg ? "not an object" : jerr.text);
        json_decref(msg);
        return;
    }
    json_t *ref = json_object_get(msg, "ref");
    const char *type = json_string_value(json_object_get(msg, "type"));
    if (!type)
        client_error(c, ref, "missing type");
    else if (strcmp(type, "ping") == 0) {
        json_t *m = json_pack("{s:s}", "type", "pong");
        if (ref)
            json_object_set(m, "ref", ref);
        client_send(c, m);
        json_decref(m);
    } else if (strcmp(type, "seek") == 0)
        on_seek(s, c, msg, ref, 0);
    else if (strcmp(type, "challenge") == 0)
        on_seek(s, c, msg, ref, 1);
    else if (strcmp(type, "cancel") == 0)
        on_cancel(s, c, msg, ref);
    else if (strcmp(type, "accept") == 0)
        on_accept(s, c, msg, ref, 0);
    else if (strcmp(type, "accept_challenge") == 0)
        on_accept(s, c, msg, ref, 1);
    else if (strcmp(type, "play_bot") == 0)
        on_play_bot(s, c, msg, ref);
    else if (strcmp(type, "local") == 0)
        on_local(s, c, msg, ref);
    else if (strcmp(type, "watch") == 0)
        on_watch(s, c, msg, ref, 1);
    else if (strcmp(type, "unwatch") == 0)
        on_watch(s, c, msg, ref, 0);
    else if (strcmp(type, "lobby") == 0) {
        c->lobby = 1;
        json_t *m = lobby_json(s);
        client_send(c, m);
        json_decref(m);
    } else if (strcmp(type, "unlobby") == 0)
        c->lobby = 0;
    else if (strcmp(type, "move") == 0)
        live_on_move(s, c, msg);
    else if (strcmp(type, "resign") == 0)
        live_on_resign(s, c, msg);
    else if (strcmp(type, "draw") == 0)
        live_on_draw(s, c, msg);
    else if (strcmp(type, "rematch") == 0)
        live_on_rematch(s, c, msg);
    else if (strcmp(type, "setup") == 0)
        live_on_setup(s, c, msg);
    else if (strcmp(type, "table") == 0)
        on_table(s, c, msg, ref);
    else if (strcmp(type, "sit") == 0)
        on_sit(s, c, msg, ref);
    else
        client_error(c, ref, "unknown message type '%.40s'", type);
    json_decref(msg);
}

static void on_http(void *app, net_http *h, const net_request *req)
{
    api_http(app, h, req);
}

static void on_wake(void *app)
{
    srv *s = app;
    workers_drain(s->pool, s);
}

static void on_sweep(void *arg)
{
    srv *s = arg;
    live_sweep(s);
    net_timer_set(s->sweep, 30000);
}

/* --- start-up -------------------------------------------------------------------- */

static const struct {
    const char *name, *spec;
} bot_accounts[] = {
    {"bot-level1", "level=1"}, {"bot-level2", "level=2"}, {"bot-level3", "level=3"},
    {"bot-level4", "level=4"}, {"bot-level5", "level=5"}, {"bot-level6", "level=6"},
    {"bot-greedy", "greedy"},  {"bot-random", "random"},  {"bot-mcts", "mcts"},
    {"bot-attacker", "attacker"},
    /* Keeps & Moats: three styles at two strengths, and the capture bot */
    {"bot-aggressive2", "aggressive=2"}, {"bot-aggressive5", "aggressive=5"},
    {"bot-balanced2", "balanced=2"},     {"bot-balanced5", "balanced=5"},
    {"bot-defensive2", "defensive=2"},   {"bot-defensive5", "defensive=5"},
    {"bot-capture", "capture"},
};

static int bots_ready(srv *s)
{
    for (size_t i = 0; i < sizeof bot_accounts / sizeof bot_accounts[0]; i++) {
        store_player p;
        store_err e;
        int r = store_player_by_name(s->st, bot_accounts[i].name, &p, NULL, &e);
        if (r == STORE_NOT_FOUND) {
            int64_t id;
            if (store_player_add(s->st, bot_accounts[i].name, "", 1, 0, bot_accounts[i].spec,
                                 net_wall_ms(), &id, &e) != 0) {
                fprintf(stderr, "citadel serve: %s\n", e.msg);
                return -1;
            }
            r = store_player_by_id(s->st, id, &p, &e);
        }
        if (r != 0) {
            fprintf(stderr, "citadel serve: %s\n", e.msg);
            return -1;
        }
        ident *b = &s->bots[s->nbots++];
        memset(b, 0, sizeof *b);
        b->id = p.id;
        b->bot = 1;
        snprintf(b->name, sizeof b->name, "%s", p.name);
        snprintf(b->spec, sizeof b->spec, "%s", p.bot_spec);
    }
    return 0;
}

json_t *bots_json(srv *s)
{
    json_t *a = json_array();
    for (int i = 0; i < s->nbots; i++) {
        const char *spec = s->bots[i].spec, *eq = strchr(spec, '=');
        int level = eq ? atoi(eq + 1) : 0;
        char style[32] = "";
        if (eq && (size_t)(eq - spec) < sizeof style && strncmp(spec, "level=", 6) != 0)
            snprintf(style, sizeof style, "%.*s", (int)(eq - spec), spec);
        json_t *plays = json_array();
        for (const game_variant *const *v = game_variants(); *v; v++)
            if (bot_spec_can_play(spec, *v))
                json_array_append_new(plays, json_string((*v)->name));
        json_array_append_new(a, json_pack("{s:s, s:s, s:i, s:s, s:o}", "name", s->bots[i].name,
                                           "spec", spec, "level", level, "style", style,
                                           "variants", plays));
    }
    return a;
}

static void on_signal(int sig)
{
    (void)sig;
    if (running)
        net_stop(running);
}

static const char serve_usage[] =
    "usage: citadel serve [--listen ADDR:PORT] [--db FILE] [--web DIR] [--workers N]\n"
    "                     [--ipv6] [--sync-full] [--abandon-ms MS]\n"
    "  --listen   address and port (default 127.0.0.1:8080; port 0 picks one)\n"
    "  --db       the SQLite file (default citadel.db in the working folder)\n"
    "  --web      the built web page (default web/dist)\n"
    "  --workers  threads for bots and password hashing (default: the cores)\n"
    "  --ipv6     also listen on IPv6 (off unless asked)\n"
    "  --abandon-ms  how long a player may be gone on its turn (default 60000)\n"
    "  --sync-full  make every stored move survive a power cut, not only a crash\n";

int serve_main(int argc, char **argv)
{
    const char *listen = "127.0.0.1:8080", *db = "citadel.db", *web = "web/dist";
    int ipv6 = 0, sync_full = 0;
    long abandon_ms = SRV_ABANDON_MS;
    long nworkers = sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--listen") == 0 && val)
            listen = argv[++i];
        else if (strcmp(a, "--db") == 0 && val)
            db = argv[++i];
        else if (strcmp(a, "--web") == 0 && val)
            web = argv[++i];
        else if (strcmp(a, "--workers") == 0 && val) {
            nworkers = strtol(argv[++i], NULL, 10);
            if (nworkers < 1 || nworkers > 64) {
                fprintf(stderr, "citadel serve: --workers must be 1-64\n");
                return 2;
            }
        } else if (strcmp(a, "--abandon-ms") == 0 && val) {
            abandon_ms = strtol(argv[++i], NULL, 10);
            if (abandon_ms < 1000 || abandon_ms > 3600000) {
                fprintf(stderr, "citadel serve: --abandon-ms must be 1000-3600000\n");
                return 2;
            }
        } else if (strcmp(a, "--ipv6") == 0)
            ipv6 = 1;
        else if (strcmp(a, "--sync-full") == 0)
            sync_full = 1;
        else {
            fprintf(stderr, "citadel serve: bad option '%s'\n%s", a, serve_usage);
            return 2;
        }
    }
    if (nworkers < 1)
        nworkers = 2;
    char addr[128];
    const char *colon = strrchr(listen, ':');
    char *end;
    long port = colon ? strtol(colon + 1, &end, 10) : -1;
    if (!colon || colon == listen || (size_t)(colon - listen) >= sizeof addr || *end ||
        port < 0 || port > 65535) {
        fprintf(stderr, "citadel serve: --listen wants ADDR:PORT, e.g. 127.0.0.1:8080\n");
        return 2;
    }
    memcpy(addr, listen, (size_t)(colon - listen));
    addr[colon - listen] = 0;
    if (addr[0] == '[' && addr[strlen(addr) - 1] == ']') {
        memmove(addr, addr + 1, strlen(addr));
        addr[strlen(addr) - 1] = 0;
        ipv6 = 1;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "citadel serve: libsodium failed to start\n");
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);

    srv *s = calloc(1, sizeof *s);
    if (!s)
        return 1;
    uint64_t seed;
    randombytes_buf(&seed, sizeof seed);
    rng_seed(&s->rng, seed);
    s->abandon_ms = abandon_ms;
    store_err e;
    s->st = store_open(db, sync_full, &e);
    if (!s->st) {
        fprintf(stderr, "citadel serve: %s\n", e.msg);
        free(s);
        return 1;
    }
    int rc = 1;
    if (bots_ready(s) != 0)
        goto out;
    snprintf(s->webroot, sizeof s->webroot, "%s", web);
    net_config cfg = {.addr = addr, .port = (int)port, .ipv6 = ipv6, .webroot = web};
    net_callbacks cb = {
        .http = on_http, .ws_open = on_ws_open, .ws_message = on_ws_message,
        .ws_close = on_ws_close, .wake = on_wake,
    };
    char err[200];
    s->net = net_new(&cfg, &cb, s, err, sizeof err);
    if (!s->net) {
        fprintf(stderr, "citadel serve: %s\n", err);
        goto out;
    }
    s->pool = workers_new((int)nworkers, s->net);
    if (!s->pool) {
        fprintf(stderr, "citadel serve: cannot start worker threads\n");
        goto out;
    }
    int resumed = live_resume_all(s);
    if (resumed < 0)
        goto out;
    s->sweep = net_timer_new(s->net, on_sweep, s);
    net_timer_set(s->sweep, 30000);
    running = s->net;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    printf("citadel serve: listening on http://%s:%d (database %s, %d games resumed)\n",
           addr, net_port(s->net), db, resumed);
    fflush(stdout);
    net_run(s->net);
    rc = 0;
out:
    running = NULL;
    if (s->pool)
        workers_free(s->pool);
    /* Timers first: they live in the loop that net_free ends. Closing
     * connections then finds s->stopping and only frees them. */
    s->stopping = 1;
    for (int i = 0; i < SRV_GAME_BUCKETS; i++)
        for (live *g = s->games[i]; g; g = g->next) {
            net_timer_free(g->timer);
            g->timer = NULL;
        }
    net_timer_free(s->sweep);
    net_free(s->net);
    live_free_all(s);
    botpool_free(s->botpool);
    while (s->seeks) {
        seek *k = s->seeks;
        s->seeks = k->next;
        free(k);
    }
    store_close(s->st);
    free(s);
    return rc;
}
