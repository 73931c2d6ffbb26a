/* tool_belief_fit.c -- `citadel belief-fit [OPTIONS] RECORDS...`: fits the
 * learned belief (belief_net.h) to recorded Stratego games and writes its
 * weights as C (belief_net_data.c). A tool of game.h (st_tool_belief_fit).
 *
 * Each game of the records files (`citadel match --records`) is replayed;
 * before every move, the side to move's view is read into a dossier of
 * the other side's pieces (dossier.h) exactly as a bot of that side reads
 * it, and every enemy piece of unknown rank that moved and never ran
 * (a piece that ran is a Scout) is one example: its inputs, its true rank
 * (read from the full position only as the answer), and how many pieces of
 * each kind that moves the enemy still has unknown and not run (public:
 * the view keeps each side's losses, S5). The network is fitted by
 * minibatch gradient descent on the log loss; games whose number ends in
 * 0, 1 or 2 are held out, and the report (on standard error) compares the
 * net's chance of the true rank on them with the counts' alone.
 *
 * Invariant: the same records and options give the same weights.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/file.h"
#include "../../base/rng.h"
#include "../pgn.h"
#include "belief_net.h"
#include "stratego.h"

typedef struct example {
    float in[ST_DEED_INPUTS];
    float off[ST_NET_KINDS];  /* log of the count of each kind, -30 for none */
    uint8_t kind;              /* 0 .. ST_NET_KINDS - 1 */
    uint8_t held_out;
} example;

typedef struct fit {
    example *ex;
    size_t n, cap;
    int games;
    const char *player;  /* learn the pieces of players named so, or all */
    int every;           /* read one view in this many of each side's */
} fit;

static int add(fit *f, const example *e)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 4096;
        example *ex = realloc(f->ex, cap * sizeof *ex);
        if (!ex)
            return -1;
        f->ex = ex;
        f->cap = cap;
    }
    f->ex[f->n++] = *e;
    return 0;
}

static int named(const char *name, const char *prefix)
{
    return !prefix || (name && strncmp(name, prefix, strlen(prefix)) == 0);
}

/* The examples of one game; -1 if memory ran out. */
static int read_game(fit *f, const pgn_record *rec)
{
    const char *variant = pgn_tag_of(rec, "Variant"), *fen = pgn_tag_of(rec, "FEN");
    if (!variant || strcmp(variant, "stratego") != 0)
        return 0;
    st_pos pos;
    if (!fen || st_parse(&pos, fen, NULL) != 0)
        return 0;
    pos.move_limit = 0;
    const char *names[2] = { pgn_tag_of(rec, "Red"), pgn_tag_of(rec, "Blue") };
    int learn[2] = { named(names[1], f->player), named(names[0], f->player) };  /* by viewer */
    int held_out = f->games % 10 < 3;
    f->games++;
    static st_dossier dz[2];
    st_dossier_clear(&dz[0]);
    st_dossier_clear(&dz[1]);
    for (int ply = 0; ply < rec->nmoves; ply++) {
        game_move m;
        if (st_over(&pos) || st_parse_move(&pos, rec->moves[ply], &m, NULL) != 0)
            break;
        int side = pos.stm;
        if (learn[side]) {
            st_pos view;
            st_view(&pos, side, &view);
            st_dossier_watch(&dz[side], &view);
            int count[ST_NKINDS] = { 0 };
            for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
                uint8_t v = view.sq[c];
                if (ST_IS_PIECE(v) && ST_SIDE(v) != side && ST_KIND(v) == ST_UNKNOWN && !(v & ST_SCOUTED))
                    count[ST_KIND(pos.sq[c])]++;
            }
            for (int c = ST_CELL(0, 0); (ply / 2) % f->every == 0 && c <= ST_CELL(9, 9); c++) {
                uint8_t v = view.sq[c];
                if (!ST_IS_PIECE(v) || ST_SIDE(v) == side || ST_KIND(v) != ST_UNKNOWN ||
                    !(v & ST_MOVED) || (v & ST_SCOUTED))
                    continue;
                example e;
                st_dossier_inputs(&dz[side], &view, c, e.in);
                for (int k = 0; k < ST_NET_KINDS; k++)
                    e.off[k] = count[ST_SPY + k] ? logf((float)count[ST_SPY + k]) : -30.0f;
                e.kind = (uint8_t)(ST_KIND(pos.sq[c]) - ST_SPY);
                e.held_out = (uint8_t)held_out;
                if (add(f, &e) != 0)
                    return -1;
            }
        }
        st_make(&pos, m);
    }
    return 0;
}

/* The chances of each kind for e under net (counts alone if NULL). */
static void chances(const st_net *net, const example *e, float h[ST_NET_HIDDEN], double p[ST_NET_KINDS])
{
    float z[ST_NET_KINDS];
    if (net)
        st_net_scores(net, e->in, z, h);
    double top = -1e30, sum = 0;
    for (int k = 0; k < ST_NET_KINDS; k++) {
        p[k] = (net ? z[k] : 0) + e->off[k];
        if (p[k] > top)
            top = p[k];
    }
    for (int k = 0; k < ST_NET_KINDS; k++)
        sum += p[k] = exp(p[k] - top);
    for (int k = 0; k < ST_NET_KINDS; k++)
        p[k] /= sum;
}

/* Mean chance of the true kind and mean log loss over the held-out
 * examples (of kind `only`, or all if -1). */
static long judge(const fit *f, const st_net *net, int only, double *mean, double *loss)
{
    long n = 0;
    double pt = 0, ll = 0, p[ST_NET_KINDS];
    for (size_t i = 0; i < f->n; i++) {
        const example *e = &f->ex[i];
        if (!e->held_out || (only >= 0 && e->kind != only))
            continue;
        chances(net, e, NULL, p);
        pt += p[e->kind];
        ll -= log(p[e->kind] > 1e-12 ? p[e->kind] : 1e-12);
        n++;
    }
    *mean = n ? pt / (double)n : 0;
    *loss = n ? ll / (double)n : 0;
    return n;
}

static double gauss(rng *g)
{
    double u = ((double)(rng_next(g) >> 11) + 0.5) / 9007199254740992.0;
    double v = ((double)(rng_next(g) >> 11) + 0.5) / 9007199254740992.0;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

#define BATCH 512

static void train(fit *f, st_net *net, int epochs, double rate, double decay, uint64_t seed)
{
    rng g;
    rng_seed(&g, seed);
    memset(net, 0, sizeof *net);
    for (int i = 0; i < ST_DEED_INPUTS; i++)
        for (int j = 0; j < ST_NET_HIDDEN; j++)
            net->w1[i][j] = (float)(0.3 * gauss(&g));
    size_t *order = malloc((f->n ? f->n : 1) * sizeof *order), m = 0;
    st_net *grad = calloc(1, sizeof *grad), *mom = calloc(1, sizeof *mom);
    if (!order || !grad || !mom)
        goto out;
    for (size_t i = 0; i < f->n; i++)
        if (!f->ex[i].held_out)
            order[m++] = i;
    float *gw = (float *)grad, *mw = (float *)mom, *w = (float *)net;
    size_t nw = sizeof *net / sizeof(float);
    for (int ep = 0; ep < epochs; ep++) {
        for (size_t i = m; i > 1; i--) {
            size_t j = (size_t)rng_below(&g, i), t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
        for (size_t at = 0; at < m; at += BATCH) {
            size_t end = at + BATCH < m ? at + BATCH : m;
            memset(grad, 0, sizeof *grad);
            for (size_t b = at; b < end; b++) {
                const example *e = &f->ex[order[b]];
                float h[ST_NET_HIDDEN], gh[ST_NET_HIDDEN] = { 0 };
                double p[ST_NET_KINDS];
                chances(net, e, h, p);
                for (int k = 0; k < ST_NET_KINDS; k++) {
                    float d = (float)((p[k] - (k == e->kind)) / (double)(end - at));
                    grad->b2[k] += d;
                    for (int j = 0; j < ST_NET_HIDDEN; j++) {
                        grad->w2[j][k] += h[j] * d;
                        gh[j] += net->w2[j][k] * d;
                    }
                }
                for (int j = 0; j < ST_NET_HIDDEN; j++) {
                    if (h[j] <= 0)
                        continue;
                    grad->b1[j] += gh[j];
                    for (int i = 0; i < ST_DEED_INPUTS; i++)
                        grad->w1[i][j] += e->in[i] * gh[j];
                }
            }
            for (size_t i = 0; i < nw; i++) {
                mw[i] = 0.9f * mw[i] + gw[i] + (float)decay * w[i];
                w[i] -= (float)rate * mw[i];
            }
        }
        double mean, loss;
        judge(f, net, -1, &mean, &loss);
        fprintf(stderr, "epoch %2d: held out, mean P(true rank) %.4f, log loss %.4f\n", ep + 1, mean, loss);
    }
out:
    free(order);
    free(grad);
    free(mom);
}

static void put_row(const float *v, int n)
{
    printf("{");
    for (int i = 0; i < n; i++)
        printf("%s%.6gf", i ? (i % 6 ? ", " : ",\n      ") : " ", (double)v[i]);
    printf(" }");
}

static void write_c(const st_net *net, const fit *f, int epochs, double rate, double decay, double mean,
                    double base)
{
    printf("/* belief_net_data.c -- the learned belief's weights (belief_net.h), written\n"
           " * by `citadel belief-fit%s%s --epochs %d --every %d --rate %g --decay %g`\n"
           " * from %d recorded games\n"
           " * (%zu examples): on the held-out games the net gives the true rank a mean\n"
           " * chance of %.4f, the counts alone %.4f.\n"
           " *\n"
           " * Invariant: written by the tool, not by hand; fit again to change it.\n"
           " */\n#include \"belief_net.h\"\n\nconst st_net st_net_trained = {\n    .w1 = {\n",
           f->player ? " --player " : "", f->player ? f->player : "", epochs, f->every, rate, decay, f->games, f->n,
           mean, base);
    for (int i = 0; i < ST_DEED_INPUTS; i++) {
        printf("        ");
        put_row(net->w1[i], ST_NET_HIDDEN);
        printf(",\n");
    }
    printf("    },\n    .b1 = ");
    put_row(net->b1, ST_NET_HIDDEN);
    printf(",\n    .w2 = {\n");
    for (int j = 0; j < ST_NET_HIDDEN; j++) {
        printf("        ");
        put_row(net->w2[j], ST_NET_KINDS);
        printf(",\n");
    }
    printf("    },\n    .b2 = ");
    put_row(net->b2, ST_NET_KINDS);
    printf(",\n};\n");
}

static int usage(void)
{
    fprintf(stderr, "usage: citadel belief-fit [--player NAME] [--epochs N] [--every N] [--rate R]\n"
                    "                          [--decay D] RECORDS...\n"
                    "  (files of `citadel match --records`; learns the pieces of players whose\n"
                    "  name begins with NAME, else of all; writes C to standard output)\n");
    return 2;
}

static int fit_run(int argc, char **argv, const game_tool_env *env)
{
    (void)env;
    fit f = { .every = 2 };
    int epochs = 12, i = 0;
    double rate = 0.05, decay = 0;
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        char *end;
        long v = strtol(argv[i + 1], &end, 10);
        if (strcmp(argv[i], "--player") == 0)
            f.player = argv[i + 1];
        else if (strcmp(argv[i], "--epochs") == 0 && !*end && v >= 1 && v <= 1000)
            epochs = (int)v;
        else if (strcmp(argv[i], "--every") == 0 && !*end && v >= 1 && v <= 1000)
            f.every = (int)v;
        else if (strcmp(argv[i], "--rate") == 0 && (rate = strtod(argv[i + 1], &end)) > 0 && rate < 10 && !*end)
            continue;
        else if (strcmp(argv[i], "--decay") == 0 && (decay = strtod(argv[i + 1], &end)) >= 0 && decay < 1 && !*end)
            continue;
        else
            return usage();
    }
    if (i >= argc)
        return usage();
    int rc = 0;
    pgn_record rec;
    pgn_record_init(&rec);
    for (; i < argc && rc == 0; i++) {
        char err[256];
        size_t len = 0, at = 0;
        char *all = file_read_all(argv[i], PGN_FILE_MAX, &len, err, sizeof err);
        if (!all) {
            fprintf(stderr, "citadel belief-fit: %s\n", err);
            rc = 1;
            break;
        }
        int line = 1, r;
        while (rc == 0 && (r = pgn_next(all, len, &at, &line, &rec, err, sizeof err)) != 0)
            if (r > 0 && read_game(&f, &rec) != 0) {
                fprintf(stderr, "citadel belief-fit: out of memory\n");
                rc = 1;
            }
        free(all);
    }
    pgn_record_free(&rec);
    st_net *net = calloc(1, sizeof *net);
    if (rc == 0 && (!net || f.n == 0)) {
        fprintf(stderr, "citadel belief-fit: %s\n", net ? "no examples in the records" : "out of memory");
        rc = 1;
    }
    if (rc == 0) {
        double base, mean, loss;
        judge(&f, NULL, -1, &base, &loss);
        fprintf(stderr, "%d games, %zu examples; held out, counts alone: mean P(true rank) %.4f, log loss %.4f\n",
                f.games, f.n, base, loss);
        train(&f, net, epochs, rate, decay, 1);
        judge(&f, net, -1, &mean, &loss);
        fprintf(stderr, "held out: the net's mean P(true rank) %.4f, the counts' %.4f\n", mean, base);
        for (int k = 0; k < ST_NET_KINDS; k++) {
            double pc, pn, l;
            long n = judge(&f, NULL, k, &pc, &l);
            judge(&f, net, k, &pn, &l);
            fprintf(stderr, "  %-10s %7ld held-out examples: counts %.4f, net %.4f\n",
                    (const char *[]){ "Spy", "Scout", "Miner", "Sergeant", "Lieutenant", "Captain", "Major",
                                      "Colonel", "General", "Marshal" }[k], n, pc, pn);
        }
        write_c(net, &f, epochs, rate, decay, mean, base);
    }
    free(net);
    free(f.ex);
    return rc;
}

const game_tool st_tool_belief_fit = {
    .command = "belief-fit",
    .usage = "  belief-fit [--player NAME] [--epochs N] [--every N] [--rate R] [--decay D] RECORDS...\n"
             "                           Stratego: fits the learned belief to recorded\n"
             "                           games and writes its weights as C\n",
    .run = fit_run,
};
