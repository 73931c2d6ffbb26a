/* tool_train.c -- `citadel train gen|fit`: the command line of
 * tool_train.h, offered through game.h as rp_tool_train.
 *
 * Every option takes one value; a bad one prints what is wrong and the
 * usage, and the exit status is 2.
 */
#include "tool_train.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: citadel train gen --out FILE [--variant rampart|rampart-xl|both]\n"
    "                         [--games N] [--nodes N] [--move-limit M]\n"
    "                         [--plies MIN-MAX] [--concurrency C] [--seed S]\n"
    "       citadel train fit --out NET [--epochs E] [--batch B] [--lr X]\n"
    "                         [--lambda X] [--concurrency C] [--seed S] DATA...\n"
    "\n"
    "gen: the strongest level plays itself (N nodes a move, default 5000) and\n"
    "     keeps each quiet position with its search score and the result\n"
    "     (defaults: both variants, 1000 games, move limit 100, 4-10 random\n"
    "     opening plies, 2 threads).\n"
    "fit: one net per board in the data files (defaults: 30 epochs, batch\n"
    "     16384, step 0.001, lambda 0.5), written as a net file for\n"
    "     src/games/rampart/rampart.nnue (docs/bots.md).\n";

static int bad(const char *what)
{
    fprintf(stderr, "citadel train: %s\n\n%s", what, usage);
    return 2;
}

static int whole(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int real(const char *s, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}

static int gen_main(int argc, char **argv, const game_searcher *search)
{
    train_gen_options o = { .variant = "both", .games = 1000, .nodes = 5000,
                            .move_limit = 100, .plies_min = 4, .plies_max = 10,
                            .concurrency = 2, .seed = 1 };
    for (int i = 0; i < argc; i += 2) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        long v;
        if (!val)
            return bad("every option needs a value");
        if (strcmp(a, "--out") == 0)
            o.out = val;
        else if (strcmp(a, "--variant") == 0)
            o.variant = val;
        else if (strcmp(a, "--games") == 0 && !whole(val, 1, 100000000L, &v))
            o.games = (int)v;
        else if (strcmp(a, "--nodes") == 0 && !whole(val, 1, 1000000000L, &v))
            o.nodes = (uint64_t)v;
        else if (strcmp(a, "--move-limit") == 0 && !whole(val, 0, 10000, &v))
            o.move_limit = (int)v;
        else if (strcmp(a, "--concurrency") == 0 && !whole(val, 1, 64, &v))
            o.concurrency = (int)v;
        else if (strcmp(a, "--seed") == 0 && !whole(val, 0, 1000000000L, &v))
            o.seed = (uint64_t)v;
        else if (strcmp(a, "--plies") == 0) {
            int lo, hi, used = 0;
            if (sscanf(val, "%d-%d%n", &lo, &hi, &used) != 2 || val[used] || lo < 0 ||
                hi < lo || hi > 100)
                return bad("--plies needs MIN-MAX, 0 <= MIN <= MAX <= 100");
            o.plies_min = lo;
            o.plies_max = hi;
        } else
            return bad("unknown or out-of-range gen option");
    }
    if (!o.out)
        return bad("gen needs --out FILE");
    return train_gen(&o, search);
}

static int fit_main(int argc, char **argv)
{
    train_fit_options o = { .epochs = 30, .batch = 16384, .lr = 0.001, .lambda = 0.5,
                            .concurrency = 2, .seed = 1 };
    const char **data = calloc((size_t)argc + 1, sizeof *data);
    if (!data)
        return 1;
    int n = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] != '-') {
            data[n++] = a;
            continue;
        }
        const char *val = i + 1 < argc ? argv[++i] : NULL;
        long v;
        double x;
        int ok = 1;
        if (!val)
            ok = 0;
        else if (strcmp(a, "--out") == 0)
            o.out = val;
        else if (strcmp(a, "--epochs") == 0 && !whole(val, 1, 10000, &v))
            o.epochs = (int)v;
        else if (strcmp(a, "--batch") == 0 && !whole(val, 1, 10000000L, &v))
            o.batch = (int)v;
        else if (strcmp(a, "--lr") == 0 && !real(val, 1e-7, 1.0, &x))
            o.lr = x;
        else if (strcmp(a, "--lambda") == 0 && !real(val, 0.0, 1.0, &x))
            o.lambda = x;
        else if (strcmp(a, "--concurrency") == 0 && !whole(val, 1, 64, &v))
            o.concurrency = (int)v;
        else if (strcmp(a, "--seed") == 0 && !whole(val, 0, 1000000000L, &v))
            o.seed = (uint64_t)v;
        else
            ok = 0;
        if (!ok) {
            free(data);
            return bad("unknown or out-of-range fit option");
        }
    }
    if (!o.out || n == 0) {
        free(data);
        return bad("fit needs --out NET and at least one data file");
    }
    o.data = data;
    o.ndata = n;
    int rc = train_fit(&o);
    free(data);
    return rc;
}

static int train_run(int argc, char **argv, const game_tool_env *env)
{
    if (argc >= 1 && strcmp(argv[0], "gen") == 0)
        return gen_main(argc - 1, argv + 1, env->search);
    if (argc >= 1 && strcmp(argv[0], "fit") == 0)
        return fit_main(argc - 1, argv + 1);
    return bad("train needs gen or fit");
}

const game_tool rp_tool_train = {
    .command = "train",
    .usage = "  train gen|fit ...        Rampart's learnt evaluation from self-play\n"
             "                           (`citadel train` lists the options)\n",
    .run = train_run,
};
