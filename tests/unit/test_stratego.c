/* test_stratego.c -- the Stratego rulings S1-S7 (rules/stratego.md), by
 * name, with the examples of the source text, and perft checked against an
 * independent reference engine (ref_stratego.h); the views (S8) and the
 * notation are in test_stratego_views.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/base/rng.h"
#include "../../src/games/stratego/stratego.h"
#include "ref_stratego.h"
#include "stratego_helpers.h"

/* --- S1 board ------------------------------------------------------------ */

static void test_S1_lakes_are_not_squares(void **state)
{
    (void)state;
    int len;
    const char *lakes[] = { "c5", "d5", "c6", "d6", "g5", "h5", "g6", "h6" };
    for (int i = 0; i < 8; i++)
        assert_int_equal(st_parse_square(lakes[i], &len), -1);
    assert_true(st_parse_square("e5", &len) >= 0);
    assert_true(st_parse_square("j10", &len) >= 0 && len == 3);
    assert_int_equal(st_parse_square("k1", &len), -1);
    assert_int_equal(st_parse_square("a11", &len) >= 0 && len == 3, 0);
}

static void test_S1_nothing_enters_a_lake(void **state)
{
    (void)state;
    st_pos p = pos_of(BARE);
    put(&p, "c4", ST_RED, ST_MAJOR);
    put(&p, "b5", ST_RED, ST_SCOUT);
    assert_false(legal(&p, "c4c5"));
    assert_false(legal(&p, "b5c5"));
    assert_false(legal(&p, "b5d5"));
    assert_false(legal(&p, "b5e5"));  /* nor runs across one */
    assert_true(legal(&p, "c4b4"));
    assert_int_equal(moves_from(&p, "c4"), 3);  /* b4 d4 c3 */
}

/* "A Scout on C4 cannot travel to C7 because the lake at C5 and C6 blocks". */
static void test_S1_source_example_scout_c4_blocked_by_lake(void **state)
{
    (void)state;
    st_pos p = pos_of(BARE);
    put(&p, "c4", ST_RED, ST_SCOUT);
    assert_false(legal(&p, "c4c7"));
    assert_false(legal(&p, "c4c5"));
    assert_true(legal(&p, "c4c3"));
}

static void test_S1_setup_rows_and_red_first(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < 200; seed += 7) {
        st_pos p;
        st_start_seed(&p, seed);
        assert_true(st_pos_ok(&p));
        assert_int_equal(p.stm, ST_RED);
        for (int r = 0; r < 10; r++)
            for (int f = 0; f < 10; f++) {
                uint8_t v = p.sq[ST_CELL(r, f)];
                if (r < 4)
                    assert_true(ST_IS_PIECE(v) && ST_SIDE(v) == ST_RED);
                else if (r >= 6)
                    assert_true(ST_IS_PIECE(v) && ST_SIDE(v) == ST_BLUE);
                else
                    assert_false(ST_IS_PIECE(v));
            }
    }
}

/* --- S2 armies and S3 setups ------------------------------------------- */

static void test_S2_army_counts(void **state)
{
    (void)state;
    int total = 0;
    for (int k = ST_SPY; k <= ST_FLAG; k++)
        total += st_army[k];
    assert_int_equal(total, 40);
    assert_int_equal(st_army[ST_MARSHAL], 1);
    assert_int_equal(st_army[ST_GENERAL], 1);
    assert_int_equal(st_army[ST_COLONEL], 2);
    assert_int_equal(st_army[ST_MAJOR], 3);
    assert_int_equal(st_army[ST_CAPTAIN], 4);
    assert_int_equal(st_army[ST_LIEUTENANT], 4);
    assert_int_equal(st_army[ST_SERGEANT], 4);
    assert_int_equal(st_army[ST_MINER], 5);
    assert_int_equal(st_army[ST_SCOUT], 8);
    assert_int_equal(st_army[ST_SPY], 1);
    assert_int_equal(st_army[ST_BOMB], 6);
    assert_int_equal(st_army[ST_FLAG], 1);
}

static void test_S2_position_with_too_many_pieces_refused(void **state)
{
    (void)state;
    st_pos p;
    game_error err = { "" };
    assert_int_equal(st_parse(&p, "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/FMM7 r 0 - -", &err), -1);
    assert_non_null(strstr(err.msg, "Marshal"));
    assert_int_equal(st_parse(&p, "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/FF8 r 0 - -", &err), -1);
}

static void test_S3_library_setups_are_legal(void **state)
{
    (void)state;
    assert_true(st_library_size() >= 12);
    for (int i = 0; i < st_library_size(); i++) {
        st_setup s;
        game_error err = { "" };
        if (st_setup_parse(&s, st_library_text(i), &err) != 0)
            fail_msg("library setup %s: %s", st_library_name(i), err.msg);
        /* Sensible: the Flag on the back row, every square next to it a Bomb
         * or the board's edge. */
        int flag = -1;
        for (int j = 0; j < 40; j++)
            if (s.kind[j] == ST_FLAG)
                flag = j;
        assert_true(flag >= 30);
        int col = flag % 10;
        assert_int_equal(s.kind[flag - 10], ST_BOMB);
        if (col > 0)
            assert_int_equal(s.kind[flag - 1], ST_BOMB);
        if (col < 9)
            assert_int_equal(s.kind[flag + 1], ST_BOMB);
        char buf[64];
        st_setup_format(&s, buf, sizeof buf);
        assert_string_equal(buf, st_library_text(i));
    }
}

/* The setups bots play (game_setup_ops.varied): always a legal army (S2)
 * with the library's Flag guard, and so varied that 200 seeds give 200
 * different setups, none of them a library setup as it stands. */
static void test_S3_varied_setups_are_legal_guarded_and_unlike(void **state)
{
    (void)state;
    static char seen[200][48];
    for (uint64_t seed = 0; seed < 200; seed++) {
        st_setup s;
        st_setup_varied(&s, seed);
        game_error err = { "" };
        if (st_setup_check(&s, &err) != 0)
            fail_msg("varied setup %llu: %s", (unsigned long long)seed, err.msg);
        int flag = -1;
        for (int j = 0; j < 40; j++)
            if (s.kind[j] == ST_FLAG)
                flag = j;
        assert_true(flag >= 30);
        assert_int_equal(s.kind[flag - 10], ST_BOMB);
        if (flag % 10 > 0)
            assert_int_equal(s.kind[flag - 1], ST_BOMB);
        if (flag % 10 < 9)
            assert_int_equal(s.kind[flag + 1], ST_BOMB);
        st_setup_format(&s, seen[seed], sizeof seen[seed]);
        for (int i = 0; i < st_library_size(); i++)
            assert_string_not_equal(seen[seed], st_library_text(i));
        for (uint64_t other = 0; other < seed; other++)
            assert_string_not_equal(seen[seed], seen[other]);
    }
    const game_variant *v = game_variant_find("stratego");
    char buf[64];
    assert_non_null(v->ops->setup->varied);
    assert_true(v->ops->setup->varied(7, buf, sizeof buf) > 0);
    assert_int_equal(v->ops->setup->check(buf, NULL), 0);
}

static void test_S3_random_setups_are_legal_and_vary(void **state)
{
    (void)state;
    st_setup a, b;
    int differ = 0;
    for (uint64_t seed = 0; seed < 100; seed++) {
        st_setup_random(&a, seed);
        assert_int_equal(st_setup_check(&a, NULL), 0);
        st_setup_random(&b, seed + 1);
        differ += memcmp(&a, &b, sizeof a) != 0;
        st_setup c;
        st_setup_random(&c, seed);
        assert_memory_equal(&a, &c, sizeof a);
    }
    assert_int_equal(differ, 100);
}

static void test_S3_bad_setups_refused(void **state)
{
    (void)state;
    st_setup s;
    game_error err = { "" };
    const char *ok = st_library_text(0);
    char bad[64];
    assert_int_equal(st_setup_parse(&s, ok, &err), 0);
    strcpy(bad, ok);
    bad[0] = 'M';  /* a Scout becomes a second Marshal */
    assert_int_equal(st_setup_parse(&s, bad, &err), -1);
    assert_non_null(strstr(err.msg, "'O'"));  /* seven Scouts left */
    assert_int_equal(st_setup_parse(&s, "OAOLMOGOAO/EJLOCSCJLE/BNAEOLJANB", &err), -1);
    assert_int_equal(st_setup_parse(&s, "OAOLMOGOA/OEJLOCSCJLE/BNAEOLJANB/FBNEONBNBB", &err), -1);
    assert_non_null(strstr(err.msg, "place 10"));
    assert_int_equal(st_setup_parse(&s, "OAOLMOGOAOE/JLOCSCJLE/BNAEOLJANB/FBNEONBNBB", &err), -1);
    assert_non_null(strstr(err.msg, "more than 10"));
    strcpy(bad, ok);
    bad[3] = 'x';
    assert_int_equal(st_setup_parse(&s, bad, &err), -1);
    strcpy(bad, ok);
    strcat(bad, "/");
    assert_int_equal(st_setup_parse(&s, bad, &err), -1);
}

static void test_S3_start_from_two_setups(void **state)
{
    (void)state;
    st_setup red, blue, back;
    st_library_setup(0, &red);
    st_library_setup(3, &blue);
    st_pos p;
    st_start_from(&p, &red, &blue);
    assert_true(st_pos_ok(&p));
    /* Red's front row is row 4 from a to j; Blue's is row 7 from j to a. */
    assert_int_equal(kind_at(&p, "a4"), red.kind[0]);
    assert_int_equal(kind_at(&p, "j1"), red.kind[39]);
    assert_int_equal(kind_at(&p, "j7"), blue.kind[0]);
    assert_int_equal(kind_at(&p, "a10"), blue.kind[39]);
    assert_int_equal(st_setup_of(&p, ST_RED, &back, NULL), 0);
    assert_memory_equal(&back, &red, sizeof red);
    assert_int_equal(st_setup_of(&p, ST_BLUE, &back, NULL), 0);
    assert_memory_equal(&back, &blue, sizeof blue);
    /* start(seed): Red seed % 12, Blue seed / 12. */
    st_pos q;
    st_start_seed(&q, 3 * 12 + 0);
    assert_memory_equal(&p, &q, sizeof p);
}

static void test_S3_opponent_never_learns_the_setup(void **state)
{
    (void)state;
    st_pos p, v;
    st_start_seed(&p, 5);
    for (int side = 0; side < 2; side++) {
        st_view(&p, side, &v);
        for (int c = 0; c < ST_CELLS; c++) {
            uint8_t x = v.sq[c];
            if (ST_IS_PIECE(x) && ST_SIDE(x) != side)
                assert_int_equal(ST_KIND(x), ST_UNKNOWN);
            else
                assert_int_equal(x, p.sq[c]);
        }
    }
}

/* --- S4 moves ------------------------------------------------------------ */

/* "A movable piece on E4 can step to E5 when it is empty." */
static void test_S4_one_square_orthogonally(void **state)
{
    (void)state;
    st_pos p = pos_of(BARE);
    put(&p, "e4", ST_RED, ST_CAPTAIN);
    assert_true(legal(&p, "e4e5"));
    assert_true(legal(&p, "e4e3"));
    assert_true(legal(&p, "e4d4"));
    assert_true(legal(&p, "e4f4"));
    assert_false(legal(&p, "e4e6"));  /* two squares */
    assert_false(legal(&p, "e4f5"));  /* diagonal */
    assert_int_equal(moves_from(&p, "e4"), 4);
    play(&p, "e4e5");
    assert_int_equal(kind_at(&p, "e5"), ST_CAPTAIN);
    assert_int_equal(kind_at(&p, "e4"), 0);
}

static void test_S4_never_onto_a_friend(void **state)
{
    (void)state;
    st_pos p = pos_of(BARE);
    put(&p, "e4", ST_RED, ST_CAPTAIN);
    put(&p, "e5", ST_RED, ST_MAJOR);
    put(&p, "d4", ST_BLUE, ST_MINER);
    assert_false(legal(&p, "e4e5"));
    assert_true(legal(&p, "e4d4"));  /* an attack */
    game_move m;
    assert_int_equal(st_parse_move(&p, "e4d4", &m, NULL), 0);
    assert_int_equal(ST_ATTACK(m), 1);
    assert_int_equal(st_parse_move(&p, "e4f4", &m, NULL), 0);
    assert_int_equal(ST_ATTACK(m), 0);
}

static void test_S4_scout_runs_and_strikes_in_one_turn(void **state)
{
    (void)state;
    st_pos p = pos_of(BARE);
    put(&p, "b2", ST_RED, ST_SCOUT);
    put(&p, "b8", ST_BLUE, ST_SERGEANT);
    put(&p, "b9", ST_BLUE, ST_SPY);
    /* Up the b-file: b3..b7 empty, b8 the first enemy. */
    for (int r = 3; r <= 7; r++) {
        char mv[8] = "b2b0";
        mv[3] = (char)('0' + r);
        assert_true(legal(&p, mv));
    }
    assert_true(legal(&p, "b2b8"));
    assert_false(legal(&p, "b2b9"));   /* not past the first enemy */
    assert_true(legal(&p, "b2j2"));    /* along row 2 to the edge */
    assert_false(legal(&p, "b2a1"));
    /* b2: up 6 (b3-b8), down 1 (b1), right 8 (c2-j2), left 1 (a2) = 16. */
    assert_int_equal(moves_from(&p, "b2"), 16);
    play(&p, "b2b8");  /* Scout (2) strikes Sergeant (4) and loses */
    assert_int_equal(kind_at(&p, "b8"), ST_SERGEANT);
    assert_int_equal(kind_at(&p, "b2"), 0);
}

static void test_S4_scout_long_move_then_wins(void **state)
{
    (void)state;
    st_pos p = pos_of(BARE);
    put(&p, "a1", ST_RED, ST_FLAG);
    put(&p, "e2", ST_RED, ST_SCOUT);
    put(&p, "e9", ST_BLUE, ST_SPY);
    play(&p, "e2e9");
    assert_int_equal(kind_at(&p, "e9"), ST_SCOUT);
    assert_int_equal(side_at(&p, "e9"), ST_RED);
    uint8_t v = p.sq[cell_of("e9")];
    assert_true(v & ST_REVEALED);
    assert_true(v & ST_SCOUTED);
}

static void test_S4_scout_blocked_by_pieces(void **state)
{
    (void)state;
    st_pos p = pos_of(BARE);
    put(&p, "a2", ST_RED, ST_SCOUT);
    put(&p, "a4", ST_RED, ST_MINER);
    put(&p, "d2", ST_BLUE, ST_MINER);
    assert_false(legal(&p, "a2a5"));   /* over a friend */
    assert_true(legal(&p, "a2a3"));
    assert_false(legal(&p, "a2e2"));   /* past an enemy */
    assert_true(legal(&p, "a2d2"));
    /* Only Scouts run. */
    assert_false(legal(&p, "a4a6"));
}

static void test_S4_bombs_and_flag_never_move(void **state)
{
    (void)state;
    st_pos p = pos_of(BARE);
    put(&p, "e3", ST_RED, ST_BOMB);
    put(&p, "h2", ST_RED, ST_MINER);
    assert_int_equal(moves_from(&p, "e3"), 0);
    assert_int_equal(moves_from(&p, "a1"), 0);
    game_error err = { "" };
    game_move m;
    assert_int_equal(st_parse_move(&p, "e3e4", &m, &err), -1);
    assert_non_null(strstr(err.msg, "never moves"));
    assert_int_equal(st_parse_move(&p, "a1a2", &m, &err), -1);
    /* A Bomb or Flag marked as moved is refused. */
    st_pos q;
    assert_int_equal(st_parse(&q, "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/4B+5/F9 r 0 - -", &err), -1);
}

/* --- S5 combat ------------------------------------------------------------ */

/* Sets up attacker a on e6 (Red) against defender d on e7 (Blue, never
 * moved), plays e6e7 and returns the position. */
static st_pos fight(int a, int d)
{
    st_pos p = pos_of(BARE);
    put(&p, "e6", ST_RED, a);
    put(&p, "e7", ST_BLUE, d);
    put(&p, "j9", ST_BLUE, ST_SERGEANT);  /* so Blue keeps a move */
    put(&p, "a2", ST_RED, ST_SERGEANT);
    play(&p, "e6e7");
    return p;
}

static void test_S5_higher_rank_wins_attacking(void **state)
{
    (void)state;
    st_pos p = fight(ST_GENERAL, ST_COLONEL);
    assert_int_equal(kind_at(&p, "e7"), ST_GENERAL);
    assert_int_equal(side_at(&p, "e7"), ST_RED);
    assert_int_equal(kind_at(&p, "e6"), 0);
    assert_true(p.sq[cell_of("e7")] & ST_REVEALED);
}

static void test_S5_higher_rank_wins_defending(void **state)
{
    (void)state;
    st_pos p = fight(ST_LIEUTENANT, ST_CAPTAIN);
    assert_int_equal(kind_at(&p, "e7"), ST_CAPTAIN);
    assert_int_equal(side_at(&p, "e7"), ST_BLUE);
    assert_int_equal(kind_at(&p, "e6"), 0);  /* the attacker is removed */
    assert_true(p.sq[cell_of("e7")] & ST_REVEALED);
    assert_false(p.sq[cell_of("e7")] & ST_MOVED);  /* the defender stayed */
}

static void test_S5_equal_ranks_both_removed(void **state)
{
    (void)state;
    for (int k = ST_SPY; k <= ST_MARSHAL; k++) {
        st_pos p = fight(k, k);
        assert_int_equal(kind_at(&p, "e7"), 0);
        assert_int_equal(kind_at(&p, "e6"), 0);
    }
}

static void test_S5_miner_defuses_bomb(void **state)
{
    (void)state;
    st_pos p = pos_of(BARE);
    put(&p, "e7", ST_BLUE, ST_BOMB);
    put(&p, "e6", ST_RED, ST_MINER);
    put(&p, "a2", ST_RED, ST_SERGEANT);
    put(&p, "j9", ST_BLUE, ST_SERGEANT);
    play(&p, "e6e7");
    assert_int_equal(kind_at(&p, "e7"), ST_MINER);
    assert_int_equal(side_at(&p, "e7"), ST_RED);
}

static void test_S5_other_attacker_loses_to_bomb(void **state)
{
    (void)state;
    const int attackers[] = { ST_SPY, ST_SCOUT, ST_SERGEANT, ST_LIEUTENANT, ST_CAPTAIN,
                              ST_MAJOR, ST_COLONEL, ST_GENERAL, ST_MARSHAL };
    for (int i = 0; i < 9; i++) {
        st_pos p = pos_of(BARE);
        put(&p, "e7", ST_BLUE, ST_BOMB);
        put(&p, "e6", ST_RED, attackers[i]);
        put(&p, "a2", ST_RED, ST_SERGEANT);
        put(&p, "j9", ST_BLUE, ST_SERGEANT);
        play(&p, "e6e7");
        assert_int_equal(kind_at(&p, "e7"), ST_BOMB);   /* the Bomb stays */
        assert_int_equal(side_at(&p, "e7"), ST_BLUE);
        assert_int_equal(kind_at(&p, "e6"), 0);
        assert_true(p.sq[cell_of("e7")] & ST_REVEALED);
    }
}

static void test_S5_spy_attacks_marshal(void **state)
{
    (void)state;
    st_pos p = fight(ST_SPY, ST_MARSHAL);
    assert_int_equal(kind_at(&p, "e7"), ST_SPY);
    assert_int_equal(side_at(&p, "e7"), ST_RED);
}

static void test_S5_marshal_attacks_spy(void **state)
{
    (void)state;
    st_pos p = fight(ST_MARSHAL, ST_SPY);
    assert_int_equal(kind_at(&p, "e7"), ST_MARSHAL);
    assert_int_equal(side_at(&p, "e7"), ST_RED);
}

static void test_S5_spy_loses_attacking_others(void **state)
{
    (void)state;
    st_pos p = fight(ST_SPY, ST_GENERAL);
    assert_int_equal(kind_at(&p, "e7"), ST_GENERAL);
    assert_int_equal(side_at(&p, "e7"), ST_BLUE);
    p = fight(ST_SPY, ST_SCOUT);
    assert_int_equal(kind_at(&p, "e7"), ST_SCOUT);
}

static void test_S5_combat_table(void **state)
{
    (void)state;
    for (int a = ST_SPY; a <= ST_MARSHAL; a++)
        for (int d = ST_SPY; d <= ST_FLAG; d++) {
            int want;
            if (d == ST_FLAG)
                want = ST_ATTACKER_WINS;
            else if (d == ST_BOMB)
                want = a == ST_MINER ? ST_ATTACKER_WINS : ST_DEFENDER_WINS;
            else if (a == ST_SPY && d == ST_MARSHAL)
                want = ST_ATTACKER_WINS;
            else if (a == d)
                want = ST_BOTH_DIE;
            else
                want = a > d ? ST_ATTACKER_WINS : ST_DEFENDER_WINS;
            assert_int_equal(st_combat(a, d), want);
            assert_int_equal(st_combat(a, d) == ST_ATTACKER_WINS, ref_fight(a, d) == 1);
        }
}

/* --- S6 two-square rule --------------------------------------------------- */

static st_pos two_square_board(void)
{
    st_pos p = pos_of(BARE);
    put(&p, "a4", ST_RED, ST_CAPTAIN);
    put(&p, "e2", ST_RED, ST_SERGEANT);
    put(&p, "j7", ST_BLUE, ST_CAPTAIN);
    return p;
}

/* The source's example: A4-A5, A5-A4, A4-A5, then A5-A4 is blocked. */
static void test_S6_fourth_move_back_is_illegal(void **state)
{
    (void)state;
    st_pos p = two_square_board();
    play(&p, "a4a5");
    play(&p, "j7j6");
    play(&p, "a5a4");
    play(&p, "j6j7");
    play(&p, "a4a5");
    play(&p, "j7j6");
    assert_false(legal(&p, "a5a4"));
    game_error err = { "" };
    game_move m;
    assert_int_equal(st_parse_move(&p, "a5a4", &m, &err), -1);
    assert_non_null(strstr(err.msg, "two-square"));
    /* Other moves stay legal: the same piece elsewhere, other pieces. */
    assert_true(legal(&p, "a5a6"));
    assert_true(legal(&p, "a5b5"));
    assert_true(legal(&p, "e2e3"));
}

static void test_S6_three_moves_are_allowed(void **state)
{
    (void)state;
    st_pos p = two_square_board();
    play(&p, "a4a5");
    play(&p, "j7j6");
    play(&p, "a5a4");
    play(&p, "j6j7");
    assert_true(legal(&p, "a4a5"));
    /* Blue went j7-j6, j6-j7 only twice: it may go back again. */
    play(&p, "a4a5");
    assert_true(legal(&p, "j7j6"));
}

static void test_S6_other_piece_breaks_the_sequence(void **state)
{
    (void)state;
    st_pos p = two_square_board();
    put(&p, "i9", ST_BLUE, ST_MINER);
    /* Blue alternates two pieces, so its own runs never reach three. */
    play(&p, "a4a5");
    play(&p, "j7j6");
    play(&p, "a5a4");
    play(&p, "i9i8");
    play(&p, "e2e3");  /* another Red piece moves */
    play(&p, "j6j7");
    play(&p, "a4a5");
    play(&p, "i8i9");
    play(&p, "a5a4");
    play(&p, "j7j6");
    assert_true(legal(&p, "a4a5"));  /* only two in a row since e2e3 */
    play(&p, "a4a5");
    play(&p, "i9i8");
    assert_false(legal(&p, "a5a4"));  /* now three in a row */
}

static void test_S6_opponent_moves_do_not_break_it(void **state)
{
    (void)state;
    st_pos p = two_square_board();
    put(&p, "i9", ST_BLUE, ST_MINER);
    play(&p, "a4a5");
    play(&p, "j7j6");
    play(&p, "a5a4");
    play(&p, "i9i8");  /* Blue moves a different piece: Red's run goes on */
    play(&p, "a4a5");
    play(&p, "i8i9");
    assert_false(legal(&p, "a5a4"));
}

static void test_S6_scout_long_moves_count_too(void **state)
{
    (void)state;
    st_pos p = two_square_board();
    put(&p, "b2", ST_RED, ST_SCOUT);
    play(&p, "b2b5");
    play(&p, "j7j6");
    play(&p, "b5b2");
    play(&p, "j6j7");
    play(&p, "b2b5");
    play(&p, "j7j6");
    assert_false(legal(&p, "b5b2"));
    assert_true(legal(&p, "b5b3"));  /* a different pair of squares */
}

static void test_S6_state_in_position_string(void **state)
{
    (void)state;
    st_pos p = two_square_board();
    play(&p, "a4a5");
    play(&p, "j7j6");
    play(&p, "a5a4");
    play(&p, "j6j7");
    play(&p, "a4a5");
    play(&p, "j7j6");
    char buf[512];
    st_format(&p, buf, sizeof buf);
    assert_non_null(strstr(buf, " a4a5:3 j7j6:3"));
    st_pos q = pos_of(buf);
    assert_false(legal(&q, "a5a4"));
}

/* --- S7 ends ------------------------------------------------------------- */

static void test_S7_capturing_the_flag_wins(void **state)
{
    (void)state;
    st_pos p = pos_of(BARE);
    put(&p, "j9", ST_RED, ST_SCOUT);
    put(&p, "a9", ST_BLUE, ST_MARSHAL);
    assert_result(&p, 0, -1, "");
    play(&p, "j9j10");
    assert_int_equal(kind_at(&p, "j10"), ST_SCOUT);
    assert_result(&p, 1, ST_RED, "flag");
    game_move list[ST_MAX_MOVES];
    assert_int_equal(st_legal(&p, list), 0);
    assert_false(legal(&p, "a9a8"));
}

static void test_S7_any_movable_piece_takes_the_flag(void **state)
{
    (void)state;
    st_pos p = pos_of(BARE);
    put(&p, "j9", ST_RED, ST_SPY);
    put(&p, "a9", ST_BLUE, ST_MARSHAL);
    play(&p, "j9j10");
    assert_result(&p, 1, ST_RED, "flag");
}

/* "A player whose only remaining pieces are a Flag and Bombs has no way to
 * take a turn." */
static void test_S7_no_legal_move_loses(void **state)
{
    (void)state;
    st_pos p = pos_of(BARE);
    put(&p, "b1", ST_RED, ST_BOMB);
    put(&p, "a2", ST_RED, ST_BOMB);
    put(&p, "e7", ST_BLUE, ST_SERGEANT);
    assert_result(&p, 1, ST_BLUE, "no-moves");
    /* The same board with Blue to move: Blue can move, the game goes on. */
    p.stm = ST_BLUE;
    assert_result(&p, 0, -1, "");
}

static void test_S7_blocked_pieces_count_as_no_move(void **state)
{
    (void)state;
    /* Red's Sergeant is walled in by its own Bombs: no legal move. */
    st_pos p = pos_of("9f/10/10/10/2~~2~~2/2~~2~~2/10/B9/SB8/FB8 r 0 - -");
    assert_result(&p, 1, ST_BLUE, "no-moves");
}

static void test_S7_move_limit_draws(void **state)
{
    (void)state;
    st_pos p;
    st_start_seed(&p, 0);
    assert_int_equal(p.move_limit, 1000);  /* the default */
    game_error err = { "" };
    const game_variant *v = &st_variant;
    assert_int_equal(v->ops->set_option(&p, "MoveLimit", 2, &err), 0);
    play(&p, "a4a5");
    assert_result(&p, 0, -1, "");
    play(&p, "a7a6");
    assert_result(&p, 1, -1, "move-limit");
    assert_false(legal(&p, "b4b5"));
    assert_int_equal(v->ops->set_option(&p, "MoveLimit", -1, &err), -1);
    assert_int_equal(v->ops->set_option(&p, "Nonsense", 3, &err), -1);
    assert_int_equal(v->ops->set_option(&p, "MoveLimit", 0, &err), 0);  /* none */
    assert_result(&p, 0, -1, "");
    /* The option is listed with its default. */
    assert_string_equal(v->options[0].name, "MoveLimit");
    assert_int_equal(v->options[0].def, 1000);
}

static void test_S7_move_limit_default_1000_plies(void **state)
{
    (void)state;
    st_pos p = pos_of("9f/10/10/10/2~~2~~2/2~~2~~2/10/10/E+9/F9 r 999 - -");
    put(&p, "j9", ST_BLUE, ST_SERGEANT);
    assert_result(&p, 0, -1, "");
    play(&p, "a2a3");
    assert_int_equal(p.ply, 1000);
    assert_result(&p, 1, -1, "move-limit");
}

static void test_S7_clock_running_out_loses(void **state)
{
    (void)state;
    st_pos p, start;
    st_start_seed(&start, 0);
    p = start;
    game_result r = st_variant.ops->timeout(&start, &p, ST_RED);
    assert_int_equal(r.over, 1);
    assert_int_equal(r.winner, ST_BLUE);
    assert_string_equal(r.reason, "time");
    r = st_variant.ops->timeout(&start, &p, ST_BLUE);
    assert_int_equal(r.winner, ST_RED);
    /* A game the board already decided stays decided. */
    st_pos q = pos_of(BARE);
    put(&q, "j9", ST_RED, ST_SCOUT);
    put(&q, "a9", ST_BLUE, ST_MARSHAL);
    play(&q, "j9j10");
    r = st_timeout(&q, ST_RED);
    assert_int_equal(r.winner, ST_RED);
    assert_string_equal(r.reason, "flag");
}

/* --- perft ----------------------------------------------------------------- */

static uint64_t iface_perft(st_pos *p, int depth)
{
    return game_perft(&st_variant, p, depth);
}

static void test_perft_start_regression(void **state)
{
    (void)state;
    /* Library pair 0 (corner-fortress against itself), docs/stratego.md. */
    static const uint64_t want[] = { 1, 12, 135, 1889, 25908, 389053 };
    st_pos p;
    st_start_seed(&p, 0);
    for (int d = 1; d <= 5; d++) {
        assert_int_equal(st_perft(&p, d), want[d]);
        assert_int_equal(iface_perft(&p, d), want[d]);
    }
    ref_pos q;
    ref_from_st(&p, &q);
    for (int d = 1; d <= 4; d++)
        assert_int_equal(ref_perft(&q, d), want[d]);
    /* Start 1000: two random setups. */
    static const uint64_t want2[] = { 1, 7, 41, 437, 3843, 44619 };
    st_start_seed(&p, 1000);
    ref_from_st(&p, &q);
    for (int d = 1; d <= 5; d++) {
        assert_int_equal(st_perft(&p, d), want2[d]);
        assert_int_equal(iface_perft(&p, d), want2[d]);
        assert_int_equal(ref_perft(&q, d), want2[d]);
    }
}

/* Positions from random play, where pieces have met: the engine's two
 * counters and the reference agree. */
static void test_perft_matches_reference_midgame(void **state)
{
    (void)state;
    rng g;
    rng_seed(&g, 42);
    int checked = 0;
    for (int game = 0; game < 24; game++) {
        st_pos p;
        st_start_seed(&p, rng_below(&g, 100000));
        p.move_limit = (int32_t)(game % 3 == 0 ? 0 : 1000);
        int plies = (int)rng_below(&g, 250);
        for (int i = 0; i < plies; i++) {
            game_move list[ST_MAX_MOVES];
            int n = st_legal(&p, list);
            if (n == 0)
                break;
            st_make(&p, list[rng_below(&g, (uint64_t)n)]);
        }
        ref_pos q;
        ref_from_st(&p, &q);
        for (int d = 1; d <= 3; d++) {
            uint64_t a = st_perft(&p, d), b = iface_perft(&p, d), c = ref_perft(&q, d);
            assert_int_equal(a, b);
            assert_int_equal(a, c);
        }
        checked++;
    }
    assert_int_equal(checked, 24);
}

/* The reference also agrees in positions built to exercise S6 and ends. */
static void test_perft_matches_reference_S6_S7(void **state)
{
    (void)state;
    st_pos p = two_square_board();
    play(&p, "a4a5");
    play(&p, "j7j6");
    play(&p, "a5a4");
    play(&p, "j6j7");
    play(&p, "a4a5");
    ref_pos q;
    ref_from_st(&p, &q);
    for (int d = 1; d <= 6; d++)
        assert_int_equal(st_perft(&p, d), ref_perft(&q, d));
    p.move_limit = p.ply + 3;
    ref_from_st(&p, &q);
    for (int d = 1; d <= 5; d++)
        assert_int_equal(st_perft(&p, d), ref_perft(&q, d));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_S1_lakes_are_not_squares),
        cmocka_unit_test(test_S1_nothing_enters_a_lake),
        cmocka_unit_test(test_S1_source_example_scout_c4_blocked_by_lake),
        cmocka_unit_test(test_S1_setup_rows_and_red_first),
        cmocka_unit_test(test_S2_army_counts),
        cmocka_unit_test(test_S2_position_with_too_many_pieces_refused),
        cmocka_unit_test(test_S3_library_setups_are_legal),
        cmocka_unit_test(test_S3_varied_setups_are_legal_guarded_and_unlike),
        cmocka_unit_test(test_S3_random_setups_are_legal_and_vary),
        cmocka_unit_test(test_S3_bad_setups_refused),
        cmocka_unit_test(test_S3_start_from_two_setups),
        cmocka_unit_test(test_S3_opponent_never_learns_the_setup),
        cmocka_unit_test(test_S4_one_square_orthogonally),
        cmocka_unit_test(test_S4_never_onto_a_friend),
        cmocka_unit_test(test_S4_scout_runs_and_strikes_in_one_turn),
        cmocka_unit_test(test_S4_scout_long_move_then_wins),
        cmocka_unit_test(test_S4_scout_blocked_by_pieces),
        cmocka_unit_test(test_S4_bombs_and_flag_never_move),
        cmocka_unit_test(test_S5_higher_rank_wins_attacking),
        cmocka_unit_test(test_S5_higher_rank_wins_defending),
        cmocka_unit_test(test_S5_equal_ranks_both_removed),
        cmocka_unit_test(test_S5_miner_defuses_bomb),
        cmocka_unit_test(test_S5_other_attacker_loses_to_bomb),
        cmocka_unit_test(test_S5_spy_attacks_marshal),
        cmocka_unit_test(test_S5_marshal_attacks_spy),
        cmocka_unit_test(test_S5_spy_loses_attacking_others),
        cmocka_unit_test(test_S5_combat_table),
        cmocka_unit_test(test_S6_fourth_move_back_is_illegal),
        cmocka_unit_test(test_S6_three_moves_are_allowed),
        cmocka_unit_test(test_S6_other_piece_breaks_the_sequence),
        cmocka_unit_test(test_S6_opponent_moves_do_not_break_it),
        cmocka_unit_test(test_S6_scout_long_moves_count_too),
        cmocka_unit_test(test_S6_state_in_position_string),
        cmocka_unit_test(test_S7_capturing_the_flag_wins),
        cmocka_unit_test(test_S7_any_movable_piece_takes_the_flag),
        cmocka_unit_test(test_S7_no_legal_move_loses),
        cmocka_unit_test(test_S7_blocked_pieces_count_as_no_move),
        cmocka_unit_test(test_S7_move_limit_draws),
        cmocka_unit_test(test_S7_move_limit_default_1000_plies),
        cmocka_unit_test(test_S7_clock_running_out_loses),
        cmocka_unit_test(test_perft_start_regression),
        cmocka_unit_test(test_perft_matches_reference_midgame),
        cmocka_unit_test(test_perft_matches_reference_S6_S7),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
