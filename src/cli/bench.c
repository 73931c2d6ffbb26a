/* bench.c -- `citadel bench`: the engine's fingerprints.
 *
 * `bench` searches a fixed set of positions to a fixed depth with a fresh
 * 16 MB table each, one thread, the strongest level: the total node count
 * is the search's fingerprint (it changes exactly when search behaviour
 * does) and is quoted in commit messages. `bench perft` times bulk-counted
 * perft from the Classic start. `bench ab-material` searches the same
 * positions to a fixed depth with Rampart's reference opponent, the bot
 * "ab-material" that Rampart offers through game.h's bot factory, for its
 * speed: its nodes are not the fingerprint, and the default bench never
 * runs it. Everything goes through game.h and src/ai alone.
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/search.h"
#include "../base/timer.h"
#include "../games/game.h"

static const struct {
    const char *variant, *fen;
} positions[] = {
    { "rampart", "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1" },
    { "rampart", "1qqq1/n2nn/1kk2/1bb1k/1BBb1/1N1B1/QKKKQ/2NN1/1Q3 b 7" },
    { "rampart", "1qq2/n2n1/1qk2/kbb1k/1BBbn/N2B1/1KKK1/Q3N/1QQN1 b 13" },
    { "rampart", "2q2/n2qn/1q1k1/kbbk1/NBBbn/1KKBQ/2K2/Q3N/2QN1 b 19" },
    { "rampart", "2qq1/1q3/1kkk1/nbb1n/NBBbn/1K1BN/1KKQ1/1Q1N1/2Q2 b 26" },
    { "rampart", "5/1n3/5/2k2/5/1N3/2K2/5/5 t 40" },
    { "rampart-xl", "2qqq2/2nnn2/2kkk2/2bbb2/7/2BBB2/2KKK2/2NNN2/2QQQ2 b 1" },
    { "rampart-xl", "2qq3/n2nn2/2kk2q/3bb2/2bBB2/2B2Nk/2KKK2/2NN2Q/2Q1Q2 b 7" },
    { "rampart-xl", "2q4/n2nn2/2kk3/q2bb1q/2bBB2/Q1B2N1/2KKK2/2NNk2/3Q3 b 13" },
    { "rampart-xl", "2q4/3n3/1q1kn2/2nbb2/2bBBq1/Q1B2N1/2KKQK1/1N2N2/3k3 b 26" },
    { "rampart-xl", "7/2q4/7/3q3/7/2K4/4K2/7/7 b 30" },
};

int bench_search(int depth)
{
    searcher *s = search_new(16);
    if (!s) {
        fprintf(stderr, "citadel: out of memory\n");
        return 1;
    }
    uint64_t total = 0, t0 = timer_ns();
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        const game_variant *v = game_variant_find(positions[i].variant);
        _Alignas(16) unsigned char pos[GAME_POS_MAX];
        game_error err;
        if (!v || v->ops->parse(v, pos, positions[i].fen, &err) != 0) {
            fprintf(stderr, "citadel: bench position %zu: %s\n", i + 1, err.msg);
            search_free(s);
            return 1;
        }
        search_clear(s);
        search_set_level(s, SEARCH_LEVELS, 1);
        search_limits lim = { .depth = depth, .time = { -1, -1 } };
        search_report rep;
        game_move m = search_run(s, v, pos, &lim, NULL, NULL, NULL, &rep);
        char mv[32] = "(none)";
        if (m)
            v->ops->format_move(pos, m, mv, sizeof mv);
        printf("position %2zu  %-10s  bestmove %-6s score %6d  nodes %llu\n", i + 1,
               positions[i].variant, mv, rep.score, (unsigned long long)rep.nodes);
        total += rep.nodes;
    }
    uint64_t ns = timer_ns() - t0;
    printf("\nNodes: %llu\n", (unsigned long long)total);
    printf("Time: %.3f s\n", (double)ns / 1e9);
    printf("NPS: %.0f\n", (double)total * 1e9 / (double)(ns ? ns : 1));
    search_free(s);
    return 0;
}

int bench_perft(int depth)
{
    const game_variant *v = game_variant_find("rampart");
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    v->ops->start(v, pos, 0);
    uint64_t t0 = timer_ns();
    uint64_t nodes = game_perft_fast(v, pos, depth);
    uint64_t ns = timer_ns() - t0;
    printf("perft %d from the Classic start\n", depth);
    printf("Nodes: %llu\n", (unsigned long long)nodes);
    printf("Time: %.3f s\n", (double)ns / 1e9);
    printf("NPS: %.0f\n", (double)nodes * 1e9 / (double)(ns ? ns : 1));
    return 0;
}

/* The bot the positions' game offers under spec, made for v; NULL if it
 * offers none (or memory is short). */
static void *own_bot(const game_variant *v, const char *spec)
{
    const game_bot_ops *bots = v ? v->ops->bots : NULL;
    if (!bots || !bots->owns || !bots->report || !bots->owns(v, spec))
        return NULL;
    return bots->create(v, spec, 1);
}

int bench_ab_material(int depth)
{
    const game_variant *first = game_variant_find(positions[0].variant);
    void *ab = own_bot(first, "ab-material");
    if (!ab) {
        fprintf(stderr, "citadel: out of memory\n");
        return 1;
    }
    const game_bot_ops *bots = first->ops->bots;
    uint64_t total = 0, t0 = timer_ns();
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        const game_variant *v = game_variant_find(positions[i].variant);
        _Alignas(16) unsigned char pos[GAME_POS_MAX];
        game_error err;
        if (!v || v->ops->bots != bots || v->ops->parse(v, pos, positions[i].fen, &err) != 0) {
            fprintf(stderr, "citadel: bench position %zu: %s\n", i + 1, err.msg);
            bots->destroy(ab);
            return 1;
        }
        bots->new_game(ab);
        game_limits lim = { .depth = depth, .time = { -1, -1 } };
        game_move m = bots->move(ab, pos, &lim, NULL);
        int rdepth = 0, score = 0;
        uint64_t nodes = 0;
        bots->report(ab, &rdepth, &score, &nodes);
        char mv[32] = "(none)";
        if (m)
            v->ops->format_move(pos, m, mv, sizeof mv);
        printf("position %2zu  %-10s  bestmove %-6s score %6d  depth %2d  nodes %llu\n", i + 1,
               positions[i].variant, mv, score, rdepth, (unsigned long long)nodes);
        total += nodes;
    }
    uint64_t ns = timer_ns() - t0;
    printf("\nab-material to depth %d\n", depth);
    printf("Nodes: %llu\n", (unsigned long long)total);
    printf("Time: %.3f s\n", (double)ns / 1e9);
    printf("NPS: %.0f\n", (double)total * 1e9 / (double)(ns ? ns : 1));
    bots->destroy(ab);
    return 0;
}
