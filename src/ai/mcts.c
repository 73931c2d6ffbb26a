/* mcts.c -- plain UCT over game.h.
 *
 * The tree.  All nodes live in one pool (`nodes`, `cap` entries) allocated
 * when the searcher is made. A node's children are contiguous: expanding a
 * node takes all its moves at once from the end of the pool, shuffled, so
 * that "the first unvisited child" is a uniformly random one. nodes[0] is
 * the root; a node with nchild > 0 owns nodes[first .. first + nchild - 1].
 * Nodes store only the move leading into them: each iteration copies the
 * root position and replays the moves down the tree, so no position is
 * stored per node. The tree is rebuilt for every move. When the pool is
 * full, leaves stay leaves (playouts go on from them) and the pool grows,
 * by realloc and up to MCTS_MAX_NODES, before the next move only.
 *
 * One iteration: from the root, pick the child with the highest
 *   points / visits + C * sqrt(ln(parent visits) / visits),   C = sqrt(2),
 * an unvisited child first, down to a leaf; a leaf seen before (and the
 * root) is expanded and its first child entered; then a random playout.
 *
 * Scoring (a choice, documented here).  A playout plays uniformly random
 * legal moves until the game is over (ops->moves returns 0; ops->result
 * then names the winner) or MCTS_PLAYOUT_PLIES plies have been played. A
 * cut-off playout is scored by game material (ops->material summed per
 * team): the team with strictly the most wins, otherwise a draw; a game
 * without a material op scores it a draw. Material is what the rules
 * themselves adjudicate by at a move limit (Rampart R7.3), and its sign is
 * a cheap, unbiased-enough verdict on a random game that has not finished.
 * Each node counts, in half points, what the team of the side that played
 * the move into it scored: win 2, draw 1, loss 0.
 */
#include "mcts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/rng.h"
#include "../base/timer.h"

#define INITIAL_NODES (1u << 16)
#define MAX_PATH 512               /* deeper trees stop expanding */
#define UCT_C 1.4142135623730951   /* sqrt(2) */

typedef struct node {
    game_move move;      /* the move into this node; GAME_MOVE_NONE at the root */
    uint32_t first;      /* first child, when nchild > 0 */
    uint32_t visits;
    uint32_t points;     /* half points of `team` over its visits */
    uint16_t nchild;
    int8_t team;         /* team of the side that played `move` */
} node;

struct mcts {
    node *nodes;
    uint32_t cap, used;
    int full;            /* the last run ran out of nodes */
    rng rng;
};

mcts *mcts_new(uint64_t seed)
{
    mcts *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->nodes = malloc(sizeof(node) * INITIAL_NODES);
    if (!m->nodes) {
        free(m);
        return NULL;
    }
    m->cap = INITIAL_NODES;
    rng_seed(&m->rng, seed);
    return m;
}

void mcts_free(mcts *m)
{
    if (!m)
        return;
    free(m->nodes);
    free(m);
}

/* Between moves: a bigger pool if the last search ran out. On failure the
 * old pool stays. */
static void grow(mcts *m)
{
    if (!m->full || m->cap >= MCTS_MAX_NODES)
        return;
    uint32_t cap = m->cap * 4 > MCTS_MAX_NODES ? MCTS_MAX_NODES : m->cap * 4;
    node *n = realloc(m->nodes, sizeof(node) * cap);
    if (n) {
        m->nodes = n;
        m->cap = cap;
    }
}

/* Gives node i the moves of pos as children, shuffled. Returns 0, or -1 if
 * the pool has no room (i stays a leaf). */
static int expand(mcts *m, uint32_t i, const game_ops *ops, const void *pos,
                  const game_move *moves, int n)
{
    if (n <= 0 || (uint32_t)n > m->cap - m->used) {
        m->full = 1;
        return -1;
    }
    int8_t team = (int8_t)ops->team_of(pos, ops->side_to_move(pos));
    node *c = m->nodes + m->used;
    for (int k = 0; k < n; k++) {
        int j = (int)rng_below(&m->rng, (uint64_t)k + 1);
        if (j != k)
            c[k] = c[j];
        c[j] = (node){ .move = moves[k], .team = team };
    }
    m->nodes[i].first = m->used;
    m->nodes[i].nchild = (uint16_t)n;
    m->used += (uint32_t)n;
    return 0;
}

/* The UCT choice among i's children. */
static uint32_t select_child(const mcts *m, uint32_t i)
{
    const node *p = &m->nodes[i];
    const node *c = m->nodes + p->first;
    double logn = log((double)p->visits), best = -1.0;
    uint32_t pick = 0;
    for (uint32_t k = 0; k < p->nchild; k++) {
        if (c[k].visits == 0)
            return p->first + k;
        double v = (double)c[k].visits;
        double u = (double)c[k].points / (2.0 * v) + UCT_C * sqrt(logn / v);
        if (u > best) {
            best = u;
            pick = k;
        }
    }
    return p->first + pick;
}

/* The winning team of a cut-off game by material, or -1 for a draw. */
static int material_winner(const game_variant *v, const void *pos)
{
    const game_ops *ops = v->ops;
    int total[GAME_MAX_SIDES] = { 0 };
    if (!ops->material)
        return -1;
    for (int s = 0; s < v->nsides && s < GAME_MAX_SIDES; s++) {
        int t = ops->team_of(pos, s);
        if (t >= 0 && t < GAME_MAX_SIDES)
            total[t] += ops->material(pos, s);
    }
    int best = -1, top = -1, ties = 0;
    for (int t = 0; t < GAME_MAX_SIDES; t++) {
        if (total[t] > top) {
            top = total[t];
            best = t;
            ties = 0;
        } else if (total[t] == top) {
            ties = 1;
        }
    }
    return ties ? -1 : best;
}

/* Plays random moves from pos (changed) and returns the winning team, or
 * -1 for a draw. */
static int playout(mcts *m, const game_variant *v, void *pos, game_move *moves, void *undo)
{
    const game_ops *ops = v->ops;
    for (int ply = 0; ply < MCTS_PLAYOUT_PLIES; ply++) {
        int n = ops->moves(pos, moves);
        if (n == 0)
            break;
        ops->make(pos, moves[rng_below(&m->rng, (uint64_t)n)], undo);
    }
    game_result r = ops->result(pos);
    return r.over ? r.winner : material_winner(v, pos);
}

/* The playout budget and the time allowed (0 = none): a fixed move time
 * in full, on a clock the soft limit of game_plan_time. */
static void plan(const search_limits *lim, int side, uint64_t *playouts, uint64_t *ms)
{
    int64_t soft, hard;
    game_plan_time(lim, side, &soft, &hard);
    *playouts = lim->nodes;
    *ms = (uint64_t)(lim->movetime > 0 ? hard : soft);
    if (!*playouts && !*ms && !lim->infinite)
        *playouts = MCTS_DEFAULT_PLAYOUTS;
}

game_move mcts_run(mcts *m, const game_variant *v, const void *root, const search_limits *lim,
                   atomic_int *stop, mcts_stats *st)
{
    const game_ops *ops = v->ops;
    _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
    game_move moves[GAME_MAX_MOVES];
    uint32_t path[MAX_PATH];
    uint64_t t0 = timer_ns(), budget, ms, done = 0;

    grow(m);
    m->full = 0;
    m->used = 1;
    m->nodes[0] = (node){ .team = -1 };
    int n = ops->moves(root, moves);
    if (n == 0 || expand(m, 0, ops, root, moves, n) != 0)
        return n ? moves[0] : GAME_MOVE_NONE;
    plan(lim, ops->side_to_move(root) & 1, &budget, &ms);
    uint64_t deadline = ms ? t0 + ms * 1000000u : UINT64_MAX;

    /* Below 2^31 playouts no node's half points can overflow. */
    while (n > 1 && (!budget || done < budget) && done < (1u << 31)) {
        if (stop && atomic_load_explicit(stop, memory_order_relaxed))
            break;
        if (ms && timer_ns() >= deadline)
            break;
        memcpy(pos, root, ops->pos_size);
        int depth = 0;
        uint32_t i = 0;
        path[depth++] = 0;
        while (m->nodes[i].nchild > 0 && depth < MAX_PATH) {
            i = select_child(m, i);
            ops->make(pos, m->nodes[i].move, undo);
            path[depth++] = i;
        }
        if (m->nodes[i].visits > 0 && depth < MAX_PATH) {
            int k = ops->moves(pos, moves);
            if (k > 0 && expand(m, i, ops, pos, moves, k) == 0) {
                i = m->nodes[i].first;
                ops->make(pos, m->nodes[i].move, undo);
                path[depth++] = i;
            }
        }
        int winner = playout(m, v, pos, moves, undo);
        for (int d = 0; d < depth; d++) {
            node *x = &m->nodes[path[d]];
            x->visits++;
            x->points += winner == x->team ? 2u : winner < 0 ? 1u : 0u;
        }
        done++;
    }

    const node *c = m->nodes + m->nodes[0].first;
    uint32_t best = 0;
    for (uint32_t k = 1; k < m->nodes[0].nchild; k++)
        if (c[k].visits > c[best].visits ||
            (c[k].visits == c[best].visits && c[k].points > c[best].points))
            best = k;
    if (st) {
        st->playouts = done;
        st->nodes = m->used;
        st->ms = (timer_ns() - t0) / 1000000u;
        st->full = m->full;
    }
    return c[best].move;
}
