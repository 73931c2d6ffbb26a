/* test_guard.c -- `citadel serve` under attack and faults, over real
 * connections: each test is one way a stranger (or bad luck) broke the
 * server before, done again from outside. A crash in the server fails the
 * tests after it; under the sanitizer build (tests/run.sh runs both), so
 * does any use of freed memory.
 *
 * Tests that need the server started with limits of their own start it
 * themselves; the others share the group's server. Addresses: any
 * 127.x.y.z reaches the server on Linux loopback, so client_source()
 * makes each test's visitors come from addresses of their own. Ruling
 * named: S3 (private setups).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libpq-fe.h>
#include <sqlite3.h>

#include "wire.h"

/* Generous limits for tests that are not about limits. */
#define OPEN_LIMITS                                                                      \
    "--limit signups-per-hour=0 --limit guests-per-hour=0 --limit new-games-per-hour=0"
#define GROUP_ARGS "--abandon-ms 4000 " OPEN_LIMITS

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static const fixture_spec fixture = { .args = GROUP_ARGS };

/* The server answers, and its process is still the one started. */
static void assert_healthy(void)
{
    client_source(NULL);
    client_headers(NULL);
    json_t *h = get_json("/api/health", NULL, 200);
    json_decref(h);
    assert_int_equal(waitpid(server.pid, NULL, WNOHANG), 0);
}

static int status_of(const char *method, const char *path, const char *cookie,
                     const char *body, char *cookie_out)
{
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, method, path, cookie, body, &r), 0);
    int st = r.status;
    if (cookie_out)
        snprintf(cookie_out, 80, "%.79s", r.cookie);
    http_resp_free(&r);
    return st;
}

/* A raw request's whole answer (the server closes, or 3 s pass). */
static char *raw(const char *req, size_t *len, int *closed)
{
    char *resp;
    size_t n;
    int r = http_raw(HOST, server.port, req, strlen(req), &resp, &n, 3000);
    assert_true(r >= 0);
    if (len)
        *len = n;
    if (closed)
        *closed = r == 0;
    return resp;
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* --- 1. closing a client that watches several games -------------------------------- */

/* A spectator of three games, and one of two, vanish (one with a close
 * frame, one without); the games go on, get new spectators, end, and the
 * server is still well. Before, the close walked the watch list while
 * unwatching reordered it, and the other games kept the freed client. */
static void test_spectator_of_several_games_leaves_no_trace(void **state)
{
    (void)state;
    char cookie[6][80], cs[80], ct[80];
    ws_conn *p[6];
    duel d[3];
    for (int i = 0; i < 6; i++) {
        guest(cookie[i]);
        p[i] = connect_as(cookie[i], NULL);
    }
    for (int i = 0; i < 3; i++)
        start_duel(p[2 * i], p[2 * i + 1], "\"variant\":\"rampart\",\"base_ms\":0", &d[i]);
    guest(cs);
    guest(ct);
    ws_conn *s = connect_as(cs, NULL), *t = connect_as(ct, NULL);
    for (int i = 0; i < 3; i++) {
        send_fmt(s, "{\"type\":\"watch\",\"game\":%lld}", (long long)d[i].game);
        json_decref(ws_expect(s, "game", WAIT));
        if (i) {
            send_fmt(t, "{\"type\":\"watch\",\"game\":%lld}", (long long)d[i].game);
            json_decref(ws_expect(t, "game", WAIT));
        }
    }
    ws_close(s);
    ws_drop(t);
    sleep_ms(200);
    for (int i = 0; i < 3; i++) {
        json_t *last = json_incref(d[i].state);
        for (int ply = 0; ply < 4; ply++) {
            json_t *m = play(d[i].side[ply % 2], d[i].game, ply, first_legal(last, (size_t)ply));
            json_decref(m);
            json_decref(last);
            last = ws_expect(d[i].side[(ply + 1) % 2], "move", WAIT);
            assert_non_null(last);
        }
        json_decref(last);
        char cn[80];
        guest(cn);
        ws_conn *n = connect_as(cn, NULL);
        send_fmt(n, "{\"type\":\"watch\",\"game\":%lld}", (long long)d[i].game);
        json_decref(ws_expect(n, "game", WAIT));
        send_fmt(d[i].side[0], "{\"type\":\"resign\",\"game\":%lld}", (long long)d[i].game);
        json_t *end = ws_expect(n, "end", WAIT);
        assert_non_null(end);
        json_decref(end);
        ws_drop(n);
        json_decref(d[i].state);
    }
    for (int i = 0; i < 6; i++)
        ws_close(p[i]);
    assert_healthy();
}

/* --- 2. a body whose length is said twice ------------------------------------------- */

/* Content-Length beside Transfer-Encoding (the request-smuggling shape),
 * or chunked alone: one 400, the connection closed, and the request
 * pipelined behind it never answered. Before, answers came without end. */
static void test_two_body_lengths_get_one_answer(void **state)
{
    (void)state;
    static const char *const reqs[] = {
        "POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
        "GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /api/signin HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
        "Content-Length: 3\r\n\r\n5\r\nhello\r\n0\r\n\r\nGET /api/health HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /api/signin HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        "5\r\nhello\r\n0\r\n\r\nGET /api/health HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /api/health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
        "0\r\n\r\nGET /api/health HTTP/1.1\r\nHost: x\r\n\r\n",
    };
    for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
        size_t len;
        int closed;
        char *resp = raw(reqs[i], &len, &closed);
        if (count_of(resp, "HTTP/1.") != 1 || !closed)
            fprintf(stderr, "request %zu: %zu bytes, closed %d:\n%.400s\n", i, len, closed, resp);
        assert_int_equal(count_of(resp, "HTTP/1."), 1);
        assert_non_null(strstr(resp, " 400 "));
        assert_true(closed);
        assert_true(len < 4096);
        free(resp);
    }
    assert_healthy();
}

/* --- 3. S3: the setup phase takes setups and nothing else ---------------------------- */

static json_t *game_of(json_int_t id)
{
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld", (long long)id);
    return get_json(path, NULL, 200);
}

static const char *str(json_t *o, const char *key)
{
    const char *v = json_string_value(json_object_get(o, key));
    assert_non_null(v);
    return v;
}

static void restart(void)
{
    char db[256];
    snprintf(db, sizeof db, "%s", server.db);
    assert_int_not_equal(server_kill(&server, SIGTERM), -1);
    assert_int_equal(server_start(&server, server_binary(), db, GROUP_ARGS), 0);
}

/* S3: before both setups are in, a move or a draw offer is refused and
 * changes nothing; a restart in the middle of the phase loses no setup and
 * leaves a game that loads; and a resignation aborts a rated game that
 * never began, leaving every rating as it was. */
static void test_S3_setup_phase_takes_only_setups(void **state)
{
    (void)state;
    char ca[80], cb[80];
    signup("sasha", ca);
    signup("tomas", cb);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"stratego\",\"base_ms\":0,\"rated\":true", &d);
    json_t *g = game_of(d.game);
    assert_string_equal(str(g, "phase"), "setup");
    json_decref(g);
    for (int side = 0; side < 2; side++) {
        send_fmt(d.side[side], "{\"type\":\"move\",\"game\":%lld,\"ply\":0,\"move\":\"a4a5\"}",
                 (long long)d.game);
        assert_null(ws_expect(d.side[side], "move", 1000));
        assert_non_null(strstr(ws_last_error(d.side[side]), "not begun"));
        send_fmt(d.side[side], "{\"type\":\"draw\",\"game\":%lld}", (long long)d.game);
        assert_null(ws_expect(d.side[side], "draw_offer", 1000));
        assert_non_null(strstr(ws_last_error(d.side[side]), "not begun"));
    }
    g = game_of(d.game);
    assert_int_equal(jint(g, "ply"), 0);
    json_decref(g);
    /* one setup in, then a restart: the game comes back in its setup phase */
    send_fmt(d.side[0], "{\"type\":\"setup\",\"game\":%lld,\"setup\":\"%s\"}", (long long)d.game,
             library_setup(0));
    json_decref(ws_expect(d.side[0], "setup_ok", WAIT));
    ws_close(a);
    ws_close(b);
    json_decref(d.state);
    restart();
    g = game_of(d.game);
    assert_string_equal(str(g, "phase"), "setup");
    assert_int_equal(json_array_size(json_object_get(g, "ready")), 1);
    json_decref(g);
    json_t *hello;
    ws_conn *x = connect_as(ca, &hello), *y = connect_as(cb, NULL);
    assert_int_equal(json_array_size(json_object_get(hello, "games")), 1);
    json_decref(hello);
    ws_conn *second = NULL;  /* the one whose setup is still to come */
    for (int k = 0; k < 2; k++) {
        send_fmt(k ? y : x, "{\"type\":\"watch\",\"game\":%lld}", (long long)d.game);
        json_t *w = ws_expect(k ? y : x, "game", WAIT);
        assert_non_null(w);
        json_t *you = json_object_get(json_object_get(w, "game"), "you");
        if (json_integer_value(json_array_get(you, 0)) == 1)
            second = k ? y : x;
        json_decref(w);
    }
    assert_non_null(second);
    send_fmt(second, "{\"type\":\"setup\",\"game\":%lld,\"setup\":\"%s\"}", (long long)d.game,
             library_setup(1));
    /* both in: play begins, for both */
    json_t *ga = ws_expect(x, "game", WAIT), *gb = ws_expect(y, "game", WAIT);
    assert_non_null(ga);
    assert_non_null(gb);
    assert_string_equal(str(json_object_get(ga, "game"), "phase"), "play");
    json_decref(ga);
    json_decref(gb);

    /* a second rated game, resigned during its setup: aborted, unrated */
    duel e;
    start_duel(x, y, "\"variant\":\"stratego\",\"base_ms\":0,\"rated\":true", &e);
    send_fmt(e.side[1], "{\"type\":\"resign\",\"game\":%lld}", (long long)e.game);
    json_t *end = ws_expect(e.side[0], "end", WAIT);
    assert_non_null(end);
    json_t *res = json_object_get(end, "result");
    assert_string_equal(str(res, "reason"), "aborted");
    assert_int_equal(jint(res, "winner"), -1);
    assert_int_equal(json_array_size(json_object_get(res, "ratings")), 0);
    json_decref(end);
    for (int i = 0; i < 2; i++) {
        int games;
        json_t *pj = player_json(i ? "tomas" : "sasha");
        rating_of(pj, "stratego", &games);
        assert_int_equal(games, 0);
        json_decref(pj);
    }
    json_decref(e.state);
    ws_close(x);
    ws_close(y);
}

/* --- 4. sign-in guesses ------------------------------------------------------------- */

static void signin_body(char *buf, size_t size, const char *name, const char *pw)
{
    snprintf(buf, size, "{\"name\":\"%s\",\"password\":\"%s\"}", name, pw);
}

/* Forty wrong guesses at once for one name: the count comes before the
 * hash, so at most five are even tried. The name is then locked for
 * strangers, but not for its owner at an address the owner has used; and
 * failures for sixty other names do not unlock it. */
static void test_signin_limit_holds_under_concurrency(void **state)
{
    (void)state;
    char cookie[80], body[200];
    client_source("127.0.0.2");
    signup("keeper", cookie);
    client_source("127.0.0.3");
    signin_body(body, sizeof body, "keeper", "not-the-password");
    int fds[40], n401 = 0, n429 = 0;
    for (int i = 0; i < 40; i++)
        fds[i] = http_begin(HOST, server.port, "POST", "/api/signin", NULL, body);
    for (int i = 0; i < 40; i++) {
        http_resp r;
        assert_int_equal(http_finish(fds[i], &r), 0);
        n401 += r.status == 401;
        n429 += r.status == 429;
        assert_string_equal(r.cookie, "");
        http_resp_free(&r);
    }
    assert_true(n401 <= 5);
    assert_int_equal(n401 + n429, 40);
    /* the right password from a stranger's address: still locked */
    signin_body(body, sizeof body, "keeper", "password-keeper");
    client_source("127.0.0.4");
    assert_int_equal(status_of("POST", "/api/signin", NULL, body, NULL), 429);
    /* other names failing from many addresses do not push the lock out */
    for (int a = 0; a < 12; a++) {
        char addr[32], other[200];
        snprintf(addr, sizeof addr, "127.0.1.%d", a + 1);
        client_source(addr);
        for (int i = 0; i < 5; i++) {
            char name[32];
            snprintf(name, sizeof name, "nobody%d-%d", a, i);
            signin_body(other, sizeof other, name, "whatever-it-is");
            fds[i] = http_begin(HOST, server.port, "POST", "/api/signin", NULL, other);
        }
        for (int i = 0; i < 5; i++) {
            http_resp r;
            assert_int_equal(http_finish(fds[i], &r), 0);
            assert_int_equal(r.status, 401);
            http_resp_free(&r);
        }
    }
    client_source("127.0.0.5");
    assert_int_equal(status_of("POST", "/api/signin", NULL, body, NULL), 429);
    /* the owner, at home, is let in */
    client_source("127.0.0.2");
    char c2[80];
    assert_int_equal(status_of("POST", "/api/signin", NULL, body, c2), 200);
    assert_int_equal(strlen(c2), 64);
    client_source(NULL);
}

/* --- 5. origins ---------------------------------------------------------------------- */

static int ws_status(const char *cookie)
{
    int status = 0;
    ws_conn *c = ws_connect(HOST, server.port, "/ws", cookie, &status);
    ws_close(c);
    return status;
}

/* Another site's page may not open a WebSocket with the visitor's cookie,
 * sign the visitor in, or post a form: Origin must be the server's own,
 * and a body must be JSON. --allow-origin adds an origin; --behind-tls
 * makes the own origin https and the cookies Secure. */
static void test_foreign_origins_are_refused(void **state)
{
    (void)state;
    char cookie[80], own[128], body[200];
    guest(cookie);
    client_headers("Origin: http://evil.example\r\n");
    assert_int_equal(ws_status(cookie), 403);
    signin_body(body, sizeof body, "nobody", "password-nobody");
    char got[80];
    assert_int_equal(status_of("POST", "/api/signin", NULL, body, got), 403);
    assert_string_equal(got, "");
    assert_int_equal(status_of("POST", "/api/signout", cookie, NULL, NULL), 403);
    snprintf(own, sizeof own, "Origin: http://%s:%d\r\n", HOST, server.port);
    client_headers(own);
    assert_int_equal(ws_status(cookie), 101);
    client_headers(NULL);
    assert_int_equal(ws_status(cookie), 101);  /* tools send no Origin */
    /* a cross-site form can only send text/plain, urlencoded or multipart */
    char req[512];
    snprintf(req, sizeof req,
             "POST /api/signin HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
             "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
             strlen(body), body);
    char *resp = raw(req, NULL, NULL);
    http_resp r;
    assert_int_equal(http_parse(resp, strlen(resp), &r), 0);
    assert_int_equal(r.status, 415);
    assert_false(r.cookie_set);
    http_resp_free(&r);
    free(resp);

    server_proc saved;
    fixture_own_server(&saved, "--allow-origin https://play.example --behind-tls " OPEN_LIMITS);
    guest(cookie);
    client_headers("Origin: https://play.example\r\n");
    assert_int_equal(ws_status(cookie), 101);
    snprintf(own, sizeof own, "Origin: http://%s:%d\r\n", HOST, server.port);
    client_headers(own);
    assert_int_equal(ws_status(cookie), 403);  /* behind TLS the page is https */
    snprintf(own, sizeof own, "Origin: https://%s:%d\r\n", HOST, server.port);
    client_headers(own);
    assert_int_equal(ws_status(cookie), 101);
    client_headers(NULL);
    resp = raw("GET /api/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", NULL, NULL);
    assert_non_null(strstr(resp, "citadel_session="));
    assert_non_null(strstr(resp, "; Secure"));
    free(resp);
    fixture_own_end(&saved);
}

/* --- 6. quotas ----------------------------------------------------------------------- */

/* The server's database seen from another connection: its SQLite file, or
 * its PostgreSQL database (a URI, when the tests run on PostgreSQL). */
typedef struct other_conn {
    sqlite3 *lite;
    PGconn *pg;
} other_conn;

static void other_open(other_conn *c)
{
    memset(c, 0, sizeof *c);
    if (strstr(server.db, "://")) {
        c->pg = PQconnectdb(server.db);
        assert_int_equal(PQstatus(c->pg), CONNECTION_OK);
    } else {
        assert_int_equal(sqlite3_open(server.db, &c->lite), SQLITE_OK);
    }
}

/* Runs text; its first column of its first row (a count), or -1. */
static int other_run(other_conn *c, const char *text)
{
    int n = -1;
    if (c->pg) {
        PGresult *res = PQexec(c->pg, text);
        if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) > 0)
            n = atoi(PQgetvalue(res, 0, 0));
        else if (PQresultStatus(res) == PGRES_COMMAND_OK)
            n = 0;
        PQclear(res);
        return n;
    }
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->lite, text, -1, &st, NULL) == SQLITE_OK) {
        int rc = sqlite3_step(st);
        n = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : rc == SQLITE_DONE ? 0 : -1;
        sqlite3_finalize(st);
    }
    return n;
}

static void other_close(other_conn *c)
{
    if (c->pg)
        PQfinish(c->pg);
    sqlite3_close(c->lite);
}

static int guests_stored(void)
{
    other_conn c;
    other_open(&c);
    int n = other_run(&c, "SELECT count(*) FROM players WHERE is_guest = 1");
    other_close(&c);
    assert_true(n >= 0);
    return n;
}

/* Each resource a stranger can make the server spend has its quota: guests
 * per address, WebSockets per address, games and bot games per player,
 * seeks per player across all its connections, new games per address,
 * password hashings waiting. Over the quota, a clear refusal; nothing
 * made. */
static void test_quotas_hold(void **state)
{
    (void)state;
    server_proc saved;
    fixture_own_server(&saved, "--limit guests-per-hour=3 --limit ws-per-address=3 "
                       "--limit games-at-once=2 --limit bot-games-at-once=1 "
                       "--limit seeks-at-once=3 --limit new-games-per-hour=4 "
                       "--limit signups-per-hour=0 --limit hashing-queue=1");
    /* guests: three an hour from one address; the fourth is refused, and
     * neither it nor a cookie-less WebSocket makes a guest */
    char g[3][80], got[80];
    client_source("127.0.0.10");
    for (int i = 0; i < 3; i++)
        assert_int_equal(status_of("GET", "/api/me", NULL, NULL, g[i]), 200);
    int before = guests_stored();
    assert_int_equal(status_of("GET", "/api/me", NULL, NULL, got), 429);
    assert_string_equal(got, "");
    assert_int_equal(ws_status(NULL), 429);
    assert_int_equal(guests_stored(), before);
    /* WebSockets: three per address */
    ws_conn *w[4];
    for (int i = 0; i < 3; i++)
        w[i] = connect_as(g[i], NULL);
    assert_int_equal(ws_status(g[0]), 429);
    client_source("127.0.0.11");
    char other[80];
    assert_int_equal(status_of("GET", "/api/me", NULL, NULL, other), 200);
    ws_conn *o = connect_as(other, NULL);
    client_source("127.0.0.10");
    ws_close(w[2]);
    w[3] = NULL;
    for (int tries = 0; tries < 50 && !w[3]; tries++) {  /* the close reaches it soon */
        int st = 0;
        w[3] = ws_connect(HOST, server.port, "/ws", g[2], &st);
        if (!w[3])
            sleep_ms(50);
    }
    assert_non_null(w[3]);
    json_decref(ws_expect(w[3], "hello", WAIT));
    /* games at once: two per player (a one-device game counts once) */
    for (int i = 0; i < 2; i++) {
        send_fmt(w[0], "{\"type\":\"local\",\"variant\":\"rampart\",\"base_ms\":0}");
        json_decref(ws_expect(w[0], "game", WAIT));
    }
    send_fmt(w[0], "{\"type\":\"local\",\"variant\":\"rampart\",\"base_ms\":0}");
    assert_null(ws_expect(w[0], "game", 1000));
    assert_non_null(strstr(ws_last_error(w[0]), "already plays 2 games"));
    /* bot games: one per player */
    send_fmt(w[1], "{\"type\":\"play_bot\",\"variant\":\"rampart\",\"bot\":\"bot-random\","
                   "\"base_ms\":0,\"side\":0}");
    json_decref(ws_expect(w[1], "game", WAIT));
    send_fmt(w[1], "{\"type\":\"play_bot\",\"variant\":\"rampart\",\"bot\":\"bot-random\","
                   "\"base_ms\":0,\"side\":0}");
    assert_null(ws_expect(w[1], "game", 1000));
    assert_non_null(strstr(ws_last_error(w[1]), "against bots"));
    /* seeks: three per player, counted over every connection of it */
    client_source("127.0.0.11");
    ws_conn *o2 = connect_as(other, NULL);
    for (int i = 0; i < 3; i++) {
        send_fmt(i < 2 ? o : o2, "{\"type\":\"seek\",\"variant\":\"rampart\",\"base_ms\":0}");
        json_decref(ws_expect(i < 2 ? o : o2, "seek_created", WAIT));
    }
    send_fmt(o2, "{\"type\":\"challenge\",\"variant\":\"rampart\",\"base_ms\":0}");
    assert_null(ws_expect(o2, "challenge_created", 1000));
    assert_non_null(strstr(ws_last_error(o2), "at most 3"));
    /* new games: four an hour per address (refused attempts do not count);
     * 127.0.0.10 has started three, 127.0.0.11 opened three seeks, and
     * 127.0.0.12's fifth is one too many */
    client_source("127.0.0.12");
    char q[2][80];
    ws_conn *qc[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(status_of("GET", "/api/me", NULL, NULL, q[i]), 200);
        qc[i] = connect_as(q[i], NULL);
    }
    for (int i = 0; i < 4; i++) {
        send_fmt(qc[i / 2], "{\"type\":\"local\",\"variant\":\"rampart-mini\",\"base_ms\":0}");
        json_decref(ws_expect(qc[i / 2], "game", WAIT));
    }
    send_fmt(qc[1], "{\"type\":\"local\",\"variant\":\"rampart-mini\",\"base_ms\":0}");
    assert_null(ws_expect(qc[1], "game", 1000));
    assert_non_null(strstr(ws_last_error(qc[1]), "too many new games"));
    /* password hashing: one waiting at most; a burst of sign-ups gets 503s */
    client_source("127.0.0.13");
    int fds[12], n201 = 0, n503 = 0;
    for (int i = 0; i < 12; i++) {
        char body[200];
        snprintf(body, sizeof body, "{\"name\":\"burst%d\",\"password\":\"password-%d\"}", i, i);
        fds[i] = http_begin(HOST, server.port, "POST", "/api/signup", NULL, body);
    }
    for (int i = 0; i < 12; i++) {
        http_resp r;
        assert_int_equal(http_finish(fds[i], &r), 0);
        n201 += r.status == 201;
        n503 += r.status == 503;
        http_resp_free(&r);
    }
    assert_true(n201 >= 1);
    assert_true(n503 >= 1);
    assert_int_equal(n201 + n503, 12);
    ws_close(qc[0]);
    ws_close(qc[1]);
    ws_close(o2);
    ws_close(o);
    ws_close(w[0]);
    ws_close(w[1]);
    ws_close(w[3]);
    fixture_own_end(&saved);
}

/* A WebSocket that answers nothing, not even the server's pings, is closed
 * after ws-idle-seconds; one that answers stays. */
static void test_silent_websocket_is_closed(void **state)
{
    (void)state;
    server_proc saved;
    fixture_own_server(&saved, "--limit ws-idle-seconds=2 " OPEN_LIMITS);
    char ca[80], cb[80];
    guest(ca);
    guest(cb);
    ws_conn *quiet = connect_as(ca, NULL), *live = connect_as(cb, NULL);
    long long until = now_ms() + 5000;
    while (now_ms() < until)
        free(ws_recv_text(live, 200));  /* answers the pings */
    /* the quiet one read nothing for 5 s: the server has hung up */
    until = now_ms() + 3000;
    while (!ws_is_closed(quiet) && now_ms() < until)
        free(ws_recv_text(quiet, 200));
    assert_true(ws_is_closed(quiet));
    assert_false(ws_is_closed(live));
    send_fmt(live, "{\"type\":\"ping\"}");
    json_t *pong = ws_expect(live, "pong", WAIT);
    assert_non_null(pong);
    json_decref(pong);
    ws_close(quiet);
    ws_close(live);
    fixture_own_end(&saved);
}

/* A burst of lobby changes (110 seeks opened at once) reaches a subscriber
 * as a few lobby messages, not one a change, each listing at most the
 * newest 100 open seeks (docs/api.md). Once each subscriber got every
 * change with every seek: thousands of games ending together queued
 * hundreds of MB (the long soak's RSS went from 73 to 473 MB). */
static void test_lobby_bursts_are_coalesced(void **state)
{
    (void)state;
    char cw[80], cp[11][80];
    guest(cw);
    ws_conn *w = connect_as(cw, NULL), *p[11];
    send_fmt(w, "{\"type\":\"lobby\"}");
    json_decref(ws_expect(w, "lobby", WAIT));
    for (int i = 0; i < 11; i++) {
        guest(cp[i]);
        p[i] = connect_as(cp[i], NULL);
    }
    for (int i = 0; i < 11; i++)
        for (int k = 0; k < 10; k++)
            send_fmt(p[i], "{\"type\":\"seek\",\"variant\":\"rampart\"}");
    json_int_t newest = 0;
    for (int i = 0; i < 11; i++)
        for (int k = 0; k < 10; k++) {
            json_t *m = ws_expect(p[i], "seek_created", WAIT);
            assert_non_null(m);
            if (jint(m, "seek") > newest)
                newest = jint(m, "seek");
            json_decref(m);
        }
    /* the subscriber's lobby messages until it has been quiet for 1 s */
    int messages = 0;
    json_t *last = NULL;
    for (json_t *m; (m = ws_recv_json(w, 1000)) != NULL;) {
        if (strcmp(json_string_value(json_object_get(m, "type")), "lobby") == 0) {
            messages++;
            json_decref(last);
            last = m;
        } else {
            json_decref(m);
        }
    }
    assert_non_null(last);
    assert_in_range(messages, 1, 20);
    json_t *seeks = json_object_get(last, "seeks");
    assert_int_equal(json_array_size(seeks), 100);
    assert_int_equal(jint(json_array_get(seeks, 0), "id"), newest);
    for (size_t i = 1; i < 100; i++)
        assert_true(jint(json_array_get(seeks, i), "id") < jint(json_array_get(seeks, i - 1), "id"));
    json_decref(last);
    for (int i = 0; i < 11; i++)
        ws_close(p[i]);
    ws_close(w);
}

/* --- 7. smaller ones ----------------------------------------------------------------- */

/* Another process holds the database's write lock (SQLite: BEGIN
 * IMMEDIATE; PostgreSQL: the games table locked): every move is refused at
 * once ("try again"), not after seconds of a stalled loop, and the game
 * goes on when the lock is released. */
static void test_locked_database_stalls_no_game(void **state)
{
    (void)state;
    char ca[80], cb[80];
    guest(ca);
    guest(cb);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\",\"base_ms\":0", &d);
    other_conn db;
    other_open(&db);
    assert_int_equal(other_run(&db, db.pg ? "BEGIN; LOCK TABLE games IN EXCLUSIVE MODE"
                                          : "BEGIN IMMEDIATE"), 0);
    const char *mv = first_legal(d.state, 0);
    long long t0 = now_ms();
    for (int i = 0; i < 10; i++) {
        send_fmt(d.side[0], "{\"type\":\"move\",\"game\":%lld,\"ply\":0,\"move\":\"%s\"}",
                 (long long)d.game, mv);
        json_t *e = ws_expect(d.side[0], "error", WAIT);
        assert_non_null(e);
        assert_non_null(strstr(ws_last_error(d.side[0]), "try again"));
        json_decref(e);
    }
    long long took = now_ms() - t0;
    assert_healthy();
    other_run(&db, "ROLLBACK");
    other_close(&db);
    /* ten refusals while locked took seconds at most, not ten busy waits */
    assert_true(took < 10000);
    json_t *m = play(d.side[0], d.game, 0, mv);
    json_decref(m);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Static files carry a Content-Security-Policy, frame and sniffing
 * protection; files named by their content hash may be cached for good,
 * others are checked again; source maps and dot-files are not served. */
static void test_static_files_carry_their_policy(void **state)
{
    (void)state;
    char dir[] = "/tmp/citadel-web-XXXXXX", args[400], h[512];
    assert_non_null(mkdtemp(dir));
    write_file(dir, "index.html", "<!doctype html><title>t</title>");
    write_file(dir, "app.0123456789.js", "console.log(1)");
    write_file(dir, "app.js.map", "{\"sources\":[\"secret.ts\"]}");
    write_file(dir, ".env", "SECRET=1");
    server_proc saved;
    snprintf(args, sizeof args, "--web %s " OPEN_LIMITS, dir);
    fixture_own_server(&saved, args);
    char *resp = raw("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", NULL, NULL);
    assert_non_null(strstr(resp, " 200 "));
    assert_non_null(strstr(http_header(resp, "content-security-policy", h, sizeof h),
                           "frame-ancestors 'none'"));
    assert_non_null(strstr(h, "script-src 'self' 'wasm-unsafe-eval';"));  /* no 'unsafe-eval' */
    assert_string_equal(http_header(resp, "x-frame-options", h, sizeof h), "DENY");
    assert_string_equal(http_header(resp, "x-content-type-options", h, sizeof h), "nosniff");
    assert_string_equal(http_header(resp, "cache-control", h, sizeof h), "no-cache");
    free(resp);
    resp = raw("GET /app.0123456789.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", NULL,
               NULL);
    assert_non_null(strstr(resp, " 200 "));
    assert_non_null(strstr(http_header(resp, "cache-control", h, sizeof h), "immutable"));
    free(resp);
    static const char *const hidden[] = {"/app.js.map", "/.env", "/static/../.env"};
    for (size_t i = 0; i < 3; i++) {
        char req[200];
        snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                 hidden[i]);
        resp = raw(req, NULL, NULL);
        assert_null(strstr(resp, "secret.ts"));
        assert_null(strstr(resp, "SECRET"));
        free(resp);
    }
    resp = raw("GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", NULL, NULL);
    assert_string_equal(http_header(resp, "cache-control", h, sizeof h), "no-store");
    free(resp);
    fixture_own_end(&saved);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A bot whose engine does not answer (here it exits at once) is asked
 * again, and loses only as a player gone on its turn would (R8: a draw if
 * nothing was captured); before, its first failure resigned the game. */
static void test_a_silent_bot_does_not_resign(void **state)
{
    (void)state;
    server_proc saved;
    fixture_own_server(&saved, "--abandon-ms 3000 --bot bot-broken=uci:false " OPEN_LIMITS);
    char c[80];
    guest(c);
    ws_conn *w = connect_as(c, NULL);
    send_fmt(w, "{\"type\":\"play_bot\",\"variant\":\"rampart\",\"bot\":\"bot-broken\","
                "\"base_ms\":0,\"side\":0}");
    json_t *g = ws_expect(w, "game", WAIT);
    assert_non_null(g);
    json_t *game = json_object_get(g, "game");
    json_int_t id = jint(game, "id");
    json_t *m = play(w, id, 0, first_legal(game, 0));
    json_decref(m);
    json_decref(g);
    assert_null(ws_expect(w, "end", 1500));  /* not resigned at once */
    json_t *end = ws_expect(w, "end", WAIT);
    assert_non_null(end);
    assert_string_equal(str(json_object_get(end, "result"), "reason"), "abandoned");
    json_decref(end);
    ws_close(w);
    fixture_own_end(&saved);
}

/* RFC 6455: a client's frames are masked, and come only after the answer
 * to its handshake. Masked frames of every length form pass (one split in
 * fragments, one of 10 KB, so lengths of 7, 16 bits and reads that end
 * mid-frame), an unmasked one closes the connection before anyone reads
 * it, and frames sent with the handshake get a 400 instead of a socket. */
static void test_unmasked_frames_close_the_connection(void **state)
{
    (void)state;
    char c[80];
    guest(c);
    ws_conn *w = connect_as(c, NULL);
    char big[10000];
    memset(big, ' ', sizeof big);
    memcpy(big, "{\"type\":\"ping\"", 14);
    big[sizeof big - 1] = '}';
    assert_int_equal(ws_send_frame(w, WS_TEXT, 1, big, sizeof big), 0);
    assert_int_equal(ws_send_frame(w, WS_TEXT, 0, "{\"type\":", 8), 0);
    assert_int_equal(ws_send_frame(w, WS_CONT, 1, "\"ping\"}", 7), 0);
    for (int i = 0; i < 2; i++) {
        json_t *p = ws_expect(w, "pong", WAIT);
        assert_non_null(p);
        json_decref(p);
    }
    static const unsigned char unmasked[] = "\x81\x0f{\"type\":\"ping\"}";
    assert_int_equal(ws_send_raw(w, unmasked, sizeof unmasked - 1), 0);
    assert_null(ws_expect(w, "pong", 3000));
    assert_true(ws_is_closed(w));
    ws_close(w);
    char req[512];
    snprintf(req, sizeof req,
             "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
             "Cookie: citadel_session=%s\r\n\r\n\x81\x8f\x01\x02\x03\x04zzzzzzzzzzzzzzz", c);
    char *resp = raw(req, NULL, NULL);
    assert_non_null(strstr(resp, " 400 "));
    assert_null(strstr(resp, " 101 "));
    free(resp);
    assert_healthy();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spectator_of_several_games_leaves_no_trace),
        cmocka_unit_test(test_two_body_lengths_get_one_answer),
        cmocka_unit_test(test_S3_setup_phase_takes_only_setups),
        cmocka_unit_test(test_signin_limit_holds_under_concurrency),
        cmocka_unit_test(test_foreign_origins_are_refused),
        cmocka_unit_test(test_quotas_hold),
        cmocka_unit_test(test_silent_websocket_is_closed),
        cmocka_unit_test(test_lobby_bursts_are_coalesced),
        cmocka_unit_test(test_locked_database_stalls_no_game),
        cmocka_unit_test(test_static_files_carry_their_policy),
        cmocka_unit_test(test_a_silent_bot_does_not_resign),
        cmocka_unit_test(test_unmasked_frames_close_the_connection),
    };
    return fixture_run_group(tests, &fixture);
}
