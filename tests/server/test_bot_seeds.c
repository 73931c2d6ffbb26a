/* test_bot_seeds.c -- where bots enter the ladder, over real connections
 * (issue 47): a built-in bot's first rated game in a variant rates it from
 * its seed (src/server/play/seeds.c, docs/bots.md), a person's from 1500,
 * and both by R8's rule from then on. Ruling named: R8 (start 1500, K = 40
 * for the first 30 rated games in a variant, Classic and XL apart).
 *
 * What must hold: the seed is a start, used once per bot and variant; the
 * person playing the bot is rated against the bot's seed, not against
 * 1500; the two ladders keep their own seeds and their own counts.
 */
#include <math.h>
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

/* bot-greedy's seeds as src/server/play/seeds.c has them: a bot well
 * below the 1500 a person starts at, so that neither side's change is the
 * +-20 of two players at 1500. */
#define GREEDY_CLASSIC 1100.0
#define GREEDY_XL 1030.0

/* R8 by hand: the rating after scoring `score` against `opp`, K = 40. */
static double r8_first(double r, double opp, double score)
{
    return r + 40.0 * (score - 1.0 / (1.0 + pow(10.0, (opp - r) / 400.0)));
}

/* One entry of an end's ratings: name's before and after. */
static void change_of(json_t *end, const char *name, double *before, double *after)
{
    json_t *r;
    size_t i;
    json_array_foreach(json_object_get(json_object_get(end, "result"), "ratings"), i, r)
        if (strcmp(json_string_value(json_object_get(r, "name")), name) == 0) {
            *before = json_real_value(json_object_get(r, "before"));
            *after = json_real_value(json_object_get(r, "after"));
            return;
        }
    fail_msg("no rating change for %s", name);
}

/* A rated game of `variant` against `bot`, the person on Bottom: two moves
 * each, then the person resigns. Returns the `end` (caller decrefs). */
static json_t *lose_to_bot(ws_conn *w, const char *variant, const char *bot)
{
    send_fmt(w, "{\"type\":\"play_bot\",\"variant\":\"%s\",\"bot\":\"%s\",\"side\":0,"
                "\"base_ms\":120000,\"inc_ms\":0,\"move_limit\":100,\"rated\":true}",
             variant, bot);
    json_t *g = ws_expect(w, "game", WAIT);
    assert_non_null(g);
    json_t *game = json_object_get(g, "game");
    assert_true(json_is_true(json_object_get(game, "rated")));
    json_int_t id = jint(game, "id");
    json_t *last = json_incref(game);
    json_decref(g);
    for (int ply = 0; ply < 4; ply += 2) {
        json_decref(play(w, id, ply, first_legal(last, (size_t)ply)));
        json_decref(last);
        last = ws_expect(w, "move", WAIT);  /* the bot's answer */
        assert_non_null(last);
        assert_int_equal(jint(last, "ply"), ply + 1);
        assert_non_null(json_object_get(last, "legal"));  /* not over yet */
    }
    json_decref(last);
    send_fmt(w, "{\"type\":\"resign\",\"game\":%lld}", (long long)id);
    json_t *end = ws_expect(w, "end", WAIT);
    assert_non_null(end);
    assert_string_equal(json_string_value(json_object_get(json_object_get(end, "result"),
                                                           "reason")),
                        "resign");
    assert_int_equal(json_array_size(json_object_get(json_object_get(end, "result"), "ratings")),
                     2);
    return end;
}

/* R8 for the person, the seed for the bot: nora's first rated Classic game
 * starts her at 1500 and bot-greedy at its Classic seed, each rated
 * against the other's start with K = 40; the second game goes on from
 * there (the seed is not used again); XL starts both afresh, the bot at
 * its XL seed. */
static void test_R8_a_bot_enters_at_its_seed_a_person_at_1500(void **state)
{
    (void)state;
    char c[80];
    signup("nora", c);
    ws_conn *w = connect_as(c, NULL);
    double pb, pa, bb, ba;

    json_t *end = lose_to_bot(w, "rampart", "bot-greedy");
    change_of(end, "nora", &pb, &pa);
    change_of(end, "bot-greedy", &bb, &ba);
    json_decref(end);
    assert_true(pb == 1500.0);
    assert_true(bb == GREEDY_CLASSIC);
    assert_true(fabs(pa - r8_first(1500.0, GREEDY_CLASSIC, 0.0)) < 1e-9);
    assert_true(fabs(ba - r8_first(GREEDY_CLASSIC, 1500.0, 1.0)) < 1e-9);
    /* losing to a bot 400 below costs more than the 20 of an even game */
    assert_true(pa < 1500.0 - 30.0);

    /* the second game: both from where the first left them */
    double pa1 = pa, ba1 = ba;
    end = lose_to_bot(w, "rampart", "bot-greedy");
    change_of(end, "nora", &pb, &pa);
    change_of(end, "bot-greedy", &bb, &ba);
    json_decref(end);
    assert_true(pb == pa1 && bb == ba1);
    assert_true(fabs(ba - r8_first(ba1, pa1, 1.0)) < 1e-9);  /* still K = 40 */

    /* XL is a ladder of its own: the bot at its XL seed, nora at 1500 */
    end = lose_to_bot(w, "rampart-xl", "bot-greedy");
    change_of(end, "nora", &pb, &pa);
    change_of(end, "bot-greedy", &bb, &ba);
    json_decref(end);
    assert_true(pb == 1500.0);
    assert_true(bb == GREEDY_XL);
    assert_true(fabs(ba - r8_first(GREEDY_XL, 1500.0, 1.0)) < 1e-9);

    /* and the players' pages say the same */
    int games;
    json_t *bot = player_json("bot-greedy"), *nora = player_json("nora");
    assert_true(fabs(rating_of(bot, "rampart", &games) - r8_first(ba1, pa1, 1.0)) < 1e-9);
    assert_int_equal(games, 2);
    assert_true(fabs(rating_of(bot, "rampart-xl", &games) - ba) < 1e-9);
    assert_int_equal(games, 1);
    json_t *hist = json_object_get(json_object_get(bot, "history"), "rampart");
    assert_int_equal(json_array_size(hist), 2);
    assert_true(json_real_value(json_object_get(json_array_get(hist, 0), "before")) ==
                GREEDY_CLASSIC);
    assert_true(fabs(rating_of(nora, "rampart-xl", &games) - pa) < 1e-9);
    assert_int_equal(games, 1);
    json_decref(bot);
    json_decref(nora);
    ws_close(w);
}

/* R8 unchanged between people: two people new to the ladder both start
 * at 1500 whatever bots are about, and move by K/2 = 20 each. */
static void test_R8_people_still_start_at_1500(void **state)
{
    (void)state;
    char ca[80], cb[80];
    signup("olga", ca);
    signup("pete", cb);
    ws_conn *a = connect_as(ca, NULL), *b = connect_as(cb, NULL);
    duel d;
    start_duel(a, b, "\"variant\":\"rampart-xl\",\"base_ms\":60000,\"rated\":true", &d);
    json_t *last = json_incref(d.state);
    for (int ply = 0; ply < 4; ply++) {
        json_decref(play(d.side[ply % 2], d.game, ply, first_legal(last, (size_t)ply)));
        json_decref(last);
        last = ws_expect(d.side[(ply + 1) % 2], "move", WAIT);
        assert_non_null(last);
    }
    json_decref(last);
    send_fmt(a, "{\"type\":\"resign\",\"game\":%lld}", (long long)d.game);
    json_t *end = ws_expect(b, "end", WAIT);
    assert_non_null(end);
    double before, after;
    change_of(end, "olga", &before, &after);
    assert_true(before == 1500.0 && fabs(after - 1480.0) < 1e-9);
    change_of(end, "pete", &before, &after);
    assert_true(before == 1500.0 && fabs(after - 1520.0) < 1e-9);
    json_decref(end);
    json_decref(d.state);
    ws_close(a);
    ws_close(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R8_a_bot_enters_at_its_seed_a_person_at_1500),
        cmocka_unit_test(test_R8_people_still_start_at_1500),
    };
    return fixture_run_group(tests, &fixture);
}
