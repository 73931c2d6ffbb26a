/* multi.c -- paranoid and max-n search (multi.h).
 *
 * Both search the same tree: iterative deepening from the root, moves
 * ordered by the caller's hint with the previous depth's best move first.
 * A depth that runs out of nodes is thrown away, except the first, which
 * always finishes so that there is a move to play.
 */
#include "multi.h"

#include <string.h>

#include "../base/rng.h"

#define INF (MULTI_WIN * 2)

typedef struct state {
    const multi_config *c;
    const game_ops *ops;
    int nsides, nteams;
    int team[GAME_MAX_SIDES];  /* of each side, fixed for the game */
    int root_team;
    uint64_t nodes, limit;
    int abort;
    int stoppable;             /* c->stop is heeded (past the first depth) */
    game_move root_best, first;
} state;

/* Scores of every team (indexed by team number) at a leaf. */
static void leaf_scores(state *s, const void *pos, int ply, int out[GAME_MAX_SIDES])
{
    game_result r = s->ops->result(pos);
    if (r.over) {
        for (int t = 0; t < GAME_MAX_SIDES; t++)
            out[t] = r.winner < 0 ? 0 : t == r.winner ? MULTI_WIN - ply : -(MULTI_WIN - ply);
        return;
    }
    int val[GAME_MAX_SIDES] = { 0 }, sum[GAME_MAX_SIDES] = { 0 }, total = 0;
    s->c->eval(pos, s->c->ctx, val);
    for (int i = 0; i < s->nsides; i++) {
        sum[s->team[i]] += val[i];
        total += val[i];
    }
    int noise = 0;
    if (s->c->noise) {
        uint64_t h = rng_mix(s->ops->hash(pos) ^ s->c->seed);
        noise = (int)(h % (uint64_t)(2 * s->c->noise + 1)) - s->c->noise;
    }
    for (int t = 0; t < GAME_MAX_SIDES; t++)
        out[t] = sum[t] - (s->nteams > 1 ? (total - sum[t]) / (s->nteams - 1) : 0) + noise;
}

static int order(state *s, const void *pos, game_move *moves, int n, int ply)
{
    int hint[GAME_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        hint[i] = s->c->hint ? s->c->hint(pos, moves[i], s->c->ctx) : 0;
        if (ply == 0 && moves[i] == s->first)
            hint[i] = INF;
    }
    /* Insertion sort, stable: best first. */
    for (int i = 1; i < n; i++) {
        game_move m = moves[i];
        int h = hint[i], j = i;
        for (; j > 0 && hint[j - 1] < h; j--) {
            moves[j] = moves[j - 1];
            hint[j] = hint[j - 1];
        }
        moves[j] = m;
        hint[j] = h;
    }
    return n;
}

static int spend(state *s)
{
    s->nodes++;
    if (s->limit && s->nodes > s->limit)
        s->abort = 1;
    if (s->stoppable && (s->nodes & 1023) == 0 && s->c->stop && atomic_load(s->c->stop))
        s->abort = 1;
    return s->abort;
}

static int paranoid(state *s, void *pos, int depth, int ply, int alpha, int beta)
{
    if (spend(s))
        return 0;
    int sc[GAME_MAX_SIDES];
    if (depth == 0 || s->ops->result(pos).over) {
        leaf_scores(s, pos, ply, sc);
        return sc[s->root_team];
    }
    game_move moves[GAME_MAX_MOVES];
    int n = order(s, pos, moves, s->ops->moves(pos, moves), ply);
    int maximise = s->team[s->ops->side_to_move(pos)] == s->root_team;
    int best = maximise ? -INF : INF;
    _Alignas(16) unsigned char undo[GAME_POS_MAX];
    for (int i = 0; i < n; i++) {
        s->ops->make(pos, moves[i], undo);
        int v = paranoid(s, pos, depth - 1, ply + 1, alpha, beta);
        s->ops->unmake(pos, moves[i], undo);
        if (s->abort)
            return 0;
        if (maximise ? v > best : v < best) {
            best = v;
            if (ply == 0)
                s->root_best = moves[i];
        }
        if (maximise && best > alpha)
            alpha = best;
        if (!maximise && best < beta)
            beta = best;
        if (alpha >= beta)
            break;
    }
    return best;
}

static void maxn(state *s, void *pos, int depth, int ply, int out[GAME_MAX_SIDES])
{
    if (spend(s))
        return;
    if (depth == 0 || s->ops->result(pos).over) {
        leaf_scores(s, pos, ply, out);
        return;
    }
    game_move moves[GAME_MAX_MOVES];
    int n = order(s, pos, moves, s->ops->moves(pos, moves), ply);
    int me = s->team[s->ops->side_to_move(pos)];
    _Alignas(16) unsigned char undo[GAME_POS_MAX];
    int child[GAME_MAX_SIDES];
    for (int i = 0; i < n; i++) {
        s->ops->make(pos, moves[i], undo);
        maxn(s, pos, depth - 1, ply + 1, child);
        s->ops->unmake(pos, moves[i], undo);
        if (s->abort)
            return;
        if (i == 0 || child[me] > out[me]) {
            memcpy(out, child, sizeof child);
            if (ply == 0)
                s->root_best = moves[i];
        }
    }
}

game_move multi_search(const multi_config *c, const void *root, multi_report *rep)
{
    state s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.ops = c->variant->ops;
    s.nsides = c->variant->nsides;
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    memcpy(pos, root, s.ops->pos_size);
    int seen[GAME_MAX_SIDES] = { 0 };
    for (int i = 0; i < s.nsides; i++) {
        s.team[i] = s.ops->team_of(pos, i);
        if (!seen[s.team[i]]++)
            s.nteams++;
    }
    int for_side = c->for_side_set && c->algo == MULTI_PARANOID && c->for_side >= 0 &&
                   c->for_side < s.nsides ? c->for_side : s.ops->side_to_move(pos);
    s.root_team = s.team[for_side];
    game_move moves[GAME_MAX_MOVES];
    int n = s.ops->moves(pos, moves);
    if (rep)
        memset(rep, 0, sizeof *rep);
    if (n == 0) {
        if (rep && c->for_side_set) {  /* over: what the end gives that team */
            int sc[GAME_MAX_SIDES];
            leaf_scores(&s, pos, 0, sc);
            rep->score = sc[s.root_team];
        }
        return GAME_MOVE_NONE;
    }
    game_move best = moves[0];
    if (n == 1 && !c->for_side_set)
        return best;  /* nothing to choose (a review still wants the worth) */
    int maxd = c->depth < 1 ? 1 : c->depth > MULTI_MAX_DEPTH ? MULTI_MAX_DEPTH : c->depth;
    for (int d = 1; d <= maxd; d++) {
        s.abort = 0;
        s.limit = d == 1 ? 0 : c->nodes;
        s.stoppable = d > 1;
        s.root_best = GAME_MOVE_NONE;
        int score;
        if (c->algo == MULTI_MAXN) {
            int out[GAME_MAX_SIDES] = { 0 };
            maxn(&s, pos, d, 0, out);
            score = out[s.root_team];
        } else {
            score = paranoid(&s, pos, d, 0, -INF, INF);
        }
        if (s.abort)
            break;
        if (s.root_best != GAME_MOVE_NONE)
            best = s.first = s.root_best;
        if (rep) {
            rep->depth = d;
            rep->score = score;
        }
    }
    if (rep)
        rep->nodes = s.nodes;
    return best;
}
