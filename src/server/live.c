/* live.c -- live games: moves, clocks, bots, results, ratings, setups.
 *
 * A game's state changes only here, on the loop thread. A move is checked
 * by the game, stored, and only then made and sent to anyone: a killed
 * server, started again, resumes every game at its last stored move.
 *
 * Clocks (Fischer).  The side to move has been thinking since turn_began;
 * a move is charged that time less a lag allowance of up to SRV_LAG_MS,
 * then gains the increment. A timer fires when the side to move's clock
 * (plus the allowance) runs out, or when a player gone from the server has
 * been gone abandon_ms (SRV_ABANDON_MS unless set) on its turn. After a restart, the side to move's
 * clock resumes where it was stored: time the server was down is nobody's.
 *
 * Bots think on the worker pool, on a copy of what their side may see;
 * their move comes back through the same path as a person's.
 *
 * What games look like to clients is live_json.c; records and review are
 * records.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../ai/bots.h"
#include "../base/elo.h"
#include "botpool.h"
#include "live.h"
#include "server.h"

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
    free(g->moves);
    free(g->watchers);
    free(g);
}

void live_free_all(srv *s)
{
    for (int i = 0; i < SRV_GAME_BUCKETS; i++)
        while (s->games[i]) {
            live *g = s->games[i];
            s->games[i] = g->next;
            live_free(g);
        }
}

/* --- bots ------------------------------------------------------------------------ */

static void apply_move(srv *s, live *g, int side, const char *text, client *from,
                       json_t *ref);
static void finish(srv *s, live *g, int winner, const char *reason);
static void abort_game(srv *s, live *g);

static void bot_done(void *app, job *j)
{
    srv *s = app;
    bot_job *bj = (bot_job *)j;
    live *g = live_find(s, bj->game);
    if (g && g->nmoves == bj->ply && !g->over) {
        g->bot_busy = 0;
        if (bj->move[0])
            apply_move(s, g, bj->side, bj->move, NULL, NULL);
        else
            finish(s, g, -2, "resign");  /* a bot with no move gives up */
    }
    free(bj);
}

/* If a bot is to move, sends it to think. */
static void kick_bot(srv *s, live *g)
{
    if (g->over || g->bot_busy || g->setting_up)
        return;
    int stm = live_to_move(g);
    if (!g->players[stm].bot)
        return;
    if (!s->botpool)
        s->botpool = botpool_new();
    bot_job *bj = calloc(1, sizeof *bj);
    if (!bj || !s->botpool) {
        free(bj);
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
    /* Think about a thirtieth of the clock plus most of the increment,
     * between 50 ms and 3 s; a second a move without a clock. */
    int64_t think = 1000;
    if (g->g.base_ms > 0) {
        think = g->clock[stm] / 30 + g->g.inc_ms * 3 / 4;
        if (think < 50)
            think = 50;
        if (think > 3000)
            think = 3000;
    }
    bj->lim.movetime = think;
    bj->lim.time[0] = bj->lim.time[1] = -1;
    g->v->ops->view(g->pos, stm, bj->view);
    g->bot_busy = 1;
    workers_submit(s->pool, &bj->base);
}

/* --- clocks and ends ------------------------------------------------------------ */

static void on_timer(void *arg);

/* Sets the game's timer for the next thing that can end it. */
static void arm(live *g)
{
    if (g->over) {
        net_timer_cancel(g->timer);
        return;
    }
    int stm = live_to_move(g);
    int64_t now = net_mono_ms(), wait = -1;
    if (g->setting_up) {
        /* no clock runs; only a player gone before its setup is in */
        for (int i = 0; i < g->v->nsides; i++)
            if (g->gone[i] && !(g->ready & (1u << i))) {
                int64_t w = g->gone[i] + g->s->abandon_ms - now;
                if (wait < 0 || w < wait)
                    wait = w < 0 ? 0 : w;
            }
        if (wait < 0)
            net_timer_cancel(g->timer);
        else
            net_timer_set(g->timer, wait);
        return;
    }
    if (g->g.base_ms > 0)
        wait = g->turn_began + g->clock[stm] + SRV_LAG_MS - now;
    if (g->gone[stm]) {
        int64_t since = g->gone[stm] > g->turn_began ? g->gone[stm] : g->turn_began;
        int64_t w = since + g->s->abandon_ms - now;
        if (wait < 0 || w < wait)
            wait = w;
    }
    if (wait < 0 && g->g.base_ms <= 0 && !g->gone[stm])
        net_timer_cancel(g->timer);
    else
        net_timer_set(g->timer, wait < 0 ? 0 : wait);
}

static void end_by_clock(srv *s, live *g, int side, const char *reason)
{
    game_result r = g->v->ops->timeout(g->start, g->pos, side);
    finish(s, g, r.over ? r.winner : -1, reason);
}

static void on_timer(void *arg)
{
    live *g = arg;
    srv *s = g->s;
    if (g->over)
        return;
    int stm = live_to_move(g);
    int64_t now = net_mono_ms();
    if (g->setting_up) {
        for (int i = 0; i < g->v->nsides; i++)
            if (g->gone[i] && !(g->ready & (1u << i)) && now - g->gone[i] >= s->abandon_ms) {
                abort_game(s, g);
                return;
            }
        arm(g);
        return;
    }
    if (g->g.base_ms > 0 && now - g->turn_began >= g->clock[stm] + SRV_LAG_MS) {
        g->clock[stm] = 0;
        end_by_clock(s, g, stm, "time");
        return;
    }
    if (g->gone[stm]) {
        int64_t since = g->gone[stm] > g->turn_began ? g->gone[stm] : g->turn_began;
        if (now - since >= s->abandon_ms) {
            end_by_clock(s, g, stm, "abandoned");
            return;
        }
    }
    arm(g);
}

/* The team that wins when `side` gives up: in two-sided games, the other. */
static int winner_against(const live *g, int side)
{
    if (g->v->nsides != 2)
        return -1;
    return g->v->ops->team_of(g->pos, side ^ 1);
}

/* Ends the game: winner is a team, -1 a draw, or -2 "the side to move
 * loses" (a resignation). Stores the result and the rating changes in one
 * transaction, then tells everyone. */
static void end_game(srv *s, live *g, int status, int winner, const char *reason);

static void finish(srv *s, live *g, int winner, const char *reason)
{
    end_game(s, g, STORE_GAME_OVER, winner, reason);
}

/* Ends a game that never began: a setup phase someone left. No result. */
static void abort_game(srv *s, live *g)
{
    end_game(s, g, STORE_GAME_ABORTED, -1, "aborted");
}

static void end_game(srv *s, live *g, int status, int winner, const char *reason)
{
    if (g->over)
        return;
    if (winner == -2)
        winner = winner_against(g, live_to_move(g));
    int sterile = status == STORE_GAME_OVER && winner < 0 && g->v->ops->sterile &&
                  g->v->ops->sterile(g->start, g->pos);
    store_rating_change ch[2];
    int nch = 0;
    store_err e;
    json_t *ratings = json_array();
    if (status == STORE_GAME_OVER && g->g.rated && g->v->nsides == 2 && !sterile) {
        store_rating r[2];
        int ok = 1;
        for (int i = 0; i < 2; i++)
            ok &= store_rating_get(s->st, g->players[i].id, g->v->name, &r[i], &e) == 0;
        for (int i = 0; ok && i < 2; i++) {
            int team = g->v->ops->team_of(g->pos, i);
            double score = winner < 0 ? 0.5 : winner == team ? 1.0 : 0.0;
            ch[i].player = g->players[i].id;
            ch[i].before = r[i].rating;
            ch[i].after = elo_update(r[i].rating, r[i].games, r[i ^ 1].rating, score);
        }
        nch = ok ? 2 : 0;
    }
    int64_t now = net_wall_ms();
    if (store_game_end(s->st, g->id, status, winner, reason, sterile, now, ch, nch, &e) != 0) {
        fprintf(stderr, "citadel serve: game %lld: %s\n", (long long)g->id, e.msg);
        nch = 0;
    }
    for (int i = 0; i < nch; i++)
        json_array_append_new(ratings, json_pack("{s:s, s:f, s:f}", "name", g->players[i].name,
                                                 "before", ch[i].before, "after",
                                                 ch[i].after));
    g->over = 1;
    g->over_mono = net_mono_ms();
    g->g.status = status;
    g->g.winner = winner;
    snprintf(g->g.reason, sizeof g->g.reason, "%s", reason);
    g->g.sterile = sterile;
    g->g.ended = now;
    net_timer_cancel(g->timer);
    g->end_msg = json_pack("{s:s, s:I, s:{s:i, s:s, s:b, s:o}, s:o}", "type", "end", "game",
                           (json_int_t)g->id, "result", "winner", winner, "reason", reason,
                           "sterile", sterile, "ratings", ratings, "clocks", live_clocks_json(g));
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

/* Plays `text` for `side`: checks, charges the clock, stores, then makes
 * and tells. A client's error goes back to it with ref. */
static void apply_move(srv *s, live *g, int side, const char *text, client *from, json_t *ref)
{
    const game_ops *ops = g->v->ops;
    game_move m;
    game_error gerr;
    if (ops->parse_move(g->pos, text, &m, &gerr) != 0) {
        if (from)
            client_error(from, ref, "illegal move: %s", gerr.msg);
        return;
    }
    int64_t now = net_mono_ms(), clock = g->clock[side];
    if (g->g.base_ms > 0) {
        int64_t used = now - g->turn_began - SRV_LAG_MS;
        if (used > 0)
            clock -= used;
        if (clock <= 0) {
            g->clock[side] = 0;
            end_by_clock(s, g, side, "time");
            return;
        }
        clock += g->g.inc_ms;
    }
    store_move sm = {.ply = g->nmoves, .clock_ms = clock, .time = net_wall_ms()};
    ops->format_move(g->pos, m, sm.text, sizeof sm.text);
    char event[120] = "";
    if (ops->describe)
        ops->describe(g->pos, m, event, sizeof event);
    store_err e;
    if (store_move_add(s->st, g->id, &sm, 0, &e) != 0) {
        if (from)
            client_error(from, ref, "the move could not be stored; try again");
        fprintf(stderr, "citadel serve: game %lld: %s\n", (long long)g->id, e.msg);
        return;
    }
    if (g->nmoves == g->capmoves) {
        int cap = g->capmoves ? 2 * g->capmoves : 64;
        played *mv = realloc(g->moves, (size_t)cap * sizeof *mv);
        if (!mv) {
            fprintf(stderr, "citadel serve: out of memory\n");
            abort();  /* stored but not kept: start again from the store */
        }
        g->moves = mv;
        g->capmoves = cap;
    }
    played *pm = &g->moves[g->nmoves++];
    memcpy(pm->text, sm.text, sizeof pm->text);
    snprintf(pm->event, sizeof pm->event, "%s", event);
    _Alignas(16) unsigned char undo[GAME_POS_MAX];
    ops->make(g->pos, m, undo);
    g->clock[side] = clock;
    g->turn_began = now;
    g->draw_offer &= 1u << side;  /* moving declines the others' offers */
    json_t *msg = json_pack("{s:s, s:I, s:i, s:s, s:o, s:i, s:o}", "type", "move", "game",
                            (json_int_t)g->id, "ply", g->nmoves - 1, "move", sm.text,
                            "position", live_position_json(g, NULL), "to_move", live_to_move(g),
                            "clocks", live_clocks_json(g));
    if (ref)
        json_object_set(msg, "ref", ref);
    if (ops->material && !g->v->hidden)
        json_object_set_new(msg, "material", live_material_json(g));
    if (ops->describe)
        json_object_set_new(msg, "event", json_string(event));
    game_result r = ops->result(g->pos);
    if (r.over) {
        if (g->v->hidden)
            json_object_del(msg, "position");  /* the `end` brings the whole game */
        live_broadcast(g, msg, 0);
        json_decref(msg);
        finish(s, g, r.winner, r.reason);
        return;
    }
    live_broadcast(g, msg, 1);
    json_decref(msg);
    arm(g);
    kick_bot(s, g);
}

/* --- starting and resuming --------------------------------------------------------- */

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

static int set_limit(const game_variant *v, void *pos, int limit)
{
    for (const game_option *o = v->options; o && o->name; o++)
        if (strcmp(o->name, "MoveLimit") == 0) {
            game_error e;
            return v->ops->set_option(pos, "MoveLimit", limit, &e);
        }
    return 0;
}

static void bots_set_up(srv *s, live *g);

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
    if (set_limit(v, g->pos, set->move_limit) != 0) {
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
        g->clock[i] = set->base_ms;
    }
    sg->created = sg->started = net_wall_ms();
    if (g->setting_up)
        sg->started = 0;
    store_err e;
    if (store_game_add(s->st, sg, &e) != 0) {
        snprintf(err, errlen, "the game could not be stored");
        fprintf(stderr, "citadel serve: %s\n", e.msg);
        live_free(g);
        return NULL;
    }
    g->id = sg->id;
    g->turn_began = net_mono_ms();
    live_insert(s, g);
    for (int i = 0; i < v->nsides; i++)
        if (!players[i].bot && !client_of_player(s, players[i].id))
            g->gone[i] = g->turn_began;
    if (g->setting_up)
        bots_set_up(s, g);
    arm(g);
    kick_bot(s, g);
    return g;
}

/* --- private setups ----------------------------------------------------------------- */

/* The key under which a player's setup for a game waits in the store
 * until the game begins, so a restart loses no setup. */
static void setup_key(const live *g, int side, char *buf, size_t size)
{
    snprintf(buf, size, "game-setup:%lld:%d", (long long)g->id, side);
}

/* Every setup is in: the start position is made, stored, and shown to
 * each client as its view; the first side's clock starts. */
static void begin_play(srv *s, live *g)
{
    const game_ops *ops = g->v->ops;
    const char *setups[GAME_MAX_SIDES];
    for (int i = 0; i < g->v->nsides; i++)
        setups[i] = g->setups[i];
    game_error ge;
    store_err e;
    if (ops->setup->start(g->v, g->pos, setups, &ge) != 0 ||
        set_limit(g->v, g->pos, g->g.move_limit) != 0) {
        fprintf(stderr, "citadel serve: game %lld: %s\n", (long long)g->id, ge.msg);
        abort_game(s, g);
        return;
    }
    memcpy(g->start, g->pos, ops->pos_size);
    ops->format(g->pos, g->g.start, sizeof g->g.start);
    int64_t now = net_wall_ms();
    if (store_game_set_start(s->st, g->id, g->g.start, now, &e) != 0) {
        fprintf(stderr, "citadel serve: game %lld: %s\n", (long long)g->id, e.msg);
        abort_game(s, g);
        return;
    }
    g->g.started = now;
    for (int i = 0; i < g->v->nsides; i++) {
        char key[64];
        setup_key(g, i, key, sizeof key);
        store_kv_del(s->st, g->players[i].id, key, &e);
    }
    g->setting_up = 0;
    g->turn_began = net_mono_ms();
    for (int i = 0; i < g->nwatch; i++) {
        json_t *m = json_pack("{s:s, s:o}", "type", "game", "game", live_state(g, g->watchers[i]));
        client_send(g->watchers[i], m);
        json_decref(m);
    }
    arm(g);
    kick_bot(s, g);
}

/* Takes side's setup; returns 1 when every side's is in (the caller then
 * begins play), 0 if not yet, -1 with err if refused. */
static int take_setup(srv *s, live *g, int side, const char *text, char *err, size_t errlen)
{
    game_error ge;
    if (g->v->ops->setup->check(text, &ge) != 0) {
        snprintf(err, errlen, "bad setup: %s", ge.msg);
        return -1;
    }
    if (strlen(text) >= sizeof g->setups[side]) {
        snprintf(err, errlen, "bad setup: too long");
        return -1;
    }
    char key[64];
    store_err e;
    setup_key(g, side, key, sizeof key);
    if (!g->players[side].bot && store_kv_put(s->st, g->players[side].id, key, text, &e) != 0) {
        snprintf(err, errlen, "the setup could not be stored; try again");
        return -1;
    }
    snprintf(g->setups[side], sizeof g->setups[side], "%s", text);
    g->ready |= 1u << side;
    json_t *m = json_pack("{s:s, s:I, s:o}", "type", "ready", "game", (json_int_t)g->id,
                          "sides", live_sides_json(g, g->ready));
    live_broadcast(g, m, 0);
    json_decref(m);
    return g->ready == (1u << g->v->nsides) - 1;
}

/* Bots choose their setups at once, from the game's library. */
static void bots_set_up(srv *s, live *g)
{
    const game_setup_ops *so = g->v->ops->setup;
    for (int i = 0; i < g->v->nsides && g->setting_up; i++)
        if (g->players[i].bot && !(g->ready & (1u << i))) {
            int n = so->library_size();
            char err[160], text[128];
            if (n > 0)
                snprintf(text, sizeof text, "%s",
                         so->library_text((int)rng_below(&s->rng, (uint64_t)n)));
            else
                so->random(rng_next(&s->rng), text, sizeof text);
            int r = take_setup(s, g, i, text, err, sizeof err);
            if (r < 0)
                fprintf(stderr, "citadel serve: game %lld: bot setup: %s\n", (long long)g->id,
                        err);
            else if (r > 0)
                begin_play(s, g);
        }
}

void live_on_setup(srv *s, client *c, json_t *msg)
{
    json_t *ref = json_object_get(msg, "ref");
    json_t *id = json_object_get(msg, "game");
    live *g = json_is_integer(id) ? live_find(s, json_integer_value(id)) : NULL;
    if (!g) {
        client_error(c, ref, "no such live game");
        return;
    }
    unsigned mine = live_sides_of(g, c);
    const char *text = json_string_value(json_object_get(msg, "setup"));
    json_t *sd = json_object_get(msg, "side");
    int side = mine && !(mine & (mine - 1)) ? __builtin_ctz(mine) : -1;
    if (sd && json_is_integer(sd))
        side = (int)json_integer_value(sd);
    char err[200];
    if (!mine)
        client_error(c, ref, "you do not play in game %lld", (long long)g->id);
    else if (!g->setting_up || g->over)
        client_error(c, ref, "the game is not in its setup phase");
    else if (!text)
        client_error(c, ref, "a setup needs game and setup (text)");
    else if (side < 0 || side >= g->v->nsides || !(mine & (1u << side)))
        client_error(c, ref, "name a side you play (side)");
    else if (g->ready & (1u << side))
        client_error(c, ref, "that side's setup is already in");
    else {
        int all = take_setup(s, g, side, text, err, sizeof err);
        if (all < 0) {
            client_error(c, ref, "%s", err);
            return;
        }
        json_t *m = json_pack("{s:s, s:I, s:i}", "type", "setup_ok", "game", (json_int_t)g->id,
                              "side", side);
        if (ref)
            json_object_set(m, "ref", ref);
        client_send(c, m);
        json_decref(m);
        if (all)
            begin_play(s, g);
    }
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
        g->setting_up = 1;
        v->ops->start(v, g->pos, 0);
    } else if (v->ops->parse(v, g->pos, sg.start, &ge) != 0 ||
               set_limit(v, g->pos, sg.move_limit) != 0) {
        snprintf(err, errlen, "game %lld: bad start: %s", (long long)id, ge.msg);
        goto fail;
    }
    memcpy(g->start, g->pos, v->ops->pos_size);
    for (int i = 0; i < v->nsides; i++) {
        g->clock[i] = sg.base_ms;
        if (ident_load(s, sg.players[i], &g->players[i]) != 0) {
            snprintf(err, errlen, "game %lld: unknown player", (long long)id);
            goto fail;
        }
    }
    if (sg.nmoves > 0) {
        moves = malloc((size_t)sg.nmoves * sizeof *moves);
        g->moves = malloc((size_t)sg.nmoves * sizeof *g->moves);
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
        pm->event[0] = 0;
        if (v->ops->describe)
            v->ops->describe(g->pos, m, pm->event, sizeof pm->event);
        _Alignas(16) unsigned char undo[GAME_POS_MAX];
        v->ops->make(g->pos, m, undo);
        g->clock[side] = moves[i].clock_ms;
    }
    g->nmoves = n;
    free(moves);
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
    for (int i = 0; i < n; i++) {
        char err[200];
        live *g = live_load(s, ids[i], err, sizeof err);
        if (!g) {
            fprintf(stderr, "citadel serve: %s (left as stored)\n", err);
            continue;
        }
        g->turn_began = net_mono_ms();
        live_insert(s, g);
        for (int k = 0; k < g->v->nsides; k++)
            if (!g->players[k].bot)
                g->gone[k] = g->turn_began;
        if (g->setting_up) {
            for (int k = 0; k < g->v->nsides; k++) {
                char key[64], text[128];
                setup_key(g, k, key, sizeof key);
                if (!g->players[k].bot &&
                    store_kv_get(s->st, g->players[k].id, key, text, sizeof text, &e) == 0) {
                    snprintf(g->setups[k], sizeof g->setups[k], "%s", text);
                    g->ready |= 1u << k;
                }
            }
            bots_set_up(s, g);
            arm(g);
            resumed++;
            continue;
        }
        game_result r = g->v->ops->result(g->pos);
        if (r.over) {
            finish(s, g, r.winner, r.reason);
            continue;
        }
        arm(g);
        kick_bot(s, g);
        resumed++;
    }
    free(ids);
    return resumed;
}

/* --- players coming and going ------------------------------------------------------ */

static void mark_player(srv *s, int64_t player, int64_t when)
{
    for (int b = 0; b < SRV_GAME_BUCKETS; b++)
        for (live *g = s->games[b]; g; g = g->next) {
            if (g->over)
                continue;
            int hit = 0;
            for (int i = 0; i < g->v->nsides; i++)
                if (g->players[i].id == player && !g->players[i].bot) {
                    g->gone[i] = when;
                    hit = 1;
                }
            if (hit)
                arm(g);
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

void live_sweep(srv *s)
{
    int64_t now = net_mono_ms();
    for (int b = 0; b < SRV_GAME_BUCKETS; b++)
        for (live **p = &s->games[b]; *p;) {
            live *g = *p;
            if (g->over && now - g->over_mono > SRV_KEEP_OVER_MS) {
                while (g->nwatch)
                    live_unwatch(g, g->watchers[0]);
                *p = g->next;
                s->nlive--;
                live_free(g);
            } else {
                p = &g->next;
            }
        }
}

/* --- requests ----------------------------------------------------------------------- */

/* The live game a request names, which the client plays; NULL after
 * telling the client why not. */
static live *my_game(srv *s, client *c, json_t *msg, json_t *ref, unsigned *mine)
{
    json_t *id = json_object_get(msg, "game");
    live *g = json_is_integer(id) ? live_find(s, json_integer_value(id)) : NULL;
    if (!g) {
        client_error(c, ref, "no such live game");
        return NULL;
    }
    *mine = live_sides_of(g, c);
    if (!*mine) {
        client_error(c, ref, "you do not play in game %lld", (long long)g->id);
        return NULL;
    }
    return g;
}

void live_on_move(srv *s, client *c, json_t *msg)
{
    json_t *ref = json_object_get(msg, "ref");
    unsigned mine;
    live *g = my_game(s, c, msg, ref, &mine);
    if (!g)
        return;
    const char *text = json_string_value(json_object_get(msg, "move"));
    json_t *ply = json_object_get(msg, "ply");
    if (!text || !json_is_integer(ply)) {
        client_error(c, ref, "a move needs game, ply (integer) and move (text)");
        return;
    }
    if (g->over) {
        client_error(c, ref, "the game is over");
        return;
    }
    int stm = live_to_move(g);
    if (!(mine & (1u << stm))) {
        client_error(c, ref, "not your turn");
        return;
    }
    if (json_integer_value(ply) != g->nmoves) {
        client_error(c, ref, "stale move: the game is at ply %d", g->nmoves);
        return;
    }
    apply_move(s, g, stm, text, c, ref);
}

void live_on_resign(srv *s, client *c, json_t *msg)
{
    json_t *ref = json_object_get(msg, "ref");
    unsigned mine;
    live *g = my_game(s, c, msg, ref, &mine);
    if (!g)
        return;
    if (g->over || g->v->nsides != 2) {
        client_error(c, ref, g->over ? "the game is over" : "resigning is for two-sided games");
        return;
    }
    /* one device playing both sides resigns for the side to move */
    int side = (mine & (mine - 1)) ? live_to_move(g) : __builtin_ctz(mine);
    finish(s, g, winner_against(g, side), "resign");
}

void live_on_draw(srv *s, client *c, json_t *msg)
{
    json_t *ref = json_object_get(msg, "ref");
    unsigned mine;
    live *g = my_game(s, c, msg, ref, &mine);
    if (!g)
        return;
    if (g->over) {
        client_error(c, ref, "the game is over");
        return;
    }
    unsigned all = (1u << g->v->nsides) - 1, people = 0;
    for (int i = 0; i < g->v->nsides; i++)
        if (!g->players[i].bot)
            people |= 1u << i;
    g->draw_offer |= mine;
    if ((g->draw_offer & people) == people && people == all) {
        finish(s, g, -1, "agreement");
        return;
    }
    if (people != all) {
        client_error(c, ref, "bots play on: they do not take draw offers");
        g->draw_offer &= ~mine;
        return;
    }
    json_t *m = json_pack("{s:s, s:I, s:o}", "type", "draw_offer", "game", (json_int_t)g->id,
                          "sides", live_sides_json(g, g->draw_offer));
    live_broadcast(g, m, 0);
    json_decref(m);
}

void live_on_rematch(srv *s, client *c, json_t *msg)
{
    json_t *ref = json_object_get(msg, "ref");
    unsigned mine;
    live *g = my_game(s, c, msg, ref, &mine);
    if (!g)
        return;
    if (!g->over) {
        client_error(c, ref, "the game is not over");
        return;
    }
    if (g->rematch_id) {
        live *r = live_find(s, g->rematch_id);
        if (r)
            live_watch(s, r, c);
        return;
    }
    unsigned people = 0;
    for (int i = 0; i < g->v->nsides; i++)
        if (!g->players[i].bot)
            people |= 1u << i;
    g->rematch_offer |= mine;
    if ((g->rematch_offer & people) != people) {
        json_t *m = json_pack("{s:s, s:I, s:o}", "type", "rematch_offer", "game",
                              (json_int_t)g->id, "sides", live_sides_json(g, g->rematch_offer));
        live_broadcast(g, m, 0);
        json_decref(m);
        return;
    }
    game_settings set = g->set;  /* the options too, when this server made the game */
    set.v = g->v;
    set.base_ms = g->g.base_ms;
    set.inc_ms = g->g.inc_ms;
    set.move_limit = g->g.move_limit;
    set.rated = g->g.rated;
    ident players[GAME_MAX_SIDES];
    int n = g->v->nsides;
    for (int i = 0; i < n; i++)
        players[i] = g->players[(i + 1) % n];  /* sides turn round */
    char err[160];
    live *r = live_start(s, &set, players, err, sizeof err);
    if (!r) {
        client_error(c, ref, "%s", err);
        return;
    }
    g->rematch_id = r->id;
    for (int i = 0; i < g->nwatch; i++)
        if (live_sides_of(g, g->watchers[i]))
            live_watch(s, r, g->watchers[i]);
    lobby_changed(s);
}
