/* test_km_bots.c -- the Keeps & Moats bots: the game's own "capture" and
 * the style bots src/ai builds from its styles and levels, both offered
 * through its factory (game_ops.bots) and made by bots.h; and the
 * multi-player search (multi.h) with the game's evaluation. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/ai/bots.h"
#include "../../src/ai/match_seats.h"
#include "../../src/ai/multi.h"
#include "../../src/games/keeps-moats/keeps_moats.h"

static km_pos from_text(const char *text)
{
    km_pos p;
    game_error err = { "" };
    if (km_parse(&p, text, &err) != 0)
        fail_msg("cannot read %s: %s", text, err.msg);
    return p;
}

static const char *move_text(const km_pos *p, game_move m)
{
    static char buf[32];
    km_format_move(p, m, buf, sizeof buf);
    return buf;
}

/* A bot of spec for Keeps & Moats, or NULL with why in err: bot_new
 * makes it and the variant's game must take it. */
static bot *km_bot(const char *spec, uint64_t seed, char *err, size_t errlen)
{
    bot *b = bot_new(spec, seed, err, errlen);
    if (b && bot_new_game(b, &km_variant, 0) != 0) {
        snprintf(err, errlen, "%s does not play keeps-moats", spec);
        bot_free(b);
        return NULL;
    }
    return b;
}

static void test_specs(void **state)
{
    (void)state;
    const char *good[] = { "random", "capture", "aggressive=1", "balanced=5", "defensive=3",
                           "balanced=2/maxn", "balanced=2/paranoid/nodes=500",
                           "defensive=4/depth=2" };
    const char *bad[] = { "", "greedy", "balanced", "balanced=0", "balanced=6", "calm=2",
                          "balanced=2/fast", "balanced=2/nodes=", "balanced=22" };
    char err[160];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        bot *b = km_bot(good[i], 1, err, sizeof err);
        assert_non_null(b);
        assert_string_equal(bot_name(b), good[i]);
        bot_free(b);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        assert_null(km_bot(bad[i], 1, err, sizeof err));
        assert_true(strlen(err) > 0);
    }
}

/* White's Queen on h6 can take Red's King (g6) or Black's Knight (j8):
 * the King first. */
#define HUNT                                                                                     \
    "1/1bK1/5/7/9/11/13/15/17/2rQ5bN6/13/3rKwQ6/9/7/5/1wK1/1 w anarchy gained - -,-,-,- u 5 " \
    "200"

static void test_capture_bot_takes_the_most_valuable(void **state)
{
    (void)state;
    km_pos p = from_text(HUNT);
    char err[160];
    for (int i = 0; i < 5; i++) {
        bot *b = km_bot("capture", (uint64_t)i, err, sizeof err);
        assert_non_null(b);
        assert_string_equal(move_text(&p, bot_move(b, &km_variant, &p, NULL, NULL)), "h6g6");
        bot_free(b);
    }
}

static void test_every_bot_plays_legal_moves_to_the_end(void **state)
{
    (void)state;
    const char *specs[] = { "random", "capture", "aggressive=1", "balanced=2",
                            "defensive=2/maxn" };
    char err[160];
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        bot *b = km_bot(specs[i], i, err, sizeof err);
        assert_non_null(b);
        km_pos p;
        km_start(&p, (int)(i % 3), (int)(i % 3));
        p.limit = 30;
        int plies = 0;
        while (!km_over(&p)) {
            game_move m = bot_move(b, &km_variant, &p, NULL, NULL), list[KM_MAX_MOVES];
            int n = km_legal(&p, list), ok = 0;
            for (int j = 0; j < n; j++)
                ok |= list[j] == m;
            assert_true(ok);
            km_make(&p, m);
            assert_true(km_pos_ok(&p));
            plies++;
        }
        assert_true(plies > 0);
        assert_int_equal(bot_move(b, &km_variant, &p, NULL, NULL), GAME_MOVE_NONE);
        bot_free(b);
    }
}

/* The factory lists what it offers: "capture" and a spec per style, and
 * levels 1-5 of increasing depth. */
static void test_factory(void **state)
{
    (void)state;
    const game_bot_ops *g = km_variant.ops->bots;
    assert_non_null(g);
    assert_true(g->owns(&km_variant, "capture"));
    assert_false(g->owns(&km_variant, "balanced=2"));
    assert_false(g->owns(&km_variant, "capture/nodes=5"));
    int nstyles = 0;
    for (const game_bot_style *s = g->styles; s->name; s++, nstyles++) {
        char spec[32];
        snprintf(spec, sizeof spec, "%s=N", s->name);
        int listed = 0;
        for (const game_bot_info *i = g->list; i->spec; i++)
            listed |= strcmp(i->spec, spec) == 0;
        assert_true(listed);
    }
    assert_int_equal(nstyles, 3);
    assert_int_equal(g->nlevels, 5);
    for (int l = 0; l < g->nlevels; l++)
        assert_int_equal(g->levels[l].depth, l + 1);
    char specs[512];
    bot_specs(&km_variant, specs, sizeof specs);
    assert_non_null(strstr(specs, "capture"));
    assert_non_null(strstr(specs, "balanced=N"));
    assert_null(strstr(specs, "greedy"));
}

static void eval_cb(const void *pos, void *ctx, int out[GAME_MAX_SIDES])
{
    km_eval(pos, ctx, out);
}

/* Both algorithms take a King that hangs, and paranoid search sees that a
 * Queen's capture which leaves its own King to be taken is bad. */
static void test_search_takes_a_king_and_guards_its_own(void **state)
{
    (void)state;
    km_pos p = from_text(HUNT);
    for (int algo = 0; algo < 2; algo++) {
        multi_config c = { .variant = &km_variant, .eval = eval_cb,
                           .ctx = (void *)&km_styles[KM_BALANCED], .algo = algo, .depth = 3 };
        assert_string_equal(move_text(&p, multi_search(&c, &p, NULL)), "h6g6");
    }
    /* White's King on h8 is attacked by Red's Rook on h12 and Red moves
     * next: the King must leave the h-file. */
    km_pos q = from_text("1/1bK1/5/7/9/4rR6/13/15/17/6wK2bN5/13/3rK7/9/7/5/3/1 w anarchy gained - "
                         "-,-,-,- u 5 200");
    multi_config c = { .variant = &km_variant, .eval = eval_cb,
                       .ctx = (void *)&km_styles[KM_BALANCED], .algo = MULTI_PARANOID,
                       .depth = 2 };
    multi_report rep;
    game_move m = multi_search(&c, &q, &rep);
    km_pos after = q;
    km_make(&after, m);
    assert_int_equal(after.out & 1, 0);
    /* After the chosen move Red cannot take the King at once. */
    game_move list[KM_MAX_MOVES];
    int n = km_legal(&after, list);
    for (int i = 0; i < n; i++)
        assert_int_not_equal(KM_TYPE(after.sq[KM_TO(list[i])]), KM_KING);
    assert_int_equal(rep.depth, 2);
    assert_true(rep.nodes > 0);
}

/* Searching for a side that has just moved (for_side): after the paranoid
 * search's best move, the position is worth to the mover, one ply
 * shallower, exactly what the search said that move was worth; after any
 * other move no more (a review's verdict rests on it). */
static void test_search_for_the_side_that_moved(void **state)
{
    (void)state;
    km_pos p;
    km_start(&p, KM_ANARCHY, KM_GAINED);
    multi_config c = { .variant = &km_variant, .eval = eval_cb,
                       .ctx = (void *)&km_styles[KM_BALANCED], .algo = MULTI_PARANOID,
                       .depth = 3 };
    multi_report root, child;
    game_move best = multi_search(&c, &p, &root);
    assert_int_equal(root.depth, 3);
    multi_config after = c;
    after.depth = 2;
    after.for_side_set = 1;
    after.for_side = 0;  /* White, who moved */
    game_move list[KM_MAX_MOVES];
    int n = km_legal(&p, list);
    for (int i = 0; i < n; i++) {
        km_pos q = p;
        km_make(&q, list[i]);
        multi_search(&after, &q, &child);
        if (list[i] == best)
            assert_int_equal(child.score, root.score);
        else
            assert_true(child.score <= root.score);
    }
}

/* A node budget ends the search with a legal move from a finished depth. */
static void test_node_budget(void **state)
{
    (void)state;
    km_pos p;
    km_start(&p, KM_ANARCHY, KM_GAINED);
    multi_config c = { .variant = &km_variant, .eval = eval_cb,
                       .ctx = (void *)&km_styles[KM_AGGRESSIVE], .algo = MULTI_PARANOID,
                       .depth = 8, .nodes = 3000 };
    multi_report rep;
    game_move m = multi_search(&c, &p, &rep);
    assert_true(rep.depth >= 1 && rep.depth < 8);
    assert_true(rep.nodes <= 3000 + 10000);
    game_move list[KM_MAX_MOVES];
    int n = km_legal(&p, list), ok = 0;
    for (int i = 0; i < n; i++)
        ok |= list[i] == m;
    assert_true(ok);
}

/* Styles weigh the same position differently. */
static void test_styles_differ(void **state)
{
    (void)state;
    km_pos p = from_text(HUNT);
    int a[KM_NK], d[KM_NK];
    km_eval(&p, &km_styles[KM_AGGRESSIVE], a);
    km_eval(&p, &km_styles[KM_DEFENSIVE], d);
    /* Red's King hangs: the defensive style counts that worse. */
    assert_true(d[KM_RED] < a[KM_RED]);
    assert_int_equal(a[KM_BLUE], 0);  /* Blue is out */
    assert_true(a[KM_WHITE] > 0 && a[KM_BLACK] > 0);
}

/* The seat match plays every game to its end, the same for one seed, and
 * refuses a bot that does not play the game before any game. */
static void test_seat_match(void **state)
{
    (void)state;
    seats_config c = { .variant = &km_variant, .spec = { "capture", "random" }, .games = 8,
                       .opening_plies = 2, .seed = 5, .settings = { { "MoveLimit", 40 } },
                       .nsettings = 1, .lim = { .time = { -1, -1 } } };
    seats_tally a, b;
    char err[200] = "";
    assert_int_equal(seats_run(&c, &a, err, sizeof err), 0);
    assert_int_equal(a.wins + a.losses + a.draws, 8);
    assert_true(a.plies > 0);
    assert_int_equal(seats_run(&c, &b, err, sizeof err), 0);
    assert_memory_equal(&a, &b, sizeof a);
    c.spec[1] = "greedy";
    assert_int_equal(seats_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "does not play"));
    c.spec[1] = "random";
    c.settings[0] = (seats_setting){ "GameType", 7 };
    assert_int_equal(seats_check(&c, err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_capture_bot_takes_the_most_valuable),
        cmocka_unit_test(test_every_bot_plays_legal_moves_to_the_end),
        cmocka_unit_test(test_factory),
        cmocka_unit_test(test_seat_match),
        cmocka_unit_test(test_search_takes_a_king_and_guards_its_own),
        cmocka_unit_test(test_node_budget),
        cmocka_unit_test(test_search_for_the_side_that_moved),
        cmocka_unit_test(test_styles_differ),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
