/* live_store.c -- a live game's writes: its moves and its end, stored by
 * the store's writer (writer.h) off the event loop, and what follows once
 * each is committed.
 *
 * The order of live.c holds across the wait: a move or an end is checked
 * by the game, handed to the writer, and only when its batch is committed
 * made and told to anyone (move_done, end_done); a write that failed
 * changed nothing in memory either.
 *
 * One write of a game at a time.  While a game's write is out (g->writing)
 * its position is the one the write was checked against, so nothing else
 * may be checked against it: the players' requests for that game (move,
 * resign, draw, rematch, setup) wait in g->deferred, in order, at most
 * SRV_DEFERRED_MAX of them, and run when the write is done
 * (live_after_write); its timer and its bot wait too. Writes of different
 * games go out together, and the writer commits them as one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/elo.h"
#include "live_inside.h"
#include "lobby.h"
#include "../core/srv.h"
#include "../../store/writer.h"
/* --- requests that wait for a write ------------------------------------------------- */

struct deferred {
    deferred *next;
    uint64_t client;
    json_t *msg;
};

int live_defer(live *g, client *c, json_t *msg)
{
    if (!g->writing)
        return 0;
    if (g->ndeferred >= SRV_DEFERRED_MAX) {
        client_error(c, json_object_get(msg, "ref"),
                     "too many requests for game %lld at once; try again", (long long)g->id);
        return 1;
    }
    deferred *d = calloc(1, sizeof *d);
    if (!d) {
        client_error(c, json_object_get(msg, "ref"), "out of memory");
        return 1;
    }
    d->client = c->id;
    d->msg = json_incref(msg);
    if (g->deferred_tail)
        g->deferred_tail->next = d;
    else
        g->deferred = d;
    g->deferred_tail = d;
    g->ndeferred++;
    return 1;
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

void live_after_write(srv *s, live *g)
{
    while (!g->writing && g->deferred) {
        deferred *d = g->deferred;
        g->deferred = d->next;
        if (!g->deferred)
            g->deferred_tail = NULL;
        g->ndeferred--;
        client *c = client_find(s, d->client);
        if (c)  /* a client gone meanwhile asked for nothing */
            client_dispatch(s, c, d->msg);
        json_decref(d->msg);
        free(d);
    }
    if (g->writing)
        return;
    live_arm(g);
    live_kick_bot(s, g);
}

/* --- moves ------------------------------------------------------------------------------ */

typedef struct move_job {
    wjob base;
    int64_t game;
    store_move sm;
    game_move m;
    int turn_ends;
    uint64_t from;       /* the client that asked, or 0 (a bot) */
    json_t *ref;
    char what[16];
} move_job;

static void move_drop(wjob *j)
{
    json_decref(((move_job *)j)->ref);
    free(j);
}

static int move_run(store *st, wjob *j)
{
    move_job *mj = (move_job *)j;
    return store_move_add(st, mj->game, &mj->sm, 0, &j->err);
}

/* The move is stored: make it, and tell everyone. 0, or -1 if memory ran
 * out before anything changed. */
static int move_made(srv *s, live *g, move_job *mj, client *from)
{
    const game_ops *ops = g->v->ops;
    int side = live_to_move(g);
    if (g->nmoves == g->capmoves) {
        int cap = g->capmoves ? 2 * g->capmoves : 64;
        played *mv = realloc(g->moves, (size_t)cap * sizeof *mv);
        if (!mv)
            return -1;
        g->moves = mv;
        g->capmoves = cap;
    }
    char event[120] = "";
    if (ops->describe)
        ops->describe(g->pos, mj->m, event, sizeof event);
    char *ev = event[0] ? strdup(event) : NULL;
    if (event[0] && !ev)
        return -1;
    played *pm = &g->moves[g->nmoves++];
    memcpy(pm->text, mj->sm.text, sizeof pm->text);
    pm->clock_ms = mj->sm.clock_ms;
    pm->event = ev;
    live_note_effects(g, mj->m);
    pm->combat = g->last ? json_incref(json_object_get(g->last, "combat")) : NULL;
    _Alignas(16) unsigned char undo[GAME_POS_MAX];
    ops->make(g->pos, mj->m, undo);
    gclock_set(&g->clk, side, mj->sm.clock_ms);
    if (mj->turn_ends) {
        gclock_turn(&g->clk, net_mono_ms());
        g->draw_offer &= 1u << side;  /* moving declines the others' offers */
    }
    json_t *msg = json_pack("{s:s, s:I, s:i, s:s, s:o, s:i, s:o}", "type", "move", "game",
                            (json_int_t)g->id, "ply", g->nmoves - 1, "move", mj->sm.text,
                            "position", live_position_json(g, NULL), "to_move", live_to_move(g),
                            "clocks", live_clocks_json(g));
    if (ops->material && !g->v->hidden)
        json_object_set_new(msg, "material", live_material_json(g));
    if (ops->describe)
        json_object_set_new(msg, "event", json_string(event));
    if (g->last)
        json_object_set(msg, "effects", g->last);
    json_t *threats = live_threats_json(g);
    if (threats)
        json_object_set_new(msg, "threats", threats);
    game_result r = ops->result(g->pos);
    if (r.over && g->v->hidden)
        json_object_del(msg, "position");  /* the `end` brings the whole game */
    /* the mover's ref goes back to the mover alone */
    json_t *mine = NULL;
    if (mj->ref && from) {
        mine = json_copy(msg);
        json_object_set(mine, "ref", mj->ref);
    }
    live_broadcast_to(g, msg, !r.over, from, mine);
    json_decref(msg);
    json_decref(mine);
    if (r.over)
        live_end_or_retry(s, g, STORE_GAME_OVER, r.winner, r.reason);
    return 0;
}

static void move_done(void *app, wjob *j)
{
    srv *s = app;
    move_job *mj = (move_job *)j;
    live *g = live_find(s, mj->game);
    client *from = mj->from ? client_find(s, mj->from) : NULL;
    if (g) {
        g->writing = 0;
        if (!j->ok || g->nmoves != mj->sm.ply) {
            if (from)
                client_error(from, mj->ref, "the %s could not be stored; try again", mj->what);
            fprintf(stderr, "citadel serve: game %lld: %s\n", (long long)g->id, j->err.msg);
            if (!mj->from)
                live_retry_later(g);  /* a bot's move: it thinks again later */
        } else if (move_made(s, g, mj, from) != 0) {
            /* stored but not made: the game as stored is the truth; it
             * comes back as stored when the server starts again */
            fprintf(stderr, "citadel serve: game %lld: out of memory after a move\n",
                    (long long)g->id);
            if (from)
                client_error(from, mj->ref, "out of memory");
        }
        live_after_write(s, g);
    }
    json_decref(mj->ref);
    free(mj);
}

int live_commit(srv *s, live *g, game_move m, int64_t clock, int turn_ends, client *from,
                json_t *ref, const char *what)
{
    if (g->writing) {
        /* every path here waits for the write out (live_defer); a stray
         * one is refused rather than checked against a position that may
         * change */
        if (from)
            client_error(from, ref, "the game is busy; try again");
        return -1;
    }
    move_job *mj = calloc(1, sizeof *mj);
    if (!mj) {
        if (from)
            client_error(from, ref, "out of memory");
        return -1;
    }
    mj->base.run = move_run;
    mj->base.done = move_done;
    mj->base.drop = move_drop;
    mj->game = g->id;
    mj->m = m;
    mj->turn_ends = turn_ends;
    mj->from = from ? from->id : 0;
    mj->ref = json_incref(ref);
    snprintf(mj->what, sizeof mj->what, "%s", what);
    mj->sm.ply = g->nmoves;
    mj->sm.clock_ms = clock;
    mj->sm.time = net_wall_ms();
    g->v->ops->format_move(g->pos, m, mj->sm.text, sizeof mj->sm.text);
    g->writing = 1;
    writer_submit(s->writer, &mj->base);
    return 0;
}

/* --- ends --------------------------------------------------------------------------------- */

typedef struct end_job {
    wjob base;
    int64_t game;
    int status, winner, sterile, rated;
    char reason[32];
    int64_t ended;
    int64_t players[2];
    double score[2];
    store_rating_change ch[2];
    uint64_t from;       /* a client that asked (a resignation, a draw), or 0 */
    json_t *ref;
    char what[16];
} end_job;

static void end_drop(wjob *j)
{
    json_decref(((end_job *)j)->ref);
    free(j);
}

static int end_run(store *st, wjob *j)
{
    end_job *ej = (end_job *)j;
    if (ej->rated)
        return store_game_end_rated(st, ej->game, ej->winner, ej->reason, ej->ended,
                                    ej->players, ej->score, elo_update, ej->ch, &j->err);
    return store_game_end(st, ej->game, ej->status, ej->winner, ej->reason, ej->sterile,
                          ej->ended, NULL, 0, &j->err);
}

/* The end is stored: tell everyone. */
static void end_made(srv *s, live *g, end_job *ej)
{
    json_t *ratings = json_array();
    for (int i = 0; ej->rated && i < 2; i++)
        json_array_append_new(ratings, json_pack("{s:s, s:f, s:f}", "name", g->players[i].name,
                                                 "before", ej->ch[i].before, "after",
                                                 ej->ch[i].after));
    g->over = 1;
    g->ending = 0;
    g->retry_at = 0;
    g->over_mono = net_mono_ms();
    g->g.status = ej->status;
    g->g.winner = ej->winner;
    snprintf(g->g.reason, sizeof g->g.reason, "%s", ej->reason);
    g->g.sterile = ej->sterile;
    g->g.ended = ej->ended;
    net_timer_cancel(g->timer);
    g->end_msg = json_pack("{s:s, s:I, s:{s:i, s:s, s:b, s:o}, s:o}", "type", "end", "game",
                           (json_int_t)g->id, "result", "winner", ej->winner, "reason",
                           ej->reason, "sterile", ej->sterile, "ratings", ratings, "clocks",
                           live_clocks_json(g));
    if (g->v->hidden && !g->setting_up) {
        /* the game is over: everything in it is public now */
        char full[2048];
        g->v->ops->format(g->pos, full, sizeof full);
        json_object_set_new(g->end_msg, "position", json_string(full));
        json_object_set_new(g->end_msg, "start", json_string(g->g.start));
    }
    live_broadcast(g, g->end_msg, 0);
    lobby_changed(s);
}

static void end_done(void *app, wjob *j)
{
    srv *s = app;
    end_job *ej = (end_job *)j;
    live *g = live_find(s, ej->game);
    if (g) {
        g->writing = 0;
        if (j->ok) {
            end_made(s, g, ej);
        } else {
            fprintf(stderr, "citadel serve: game %lld: %s\n", (long long)g->id, j->err.msg);
            client *from = ej->from ? client_find(s, ej->from) : NULL;
            if (ej->from) {
                /* a player's request: they are told, and may ask again */
                if (from)
                    client_error(from, ej->ref, "the %s could not be stored; try again",
                                 ej->what);
            } else {
                /* the game's own end: no move is taken until it is stored */
                g->ending = 1;
                g->end_status = ej->status;
                g->end_winner = ej->winner;
                snprintf(g->end_reason, sizeof g->end_reason, "%s", ej->reason);
                live_retry_later(g);
            }
        }
        live_after_write(s, g);
    }
    json_decref(ej->ref);
    free(ej);
}

void live_end(srv *s, live *g, int status, int winner, const char *reason, client *from,
              json_t *ref, const char *what)
{
    if (g->over)
        return;
    if (g->writing) {
        if (from)
            client_error(from, ref, "the game is busy; try again");
        else
            live_retry_later(g);
        return;
    }
    end_job *ej = calloc(1, sizeof *ej);
    if (!ej) {
        if (from)
            client_error(from, ref, "out of memory");
        else
            live_retry_later(g);
        return;
    }
    ej->base.run = end_run;
    ej->base.done = end_done;
    ej->base.drop = end_drop;
    ej->game = g->id;
    ej->status = status;
    ej->winner = winner;
    snprintf(ej->reason, sizeof ej->reason, "%s", reason);
    ej->sterile = status == STORE_GAME_OVER && winner < 0 && g->v->ops->sterile &&
                  !g->setting_up && g->v->ops->sterile(g->start, g->pos);
    if (status == STORE_GAME_OVER && g->g.rated && g->v->nsides == 2 && !ej->sterile) {
        ej->rated = 1;
        for (int i = 0; i < 2; i++) {
            int team = g->v->ops->team_of(g->pos, i);
            ej->players[i] = g->players[i].id;
            ej->score[i] = winner < 0 ? 0.5 : winner == team ? 1.0 : 0.0;
        }
    }
    ej->ended = net_wall_ms();
    ej->from = from ? from->id : 0;
    ej->ref = json_incref(ref);
    snprintf(ej->what, sizeof ej->what, "%s", what ? what : "end");
    g->writing = 1;
    writer_submit(s->writer, &ej->base);
}

void live_end_or_retry(srv *s, live *g, int status, int winner, const char *reason)
{
    /* reason may be g->end_reason: live_end copies it into its job first */
    live_end(s, g, status, winner, reason, NULL, NULL, NULL);
}
