/* live_setup.c -- the setup phase of games whose sides set up their pieces
 * in private (Stratego S3): setups taken, kept in the store until play
 * begins, and the start made from them.
 *
 * The phase's invariant: while g->setting_up, the game has no start
 * position and no move; nothing but `setup` (and leaving) changes it, so a
 * move, a draw offer or a resignation cannot reach a game that has not
 * begun (live.c refuses the first two; a resignation aborts it, with no
 * result and no rating). Each side's setup waits in the store under
 * setup_key, so a restart in the middle of the phase loses none; the
 * phase ends when the start is stored, and only then does anyone see it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live_inside.h"
#include "../core/srv.h"

void setup_key(const live *g, int side, char *buf, size_t size)
{
    snprintf(buf, size, "game-setup:%lld:%d", (long long)g->id, side);
}

/* Every setup is in: the start position is made and stored, then shown to
 * each client as its view, and the first side's clock starts. If the
 * store refuses the start, the phase goes on and begin_play is tried again
 * (live.c's retry); a setup the engine cannot start from aborts the game. */
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
    for (int i = 0; i < g->nwatch; i++) {
        client *c = client_find(s, g->watchers[i]);
        if (!c)
            continue;
        json_t *m = json_pack("{s:s, s:o}", "type", "game", "game", live_state(g, c));
        client_send(c, m);
        json_decref(m);
    }
    live_arm(g);
    live_kick_bot(s, g);
}

/* Takes side's setup; returns 1 when every side's is in (the caller then
 * begins play), 0 if not yet, -1 with err if refused. */
static int take_setup(srv *s, live *g, int side, const char *text, char *err, size_t errlen)
{
    game_error ge;
    if (strlen(text) >= sizeof g->setups[side]) {
        snprintf(err, errlen, "bad setup: too long");
        return -1;
    }
    if (g->v->ops->setup->check(text, &ge) != 0) {
        snprintf(err, errlen, "bad setup: %s", ge.msg);
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
    return live_all_ready(g);
}

int live_all_ready(const live *g)
{
    return g->ready == (1u << g->v->nsides) - 1;
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
            int r = take_setup(s, g, i, text, err, sizeof err);
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

void live_on_setup(srv *s, client *c, const cmsg *m)
{
    json_t *ref = m->ref;
    live *g = live_find(s, m->game);
    if (!g) {
        client_error(c, ref, "no such live game");
        return;
    }
    unsigned mine = live_sides_of(g, c);
    const char *text = m->text;
    int side = m->side;
    if (side < 0 && mine && !(mine & (mine - 1)))
        side = __builtin_ctz(mine);  /* one side played: the side need not be named */
    char err[200];
    if (!mine)
        client_error(c, ref, "you do not play in game %lld", (long long)g->id);
    else if (!g->setting_up || g->over || g->ending)
        client_error(c, ref, "the game is not in its setup phase");
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
        json_t *ok = json_pack("{s:s, s:I, s:i}", "type", "setup_ok", "game", (json_int_t)g->id,
                               "side", side);
        if (ref)
            json_object_set(ok, "ref", ref);
        client_send(c, ok);
        json_decref(ok);
        if (all)
            setup_begin_play(s, g);
    }
}
