/* check.c -- the invariant of core/srv.h made executable: every client
 * in the table once, every game it watches watching it back, every game
 * in both of its lists, every seek's owner and sitters still there. In
 * debug builds the WebSocket handlers run it after every event (through
 * srv_check and hooks.check), and the fuzz targets after every step.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../core/srv.h"
#include "live_inside.h"
#include "lobby.h"

#ifdef CITADEL_DEBUG
#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "citadel serve: %s:%d: broken link: %s\n", __FILE__, __LINE__, \
                    #cond);                                                             \
            abort();                                                                    \
        }                                                                               \
    } while (0)

static int watches(const client *c, int64_t game)
{
    for (int i = 0; i < c->nwatch; i++)
        if (c->watch[i] == game)
            return 1;
    return 0;
}

static int watched_by(const live *g, uint64_t c)
{
    for (int i = 0; i < g->nwatch; i++)
        if (g->watchers[i] == c)
            return 1;
    return 0;
}

void play_check(srv *s)
{
    int n = 0;
    for (client *c = s->clients; c; c = c->next, n++) {
        CHECK(client_find(s, c->id) == c);
        CHECK(!c->next || c->next->prev == c);
        for (int i = 0; i < c->nwatch; i++) {
            live *g = live_find(s, c->watch[i]);
            CHECK(g && watched_by(g, c->id));
        }
    }
    CHECK(n == s->nclients);
    int games = 0;
    for (live *g = s->all_games; g; g = g->all_next, games++) {
        CHECK(live_find(s, g->id) == g);
        CHECK(g->all_next == NULL || g->all_next->all_prev == g);
        for (int i = 0; i < g->nwatch; i++) {
            client *c = client_find(s, g->watchers[i]);
            CHECK(c && watches(c, g->id));
        }
    }
    CHECK(games == s->nlive);
    for (seek *k = s->seeks; k; k = k->next) {
        CHECK(client_find(s, k->owner));
        for (int i = 0; i < k->nseats; i++)
            CHECK(!k->sitter[i] || (k->seated[i] && client_find(s, k->sitter[i])));
    }
}
#else
void play_check(srv *s)
{
    (void)s;
}
#endif
