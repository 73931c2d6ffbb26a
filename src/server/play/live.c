/* live.c -- live games: moves, clocks, bots, results, ratings.
 *
 * A game's state changes only here (and in live_setup.c), on the loop
 * thread, and always in this order: checked by the game, stored, and only
 * then made and told to anyone. Nothing a client sees was not stored
 * first: a killed server, started again, resumes every game at its last
 * acknowledged move, and an end that the store refused was never
 * announced. When the store refuses what nobody asked for by hand (a
 * bot's move, a flag fall, the end a move brought), the game keeps its
 * state and tries again SRV_RETRY_MS later (live_retry_later); while an
 * end waits to be stored (g->ending) no move is taken.
 *
 * Clocks (Fischer, clock.h).  The side to move has been thinking since
 * clk.began; a move is charged that time less a lag allowance of up to
 * SRV_LAG_MS, then gains the increment. A timer fires when the side to move's clock
 * (plus the allowance) runs out, when a player gone from the server has
 * been gone abandon_ms on its turn, or when a failed write is due again.
 * After a restart, the side to move's clock resumes where it was stored:
 * time the server was down is nobody's.
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
 *
 * What players ask of a game (move, resign, draw, rematch) is
 * live_requests.c; what games look like to clients is live_json.c; private
 * setups are live_setup.c; records and review are records.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../ai/bots.h"
#include "botpool.h"
#include "live_inside.h"
#include "../core/srv.h"

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

static void live_insert(srv *s, live *g)
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

/* --- retries ------------------------------------------------------------------------ */

void live_retry_later(live *g)
{
    g->retry_at = net_mono_ms() + SRV_RETRY_MS;
    live_arm(g);
}

/* --- bots ---------------------------------------------------------------------------- */

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
    bj->base.run = bot_job_run;
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

/* --- clocks and ends ----------------------------------------------------------------- */

static void on_timer(void *arg);

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
        if (gclock_timed(&g->clk))
            earliest(&wait, gclock_flag_at(&g->clk, stm) - now);
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

/* --- moves ---------------------------------------------------------------------------- */

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

/* --- starting and resuming -------------------------------------------------------------- */

static live *live_new(srv *s, const game_variant *v)
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

int live_set_limit(const game_variant *v, void *pos, int limit)
{
    for (const game_option *o = v->options; o && o->name; o++)
        if (strcmp(o->name, "MoveLimit") == 0) {
            game_error e;
            return v->ops->set_option(pos, "MoveLimit", limit, &e);
        }
    return 0;
}

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
        g->end_msg = json_pack("{s:s, s:I, s:{s:i, s:s, s:b, s:[]}}", "type", "end", "game",
                               (json_int_t)id, "result", "winner", sg.winner, "reason",
                               sg.reason, "sterile", sg.sterile, "ratings");
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
        live_free(g);
        freed++;
    }
    return freed;
}
