/* test_cluster.c -- several servers on one PostgreSQL database, over the
 * wire as the pages would use them: a seek made on one server is listed
 * and accepted on another, two players on different servers play a rated
 * game to its end while a spectator watches from a third, moderation done
 * through one server reaches the others, so does a credential revoked (a
 * token's stream, a session's WebSocket, a closed account's stream end on
 * the server that holds them), and a server killed mid-game has
 * its game taken over by another with nothing lost.
 * Skipped without CITADEL_TEST_PG (tests/pg.sh starts a cluster).
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "api_stream.h"
#include "cluster_wire.h"
#include "community_wire.h"
#include "wire.h"

#define SERVER_ARGS                                                                    \
    "--limit signups-per-hour=0 --limit guests-per-hour=0 --limit new-games-per-hour=0"

/* Talks to server i from now on (wire.h's helpers use `server`). */
/* Three servers on one database, only with CITADEL_TEST_PG. */
static const fixture_spec fixture = { .args = SERVER_ARGS, .count = 3, .pg_only = 1 };

/* A seek made on one server is in another server's lobby, and a player
 * there takes it. */
static void test_seek_on_one_server_accepted_on_another(void **state)
{
    (void)state;
    need_pg();
    char ca[80], cb[80];
    ws_conn *a = player_on(0, "lobby_ann", ca), *b = player_on(1, "lobby_ben", cb);
    send_fmt(b, "{\"type\":\"lobby\"}");
    json_t *l = ws_expect(b, "lobby", WAIT);
    assert_non_null(l);
    json_decref(l);
    send_fmt(a, "{\"type\":\"seek\",\"variant\":\"rampart\",\"base_ms\":300000,\"inc_ms\":0}");
    json_t *sc = ws_expect(a, "seek_created", WAIT);
    assert_non_null(sc);
    json_int_t seek = jint(sc, "seek");
    json_decref(sc);
    int listed = 0;
    for (int tries = 0; tries < 20 && !listed; tries++) {
        l = ws_expect(b, "lobby", WAIT);
        assert_non_null(l);
        size_t i;
        json_t *k;
        json_array_foreach(json_object_get(l, "seeks"), i, k)
            listed |= jint(k, "id") == seek &&
                      strcmp(json_string_value(json_object_get(json_object_get(k, "player"),
                                                               "name")),
                             "lobby_ann") == 0;
        json_decref(l);
    }
    assert_true(listed);
    send_fmt(b, "{\"type\":\"accept\",\"seek\":%lld}", (long long)seek);
    json_t *ga = ws_expect(a, "game", WAIT), *gb = ws_expect(b, "game", WAIT);
    assert_non_null(ga);
    assert_non_null(gb);
    json_int_t game = jint(json_object_get(ga, "game"), "id");
    assert_int_equal(jint(json_object_get(gb, "game"), "id"), game);
    json_decref(ga);
    json_decref(gb);
    ws_close(a);
    ws_close(b);
}

/* A Keeps & Moats table opened on one server, its open seats taken by
 * players on the two others: the game starts, and every sitter is shown it. */
static void test_table_on_one_server_seats_taken_on_others(void **state)
{
    (void)state;
    need_pg();
    char ca[80], cb[80], cc[80];
    ws_conn *a = player_on(0, "table_ann", ca), *b = player_on(1, "table_ben", cb);
    ws_conn *c = player_on(2, "table_cat", cc);
    send_fmt(a, "{\"type\":\"table\",\"variant\":\"keeps-moats\",\"options\":{\"GameType\":2},"
                "\"seats\":[\"me\",\"open\",\"bot-capture\",\"open\"]}");
    json_t *tc = ws_expect(a, "table_created", WAIT);
    assert_non_null(tc);
    json_int_t table = jint(tc, "table");
    json_decref(tc);
    send_fmt(b, "{\"type\":\"sit\",\"table\":%lld,\"seat\":1}", (long long)table);
    send_fmt(c, "{\"type\":\"sit\",\"table\":%lld,\"seat\":3}", (long long)table);
    json_t *ga = ws_expect(a, "game", WAIT), *gb = ws_expect(b, "game", WAIT),
           *gc = ws_expect(c, "game", WAIT);
    assert_non_null(ga);
    assert_non_null(gb);
    assert_non_null(gc);
    json_int_t game = jint(json_object_get(ga, "game"), "id");
    assert_int_equal(jint(json_object_get(gb, "game"), "id"), game);
    assert_int_equal(jint(json_object_get(gc, "game"), "id"), game);
    json_decref(ga);
    json_decref(gb);
    json_decref(gc);
    ws_close(a);
    ws_close(b);
    ws_close(c);
}

/* Two players on two servers play a rated game to its end; a spectator on
 * a third sees every move and the end; both ratings change. */
static void test_two_servers_play_a_rated_game_watched_from_a_third(void **state)
{
    (void)state;
    need_pg();
    char ca[80], cb[80], cc[80];
    ws_conn *a = player_on(0, "far_ann", ca), *b = player_on(1, "far_ben", cb);
    ws_conn *watcher = player_on(2, "far_cat", cc);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\",\"base_ms\":300000,\"inc_ms\":2000,\"rated\":true",
               &d);
    send_fmt(watcher, "{\"type\":\"watch\",\"game\":%lld}", (long long)d.game);
    json_t *seen = expect_for(watcher, "game", d.game, WAIT);
    assert_non_null(seen);
    assert_int_equal(jint(json_object_get(seen, "game"), "ply"), 0);
    json_decref(seen);

    json_t *last = json_incref(d.state);
    for (int ply = 0; ply < 6; ply++) {
        json_t *m = play(d.side[ply % 2], d.game, ply, first_legal(last, (size_t)ply * 3 + 1));
        const char *move = json_string_value(json_object_get(m, "move"));
        json_t *w = expect_for(watcher, "move", d.game, WAIT);
        assert_non_null(w);
        assert_int_equal(jint(w, "ply"), ply);
        assert_string_equal(json_string_value(json_object_get(w, "move")), move);
        json_decref(w);
        json_decref(m);
        json_decref(last);
        last = expect_for(d.side[(ply + 1) % 2], "move", d.game, WAIT);
        assert_non_null(last);
    }
    json_decref(last);
    /* the player on the second server resigns */
    ws_conn *quitter = b;
    int quitter_side = d.side[0] == b ? 0 : 1;
    send_fmt(quitter, "{\"type\":\"resign\",\"game\":%lld}", (long long)d.game);
    for (int i = 0; i < 3; i++) {
        ws_conn *c = i == 0 ? a : i == 1 ? b : watcher;
        json_t *end = expect_for(c, "end", d.game, WAIT);
        assert_non_null(end);
        json_t *res = json_object_get(end, "result");
        assert_int_equal(jint(res, "winner"), quitter_side ^ 1);
        json_decref(end);
    }
    /* the ratings, as any server tells them */
    use(2);
    int games = 0;
    json_t *p = player_json("far_ann");
    double ra = rating_of(p, "rampart", &games);
    json_decref(p);
    assert_int_equal(games, 1);
    p = player_json("far_ben");
    double rb = rating_of(p, "rampart", &games);
    json_decref(p);
    assert_int_equal(games, 1);
    assert_true(ra > 1500.0 && rb < 1500.0);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
    ws_close(watcher);
}

/* Moderation done through one server reaches the others: a chat line of a
 * game of the first server, said through the second and hidden by a
 * moderator through the third, leaves the players' room; an account closed
 * through the first loses its connection on the second. */
static void test_moderation_reaches_every_server(void **state)
{
    (void)state;
    need_pg();
    char ca[80], cb[80], mod[80], adm[80], cz[80], path[128];
    ws_conn *a = player_on(0, "mod_ann", ca), *b = player_on(1, "mod_ben", cb);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\"", &d);
    send_fmt(b, "{\"type\":\"chat\",\"game\":%lld,\"text\":\"cluster quux\"}",
             (long long)d.game);
    json_t *heard = expect_for(a, "chat", d.game, WAIT);
    assert_non_null(heard);
    json_t *line = json_object_get(heard, "line");
    assert_string_equal(json_string_value(json_object_get(line, "text")), "cluster quux");
    json_int_t id = jint(line, "id");
    json_decref(heard);
    use(2);
    make_staff("mod_mia", "moderator", mod);
    json_t *ok = ok_call("POST", path_fmt(path, sizeof path, "/api/mod/chat/%lld/hide",
                                          (long long)id),
                         mod, json_pack("{s:b, s:s}", "hidden", 1, "reason", "rude"));
    json_decref(ok);
    ws_conn *both[2] = { a, b };
    for (int k = 0; k < 2; k++) {
        json_t *h = ws_expect(both[k], "chat_hidden", WAIT);
        assert_non_null(h);
        assert_int_equal(jint(h, "id"), id);
        json_decref(h);
    }
    json_decref(d.state);
    ws_close(a);
    ws_close(b);

    ws_conn *z = player_on(1, "mod_zed", cz);
    use(0);
    make_staff("mod_ada", "admin", adm);
    json_decref(ok_call("POST", "/api/admin/players/mod_zed/close", adm,
                        json_pack("{s:s}", "reason", "spam")));
    json_t *m;
    while ((m = ws_recv_json(z, WAIT)))
        json_decref(m);
    assert_true(ws_is_closed(z));
    ws_close(z);
}

/* A credential revoked through one server ends what it opened on
 * another, at once: a token's event stream, a signed-out session's
 * WebSocket, a closed account's event stream. */
static void test_revocation_reaches_every_server(void **state)
{
    (void)state;
    need_pg();
    char ca[80], cb[80], adm[80], tok[64], btok[64], path[96];
    use(0);
    signup("rev_ann", ca);
    signup("rev_ben", cb);
    json_int_t id = token_new(ca, "board:play", tok);
    token_new(cb, "board:play", btok);
    use(1);   /* everything it opened is on server 1 */
    stream s, sb;
    stream_open(&s, tok);
    stream_open(&sb, btok);
    ws_conn *w = connect_as(ca, NULL);
    use(0);
    json_decref(ok_call("DELETE", path_fmt(path, sizeof path, "/api/account/tokens/%lld",
                                           (long long)id), ca, NULL));
    if (!stream_wait_end(&s, PROMPT_MS))
        fail_msg("a token deleted on server 0: its stream on server 1 is still open");
    json_decref(ok_call("POST", "/api/signout", ca, NULL));
    long long deadline = wall_ms() + PROMPT_MS;
    while (!ws_is_closed(w) && wall_ms() < deadline)
        free(ws_recv_text(w, 100));
    if (!ws_is_closed(w))
        fail_msg("a session signed out on server 0: its WebSocket on server 1 is still open");
    assert_false(stream_wait_end(&sb, 200));   /* rev_ben's is not ann's to end */
    use(2);
    make_staff("rev_ada", "admin", adm);
    json_decref(ok_call("POST", "/api/admin/players/rev_ben/close", adm,
                        json_pack("{s:s}", "reason", "revoked")));
    if (!stream_wait_end(&sb, PROMPT_MS))
        fail_msg("an account closed on server 2: its stream on server 1 is still open");
    ws_close(w);
    stream_close(&s);
    stream_close(&sb);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The server that owns a game is killed mid-game: another takes it over
 * within 10 s, at its last acknowledged move and clocks, and the players,
 * one of them reconnecting to the surviving server, play on. Runs last:
 * it kills servers[0]. */
static void test_sigkill_owner_another_server_takes_over(void **state)
{
    (void)state;
    need_pg();
    char ca[80], cb[80];
    ws_conn *a = player_on(0, "kill_ann", ca), *b = player_on(1, "kill_ben", cb);
    duel d;
    /* the seek is on servers[0], so the game is its */
    start_duel(a, b, "\"variant\":\"rampart-xl\",\"base_ms\":600000,\"inc_ms\":5000,\"rated\":true",
               &d);
    json_t *last = json_incref(d.state);
    char moves[5][32];
    for (int ply = 0; ply < 5; ply++) {
        json_t *m = play(d.side[ply % 2], d.game, ply, first_legal(last, (size_t)ply * 5 + 1));
        snprintf(moves[ply], sizeof moves[ply], "%s",
                 json_string_value(json_object_get(m, "move")));
        json_decref(m);
        json_decref(last);
        last = expect_for(d.side[(ply + 1) % 2], "move", d.game, WAIT);
        assert_non_null(last);
    }
    json_decref(last);
    double killed = now_s();
    server_kill(&servers[0], SIGKILL);
    ws_drop(a);
    /* the player on the surviving server is shown the game again by the
     * server that adopted it */
    json_t *g = expect_for(b, "game", d.game, 20000);
    double taken = now_s() - killed;
    assert_non_null(g);
    fprintf(stderr, "   the game was taken over %.1f s after the kill\n", taken);
    assert_true(taken < 10.0);
    json_t *game = json_object_get(g, "game");
    assert_int_equal(jint(game, "ply"), 5);
    for (int i = 0; i < 5; i++)
        assert_string_equal(json_string_value(json_array_get(json_object_get(game, "moves"),
                                                             (size_t)i)),
                            moves[i]);
    json_decref(g);
    /* the other player's page reconnects, to the surviving server */
    use(1);
    json_t *hello;
    a = connect_as(ca, &hello);
    json_t *mine = json_object_get(hello, "games");
    assert_int_equal(json_array_size(mine), 1);
    assert_int_equal(json_integer_value(json_array_get(mine, 0)), d.game);
    json_decref(hello);
    send_fmt(a, "{\"type\":\"watch\",\"game\":%lld}", (long long)d.game);
    g = expect_for(a, "game", d.game, WAIT);
    assert_non_null(g);
    ws_conn *mover = json_object_get(json_object_get(g, "game"), "legal") ? a : b;
    json_decref(g);
    if (mover == b) {
        send_fmt(b, "{\"type\":\"watch\",\"game\":%lld}", (long long)d.game);
        g = expect_for(b, "game", d.game, WAIT);
    } else {
        send_fmt(a, "{\"type\":\"watch\",\"game\":%lld}", (long long)d.game);
        g = expect_for(a, "game", d.game, WAIT);
    }
    assert_non_null(g);
    json_t *m = play(mover, d.game, 5, first_legal(json_object_get(g, "game"), 0));
    json_decref(m);
    json_decref(g);
    ws_conn *other = mover == a ? b : a;
    json_t *seen = expect_for(other, "move", d.game, WAIT);
    assert_non_null(seen);
    assert_int_equal(jint(seen, "ply"), 5);
    json_decref(seen);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seek_on_one_server_accepted_on_another),
        cmocka_unit_test(test_table_on_one_server_seats_taken_on_others),
        cmocka_unit_test(test_two_servers_play_a_rated_game_watched_from_a_third),
        cmocka_unit_test(test_moderation_reaches_every_server),
        cmocka_unit_test(test_revocation_reaches_every_server),
        cmocka_unit_test(test_sigkill_owner_another_server_takes_over),
    };
    return fixture_run_group(tests, &fixture);
}
