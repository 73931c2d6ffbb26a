/* test_clock.c -- clock.h on its own, with times chosen by the test: a move
 * is charged its time less the lag allowance and gains the increment; the
 * flag falls exactly when the clock and the allowance are spent; only the
 * side to move's clock runs; an untimed game never runs or falls; a bot's
 * thinking time follows the clock; held clocks neither run nor fall, and
 * the turn begins again when they are released. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "server/play/clock.h"

#define T0 1000000LL  /* any monotonic start: nothing may assume 0 */

static void test_move_charged_less_lag_plus_increment(void **state)
{
    (void)state;
    gclock c;
    gclock_init(&c, 60000, 2000, 100, T0);
    assert_true(gclock_timed(&c));
    assert_int_equal(c.left[0], 60000);
    assert_int_equal(c.left[1], 60000);
    /* 5 s of thought: 4.9 s charged (100 ms allowance), 2 s back */
    assert_int_equal(gclock_charge(&c, 0, T0 + 5000, 1), 60000 - 4900 + 2000);
    /* without the increment (a resignation on one's own turn) */
    assert_int_equal(gclock_charge(&c, 0, T0 + 5000, 0), 60000 - 4900);
    /* within the allowance a move costs nothing, and still gains */
    assert_int_equal(gclock_charge(&c, 0, T0 + 80, 1), 62000);
    assert_int_equal(gclock_charge(&c, 0, T0 + 100, 1), 62000);
    assert_int_equal(gclock_charge(&c, 0, T0 + 101, 1), 61999);
    /* charging does not change the clock: setting it does */
    assert_int_equal(c.left[0], 60000);
    gclock_set(&c, 0, 57100);
    gclock_turn(&c, T0 + 5000);
    assert_int_equal(c.left[0], 57100);
    assert_int_equal(c.began, T0 + 5000);
}

static void test_flag_falls_when_clock_and_allowance_are_spent(void **state)
{
    (void)state;
    gclock c;
    gclock_init(&c, 3000, 0, 100, T0);
    assert_int_equal(gclock_flag_at(&c, 0), T0 + 3100);
    assert_false(gclock_fallen(&c, 0, T0 + 3099));
    assert_int_equal(gclock_charge(&c, 0, T0 + 3099, 1), 1);
    assert_true(gclock_fallen(&c, 0, T0 + 3100));
    /* a move that comes too late is not charged into the negative, nor
     * given the increment */
    gclock_init(&c, 3000, 5000, 100, T0);
    assert_true(gclock_fallen(&c, 0, T0 + 3100));
    assert_int_equal(gclock_charge(&c, 0, T0 + 9000, 1), 0);
    /* the flag follows the side's own clock and the turn's start */
    gclock_set(&c, 1, 700);
    gclock_turn(&c, T0 + 50000);
    assert_int_equal(gclock_flag_at(&c, 1), T0 + 50000 + 100 + 700);
    assert_int_equal(gclock_flag_at(&c, 0), T0 + 50000 + 100 + 3000);
}

static void test_only_the_side_to_move_runs(void **state)
{
    (void)state;
    gclock c;
    gclock_init(&c, 10000, 0, 100, T0);
    gclock_set(&c, 1, 4000);
    /* side 0 to move, 2.1 s in: it shows 8 s; side 1 stands */
    assert_int_equal(gclock_show(&c, 0, 1, T0 + 2100), 8000);
    assert_int_equal(gclock_show(&c, 1, 0, T0 + 2100), 4000);
    /* inside the allowance nothing has gone yet */
    assert_int_equal(gclock_show(&c, 0, 1, T0 + 50), 10000);
    /* a clock never shows less than nothing */
    assert_int_equal(gclock_show(&c, 0, 1, T0 + 99999), 0);
    /* four sides (Keeps & Moats): each has its own */
    gclock_init(&c, 20000, 0, 0, T0);
    for (int i = 0; i < 4; i++)
        gclock_set(&c, i, 1000 * (i + 1));
    for (int i = 0; i < 4; i++)
        assert_int_equal(gclock_show(&c, i, 0, T0 + 500), 1000 * (i + 1));
    assert_int_equal(gclock_show(&c, 2, 1, T0 + 500), 2500);
}

static void test_untimed_game_never_runs_or_falls(void **state)
{
    (void)state;
    gclock c;
    gclock_init(&c, 0, 3000, 100, T0);  /* an increment alone makes no clock */
    assert_false(gclock_timed(&c));
    assert_int_equal(c.inc_ms, 0);
    assert_int_equal(gclock_flag_at(&c, 0), -1);
    assert_false(gclock_fallen(&c, 0, T0 + 86400000LL));
    assert_int_equal(gclock_charge(&c, 0, T0 + 86400000LL, 1), 0);
    assert_int_equal(gclock_show(&c, 1, 1, T0 + 86400000LL), 0);
}

static void test_bot_thinks_by_the_clock(void **state)
{
    (void)state;
    gclock c;
    /* 5 minutes + 3 s: 300000/30 + 2250 = 12250, capped at 3 s */
    gclock_init(&c, 300000, 3000, 100, T0);
    assert_int_equal(gclock_think(&c, 0, 3000), 3000);
    assert_int_equal(gclock_think(&c, 0, 0), 12250);
    /* short of time: never under 50 ms */
    gclock_set(&c, 1, 600);
    c.inc_ms = 0;
    assert_int_equal(gclock_think(&c, 1, 3000), 50);
    /* untimed: a second, within the cap */
    gclock_init(&c, 0, 0, 100, T0);
    assert_int_equal(gclock_think(&c, 0, 3000), 1000);
    assert_int_equal(gclock_think(&c, 0, 400), 400);
}

static void test_held_clocks_stand_and_the_turn_begins_at_release(void **state)
{
    (void)state;
    gclock c;
    gclock_init(&c, 60000, 0, 100, T0);
    gclock_hold(&c, T0 + 500);
    /* an hour under the cover: nothing runs, nothing falls, no flag is due */
    assert_int_equal(gclock_show(&c, 0, 1, T0 + 3600000), 60000);
    assert_false(gclock_fallen(&c, 0, T0 + 3600000));
    assert_int_equal(gclock_flag_at(&c, 0), -1);
    assert_int_equal(gclock_charge(&c, 0, T0 + 3600000, 0), 60000);
    /* released: the turn begins then */
    gclock_release(&c, T0 + 3600000);
    assert_int_equal(gclock_show(&c, 0, 1, T0 + 3600000 + 1100), 59000);
    assert_int_equal(gclock_flag_at(&c, 0), T0 + 3600000 + 100 + 60000);
    /* a release of clocks not held changes nothing */
    gclock_release(&c, T0 + 3700000);
    assert_int_equal(gclock_flag_at(&c, 0), T0 + 3600000 + 100 + 60000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_move_charged_less_lag_plus_increment),
        cmocka_unit_test(test_flag_falls_when_clock_and_allowance_are_spent),
        cmocka_unit_test(test_only_the_side_to_move_runs),
        cmocka_unit_test(test_untimed_game_never_runs_or_falls),
        cmocka_unit_test(test_bot_thinks_by_the_clock),
        cmocka_unit_test(test_held_clocks_stand_and_the_turn_begins_at_release),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
