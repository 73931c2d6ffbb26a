/* test_stats.c -- Elo with error bars and the SPRT (src/ai/stats.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "../../src/ai/stats.h"

static void assert_near(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.6f, want %.6f +- %g", got, want, tol);
}

static void test_even_score_is_zero(void **state)
{
    (void)state;
    stats_elo e = stats_elo_of(10, 10, 5);
    assert_near(e.score, 0.5, 1e-12);
    assert_near(e.elo, 0.0, 1e-9);
    assert_false(signbit(e.elo));  /* prints as "0.0", not "-0.0" */
    assert_near(e.lo, -e.hi, 1e-9);
    e = stats_elo_of(0, 0, 7);
    assert_near(e.elo, 0.0, 1e-9);
}

static void test_three_quarters_is_190_8(void **state)
{
    (void)state;
    assert_near(stats_elo_of_score(0.75), 190.85, 0.01);
    stats_elo e = stats_elo_of(60, 10, 30);  /* (60 + 15) / 100 */
    assert_near(e.score, 0.75, 1e-12);
    assert_near(e.elo, 190.85, 0.01);
    assert_true(e.lo < e.elo && e.elo < e.hi);
    assert_near(stats_score_of_elo(e.elo), 0.75, 1e-12);
}

/* The interval is s +- 1.96 sd / sqrt(N) through the logistic curve. */
static void test_interval_formula(void **state)
{
    (void)state;
    int w = 30, l = 20, d = 50;
    double n = 100, s = (w + d / 2.0) / n;
    double var = (w * (1 - s) * (1 - s) + l * s * s + d * (0.5 - s) * (0.5 - s)) / n;
    double half = 1.96 * sqrt(var / n);
    stats_elo e = stats_elo_of(w, l, d);
    assert_near(e.lo, stats_elo_of_score(s - half), 1e-9);
    assert_near(e.hi, stats_elo_of_score(s + half), 1e-9);
    assert_near(e.margin, (e.hi - e.lo) / 2, 1e-9);
}

static void test_interval_shrinks_with_games(void **state)
{
    (void)state;
    double last = INFINITY;
    for (int k = 1; k <= 64; k *= 2) {
        stats_elo e = stats_elo_of(6 * k, 4 * k, 10 * k);
        assert_near(e.elo, stats_elo_of(6, 4, 10).elo, 1e-9);
        assert_true(e.margin < last);
        last = e.margin;
    }
    /* Four times the games, about half the margin. */
    assert_near(stats_elo_of(24, 16, 40).margin / stats_elo_of(96, 64, 160).margin, 2.0, 0.1);
}

static void test_extreme_scores(void **state)
{
    (void)state;
    stats_elo e = stats_elo_of(5, 0, 0);
    assert_true(isinf(e.elo) && e.elo > 0);
    assert_true(isinf(e.margin));
    e = stats_elo_of(0, 5, 0);
    assert_true(isinf(e.elo) && e.elo < 0);
    assert_true(isinf(e.margin));
    e = stats_elo_of(0, 0, 0);  /* no games: nothing known */
    assert_near(e.elo, 0.0, 1e-12);
    assert_true(isinf(e.margin));
    /* An interval reaching past 100% is unbounded above only. */
    e = stats_elo_of(3, 0, 1);
    assert_true(isfinite(e.elo) && isfinite(e.lo) && isinf(e.hi) && isinf(e.margin));
}

static void test_sprt_bounds(void **state)
{
    (void)state;
    stats_sprt s = stats_sprt_of(0, 0, 0, 0, 10, 0.05, 0.05);
    assert_near(s.lbound, log(0.05 / 0.95), 1e-12);
    assert_near(s.ubound, log(0.95 / 0.05), 1e-12);
    assert_near(s.ubound, 2.944, 0.001);
    s = stats_sprt_of(0, 0, 0, 0, 5, 0.1, 0.2);
    assert_near(s.lbound, log(0.2 / 0.9), 1e-12);
    assert_near(s.ubound, log(0.8 / 0.1), 1e-12);
    assert_int_equal(s.verdict, STATS_SPRT_CONTINUE);
    assert_near(s.llr, 0.0, 1e-12);
}

static void test_sprt_llr_formula(void **state)
{
    (void)state;
    int w = 120, l = 100, d = 180;
    double n = 400, s = (w + d / 2.0) / n;
    double var = (w * (1 - s) * (1 - s) + l * s * s + d * (0.5 - s) * (0.5 - s)) / n;
    double s0 = 0.5, s1 = 1 / (1 + pow(10, -10 / 400.0));
    stats_sprt r = stats_sprt_of(w, l, d, 0, 10, 0.05, 0.05);
    assert_near(r.llr, n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var), 1e-9);
}

static void test_sprt_decides(void **state)
{
    (void)state;
    stats_sprt s = stats_sprt_of(300, 150, 250, 0, 10, 0.05, 0.05);
    assert_true(s.llr > s.ubound);
    assert_int_equal(s.verdict, STATS_SPRT_H1);
    s = stats_sprt_of(150, 300, 250, 0, 10, 0.05, 0.05);
    assert_true(s.llr < s.lbound);
    assert_int_equal(s.verdict, STATS_SPRT_H0);
    s = stats_sprt_of(5, 5, 10, 0, 10, 0.05, 0.05);  /* too few games */
    assert_int_equal(s.verdict, STATS_SPRT_CONTINUE);
}

/* A record without spread (variance 0) takes its variance from the record
 * with one more win and loss: a long run decides, a short one does not. */
static void test_sprt_without_spread(void **state)
{
    (void)state;
    assert_int_equal(stats_sprt_of(1, 0, 0, 0, 10, 0.05, 0.05).verdict, STATS_SPRT_CONTINUE);
    assert_int_equal(stats_sprt_of(10, 0, 0, 0, 10, 0.05, 0.05).verdict, STATS_SPRT_CONTINUE);
    assert_int_equal(stats_sprt_of(50, 0, 0, 0, 10, 0.05, 0.05).verdict, STATS_SPRT_H1);
    assert_int_equal(stats_sprt_of(0, 50, 0, 0, 10, 0.05, 0.05).verdict, STATS_SPRT_H0);
    assert_int_equal(stats_sprt_of(0, 0, 20, 0, 10, 0.05, 0.05).verdict, STATS_SPRT_CONTINUE);
    assert_int_equal(stats_sprt_of(0, 0, 300, 0, 10, 0.05, 0.05).verdict, STATS_SPRT_H0);
    /* Straight wins by a bot expected to lose heavily still count for H1. */
    stats_sprt s = stats_sprt_of(30, 0, 0, -400, -300, 0.05, 0.05);
    assert_int_equal(s.verdict, STATS_SPRT_H1);
    /* The ratio grows with the run. */
    assert_true(stats_sprt_of(40, 0, 0, 0, 10, 0.05, 0.05).llr >
                stats_sprt_of(20, 0, 0, 0, 10, 0.05, 0.05).llr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_even_score_is_zero),
        cmocka_unit_test(test_three_quarters_is_190_8),
        cmocka_unit_test(test_interval_formula),
        cmocka_unit_test(test_interval_shrinks_with_games),
        cmocka_unit_test(test_extreme_scores),
        cmocka_unit_test(test_sprt_bounds),
        cmocka_unit_test(test_sprt_llr_formula),
        cmocka_unit_test(test_sprt_decides),
        cmocka_unit_test(test_sprt_without_spread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
