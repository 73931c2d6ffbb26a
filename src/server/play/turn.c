/* turn.c -- a live game's progress: each move or end checked by the
 * game, stored by the store's writer (writer.h) off the event loop, and
 * only then made and told; the requests that wait for a write; the timer
 * of its clocks; its bots asked to move; the end of its setup phase.
 *
 * A game's state changes only here, on the loop thread, and always in
 * this order: checked by the game, stored, and only then made and told to
 * anyone (move_done, end_done); a write that failed changed nothing in
 * memory either. Nothing a client sees was not stored first: a killed
 * server, started again, resumes every game at its last acknowledged
 * move, and an end that the store refused was never announced. When the
 * store refuses what nobody asked for by hand (a bot's move, a flag fall,
 * the end a move brought), the game keeps its state and tries again
 * SRV_RETRY_MS later (live_retry_later); while an end waits to be stored
 * (g->ending) no move is taken.
 *
 * One write of a game at a time.  While a game's write is out (g->writing)
 * its position is the one the write was checked against, so nothing else
 * may be checked against it: the players' requests for that game (move,
 * resign, draw, rematch, setup) wait in g->deferred, in order, at most
 * SRV_DEFERRED_MAX of them, and run when the write is done
 * (live_after_write, through client_dispatch); its timer and its bot wait
 * too. Writes of different games go out together, and the writer commits
 * them as one.
 *
 * Clocks (Fischer, clock.h).  The side to move has been thinking since
 * clk.began; a move is charged that time less a lag allowance of up to
 * SRV_LAG_MS, then gains the increment. A timer fires when the side to
 * move's clock (plus the allowance) runs out, when a player gone from the
 * server has been gone abandon_ms on its turn, or when a failed write is
 * due again. After a restart, the side to move's clock resumes where it
 * was stored: time the server was down is nobody's.
 *
 * Bots think on the worker pool, on a copy of what their side may see;
 * their move comes back through the same path as a person's. A bot that
 * gives no move (an engine that died or timed out) is asked again; one
 * that fails for abandon_ms is treated as a player gone on its turn.
 *
 * Resignations.  In games whose sides may resign and leave the others
 * playing (game.h `resign`: Keeps & Moats), a resignation is a move like
 * any other here: checked by the game, stored, made, told, replayed after a
 * restart. It may come out of turn; then the side to move's turn and clock
 * go on as they were.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ai/bots.h"
#include "../../base/elo.h"
#include "../../store/writer.h"
#include "../core/srv.h"
#include "botpool.h"
#include "live_inside.h"
#include "lobby.h"
#include "messages.h"
#include "seeds.h"

/* --- requests that wait for a write ------------------------------------------------- */


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
        live_hold(g);
    }
    json_t *msg = move_message(g->id, g->nmoves - 1, mj->sm.text, live_position_json(g, NULL),
                               live_to_move(g), live_clocks_json(g));
    if (ops->material && !g->v->hidden)
        json_object_set_new(msg, "material", live_material_json(g));
    if (ops->describe)
        json_object_set_new(msg, "event", json_string(event));
    if (g->clk.held)
        json_object_set_new(msg, "held", json_true());
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
    double start[2];     /* each one's rating before its first rated game (seeds.h) */
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
                                    ej->players, ej->score, ej->start, elo_update, ej->ch,
                                    &j->err);
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
    g->end_msg = end_message(g->id, ej->winner, ej->reason, ej->sterile, ratings,
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
            ej->start[i] = seed_rating(&g->players[i], g->v->name);
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

/* --- bots, clocks and moves ------------------------------------------------------- */

static void on_timer(void *arg);

void live_retry_later(live *g)
{
    g->retry_at = net_mono_ms() + SRV_RETRY_MS;
    live_arm(g);
}

static void bot_done(void *app, job *j)
{
    srv *s = app;
    bot_job *bj = (bot_job *)j;
    live *g = live_find(s, bj->game);
    if (g && g->writing) {
        /* a write of the game is out (another side resigned): the bot
         * thinks again once it is done (live_after_write) */
        g->bot_busy = 0;
    } else if (g && g->nmoves != bj->ply && !g->over && !g->ending) {
        /* the game moved on while the bot thought (another side resigned):
         * its answer is for a position gone; it thinks again */
        g->bot_busy = 0;
        live_kick_bot(s, g);
    } else if (g && !g->over && !g->ending) {
        g->bot_busy = 0;
        int64_t now = net_mono_ms();
        int r = bj->move[0] ? live_apply_move(s, g, bj->side, bj->move, NULL, NULL) : -2;
        if (r == 0) {
            g->bot_failed = 0;
        } else if (g->over || g->ending || g->nmoves != bj->ply) {
            /* the move's clock had run out: the game is ending */
        } else if (r == -2) {
            /* no answer, or no legal one: the bot is asked again, and a bot
             * that keeps failing loses as a player gone on its turn would */
            if (!g->bot_failed)
                g->bot_failed = now;
            fprintf(stderr, "citadel serve: game %lld: %s gave no legal move; asking again\n",
                    (long long)g->id, g->players[bj->side].name);
            if (now - g->bot_failed >= s->cfg.abandon_ms)
                live_end_by_clock(s, g, bj->side, "abandoned");
            else
                live_retry_later(g);
        } else {
            live_retry_later(g);  /* the move was not stored: think again later */
        }
    }
    free(bj);
}

void live_kick_bot(srv *s, live *g)
{
    if (g->over || g->ending || g->bot_busy || g->setting_up || g->retry_at || g->writing)
        return;
    int stm = live_to_move(g);
    if (!g->players[stm].bot)
        return;
    if (!s->botpool)
        s->botpool = botpool_new();
    bot_job *bj = calloc(1, sizeof *bj);
    if (!bj || !s->botpool || !s->pool) {
        free(bj);
        live_retry_later(g);
        return;
    }
    bj->base.run = botpool_job_run;
    bj->base.done = bot_done;
    bj->pool = s->botpool;
    bj->v = g->v;
    bj->game = g->id;
    bj->ply = g->nmoves;
    bj->side = stm;
    bj->move_limit = g->g.move_limit;
    snprintf(bj->spec, sizeof bj->spec, "%s", g->players[stm].spec);
    bj->seed = rng_next(&s->rng);
    bj->lim.movetime = gclock_think(&g->clk, stm, s->cfg.bot_think_max_ms);
    bj->lim.time[0] = bj->lim.time[1] = -1;
    g->v->ops->view(g->pos, stm, bj->view);
    g->bot_busy = 1;
    workers_submit(s->pool, &bj->base);
}

static void earliest(int64_t *wait, int64_t w)
{
    if (w < 0)
        w = 0;
    if (*wait < 0 || w < *wait)
        *wait = w;
}

void live_arm(live *g)
{
    if (g->over) {
        net_timer_cancel(g->timer);
        return;
    }
    int64_t now = net_mono_ms(), wait = -1;
    if (g->retry_at)
        earliest(&wait, g->retry_at - now);
    if (g->ending) {
        /* only the retry of the end */
    } else if (g->setting_up) {
        /* no clock runs; only a player gone before its setup is in */
        for (int i = 0; i < g->v->nsides; i++)
            if (g->gone[i] && !(g->ready & (1u << i)))
                earliest(&wait, g->gone[i] + g->s->cfg.abandon_ms - now);
    } else {
        int stm = live_to_move(g);
        if (gclock_flag_at(&g->clk, stm) >= 0)
            earliest(&wait, gclock_flag_at(&g->clk, stm) - now);
        if (g->clk.held)
            earliest(&wait, g->clk.held_at + LIVE_HOLD_MS - now);
        if (g->gone[stm]) {
            int64_t since = g->gone[stm] > g->clk.began ? g->gone[stm] : g->clk.began;
            earliest(&wait, since + g->s->cfg.abandon_ms - now);
        }
        if (g->bot_failed)
            earliest(&wait, g->bot_failed + g->s->cfg.abandon_ms - now);
    }
    if (wait < 0)
        net_timer_cancel(g->timer);
    else
        net_timer_set(g->timer, wait);
}

int live_covered_between_turns(const live *g)
{
    if (!g->v->hidden || g->players[0].bot || !g->players[0].id)
        return 0;
    for (int i = 1; i < g->v->nsides; i++)
        if (g->players[i].bot || g->players[i].id != g->players[0].id)
            return 0;
    return 1;
}

void live_hold(live *g)
{
    if (live_covered_between_turns(g) && gclock_timed(&g->clk))
        gclock_hold(&g->clk, net_mono_ms());
}

void live_release(srv *s, live *g)
{
    gclock_release(&g->clk, net_mono_ms());
    live_send_states(s, g);
    live_arm(g);
}

void live_end_by_clock(srv *s, live *g, int side, const char *reason)
{
    game_result r = g->v->ops->timeout(g->start, g->pos, side);
    live_end_or_retry(s, g, STORE_GAME_OVER, r.over ? r.winner : -1, reason);
}

static void on_timer(void *arg)
{
    live *g = arg;
    srv *s = g->s;
    if (g->over || g->writing)
        return;  /* a write out: its end arms the timer again */
    int64_t now = net_mono_ms();
    if (g->retry_at && now >= g->retry_at) {
        g->retry_at = 0;
        if (g->ending) {
            live_end_or_retry(s, g, g->end_status, g->end_winner, g->end_reason);
            return;
        }
        if (g->setting_up && live_all_ready(g))
            setup_begin_play(s, g);
        else if (!g->setting_up)
            live_kick_bot(s, g);
        if (g->over || g->ending)
            return;
    }
    if (g->ending) {
        live_arm(g);
        return;
    }
    if (g->setting_up) {
        for (int i = 0; i < g->v->nsides; i++)
            if (g->gone[i] && !(g->ready & (1u << i)) && now - g->gone[i] >= s->cfg.abandon_ms) {
                live_end_or_retry(s, g, STORE_GAME_ABORTED, -1, "aborted");
                return;
            }
        live_arm(g);
        return;
    }
    if (g->clk.held && now - g->clk.held_at >= LIVE_HOLD_MS) {
        live_release(s, g);  /* nobody took the device: the clock runs anyway */
        return;
    }
    int stm = live_to_move(g);
    if (gclock_fallen(&g->clk, stm, now)) {
        gclock_set(&g->clk, stm, 0);
        live_end_by_clock(s, g, stm, "time");
        return;
    }
    int64_t since = g->gone[stm] > g->clk.began ? g->gone[stm] : g->clk.began;
    if ((g->gone[stm] && now - since >= s->cfg.abandon_ms) ||
        (g->bot_failed && now - g->bot_failed >= s->cfg.abandon_ms)) {
        live_end_by_clock(s, g, stm, "abandoned");
        return;
    }
    live_arm(g);
}

/* 1 if m is in the list of legal moves of pos (parse_move also reads
 * resignations, which a move request may not play). */
static int listed(const game_ops *ops, const void *pos, game_move m)
{
    game_move list[GAME_MAX_MOVES];
    int n = ops->moves(pos, list);
    for (int i = 0; i < n; i++)
        if (list[i] == m)
            return 1;
    return 0;
}

int live_apply_move(srv *s, live *g, int side, const char *text, client *from, json_t *ref)
{
    const game_ops *ops = g->v->ops;
    game_move m;
    game_error gerr;
    int ok = ops->parse_move(g->pos, text, &m, &gerr) == 0;
    if (ok && !listed(ops, g->pos, m)) {
        snprintf(gerr.msg, sizeof gerr.msg, "%.40s is not a move of the side to move%s", text,
                 ops->resign ? " (resigning is a request of its own)" : "");
        ok = 0;
    }
    if (!ok) {
        if (from)
            client_error(from, ref, "illegal move: %s", gerr.msg);
        else
            fprintf(stderr, "citadel serve: game %lld: %s played '%s': %s\n", (long long)g->id,
                    g->players[side].name, text, gerr.msg);
        return -2;
    }
    int64_t now = net_mono_ms();
    if (gclock_fallen(&g->clk, side, now)) {
        gclock_set(&g->clk, side, 0);
        live_end_by_clock(s, g, side, "time");
        return -1;
    }
    int64_t clock = gclock_charge(&g->clk, side, now, 1);
    return live_commit(s, g, m, clock, 1, from, ref, "move") == 0 ? 0 : -1;
}

live *live_new(srv *s, const game_variant *v)
{
    live *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->s = s;
    g->v = v;
    g->timer = net_timer_new(s->net, on_timer, g);
    if (!g->timer) {
        free(g);
        return NULL;
    }
    return g;
}

/* --- the setup phase's end ---------------------------------------------------------- */

/* Every setup is in: the start position is made and stored, then shown to
 * each client as its view, and the first side's clock starts. If the
 * store refuses the start, the phase goes on and begin_play is tried again
 * (on_timer's retry); a setup the engine cannot start from aborts the game. */
void setup_begin_play(srv *s, live *g)
{
    const game_ops *ops = g->v->ops;
    const char *setups[GAME_MAX_SIDES];
    for (int i = 0; i < g->v->nsides; i++)
        setups[i] = g->setups[i];
    game_error ge;
    store_err e;
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    if (ops->setup->start(g->v, pos, setups, &ge) != 0 ||
        live_set_limit(g->v, pos, g->g.move_limit) != 0) {
        fprintf(stderr, "citadel serve: game %lld: %s\n", (long long)g->id, ge.msg);
        live_end_or_retry(s, g, STORE_GAME_ABORTED, -1, "aborted");
        return;
    }
    char start[sizeof g->g.start];
    ops->format(pos, start, sizeof start);
    int64_t now = net_wall_ms();
    if (store_game_set_start(s->st, g->id, start, now, &e) != 0) {
        fprintf(stderr, "citadel serve: game %lld: %s (trying again)\n", (long long)g->id,
                e.msg);
        live_retry_later(g);
        return;
    }
    memcpy(g->pos, pos, ops->pos_size);
    memcpy(g->start, pos, ops->pos_size);
    memcpy(g->g.start, start, sizeof start);
    g->g.started = now;
    for (int i = 0; i < g->v->nsides; i++) {
        char key[64];
        setup_key(g, i, key, sizeof key);
        store_kv_del(s->st, g->players[i].id, key, &e);  /* a leftover is harmless */
    }
    g->setting_up = 0;
    gclock_turn(&g->clk, net_mono_ms());
    live_hold(g);
    live_send_states(s, g);
    live_arm(g);
    live_kick_bot(s, g);
}

/* Bots choose their setups at once: the game's setup for bots, varied so
 * that it cannot be learnt, or else one from its library. */
void setup_bots(srv *s, live *g)
{
    const game_setup_ops *so = g->v->ops->setup;
    for (int i = 0; i < g->v->nsides && g->setting_up; i++)
        if (g->players[i].bot && !(g->ready & (1u << i))) {
            int n = so->library_size();
            char err[160], text[128];
            if (so->varied)
                so->varied(rng_next(&s->rng), text, sizeof text);
            else if (n > 0)
                snprintf(text, sizeof text, "%s",
                         so->library_text((int)rng_below(&s->rng, (uint64_t)n)));
            else
                so->random(rng_next(&s->rng), text, sizeof text);
            int r = setup_take(s, g, i, text, err, sizeof err);
            if (r < 0)
                fprintf(stderr, "citadel serve: game %lld: bot setup: %s\n", (long long)g->id,
                        err);
            else if (r > 0)
                setup_begin_play(s, g);
        }
}

void setup_resume(srv *s, live *g)
{
    store_err e;
    for (int k = 0; k < g->v->nsides; k++) {
        char key[64], text[128];
        setup_key(g, k, key, sizeof key);
        if (!g->players[k].bot &&
            store_kv_get(s->st, g->players[k].id, key, text, sizeof text, &e) == 0) {
            snprintf(g->setups[k], sizeof g->setups[k], "%s", text);
            g->ready |= 1u << k;
        }
    }
    setup_bots(s, g);
    if (g->setting_up && live_all_ready(g))
        setup_begin_play(s, g);  /* the server stopped between the last setup and play */
}
