/* test_stratego.c -- every Stratego ruling (S1-S8 of rules/stratego.md), by
 * name, with the examples of the source text; the notation; and perft
 * checked against an independent reference engine (ref_stratego.h). */
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

/* Red Flag on a1, Blue Flag on j10, nothing else. */
#define BARE "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 0 - -"

static st_pos pos_of(const char *text)
{
    st_pos p;
    game_error err = { "" };
    memset(&p, 0, sizeof p);
    if (st_parse(&p, text, &err) != 0)
        fail_msg("cannot parse %s: %s", text, err.msg);
    assert_true(st_pos_ok(&p));
    return p;
}

static int cell_of(const char *name)
{
    int len;
    int c = st_parse_square(name, &len);
    if (c < 0)
        fail_msg("no square %s", name);
    return c;
}

/* Puts a piece; one outside its setup rows is marked as moved. */
static void put(st_pos *p, const char *sq, int side, int kind)
{
    int c = cell_of(sq);
    uint8_t v = ST_PIECE(side, kind);
    if (!st_home_row(side, ST_ROW(c)))
        v |= ST_MOVED;
    p->sq[c] = v;
    assert_true(st_pos_ok(p));
}

static int kind_at(const st_pos *p, const char *sq)
{
    uint8_t v = p->sq[cell_of(sq)];
    return ST_IS_PIECE(v) ? ST_KIND(v) : 0;
}

static int side_at(const st_pos *p, const char *sq)
{
    uint8_t v = p->sq[cell_of(sq)];
    return ST_IS_PIECE(v) ? ST_SIDE(v) : -1;
}

static void play(st_pos *p, const char *text)
{
    game_move m;
    game_error err = { "" };
    if (st_parse_move(p, text, &m, &err) != 0)
        fail_msg("move %s refused: %s", text, err.msg);
    st_make(p, m);
    assert_true(st_pos_ok(p));
}

static int legal(const st_pos *p, const char *text)
{
    game_move m;
    return st_parse_move(p, text, &m, NULL) == 0;
}

static void assert_result(const st_pos *p, int over, int winner, const char *reason)
{
    game_result r = st_result(p);
    assert_int_equal(r.over, over);
    if (over) {
        assert_int_equal(r.winner, winner);
        assert_string_equal(r.reason, reason);
    }
}

/* Number of moves of the piece on sq. */
static int moves_from(const st_pos *p, const char *sq)
{
    game_move list[ST_MAX_MOVES];
    int n = st_legal(p, list), k = 0, c = cell_of(sq);
    for (int i = 0; i < n; i++)
        k += ST_FROM(list[i]) == c;
    return k;
}

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

/* --- S8 views ------------------------------------------------------------ */

static void check_view(const st_pos *p, int side)
{
    st_pos v;
    st_view(p, side, &v);
    assert_true(st_pos_ok(&v));
    for (int c = 0; c < ST_CELLS; c++) {
        uint8_t x = p->sq[c], y = v.sq[c];
        if (!ST_IS_PIECE(x)) {
            assert_int_equal(y, x);
        } else if (ST_SIDE(x) == side || (x & ST_REVEALED)) {
            assert_int_equal(y, x);  /* own pieces, and revealed enemies */
        } else {
            /* An unrevealed enemy: its square and public marks, no rank. */
            assert_int_equal(ST_KIND(y), ST_UNKNOWN);
            assert_int_equal(ST_SIDE(y), ST_SIDE(x));
            assert_int_equal(y & (ST_MOVED | ST_SCOUTED), x & (ST_MOVED | ST_SCOUTED));
        }
    }
    /* The viewer's moves are the same on the view. */
    if (p->stm == side) {
        game_move a[ST_MAX_MOVES], b[ST_MAX_MOVES];
        int na = st_gen(p, a), nb = st_gen(&v, b);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, sizeof(game_move) * (size_t)na);
    }
    /* Its text never holds an unrevealed enemy rank. */
    char buf[512];
    st_format(&v, buf, sizeof buf);
    st_pos back = pos_of(buf);
    assert_memory_equal(back.sq, v.sq, sizeof v.sq);
}

static void test_S8_view_never_shows_unrevealed_enemy_rank(void **state)
{
    (void)state;
    rng g;
    rng_seed(&g, 8);
    int revealed_seen = 0;
    for (int game = 0; game < 30; game++) {
        st_pos p;
        st_start_seed(&p, rng_below(&g, 1000));
        for (int ply = 0; ply < 300; ply++) {
            check_view(&p, ST_RED);
            check_view(&p, ST_BLUE);
            game_move list[ST_MAX_MOVES];
            int n = st_legal(&p, list);
            if (n == 0)
                break;
            st_make(&p, list[rng_below(&g, (uint64_t)n)]);
            for (int c = 0; c < ST_CELLS; c++)
                revealed_seen += ST_IS_PIECE(p.sq[c]) && (p.sq[c] & ST_REVEALED);
        }
    }
    assert_true(revealed_seen > 0);
}

/* S5 shows both ranks of a combat to both players, so the pieces each
 * side lost, by kind, are public: make() counts them, every view keeps
 * them, and a full position read back from its text has the same (its
 * army less what stands). A view's text carries them in its lost field
 * (S8: what the player saw vanish), so a view read back knows both sides'
 * losses; without the field the hidden side's are unknown. */
static void test_S5_losses_by_kind_are_public(void **state)
{
    (void)state;
    rng g;
    rng_seed(&g, 55);
    int combats = 0;
    for (int game = 0; game < 20; game++) {
        st_pos p;
        st_start_seed(&p, rng_below(&g, 1000));
        assert_int_equal(p.lost_known, 3);
        for (int ply = 0; ply < 400; ply++) {
            int count[2][ST_NKINDS] = { { 0 } };
            for (int c = 0; c < ST_CELLS; c++)
                if (ST_IS_PIECE(p.sq[c]))
                    count[ST_SIDE(p.sq[c])][ST_KIND(p.sq[c])]++;
            for (int s = 0; s < 2; s++)
                for (int k = ST_SPY; k <= ST_FLAG; k++)
                    assert_int_equal(p.lost[s][k], st_army[k] - count[s][k]);
            st_pos view, back;
            st_view(&p, ST_RED, &view);
            assert_memory_equal(view.lost, p.lost, sizeof p.lost);
            assert_int_equal(view.lost_known, 3);
            char text[512], again[512];
            st_format(&p, text, sizeof text);
            assert_int_equal(st_parse(&back, text, NULL), 0);
            assert_memory_equal(back.lost, p.lost, sizeof p.lost);
            for (int side = -1; side <= ST_BLUE; side++) {
                st_view(&p, side, &view);
                st_format(&view, text, sizeof text);
                game_error err = { "" };
                if (st_parse(&back, text, &err) != 0)
                    fail_msg("cannot read back %s: %s", text, err.msg);
                assert_int_equal(back.lost_known, 3);
                assert_memory_equal(back.lost, view.lost, sizeof view.lost);
                assert_memory_equal(back.sq, view.sq, sizeof view.sq);
                st_format(&back, again, sizeof again);
                assert_string_equal(again, text);
            }
            /* Without the field, the hidden side's losses are unknown. */
            st_view(&p, ST_RED, &view);
            st_format(&view, text, sizeof text);
            char *last = strrchr(text, ' ');
            *last = 0;
            assert_int_equal(st_parse(&back, text, NULL), 0);
            assert_int_equal(back.lost_known, 1u << ST_RED);
            game_move list[ST_MAX_MOVES];
            int n = st_legal(&p, list);
            if (n == 0)
                break;
            game_move m = list[rng_below(&g, (uint64_t)n)];
            combats += ST_ATTACK(m);
            st_make(&p, m);
        }
    }
    assert_true(combats > 100);
}

static void test_S8_revealed_stays_known_while_alive(void **state)
{
    (void)state;
    st_pos p = pos_of(BARE);
    put(&p, "e4", ST_RED, ST_LIEUTENANT);
    put(&p, "e5", ST_BLUE, ST_CAPTAIN);
    put(&p, "a2", ST_RED, ST_SERGEANT);
    play(&p, "e4e5");        /* Blue's Captain wins and is revealed */
    play(&p, "e5e4");        /* ... and moves on */
    play(&p, "a2a3");
    st_pos v;
    st_view(&p, ST_RED, &v);
    assert_int_equal(kind_at(&v, "e4"), ST_CAPTAIN);
    assert_int_equal(kind_at(&v, "j10"), ST_UNKNOWN);  /* never fought */
    /* Red's own pieces keep their ranks in Red's view; Blue's view hides them. */
    assert_int_equal(kind_at(&v, "a3"), ST_SERGEANT);
    st_view(&p, ST_BLUE, &v);
    assert_int_equal(kind_at(&v, "a3"), ST_UNKNOWN);
}

static void test_S8_scout_long_move_is_public(void **state)
{
    (void)state;
    st_pos p = pos_of(BARE);
    put(&p, "b2", ST_RED, ST_SCOUT);
    put(&p, "e2", ST_RED, ST_SCOUT);
    put(&p, "j9", ST_BLUE, ST_SERGEANT);
    play(&p, "b2b6");  /* more than one square: only a Scout can */
    play(&p, "j9j8");
    play(&p, "e2e3");  /* one square: could be anything movable */
    st_pos v;
    st_view(&p, ST_BLUE, &v);
    uint8_t a = v.sq[cell_of("b6")], b = v.sq[cell_of("e3")];
    assert_int_equal(ST_KIND(a), ST_UNKNOWN);
    assert_int_equal(ST_KIND(b), ST_UNKNOWN);
    assert_true(a & ST_SCOUTED);
    assert_false(a & ST_REVEALED);  /* known as a Scout, not revealed in combat */
    assert_true(b & ST_MOVED);
    assert_false(b & ST_SCOUTED);
    /* On Blue's view, Red's known Scout runs; the other unknown steps. */
    v.stm = ST_RED;
    assert_int_equal(moves_from(&v, "b6"), 10);
    assert_int_equal(moves_from(&v, "e3"), 4);
    char buf[512];
    st_format(&v, buf, sizeof buf);
    assert_non_null(strstr(buf, "X^"));
}

/* --- notation -------------------------------------------------------------- */

static void test_notation_round_trip_through_play(void **state)
{
    (void)state;
    rng g;
    rng_seed(&g, 3);
    for (int game = 0; game < 10; game++) {
        st_pos p;
        st_start_seed(&p, rng_below(&g, 100000));
        for (int ply = 0; ply < 400; ply++) {
            char buf[512], again[512];
            st_format(&p, buf, sizeof buf);
            st_pos q = pos_of(buf);
            q.move_limit = p.move_limit;
            assert_memory_equal(&q, &p, sizeof p);
            st_format(&q, again, sizeof again);
            assert_string_equal(buf, again);
            assert_int_equal(st_hash(&q), st_hash(&p));
            game_move list[ST_MAX_MOVES];
            int n = st_legal(&p, list);
            for (int i = 0; i < n; i++) {
                char mv[16];
                game_move back;
                st_format_move(&p, list[i], mv, sizeof mv);
                assert_int_equal(st_parse_move(&p, mv, &back, NULL), 0);
                assert_int_equal(back, list[i]);
            }
            if (n == 0)
                break;
            st_make(&p, list[rng_below(&g, (uint64_t)n)]);
        }
    }
}

static void test_notation_start_string(void **state)
{
    (void)state;
    st_pos p;
    st_start_seed(&p, 0);
    char buf[512];
    st_format(&p, buf, sizeof buf);
    assert_string_equal(buf, "bbnbnoenbf/bnajloeanb/eljcscolje/oaogomloao/2~~2~~2/2~~2~~2/"
                             "OAOLMOGOAO/EJLOCSCJLE/BNAEOLJANB/FBNEONBNBB r 0 - -");
}

static void test_notation_marks(void **state)
{
    (void)state;
    st_pos p = pos_of("9f/10/10/10/2~~2~~2/O^1~~2~~G*+1/10/10/M*9/F9 b 7 - a10a9:2");
    assert_int_equal(p.sq[cell_of("a5")], ST_PIECE(ST_RED, ST_SCOUT) | ST_MOVED | ST_SCOUTED);
    assert_int_equal(p.sq[cell_of("i5")],
                     ST_PIECE(ST_RED, ST_GENERAL) | ST_MOVED | ST_REVEALED);
    assert_int_equal(p.sq[cell_of("a2")], ST_PIECE(ST_RED, ST_MARSHAL) | ST_REVEALED);
    assert_int_equal(p.stm, ST_BLUE);
    assert_int_equal(p.ply, 7);
    assert_int_equal(p.two_count[ST_BLUE], 2);
    char buf[512];
    st_format(&p, buf, sizeof buf);
    assert_string_equal(buf, "9f/10/10/10/2~~2~~2/O^1~~2~~G*+1/10/10/M*9/F9 b 7 - a10a9:2");
}

/* A spectator's view (S8: neither side's ranks shown) reads back as it was
 * written: the page draws every position a game sends through the engine,
 * a spectator's included. */
static void test_notation_spectator_view_reads_back(void **state)
{
    (void)state;
    st_pos full, view, again;
    st_start_seed(&full, 7);
    st_view(&full, -1, &view);
    char text[512], back[512];
    st_format(&view, text, sizeof text);
    assert_non_null(strchr(text, 'x'));
    assert_non_null(strchr(text, 'X'));
    game_error err;
    assert_int_equal(st_parse(&again, text, &err), 0);
    st_format(&again, back, sizeof back);
    assert_string_equal(back, text);
}

/* S5/S8: a view's lost field, as written: Red's losses in upper case, then
 * Blue's in lower case, each side's strongest first; '-' for none. A full
 * position's text has no such field (the board tells its losses). */
static void test_S5_view_text_lists_losses_in_table_order(void **state)
{
    (void)state;
    st_pos p = pos_of("bbnbnoenbf/bnajloeanb/eljcscolje/oaogomloao/2~~2~~2/2~~2~~2/"
                      "OAOLMOGOAO/EJLOCSCJLE/BNAEOLJANB/FBNEONBNBB r 0 - -");
    st_pos v;
    char text[512];
    st_view(&p, ST_RED, &v);
    st_format(&v, text, sizeof text);
    assert_string_equal(strrchr(text, ' '), " -");  /* a view before any combat */
    play(&p, "a4a5");
    play(&p, "a7a6");
    play(&p, "a5a6");  /* two Scouts meet: both are removed */
    play(&p, "b7b6");
    play(&p, "b4b5");
    play(&p, "b6b5");  /* two Captains meet: both are removed */
    st_format(&p, text, sizeof text);
    assert_null(strstr(text, " AO"));  /* full positions keep today's five fields */
    st_view(&p, ST_BLUE, &v);
    st_format(&v, text, sizeof text);
    assert_string_equal(strrchr(text, ' '), " AOao");
    st_pos back = pos_of(text);
    assert_int_equal(back.lost[ST_RED][ST_CAPTAIN], 1);
    assert_int_equal(back.lost[ST_RED][ST_SCOUT], 1);
    assert_int_equal(back.lost[ST_BLUE][ST_CAPTAIN], 1);
    assert_int_equal(back.lost[ST_BLUE][ST_SCOUT], 1);
    assert_int_equal(back.lost_known, 3);
}

/* S5/S8: the reader takes a lost field only if it could be a game's: for a
 * side whose every piece is shown, its army less the board; for the hidden
 * side of a view, losses that leave its unknown pieces something to be. */
static void test_S5_impossible_losses_refused(void **state)
{
    (void)state;
    /* Blue's view after a4a5 a7a6 a5a6 (Red's Scout and Blue's Scout gone) */
    const char *board = "bbnbnoenbf/bnajloeanb/eljcscolje/1aogomloao/2~~2~~2/2~~2~~2/"
                        "1XXXXXXXXX/XXXXXXXXXX/XXXXXXXXXX/XXXXXXXXXX b 3 a5a6:1 a7a6:1";
    char text[512];
    snprintf(text, sizeof text, "%s Oo", board);
    st_pos p = pos_of(text);
    assert_int_equal(p.lost_known, 3);
    assert_int_equal(p.lost[ST_RED][ST_SCOUT], 1);
    /* Red may have lost any one piece, as far as Blue's view goes */
    snprintf(text, sizeof text, "%s Mo", board);
    assert_int_equal(pos_of(text).lost[ST_RED][ST_MARSHAL], 1);
    const char *bad[] = {
        "O",      /* Blue, fully shown, lost a Scout: its board says so */
        "Ooo",    /* ... one, not two */
        "Oob",    /* Blue has all its Bombs on the board */
        "OOo",    /* Red: 39 on the board and two lost make 41, not 40 */
        "-",      /* ... nor none lost */
        "oO",     /* Blue's before Red's */
        "SMo",    /* out of the table's order */
        "Xo",     /* no unknown piece is lost */
        "O?o",
        "MMo",    /* more Marshals than an army has */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        game_error err = { "" };
        st_pos q = p;
        snprintf(text, sizeof text, "%s %s", board, bad[i]);
        if (st_parse(&q, text, &err) == 0)
            fail_msg("accepted lost field '%s'", bad[i]);
        assert_true(err.msg[0] != 0);
        assert_null(strchr(err.msg, '\n'));
        assert_memory_equal(&q, &p, sizeof p);  /* unchanged */
    }
    /* Blue's view: Red lost all 8 Scouts, but one unknown Red piece ran
     * like a Scout; and a moved unknown piece needs a movable one left. */
    const char *ran = "9f/10/10/10/2~~2~~2/X^1~~2~~2/10/10/10/XXXXXXXXXX b 9 - - "
                      "ALLLLEEEENNNNNOOOOOOOOSBBBBBB"
                      "mgccjjjaaaalllleeeennnnnoooooooosbbbbbb";
    game_error err = { "" };
    assert_int_not_equal(st_parse(&p, ran, &err), 0);
    assert_non_null(strstr(err.msg, "Scout"));
    const char *moved = "9f/10/10/10/2~~2~~2/X+1~~2~~2/10/10/10/XXXXXX4 b 9 - - "
                        "MGCCJJJAAAALLLLEEEENNNNNOOOOOOOOS"
                        "mgccjjjaaaalllleeeennnnnoooooooosbbbbbb";
    assert_int_not_equal(st_parse(&p, moved, &err), 0);
    assert_non_null(strstr(err.msg, "movable"));
}

static void test_notation_bad_positions_refused(void **state)
{
    (void)state;
    const char *bad[] = {
        "",
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9",                 /* no side */
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r",               /* no ply */
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 0",             /* no S6 fields */
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 0 - - x",
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 w 0 - -",
        "9f/10/10/10/10/2~~2~~2/10/10/10/F9 r 0 - -",              /* lakes missing */
        "9f/10/10/10/2~~2~~2/~~~~~~~~~~/10/10/10/F9 r 0 - -",      /* lakes misplaced */
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F8 r 0 - -",         /* short row */
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F10 r 0 - -",        /* long row */
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F0 r 0 - -",
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F11 r 0 - -",
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/F9 r 0 - -",            /* 9 rows */
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/10/F9 r 0 - -",      /* 11 rows */
        "10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/10 r 0 - -",         /* no flags */
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/FQ8 r 0 - -",        /* no such piece */
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/FM+*8 r 0 - -",      /* marks out of order */
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/FM++8 r 0 - -",
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/FM^8 r 0 - -",       /* a Marshal seen as Scout */
        "9f/10/10/10/M~~2~~2/2~~2~~2/10/10/10/F9 r 0 - -",         /* unmoved outside home */
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/FX8 r 0 - x9",
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 0 a1a3 -",
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 0 a1b2:1 -",    /* not in a line */
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 0 a1a2:4 -",
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 0 a1a1:1 -",
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 0 c5c4:1 -",    /* a lake */
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 1000001 - -",
        "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/X*9 r 0 - -",        /* revealed unknown */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        st_pos p, before;
        memset(&p, 0x5a, sizeof p);
        before = p;
        game_error err = { "" };
        if (st_parse(&p, bad[i], &err) == 0)
            fail_msg("accepted: '%s'", bad[i]);
        assert_true(err.msg[0] != 0);
        assert_memory_equal(&p, &before, sizeof p);
    }
}

static void test_notation_bad_moves_refused(void **state)
{
    (void)state;
    st_pos p;
    st_start_seed(&p, 0);
    st_pos before = p;
    const char *bad[] = { "", "a4", "a4a", "a4a5x", "a4a5 ", "z4a5", "a4a11", "c4c5",
                          "a7a6", "b1b2", "a4b5", "a3a4", "a4a10", "a04a5" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        game_move m;
        game_error err = { "" };
        if (st_parse_move(&p, bad[i], &m, &err) == 0)
            fail_msg("accepted move '%s'", bad[i]);
        assert_true(err.msg[0] != 0);
        assert_memory_equal(&p, &before, sizeof p);
    }
    game_move m;
    assert_int_equal(st_parse_move(&p, "a4-a5", &m, NULL), 0);
    assert_int_equal(st_parse_move(&p, "a4xa6", &m, NULL), 0);
}

/* The attack generator (quiescence, the attacker bot) yields exactly the
 * attacks among all moves, S6 included. */
static void test_S4_attack_generator_matches_moves(void **state)
{
    (void)state;
    rng g;
    rng_seed(&g, 17);
    int attacks = 0;
    for (int game = 0; game < 10; game++) {
        st_pos p;
        st_start_seed(&p, rng_below(&g, 100000));
        for (int ply = 0; ply < 300; ply++) {
            game_move all[ST_MAX_MOVES], att[ST_MAX_MOVES], want[ST_MAX_MOVES];
            int n = st_gen(&p, all), na = st_gen_attacks(&p, att), nw = 0;
            for (int i = 0; i < n; i++)
                if (ST_ATTACK(all[i]))
                    want[nw++] = all[i];
            assert_int_equal(na, nw);
            for (int i = 0; i < nw; i++) {
                int found = 0;
                for (int j = 0; j < na; j++)
                    found |= att[j] == want[i];
                assert_true(found);
            }
            attacks += na;
            if (st_legal(&p, all) == 0)
                break;
            st_make(&p, all[rng_below(&g, (uint64_t)n)]);
        }
    }
    assert_true(attacks > 0);
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
        cmocka_unit_test(test_S4_attack_generator_matches_moves),
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
        cmocka_unit_test(test_S8_view_never_shows_unrevealed_enemy_rank),
        cmocka_unit_test(test_S5_losses_by_kind_are_public),
        cmocka_unit_test(test_S8_revealed_stays_known_while_alive),
        cmocka_unit_test(test_S8_scout_long_move_is_public),
        cmocka_unit_test(test_notation_round_trip_through_play),
        cmocka_unit_test(test_notation_start_string),
        cmocka_unit_test(test_notation_marks),
        cmocka_unit_test(test_notation_spectator_view_reads_back),
        cmocka_unit_test(test_S5_view_text_lists_losses_in_table_order),
        cmocka_unit_test(test_S5_impossible_losses_refused),
        cmocka_unit_test(test_notation_bad_positions_refused),
        cmocka_unit_test(test_notation_bad_moves_refused),
        cmocka_unit_test(test_perft_start_regression),
        cmocka_unit_test(test_perft_matches_reference_midgame),
        cmocka_unit_test(test_perft_matches_reference_S6_S7),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
