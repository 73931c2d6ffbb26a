/* lobby.c -- seeks, challenges, tables, and games against bots or on one
 * device: every request that makes a game (docs/api.md).
 *
 * A seek names the client that opened it by id and keeps a copy of its
 * player, so a seek outlives nothing: lobby_client_gone removes a client's
 * seeks and frees its seats when it goes. A seek is taken out of the list
 * only once its game is stored and started; a game that could not start
 * leaves the seek where it was.
 *
 * Quotas (config.c): every request that makes a game or a seek takes a
 * token of its address's new-games bucket; a player holds at most
 * seeks-at-once seeks, challenges and tables; live_start counts the games
 * each player already plays.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/bots.h"
#include "cluster.h"
#include "server.h"

/* --- the lobby as JSON ------------------------------------------------------------ */

static json_t *seek_json(const seek *k)
{
    json_t *j = json_pack("{s:I, s:s, s:s, s:I, s:I, s:i, s:b, s:o}", "id", (json_int_t)k->id,
                          "variant", k->set.v->name, "title", k->set.v->title, "base_ms",
                          (json_int_t)k->set.base_ms, "inc_ms", (json_int_t)k->set.inc_ms,
                          "move_limit", k->set.move_limit, "rated", k->set.rated, "player",
                          ident_json(&k->by));
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

json_t *lobby_now(srv *s)
{
    json_t *seeks = json_array();
    int n = 0;
    for (seek *k = s->seeks; k && n < SRV_LOBBY_SEEKS; k = k->next)
        if (!k->token[0]) {
            json_array_append_new(seeks, seek_json(k));
            n++;
        }
    json_t *games = live_list(s, 100);
    if (s->cl)
        cluster_lobby_add(s, seeks, games);
    return json_pack("{s:s, s:o, s:o}", "type", "lobby", "seeks", seeks, "games", games);
}

json_t *lobby_mine(srv *s, json_t **tokens)
{
    json_t *seeks = json_array();
    *tokens = json_array();
    int n = 0;
    for (seek *k = s->seeks; k; k = k->next)
        if (k->token[0])
            json_array_append_new(*tokens, json_string(k->token));
        else if (n++ < SRV_LOBBY_SEEKS)
            json_array_append_new(seeks, seek_json(k));
    return seeks;
}

/* Every subscriber gets the lobby: one text for all. (A burst of changes,
 * thousands of games ending at once, once cost each subscriber a message
 * of every seek per change, and the server hundreds of MB of queues.) */
static void lobby_send(srv *s)
{
    char *text = NULL;
    size_t len = 0;
    for (client *c = s->clients; c; c = c->next)
        if (c->lobby && c->conn) {
            if (!text) {
                json_t *m = lobby_now(s);
                text = json_dumps(m, JSON_COMPACT);
                json_decref(m);
                if (!text)
                    return;
                len = strlen(text);
            }
            net_ws_send(c->conn, text, len);
        }
    free(text);
}

void lobby_changed(srv *s)
{
    s->lobby_mine = 1;
    lobby_refresh(s);
}

void lobby_refresh(srv *s)
{
    if (!s->lobby_timer) {
        lobby_send(s);   /* not started (no loop): at once */
        return;
    }
    if (!s->lobby_pending) {
        s->lobby_pending = 1;
        net_timer_set(s->lobby_timer, SRV_LOBBY_MS);
    }
}

void lobby_flush(void *arg)
{
    srv *s = arg;
    s->lobby_pending = 0;
    if (s->lobby_mine && s->cl)
        cluster_lobby_changed(s);
    s->lobby_mine = 0;
    lobby_send(s);
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

const ident *bot_by_name(srv *s, const char *name)
{
    for (int i = 0; i < s->nbots; i++)
        if (strcmp(s->bots[i].name, name) == 0)
            return &s->bots[i];
    return NULL;
}

/* --- seeks -------------------------------------------------------------------------- */

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

void seeks_free_all(srv *s)
{
    while (s->seeks) {
        seek *k = s->seeks;
        s->seeks = k->next;
        free(k);
    }
}

void lobby_client_gone(srv *s, client *c)
{
    int lobby = 0;
    for (seek *k = s->seeks; k; k = k->next)
        for (int i = 0; i < k->nseats; i++)
            if (k->sitter[i] == c->id && k->owner != c->id) {
                k->seated[i] = 0;
                k->sitter[i] = 0;
                lobby = 1;
            }
    for (seek **p = &s->seeks; *p;) {
        if ((*p)->owner == c->id) {
            seek *k = *p;
            lobby |= !k->token[0];
            *p = k->next;
            free(k);
        } else {
            p = &(*p)->next;
        }
    }
    if (lobby)
        lobby_changed(s);
}

int lobby_may_create(srv *s, client *c, json_t *ref)
{
    char key[96];
    snprintf(key, sizeof key, "new:%s", c->addr);
    if (quota_take(s->quota, key, s->cfg.limits[LIM_NEW_GAMES], 3600 * 1000LL,
                   net_mono_ms()))
        return 1;
    client_error(c, ref, "too many new games from your address; at most %d an hour",
                 s->cfg.limits[LIM_NEW_GAMES]);
    return 0;
}

/* A game lobby_may_create allowed did not start after all: its token back. */
static void created_nothing(srv *s, client *c)
{
    char key[96];
    snprintf(key, sizeof key, "new:%s", c->addr);
    quota_refund(s->quota, key, s->cfg.limits[LIM_NEW_GAMES], 3600 * 1000LL, net_mono_ms());
}

/* 1 if the client's player may open another seek, challenge or table. */
static int may_seek(srv *s, client *c, json_t *ref)
{
    int max = s->cfg.limits[LIM_SEEKS], mine = 0;
    for (seek *k = s->seeks; k; k = k->next)
        mine += k->by.id == c->me.id;
    if (max > 0 && mine >= max) {
        client_error(c, ref, "at most %d open seeks, challenges and tables", max);
        return 0;
    }
    return lobby_may_create(s, c, ref);
}

/* Reads the settings of seek, challenge, play_bot, local and table. */
int settings_parse(srv *s, json_t *msg, game_settings *set, char *err, size_t errlen)
{
    (void)s;
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
    if (!may_seek(s, c, ref))
        return;
    seek *k = calloc(1, sizeof *k);
    if (!k) {
        client_error(c, ref, "out of memory");
        return;
    }
    k->id = ++s->next_seek;
    k->owner = c->id;
    k->by = c->me;
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
 * side. The seek goes only once the game has started. */
static void take_seek(srv *s, client *c, seek *k, json_t *ref)
{
    if (k->by.id == c->me.id) {
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
    players[owner_side] = k->by;
    players[owner_side ^ 1] = c->me;
    char err[160];
    live *g = live_start(s, &k->set, players, err, sizeof err);
    if (!g) {
        client_error(c, ref, "%s", err);
        return;
    }
    client *owner = client_find(s, k->owner);
    seek_remove(s, k);
    if (owner)
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
        if (k && (k->token[0] || k->nseats))
            k = NULL;  /* challenges are taken by token only, tables by `sit` */
    }
    if (!k) {
        client_error(c, ref, "no such seek (taken or withdrawn)");
        return;
    }
    take_seek(s, c, k, ref);
}

static void on_cancel(srv *s, client *c, json_t *msg, json_t *ref)
{
    json_t *id = json_object_get(msg, "seek");
    seek *k = json_is_integer(id) ? seek_find(s, json_integer_value(id), NULL) : NULL;
    if (!k || k->owner != c->id) {
        client_error(c, ref, "no such seek of yours");
        return;
    }
    int lobby = !k->token[0];
    seek_remove(s, k);
    if (lobby)
        lobby_changed(s);
}

/* --- tables: games of more than two sides ------------------------------------------ */

/* Starts the game of a table whose every seat is taken (k may be a seek
 * not in the list yet); 0, or -1 after telling `by` why not. */
static int table_start(srv *s, const seek *k, client *by, json_t *ref)
{
    ident players[GAME_MAX_SIDES];
    for (int i = 0; i < k->nseats; i++)
        players[i] = k->who[i];
    char err[160];
    live *g = live_start(s, &k->set, players, err, sizeof err);
    if (!g) {
        client_error(by, ref, "%s", err);
        return -1;
    }
    uint64_t watchers[GAME_MAX_SIDES + 1];
    int nw = 0;
    for (int i = 0; i < k->nseats; i++)
        if (k->sitter[i])
            watchers[nw++] = k->sitter[i];
    watchers[nw++] = k->owner;
    for (int i = 0; i < nw; i++) {
        client *w = client_find(s, watchers[i]);
        if (w)
            live_watch(s, g, w);
    }
    return 0;
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
    seek k0;
    memset(&k0, 0, sizeof k0);
    k0.owner = c->id;
    k0.by = c->me;
    k0.set = set;
    k0.nseats = n;
    int mine = 0, open = 0;
    for (int i = 0; i < n; i++) {
        const char *what = json_string_value(json_array_get(seats, (size_t)i));
        const ident *robot = what ? bot_by_name(s, what) : NULL;
        if (what && strcmp(what, "me") == 0) {
            k0.seated[i] = 1;
            k0.who[i] = c->me;
            k0.sitter[i] = c->id;
            mine++;
        } else if (what && strcmp(what, "open") == 0) {
            open++;
        } else if (robot && bot_spec_can_play(robot->spec, set.v)) {
            k0.seated[i] = 1;
            k0.who[i] = *robot;
        } else {
            client_error(c, ref, "seat %d: want \"me\", \"open\" or a bot that plays %s", i,
                         set.v->title);
            return;
        }
    }
    if (!mine) {
        client_error(c, ref, "take at least one seat yourself");
        return;
    }
    if (!may_seek(s, c, ref))
        return;
    seek *k = open ? malloc(sizeof *k) : &k0;
    if (!k) {
        client_error(c, ref, "out of memory");
        return;
    }
    *k = k0;
    k->id = ++s->next_seek;
    if (!open) {
        /* every seat taken at once: the game starts, or nothing is left */
        if (table_start(s, k, c, ref) == 0)
            lobby_changed(s);
        else
            created_nothing(s, c);
        return;
    }
    k->next = s->seeks;
    s->seeks = k;
    json_t *m = json_pack("{s:s, s:I}", "type", "table_created", "table", (json_int_t)k->id);
    if (ref)
        json_object_set(m, "ref", ref);
    client_send(c, m);
    json_decref(m);
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
    k->sitter[i] = c->id;
    int open = 0;
    for (int j = 0; j < k->nseats; j++)
        open += !k->seated[j];
    if (!open) {
        if (table_start(s, k, c, ref) == 0) {
            seek_remove(s, k);
        } else {
            k->seated[i] = 0;  /* the game could not start: the seat is open again */
            k->sitter[i] = 0;
        }
    }
    lobby_changed(s);
}

/* --- games against a bot, and on one device ----------------------------------------- */

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
    if ((sd && !json_is_integer(sd)) || side < -1 || side > 1) {
        client_error(c, ref, "side must be 0, 1 or -1");
        return;
    }
    if (!lobby_may_create(s, c, ref))
        return;
    if (side < 0)
        side = (json_int_t)rng_below(&s->rng, 2);
    ident players[GAME_MAX_SIDES];
    memset(players, 0, sizeof players);
    players[side] = c->me;
    players[side ^ 1] = *robot;
    live *g = live_start(s, &set, players, err, sizeof err);
    if (!g) {
        created_nothing(s, c);
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
    if (!lobby_may_create(s, c, ref))
        return;
    ident players[GAME_MAX_SIDES];
    for (int i = 0; i < GAME_MAX_SIDES; i++)
        players[i] = c->me;
    live *g = live_start(s, &set, players, err, sizeof err);
    if (!g) {
        created_nothing(s, c);
        client_error(c, ref, "%s", err);
        return;
    }
    live_watch(s, g, c);
}

int lobby_message(srv *s, client *c, const char *type, json_t *msg, json_t *ref)
{
    if (strcmp(type, "seek") == 0)
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
    else if (strcmp(type, "table") == 0)
        on_table(s, c, msg, ref);
    else if (strcmp(type, "sit") == 0)
        on_sit(s, c, msg, ref);
    else if (strcmp(type, "lobby") == 0) {
        c->lobby = 1;
        json_t *m = lobby_now(s);
        client_send(c, m);
        json_decref(m);
    } else if (strcmp(type, "unlobby") == 0)
        c->lobby = 0;
    else
        return 0;
    return 1;
}
