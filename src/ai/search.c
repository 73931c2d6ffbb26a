/* search.c -- iterative deepening PVS over game.h, on one thread or on
 * several sharing one transposition table (lazy SMP).
 *
 * Invariants: the working position is changed only by make/unmake in
 * matched pairs, so it equals the root position whenever search() returns;
 * once `stopped` is set every frame returns at once and the unfinished
 * iteration's results are thrown away (the last completed one stands).
 * With helpers, only the main searcher reports and chooses the move; the
 * helpers search the same root at the same and the next depth and leave
 * what they learn in the shared table, whose entries are read and written
 * as two relaxed atomic words, the first the key xor the second, so that
 * an entry torn by two threads writing at once reads as another key's and
 * is ignored. One thread searches exactly as before: `bench` counts the
 * same nodes.
 */
#include "search.h"

#if !defined(__wasi__)
#include <pthread.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "../base/rng.h"
#include "../base/timer.h"

#define INF (SEARCH_WIN + 1)
#define HIST 4096
#define QS_MAX 12
#define ROOT_TEAM_KEY 0x9e3779b97f4a7c15ull
#define ASP_DEPTH 5     /* iterations from here start with a window */
#define ASP_WINDOW 40   /* its half-width, centipawns */

enum { TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

/* check: the key xor data; data: the move (bits 0-31), the score
 * (32-47), the depth (48-55) and the flag (56-63). */
typedef struct tt_entry {
    _Atomic uint64_t check;
    _Atomic uint64_t data;
} tt_entry;

typedef struct tt_hit {
    game_move move;
    int score, depth, flag;
} tt_hit;

/* 1 and what e holds for key, or 0 if it holds another key's (or is torn). */
static inline int tt_read(const tt_entry *e, uint64_t key, tt_hit *h)
{
    uint64_t d = atomic_load_explicit(&e->data, memory_order_relaxed);
    if ((atomic_load_explicit(&e->check, memory_order_relaxed) ^ d) != key)
        return 0;
    h->move = (game_move)(d & 0xffffffffu);
    h->score = (int16_t)(uint16_t)(d >> 32);
    h->depth = (int)((d >> 48) & 0xff);
    h->flag = (int)(d >> 56);
    return 1;
}

static inline void tt_write(tt_entry *e, uint64_t key, game_move m, int score, int depth, int flag)
{
    uint64_t d = (uint64_t)m | (uint64_t)(uint16_t)(int16_t)score << 32 |
                 (uint64_t)(depth > 255 ? 255 : depth) << 48 | (uint64_t)flag << 56;
    atomic_store_explicit(&e->data, d, memory_order_relaxed);
    atomic_store_explicit(&e->check, key ^ d, memory_order_relaxed);
}

/* What a level changes: how deep it may look, whether it looks past the
 * last capture, and how much noise blurs its judgement. */
typedef struct level_params {
    int max_depth;
    int quiescence;
    int noise;
    uint64_t max_nodes;
} level_params;

static const level_params levels[SEARCH_LEVELS + 1] = {
    { 0, 0, 0, 0 },
    { 1, 0, 90, 2000 },      /* 1: sees one move, misses recaptures */
    { 2, 0, 45, 20000 },     /* 2: sees replies, still misses exchanges */
    { 3, 1, 20, 100000 },    /* 3: sees exchanges */
    { 4, 1, 8, 400000 },     /* 4 */
    { 6, 1, 0, 2000000 },    /* 5 */
    { 0, 1, 0, 0 },          /* 6: the strongest, limited only by time */
};

struct searcher {
    tt_entry *tt;
    size_t tt_mask;
    int shares_tt;     /* a helper: the table is its main searcher's */
    int nhelpers;      /* searchers on threads of their own, beside this one */
    searcher *helpers[SEARCH_MAX_THREADS - 1];
    game_move killers[SEARCH_MAX_PLY][2];
    int32_t history[2][HIST];
    level_params lv;
    uint64_t seed;
    int contempt;      /* draws and blockades cost the side searching */

    /* One run. */
    const game_ops *ops;
    atomic_int *stop;
    int stopped;
    uint64_t nodes, node_limit, t0;
    int64_t soft_ms, hard_ms;
    int seldepth;
    int root_team;     /* the team the search plays for (contempt) */
    int nskip;         /* root moves left out (search_skip): MultiPV */
    game_move skip[SEARCH_MAX_SKIP];
    int nonly;         /* root moves chosen among (search_only), 0 = all */
    game_move only[GAME_MAX_MOVES];
    int pvlen[SEARCH_MAX_PLY + 1];
    game_move pv[SEARCH_MAX_PLY + 1][SEARCH_MAX_PLY + 1];
    _Alignas(16) unsigned char undo[SEARCH_MAX_PLY + 1][GAME_POS_MAX];
};

searcher *search_new(size_t hash_mb)
{
    searcher *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (search_resize(s, hash_mb) != 0) {
        free(s);
        return NULL;
    }
    search_set_level(s, SEARCH_LEVELS, 1);
    s->contempt = 1;
    return s;
}

void search_free(searcher *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nhelpers; i++)
        search_free(s->helpers[i]);
    if (!s->shares_tt)
        free(s->tt);
    free(s);
}

int search_resize(searcher *s, size_t hash_mb)
{
    if (hash_mb < 1)
        hash_mb = 1;
    size_t n = 1;
    while (n * 2 * sizeof(tt_entry) <= hash_mb * 1024 * 1024)
        n *= 2;
    tt_entry *tt = calloc(n, sizeof *tt);
    if (!tt)
        return -1;
    free(s->tt);
    s->tt = tt;
    s->tt_mask = n - 1;
    for (int i = 0; i < s->nhelpers; i++) {
        s->helpers[i]->tt = tt;
        s->helpers[i]->tt_mask = n - 1;
    }
    return 0;
}

void search_clear(searcher *s)
{
    for (size_t i = 0; !s->shares_tt && i <= s->tt_mask; i++) {
        atomic_store_explicit(&s->tt[i].data, 0, memory_order_relaxed);
        atomic_store_explicit(&s->tt[i].check, 0, memory_order_relaxed);
    }
    memset(s->killers, 0, sizeof s->killers);
    memset(s->history, 0, sizeof s->history);
    for (int i = 0; i < s->nhelpers; i++)
        search_clear(s->helpers[i]);
}

int search_hashfull(const searcher *s)
{
    size_t n = s->tt_mask + 1 < 1000 ? s->tt_mask + 1 : 1000, used = 0;
    for (size_t i = 0; i < n; i++)
        used += atomic_load_explicit(&s->tt[i].check, memory_order_relaxed) != 0;
    return (int)(used * 1000 / n);
}

int search_set_threads(searcher *s, int n)
{
#if defined(__wasi__)
    n = 1;  /* the page's engine runs on one thread */
#endif
    if (n < 1)
        n = 1;
    if (n > SEARCH_MAX_THREADS)
        n = SEARCH_MAX_THREADS;
    while (s->nhelpers > n - 1)
        search_free(s->helpers[--s->nhelpers]);
    while (s->nhelpers < n - 1) {
        searcher *h = calloc(1, sizeof *h);
        if (!h)
            break;
        h->tt = s->tt;
        h->tt_mask = s->tt_mask;
        h->shares_tt = 1;
        s->helpers[s->nhelpers++] = h;
    }
    return s->nhelpers + 1;
}

void search_set_contempt(searcher *s, int on)
{
    s->contempt = on != 0;
}

void search_set_level(searcher *s, int level, uint64_t seed)
{
    if (level < 1)
        level = 1;
    if (level > SEARCH_LEVELS)
        level = SEARCH_LEVELS;
    s->lv = levels[level];
    s->seed = seed;
}

static void check_limits(searcher *s)
{
    if (s->stop && atomic_load_explicit(s->stop, memory_order_relaxed))
        s->stopped = 1;
    if (s->node_limit && s->nodes >= s->node_limit)
        s->stopped = 1;
    if (s->hard_ms > 0 && (int64_t)((timer_ns() - s->t0) / 1000000) >= s->hard_ms)
        s->stopped = 1;
}

static int end_score(const searcher *s, const void *pos, int ply)
{
    game_result r = s->ops->result(pos);
    if (!r.over)
        return 0;
    int us = s->ops->team_of(pos, s->ops->side_to_move(pos));
    if (r.winner < 0)
        return !s->contempt ? 0 : us == s->root_team ? -SEARCH_CONTEMPT : SEARCH_CONTEMPT;
    return r.winner == us ? SEARCH_WIN - ply : -(SEARCH_WIN - ply);
}

static int evaluate(const searcher *s, const void *pos)
{
    int e = s->ops->evaluate ? s->ops->evaluate(pos) : 0;
    /* Contempt for a blockade, as for a draw: the side searching wants
     * out, and expects its opponent to be content. */
    if (s->contempt && s->ops->blockade && s->ops->blockade(pos)) {
        int us = s->ops->team_of(pos, s->ops->side_to_move(pos));
        e += us == s->root_team ? -SEARCH_BLOCKADE : SEARCH_BLOCKADE;
    }
    if (s->lv.noise) {
        /* The same blur for the same position within a game's search. */
        uint64_t h = rng_mix(s->ops->hash(pos) ^ s->seed);
        e += (int)(h % (uint64_t)(2 * s->lv.noise + 1)) - s->lv.noise;
    }
    return e;
}

static inline unsigned hist_index(game_move m)
{
    return (m ^ (m >> 12) ^ (m >> 20)) & (HIST - 1);
}

/* Picks the best-scored move left at or after i and swaps it to i. */
static void pick(game_move *moves, int *score, int n, int i)
{
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (score[j] > score[best])
            best = j;
    game_move m = moves[i];
    moves[i] = moves[best];
    moves[best] = m;
    int t = score[i];
    score[i] = score[best];
    score[best] = t;
}

static int to_tt(int score, int ply)
{
    if (score > SEARCH_WIN_MIN)
        return score + ply;
    if (score < -SEARCH_WIN_MIN)
        return score - ply;
    return score;
}

static int from_tt(int score, int ply)
{
    if (score > SEARCH_WIN_MIN)
        return score - ply;
    if (score < -SEARCH_WIN_MIN)
        return score + ply;
    return score;
}

static int qsearch(searcher *s, void *pos, int alpha, int beta, int ply, int qd)
{
    if ((++s->nodes & 1023) == 0)
        check_limits(s);
    if (s->stopped)
        return 0;
    if (ply > s->seldepth)
        s->seldepth = ply;
    game_result r = s->ops->result(pos);
    if (r.over)
        return end_score(s, pos, ply);
    int stand = evaluate(s, pos);
    if (!s->lv.quiescence || qd >= QS_MAX || ply >= SEARCH_MAX_PLY || !s->ops->noisy)
        return stand;
    if (stand >= beta)
        return stand;
    if (stand > alpha)
        alpha = stand;
    game_move moves[GAME_MAX_MOVES];
    int score[GAME_MAX_MOVES];
    int n = s->ops->noisy(pos, moves);
    for (int i = 0; i < n; i++)
        score[i] = s->ops->move_hint ? s->ops->move_hint(pos, moves[i]) : 0;
    int best = stand;
    for (int i = 0; i < n; i++) {
        pick(moves, score, n, i);
        s->ops->make(pos, moves[i], s->undo[ply]);
        int v = -qsearch(s, pos, -beta, -alpha, ply + 1, qd + 1);
        s->ops->unmake(pos, moves[i], s->undo[ply]);
        if (s->stopped)
            return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    return best;
}

/* Whether the root is narrowed (search_skip, search_only). */
static int root_narrowed(const searcher *s)
{
    return s->nskip > 0 || s->nonly > 0;
}

/* Keeps of the root moves[0..n) those search_only allows and search_skip
 * does not leave out; the count kept, in their order. */
static int narrow_root(const searcher *s, game_move *moves, int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int out = 0, in = s->nonly == 0;
        for (int k = 0; k < s->nskip; k++)
            out |= moves[i] == s->skip[k];
        for (int k = 0; k < s->nonly && !in; k++)
            in = moves[i] == s->only[k];
        if (in && !out)
            moves[kept++] = moves[i];
    }
    return kept;
}

void search_skip(searcher *s, const game_move *moves, int n)
{
    s->nskip = n < 0 ? 0 : n > SEARCH_MAX_SKIP ? SEARCH_MAX_SKIP : n;
    for (int k = 0; k < s->nskip; k++)
        s->skip[k] = moves[k];
}

void search_only(searcher *s, const game_move *moves, int n)
{
    s->nonly = n < 0 ? 0 : n > GAME_MAX_MOVES ? GAME_MAX_MOVES : n;
    for (int k = 0; k < s->nonly; k++)
        s->only[k] = moves[k];
}

static int search(searcher *s, void *pos, int depth, int alpha, int beta, int ply)
{
    const int pvnode = beta - alpha > 1;
    s->pvlen[ply] = ply;
    if ((++s->nodes & 1023) == 0)
        check_limits(s);
    if (s->stopped)
        return 0;
    if (ply >= SEARCH_MAX_PLY)
        return evaluate(s, pos);

    if (depth <= 0) {
        /* qsearch asks result() whether the game is over, which covers
         * "no legal move": no need to generate the moves here. */
        s->nodes--;  /* counted again by qsearch */
        return qsearch(s, pos, alpha, beta, ply, 0);
    }
    /* Transposition table. Draws score by whose search it is (contempt):
     * keep the sides apart. The entry is fetched from memory while the
     * moves are generated. */
    uint64_t key = s->ops->hash(pos) ^ (s->root_team ? ROOT_TEAM_KEY : 0);
    tt_entry *e = &s->tt[key & s->tt_mask];
    __builtin_prefetch(e);
    game_move moves[GAME_MAX_MOVES];
    int n = s->ops->moves(pos, moves);
    if (n == 0)
        return end_score(s, pos, ply);
    if (ply == 0 && root_narrowed(s))
        n = narrow_root(s, moves, n);
    if (ply > s->seldepth)
        s->seldepth = ply;

    game_move hash_move = GAME_MOVE_NONE;
    tt_hit hit;
    if (tt_read(e, key, &hit)) {
        hash_move = hit.move;
        int v = from_tt(hit.score, ply);
        if (!pvnode && ply > 0 && hit.depth >= depth &&
            (hit.flag == TT_EXACT || (hit.flag == TT_LOWER && v >= beta) ||
             (hit.flag == TT_UPPER && v <= alpha)))
            return v;
    }

    /* Ordering. */
    int score[GAME_MAX_MOVES];
    int side = s->ops->side_to_move(pos) & 1;
    int hint[GAME_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        game_move m = moves[i];
        hint[i] = s->ops->move_hint ? s->ops->move_hint(pos, m) : 0;
        if (m == hash_move)
            score[i] = 1 << 30;
        else if (hint[i] > 0)
            score[i] = (1 << 28) + hint[i];
        else if (m == s->killers[ply][0])
            score[i] = (1 << 27) + 1;
        else if (m == s->killers[ply][1])
            score[i] = 1 << 27;
        else
            score[i] = s->history[side][hist_index(m)];
    }

    int best = -INF, orig_alpha = alpha;
    game_move best_move = GAME_MOVE_NONE;
    for (int i = 0; i < n; i++) {
        pick(moves, score, n, i);
        game_move m = moves[i];
        int quiet = score[i] < (1 << 27);
        s->ops->make(pos, m, s->undo[ply]);
        int v;
        if (i == 0) {
            v = -search(s, pos, depth - 1, -beta, -alpha, ply + 1);
        } else {
            int r = 0;
            if (depth >= 3 && quiet && i >= 3)
                r = 1 + (i >= 8) + (depth >= 8 && i >= 16);
            if (r > depth - 2)
                r = depth - 2;
            if (r < 0)
                r = 0;
            v = -search(s, pos, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
            if (v > alpha && r)
                v = -search(s, pos, depth - 1, -alpha - 1, -alpha, ply + 1);
            if (v > alpha && v < beta)
                v = -search(s, pos, depth - 1, -beta, -alpha, ply + 1);
        }
        s->ops->unmake(pos, m, s->undo[ply]);
        if (s->stopped)
            return 0;
        if (v > best) {
            best = v;
            best_move = m;
            if (v > alpha) {
                alpha = v;
                s->pv[ply][ply] = m;
                for (int k = ply + 1; k < s->pvlen[ply + 1]; k++)
                    s->pv[ply][k] = s->pv[ply + 1][k];
                s->pvlen[ply] = s->pvlen[ply + 1] > ply + 1 ? s->pvlen[ply + 1] : ply + 1;
                if (alpha >= beta) {
                    if (quiet) {
                        if (s->killers[ply][0] != m) {
                            s->killers[ply][1] = s->killers[ply][0];
                            s->killers[ply][0] = m;
                        }
                        int32_t *h = &s->history[side][hist_index(m)];
                        *h += depth * depth;
                        if (*h > (1 << 26))
                            for (int k = 0; k < HIST; k++)
                                s->history[side][k] /= 2;
                    }
                    break;
                }
            }
        }
    }
    if (ply == 0 && root_narrowed(s))
        return best;  /* a root with moves left out has no true value to keep */
    tt_write(e, key, best_move, (int16_t)to_tt(best, ply), depth,
             best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER);
    return best;
}

/* Reports a search of the root that failed outside its window (beta its
 * top) with score v: a lower bound when it failed high (its line is the
 * move that did), an upper bound when it failed low (no move rose above
 * the window, so the line shown is last's, the last finished iteration's).
 * Only reads the searcher: the search goes on as it would unreported. */
static void report_bound(const searcher *s, int depth, int v, int beta, const search_report *last,
                         search_info_fn info, void *ctx)
{
    search_report r;
    r.depth = depth;
    r.seldepth = s->seldepth;
    r.score = v;
    r.bound = v >= beta ? SEARCH_LOWER : SEARCH_UPPER;
    r.nodes = s->nodes;
    r.ms = (timer_ns() - s->t0) / 1000000;
    if (s->pvlen[0] > 0) {
        r.pvlen = s->pvlen[0];
        memcpy(r.pv, s->pv[0], sizeof(game_move) * (size_t)r.pvlen);
    } else {
        r.pvlen = last->pvlen;
        memcpy(r.pv, last->pv, sizeof(game_move) * (size_t)r.pvlen);
    }
    info(ctx, &r);
}

/* One iteration: an aspiration window around the last score, widened
 * until the score falls inside it; each fail reported to info, if given,
 * before the search again (last: the last finished iteration's report). */
static int root_search(searcher *s, void *pos, int depth, int prev, const search_report *last,
                       search_info_fn info, void *ctx)
{
    if (depth < ASP_DEPTH || prev > SEARCH_WIN_MIN || prev < -SEARCH_WIN_MIN)
        return search(s, pos, depth, -INF, INF, 0);
    int delta = ASP_WINDOW;
    int alpha = prev - delta, beta = prev + delta;
    for (;;) {
        int v = search(s, pos, depth, alpha, beta, 0);
        if (s->stopped || (v > alpha && v < beta))
            return v;
        if (info)
            report_bound(s, depth, v, beta, last, info, ctx);
        delta *= 4;
        if (v <= alpha)
            alpha = delta > SEARCH_WIN ? -INF : v - delta;
        else
            beta = delta > SEARCH_WIN ? INF : v + delta;
    }
}


#if !defined(__wasi__)
/* A helper's run: the root searched deeper and deeper from `first` until
 * the main searcher stops it, or max_depth is done. */
typedef struct helper_run {
    searcher *h;
    const game_variant *v;
    const void *root;
    int first, max_depth;
    pthread_t thread;
    int started;
} helper_run;

static void *helper_main(void *arg)
{
    helper_run *r = arg;
    searcher *h = r->h;
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    memcpy(pos, r->root, r->v->ops->pos_size);
    search_report rep;
    memset(&rep, 0, sizeof rep);
    memset(h->killers, 0, sizeof h->killers);
    int prev = 0;
    for (int d = r->first; d <= r->max_depth && !h->stopped; d++) {
        h->seldepth = 0;
        prev = root_search(h, pos, d, prev, &rep, NULL, NULL);
    }
    return NULL;
}

/* Starts s's helpers on root (stopped through hstop); returns how many. */
static int helpers_start(searcher *s, const game_variant *v, const void *root, int max_depth,
                         atomic_int *hstop, helper_run *runs)
{
    if (s->lv.max_nodes || s->lv.max_depth)
        return 0;  /* a weaker level is its own limit: one thread */
    int n = 0;
    for (int i = 0; i < s->nhelpers; i++) {
        searcher *h = s->helpers[i];
        h->ops = s->ops;
        h->stop = hstop;
        h->stopped = 0;
        h->nodes = 0;
        h->node_limit = 0;
        h->soft_ms = h->hard_ms = 0;
        h->t0 = s->t0;
        h->root_team = s->root_team;
        h->lv = s->lv;
        h->seed = s->seed + (uint64_t)i + 1;
        h->contempt = s->contempt;
        h->nskip = s->nskip;
        memcpy(h->skip, s->skip, sizeof s->skip);
        h->nonly = s->nonly;
        memcpy(h->only, s->only, sizeof(game_move) * (size_t)s->nonly);
        runs[n] = (helper_run){.h = h, .v = v, .root = root, .first = 1 + !(i & 1),
                               .max_depth = max_depth};
        if (pthread_create(&runs[n].thread, NULL, helper_main, &runs[n]) != 0)
            break;
        n++;
    }
    return n;
}

/* Stops and joins n helpers; the nodes they searched. */
static uint64_t helpers_stop(helper_run *runs, int n, atomic_int *hstop)
{
    atomic_store(hstop, 1);
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        pthread_join(runs[i].thread, NULL);
        nodes += runs[i].h->nodes;
    }
    return nodes;
}
#endif

game_move search_run(searcher *s, const game_variant *v, const void *root,
                     const search_limits *lim, atomic_int *stop, search_info_fn info,
                     void *ctx, search_report *last)
{
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    memcpy(pos, root, v->ops->pos_size);
    s->ops = v->ops;
    s->stop = stop;
    s->stopped = 0;
    s->nodes = 0;
    s->t0 = timer_ns();
    s->seldepth = 0;
    int side = v->ops->side_to_move(pos);
    s->root_team = v->ops->team_of(pos, side);
    game_plan_time(lim, side & 1, &s->soft_ms, &s->hard_ms);
    s->node_limit = lim->nodes;
    if (s->lv.max_nodes && (!s->node_limit || s->node_limit > s->lv.max_nodes))
        s->node_limit = s->lv.max_nodes;
    int max_depth = lim->depth > 0 ? lim->depth : SEARCH_MAX_PLY - 1;
    if (s->lv.max_depth && max_depth > s->lv.max_depth)
        max_depth = s->lv.max_depth;
    memset(s->killers, 0, sizeof s->killers);

    game_move moves[GAME_MAX_MOVES];
    int n = v->ops->moves(pos, moves);
    if (root_narrowed(s))
        n = narrow_root(s, moves, n);
    if (n == 0)
        return GAME_MOVE_NONE;
    game_move best = moves[0];
    search_report rep;
    memset(&rep, 0, sizeof rep);
    int prev = 0;
#if !defined(__wasi__)
    helper_run runs[SEARCH_MAX_THREADS - 1];
    atomic_int hstop = 0;
    int nruns = helpers_start(s, v, root, max_depth, &hstop, runs);
#endif
    for (int d = 1; d <= max_depth; d++) {
        s->seldepth = 0;
        int score = root_search(s, pos, d, prev, &rep, info, ctx);
        prev = score;
        /* An unfinished iteration searched its first move (the last best)
         * first; a move it then found better, fully searched, is kept. */
        if (s->pvlen[0] > 0)
            best = s->pv[0][0];
        if (s->stopped && d > 1)
            break;
        rep.depth = d;
        rep.seldepth = s->seldepth;
        rep.score = score;
        rep.nodes = s->nodes;
        rep.ms = (timer_ns() - s->t0) / 1000000;
        rep.pvlen = s->pvlen[0];
        memcpy(rep.pv, s->pv[0], sizeof(game_move) * (size_t)rep.pvlen);
        if (info)
            info(ctx, &rep);
        if (s->stopped)
            break;
        /* A forced end found: deeper search cannot change it. */
        if (score > SEARCH_WIN_MIN || score < -SEARCH_WIN_MIN)
            if (SEARCH_WIN - abs(score) <= d)
                break;
        if (s->soft_ms > 0 && (int64_t)rep.ms * 2 > s->soft_ms)
            break;
    }
    rep.nodes = s->nodes;
#if !defined(__wasi__)
    rep.nodes += helpers_stop(runs, nruns, &hstop);
#endif
    if (last)
        *last = rep;
    return best;
}
