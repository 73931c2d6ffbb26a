/* movegen.c -- move generation and counting (R3, R4).
 *
 * Every pseudo-legal move is legal in Rampart: there is no check. A piece
 * may end on an empty square, or on an enemy piece of the one type it takes
 * (Queen takes Knight, Knight takes King, King takes Queen); Blockers only
 * step onto empty squares. Queens slide 1-3 squares and stop at the first
 * occupied square, which they may take only if it holds an enemy Knight.
 *
 * rp_count() counts without writing moves, for perft's last ply. Its Queen
 * count works on all Queens at once, one direction at a time: within one
 * direction the squares that different Queens pass over are disjoint (a
 * Queen standing on another's line blocks it), so one popcount per
 * direction counts every Queen move in that direction exactly once.
 */
#include "../../base/bits.h"
#include "rampart.h"

const int rp_prey[RP_NTYPES] = { RP_KNIGHT, RP_KING, RP_QUEEN, -1 };

uint64_t rp_queen_reach(const rp_geom *g, int sq, uint64_t occ)
{
    uint64_t reach = 0;
    for (int d = 0; d < 4; d++) {  /* towards higher squares */
        uint64_t r = g->ray[sq][d], b = r & occ;
        if (b)
            r &= ~g->ray[bits_lsb(b)][d];
        reach |= r;
    }
    for (int d = 4; d < 8; d++) {  /* towards lower squares */
        uint64_t r = g->ray[sq][d], b = r & occ;
        if (b)
            r &= ~g->ray[bits_msb(b)][d];
        reach |= r;
    }
    return reach;
}

/* Squares a piece of `type` may end on: empty, or an enemy of its prey type. */
static inline uint64_t allowed(const rp_pos *pos, int them, int type)
{
    uint64_t empty = pos->g->board & ~(pos->occ[0] | pos->occ[1]);
    return type == RP_BLOCKER ? empty : empty | pos->pc[them][rp_prey[type]];
}

uint64_t rp_targets(const rp_pos *pos, int side, int type, int sq)
{
    const rp_geom *g = pos->g;
    uint64_t ok = allowed(pos, side ^ 1, type);
    switch (type) {
    case RP_QUEEN:
        return rp_queen_reach(g, sq, pos->occ[0] | pos->occ[1]) & ok;
    case RP_KNIGHT:
        return g->knight[sq] & ok;
    case RP_KING:
        return g->king[sq] & ok;
    default:
        return g->step[sq] & ok;
    }
}

int rp_gen(const rp_pos *pos, game_move *out)
{
    int us = pos->stm, n = 0;
    uint64_t enemy = pos->occ[us ^ 1];
    for (int t = 0; t < RP_NTYPES; t++) {
        for (uint64_t b = pos->pc[us][t]; b;) {
            int from = bits_pop(&b);
            for (uint64_t to = rp_targets(pos, us, t, from); to;) {
                int sq = bits_pop(&to);
                out[n++] = RP_MOVE(from, sq, t, (enemy >> sq) & 1);
            }
        }
    }
    return n;
}

#define SH_N(x) ((x) << w)
#define SH_S(x) ((x) >> w)
#define SH_E(x) (((x) & g->not_last) << 1)
#define SH_W(x) (((x) & g->not_first) >> 1)
#define SH_NE(x) (((x) & g->not_last) << (w + 1))
#define SH_NW(x) (((x) & g->not_first) << (w - 1))
#define SH_SE(x) (((x) & g->not_last) >> (w - 1))
#define SH_SW(x) (((x) & g->not_first) >> (w + 1))
#define QUEEN_DIR(SH)                       \
    do {                                    \
        uint64_t s1 = SH(q), acc = s1 & ok; \
        uint64_t s2 = SH(s1 & empty);       \
        acc |= s2 & ok;                     \
        acc |= SH(s2 & empty) & ok;         \
        n += bits_count(acc);               \
    } while (0)

/* Every square some Queen of q reaches (R3), whatever stands there: one
 * direction at a time for all Queens at once, up to three steps, going on
 * only from empty squares. */
uint64_t rp_queen_attacks(const rp_geom *g, uint64_t q, uint64_t occ)
{
    const int w = g->w;
    const uint64_t empty = g->board & ~occ;
    uint64_t a = 0;
#define QUEEN_FILL(SH)                         \
    do {                                       \
        uint64_t s1 = SH(q), s2 = SH(s1 & empty); \
        a |= s1 | s2 | SH(s2 & empty);         \
    } while (0)
    QUEEN_FILL(SH_N);
    QUEEN_FILL(SH_S);
    QUEEN_FILL(SH_E);
    QUEEN_FILL(SH_W);
    QUEEN_FILL(SH_NE);
    QUEEN_FILL(SH_NW);
    QUEEN_FILL(SH_SE);
    QUEEN_FILL(SH_SW);
#undef QUEEN_FILL
    return a & g->board;
}

int rp_count(const rp_pos *pos)
{
    const rp_geom *g = pos->g;
    const int w = g->w, us = pos->stm, them = us ^ 1;
    const uint64_t empty = g->board & ~(pos->occ[0] | pos->occ[1]);
    int n = 0;
    uint64_t q = pos->pc[us][RP_QUEEN];
    if (q) {
        uint64_t ok = empty | pos->pc[them][RP_KNIGHT];
        QUEEN_DIR(SH_N);
        QUEEN_DIR(SH_S);
        QUEEN_DIR(SH_E);
        QUEEN_DIR(SH_W);
        QUEEN_DIR(SH_NE);
        QUEEN_DIR(SH_NW);
        QUEEN_DIR(SH_SE);
        QUEEN_DIR(SH_SW);
    }
    uint64_t ok = empty | pos->pc[them][RP_KING];
    for (uint64_t b = pos->pc[us][RP_KNIGHT]; b;)
        n += bits_count(g->knight[bits_pop(&b)] & ok);
    ok = empty | pos->pc[them][RP_QUEEN];
    for (uint64_t b = pos->pc[us][RP_KING]; b;)
        n += bits_count(g->king[bits_pop(&b)] & ok);
    for (uint64_t b = pos->pc[us][RP_BLOCKER]; b;)
        n += bits_count(g->step[bits_pop(&b)] & empty);
    return n;
}

int rp_legal(const rp_pos *pos, game_move *out)
{
    /* R7.1-3 are cached or cheap; R7.4 (no moves) is rp_gen's own 0. */
    if (pos->status || (pos->move_limit && pos->fullmove > pos->move_limit))
        return 0;
    return rp_gen(pos, out);
}

uint64_t rp_three_sided(const rp_geom *g, uint64_t mine, uint64_t empty)
{
    uint64_t n = mine >> g->w, s = mine << g->w;
    uint64_t e = (mine & g->not_first) >> 1, w = (mine & g->not_last) << 1;
    uint64_t en = empty >> g->w, es = empty << g->w;
    uint64_t ee = (empty & g->not_first) >> 1, ew = (empty & g->not_last) << 1;
    return g->interior &
           ((en & s & e & w) | (n & es & e & w) | (n & s & ee & w) | (n & s & e & ew));
}

uint64_t rp_encloses(const rp_pos *pos, game_move m)
{
    const rp_geom *g = pos->g;
    int us = pos->stm;
    uint64_t mine = pos->occ[us] ^ bits_sq(RP_FROM(m)) ^ bits_sq(RP_TO(m));
    uint64_t theirs = pos->occ[us ^ 1] & ~bits_sq(RP_TO(m));
    return theirs & (mine >> g->w) & (mine << g->w) & ((mine & g->not_first) >> 1) &
           ((mine & g->not_last) << 1);
}

/* Only two kinds of square can hold a noisy move's target: an enemy piece
 * (a capture) or the one empty neighbour of an enemy piece walled in on its
 * other three sides (a possible enclosure, confirmed by rp_encloses since
 * the mover may be one of the walls). */
int rp_gen_noisy(const rp_pos *pos, game_move *out)
{
    const rp_geom *g = pos->g;
    const int us = pos->stm, them = us ^ 1;
    const uint64_t empty = g->board & ~(pos->occ[0] | pos->occ[1]);
    uint64_t close = 0;
    for (uint64_t c = rp_three_sided(g, pos->occ[us], empty) & pos->occ[them]; c;)
        close |= g->step[bits_pop(&c)] & empty;
    const uint64_t wanted = pos->occ[them] | close;
    int k = 0;
    for (int t = 0; t < RP_NTYPES; t++) {
        for (uint64_t b = pos->pc[us][t]; b;) {
            int from = bits_pop(&b);
            for (uint64_t to = rp_targets(pos, us, t, from) & wanted; to;) {
                int sq = bits_pop(&to);
                int cap = (int)((pos->occ[them] >> sq) & 1);
                game_move m = RP_MOVE(from, sq, t, cap);
                if (cap || rp_encloses(pos, m))
                    out[k++] = m;
            }
        }
    }
    return k;
}
