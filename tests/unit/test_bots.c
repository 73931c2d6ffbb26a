/* test_bots.c -- every bot kind of bots.h: legal moves in whole games, the
 * greedy and winning choices in small positions, spec errors, and external
 * engines (our own `citadel uci`, and one that never answers). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../src/ai/bots.h"
#include "../../src/base/timer.h"

/* Bottom to move; c3c5 takes the Knight and wins at once (R7.2). */
#define FREE_WIN "4q/5/5/5/2n2/5/2Q2/5/K4 b 1"
/* Bottom to move; c3c5 takes the Knight, and the game goes on. */
#define FREE_CAPTURE "4q/4k/5/5/2n2/5/2Q2/N4/K4 b 1"
/* Bottom to move: c2c3 encloses the Queens on b3 and d3, c5c6 encloses the
 * Queen on c7, a8a6 takes the Knight. None ends the game. */
#define ENCLOSE "4k/Q1B2/1BqB1/n4/2B2/1B1B1/Bq1qB/1BBB1/N3K b 1"

static const search_limits no_limits = { .time = { -1, -1 } };

static const game_variant *variant(const char *name)
{
    const game_variant *v = game_variant_find(name);
    assert_non_null(v);
    return v;
}

static void parse_pos(const game_variant *v, void *pos, const char *fen)
{
    game_error err = { "" };
    if (v->ops->parse(v, pos, fen, &err) != 0)
        fail_msg("cannot parse %s: %s", fen, err.msg);
}

static game_move move_of(const game_variant *v, const void *pos, const char *text)
{
    game_move m;
    game_error err = { "" };
    if (v->ops->parse_move(pos, text, &m, &err) != 0)
        fail_msg("move %s refused: %s", text, err.msg);
    return m;
}

static int is_legal(const game_variant *v, const void *pos, game_move m)
{
    game_move moves[GAME_MAX_MOVES];
    int n = v->ops->moves(pos, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return 1;
    return 0;
}

static bot *make_bot(const char *spec, uint64_t seed)
{
    char err[200] = "";
    bot *b = bot_new(spec, seed, err, sizeof err);
    if (!b)
        fail_msg("bot_new(%s): %s", spec, err);
    assert_string_equal(bot_name(b), spec);
    return b;
}

/* Plays up to `plies` plies between two bots; every move must be legal. */
static void play_game(const char *v_name, const char *spec0, const char *spec1,
                      const search_limits *lim, int plies, uint64_t seed)
{
    const game_variant *v = variant(v_name);
    const game_ops *ops = v->ops;
    bot *b[2] = { make_bot(spec0, seed), make_bot(spec1, seed + 1) };
    _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
    ops->start(v, pos, seed);
    for (int i = 0; i < 2; i++)
        assert_int_equal(bot_new_game(b[i], v, 0), 0);
    for (int ply = 0; ply < plies && !ops->result(pos).over; ply++) {
        int side = ops->side_to_move(pos);
        game_move m = bot_move(b[side], v, pos, lim, NULL);
        if (!is_legal(v, pos, m)) {
            char fen[256];
            ops->format(pos, fen, sizeof fen);
            fail_msg("%s played an illegal move %#x in %s", bot_name(b[side]), m, fen);
        }
        ops->make(pos, m, undo);
    }
    bot_free(b[0]);
    bot_free(b[1]);
}

static void test_legal_games(void **state)
{
    (void)state;
    static const char *const specs[] = { "level=1", "level3", "level=6", "greedy", "random",
                                         "mcts" };
    static const char *const variants[] = { "rampart", "rampart-xl" };
    search_limits lim = no_limits;
    lim.nodes = 300;
    for (int vi = 0; vi < 2; vi++)
        for (int i = 0; i < 6; i++)
            play_game(variants[vi], specs[i], specs[(i + 1) % 6], &lim, 60,
                      (uint64_t)(vi * 10 + i));
    /* Time limits: movetime, and a clock. */
    lim = no_limits;
    lim.movetime = 5;
    play_game("rampart", "mcts", "level=6", &lim, 12, 7);
    lim = no_limits;
    lim.time[0] = lim.time[1] = 300;
    lim.inc[0] = lim.inc[1] = 5;
    play_game("rampart", "level=4", "mcts", &lim, 12, 8);
}

/* The move bot `spec` chooses in fen with lim, as text. */
static void expect_move(const char *spec, uint64_t seed, const char *fen,
                        const search_limits *lim, const char *want)
{
    const game_variant *v = variant("rampart");
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    parse_pos(v, pos, fen);
    bot *b = make_bot(spec, seed);
    assert_int_equal(bot_new_game(b, v, 0), 0);
    game_move m = bot_move(b, v, pos, lim, NULL);
    char text[32] = "(none)";
    if (m != GAME_MOVE_NONE)
        v->ops->format_move(pos, m, text, sizeof text);
    if (strcmp(text, want) != 0)
        fail_msg("%s (seed %llu) played %s in %s, not %s", spec, (unsigned long long)seed, text,
                 fen, want);
    bot_free(b);
}

/* Top's material lost to move `text` of Bottom in fen, and whether the
 * game ends: the preconditions the greedy tests rely on. */
static int material_taken(const char *fen, const char *text, int *over)
{
    const game_variant *v = variant("rampart");
    const game_ops *ops = v->ops;
    _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
    parse_pos(v, pos, fen);
    assert_non_null(ops->material);
    int before = ops->material(pos, 1);
    ops->make(pos, move_of(v, pos, text), undo);
    *over = ops->result(pos).over;
    return before - ops->material(pos, 1);
}

static void test_greedy_takes(void **state)
{
    (void)state;
    int over;
    assert_int_equal(material_taken(FREE_CAPTURE, "c3c5", &over), 1);
    assert_false(over);
    assert_int_equal(material_taken(ENCLOSE, "c2c3", &over), 2);
    assert_false(over);
    assert_int_equal(material_taken(ENCLOSE, "c5c6", &over), 1);
    assert_false(over);
    assert_int_equal(material_taken(ENCLOSE, "a8a6", &over), 1);
    assert_false(over);
    for (uint64_t seed = 1; seed <= 8; seed++) {
        expect_move("greedy", seed, FREE_WIN, &no_limits, "c3c5");
        expect_move("greedy", seed, FREE_CAPTURE, &no_limits, "c3c5");
        expect_move("greedy", seed, ENCLOSE, &no_limits, "c2c3");
    }
}

/* With nothing to take, greedy is random: several seeds, several moves. */
static void test_greedy_random_otherwise(void **state)
{
    (void)state;
    const game_variant *v = variant("rampart");
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    v->ops->start(v, pos, 0);
    game_move first = GAME_MOVE_NONE;
    int differ = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        bot *b = make_bot("greedy", seed);
        game_move m = bot_move(b, v, pos, &no_limits, NULL);
        assert_true(is_legal(v, pos, m));
        if (seed == 1)
            first = m;
        differ |= m != first;
        bot_free(b);
    }
    assert_true(differ);
}

static void test_mcts_wins(void **state)
{
    (void)state;
    search_limits lim = no_limits;
    lim.nodes = 400;
    for (uint64_t seed = 1; seed <= 4; seed++)
        expect_move("mcts", seed, FREE_WIN, &lim, "c3c5");
}

static void test_search_wins(void **state)
{
    (void)state;
    search_limits lim = no_limits;
    lim.depth = 4;
    expect_move("level=6", 1, FREE_WIN, &lim, "c3c5");
    expect_move("level=6", 1, FREE_CAPTURE, &lim, "c3c5");
}

/* Threads (lazy SMP): helpers share the table, and the main searcher still
 * finds the win; set back to one thread, a cleared searcher counts exactly
 * the nodes it counted before it ever had helpers (one thread searches as
 * always, and `bench` is unchanged). */
static void test_threads(void **state)
{
    (void)state;
    const game_variant *v = variant("rampart");
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    v->ops->start(v, pos, 0);
    searcher *s = search_new(4);
    assert_non_null(s);
    search_limits lim = no_limits;
    lim.depth = 7;
    search_report one, many, again;
    game_move m1 = search_run(s, v, pos, &lim, NULL, NULL, NULL, &one);
    assert_int_equal(search_set_threads(s, 3), 3);
    search_clear(s);
    game_move m3 = search_run(s, v, pos, &lim, NULL, NULL, NULL, &many);
    assert_true(is_legal(v, pos, m1) && is_legal(v, pos, m3));
    assert_int_equal(many.depth, 7);
    assert_int_equal(search_set_threads(s, 1), 1);
    search_clear(s);
    game_move m1b = search_run(s, v, pos, &lim, NULL, NULL, NULL, &again);
    assert_int_equal(again.nodes, one.nodes);
    assert_int_equal(m1b, m1);
    /* a won position: every thread count finds the win */
    assert_int_equal(search_set_threads(s, 4), 4);
    parse_pos(v, pos, FREE_WIN);
    lim.depth = 4;
    char mv[32];
    v->ops->format_move(pos, search_run(s, v, pos, &lim, NULL, NULL, NULL, NULL), mv, sizeof mv);
    assert_string_equal(mv, "c3c5");
    search_free(s);
}

/* A fixed move time is the move's alone: the search uses it to the end
 * (an unfinished iteration still improves the move) rather than stopping
 * after half of it. Only a lower bound: a loaded machine makes it longer. */
static void test_movetime_used(void **state)
{
    (void)state;
    const game_variant *v = variant("rampart");
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    v->ops->start(v, pos, 0);
    searcher *s = search_new(4);
    assert_non_null(s);
    search_limits lim = no_limits;
    lim.movetime = 120;
    uint64_t t0 = timer_ns();
    game_move m = search_run(s, v, pos, &lim, NULL, NULL, NULL, NULL);
    uint64_t ms = (timer_ns() - t0) / 1000000;
    assert_true(is_legal(v, pos, m));
    assert_true(ms >= 115);
    search_free(s);
}

/* Contempt: Top to move in the last full move of a 100-move game, with
 * no capture in reach, so every move ends it level (R7.3): a draw, which
 * the side searching scores -SEARCH_CONTEMPT. */
static void test_contempt_forced_draw(void **state)
{
    (void)state;
    const game_variant *v = variant("rampart");
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    parse_pos(v, pos, "n3q/5/5/5/5/5/5/5/Q3N t 100");
    game_error err = { "" };
    assert_int_equal(v->ops->set_option(pos, "MoveLimit", 100, &err), 0);
    searcher *s = search_new(1);
    assert_non_null(s);
    search_limits lim = no_limits;
    lim.depth = 3;
    search_report rep;
    game_move m = search_run(s, v, pos, &lim, NULL, NULL, NULL, &rep);
    assert_true(is_legal(v, pos, m));
    assert_int_equal(rep.score, -SEARCH_CONTEMPT);
    /* One move earlier the game goes on and the score is the evaluation's. */
    parse_pos(v, pos, "n3q/5/5/5/5/5/5/5/Q3N t 98");
    assert_int_equal(v->ops->set_option(pos, "MoveLimit", 100, &err), 0);
    search_clear(s);
    lim.depth = 1;
    search_run(s, v, pos, &lim, NULL, NULL, NULL, &rep);
    assert_int_not_equal(rep.score, -SEARCH_CONTEMPT);
    search_free(s);
}

/* game_ops.blockade: the start is one (nothing in reach of its taker);
 * a Queen attacking a Knight is not; neither is a King walled in by
 * Blockers that falls with Bottom's next move. */
static void test_blockade(void **state)
{
    (void)state;
    const game_variant *v = variant("rampart");
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    assert_non_null(v->ops->blockade);
    v->ops->start(v, pos, 0);
    assert_true(v->ops->blockade(pos));
    parse_pos(v, pos, FREE_CAPTURE);
    assert_false(v->ops->blockade(pos));
    parse_pos(v, pos, "4n/5/2B2/1BkB1/2B2/5/5/5/Q4 t 1");
    assert_true(v->ops->blockade(pos));
    parse_pos(v, pos, "4n/5/2B2/1BkB1/2B2/5/5/5/Q4 b 1");
    assert_false(v->ops->blockade(pos));
}

/* In a blockade the side searching scores SEARCH_BLOCKADE below the
 * evaluation: with the Queen far from the only Knight, every Bottom move
 * keeps the blockade, so a one-ply search scores the best reply's
 * evaluation less SEARCH_BLOCKADE. */
static void test_blockade_contempt(void **state)
{
    (void)state;
    const game_variant *v = variant("rampart");
    _Alignas(16) unsigned char pos[GAME_POS_MAX], child[GAME_POS_MAX];
    _Alignas(16) unsigned char undo[GAME_POS_MAX];
    parse_pos(v, pos, "4n/5/5/5/5/5/5/5/Q4 b 1");
    game_move moves[GAME_MAX_MOVES];
    int n = v->ops->moves(pos, moves), best = -SEARCH_WIN;
    for (int i = 0; i < n; i++) {
        memcpy(child, pos, sizeof child);
        v->ops->make(child, moves[i], undo);
        assert_true(v->ops->blockade(child));
        int e = -v->ops->evaluate(child);
        if (e > best)
            best = e;
    }
    searcher *s = search_new(1);
    assert_non_null(s);
    search_limits lim = no_limits;
    lim.depth = 1;
    search_report rep;
    search_run(s, v, pos, &lim, NULL, NULL, NULL, &rep);
    assert_int_equal(rep.score, best - SEARCH_BLOCKADE);
    search_free(s);
}

static void test_stop(void **state)
{
    (void)state;
    const game_variant *v = variant("rampart");
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    v->ops->start(v, pos, 0);
    search_limits lim = no_limits;
    lim.infinite = 1;
    atomic_int stop;
    atomic_init(&stop, 1);
    bot *b = make_bot("mcts", 1);
    assert_true(is_legal(v, pos, bot_move(b, v, pos, &lim, &stop)));
    bot_free(b);
}

static void expect_refused(const char *spec, const char *words)
{
    char err[200] = "";
    bot *b = bot_new(spec, 1, err, sizeof err);
    if (b)
        fail_msg("bot_new(%s) should fail", spec);
    if (!strstr(err, words))
        fail_msg("bot_new(%s) said '%s', expected '%s'", spec, err, words);
}

static void test_bad_specs(void **state)
{
    (void)state;
    expect_refused("level=9", "level must be 1-6");
    expect_refused("level=0", "level must be 1-6");
    expect_refused("level=", "level must be 1-6");
    expect_refused("level=3x", "level must be 1-6");
    expect_refused("uci:", "needs a command");
    expect_refused("uci:   ", "needs a command");
    expect_refused("foo", "unknown bot 'foo'");
    expect_refused("", "unknown bot");
    expect_refused("level=6/", "limits are");
    expect_refused("level=6/movetime=0", "limits are");
    expect_refused("level=6/speed=3", "limits are");
    expect_refused("greedy/nodes=x", "limits are");
    assert_null(bot_new("foo", 1, NULL, 0));
    /* Limits of its own are accepted, and the name keeps them. */
    bot *b = bot_new("level=6/movetime=5/depth=2", 1, NULL, 0);
    assert_non_null(b);
    assert_string_equal(bot_name(b), "level=6/movetime=5/depth=2");
    bot_free(b);
}

/* What a bot can play does not change with limits of its own: the lobby
 * asks bot_spec_can_play of the spec as given (`--bot NAME=level=3/nodes=500`). */
static void test_spec_can_play_with_limits(void **state)
{
    (void)state;
    const game_variant *const *all = game_variants();
    static const char *const specs[] = {"level=3", "mcts", "greedy", "balanced=2", "capture"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        char limited[64];
        snprintf(limited, sizeof limited, "%s/nodes=500/depth=2", specs[i]);
        for (int k = 0; all[k]; k++)
            if (bot_spec_can_play(limited, all[k]) != bot_spec_can_play(specs[i], all[k]))
                fail_msg("%s and %s differ on %s", limited, specs[i], all[k]->name);
    }
    const game_variant *km = game_variant_find("keeps-moats");
    assert_non_null(km);
    assert_false(bot_spec_can_play("level=3/nodes=500", km));
}

/* The `citadel` built beside this test binary (build/<tier>/citadel), or 0. */
static int citadel_path(char *out, size_t size)
{
    char self[1024];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return 0;
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (!slash)
        return 0;
    *slash = 0;
    snprintf(out, size, "%s/../citadel", self);
    return access(out, X_OK) == 0;
}

static void test_uci_citadel(void **state)
{
    (void)state;
    char path[1100], spec[1200];
    if (!citadel_path(path, sizeof path)) {
        print_message("no citadel binary beside the tests; skipped\n");
        skip();
    }
    snprintf(spec, sizeof spec, "uci:'%s' uci", path);
    search_limits lim = no_limits;
    lim.depth = 2;
    play_game("rampart", spec, "random", &lim, 16, 3);
    play_game("rampart-xl", "greedy", spec, &lim, 16, 4);

    /* It finds the winning capture, and the clock form of go works. */
    lim = no_limits;
    lim.time[0] = lim.time[1] = 2000;
    lim.inc[0] = lim.inc[1] = 10;
    expect_move(spec, 1, FREE_WIN, &lim, "c3c5");

    /* Stopping an infinite search still brings a legal move. */
    const game_variant *v = variant("rampart");
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    v->ops->start(v, pos, 0);
    lim = no_limits;
    lim.infinite = 1;
    atomic_int stop;
    atomic_init(&stop, 1);
    bot *b = make_bot(spec, 1);
    assert_int_equal(bot_new_game(b, v, 100), 0);
    assert_true(is_legal(v, pos, bot_move(b, v, pos, &lim, &stop)));
    bot_free(b);
}

/* S3: every bot sets up its own army. The game's own and the generic bots
 * play the game's varied setup from the seed given (the same for the same
 * seed, the setup ops' check takes it); `citadel uci` answers go setup;
 * a game without setups has none to give. */
static void test_setups(void **state)
{
    (void)state;
    const game_variant *v = variant("stratego");
    const game_setup_ops *so = v->ops->setup;
    char a[256], b[256], want[256], err[200];
    const char *specs[] = { "level=6", "random", "cautious" };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        bot *x = make_bot(specs[i], 1), *y = make_bot(specs[i], 2);
        assert_int_equal(bot_new_game(x, v, 0), 0);
        assert_int_equal(bot_new_game(y, v, 0), 0);
        assert_int_equal(bot_setup(x, v, 77, a, sizeof a, err, sizeof err), 0);
        assert_int_equal(bot_setup(y, v, 77, b, sizeof b, err, sizeof err), 0);
        so->varied(77, want, sizeof want);
        assert_string_equal(a, want);
        assert_string_equal(b, want);
        assert_int_equal(so->check(a, NULL), 0);
        assert_int_equal(bot_setup(x, v, 78, b, sizeof b, err, sizeof err), 0);
        assert_string_not_equal(a, b);
        const game_variant *r = variant("rampart");
        if (bot_new_game(x, r, 0) == 0)
            assert_int_equal(bot_setup(x, r, 1, a, sizeof a, err, sizeof err), -1);
        bot_free(x);
        bot_free(y);
    }
    char path[1100], spec[1200];
    if (!citadel_path(path, sizeof path)) {
        print_message("no citadel binary beside the tests; the uci part skipped\n");
        return;
    }
    snprintf(spec, sizeof spec, "uci:'%s' uci", path);
    bot *e = make_bot(spec, 1);
    assert_int_equal(bot_new_game(e, v, 1000), 0);
    assert_int_equal(bot_setup(e, v, 5, a, sizeof a, err, sizeof err), 0);
    assert_int_equal(so->check(a, NULL), 0);
    bot_free(e);
}

static void test_uci_silent_engine(void **state)
{
    (void)state;
    /* Short enough to keep the test quick, long enough for a shell to start
     * on a loaded machine. */
    setenv("CITADEL_UCI_TIMEOUT_MS", "1500", 1);
    uint64_t t0 = timer_ns();
    expect_refused("uci:cat >/dev/null", "did not answer");
    expect_refused("uci:exit 3", "exited");
    expect_refused("uci:/no/such/engine 2>/dev/null", "exited");
    unsetenv("CITADEL_UCI_TIMEOUT_MS");
    uint64_t ms = (timer_ns() - t0) / 1000000u;
    if (ms > 60000)  /* a hang, not a slow machine */
        fail_msg("refusing silent engines took %llu ms", (unsigned long long)ms);
}

/* An engine that shakes hands but never moves: bot_move gives up in time. */
static void test_uci_engine_never_moves(void **state)
{
    (void)state;
    setenv("CITADEL_UCI_TIMEOUT_MS", "1500", 1);
    const char *spec = "uci:while read l; do case $l in uci) echo uciok;; isready) echo "
                       "readyok;; quit) exit 0;; esac; done";
    bot *b = make_bot(spec, 1);
    unsetenv("CITADEL_UCI_TIMEOUT_MS");
    const game_variant *v = variant("rampart");
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    v->ops->start(v, pos, 0);
    assert_int_equal(bot_new_game(b, v, 0), 0);
    search_limits lim = no_limits;
    lim.movetime = 10;
    uint64_t t0 = timer_ns();
    assert_int_equal(bot_move(b, v, pos, &lim, NULL), GAME_MOVE_NONE);
    uint64_t ms = (timer_ns() - t0) / 1000000u;
    if (ms > 60000)  /* a hang, not a slow machine */
        fail_msg("a silent move took %llu ms", (unsigned long long)ms);
    /* It resynchronises and can start another game. */
    assert_int_equal(bot_new_game(b, v, 0), 0);
    bot_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_legal_games),
        cmocka_unit_test(test_greedy_takes),
        cmocka_unit_test(test_greedy_random_otherwise),
        cmocka_unit_test(test_mcts_wins),
        cmocka_unit_test(test_search_wins),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_movetime_used),
        cmocka_unit_test(test_contempt_forced_draw),
        cmocka_unit_test(test_blockade),
        cmocka_unit_test(test_blockade_contempt),
        cmocka_unit_test(test_stop),
        cmocka_unit_test(test_bad_specs),
        cmocka_unit_test(test_spec_can_play_with_limits),
        cmocka_unit_test(test_uci_citadel),
        cmocka_unit_test(test_setups),
        cmocka_unit_test(test_uci_silent_engine),
        cmocka_unit_test(test_uci_engine_never_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
