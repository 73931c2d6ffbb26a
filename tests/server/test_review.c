/* test_review.c -- `citadel serve`'s computer review of finished games
 * (src/server/play/review.h, docs/api.md) over real connections, as a page and
 * a stranger would use it: nobody has asked at first; a guest, a stranger
 * and a live game are refused and change nothing; a player's request is
 * queued, then done, with one score per position (the side to move
 * alternating, each best move one the server's own position API calls
 * legal); asking again changes nothing; everyone sees the review; an
 * account asks for at most its daily number; and a review the store holds
 * as waiting when the server starts is done by that server.
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
#include <sqlite3.h>

#include "wire.h"

#define SERVER_ARGS                                                                  \
    "--limit guests-per-hour=0 --limit new-games-per-hour=0 --limit messages-per-second=0 " \
    "--limit reviews-per-day=3"

static const fixture_spec fixture = { .args = SERVER_ARGS };

static void sleep_ms(int ms)
{
    struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

/* POST path with the cookie; the answer's status, its body parsed into
 * *out (NULL if it is not JSON). */
static int post(const char *path, const char *cookie, json_t **out)
{
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "POST", path, cookie, NULL, &r), 0);
    int status = r.status;
    *out = json_loads(r.body ? r.body : "", 0, NULL);
    http_resp_free(&r);
    return status;
}

/* A finished game of rampart-mini between a and b: `plies` moves, then
 * a's side resigns. Its id, the moves into moves[] (room for plies). */
static json_int_t finished_game(ws_conn *a, ws_conn *b, int plies, char moves[][32])
{
    duel d;
    start_duel(a, b, "\"variant\":\"rampart-mini\",\"base_ms\":0,\"inc_ms\":0,\"rated\":false", &d);
    json_t *last = json_incref(d.state);
    for (int ply = 0; ply < plies; ply++) {
        json_t *m = play(d.side[ply % 2], d.game, ply, first_legal(last, (size_t)ply * 5 + 1));
        snprintf(moves[ply], 32, "%s", json_string_value(json_object_get(m, "move")));
        json_t *other = ws_expect(d.side[(ply + 1) % 2], "move", WAIT);
        assert_non_null(other);
        json_decref(m);
        json_decref(last);
        last = other;
    }
    json_decref(last);
    json_decref(d.state);
    send_fmt(a, "{\"type\":\"resign\",\"game\":%lld}", (long long)d.game);
    json_t *end = ws_expect(b, "end", WAIT);
    assert_non_null(end);
    json_decref(end);
    return d.game;
}

static json_t *review_of(json_int_t game, int want_status)
{
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld/review", (long long)game);
    return get_json(path, NULL, want_status);
}

/* Waits for the review of game to be done (or failed); its answer. */
static json_t *review_done(json_int_t game)
{
    for (int waited = 0; waited < WAIT * 2; waited += 50) {
        json_t *r = review_of(game, 200);
        const char *st = json_string_value(json_object_get(r, "status"));
        if (strcmp(st, "done") == 0 || strcmp(st, "failed") == 0)
            return r;
        assert_true(strcmp(st, "queued") == 0 || strcmp(st, "running") == 0);
        json_decref(r);
        sleep_ms(50);
    }
    fail_msg("the review of game %lld was not done in time", (long long)game);
    return NULL;
}

/* The review answers what was played: a position per move and the start,
 * the side to move alternating from the start's, and each best move legal
 * in its position by the server's own POST /api/position. */
static void check_review(json_t *r, const char moves[][32], int plies)
{
    assert_string_equal(json_string_value(json_object_get(r, "status")), "done");
    assert_int_equal(jint(r, "depth"), 6);
    json_t *positions = json_object_get(r, "positions");
    assert_int_equal(json_array_size(positions), (size_t)plies + 1);
    int first = (int)jint(json_array_get(positions, 0), "side");
    for (int i = 0; i <= plies; i++) {
        json_t *p = json_array_get(positions, (size_t)i);
        assert_int_equal(jint(p, "side"), (first + i) % 2);
        const char *best = json_string_value(json_object_get(p, "best"));
        assert_non_null(best);  /* a resignation leaves no position over */
        json_t *req = json_pack("{s:s, s:[]}", "variant", "rampart-mini", "moves");
        for (int k = 0; k < i; k++)
            json_array_append_new(json_object_get(req, "moves"), json_string(moves[k]));
        char *body = json_dumps(req, 0);
        http_resp hr;
        assert_int_equal(http_request(HOST, server.port, "POST", "/api/position", NULL, body, &hr), 0);
        assert_int_equal(hr.status, 200);
        json_t *ans = json_loads(hr.body, 0, NULL);
        int legal = 0;
        json_t *l;
        size_t k;
        json_array_foreach(json_object_get(ans, "legal"), k, l)
            legal |= strcmp(json_string_value(json_object_get(l, "move")), best) == 0;
        assert_true(legal);
        json_decref(ans);
        http_resp_free(&hr);
        free(body);
        json_decref(req);
    }
}

static void test_review_asked_queued_done_and_limited(void **state)
{
    (void)state;
    char alice[65], bob[65], visitor[65];
    signup("rev_alice", alice);
    signup("rev_bob", bob);
    guest(visitor);
    ws_conn *a = connect_as(alice, NULL), *b = connect_as(bob, NULL);
    char moves[8][32];
    json_int_t game = finished_game(a, b, 6, moves);

    /* nobody has asked yet */
    json_t *r = review_of(game, 200);
    assert_string_equal(json_string_value(json_object_get(r, "status")), "none");
    assert_int_equal(json_array_size(json_object_get(r, "positions")), 0);
    assert_true(json_is_null(json_object_get(r, "requested_by")));
    json_decref(r);

    /* refused, and nothing changes: a guest, a stranger, no such game, a live game */
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld/review", (long long)game);
    json_t *e;
    assert_int_equal(post(path, visitor, &e), 401);
    assert_non_null(json_object_get(e, "error"));
    json_decref(e);
    assert_int_equal(post(path, NULL, &e), 401);
    json_decref(e);
    assert_int_equal(post("/api/games/999999/review", alice, &e), 404);
    json_decref(e);
    review_of(999999, 404);
    duel live;
    start_duel(a, b, "\"variant\":\"rampart-mini\",\"base_ms\":0,\"inc_ms\":0,\"rated\":false", &live);
    char live_path[64];
    snprintf(live_path, sizeof live_path, "/api/games/%lld/review", (long long)live.game);
    assert_int_equal(post(live_path, alice, &e), 409);
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "not over"));
    json_decref(e);
    json_decref(live.state);
    r = review_of(game, 200);
    assert_string_equal(json_string_value(json_object_get(r, "status")), "none");
    json_decref(r);

    /* bob asks: queued (or already under way), then done, for everyone */
    json_t *asked;
    assert_int_equal(post(path, bob, &asked), 202);
    const char *st = json_string_value(json_object_get(asked, "status"));
    assert_true(strcmp(st, "queued") == 0 || strcmp(st, "running") == 0 ||
                strcmp(st, "done") == 0);
    assert_string_equal(json_string_value(json_object_get(asked, "requested_by")), "rev_bob");
    json_decref(asked);
    r = review_done(game);
    check_review(r, (const char(*)[32])moves, 6);
    assert_string_equal(json_string_value(json_object_get(r, "requested_by")), "rev_bob");

    /* asking again changes nothing, and does not count against the day */
    for (int k = 0; k < 4; k++) {
        assert_int_equal(post(path, alice, &asked), 202);
        assert_true(json_equal(asked, r));
        json_decref(asked);
    }
    json_decref(r);

    /* three a day: bob's second and third games are reviewed, the fourth refused */
    json_int_t more[3];
    for (int k = 0; k < 3; k++)
        more[k] = finished_game(b, a, 2, moves);
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "/api/games/%lld/review", (long long)more[k]);
        json_t *ans;
        assert_int_equal(post(path, bob, &ans), k < 2 ? 202 : 429);
        json_decref(ans);
    }
    r = review_of(more[2], 200);
    assert_string_equal(json_string_value(json_object_get(r, "status")), "none");
    json_decref(r);
    for (int k = 0; k < 2; k++)
        json_decref(review_done(more[k]));
    ws_close(a);
    ws_close(b);
}

/* A review the store holds as waiting (the server stopped before it was
 * done) is done by the next server on that database. SQLite only: the
 * test reaches into the file to put it back to waiting. */
static void test_review_waiting_is_done_after_a_restart(void **state)
{
    (void)state;
    if (getenv("CITADEL_TEST_PG")) {
        skip();
        return;
    }
    char carol[65], dan[65];
    signup("rev_carol", carol);
    signup("rev_dan", dan);
    ws_conn *c = connect_as(carol, NULL), *d = connect_as(dan, NULL);
    char moves[8][32];
    json_int_t game = finished_game(c, d, 4, moves);
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld/review", (long long)game);
    json_t *ans;
    assert_int_equal(post(path, carol, &ans), 202);
    json_decref(ans);
    json_t *before = review_done(game);
    ws_close(c);
    ws_close(d);
    assert_int_equal(server_kill(&server, SIGTERM) >= 0, 1);

    sqlite3 *db;
    assert_int_equal(sqlite3_open(server.db, &db), SQLITE_OK);
    char sql[160];
    snprintf(sql, sizeof sql, "UPDATE reviews SET status = 0, scores = '' WHERE game = %lld",
             (long long)game);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_changes(db), 1);
    sqlite3_close(db);

    char dbpath[sizeof server.db];
    memcpy(dbpath, server.db, sizeof dbpath);
    assert_int_equal(server_start(&server, server_binary(), dbpath, SERVER_ARGS), 0);
    json_t *after = review_done(game);
    check_review(after, (const char(*)[32])moves, 4);
    assert_true(json_equal(json_object_get(before, "positions"), json_object_get(after, "positions")));
    json_decref(before);
    json_decref(after);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_review_asked_queued_done_and_limited),
        cmocka_unit_test(test_review_waiting_is_done_after_a_restart),
    };
    return fixture_run_group(tests, &fixture);
}
