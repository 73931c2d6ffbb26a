/* games.c -- the server's table of live games, and what anyone may ask
 * of one game without changing it: who is to move, which sides a client
 * plays, whether a side is still in, how many games a player plays.
 *
 * A live game is in two places, both kept here alone: its id's hash chain
 * (lookups) and the list of every game (walks); live_insert puts it in
 * both, live_unlink takes it out of both, live_free frees it once it is in
 * neither. Clients are named in it by id (core/srv.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/srv.h"
#include "live_inside.h"

static unsigned bucket(int64_t id)
{
    return (unsigned)((uint64_t)id % SRV_GAME_BUCKETS);
}

live *live_find(srv *s, int64_t id)
{
    for (live *g = s->games[bucket(id)]; g; g = g->next)
        if (g->id == id)
            return g;
    return NULL;
}

void live_insert(srv *s, live *g)
{
    unsigned b = bucket(g->id);
    g->next = s->games[b];
    s->games[b] = g;
    g->all_prev = NULL;
    g->all_next = s->all_games;
    if (s->all_games)
        s->all_games->all_prev = g;
    s->all_games = g;
    s->nlive++;
}

int live_to_move(const live *g)
{
    return g->v->ops->side_to_move(g->pos);
}

/* Sides the client plays (bit mask). */
unsigned live_sides_of(const live *g, const client *c)
{
    unsigned m = 0;
    if (c)
        for (int i = 0; i < g->v->nsides; i++)
            if (g->players[i].id == c->me.id)
                m |= 1u << i;
    return m;
}

void live_free(live *g)
{
    net_timer_free(g->timer);
    json_decref(g->end_msg);
    json_decref(g->last);
    for (int i = 0; i < g->nmoves; i++) {
        free(g->moves[i].event);
        json_decref(g->moves[i].combat);
    }
    free(g->moves);
    free(g->watchers);
    live_deferred_free(g);
    free(g);
}

void live_free_all(srv *s)
{
    while (s->all_games) {
        live *g = s->all_games;
        s->all_games = g->all_next;
        live_free(g);
    }
    memset(s->games, 0, sizeof s->games);
    s->nlive = 0;
}

int live_side_in(const live *g, int side)
{
    game_move m;
    game_error e;
    return !g->v->ops->resign || g->v->ops->resign(g->pos, side, &m, &e) == 0;
}

static int has_bot(const live *g)
{
    for (int i = 0; i < g->v->nsides; i++)
        if (g->players[i].bot)
            return 1;
    return 0;
}

int live_count_of_player(srv *s, int64_t player, int *with_bots)
{
    int n = 0, b = 0;
    LIVE_EACH(s, g) {
        if (g->over)
            continue;
        for (int i = 0; i < g->v->nsides; i++)
            if (g->players[i].id == player && live_side_in(g, i)) {
                n++;
                b += has_bot(g);
                break;
            }
    }
    if (with_bots)
        *with_bots = b;
    return n;
}

int live_count_with_bots(srv *s)
{
    int n = 0;
    LIVE_EACH(s, g)
        n += !g->over && has_bot(g);
    return n;
}

int live_set_limit(const game_variant *v, void *pos, int limit)
{
    for (const game_option *o = v->options; o && o->name; o++)
        if (strcmp(o->name, "MoveLimit") == 0) {
            game_error e;
            return v->ops->set_option(pos, "MoveLimit", limit, &e);
        }
    return 0;
}

void live_unlink(srv *s, live *g)
{
    live **p = &s->games[bucket(g->id)];
    while (*p != g)
        p = &(*p)->next;
    *p = g->next;
    if (g->all_prev)
        g->all_prev->all_next = g->all_next;
    else
        s->all_games = g->all_next;
    if (g->all_next)
        g->all_next->all_prev = g->all_prev;
    s->nlive--;
}

void live_deferred_free(live *g)
{
    while (g->deferred) {
        deferred *d = g->deferred;
        g->deferred = d->next;
        json_decref(d->msg);
        free(d);
    }
    g->deferred_tail = NULL;
    g->ndeferred = 0;
}
