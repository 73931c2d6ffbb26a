/* test_km_resign.c -- resigning in Keeps & Moats (K6 and the reading of
 * docs/keeps-moats.md, "Resigning"): a kingdom that resigns is out as if
 * its King had been captured by nobody, and the game goes on by K6.
 *
 * Every position is built from a list of pieces and the other eight K7
 * fields and read through km_parse; every resignation is played through
 * game_ops (resign, format_move, parse_move, make, unmake), as the server
 * plays it, and the position after it must keep every invariant
 * (km_pos_ok) and read back from its own text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/games/keeps-moats/keeps_moats.h"
#include "km_fixture.h"

#define START                                                                             \
    "bC/bNbKbB/bRbBbQbNbR/bPbPbPbPbPbPbP/9/rP9uP/rRrP9uPuR/rBrNrP9uPuBuN/"               \
    "rCrKrQrP9uPuQuKuC/rNrBrP9uPuNuB/rRrP9uPuR/rP9uP/9/wPwPwPwPwPwPwP/wRwNwQwBwR/wBwKwN/" \
    "wC w anarchy gained wrbu -,-,-,- - 1 200"

static const game_ops *ops(void)
{
    const game_variant *v = game_variant_find("keeps-moats");
    assert_non_null(v);
    assert_non_null(v->ops->resign);
    return v->ops;
}

/* The position's text from its 2nd field on ("r anarchy ... 1 200"). */
static const char *fields(const km_pos *p)
{
    static char buf[1024];
    km_format(p, buf, sizeof buf);
    return strchr(buf, ' ') + 1;
}

/* Kingdom k resigns through game_ops, as the server does it: the move
 * asked for, written, read back from its text, then made (and unmade once
 * to see the position restored). Checks the position after it. */
static void resign(km_pos *p, int k, const char *want_text)
{
    const game_ops *o = ops();
    game_move m = GAME_MOVE_NONE;
    game_error err = { "" };
    if (o->resign(p, k, &m, &err) != 0)
        fail_msg("%s cannot resign: %s", km_side_name(k), err.msg);
    assert_true(m != GAME_MOVE_NONE);
    char text[32];
    o->format_move(p, m, text, sizeof text);
    assert_string_equal(text, want_text);
    game_move again;
    assert_int_equal(o->parse_move(p, text, &again, &err), 0);
    assert_true(again == m);
    /* no list of legal moves holds it */
    game_move list[GAME_MAX_MOVES];
    int n = o->moves(p, list);
    for (int i = 0; i < n; i++)
        assert_true(list[i] != m);
    km_pos before = *p;
    _Alignas(16) unsigned char undo[GAME_POS_MAX];
    o->make(p, m, undo);
    km_pos after = *p;
    o->unmake(p, m, undo);
    assert_memory_equal(p, &before, sizeof before);
    o->make(p, m, undo);
    assert_memory_equal(p, &after, sizeof after);
    assert_true(km_pos_ok(p));
    char a[1024];
    km_format(p, a, sizeof a);
    km_pos q = from_text(a);
    assert_memory_equal(&q, p, sizeof q);
}

static void refused(const km_pos *p, int k, const char *want)
{
    game_move m = 12345;
    game_error err = { "" };
    km_pos before = *p;
    assert_int_equal(ops()->resign(p, k, &m, &err), -1);
    assert_true(m == 12345);
    if (!strstr(err.msg, want))
        fail_msg("resigning %d: '%s' does not say '%s'", k, err.msg, want);
    assert_memory_equal(p, &before, sizeof before);
}

/* Lost: on its own turn White leaves the board entirely; Red moves next,
 * in the same round. */
static void test_K6_resign_on_own_turn_lost(void **state)
{
    (void)state;
    km_pos p = from_text(START);
    ops()->set_option(&p, "KingResult", KM_LOST, &(game_error){ "" });
    resign(&p, KM_WHITE, "resign:w");
    for (int s = 0; s < KM_NSQ; s++)
        assert_true(!p.sq[s] || KM_OWNER(p.sq[s]) != KM_WHITE);
    assert_int_equal(p.out, 1u << KM_WHITE);
    assert_int_equal(p.stm, KM_RED);
    assert_int_equal(p.round, 1);
    /* castling: White's right is gone, the others keep theirs */
    assert_string_equal(strstr(fields(&p), "lost"), "lost rbu -,-,-,- w 1 200");
    /* nobody took the King: no prisoner anywhere */
    for (int h = 0; h < KM_NK; h++)
        for (int o = 0; o < KM_NK; o++)
            for (int t = 0; t < KM_NTYPES; t++)
                assert_int_equal(p.pris[h][o][t], 0);
    assert_int_equal(km_result(&p).over, 0);
}

/* Frozen: out of turn, Red's King leaves the board and the rest stay,
 * frozen: they block, are never taken, never move. White keeps the turn. */
static void test_K6_resign_out_of_turn_frozen(void **state)
{
    (void)state;
    km_pos p = build("wK@i2 rK@b9 bK@i16 uK@p9 rR@h9 wR@h5 rN@e9",
                     "w anarchy frozen - -,-,-,- - 3 200");
    resign(&p, KM_RED, "resign:r");
    assert_int_equal(at(&p, "b9"), 0);
    assert_int_equal(at(&p, "h9"), KM_PIECE(KM_RED, KM_ROOK));
    assert_int_equal(at(&p, "e9"), KM_PIECE(KM_RED, KM_KNIGHT));
    assert_int_equal(p.stm, KM_WHITE);
    assert_int_equal(p.round, 3);
    assert_string_equal(fields(&p), "w anarchy frozen - -,-,-,- r 3 200");
    /* White's Rook may go up to h8 but not take the frozen Rook on h9 */
    game_move m;
    assert_int_equal(ops()->parse_move(&p, "h5h8", &m, NULL), 0);
    assert_int_equal(ops()->parse_move(&p, "h5h9", &m, NULL), -1);
    /* Black moves after White, Red being skipped */
    _Alignas(16) unsigned char undo[GAME_POS_MAX];
    assert_int_equal(ops()->parse_move(&p, "h5h8", &m, NULL), 0);
    ops()->make(&p, m, undo);
    assert_int_equal(p.stm, KM_BLACK);
}

/* Gained: the pieces would pass to the King's captor; a King given up has
 * none, so they leave the board as under Lost. Prisoners stay where they
 * are: those Black holds, and Black's pieces others hold. */
static void test_K6_resign_gained_passes_to_nobody(void **state)
{
    (void)state;
    km_pos p = build("wK@i2 rK@b9 bK@i16 uK@p9 bQ@i9 bC@i17 bP@h14",
                     "r anarchy gained b bN,-,rR,bB - 2 200");
    resign(&p, KM_BLACK, "resign:b");
    for (int s = 0; s < KM_NSQ; s++)
        assert_true(!p.sq[s] || KM_OWNER(p.sq[s]) != KM_BLACK);
    assert_string_equal(fields(&p), "r anarchy gained - bN,-,rR,bB b 2 200");
    assert_int_equal(p.pris[KM_BLACK][KM_RED][KM_ROOK], 1);
    assert_int_equal(p.pris[KM_BLUE][KM_BLACK][KM_BISHOP], 1);
    assert_int_equal(p.pris[KM_WHITE][KM_BLACK][KM_KNIGHT], 1);
}

/* The turn passes to the next kingdom still in; passing White's place
 * makes a new round. */
static void test_K6_resign_passes_the_turn_on(void **state)
{
    (void)state;
    km_pos p = build("rK@b9 bK@i16 uK@p9", "u anarchy lost - -,-,-,- w 7 200");
    resign(&p, KM_BLUE, "resign:u");
    assert_int_equal(p.stm, KM_RED);
    assert_int_equal(p.round, 8);
    assert_int_equal(km_result(&p).over, 0);
}

/* Allies play on when one of them resigns; the game ends by K6 once the
 * Kings left are all of one side, and that side wins. */
static void test_K6_resign_team_plays_on_until_one_side_is_left(void **state)
{
    (void)state;
    /* Allied Neighbors: White+Blue against Red+Black */
    km_pos p = build("wK@i2 rK@b9 bK@i16 uK@p9 wQ@i5", "w neighbors gained - -,-,-,- - 1 200");
    resign(&p, KM_WHITE, "resign:w");
    assert_int_equal(km_result(&p).over, 0);
    assert_int_equal(p.stm, KM_RED);
    resign(&p, KM_BLACK, "resign:b");
    assert_int_equal(km_result(&p).over, 0);
    assert_int_equal(p.stm, KM_RED);
    resign(&p, KM_BLUE, "resign:u");
    game_result r = km_result(&p);
    assert_int_equal(r.over, 1);
    assert_int_equal(r.winner, km_team(KM_NEIGHBORS, KM_RED));
    assert_string_equal(r.reason, "kings");
    char why[64];
    km_result_text(&p, why, sizeof why);
    assert_string_equal(why, "red+black kings");
    /* the last kingdom's own move, resigning on its turn: it wins all the
     * same, and the one left is to move */
    p = build("rK@b9 bK@i16", "r anarchy frozen - -,-,-,- wu 4 200");
    resign(&p, KM_RED, "resign:r");
    r = km_result(&p);
    assert_int_equal(r.over, 1);
    assert_int_equal(r.winner, KM_BLACK);
    assert_int_equal(p.stm, KM_BLACK);
}

/* A kingdom out, a game over, a kingdom that does not exist: refused,
 * with the reason, the position untouched. The notation is read strictly. */
static void test_K6_resign_refused(void **state)
{
    (void)state;
    km_pos p = build("wK@i2 rK@b9 bK@i16", "w anarchy gained - -,-,-,- u 1 200");
    refused(&p, KM_BLUE, "out of the game already");
    refused(&p, 4, "no kingdom 4");
    refused(&p, -1, "no kingdom -1");
    game_move m;
    game_error err = { "" };
    assert_int_equal(ops()->parse_move(&p, "resign:u", &m, &err), -1);
    assert_non_null(strstr(err.msg, "out of the game"));
    static const char *const bad[] = { "resign", "resign:", "resign:x", "resign:ww", "resign:W",
                                       "resign:w ", "resign-w", "resignw" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        km_pos before = p;
        if (ops()->parse_move(&p, bad[i], &m, &err) != -1)
            fail_msg("'%s' was read as a move", bad[i]);
        assert_true(err.msg[0] != 0);
        assert_memory_equal(&p, &before, sizeof p);
    }
    /* over: Black is the last one in after White and Red resign */
    resign(&p, KM_WHITE, "resign:w");
    resign(&p, KM_RED, "resign:r");
    assert_int_equal(km_result(&p).over, 1);
    refused(&p, KM_BLACK, "the game is over");
    assert_int_equal(ops()->parse_move(&p, "resign:b", &m, &err), -1);
    /* over by the move limit */
    p = build("wK@i2 rK@b9", "w anarchy gained - -,-,-,- bu 201 200");
    refused(&p, KM_WHITE, "draw move-limit");
}

/* The other games end at a resignation: they have no resign operation. */
static void test_resign_is_for_keeps_and_moats_only(void **state)
{
    (void)state;
    for (const game_variant *const *v = game_variants(); *v; v++)
        if (strcmp((*v)->family, "keeps-moats") != 0)
            assert_null((*v)->ops->resign);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_K6_resign_on_own_turn_lost),
        cmocka_unit_test(test_K6_resign_out_of_turn_frozen),
        cmocka_unit_test(test_K6_resign_gained_passes_to_nobody),
        cmocka_unit_test(test_K6_resign_passes_the_turn_on),
        cmocka_unit_test(test_K6_resign_team_plays_on_until_one_side_is_left),
        cmocka_unit_test(test_K6_resign_refused),
        cmocka_unit_test(test_resign_is_for_keeps_and_moats_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
