/* test_keeps_live.c -- Keeps & Moats at the real server's four-seat
 * tables, over real connections: whom a move's `ref` reaches, every bot
 * offered for the game in any seat, and resigning (K6, docs/api.md
 * "Resigning"): a kingdom that resigns is out, the others play on, and a
 * restart replays the resignation.
 *
 * The group starts the real server (the binary in $CITADEL, default
 * build/release/citadel) on a free loopback port with a fresh database;
 * the resignation test kills it (SIGKILL) and starts it again on the same
 * database. Tables are made without a clock (base_ms 0), so that nothing
 * ends them but their moves; a player gone, or a bot that gives no move,
 * ends a game after 4 s here; a player plays one game at a time.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pgn_check.h"
#include "wire.h"

#define SERVER_ARGS                                                                    \
    "--abandon-ms 4000 --limit signups-per-hour=0 --limit guests-per-hour=0 "           \
    "--limit new-games-per-hour=0 --limit bot-games-at-once=0 --limit games-at-once=1"

static const fixture_spec fixture = { .args = SERVER_ARGS };

static const char *jstr(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* The next `move` or `end` message c gets (caller decrefs); NULL if none
 * comes within timeout_ms. */
static json_t *next_event(ws_conn *c, int timeout_ms)
{
    for (;;) {
        json_t *m = ws_recv_json(c, timeout_ms);
        if (!m)
            return NULL;
        const char *t = jstr(m, "type");
        if (strcmp(t, "move") == 0 || strcmp(t, "end") == 0)
            return m;
        json_decref(m);
    }
}

/* The next `move` message c gets, failing the test on an `end` or a
 * timeout. */
static json_t *expect_move(ws_conn *c, const char *who)
{
    json_t *m = next_event(c, WAIT);
    if (!m)
        fail_msg("%s got no move (last error: %s)", who, ws_last_error(c));
    if (strcmp(jstr(m, "type"), "move") != 0)
        fail_msg("%s got an end instead of a move: %s", who, json_dumps(m, 0));
    return m;
}

/* A table of keeps-moats with these seats (JSON strings) and settings;
 * `creator` sits where "me" is; `sitter` (if not NULL) takes seat
 * `sitter_seat`, which must be "open". Returns the creator's `game`
 * message (caller decrefs); *id gets the game's id. */
static json_t *table(ws_conn *creator, ws_conn *sitter, int sitter_seat, const char *seats,
                     const char *options, json_int_t *id)
{
    send_fmt(creator,
             "{\"type\":\"table\",\"variant\":\"keeps-moats\",\"base_ms\":0,"
             "\"options\":{%s},\"seats\":[%s]}",
             options, seats);
    if (sitter) {
        json_t *t = ws_expect(creator, "table_created", WAIT);
        if (!t)
            fail_msg("no table for seats %s: %s", seats, ws_last_error(creator));
        send_fmt(sitter, "{\"type\":\"sit\",\"table\":%lld,\"seat\":%d}",
                 (long long)jint(t, "table"), sitter_seat);
        json_decref(t);
        json_t *gs = ws_expect(sitter, "game", WAIT);
        assert_non_null(gs);
        json_decref(gs);
    }
    json_t *g = ws_expect(creator, "game", WAIT);
    if (!g)
        fail_msg("no game for seats %s: %s", seats, ws_last_error(creator));
    *id = jint(json_object_get(g, "game"), "id");
    return g;
}

static void watch(ws_conn *c, json_int_t id)
{
    send_fmt(c, "{\"type\":\"watch\",\"game\":%lld}", (long long)id);
    json_t *g = ws_expect(c, "game", WAIT);
    assert_non_null(g);
    json_decref(g);
}

/* --- 1. a move's ref ------------------------------------------------------------------ */

/* docs/api.md: the `ref` of a move request comes back only in the mover's
 * own copy of the `move` message; the other players and the spectators
 * get theirs without it. */
static void test_move_ref_only_in_the_movers_copy(void **state)
{
    (void)state;
    char ca[80], cb[80], cs[80];
    guest(ca);
    guest(cb);
    guest(cs);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL), *s = connect_as(cs, NULL);
    json_int_t id;
    json_t *g = table(a, b, 1, "\"me\",\"open\",\"me\",\"bot-random\"", "", &id);
    watch(s, id);
    /* White (a) moves with an object ref; Red (b) with a string one */
    send_fmt(a, "{\"type\":\"move\",\"game\":%lld,\"ply\":0,\"move\":\"%s\",\"ref\":{\"n\":7}}",
             (long long)id, first_legal(json_object_get(g, "game"), 0));
    json_decref(g);
    json_t *ma = expect_move(a, "the mover"), *mb = expect_move(b, "the next player"),
           *ms = expect_move(s, "the spectator");
    assert_int_equal(jint(ma, "ply"), 0);
    assert_int_equal(jint(mb, "ply"), 0);
    assert_int_equal(jint(ms, "ply"), 0);
    assert_int_equal(jint(json_object_get(ma, "ref"), "n"), 7);
    if (json_object_get(mb, "ref") || json_object_get(ms, "ref"))
        fail_msg("the mover's ref reached others: %s / %s", json_dumps(mb, 0),
                 json_dumps(ms, 0));
    assert_non_null(json_object_get(mb, "legal"));  /* Red is to move */
    json_decref(ma);
    json_decref(ms);
    send_fmt(b, "{\"type\":\"move\",\"game\":%lld,\"ply\":1,\"move\":\"%s\",\"ref\":\"red\"}",
             (long long)id, first_legal(mb, 3));
    json_decref(mb);
    ma = expect_move(a, "the next player");
    mb = expect_move(b, "the mover");
    ms = expect_move(s, "the spectator");
    assert_string_equal(jstr(mb, "ref"), "red");
    assert_null(json_object_get(ma, "ref"));
    assert_null(json_object_get(ms, "ref"));
    assert_non_null(json_object_get(ma, "legal"));  /* Black (a) is to move */
    json_decref(ma);
    json_decref(mb);
    json_decref(ms);
    ws_close(a);
    ws_close(b);
    ws_close(s);
}

/* --- 2. every bot offered, in any seat --------------------------------------------------- */

/* Plays the game from a's `game` message on, a playing every seat that is
 * not a bot's, until the game has `plies` moves or ends; the end, if any,
 * must be the board's own ("kings"). Returns the moves made. */
static int play_on(ws_conn *a, json_t *game, json_int_t id, int plies, const char *what)
{
    json_t *last = json_incref(game);
    int ply = (int)jint(game, "ply");
    while (ply < plies) {
        if (json_object_get(last, "legal")) {
            send_fmt(a, "{\"type\":\"move\",\"game\":%lld,\"ply\":%d,\"move\":\"%s\"}",
                     (long long)id, ply, first_legal(last, (size_t)ply * 5 + 1));
        }
        json_t *m = next_event(a, WAIT);
        if (!m)
            fail_msg("%s: no move after ply %d (last error: %s)", what, ply, ws_last_error(a));
        if (strcmp(jstr(m, "type"), "end") == 0) {
            json_t *r = json_object_get(m, "result");
            if (strcmp(jstr(r, "reason"), "kings") != 0)
                fail_msg("%s: the game ended after %d moves for no reason of the board's: %s",
                         what, ply, json_dumps(m, 0));
            json_decref(m);
            break;
        }
        ply = (int)jint(m, "ply") + 1;
        json_decref(last);
        last = m;
    }
    json_decref(last);
    return ply;
}

/* Every bot /api/bots lists as playing keeps-moats sits at a table (in a
 * seat that changes from bot to bot, with another bot and a person) and
 * plays: the game reaches 20 moves, or ends by the board. Every bot not
 * listed is refused a seat. Before, Greedy was listed but could not play
 * a four-sided game: it never moved, and the game ended "abandoned". */
static void test_every_keeps_bot_plays_in_any_seat(void **state)
{
    (void)state;
    json_t *list_of_bots = get_json("/api/bots", NULL, 200);
    json_t *bots = json_object_get(list_of_bots, "bots");
    const char *names[64];
    int n = 0;
    size_t i;
    json_t *b;
    json_array_foreach(bots, i, b) {
        int plays = 0;
        size_t k;
        json_t *v;
        json_array_foreach(json_object_get(b, "variants"), k, v)
            plays |= strcmp(json_string_value(v), "keeps-moats") == 0;
        if (plays && n < 64)
            names[n++] = jstr(b, "name");
        if (plays)
            continue;
        /* not offered for the game: no seat for it */
        char c[80];
        guest(c);
        ws_conn *w = connect_as(c, NULL);
        send_fmt(w, "{\"type\":\"table\",\"variant\":\"keeps-moats\",\"base_ms\":0,"
                    "\"seats\":[\"me\",\"%s\",\"open\",\"open\"]}",
                 jstr(b, "name"));
        json_t *e = ws_expect(w, "error", WAIT);
        assert_non_null(e);
        assert_non_null(strstr(jstr(e, "error"), "a bot that plays"));
        json_decref(e);
        ws_close(w);
    }
    assert_true(n >= 3);
    for (int t = 0; t < n; t++) {
        int seat = t % 4, other = (seat + 2) % 4;
        const char *seats[4] = { "\"me\"", "\"me\"", "\"me\"", "\"me\"" };
        char mine[80], partner[80];
        snprintf(mine, sizeof mine, "\"%s\"", names[t]);
        snprintf(partner, sizeof partner, "\"%s\"", names[(t + 1) % n]);
        seats[seat] = mine;
        seats[other] = partner;
        char list[200], what[120];
        snprintf(list, sizeof list, "%s,%s,%s,%s", seats[0], seats[1], seats[2], seats[3]);
        snprintf(what, sizeof what, "%s in seat %d (with %s)", names[t], seat, partner);
        char c[80];
        guest(c);
        ws_conn *w = connect_as(c, NULL);
        json_int_t id;
        json_t *g = table(w, NULL, 0, list, "\"GameType\":2", &id);
        int plies = play_on(w, json_object_get(g, "game"), id, 20, what);
        json_decref(g);
        char path[64];
        snprintf(path, sizeof path, "/api/games/%lld", (long long)id);
        json_t *st = get_json(path, NULL, 200);
        if (plies < 20 && strcmp(jstr(json_object_get(st, "result"), "reason"), "kings") != 0)
            fail_msg("%s: stopped at %d moves: %s", what, plies, json_dumps(st, 0));
        json_decref(st);
        ws_close(w);
    }
    json_decref(list_of_bots);
}

/* --- 3. resigning ------------------------------------------------------------------------ */

/* 1 if the position string's board holds a piece of kingdom `letter`. */
static int has_pieces(const char *position, char letter)
{
    for (const char *p = position; *p && *p != ' '; p++)
        if (*p == letter && p[1] >= 'A' && p[1] <= 'Z')
            return 1;
    return 0;
}

/* Field i (0-based) of a position string, into out. */
static const char *field(const char *position, int i, char *out, size_t size)
{
    const char *p = position;
    for (int k = 0; k < i && p; k++)
        p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL;
    size_t len = p ? strcspn(p, " ") : 0;
    snprintf(out, size, "%.*s", (int)len, p ? p : "");
    return out;
}

/* Checks a `move` message that is kingdom `letter`'s resignation. */
static void check_resignation(json_t *m, int ply, char letter, int to_move)
{
    char text[16], f[16];
    snprintf(text, sizeof text, "resign:%c", letter);
    assert_int_equal(jint(m, "ply"), ply);
    assert_string_equal(jstr(m, "move"), text);
    assert_int_equal(jint(m, "to_move"), to_move);
    const char *pos = jstr(m, "position");
    assert_false(has_pieces(pos, letter));  /* Lost: the pieces leave the board */
    assert_non_null(strchr(field(pos, 6, f, sizeof f), letter));  /* out */
}

/* K6 and docs/api.md "Resigning": at a four-seat table (Allied Neighbors,
 * Captured King Lost) a person playing White and Black resigns Black out
 * of turn (side given), then White on White's turn (no side: the side to
 * move); everyone gets each resignation as a move, the mover alone with
 * its ref; the others play on with those kingdoms out. A restart replays
 * the game to the same position; the last kingdom of one team resigning
 * ends it by the board (the other team's Kings are left). */
static void test_K6_resign_at_a_four_seat_table(void **state)
{
    (void)state;
    char ca[80], cb[80], cs[80];
    signup("kate", ca);
    signup("liam", cb);
    guest(cs);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL), *s = connect_as(cs, NULL);
    json_int_t id;
    /* White and Black: a; Red: b; Blue: a bot. White+Blue against Red+Black. */
    json_t *g = table(a, b, 1, "\"me\",\"open\",\"me\",\"bot-random\"",
                      "\"GameType\":0,\"KingResult\":1", &id);
    watch(s, id);
    send_fmt(a, "{\"type\":\"move\",\"game\":%lld,\"ply\":0,\"move\":\"%s\"}", (long long)id,
             first_legal(json_object_get(g, "game"), 0));
    json_decref(g);
    json_t *m = expect_move(b, "Red");
    assert_non_null(json_object_get(m, "legal"));
    json_decref(m);
    json_decref(expect_move(a, "White"));
    json_decref(expect_move(s, "the spectator"));

    /* refusals: a side one does not play; a side out of range */
    send_fmt(b, "{\"type\":\"resign\",\"game\":%lld,\"side\":2}", (long long)id);
    json_t *e = ws_expect(b, "error", WAIT);
    assert_non_null(e);
    assert_non_null(strstr(jstr(e, "error"), "sides you play"));
    json_decref(e);
    char bad[120];  /* not a side: against the schema on purpose, so not logged */
    snprintf(bad, sizeof bad, "{\"type\":\"resign\",\"game\":%lld,\"side\":\"black\"}",
             (long long)id);
    assert_int_equal(ws_send_hostile(a, bad), 0);
    assert_non_null((e = ws_expect(a, "error", WAIT)));
    json_decref(e);

    /* Black resigns while Red is to move: Red keeps the turn */
    send_fmt(a, "{\"type\":\"resign\",\"game\":%lld,\"side\":2,\"ref\":\"bye\"}", (long long)id);
    json_t *ra = expect_move(a, "the resigner"), *rb = expect_move(b, "Red"),
           *rs = expect_move(s, "the spectator");
    check_resignation(ra, 1, 'b', 1);
    check_resignation(rb, 1, 'b', 1);
    check_resignation(rs, 1, 'b', 1);
    assert_string_equal(jstr(ra, "ref"), "bye");
    assert_null(json_object_get(rb, "ref"));
    assert_null(json_object_get(rs, "ref"));
    assert_non_null(json_object_get(rb, "legal"));
    assert_null(json_object_get(ra, "legal"));
    json_decref(ra);
    json_decref(rs);
    /* a move Red sent for the ply before is stale; Red plays on at ply 2 */
    send_fmt(b, "{\"type\":\"move\",\"game\":%lld,\"ply\":1,\"move\":\"%s\"}", (long long)id,
             first_legal(rb, 0));
    assert_non_null((e = ws_expect(b, "error", WAIT)));
    assert_non_null(strstr(jstr(e, "error"), "stale"));
    json_decref(e);
    /* a resignation is a request of its own, never a move */
    send_fmt(b, "{\"type\":\"move\",\"game\":%lld,\"ply\":2,\"move\":\"resign:w\"}",
             (long long)id);
    assert_non_null((e = ws_expect(b, "error", WAIT)));
    assert_non_null(strstr(jstr(e, "error"), "illegal move"));
    json_decref(e);
    send_fmt(b, "{\"type\":\"move\",\"game\":%lld,\"ply\":2,\"move\":\"%s\"}", (long long)id,
             first_legal(rb, 0));
    json_decref(rb);
    json_decref(expect_move(b, "Red"));
    /* Black is skipped: Blue's bot moves, then White (a) is to move */
    m = expect_move(b, "Red");
    assert_int_equal(jint(m, "ply"), 3);
    json_decref(m);
    json_t *wa = NULL;
    for (;;) {
        wa = expect_move(a, "White");
        if (jint(wa, "ply") == 3)
            break;
        json_decref(wa);
    }
    assert_int_equal(jint(wa, "to_move"), 0);
    assert_non_null(json_object_get(wa, "legal"));
    json_decref(wa);

    /* a, still in with White, may not start a second game */
    static const char solo[] = "{\"type\":\"table\",\"variant\":\"keeps-moats\",\"base_ms\":0,"
                               "\"seats\":[\"me\",\"me\",\"me\",\"me\"]}";
    send_fmt(a, "%s", solo);
    assert_non_null((e = ws_expect(a, "error", WAIT)));
    assert_non_null(strstr(jstr(e, "error"), "already plays"));
    json_decref(e);

    /* White resigns on its turn, naming no side: the side to move; Blue,
     * its ally, plays on; the turn passes to Red */
    send_fmt(a, "{\"type\":\"resign\",\"game\":%lld}", (long long)id);
    ra = NULL;
    for (;;) {
        ra = expect_move(a, "the resigner");
        if (jint(ra, "ply") == 4)
            break;
        json_decref(ra);
    }
    check_resignation(ra, 4, 'w', 1);
    char before_kill[1024];
    snprintf(before_kill, sizeof before_kill, "%s", jstr(ra, "position"));
    json_decref(ra);
    for (;;) {
        rb = expect_move(b, "Red");
        if (jint(rb, "ply") == 4)
            break;
        json_decref(rb);
    }
    check_resignation(rb, 4, 'w', 1);
    assert_non_null(json_object_get(rb, "legal"));
    json_decref(rb);
    for (;;) {
        rs = expect_move(s, "the spectator");
        if (jint(rs, "ply") == 4)
            break;
        json_decref(rs);
    }
    check_resignation(rs, 4, 'w', 1);
    json_decref(rs);
    /* a has no kingdom left: nothing more to resign, no draw to offer */
    send_fmt(a, "{\"type\":\"resign\",\"game\":%lld}", (long long)id);
    assert_non_null((e = ws_expect(a, "error", WAIT)));
    assert_non_null(strstr(jstr(e, "error"), "still in"));
    json_decref(e);
    send_fmt(a, "{\"type\":\"draw\",\"game\":%lld}", (long long)id);
    assert_non_null((e = ws_expect(a, "error", WAIT)));
    assert_non_null(strstr(jstr(e, "error"), "still in"));
    json_decref(e);
    /* ... and the game no longer counts among a's: a may start another */
    send_fmt(a, "%s", solo);
    g = ws_expect(a, "game", WAIT);
    if (!g)
        fail_msg("a, out of its first game, may not start another: %s", ws_last_error(a));
    assert_true(jint(json_object_get(g, "game"), "id") != id);
    json_decref(g);
    char path[80];
    snprintf(path, sizeof path, "/api/games/%lld", (long long)id);
    json_t *st = get_json(path, NULL, 200);
    assert_string_equal(jstr(st, "status"), "live");
    assert_int_equal(jint(st, "ply"), 5);
    json_t *moves = json_object_get(st, "moves");
    assert_string_equal(json_string_value(json_array_get(moves, 1)), "resign:b");
    assert_string_equal(json_string_value(json_array_get(moves, 4)), "resign:w");
    json_decref(st);

    /* killed and started again: the game comes back as it was */
    server_kill(&server, SIGKILL);
    ws_drop(a);
    ws_drop(b);
    ws_drop(s);
    char db[sizeof server.db];
    memcpy(db, server.db, sizeof db);
    assert_int_equal(server_start(&server, server_binary(), db, SERVER_ARGS), 0);
    json_t *hello;
    b = connect_as(cb, &hello);
    assert_int_equal(json_array_size(json_object_get(hello, "games")), 1);
    json_decref(hello);
    s = connect_as(cs, NULL);
    watch(s, id);
    send_fmt(b, "{\"type\":\"watch\",\"game\":%lld}", (long long)id);
    g = ws_expect(b, "game", WAIT);
    assert_non_null(g);
    json_t *game = json_object_get(g, "game");
    assert_int_equal(jint(game, "ply"), 5);
    assert_string_equal(jstr(game, "position"), before_kill);
    assert_int_equal(jint(game, "to_move"), 1);
    assert_string_equal(json_string_value(json_array_get(json_object_get(game, "moves"), 1)),
                        "resign:b");
    /* Red plays on; Blue's bot answers; Red again (White and Black out) */
    send_fmt(b, "{\"type\":\"move\",\"game\":%lld,\"ply\":5,\"move\":\"%s\"}", (long long)id,
             first_legal(game, 2));
    json_decref(g);
    json_decref(expect_move(b, "Red"));
    m = expect_move(b, "Red");
    assert_int_equal(jint(m, "ply"), 6);
    assert_int_equal(jint(m, "to_move"), 1);
    assert_non_null(json_object_get(m, "legal"));
    json_decref(m);
    /* the review replays the resignations too */
    snprintf(path, sizeof path, "/api/games/%lld/positions", (long long)id);
    json_t *ps = get_json(path, NULL, 200);
    json_decref(ps);

    /* Red, the last of its team, resigns: only White+Blue's Kings are
     * left (Blue's): that team wins by the board */
    send_fmt(b, "{\"type\":\"resign\",\"game\":%lld}", (long long)id);
    json_t *end = ws_expect(s, "end", WAIT);
    assert_non_null(end);
    json_t *res = json_object_get(end, "result");
    assert_int_equal(jint(res, "winner"), 0);
    assert_string_equal(jstr(res, "reason"), "kings");
    json_decref(end);
    snprintf(path, sizeof path, "/api/games/%lld", (long long)id);
    st = get_json(path, NULL, 200);
    assert_string_equal(jstr(st, "status"), "over");
    assert_int_equal(jint(st, "ply"), 8);
    assert_string_equal(json_string_value(json_array_get(json_object_get(st, "moves"), 7)),
                        "resign:r");
    json_decref(st);
    /* the record (docs/pgn.md, four sides): Result "*" for PGN's readers,
     * the winners in Outcome, the resignations among the moves, and it
     * replays to that outcome */
    snprintf(path, sizeof path, "/api/games/%lld/record", (long long)id);
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "GET", path, NULL, NULL, &r), 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "[Result \"*\"]\n[Red \""));
    assert_non_null(strstr(r.body, "[Blue \""));
    assert_non_null(strstr(r.body, "[Variant \"keeps-moats\"]\n[Outcome \"white+blue\"]\n"));
    assert_non_null(strstr(r.body, "[Termination \"normal\"]\n[Reason \"kings\"]\n"));
    assert_non_null(strstr(r.body, " resign:b "));
    assert_non_null(strstr(r.body, " resign:r"));
    assert_int_equal(pgn_check_both(r.body), 0);
    http_resp_free(&r);
    ws_close(b);
    ws_close(s);
}

/* A resignation out of turn while a bot thinks about its move: the bot's
 * answer is for a position gone; it thinks again and moves. */
static void test_K6_resign_while_a_bot_thinks(void **state)
{
    (void)state;
    char ca[80];
    guest(ca);
    ws_conn *a = connect_as(ca, NULL);
    json_int_t id;
    /* Red is the slowest bot offered; a plays the other three */
    json_t *g = table(a, NULL, 0, "\"me\",\"bot-balanced5\",\"me\",\"me\"", "\"KingResult\":2",
                      &id);
    send_fmt(a, "{\"type\":\"move\",\"game\":%lld,\"ply\":0,\"move\":\"%s\"}", (long long)id,
             first_legal(json_object_get(g, "game"), 0));
    json_decref(g);
    json_decref(expect_move(a, "White"));
    send_fmt(a, "{\"type\":\"resign\",\"game\":%lld,\"side\":3}", (long long)id);
    /* the resignation and Red's move come, in either order, then Black
     * (a) is to move */
    int resigned = 0, red = 0;
    json_t *last = NULL;
    while (!(resigned && red)) {
        json_t *m = expect_move(a, "the table");
        resigned |= strcmp(jstr(m, "move"), "resign:u") == 0;
        red |= jint(m, "ply") >= 1 && strcmp(jstr(m, "move"), "resign:u") != 0;
        json_decref(last);
        last = m;
    }
    assert_int_equal(jint(last, "ply"), 2);
    assert_int_equal(jint(last, "to_move"), 2);
    assert_non_null(json_object_get(last, "legal"));
    json_decref(last);
    ws_close(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_move_ref_only_in_the_movers_copy),
        cmocka_unit_test(test_every_keeps_bot_plays_in_any_seat),
        cmocka_unit_test(test_K6_resign_at_a_four_seat_table),
        cmocka_unit_test(test_K6_resign_while_a_bot_thinks),
    };
    return fixture_run_group(tests, &fixture);
}
