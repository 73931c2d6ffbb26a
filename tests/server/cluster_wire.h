/* cluster_wire.h -- what the tests of several servers on one database
 * (test_cluster.c, test_cluster_attacks.c) share: which server the next
 * request goes to, the skip without PostgreSQL, a player made on one
 * server, and the next message of a game.
 *
 * Static inline; include after <cmocka.h> and "community_wire.h".
 */
#ifndef CITADEL_TEST_CLUSTER_WIRE_H
#define CITADEL_TEST_CLUSTER_WIRE_H

#include <stdlib.h>

#include "community_wire.h"

/* The next requests go to server i of the group. */
static inline void use(int i)
{
    server = servers[i];
}

/* Skips the test unless CITADEL_TEST_PG names a database. */
static inline void need_pg(void)
{
    if (!getenv("CITADEL_TEST_PG"))
        skip();
}

/* A new account on server i, and a connection to it there. */
static inline ws_conn *player_on(int i, const char *name, char *cookie)
{
    use(i);
    signup(name, cookie);
    return connect_as(cookie, NULL);
}

/* The next message of type `type` on c whose "game" (or game.id) is game. */
static inline json_t *expect_for(ws_conn *c, const char *type, json_int_t game, int ms)
{
    for (;;) {
        json_t *m = ws_expect(c, type, ms);
        if (!m)
            return NULL;
        json_t *g = json_object_get(m, "game");
        json_int_t id = json_is_integer(g) ? json_integer_value(g) : jint(g, "id");
        if (id == game)
            return m;
        json_decref(m);
    }
}

/* a, on one server, seeks with `settings`; b, on another, accepts once its
 * server lists the seek (a server just started is known to the others only
 * from its first bus messages on: an accept before them finds no seek). */
static inline void duel_across(ws_conn *a, ws_conn *b, const char *settings, duel *d)
{
    send_fmt(b, "{\"type\":\"lobby\"}");
    send_fmt(a, "{\"type\":\"seek\",%s}", settings);
    json_t *sc = ws_expect(a, "seek_created", WAIT);
    assert_non_null(sc);
    json_int_t seek = jint(sc, "seek");
    json_decref(sc);
    int listed = 0;
    for (int tries = 0; tries < 50 && !listed; tries++) {
        json_t *l = ws_expect(b, "lobby", WAIT);
        assert_non_null(l);
        size_t i;
        json_t *k;
        json_array_foreach(json_object_get(l, "seeks"), i, k)
            listed |= jint(k, "id") == seek;
        json_decref(l);
    }
    if (!listed)
        fail_msg("seek %lld never listed on the other server", (long long)seek);
    send_fmt(b, "{\"type\":\"unlobby\"}");
    duel_accept(a, b, seek, d);
}

#endif
