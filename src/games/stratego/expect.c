/* expect.c -- expectimax on the view (expect.h).
 *
 * A node is the view as the line has changed it, and how many of each
 * enemy kind the line has revealed (so that no kind is revealed more often
 * than the pool allows, and every position made stays a valid view). The
 * belief about a piece is looked up by the cell it stood on at the root:
 * `home` follows each unknown piece as it moves.
 *
 * Invariant: no rank of an unknown enemy piece is ever read, because there
 * is none; a chance node writes a kind into its own copy of the node only,
 * and the piece is then revealed by the combat, as in the game.
 */
#include "expect.h"
#include "expect_eval.h"
#include "root_rules.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/rng.h"
#include "../../base/timer.h"

#define WIN 5000
#define INF 100000
#define QDEPTH 3
#define FLAG_GUESS 400   /* a Flag found by a guess the belief thinks unlikely: more than now */
#define CHECK_EVERY 1024
#define MAX_DEPTH 32
#define LMR_DEPTH 3   /* late move reductions from this depth */
#define LMR_AFTER 3   /* ... after this many moves */

typedef stx_node node;

/* The transposition table: what a search of a node found, by its key.
 * The key hashes every cell's content with the root cell of the unknown
 * piece on it (whose belief it carries) and the kinds the line revealed;
 * not the two-square rule or the plies left, so a stored move is only
 * an order hint, checked against the moves generated. */
#define TT_BITS 19  /* 8 MiB a search */
enum { TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

typedef struct tt_entry {
    uint64_t key;
    int32_t score;
    uint32_t data;               /* the move (17 bits), depth << 24, bound << 30 */
} tt_entry;

/* The evaluations of a search by node key (direct-mapped): the
 * evaluation reads nothing the key does not hash (expect_eval.h), and the
 * quiescence search meets the same nodes again and again. */
#define EC_BITS 14  /* 256 KiB a search */

typedef struct ec_entry {
    uint64_t key;                /* 0: empty */
    int32_t score;
} ec_entry;

#define TT_MOVE(e) ((game_move)((e)->data & 0xffffffu))
#define TT_DEPTH(e) ((int)(((e)->data >> 24) & 63u))
#define TT_BOUND(e) ((int)((e)->data >> 30))

static uint64_t cell_key(int c, uint8_t v, uint8_t home)
{
    uint64_t k = rng_mix(((uint64_t)c << 8) | v);
    return home ? k ^ rng_mix(0x40000u + ((uint64_t)c << 8) + home) : k;
}

static uint64_t used_key(int kind, int used)
{
    return rng_mix(0x50000u + ((uint64_t)kind << 8) + (uint64_t)used);
}

#define STM_KEY 0x9e3779b97f4a7c15ull

/* The key made afresh; make() keeps it up to date move by move. */
static uint64_t full_key(const node *n)
{
    uint64_t key = n->p.stm ? STM_KEY : 0;
    for (int c = 0; c < ST_CELLS; c++)
        key ^= cell_key(c, n->p.sq[c], n->home[c]);
    for (int k = 0; k < ST_NKINDS; k++)
        if (n->used[k])
            key ^= used_key(k, 0) ^ used_key(k, n->used[k]);
    return key;
}

#ifdef CITADEL_DEBUG
#define KEY_CHECK(n) assert((n)->key == full_key(n))
#else
#define KEY_CHECK(n) ((void)0)
#endif

typedef struct ex {
    stx_eval e;                  /* the evaluation's inputs */
    /* Quiet moves that cut the search off: by from and to for each side
     * (their depth squared, summed), and the last two at each ply. */
    int (*hist)[ST_CELLS][ST_CELLS];
    game_move killer[MAX_DEPTH + 1][2];
    struct tt_entry *tt;         /* NULL if memory was short */
    struct ec_entry *ec;         /* evaluations by key; NULL if memory was short */
    uint64_t nodes, max_nodes, deadline;
    atomic_int *stop;
    int can_stop;                /* 0 until the first depth is done */
    int aborted;
} ex;

/* --- making moves on a node ------------------------------------------------ */

static void make(node *n, game_move m)
{
    int from = ST_FROM(m), to = ST_TO(m), mover = n->p.stm;
    uint8_t hf = n->home[from], ht = n->home[to];
    n->key ^= cell_key(from, n->p.sq[from], hf) ^ cell_key(to, n->p.sq[to], ht) ^ STM_KEY;
    st_make(&n->p, m);
    n->home[from] = 0;
    uint8_t v = n->p.sq[to];
    if (v == ST_EMPTY || ST_KIND(v) != ST_UNKNOWN)
        n->home[to] = 0;
    else
        n->home[to] = ST_SIDE(v) == mover ? hf : ht;
    n->key ^= cell_key(from, n->p.sq[from], 0) ^ cell_key(to, v, n->home[to]);
    KEY_CHECK(n);
}

/* The chance weights of the kinds the unknown piece on `cell` may be, in
 * this node; `moving` if it is the attacker. Returns their sum. */
static float weights(const ex *x, const node *n, int cell, int moving, float w[ST_NKINDS])
{
    uint8_t v = (uint8_t)(n->p.sq[cell] | (moving ? ST_MOVED : 0));
    const float *p = x->e.bl->p[n->home[cell]];
    float sum = 0;
    for (int k = 0; k < ST_NKINDS; k++) {
        w[k] = 0;
        if (k < ST_SPY || k > ST_FLAG || n->used[k] >= x->e.bl->pool[k] || !st_marks_allow(v, k))
            continue;
        w[k] = p[k];
        sum += w[k];
    }
    if (sum > 0)
        return sum;
    /* The belief left nothing here: any kind the pool and the marks allow. */
    for (int k = ST_SPY; k <= ST_FLAG; k++) {
        if (n->used[k] >= x->e.bl->pool[k] || !st_marks_allow(v, k))
            continue;
        w[k] = 1;
        sum += 1;
    }
    return sum;
}

/* 0 if m is a move of an unknown piece that cannot be a mover: the belief
 * gives it no movable kind, or the line has revealed every one the pool
 * holds (so a side whose unknown pieces are all Bombs and its Flag has no
 * move, S7, rather than a move with no outcome). */
static int possible(const ex *x, const node *n, game_move m)
{
    int from = ST_FROM(m);
    if (ST_KIND(n->p.sq[from]) != ST_UNKNOWN)
        return 1;
    if (!x->e.may_move[n->home[from]])
        return 0;
    for (int k = ST_SPY; k <= ST_MARSHAL; k++)
        if (n->used[k] < x->e.bl->pool[k])
            return 1;
    return 0;
}

/* --- search --------------------------------------------------------------- */

static int out_of_time(ex *x)
{
    if (x->aborted)
        return 1;
    if (x->can_stop && (x->nodes & (CHECK_EVERY - 1)) == 0) {
        if ((x->stop && atomic_load(x->stop)) || (x->deadline && timer_ns() >= x->deadline) ||
            (x->max_nodes && x->nodes >= x->max_nodes))
            x->aborted = 1;
    }
    return x->aborted;
}

static int evaluate(ex *x, const node *n)
{
    if (!x->ec || !n->key)
        return stx_evaluate(&x->e, n);
    ec_entry *e = &x->ec[n->key & (((uint64_t)1 << EC_BITS) - 1)];
    if (e->key != n->key) {
        e->key = n->key;
        e->score = stx_evaluate(&x->e, n);
    }
    return e->score;
}

static int search(ex *x, const node *n, int depth, int alpha, int beta, int ply);
static int quiesce(ex *x, const node *n, int alpha, int beta, int qdepth, int ply);

/* The value of move m for the side to move, searching the rest with
 * `depth` plies left (quiescence qdepth if depth < 0). A combat with an
 * unknown piece is a chance node, its outcomes searched with a full
 * window; any other move is searched with -beta..-alpha. */
static int child_value(ex *x, const node *n, game_move m, int depth, int alpha, int beta, int ply,
                       int qdepth, int alt)
{
    int from = ST_FROM(m), to = ST_TO(m);
    uint8_t a = n->p.sq[from], d = n->p.sq[to];
    int unknown = ST_KIND(a) == ST_UNKNOWN ? from : (ST_IS_PIECE(d) && ST_KIND(d) == ST_UNKNOWN) ? to : 0;
    if (ST_IS_PIECE(d) && ST_KIND(d) == ST_FLAG)
        return WIN - ply;
    if (!ST_ATTACK(m) || !unknown) {
        node c = *n;
        make(&c, m);
        return depth >= 0 ? -search(x, &c, depth, -beta, -alpha, ply + 1)
                          : -quiesce(x, &c, -beta, -alpha, qdepth, ply + 1);
    }
    float w[ST_NKINDS];
    float sum = weights(x, n, unknown, unknown == from, w);
    if (sum <= 0)
        return 0;  /* cannot happen with a consistent belief */
    /* Every kind that loses the combat alone leaves the same board (ours
     * standing, the unknown piece gone): one search for them all, as the
     * likeliest of them (whose count the line then uses up). */
    int mine = ST_KIND(unknown == from ? d : a), gone = 0;
    float gone_w = 0;
    for (int k = ST_SPY; k < ST_FLAG; k++) {
        if (w[k] <= 0)
            continue;
        int r = unknown == from ? st_combat(k, mine) : st_combat(mine, k);
        if (r == (unknown == from ? ST_DEFENDER_WINS : ST_ATTACKER_WINS)) {
            if (!gone || w[k] > w[gone])
                gone = k;
            gone_w += w[k];
            w[k] = -w[k];  /* searched with `gone` */
        }
    }
    if (gone)
        w[gone] = gone_w;
    /* The attacker knows its own rank: as kind k it attacks only if that
     * does better than its best other move (alt). Without STX_F_OWN_WORTH
     * both are valued as the line stands (alt with it at what we expect
     * it to be). With it, each with it as kind k: alt + hide[k] if it
     * stays unknown, and it attacks if that beats alt + show[k], with it
     * at its kind's worth shown (what the attack shows of it holds it back
     * no more than the material: the outside AI's hidden pieces take our
     * shown ones when they win; and alt alone would have the weaker kinds
     * hold back for the worth we expect of the stronger). Each outcome is
     * then worth at least alt + show[k] (show <= hide): once the outcomes
     * searched, the rest at those floors, reach beta, the node fails high,
     * and each outcome needs a value only between its floor and the one
     * that would make it fail high (Ballard's Star1 with those floors). */
    int attacker = unknown == from && alt > -INF;
    int hide[ST_NKINDS] = { 0 }, show[ST_NKINDS] = { 0 };
    float rest_floor = 0;
    for (int k = ST_SPY; attacker && k <= ST_FLAG; k++) {
        if (w[k] <= 0)
            continue;
        if (x->e.features & STX_F_OWN_WORTH)
            stx_kind_gap(&x->e, n, from, k, &hide[k], &show[k]);
        rest_floor += w[k] * (float)(alt + show[k]);
    }
    int bounded = attacker && depth >= 0 && alt < beta;
    float total = 0;
    for (int k = ST_SPY; k <= ST_FLAG; k++) {
        if (w[k] <= 0)
            continue;
        if (attacker)
            rest_floor -= w[k] * (float)(alt + show[k]);
        int s, lo = -INF, hi = INF;
        if (bounded) {
            /* total + w[k] * s + rest_floor >= beta * sum: fails high */
            float need = ((float)beta * sum - total - rest_floor) / w[k];
            lo = alt + show[k];
            hi = need >= (float)INF ? INF : (int)ceilf(need);
            if (hi <= lo)
                hi = lo + 1;
        }
        if (k == ST_FLAG) {
            /* only a defender can be the Flag: the attacker wins the game,
             * but a guess against the odds is not counted as a sure win,
             * only as FLAG_GUESS more than the attacker has now (a fixed
             * score would be worth less than standing still to a side
             * already that far ahead, which then never looks for the Flag) */
            if (w[k] * 2 >= sum)
                s = WIN - ply;
            else {
                s = evaluate(x, n) + FLAG_GUESS;
                if (s > WIN - ply - 1)
                    s = WIN - ply - 1;
            }
        } else {
            node c = *n;
            uint8_t was = c.p.sq[unknown], h = c.home[unknown];
            c.p.sq[unknown] = (uint8_t)((was & ~15u) | (unsigned)k);
            c.key ^= cell_key(unknown, was, h) ^ cell_key(unknown, c.p.sq[unknown], h) ^
                     used_key(k, c.used[k]) ^ used_key(k, c.used[k] + 1);
            c.used[k]++;
            make(&c, m);
            /* in the quiescence search an outcome is valued as it stands:
             * the outcomes of every guess, each searched on, would swamp it */
            s = depth >= 0 ? -search(x, &c, depth, -hi, -lo, ply + 1)
                           : -quiesce(x, &c, -INF, INF, 0, ply + 1);
        }
        if (attacker && s < alt + show[k])
            s = alt + hide[k];  /* as kind k it makes its best other move */
        total += w[k] * (float)s;
        if (x->aborted)
            return 0;
        if (bounded && s >= hi) {
            int low = (int)((total + rest_floor) / sum);
            return low > beta ? low : beta;  /* at least this */
        }
    }
    return (int)(total / sum);
}

/* 1 if m is an attack by a piece of unknown rank (the enemy's). */
static int blind_attack(const node *n, game_move m)
{
    return ST_ATTACK(m) && ST_KIND(n->p.sq[ST_FROM(m)]) == ST_UNKNOWN;
}

/* Attacks first, the likelier gains before, then the killers, then
 * attacks on unknown pieces and attacks known to lose; quiet moves after
 * by their history; attacks by pieces of unknown rank last, because their
 * worth depends on the best of the other moves. x is NULL where there is
 * no history (the quiescence search, whose moves are all attacks). */
static int order_key(const ex *x, const node *n, game_move m, int ply)
{
    if (!ST_ATTACK(m)) {
        if (!x)
            return 0;
        if (ply <= MAX_DEPTH && m == x->killer[ply][0])
            return (1 << 26) + 1;
        if (ply <= MAX_DEPTH && m == x->killer[ply][1])
            return 1 << 26;
        int h = x->hist ? x->hist[n->p.stm][ST_FROM(m)][ST_TO(m)] : 0;
        return h < (1 << 24) ? h : (1 << 24) - 1;
    }
    if (blind_attack(n, m))
        return -1;
    int a = ST_KIND(n->p.sq[ST_FROM(m)]), d = ST_KIND(n->p.sq[ST_TO(m)]);
    if (d == ST_FLAG)
        return 1 << 30;
    if (a == ST_UNKNOWN || d == ST_UNKNOWN)
        return (1 << 25) + 1000 - stx_value[a == ST_UNKNOWN ? 0 : a];
    int r = st_combat(a, d);
    return r == ST_ATTACKER_WINS ? (1 << 28) + stx_value[d] : r == ST_BOTH_DIE ? 1 << 27 : 1 << 24;
}

static void order(const ex *x, const node *n, game_move *list, int count, int ply)
{
    int key[ST_MAX_MOVES];
    for (int i = 0; i < count; i++)
        key[i] = order_key(x, n, list[i], ply);
    for (int i = 1; i < count; i++) {
        game_move m = list[i];
        int k = key[i], j = i - 1;
        while (j >= 0 && key[j] < k) {
            list[j + 1] = list[j];
            key[j + 1] = key[j];
            j--;
        }
        list[j + 1] = m;
        key[j + 1] = k;
    }
}

/* 1 if m is an attack both sides know the attacker loses: it only gives
 * a piece away, so the quiescence search, which may stand pat, skips it. */
static int sure_loss(const node *n, game_move m)
{
    int a = ST_KIND(n->p.sq[ST_FROM(m)]), d = ST_KIND(n->p.sq[ST_TO(m)]);
    return a != ST_UNKNOWN && d != ST_UNKNOWN && st_combat(a, d) == ST_DEFENDER_WINS;
}

static int quiesce(ex *x, const node *n, int alpha, int beta, int qdepth, int ply)
{
    x->nodes++;
    if (out_of_time(x))
        return 0;
    int stand = evaluate(x, n);
    if (stand >= beta || qdepth == 0)
        return stand;
    if (stand > alpha)
        alpha = stand;
    game_move list[ST_MAX_MOVES];
    int count = st_gen_attacks(&n->p, list);
    order(NULL, n, list, count, ply);
    for (int i = 0; i < count; i++) {
        if (!possible(x, n, list[i]) || sure_loss(n, list[i]))
            continue;
        int s = child_value(x, n, list[i], -1, alpha, beta, ply, qdepth - 1, alpha);
        if (x->aborted)
            return 0;
        if (s >= beta)
            return s;
        if (s > alpha)
            alpha = s;
    }
    return alpha;
}

/* A won or lost score counts its plies from the root; stored, from the
 * node (add = ply), and read back, from the root again (add = -ply). */
static int tt_score(int s, int add)
{
    if (s >= WIN - 2 * MAX_DEPTH - 16)
        return s + add;
    if (s <= -WIN + 2 * MAX_DEPTH + 16)
        return s - add;
    return s;
}

static int search(ex *x, const node *n, int depth, int alpha, int beta, int ply)
{
    if (depth <= 0)
        return quiesce(x, n, alpha, beta, QDEPTH, ply);
    x->nodes++;
    if (out_of_time(x))
        return 0;
    if (n->p.move_limit && n->p.ply >= n->p.move_limit)
        return 0;
    tt_entry *e = x->tt ? &x->tt[n->key & ((1u << TT_BITS) - 1)] : NULL;
    game_move hint = GAME_MOVE_NONE;
    if (e && e->key == n->key) {
        hint = TT_MOVE(e);
        int s = tt_score(e->score, -ply), b = TT_BOUND(e);
        if (TT_DEPTH(e) >= depth &&
            (b == TT_EXACT || (b == TT_LOWER && s >= beta) || (b == TT_UPPER && s <= alpha)))
            return s;
    }
    game_move list[ST_MAX_MOVES];
    int count = st_gen(&n->p, list);
    order(x, n, list, count, ply);
    for (int i = 1; hint && i < count; i++)
        if (list[i] == hint) {
            memmove(list + 1, list, sizeof *list * (size_t)i);
            list[0] = hint;
            break;
        }
    int best = -INF, tried = 0, alpha0 = alpha;
    game_move best_move = GAME_MOVE_NONE;
    for (int i = 0; i < count; i++) {
        if (!possible(x, n, list[i]))
            continue;
        game_move m = list[i];
        /* Late quiet moves are searched a ply shallower first, and again
         * at full depth only if they beat alpha there. */
        int r = depth >= LMR_DEPTH && tried >= LMR_AFTER && !ST_ATTACK(m) &&
                (ply > MAX_DEPTH || (m != x->killer[ply][0] && m != x->killer[ply][1]));
        tried++;
        int s = child_value(x, n, m, depth - 1 - r, alpha, beta, ply, QDEPTH, best);
        if (r && !x->aborted && s > alpha)
            s = child_value(x, n, m, depth - 1, alpha, beta, ply, QDEPTH, best);
        if (x->aborted)
            return 0;
        if (s > best) {
            best = s;
            best_move = m;
        }
        if (s > alpha)
            alpha = s;
        if (alpha >= beta) {
            if (!ST_ATTACK(m)) {
                int *h = x->hist ? &x->hist[n->p.stm][ST_FROM(m)][ST_TO(m)] : NULL;
                if (h && *h < (1 << 24))  /* the cap of order_key; no overflow in long thinks */
                    *h += depth * depth;
                if (ply <= MAX_DEPTH && x->killer[ply][0] != m) {
                    x->killer[ply][1] = x->killer[ply][0];
                    x->killer[ply][0] = m;
                }
            }
            break;
        }
    }
    if (best == -INF)
        return -WIN + ply;  /* no possible move: the side to move loses (S7) */
    if (e && (e->key != n->key || depth >= TT_DEPTH(e))) {
        unsigned bound = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
        e->key = n->key;
        e->score = tt_score(best, ply);
        e->data = (best_move & 0xffffffu) | (unsigned)(depth < 63 ? depth : 63) << 24 | bound << 30;
    }
    return best;
}

/* --- the root ------------------------------------------------------------ */

/* The n-th best of the scores of the first k root moves searched (-INF
 * while fewer than n are): the window's floor for the next one, so that
 * each of the n best gets its exact score. */
static int nth_best(const int *score, int k, int n)
{
    if (k < n)
        return -INF;
    int top[STX_LINES_MAX];  /* the n best so far, best first */
    int have = 0;
    for (int i = 0; i < k; i++) {
        int v = score[i];
        if (have == n && v <= top[n - 1])
            continue;
        int j = have < n ? have++ : n - 1;
        while (j > 0 && top[j - 1] < v) {
            top[j] = top[j - 1];
            j--;
        }
        top[j] = v;
    }
    return top[n - 1];
}

game_move stx_search(const st_pos *view, const st_belief *bl, unsigned features,
                     uint64_t deadline_ns, int max_depth, uint64_t max_nodes, atomic_int *stop,
                     stx_report *rep)
{
    return stx_search_lines(view, bl, features, deadline_ns, max_depth, max_nodes, stop, 1, rep);
}

game_move stx_search_lines(const st_pos *view, const st_belief *bl, unsigned features,
                           uint64_t deadline_ns, int max_depth, uint64_t max_nodes,
                           atomic_int *stop, int lines, stx_report *rep)
{
    ex x;
    memset(&x, 0, sizeof x);
    x.max_nodes = max_nodes;
    x.deadline = deadline_ns;
    x.stop = stop;
    if (lines < 1)
        lines = 1;
    if (lines > STX_LINES_MAX)
        lines = STX_LINES_MAX;
    node root;
    stx_eval_prepare(&x.e, bl, features, view, &root);
    root.key = full_key(&root);
    x.hist = calloc(2, sizeof *x.hist);  /* without it, quiet moves keep their order */
    x.tt = calloc((size_t)1 << TT_BITS, sizeof *x.tt);  /* without it, none is stored */
    x.ec = calloc((size_t)1 << EC_BITS, sizeof *x.ec);  /* without it, each is made afresh */
    game_move list[ST_MAX_MOVES];
    int count = st_legal(view, list);
    if (rep)
        memset(rep, 0, sizeof *rep);
    if (count == 0) {
        free(x.hist);
        free(x.tt);
        free(x.ec);
        return GAME_MOVE_NONE;
    }
    count = stx_root_rules(view, bl, features, list, count);
    order(&x, &root, list, count, 0);
    if (max_depth <= 0 || max_depth > MAX_DEPTH)
        max_depth = MAX_DEPTH;
    game_move best = list[0];
    int best_score = 0, done = 0;
    int scores[ST_MAX_MOVES];
    stx_report found = { 0 };  /* the lines of the last depth finished */
    for (int depth = 1; depth <= max_depth; depth++) {
        int alpha = -INF, iter_best = -1, iter_score = -INF;
        for (int i = 0; i < count; i++) {
            /* one line: the best so far is the floor; several: the n-th best */
            int floor = lines > 1 ? nth_best(scores, i, lines) : alpha;
            int s = child_value(&x, &root, list[i], depth - 1, floor, INF, 0, QDEPTH, -INF);
            if (x.aborted)
                break;
            scores[i] = s;
            if (s > iter_score) {
                iter_score = s;
                iter_best = i;
            }
            if (s > alpha)
                alpha = s;
        }
        /* An unfinished depth counts only once another move beat, at this
         * depth, the move the last depth chose (searched first, so it
         * has its score of this depth); the first depth always finishes. */
        if (x.aborted && depth > 1) {
            if (iter_best > 0) {
                best = list[iter_best];
                best_score = iter_score;
            }
            break;
        }
        if (iter_best < 0)
            break;
        best = list[iter_best];
        best_score = iter_score;
        done = depth;
        x.can_stop = 1;
        if (lines > 1) {
            /* the best first next time, each line in its order (a stable
             * insertion sort by this depth's scores) */
            for (int i = 1; i < count; i++)
                for (int j = i; j > 0 && scores[j] > scores[j - 1]; j--) {
                    game_move m = list[j];
                    list[j] = list[j - 1];
                    list[j - 1] = m;
                    int t = scores[j];
                    scores[j] = scores[j - 1];
                    scores[j - 1] = t;
                }
            found.nlines = count < lines ? count : lines;
            for (int i = 0; i < found.nlines; i++) {
                found.line[i] = list[i];
                found.line_score[i] = scores[i];
            }
        } else {
            /* the best first next time */
            game_move m = list[iter_best];
            memmove(list + 1, list, sizeof *list * (size_t)iter_best);
            list[0] = m;
        }
        if (x.aborted || best_score >= WIN - MAX_DEPTH)
            break;
        x.aborted = 0;
    }
    if (rep) {
        *rep = found;
        rep->depth = done;
        rep->score = best_score;
        rep->nodes = x.nodes;
        if (lines == 1 || rep->nlines == 0 || rep->line[0] != best) {
            /* one line, or a deeper unfinished depth changed the best */
            rep->nlines = 1;
            rep->line[0] = best;
            rep->line_score[0] = best_score;
        }
    }
    free(x.hist);
    free(x.tt);
    free(x.ec);
    return best;
}
