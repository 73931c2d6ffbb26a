/* test_engine.c -- perft regressions, the game.h binding, keys and make/unmake.
 *
 * The perft tables were established with two independent counters (the
 * bulk-counting rp_perft and game_perft through game.h with make/unmake)
 * and the reference engine of test_crosscheck.c at low depths.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/base/rng.h"
#include "../../src/games/rampart/rampart.h"

typedef struct perft_row {
    const char *variant;
    int depth;
    uint64_t nodes;
} perft_row;

/* Deeper rows (Classic 6-8, XL 6-7) run in the integration tier, on the
 * release build. */
static const perft_row table[] = {
    { "rampart", 1, 19 },           { "rampart", 2, 358 },
    { "rampart", 3, 8248 },         { "rampart", 4, 188864 },
    { "rampart", 5, 4789872 },      { "rampart-xl", 1, 25 },
    { "rampart-xl", 2, 622 },       { "rampart-xl", 3, 19308 },
    { "rampart-xl", 4, 597600 },    { "rampart-six", 4, 233602 },
    { "rampart-narrow", 5, 2046 },  { "rampart-mini", 4, 199992 },
    { "rampart-shuffle", 4, 206504 },
};

static void test_perft_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const game_variant *v = game_variant_find(table[i].variant);
        assert_non_null(v);
        rp_pos p;
        v->ops->start(v, &p, 0);
        uint64_t n = rp_perft(&p, table[i].depth);
        if (n != table[i].nodes)
            fail_msg("%s depth %d: %llu, want %llu", table[i].variant, table[i].depth,
                     (unsigned long long)n, (unsigned long long)table[i].nodes);
    }
}

/* The interface's slow perft (make/unmake, full move lists) agrees with the
 * bulk counter, on every variant and on several shuffled starts. */
static void test_interface_perft_agrees(void **state)
{
    (void)state;
    for (const game_variant *const *v = game_variants(); *v; v++) {
        if (strcmp((*v)->family, "rampart") != 0)
            continue;  /* other games have tests of their own */
        for (uint64_t seed = 0; seed < ((*v)->starts > 1 ? 5u : 1u); seed++) {
            rp_pos p;
            (*v)->ops->start(*v, &p, seed * 397);
            rp_pos before = p;
            for (int d = 1; d <= 3; d++)
                assert_int_equal(game_perft(*v, &p, d), rp_perft(&p, d));
            assert_memory_equal(&p, &before, sizeof p);
        }
    }
}

/* rp_count (setwise Queens) equals the number of generated moves, every
 * generated move is distinct, and rp_queen_attacks (setwise) is the union
 * of rp_queen_reach over a side's Queens, in positions along random games. */
static void test_count_matches_generation(void **state)
{
    (void)state;
    rng g;
    rng_seed(&g, 7);
    for (int game = 0; game < 200; game++) {
        const game_variant *v = game_variants()[game % 6];
        rp_pos p;
        v->ops->start(v, &p, rng_next(&g));
        for (int ply = 0; ply < 300; ply++) {
            game_move list[RP_MAX_MOVES];
            int n = rp_gen(&p, list);
            assert_int_equal(n, rp_count(&p));
            uint64_t occ = p.occ[0] | p.occ[1];
            for (int side = 0; side < 2; side++) {
                uint64_t one = 0;
                for (uint64_t q = p.pc[side][RP_QUEEN]; q; q &= q - 1)
                    one |= rp_queen_reach(p.g, __builtin_ctzll(q), occ);
                assert_true(rp_queen_attacks(p.g, p.pc[side][RP_QUEEN], occ) == one);
            }
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++)
                    assert_int_not_equal(list[i], list[j]);
            n = rp_legal(&p, list);
            if (n == 0)
                break;
            rp_make(&p, list[rng_below(&g, (uint64_t)n)]);
            assert_true(rp_pos_ok(&p));
        }
    }
}

/* make/unmake through game.h restores every byte; keys follow the
 * position, not the path (transpositions hash alike). */
static void test_make_unmake_and_keys(void **state)
{
    (void)state;
    const game_variant *v = &rp_variant_classic;
    rp_pos a, b;
    v->ops->start(v, &a, 0);
    b = a;
    const char *path_a[] = { "c4c5", "b6a6", "b4a4", "d6e6" };
    const char *path_b[] = { "b4a4", "d6e6", "c4c5", "b6a6" };
    for (int i = 0; i < 4; i++) {
        game_move m;
        rp_pos undo, before = a;
        assert_int_equal(v->ops->parse_move(&a, path_a[i], &m, NULL), 0);
        v->ops->make(&a, m, &undo);
        v->ops->unmake(&a, m, &undo);
        assert_memory_equal(&a, &before, sizeof a);
        v->ops->make(&a, m, &undo);
        assert_int_equal(v->ops->parse_move(&b, path_b[i], &m, NULL), 0);
        v->ops->make(&b, m, &undo);
    }
    assert_int_equal(v->ops->hash(&a), v->ops->hash(&b));
    assert_int_equal(a.key, rp_compute_key(&a));
    /* The side to move is part of the key. */
    rp_pos c = a;
    c.stm ^= 1;
    assert_int_not_equal(rp_compute_key(&c), a.key);
}

/* No allocation on the move path is by construction (no allocator is
 * called in movegen.c or move.c); here: copies of a position are
 * independent values. */
static void test_positions_are_values(void **state)
{
    (void)state;
    rp_pos a;
    rp_variant_xl.ops->start(&rp_variant_xl, &a, 0);
    rp_pos b = a;
    game_move m;
    assert_int_equal(rp_parse_move(&b, "d4d5", &m, NULL), 0);
    rp_make(&b, m);
    char fa[128], fb[128];
    rp_format(&a, fa, sizeof fa);
    rp_format(&b, fb, sizeof fb);
    assert_string_equal(fa, "2qqq2/2nnn2/2kkk2/2bbb2/7/2BBB2/2KKK2/2NNN2/2QQQ2 b 1");
    assert_string_equal(fb, "2qqq2/2nnn2/2kkk2/2bbb2/3B3/2B1B2/2KKK2/2NNN2/2QQQ2 t 1");
}

static void test_registry(void **state)
{
    (void)state;
    assert_ptr_equal(game_variant_find("rampart"), &rp_variant_classic);
    assert_ptr_equal(game_variant_find("rampart-xl"), &rp_variant_xl);
    assert_null(game_variant_find("chess"));
    assert_null(game_variant_find(""));
    int n = 0;
    for (const game_variant *const *v = game_variants(); *v; v++, n++) {
        assert_true((*v)->ops->pos_size <= GAME_POS_MAX);
        assert_true((*v)->ops->undo_size <= GAME_POS_MAX);
        assert_int_equal((*v)->nsides, strcmp((*v)->family, "keeps-moats") == 0 ? 4 : 2);
    }
    assert_true(n >= 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_table),
        cmocka_unit_test(test_interface_perft_agrees),
        cmocka_unit_test(test_count_matches_generation),
        cmocka_unit_test(test_make_unmake_and_keys),
        cmocka_unit_test(test_positions_are_values),
        cmocka_unit_test(test_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
