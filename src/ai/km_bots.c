/* km_bots.c -- Keeps & Moats bots (km_bots.h) and the four-seat match.
 *
 * Levels of the search bots: the depth in plies (one kingdom's move each),
 * a node budget per move and a blur of the evaluation that makes weaker
 * levels err and every level vary from game to game.
 *
 *   level  depth  nodes    blur
 *   1      1      -        60
 *   2      2      4000     30
 *   3      3      12000    15
 *   4      4      40000    8
 *   5      5      150000   4
 *
 * The match plays games one after another on one thread: A sits at seat
 * g mod 4 in game g, B's three copies at the other seats; each game starts
 * with a few random plies. A game counts as a win for A when A's team wins,
 * a draw at the move limit, a loss otherwise. The interval printed is the
 * Wilson 95% interval of A's win rate.
 */
#include "km_bots.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/rng.h"
#include "../base/timer.h"
#include "../games/keeps-moats/keeps_moats.h"
#include "multi.h"

enum { KB_RANDOM, KB_CAPTURE, KB_SEARCH };

struct kmbot {
    int kind, style, level, algo, depth;
    uint64_t nodes;
    int noise;
    rng rng;
    char name[64];
};

static const struct {
    int depth, nodes, noise;
} levels[6] = { { 0, 0, 0 }, { 1, 0, 60 }, { 2, 4000, 30 }, { 3, 12000, 15 },
                { 4, 40000, 8 }, { 5, 150000, 4 } };

static const char *const style_names[3] = { "aggressive", "balanced", "defensive" };

kmbot *kmbot_new(const char *spec, uint64_t seed, char *err, size_t errlen)
{
    kmbot *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(b->name, sizeof b->name, "%s", spec);
    rng_seed(&b->rng, seed);
    if (strcmp(spec, "random") == 0) {
        b->kind = KB_RANDOM;
        return b;
    }
    if (strcmp(spec, "capture") == 0) {
        b->kind = KB_CAPTURE;
        return b;
    }
    b->kind = KB_SEARCH;
    b->style = -1;
    for (int i = 0; i < 3; i++) {
        size_t len = strlen(style_names[i]);
        if (strncmp(spec, style_names[i], len) == 0 && spec[len] == '=') {
            b->style = i;
            spec += len + 1;
        }
    }
    if (b->style < 0 || spec[0] < '1' || spec[0] > '5' || (spec[1] && spec[1] != '/')) {
        snprintf(err, errlen,
                 "unknown bot '%.40s' (random, capture, aggressive=N, balanced=N, "
                 "defensive=N with N 1-5)",
                 b->name);
        free(b);
        return NULL;
    }
    b->level = spec[0] - '0';
    b->depth = levels[b->level].depth;
    b->nodes = (uint64_t)levels[b->level].nodes;
    b->noise = levels[b->level].noise;
    b->algo = MULTI_PARANOID;
    for (const char *s = spec + 1; *s == '/';) {
        s++;
        char *end;
        if (strncmp(s, "paranoid", 8) == 0) {
            b->algo = MULTI_PARANOID;
            s += 8;
        } else if (strncmp(s, "maxn", 4) == 0) {
            b->algo = MULTI_MAXN;
            s += 4;
        } else if (strncmp(s, "nodes=", 6) == 0 && s[6] >= '0' && s[6] <= '9') {
            b->nodes = strtoull(s + 6, &end, 10);
            s = end;
        } else if (strncmp(s, "depth=", 6) == 0 && s[6] >= '1' && s[6] <= '9') {
            long d = strtol(s + 6, &end, 10);
            b->depth = d > MULTI_MAX_DEPTH ? MULTI_MAX_DEPTH : (int)d;
            s = end;
        } else
            break;
        if (*s && *s != '/')
            break;
        if (!*s)
            return b;
    }
    if (spec[1]) {
        snprintf(err, errlen, "bad limits in '%.40s' (/paranoid, /maxn, /nodes=N, /depth=N)",
                 b->name);
        free(b);
        return NULL;
    }
    return b;
}

void kmbot_free(kmbot *b)
{
    free(b);
}

const char *kmbot_name(const kmbot *b)
{
    return b->name;
}

void kmbot_seed(kmbot *b, uint64_t seed)
{
    rng_seed(&b->rng, seed);
}

static void eval_cb(const void *pos, void *ctx, int out[GAME_MAX_SIDES])
{
    km_eval(pos, ctx, out);
}

static int hint_cb(const void *pos, game_move m, void *ctx)
{
    (void)ctx;
    return km_move_gain(pos, m);
}

game_move kmbot_move(kmbot *b, const void *vpos)
{
    const km_pos *pos = vpos;
    game_move list[KM_MAX_MOVES];
    int n = km_legal(pos, list);
    if (n == 0)
        return GAME_MOVE_NONE;
    if (b->kind == KB_RANDOM)
        return list[rng_below(&b->rng, (uint64_t)n)];
    if (b->kind == KB_CAPTURE) {
        int best = 0, ties = 0;
        game_move pick = list[rng_below(&b->rng, (uint64_t)n)];
        for (int i = 0; i < n; i++) {
            int gain = km_move_gain(pos, list[i]);
            if (gain <= 0 || gain < best)
                continue;
            if (gain > best) {
                best = gain;
                ties = 0;
            }
            if (rng_below(&b->rng, (uint64_t)++ties) == 0)
                pick = list[i];
        }
        return pick;
    }
    multi_config c = {
        .variant = &km_variant, .eval = eval_cb, .hint = hint_cb,
        .ctx = (void *)&km_styles[b->style], .algo = b->algo, .depth = b->depth,
        .nodes = b->nodes, .noise = b->noise, .seed = rng_next(&b->rng),
    };
    return multi_search(&c, pos, NULL);
}

/* --- the four-seat match ------------------------------------------------- */

static const char km_match_usage[] =
    "usage: citadel match A B --variant keeps-moats [options]\n"
    "\n"
    "Plays bot A against three copies of bot B, A's seat rotating game by game,\n"
    "and prints A's score and win rate with its 95% interval. Bots: random,\n"
    "capture, aggressive=N, balanced=N, defensive=N (N 1-5), optionally with\n"
    "/paranoid, /maxn, /nodes=N, /depth=N.\n"
    "\n"
    "options:\n"
    "      --games N            default 100\n"
    "      --game-type G        0 neighbors, 1 crossroad, 2 anarchy (default)\n"
    "      --king-result R      0 gained (default), 1 lost, 2 frozen\n"
    "      --move-limit N       rounds, default 200 (0 = none)\n"
    "      --openings-plies K   random plies at the start of each game, default 4\n"
    "      --seed S             default 0\n"
    "      --quiet              no progress on stderr\n";

static int km_bad(const char *what, const char *val)
{
    fprintf(stderr, "citadel: %s%s%s\n\n%s", what, val ? ": " : "", val ? val : "",
            km_match_usage);
    return 2;
}

static int number(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Wilson score interval for k successes in n at 95%. */
static void wilson(int k, int n, double *lo, double *hi)
{
    if (n == 0) {
        *lo = 0;
        *hi = 1;
        return;
    }
    double z = 1.959964, p = (double)k / n, d = 1 + z * z / n;
    double mid = (p + z * z / (2.0 * n)) / d;
    double half = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;
    *lo = mid - half;
    *hi = mid + half;
}

int km_match_main(int argc, char **argv)
{
    const char *spec[2] = { NULL, NULL };
    long games = 100, gt = KM_ANARCHY, kr = KM_GAINED, limit = 200, openings = 4, quiet = 0;
    unsigned long long seed = 0;
    int nspecs = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0) {
            if (nspecs == 2)
                return km_bad("one bot too many", a);
            spec[nspecs++] = a;
            continue;
        }
        if (strcmp(a, "--help") == 0) {
            fputs(km_match_usage, stdout);
            return 0;
        }
        if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
            continue;
        }
        if (i + 1 >= argc)
            return km_bad("an option needs a value", a);
        const char *v = argv[++i];
        int bad = 0;
        if (strcmp(a, "--variant") == 0)
            bad = strcmp(v, "keeps-moats") != 0;
        else if (strcmp(a, "--games") == 0)
            bad = number(v, 1, 10000000, &games);
        else if (strcmp(a, "--game-type") == 0)
            bad = number(v, 0, 2, &gt);
        else if (strcmp(a, "--king-result") == 0)
            bad = number(v, 0, 2, &kr);
        else if (strcmp(a, "--move-limit") == 0)
            bad = number(v, 0, 100000, &limit);
        else if (strcmp(a, "--openings-plies") == 0)
            bad = number(v, 0, 40, &openings);
        else if (strcmp(a, "--seed") == 0) {
            char *end;
            errno = 0;
            seed = strtoull(v, &end, 10);
            bad = end == v || *end || errno || v[0] == '-';
        } else
            return km_bad("unknown option", a);
        if (bad)
            return km_bad("bad value for", a);
    }
    if (nspecs < 2)
        return km_bad("match needs two bots, e.g. `citadel match balanced=3 capture "
                      "--variant keeps-moats`", NULL);
    kmbot *seat[KM_NK];
    char err[160];
    for (int j = 0; j < 2; j++) {
        kmbot *b = kmbot_new(spec[j], 0, err, sizeof err);
        if (!b)
            return km_bad(err, NULL);
        kmbot_free(b);
    }
    kmbot *a = kmbot_new(spec[0], 0, err, sizeof err);
    kmbot *opp[KM_NK - 1];
    for (int i = 0; i < KM_NK - 1; i++)
        opp[i] = kmbot_new(spec[1], 0, err, sizeof err);
    if (!a || !opp[0] || !opp[1] || !opp[2]) {
        kmbot_free(a);
        for (int i = 0; i < KM_NK - 1; i++)
            kmbot_free(opp[i]);
        return km_bad("out of memory", NULL);
    }
    const game_ops *ops = km_variant.ops;
    int wins = 0, losses = 0, draws = 0;
    long long plies = 0;
    uint64_t t0 = timer_ns();
    rng g;
    rng_seed(&g, seed);
    for (long game = 0; game < games; game++) {
        int aseat = (int)(game % KM_NK);
        for (int k = 0, j = 0; k < KM_NK; k++)
            seat[k] = k == aseat ? a : opp[j++];
        for (int k = 0; k < KM_NK; k++)
            kmbot_seed(seat[k], rng_next(&g));
        km_pos pos, undo;
        km_start(&pos, (int)gt, (int)kr);
        pos.limit = (int32_t)limit;
        for (int i = 0; i < openings; i++) {
            game_move list[KM_MAX_MOVES];
            int n = km_legal(&pos, list);
            if (n == 0)
                break;
            ops->make(&pos, list[rng_below(&g, (uint64_t)n)], &undo);
        }
        for (;;) {
            game_result r = ops->result(&pos);
            if (r.over) {
                if (r.winner < 0)
                    draws++;
                else if (r.winner == ops->team_of(&pos, aseat))
                    wins++;
                else
                    losses++;
                break;
            }
            game_move m = kmbot_move(seat[pos.stm], &pos);
            ops->make(&pos, m, &undo);
            plies++;
        }
        if (!quiet && ((game + 1) % 10 == 0 || game + 1 == games)) {
            fprintf(stderr, "\r%ld/%ld games: %d - %d - %d", game + 1, games, wins, losses, draws);
            fflush(stderr);
        }
    }
    if (!quiet)
        fputc('\n', stderr);
    int n = wins + losses + draws;
    double lo, hi;
    wilson(wins, n, &lo, &hi);
    static const char *const gt_names[3] = { "neighbors", "crossroad", "anarchy" };
    printf("Score of %s vs 3x %s (%s): %d - %d - %d  [%.3f] %d\n", spec[0], spec[1],
           gt_names[gt], wins, losses, draws, n ? (double)wins / n : 0.0, n);
    printf("Win rate: %.3f, 95%% interval %.3f-%.3f\n", n ? (double)wins / n : 0.0, lo, hi);
    printf("Plies per game: %.1f, %.1f s\n", n ? (double)plies / n : 0.0,
           (double)(timer_ns() - t0) / 1e9);
    kmbot_free(a);
    for (int i = 0; i < KM_NK - 1; i++)
        kmbot_free(opp[i]);
    return 0;
}
