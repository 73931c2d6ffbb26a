/* test_board_facts.c -- what each game tells a page of its board through
 * game.h (game_ops.kinds, game_ops.areas), held to the rulings: the page
 * draws Stratego's army and setup rows and Keeps & Moats's Moats, Keeps and
 * Thrones from these alone, so they must be the rules'.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/games/game.h"

/* The start position of a variant, in pos. */
static const game_variant *start(const char *name, unsigned char *pos)
{
    const game_variant *v = game_variant_find(name);
    assert_non_null(v);
    v->ops->start(v, pos, 0);
    return v;
}

/* What stands on square `sq` of pos ("" for none), by game_ops.squares. */
static const char *piece_on(const game_variant *v, const void *pos, const char *sq)
{
    static game_piece_at at[512];
    int n = v->ops->squares(pos, at, 512);
    for (int i = 0; i < n; i++)
        if (strcmp(at[i].square, sq) == 0)
            return at[i].piece;
    fail_msg("no square %s", sq);
    return "";
}

/* S2: twelve kinds, strongest first, forty pieces a side. */
static void test_s2_stratego_army(void **state)
{
    (void)state;
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    const game_variant *v = start("stratego", pos);
    assert_non_null(v->ops->kinds);
    game_piece_kind k[32];
    int n = v->ops->kinds(k, 32);
    assert_int_equal(n, 12);
    assert_int_equal(k[0].letter, 'M');
    assert_string_equal(k[0].name, "Marshal");
    assert_int_equal(k[0].rank, 10);
    assert_int_equal(k[9].letter, 'S');
    assert_int_equal(k[9].rank, 1);
    assert_string_equal(k[10].name, "Bomb");
    assert_int_equal(k[10].rank, 0);
    assert_int_equal(k[10].count, 6);
    assert_string_equal(k[11].name, "Flag");
    int total = 0;
    for (int i = 0; i < n; i++) {
        total += k[i].count;
        if (i > 0 && i < 10)
            assert_int_equal(k[i].rank, k[i - 1].rank - 1);
    }
    assert_int_equal(total, 40);
}

/* S3 (and S1): each side's forty setup squares are its own four rows, none a
 * lake, front row first from the owner's left; a random setup's pieces
 * stand on them in the setup string's order. */
static void test_s3_stratego_setup_squares(void **state)
{
    (void)state;
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    const game_variant *v = start("stratego", pos);
    assert_non_null(v->ops->areas);
    static game_area_at a[256];
    int n = v->ops->areas(pos, a, 256);
    assert_int_equal(n, 80);
    for (int i = 0; i < n; i++) {
        int side = i / 40;
        assert_string_equal(a[i].area, "setup");
        assert_int_equal(a[i].side, side);
        int row = atoi(a[i].square + 1);
        assert_true(side == 0 ? row <= 4 : row >= 7);
        assert_string_not_equal(piece_on(v, pos, a[i].square), "~");
    }
    assert_string_equal(a[0].square, "a4");
    assert_string_equal(a[9].square, "j4");
    assert_string_equal(a[39].square, "j1");
    assert_string_equal(a[40].square, "j7");
    assert_string_equal(a[79].square, "a10");
    /* the start's pieces, read square by square, are its setup string */
    char setup[64];
    assert_true(v->ops->setup->of(pos, 0, setup, sizeof setup) > 0);
    for (int i = 0, j = 0; i < 40; i++, j++) {
        if (setup[j] == '/')
            j++;
        assert_int_equal(piece_on(v, pos, a[i].square)[0], setup[j]);
    }
}

/* K1: per kingdom a Moat of seven squares and a Keep of nine, the Throne
 * and the Castle Pawn's square inside the Keep, where its King and Castle
 * Pawn stand at the start. */
static void test_k1_keeps_moats_areas(void **state)
{
    (void)state;
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    const game_variant *v = start("keeps-moats", pos);
    assert_non_null(v->ops->areas);
    static game_area_at a[512];
    int n = v->ops->areas(pos, a, 512);
    static const char kingdom_letter[] = "wrbu";
    for (int k = 0; k < 4; k++) {
        int moat = 0, keep = 0, throne = 0, castle = 0;
        char keeps[9][GAME_SQUARE_NAME];
        for (int i = 0; i < n; i++) {
            if (a[i].side != k)
                continue;
            if (strcmp(a[i].area, "moat") == 0)
                moat++;
            else if (strcmp(a[i].area, "keep") == 0)
                memcpy(keeps[keep++ % 9], a[i].square, GAME_SQUARE_NAME);
        }
        assert_int_equal(moat, 7);
        assert_int_equal(keep, 9);
        for (int i = 0; i < n; i++) {
            if (a[i].side != k || (strcmp(a[i].area, "throne") && strcmp(a[i].area, "castle")))
                continue;
            int inside = 0;
            for (int j = 0; j < 9; j++)
                inside |= strcmp(keeps[j], a[i].square) == 0;
            assert_true(inside);
            const char *p = piece_on(v, pos, a[i].square);
            assert_int_equal(p[0], kingdom_letter[k]);
            if (strcmp(a[i].area, "throne") == 0) {
                throne++;
                assert_int_equal(p[1], 'K');
            } else {
                castle++;
                assert_int_equal(p[1], 'C');
            }
        }
        assert_int_equal(throne, 1);
        assert_int_equal(castle, 1);
    }
}

/* The kinds every board names: Rampart's four (R2), Keeps & Moats's seven. */
static void test_kinds_named(void **state)
{
    (void)state;
    game_piece_kind k[32];
    const game_variant *r = game_variant_find("rampart");
    assert_int_equal(r->ops->kinds(k, 32), 4);
    assert_string_equal(k[0].name, "Queen");
    assert_string_equal(k[3].name, "Blocker");
    assert_null(r->ops->areas);
    const game_variant *km = game_variant_find("keeps-moats");
    assert_int_equal(km->ops->kinds(k, 32), 7);
    assert_int_equal(k[0].letter, 'K');
    assert_string_equal(k[6].name, "Castle Pawn");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_s2_stratego_army),
        cmocka_unit_test(test_s3_stratego_setup_squares),
        cmocka_unit_test(test_k1_keeps_moats_areas),
        cmocka_unit_test(test_kinds_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
