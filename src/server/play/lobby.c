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

#include "../../ai/bots.h"
#include "live.h"
#include "lobby.h"
#include "messages.h"
#include "../core/srv.h"
json_t *lobby_bots_json(srv *s)
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

const ident *lobby_bot_by_name(srv *s, const char *name)
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

void lobby_free_all(srv *s)
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

/* The settings of a client's request, or -1 after telling it why not. */
static int guest_rated(client *c, const cmsg *m)
{
    if (m->set.rated && c->me.guest) {
        client_error(c, m->ref, "sign in to play rated games");
        return 1;
    }
    return 0;
}

static void on_seek(srv *s, client *c, const cmsg *m)
{
    json_t *ref = m->ref;
    int challenge = m->kind == MSG_CHALLENGE;
    game_settings set = m->set;
    if (guest_rated(c, m))
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
        ident_random_token(k->token, 16);
    k->next = s->seeks;
    s->seeks = k;
    json_t *out = challenge ? challenge_created_message(k->token, k->id, ref)
                            : seek_created_message(k->id, ref);
    client_send(c, out);
    json_decref(out);
    if (!challenge)
        lobby_changed(s);
}

/* Starts the game of a seek taken by c; the seek's owner plays the side
 * it asked for (color), or a random one. The seek goes only once the game has started. */
static void take_seek(srv *s, client *c, seek *k, json_t *ref)
{
    char err[160];
    if (!lobby_take(s, c, k, err, sizeof err))
        client_error(c, ref, "%s", err);
}

live *lobby_take(srv *s, client *c, seek *k, char *err, size_t errlen)
{
    if (k->by.id == c->me.id) {
        snprintf(err, errlen, "that is your own seek");
        return NULL;
    }
    if (k->to.id && k->to.id != c->me.id) {
        snprintf(err, errlen, "that challenge is for %s", k->to.name);
        return NULL;
    }
    if (k->set.rated && c->me.guest) {
        snprintf(err, errlen, "sign in to play rated games");
        return NULL;
    }
    ident players[GAME_MAX_SIDES];
    memset(players, 0, sizeof players);
    int owner_side = k->color ? k->color - 1 : (int)rng_below(&s->rng, 2);
    players[owner_side] = k->by;
    players[owner_side ^ 1] = c->me;
    live *g = live_start(s, &k->set, players, err, errlen);
    if (!g)
        return NULL;
    client *owner = client_find(s, k->owner);
    seek_remove(s, k);
    if (owner)
        live_watch(s, g, owner);
    live_watch(s, g, c);
    lobby_changed(s);
    return g;
}

static void on_accept(srv *s, client *c, const cmsg *m)
{
    json_t *ref = m->ref;
    seek *k;
    if (m->kind == MSG_ACCEPT_CHALLENGE) {
        k = seek_find(s, 0, m->text);
    } else {
        k = seek_find(s, m->seek, NULL);
        if (k && (k->token[0] || k->nseats))
            k = NULL;  /* challenges are taken by token only, tables by `sit` */
    }
    if (!k) {
        client_error(c, ref, "no such seek (taken or withdrawn)");
        return;
    }
    take_seek(s, c, k, ref);
}

static void on_cancel(srv *s, client *c, const cmsg *m)
{
    seek *k = seek_find(s, m->seek, NULL);
    if (!k || k->owner != c->id) {
        client_error(c, m->ref, "no such seek of yours");
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
static void on_table(srv *s, client *c, const cmsg *m)
{
    json_t *ref = m->ref;
    game_settings set = m->set;
    if (guest_rated(c, m))
        return;
    int n = set.v->nsides;
    if (m->nseats != n) {
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
        const char *what = m->seats[i];
        const ident *robot = lobby_bot_by_name(s, what);
        if (strcmp(what, "me") == 0) {
            k0.seated[i] = 1;
            k0.who[i] = c->me;
            k0.sitter[i] = c->id;
            mine++;
        } else if (strcmp(what, "open") == 0) {
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
    json_t *out = table_created_message(k->id, ref);
    client_send(c, out);
    json_decref(out);
    lobby_changed(s);
}

/* sit {table, seat} */
static void on_sit(srv *s, client *c, const cmsg *m)
{
    json_t *ref = m->ref;
    seek *k = seek_find(s, m->table, NULL);
    if (!k || !k->nseats) {
        client_error(c, ref, "no such table");
        return;
    }
    int i = m->side;
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

static void on_play_bot(srv *s, client *c, const cmsg *m)
{
    json_t *ref = m->ref;
    char err[160];
    if (guest_rated(c, m))
        return;
    const ident *robot = lobby_bot_by_name(s, m->text);
    if (!robot) {
        client_error(c, ref, "unknown bot (see /api/bots)");
        return;
    }
    if (m->set.v->nsides != 2) {
        client_error(c, ref, "%s is played at a table (see `table`)", m->set.v->title);
        return;
    }
    if (!lobby_play_bot(s, c, &m->set, robot, m->side, err, sizeof err))
        client_error(c, ref, "%s", err);
}

live *lobby_play_bot(srv *s, client *c, const game_settings *set, const ident *robot, int side,
                     char *err, size_t errlen)
{
    int n = set->v->nsides;
    if (!bot_spec_can_play(robot->spec, set->v)) {
        snprintf(err, errlen, "%s does not play %s", robot->name, set->v->title);
        return NULL;
    }
    if (set->rated && c->me.guest) {
        snprintf(err, errlen, "sign in to play rated games");
        return NULL;
    }
    if (!lobby_may_create(s, c, NULL)) {
        snprintf(err, errlen, "too many new games from your address; at most %d an hour",
                 s->cfg.limits[LIM_NEW_GAMES]);
        return NULL;
    }
    if (side < 0 || side >= n)
        side = (int)rng_below(&s->rng, (uint32_t)n);
    ident players[GAME_MAX_SIDES];
    memset(players, 0, sizeof players);
    for (int i = 0; i < n; i++)
        players[i] = i == side ? c->me : *robot;
    live *g = live_start(s, set, players, err, errlen);
    if (!g) {
        created_nothing(s, c);
        return NULL;
    }
    live_watch(s, g, c);
    lobby_changed(s);
    return g;
}

/* A seek or challenge of the Bot API's, opened for c. */
static seek *api_seek(srv *s, client *c, const game_settings *set, const ident *to, char *err,
                      size_t errlen)
{
    if (set->v->nsides != 2) {
        snprintf(err, errlen, "%s is played at a table: challenge a built-in bot to fill it",
                 set->v->title);
        return NULL;
    }
    if (set->rated && c->me.guest) {
        snprintf(err, errlen, "sign in to play rated games");
        return NULL;
    }
    int max = s->cfg.limits[LIM_SEEKS], mine = 0;
    for (seek *k = s->seeks; k; k = k->next)
        mine += k->by.id == c->me.id;
    if (max > 0 && mine >= max) {
        snprintf(err, errlen, "at most %d open seeks, challenges and tables", max);
        return NULL;
    }
    if (!lobby_may_create(s, c, NULL)) {
        snprintf(err, errlen, "too many new games from your address; at most %d an hour",
                 s->cfg.limits[LIM_NEW_GAMES]);
        return NULL;
    }
    seek *k = calloc(1, sizeof *k);
    if (!k) {
        created_nothing(s, c);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    k->id = ++s->next_seek;
    k->owner = c->id;
    k->by = c->me;
    k->set = *set;
    if (to) {
        k->to = *to;
        ident_random_token(k->token, 16);
    }
    k->next = s->seeks;
    s->seeks = k;
    if (!to)
        lobby_changed(s);
    return k;
}

seek *lobby_challenge(srv *s, client *c, const game_settings *set, const ident *to, char *err,
                      size_t errlen)
{
    if (to->id == c->me.id) {
        snprintf(err, errlen, "you cannot challenge yourself");
        return NULL;
    }
    return api_seek(s, c, set, to, err, errlen);
}

seek *lobby_seek(srv *s, client *c, const game_settings *set, char *err, size_t errlen)
{
    return api_seek(s, c, set, NULL, err, errlen);
}

seek *lobby_challenge_find(srv *s, const char *token)
{
    return token[0] ? seek_find(s, 0, token) : NULL;
}

int lobby_withdraw(srv *s, client *c, int64_t id)
{
    seek *k = seek_find(s, id, NULL);
    if (!k || k->by.id != c->me.id || k->nseats || k->token[0])
        return -1;  /* tables are left by their seats, challenges by their token */
    lobby_drop(s, k);
    return 0;
}

void lobby_drop(srv *s, seek *k)
{
    int lobby = !k->token[0];
    seek_remove(s, k);
    if (lobby)
        lobby_changed(s);
}

static void on_local(srv *s, client *c, const cmsg *m)
{
    json_t *ref = m->ref;
    game_settings set = m->set;  /* never rated: one device (the message has no `rated`) */
    char err[160];
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

int lobby_request(srv *s, client *c, const cmsg *m)
{
    switch (m->kind) {
    case MSG_SEEK:
    case MSG_CHALLENGE:
        on_seek(s, c, m);
        break;
    case MSG_CANCEL:
        on_cancel(s, c, m);
        break;
    case MSG_ACCEPT:
    case MSG_ACCEPT_CHALLENGE:
        on_accept(s, c, m);
        break;
    case MSG_PLAY_BOT:
        on_play_bot(s, c, m);
        break;
    case MSG_LOCAL:
        on_local(s, c, m);
        break;
    case MSG_TABLE:
        on_table(s, c, m);
        break;
    case MSG_SIT:
        on_sit(s, c, m);
        break;
    case MSG_LOBBY: {
        c->lobby = 1;
        json_t *out = lobby_now(s);
        client_send(c, out);
        json_decref(out);
        break;
    }
    case MSG_UNLOBBY:
        c->lobby = 0;
        break;
    default:
        return 0;
    }
    return 1;
}
