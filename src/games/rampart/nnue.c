/* nnue.c -- reads and runs Rampart's learnt evaluation (nnue.h).
 *
 * The file, all integers little-endian:
 *
 *   offset  size  what
 *   0       8     magic "RPNNUE01"
 *   8       4     version (1)
 *   12      4     nets in the file (1..RN_MAX_NETS)
 *   16      4     RN_HIDDEN it was trained with
 *   20      4     RN_FEATURES it was trained with
 *   24      40    zero
 *   then for each net, 64-byte aligned:
 *   0       4     board width
 *   4       4     board height
 *   8       4     scale, centipawns per unit of output (1..100000)
 *   12      4     output bias, times RN_QA * RN_QB
 *   16      48    zero
 *   64      2*F*H hidden weights, feature-major, times RN_QA
 *   ...     2*H   hidden biases, times RN_QA
 *   ...     4*H   output weights, times RN_QB, side to move's half first
 *
 * Invariant: the embedded file is checked once (run_once, base/once.h) and
 * never written; rn_for hands out nets only from a file rn_check accepted.
 */
#include "nnue.h"

#include <stdio.h>
#include <string.h>

#include "../../base/bits.h"
#include "../../base/once.h"

#define HEADER 64
#define NET_HEADER 64
#define NET_BYTES ((size_t)NET_HEADER + 2u * RN_FEATURES * RN_HIDDEN + 2u * RN_HIDDEN + \
                   4u * RN_HIDDEN)
#define SCORE_MAX 10000
_Static_assert(RN_HIDDEN % 32 == 0, "half() adds rows in blocks of 32");
_Static_assert(RN_W1_Q * (RN_ACC16 + 1) < 32768, "16-bit sums cannot overflow");

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int rn_check(const unsigned char *data, size_t size, rn_net *nets, int *count, char *err,
             size_t errsize)
{
    const uint16_t probe = 1;
    if (*(const unsigned char *)&probe != 1) {
        snprintf(err, errsize, "the net file needs a little-endian machine");
        return -1;
    }
    if (((uintptr_t)data & 1) != 0) {
        snprintf(err, errsize, "the net file is not 2-byte aligned in memory");
        return -1;
    }
    if (size < HEADER || memcmp(data, "RPNNUE01", 8) != 0) {
        snprintf(err, errsize, "not a Rampart net file (magic)");
        return -1;
    }
    uint32_t version = le32(data + 8), n = le32(data + 12);
    if (version != 1) {
        snprintf(err, errsize, "net file version %u, this build reads 1", version);
        return -1;
    }
    if (le32(data + 16) != RN_HIDDEN || le32(data + 20) != RN_FEATURES) {
        snprintf(err, errsize, "net file of %u hidden units and %u features, this build "
                 "has %d and %d", le32(data + 16), le32(data + 20), RN_HIDDEN, RN_FEATURES);
        return -1;
    }
    if (n < 1 || n > RN_MAX_NETS || size != HEADER + (size_t)n * NET_BYTES) {
        snprintf(err, errsize, "net file of %zu bytes does not hold %u whole nets", size, n);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        const unsigned char *p = data + HEADER + i * NET_BYTES;
        uint32_t w = le32(p), h = le32(p + 4);
        int32_t scale = (int32_t)le32(p + 8);
        if (!rp_geom_get((int)w, (int)h) || w > RP_MAX_W || h > RP_MAX_H) {
            snprintf(err, errsize, "net %u is for a %ux%u board, which Rampart has not", i, w,
                     h);
            return -1;
        }
        if (scale < 1 || scale > 100000) {
            snprintf(err, errsize, "net %u has scale %d", i, scale);
            return -1;
        }
        for (uint32_t j = 0; j < i; j++)
            if (nets[j].w == (int)w && nets[j].h == (int)h) {
                snprintf(err, errsize, "two nets for the %ux%u board", w, h);
                return -1;
            }
        const int16_t *q = (const int16_t *)(const void *)(p + NET_HEADER);
        for (int k = 0; k < RN_FEATURES * RN_HIDDEN + RN_HIDDEN; k++)
            if (q[k] > RN_W1_Q || q[k] < -RN_W1_Q) {
                snprintf(err, errsize, "net %u has a hidden weight out of range", i);
                return -1;
            }
        const int16_t *w2 = q + RN_FEATURES * RN_HIDDEN + RN_HIDDEN;
        for (int k = 0; k < 2 * RN_HIDDEN; k++)
            if (w2[k] > RN_W2_MAX * RN_QB || w2[k] < -RN_W2_MAX * RN_QB) {
                /* the output's sum would no longer fit in 32 bits */
                snprintf(err, errsize, "net %u has an output weight out of range", i);
                return -1;
            }
        nets[i] = (rn_net){ .w = (int)w, .h = (int)h, .scale = scale,
                            .b2 = (int32_t)le32(p + 12), .w1 = q,
                            .b1 = q + RN_FEATURES * RN_HIDDEN,
                            .w2 = w2 };
    }
    *count = (int)n;
    return 0;
}

int rn_bucket(const rp_pos *pos)
{
    /* Plies left before the limit adjudicates: at least 1 while the game
     * goes on (Top's move that completes the last full move). Without a
     * limit a position is as far from it as can be (bucket 1). */
    static const int from[] = { 120, 80, 60, 40, 30, 20, 14, 10, 6, 4, 2 };
    if (!pos->move_limit)
        return 1;
    int left = 2 * (pos->move_limit - pos->fullmove) + 2 - pos->stm;
    int b = 1;
    for (size_t i = 0; i < sizeof from / sizeof from[0] && left < from[i]; i++)
        b++;
    return b;
}

/* The features of both perspectives at once (the threats are found once):
 * out[RP_BOTTOM] and out[RP_TOP], n[] their counts. */
static void features2(const rp_pos *pos, int out[2][RN_MAX_ACTIVE], int n[2])
{
    const rp_geom *g = pos->g;
    /* Enemy pieces already walled in fall with the next move, whatever it
     * is (R5): they are not seen. */
    uint64_t doomed = rp_doomed(pos);
    uint64_t pc[2][RP_NTYPES], occ[2] = { 0, 0 }, att[2][RP_NTYPES];
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < RP_NTYPES; t++) {
            pc[s][t] = pos->pc[s][t] & ~doomed;
            occ[s] |= pc[s][t];
        }
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < RP_NTYPES; t++)
            att[s][t] = rp_attacks(g, t, pc[s][t], occ[0] | occ[1]);
    const uint64_t empty = g->board & ~(occ[0] | occ[1]);
    int nb = 0, nt = 0;
    int *ob = out[RP_BOTTOM], *ot = out[RP_TOP];
    for (int s = 0; s < 2; s++) {
        /* three of four neighbours enemy, the fourth empty */
        uint64_t caged = rp_three_sided(g, occ[s ^ 1], empty);
        for (int t = 0; t < RP_NTYPES; t++) {
            /* Bottom sees its own pieces as block 0, Top the other way */
            int base_b = (s * RP_NTYPES + t) * 64, base_t = ((s ^ 1) * RP_NTYPES + t) * 64;
            int pred = (t + 2) % 3;  /* the type that takes t (none for Blockers) */
            uint64_t hit = t == RP_BLOCKER ? 0 : att[s ^ 1][pred];
            uint64_t cover = t == RP_BLOCKER ? 0 : att[s][(pred + 2) % 3];
            for (uint64_t b = pc[s][t]; b;) {
                int sq = bits_pop(&b);
                uint64_t bit = 1ull << sq;
                int fb = base_b + sq, ft = base_t + (g->h - 1 - sq / g->w) * g->w + sq % g->w;
                ob[nb++] = fb;
                ot[nt++] = ft;
                if (hit & bit) {
                    ob[nb++] = RN_ATTACKED + fb;
                    ot[nt++] = RN_ATTACKED + ft;
                    if (!(cover & bit)) {
                        ob[nb++] = RN_HANGING + fb;
                        ot[nt++] = RN_HANGING + ft;
                    }
                }
                if (caged & bit) {
                    ob[nb++] = RN_CAGED + fb;
                    ot[nt++] = RN_CAGED + ft;
                }
            }
        }
    }
    ob[nb++] = ot[nt++] = RN_PIECE_FEATURES + rn_bucket(pos);
    n[RP_BOTTOM] = nb;
    n[RP_TOP] = nt;
}

int rn_features(const rp_pos *pos, int persp, int *out)
{
    int f[2][RN_MAX_ACTIVE], n[2];
    features2(pos, f, n);
    memcpy(out, f[persp], (size_t)n[persp] * sizeof *out);
    return n[persp];
}

static struct {
    once_t once;
    rn_net nets[RN_MAX_NETS];
    int count;
} embedded = { ONCE_INIT, { { 0 } }, 0 };

static void load_embedded(void)
{
    char err[160];
    if (rn_blob_size == 0)
        return;
    if (rn_check(rn_blob, rn_blob_size, embedded.nets, &embedded.count, err, sizeof err) != 0) {
        fprintf(stderr, "citadel: the embedded Rampart net is not used: %s\n", err);
        embedded.count = 0;
    }
}

const rn_net *rn_for(const rp_pos *pos)
{
    run_once(&embedded.once, load_embedded);
    for (int i = 0; i < embedded.count; i++)
        if (embedded.nets[i].w == pos->g->w && embedded.nets[i].h == pos->g->h)
            return &embedded.nets[i];
    return NULL;
}

/* Sums into 16 bits while that cannot overflow (rn_check bounds every
 * hidden weight and bias by RN_W1_Q, and RN_W1_Q * (RN_ACC16 + 1) < 2^15),
 * else into 32 bits; then the CReLU times the output weights. Rows are
 * added in blocks of 32: gcc vectorizes this form, not the plain loop. */
static int32_t half(const rn_net *net, const int *f, int n, const int16_t *w2)
{
    int32_t sum = 0;
    if (n <= RN_ACC16) {
        int16_t acc[RN_HIDDEN];
        memcpy(acc, net->b1, sizeof acc);
        for (int k = 0; k < n; k++) {
            const int16_t *restrict row = net->w1 + (size_t)f[k] * RN_HIDDEN;
            for (int i = 0; i < RN_HIDDEN; i += 32)
                for (int j = 0; j < 32; j++)
                    acc[i + j] = (int16_t)(acc[i + j] + row[i + j]);
        }
        for (int i = 0; i < RN_HIDDEN; i++) {
            int32_t x = acc[i] < 0 ? 0 : acc[i] > RN_QA ? RN_QA : acc[i];
            sum += x * w2[i];
        }
        return sum;
    }
    int32_t acc[RN_HIDDEN];
    for (int i = 0; i < RN_HIDDEN; i++)
        acc[i] = net->b1[i];
    for (int k = 0; k < n; k++) {
        const int16_t *restrict row = net->w1 + (size_t)f[k] * RN_HIDDEN;
        for (int i = 0; i < RN_HIDDEN; i += 16)
            for (int j = 0; j < 16; j++)
                acc[i + j] += row[i + j];
    }
    for (int i = 0; i < RN_HIDDEN; i++) {
        int32_t x = acc[i] < 0 ? 0 : acc[i] > RN_QA ? RN_QA : acc[i];
        sum += x * w2[i];
    }
    return sum;
}

int rn_evaluate(const rn_net *net, const rp_pos *pos)
{
    int f[2][RN_MAX_ACTIVE], n[2];
    features2(pos, f, n);
    int us = pos->stm;
    int32_t sum = half(net, f[us], n[us], net->w2) +
                  half(net, f[us ^ 1], n[us ^ 1], net->w2 + RN_HIDDEN);
    int64_t out = ((int64_t)sum + net->b2) * net->scale / (RN_QA * RN_QB);
    return out > SCORE_MAX ? SCORE_MAX : out < -SCORE_MAX ? -SCORE_MAX : (int)out;
}
