/* geom.c -- board geometry tables and Zobrist keys.
 *
 * Invariant: every table is built exactly once, under run_once (base/once.h),
 * before any caller sees it, and is never written again; readers need no
 * locks.
 */

#include "../../base/bits.h"
#include "../../base/once.h"
#include "../../base/rng.h"
#include "rampart.h"

static const int dir_df[8] = { 0, 1, 1, -1, 0, -1, -1, 1 };  /* N NE E NW S SW W SE */
static const int dir_dr[8] = { 1, 1, 0, 1, -1, -1, 0, -1 };

static rp_geom geoms[RP_MAX_W + 1][RP_MAX_H + 1];
static once_t once = ONCE_INIT;

static uint64_t sq_if(int w, int h, int f, int r)
{
    if (f < 0 || f >= w || r < 0 || r >= h)
        return 0;
    return bits_sq(r * w + f);
}

static void build(rp_geom *g, int w, int h)
{
    g->w = w;
    g->h = h;
    g->nsq = w * h;
    g->board = g->nsq == 64 ? ~(uint64_t)0 : bits_sq(g->nsq) - 1;
    g->not_first = g->not_last = g->interior = 0;
    for (int sq = 0; sq < 64; sq++) {
        g->knight[sq] = g->king[sq] = g->step[sq] = 0;
        for (int d = 0; d < 8; d++)
            g->ray[sq][d] = 0;
    }
    for (int r = 0; r < h; r++) {
        for (int f = 0; f < w; f++) {
            int sq = r * w + f;
            if (f > 0)
                g->not_first |= bits_sq(sq);
            if (f < w - 1)
                g->not_last |= bits_sq(sq);
            if (f > 0 && f < w - 1 && r > 0 && r < h - 1)
                g->interior |= bits_sq(sq);
            for (int d = 0; d < 8; d++) {
                int df = dir_df[d], dr = dir_dr[d];
                g->king[sq] |= sq_if(w, h, f + df, r + dr);
                for (int k = 1; k <= 3; k++)
                    g->ray[sq][d] |= sq_if(w, h, f + k * df, r + k * dr);
                if (df == 0 || dr == 0) {
                    g->step[sq] |= sq_if(w, h, f + df, r + dr);
                    g->knight[sq] |= sq_if(w, h, f + df, r + dr) |
                                     sq_if(w, h, f + 2 * df, r + 2 * dr);
                }
            }
        }
    }
}

static void init(void)
{
    for (int w = RP_MIN_W; w <= RP_MAX_W; w++) {
        for (int h = RP_MIN_H; h <= RP_MAX_H; h++) {
            if (w * h > 64)
                continue;
            rp_geom *g = &geoms[w][h];
            build(g, w, h);
            /* The same fixed seed everywhere: keys are equal in every run
             * and on every board, so hashes can be stored and compared. */
            rng r;
            rng_seed(&r, 0x52414d50415254ULL);
            for (int s = 0; s < 2; s++)
                for (int t = 0; t < RP_NTYPES; t++)
                    for (int sq = 0; sq < 64; sq++)
                        g->zob[s][t][sq] = rng_next(&r);
            g->zside = rng_next(&r);
        }
    }
}

const rp_geom *rp_geom_get(int w, int h)
{
    if (w < RP_MIN_W || w > RP_MAX_W || h < RP_MIN_H || h > RP_MAX_H || w * h > 64)
        return NULL;
    run_once(&once, init);
    return &geoms[w][h];
}

