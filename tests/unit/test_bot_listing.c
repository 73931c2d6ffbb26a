/* test_bot_listing.c -- what bot_spec_can_play says a bot plays, it plays.
 *
 * The server lists for each bot account the variants bot_spec_can_play
 * names (/api/bots), and seats a bot at a table only for those; the bot
 * is then made with bot_new and asked bot_new_game and bot_move. So for
 * every kind of bot and every variant the two must agree: listed means
 * made, started and moving from the start; not listed means refused by
 * bot_new_game. Before, bot_spec_can_play took "greedy" for a random
 * player, which plays anything, while the greedy bot plays no Keeps &
 * Moats: /api/bots offered it for four-seat tables, where it never moved.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/ai/bots.h"

/* Every kind of bot but external engines (which only the engine can
 * answer for), some with limits of their own, as --bot may give them. */
static const char *const specs[] = {
    "level=1", "level=3/nodes=300", "greedy", "greedy/depth=2", "random", "attacker",
    "mcts/nodes=200", "aggressive=1", "balanced=2/nodes=300", "defensive=1", "capture",
    "cautious", "stratego-v1", "stratego-v6/nodes=300", "stratego-f=5/nodes=300",
    "ab-material/nodes=300",
};

static void test_what_is_listed_is_played(void **state)
{
    (void)state;
    const game_variant *const *all = game_variants();
    search_limits lim = { .nodes = 300, .depth = 2, .time = { -1, -1 } };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        for (int k = 0; all[k]; k++) {
            const game_variant *v = all[k];
            int listed = bot_spec_can_play(specs[i], v);
            char err[160];
            bot *b = bot_new(specs[i], 5, err, sizeof err);
            if (!b)
                fail_msg("%s: %s", specs[i], err);
            int starts = bot_new_game(b, v, 0) == 0;
            if (listed != starts)
                fail_msg("%s on %s: bot_spec_can_play says %d, bot_new_game %s", specs[i],
                         v->name, listed, starts ? "plays" : "refuses");
            if (listed && !v->ops->setup) {
                _Alignas(16) unsigned char pos[GAME_POS_MAX], view[GAME_POS_MAX];
                v->ops->start(v, pos, 1);
                v->ops->view(pos, v->ops->side_to_move(pos), view);
                game_move m = bot_move(b, v, view, &lim, NULL);
                if (m == GAME_MOVE_NONE)
                    fail_msg("%s is listed for %s but gives no move from the start", specs[i],
                             v->name);
            }
            bot_free(b);
        }
}

/* The case that was wrong, by name: Keeps & Moats has its own one-ply
 * player ("capture"); greedy plays the two-sided games only. */
static void test_greedy_is_not_offered_for_keeps_and_moats(void **state)
{
    (void)state;
    const game_variant *km = game_variant_find("keeps-moats");
    const game_variant *rampart = game_variant_find("rampart");
    assert_non_null(km);
    assert_non_null(rampart);
    assert_false(bot_spec_can_play("greedy", km));
    assert_false(bot_spec_can_play("greedy/nodes=50", km));
    assert_true(bot_spec_can_play("greedy", rampart));
    assert_true(bot_spec_can_play("capture", km));
    assert_true(bot_spec_can_play("random", km));
}

/* What a game's factory lists (game_ops.bots), patterns with N taken as
 * 1, bot_new makes and the game's variants play; bot_specs names it. */
static void test_every_listed_game_bot_plays(void **state)
{
    (void)state;
    const game_variant *const *all = game_variants();
    int seen = 0;
    for (int k = 0; all[k]; k++) {
        const game_bot_ops *g = all[k]->ops->bots;
        for (const game_bot_info *i = g ? g->list : NULL; i && i->spec; i++, seen++) {
            char spec[64], err[200] = "", names[512];
            snprintf(spec, sizeof spec, "%s", i->spec);
            char *n = strchr(spec, 'N');
            if (n && n > spec && n[-1] == '=' && !n[1])
                *n = '1';
            bot *b = bot_new(spec, 3, err, sizeof err);
            if (!b)
                fail_msg("%s (listed for %s): %s", spec, all[k]->name, err);
            assert_true(bot_spec_can_play(spec, all[k]));
            assert_int_equal(bot_new_game(b, all[k], 0), 0);
            bot_free(b);
            bot_specs(all[k], names, sizeof names);
            assert_non_null(strstr(names, i->spec));
            assert_true(i->about && *i->about);
        }
    }
    assert_true(seen > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_what_is_listed_is_played),
        cmocka_unit_test(test_greedy_is_not_offered_for_keeps_and_moats),
        cmocka_unit_test(test_every_listed_game_bot_plays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
