/* test_stratego_bot.c -- Stratego bots: they see only views, play legal
 * moves, sample only positions their view allows, and the strong ones beat
 * the weak. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/ai/bots.h"
#include "../../src/games/stratego/bot.h"
#include "../../src/games/stratego/expect.h"
#include "../../src/base/rng.h"
#include "../../src/base/timer.h"
#include "../../src/games/stratego/stratego.h"
#include "stratego_bot_helpers.h"

static const search_limits no_limits = { .time = { -1, -1 } };

/* A position after `plies` random plies from start `seed`. */
static st_pos random_position(uint64_t seed, int plies)
{
    rng g;
    rng_seed(&g, seed);
    st_pos p;
    st_start_seed(&p, seed);
    for (int i = 0; i < plies; i++) {
        game_move list[ST_MAX_MOVES];
        int n = st_legal(&p, list);
        if (n == 0)
            break;
        st_make(&p, list[rng_below(&g, (uint64_t)n)]);
    }
    return p;
}

static void test_S8_bots_play_legal_moves_from_views(void **state)
{
    (void)state;
    const char *specs[] = { "random", "attacker", "greedy", "level=1", "level=3", "level=6" };
    const game_variant *v = game_variant_find("stratego");
    assert_non_null(v);
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        char err[160];
        bot *b = bot_new(specs[s], 7, err, sizeof err);
        assert_non_null(b);
        assert_int_equal(bot_new_game(b, v, 1000), 0);
        for (uint64_t seed = 0; seed < 6; seed++) {
            st_pos p = random_position(seed * 31 + 5, (int)(seed * 40));
            if (st_over(&p))
                continue;
            st_pos view;
            st_view(&p, p.stm, &view);
            search_limits lim = { .movetime = 5, .time = { -1, -1 } };
            game_move m = bot_move(b, v, &view, &lim, NULL);
            assert_true(is_legal(&p, m));
        }
        bot_free(b);
    }
}

/* Two positions with the same view get the same move from bots seeded
 * alike: nothing but the view reaches them. */
static void test_S8_bot_move_depends_only_on_the_view(void **state)
{
    (void)state;
    st_pos a = random_position(11, 30);
    st_pos b = a;
    /* Swap the ranks of two unmoved Blue pieces of different kinds. */
    int c1 = -1, c2 = -1;
    for (int c = ST_CELL(6, 0); c <= ST_CELL(9, 9) && c2 < 0; c++) {
        uint8_t x = b.sq[c];
        if (!ST_IS_PIECE(x) || ST_SIDE(x) != ST_BLUE || (x & (ST_MOVED | ST_REVEALED)))
            continue;
        if (c1 < 0)
            c1 = c;
        else if (ST_KIND(x) != ST_KIND(b.sq[c1]))
            c2 = c;
    }
    assert_true(c1 >= 0 && c2 >= 0);
    uint8_t t = b.sq[c1];
    b.sq[c1] = b.sq[c2];
    b.sq[c2] = t;
    assert_true(st_pos_ok(&b));
    a.stm = b.stm = ST_RED;
    st_pos va, vb;
    st_view(&a, ST_RED, &va);
    st_view(&b, ST_RED, &vb);
    assert_memory_equal(&va, &vb, sizeof va);
    /* the sampling levels and the strongest (expectimax on the view) */
    for (int level = 5; level <= 6; level++) {
        stbot *x = stbot_new(level, 99), *y = stbot_new(level, 99);
        assert_int_equal(stbot_move(x, &va, &no_limits, NULL), stbot_move(y, &vb, &no_limits, NULL));
        stbot_free(x);
        stbot_free(y);
    }
}

/* S8 through text: a view written by st_format and read back by st_parse
 * (as `citadel uci` reads the view `citadel match` sends an engine) gives
 * the level bot the same belief and the same move as the view st_view
 * makes (as the server's bot gets it): the text carries the losses S5
 * made public. Without the lost field the hidden side's losses are
 * unknown, and the belief of some view differs (the field is what does
 * it). */
static void test_S8_view_read_from_text_plays_as_the_view(void **state)
{
    (void)state;
    static st_belief ba, bb;
    int differs_without = 0, combats = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        st_pos p = random_position(seed * 17 + 3, 60 + (int)seed * 30);
        if (st_over(&p))
            continue;
        st_pos view, read, bare;
        st_view(&p, p.stm, &view);
        for (int k = ST_SPY; k <= ST_FLAG; k++)
            combats += view.lost[p.stm ^ 1][k];
        char text[512];
        st_format(&view, text, sizeof text);
        game_error err = { "" };
        if (st_parse(&read, text, &err) != 0)
            fail_msg("cannot read %s: %s", text, err.msg);
        read.move_limit = view.move_limit;
        assert_memory_equal(&read, &view, sizeof view);
        for (int level = 5; level <= 6; level++) {
            stbot *x = stbot_new(level, seed), *y = stbot_new(level, seed);
            assert_int_equal(stbot_move(x, &view, &no_limits, NULL),
                             stbot_move(y, &read, &no_limits, NULL));
            stbot_free(x);
            stbot_free(y);
        }
        stbot *x = stbot_new(6, seed), *y = stbot_new(6, seed), *z = stbot_new(6, seed);
        assert_int_equal(stbot_belief(x, &view, &ba, NULL), 0);
        assert_int_equal(stbot_belief(y, &read, &bb, NULL), 0);
        assert_memory_equal(&ba, &bb, sizeof ba);
        *strrchr(text, ' ') = 0;  /* the view as text without its lost field */
        assert_int_equal(st_parse(&bare, text, NULL), 0);
        assert_int_equal(stbot_belief(z, &bare, &bb, NULL), 0);
        differs_without += memcmp(&ba, &bb, sizeof ba) != 0;
        stbot_free(x);
        stbot_free(y);
        stbot_free(z);
    }
    assert_true(combats > 0);
    assert_true(differs_without > 0);
}

/* The strongest search (expect.h) weighs a combat with an unknown piece
 * by the belief: its Marshal does not attack a piece that is likelier a
 * Bomb than not, and does attack one it believes is the General (S5: a
 * Bomb beats every attacker but a Miner; the Marshal beats the General). */
static void test_S5_expectimax_weighs_attacks_by_the_belief(void **state)
{
    (void)state;
    st_pos view;
    game_error err = { "" };
    assert_int_equal(st_parse(&view, "9x/10/10/x3x5/O+1~~M+1~~2/2~~2~~2/10/10/10/8BF r 10 - -", &err), 0);
    game_move attack;
    assert_int_equal(st_parse_move(&view, "e6e7", &attack, &err), 0);
    static st_belief bl;
    memset(&bl, 0, sizeof bl);
    bl.pool[ST_BOMB] = 2;
    bl.pool[ST_SCOUT] = 2;
    bl.pool[ST_GENERAL] = 1;
    bl.pool[ST_FLAG] = 1;
    const int e7 = ST_CELL(6, 4), a7 = ST_CELL(6, 0), j10 = ST_CELL(9, 9);
    bl.p[a7][ST_BOMB] = 0.6f;
    bl.p[a7][ST_SCOUT] = 0.4f;
    bl.p[j10][ST_FLAG] = 1;
    bl.p[e7][ST_BOMB] = 0.6f;
    bl.p[e7][ST_SCOUT] = 0.4f;
    game_move m = stx_search(&view, &bl, STX_F_HIDDEN, 0, 3, 0, NULL, NULL);
    assert_true(is_legal(&view, m));
    assert_true(m != attack);
    memset(bl.p[e7], 0, sizeof bl.p[e7]);
    bl.p[e7][ST_GENERAL] = 1;
    assert_int_equal(stx_search(&view, &bl, STX_F_HIDDEN, 0, 3, 0, NULL, NULL), attack);
}

/* Several lines (the analysis board's): with one line the search is
 * stx_search's, move, score and nodes; with three, three different legal
 * moves, best first, the first the one played and scored as reported. */
static void test_several_lines_score_the_best_moves(void **state)
{
    (void)state;
    st_pos view;
    game_error err = { "" };
    assert_int_equal(st_parse(&view, "9x/10/10/x3x5/O+1~~M+1~~2/2~~2~~2/10/10/10/8BF r 10 - -", &err), 0);
    static st_belief bl;
    memset(&bl, 0, sizeof bl);
    bl.pool[ST_BOMB] = 2;
    bl.pool[ST_SCOUT] = 2;
    bl.pool[ST_GENERAL] = 1;
    bl.pool[ST_FLAG] = 1;
    bl.p[ST_CELL(6, 0)][ST_BOMB] = 0.6f;
    bl.p[ST_CELL(6, 0)][ST_SCOUT] = 0.4f;
    bl.p[ST_CELL(9, 9)][ST_FLAG] = 1;
    bl.p[ST_CELL(6, 4)][ST_GENERAL] = 1;
    stx_report one, also, three;
    game_move m = stx_search(&view, &bl, STX_F_HIDDEN, 0, 3, 0, NULL, &one);
    assert_int_equal(stx_search_lines(&view, &bl, STX_F_HIDDEN, 0, 3, 0, NULL, 1, &also), m);
    assert_int_equal(also.score, one.score);
    assert_true(also.nodes == one.nodes);
    assert_int_equal(one.nlines, 1);
    assert_int_equal(one.line[0], m);
    game_move best = stx_search_lines(&view, &bl, STX_F_HIDDEN, 0, 3, 0, NULL, 3, &three);
    assert_int_equal(three.nlines, 3);
    assert_int_equal(three.line[0], best);
    assert_int_equal(three.line_score[0], three.score);
    assert_int_equal(best, m);  /* here the same best move: taking the General */
    for (int i = 0; i < 3; i++) {
        assert_true(is_legal(&view, three.line[i]));
        for (int j = 0; j < i; j++)
            assert_true(three.line[j] != three.line[i]);
        if (i)
            assert_true(three.line_score[i] <= three.line_score[i - 1]);
    }
}

/* Our top three ranks do not attack a piece that never moved and may be a
 * Bomb (S5: a Bomb beats every attacker but a Miner), however likely the
 * belief makes a prize: our Marshal, shown in combat, stays away from a
 * still piece nine times in ten the General (without the rule it attacks).
 * Where such attacks are every move there is,
 * one of them is played (S7: a side that can move must). */
static void test_S5_top_ranks_do_not_attack_a_still_piece_that_may_be_a_bomb(void **state)
{
    (void)state;
    st_pos view;
    game_error err = { "" };
    assert_int_equal(st_parse(&view, "9x/10/10/x3x5/O+1~~M*+1~~2/2~~2~~2/10/10/10/8BF r 10 - -", &err), 0);
    game_move attack;
    assert_int_equal(st_parse_move(&view, "e6e7", &attack, &err), 0);
    static st_belief bl;
    memset(&bl, 0, sizeof bl);
    bl.pool[ST_BOMB] = 2;
    bl.pool[ST_SCOUT] = 2;
    bl.pool[ST_GENERAL] = 1;
    bl.pool[ST_FLAG] = 1;
    const int e7 = ST_CELL(6, 4), a7 = ST_CELL(6, 0), b7 = ST_CELL(6, 1), j10 = ST_CELL(9, 9);
    bl.p[a7][ST_BOMB] = 0.6f;
    bl.p[a7][ST_SCOUT] = 0.4f;
    bl.p[j10][ST_FLAG] = 1;
    bl.p[e7][ST_BOMB] = 0.1f;
    bl.p[e7][ST_GENERAL] = 0.9f;
    game_move m = stx_search(&view, &bl, STX_F_HIDDEN, 0, 3, 0, NULL, NULL);
    assert_true(is_legal(&view, m));
    assert_true(m != attack);

    /* Marshal a6 and General b6 face two still pieces; the Colonels behind
     * them are walled in by our Bombs. */
    assert_int_equal(st_parse(&view, "9x/10/10/xx8/M+G+~~2~~2/C+C+~~2~~2/BB8/10/10/F9 r 10 - -", &err), 0);
    memset(&bl, 0, sizeof bl);
    bl.pool[ST_BOMB] = 2;
    bl.pool[ST_SCOUT] = 2;
    bl.pool[ST_FLAG] = 1;
    bl.p[a7][ST_BOMB] = bl.p[a7][ST_SCOUT] = 0.5f;
    bl.p[b7][ST_BOMB] = bl.p[b7][ST_SCOUT] = 0.5f;
    bl.p[j10][ST_FLAG] = 1;
    game_move list[ST_MAX_MOVES];
    assert_int_equal(st_legal(&view, list), 2);
    m = stx_search(&view, &bl, STX_F_HIDDEN, 0, 3, 0, NULL, NULL);
    assert_true(is_legal(&view, m));
    assert_true(ST_ATTACK(m));
}

/* S7: a piece that can only be a Bomb or the Flag never moves, so it is
 * no threat and no tempo. Here every unknown enemy piece is a Bomb or the
 * Flag (the pool holds nothing else) and only the enemy Marshal moves: the
 * search sends a Miner to the Bombs. (It used to value the "attacks" of
 * those Bombs on a Miner beside them as a draw, and shuffled a Lieutenant
 * instead, to the move limit.) */
static void test_S7_expectimax_knows_bombs_do_not_move(void **state)
{
    (void)state;
    st_pos view;
    game_error err = { "" };
    assert_int_equal(st_parse(&view, "xx1x2N+1xx/x1N+6x/10/G+5m*+2E+/2~~L+E+~~J*+1/2~~2~~2/10/"
                                     "10/B8B/FB1B4B*B r 960 - -", &err), 0);
    static st_belief bl;
    bombs_and_flag(&view, 6, &bl);
    game_move m = stx_search(&view, &bl, STX_F_HIDDEN, 0, 3, 0, NULL, NULL);
    assert_true(is_legal(&view, m));
    assert_int_equal(ST_KIND(view.sq[ST_FROM(m)]), ST_MINER);
}

/* A Flag found by a guess against the odds counts FLAG_GUESS more than the
 * attacker has, not a fixed score: far ahead, a Scout still attacks the
 * last unmoved pieces, each a third the Flag (S5: a Bomb takes the Scout),
 * rather than stand (a one-ply search: deeper, the same attack a move
 * later is worth as much). With a fixed 400 a side this far ahead never
 * looked for the Flag. */
static void test_S5_far_ahead_a_scout_still_looks_for_the_flag(void **state)
{
    (void)state;
    st_pos view;
    game_error err = { "" };
    assert_int_equal(st_parse(&view, "xxx7/1O+8/10/10/2~~2~~e*+1/2~~2~~2/10/10/EEEELLLL2/FB2MG4 r 100 - -",
                              &err), 0);
    static st_belief bl;
    bombs_and_flag(&view, 2, &bl);
    game_move m = stx_search(&view, &bl, STX_F_HIDDEN, 0, 1, 0, NULL, NULL);
    assert_true(is_legal(&view, m));
    assert_true(ST_ATTACK(m));
    assert_int_equal(ST_FROM(m), ST_CELL(8, 1));
}

/* The expectimax's choice on view under bl, one ply deep (a legal move),
 * and its text. */
static game_move depth1_move(const st_pos *view, const st_belief *bl, char text[16])
{
    game_move m = stx_search(view, bl, STX_F_HIDDEN, 0, 1, 0, NULL, NULL);
    assert_true(is_legal(view, m));
    st_format_move(view, m, text, 16);
    return m;
}

/* Our pieces hunt the enemy's shown ones they beat (S5: the higher rank
 * wins): with the enemy General shown four steps from our Marshal, the
 * Marshal steps towards it; while that piece's rank is unknown, the
 * Marshal stays and the piece of ours nearest the likeliest square of the
 * enemy Flag walks towards it instead (a one-ply search). */
static void test_S5_a_piece_hunts_a_shown_weaker_one(void **state)
{
    (void)state;
    static const char *const views[2] = {
        "9x/10/x+9/10/2~~2~~2/2~~2~~2/M9/10/EEEELLLL2/4A4F r 40 - -",  /* unknown, moved */
        "9x/10/g*9/10/2~~2~~2/2~~2~~2/M9/10/EEEELLLL2/4A4F r 40 - -",  /* General shown */
    };
    for (int shown = 0; shown < 2; shown++) {
        st_pos view = parse_view(views[shown]);
        static st_belief bl;
        memset(&bl, 0, sizeof bl);
        bl.pool[ST_GENERAL] = bl.pool[ST_MARSHAL] = bl.pool[ST_FLAG] = 1;
        const int a8 = ST_CELL(7, 0), j10 = ST_CELL(9, 9);
        bl.p[a8][ST_GENERAL] = 0.5f;
        bl.p[a8][ST_MARSHAL] = 0.5f;
        bl.p[j10][ST_FLAG] = 1;
        char text[16];
        game_move m = depth1_move(&view, &bl, text);
        if (shown)
            assert_string_equal(text, "a4a5");
        else
            assert_int_not_equal(ST_KIND(view.sq[ST_FROM(m)]), ST_MARSHAL);
    }
}

/* An unknown piece that moved is prey as well for our pieces above every
 * rank the enemy may still hide: our Marshal goes after it once the enemy
 * Marshal and General are gone, not while the enemy Marshal may be it. */
static void test_S5_a_piece_hunts_a_moved_unknown_it_surely_beats(void **state)
{
    (void)state;
    for (int marshal_left = 0; marshal_left < 2; marshal_left++) {
        st_pos view = parse_view("9x/10/x+9/10/2~~2~~2/2~~2~~2/M9/10/EEEELLLL2/4A4F r 40 - -");
        static st_belief bl;
        memset(&bl, 0, sizeof bl);
        bl.pool[ST_COLONEL] = bl.pool[ST_FLAG] = 1;
        bl.pool[ST_MARSHAL] = marshal_left;
        const int a8 = ST_CELL(7, 0), j10 = ST_CELL(9, 9);
        bl.p[a8][ST_COLONEL] = marshal_left ? 0.9f : 1.0f;
        bl.p[a8][ST_MARSHAL] = marshal_left ? 0.1f : 0.0f;
        bl.p[j10][ST_FLAG] = 1;
        char text[16];
        game_move m = depth1_move(&view, &bl, text);
        if (marshal_left)
            assert_int_not_equal(ST_KIND(view.sq[ST_FROM(m)]), ST_MARSHAL);
        else
            assert_string_equal(text, "a4a5");
    }
}

/* depth1_move on a view whose unknown enemy pieces are two Bombs and the
 * Flag. */
static game_move bombs_view_move(const char *text_view, char text[16])
{
    st_pos view = parse_view(text_view);
    static st_belief bl;
    bombs_and_flag(&view, 2, &bl);
    return depth1_move(&view, &bl, text);
}

/* S5, equal ranks both go: a side well ahead trades its shown General for
 * the enemy's, since its lead counts for more on an emptier board; the
 * same General, far behind, steps away from the trade instead (a one-ply
 * search, whose quiescence sees the enemy's reply). */
static void test_S5_ahead_trade_equal_pieces_behind_avoid_the_trade(void **state)
{
    (void)state;
    static const char *const views[2] = {
        "xxx7/o*o*o*o*o*o*o*o*2/10/10/2~~g*+1~~2/2~~G*+1~~2/10/10/B3EEEE2/FB2AAAA2 r 200 - -",  /* ahead */
        "xxx7/e*e*e*e*l*l*l*l*a*a*/10/10/2~~g*+1~~2/2~~G*+1~~2/10/10/10/FB8 r 200 - -",   /* behind */
    };
    char text[16];
    bombs_view_move(views[0], text);
    assert_string_equal(text, "e5e6");
    st_pos view = parse_view(views[1]);
    game_move m = bombs_view_move(views[1], text);
    assert_int_equal(ST_KIND(view.sq[ST_FROM(m)]), ST_GENERAL);
    assert_false(ST_ATTACK(m));
}

/* S7, the move limit draws: well ahead, our nearest Miner walks to the
 * likeliest square of the enemy Flag, though another piece is nearer it;
 * behind, the nearer piece goes (a one-ply search). */
static void test_S7_ahead_a_miner_walks_to_the_enemy_flag(void **state)
{
    (void)state;
    static const char *const views[2] = {
        "xxx7/o*o*o*o*o*o*o*o*2/10/10/2~~2~~2/E+1~~2~~2/10/10/N3EELLLL/FB2AAAA2 r 200 - -",     /* ahead */
        "xxx7/e*e*e*e*l*l*l*l*a*a*/10/10/2~~2~~2/E+1~~2~~2/10/10/N9/FB8 r 200 - -",       /* behind */
    };
    char text[16];
    bombs_view_move(views[0], text);
    assert_string_equal(text, "a2a3");
    bombs_view_move(views[1], text);
    assert_string_equal(text, "a5a6");
}

/* What a player may learn from how the enemy moves (S6's record of the
 * last move, public): an unknown piece that keeps coming towards our Flag
 * is believed likelier a Miner than one that moved elsewhere, though the
 * counts alone give both the same chance (two Miners among five movers). */
static void test_S6_a_piece_that_keeps_coming_to_our_flag_is_likelier_a_miner(void **state)
{
    (void)state;
    st_pos pos;
    game_error err = { "" };
    assert_int_equal(st_parse(&pos, "fb1n1l1a2/10/9e/10/2~~n+1~~2/2~~2~~2/10/1E8/8L1/4F5 r 0 - -",
                              &err), 0);
    static const char *const line[] = { "b3b2", "e6e5", "b2b1", "e5e4", "i2i3",
                                        "j8j7", "i3i4", "e4e3" };
    stbot *b = stbot_new(6, 5);
    static st_belief bel;
    st_pos view;
    for (size_t i = 0; i < sizeof line / sizeof *line; i++) {
        if (pos.stm == ST_RED) {
            st_view(&pos, ST_RED, &view);
            assert_int_equal(stbot_belief(b, &view, &bel, NULL), 0);
        }
        game_move m;
        assert_int_equal(st_parse_move(&pos, line[i], &m, &err), 0);
        st_make(&pos, m);
    }
    st_view(&pos, ST_RED, &view);
    static st_belief counts;
    assert_int_equal(stbot_belief(b, &view, &bel, &counts), 0);
    const int walker = ST_CELL(2, 4), other = ST_CELL(6, 9);
    assert_true(counts.p[walker][ST_MINER] > 0.39f && counts.p[walker][ST_MINER] < 0.41f);
    assert_true(counts.p[other][ST_MINER] > 0.39f && counts.p[other][ST_MINER] < 0.41f);
    assert_true(bel.p[walker][ST_MINER] > 0.55f);
    assert_true(bel.p[walker][ST_MINER] > bel.p[other][ST_MINER] + 0.2f);
    stbot_free(b);
}

/* The belief: samples keep the view's known pieces, put no Bomb or Flag
 * on a piece that moved, a Scout on every piece that ran, exactly one Flag,
 * and never more of a kind than an army has. */
static void test_S8_samples_respect_the_view(void **state)
{
    (void)state;
    stbot *b = stbot_new(6, 3);
    int ran_seen = 0;
    for (uint64_t seed = 0; seed < 40; seed++) {
        st_pos p = random_position(seed, (int)(seed * 7 % 300));
        if (st_over(&p))
            continue;
        st_pos view;
        st_view(&p, p.stm, &view);
        for (int k = 0; k < 5; k++) {
            st_pos s;
            assert_int_equal(stbot_sample(b, &view, &s), 0);
            assert_true(st_pos_ok(&s));
            int flags = 0;
            for (int c = 0; c < ST_CELLS; c++) {
                uint8_t x = view.sq[c], y = s.sq[c];
                if (!ST_IS_PIECE(x) || ST_KIND(x) != ST_UNKNOWN) {
                    assert_int_equal(y, x);
                    continue;
                }
                int kind = ST_KIND(y);
                assert_int_equal(y & ~15u, x & ~15u);
                assert_true(kind >= ST_SPY && kind <= ST_FLAG);
                if (x & ST_MOVED)
                    assert_true(kind != ST_BOMB && kind != ST_FLAG);
                if (x & ST_SCOUTED) {
                    assert_int_equal(kind, ST_SCOUT);
                    ran_seen++;
                }
                flags += kind == ST_FLAG;
            }
            assert_int_equal(flags, 1);
        }
    }
    assert_true(ran_seen > 0);
    stbot_free(b);
}

static void test_S7_bot_takes_the_flag_it_can_deduce(void **state)
{
    (void)state;
    /* Blue's only unmoved piece is on j10 next to Red's Miner: it must be
     * the Flag (the others have moved). */
    st_pos p;
    game_error err = { "" };
    assert_int_equal(st_parse(&p, "9x/4x+4N+/10/10/2~~2~~2/2~~2~~2/10/10/E+9/F9 r 40 - -",
                              &err), 0);
    for (int level = 2; level <= STB_LEVELS; level++) {
        stbot *b = stbot_new(level, (uint64_t)level);
        game_move m = stbot_move(b, &p, &no_limits, NULL);
        char text[16];
        st_format_move(&p, m, text, sizeof text);
        assert_string_equal(text, "j9j10");
        stbot_free(b);
    }
}

/* Level 5 is level 6's search for a fixed 20,000 nodes a move: a minute
 * to think changes neither its work nor its move, so that it plays alike
 * on a fast machine and a slow one (docs/stratego.md). */
static void test_level5_works_a_fixed_amount(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        st_pos p = random_position(seed, 30), v;
        st_view(&p, p.stm, &v);
        search_limits minute = no_limits;
        minute.movetime = 60000;
        stbot *x = stbot_new(5, seed), *y = stbot_new(5, seed);
        game_move a = stbot_move(x, &v, &no_limits, NULL);
        game_move b = stbot_move(y, &v, &minute, NULL);
        assert_int_equal(a, b);
        stx_report ra, rb;
        assert_int_equal(stbot_last_report(x, &ra), 0);
        assert_int_equal(stbot_last_report(y, &rb), 0);
        assert_true(rb.nodes > 1000);
        assert_true(rb.nodes <= 20000 + 1024);
        assert_true(ra.nodes == rb.nodes);
        stbot_free(x);
        stbot_free(y);
    }
}

/* The strongest level uses the time it is given: it thinks for 95% of a
 * move's time (docs/stratego.md), not less, where its search could go on
 * (an early start, nothing decided). Only the lower bound is checked: a
 * busy machine makes a move late, never early. */
static void test_level6_uses_nearly_all_its_time(void **state)
{
    (void)state;
    st_pos p, v;
    st_start_seed(&p, 9);
    st_view(&p, ST_RED, &v);
    search_limits lim = { .movetime = 60, .time = { -1, -1 } };
    stbot *b = stbot_new(6, 2);
    for (int i = 0; i < 3; i++) {
        uint64_t t0 = timer_ns();
        game_move m = stbot_move(b, &v, &lim, NULL);
        uint64_t ms = (timer_ns() - t0) / 1000000u;
        assert_true(is_legal(&v, m));
        if (ms < 60 * 95 / 100)
            fail_msg("level 6 thought %llu ms of 60", (unsigned long long)ms);
    }
    stbot_free(b);
}

/* Given a position that is not the mover's view (its own ranks hidden),
 * the player still answers with one of that position's moves. */
static void test_S8_wrong_view_still_answers(void **state)
{
    (void)state;
    st_pos p, v;
    st_start_seed(&p, 4);
    st_view(&p, ST_BLUE, &v);  /* Red to move, Red's ranks unknown */
    stbot *b = stbot_new(6, 1);
    game_move m = stbot_move(b, &v, &no_limits, NULL);
    assert_true(is_legal(&v, m));
    stbot_free(b);
}

static void test_attacker_attacks_when_it_can(void **state)
{
    (void)state;
    const game_variant *v = game_variant_find("stratego");
    char err[160];
    bot *b = bot_new("attacker", 1, err, sizeof err);
    assert_non_null(b);
    st_pos p;
    assert_int_equal(st_parse(&p, "9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 0 - -", NULL), 0);
    p.sq[ST_CELL(4, 4)] = ST_PIECE(ST_RED, ST_SERGEANT) | ST_MOVED;
    p.sq[ST_CELL(5, 4)] = ST_PIECE(ST_BLUE, ST_MINER) | ST_MOVED;
    p.sq[ST_CELL(1, 8)] = ST_PIECE(ST_RED, ST_SCOUT);
    st_pos view;
    st_view(&p, ST_RED, &view);
    for (int i = 0; i < 20; i++) {
        game_move m = bot_move(b, v, &view, &no_limits, NULL);
        assert_int_equal(ST_ATTACK(m), 1);
        assert_int_equal(ST_TO(m), ST_CELL(5, 4));
    }
    bot_free(b);
}

/* Plays a game between two bots through views; returns the winner or -1. */
static int play(bot *red, bot *blue, uint64_t seed, int max_plies)
{
    const game_variant *v = game_variant_find("stratego");
    st_pos p, view;
    st_start_seed(&p, seed);
    bot_new_game(red, v, 1000);
    bot_new_game(blue, v, 1000);
    search_limits lim = { .time = { -1, -1 } };
    for (int ply = 0; ply < max_plies; ply++) {
        game_result r = st_result(&p);
        if (r.over)
            return r.winner;
        st_view(&p, p.stm, &view);
        game_move m = bot_move(p.stm == ST_RED ? red : blue, v, &view, &lim, NULL);
        assert_true(is_legal(&p, m));
        st_make(&p, m);
    }
    return -1;
}

static void test_level3_beats_random(void **state)
{
    (void)state;
    char err[160];
    int wins = 0;
    for (int g = 0; g < 4; g++) {
        bot *strong = bot_new("level=3", (uint64_t)g, err, sizeof err);
        bot *weak = bot_new("random", (uint64_t)g + 100, err, sizeof err);
        int strong_side = g % 2;
        int w = strong_side == ST_RED ? play(strong, weak, (uint64_t)g * 13, 1000)
                                      : play(weak, strong, (uint64_t)g * 13, 1000);
        wins += w == strong_side;
        bot_free(strong);
        bot_free(weak);
    }
    assert_true(wins >= 3);
}

/* Our Marshal, shown in combat, does not take a shown Lieutenant next to
 * an unknown piece that never moved while the enemy Spy may be it (S5:
 * the Spy takes the Marshal it attacks): the search alone takes it (a
 * tenth of a Marshal risked, if the piece moves at all, for a Lieutenant),
 * STX_F_MARSHAL_SAFE does not; once the Spy is gone, it does. */
static void test_S5_a_shown_marshal_keeps_away_from_a_possible_spy(void **state)
{
    (void)state;
    st_pos view = parse_view("9x/10/10/4x5/2~~l*+1~~2/2~~M*+1~~2/10/10/EEEELLLL2/8BF r 40 - -");
    game_move take;
    game_error err = { "" };
    assert_int_equal(st_parse_move(&view, "e5e6", &take, &err), 0);
    static st_belief bl;
    memset(&bl, 0, sizeof bl);
    const int e7 = ST_CELL(6, 4), j10 = ST_CELL(9, 9);
    bl.pool[ST_SPY] = bl.pool[ST_SERGEANT] = bl.pool[ST_BOMB] = bl.pool[ST_FLAG] = 1;
    bl.p[e7][ST_SPY] = 0.05f;
    bl.p[e7][ST_SERGEANT] = 0.45f;
    bl.p[e7][ST_BOMB] = 0.5f;
    bl.p[j10][ST_FLAG] = 1;
    assert_int_equal(stx_search(&view, &bl, STX_F_HIDDEN, 0, 3, 0, NULL, NULL), take);
    game_move m = stx_search(&view, &bl, STX_F_HIDDEN | STX_F_MARSHAL_SAFE, 0, 3, 0, NULL, NULL);
    assert_true(is_legal(&view, m));
    assert_true(m != take);
    /* the Spy gone: the e7 piece is a Bomb */
    bl.pool[ST_SPY] = 0;
    bl.p[e7][ST_SPY] = 0;
    bl.p[e7][ST_SERGEANT] = 0.5f;
    assert_int_equal(stx_search(&view, &bl, STX_F_HIDDEN | STX_F_MARSHAL_SAFE, 0, 3, 0, NULL, NULL),
                     take);
}

/* With STX_F_FEW_PROBES no piece but a Miner attacks an unknown piece that
 * never moved and is unlikely the Flag (S5: a Bomb takes any other
 * attacker): a Scout that runs into a still piece without it (a fourth
 * the Flag) stays out with it; a Miner still may. */
static void test_S5_few_probes_of_still_pieces(void **state)
{
    (void)state;
    st_pos view = parse_view("xxx7/1O+8/10/10/2~~2~~e*+1/2~~2~~2/10/10/EEEELLLL2/FB2MG4 r 100 - -");
    static st_belief bl;
    bombs_and_flag(&view, 3, &bl);
    game_move m = stx_search(&view, &bl, STX_F_HIDDEN, 0, 1, 0, NULL, NULL);
    assert_true(is_legal(&view, m));
    assert_true(ST_ATTACK(m));
    assert_int_equal(ST_FROM(m), ST_CELL(8, 1));
    m = stx_search(&view, &bl, STX_F_HIDDEN | STX_F_FEW_PROBES, 0, 1, 0, NULL, NULL);
    assert_true(is_legal(&view, m));
    assert_false(ST_ATTACK(m) && !(view.sq[ST_TO(m)] & ST_MOVED));
    /* a Miner in the Scout's place may attack */
    view = parse_view("xxx7/1N+8/10/10/2~~2~~e*+1/2~~2~~2/10/10/EEEELLLL2/FB2MG4 r 100 - -");
    bombs_and_flag(&view, 3, &bl);
    m = stx_search(&view, &bl, STX_F_HIDDEN | STX_F_FEW_PROBES, 0, 1, 0, NULL, NULL);
    assert_true(is_legal(&view, m));
    assert_true(ST_ATTACK(m));
    assert_int_equal(ST_FROM(m), ST_CELL(8, 1));
}

/* With STX_F_APPROACH our shown Captain does not attack an unknown piece
 * that has just come next to it (S6: the enemy's last move is public; the
 * enemy knew our Captain's rank when it came): the search alone attacks
 * (seven in ten a Lieutenant), the rule steps aside. The same piece when
 * another moved last (it did not just come), or next to our Colonel, is
 * attacked with the rule too, and a piece that ran there (a Scout). */
static void test_S6_no_attack_on_a_piece_that_came_to_a_shown_one(void **state)
{
    (void)state;
    static st_belief bl;
    const int e5 = ST_CELL(4, 4), e4 = ST_CELL(3, 4);
    two_kinds_and_flag(&bl, e5, ST_LIEUTENANT, 0.7f, ST_COLONEL, 0.3f);
    const unsigned f = STX_F_HIDDEN | STX_F_APPROACH;
    /* came e6e5, next to our Captain on e4 */
    st_pos view = parse_view("9x/10/10/10/2~~2~~2/2~~x+1~~2/4A*+5/10/10/FB8 r 41 - e6e5:1");
    game_move m = stx_search(&view, &bl, STX_F_HIDDEN, 0, 2, 0, NULL, NULL);
    assert_true(ST_ATTACK(m));
    assert_int_equal(ST_TO(m), e5);
    m = stx_search(&view, &bl, f, 0, 2, 0, NULL, NULL);
    assert_true(is_legal(&view, m));
    assert_false(ST_ATTACK(m));
    assert_int_equal(ST_FROM(m), e4);  /* it steps aside */
    /* another piece moved last (a9a8): ours may have come to it */
    const int a8 = ST_CELL(7, 0);
    bl.pool[ST_SERGEANT] = 1;
    bl.p[a8][ST_SERGEANT] = 1;
    view = parse_view("9x/10/x+9/10/2~~2~~2/2~~x+1~~2/4A*+5/10/10/FB8 r 41 - a9a8:1");
    m = stx_search(&view, &bl, f, 0, 2, 0, NULL, NULL);
    assert_true(ST_ATTACK(m));
    assert_int_equal(ST_TO(m), e5);
    /* our Colonel in the Captain's place attacks */
    view = parse_view("9x/10/10/10/2~~2~~2/2~~x+1~~2/4C*+5/10/10/FB8 r 41 - e6e5:1");
    m = stx_search(&view, &bl, f, 0, 2, 0, NULL, NULL);
    assert_true(ST_ATTACK(m));
    assert_int_equal(ST_TO(m), e5);
    /* a piece that ran there (e9e5) is a Scout: our Captain takes it */
    bl.pool[ST_SCOUT] = 1;
    view = parse_view("9x/10/10/10/2~~2~~2/2~~x^1~~2/4A*+5/10/10/FB8 r 41 - e9e5:1");
    m = stx_search(&view, &bl, f, 0, 2, 0, NULL, NULL);
    assert_true(ST_ATTACK(m));
    assert_int_equal(ST_TO(m), e5);
}

/* With STX_F_OWN_WORTH an unknown enemy attacker decides as its own kind,
 * each choice valued with it as that kind (S5: a Major takes a Captain).
 * Our shown Captain, walled in by our Bombs, stands next to an unknown
 * mover that came to it, even odds the Major or the Marshal. Without the
 * feature the Major holds back: it would be shown as a Major where we
 * expect half a Marshal of it, which the line as it stands counts as its
 * loss; and its holding back is valued as if it were that half Marshal.
 * With it, the Major takes the Captain, and the world where it is the
 * Major counts it as a Major: the root's score is higher by what our
 * expectation overstated of it, less the Captain, in half the worlds. */
static void test_S5_an_unknown_attacker_decides_as_its_own_kind(void **state)
{
    (void)state;
    static st_belief bl;
    const int e5 = ST_CELL(4, 4), j1 = ST_CELL(0, 9);
    two_kinds_and_flag(&bl, e5, ST_MAJOR, 0.5f, ST_MARSHAL, 0.5f);
    /* STX_F_APPROACH keeps our Captain from attacking the piece that came:
     * the Sergeant's moves are the root's only ones */
    const unsigned f = STX_F_HIDDEN | STX_F_APPROACH;
    st_pos view = parse_view("9x/10/10/10/2~~2~~2/2~~x+1~~2/3BA*+B4/4B5/B9/FB7E r 41 - e6e5:1");
    stx_report off, on;
    game_move m = stx_search(&view, &bl, f, 0, 2, 0, NULL, &off);
    assert_int_equal(ST_FROM(m), j1);
    m = stx_search(&view, &bl, f | STX_F_OWN_WORTH, 0, 2, 0, NULL, &on);
    assert_int_equal(ST_FROM(m), j1);
    assert_true(on.score > off.score + 30);
}

/* With STX_F_GUARD, while the enemy may have a Miner, our nearest piece
 * that beats one (S5: Sergeant to Colonel) walks back towards our Flag
 * (a1, walled in by Bombs: a Miner's way through them, j3 to i3 or j2) rather than
 * towards the likeliest square of the enemy Flag (a one-ply search);
 * without it, or once the enemy has no Miner, it walks away. */
static void test_S5_a_guard_stays_near_our_flag(void **state)
{
    (void)state;
    st_pos view = parse_view("9x/10/10/10/2~~2~~2/2~~2~~2/10/9E/B9/FB8 r 40 - -");
    static st_belief bl;
    memset(&bl, 0, sizeof bl);
    const int j10 = ST_CELL(9, 9), j3 = ST_CELL(2, 9), i3 = ST_CELL(2, 8), j2 = ST_CELL(1, 9);
    bl.pool[ST_MINER] = bl.pool[ST_FLAG] = 1;
    bl.p[j10][ST_FLAG] = 0.5f;
    bl.p[j10][ST_MINER] = 0.5f;
    char text[16];
    game_move m = depth1_move(&view, &bl, text);
    assert_int_equal(ST_FROM(m), j3);
    assert_true(ST_TO(m) != i3 && ST_TO(m) != j2);
    m = stx_search(&view, &bl, STX_F_HIDDEN | STX_F_GUARD, 0, 1, 0, NULL, NULL);
    assert_true(is_legal(&view, m));
    assert_true(ST_TO(m) == i3 || ST_TO(m) == j2);
    bl.pool[ST_MINER] = 0;
    bl.p[j10][ST_FLAG] = 1;
    bl.p[j10][ST_MINER] = 0;
    m = stx_search(&view, &bl, STX_F_HIDDEN | STX_F_GUARD, 0, 1, 0, NULL, NULL);
    assert_true(is_legal(&view, m));
    assert_true(ST_TO(m) != i3 && ST_TO(m) != j2);
}

/* Plays `line` from the position `text`; a bot of `features` reads every
 * view of Red's on the way (learning as in play); bel gets the belief of
 * Red's last view. */

/* S6 (the enemy's moves are public): with STB_F_MEMORY, an enemy piece
 * that walked up to our shown General, and on past it, is believed likelier
 * a General or the Marshal than the counts say, though it no longer stands
 * next to it; one that stepped away from our shown Colonel when the
 * Colonel came up to it, likelier weaker than a Colonel. */
static void test_S6_the_belief_remembers_what_a_piece_did_not_fear_and_feared(void **state)
{
    (void)state;
    static st_belief plain, mem;
    const unsigned with = STB_F_LEVELS | STB_F_MEMORY, without = STB_F_LEVELS & ~STB_F_MEMORY;
    static const char *const past[] = { "i1i2", "e6e5", "i2i3", "e5e4", "i3i4", "e4f4" };
    const char *a = "fbbb6/l+l+a+a+c+j+s+3/10/10/2~~m+1~~2/2~~2~~2/10/4G*5/10/F7L1 r 0 - -";
    believe_after(a, past, 6, without, &plain);
    believe_after(a, past, 6, with, &mem);
    const int f4 = ST_CELL(3, 5);
    assert_true(chance_of(&mem, f4, ST_GENERAL, ST_MARSHAL) >
                chance_of(&plain, f4, ST_GENERAL, ST_MARSHAL) + 0.08f);
    static const char *const fled[] = { "e3e4", "e5f5" };
    const char *b = "fbbb6/l+l+a+a+c+j+s+3/10/10/2~~2~~2/2~~a+1~~2/10/4C*5/10/F7L1 r 0 - -";
    believe_after(b, fled, 2, without, &plain);
    believe_after(b, fled, 2, with, &mem);
    const int f5 = ST_CELL(4, 5);
    assert_true(chance_of(&mem, f5, ST_SPY, ST_MAJOR) > chance_of(&plain, f5, ST_SPY, ST_MAJOR) + 0.03f);
}

/* With STX_F_STILL our pieces that never moved are worth more (to the
 * enemy each may be a Bomb or the Flag): where stepping the unmoved
 * Lieutenant on j4 towards the enemy Flag gains a little, a one-ply
 * search moves the Lieutenant that has moved already instead. */
static void test_S5_still_pieces_stay_still(void **state)
{
    (void)state;
    st_pos view = parse_view("9x/10/10/10/2~~2~~2/2~~2~~2/9L/10/10/FL+8 r 40 - -");
    static st_belief bl;
    const int j4 = ST_CELL(3, 9), b1 = ST_CELL(0, 1);
    only_flag_at(&bl, ST_CELL(9, 9));
    assert_int_equal(ST_FROM(searched(&view, &bl, STX_F_HIDDEN, 1)), j4);
    assert_int_equal(ST_FROM(searched(&view, &bl, STX_F_HIDDEN | STX_F_STILL, 1)), b1);
}

/* With STX_F_SPY, while the enemy Marshal lives, our Spy is worth more
 * (it alone takes a Marshal, S5): the enemy's shown Majors threaten our
 * Spy and our Captain at once; a two-ply search saves the Captain, worth
 * more by the ranks, without it, and the Spy with it. */
static void test_S5_the_spy_is_kept_while_the_enemy_marshal_lives(void **state)
{
    (void)state;
    st_pos view = parse_view("4m*+4x/10/10/10/2~~2~~2/2~~2~~2/10/10/j*+8j*+/S+3F4A+ r 40 - -");
    static st_belief bl;
    const int a1 = ST_CELL(0, 0), j1 = ST_CELL(0, 9);
    only_flag_at(&bl, ST_CELL(9, 9));
    assert_int_equal(ST_FROM(searched(&view, &bl, STX_F_HIDDEN, 2)), j1);
    assert_int_equal(ST_FROM(searched(&view, &bl, STX_F_HIDDEN | STX_F_SPY, 2)), a1);
}

/* With STX_F_HIDE_MORE our Colonel, not yet shown (S5: a rank is shown
 * only in combat), is worth more while hidden: it takes a moved piece the
 * belief holds to be a Lieutenant without it, and keeps its rank hidden
 * with it (a one-ply search). */
static void test_S5_a_hidden_colonel_keeps_its_rank_for_more_than_a_lieutenant(void **state)
{
    (void)state;
    st_pos view = parse_view("9x/x+x+x+x+x+x+x+x+x+1/10/10/2~~2~~2/2~~2~~2/10/4x+5/4C5/F9 r 40 - -");
    static st_belief bl;
    const int e3 = ST_CELL(2, 4);
    only_flag_at(&bl, ST_CELL(9, 9));
    bl.pool[ST_LIEUTENANT] = 1;
    bl.pool[ST_SERGEANT] = 9;
    for (int f = 0; f < 9; f++)
        bl.p[ST_CELL(8, f)][ST_SERGEANT] = 1;  /* the rest of its army, far off */
    bl.p[e3][ST_LIEUTENANT] = 1;
    char text[16];
    depth1_move(&view, &bl, text);
    assert_string_equal(text, "e2e3");
    assert_false(ST_ATTACK(searched(&view, &bl, STX_F_HIDDEN | STX_F_HIDE_MORE, 1)));
}

/* With STB_F_PROTECT, an enemy piece standing next to one of its own
 * that our shown Colonel could take (its Lieutenant, shown) is believed
 * likelier a General or the Marshal, guarding the bait (the enemy knows
 * both ranks: S5, a rank once shown stays known). */
static void test_S5_a_piece_beside_a_bait_is_believed_its_guard(void **state)
{
    (void)state;
    static const char *const none[] = { NULL };
    static st_belief plain, guard;
    const char *a = "fbbb6/l+l+a+a+c+j+s+3/10/10/2~~2~~2/2~~l*+m+~~2/4C*+5/10/10/F7L1 r 40 - -";
    believe_after(a, none, 0, STB_F_LEVELS & ~STB_F_PROTECT, &plain);
    believe_after(a, none, 0, STB_F_LEVELS | STB_F_PROTECT, &guard);
    const int f5 = ST_CELL(4, 5), a9 = ST_CELL(8, 0);
    assert_true(chance_of(&guard, f5, ST_GENERAL, ST_MARSHAL) >
                chance_of(&plain, f5, ST_GENERAL, ST_MARSHAL) + 0.1f);
    /* a piece far from any bait is read as before */
    assert_true(chance_of(&guard, a9, ST_GENERAL, ST_MARSHAL) <
                chance_of(&plain, a9, ST_GENERAL, ST_MARSHAL) + 0.05f);
}

/* With STX_F_DOMINANT an enemy mover whose rank we see and that none of
 * ours can take costs half its worth: with our Spy gone, the enemy's
 * shown Marshal beside our Marshal (moved, not yet shown) is traded for
 * it (S5: both are removed), though our hidden Marshal is worth more than
 * its shown one (STX_F_HIDDEN); without the feature it is not. With our
 * Spy on the board the enemy Marshal can be taken, and no trade either
 * (one-ply searches). */
static void test_S5_a_marshal_none_of_ours_can_take_is_traded(void **state)
{
    (void)state;
    static st_belief bl;
    const int e4 = ST_CELL(3, 4), e5 = ST_CELL(4, 4);
    st_pos view = parse_view("xxx7/10/10/10/2~~2~~2/2~~m*+1~~2/4M+5/10/10/EEEELLLL1F r 100 - -");
    bombs_and_flag(&view, 2, &bl);
    assert_int_equal(ST_KIND(view.sq[e5]), ST_MARSHAL);
    game_move m = searched(&view, &bl, STX_F_HIDDEN | STX_F_DOMINANT, 1);
    assert_true(ST_ATTACK(m) && ST_FROM(m) == e4 && ST_TO(m) == e5);
    m = searched(&view, &bl, STX_F_HIDDEN, 1);
    assert_false(ST_ATTACK(m) && ST_TO(m) == e5);
    view = parse_view("xxx7/10/10/10/2~~2~~2/2~~m*+1~~2/4M+5/10/10/EEEELLLS1F r 100 - -");
    m = searched(&view, &bl, STX_F_HIDDEN | STX_F_DOMINANT, 1);
    assert_false(ST_ATTACK(m) && ST_TO(m) == e5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_S8_bots_play_legal_moves_from_views),
        cmocka_unit_test(test_S8_bot_move_depends_only_on_the_view),
        cmocka_unit_test(test_S8_view_read_from_text_plays_as_the_view),
        cmocka_unit_test(test_S8_samples_respect_the_view),
        cmocka_unit_test(test_S7_bot_takes_the_flag_it_can_deduce),
        cmocka_unit_test(test_S5_expectimax_weighs_attacks_by_the_belief),
        cmocka_unit_test(test_several_lines_score_the_best_moves),
        cmocka_unit_test(test_S5_top_ranks_do_not_attack_a_still_piece_that_may_be_a_bomb),
        cmocka_unit_test(test_S7_expectimax_knows_bombs_do_not_move),
        cmocka_unit_test(test_S5_far_ahead_a_scout_still_looks_for_the_flag),
        cmocka_unit_test(test_S5_a_piece_hunts_a_shown_weaker_one),
        cmocka_unit_test(test_S5_a_piece_hunts_a_moved_unknown_it_surely_beats),
        cmocka_unit_test(test_S5_ahead_trade_equal_pieces_behind_avoid_the_trade),
        cmocka_unit_test(test_S7_ahead_a_miner_walks_to_the_enemy_flag),
        cmocka_unit_test(test_S6_a_piece_that_keeps_coming_to_our_flag_is_likelier_a_miner),
        cmocka_unit_test(test_S8_wrong_view_still_answers),
        cmocka_unit_test(test_level5_works_a_fixed_amount),
        cmocka_unit_test(test_level6_uses_nearly_all_its_time),
        cmocka_unit_test(test_attacker_attacks_when_it_can),
        cmocka_unit_test(test_level3_beats_random),
        cmocka_unit_test(test_S5_a_shown_marshal_keeps_away_from_a_possible_spy),
        cmocka_unit_test(test_S5_few_probes_of_still_pieces),
        cmocka_unit_test(test_S6_no_attack_on_a_piece_that_came_to_a_shown_one),
        cmocka_unit_test(test_S5_an_unknown_attacker_decides_as_its_own_kind),
        cmocka_unit_test(test_S5_a_guard_stays_near_our_flag),
        cmocka_unit_test(test_S6_the_belief_remembers_what_a_piece_did_not_fear_and_feared),
        cmocka_unit_test(test_S5_still_pieces_stay_still),
        cmocka_unit_test(test_S5_the_spy_is_kept_while_the_enemy_marshal_lives),
        cmocka_unit_test(test_S5_a_hidden_colonel_keeps_its_rank_for_more_than_a_lieutenant),
        cmocka_unit_test(test_S5_a_piece_beside_a_bait_is_believed_its_guard),
        cmocka_unit_test(test_S5_a_marshal_none_of_ours_can_take_is_traded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
