/* live_setup.c -- the setup phase of games whose sides set up their pieces
 * in private (Stratego S3): each side's setup checked, kept in the store
 * until play begins, and the other watchers told it is in. The phase ends
 * in turn.c (setup_begin_play), which makes the start from them.
 *
 * The phase's invariant: while g->setting_up, the game has no start
 * position and no move; nothing but `setup` (and leaving) changes it, so a
 * move, a draw offer or a resignation cannot reach a game that has not
 * begun (live_requests.c refuses the first two; a resignation aborts it,
 * with no result and no rating). Each side's setup waits in the store
 * under setup_key, so a restart in the middle of the phase loses none; the
 * phase ends when the start is stored, and only then does anyone see it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live_inside.h"
#include "messages.h"
#include "../core/srv.h"

void setup_key(const live *g, int side, char *buf, size_t size)
{
    snprintf(buf, size, "game-setup:%lld:%d", (long long)g->id, side);
}

/* Takes side's setup; returns 1 when every side's is in (the caller then
 * begins play), 0 if not yet, -1 with err if refused. */
int setup_take(srv *s, live *g, int side, const char *text, char *err, size_t errlen)
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
    json_t *m = ready_message(g->id, live_sides_json(g, g->ready));
    live_broadcast(g, m, 0);
    json_decref(m);
    return live_all_ready(g);
}

int live_all_ready(const live *g)
{
    return g->ready == (1u << g->v->nsides) - 1;
}

