/* test_ab_material.c -- Rampart's reference opponent `ab-material`
 * (src/games/rampart/ab_material.h), through the bot factory and directly.
 *
 * What must hold: it is listed for Rampart only, never offered; it takes
 * material that is free, plays a win in one and a short forced win; every
 * move it gives is legal; depth, node and time limits and the stop flag
 * end its search; and a finished fixed-depth search scores exactly what a
 * plain minimax over ref_rampart.h (the independent rules of
 * test_crosscheck.c) and the same material values scores, the move it
 * plays included.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <cmocka.h>

#include "../../src/ai/bots.h"
#include "../../src/base/rng.h"
#include "../../src/base/timer.h"
#include "../../src/games/rampart/ab_material.h"
#include "ref_rampart.h"

/* Bottom to move; c3c5 takes the Knight and wins at once (R7.2). */
#define FREE_WIN "4q/5/5/5/2n2/5/2Q2/5/K4 b 1"
/* Bottom to move; c3c5 takes the Knight, and the game goes on. */
#define FREE_CAPTURE "4q/4k/5/5/2n2/5/2Q2/N4/K4 b 1"
#define FREE_CAPTURE_XL "6q/6k/7/7/3n3/7/3Q3/N6/K6 b 1"
/* Bottom to move: c3c4 attacks both Queens; Top saves one, the King takes
 * the other, and Top, left with a Queen and no Knight to take, cannot get
 * level (R7.2). No win is shorter: nothing can be taken now. */
#define FORK "5/5/5/5/1q1q1/5/2K2/5/Q4 b 1"
/* Top to move: a4a2 leaves Bottom's King no move (R7.4), Top ahead. */
#define STALEMATE "4q/5/5/5/5/n4/5/1b3/Kb3 t 1"

static const game_limits no_limits = { .time = { -1, -1 } };

static const game_variant *variant(const char *name)
{
    const game_variant *v = game_variant_find(name);
    assert_non_null(v);
    return v;
}

static void parse_pos(const game_variant *v, rp_pos *pos, const char *fen)
{
    game_error err = { "" };
    if (v->ops->parse(v, pos, fen, &err) != 0)
        fail_msg("cannot parse %s: %s", fen, err.msg);
}

static int is_legal(const rp_pos *pos, game_move m)
{
    game_move moves[RP_MAX_MOVES];
    int n = rp_legal(pos, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return 1;
    return 0;
}

static void text_of(const rp_pos *pos, game_move m, char *buf, size_t size)
{
    snprintf(buf, size, "(none)");
    if (m != GAME_MOVE_NONE)
        rp_format_move(pos, m, buf, size);
}

/* --- the factory ---------------------------------------------------------- */

static void test_listed_for_rampart_only(void **state)
{
    (void)state;
    static const char *const rampart[] = { "rampart", "rampart-xl" };
    for (int i = 0; i < 2; i++) {
        const game_variant *v = variant(rampart[i]);
        const game_bot_ops *g = v->ops->bots;
        assert_non_null(g);
        int found = 0;
        for (const game_bot_info *b = g->list; b->spec; b++)
            if (strcmp(b->spec, "ab-material") == 0) {
                found = 1;
                assert_int_equal(b->offered, 0);
            }
        assert_true(found);
        char names[512];
        bot_specs(v, names, sizeof names);
        assert_non_null(strstr(names, "ab-material"));
        assert_true(bot_spec_can_play("ab-material", v));
        assert_true(bot_spec_can_play("ab-material/movetime=50", v));
        /* the generic levels are still src/ai's searcher */
        assert_false(g->owns(v, "level=6"));
    }
    static const char *const others[] = { "stratego", "keeps-moats" };
    for (int i = 0; i < 2; i++) {
        const game_variant *v = variant(others[i]);
        assert_false(bot_spec_can_play("ab-material", v));
        char names[512];
        bot_specs(v, names, sizeof names);
        assert_null(strstr(names, "ab-material"));
        char err[200] = "";
        bot *b = bot_new("ab-material", 1, err, sizeof err);
        assert_non_null(b);
        assert_int_equal(bot_new_game(b, v, 0), -1);
        bot_free(b);
    }
}

/* The move the bot made from spec plays in fen of variant vname. */
static void expect_bot_move(const char *vname, const char *spec, uint64_t seed, const char *fen,
                            const game_limits *lim, const char *want)
{
    const game_variant *v = variant(vname);
    rp_pos pos;
    parse_pos(v, &pos, fen);
    char err[200] = "";
    bot *b = bot_new(spec, seed, err, sizeof err);
    if (!b)
        fail_msg("bot_new(%s): %s", spec, err);
    assert_int_equal(bot_new_game(b, v, 100), 0);
    game_move m = bot_move(b, v, &pos, lim, NULL);
    char text[32];
    text_of(&pos, m, text, sizeof text);
    if (strcmp(text, want) != 0)
        fail_msg("%s (seed %llu) played %s in %s, not %s", spec, (unsigned long long)seed, text,
                 fen, want);
    bot_free(b);
}

static void test_takes_free_material(void **state)
{
    (void)state;
    game_limits lim = no_limits;
    for (int depth = 1; depth <= 5; depth++) {
        lim.depth = depth;
        for (uint64_t seed = 1; seed <= 3; seed++) {
            expect_bot_move("rampart", "ab-material", seed, FREE_CAPTURE, &lim, "c3c5");
            expect_bot_move("rampart-xl", "ab-material", seed, FREE_CAPTURE_XL, &lim, "d3d5");
        }
    }
    lim = no_limits;
    lim.movetime = 20;
    expect_bot_move("rampart", "ab-material", 4, FREE_CAPTURE, &lim, "c3c5");
    expect_bot_move("rampart", "ab-material/nodes=5000", 4, FREE_CAPTURE, &no_limits, "c3c5");
}

/* The search's own report for fen at depth. */
static rp_ab_report search_fen(const char *vname, const char *fen, int depth, game_move *m)
{
    rp_pos pos;
    parse_pos(variant(vname), &pos, fen);
    rp_ab *ab = rp_ab_new(1);
    assert_non_null(ab);
    game_limits lim = no_limits;
    lim.depth = depth;
    rp_ab_report rep;
    *m = rp_ab_move(ab, &pos, &lim, NULL, &rep);
    rp_ab_free(ab);
    return rep;
}

static void test_wins(void **state)
{
    (void)state;
    game_limits lim = no_limits;
    lim.movetime = 20;
    expect_bot_move("rampart", "ab-material", 1, FREE_WIN, &lim, "c3c5");
    expect_bot_move("rampart", "ab-material", 1, FORK, &lim, "c3c4");
    for (int depth = 1; depth <= 6; depth++) {
        game_move m;
        rp_ab_report rep = search_fen("rampart", FREE_WIN, depth, &m);
        assert_int_equal(rep.score, RP_AB_WIN - 1);
        assert_int_equal(rep.depth, 1);  /* found at once: no deeper look */
    }
    game_move m;
    rp_ab_report rep = search_fen("rampart", FORK, 2, &m);
    assert_true(rep.score < RP_AB_WIN_MIN);
    for (int depth = 3; depth <= 6; depth++) {
        rep = search_fen("rampart", FORK, depth, &m);
        assert_int_equal(rep.score, RP_AB_WIN - 3);
        assert_int_equal(rep.pvlen, 3);
    }
    /* Played out against every defence: Bottom has won two moves later. */
    const game_variant *v = variant("rampart");
    rp_pos start;
    parse_pos(v, &start, FORK);
    rp_ab *ab = rp_ab_new(9);
    lim = no_limits;
    lim.depth = 5;
    game_move first = rp_ab_move(ab, &start, &lim, NULL, NULL);
    rp_pos after = start;
    rp_make(&after, first);
    game_move replies[RP_MAX_MOVES];
    int n = rp_legal(&after, replies);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        rp_pos p = after;
        rp_make(&p, replies[i]);
        game_move last = rp_ab_move(ab, &p, &lim, NULL, NULL);
        assert_true(is_legal(&p, last));
        rp_make(&p, last);
        game_result r = rp_result(&p);
        assert_true(r.over);
        assert_int_equal(r.winner, RP_BOTTOM);
    }
    rp_ab_free(ab);
    /* And a win by R7.4 for Top. */
    rep = search_fen("rampart", STALEMATE, 4, &m);
    assert_int_equal(rep.score, RP_AB_WIN - 1);
}

/* --- legality and limits ---------------------------------------------------- */

static const struct {
    const char *variant, *fen;
} positions[] = {
    { "rampart", "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1" },
    { "rampart", "1qqq1/n2nn/1kk2/1bb1k/1BBb1/1N1B1/QKKKQ/2NN1/1Q3 b 7" },
    { "rampart", "2q2/n2qn/1q1k1/kbbk1/NBBbn/1KKBQ/2K2/Q3N/2QN1 b 19" },
    { "rampart", "5/1n3/5/2k2/5/1N3/2K2/5/5 t 40" },
    { "rampart", "4k/Q1B2/1BqB1/n4/2B2/1B1B1/Bq1qB/1BBB1/N3K b 1" },
    { "rampart-xl", "2qqq2/2nnn2/2kkk2/2bbb2/7/2BBB2/2KKK2/2NNN2/2QQQ2 b 1" },
    { "rampart-xl", "2q4/n2nn2/2kk3/q2bb1q/2bBB2/Q1B2N1/2KKK2/2NNk2/3Q3 b 13" },
    { "rampart-xl", "7/2q4/7/3q3/7/2K4/4K2/7/7 b 30" },
};
#define NPOS (sizeof positions / sizeof positions[0])

static void test_legal_moves(void **state)
{
    (void)state;
    for (size_t i = 0; i < NPOS; i++) {
        rp_pos pos;
        parse_pos(variant(positions[i].variant), &pos, positions[i].fen);
        rp_ab *ab = rp_ab_new(i);
        game_limits lim = no_limits;
        static const uint64_t nodes[] = { 1, 2, 50, 1000, 20000 };
        for (size_t k = 0; k < sizeof nodes / sizeof nodes[0]; k++) {
            lim.nodes = nodes[k];
            game_move m = rp_ab_move(ab, &pos, &lim, NULL, NULL);
            if (!is_legal(&pos, m))
                fail_msg("position %zu, %llu nodes: illegal move %#x", i + 1,
                         (unsigned long long)nodes[k], m);
        }
        rp_ab_free(ab);
    }
    /* Whole games through the factory, both variants, against other bots. */
    static const char *const opponents[] = { "random", "greedy", "level=2" };
    static const char *const variants[] = { "rampart", "rampart-xl" };
    for (int vi = 0; vi < 2; vi++)
        for (int oi = 0; oi < 3; oi++) {
            const game_variant *v = variant(variants[vi]);
            char err[200];
            bot *b[2] = { bot_new("ab-material", (uint64_t)oi, err, sizeof err),
                          bot_new(opponents[oi], 7, err, sizeof err) };
            assert_non_null(b[0]);
            assert_non_null(b[1]);
            rp_pos pos;
            v->ops->start(v, &pos, 0);
            pos.move_limit = 40;
            for (int s = 0; s < 2; s++)
                assert_int_equal(bot_new_game(b[s], v, 40), 0);
            game_limits lim = no_limits;
            lim.nodes = 3000;
            for (int ply = 0; ply < 200 && !rp_over(&pos); ply++) {
                int side = (pos.stm + vi + oi) & 1;  /* ab-material on both sides in turn */
                game_move m = bot_move(b[side], v, &pos, &lim, NULL);
                if (!is_legal(&pos, m)) {
                    char fen[256];
                    rp_format(&pos, fen, sizeof fen);
                    fail_msg("%s played an illegal move %#x in %s", bot_name(b[side]), m, fen);
                }
                rp_make(&pos, m);
            }
            assert_true(rp_over(&pos));
            bot_free(b[0]);
            bot_free(b[1]);
        }
    /* Nothing to play once the game is over. */
    rp_pos over;
    parse_pos(variant("rampart"), &over, "4q/5/5/5/2Q2/5/5/5/K4 t 2");
    assert_true(rp_over(&over));
    rp_ab *ab = rp_ab_new(1);
    assert_int_equal(rp_ab_move(ab, &over, NULL, NULL, NULL), GAME_MOVE_NONE);
    rp_ab_free(ab);
}

static void test_depth_and_node_limits(void **state)
{
    (void)state;
    rp_pos pos;
    parse_pos(variant("rampart"), &pos, positions[0].fen);
    rp_ab *ab = rp_ab_new(3);
    game_limits lim = no_limits;
    uint64_t last_nodes = 0;
    for (int depth = 1; depth <= 5; depth++) {
        lim.depth = depth;
        rp_ab_report rep;
        game_move m = rp_ab_move(ab, &pos, &lim, NULL, &rep);
        assert_true(is_legal(&pos, m));
        assert_int_equal(rep.depth, depth);
        assert_int_equal(rep.pvlen, depth);
        assert_true(rep.nodes > last_nodes);
        last_nodes = rep.nodes;
    }
    lim = no_limits;
    static const uint64_t budgets[] = { 1, 100, 1023, 1024, 1025, 77777 };
    for (size_t k = 0; k < sizeof budgets / sizeof budgets[0]; k++) {
        lim.nodes = budgets[k];
        rp_ab_report rep;
        game_move m = rp_ab_move(ab, &pos, &lim, NULL, &rep);
        assert_true(is_legal(&pos, m));
        assert_true(rep.nodes <= budgets[k]);
        assert_true(rep.nodes >= budgets[k]);  /* the start's tree is larger */
    }
    rp_ab_free(ab);
}

static void test_time_limits(void **state)
{
    (void)state;
    rp_pos pos;
    parse_pos(variant("rampart-xl"), &pos, positions[5].fen);
    rp_ab *ab = rp_ab_new(3);
    game_limits lim = no_limits;
    lim.movetime = 40;
    rp_ab_report rep;
    uint64_t t0 = timer_ns();
    game_move m = rp_ab_move(ab, &pos, &lim, NULL, &rep);
    uint64_t ms = (timer_ns() - t0) / 1000000;
    assert_true(is_legal(&pos, m));
    assert_true(ms >= 40 && ms < 1000);  /* a fixed move time is used in full */
    assert_true(rep.depth >= 1);
    /* On a clock: a share of it, far less than all. */
    lim = no_limits;
    lim.time[0] = lim.time[1] = 3000;
    t0 = timer_ns();
    m = rp_ab_move(ab, &pos, &lim, NULL, &rep);
    ms = (timer_ns() - t0) / 1000000;
    assert_true(is_legal(&pos, m));
    assert_true(ms < 1000);
    rp_ab_free(ab);
}

typedef struct stopper {
    atomic_int *flag;
    long ms;
} stopper;

static void *stop_later(void *arg)
{
    stopper *s = arg;
    struct timespec ts = { s->ms / 1000, (s->ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
    atomic_store(s->flag, 1);
    return NULL;
}

static void test_stop_flag(void **state)
{
    (void)state;
    rp_pos pos;
    parse_pos(variant("rampart"), &pos, positions[0].fen);
    rp_ab *ab = rp_ab_new(3);
    game_limits lim = no_limits;
    lim.infinite = 1;
    atomic_int stop;
    /* Set before it starts: a legal move at once, nothing searched. */
    atomic_init(&stop, 1);
    rp_ab_report rep;
    game_move m = rp_ab_move(ab, &pos, &lim, &stop, &rep);
    assert_true(is_legal(&pos, m));
    assert_int_equal(rep.depth, 0);
    assert_int_equal(rep.nodes, 0);
    /* Set from another thread while it thinks without limit. */
    atomic_store(&stop, 0);
    stopper st = { &stop, 50 };
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, stop_later, &st), 0);
    uint64_t t0 = timer_ns();
    m = rp_ab_move(ab, &pos, &lim, &stop, &rep);
    uint64_t ms = (timer_ns() - t0) / 1000000;
    pthread_join(th, NULL);
    assert_true(is_legal(&pos, m));
    assert_true(ms >= 50 && ms < 2000);
    assert_true(rep.depth >= 1);
    rp_ab_free(ab);
}

static void test_seed_breaks_ties(void **state)
{
    (void)state;
    rp_pos pos;
    parse_pos(variant("rampart"), &pos, positions[0].fen);
    game_limits lim = no_limits;
    lim.depth = 3;
    game_move seen[2] = { 0, 0 };
    int distinct = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        rp_ab *a = rp_ab_new(seed), *b = rp_ab_new(seed);
        game_move ma = rp_ab_move(a, &pos, &lim, NULL, NULL);
        assert_int_equal(ma, rp_ab_move(b, &pos, &lim, NULL, NULL));  /* repeatable */
        if (ma != seen[0] && ma != seen[1] && distinct < 2)
            seen[distinct++] = ma;
        rp_ab_free(a);
        rp_ab_free(b);
    }
    assert_int_equal(distinct, 2);  /* every start move is worth 0: the seed chooses */
}

/* --- against a plain minimax ------------------------------------------------ */

static int ref_value(const ref_pos *p)
{
    int val[4];
    for (int t = 0; t < 4; t++)
        val[t] = rp_ab_value[t];
    if (p->w >= RP_AB_WIDE)
        val[0] += RP_AB_QUEEN_WIDE;
    int e = 0;
    for (int i = 0; i < p->w * p->h; i++) {
        int s = ref_side(p->sq[i]);
        if (s >= 0)
            e += (s == p->stm ? 1 : -1) * val[ref_kind_index(ref_kind(p->sq[i]))];
    }
    return e;
}

/* Negamax without pruning over the reference rules. */
static int ref_search(const ref_pos *p, int depth, int ply)
{
    ref_move moves[REF_MAX_MOVES];
    int n = ref_gen(p, moves);
    ref_result r = ref_result_given_moves(p, n);
    if (r.over)
        return r.winner < 0 ? 0 : r.winner == p->stm ? RP_AB_WIN - ply : -(RP_AB_WIN - ply);
    if (depth == 0)
        return ref_value(p);
    int best = -RP_AB_WIN - 1;
    for (int i = 0; i < n; i++) {
        ref_pos c = *p;
        ref_make(&c, moves[i]);
        int v = -ref_search(&c, depth - 1, ply + 1);
        if (v > best)
            best = v;
    }
    return best;
}

/* ab-material at depth on fen (with the move limit given) scores what the
 * minimax does, and its move is one the minimax scores that way. */
static void expect_same(const char *vname, const char *fen, int limit, int depth)
{
    rp_pos pos;
    parse_pos(variant(vname), &pos, fen);
    pos.move_limit = limit;
    ref_pos rp;
    assert_int_equal(ref_parse(&rp, fen), 0);
    rp.limit = limit;
    int want = ref_search(&rp, depth, 0);

    rp_ab *ab = rp_ab_new(5);
    game_limits lim = no_limits;
    lim.depth = depth;
    rp_ab_report rep;
    game_move m = rp_ab_move(ab, &pos, &lim, NULL, &rep);
    rp_ab_free(ab);
    if (rep.score != want)
        fail_msg("%s (limit %d) depth %d: ab-material scores %d, minimax %d", fen, limit, depth,
                 rep.score, want);
    char text[8];
    text_of(&pos, m, text, sizeof text);
    ref_move moves[REF_MAX_MOVES];
    int n = ref_legal(&rp, moves), found = 0;
    for (int i = 0; i < n && !found; i++) {
        char name[5];
        ref_move_name(&rp, moves[i], name);
        if (strcmp(name, text) != 0)
            continue;
        found = 1;
        ref_pos c = rp;
        ref_make(&c, moves[i]);
        int v = -ref_search(&c, depth - 1, 1);
        if (v != want)
            fail_msg("%s depth %d: ab-material plays %s, worth %d to the minimax, not %d", fen,
                     depth, text, v, want);
    }
    if (!found)
        fail_msg("%s: ab-material plays %s, not a legal move", fen, text);
}

static void test_same_as_minimax(void **state)
{
    (void)state;
    for (int depth = 1; depth <= 4; depth++) {
        expect_same("rampart", FREE_CAPTURE, 0, depth);
        expect_same("rampart", FORK, 0, depth);
        expect_same("rampart", STALEMATE, 0, depth);
        expect_same("rampart", "5/1n3/5/2k2/5/1N3/2K2/5/5 t 40", 0, depth);
        expect_same("rampart-xl", "7/2q4/7/3q3/7/2K4/4K2/7/7 b 30", 0, depth);
        /* the move limit inside the horizon (R7.3) */
        expect_same("rampart", "5/1n3/5/2k2/5/1N3/2K2/5/5 t 40", 41, depth);
        expect_same("rampart-xl", "7/2q4/7/3q3/7/2K4/4K2/7/7 b 30", 31, depth);
    }
    /* Middle games reached by random plies, some near their move limit. */
    rng g;
    rng_seed(&g, 2024);
    static const char *const variants[] = { "rampart", "rampart-xl" };
    for (int k = 0; k < 16; k++) {
        const game_variant *v = variant(variants[k & 1]);
        rp_pos pos;
        v->ops->start(v, &pos, 0);
        int plies = 8 + (int)rng_below(&g, 30);
        for (int i = 0; i < plies && !rp_over(&pos); i++) {
            game_move moves[RP_MAX_MOVES];
            int n = rp_legal(&pos, moves);
            rp_make(&pos, moves[rng_below(&g, (uint64_t)n)]);
        }
        if (rp_over(&pos))
            continue;
        char fen[256];
        rp_format(&pos, fen, sizeof fen);
        int limit = k % 4 == 3 ? pos.fullmove : 0;
        expect_same(v->name, fen, limit, k % 3 == 0 ? 2 : 3);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_listed_for_rampart_only),
        cmocka_unit_test(test_takes_free_material),
        cmocka_unit_test(test_wins),
        cmocka_unit_test(test_legal_moves),
        cmocka_unit_test(test_depth_and_node_limits),
        cmocka_unit_test(test_time_limits),
        cmocka_unit_test(test_stop_flag),
        cmocka_unit_test(test_seed_breaks_ties),
        cmocka_unit_test(test_same_as_minimax),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
