/* ab_material.c -- the `ab-material` reference opponent (ab_material.h):
 * iterative-deepening negamax alpha-beta over rp_pos, material only.
 *
 * Material values. The result of a Rampart game is decided by game
 * material (R6: Queen, Knight and King 1 each, Blocker 0) whenever it is
 * not decided by the clock, so a player that counts material counts those
 * points first: 100 each. Among the three the tutorials' "rough ladder of
 * tactical value" (tutorial 12: Blocker, King, Knight, Queen, front to
 * back) only breaks ties, a few points apart, so that of two trades of one
 * point for one the bot keeps the more mobile piece, and Queens gain a
 * little more on the wide boards ("In XL, Queens may become even more
 * valuable", same tutorial):
 *
 *     Queen 104 (108 on boards 7 files wide or more), Knight 102,
 *     King 100, Blocker 10.
 *
 * A Blocker is no game material, but it is a piece that only enclosure can
 * take (section 5 of the rules text) and the walls of every enclosure: losing one for nothing
 * should cost something, yet all three together (30) must never outweigh
 * one point of game material. The evaluation knows nothing else: no
 * mobility, no safety, no space.
 *
 * The search. Copy-make: every child is a copy of its parent with rp_make
 * played on it (an rp_pos is about 100 bytes, and the engine has no
 * unmake). Game ends are those of rules.c (R7) in its order: the material
 * ends make() caches in status, the move limit, no legal move; a win in p
 * plies scores RP_AB_WIN - p, so a sooner win is preferred and a later
 * loss. At the horizon the same order is kept, with a cheap test for "has
 * a move" (some piece can step to an orthogonal neighbour that is empty;
 * every type can) before counting moves properly. Moves that take
 * material (captures, then enclosures, most material first: MVV-LVA,
 * since each attacker takes one type only) go first, the previous
 * iteration's line before everything at the nodes along it. Below the
 * root the moves are made in those stages, straight from each piece's
 * target squares, so a cutoff spares listing and making the rest: that
 * more than halved the time per node against rp_gen and a sort (about 10
 * million nodes a second before, 20-24 million after, `citadel bench
 * ab-material` on a shared machine; docs/bots.md). Nothing else is pruned or reordered; no transposition
 * table, no quiescence.
 *
 * Invariants: positions are never changed, only copied, so an interrupted
 * search leaves nothing to repair; once `stopped` is set every frame
 * returns at once and the unfinished iteration's scores are dropped (its
 * root moves searched to the end and found better are kept, as
 * src/ai/search.c does).
 */
#include "ab_material.h"

#include <stdlib.h>
#include <string.h>

#include "../../base/bits.h"
#include "../../base/rng.h"
#include "../../base/timer.h"

#define INF (RP_AB_WIN + 1)
#define CHECK_EVERY 1024   /* nodes between looks at the clock and *stop */
#define MOVE_BITS 0xffffu  /* a move fits 15 bits; sort keys go above */

const int rp_ab_value[RP_NTYPES] = { 104, 102, 100, 10 };

struct rp_ab {
    rng rng;
    /* One search. */
    int val[RP_NTYPES];     /* rp_ab_value for this board */
    atomic_int *stop;
    int stopped;
    int horizon;            /* some leaf of this iteration was cut by depth */
    uint64_t nodes, next_check, node_limit, t0;
    int64_t soft_ms, hard_ms;
    int prevlen;            /* the previous iteration's line */
    game_move prev[RP_AB_MAX_PLY + 1];
    int pvlen[RP_AB_MAX_PLY + 1];
    game_move pv[RP_AB_MAX_PLY + 1][RP_AB_MAX_PLY + 1];
};

rp_ab *rp_ab_new(uint64_t seed)
{
    rp_ab *ab = calloc(1, sizeof *ab);
    if (ab)
        rng_seed(&ab->rng, seed);
    return ab;
}

void rp_ab_free(rp_ab *ab)
{
    free(ab);
}

void rp_ab_new_game(rp_ab *ab)
{
    ab->prevlen = 0;
}

static void board_values(int val[RP_NTYPES], const rp_geom *g)
{
    for (int t = 0; t < RP_NTYPES; t++)
        val[t] = rp_ab_value[t];
    if (g->w >= RP_AB_WIDE)
        val[RP_QUEEN] += RP_AB_QUEEN_WIDE;
}

static inline int material(const int val[RP_NTYPES], const rp_pos *pos)
{
    const int us = pos->stm, them = us ^ 1;
    int e = 0;
    for (int t = 0; t < RP_NTYPES; t++)
        e += val[t] * (bits_count(pos->pc[us][t]) - bits_count(pos->pc[them][t]));
    return e;
}

int rp_ab_evaluate(const rp_pos *pos)
{
    int val[RP_NTYPES];
    board_values(val, pos->g);
    return material(val, pos);
}

/* --- game ends (rules.c) ---------------------------------------------- */

/* An end decided by game material (R7.1-4 all compare it). */
static int material_end(const rp_pos *pos, int ply)
{
    int a = rp_material(pos, pos->stm), b = rp_material(pos, pos->stm ^ 1);
    return a > b ? RP_AB_WIN - ply : a < b ? -(RP_AB_WIN - ply) : 0;
}

/* The end make() cached (R7.1, R7.2), for the side to move. */
static int status_end(const rp_pos *pos, int ply)
{
    int o = RP_END_OUTCOME(pos->status);
    if (o == RP_DRAW)
        return 0;
    int winner = o == RP_WIN_BOTTOM ? RP_BOTTOM : RP_TOP;
    return winner == pos->stm ? RP_AB_WIN - ply : -(RP_AB_WIN - ply);
}

static inline int past_limit(const rp_pos *pos)
{
    return pos->move_limit && pos->fullmove > pos->move_limit;
}

/* 1 if the side to move has a legal move (R7.4's test, without making
 * the list): nearly always some piece has an empty orthogonal neighbour,
 * which every type may step to; otherwise count. */
static inline int can_move(const rp_pos *pos)
{
    const rp_geom *g = pos->g;
    const uint64_t mine = pos->occ[pos->stm];
    const uint64_t empty = g->board & ~(pos->occ[0] | pos->occ[1]);
    const uint64_t near = (mine >> g->w) | (mine << g->w) | ((mine & g->not_first) >> 1) |
                          ((mine & g->not_last) << 1);
    return (near & empty) || rp_count(pos) > 0;
}

/* --- limits ------------------------------------------------------------- */

static int check_limits(rp_ab *s)
{
    if (s->nodes >= s->node_limit)
        s->stopped = 1;
    else if (s->stop && atomic_load_explicit(s->stop, memory_order_relaxed))
        s->stopped = 1;
    else if (s->hard_ms > 0 && (int64_t)((timer_ns() - s->t0) / 1000000) >= s->hard_ms)
        s->stopped = 1;
    s->next_check = s->node_limit - s->nodes < CHECK_EVERY ? s->node_limit
                                                           : s->nodes + CHECK_EVERY;
    return s->stopped;
}


/* --- move ordering ---------------------------------------------------- */

/* What the enemy pieces `gone` are worth. */
static int value_of(const rp_ab *s, const rp_pos *pos, uint64_t gone)
{
    int v = 0;
    for (int t = 0; t < RP_NTYPES; t++)
        v += s->val[t] * bits_count(gone & pos->pc[pos->stm ^ 1][t]);
    return v;
}

/* The root's order: the moves that take material first (captures and
 * enclosures alike), the most material first; the rest keep their places,
 * but for the swaps that made room. An enclosure is only possible on a
 * capture's square or on the one empty side of an enemy piece our pieces
 * wall on its other three, so only those moves are asked. */
static void order_root(const rp_ab *s, const rp_pos *pos, game_move *list, int n)
{
    const rp_geom *g = pos->g;
    const int us = pos->stm, them = us ^ 1;
    const uint64_t empty = g->board & ~(pos->occ[0] | pos->occ[1]);
    uint64_t close = 0;
    for (uint64_t c = rp_three_sided(g, pos->occ[us], empty) & pos->occ[them]; c;)
        close |= g->step[bits_pop(&c)];
    close &= empty;
    int k = 0;
    for (int i = 0; i < n; i++) {
        game_move m = list[i];
        int cap = RP_CAP(m);
        unsigned key = cap ? (unsigned)s->val[rp_prey[RP_TYPE(m)]] : 0;
        if (cap || ((close >> RP_TO(m)) & 1)) {
            uint64_t gone = rp_encloses(pos, m);
            if (gone)
                key += (unsigned)value_of(s, pos, gone);
        }
        if (!key)
            continue;
        /* insert into the sorted prefix, most first */
        list[i] = list[k];
        game_move keyed = (game_move)(key << 16) | m;
        int j = k++;
        while (j > 0 && list[j - 1] < keyed) {
            list[j] = list[j - 1];
            j--;
        }
        list[j] = keyed;
    }
    for (int i = 0; i < k; i++)
        list[i] &= MOVE_BITS;
}

/* --- the search --------------------------------------------------------- */

/* A position at the horizon: a game end, else its material. */
static inline int leaf(rp_ab *s, const rp_pos *pos, int ply)
{
    if (++s->nodes >= s->next_check && check_limits(s))
        return 0;
    if (__builtin_expect(pos->status != 0, 0))
        return status_end(pos, ply);
    if (__builtin_expect(past_limit(pos) || !can_move(pos), 0))
        return material_end(pos, ply);
    s->horizon = 1;
    return material(s->val, pos);
}

static void keep_line(rp_ab *s, int ply, game_move m, int child_line)
{
    s->pv[ply][ply] = m;
    if (child_line) {
        for (int k = ply + 1; k < s->pvlen[ply + 1]; k++)
            s->pv[ply][k] = s->pv[ply + 1][k];
        s->pvlen[ply] = s->pvlen[ply + 1];
    } else {
        s->pvlen[ply] = ply + 1;
    }
}

/* The squares each of the side to move's pieces may go to (rp_targets,
 * for all of them at once). */
typedef struct targets {
    int n;
    uint64_t any;                 /* every target of every piece */
    uint8_t from[64], type[64];
    uint64_t to[64];
} targets;

static inline void find_targets(const rp_pos *pos, targets *t)
{
    const rp_geom *g = pos->g;
    const int us = pos->stm, them = us ^ 1;
    const uint64_t occ = pos->occ[0] | pos->occ[1], empty = g->board & ~occ;
    int n = 0;
    uint64_t any = 0;
    for (int type = 0; type < RP_NTYPES; type++) {  /* rp_gen's order: Q N K B */
        const uint64_t ok = type == RP_BLOCKER ? empty : empty | pos->pc[them][rp_prey[type]];
        for (uint64_t b = pos->pc[us][type]; b;) {
            int sq = bits_pop(&b);
            uint64_t to = type == RP_QUEEN    ? rp_queen_reach(g, sq, occ)
                          : type == RP_KNIGHT ? g->knight[sq]
                          : type == RP_KING   ? g->king[sq]
                                              : g->step[sq];
            to &= ok;
            t->from[n] = (uint8_t)sq;
            t->type[n] = (uint8_t)type;
            t->to[n++] = to;
            any |= to;
        }
    }
    t->n = n;
    t->any = any;
}

/* Sorts keyed moves (key << 16 | move), most first, and strips the keys. */
static void sort_keyed(game_move *list, int n)
{
    for (int i = 1; i < n; i++) {
        game_move x = list[i];
        int j = i;
        while (j > 0 && list[j - 1] < x) {
            list[j] = list[j - 1];
            j--;
        }
        list[j] = x;
    }
    for (int i = 0; i < n; i++)
        list[i] &= MOVE_BITS;
}

static int search(rp_ab *s, const rp_pos *pos, int depth, int alpha, int beta, int ply,
                  int on_line);

/* Searches move m of pos and keeps its score in *best, *alpha and the
 * line; 1 when the node is done (a cutoff, or the search stopped). */
static inline int try_move(rp_ab *s, const rp_pos *pos, game_move m, int depth, int *alpha,
                           int beta, int *best, int ply, int line)
{
    rp_pos child = *pos;
    rp_make(&child, m);
    int v = depth > 1 ? -search(s, &child, depth - 1, -beta, -*alpha, ply + 1, line)
                      : -leaf(s, &child, ply + 1);
    if (s->stopped)
        return 1;
    if (v > *best) {
        *best = v;
        if (v > *alpha) {
            *alpha = v;
            keep_line(s, ply, m, depth > 1);
            if (v >= beta)
                return 1;
        }
    }
    return 0;
}

/* Negamax, fail-soft; depth >= 1. on_line: the moves to here are the
 * previous iteration's line, whose next move is then tried first. Moves
 * come in stages, so that a cutoff spares making the rest of the list:
 * that move; captures; quiet moves that enclose; the other quiet moves,
 * piece by piece in rp_gen's order. Every legal move is tried once. */
static int search(rp_ab *s, const rp_pos *pos, int depth, int alpha, int beta, int ply,
                  int on_line)
{
    s->pvlen[ply] = ply;
    if (++s->nodes >= s->next_check && check_limits(s))
        return 0;
    if (__builtin_expect(pos->status != 0, 0))
        return status_end(pos, ply);
    if (__builtin_expect(past_limit(pos), 0))
        return material_end(pos, ply);
    targets t;
    find_targets(pos, &t);
    if (__builtin_expect(!t.any, 0))
        return material_end(pos, ply);
    const rp_geom *g = pos->g;
    const int us = pos->stm, them = us ^ 1;
    const uint64_t enemy = pos->occ[them];
    int best = -INF;

    /* The previous iteration's move here, if it still is a move. */
    game_move first = GAME_MOVE_NONE;
    if (on_line && s->prevlen > ply) {
        game_move m = s->prev[ply];
        for (int i = 0; i < t.n; i++)
            if (t.from[i] == RP_FROM(m) && t.type[i] == RP_TYPE(m) &&
                ((t.to[i] >> RP_TO(m)) & 1) && RP_CAP(m) == (int)((enemy >> RP_TO(m)) & 1))
                first = m;
        if (first && try_move(s, pos, first, depth, &alpha, beta, &best, ply, 1))
            return best;
    }

    /* Captures, by what they take (the victim, and what the move encloses). */
    game_move noisy[RP_MAX_MOVES];
    int nc = 0;
    if (t.any & enemy) {
        for (int i = 0; i < t.n; i++)
            for (uint64_t c = t.to[i] & enemy; c;) {
                int to = bits_pop(&c);
                game_move m = RP_MOVE(t.from[i], to, t.type[i], 1);
                unsigned key = (unsigned)s->val[rp_prey[t.type[i]]];
                uint64_t gone = rp_encloses(pos, m);
                if (gone)
                    key += (unsigned)value_of(s, pos, gone);
                noisy[nc++] = (game_move)(key << 16) | m;
            }
        sort_keyed(noisy, nc);
        for (int i = 0; i < nc; i++)
            if (noisy[i] != first &&
                try_move(s, pos, noisy[i], depth, &alpha, beta, &best, ply, 0))
                return best;
    }

    /* Quiet moves onto the open side of an enemy piece walled on three. */
    const uint64_t empty = g->board & ~(pos->occ[0] | pos->occ[1]);
    uint64_t close = 0;
    for (uint64_t c = rp_three_sided(g, pos->occ[us], empty) & enemy; c;)
        close |= g->step[bits_pop(&c)];
    close &= empty & t.any;
    game_move *encl = noisy + nc;
    int ne = 0;
    if (close) {
        for (int i = 0; i < t.n; i++)
            for (uint64_t c = t.to[i] & close; c;) {
                game_move m = RP_MOVE(t.from[i], bits_pop(&c), t.type[i], 0);
                uint64_t gone = rp_encloses(pos, m);
                if (gone)
                    encl[ne++] = (game_move)((unsigned)value_of(s, pos, gone) << 16) | m;
            }
        sort_keyed(encl, ne);
        for (int i = 0; i < ne; i++)
            if (encl[i] != first &&
                try_move(s, pos, encl[i], depth, &alpha, beta, &best, ply, 0))
                return best;
    }

    /* The rest. */
    for (int i = 0; i < t.n; i++)
        for (uint64_t q = t.to[i] & ~enemy; q;) {
            int to = bits_pop(&q);
            game_move m = RP_MOVE(t.from[i], to, t.type[i], 0);
            if (m == first)
                continue;
            if ((close >> to) & 1) {
                int done = 0;
                for (int j = 0; j < ne && !done; j++)
                    done = encl[j] == m;
                if (done)
                    continue;
            }
            if (try_move(s, pos, m, depth, &alpha, beta, &best, ply, 0))
                return best;
        }
    return best;
}

/* One iteration over the root moves in their order; the line it finds is
 * pv[0] (empty if no move was searched to the end). */
static int root_search(rp_ab *s, const rp_pos *pos, const game_move *moves, int n, int depth)
{
    int alpha = -INF, best = -INF;
    s->pvlen[0] = 0;
    if (++s->nodes >= s->next_check && check_limits(s))
        return 0;
    for (int i = 0; i < n; i++) {
        rp_pos child = *pos;
        rp_make(&child, moves[i]);
        int v = depth > 1 ? -search(s, &child, depth - 1, -INF, -alpha, 1,
                                    s->prevlen > 0 && moves[i] == s->prev[0])
                          : -leaf(s, &child, 1);
        if (s->stopped)
            return best;
        if (v > best) {
            best = v;
            alpha = v;
            keep_line(s, 0, moves[i], depth > 1);
        }
    }
    return best;
}

game_move rp_ab_move(rp_ab *s, const rp_pos *pos, const game_limits *lim, atomic_int *stop,
                     rp_ab_report *last)
{
    static const game_limits none = { .time = { -1, -1 } };
    if (!lim)
        lim = &none;
    rp_ab_report rep;
    memset(&rep, 0, sizeof rep);
    s->stop = stop;
    s->stopped = 0;
    s->nodes = 0;
    s->t0 = timer_ns();
    s->node_limit = lim->nodes ? lim->nodes : UINT64_MAX;
    s->next_check = s->node_limit < CHECK_EVERY ? s->node_limit : CHECK_EVERY;
    s->prevlen = 0;
    game_plan_time(lim, pos->stm, &s->soft_ms, &s->hard_ms);
    board_values(s->val, pos->g);

    game_move moves[RP_MAX_MOVES];
    int n = rp_legal(pos, moves);
    if (n == 0) {
        if (last)
            *last = rep;
        return GAME_MOVE_NONE;
    }
    /* Ties go to the first move searched: shuffle, so that the seed
     * chooses among equals, then put what takes material first. */
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(&s->rng, (uint64_t)i + 1);
        game_move t = moves[i];
        moves[i] = moves[j];
        moves[j] = t;
    }
    order_root(s, pos, moves, n);
    game_move best = moves[0];
    int max_depth = lim->depth > 0 && lim->depth < RP_AB_MAX_PLY ? lim->depth
                                                                 : RP_AB_MAX_PLY - 1;
    for (int d = 1; d <= max_depth; d++) {
        if (stop && atomic_load_explicit(stop, memory_order_relaxed))
            break;
        s->horizon = 0;
        int score = root_search(s, pos, moves, n, d);
        if (s->pvlen[0] > 0)
            best = s->pv[0][0];
        if (s->stopped)
            break;
        rep.depth = d;
        rep.score = score;
        rep.pvlen = s->pvlen[0];
        memcpy(rep.pv, s->pv[0], sizeof(game_move) * (size_t)rep.pvlen);
        s->prevlen = rep.pvlen;
        memcpy(s->prev, rep.pv, sizeof(game_move) * (size_t)rep.pvlen);
        /* the best move first next time, the others in their order */
        for (int i = 1; i < n; i++)
            if (moves[i] == best) {
                memmove(moves + 1, moves, (size_t)i * sizeof *moves);
                moves[0] = best;
                break;
            }
        /* A game end within the horizon is exact; so is a tree that ended
         * everywhere before it. Deeper iterations would change nothing. */
        if ((score > RP_AB_WIN_MIN || score < -RP_AB_WIN_MIN) &&
            RP_AB_WIN - abs(score) <= d)
            break;
        if (!s->horizon)
            break;
        if (s->soft_ms > 0 && (int64_t)((timer_ns() - s->t0) / 1000000) * 2 > s->soft_ms)
            break;
    }
    rep.nodes = s->nodes;
    rep.ms = (timer_ns() - s->t0) / 1000000;
    if (last)
        *last = rep;
    return best;
}
