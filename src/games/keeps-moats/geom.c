/* geom.c -- the K1 board: squares, zones, neighbours and Zobrist keys.
 *
 * Invariant: the tables are built exactly once, under run_once (base/once.h),
 * before any caller sees them, and are never written again; readers need no
 * locks.
 *
 * The 145 squares are the diamond |file - i| + |row - 9| <= 8. The 9x9
 * square e5-m13 is the Battlefield; what lies south of it is White's
 * territory (row 4 the Moat, rows 1-3 the Keep), north Black's, west Red's,
 * east Blue's.
 */
#include <stdlib.h>

#include "../../base/once.h"
#include "../../base/rng.h"
#include "keeps_moats.h"

static const int dir_df[8] = { 0, 1, 0, -1, 1, 1, -1, -1 };  /* N E S W NE SE SW NW */
static const int dir_dr[8] = { 1, 0, -1, 0, 1, -1, -1, 1 };
static const int knight_df[8] = { 1, 2, 2, 1, -1, -2, -2, -1 };
static const int knight_dr[8] = { 2, 1, -1, -2, -2, -1, 1, 2 };

static km_geom geom;
static once_t once = ONCE_INIT;

static int exists(int f, int r)
{
    return f >= 0 && f < 17 && r >= 0 && r < 17 && abs(f - 8) + abs(r - 8) <= 8;
}

static void build(void)
{
    km_geom *g = &geom;
    int n = 0;
    for (int f = 0; f < 17; f++)
        for (int r = 0; r < 17; r++)
            g->at[f][r] = -1;
    for (int r = 0; r < 17; r++)
        for (int f = 0; f < 17; f++)
            if (exists(f, r)) {
                g->file[n] = (int8_t)f;
                g->row[n] = (int8_t)r;
                g->at[f][r] = (int16_t)n;
                n++;
            }
    int nkeep[KM_NK] = { 0 };
    for (int s = 0; s < KM_NSQ; s++) {
        int f = g->file[s], r = g->row[s];
        int k = -1, moat = 0;
        if (r < 4) {
            k = KM_WHITE;
            moat = r == 3;
        } else if (r > 12) {
            k = KM_BLACK;
            moat = r == 13;
        } else if (f < 4) {
            k = KM_RED;
            moat = f == 3;
        } else if (f > 12) {
            k = KM_BLUE;
            moat = f == 13;
        }
        g->realm[s] = (int8_t)k;
        g->zone[s] = k < 0 ? KM_BATTLE : moat ? KM_MOAT : KM_KEEP;
        if (k >= 0 && !moat)
            g->keep[k][nkeep[k]++] = (int16_t)s;
        for (int d = 0; d < 8; d++) {
            int tf = f + dir_df[d], tr = r + dir_dr[d];
            g->step[s][d] = (int16_t)(exists(tf, tr) ? g->at[tf][tr] : -1);
            tf = f + knight_df[d];
            tr = r + knight_dr[d];
            g->knight[s][d] = (int16_t)(exists(tf, tr) ? g->at[tf][tr] : -1);
        }
    }
    /* Thrones and Castle Pawn squares (K1 table). */
    g->throne[KM_WHITE] = g->at[8][1];
    g->castle_sq[KM_WHITE] = g->at[8][0];
    g->throne[KM_BLACK] = g->at[8][15];
    g->castle_sq[KM_BLACK] = g->at[8][16];
    g->throne[KM_RED] = g->at[1][8];
    g->castle_sq[KM_RED] = g->at[0][8];
    g->throne[KM_BLUE] = g->at[15][8];
    g->castle_sq[KM_BLUE] = g->at[16][8];
    static const int8_t fwd[KM_NK][2] = { { 0, 1 }, { 1, 0 }, { 0, -1 }, { -1, 0 } };
    for (int k = 0; k < KM_NK; k++) {
        g->fwd[k][0] = fwd[k][0];
        g->fwd[k][1] = fwd[k][1];
    }
    /* Zobrist keys from a fixed seed: the same on every run. */
    rng rg;
    rng_seed(&rg, 0x6b6565707321ULL);
    for (int s = 0; s < KM_NSQ; s++)
        for (int p = 0; p < 32; p++)
            g->zob[s][p] = rng_next(&rg);
    for (int h = 0; h < KM_NK; h++)
        for (int o = 0; o < KM_NK; o++)
            for (int t = 0; t < KM_NTYPES; t++)
                g->zpris[h][o][t] = rng_next(&rg);
    for (int k = 0; k < KM_NK; k++)
        g->zstm[k] = rng_next(&rg);
    for (int i = 0; i < 16; i++) {
        g->zcastle[i] = rng_next(&rg);
        g->zout[i] = rng_next(&rg);
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            g->zsettings[i][j] = rng_next(&rg);
}

const km_geom *km_geom_get(void)
{
    run_once(&once, build);
    return &geom;
}

int km_parse_square(const char *s, size_t len)
{
    if (len < 2 || len > 3 || s[0] < 'a' || s[0] > 'q' || s[1] < '1' || s[1] > '9')
        return -1;
    int f = s[0] - 'a', r = s[1] - '0';
    if (len == 3) {
        if (s[1] != '1' || s[2] < '0' || s[2] > '7')
            return -1;
        r = 10 + (s[2] - '0');
    }
    return km_geom_get()->at[f][r - 1];
}

void km_square_name(int sq, char out[4])
{
    const km_geom *g = km_geom_get();
    int f = g->file[sq], r = g->row[sq] + 1;
    out[0] = (char)('a' + f);
    if (r >= 10) {
        out[1] = '1';
        out[2] = (char)('0' + r - 10);
        out[3] = 0;
    } else {
        out[1] = (char)('0' + r);
        out[2] = 0;
    }
}
