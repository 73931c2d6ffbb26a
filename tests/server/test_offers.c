/* test_offers.c -- what players ask of each other and of the game besides
 * moves, over real connections: declining a draw offer, and calling a
 * game off (abort) in its first moves, as issue 47 asked: both leave no
 * result where none is due, and change nothing when refused. Ruling
 * named: R8 (what changes ratings).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wire.h"

#define SERVER_ARGS                                                                    \
    "--limit signups-per-hour=0 --limit guests-per-hour=0 --limit new-games-per-hour=0"

static const fixture_spec fixture = { .args = SERVER_ARGS };

static const char *error_of(json_t *e)
{
    return json_string_value(json_object_get(e, "error"));
}

/* A draw offer can be declined without moving: the offer goes, both
 * players hear who declined, the game goes on; declining with no offer
 * standing, or with a bad value, is refused and changes nothing. */
static void test_a_draw_offer_is_declined(void **state)
{
    (void)state;
    char ca[80], cb[80];
    signup("gwen", ca);
    signup("hugo", cb);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\",\"base_ms\":60000", &d);
    int sb = d.side[0] == b ? 0 : 1;  /* b's side */
    send_fmt(b, "{\"type\":\"draw\",\"game\":%lld,\"decline\":true,\"ref\":\"d0\"}", (long long)d.game);
    json_t *e = ws_expect(b, "error", WAIT);
    assert_non_null(e);
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "no draw offer to decline"));
    json_decref(e);
    send_fmt(a, "{\"type\":\"draw\",\"game\":%lld}", (long long)d.game);
    json_t *offer = ws_expect(b, "draw_offer", WAIT);
    assert_non_null(offer);
    assert_int_equal(json_array_size(json_object_get(offer, "sides")), 1);
    assert_null(json_object_get(offer, "declined_by"));
    json_decref(offer);
    json_decref(ws_expect(a, "draw_offer", WAIT));
    char bad[120];  /* not as the schema says: sent as hostile, kept out of the wire log */
    snprintf(bad, sizeof bad, "{\"type\":\"draw\",\"game\":%lld,\"decline\":\"yes\"}", (long long)d.game);
    assert_int_equal(ws_send_hostile(b, bad), 0);
    e = ws_expect(b, "error", WAIT);
    assert_non_null(e);
    json_decref(e);
    send_fmt(b, "{\"type\":\"draw\",\"game\":%lld,\"decline\":true}", (long long)d.game);
    for (int i = 0; i < 2; i++) {
        json_t *m = ws_expect(i ? b : a, "draw_offer", WAIT);
        assert_non_null(m);
        assert_int_equal(json_array_size(json_object_get(m, "sides")), 0);
        json_t *by = json_object_get(m, "declined_by");
        assert_int_equal(json_array_size(by), 1);
        assert_int_equal(json_integer_value(json_array_get(by, 0)), sb);
        json_decref(m);
    }
    /* the offer is gone: b's draw now offers, it does not end the game */
    send_fmt(b, "{\"type\":\"draw\",\"game\":%lld}", (long long)d.game);
    offer = ws_expect(a, "draw_offer", WAIT);
    assert_non_null(offer);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(offer, "sides"), 0)), sb);
    json_decref(offer);
    assert_null(ws_expect(a, "end", 300));
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

/* Plays `n` plies of d from its start (each side's first legal move,
 * varied); returns the last `move` message the next mover got. */
static json_t *play_plies(duel *d, int n)
{
    json_t *last = json_incref(d->state);
    for (int ply = 0; ply < n; ply++) {
        json_t *m = play(d->side[ply % 2], d->game, ply, first_legal(last, (size_t)ply * 3));
        assert_non_null(m);
        json_decref(m);
        json_decref(last);
        last = ws_expect(d->side[(ply + 1) % 2], "move", WAIT);
        assert_non_null(last);
    }
    return last;
}

/* R8: a rated game called off in its first moves ends with no result: the
 * game reads "aborted", both players hear it, nobody's rating moves. */
static void test_R8_an_aborted_game_changes_no_rating(void **state)
{
    (void)state;
    char ca[80], cb[80];
    signup("iris", ca);
    signup("jack", cb);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\",\"base_ms\":60000,\"rated\":true", &d);
    json_decref(play_plies(&d, 3));  /* each side's first move, and one more */
    send_fmt(b, "{\"type\":\"abort\",\"game\":%lld}", (long long)d.game);
    for (int i = 0; i < 2; i++) {
        json_t *end = ws_expect(i ? b : a, "end", WAIT);
        assert_non_null(end);
        assert_string_equal(json_string_value(json_object_get(json_object_get(end, "result"), "reason")),
                            "aborted");
        json_decref(end);
    }
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld", (long long)d.game);
    json_t *g = get_json(path, NULL, 200);
    /* a Game is "over" (docs/api.md); its result, null or the abort */
    assert_string_equal(json_string_value(json_object_get(g, "status")), "over");
    json_t *res = json_object_get(g, "result");
    assert_true(json_is_null(res) || res == NULL ||
                strcmp(json_string_value(json_object_get(res, "reason")), "aborted") == 0);
    assert_int_equal(json_array_size(json_object_get(res, "ratings")), 0);
    json_decref(g);
    /* the player's list of games calls it aborted */
    json_t *list = get_json("/api/players/iris/games", NULL, 200);
    json_t *first = json_array_get(json_object_get(list, "games"), 0);
    assert_non_null(first);
    assert_int_equal(json_integer_value(json_object_get(first, "id")), d.game);
    assert_string_equal(json_string_value(json_object_get(first, "status")), "aborted");
    json_decref(list);
    for (int i = 0; i < 2; i++) {
        int games;
        json_t *p = player_json(i ? "jack" : "iris");
        rating_of(p, "rampart", &games);
        assert_int_equal(games, 0);
        json_decref(p);
    }
    /* and an ended game cannot be aborted */
    send_fmt(a, "{\"type\":\"abort\",\"game\":%lld,\"ref\":\"late\"}", (long long)d.game);
    json_t *e = ws_expect(a, "error", WAIT);
    assert_non_null(e);
    json_decref(e);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

/* Once each side has made two moves the game can no longer be called off
 * (a player resigns instead): refused, and the game goes on; a spectator
 * cannot abort at all. */
static void test_no_abort_after_two_moves_each(void **state)
{
    (void)state;
    char ca[80], cb[80], cs[80];
    signup("kate", ca);
    signup("liam", cb);
    signup("mona", cs);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL), *sp = connect_as(cs, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart\",\"base_ms\":60000,\"rated\":true", &d);
    send_fmt(sp, "{\"type\":\"abort\",\"game\":%lld}", (long long)d.game);
    json_t *e = ws_expect(sp, "error", WAIT);
    assert_non_null(e);
    assert_non_null(strstr(error_of(e), "you do not play"));
    json_decref(e);
    json_t *last = play_plies(&d, 4);
    send_fmt(a, "{\"type\":\"abort\",\"game\":%lld}", (long long)d.game);
    e = ws_expect(a, "error", WAIT);
    assert_non_null(e);
    assert_non_null(strstr(error_of(e), "resign instead"));
    json_decref(e);
    assert_null(ws_expect(b, "end", 300));
    /* the game goes on: the next move is taken */
    json_t *m = play(d.side[0], d.game, 4, first_legal(last, 1));
    assert_non_null(m);
    json_decref(m);
    json_decref(last);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
    ws_close(sp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_draw_offer_is_declined),
        cmocka_unit_test(test_R8_an_aborted_game_changes_no_rating),
        cmocka_unit_test(test_no_abort_after_two_moves_each),
    };
    return fixture_run_group(tests, &fixture);
}
