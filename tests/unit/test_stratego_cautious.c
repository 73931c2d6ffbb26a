/* test_stratego_cautious.c -- the "cautious" Stratego reference bot: it
 * answers every view with a legal move, never attacks an unknown piece
 * with ranks 8-10 while it has another move, takes revealed weaker pieces,
 * runs from revealed stronger ones, and plays Stratego only. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/ai/bots.h"
#include "../../src/games/stratego/cautious.h"
#include "../../src/base/rng.h"
#include "../../src/games/stratego/stratego.h"
#include "stratego_bot_helpers.h"

static const search_limits no_limits = { .time = { -1, -1 } };

static st_pos random_position(uint64_t seed, int plies)
{
    rng g;
    rng_seed(&g, seed);
    st_pos p;
    st_start_seed(&p, seed);
    for (int i = 0; i < plies && !st_over(&p); i++) {
        game_move list[ST_MAX_MOVES];
        int n = st_legal(&p, list);
        st_make(&p, list[rng_below(&g, (uint64_t)n)]);
    }
    return p;
}

/* An attack on an unrevealed piece by a Colonel, General or Marshal. */
static int top_on_unknown(const st_pos *view, game_move m)
{
    int a = ST_KIND(view->sq[ST_FROM(m)]);
    return ST_ATTACK(m) && a >= ST_COLONEL && a <= ST_MARSHAL &&
           ST_KIND(view->sq[ST_TO(m)]) == ST_UNKNOWN;
}

/* Checks the bot's move m in view: legal, and no top rank on an unknown
 * unless every legal move is one. */
static void check_move(const st_pos *view, game_move m)
{
    assert_true(is_legal(view, m));
    if (!top_on_unknown(view, m))
        return;
    game_move list[ST_MAX_MOVES];
    int n = st_legal(view, list);
    for (int i = 0; i < n; i++)
        if (!top_on_unknown(view, list[i]))
            fail_msg("attacked an unknown with rank %d while it had other moves",
                     ST_KIND(view->sq[ST_FROM(m)]));
}

static void test_legal_and_never_top_ranks_on_unknowns_in_random_positions(void **state)
{
    (void)state;
    stcautious *b = stcautious_new(1);
    assert_non_null(b);
    for (uint64_t seed = 0; seed < 300; seed++) {
        st_pos p = random_position(seed, (int)(seed * 7 % 500));
        if (st_over(&p))
            continue;
        st_pos view;
        st_view(&p, p.stm, &view);
        stcautious_new_game(b);
        game_move m = stcautious_move(b, &view);
        check_move(&view, m);
        assert_true(is_legal(&p, m));
    }
    stcautious_free(b);
}

/* Twenty games against random through the bots' interface, as the match
 * runner plays them (each side gets its view); every move of cautious is
 * checked; it wins most of them and loses at most one. */
static void test_games_against_random(void **state)
{
    (void)state;
    const game_variant *v = game_variant_find("stratego");
    assert_non_null(v);
    int wins = 0, losses = 0, attacks = 0;
    for (int g = 0; g < 20; g++) {
        char err[160];
        bot *c = bot_new("cautious", (uint64_t)g, err, sizeof err);
        bot *r = bot_new("random", (uint64_t)g + 1000, err, sizeof err);
        assert_non_null(c);
        assert_non_null(r);
        assert_int_equal(bot_new_game(c, v, 1000), 0);
        assert_int_equal(bot_new_game(r, v, 1000), 0);
        int side = g % 2;
        st_pos p, view;
        st_start_seed(&p, (uint64_t)g * 7 + 3);
        game_result res = { 0 };
        for (int ply = 0; ply < 1000; ply++) {
            res = st_result(&p);
            if (res.over)
                break;
            st_view(&p, p.stm, &view);
            game_move m = bot_move(p.stm == side ? c : r, v, &view, &no_limits, NULL);
            assert_true(is_legal(&p, m));
            if (p.stm == side) {
                check_move(&view, m);
                attacks += ST_ATTACK(m);
            }
            st_make(&p, m);
        }
        res = st_result(&p);
        wins += res.over && res.winner == side;
        losses += res.over && res.winner == (side ^ 1);
        bot_free(c);
        bot_free(r);
    }
    /* 15-0-5 when written: the draws were Flags walled in by Bombs after
     * the last Miner died. */
    assert_true(attacks > 0);
    assert_true(wins >= 12);
    assert_true(losses <= 1);
}

/* An empty board but for the two Flags (a1, j10), Red to move. */
static st_pos empty_board(void)
{
    st_pos p;
    assert_int_equal(st_parse(&p, "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 0 - -", NULL), 0);
    return p;
}

/* A piece; one outside its setup rows has moved (st_pos_ok). */
static void put(st_pos *p, int row, int file, int side, int kind, unsigned flags)
{
    if (!st_home_row(side, row))
        flags |= ST_MOVED;
    p->sq[ST_CELL(row, file)] = (uint8_t)(ST_PIECE(side, kind) | flags);
}

/* The move the bot plays from Red's view of p, checked equal for 20 seeds. */
static game_move same_move_for_every_seed(const st_pos *p)
{
    assert_true(st_pos_ok(p));
    st_pos view;
    st_view(p, ST_RED, &view);
    game_move first = GAME_MOVE_NONE;
    for (uint64_t seed = 0; seed < 20; seed++) {
        stcautious *b = stcautious_new(seed);
        game_move m = stcautious_move(b, &view);
        stcautious_free(b);
        check_move(&view, m);
        if (seed == 0)
            first = m;
        assert_int_equal(m, first);
    }
    return first;
}

static void test_takes_the_most_valuable_known_piece_with_its_least_valuable(void **state)
{
    (void)state;
    const unsigned shown = ST_REVEALED | ST_MOVED;
    st_pos p = empty_board();
    put(&p, 5, 4, ST_BLUE, ST_LIEUTENANT, shown);  /* e6 */
    put(&p, 4, 4, ST_RED, ST_CAPTAIN, 0);          /* e5 */
    put(&p, 5, 5, ST_RED, ST_COLONEL, 0);          /* f6: may take it too */
    put(&p, 3, 0, ST_BLUE, ST_SCOUT, shown);       /* a4: worth less */
    put(&p, 2, 0, ST_RED, ST_SERGEANT, 0);         /* a3 */
    put(&p, 6, 9, ST_BLUE, ST_MAJOR, ST_MOVED);    /* j7, unknown to Red */
    put(&p, 5, 9, ST_RED, ST_GENERAL, 0);          /* j6: must not attack it */
    game_move m = same_move_for_every_seed(&p);
    assert_int_equal(ST_FROM(m), ST_CELL(4, 4));
    assert_int_equal(ST_TO(m), ST_CELL(5, 4));

    /* The Spy takes a known Marshal. */
    p = empty_board();
    put(&p, 5, 1, ST_BLUE, ST_MARSHAL, shown);  /* b6 */
    put(&p, 4, 1, ST_RED, ST_SPY, 0);           /* b5 */
    put(&p, 2, 0, ST_RED, ST_SERGEANT, 0);
    put(&p, 3, 0, ST_BLUE, ST_SCOUT, shown);
    m = same_move_for_every_seed(&p);
    assert_int_equal(ST_FROM(m), ST_CELL(4, 1));
    assert_int_equal(ST_TO(m), ST_CELL(5, 1));

    /* A Miner takes a known Bomb; a Sergeant never attacks one. */
    p = empty_board();
    put(&p, 7, 4, ST_BLUE, ST_BOMB, ST_REVEALED);  /* e8 */
    put(&p, 6, 4, ST_RED, ST_SERGEANT, 0);         /* e7 */
    put(&p, 8, 0, ST_BLUE, ST_BOMB, ST_REVEALED);  /* a9 */
    put(&p, 7, 0, ST_RED, ST_MINER, 0);            /* a8 */
    m = same_move_for_every_seed(&p);
    assert_int_equal(ST_FROM(m), ST_CELL(7, 0));
    assert_int_equal(ST_TO(m), ST_CELL(8, 0));
}

static int next_to(int a, int b)
{
    int d = a > b ? a - b : b - a;
    return d == 1 || d == 12;
}

static void test_runs_from_a_known_stronger_piece(void **state)
{
    (void)state;
    const unsigned shown = ST_REVEALED | ST_MOVED;
    st_pos p = empty_board();
    put(&p, 4, 4, ST_BLUE, ST_GENERAL, shown);  /* e5 */
    put(&p, 3, 4, ST_RED, ST_MAJOR, shown);     /* e4: in danger */
    put(&p, 3, 0, ST_BLUE, ST_SCOUT, shown);    /* a4: a smaller gain */
    put(&p, 2, 0, ST_RED, ST_SERGEANT, 0);      /* a3 */
    st_pos view;
    st_view(&p, ST_RED, &view);
    for (uint64_t seed = 0; seed < 20; seed++) {
        stcautious *b = stcautious_new(seed);
        game_move m = stcautious_move(b, &view);
        stcautious_free(b);
        check_move(&view, m);
        assert_int_equal(ST_FROM(m), ST_CELL(3, 4));
        assert_false(ST_ATTACK(m));
        assert_false(next_to(ST_TO(m), ST_CELL(4, 4)));
    }

    /* A revealed Marshal leaves an unknown neighbour while the Spy lives. */
    p = empty_board();
    put(&p, 4, 4, ST_BLUE, ST_SERGEANT, ST_MOVED);  /* e5, unknown to Red */
    put(&p, 3, 4, ST_RED, ST_MARSHAL, shown);       /* e4 */
    put(&p, 0, 9, ST_RED, ST_SCOUT, 0);             /* j1: could advance */
    st_view(&p, ST_RED, &view);
    for (uint64_t seed = 0; seed < 20; seed++) {
        stcautious *b = stcautious_new(seed);
        game_move m = stcautious_move(b, &view);
        stcautious_free(b);
        check_move(&view, m);
        assert_int_equal(ST_FROM(m), ST_CELL(3, 4));
        assert_false(ST_ATTACK(m));
        assert_false(next_to(ST_TO(m), ST_CELL(4, 4)));
    }
}

/* With nothing known, Scouts probe unknown pieces that moved. */
static void test_probes_with_a_scout(void **state)
{
    (void)state;
    st_pos p = empty_board();
    put(&p, 8, 4, ST_BLUE, ST_CAPTAIN, ST_MOVED);  /* e9, unknown */
    put(&p, 2, 4, ST_RED, ST_SCOUT, 0);            /* e3: a long run onto it */
    put(&p, 1, 9, ST_RED, ST_GENERAL, 0);          /* j2 */
    put(&p, 0, 9, ST_BLUE, ST_MAJOR, ST_MOVED);    /* j1: unknown, by the General */
    game_move m = same_move_for_every_seed(&p);
    assert_int_equal(ST_FROM(m), ST_CELL(2, 4));
    assert_int_equal(ST_TO(m), ST_CELL(8, 4));
    assert_true(ST_ATTACK(m));
}

/* The only legal moves are a General's attacks on unknowns: it still
 * answers, rather than give no move. */
static void test_answers_when_only_forbidden_attacks_are_left(void **state)
{
    (void)state;
    st_pos p;
    assert_int_equal(st_parse(&p, "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 0 - -", NULL), 0);
    put(&p, 9, 0, ST_RED, ST_GENERAL, 0);  /* a10 */
    put(&p, 9, 1, ST_BLUE, ST_BOMB, 0);    /* b10 */
    put(&p, 8, 0, ST_BLUE, ST_BOMB, 0);    /* a9 */
    put(&p, 4, 4, ST_BLUE, ST_SCOUT, 0);   /* e5 */
    assert_true(st_pos_ok(&p));
    st_pos view;
    st_view(&p, ST_RED, &view);
    stcautious *b = stcautious_new(3);
    game_move m = stcautious_move(b, &view);
    stcautious_free(b);
    assert_true(is_legal(&view, m));
    assert_true(ST_ATTACK(m));
}

static void test_deterministic_for_a_seed(void **state)
{
    (void)state;
    stcautious *x = stcautious_new(42), *y = stcautious_new(42);
    for (uint64_t seed = 0; seed < 60; seed++) {
        st_pos p = random_position(seed + 500, (int)(seed * 5));
        if (st_over(&p))
            continue;
        st_pos view;
        st_view(&p, p.stm, &view);
        assert_int_equal(stcautious_move(x, &view), stcautious_move(y, &view));
    }
    stcautious_free(x);
    stcautious_free(y);
}

/* "cautious" is made by bot_new, listed for Stratego only, and what is
 * listed starts; an unknown spec's message names it. */
static void test_spec_plays_stratego_only(void **state)
{
    (void)state;
    const game_variant *const *all = game_variants();
    const char *specs[] = { "cautious", "cautious/movetime=5" };
    for (size_t i = 0; i < 2; i++)
        for (int k = 0; all[k]; k++) {
            char err[160];
            bot *b = bot_new(specs[i], 1, err, sizeof err);
            assert_non_null(b);
            int stratego = strcmp(all[k]->family, "stratego") == 0;
            assert_int_equal(bot_spec_can_play(specs[i], all[k]), stratego);
            assert_int_equal(bot_new_game(b, all[k], 0) == 0, stratego);
            bot_free(b);
        }
    char err[200] = "";
    assert_null(bot_new("careful", 1, err, sizeof err));
    assert_non_null(strstr(err, "cautious"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_legal_and_never_top_ranks_on_unknowns_in_random_positions),
        cmocka_unit_test(test_games_against_random),
        cmocka_unit_test(test_takes_the_most_valuable_known_piece_with_its_least_valuable),
        cmocka_unit_test(test_runs_from_a_known_stronger_piece),
        cmocka_unit_test(test_probes_with_a_scout),
        cmocka_unit_test(test_answers_when_only_forbidden_attacks_are_left),
        cmocka_unit_test(test_deterministic_for_a_seed),
        cmocka_unit_test(test_spec_plays_stratego_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
