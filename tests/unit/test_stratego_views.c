/* test_stratego_views.c -- what each player sees (S8 of rules/stratego.md)
 * and the notation: positions, views with their losses (S5), moves, and
 * the strings the reader refuses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/base/rng.h"
#include "../../src/games/stratego/stratego.h"
#include "stratego_helpers.h"

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


int main(void)
{
    const struct CMUnitTest tests[] = {
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
        cmocka_unit_test(test_S4_attack_generator_matches_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
