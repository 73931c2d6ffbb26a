/* tool_tune.c -- `citadel tune`: fits the Rampart evaluation's weights to
 * self-play results (Texel's method). A tool of game.h (rp_tool_tune).
 *
 * 1. Play games: the searcher at a given level plays both sides from
 *    openings of random plies, with the move limit, so every game ends.
 * 2. Keep the quiet positions (no capture or enclosure to play) with the
 *    game's result from Bottom's side: 1, 1/2 or 0.
 * 3. Choose the scale K that best maps the current evaluation onto the
 *    results through a logistic curve, then change one weight at a time by
 *    a step up or down while the mean squared error falls.
 * The fitted weights are printed as a C initializer for eval.c. Whether
 * they play better is a question for `citadel match`, not for this tool.
 * The games are played by the searcher the caller lends (game_searcher).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/rng.h"
#include "../../base/timer.h"
#include "rampart.h"

typedef struct tune_options {
    int games;          /* self-play games, half Classic, half XL */
    int level, depth;   /* who plays them, and how deep */
    int move_limit;     /* R7.3 limit for those games */
    int opening_plies;  /* random plies before the searcher takes over */
    int concurrency;    /* threads */
    int passes;         /* at most this many passes over the weights */
    uint64_t seed;
} tune_options;

typedef struct sample {
    rp_pos pos;
    float result;  /* for Bottom */
} sample;

typedef struct dataset {
    sample *s;
    size_t n, cap;
    pthread_mutex_t lock;
} dataset;

typedef struct player_job {
    const game_searcher *search;
    const game_variant *v;
    int games, level, depth, move_limit, plies;
    uint64_t seed;
    dataset *data;
} player_job;

static int add(dataset *d, const sample *batch, size_t n)
{
    pthread_mutex_lock(&d->lock);
    if (d->n + n > d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 4096;
        while (cap < d->n + n)
            cap *= 2;
        sample *s = realloc(d->s, cap * sizeof *s);
        if (!s) {
            pthread_mutex_unlock(&d->lock);
            return -1;
        }
        d->s = s;
        d->cap = cap;
    }
    memcpy(d->s + d->n, batch, n * sizeof *batch);
    d->n += n;
    pthread_mutex_unlock(&d->lock);
    return 0;
}

static void *play_games(void *arg)
{
    player_job *j = arg;
    const game_searcher *sr = j->search;
    void *se = sr->create(8);
    sample *batch = malloc(sizeof *batch * 2048);
    if (!se || !batch) {
        if (se)
            sr->destroy(se);
        free(batch);
        return NULL;
    }
    rng g;
    rng_seed(&g, j->seed);
    for (int game = 0; game < j->games; game++) {
        rp_pos p;
        j->v->ops->start(j->v, &p, rng_next(&g));
        p.move_limit = j->move_limit;
        sr->new_game(se, j->level, rng_next(&g), 1);
        size_t n = 0;
        for (int ply = 0; ply < 4000; ply++) {
            game_move list[RP_MAX_MOVES];
            int nm = rp_legal(&p, list);
            if (nm == 0)
                break;
            game_move m;
            if (ply < j->plies) {
                m = list[rng_below(&g, (uint64_t)nm)];
            } else {
                game_move noisy[RP_MAX_MOVES];
                if (rp_gen_noisy(&p, noisy) == 0 && n < 2048) {
                    batch[n].pos = p;
                    batch[n].result = 0.5f;
                    n++;
                }
                game_limits lim = { .depth = j->depth, .time = { -1, -1 } };
                m = sr->run(se, j->v, &p, &lim, NULL);
            }
            rp_make(&p, m);
        }
        game_result r = rp_result(&p);
        float res = r.winner == RP_BOTTOM ? 1.0f : r.winner == RP_TOP ? 0.0f : 0.5f;
        for (size_t i = 0; i < n; i++)
            batch[i].result = res;
        if (add(j->data, batch, n) != 0)
            break;
    }
    sr->destroy(se);
    free(batch);
    return NULL;
}

static double sigmoid(double k, double e)
{
    return 1.0 / (1.0 + pow(10.0, -k * e / 400.0));
}

static double error(const dataset *d, const rp_weights *w, double k)
{
    double sum = 0;
    for (size_t i = 0; i < d->n; i++) {
        const rp_pos *p = &d->s[i].pos;
        double e = rp_evaluate_with(p, w);
        if (p->stm == RP_TOP)
            e = -e;
        double diff = d->s[i].result - sigmoid(k, e);
        sum += diff * diff;
    }
    return sum / (double)(d->n ? d->n : 1);
}

static void print_weights(const rp_weights *w, FILE *out)
{
    fprintf(out,
            "const rp_weights rp_default_weights = {\n"
            "    .material = %d,\n"
            "    .tactical = { %d, %d, %d, %d },\n"
            "    .queen_wide = %d,\n"
            "    .last_of_type = %d,\n"
            "    .no_capture = %d,\n"
            "    .hanging = { %d, %d, %d, %d },\n"
            "    .pressure = { %d, %d, %d, %d },\n"
            "    .cage = %d,\n"
            "    .cage_to_move = %d,\n"
            "    .mobility = %d,\n"
            "    .advance = %d,\n"
            "    .centre = %d,\n"
            "};\n",
            w->material, w->tactical[0], w->tactical[1], w->tactical[2], w->tactical[3],
            w->queen_wide, w->last_of_type, w->no_capture, w->hanging[0], w->hanging[1],
            w->hanging[2], w->hanging[3], w->pressure[0], w->pressure[1], w->pressure[2],
            w->pressure[3], w->cage, w->cage_to_move, w->mobility, w->advance,
            w->centre);
}

static int tune(const tune_options *o, const game_searcher *search)
{
    dataset data = { .s = NULL };
    pthread_mutex_init(&data.lock, NULL);
    uint64_t t0 = timer_ns();
    int threads = o->concurrency < 1 ? 1 : o->concurrency > 16 ? 16 : o->concurrency;
    pthread_t tid[16];
    player_job jobs[16];
    for (int v = 0; v < 2; v++) {
        const game_variant *var = v ? &rp_variant_xl : &rp_variant_classic;
        for (int t = 0; t < threads; t++) {
            jobs[t] = (player_job){ search, var, o->games / 2 / threads, o->level, o->depth,
                                    o->move_limit, o->opening_plies,
                                    o->seed * 1000 + (uint64_t)(v * 100 + t), &data };
            pthread_create(&tid[t], NULL, play_games, &jobs[t]);
        }
        for (int t = 0; t < threads; t++)
            pthread_join(tid[t], NULL);
    }
    fprintf(stderr, "tune: %zu quiet positions from %d games in %.1f s\n", data.n, o->games,
            (double)(timer_ns() - t0) / 1e9);
    if (data.n < 100) {
        fprintf(stderr, "tune: too few positions to fit\n");
        free(data.s);
        return 1;
    }
    rp_weights w = rp_default_weights;
    /* The scale K: a coarse scan then a fine one. */
    double k = 1.0, best = error(&data, &w, k);
    for (double step = 0.5; step > 0.001; step /= 4) {
        for (double c = k - 4 * step; c <= k + 4 * step; c += step) {
            if (c <= 0)
                continue;
            double e = error(&data, &w, c);
            if (e < best) {
                best = e;
                k = c;
            }
        }
    }
    fprintf(stderr, "tune: K = %.4f, error %.6f with the current weights\n", k, best);
    int *params[] = { &w.material,    &w.tactical[0], &w.tactical[1], &w.tactical[2],
                      &w.tactical[3], &w.queen_wide,  &w.last_of_type, &w.no_capture,
                      &w.hanging[0],  &w.hanging[1],  &w.hanging[2],  &w.pressure[0],
                      &w.pressure[1], &w.pressure[2], &w.cage,
                      &w.cage_to_move, &w.mobility,   &w.advance,     &w.centre };
    const int np = (int)(sizeof params / sizeof params[0]);
    for (int pass = 0; pass < o->passes; pass++) {
        int improved = 0;
        for (int i = 0; i < np; i++) {
            int step = *params[i] >= 40 ? 5 : 1;
            for (int dir = -1; dir <= 1; dir += 2) {
                *params[i] += dir * step;
                double e = error(&data, &w, k);
                if (e < best) {
                    best = e;
                    improved = 1;
                    break;
                }
                *params[i] -= dir * step;
            }
        }
        fprintf(stderr, "tune: pass %d error %.6f\n", pass + 1, best);
        if (!improved)
            break;
    }
    print_weights(&w, stdout);
    free(data.s);
    pthread_mutex_destroy(&data.lock);
    return 0;
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int tune_run(int argc, char **argv, const game_tool_env *env)
{
    tune_options o = { .games = 400, .level = 4, .depth = 3, .move_limit = 100,
                       .opening_plies = 6, .concurrency = 2, .passes = 50, .seed = 1 };
    for (int i = 0; i < argc; i++) {
        long v;
        if (i + 1 >= argc || parse_int(argv[i + 1], 0, 100000000L, &v))
            return env->bad_usage("every tune option needs a whole number");
        const char *a = argv[i++];
        if (strcmp(a, "--games") == 0)
            o.games = (int)v;
        else if (strcmp(a, "--depth") == 0 && v >= 1 && v <= 20)
            o.depth = (int)v;
        else if (strcmp(a, "--level") == 0 && v >= 1 && v <= env->search->levels)
            o.level = (int)v;
        else if (strcmp(a, "--move-limit") == 0)
            o.move_limit = (int)v;
        else if (strcmp(a, "--plies") == 0)
            o.opening_plies = (int)v;
        else if (strcmp(a, "--concurrency") == 0)
            o.concurrency = (int)v;
        else if (strcmp(a, "--passes") == 0)
            o.passes = (int)v;
        else if (strcmp(a, "--seed") == 0)
            o.seed = (uint64_t)v;
        else
            return env->bad_usage("unknown or out-of-range tune option");
    }
    return tune(&o, env->search);
}

const game_tool rp_tool_tune = {
    .command = "tune",
    .usage = "  tune [--games N] [--depth D] [--level L] [--move-limit M] [--plies P]\n"
             "       [--concurrency C] [--passes K] [--seed S]\n"
             "                           fit Rampart's evaluation weights to self-play\n",
    .run = tune_run,
};
