/* test_keeps_moats_notation.c -- Keeps & Moats's notation (K7 of
 * rules/keeps-and-moats.md) by name, perft from the start, and random
 * playouts that read every position and move back from its text.
 *
 * Positions are built from a list of pieces ("wK@i2 rK@b9") and the other
 * eight K7 fields, then read through km_parse, so every test position is
 * also one the reader accepts. Moves are compared as sorted texts.
 */
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
#include "km_fixture.h"

/* --- K7 Notation ----------------------------------------------------------- */

static void test_K7_start_string(void **state)
{
    (void)state;
    const game_variant *v = game_variant_find("keeps-moats");
    assert_ptr_equal(v, &km_variant);
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    char buf[1024];
    v->ops->start(v, pos, 0);
    v->ops->format(pos, buf, sizeof buf);
    assert_string_equal(buf, START);
    /* The settings change fields 3, 4 and 9. */
    game_error err;
    assert_int_equal(v->ops->set_option(pos, "GameType", 0, &err), 0);
    assert_int_equal(v->ops->set_option(pos, "KingResult", 2, &err), 0);
    assert_int_equal(v->ops->set_option(pos, "MoveLimit", 50, &err), 0);
    v->ops->format(pos, buf, sizeof buf);
    assert_non_null(strstr(buf, " w neighbors frozen wrbu -,-,-,- - 1 50"));
    assert_int_equal(v->ops->set_option(pos, "GameType", 1, &err), 0);
    assert_int_equal(v->ops->set_option(pos, "KingResult", 1, &err), 0);
    v->ops->format(pos, buf, sizeof buf);
    assert_non_null(strstr(buf, " w crossroad lost "));
    assert_int_equal(v->ops->set_option(pos, "GameType", 3, &err), -1);
    assert_int_equal(v->ops->set_option(pos, "KingResult", -1, &err), -1);
    assert_int_equal(v->ops->set_option(pos, "Colour", 1, &err), -1);
    /* KingResult may not leave an out kingdom's pieces on the board. */
    km_pos p = build("rK@b9 bK@i16 uK@p9 wR@k9", "r anarchy frozen - -,wK,-,- w 1 200");
    assert_int_equal(v->ops->set_option(&p, "KingResult", 0, &err), -1);
    assert_int_equal(p.king_result, KM_FROZEN);
}

static void test_K7_positions_round_trip(void **state)
{
    (void)state;
    const char *texts[] = {
        START,
        "bC/bNbKbB/bRbBbQbNbR/bPbPbPbPbPbPbP/9/rP9uP/rRrP9uPuR/rBrNrP9uPuBuN/"
        "rCrKrQrP9uPuQuKuC/rNrBrP9uPuNuB/rRrP9uPuR/rP9uP/9/wPwPwPwPwPwPwP/wRwNwQwBwR/wBwKwN/"
        "wC u crossroad frozen rb -,-,-,- - 17 40",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 u crossroad frozen - bPrR,wQ,-,bBbBwN b "
        "17 40",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w neighbors lost - -,-,-,- b 2 0",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        km_pos p = from_text(texts[i]);
        assert_string_equal(fen(&p), texts[i]);
        assert_true(km_pos_ok(&p));
    }
}

static void test_K7_bad_positions_are_refused(void **state)
{
    (void)state;
    const char *bad[] = {
        "",
        "x",
        START " extra",
        "bC/bNbKbB w anarchy gained wrbu -,-,-,- - 1 200",
        /* Row 9 one square short. */
        "bC/bNbKbB/bRbBbQbNbR/bPbPbPbPbPbPbP/9/rP9uP/rRrP9uPuR/rBrNrP9uPuBuN/"
        "rCrKrQrP8uPuQuKuC/rNrBrP9uPuNuB/rRrP9uPuR/rP9uP/9/wPwPwPwPwPwPwP/wRwNwQwBwR/wBwKwN/"
        "wC w anarchy gained wrbu -,-,-,- - 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 x anarchy gained - -,-,-,- b 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w chaos gained - -,-,-,- b 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w anarchy won - -,-,-,- b 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained w -,-,-,- b 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained - -,-,- b 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained - wR,-,-,- b 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained - rRbR,-,-,- b 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained - bRrR,-,-,- b 1 200x",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained - -,-,-,- - 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained - -,-,-,- bw 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 b anarchy gained - -,-,-,- b 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained - -,-,-,- b 0 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained - -,-,-,- b 01 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained - -,-,-,- b 1 -2",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained - -,-,-,- b 1",
        "1/3/5/7/9/11/13/15/rK88/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained - -,-,-,- b 1 200",
        "1/3/5/7/9/11/13/15/rK0016/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained - -,-,-,- b 1 200",
        "1/3/5/7/9/11/13/15/rK97/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained - -,-,-,- b 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/wP w anarchy gained - -,-,-,- b 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/xQ w anarchy gained - -,-,-,- b 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/wKwK1/1 w anarchy gained - -,-,-,- b 1 200",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1 w anarchy gained - -,-,-,- b 1 200/",
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/1/1 w anarchy gained - -,-,-,- b 1 200",
        /* Black is out but a Black piece is on the board (not Frozen). */
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/bR w anarchy gained - -,-,-,- b 1 200",
        /* Five Queens. */
        "1/3/5/7/9/11/13/15/rK16/15/13/3uK7/9/7/5/1wK1/wQ w anarchy gained - rQrQrQrQ,-,-,- b 1 200",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        km_pos p, before;
        km_start(&p, KM_ANARCHY, KM_GAINED);
        before = p;
        game_error err = { "" };
        if (km_parse(&p, bad[i], &err) == 0)
            fail_msg("accepted: %s", bad[i]);
        assert_true(strlen(err.msg) > 0);
        assert_null(strchr(err.msg, '\n'));
        assert_memory_equal(&p, &before, sizeof p);
    }
}

static void test_K7_move_notation(void **state)
{
    (void)state;
    km_pos p;
    km_start(&p, KM_ANARCHY, KM_GAINED);
    const char *bad[] = { "", "f4", "f4f7", "f4f5x", "z1z2", "f4 f5", "pass", "i2i1=r:wQ",
                          "i2i1=a:", "f4f5=q:wQ", "d6e6", "f18f5", "a1a2" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        game_move m;
        game_error err = { "" };
        km_pos before = p;
        assert_int_equal(km_parse_move(&p, bad[i], &m, &err), -1);
        assert_true(strlen(err.msg) > 0);
        assert_memory_equal(&p, &before, sizeof p);
    }
    /* Every legal move's text reads back to the same move. */
    game_move list[KM_MAX_MOVES];
    int n = km_legal(&p, list);
    for (int i = 0; i < n; i++) {
        char text[32];
        game_move m;
        km_format_move(&p, list[i], text, sizeof text);
        assert_int_equal(km_parse_move(&p, text, &m, NULL), 0);
        assert_int_equal(m, list[i]);
    }
    /* The two-digit rows and the choices of K5. */
    p = build("wK@i2 rK@b9 bK@i16 uK@p9 wP@h14 bR@g15", "w anarchy gained - -,-,wR,- - 1 200");
    assert_string_equal(moves_from(&p, "h14"), "h14g15=r:wR h14h15=a:g15 h14h15=r:wR");
    assert_true(legal(&p, "h14h15=r:wR"));
    assert_true(legal(&p, "h14h15=a:g15"));
    assert_false(legal(&p, "h14h15=a:g15x"));
    assert_false(legal(&p, "h14h15=r:wRR"));
    assert_false(legal(&p, "h14h15=r:w"));
}

static void test_K7_result_lines(void **state)
{
    (void)state;
    km_pos p;
    km_start(&p, KM_ANARCHY, KM_GAINED);
    assert_string_equal(result(&p), "ongoing");
    p = build("uK@p9", "u anarchy gained - -,-,-,- wrb 9 200");
    assert_string_equal(result(&p), "blue kings");
    p = build(KINGS, "w anarchy gained - -,-,-,- - 201 200");
    assert_string_equal(result(&p), "draw move-limit");
}

/* --- perft and playouts ---------------------------------------------------- */

static void test_K7_perft_from_the_start(void **state)
{
    (void)state;
    static const uint64_t want[] = { 1, 17, 288, 4879, 82367 };
    for (int gt = 0; gt < 3; gt++) {
        km_pos p;
        km_start(&p, gt, KM_GAINED);
        km_pos before = p;
        for (int d = 1; d <= 3; d++) {
            assert_int_equal(km_perft(&p, d), want[d]);
            assert_int_equal(game_perft(&km_variant, &p, d), want[d]);
        }
        assert_int_equal(km_perft(&p, 4), want[4]);
        assert_memory_equal(&p, &before, sizeof p);
    }
}

typedef struct tally {
    int kings_taken, releases, assassinations, passes, castlings, ends[3];
} tally;

/* Random games: every position keeps its invariants and reads back from its
 * text; every move's text reads back; make/unmake restores every byte. */
static void playout(rng *g, int gt, int kr, tally *t)
{
    const game_ops *ops = km_variant.ops;
    km_pos p;
    km_start(&p, gt, kr);
    p.limit = 60;
    for (int ply = 0; ply < 2000; ply++) {
        game_move list[KM_MAX_MOVES];
        int n = km_legal(&p, list);
        if (n == 0) {
            game_result r = km_result(&p);
            assert_true(r.over);
            t->ends[r.winner < 0 ? 0 : strcmp(r.reason, "kings") == 0 ? 1 : 2]++;
            return;
        }
        if (list[0] != KM_PASS)
            assert_int_equal(n, km_count(&p));
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                assert_int_not_equal(list[i], list[j]);
        /* Prefer captures now and then so that games reach their ends. */
        game_move m = list[rng_below(g, (uint64_t)n)];
        for (int i = 0; i < n && rng_below(g, 2); i++)
            if (list[i] != KM_PASS && p.sq[KM_TO(list[i])] &&
                KM_TYPE(p.sq[KM_FROM(list[i])]) != KM_KING)
                m = list[i];
        for (int i = 0; i < n; i++)
            if (list[i] != KM_PASS && KM_TYPE(p.sq[KM_TO(list[i])]) == KM_KING &&
                KM_OWNER(p.sq[KM_TO(list[i])]) != p.stm)
                m = list[i];
        char text[32];
        game_move back;
        km_format_move(&p, m, text, sizeof text);
        assert_int_equal(km_parse_move(&p, text, &back, NULL), 0);
        assert_int_equal(back, m);
        if (m == KM_PASS)
            t->passes++;
        else {
            if (KM_KIND(m) == KM_RELEASE)
                t->releases++;
            if (KM_KIND(m) == KM_ASSASSINATE)
                t->assassinations++;
            if (KM_TYPE(p.sq[KM_TO(m)]) == KM_KING)
                t->kings_taken++;
            if (KM_TYPE(p.sq[KM_FROM(m)]) == KM_KING &&
                KM_TYPE(p.sq[KM_TO(m)]) == KM_CASTLE && KM_OWNER(p.sq[KM_TO(m)]) == p.stm)
                t->castlings++;
        }
        km_pos before = p, undo;
        ops->make(&p, m, &undo);
        km_pos after = p;
        ops->unmake(&p, m, &undo);
        assert_memory_equal(&p, &before, sizeof p);
        p = after;
        assert_true(km_pos_ok(&p));
        char a[1024], b[1024];
        km_format(&p, a, sizeof a);
        km_pos q = from_text(a);
        km_format(&q, b, sizeof b);
        assert_string_equal(a, b);
        assert_int_equal(km_hash(&q), km_hash(&p));
    }
    fail_msg("a game did not end");
}

static void test_K3_K4_K5_K6_K7_random_playouts(void **state)
{
    (void)state;
    rng g;
    rng_seed(&g, 20261129u);
    tally t;
    memset(&t, 0, sizeof t);
    for (int game = 0; game < 90; game++)
        playout(&g, game % 3, (game / 3) % 3, &t);
    print_message("kings %d releases %d assassinations %d passes %d castlings %d "
                  "ends: draw %d kings %d\n",
                  t.kings_taken, t.releases, t.assassinations, t.passes, t.castlings, t.ends[0],
                  t.ends[1]);
    assert_true(t.kings_taken > 0);
    assert_true(t.assassinations > 0);
    assert_true(t.castlings > 0);
    assert_true(t.ends[0] > 0);
    assert_true(t.ends[1] > 0);
}

/* Positions are plain values that fit the interface's bound. */
static void test_K7_interface_bounds(void **state)
{
    (void)state;
    assert_true(km_variant.ops->pos_size <= GAME_POS_MAX);
    assert_true(km_variant.ops->undo_size <= GAME_POS_MAX);
    assert_string_equal(km_variant.name, "keeps-moats");
    assert_string_equal(km_variant.family, "keeps-moats");
    int found = 0;
    for (const game_option *o = km_variant.options; o->name; o++) {
        if (strcmp(o->name, "GameType") == 0)
            found += o->def == KM_ANARCHY && o->min == 0 && o->max == 2;
        if (strcmp(o->name, "KingResult") == 0)
            found += o->def == KM_GAINED && o->min == 0 && o->max == 2;
        if (strcmp(o->name, "MoveLimit") == 0)
            found += o->def == 200;
    }
    assert_int_equal(found, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_K7_start_string),
        cmocka_unit_test(test_K7_positions_round_trip),
        cmocka_unit_test(test_K7_bad_positions_are_refused),
        cmocka_unit_test(test_K7_move_notation),
        cmocka_unit_test(test_K7_result_lines),
        cmocka_unit_test(test_K7_perft_from_the_start),
        cmocka_unit_test(test_K3_K4_K5_K6_K7_random_playouts),
        cmocka_unit_test(test_K7_interface_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
