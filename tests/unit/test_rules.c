/* test_rules.c -- every Rampart ruling (R1-R10 of rules/rampart.md), by name,
 * with all the examples of the source text. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/base/bits.h"
#include "../../src/games/rampart/rampart.h"

#define CLASSIC "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1"
#define XL "2qqq2/2nnn2/2kkk2/2bbb2/7/2BBB2/2KKK2/2NNN2/2QQQ2 b 1"

static rp_pos pos_of(const char *fen)
{
    rp_pos p;
    game_error err = { "" };
    memset(&p, 0, sizeof p);
    if (rp_parse(&p, fen, 0, 0, &err) != 0)
        fail_msg("cannot parse %s: %s", fen, err.msg);
    return p;
}

/* Plays one move given as text; fails the test if it is illegal. */
static void play(rp_pos *p, const char *text)
{
    game_move m;
    game_error err = { "" };
    if (rp_parse_move(p, text, &m, &err) != 0)
        fail_msg("move %s refused: %s", text, err.msg);
    rp_make(p, m);
    assert_true(rp_pos_ok(p));
}

static int legal(const rp_pos *p, const char *text)
{
    game_move m;
    return rp_parse_move(p, text, &m, NULL) == 0;
}

/* The squares of a space-separated list such as "a2 b3". */
static uint64_t squares(const rp_pos *p, const char *list)
{
    uint64_t b = 0;
    for (const char *s = list; *s;) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        int sq = rp_parse_square(p->g, s);
        assert_true(sq >= 0);
        b |= bits_sq(sq);
        s += 2;
    }
    return b;
}

static uint64_t targets_of(const rp_pos *p, const char *sqname)
{
    int sq = rp_parse_square(p->g, sqname);
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < RP_NTYPES; t++)
            if (p->pc[s][t] & bits_sq(sq))
                return rp_targets(p, s, t, sq);
    fail_msg("no piece on %s", sqname);
    return 0;
}

static int piece_on(const rp_pos *p, const char *sqname)
{
    uint64_t b = bits_sq(rp_parse_square(p->g, sqname));
    return ((p->occ[0] | p->occ[1]) & b) != 0;
}

static void assert_result(const rp_pos *p, int over, int winner, const char *reason)
{
    game_result r = rp_result(p);
    char fen[128];
    rp_format(p, fen, sizeof fen);
    if (r.over != over || (over && (r.winner != winner || strcmp(r.reason, reason) != 0)))
        fail_msg("%s: got over=%d winner=%d reason=%s, want over=%d winner=%d reason=%s", fen,
                 r.over, r.winner, r.reason, over, winner, reason);
}

/* --- R1 boards and coordinates ---------------------------------------- */

static void test_R1_classic_and_xl_boards(void **state)
{
    (void)state;
    rp_pos c = pos_of(CLASSIC), x = pos_of(XL);
    assert_int_equal(c.g->w, 5);
    assert_int_equal(c.g->h, 9);
    assert_int_equal(x.g->w, 7);
    assert_int_equal(x.g->h, 9);
    assert_int_equal(rp_parse_square(c.g, "a1"), 0);
    assert_int_equal(rp_parse_square(c.g, "e9"), 44);
    assert_int_equal(rp_parse_square(c.g, "f1"), -1);  /* no f-file on Classic */
    assert_int_equal(rp_parse_square(x.g, "g9"), 62);
    assert_int_equal(rp_parse_square(x.g, "a0"), -1);
    char name[3];
    rp_square_name(x.g, 62, name);
    assert_string_equal(name, "g9");
}

static void test_R1_bottom_moves_first(void **state)
{
    (void)state;
    rp_pos p;
    rp_variant_classic.ops->start(&rp_variant_classic, &p, 0);
    assert_int_equal(p.stm, RP_BOTTOM);
    assert_true(legal(&p, "c4c5"));   /* a Bottom Blocker */
    assert_false(legal(&p, "c6c5"));  /* a Top Blocker */
    rp_variant_xl.ops->start(&rp_variant_xl, &p, 0);
    assert_int_equal(p.stm, RP_BOTTOM);
}

/* --- R2 starting position --------------------------------------------- */

static void test_R2_start_positions(void **state)
{
    (void)state;
    char buf[128];
    rp_pos p;
    rp_variant_classic.ops->start(&rp_variant_classic, &p, 0);
    rp_format(&p, buf, sizeof buf);
    assert_string_equal(buf, CLASSIC);
    assert_true(p.pc[RP_BOTTOM][RP_QUEEN] == squares(&p, "b1 c1 d1"));
    assert_true(p.pc[RP_BOTTOM][RP_KNIGHT] == squares(&p, "b2 c2 d2"));
    assert_true(p.pc[RP_BOTTOM][RP_KING] == squares(&p, "b3 c3 d3"));
    assert_true(p.pc[RP_BOTTOM][RP_BLOCKER] == squares(&p, "b4 c4 d4"));
    assert_true(p.pc[RP_TOP][RP_QUEEN] == squares(&p, "b9 c9 d9"));
    assert_true(p.pc[RP_TOP][RP_BLOCKER] == squares(&p, "b6 c6 d6"));
    rp_variant_xl.ops->start(&rp_variant_xl, &p, 0);
    rp_format(&p, buf, sizeof buf);
    assert_string_equal(buf, XL);
    assert_true(p.pc[RP_BOTTOM][RP_KING] == squares(&p, "c3 d3 e3"));
    assert_true(p.pc[RP_TOP][RP_KNIGHT] == squares(&p, "c8 d8 e8"));
    assert_int_equal(rp_material(&p, RP_BOTTOM), 9);
    assert_int_equal(rp_material(&p, RP_TOP), 9);
}

/* --- R3 movement ------------------------------------------------------- */

static void test_R3_queen_slides_one_to_three(void **state)
{
    (void)state;
    rp_pos p = pos_of("4k/5/5/5/5/5/5/5/Q3K b 1");
    assert_true(targets_of(&p, "a1") == squares(&p, "a2 a3 a4 b2 c3 d4 b1 c1 d1"));
    assert_false(legal(&p, "a1a5"));  /* four squares: too far */
}

static void test_R3_queen_stops_at_first_piece(void **state)
{
    (void)state;
    /* c3 own Blocker blocks north; d2 enemy King blocks the diagonal (and
     * cannot be taken); b1 enemy Knight is taken. */
    rp_pos p = pos_of("4k/5/5/5/5/5/2B2/3k1/1nQ2 b 1");
    assert_true(targets_of(&p, "c1") == squares(&p, "c2 b2 a3 b1 d1 e1"));
    assert_false(legal(&p, "c1c4"));  /* cannot jump the Blocker */
    assert_false(legal(&p, "c1e3"));  /* cannot jump the King */
    assert_false(legal(&p, "c1a1"));  /* cannot pass through b1 */
}

static void test_R3_knight_jumps_one_or_two(void **state)
{
    (void)state;
    rp_pos p = pos_of("4k/5/5/5/5/2b2/1bNb1/2b2/4K b 1");
    /* Surrounded by Top Blockers, it jumps over them; never diagonally. */
    assert_true(targets_of(&p, "c3") == squares(&p, "c5 a3 e3 c1"));
    assert_false(legal(&p, "c3d4"));
    assert_false(legal(&p, "c3c6"));
}

static void test_R3_king_one_square_any_direction(void **state)
{
    (void)state;
    rp_pos p = pos_of("4k/5/5/5/2K2/5/5/5/4N b 1");
    assert_true(targets_of(&p, "c5") == squares(&p, "b4 c4 d4 b5 d5 b6 c6 d6"));
    assert_false(legal(&p, "c5c7"));
}

static void test_R3_blocker_one_square_orthogonally(void **state)
{
    (void)state;
    rp_pos p = pos_of("4k/5/5/5/2B2/1q3/5/5/K4 b 1");
    assert_true(targets_of(&p, "c5") == squares(&p, "c4 c6 b5 d5"));
    assert_false(legal(&p, "c5b4"));  /* no diagonal step, and no capture */
}

static void test_R3_no_own_square_and_no_pass(void **state)
{
    (void)state;
    rp_pos p = pos_of(CLASSIC);
    assert_false(legal(&p, "b2b3"));  /* own King on b3 */
    assert_false(legal(&p, "0000"));
    assert_false(legal(&p, "pass"));
    assert_false(legal(&p, "c3c3"));
    game_move list[RP_MAX_MOVES];
    int n = rp_gen(&p, list);
    for (int i = 0; i < n; i++)
        assert_int_not_equal(RP_FROM(list[i]), RP_TO(list[i]));
}

/* --- R4 direct capture ------------------------------------------------- */

static void test_R4_capture_cycle(void **state)
{
    (void)state;
    rp_pos p = pos_of("5/5/5/kq3/K1n2/1Q3/N1k2/5/5 b 1");
    /* Queen b4 takes the Knight c5, not the King c3... */
    assert_true(legal(&p, "b4c5"));
    assert_false(legal(&p, "b4c3"));
    /* Knight a3 takes the King c3 (two squares), King a5 takes the Queen b6. */
    assert_true(legal(&p, "a3c3"));
    assert_true(legal(&p, "a5b6"));
    assert_false(legal(&p, "a5a6"));  /* King does not take King */
    rp_pos q = p;
    play(&q, "b4c5");
    assert_int_equal(bits_count(q.pc[RP_TOP][RP_KNIGHT]), 0);
    assert_true(q.pc[RP_BOTTOM][RP_QUEEN] & squares(&q, "c5"));
}

static void test_R4_nothing_outside_the_cycle(void **state)
{
    (void)state;
    /* Bottom Queen next to Top Queen, King, Blocker: none can be taken. */
    rp_pos p = pos_of("5/5/5/5/1qkb1/2Q2/5/5/4N b 1");
    assert_false(legal(&p, "c4b5"));
    assert_false(legal(&p, "c4c5"));
    assert_false(legal(&p, "c4d5"));
    /* A Knight does not take a Queen or a Blocker; a Blocker takes nothing. */
    rp_pos k = pos_of("5/5/5/5/1q3/1N1bk/3B1/5/K4 b 1");
    assert_false(legal(&k, "b4b5"));
    assert_false(legal(&k, "b4d4"));
    assert_false(legal(&k, "d3d4"));
}

/* --- R5 enclosure ------------------------------------------------------ */

static void test_R5_enclosure_removes_piece(void **state)
{
    (void)state;
    rp_pos p = pos_of("4q/5/2B2/5/1BkB1/2B2/5/5/K4 b 1");
    play(&p, "c7c6");
    assert_false(piece_on(&p, "c5"));
    assert_int_equal(bits_count(p.pc[RP_TOP][RP_KING]), 0);
}

static void test_R5_blockers_are_enclosed_too(void **state)
{
    (void)state;
    rp_pos p = pos_of("4q/5/2B2/5/1BbB1/2B2/5/5/K4 b 1");
    play(&p, "c7c6");
    assert_int_equal(bits_count(p.pc[RP_TOP][RP_BLOCKER]), 0);
}

static void test_R5_diagonals_do_not_enclose(void **state)
{
    (void)state;
    rp_pos p = pos_of("4q/5/1B1B1/5/1BkB1/1BBB1/5/5/K4 b 1");
    play(&p, "b7b6");  /* b6 and d6 are diagonal to c5; c6 stays empty */
    assert_true(piece_on(&p, "c5"));
}

static void test_R5_edge_pieces_are_never_enclosed(void **state)
{
    (void)state;
    rp_pos p = pos_of("4q/5/5/B4/kB3/1B3/5/5/K4 b 1");
    play(&p, "b4a4");  /* a5 now has Bottom on all three existing sides */
    assert_true(piece_on(&p, "a5"));
    rp_pos c = pos_of("4q/5/5/5/5/5/5/B4/kB2K b 1");
    play(&c, "e1e2");  /* the corner a1 has only two neighbours */
    assert_true(piece_on(&c, "a1"));
}

static void test_R5_several_enclosures_at_once(void **state)
{
    (void)state;
    rp_pos p = pos_of("4q/5/5/1B1B1/Bk1nB/1BBB1/5/5/KQN2 b 1");
    play(&p, "c4c5");  /* c5 closes both cages */
    assert_false(piece_on(&p, "b5"));
    assert_false(piece_on(&p, "d5"));
    assert_true(piece_on(&p, "c5"));
}

static void test_R5_capture_that_also_encloses(void **state)
{
    (void)state;
    rp_pos p = pos_of("4q/2Q2/5/2n2/1BkB1/2B2/5/5/K4 b 1");
    play(&p, "c8c6");  /* takes the Knight, and closes the cage on c5 */
    assert_true(p.pc[RP_BOTTOM][RP_QUEEN] & squares(&p, "c6"));
    assert_false(piece_on(&p, "c5"));
    assert_int_equal(rp_material(&p, RP_TOP), 1);
}

static void test_R5_suicide_move_survives_until_next_move(void **state)
{
    (void)state;
    rp_pos p = pos_of("4q/5/5/1kB2/1B1B1/2B2/5/5/K4 t 1");
    play(&p, "b6c5");  /* Top's King steps into a complete cage */
    assert_true(p.pc[RP_TOP][RP_KING] & squares(&p, "c5"));
    play(&p, "a1a2");  /* any Bottom move, even far away, removes it */
    assert_false(piece_on(&p, "c5"));
    assert_int_equal(bits_count(p.pc[RP_TOP][RP_KING]), 0);
}

static void test_R5_mover_pieces_are_never_checked(void **state)
{
    (void)state;
    /* Bottom's Blocker on c5 sits in a Top cage; Bottom moves elsewhere and
     * the Blocker stays; only Top's move would remove it. */
    rp_pos p = pos_of("4k/5/2b2/1bBb1/5/2b2/5/5/Q3K t 1");
    play(&p, "c4c5");
    assert_false(piece_on(&p, "c6"));  /* enclosed by Top's move */
    /* Bottom's King steps into a Top cage: Bottom's own move leaves it. */
    rp_pos s = pos_of("2qnk/5/5/2b2/1b1b1/2bK1/5/5/Q3N b 1");
    play(&s, "d4c5");
    assert_true(s.pc[RP_BOTTOM][RP_KING] & squares(&s, "c5"));
    play(&s, "e9e8");
    assert_false(piece_on(&s, "c5"));
}

/* --- R6 game material -------------------------------------------------- */

static void test_R6_material_counts(void **state)
{
    (void)state;
    rp_pos p = pos_of("qnkbb/5/5/5/5/5/5/5/QQKBB b 1");
    assert_int_equal(rp_material(&p, RP_BOTTOM), 3);
    assert_int_equal(rp_material(&p, RP_TOP), 3);
}

/* --- R7 end of game (the source text's examples) ----------------------- */

static void test_R7_three_queens_vs_two_queens(void **state)
{
    (void)state;
    rp_pos p = pos_of("qq3/5/5/5/5/5/5/5/QQQ2 b 1");
    assert_result(&p, 1, RP_BOTTOM, "no-captures");
    game_move list[RP_MAX_MOVES];
    assert_int_equal(rp_legal(&p, list), 0);  /* nothing more may be played */
}

static void test_R7_three_knights_vs_three_knights_and_king(void **state)
{
    (void)state;
    rp_pos p = pos_of("nnnk1/5/5/5/5/5/5/5/NNN2 b 1");
    assert_result(&p, 0, 0, "");
}

static void test_R7_three_knights_vs_two_knights(void **state)
{
    (void)state;
    rp_pos p = pos_of("nn3/5/5/5/5/5/5/5/NNN2 t 1");
    assert_result(&p, 1, RP_BOTTOM, "no-captures");
}

static void test_R7_material_vs_blockers_only(void **state)
{
    (void)state;
    rp_pos p = pos_of("bbb2/5/5/5/5/5/5/5/Q4 b 1");
    assert_result(&p, 1, RP_BOTTOM, "no-captures");
    rp_pos q = pos_of("k4/5/5/5/5/5/5/5/BBB2 b 1");
    assert_result(&q, 1, RP_TOP, "no-captures");
    rp_pos r = pos_of("bb3/5/5/5/5/5/5/5/BB3 b 1");
    assert_result(&r, 1, -1, "no-captures");
}

static void test_R7_equal_material_no_captures_is_draw(void **state)
{
    (void)state;
    rp_pos p = pos_of("qq3/5/5/5/5/5/5/5/QQ3 b 1");
    assert_result(&p, 1, -1, "no-captures");
}

static void test_R7_insufficient_three_queens_king_vs_two_knights(void **state)
{
    (void)state;
    rp_pos p = pos_of("nn3/5/5/5/5/5/5/5/QQQK1 b 1");
    assert_result(&p, 1, RP_BOTTOM, "insufficient");
    /* With two Kings Top could take both and get level: play goes on. */
    rp_pos q = pos_of("nn3/5/5/5/5/5/5/5/QQKK1 b 1");
    assert_result(&q, 0, 0, "");
}

static void test_R7_insufficient_reached_by_a_move(void **state)
{
    (void)state;
    /* Top's last Knight falls: Top's Queen has no Knight to take. */
    rp_pos p = pos_of("q4/5/5/5/2n2/5/2Q2/5/K4 b 1");
    assert_result(&p, 0, 0, "");
    play(&p, "c3c5");
    assert_result(&p, 1, RP_BOTTOM, "insufficient");
    assert_false(legal(&p, "a9a8"));  /* moves after the end are illegal */
}

static void test_R7_move_limit(void **state)
{
    (void)state;
    rp_pos p = pos_of(CLASSIC);
    p.move_limit = 1;
    play(&p, "c4c5");
    assert_result(&p, 0, 0, "");  /* only Top's move completes a full move */
    play(&p, "b6a6");
    assert_result(&p, 1, -1, "move-limit");  /* equal material: a draw */
}

static void test_R7_move_limit_after_top_move(void **state)
{
    (void)state;
    rp_pos p = pos_of(CLASSIC);
    p.move_limit = 2;
    play(&p, "c4c5");
    play(&p, "b6a6");
    assert_result(&p, 0, 0, "");
    play(&p, "b4a4");
    assert_result(&p, 0, 0, "");
    play(&p, "d6e6");
    assert_result(&p, 1, -1, "move-limit");
    assert_false(legal(&p, "a4a5"));
    /* Adjudicated by material: Bottom a piece up wins. */
    rp_pos q = pos_of("3nq/5/5/5/5/5/5/5/KQN2 t 3");
    q.move_limit = 3;
    assert_result(&q, 0, 0, "");
    play(&q, "e9e8");
    assert_result(&q, 1, RP_BOTTOM, "move-limit");
}

static void test_R7_no_moves(void **state)
{
    (void)state;
    rp_pos p = pos_of("q3k/5/5/5/5/5/5/bb3/Kb3 b 1");
    assert_result(&p, 1, RP_TOP, "no-moves");
}

static void test_R7_order_of_checks(void **state)
{
    (void)state;
    /* Both R7.1 and the move limit hold: R7.1 comes first. */
    rp_pos p = pos_of("qq3/5/5/5/5/5/5/5/QQQ2 b 9");
    p.move_limit = 4;
    assert_result(&p, 1, RP_BOTTOM, "no-captures");
    /* Both the move limit and no moves: the move limit comes first. */
    rp_pos q = pos_of("q3k/5/5/5/5/5/5/bb3/Kb3 b 9");
    q.move_limit = 4;
    assert_result(&q, 1, RP_TOP, "move-limit");
}

/* --- R8 time, results and Elo ------------------------------------------ */

static void test_R8_flag_without_captures_is_sterile_draw(void **state)
{
    (void)state;
    rp_pos start = pos_of(CLASSIC), p = start;
    play(&p, "c4c5");
    game_result r = rp_timeout(&start, &p, RP_TOP);
    assert_true(r.over);
    assert_int_equal(r.winner, -1);
    assert_string_equal(r.reason, "time");
    assert_true(rp_sterile(&start, &p));
}

static void test_R8_flag_loses_whatever_the_material(void **state)
{
    (void)state;
    rp_pos start = pos_of("4q/2Q2/5/2n2/5/5/5/5/K3k b 1"), p = start;
    play(&p, "c8c6");  /* Bottom takes: material 2-2... Bottom is not behind */
    assert_false(rp_sterile(&start, &p));
    game_result r = rp_timeout(&start, &p, RP_BOTTOM);
    assert_int_equal(r.winner, RP_TOP);
    assert_string_equal(r.reason, "time");
    r = rp_timeout(&start, &p, RP_TOP);
    assert_int_equal(r.winner, RP_BOTTOM);
}

static void test_R8_elo(void **state)
{
    (void)state;
    assert_int_equal(rp_elo_k(0), 40);
    assert_int_equal(rp_elo_k(29), 40);
    assert_int_equal(rp_elo_k(30), 20);
    assert_float_equal(rp_elo_update(1500, 0, 1500, 1.0, 0), 1520.0, 1e-9);
    assert_float_equal(rp_elo_update(1500, 30, 1500, 0.0, 0), 1490.0, 1e-9);
    /* A sterile draw changes nothing, even between unequal players. */
    assert_float_equal(rp_elo_update(1400, 5, 1700, 0.5, 1), 1400.0, 1e-9);
    /* Other draws are rated normally. */
    assert_true(rp_elo_update(1400, 5, 1700, 0.5, 0) > 1400.0);
}

/* --- R9 notation ------------------------------------------------------- */

static void test_R9_position_strings_round_trip(void **state)
{
    (void)state;
    const char *fens[] = { CLASSIC, XL, "4q/2Q2/5/2n2/1BkB1/2B2/5/5/K4 t 17",
                           "qqq/nnn/kkk/bbb/3/BBB/KKK/NNN/QQQ b 1" };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        rp_pos p = pos_of(fens[i]);
        char buf[128];
        rp_format(&p, buf, sizeof buf);
        assert_string_equal(buf, fens[i]);
    }
}

static void test_R9_full_move_number_grows_after_top(void **state)
{
    (void)state;
    rp_pos p = pos_of(CLASSIC);
    play(&p, "c4c5");
    assert_int_equal(p.fullmove, 1);
    assert_int_equal(p.stm, RP_TOP);
    play(&p, "b6a6");
    assert_int_equal(p.fullmove, 2);
    char buf[128];
    rp_format(&p, buf, sizeof buf);
    assert_string_equal(buf, "1qqq1/1nnn1/1kkk1/b1bb1/2B2/1B1B1/1KKK1/1NNN1/1QQQ1 b 2");
}

static void test_R9_bad_positions_are_refused(void **state)
{
    (void)state;
    const char *bad[] = {
        "",
        "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1",        /* no side */
        "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b",      /* no number */
        "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 w 1",    /* side */
        "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 0",    /* number */
        "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1 x",  /* extra */
        "1qqq1/1nnn1/1kkk1/1bbb1/6/1BBB1/1KKK1/1NNN1/1QQQ1 b 1",    /* widths */
        "1qqq1/1nnn1/1kkk1/1bbb1/14/1BBB1/1KKK1/1NNN1/1QQQ1 b 1",   /* 1 then 4 */
        "1qqq1/1nnn1/1kkk1/1bxb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1",    /* piece */
        "9/9/9/9/9/9/9/9/9 b 1",                                    /* 81 squares */
        "5/5 b 1",                                                  /* 2 rows */
        "1qqq1//1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1",         /* empty row */
        "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 99999999999",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rp_pos p = pos_of(CLASSIC), before = p;
        game_error err = { "" };
        if (rp_parse(&p, bad[i], 0, 0, &err) == 0)
            fail_msg("accepted bad position '%s'", bad[i]);
        assert_true(strlen(err.msg) > 0);
        assert_memory_equal(&p, &before, sizeof p);  /* unchanged */
    }
    /* The board's width gives the variant: an XL board is no Classic one. */
    rp_pos p;
    game_error err;
    assert_int_equal(rp_parse(&p, XL, 5, 9, &err), -1);
    assert_non_null(strstr(err.msg, "7x9"));
}

static void test_R9_move_notation(void **state)
{
    (void)state;
    rp_pos p = pos_of("5/5/5/5/2n2/5/2Q2/5/K3k b 1");
    game_move a, b, c;
    assert_int_equal(rp_parse_move(&p, "c3c5", &a, NULL), 0);
    assert_int_equal(rp_parse_move(&p, "c3-c5", &b, NULL), 0);
    assert_int_equal(rp_parse_move(&p, "c3xc5", &c, NULL), 0);
    assert_int_equal(a, b);
    assert_int_equal(a, c);
    char buf[8];
    rp_format_move(&p, a, buf, sizeof buf);
    assert_string_equal(buf, "c3c5");
    const char *bad[] = { "c3", "c3c", "c3:c5", "c3c5c", "z3c5", "c3c0", "C3C5", "" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        game_error err = { "" };
        assert_int_equal(rp_parse_move(&p, bad[i], &a, &err), -1);
        assert_true(strlen(err.msg) > 0);
    }
}

/* --- R10 Fun Zone ------------------------------------------------------ */

static void test_R10_fun_zone_forms(void **state)
{
    (void)state;
    int sizes = 0, rated = 0, shuffle = 0;
    for (const game_variant *const *v = game_variants(); *v; v++) {
        if (strcmp((*v)->family, "rampart") != 0)
            continue;
        const rp_variant_data *d = (*v)->data;
        rp_pos p;
        (*v)->ops->start(*v, &p, 0);
        assert_true(rp_pos_ok(&p));
        assert_int_equal(p.g->w, d->w);
        assert_false(rp_over(&p));
        if ((*v)->rated) {
            rated++;
            continue;
        }
        if (!(d->w == 5 && d->h == 9) && !(d->w == 7 && d->h == 9))
            sizes++;
        if ((*v)->starts > 1)
            shuffle++;
    }
    assert_int_equal(rated, 2);  /* Classic and XL only */
    assert_true(sizes >= 2);
    assert_int_equal(shuffle, 1);
}

static void test_R10_shuffle_is_the_same_for_both_sides(void **state)
{
    (void)state;
    static char seen[RP_SHUFFLE_STARTS][128];
    for (int i = 0; i < RP_SHUFFLE_STARTS; i++) {
        char buf[128];
        rp_shuffle_start((uint64_t)i, buf, sizeof buf);
        rp_pos p = pos_of(buf);
        for (int t = 0; t < RP_NTYPES; t++) {
            assert_int_equal(bits_count(p.pc[RP_BOTTOM][t]), 3);
            /* Top's piece on (file, 8 - row) mirrors Bottom's on (file, row). */
            for (uint64_t b = p.pc[RP_BOTTOM][t]; b;) {
                int sq = bits_pop(&b);
                int mirror = (8 - sq / 5) * 5 + sq % 5;
                assert_true(p.pc[RP_TOP][t] & bits_sq(mirror));
            }
        }
        assert_true(p.pc[RP_BOTTOM][RP_BLOCKER] == squares(&p, "b4 c4 d4"));
        snprintf(seen[i], sizeof seen[i], "%s", buf);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(seen[i], seen[j]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_R1_classic_and_xl_boards),
        cmocka_unit_test(test_R1_bottom_moves_first),
        cmocka_unit_test(test_R2_start_positions),
        cmocka_unit_test(test_R3_queen_slides_one_to_three),
        cmocka_unit_test(test_R3_queen_stops_at_first_piece),
        cmocka_unit_test(test_R3_knight_jumps_one_or_two),
        cmocka_unit_test(test_R3_king_one_square_any_direction),
        cmocka_unit_test(test_R3_blocker_one_square_orthogonally),
        cmocka_unit_test(test_R3_no_own_square_and_no_pass),
        cmocka_unit_test(test_R4_capture_cycle),
        cmocka_unit_test(test_R4_nothing_outside_the_cycle),
        cmocka_unit_test(test_R5_enclosure_removes_piece),
        cmocka_unit_test(test_R5_blockers_are_enclosed_too),
        cmocka_unit_test(test_R5_diagonals_do_not_enclose),
        cmocka_unit_test(test_R5_edge_pieces_are_never_enclosed),
        cmocka_unit_test(test_R5_several_enclosures_at_once),
        cmocka_unit_test(test_R5_capture_that_also_encloses),
        cmocka_unit_test(test_R5_suicide_move_survives_until_next_move),
        cmocka_unit_test(test_R5_mover_pieces_are_never_checked),
        cmocka_unit_test(test_R6_material_counts),
        cmocka_unit_test(test_R7_three_queens_vs_two_queens),
        cmocka_unit_test(test_R7_three_knights_vs_three_knights_and_king),
        cmocka_unit_test(test_R7_three_knights_vs_two_knights),
        cmocka_unit_test(test_R7_material_vs_blockers_only),
        cmocka_unit_test(test_R7_equal_material_no_captures_is_draw),
        cmocka_unit_test(test_R7_insufficient_three_queens_king_vs_two_knights),
        cmocka_unit_test(test_R7_insufficient_reached_by_a_move),
        cmocka_unit_test(test_R7_move_limit),
        cmocka_unit_test(test_R7_move_limit_after_top_move),
        cmocka_unit_test(test_R7_no_moves),
        cmocka_unit_test(test_R7_order_of_checks),
        cmocka_unit_test(test_R8_flag_without_captures_is_sterile_draw),
        cmocka_unit_test(test_R8_flag_loses_whatever_the_material),
        cmocka_unit_test(test_R8_elo),
        cmocka_unit_test(test_R9_position_strings_round_trip),
        cmocka_unit_test(test_R9_full_move_number_grows_after_top),
        cmocka_unit_test(test_R9_bad_positions_are_refused),
        cmocka_unit_test(test_R9_move_notation),
        cmocka_unit_test(test_R10_fun_zone_forms),
        cmocka_unit_test(test_R10_shuffle_is_the_same_for_both_sides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
