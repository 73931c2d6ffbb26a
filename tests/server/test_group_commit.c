/* test_group_commit.c -- the server's writes off the loop, over the wire.
 *
 * The server (a test build) runs with its writer slowed down
 * (CITADEL_WRITER_DELAY_MS: each batch waits 300 ms before it commits),
 * so that requests arrive while a game's write is still out. What must
 * hold: a request for a game waits for that game's write and then runs
 * against the position the write left (a resignation sent right behind a
 * move ends the game after the move, not instead of it); the answer to a
 * move comes only once it is stored; two rated games of one player ending
 * in the same instant are rated one after the other, the second from the
 * first's result; and games wait for nobody else's writes.
 *
 * Against a build without the delay (release) the same must hold; the
 * requests then rarely find a write still out.
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

#include <cmocka.h>

#include "wire.h"

#define ARGS "--limit signups-per-hour=0 --limit guests-per-hour=0 --limit new-games-per-hour=0"
#define DELAY_MS 300

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int log_says(const char *what)
{
    FILE *f = fopen(server.log, "r");
    if (!f)
        return 0;
    char line[512];
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, what) != NULL;
    fclose(f);
    return found;
}

/* The group's server runs with its writer slowed down (test builds only). */
static const fixture_spec fixture = { .args = ARGS, .env = "CITADEL_WRITER_DELAY_MS=300" };

/* 1 if the server has the writer's delay (its log says so: test builds). */
static int delayed(void)
{
    return log_says("each batch of writes waits");
}

/* The next message of c that is not chat or lobby news; NULL on timeout. */
static json_t *next_of_game(ws_conn *c)
{
    for (;;) {
        json_t *m = ws_recv_json(c, WAIT);
        if (!m)
            return NULL;
        const char *t = json_string_value(json_object_get(m, "type"));
        if (t && (strcmp(t, "lobby") == 0 || strcmp(t, "seeks") == 0 ||
                  strcmp(t, "chat") == 0 || strcmp(t, "presence") == 0)) {
            json_decref(m);
            continue;
        }
        return m;
    }
}

static void test_resign_behind_a_move_waits_for_it(void **state)
{
    (void)state;
    char ca[80], cb[80];
    signup("gc-ann", ca);
    signup("gc-ben", cb);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\",\"base_ms\":0,\"rated\":false", &d);
    ws_conn *mover = d.side[0];
    const char *mv = first_legal(d.state, 3);
    char move[32];
    snprintf(move, sizeof move, "%s", mv);
    long long t0 = mono_ms();
    send_fmt(mover, "{\"type\":\"move\",\"game\":%lld,\"ply\":0,\"move\":\"%s\",\"ref\":1}",
             (long long)d.game, move);
    send_fmt(mover, "{\"type\":\"resign\",\"game\":%lld,\"ref\":2}", (long long)d.game);
    /* first the move, answered with its ref, no sooner than its commit */
    json_t *m = next_of_game(mover);
    assert_non_null(m);
    if (strcmp(json_string_value(json_object_get(m, "type")), "move") != 0)
        fail_msg("expected the move first, got %s", json_dumps(m, 0));
    assert_int_equal(jint(m, "ply"), 0);
    assert_int_equal(jint(m, "ref"), 1);
    assert_string_equal(json_string_value(json_object_get(m, "move")), move);
    if (delayed())
        assert_true(mono_ms() - t0 >= DELAY_MS - 20);
    json_decref(m);
    /* then the resignation, run on the position after the move */
    m = next_of_game(mover);
    assert_non_null(m);
    if (strcmp(json_string_value(json_object_get(m, "type")), "end") != 0)
        fail_msg("expected the end, got %s", json_dumps(m, 0));
    json_t *res = json_object_get(m, "result");
    assert_string_equal(json_string_value(json_object_get(res, "reason")), "resign");
    assert_int_equal(jint(res, "winner"), 1);
    json_decref(m);
    /* the other side saw the same, in the same order */
    json_t *o = ws_expect(d.side[1], "move", WAIT);
    assert_non_null(o);
    json_decref(o);
    o = ws_expect(d.side[1], "end", WAIT);
    assert_non_null(o);
    json_decref(o);
    /* and the store holds the game as told: one move, then the end */
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld", (long long)d.game);
    json_t *g = get_json(path, NULL, 200);
    assert_int_equal(json_array_size(json_object_get(g, "moves")), 1);
    json_decref(g);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

static void test_two_ends_at_once_rate_one_after_the_other(void **state)
{
    (void)state;
    char cp[80], cq[80], cr[80];
    signup("gc-pat", cp);
    signup("gc-quinn", cq);
    signup("gc-robin", cr);
    ws_conn *p1 = connect_as(cp, NULL), *p2 = connect_as(cp, NULL);
    ws_conn *q = connect_as(cq, NULL), *r = connect_as(cr, NULL);
    duel d1, d2;
    const char *rated = "\"variant\":\"rampart\",\"base_ms\":60000,\"inc_ms\":0,\"rated\":true";
    start_duel(q, p1, rated, &d1);
    start_duel(r, p2, rated, &d2);
    /* quinn and robin resign in the same instant: pat wins both */
    send_fmt(q, "{\"type\":\"resign\",\"game\":%lld}", (long long)d1.game);
    send_fmt(r, "{\"type\":\"resign\",\"game\":%lld}", (long long)d2.game);
    json_t *e1 = ws_expect(p1, "end", WAIT), *e2 = ws_expect(p2, "end", WAIT);
    assert_non_null(e1);
    assert_non_null(e2);
    json_decref(e1);
    json_decref(e2);
    /* both games count, and the second was rated from the first's result */
    int games;
    json_t *pj = player_json("gc-pat");
    double pat = rating_of(pj, "rampart", &games);
    assert_int_equal(games, 2);
    json_t *hist = json_object_get(json_object_get(pj, "history"), "rampart");
    assert_int_equal(json_array_size(hist), 2);
    json_t *h0 = json_array_get(hist, 0), *h1 = json_array_get(hist, 1);
    double after0 = json_real_value(json_object_get(h0, "after"));
    double before1 = json_real_value(json_object_get(h1, "before"));
    assert_true(after0 > 1500);
    assert_true(before1 == after0);
    assert_true(pat == json_real_value(json_object_get(h1, "after")));
    assert_true(pat > after0);
    json_decref(pj);
    json_decref(d1.state);
    json_decref(d2.state);
    ws_close(p1);
    ws_close(p2);
    ws_close(q);
    ws_close(r);
}

/* A connection's messages sent before the server has read its session
 * (on the reader, slowed down here like the writer) wait, and run in order
 * after its hello; the 17th before the hello closes the connection. */
static void test_messages_before_the_hello_wait_in_order(void **state)
{
    (void)state;
    char cookie[80];
    guest(cookie);
    ws_conn *c = ws_connect(HOST, server.port, "/ws", cookie, NULL);
    assert_non_null(c);
    for (int i = 1; i <= 3; i++)
        send_fmt(c, "{\"type\":\"ping\",\"ref\":%d}", i);
    int hello = 0, next = 1;
    while (next <= 3) {
        json_t *m = ws_recv_json(c, WAIT);
        assert_non_null(m);
        const char *type = json_string_value(json_object_get(m, "type"));
        if (strcmp(type, "hello") == 0) {
            hello = 1;
        } else if (strcmp(type, "pong") == 0) {
            assert_true(hello);  /* nothing is answered before the hello */
            assert_int_equal(jint(m, "ref"), next);
            next++;
        }
        json_decref(m);
    }
    ws_close(c);
    if (!delayed())
        skip();  /* without the delay the session is read before 17 can arrive */
    c = ws_connect(HOST, server.port, "/ws", cookie, NULL);
    assert_non_null(c);
    for (int i = 1; i <= 17; i++)
        send_fmt(c, "{\"type\":\"ping\",\"ref\":%d}", i);
    json_t *m;
    while ((m = ws_recv_json(c, WAIT)) != NULL) {
        assert_string_not_equal(json_string_value(json_object_get(m, "type")), "pong");
        json_decref(m);
    }
    assert_true(ws_is_closed(c));
    ws_close(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resign_behind_a_move_waits_for_it),
        cmocka_unit_test(test_two_ends_at_once_rate_one_after_the_other),
        cmocka_unit_test(test_messages_before_the_hello_wait_in_order),
    };
    return fixture_run_group(tests, &fixture);
}
