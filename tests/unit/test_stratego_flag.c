/* test_stratego_flag.c -- the strongest Stratego bot looking for the enemy
 * Flag late in the game (STB_F_DIG, bot.h; STX_F_DIG, expect.h): where it
 * believes the Flag stands, which pieces may probe, where its Miners go.
 * Each test compares a search or a belief with the feature and without. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "stratego_bot_helpers.h"

/* With STX_F_DIG, from ply STX_DIG_PLY our Scouts may attack pieces that
 * never moved (STX_F_FEW_PROBES keeps every piece but a Miner from them
 * before): late in the game only probes find the Flag. Each of the
 * enemy's three still pieces is a Bomb or the Flag, a quarter the Flag
 * (one-ply searches). */
static void test_S5_late_a_scout_probes_still_pieces(void **state)
{
    (void)state;
    static st_belief bl;
    const unsigned rules = STX_F_HIDDEN | STX_F_FEW_PROBES | STX_F_DIG;
    st_pos view = parse_view("xxx7/1O+8/10/10/2~~2~~e*+1/2~~2~~2/10/10/EEEELLLL2/FB2MG4 r 100 - -");
    bombs_and_flag(&view, 3, &bl);
    game_move m = searched(&view, &bl, rules, 1);
    assert_false(ST_ATTACK(m) && !(view.sq[ST_TO(m)] & ST_MOVED));
    view = parse_view("xxx7/1O+8/10/10/2~~2~~e*+1/2~~2~~2/10/10/EEEELLLL2/FB2MG4 r 700 - -");
    m = searched(&view, &bl, rules, 1);
    assert_true(ST_ATTACK(m));
    assert_int_equal(ST_FROM(m), ST_CELL(8, 1));
    m = searched(&view, &bl, rules & ~STX_F_DIG, 1);
    assert_false(ST_ATTACK(m) && !(view.sq[ST_TO(m)] & ST_MOVED));
}

/* With STB_F_DIG the belief puts the enemy Flag likelier on a still piece
 * walled in by still pieces and the board's edge (a10: b10 and a9 beside
 * it never moved) than on one beside an empty square (j10, as deep and
 * also on an edge file); without it, both alike. */
static void test_S8_the_flag_is_believed_walled_in(void **state)
{
    (void)state;
    static st_belief plain, dig;
    const char *v = "xx6xx/x9/10/10/2~~2~~2/2~~2~~2/10/10/10/F7L1 r 700 - -";
    believe_after(v, NULL, 0, STB_F_LEVELS & ~STB_F_DIG, &plain);
    believe_after(v, NULL, 0, STB_F_LEVELS | STB_F_DIG, &dig);
    const int a10 = ST_CELL(9, 0), j10 = ST_CELL(9, 9);
    assert_true(dig.p[a10][ST_FLAG] > 2 * dig.p[j10][ST_FLAG]);
    assert_true(plain.p[a10][ST_FLAG] < 1.3f * plain.p[j10][ST_FLAG]);
    assert_true(plain.p[j10][ST_FLAG] < 1.3f * plain.p[a10][ST_FLAG]);
}

/* With STX_F_DIG, from ply STX_DIG_PLY, our nearest Miner is pulled
 * towards the likeliest enemy Flag, and a Miner walled in by our own
 * still pieces counts further off: our Sergeant on a3 steps aside to let
 * the Miner on a2 out, though it gives up what standing still is worth
 * (STX_F_STILL); without the feature, or earlier in the game, our moved
 * Lieutenant walks on towards the enemy Flag instead (one-ply searches). */
static void test_S5_late_a_walled_in_miner_is_let_out(void **state)
{
    (void)state;
    static st_belief bl;
    const unsigned f = STX_F_HIDDEN | STX_F_STILL;
    const int a3 = ST_CELL(2, 0), e4 = ST_CELL(3, 4);
    st_pos view = parse_view("9x/10/10/10/2~~2~~2/2~~2~~2/4L+5/E9/NE8/E8F r 700 - -");
    only_flag_at(&bl, ST_CELL(9, 9));
    assert_int_equal(ST_FROM(searched(&view, &bl, f | STX_F_DIG, 1)), a3);
    assert_int_equal(ST_FROM(searched(&view, &bl, f, 1)), e4);
    view.ply = 100;
    assert_int_equal(ST_FROM(searched(&view, &bl, f | STX_F_DIG, 1)), e4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_S5_late_a_scout_probes_still_pieces),
        cmocka_unit_test(test_S8_the_flag_is_believed_walled_in),
        cmocka_unit_test(test_S5_late_a_walled_in_miner_is_let_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
