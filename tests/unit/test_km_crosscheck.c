/* test_km_crosscheck.c -- the Keeps & Moats engine against the plain
 * reference generator of ref_keeps_moats.h (K1-K6): perft from the start of
 * every game type and King result, the move lists and the positions after
 * every move of random games, and perft from positions met on the way. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/base/rng.h"
#include "../../src/games/keeps-moats/keeps_moats.h"
#include "ref_keeps_moats.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* The engine's and the reference's move lists, as sorted texts, agree. */
static void same_moves(const km_pos *p, const ref_km *r)
{
    static char a[KM_MAX_MOVES][24], b[REF_KM_MAX][24];
    static ref_list rl;
    game_move list[KM_MAX_MOVES];
    int n = km_legal(p, list), m = ref_legal(r, &rl);
    for (int i = 0; i < n; i++)
        km_format_move(p, list[i], a[i], sizeof a[i]);
    for (int i = 0; i < m; i++)
        snprintf(b[i], sizeof b[i], "%s", rl.m[i].text);
    qsort(a, (size_t)n, sizeof a[0], cmp_str);
    qsort(b, (size_t)m, sizeof b[0], cmp_str);
    char fen[1024];
    km_format(p, fen, sizeof fen);
    if (n != m)
        fail_msg("%d moves, the reference %d, in %s", n, m, fen);
    for (int i = 0; i < n; i++)
        if (strcmp(a[i], b[i]) != 0)
            fail_msg("move %s vs reference %s in %s", a[i], b[i], fen);
}

/* Two reference positions hold the same game state. */
static int ref_same(const ref_km *x, const ref_km *y)
{
    for (int f = 0; f < 17; f++)
        for (int r = 0; r < 17; r++) {
            if (x->who[f][r] != y->who[f][r])
                return 0;
            if (x->who[f][r] >= 0 && x->what[f][r] != y->what[f][r])
                return 0;
        }
    return memcmp(x->pris, y->pris, sizeof x->pris) == 0 && x->stm == y->stm &&
           x->castle == y->castle && x->out == y->out && x->round == y->round;
}

static ref_km ref_of(const km_pos *p)
{
    char fen[1024];
    ref_km r;
    km_format(p, fen, sizeof fen);
    assert_int_equal(ref_read(&r, fen), 0);
    return r;
}

static void test_K2_K3_K4_perft_from_the_start_matches_reference(void **state)
{
    (void)state;
    for (int gt = 0; gt < 3; gt++)
        for (int kr = 0; kr < 3; kr++) {
            km_pos p;
            km_start(&p, gt, kr);
            ref_km r = ref_of(&p);
            for (int d = 1; d <= (kr == 0 ? 4 : 3); d++) {
                unsigned long long want = ref_perft(&r, d);
                assert_int_equal(km_perft(&p, d), want);
                assert_int_equal(game_perft(&km_variant, &p, d), want);
            }
        }
}

static void test_K4_K5_K6_random_games_match_reference(void **state)
{
    (void)state;
    rng g;
    rng_seed(&g, 4242);
    int perfts = 0, kings = 0, choices = 0;
    static ref_list rl;
    for (int game = 0; game < 60; game++) {
        km_pos p;
        km_start(&p, game % 3, (game / 3) % 3);
        p.limit = 50;
        for (int ply = 0; ply < 1000; ply++) {
            ref_km r = ref_of(&p);
            same_moves(&p, &r);
            game_move list[KM_MAX_MOVES];
            int n = km_legal(&p, list);
            if (n == 0)
                break;
            if (ply % 37 == 5) {
                assert_int_equal(km_perft(&p, 2), ref_perft(&r, 2));
                perfts++;
            }
            /* Captures more often than chance, so that Kings fall. */
            game_move m = list[rng_below(&g, (uint64_t)n)];
            for (int i = 0; i < n; i++)
                if (list[i] != KM_PASS && p.sq[KM_TO(list[i])] && rng_below(&g, 3) == 0)
                    m = list[i];
            if (m != KM_PASS && KM_TYPE(p.sq[KM_TO(m)]) == KM_KING)
                kings++;
            if (m != KM_PASS && KM_KIND(m) != KM_PLAIN)
                choices++;
            char text[32];
            km_format_move(&p, m, text, sizeof text);
            ref_legal(&r, &rl);
            const ref_move *rm = NULL;
            for (int i = 0; i < rl.n; i++)
                if (strcmp(rl.m[i].text, text) == 0)
                    rm = &rl.m[i];
            assert_non_null(rm);
            ref_play(&r, strcmp(text, "pass") ? rm : NULL);
            km_make(&p, m);
            ref_km after = ref_of(&p);
            if (!ref_same(&r, &after)) {
                char fen[1024];
                km_format(&p, fen, sizeof fen);
                fail_msg("after %s the positions differ: engine %s", text, fen);
            }
        }
    }
    print_message("perfts %d kings taken %d K5 choices %d\n", perfts, kings, choices);
    assert_true(perfts > 20);
    assert_true(kings > 10);
    assert_true(choices > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_K2_K3_K4_perft_from_the_start_matches_reference),
        cmocka_unit_test(test_K4_K5_K6_random_games_match_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
