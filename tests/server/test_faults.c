/* test_faults.c -- the store fails, and the server keeps its word.
 *
 * A scripted session (a sign-in; a rated game between two accounts, with
 * a spectator, to its resignation; a game against a bot; a Stratego game on
 * one device through its private setups) is played once to count the
 * store's writes, then once more for every write N and every kind of
 * fault: the server is started (a test build, CITADEL_FAULTS) with
 * CITADEL_STORE_FAULT=N:KIND, which makes exactly the Nth write fail
 * beneath SQLite (an I/O error, a full disk, or a lock held by another
 * process; src/store/store_faults.c). The script retries what the server
 * asks it to retry, as a person would.
 *
 * Then the server is killed (SIGKILL), started again without a fault, and
 * every game is read back. The proof, for every N and kind: every move and
 * every end that any client was told of is stored, exactly so, and nothing
 * stored was kept from the players; every account and session the server
 * answered with works; the script finished, so the server recovered once
 * the fault cleared; and the sanitizers said nothing.
 *
 * Run against a build without fault injection (release), it skips.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "wire.h"

#define ARGS "--abandon-ms 60000 --limit guests-per-hour=0 --limit new-games-per-hour=0"
#define TRIES 20

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* --- what the clients were told ----------------------------------------------------- */

typedef struct told {
    json_int_t id;
    int nmoves;
    char moves[64][32];
    int ended;
    char reason[32];
    json_t *ratings;     /* the end's rating changes */
} told;

static told games[8];
static int ngames;
static char failure[300];  /* the first way this run broke its word */

static void broke(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void broke(const char *fmt, ...)
{
    if (failure[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(failure, sizeof failure, fmt, ap);
    va_end(ap);
}

static told *told_of(json_int_t id)
{
    for (int i = 0; i < ngames; i++)
        if (games[i].id == id)
            return &games[i];
    if (ngames == 8)
        return NULL;
    told *t = &games[ngames++];
    memset(t, 0, sizeof *t);
    t->id = id;
    return t;
}

static void told_move(json_int_t id, int ply, const char *move)
{
    told *t = told_of(id);
    if (!t || ply < 0 || ply >= 64)
        return;
    if (ply < t->nmoves) {
        if (strcmp(t->moves[ply], move) != 0)
            broke("game %lld: ply %d told as %s and as %s", (long long)id, ply, t->moves[ply],
                  move);
        return;
    }
    if (ply > t->nmoves)
        broke("game %lld: ply %d told before ply %d", (long long)id, ply, t->nmoves);
    snprintf(t->moves[ply], sizeof t->moves[ply], "%s", move);
    t->nmoves = ply + 1;
}

/* Notes what a message tells of games. */
static void note(json_t *m)
{
    const char *type = json_string_value(json_object_get(m, "type"));
    if (!type)
        return;
    if (strcmp(type, "move") == 0) {
        told_move(json_integer_value(json_object_get(m, "game")),
                  (int)json_integer_value(json_object_get(m, "ply")),
                  json_string_value(json_object_get(m, "move")));
    } else if (strcmp(type, "game") == 0) {
        json_t *g = json_object_get(m, "game"), *mv;
        size_t i;
        json_array_foreach(json_object_get(g, "moves"), i, mv)
            told_move(json_integer_value(json_object_get(g, "id")), (int)i,
                      json_string_value(mv));
    } else if (strcmp(type, "end") == 0) {
        told *t = told_of(json_integer_value(json_object_get(m, "game")));
        json_t *r = json_object_get(m, "result");
        if (t && !t->ended) {
            t->ended = 1;
            snprintf(t->reason, sizeof t->reason, "%s",
                     json_string_value(json_object_get(r, "reason")));
            t->ratings = json_incref(json_object_get(r, "ratings"));
        }
    }
}

/* The next message of `type` (noting every message on the way), or an
 * `error` if one comes first (then *err is 1). NULL on timeout. */
static json_t *next(ws_conn *c, const char *type, int *err, int timeout_ms)
{
    *err = 0;
    for (;;) {
        json_t *m = ws_recv_json(c, timeout_ms);
        if (!m)
            return NULL;
        note(m);
        const char *t = json_string_value(json_object_get(m, "type"));
        if (t && strcmp(t, type) == 0)
            return m;
        if (t && strcmp(t, "error") == 0) {
            *err = 1;
            return m;
        }
        json_decref(m);
    }
}

/* Sends text until the answer of `type` comes (retrying after an error
 * that says to try again); the answer, or NULL after breaking. */
static json_t *ask(ws_conn *c, const char *type, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static json_t *ask(ws_conn *c, const char *type, const char *what, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    for (int tries = 0; tries < TRIES; tries++) {
        if (ws_send_text(c, text) != 0)
            break;
        int err;
        json_t *m = next(c, type, &err, WAIT);
        if (!m)
            break;
        if (!err)
            return m;
        const char *e = json_string_value(json_object_get(m, "error"));
        int again = e && (strstr(e, "try again") || strstr(e, "out of memory"));
        json_decref(m);
        if (!again) {
            broke("%s: refused: %s", what, e ? e : "?");
            return NULL;
        }
        sleep_ms(150);
    }
    broke("%s: no answer", what);
    return NULL;
}

/* An HTTP request retried while the server answers 500 or 503. */
static int http_retry(const char *method, const char *path, const char *cookie,
                      const char *body, http_resp *r)
{
    for (int tries = 0; tries < TRIES; tries++) {
        if (http_request(HOST, server.port, method, path, cookie, body, r) != 0)
            return -1;
        if (r->status != 500 && r->status != 503)
            return 0;
        http_resp_free(r);
        sleep_ms(150);
    }
    return -1;
}

/* --- the script ------------------------------------------------------------------------ */

/* Plays plies from..to of game id, c[side] moving for each side, with
 * legal moves from the last message seen; 0 or -1. */
static int play_plies(ws_conn **c, json_int_t id, json_t **last, int from, int to)
{
    for (int ply = from; ply < to; ply++) {
        ws_conn *mover = c[ply % 2];
        json_t *legal = json_object_get(*last, "legal");
        if (!legal)
            legal = json_object_get(json_object_get(*last, "game"), "legal");
        if (json_array_size(legal) == 0) {
            broke("ply %d: no legal move was sent", ply);
            return -1;
        }
        const char *mv = json_string_value(json_array_get(legal, (size_t)ply % json_array_size(legal)));
        json_t *m = ask(mover, "move", "move",
                        "{\"type\":\"move\",\"game\":%lld,\"ply\":%d,\"move\":\"%s\"}",
                        (long long)id, ply, mv);
        if (!m)
            return -1;
        json_decref(m);
        /* the other side's copy carries its legal moves */
        int err;
        json_t *o = next(c[(ply + 1) % 2], "move", &err, WAIT);
        if (!o || err) {
            json_decref(o);
            broke("ply %d: the opponent was not told", ply);
            return -1;
        }
        json_decref(*last);
        *last = o;
    }
    return 0;
}

static json_int_t game_id(json_t *g)
{
    return json_integer_value(json_object_get(json_object_get(g, "game"), "id"));
}

/* The whole session. Accounts alice and bob exist with the sessions in
 * cookies; returns 0 if it ran to its end. */
static int script(const char cookies[2][80])
{
    char body[200], gc[80];
    http_resp r;
    /* a sign-in (a session and a known address stored) and a guest */
    snprintf(body, sizeof body, "{\"name\":\"alice\",\"password\":\"password-alice\"}");
    if (http_retry("POST", "/api/signin", NULL, body, &r) != 0 || r.status != 200) {
        broke("sign-in answered %d", r.status);
        return -1;
    }
    char signin_cookie[80];
    snprintf(signin_cookie, sizeof signin_cookie, "%.79s", r.cookie);
    http_resp_free(&r);
    if (http_retry("GET", "/api/me", NULL, NULL, &r) != 0 || r.status != 200) {
        broke("guest answered %d", r.status);
        return -1;
    }
    snprintf(gc, sizeof gc, "%.79s", r.cookie);
    http_resp_free(&r);

    ws_conn *a = connect_as(signin_cookie, NULL), *b = connect_as(cookies[1], NULL);
    ws_conn *s = connect_as(gc, NULL);
    int rc = -1;
    json_t *sk = ask(a, "seek_created", "seek",
                     "{\"type\":\"seek\",\"variant\":\"rampart\",\"base_ms\":600000,"
                     "\"inc_ms\":0,\"rated\":true}");
    if (!sk)
        goto out;
    json_t *gb = ask(b, "game", "accept", "{\"type\":\"accept\",\"seek\":%lld}",
                     (long long)jint(sk, "seek"));
    json_decref(sk);
    if (!gb)
        goto out;
    int err;
    json_t *ga = next(a, "game", &err, WAIT);
    if (!ga || err) {
        json_decref(ga);
        json_decref(gb);
        broke("the seeker was not told of the game");
        goto out;
    }
    json_int_t id = game_id(gb);
    json_t *you = json_object_get(json_object_get(ga, "game"), "you");
    ws_conn *c[2];
    int a_side = (int)json_integer_value(json_array_get(you, 0));
    c[a_side] = a;
    c[a_side ^ 1] = b;
    json_t *last = json_incref(a_side == 0 ? ga : gb);
    json_decref(ga);
    json_decref(gb);
    json_t *w = ask(s, "game", "watch", "{\"type\":\"watch\",\"game\":%lld}", (long long)id);
    json_decref(w);
    if (!w || play_plies(c, id, &last, 0, 8) != 0) {
        json_decref(last);
        goto out;
    }
    json_decref(last);
    json_t *end = ask(c[1], "end", "resign", "{\"type\":\"resign\",\"game\":%lld}", (long long)id);
    if (!end)
        goto out;
    json_decref(end);
    /* the spectator was told too */
    for (int k = 0; k < 10 && !told_of(id)->ended; k++)
        json_decref(next(s, "end", &err, 500));

    /* a game against a bot: its moves are stored by the server alone */
    json_t *g = ask(a, "game", "play_bot",
                    "{\"type\":\"play_bot\",\"variant\":\"rampart\",\"bot\":\"bot-random\","
                    "\"base_ms\":0,\"side\":0}");
    if (!g)
        goto out;
    id = game_id(g);
    last = g;
    for (int ply = 0; ply < 6; ply += 2) {
        json_t *legal = json_object_get(last, "legal");
        if (!legal)
            legal = json_object_get(json_object_get(last, "game"), "legal");
        const char *mv = json_string_value(json_array_get(legal, 0));
        json_t *m = mv ? ask(a, "move", "move against the bot",
                             "{\"type\":\"move\",\"game\":%lld,\"ply\":%d,\"move\":\"%s\"}",
                             (long long)id, ply, mv)
                       : NULL;
        json_decref(m);
        json_t *reply = m ? next(a, "move", &err, 20000) : NULL;
        json_decref(last);
        last = reply;
        if (!reply || err) {
            broke("the bot did not answer ply %d", ply);
            json_decref(last);
            goto out;
        }
    }
    json_decref(last);
    end = ask(a, "end", "resign against the bot", "{\"type\":\"resign\",\"game\":%lld}",
              (long long)id);
    if (!end)
        goto out;
    json_decref(end);

    /* Stratego on one device: both setups, two moves, a resignation */
    g = ask(s, "game", "local", "{\"type\":\"local\",\"variant\":\"stratego\",\"base_ms\":0}");
    if (!g)
        goto out;
    id = game_id(g);
    json_decref(g);
    for (int side = 0; side < 2; side++) {
        json_t *ok = ask(s, "setup_ok", "setup",
                         "{\"type\":\"setup\",\"game\":%lld,\"side\":%d,\"setup\":\"%s\"}",
                         (long long)id, side, library_setup(side));
        if (!ok)
            goto out;
        json_decref(ok);
    }
    last = next(s, "game", &err, WAIT);  /* play begins */
    if (!last || err) {
        json_decref(last);
        broke("Stratego play did not begin");
        goto out;
    }
    ws_conn *both[2] = {s, s};
    for (int ply = 0; ply < 2; ply++) {
        json_t *legal = json_object_get(last, "legal");
        if (!legal)
            legal = json_object_get(json_object_get(last, "game"), "legal");
        const char *mv = json_string_value(json_array_get(legal, 0));
        json_t *m = mv ? ask(both[ply], "move", "Stratego move",
                             "{\"type\":\"move\",\"game\":%lld,\"ply\":%d,\"move\":\"%s\"}",
                             (long long)id, ply, mv)
                       : NULL;
        json_decref(last);
        last = m;
        if (!m)
            goto out;
    }
    json_decref(last);
    end = ask(s, "end", "Stratego resign", "{\"type\":\"resign\",\"game\":%lld}", (long long)id);
    if (!end)
        goto out;
    json_decref(end);
    rc = 0;
out:
    ws_close(a);
    ws_close(b);
    ws_close(s);
    return rc;
}

/* --- checking the store against what was told ------------------------------------------- */

static void check_stored(void)
{
    for (int i = 0; i < ngames; i++) {
        told *t = &games[i];
        char path[64];
        snprintf(path, sizeof path, "/api/games/%lld", (long long)t->id);
        http_resp r;
        if (http_request(HOST, server.port, "GET", path, NULL, NULL, &r) != 0 ||
            r.status != 200) {
            broke("game %lld was told of but is not stored", (long long)t->id);
            return;
        }
        json_t *g = json_loads(r.body, 0, NULL);
        http_resp_free(&r);
        json_t *moves = json_object_get(g, "moves");
        if ((int)json_array_size(moves) != t->nmoves)
            broke("game %lld: %d moves told, %zu stored", (long long)t->id, t->nmoves,
                  json_array_size(moves));
        for (int k = 0; k < t->nmoves && k < (int)json_array_size(moves); k++)
            if (strcmp(json_string_value(json_array_get(moves, (size_t)k)), t->moves[k]) != 0)
                broke("game %lld: ply %d told %s, stored %s", (long long)t->id, k, t->moves[k],
                      json_string_value(json_array_get(moves, (size_t)k)));
        const char *status = json_string_value(json_object_get(g, "status"));
        const char *reason = json_string_value(
            json_object_get(json_object_get(g, "result"), "reason"));
        if (t->ended && (!status || strcmp(status, "over") != 0 || !reason ||
                         strcmp(reason, t->reason) != 0))
            broke("game %lld: told it ended (%s), stored as %s", (long long)t->id, t->reason,
                  status ? status : "?");
        if (!t->ended && status && strcmp(status, "over") == 0)
            broke("game %lld: stored as over, never told", (long long)t->id);
        json_decref(g);
        /* ratings told are the ratings stored */
        size_t k;
        json_t *ch;
        json_array_foreach(t->ratings, k, ch) {
            json_t *p = player_json(json_string_value(json_object_get(ch, "name")));
            int n;
            double now = rating_of(p, "rampart", &n);
            double after = json_real_value(json_object_get(ch, "after"));
            if (n != 1 || now < after - 1e-6 || now > after + 1e-6)
                broke("%s: told rating %.2f, stored %.2f (%d games)",
                      json_string_value(json_object_get(ch, "name")), after, now, n);
            json_decref(p);
        }
    }
}

static void forget(void)
{
    for (int i = 0; i < ngames; i++)
        json_decref(games[i].ratings);
    ngames = 0;
    failure[0] = 0;
}

/* Copies file a to b; 0 or -1. */
static int copy_file(const char *a, const char *b)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", a, b);
    return system(cmd) == 0 ? 0 : -1;
}

static int count_lines(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strstr(line, needle) != NULL;
    fclose(f);
    return n;
}

static char tmpl[300], cookies[2][80];

/* A database with the bots, and alice and bob signed up (their sessions in
 * cookies); -1 if the binary has no fault injection. */
static int make_template(void)
{
    setenv("CITADEL_STORE_FAULT", "count", 1);
    if (server_start(&server, server_binary(), NULL, ARGS) != 0)
        fail_msg("server did not start; log %s", server.log);
    signup("alice", cookies[0]);
    signup("bob", cookies[1]);
    server_kill(&server, SIGTERM);
    unsetenv("CITADEL_STORE_FAULT");
    int writes = count_lines(server.log, "store: write ");
    snprintf(tmpl, sizeof tmpl, "%s.template", server.db);
    assert_int_equal(copy_file(server.db, tmpl), 0);
    return writes > 0 ? 0 : -1;
}

/* One run: a copy of the template, the fault (or "count"), the script,
 * a kill, a restart, the check. The number of writes the run made; the
 * run's failure, if any, in `failure`. */
static int run_once(const char *fault, const char *db)
{
    forget();
    assert_int_equal(copy_file(tmpl, db), 0);
    setenv("CITADEL_STORE_FAULT", fault, 1);
    if (server_start(&server, server_binary(), db, ARGS) != 0)
        fail_msg("server with %s did not start; log %s", fault, server.log);
    unsetenv("CITADEL_STORE_FAULT");
    char log[300];
    snprintf(log, sizeof log, "%s", server.log);
    if (script(cookies) != 0)
        broke("%s", failure[0] ? failure : "the script did not finish");
    int writes = count_lines(log, "store: write ");
    int st = server_kill(&server, SIGKILL);
    (void)st;
    if (count_lines(log, "AddressSanitizer") > 0 || count_lines(log, "runtime error") > 0 ||
        count_lines(log, "broken link") > 0)
        broke("the sanitizers spoke: %s", log);
    char saved[sizeof failure];
    snprintf(saved, sizeof saved, "%s", failure);
    assert_int_equal(server_start(&server, server_binary(), db, ARGS), 0);
    failure[0] = 0;
    check_stored();
    if (!failure[0])
        snprintf(failure, sizeof failure, "%s", saved);
    server_kill(&server, SIGTERM);
    unlink(log);
    return writes;
}

/* Every write of the script fails once, in each way; the server keeps its
 * word every time. */
static void test_every_write_may_fail(void **state)
{
    (void)state;
    if (make_template() != 0)
        skip();  /* no fault injection in this build */
    char db[320];
    snprintf(db, sizeof db, "%s.run", tmpl);
    int writes = run_once("count", db);
    if (failure[0])
        fail_msg("without a fault: %s", failure);
    assert_true(writes >= 20);
    fprintf(stderr, "fault walk: %d writes, 3 kinds\n", writes);
    static const char *const kinds[] = {"io", "full", "busy"};
    int bad = 0;
    for (int k = 0; k < 3; k++)
        for (int n = 1; n <= writes; n++) {
            char fault[32];
            snprintf(fault, sizeof fault, "%d:%s", n, kinds[k]);
            run_once(fault, db);
            if (failure[0]) {
                fprintf(stderr, "fault %s: %s\n", fault, failure);
                bad++;
            }
        }
    forget();
    unlink(db);
    unlink(tmpl);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_write_may_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
