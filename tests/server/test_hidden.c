/* test_hidden.c -- `citadel serve` over real connections, for the game
 * with hidden pieces: Stratego's views and setups (rulings S3, S8).
 *
 * Each group starts the real server (the binary in $CITADEL, default
 * build/release/citadel) on a free loopback port with a fresh database, and
 * talks to it with the independent client of client.h (test_server.c has
 * the rest of the game-playing tests).
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

#include "pgn_check.h"
#include "wire.h"

/* A player gone on its turn loses after 4 s here (60 s by default). */
#define SERVER_ARGS                                                                    \
    "--abandon-ms 4000 --limit signups-per-hour=0 --limit guests-per-hour=0 "           \
    "--limit new-games-per-hour=0"

static const fixture_spec fixture = { .args = SERVER_ARGS };

/* --- Stratego: nobody is ever sent a rank it may not see (S8) -------------------- */

/* 1 if a Stratego position or view string shows the viewer (side 0 Red,
 * 1 Blue, -1 a spectator) nothing it may not see: every enemy piece is
 * unknown (X/x) or revealed in combat (marked *), and, for a player, its own
 * pieces are all known. Prints what is wrong. */
static int view_is_clean(const char *pos, int viewer)
{
    for (const char *p = pos; *p && *p != ' '; p++) {
        char c = *p;
        if (c == '/' || c == '~' || (c >= '0' && c <= '9') || c == '*' || c == '+' || c == '^')
            continue;
        int side = c >= 'a' && c <= 'z' ? 1 : 0;
        int unknown = c == 'X' || c == 'x';
        int revealed = p[1] == '*';
        if (side != viewer && !unknown && !revealed) {
            fprintf(stderr, "viewer %d sees an unrevealed '%c' in %s\n", viewer, c, pos);
            return 0;
        }
        if (side == viewer && unknown) {
            fprintf(stderr, "viewer %d does not see its own piece in %s\n", viewer, pos);
            return 0;
        }
    }
    return 1;
}

/* The legal moves a `game` or `move` message carries, or NULL. */
static json_t *legal_of(json_t *m)
{
    json_t *g = json_object_get(m, "game");
    return json_is_object(g) ? json_object_get(g, "legal") : json_object_get(m, "legal");
}

/* Checks one message a client received while the game was live. */
static void check_message(json_t *m, int viewer_of_position)
{
    const char *type = json_string_value(json_object_get(m, "type"));
    if (!type)
        type = "";  /* a game read over HTTP */
    json_t *body = strcmp(type, "game") == 0 ? json_object_get(m, "game") : m;
    if (strcmp(type, "end") == 0)
        return;  /* the game is over: all of it is public */
    json_t *start = json_object_get(body, "start");
    assert_true(!start || strcmp(json_string_value(start), "") == 0);
    const char *pos = json_string_value(json_object_get(body, "position"));
    if (pos && pos[0])
        assert_true(view_is_clean(pos, viewer_of_position));
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* What drain_checked waits for before it takes only what has arrived. */
enum want { WANT_NOTHING, WANT_LEGAL, WANT_MOVE };

/* Reads c's messages, checking each with viewer: first until one it waits
 * for arrives (WANT_LEGAL a message with legal moves, WANT_MOVE a `move`;
 * within WAIT), then every one already there. Returns the last `game` or
 * `move` message (caller decrefs). Every message a client is sent is
 * checked by one call or the next, so a late one is caught all the same. */
static json_t *drain_checked(ws_conn *c, int viewer, enum want want)
{
    json_t *last = NULL;
    long long deadline = now_ms() + WAIT;
    for (;;) {
        int left = want == WANT_NOTHING ? 0 : (int)(deadline - now_ms());
        json_t *m = ws_recv_json(c, left > 0 ? left : 0);
        if (!m)
            break;
        check_message(m, viewer);
        const char *type = json_string_value(json_object_get(m, "type"));
        if (strcmp(type, "move") == 0 || strcmp(type, "game") == 0) {
            if (want == WANT_MOVE ? strcmp(type, "move") == 0 : legal_of(m) != NULL)
                want = WANT_NOTHING;
            json_decref(last);
            last = m;
        } else {
            json_decref(m);
        }
    }
    return last;
}

/* S8, two people online with a spectator: every position anyone is sent
 * hides what it must; the start stays secret until the end. */
static void test_S8_online_game_sends_no_hidden_rank(void **state)
{
    (void)state;
    char ca[80], cb[80], cs[80];
    guest(ca);
    guest(cb);
    guest(cs);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL), *sp = connect_as(cs, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"stratego\",\"base_ms\":0", &d);
    assert_string_equal(json_string_value(json_object_get(d.state, "phase")), "setup");
    assert_string_equal(json_string_value(json_object_get(d.state, "position")), "");
    send_fmt(sp, "{\"type\":\"watch\",\"game\":%lld}", (long long)d.game);
    /* a bad setup is refused; then both send library setups */
    send_fmt(d.side[0], "{\"type\":\"setup\",\"game\":%lld,\"setup\":\"FFFF\"}",
             (long long)d.game);
    json_t *e = ws_expect(d.side[0], "error", WAIT);
    assert_non_null(e);
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "bad setup"));
    json_decref(e);
    for (int side = 0; side < 2; side++) {
        send_fmt(d.side[side], "{\"type\":\"setup\",\"game\":%lld,\"setup\":\"%s\"}",
                 (long long)d.game, library_setup(side));
        json_t *ok = ws_expect(d.side[side], "setup_ok", WAIT);
        assert_non_null(ok);
        json_decref(ok);
    }
    json_t *last[2] = {NULL, NULL};
    int events = 0;
    for (int ply = 0; ply < 40; ply++) {
        int mover = ply % 2;
        for (int side = 0; side < 2; side++) {
            json_t *m = drain_checked(d.side[side], side, side == mover ? WANT_LEGAL : WANT_NOTHING);
            if (m) {
                json_decref(last[side]);
                last[side] = m;
            }
        }
        /* the spectator is sent each move (the first ply: the game) */
        json_t *spm = drain_checked(sp, -1, ply ? WANT_MOVE : WANT_NOTHING);
        json_decref(spm);
        json_t *legal = legal_of(last[mover]);
        assert_true(json_array_size(legal) > 0);
        assert_null(legal_of(last[mover ^ 1]));
        /* prefer attacks, so that combat reveals ranks */
        const char *mv = json_string_value(json_array_get(legal, (size_t)ply % json_array_size(legal)));
        send_fmt(d.side[mover], "{\"type\":\"move\",\"game\":%lld,\"ply\":%d,\"move\":\"%s\"}",
                 (long long)d.game, ply, mv);
        json_t *echo = ws_expect(d.side[mover], "move", WAIT);
        assert_non_null(echo);
        check_message(echo, mover);
        events += json_string_value(json_object_get(echo, "event"))[0] != 0;
        json_decref(last[mover]);
        last[mover] = echo;  /* its own move: no legal moves for it now */
        /* HTTP shows a spectator's view and no start; the record no start */
        if (ply % 10 == 9) {
            char path[64];
            snprintf(path, sizeof path, "/api/games/%lld", (long long)d.game);
            json_t *g = get_json(path, NULL, 200);
            check_message(g, -1);
            json_decref(g);
            snprintf(path, sizeof path, "/api/games/%lld/record", (long long)d.game);
            http_resp r;
            assert_int_equal(http_request(HOST, server.port, "GET", path, NULL, NULL, &r), 0);
            assert_int_equal(r.status, 200);
            assert_null(strstr(r.body, "[FEN"));
            assert_null(strstr(r.body, "[SetUp"));
            assert_null(strstr(r.body, "Setup \""));
            assert_non_null(strstr(r.body, "[Result \"*\"]"));
            assert_non_null(strstr(r.body, "[Termination \"unterminated\"]"));
            assert_int_equal(pgn_check_both(r.body), 0);
            http_resp_free(&r);
        }
    }
    json_decref(last[0]);
    json_decref(last[1]);
    json_decref(drain_checked(sp, -1, WANT_MOVE));  /* the last move's */
    /* no reviewing move by move while the game is live */
    char ppath[64];
    snprintf(ppath, sizeof ppath, "/api/games/%lld/positions", (long long)d.game);
    json_t *denied = get_json(ppath, NULL, 403);
    json_decref(denied);
    /* the end makes everything public: the start holds both setups */
    send_fmt(d.side[0], "{\"type\":\"resign\",\"game\":%lld}", (long long)d.game);
    json_t *end = ws_expect(sp, "end", WAIT);
    assert_non_null(end);
    const char *start = json_string_value(json_object_get(end, "start"));
    assert_non_null(start);
    assert_null(strchr(start, 'X'));
    assert_null(strchr(start, 'x'));
    /* once over, every position is public, the start first */
    json_t *review = get_json(ppath, NULL, 200);
    json_t *list = json_object_get(review, "positions");
    assert_int_equal(json_array_size(list), 41);
    assert_string_equal(json_string_value(json_array_get(list, 0)), start);
    /* and the game itself, to anyone who opens it after the end (a reload
     * of the game page): the whole last position, the end's */
    const char *final = json_string_value(json_object_get(end, "position"));
    assert_non_null(final);
    char gpath[64];
    snprintf(gpath, sizeof gpath, "/api/games/%lld", (long long)d.game);
    json_t *after = get_json(gpath, NULL, 200);
    assert_string_equal(json_string_value(json_object_get(after, "position")), final);
    assert_string_equal(json_string_value(json_object_get(after, "start")), start);
    json_decref(after);
    send_fmt(sp, "{\"type\":\"watch\",\"game\":%lld}", (long long)d.game);
    json_t *again = ws_expect(sp, "game", WAIT);
    assert_non_null(again);
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(again, "game"), "position")), final);
    json_decref(again);
    /* the record shows the start and both setups now, and what every
     * combat showed both players as a comment after its move */
    char rpath[64], want[400];
    snprintf(rpath, sizeof rpath, "/api/games/%lld/record", (long long)d.game);
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "GET", rpath, NULL, NULL, &r), 0);
    assert_int_equal(r.status, 200);
    snprintf(want, sizeof want, "[SetUp \"1\"]\n[FEN \"%s\"]\n", start);
    assert_non_null(strstr(r.body, want));
    assert_non_null(strstr(r.body, "[RedSetup \""));
    assert_non_null(strstr(r.body, "[BlueSetup \""));
    assert_non_null(strstr(r.body, "[Result \"0-1\"]"));  /* Red resigned */
    assert_int_equal(strstr(r.body, "attacks") != NULL, events > 0);
    assert_int_equal(pgn_check_both(r.body), 0);
    http_resp_free(&r);
    json_decref(review);
    json_decref(end);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
    ws_close(sp);
}

/* S8 against a bot, and on one device (pass-the-device): a player's
 * messages show its own pieces only; a one-device client is sent the
 * view of the side to move. */
static void test_S8_bot_and_one_device_games_send_no_hidden_rank(void **state)
{
    (void)state;
    char c[80];
    guest(c);
    ws_conn *w = connect_as(c, NULL);
    /* against the beginner bot: its setup is in at once */
    send_fmt(w, "{\"type\":\"play_bot\",\"variant\":\"stratego\",\"bot\":\"bot-level1\","
                "\"side\":0,\"base_ms\":0}");
    json_t *g = ws_expect(w, "game", WAIT);
    assert_non_null(g);
    json_int_t id = jint(json_object_get(g, "game"), "id");
    json_t *ready = json_object_get(json_object_get(g, "game"), "ready");
    assert_int_equal(json_array_size(ready), 1);
    json_decref(g);
    send_fmt(w, "{\"type\":\"setup\",\"game\":%lld,\"setup\":\"%s\"}", (long long)id,
             library_setup(0));
    json_t *last = NULL;
    for (int ply = 0; ply < 30; ply += 2) {
        json_t *m;
        /* wait for our turn: a message with legal moves */
        for (;;) {
            m = ws_recv_json(w, WAIT);
            assert_non_null(m);
            check_message(m, 0);
            if (json_object_get(json_object_get(m, "game"), "legal") || json_object_get(m, "legal"))
                break;
            if (strcmp(json_string_value(json_object_get(m, "type")), "end") == 0)
                break;
            json_decref(m);
        }
        if (strcmp(json_string_value(json_object_get(m, "type")), "end") == 0) {
            json_decref(m);
            break;
        }
        json_t *legal = json_object_get(m, "legal");
        if (!legal)
            legal = json_object_get(json_object_get(m, "game"), "legal");
        json_int_t at = json_object_get(m, "game") && json_is_object(json_object_get(m, "game"))
                            ? jint(json_object_get(m, "game"), "ply")
                            : jint(m, "ply") + 1;
        send_fmt(w, "{\"type\":\"move\",\"game\":%lld,\"ply\":%lld,\"move\":\"%s\"}",
                 (long long)id, (long long)at,
                 json_string_value(json_array_get(legal, (size_t)ply % json_array_size(legal))));
        json_decref(last);
        last = m;
    }
    json_decref(last);
    ws_close(w);

    /* one device: both setups from one client, then moves; each position
     * is the view of the side to move */
    w = connect_as(c, NULL);
    send_fmt(w, "{\"type\":\"local\",\"variant\":\"stratego\",\"base_ms\":0}");
    g = ws_expect(w, "game", WAIT);
    assert_non_null(g);
    id = jint(json_object_get(g, "game"), "id");
    json_decref(g);
    for (int side = 0; side < 2; side++) {
        send_fmt(w, "{\"type\":\"setup\",\"game\":%lld,\"side\":%d,\"setup\":\"%s\"}",
                 (long long)id, side, library_setup(side));
        json_t *ok = ws_expect(w, "setup_ok", WAIT);
        assert_non_null(ok);
        json_decref(ok);
    }
    g = ws_expect(w, "game", WAIT);
    assert_non_null(g);
    json_t *first = json_incref(json_object_get(g, "game"));
    check_message(g, 0);
    json_decref(g);
    last = first;
    for (int ply = 0; ply < 20; ply++) {
        json_t *legal = json_object_get(last, "legal");
        assert_true(json_array_size(legal) > 0);
        send_fmt(w, "{\"type\":\"move\",\"game\":%lld,\"ply\":%d,\"move\":\"%s\"}",
                 (long long)id, ply,
                 json_string_value(json_array_get(legal, (size_t)ply * 7 % json_array_size(legal))));
        json_t *m = ws_expect(w, "move", WAIT);
        assert_non_null(m);
        if (!json_object_get(m, "legal")) {
            json_decref(m);
            break;  /* the game ended */
        }
        /* after ply, the side to move is (ply + 1) % 2: its view only */
        check_message(m, (ply + 1) % 2);
        assert_int_equal(jint(m, "to_move"), (ply + 1) % 2);
        json_decref(last);
        last = m;
    }
    json_decref(last);
    ws_close(w);
}

/* Keeps & Moats at a four-seat table (K3): a person, two bots and a second
 * person; the game type and King result chosen at creation reach the
 * game; the bots move in their turns; the people move from their legal
 * lists. */
static void test_S3_saved_setups(void **state)
{
    (void)state;
    char c[80], body[200];
    signup("judy", c);
    const char *setup = library_setup(1);
    snprintf(body, sizeof body, "{\"name\":\"my wall\",\"setup\":\"%s\"}", setup);
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/setups/stratego", c, body, &r), 0);
    assert_int_equal(r.status, 200);
    http_resp_free(&r);
    json_t *j = get_json("/api/setups/stratego", c, 200);
    json_t *saved = json_object_get(j, "saved");
    assert_int_equal(json_array_size(saved), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(saved, 0), "name")),
                        "my wall");
    assert_int_equal(strlen(json_string_value(json_object_get(j, "random"))), strlen(setup));
    json_decref(j);
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/setups/stratego", c,
                                  "{\"name\":\"x\",\"setup\":\"FFFFFFFFFF\"}", &r),
                     0);
    assert_int_equal(r.status, 400);
    http_resp_free(&r);
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/setups/stratego", NULL, body, &r),
                     0);
    assert_int_equal(r.status, 401);
    http_resp_free(&r);
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/setups/stratego/delete", c,
                                  "{\"name\":\"my wall\"}", &r),
                     0);
    assert_int_equal(r.status, 200);
    http_resp_free(&r);
    j = get_json("/api/setups/stratego", c, 200);
    assert_int_equal(json_array_size(json_object_get(j, "saved")), 0);
    json_decref(j);
}

/* The page's files are served; paths cannot leave the web root. */
/* One device: the page covers the board while the device changes hands,
 * and no clock runs meanwhile (docs/api.md, uncover): held from the start
 * of play and after each move, running again from the uncover. */
static void test_one_device_clocks_stand_while_covered(void **state)
{
    (void)state;
    char c[80];
    guest(c);
    ws_conn *w = connect_as(c, NULL);
    send_fmt(w, "{\"type\":\"local\",\"variant\":\"stratego\",\"base_ms\":60000,\"inc_ms\":0}");
    json_t *g = ws_expect(w, "game", WAIT);
    assert_non_null(g);
    long long id = jint(json_object_get(g, "game"), "id");
    json_decref(g);
    for (int side = 0; side < 2; side++) {
        send_fmt(w, "{\"type\":\"setup\",\"game\":%lld,\"side\":%d,\"setup\":\"%s\"}", id, side,
                 library_setup(side));
        json_t *ok = ws_expect(w, "setup_ok", WAIT);
        assert_non_null(ok);
        json_decref(ok);
    }
    g = ws_expect(w, "game", WAIT);
    assert_non_null(g);
    json_t *game = json_object_get(g, "game");
    assert_true(json_is_true(json_object_get(game, "held")));  /* Red takes the device first */
    json_decref(g);
    usleep(600 * 1000);
    send_fmt(w, "{\"type\":\"uncover\",\"game\":%lld}", id);
    g = ws_expect(w, "game", WAIT);
    assert_non_null(g);
    game = json_object_get(g, "game");
    assert_null(json_object_get(game, "held"));
    /* the 600 ms under the cover were nobody's */
    assert_int_equal(json_integer_value(json_array_get(json_object_get(game, "clocks"), 0)), 60000);
    char move[16];
    snprintf(move, sizeof move, "%s", json_string_value(json_array_get(json_object_get(game, "legal"), 0)));
    json_decref(g);
    usleep(600 * 1000);
    send_fmt(w, "{\"type\":\"move\",\"game\":%lld,\"ply\":0,\"move\":\"%s\"}", id, move);
    json_t *m = ws_expect(w, "move", WAIT);
    assert_non_null(m);
    /* Red's 600 ms after the uncover were Red's; Blue's clock stands, held */
    json_int_t red = json_integer_value(json_array_get(json_object_get(m, "clocks"), 0));
    assert_true(red <= 60000 - 400 && red > 50000);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(m, "clocks"), 1)), 60000);
    assert_true(json_is_true(json_object_get(m, "held")));
    json_decref(m);
    usleep(600 * 1000);
    send_fmt(w, "{\"type\":\"uncover\",\"game\":%lld}", id);
    g = ws_expect(w, "game", WAIT);
    assert_non_null(g);
    game = json_object_get(g, "game");
    assert_null(json_object_get(game, "held"));
    assert_int_equal(json_integer_value(json_array_get(json_object_get(game, "clocks"), 1)), 60000);
    json_decref(g);
    /* someone else's uncover: refused, and nothing changes */
    char other[80];
    guest(other);
    ws_conn *o = connect_as(other, NULL);
    send_fmt(o, "{\"type\":\"uncover\",\"game\":%lld,\"ref\":\"u\"}", id);
    json_t *e = ws_expect(o, "error", WAIT);
    assert_non_null(e);
    json_decref(e);
    ws_close(o);
    ws_close(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_S8_online_game_sends_no_hidden_rank),
        cmocka_unit_test(test_S8_bot_and_one_device_games_send_no_hidden_rank),
        cmocka_unit_test(test_S3_saved_setups),
        cmocka_unit_test(test_one_device_clocks_stand_while_covered),
    };
    return fixture_run_group(tests, &fixture);
}
