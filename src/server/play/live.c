/* live.c -- live games begun, loaded and resumed from the store, swept
 * from memory once over, and told when their players leave and come
 * back. How a game then goes on -- moves, clocks, bots, ends -- is
 * turn.c; what players ask of it, live_requests.c; what it looks like to
 * clients, live_json.c; the table of games, games.c.
 *
 * The invariant: a game is in the server's table (live_insert) only once
 * it is stored, and a game loaded from the store is its stored moves
 * replayed, so that the table never holds a game the store does not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/srv.h"
#include "live_inside.h"
#include "messages.h"


/* --- retries ------------------------------------------------------------------------ */

/* --- bots ---------------------------------------------------------------------------- */

/* --- clocks and ends ----------------------------------------------------------------- */


/* --- moves ---------------------------------------------------------------------------- */

/* --- starting and resuming -------------------------------------------------------------- */

/* 1 if every person among players may start one more game now (quotas:
 * games at once, games against bots); else 0 with why in err. */
static int players_may_start(srv *s, const game_variant *v, const ident *players, char *err,
                             size_t errlen)
{
    int bots = 0;
    for (int i = 0; i < v->nsides; i++)
        bots += players[i].bot;
    int max = s->cfg.limits[LIM_GAMES], max_bot = s->cfg.limits[LIM_BOT_GAMES];
    for (int i = 0; i < v->nsides; i++) {
        if (players[i].bot)
            continue;
        int seen = 0;
        for (int k = 0; k < i; k++)
            seen |= players[k].id == players[i].id;
        if (seen)
            continue;
        int with_bots, n = live_count_of_player(s, players[i].id, &with_bots);
        if (max > 0 && n >= max) {
            snprintf(err, errlen, "%s already plays %d games; finish one first", players[i].name,
                     n);
            return 0;
        }
        if (bots && max_bot > 0 && with_bots >= max_bot) {
            snprintf(err, errlen, "%s already plays %d games against bots; finish one first",
                     players[i].name, with_bots);
            return 0;
        }
    }
    int all = s->cfg.limits[LIM_BOT_GAMES_ALL];
    if (bots && all > 0 && live_count_with_bots(s) >= all) {
        snprintf(err, errlen, "the bots are all busy; try again in a few minutes");
        return 0;
    }
    return 1;
}

live *live_start(srv *s, const game_settings *set, const ident *players, char *err,
                 size_t errlen)
{
    const game_variant *v = set->v;
    int rated = set->rated;
    if (rated) {
        for (int i = 0; i < v->nsides; i++)
            for (int k = 0; k < i; k++)
                if (players[i].id == players[k].id)
                    rated = 0;
        for (int i = 0; i < v->nsides; i++)
            if (players[i].guest)
                rated = 0;
        if (!rated) {
            snprintf(err, errlen, "rated games are between different signed-in players");
            return NULL;
        }
    }
    if (!players_may_start(s, v, players, err, errlen))
        return NULL;
    live *g = live_new(s, v);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    v->ops->start(v, g->pos, rng_next(&s->rng));
    for (int i = 0; i < set->nopts; i++) {
        game_error ge;
        if (v->ops->set_option(g->pos, set->opts[i].name, set->opts[i].value, &ge) != 0) {
            snprintf(err, errlen, "%s", ge.msg);
            live_free(g);
            return NULL;
        }
    }
    if (live_set_limit(v, g->pos, set->move_limit) != 0) {
        snprintf(err, errlen, "bad move limit");
        live_free(g);
        return NULL;
    }
    memcpy(g->start, g->pos, v->ops->pos_size);
    g->set = *set;
    store_game *sg = &g->g;
    snprintf(sg->variant, sizeof sg->variant, "%s", v->name);
    if (v->ops->setup)
        g->setting_up = 1;  /* the start is known when every setup is in */
    else
        v->ops->format(g->pos, sg->start, sizeof sg->start);
    sg->base_ms = set->base_ms;
    sg->inc_ms = set->inc_ms;
    sg->move_limit = set->move_limit;
    sg->rated = rated;
    sg->nsides = v->nsides;
    for (int i = 0; i < v->nsides; i++) {
        sg->players[i] = players[i].id;
        g->players[i] = players[i];
    }
    gclock_init(&g->clk, set->base_ms, set->inc_ms, SRV_LAG_MS, net_mono_ms());
    sg->created = sg->started = net_wall_ms();
    if (g->setting_up)
        sg->started = 0;
    store_err e;
    if (store_game_add(s->st, sg, &e) != 0) {
        snprintf(err, errlen, "the game could not be stored; try again");
        fprintf(stderr, "citadel serve: %s\n", e.msg);
        live_free(g);
        return NULL;
    }
    g->id = sg->id;
    gclock_turn(&g->clk, net_mono_ms());
    live_insert(s, g);
    for (int i = 0; i < v->nsides; i++)
        if (!players[i].bot && !client_of_player(s, players[i].id))
            g->gone[i] = g->clk.began;
    if (g->setting_up)
        setup_bots(s, g);
    live_arm(g);
    live_kick_bot(s, g);
    return g;
}

/* Rebuilds a stored game in memory (moves replayed); NULL with err. */
live *live_load(srv *s, int64_t id, char *err, size_t errlen)
{
    store_game sg;
    store_err e;
    if (store_game_get(s->st, id, &sg, &e) != 0) {
        snprintf(err, errlen, "no such game");
        return NULL;
    }
    const game_variant *v = game_variant_find(sg.variant);
    if (!v) {
        snprintf(err, errlen, "game %lld is of an unknown variant '%s'", (long long)id,
                 sg.variant);
        return NULL;
    }
    live *g = live_new(s, v);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    g->id = id;
    g->g = sg;
    game_error ge;
    store_move *moves = NULL;
    if (v->ops->setup && !sg.start[0] && sg.nmoves == 0) {
        /* still in its setup phase: the setups in so far wait in the store */
        g->setting_up = sg.status == STORE_GAME_LIVE;
        v->ops->start(v, g->pos, 0);
    } else if (v->ops->parse(v, g->pos, sg.start, &ge) != 0 ||
               live_set_limit(v, g->pos, sg.move_limit) != 0) {
        snprintf(err, errlen, "game %lld: bad start: %s", (long long)id, ge.msg);
        goto fail;
    }
    memcpy(g->start, g->pos, v->ops->pos_size);
    gclock_init(&g->clk, sg.base_ms, sg.inc_ms, SRV_LAG_MS, net_mono_ms());
    for (int i = 0; i < v->nsides; i++) {
        if (ident_load(s, sg.players[i], &g->players[i]) != 0) {
            snprintf(err, errlen, "game %lld: unknown player", (long long)id);
            goto fail;
        }
    }
    if (sg.nmoves > 0) {
        moves = malloc((size_t)sg.nmoves * sizeof *moves);
        g->moves = calloc((size_t)sg.nmoves, sizeof *g->moves);
        if (!moves || !g->moves) {
            snprintf(err, errlen, "out of memory");
            goto fail;
        }
        g->capmoves = sg.nmoves;
    }
    int n = sg.nmoves ? store_moves(s->st, id, moves, sg.nmoves, &e) : 0;
    if (n != sg.nmoves) {
        snprintf(err, errlen, "game %lld: moves could not be read", (long long)id);
        goto fail;
    }
    for (int i = 0; i < n; i++) {
        game_move m;
        int side = v->ops->side_to_move(g->pos);
        if (v->ops->parse_move(g->pos, moves[i].text, &m, &ge) != 0) {
            snprintf(err, errlen, "game %lld: stored move %d: %s", (long long)id, i, ge.msg);
            goto fail;
        }
        played *pm = &g->moves[i];
        memcpy(pm->text, moves[i].text, sizeof pm->text);
        pm->clock_ms = moves[i].clock_ms;
        char event[120] = "";
        if (v->ops->describe)
            v->ops->describe(g->pos, m, event, sizeof event);
        pm->event = event[0] ? strdup(event) : NULL;
        g->nmoves = i + 1;
        live_note_effects(g, m);
        pm->combat = g->last ? json_incref(json_object_get(g->last, "combat")) : NULL;
        _Alignas(16) unsigned char undo[GAME_POS_MAX];
        v->ops->make(g->pos, m, undo);
        gclock_set(&g->clk, side, moves[i].clock_ms);
    }
    free(moves);
    moves = NULL;
    if (sg.status != STORE_GAME_LIVE) {
        g->over = 1;
        g->end_msg = end_message(id, sg.winner, sg.reason, sg.sterile, NULL, NULL);
    }
    return g;
fail:
    free(moves);
    live_free(g);
    return NULL;
}

live *live_resume(srv *s, int64_t id)
{
    char err[200];
    if (live_find(s, id))
        return NULL;
    live *g = live_load(s, id, err, sizeof err);
    if (!g) {
        fprintf(stderr, "citadel serve: %s (left as stored)\n", err);
        return NULL;
    }
    gclock_turn(&g->clk, net_mono_ms());
    live_insert(s, g);
    for (int k = 0; k < g->v->nsides; k++)
        if (!g->players[k].bot)
            g->gone[k] = client_of_player(s, g->players[k].id) ? 0 : g->clk.began;
    if (g->setting_up) {
        setup_resume(s, g);
        live_arm(g);
        return g;
    }
    game_result r = g->v->ops->result(g->pos);
    if (r.over) {
        /* stopped between the move that ended it and its end */
        live_end_or_retry(s, g, STORE_GAME_OVER, r.winner, r.reason);
        return g;
    }
    live_arm(g);
    live_kick_bot(s, g);
    return g;
}

int live_resume_all(srv *s)
{
    int64_t *ids = malloc(100000 * sizeof *ids);
    store_err e;
    int n = ids ? store_live_games(s->st, ids, 100000, &e) : -1;
    if (n < 0) {
        fprintf(stderr, "citadel serve: cannot read the live games\n");
        free(ids);
        return -1;
    }
    int resumed = 0;
    for (int i = 0; i < n; i++)
        resumed += live_resume(s, ids[i]) != NULL;
    free(ids);
    return resumed;
}

/* --- players coming and going ---------------------------------------------------------- */

static void mark_player(srv *s, int64_t player, int64_t when)
{
    LIVE_EACH(s, g) {
        if (g->over)
            continue;
        int hit = 0;
        for (int i = 0; i < g->v->nsides; i++)
            if (g->players[i].id == player && !g->players[i].bot) {
                g->gone[i] = when;
                hit = 1;
            }
        if (hit)
            live_arm(g);
    }
}

void live_player_left(srv *s, int64_t player)
{
    mark_player(s, player, net_mono_ms());
}

void live_player_back(srv *s, int64_t player)
{
    mark_player(s, player, 0);
}

int live_sweep(srv *s)
{
    int freed = 0;
    int64_t now = net_mono_ms();
    for (live *g = s->all_games, *next; g; g = next) {
        next = g->all_next;
        if (!g->over || now - g->over_mono <= s->cfg.keep_over_ms)
            continue;
        while (g->nwatch) {
            client *c = client_find(s, g->watchers[g->nwatch - 1]);
            if (c)
                client_unwatch(c, g->id);
            g->nwatch--;
        }
        live_unlink(s, g);
        live_free(g);
        freed++;
    }
    return freed;
}
