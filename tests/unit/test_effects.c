/* test_effects.c -- what a move does, as structure (game_ops.effects), and
 * which pieces stand attacked (game_ops.threats), through the generic
 * interface the server uses: Rampart's captures (R4) and enclosures (R5),
 * Stratego's combat (S5), whose ranks every player learns, and Keeps &
 * Moats's captures (K4) and kingdoms put out (K6).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/games/game.h"
#include "../../src/games/keeps-moats/keeps_moats.h"

typedef struct {
    const game_variant *v;
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
} board;

static board at(const char *variant, const char *text)
{
    board b;
    game_error err = { "" };
    b.v = game_variant_find(variant);
    assert_non_null(b.v);
    if (b.v->ops->parse(b.v, b.pos, text, &err) != 0)
        fail_msg("cannot parse %s: %s", text, err.msg);
    return b;
}

static game_move move_of(board *b, const char *text)
{
    game_move m;
    game_error err = { "" };
    if (b->v->ops->parse_move(b->pos, text, &m, &err) != 0)
        fail_msg("move %s refused: %s", text, err.msg);
    return m;
}

static void play(board *b, const char *text)
{
    _Alignas(16) unsigned char undo[GAME_POS_MAX];
    b->v->ops->make(b->pos, move_of(b, text), undo);
}

static void test_R4_R5_effects_name_the_captured_and_the_enclosed(void **state)
{
    (void)state;
    board b = at("rampart", "4q/2Q2/5/2n2/1BkB1/2B2/5/5/K4 b 1");
    game_effects e;
    b.v->ops->effects(b.pos, move_of(&b, "c8c6"), &e);
    assert_string_equal(e.from, "c8");
    assert_string_equal(e.to, "c6");
    assert_int_equal(e.ncaptured, 1);
    assert_string_equal(e.captured[0], "c6");  /* the Knight, where the Queen lands */
    assert_int_equal(e.nremoved, 1);
    assert_string_equal(e.removed[0], "c5");   /* the King in the cage */
    assert_int_equal(e.combat, 0);
}

static void test_R3_quiet_move_removes_nothing(void **state)
{
    (void)state;
    board b = at("rampart", "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1");
    game_effects e;
    b.v->ops->effects(b.pos, move_of(&b, "b4b5"), &e);
    assert_string_equal(e.from, "b4");
    assert_string_equal(e.to, "b5");
    assert_int_equal(e.ncaptured, 0);
    assert_int_equal(e.nremoved, 0);
}

static void test_R5_threats_include_a_piece_one_move_from_its_cage(void **state)
{
    (void)state;
    /* Top's King on c5 has Bottom pieces on b5, d5 and c4; Bottom's Queen
     * on c7 can close the cage on c6. Nothing can be taken directly. */
    board b = at("rampart", "4k/5/2Q2/5/1BkB1/2B2/5/5/K4 b 1");
    char out[16][GAME_SQUARE_NAME];
    int n = b.v->ops->threats(b.pos, out, 16);
    int c5 = 0;
    for (int i = 0; i < n; i++)
        c5 |= strcmp(out[i], "c5") == 0;
    assert_true(c5);
}

static void test_R4_threats_are_the_pieces_either_side_could_take(void **state)
{
    (void)state;
    /* Bottom's Queen on c3 could take Top's Knight on c5; nothing else is
     * in reach of anything */
    board b = at("rampart", "4k/5/5/5/2n2/5/2Q2/5/K4 b 1");
    char out[16][GAME_SQUARE_NAME];
    int n = b.v->ops->threats(b.pos, out, 16);
    assert_int_equal(n, 1);
    assert_string_equal(out[0], "c5");
}

static void test_S5_combat_effects_give_both_ranks_and_who_lost(void **state)
{
    (void)state;
    board b = at("stratego", "bbnbnoenbf/bnajloeanb/eljcscolje/oaogomloao/2~~2~~2/2~~2~~2/"
                             "OAOLMOGOAO/EJLOCSCJLE/BNAEOLJANB/FBNEONBNBB r 0 - -");
    play(&b, "a4a5");
    play(&b, "a7a6");
    game_effects e;
    b.v->ops->effects(b.pos, move_of(&b, "a5a6"), &e);
    assert_int_equal(e.combat, 1);
    assert_string_equal(e.attacker, "Scout");
    assert_string_equal(e.defender, "Scout");
    assert_int_equal(e.lost, 3);  /* equal ranks: both are removed */
    assert_string_equal(e.from, "a5");
    assert_string_equal(e.to, "a6");
    assert_int_equal(e.ncaptured, 1);
    assert_string_equal(e.captured[0], "a6");
    /* a quiet move is no combat; hidden games name no threats */
    b.v->ops->effects(b.pos, move_of(&b, "b4b5"), &e);
    assert_int_equal(e.combat, 0);
    assert_int_equal(e.ncaptured, 0);
    assert_null(b.v->ops->threats);
}

/* K4-K6 over random games: a move reports a capture exactly when the
 * mover's prisoners grow, every square it says it removed is empty, and the
 * threats name exactly the pieces some kingdom still in could take. */
static void test_K4_K6_effects_agree_with_the_board_over_random_games(void **state)
{
    (void)state;
    const game_variant *v = game_variant_find("keeps-moats");
    assert_non_null(v);
    unsigned seed = 12345;
    int captures = 0, removals = 0;
    for (int game = 0; game < 20; game++) {  /* the seed differs game to game */
        km_pos pos;
        v->ops->start(v, &pos, (uint64_t)game);
        for (int ply = 0; ply < 400; ply++) {
            game_move list[GAME_MAX_MOVES];
            int n = v->ops->moves(&pos, list);
            if (n == 0)
                break;
            seed = seed * 1103515245u + 12345u;
            game_move m = list[(seed >> 8) % (unsigned)n];
            /* the threats are exactly the pieces some move of a kingdom
             * still in would take, were it its turn, by the effects of
             * each such move, and stand on pieces */
            char threats[KM_NSQ][GAME_SQUARE_NAME];
            int nt = v->ops->threats(&pos, threats, KM_NSQ);
            int want[KM_NSQ] = {0}, nwant = 0;
            for (int k = 0; k < KM_NK; k++) {
                if (pos.out >> k & 1)
                    continue;
                km_pos turn = pos;
                turn.stm = (uint8_t)k;
                game_move all[GAME_MAX_MOVES];
                int na = v->ops->moves(&turn, all);
                for (int i = 0; i < na; i++) {
                    game_effects te;
                    v->ops->effects(&turn, all[i], &te);
                    for (int c = 0; c < te.ncaptured; c++) {
                        int sq = km_parse_square(te.captured[c], strlen(te.captured[c]));
                        assert_true(sq >= 0);
                        nwant += !want[sq];
                        want[sq] = 1;
                    }
                }
            }
            assert_int_equal(nt, nwant);
            for (int t = 0; t < nt; t++) {
                int sq = km_parse_square(threats[t], strlen(threats[t]));
                assert_true(sq >= 0);
                assert_int_not_equal(pos.sq[sq], 0);
                assert_true(want[sq]);
            }
            int mover = pos.stm, before = 0, after = 0;
            for (int o = 0; o < KM_NK; o++)
                for (int t = 0; t < KM_NTYPES; t++)
                    before += pos.pris[mover][o][t];
            game_effects e;
            v->ops->effects(&pos, m, &e);
            _Alignas(16) unsigned char undo[GAME_POS_MAX];
            v->ops->make(&pos, m, undo);
            for (int o = 0; o < KM_NK; o++)
                for (int t = 0; t < KM_NTYPES; t++)
                    after += pos.pris[mover][o][t];
            if ((e.ncaptured > 0) != (after > before)) {
                char t[32];
                v->ops->format_move(undo, m, t, sizeof t);  /* undo holds the position before */
                fail_msg("%s: %d captured, prisoners %d -> %d", t, e.ncaptured, before, after);
            }
            for (int i = 0; i < e.nremoved; i++) {
                int sq = km_parse_square(e.removed[i], strlen(e.removed[i]));
                assert_true(sq >= 0);
                assert_int_equal(pos.sq[sq], 0);
            }
            captures += e.ncaptured;
            removals += e.nremoved;
        }
    }
    assert_true(captures > 0);  /* the games did take pieces */
    (void)removals;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R4_R5_effects_name_the_captured_and_the_enclosed),
        cmocka_unit_test(test_R3_quiet_move_removes_nothing),
        cmocka_unit_test(test_R4_threats_are_the_pieces_either_side_could_take),
        cmocka_unit_test(test_R5_threats_include_a_piece_one_move_from_its_cage),
        cmocka_unit_test(test_S5_combat_effects_give_both_ranks_and_who_lost),
        cmocka_unit_test(test_K4_K6_effects_agree_with_the_board_over_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
