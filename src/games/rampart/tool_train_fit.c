/* tool_train_fit.c -- `citadel train fit`: fits Rampart's nets (nnue.h)
 * to labelled self-play positions, and writes the net file nnue.c reads.
 *
 * For each board in the data, one net. The target of a position is
 *     lambda * sigmoid(score / S) + (1 - lambda) * (result + 1) / 2,
 * where S, the centipawns of the search scores that one unit of the net's
 * output is worth, is the scale that best predicts the results from the
 * scores (so the net speaks the search's centipawns: its file keeps S).
 * The loss is the squared difference between sigmoid(net output) and the
 * target; Adam, mini-batches split over threads, the step size cut tenfold
 * for the last quarter of the epochs. Hidden weights are clipped to
 * [-RN_W1_MAX, RN_W1_MAX], output weights to [-RN_W2_MAX, RN_W2_MAX], so that
 * the quantized net (nnue.h) fits its integers. A fiftieth of the
 * positions is held out; its loss is printed after every epoch, and at the
 * end the quantized net is compared with the float one on it.
 *
 * Invariant: the file written is one rn_check accepts (it is checked after
 * writing, by reading it back).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/rng.h"
#include "../../base/timer.h"
#include "nnue.h"
#include "tool_train.h"

#define H RN_HIDDEN
#define F RN_FEATURES
#define MAX_THREADS 16

typedef struct params {
    float w1[F * H], b1[H], w2[2 * H], b2;
} params;

typedef struct board_set {
    int w, h;
    rn_sample *s;
    size_t n, cap;
} board_set;

typedef struct fit_job {
    const params *p;
    params *grad;            /* this thread's gradient */
    const rn_sample *s;
    const size_t *idx;
    size_t from, to;
    double scale, lambda;
    double loss;
} fit_job;

static float sigmoidf(double x)
{
    return (float)(1.0 / (1.0 + exp(-x)));
}

static double target(const rn_sample *s, double scale, double lambda)
{
    return lambda * sigmoidf(s->score / scale) + (1.0 - lambda) * (s->result + 1) * 0.5;
}

/* The float net on one sample: its output (logit); fills the hidden
 * activations if asked. */
static float forward(const params *p, const rp_pos *pos, float a[2][H], int f[2][RN_MAX_ACTIVE],
                     int nf[2])
{
    for (int k = 0; k < 2; k++) {
        nf[k] = rn_features(pos, k == 0 ? pos->stm : pos->stm ^ 1, f[k]);
        memcpy(a[k], p->b1, sizeof p->b1);
        for (int j = 0; j < nf[k]; j++) {
            const float *row = p->w1 + (size_t)f[k][j] * H;
            for (int i = 0; i < H; i++)
                a[k][i] += row[i];
        }
    }
    float out = p->b2;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < H; i++) {
            float x = a[k][i] < 0 ? 0 : a[k][i] > 1 ? 1 : a[k][i];
            out += x * p->w2[k * H + i];
        }
    return out;
}

static void *fit_slice(void *arg)
{
    fit_job *j = arg;
    const params *p = j->p;
    params *g = j->grad;
    memset(g, 0, sizeof *g);
    j->loss = 0;
    for (size_t k = j->from; k < j->to; k++) {
        const rn_sample *s = &j->s[j->idx[k]];
        rp_pos pos;
        if (train_sample_pos(s, &pos) != 0)
            continue;
        float a[2][H];
        int f[2][RN_MAX_ACTIVE], nf[2];
        float out = forward(p, &pos, a, f, nf);
        float pr = sigmoidf(out);
        float err = pr - (float)target(s, j->scale, j->lambda);
        j->loss += (double)err * err;
        float d = 2 * err * pr * (1 - pr);
        g->b2 += d;
        for (int side = 0; side < 2; side++) {
            float da[H];
            for (int i = 0; i < H; i++) {
                float x = a[side][i];
                int live = x > 0 && x < 1;
                g->w2[side * H + i] += d * (x < 0 ? 0 : x > 1 ? 1 : x);
                da[i] = live ? d * p->w2[side * H + i] : 0;
                g->b1[i] += da[i];
            }
            for (int m = 0; m < nf[side]; m++) {
                float *row = g->w1 + (size_t)f[side][m] * H;
                for (int i = 0; i < H; i++)
                    row[i] += da[i];
            }
        }
    }
    return NULL;
}

/* Mean loss and gradient over idx[from, to), split across threads; the
 * gradient is summed into grads[0]. */
static double run_batch(const params *p, params *grads, int threads, const rn_sample *s,
                        const size_t *idx, size_t from, size_t to, double scale,
                        double lambda)
{
    fit_job jobs[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    size_t n = to - from;
    int started[MAX_THREADS] = { 0 };
    for (int t = 0; t < threads; t++) {
        jobs[t] = (fit_job){ p, &grads[t], s, idx, from + n * (size_t)t / (size_t)threads,
                             from + n * (size_t)(t + 1) / (size_t)threads, scale, lambda, 0 };
        if (t > 0 && pthread_create(&tid[t], NULL, fit_slice, &jobs[t]) == 0)
            started[t] = 1;
    }
    fit_slice(&jobs[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            fit_slice(&jobs[t]);
    }
    double loss = jobs[0].loss;
    float *g0 = (float *)&grads[0];
    const size_t np = sizeof(params) / sizeof(float);
    for (int t = 1; t < threads; t++) {
        const float *gt = (const float *)&grads[t];
        for (size_t i = 0; i < np; i++)
            g0[i] += gt[i];
        loss += jobs[t].loss;
    }
    return loss / (double)(n ? n : 1);
}

static void clip(params *p)
{
    for (size_t i = 0; i < F * H; i++)
        p->w1[i] = fmaxf(-RN_W1_MAX, fminf(RN_W1_MAX, p->w1[i]));
    for (int i = 0; i < H; i++)
        p->b1[i] = fmaxf(-RN_W1_MAX, fminf(RN_W1_MAX, p->b1[i]));
    for (int i = 0; i < 2 * H; i++)
        p->w2[i] = fmaxf(-RN_W2_MAX, fminf(RN_W2_MAX, p->w2[i]));
}

/* The scale S that best predicts the results from the scores alone. */
static double fit_scale(const board_set *b)
{
    double best = 0, best_err = 1e300;
    for (double sc = 50; sc <= 3000; sc *= 1.03) {
        double err = 0;
        for (size_t i = 0; i < b->n; i += 1 + b->n / 200000) {
            double d = sigmoidf(b->s[i].score / sc) - (b->s[i].result + 1) * 0.5;
            err += d * d;
        }
        if (err < best_err) {
            best_err = err;
            best = sc;
        }
    }
    return best;
}

static int16_t q16(double x)
{
    long v = lround(x);
    return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
}

static void put32(unsigned char *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

/* The quantized file of the nets (nnue.c's layout); malloc'd, *size set. */
static unsigned char *quantize(params *const *ps, const board_set *bs, const double *scales,
                               int count, size_t *size)
{
    const size_t net_bytes = 64 + 2u * F * H + 2u * H + 4u * H;
    *size = 64 + (size_t)count * net_bytes;
    unsigned char *buf = calloc(1, *size);
    if (!buf)
        return NULL;
    memcpy(buf, "RPNNUE01", 8);
    put32(buf + 8, 1);
    put32(buf + 12, (uint32_t)count);
    put32(buf + 16, H);
    put32(buf + 20, F);
    for (int k = 0; k < count; k++) {
        unsigned char *p = buf + 64 + (size_t)k * net_bytes;
        const params *w = ps[k];
        put32(p, (uint32_t)bs[k].w);
        put32(p + 4, (uint32_t)bs[k].h);
        put32(p + 8, (uint32_t)lround(scales[k]));
        put32(p + 12, (uint32_t)(int32_t)lround((double)w->b2 * RN_QA * RN_QB));
        int16_t *q = (int16_t *)(void *)(p + 64);
        for (size_t i = 0; i < F * H; i++)
            q[i] = q16((double)w->w1[i] * RN_QA);
        for (int i = 0; i < H; i++)
            q[F * H + i] = q16((double)w->b1[i] * RN_QA);
        for (int i = 0; i < 2 * H; i++)
            q[F * H + H + i] = q16((double)w->w2[i] * RN_QB);
    }
    return buf;
}

static int load(const train_fit_options *o, board_set *bs, int *nb)
{
    for (int d = 0; d < o->ndata; d++) {
        FILE *f = fopen(o->data[d], "rb");
        char magic[8];
        if (!f || fread(magic, 1, 8, f) != 8 || memcmp(magic, "RPDATA01", 8) != 0) {
            fprintf(stderr, "citadel train fit: %s is not a data file of `citadel train gen`\n",
                    o->data[d]);
            if (f)
                fclose(f);
            return -1;
        }
        rn_sample s;
        while (fread(&s, sizeof s, 1, f) == 1) {
            rp_pos pos;
            if (train_sample_pos(&s, &pos) != 0 || s.result < -1 || s.result > 1)
                continue;
            int k = 0;
            while (k < *nb && (bs[k].w != s.w || bs[k].h != s.h))
                k++;
            if (k == *nb) {
                if (*nb == RN_MAX_NETS)
                    continue;
                bs[(*nb)++] = (board_set){ .w = s.w, .h = s.h };
            }
            board_set *b = &bs[k];
            if (b->n == b->cap) {
                size_t cap = b->cap ? b->cap * 2 : 65536;
                rn_sample *ns = realloc(b->s, cap * sizeof *ns);
                if (!ns) {
                    fclose(f);
                    fprintf(stderr, "citadel train fit: out of memory\n");
                    return -1;
                }
                b->s = ns;
                b->cap = cap;
            }
            b->s[b->n++] = s;
        }
        fclose(f);
    }
    return 0;
}

static params *fit_board(const train_fit_options *o, const board_set *b, double scale,
                         int threads, rng *g)
{
    params *p = calloc(1, sizeof *p), *m = calloc(1, sizeof *m), *v = calloc(1, sizeof *v);
    params *grads = calloc((size_t)threads, sizeof *grads);
    size_t *idx = malloc(b->n * sizeof *idx);
    if (!p || !m || !v || !grads || !idx) {
        free(p), free(m), free(v), free(grads), free(idx);
        return NULL;
    }
    for (size_t i = 0; i < F * H; i++)
        p->w1[i] = (float)((double)rng_below(g, 20001) / 100000.0 - 0.1);
    for (int i = 0; i < 2 * H; i++)
        p->w2[i] = (float)((double)rng_below(g, 20001) / 100000.0 - 0.1);
    for (size_t i = 0; i < b->n; i++)
        idx[i] = i;
    for (size_t i = b->n; i > 1; i--) {
        size_t j = rng_below(g, i), t = idx[i - 1];
        idx[i - 1] = idx[j];
        idx[j] = t;
    }
    size_t nval = b->n / 50 ? b->n / 50 : 1, ntrain = b->n - nval;
    const size_t np = sizeof(params) / sizeof(float);
    float *pf = (float *)p, *mf = (float *)m, *vf = (float *)v, *gf = (float *)grads;
    long step = 0;
    for (int epoch = 1; epoch <= o->epochs; epoch++) {
        uint64_t t0 = timer_ns();
        double lr = epoch > o->epochs * 3 / 4 ? o->lr / 10 : o->lr;
        for (size_t i = ntrain; i > 1; i--) {
            size_t j = rng_below(g, i), t = idx[i - 1];
            idx[i - 1] = idx[j];
            idx[j] = t;
        }
        double train_loss = 0;
        size_t batches = 0;
        for (size_t from = 0; from < ntrain; from += (size_t)o->batch) {
            size_t to = from + (size_t)o->batch < ntrain ? from + (size_t)o->batch : ntrain;
            train_loss += run_batch(p, grads, threads, b->s, idx, from, to, scale, o->lambda);
            batches++;
            step++;
            double c1 = 1 - pow(0.9, (double)step), c2 = 1 - pow(0.999, (double)step);
            float inv = 1.0f / (float)(to - from);
            for (size_t i = 0; i < np; i++) {
                float gr = gf[i] * inv;
                mf[i] = 0.9f * mf[i] + 0.1f * gr;
                vf[i] = 0.999f * vf[i] + 0.001f * gr * gr;
                pf[i] -= (float)(lr * (mf[i] / c1) / (sqrt(vf[i] / c2) + 1e-8));
            }
            clip(p);
        }
        double val = run_batch(p, grads, threads, b->s, idx, ntrain, b->n, scale, o->lambda);
        if (epoch == 1) {
            /* what the hand-written evaluation scores on the same targets */
            double hl = 0;
            for (size_t k = ntrain; k < b->n; k++) {
                rp_pos pos;
                train_sample_pos(&b->s[idx[k]], &pos);
                double d = sigmoidf(rp_evaluate(&pos) / scale) -
                           target(&b->s[idx[k]], scale, o->lambda);
                hl += d * d;
            }
            fprintf(stderr, "train fit %dx%d: the hand-written evaluation's held-out loss "
                    "%.6f\n", b->w, b->h, hl / (double)nval);
        }
        fprintf(stderr, "train fit %dx%d: epoch %d, loss %.6f, held out %.6f, %.1f s\n", b->w,
                b->h, epoch, train_loss / (double)(batches ? batches : 1), val,
                (double)(timer_ns() - t0) / 1e9);
    }
    free(m), free(v), free(grads), free(idx);
    return p;
}

/* Mean |float - quantized| in centipawns over up to 20,000 positions. */
static double quantization_error(const params *p, const rn_net *net, const board_set *b,
                                 double scale)
{
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < b->n && n < 20000; i += 1 + b->n / 20000, n++) {
        rp_pos pos;
        train_sample_pos(&b->s[i], &pos);
        float a[2][H];
        int f[2][RN_MAX_ACTIVE], nf[2];
        double fl = forward(p, &pos, a, f, nf) * scale;
        sum += fabs(fl - rn_evaluate(net, &pos));
    }
    return n ? sum / (double)n : 0;
}

int train_fit(const train_fit_options *o)
{
    board_set bs[RN_MAX_NETS];
    int nb = 0, rc = 1;
    memset(bs, 0, sizeof bs);
    if (load(o, bs, &nb) != 0)
        goto out;
    if (nb == 0) {
        fprintf(stderr, "citadel train fit: no positions in the data\n");
        goto out;
    }
    int threads = o->concurrency < 1 ? 1 : o->concurrency > MAX_THREADS ? MAX_THREADS
                                                                        : o->concurrency;
    rng g;
    rng_seed(&g, o->seed);
    params *ps[RN_MAX_NETS] = { NULL };
    double scales[RN_MAX_NETS];
    for (int k = 0; k < nb; k++) {
        scales[k] = fit_scale(&bs[k]);
        fprintf(stderr, "train fit %dx%d: %zu positions, scale %.0f centipawns\n", bs[k].w,
                bs[k].h, bs[k].n, scales[k]);
        ps[k] = fit_board(o, &bs[k], scales[k], threads, &g);
        if (!ps[k]) {
            fprintf(stderr, "citadel train fit: out of memory\n");
            goto free_nets;
        }
    }
    size_t size;
    unsigned char *file = quantize(ps, bs, scales, nb, &size);
    rn_net nets[RN_MAX_NETS];
    int count;
    char err[160];
    if (!file || rn_check(file, size, nets, &count, err, sizeof err) != 0) {
        fprintf(stderr, "citadel train fit: the net file came out wrong: %s\n",
                file ? err : "out of memory");
        free(file);
        goto free_nets;
    }
    for (int k = 0; k < nb; k++)
        fprintf(stderr, "train fit %dx%d: quantized net within %.2f centipawns of the float "
                "one on average\n", bs[k].w, bs[k].h,
                quantization_error(ps[k], &nets[k], &bs[k], scales[k]));
    FILE *f = fopen(o->out, "wb");
    int bad = !f || fwrite(file, 1, size, f) != size;
    if ((f && fclose(f) != 0) || bad) {
        perror(o->out);
        free(file);
        goto free_nets;
    }
    fprintf(stderr, "train fit: wrote %s (%zu bytes, %d nets)\n", o->out, size, nb);
    free(file);
    rc = 0;
free_nets:
    for (int k = 0; k < nb; k++)
        free(ps[k]);
out:
    for (int k = 0; k < RN_MAX_NETS; k++)
        free(bs[k].s);
    return rc;
}
