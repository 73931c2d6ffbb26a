/* live_requests.c -- what players ask of a live game: a move, a
 * resignation, a draw, a rematch, a private setup (docs/api.md).
 *
 * Each request is checked here against who asks (a side it plays, the
 * game in play) and then handed to turn.c, which alone changes a game's
 * state, in its one order: checked by the game, stored, made, told. A
 * request refused changes nothing and is answered with an error carrying
 * its ref.
 *
 * Resigning.  In two-sided games a resignation ends the game. In games
 * whose sides may resign and leave the others playing (game.h `resign`:
 * Keeps & Moats), it is the game's resignation move for one side, stored
 * and told like any move, and the game goes on until its board says it is
 * over. A request names the side with `side`; without it, a client
 * playing several sides resigns the side to move if it is theirs, else
 * the first of theirs still in (in two-sided games: the side to move).
 */
#include <stdio.h>
#include <string.h>

#include "live_inside.h"
#include "lobby.h"
#include "messages.h"
#include "../core/srv.h"
/* The live game a request names, which the client plays; NULL after
 * telling the client why not. */
static live *my_game(srv *s, client *c, const cmsg *m, unsigned *mine)
{
    live *g = live_find(s, m->game);
    if (!g) {
        client_error(c, m->ref, "no such live game");
        return NULL;
    }
    *mine = live_sides_of(g, c);
    if (!*mine) {
        client_error(c, m->ref, "you do not play in game %lld", (long long)g->id);
        return NULL;
    }
    return g;
}

/* 1 if the game has not ended (nor is ending); else 0 after saying so. */
static int not_over(live *g, client *c, json_t *ref)
{
    if (g->over || g->ending) {
        client_error(c, ref, "the game is over");
        return 0;
    }
    return 1;
}

/* 1 if the game takes moves and offers now; else 0 after saying why. */
static int in_play(live *g, client *c, json_t *ref)
{
    if (!not_over(g, c, ref))
        return 0;
    if (g->setting_up) {
        client_error(c, ref, "the game has not begun: the setups are not all in");
        return 0;
    }
    return 1;
}

void live_on_move(srv *s, client *c, const cmsg *m)
{
    json_t *ref = m->ref;
    unsigned mine;
    live *g = my_game(s, c, m, &mine);
    if (!g || !in_play(g, c, ref))
        return;
    int stm = live_to_move(g);
    if (!(mine & (1u << stm))) {
        client_error(c, ref, "not your turn");
        return;
    }
    if (m->ply != g->nmoves) {
        client_error(c, ref, "stale move: the game is at ply %d", g->nmoves);
        return;
    }
    live_apply_move(s, g, stm, m->text, c, ref);
}

/* The team that wins when `side` gives up a two-sided game: the other. */
static int winner_against(const live *g, int side)
{
    return g->v->ops->team_of(g->pos, side ^ 1);
}

/* `side` (mine, still in) resigns a game that goes on without it: its
 * resignation move is stored and told like any move. On its own turn the
 * side is charged the time it took, and the next side's turn begins; out
 * of turn, the side to move's turn and clock go on as they were. */
static void resign_side(srv *s, live *g, client *c, json_t *ref, int side, game_move m)
{
    int stm = live_to_move(g);
    int64_t clock = g->clk.left[stm], now = net_mono_ms();
    if (side == stm) {
        if (gclock_fallen(&g->clk, stm, now)) {
            /* the flag fell first */
            gclock_set(&g->clk, stm, 0);
            live_end_by_clock(s, g, stm, "time");
            return;
        }
        clock = gclock_charge(&g->clk, stm, now, 0);
    }
    live_commit(s, g, m, clock, side == stm, c, ref, "resignation");
}

void live_on_resign(srv *s, client *c, const cmsg *m)
{
    json_t *ref = m->ref;
    unsigned mine;
    live *g = my_game(s, c, m, &mine);
    if (!g || !not_over(g, c, ref))
        return;
    int side = m->side;
    if (side >= 0 && (side >= g->v->nsides || !(mine & (1u << side)))) {
        client_error(c, ref, "side: one of the sides you play (%d-%d in turn order)", 0,
                     g->v->nsides - 1);
        return;
    }
    if (g->setting_up) {
        /* leaving before the game began: it never happened, for nobody's rating */
        live_end(s, g, STORE_GAME_ABORTED, -1, "aborted", c, ref, "resignation");
        return;
    }
    const game_ops *ops = g->v->ops;
    int stm = live_to_move(g);
    if (ops->resign) {
        game_move mv = GAME_MOVE_NONE;
        game_error ge = { "" };
        if (side >= 0) {
            if (ops->resign(g->pos, side, &mv, &ge) != 0) {
                client_error(c, ref, "%s", ge.msg);
                return;
            }
        } else {
            /* the side to move if it is theirs, else their first side still in */
            if ((mine & (1u << stm)) && ops->resign(g->pos, stm, &mv, &ge) == 0)
                side = stm;
            for (int i = 0; side < 0 && i < g->v->nsides; i++)
                if ((mine & (1u << i)) && ops->resign(g->pos, i, &mv, &ge) == 0)
                    side = i;
            if (side < 0) {
                client_error(c, ref, "none of your sides is still in game %lld", (long long)g->id);
                return;
            }
        }
        resign_side(s, g, c, ref, side, mv);
        return;
    }
    if (g->v->nsides != 2) {
        client_error(c, ref, "%s has no resigning", g->v->title);
        return;
    }
    /* one device playing both sides resigns for the side to move */
    if (side < 0)
        side = (mine & (mine - 1)) ? stm : __builtin_ctz(mine);
    live_end(s, g, STORE_GAME_OVER, winner_against(g, side), "resign", c, ref, "resignation");
}

/* A draw needs the offer of every person still in, and no bot still in
 * (bots never take offers); sides out (resigned, their King taken) have
 * no say. */
void live_on_draw(srv *s, client *c, const cmsg *cm)
{
    json_t *ref = cm->ref;
    unsigned mine;
    live *g = my_game(s, c, cm, &mine);
    if (!g || !in_play(g, c, ref))
        return;
    unsigned in = 0, people = 0;
    for (int i = 0; i < g->v->nsides; i++)
        if (live_side_in(g, i)) {
            in |= 1u << i;
            if (!g->players[i].bot)
                people |= 1u << i;
        }
    if (!(mine & in)) {
        client_error(c, ref, "none of your sides is still in game %lld", (long long)g->id);
        return;
    }
    if (cm->decline) {
        /* the others' offers go (the decliner's own, if any, stands), and
         * every player and spectator hears who declined */
        if (!(g->draw_offer & ~mine)) {
            client_error(c, ref, "there is no draw offer to decline in game %lld", (long long)g->id);
            return;
        }
        g->draw_offer &= mine;
        json_t *d = draw_declined_message(g->id, live_sides_json(g, g->draw_offer),
                                          live_sides_json(g, mine & in));
        live_broadcast(g, d, 0);
        json_decref(d);
        return;
    }
    if (people != in) {
        client_error(c, ref, "bots play on: they do not take draw offers");
        return;
    }
    g->draw_offer |= mine & in;
    if ((g->draw_offer & people) == people) {
        live_end(s, g, STORE_GAME_OVER, -1, "agreement", c, ref, "draw");
        return;
    }
    json_t *m = draw_offer_message(g->id, live_sides_json(g, g->draw_offer));
    live_broadcast(g, m, 0);
    json_decref(m);
}

void live_on_abort(srv *s, client *c, const cmsg *cm)
{
    json_t *ref = cm->ref;
    unsigned mine;
    live *g = my_game(s, c, cm, &mine);  /* a spectator is refused there */
    if (!g || !not_over(g, c, ref))
        return;
    /* Until every side has made ABORT_BEFORE moves (a side's first moves
     * may be its opening, or a setup's first test) either player may call
     * the game off; after that a player who wants out resigns. */
    if (g->nmoves >= ABORT_BEFORE * g->v->nsides) {
        client_error(c, ref, "the game can be aborted only before each side has made %d moves; "
                             "resign instead", ABORT_BEFORE);
        return;
    }
    live_end(s, g, STORE_GAME_ABORTED, -1, "aborted", c, ref, "abort");
}

/* A game of hidden pieces played on one device stands its clocks while
 * the page covers the board for the hand-over (turn.c live_hold); the
 * player who takes the device uncovers it, and the turn begins then. */
void live_on_uncover(srv *s, client *c, const cmsg *cm)
{
    unsigned mine;
    live *g = my_game(s, c, cm, &mine);
    if (!g || !not_over(g, c, cm->ref))
        return;
    if (g->clk.held && (mine >> live_to_move(g) & 1u))
        live_release(s, g);
}

void live_on_rematch(srv *s, client *c, const cmsg *cm)
{
    json_t *ref = cm->ref;
    unsigned mine;
    live *g = my_game(s, c, cm, &mine);
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
        json_t *m = rematch_offer_message(g->id, live_sides_json(g, g->rematch_offer));
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
    /* the players are shown the new game; spectators the old one again,
     * which now names its rematch, so that their page follows */
    for (int i = 0; i < g->nwatch; i++) {
        client *w = client_find(s, g->watchers[i]);
        if (w)
            live_watch(s, live_sides_of(g, w) ? r : g, w);
    }
    lobby_changed(s);
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
        int all = setup_take(s, g, side, text, err, sizeof err);
        if (all < 0) {
            client_error(c, ref, "%s", err);
            return;
        }
        json_t *ok = setup_ok_message(g->id, side, ref);
        client_send(c, ok);
        json_decref(ok);
        if (all)
            setup_begin_play(s, g);
    }
}
