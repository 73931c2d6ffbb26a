/* test_server.c -- `citadel serve` over real connections.
 *
 * Each group starts the real server (the binary in $CITADEL, default
 * build/release/citadel) on a free loopback port with a fresh database, and
 * talks to it with the independent client of client.h: HTTP for accounts
 * and reading, WebSocket for play. Rulings named: R7 (ends), R8 (clocks,
 * sterile draws, Elo).
 */
#include <math.h>
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

/* A player gone on its turn loses after 4 s here (60 s by default). */
#define SERVER_ARGS                                                                    \
    "--abandon-ms 4000 --limit signups-per-hour=0 --limit guests-per-hour=0 "           \
    "--limit new-games-per-hour=0"

static const fixture_spec fixture = { .args = SERVER_ARGS };

static void test_R8_rated_game_with_clocks_and_elo(void **state)
{
    (void)state;
    char ca[80], cb[80];
    signup("alice", ca);
    signup("bob", cb);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL);
    duel d;
    start_duel(a, b,
               "\"variant\":\"rampart\",\"base_ms\":60000,\"inc_ms\":2000,\"move_limit\":100,"
               "\"rated\":true",
               &d);
    assert_true(json_is_true(json_object_get(d.state, "rated")));
    assert_int_equal(jint(d.state, "ply"), 0);
    assert_non_null(json_object_get(d.state, "legal"));
    /* six moves; each side's clock shows base - used + increment */
    json_t *last = json_incref(d.state);
    for (int ply = 0; ply < 6; ply++) {
        json_t *m = play(d.side[ply % 2], d.game, ply, first_legal(last, (size_t)ply * 7));
        json_t *other = ws_expect(d.side[(ply + 1) % 2], "move", WAIT);
        assert_non_null(other);
        assert_string_equal(json_string_value(json_object_get(other, "move")),
                            json_string_value(json_object_get(m, "move")));
        json_t *clocks = json_object_get(m, "clocks");
        assert_int_equal(json_array_size(clocks), 2);
        json_int_t mover = json_integer_value(json_array_get(clocks, (size_t)(ply % 2)));
        json_int_t most = 60000 + 2000 * (ply / 2 + 1);
        assert_true(mover > most - 5000 && mover <= most);
        json_decref(m);
        json_decref(last);
        last = other;  /* the next mover's copy carries the legal moves */
    }
    json_decref(last);
    /* alice resigns, whichever side she has */
    ws_conn *loser = a;
    int loser_side = d.side[0] == a ? 0 : 1;
    send_fmt(loser, "{\"type\":\"resign\",\"game\":%lld}", (long long)d.game);
    json_t *end = ws_expect(b, "end", WAIT);
    assert_non_null(end);
    json_t *res = json_object_get(end, "result");
    assert_int_equal(jint(res, "winner"), loser_side ^ 1);
    assert_string_equal(json_string_value(json_object_get(res, "reason")), "resign");
    assert_int_equal(json_array_size(json_object_get(res, "ratings")), 2);
    json_decref(end);

    int games;
    json_t *pa = player_json("alice"), *pb = player_json("bob");
    assert_true(fabs(rating_of(pa, "rampart", &games) - 1480.0) < 1e-9);
    assert_int_equal(games, 1);
    assert_true(fabs(rating_of(pb, "rampart", &games) - 1520.0) < 1e-9);
    json_t *hist = json_object_get(json_object_get(pb, "history"), "rampart");
    assert_int_equal(json_array_size(hist), 1);
    assert_int_equal(jint(json_array_get(hist, 0), "game"), d.game);
    /* the game is in both players' lists */
    json_t *list = get_json("/api/players/bob/games", NULL, 200);
    assert_true(json_array_size(json_object_get(list, "games")) >= 1);
    assert_int_equal(jint(json_array_get(json_object_get(list, "games"), 0), "id"), d.game);
    json_decref(list);
    /* XL is a separate ladder: untouched */
    rating_of(pa, "rampart-xl", &games);
    assert_int_equal(games, 0);
    json_decref(pa);
    json_decref(pb);

    json_t *ladder = get_json("/api/ladder/rampart", NULL, 200);
    json_t *rows = json_object_get(ladder, "rows");
    assert_true(json_array_size(rows) >= 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 0), "name")),
                        "bob");
    json_decref(ladder);

    /* the record, in PGN (docs/pgn.md): the Seven Tag Roster first, the
     * players by the sides' names too, the clock, the end in PGN's words and
     * the engine's, six moves each with its clock, the result */
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld/record", (long long)d.game);
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "GET", path, NULL, NULL, &r), 0);
    assert_int_equal(r.status, 200);
    const char *roster = "[Event \"Rampart Classic rated game\"]\n[Site ";
    assert_true(strncmp(r.body, roster, strlen(roster)) == 0);
    assert_non_null(strstr(r.body, "[Variant \"rampart\"]"));
    assert_non_null(strstr(r.body, "[TimeControl \"60+2\"]"));
    assert_non_null(strstr(r.body, "[Termination \"normal\"]\n"));
    assert_non_null(strstr(r.body, "[Reason \"resign\"]"));
    assert_non_null(strstr(r.body, "[Bottom \""));
    assert_non_null(strstr(r.body, "[White \""));
    const char *result = loser_side == 0 ? "0-1" : "1-0";
    char want[32];
    snprintf(want, sizeof want, "[Result \"%s\"]", result);
    assert_non_null(strstr(r.body, want));
    assert_null(strstr(r.body, "[FEN "));  /* the Classic start */
    assert_non_null(strstr(r.body, "3. "));
    assert_non_null(strstr(r.body, " {[%clk 0:01:"));
    snprintf(want, sizeof want, "%s\n\n", result);  /* the result token last */
    size_t blen = strlen(r.body), wlen = strlen(want);
    assert_true(blen > wlen && strcmp(r.body + blen - wlen, want) == 0);
    assert_int_equal(pgn_check_both(r.body), 0);
    /* Site: the address the record was read from (no --site given) */
    char site[96];
    snprintf(site, sizeof site, "[Site \"http://%s:%d\"]\n", HOST, server.port);
    assert_non_null(strstr(r.body, site));
    http_resp_free(&r);
    /* ... but only a plain host name or address: another Host gives "?" */
    char req[300], *raw_resp;
    size_t raw_len;
    snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\"]\\[y\r\nConnection: close\r\n\r\n", path);
    assert_true(http_raw(HOST, server.port, req, strlen(req), &raw_resp, &raw_len, 3000) >= 0);
    assert_true(strstr(raw_resp, " 200 ") == NULL || strstr(raw_resp, "[Site \"?\"]") != NULL);
    assert_null(strstr(raw_resp, "[Site \"http"));
    free(raw_resp);

    /* a rematch: both ask, both get a new game with sides turned round */
    send_fmt(a, "{\"type\":\"rematch\",\"game\":%lld}", (long long)d.game);
    json_t *offer = ws_expect(b, "rematch_offer", WAIT);
    assert_non_null(offer);
    json_decref(offer);
    send_fmt(b, "{\"type\":\"rematch\",\"game\":%lld}", (long long)d.game);
    json_t *g2 = ws_expect(a, "game", WAIT);
    assert_non_null(g2);
    json_t *you = json_object_get(json_object_get(g2, "game"), "you");
    assert_int_equal(json_integer_value(json_array_get(you, 0)), loser_side ^ 1);
    json_decref(g2);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

/* R7: a whole game played to its end by the rules; the end's reason is
 * one of R7's and the stored game agrees with what was sent. */
static void test_R7_whole_game_to_its_end(void **state)
{
    (void)state;
    char ca[80], cb[80];
    guest(ca);
    guest(cb);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\",\"base_ms\":0,\"move_limit\":50", &d);
    json_t *last = json_incref(d.state);
    json_t *end = NULL;
    int ply = 0;
    for (; ply < 200 && !end; ply++) {
        ws_conn *mover = d.side[ply % 2];
        send_fmt(mover, "{\"type\":\"move\",\"game\":%lld,\"ply\":%d,\"move\":\"%s\"}",
                 (long long)d.game, ply, first_legal(last, (size_t)ply * 13 + 5));
        json_decref(last);
        json_t *echo = ws_expect(mover, "move", WAIT);  /* the mover's own copy */
        assert_non_null(echo);
        json_decref(echo);
        last = ws_expect(d.side[(ply + 1) % 2], "move", WAIT);
        assert_non_null(last);
        if (!json_object_get(last, "legal"))
            end = ws_expect(d.side[(ply + 1) % 2], "end", WAIT);
    }
    json_decref(last);
    assert_non_null(end);
    const char *reason = json_string_value(json_object_get(json_object_get(end, "result"),
                                                           "reason"));
    assert_true(strcmp(reason, "no-captures") == 0 || strcmp(reason, "insufficient") == 0 ||
                strcmp(reason, "move-limit") == 0 || strcmp(reason, "no-moves") == 0);
    assert_true(ply <= 100);
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld", (long long)d.game);
    json_t *g = get_json(path, NULL, 200);
    assert_string_equal(json_string_value(json_object_get(g, "status")), "over");
    assert_int_equal(jint(g, "ply"), ply);
    assert_string_equal(json_string_value(json_object_get(json_object_get(g, "result"),
                                                          "reason")),
                        reason);
    json_decref(g);
    json_decref(end);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

/* A guest plays a bot: the bot answers every move. */
static void test_game_against_a_bot(void **state)
{
    (void)state;
    char c[80];
    guest(c);
    ws_conn *w = connect_as(c, NULL);
    send_fmt(w, "{\"type\":\"play_bot\",\"variant\":\"rampart\",\"bot\":\"bot-level2\","
                "\"side\":0,\"base_ms\":120000,\"inc_ms\":0,\"move_limit\":50}");
    json_t *g = ws_expect(w, "game", WAIT);
    assert_non_null(g);
    json_t *game = json_object_get(g, "game");
    json_int_t id = jint(game, "id");
    assert_true(json_is_true(json_object_get(json_object_get(json_object_get(game, "players"),
                                                             "1"),
                                             "bot")) ||
                json_is_true(json_object_get(json_array_get(json_object_get(game, "players"), 1),
                                             "bot")));
    json_t *last = json_incref(game);
    json_decref(g);
    int ply = 0;
    for (; ply < 20; ply += 2) {
        json_t *mine = play(w, id, ply, first_legal(last, (size_t)ply));
        json_decref(last);
        json_decref(mine);
        last = ws_expect(w, "move", WAIT);  /* the bot's answer */
        assert_non_null(last);
        assert_int_equal(jint(last, "ply"), ply + 1);
        if (!json_object_get(last, "legal"))
            break;  /* the game ended */
    }
    json_decref(last);
    assert_true(ply >= 2);
    ws_close(w);
}

/* R8: a flag falls before any capture: a sterile draw by time, no rating
 * change. */
static void test_R8_flag_fall_without_captures_is_sterile(void **state)
{
    (void)state;
    char ca[80], cb[80];
    signup("carol", ca);
    signup("dave", cb);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\",\"base_ms\":1000,\"inc_ms\":0,\"rated\":true", &d);
    json_t *end = ws_expect(a, "end", WAIT);
    assert_non_null(end);
    json_t *res = json_object_get(end, "result");
    assert_string_equal(json_string_value(json_object_get(res, "reason")), "time");
    assert_int_equal(jint(res, "winner"), -1);
    assert_true(json_is_true(json_object_get(res, "sterile")));
    assert_int_equal(json_array_size(json_object_get(res, "ratings")), 0);
    json_decref(end);
    int games;
    json_t *pc = player_json("carol");
    assert_true(fabs(rating_of(pc, "rampart", &games) - 1500.0) < 1e-9);
    assert_int_equal(games, 0);
    json_decref(pc);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

/* R8: a draw agreed before any capture is sterile: nothing changes. */
static void test_R8_agreed_sterile_draw_changes_no_rating(void **state)
{
    (void)state;
    char ca[80], cb[80];
    signup("erin", ca);
    signup("frank", cb);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart-xl\",\"base_ms\":60000,\"rated\":true", &d);
    send_fmt(a, "{\"type\":\"draw\",\"game\":%lld}", (long long)d.game);
    json_t *offer = ws_expect(b, "draw_offer", WAIT);
    assert_non_null(offer);
    json_decref(offer);
    send_fmt(b, "{\"type\":\"draw\",\"game\":%lld}", (long long)d.game);
    json_t *end = ws_expect(a, "end", WAIT);
    assert_non_null(end);
    json_t *res = json_object_get(end, "result");
    assert_string_equal(json_string_value(json_object_get(res, "reason")), "agreement");
    assert_true(json_is_true(json_object_get(res, "sterile")));
    json_decref(end);
    int games;
    json_t *pe = player_json("erin");
    rating_of(pe, "rampart-xl", &games);
    assert_int_equal(games, 0);
    assert_int_equal(json_object_size(json_object_get(pe, "history")), 0);
    json_decref(pe);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

/* Spectators receive every move, in order. */
static void test_spectators_see_every_move(void **state)
{
    (void)state;
    char ca[80], cb[80], cs[80];
    guest(ca);
    guest(cb);
    guest(cs);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL), *s = connect_as(cs, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\",\"base_ms\":0,\"move_limit\":100", &d);
    send_fmt(s, "{\"type\":\"lobby\"}");
    json_t *lobby = ws_expect(s, "lobby", WAIT);
    assert_non_null(lobby);
    int listed = 0;
    json_t *gsum;
    size_t i;
    json_array_foreach(json_object_get(lobby, "games"), i, gsum)
        listed |= jint(gsum, "id") == d.game;
    assert_true(listed);
    json_decref(lobby);
    send_fmt(s, "{\"type\":\"watch\",\"game\":%lld}", (long long)d.game);
    json_t *g = ws_expect(s, "game", WAIT);
    assert_non_null(g);
    assert_int_equal(json_array_size(json_object_get(json_object_get(g, "game"), "you")), 0);
    assert_null(json_object_get(json_object_get(g, "game"), "legal"));
    json_decref(g);
    json_t *last = json_incref(d.state);
    for (int ply = 0; ply < 8; ply++) {
        json_t *m = play(d.side[ply % 2], d.game, ply, first_legal(last, (size_t)ply * 3));
        json_t *seen = ws_expect(s, "move", WAIT);
        assert_non_null(seen);
        assert_int_equal(jint(seen, "ply"), ply);
        assert_string_equal(json_string_value(json_object_get(seen, "move")),
                            json_string_value(json_object_get(m, "move")));
        assert_null(json_object_get(seen, "legal"));
        json_decref(seen);
        json_decref(m);
        json_decref(last);
        last = ws_expect(d.side[(ply + 1) % 2], "move", WAIT);
        assert_non_null(last);
    }
    json_decref(last);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
    ws_close(s);
}

/* A challenge by link: only its token takes it. */
static void test_challenge_by_link(void **state)
{
    (void)state;
    char ca[80], cb[80];
    guest(ca);
    guest(cb);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL);
    send_fmt(a, "{\"type\":\"challenge\",\"variant\":\"rampart-mini\",\"base_ms\":0}");
    json_t *ch = ws_expect(a, "challenge_created", WAIT);
    assert_non_null(ch);
    const char *token = json_string_value(json_object_get(ch, "token"));
    assert_int_equal(strlen(token), 32);
    /* not in the lobby, not takeable by id */
    send_fmt(b, "{\"type\":\"accept\",\"seek\":%lld}", (long long)jint(ch, "seek"));
    assert_null(ws_expect(b, "game", 500));
    assert_non_null(strstr(ws_last_error(b), "no such seek"));
    send_fmt(b, "{\"type\":\"accept_challenge\",\"token\":\"%s\"}", token);
    json_decref(ch);
    json_t *g = ws_expect(b, "game", WAIT);
    assert_non_null(g);
    assert_string_equal(json_string_value(json_object_get(json_object_get(g, "game"), "variant")),
                        "rampart-mini");
    json_decref(g);
    ws_close(a);
    ws_close(b);
}

/* Bad input of every kind: each refused with a clear error, nothing
 * changed. */
static void test_bad_input_is_refused_and_changes_nothing(void **state)
{
    (void)state;
    char ca[80], cb[80], cx[80];
    guest(ca);
    guest(cb);
    guest(cx);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL), *x = connect_as(cx, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\",\"base_ms\":0,\"move_limit\":100", &d);
    ws_conn *first = d.side[0], *second = d.side[1];
    const char *legal = first_legal(d.state, 0);

    /* malformed JSON, not an object, no type, unknown type */
    assert_int_equal(ws_send_hostile(first, "{\"type\":\"move\","), 0);
    json_t *e = ws_expect(first, "error", WAIT);
    assert_non_null(e);
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "malformed JSON"));
    json_decref(e);
    assert_int_equal(ws_send_hostile(first, "[1,2]"), 0);
    assert_non_null((e = ws_expect(first, "error", WAIT)));
    json_decref(e);
    assert_int_equal(ws_send_hostile(first, "{\"type\":\"fly\",\"ref\":7}"), 0);
    assert_non_null((e = ws_expect(first, "error", WAIT)));
    assert_int_equal(jint(e, "ref"), 7);
    json_decref(e);

    /* an illegal move, a move out of turn, a stale ply, a move by a stranger */
    send_fmt(first, "{\"type\":\"move\",\"game\":%lld,\"ply\":0,\"move\":\"a1a9\"}",
             (long long)d.game);
    assert_non_null((e = ws_expect(first, "error", WAIT)));
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "illegal move"));
    json_decref(e);
    send_fmt(second, "{\"type\":\"move\",\"game\":%lld,\"ply\":0,\"move\":\"%s\"}",
             (long long)d.game, legal);
    assert_non_null((e = ws_expect(second, "error", WAIT)));
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "not your turn"));
    json_decref(e);
    send_fmt(first, "{\"type\":\"move\",\"game\":%lld,\"ply\":3,\"move\":\"%s\"}",
             (long long)d.game, legal);
    assert_non_null((e = ws_expect(first, "error", WAIT)));
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "stale"));
    json_decref(e);
    send_fmt(x, "{\"type\":\"move\",\"game\":%lld,\"ply\":0,\"move\":\"%s\"}",
             (long long)d.game, legal);
    assert_non_null((e = ws_expect(x, "error", WAIT)));
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "do not play"));
    json_decref(e);
    send_fmt(x, "{\"type\":\"resign\",\"game\":%lld}", (long long)d.game);
    assert_non_null((e = ws_expect(x, "error", WAIT)));
    json_decref(e);
    /* bad settings */
    send_fmt(x, "{\"type\":\"seek\",\"variant\":\"rampart\",\"move_limit\":77}");
    assert_non_null((e = ws_expect(x, "error", WAIT)));
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "50, 100, 150, 200"));
    json_decref(e);
    send_fmt(x, "{\"type\":\"seek\",\"variant\":\"rampart-six\",\"rated\":true}");
    assert_non_null((e = ws_expect(x, "error", WAIT)));
    json_decref(e);
    send_fmt(x, "{\"type\":\"seek\",\"variant\":\"rampart\",\"rated\":true}");
    assert_non_null((e = ws_expect(x, "error", WAIT)));
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "sign in"));
    json_decref(e);
    send_fmt(x, "{\"type\":\"seek\",\"variant\":\"rampart\",\"base_ms\":-5}");
    assert_non_null((e = ws_expect(x, "error", WAIT)));
    json_decref(e);
    /* fields the schema does not list, or of the wrong type, named in the error
     * (src/server/core/msg.c): a move with a stray field is not made */
    static const struct {
        const char *rest, *word;
    } stray[] = {
        {"\"ply\":0,\"promote\":\"q\"", "promote"},
        {"\"ply\":-1", "ply"},
        {"\"ply\":\"0\"", "ply"},
        {"\"ply\":0,\"ref\":1,\"ref2\":2", "ref2"},
    };
    for (size_t i = 0; i < sizeof stray / sizeof *stray; i++) {
        char text[256];  /* not ClientMessages: sent unlogged, as an attacker would */
        snprintf(text, sizeof text, "{\"type\":\"move\",\"game\":%lld,\"move\":\"%s\",%s}",
                 (long long)d.game, legal, stray[i].rest);
        assert_int_equal(ws_send_hostile(first, text), 0);
        assert_non_null((e = ws_expect(first, "error", WAIT)));
        assert_non_null(strstr(json_string_value(json_object_get(e, "error")), stray[i].word));
        json_decref(e);
    }
    assert_int_equal(
        ws_send_hostile(x, "{\"type\":\"local\",\"variant\":\"rampart\",\"rated\":false}"), 0);
    assert_non_null((e = ws_expect(x, "error", WAIT)));
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "rated"));
    json_decref(e);
    assert_int_equal(ws_send_hostile(x, "{\"type\":\"sit\",\"table\":1,\"seat\":4}"), 0);
    assert_non_null((e = ws_expect(x, "error", WAIT)));
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "seat"));
    json_decref(e);

    /* nothing changed: the game is still at ply 0 with nothing stored */
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld", (long long)d.game);
    json_t *g = get_json(path, NULL, 200);
    assert_int_equal(jint(g, "ply"), 0);
    assert_string_equal(json_string_value(json_object_get(g, "status")), "live");
    json_decref(g);
    /* and the right move still works */
    json_t *m = play(first, d.game, 0, legal);
    json_decref(m);

    /* an oversized message closes that connection (1009), the server lives */
    size_t big = 20000;
    char *huge = malloc(big + 1);
    assert_non_null(huge);
    memset(huge, ' ', big);
    memcpy(huge, "{\"type\":\"ping\",\"pad\":\"", 22);
    huge[big - 2] = '"';
    huge[big - 1] = '}';
    huge[big] = 0;
    assert_int_equal(ws_send_hostile(x, huge), 0);
    free(huge);
    assert_null(ws_recv_text(x, WAIT));
    assert_true(ws_is_closed(x));
    assert_int_equal(ws_close_code(x), 1009);
    ws_close(x);

    /* a binary frame closes the connection too */
    ws_conn *y = connect_as(cx, NULL);
    assert_int_equal(ws_send_frame(y, WS_BINARY, 1, "\x01\x02", 2), 0);
    assert_null(ws_recv_text(y, WAIT));
    assert_true(ws_is_closed(y));
    ws_close(y);

    /* a wrong session is a fresh guest, not anybody's account */
    json_t *hello;
    ws_conn *z = connect_as("0000000000000000000000000000000000000000000000000000000000000000",
                            &hello);
    assert_true(json_is_true(json_object_get(json_object_get(hello, "player"), "guest")));
    json_decref(hello);
    ws_close(z);

    /* HTTP: malformed JSON, oversized body, unknown paths, wrong method */
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/signup", NULL, "{nope", &r), 0);
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(r.body, "malformed JSON"));
    http_resp_free(&r);
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/signup", NULL,
                                  "{\"name\":\"x\",\"password\":\"short\"}", &r),
                     0);
    assert_int_equal(r.status, 400);
    http_resp_free(&r);
    char *body = malloc(100001);
    assert_non_null(body);
    memset(body, 'a', 100000);
    body[100000] = 0;
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/signup", NULL, body, &r), 0);
    assert_int_equal(r.status, 413);
    http_resp_free(&r);
    free(body);
    assert_int_equal(http_request(HOST, server.port, "GET", "/api/nothing", NULL, NULL, &r), 0);
    assert_int_equal(r.status, 404);
    http_resp_free(&r);
    assert_int_equal(http_request(HOST, server.port, "GET", "/api/games/999999", NULL, NULL, &r),
                     0);
    assert_int_equal(r.status, 404);
    http_resp_free(&r);
    assert_int_equal(http_request(HOST, server.port, "GET", "/api/players/nobody-here", NULL,
                                  NULL, &r),
                     0);
    assert_int_equal(r.status, 404);
    http_resp_free(&r);
    assert_int_equal(http_request(HOST, server.port, "PUT", "/api/me", NULL, NULL, &r), 0);
    assert_true(r.status == 405 || r.status == 400);
    http_resp_free(&r);
    char *raw = NULL;
    size_t rawlen = 0;
    static const char garbage[] = "\x16\x03\x01 this is not HTTP\r\n\r\n";
    assert_true(http_raw(HOST, server.port, garbage, sizeof garbage - 1, &raw, &rawlen, 3000) >= 0);
    free(raw);

    /* the server is alive and the game goes on */
    g = get_json(path, NULL, 200);
    assert_int_equal(jint(g, "ply"), 1);
    json_decref(g);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

/* Sign-in: wrong passwords are counted; the sixth try within a minute is
 * refused whatever the password. */
static void test_signin_attempts_are_limited(void **state)
{
    (void)state;
    char c[80];
    signup("grace", c);
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/signin", NULL,
                                  "{\"name\":\"grace\",\"password\":\"password-grace\"}", &r),
                     0);
    assert_int_equal(r.status, 200);
    assert_int_equal(strlen(r.cookie), 64);
    http_resp_free(&r);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(http_request(HOST, server.port, "POST", "/api/signin", NULL,
                                      "{\"name\":\"grace\",\"password\":\"wrong-password\"}", &r),
                         0);
        assert_int_equal(r.status, 401);
        http_resp_free(&r);
    }
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/signin", NULL,
                                  "{\"name\":\"grace\",\"password\":\"password-grace\"}", &r),
                     0);
    assert_int_equal(r.status, 429);
    http_resp_free(&r);
    /* sign out ends the session */
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/signout", c, "", &r), 0);
    assert_int_equal(r.status, 200);
    assert_true(r.cookie_set && r.cookie[0] == 0);
    http_resp_free(&r);
    assert_int_equal(http_request(HOST, server.port, "GET", "/api/me", c, NULL, &r), 0);
    assert_non_null(strstr(r.body, "guest-"));
    http_resp_free(&r);
}

/* A server killed with SIGKILL mid-game and started again on the same
 * database: the game resumes at its last acknowledged move, clocks
 * included, and play goes on. (Another server taking the game over:
 * test_cluster.) */
static void test_sigkill_mid_game_loses_nothing(void **state)
{
    (void)state;
    char ca[80], cb[80];
    signup("heidi", ca);
    signup("ivan", cb);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL);
    duel d;
    start_duel(a, b,
               "\"variant\":\"rampart-xl\",\"base_ms\":600000,\"inc_ms\":5000,\"rated\":true,"
               "\"move_limit\":150",
               &d);
    json_t *last = json_incref(d.state);
    char moves[7][32];
    json_int_t clocks[2] = {0, 0};
    for (int ply = 0; ply < 7; ply++) {
        json_t *m = play(d.side[ply % 2], d.game, ply, first_legal(last, (size_t)ply * 5 + 1));
        snprintf(moves[ply], sizeof moves[ply], "%s",
                 json_string_value(json_object_get(m, "move")));
        clocks[ply % 2] = json_integer_value(json_array_get(json_object_get(m, "clocks"),
                                                            (size_t)(ply % 2)));
        json_decref(m);
        json_decref(last);
        last = ws_expect(d.side[(ply + 1) % 2], "move", WAIT);
        assert_non_null(last);
    }
    json_decref(last);
    server_kill(&server, SIGKILL);
    ws_close(a);
    ws_close(b);
    char db[sizeof server.db];
    memcpy(db, server.db, sizeof db);
    assert_int_equal(server_start(&server, server_binary(), db, SERVER_ARGS), 0);

    json_t *hello;
    a = connect_as(ca, &hello);
    json_t *mine = json_object_get(hello, "games");
    assert_int_equal(json_array_size(mine), 1);
    assert_int_equal(json_integer_value(json_array_get(mine, 0)), d.game);
    json_decref(hello);
    b = connect_as(cb, NULL);
    send_fmt(a, "{\"type\":\"watch\",\"game\":%lld}", (long long)d.game);
    json_t *g = ws_expect(a, "game", WAIT);
    assert_non_null(g);
    json_t *game = json_object_get(g, "game");
    assert_int_equal(jint(game, "ply"), 7);
    for (int i = 0; i < 7; i++)
        assert_string_equal(json_string_value(json_array_get(json_object_get(game, "moves"),
                                                             (size_t)i)),
                            moves[i]);
    /* side 0 has moved 4 times, side 1 (to move) 3 times: their stored
     * clocks come back; side 1's runs again from where it was stored */
    json_int_t c0 = json_integer_value(json_array_get(json_object_get(game, "clocks"), 0));
    json_int_t c1 = json_integer_value(json_array_get(json_object_get(game, "clocks"), 1));
    assert_int_equal(c0, clocks[0]);
    assert_true(c1 <= clocks[1] && c1 > clocks[1] - 5000);
    assert_true(json_is_true(json_object_get(game, "rated")));
    json_decref(g);
    /* play on from the resumed position */
    send_fmt(b, "{\"type\":\"watch\",\"game\":%lld}", (long long)d.game);
    g = ws_expect(b, "game", WAIT);
    assert_non_null(g);
    ws_conn *mover = json_object_get(json_object_get(g, "game"), "legal") ? b : a;
    if (mover == a) {
        json_decref(g);
        send_fmt(a, "{\"type\":\"watch\",\"game\":%lld}", (long long)d.game);
        g = ws_expect(a, "game", WAIT);
    }
    json_t *m = play(mover, d.game, 7, first_legal(json_object_get(g, "game"), 0));
    json_decref(m);
    json_decref(g);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

/* A player who leaves on its turn and does not come back loses the game
 * by the clock rule (R8: before any capture, a sterile draw); one who comes
 * back in time plays on. */
static void test_R8_abandoned_game_ends_by_the_clock_rule(void **state)
{
    (void)state;
    char ca[80], cb[80];
    guest(ca);
    guest(cb);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\",\"base_ms\":600000", &d);
    ws_conn *mover = d.side[0], *other = d.side[1];
    /* leave and come back within the allowance: nothing happens */
    const char *cookie = mover == a ? ca : cb;
    ws_close(mover);
    usleep(1000 * 1000);
    mover = connect_as(cookie, NULL);
    assert_null(ws_expect(other, "end", 4000));
    /* leave for good */
    ws_close(mover);
    json_t *end = ws_expect(other, "end", WAIT);
    assert_non_null(end);
    json_t *res = json_object_get(end, "result");
    assert_string_equal(json_string_value(json_object_get(res, "reason")), "abandoned");
    assert_int_equal(jint(res, "winner"), -1);
    assert_true(json_is_true(json_object_get(res, "sterile")));
    json_decref(end);
    json_decref(d.state);
    ws_close(other);
}

/* A client sending faster than the rate allows is told to slow down. */
static void test_message_rate_is_limited(void **state)
{
    (void)state;
    char c[80];
    guest(c);
    ws_conn *w = connect_as(c, NULL);
    for (int i = 0; i < 150; i++)
        send_fmt(w, "{\"type\":\"ping\",\"ref\":%d}", i);
    int pongs = 0, slow = 0, refs = 0;
    for (;;) {
        json_t *m = ws_recv_json(w, 2000);
        if (!m)
            break;
        const char *type = json_string_value(json_object_get(m, "type"));
        pongs += strcmp(type, "pong") == 0;
        int is_slow = strcmp(type, "error") == 0 &&
                      strstr(json_string_value(json_object_get(m, "error")), "slow down");
        slow += is_slow;
        refs += is_slow && json_is_integer(json_object_get(m, "ref"));  /* which one dropped */
        json_decref(m);
    }
    assert_true(pongs >= 60 && pongs < 150);
    assert_int_equal(pongs + slow, 150);
    assert_int_equal(refs, slow);
    ws_close(w);
}

/* /api/variants lists each variant's settings with the values offered
 * (R7.3: move limits 50, 100, 150, 200, with 100 first). */
static void test_R7_variants_offer_the_move_limits(void **state)
{
    (void)state;
    json_t *vs = get_json("/api/variants", NULL, 200);
    json_t *v = json_array_get(vs, 0);
    assert_string_equal(json_string_value(json_object_get(v, "name")), "rampart");
    json_t *opt = json_array_get(json_object_get(v, "options"), 0);
    assert_non_null(opt);
    assert_string_equal(json_string_value(json_object_get(opt, "name")), "MoveLimit");
    assert_int_equal(jint(opt, "default"), 100);
    json_t *offered = json_object_get(opt, "offered");
    assert_int_equal(json_array_size(offered), 4);
    assert_int_equal(json_integer_value(json_array_get(offered, 0)), 50);
    assert_int_equal(json_integer_value(json_array_get(offered, 3)), 200);
    json_decref(vs);
}

/* POST /api/position: every legal move with where it leads, judged by the
 * engine; bad positions and moves are refused. R9 notation throughout. */
static void test_R9_position_endpoint(void **state)
{
    (void)state;
    http_resp r;
    assert_int_equal(http_request(HOST, server.port, "POST", "/api/position", NULL,
                                  "{\"variant\":\"rampart-narrow\"}", &r),
                     0);
    assert_int_equal(r.status, 200);
    json_t *j = json_loads(r.body, 0, NULL);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "position")),
                        "qqq/nnn/kkk/bbb/3/BBB/KKK/NNN/QQQ b 1");
    /* only the three Blockers can move, one step each (R3) */
    assert_int_equal(json_array_size(json_object_get(j, "legal")), 3);
    json_t *first = json_array_get(json_object_get(j, "legal"), 0);
    assert_string_equal(json_string_value(json_object_get(first, "move")), "a4a5");
    assert_string_equal(json_string_value(json_object_get(first, "after")),
                        "qqq/nnn/kkk/bbb/B2/1BB/KKK/NNN/QQQ t 1");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(j, "material"), 0)), 9);
    json_decref(j);
    http_resp_free(&r);
    static const char *bad[] = {
        "{\"variant\":\"rampart\",\"position\":\"bad\"}",
        "{\"variant\":\"rampart\",\"moves\":[\"a1a9\"]}",
        "{\"variant\":\"nope\"}",
        "{\"variant\":\"rampart\",\"moves\":\"c2c3\"}",
        "{\"variant\":\"rampart\",\"position\":7}",
        "[]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(http_request(HOST, server.port, "POST", "/api/position", NULL, bad[i],
                                      &r),
                         0);
        assert_int_equal(r.status, 400);
        assert_non_null(strstr(r.body, "\"error\""));
        http_resp_free(&r);
    }
}

static void test_K3_four_seat_table(void **state)
{
    (void)state;
    char ca[80], cb[80];
    guest(ca);
    guest(cb);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL);
    /* refusals first */
    send_fmt(a, "{\"type\":\"seek\",\"variant\":\"keeps-moats\",\"base_ms\":0}");
    json_t *e = ws_expect(a, "error", WAIT);
    assert_non_null(e);
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "table"));
    json_decref(e);
    send_fmt(a, "{\"type\":\"table\",\"variant\":\"keeps-moats\",\"base_ms\":0,"
                "\"seats\":[\"me\",\"bot-level3\",\"open\",\"bot-capture\"]}");
    assert_non_null((e = ws_expect(a, "error", WAIT)));
    json_decref(e);
    send_fmt(a, "{\"type\":\"table\",\"variant\":\"keeps-moats\",\"base_ms\":0,"
                "\"options\":{\"GameType\":7},\"seats\":[\"me\",\"open\",\"open\",\"open\"]}");
    assert_non_null((e = ws_expect(a, "error", WAIT)));
    json_decref(e);
    /* White: a; Red: the capture bot; Black: b; Blue: a balanced bot */
    send_fmt(a, "{\"type\":\"table\",\"variant\":\"keeps-moats\",\"base_ms\":0,"
                "\"options\":{\"GameType\":0,\"KingResult\":2},"
                "\"seats\":[\"me\",\"bot-capture\",\"open\",\"bot-balanced2\"]}");
    json_t *t = ws_expect(a, "table_created", WAIT);
    assert_non_null(t);
    send_fmt(b, "{\"type\":\"sit\",\"table\":%lld,\"seat\":2}", (long long)jint(t, "table"));
    json_decref(t);
    json_t *ga = ws_expect(a, "game", WAIT), *gb = ws_expect(b, "game", WAIT);
    assert_non_null(ga);
    assert_non_null(gb);
    json_t *game = json_object_get(ga, "game");
    json_int_t id = jint(game, "id");
    assert_int_equal(json_array_size(json_object_get(game, "players")), 4);
    json_t *teams = json_object_get(game, "teams");
    /* Allied Neighbors: White+Blue against Black+Red */
    assert_int_equal(json_integer_value(json_array_get(teams, 0)),
                     json_integer_value(json_array_get(teams, 3)));
    assert_int_equal(json_integer_value(json_array_get(teams, 1)),
                     json_integer_value(json_array_get(teams, 2)));
    assert_true(json_integer_value(json_array_get(teams, 0)) !=
                json_integer_value(json_array_get(teams, 1)));
    const char *pos = json_string_value(json_object_get(game, "position"));
    assert_non_null(strstr(pos, " neighbors frozen "));
    assert_int_equal(jint(json_object_get(gb, "game"), "to_move"), 0);
    /* White (a) moves; the capture bot answers as Red; Black (b) moves;
     * the balanced bot answers as Blue; White again */
    json_t *last = json_incref(game);
    json_decref(ga);
    json_decref(gb);
    for (int round = 0; round < 2; round++) {
        int ply = round * 4;
        send_fmt(a, "{\"type\":\"move\",\"game\":%lld,\"ply\":%d,\"move\":\"%s\"}",
                 (long long)id, ply, first_legal(last, (size_t)round));
        json_decref(last);
        /* b waits for its turn: a move message with legal moves */
        json_t *m = NULL;
        for (;;) {
            m = ws_expect(b, "move", WAIT);
            assert_non_null(m);
            if (json_object_get(m, "legal"))
                break;
            json_decref(m);
        }
        assert_int_equal(jint(m, "ply"), ply + 1);  /* Red's bot has moved */
        send_fmt(b, "{\"type\":\"move\",\"game\":%lld,\"ply\":%d,\"move\":\"%s\"}",
                 (long long)id, ply + 2, first_legal(m, 3));
        json_decref(m);
        for (;;) {
            last = ws_expect(a, "move", WAIT);
            assert_non_null(last);
            if (json_object_get(last, "legal"))
                break;
            json_decref(last);
        }
        assert_int_equal(jint(last, "ply"), ply + 3);  /* Blue's bot has moved */
    }
    json_decref(last);
    ws_close(a);
    ws_close(b);
}

/* Saved setups belong to signed-in players; bad ones are refused. */
static void test_static_files_stay_in_the_web_root(void **state)
{
    (void)state;
    char *raw = NULL;
    size_t len = 0;
    static const char req[] = "GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    assert_true(http_raw(HOST, server.port, req, sizeof req - 1, &raw, &len, 3000) >= 0);
    assert_null(strstr(raw ? raw : "", "root:"));
    free(raw);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R8_rated_game_with_clocks_and_elo),
        cmocka_unit_test(test_R7_whole_game_to_its_end),
        cmocka_unit_test(test_game_against_a_bot),
        cmocka_unit_test(test_R8_flag_fall_without_captures_is_sterile),
        cmocka_unit_test(test_R8_agreed_sterile_draw_changes_no_rating),
        cmocka_unit_test(test_spectators_see_every_move),
        cmocka_unit_test(test_challenge_by_link),
        cmocka_unit_test(test_bad_input_is_refused_and_changes_nothing),
        cmocka_unit_test(test_signin_attempts_are_limited),
        cmocka_unit_test(test_sigkill_mid_game_loses_nothing),
        cmocka_unit_test(test_R8_abandoned_game_ends_by_the_clock_rule),
        cmocka_unit_test(test_message_rate_is_limited),
        cmocka_unit_test(test_R9_position_endpoint),
        cmocka_unit_test(test_K3_four_seat_table),
        cmocka_unit_test(test_R7_variants_offer_the_move_limits),
        cmocka_unit_test(test_static_files_stay_in_the_web_root),
    };
    return fixture_run_group(tests, &fixture);
}
