/* bot.c -- determinized search over samples of a belief.
 *
 * One move: read the view; update what is known of the enemy army (kinds
 * seen revealed before and now gone have died); build the pool of kinds the
 * unknown pieces may be; then, until the level's sample count or the time
 * runs out, draw a full position consistent with the view and score every
 * legal root move in it by a small alpha-beta search. Scores are summed per
 * root move over the samples; the best sum wins (plus noise at low levels).
 *
 * The sampler assigns, in order: Scouts to pieces that ran; the Flag to an
 * unmoved piece, deeper rows far likelier; kinds that move to pieces that
 * moved; and any kind left to the rest, Bombs likelier next to the Flag.
 * Draws are weighted by how many of each kind the pool still holds.
 *
 * Levels 5 and 6 (STB_F_EXPECT) only read the belief off the samples
 * (belief_of) and hand it to the expectimax search of expect.c, level 5
 * capped at EXPECT_NODES a move; their sampler also puts every Bomb the
 * pool holds among the unmoved pieces.
 */
#include "bot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/rng.h"
#include "../../base/timer.h"
#include "belief_net.h"
#include "dossier.h"
#include "expect.h"
#include "stratego.h"

#define WIN 5000
#define INF 100000
#define QDEPTH 4
#define MAX_SAMPLES 4000       /* time, not this, ends the strongest's sampling */
#define V1_MAX_SAMPLES 400
#define TIME_SHARE 95          /* percent of the move's time spent thinking */
#define EXPECT_NODES 20000    /* the expectimax search's work without a time limit */
#define FLAG_LOTTERY 400       /* a Flag found by a guess at a still piece, unless likely */

#define RESERVE 8        /* movable pieces below which each one left counts extra */
#define RESERVE_COST 6   /* ... by this times the square of how many are missing */

static const int value[ST_NKINDS] = {
    0, 60 /* Spy */, 15, 40, 30, 45, 80, 140, 220, 350, 500 /* Marshal */,
    40 /* Bomb */, 0 /* Flag */, 0,
};

static const struct {
    int samples;   /* 0: as many as time allows */
    int depth;     /* full-width plies, 1 or 2 */
    int quiesce;   /* 1 to resolve attacks at the leaves */
    int noise;     /* uniform noise added to each move's mean score */
    int nodes;     /* samples 0 (expectimax): a node cap a move, 0 for the time alone */
} levels[STB_LEVELS + 1] = {
    { 1, 1, 0, 0, 0 },
    { 1, 1, 0, 400, 0 },  /* 1: a beginner: barely better than chance */
    { 2, 1, 1, 120, 0 },
    { 4, 1, 1, 30, 0 },
    { 6, 2, 1, 10, 0 },
    { 0, 2, 1, 0, EXPECT_NODES },  /* 5: level 6's search with a fixed amount of work */
    { 0, 2, 1, 0, 0 },    /* 6: the strongest */
};

struct stbot {
    int level;
    unsigned features;        /* STB_F_* (STB_F_LEVELS for the levels; none for stratego-v1) */
    rng g;
    int dead[ST_NKINDS];      /* enemy kinds known to have died */
    int prev_rev[ST_NKINDS];  /* enemy kinds revealed on the board last time */
    int have_prev;
    int last_samples;
    stx_report last;          /* the last move's search (STB_F_EXPECT), depth 0 if none */
    int lines;                /* the best moves its search scores exactly (stbot_set_lines) */
    int struck;               /* the cell our Miner last attacked an unmoved piece on, 0 if none */
    st_dossier dossier;       /* what each enemy piece of unknown rank did (STB_F_EXPECT) */
    st_belief bel;            /* the belief of the last move (STB_F_EXPECT) */
};

stbot *stbot_new(int level, uint64_t seed)
{
    stbot *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->level = level < 1 ? 1 : level > STB_LEVELS ? STB_LEVELS : level;
    b->features = STB_F_LEVELS;
    b->lines = 1;
    rng_seed(&b->g, seed);
    return b;
}

void stbot_set_features(stbot *b, unsigned features)
{
    b->features = features;
}

void stbot_free(stbot *b)
{
    free(b);
}

void stbot_new_game(stbot *b)
{
    memset(b->dead, 0, sizeof b->dead);
    memset(b->prev_rev, 0, sizeof b->prev_rev);
    b->have_prev = 0;
    b->struck = 0;
    st_dossier_clear(&b->dossier);
}

int stbot_last_samples(const stbot *b)
{
    return b->last_samples;
}

void stbot_set_lines(stbot *b, int n)
{
    b->lines = n < 1 ? 1 : n > STX_LINES_MAX ? STX_LINES_MAX : n;
}

int stbot_last_report(const stbot *b, stx_report *out)
{
    *out = b->last;
    return b->last.depth > 0 ? 0 : -1;
}

/* --- evaluation and search on full positions --------------------------- */

/* Material, a little for keeping ranks hidden, and a pull of each side's
 * nearest movable piece towards the enemy Flag; for the side to move. */
static int evaluate(const st_pos *p, unsigned features)
{
    int score[2] = { 0, 0 }, marshal[2] = { 0, 0 }, spy[2] = { 0, 0 }, miners[2] = { 0, 0 };
    int flag[2] = { -1, -1 }, near[2] = { 99, 99 }, near_miner[2] = { 99, 99 };
    int cells[2][40], n[2] = { 0, 0 };
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
        uint8_t v = p->sq[c];
        if (!ST_IS_PIECE(v))
            continue;
        int s = ST_SIDE(v), k = ST_KIND(v);
        score[s] += value[k];
        if (!(v & ST_REVEALED))
            score[s] += value[k] / 10;
        if (k == ST_MARSHAL)
            marshal[s] = 1;
        else if (k == ST_SPY)
            spy[s] = 1;
        else if (k == ST_FLAG)
            flag[s] = c;
        else if (k == ST_MINER)
            miners[s]++;
        if (st_movable(k) && n[s] < 40)
            cells[s][n[s]++] = c;
    }
    for (int s = 0; s < 2; s++) {
        /* A side that cannot move loses (S7): the last movers are worth
         * more than their ranks, the more so the fewer are left. */
        if ((features & STB_F_RESERVE) && n[s] < RESERVE)
            score[s] -= RESERVE_COST * (RESERVE - n[s]) * (RESERVE - n[s]);
        if (spy[s] && !marshal[s ^ 1])
            score[s] -= 45;  /* a Spy without a Marshal to take */
        if (miners[s] <= 2)
            score[s] += 60 * miners[s];  /* the last Miners open the Flag's Bombs */
        int f = flag[s ^ 1];
        if (f < 0)
            continue;
        for (int i = 0; i < n[s]; i++) {
            int c = cells[s][i];
            int d = abs(ST_ROW(c) - ST_ROW(f)) + abs(ST_FILE(c) - ST_FILE(f));
            if (d < near[s])
                near[s] = d;
            if (ST_KIND(p->sq[c]) == ST_MINER && d < near_miner[s])
                near_miner[s] = d;
        }
        /* The nearest piece, and the nearest Miner (Bombs guard Flags). */
        if (near[s] < 99)
            score[s] -= 4 * near[s];
        if (near_miner[s] < 99)
            score[s] -= 3 * near_miner[s];
    }
    return score[p->stm] - score[p->stm ^ 1];
}

typedef struct ctx {
    uint64_t nodes;
    unsigned features;
} ctx;

static int target_kind(const st_pos *p, game_move m)
{
    return ST_KIND(p->sq[ST_TO(m)]);
}

static int quiesce(ctx *x, const st_pos *p, int alpha, int beta, int depth, int ply)
{
    x->nodes++;
    int stand = evaluate(p, x->features);
    if (stand >= beta || depth == 0)
        return stand;
    if (stand > alpha)
        alpha = stand;
    game_move list[ST_MAX_MOVES];
    int n = st_gen_attacks(p, list);
    for (int i = 0; i < n; i++) {
        if (target_kind(p, list[i]) == ST_FLAG)
            return WIN - ply;
        st_pos c = *p;
        st_make(&c, list[i]);
        int s = -quiesce(x, &c, -beta, -alpha, depth - 1, ply + 1);
        if (s >= beta)
            return s;
        if (s > alpha)
            alpha = s;
    }
    return alpha;
}

static int negamax(ctx *x, const st_pos *p, int depth, int alpha, int beta, int qs, int ply)
{
    if (depth == 0)
        return qs ? quiesce(x, p, alpha, beta, QDEPTH, ply) : (x->nodes++, evaluate(p, x->features));
    x->nodes++;
    if (p->move_limit && p->ply >= p->move_limit)
        return 0;
    game_move list[ST_MAX_MOVES];
    int n = st_gen(p, list);
    if (n == 0)
        return -WIN + ply;  /* no legal move: the side to move loses (S7) */
    /* Attacks first. */
    int a = 0;
    for (int i = 0; i < n; i++)
        if (ST_ATTACK(list[i])) {
            game_move t = list[a];
            list[a++] = list[i];
            list[i] = t;
        }
    int best = -INF;
    for (int i = 0; i < n; i++) {
        if (target_kind(p, list[i]) == ST_FLAG)
            return WIN - ply;
        st_pos c = *p;
        st_make(&c, list[i]);
        int s = -negamax(x, &c, depth - 1, -beta, -alpha, qs, ply + 1);
        if (s > best)
            best = s;
        if (s > alpha)
            alpha = s;
        if (alpha >= beta)
            break;
    }
    return best;
}

/* --- belief and sampling ------------------------------------------------ */

typedef struct belief {
    int pool[ST_NKINDS];
    int ran[40], moved[40], still[40];
    int nran, nmoved, nstill;
    const st_dossier *dz;     /* the bot's */
    int memory;               /* STB_F_MEMORY: read dz's bold and fear */
    int learned[40][ST_NKINDS];  /* STB_F_LEARNED: each moved piece's weights */
} belief;

static int home_depth(int side, int cell)
{
    int r = ST_ROW(cell);
    return side == ST_RED ? 3 - r : r - 6;  /* 0 front row .. 3 back row */
}

/* STB_F_LEARNED: the learned belief's weight of each kind that moves for
 * the moved piece on cell, in integers, each at least 1 (no kind is ruled
 * out by what a piece did). */
static void learned_weights(const st_dossier *dz, const st_pos *view, int cell, int w[ST_NKINDS])
{
    float in[ST_DEED_INPUTS], z[ST_NET_KINDS], top = -1e30f;
    st_dossier_inputs(dz, view, cell, in);
    st_net_scores(&st_net_trained, in, z, NULL);
    for (int k = 0; k < ST_NET_KINDS; k++)
        top = z[k] > top ? z[k] : top;
    memset(w, 0, sizeof(int) * ST_NKINDS);
    for (int k = 0; k < ST_NET_KINDS; k++) {
        float d = z[k] - top;
        w[ST_SPY + k] = 1 + (int)(100000.0f * expf(d > -20.0f ? d : -20.0f));
    }
}

/* Reads the view into a belief; updates what the bot knows has died.
 * Returns 0, or -1 if the view admits no consistent position. */
static int read_view(stbot *b, const st_pos *view, belief *bl)
{
    int them = view->stm ^ 1;
    int rev[ST_NKINDS] = { 0 };
    memset(bl, 0, sizeof *bl);
    bl->dz = &b->dossier;
    bl->memory = (b->features & STB_F_MEMORY) != 0;
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
        uint8_t v = view->sq[c];
        if (!ST_IS_PIECE(v))
            continue;
        int k = ST_KIND(v);
        if (ST_SIDE(v) != them) {
            if (k == ST_UNKNOWN)
                return -1;  /* not a view of the side to move */
            continue;
        }
        if (k != ST_UNKNOWN) {
            rev[k]++;
            continue;
        }
        if (bl->nran + bl->nmoved + bl->nstill >= 40)
            return -1;
        if (v & ST_SCOUTED)
            bl->ran[bl->nran++] = c;
        else if (v & ST_MOVED)
            bl->moved[bl->nmoved++] = c;
        else
            bl->still[bl->nstill++] = c;
    }
    if (b->features & STB_F_EXPECT)
        st_dossier_watch(&b->dossier, view);
    if ((b->features & (STB_F_EXPECT | STB_F_LEARNED)) == (STB_F_EXPECT | STB_F_LEARNED))
        for (int i = 0; i < bl->nmoved; i++)
            learned_weights(&b->dossier, view, bl->moved[i], bl->learned[i]);
    /* Our Miner that took an unmoved piece most likely took a Bomb. */
    if ((b->features & STB_F_EXPECT) && b->struck) {
        uint8_t v = view->sq[b->struck];
        if (ST_IS_PIECE(v) && ST_SIDE(v) == view->stm && ST_KIND(v) == ST_MINER &&
            b->dead[ST_BOMB] + rev[ST_BOMB] < st_army[ST_BOMB])
            b->dead[ST_BOMB]++;
        b->struck = 0;
    }
    if (b->have_prev)
        for (int k = 0; k < ST_NKINDS; k++)
            if (rev[k] < b->prev_rev[k])
                b->dead[k] += b->prev_rev[k] - rev[k];
    memcpy(b->prev_rev, rev, sizeof rev);
    b->have_prev = 1;
    /* The enemy's losses: the view's record of them (public by S5), which
     * makes the pool exact; else the deaths the bot inferred; else none,
     * if those are inconsistent with the view. */
    static const int none[ST_NKINDS];
    int exact[ST_NKINDS] = { 0 };
    const int *tries[3];
    int ntries = 0;
    if ((b->features & STB_F_EXPECT) && (view->lost_known & (1u << them))) {
        for (int k = 0; k < ST_NKINDS; k++)
            exact[k] = view->lost[them][k];
        tries[ntries++] = exact;
    }
    tries[ntries++] = b->dead;
    tries[ntries++] = none;
    for (int t = 0; t < ntries; t++) {
        int total = 0, moving = 0;
        for (int k = ST_SPY; k <= ST_FLAG; k++) {
            int left = st_army[k] - rev[k] - tries[t][k];
            bl->pool[k] = left > 0 ? left : 0;
            total += bl->pool[k];
            if (st_movable(k))
                moving += bl->pool[k];
        }
        int unknown = bl->nran + bl->nmoved + bl->nstill;
        if (total >= unknown && (tries[t] != exact || total == unknown) &&
            moving >= bl->nran + bl->nmoved && bl->pool[ST_SCOUT] >= bl->nran &&
            (bl->pool[ST_FLAG] == 0 || bl->nstill > 0))
            return 0;
    }
    return -1;
}

/* A kind drawn from pool among kinds lo..hi, weighted by count (Bombs
 * times bomb_weight); -1 if none is left. */
static int draw(rng *g, int pool[], int lo, int hi, int bomb_weight)
{
    int total = 0;
    for (int k = lo; k <= hi; k++)
        total += pool[k] * (k == ST_BOMB ? bomb_weight : 1);
    if (total == 0)
        return -1;
    int r = (int)rng_below(g, (uint64_t)total);
    for (int k = lo; k <= hi; k++) {
        r -= pool[k] * (k == ST_BOMB ? bomb_weight : 1);
        if (r < 0) {
            pool[k]--;
            return k;
        }
    }
    return -1;
}

static void assign(st_pos *p, int cell, int kind)
{
    p->sq[cell] = (uint8_t)((p->sq[cell] & ~15u) | (unsigned)kind);
}

/* A piece that moved and stands next to one of ours whose rank it can
 * see is taken to be one that does not fear it (issue: "a piece that walks
 * up to our Captain without fear is taken to be stronger"): kinds that beat
 * the strongest such neighbour weigh BOLD times more, and next to our known
 * Marshal the Spy weighs SPY_BOLD times more; with STB_F_EXPECT, next to
 * one of our revealed Bombs a Miner weighs MINER_BOLD times more. Weights
 * for ST_SPY..ST_MARSHAL into w; 0 if the piece has no known neighbour of
 * ours. */
#define BOLD 4
#define SPY_BOLD 10
#define MINER_BOLD 6

static int bold_weights(const st_pos *view, int cell, unsigned features, int w[ST_NKINDS])
{
    static const int step[4] = { 1, -1, 12, -12 };
    int us = view->stm, strongest = 0, bomb = 0;
    for (int d = 0; d < 4; d++) {
        uint8_t v = view->sq[cell + step[d]];
        if (!ST_IS_PIECE(v) || ST_SIDE(v) != us || !(v & ST_REVEALED))
            continue;
        int k = ST_KIND(v);
        if (st_movable(k) && k > strongest)
            strongest = k;
        bomb |= k == ST_BOMB;
    }
    /* next to one of our Bombs it has seen: a Miner come to dig */
    if (!(features & STB_F_EXPECT))
        bomb = 0;
    if (!strongest && !bomb)
        return 0;
    for (int k = 0; k < ST_NKINDS; k++)
        w[k] = 0;
    for (int k = ST_SPY; k <= ST_MARSHAL; k++)
        w[k] = strongest && k >= strongest ? BOLD : 1;
    if (strongest == ST_MARSHAL)
        w[ST_SPY] = SPY_BOLD;
    if (bomb)
        w[ST_MINER] *= MINER_BOLD;
    return 1;
}

/* STB_F_MEMORY: a piece that ended a move next to our shown rank `bold`
 * is MEM_BOLD times likelier that rank or stronger (next to our Marshal,
 * the Spy MEM_SPY times); one that stepped away from our shown rank
 * `fear` is MEM_FEAR times likelier weaker. */
#define MEM_BOLD 4
#define MEM_SPY 6
#define MEM_FEAR 3

static void remembered_weights(int bold, int fear, int w[ST_NKINDS])
{
    for (int k = ST_SPY; k <= ST_MARSHAL; k++) {
        if (bold && k >= bold)
            w[k] *= MEM_BOLD;
        if (fear && k < fear)
            w[k] *= MEM_FEAR;
    }
    if (bold == ST_MARSHAL)
        w[ST_SPY] *= MEM_SPY;
}

/* STB_F_PROTECT: the strongest of our shown movers that stands next to an
 * enemy piece next to `cell` and could take it (one whose rank we see and
 * it beats, or one of unknown rank that moved), 0 if none. The enemy knows
 * its pieces' ranks and ours shown: a piece it leaves where ours can take
 * it is most often guarded by a stronger one beside it. Against the
 * outside AI (120 games), our shown Captains to Generals that took a
 * shown piece and ended next to an unknown one that had moved were taken
 * back at once in 28 of 42 such captures, and after taking an unknown
 * piece in 30 of 104; the belief gave such a guard a few percent. Kinds
 * above that mover (the Spy too if it is our Marshal) weigh PROTECT times
 * more. */
#define PROTECT 6

static int bait_next_to(const st_pos *view, int cell)
{
    static const int step[4] = { 1, -1, 12, -12 };
    int best = 0;
    for (int i = 0; i < 4; i++) {
        int s = cell + step[i];
        uint8_t v = view->sq[s];
        if (!ST_IS_PIECE(v) || ST_SIDE(v) == view->stm)
            continue;
        int kv = ST_KIND(v);
        if (kv == ST_UNKNOWN && !(v & ST_MOVED))
            continue;  /* it may be a Bomb */
        for (int j = 0; j < 4; j++) {
            int r = st_shown_mover(view, s + step[j]);
            if (r > best && (kv == ST_UNKNOWN || st_combat(r, kv) == ST_ATTACKER_WINS))
                best = r;
        }
    }
    return best;
}

static void guard_weights(int bait, int w[ST_NKINDS])
{
    for (int k = bait + 1; k <= ST_MARSHAL; k++)
        w[k] *= PROTECT;
    if (bait == ST_MARSHAL)
        w[ST_SPY] *= PROTECT;
}

/* A kind drawn from pool, each weighing pool[k] * w[k]; -1 if none. */
static int draw_weighted(rng *g, int pool[], const int w[ST_NKINDS])
{
    int total = 0;
    for (int k = ST_SPY; k <= ST_MARSHAL; k++)
        total += pool[k] * w[k];
    if (total == 0)
        return draw(g, pool, ST_SPY, ST_MARSHAL, 1);
    int r = (int)rng_below(g, (uint64_t)total);
    for (int k = ST_SPY; k <= ST_MARSHAL; k++) {
        r -= pool[k] * w[k];
        if (r < 0) {
            pool[k]--;
            return k;
        }
    }
    return -1;
}

/* 1 if every square beside cell is the board's edge, a lake, or an enemy
 * piece that never moved and is unknown or a Bomb: the cell is walled in,
 * as Flags are (STB_F_DIG). */
static int walled(const st_pos *view, int cell)
{
    static const int step[4] = { 1, -1, 12, -12 };
    for (int d = 0; d < 4; d++) {
        uint8_t v = view->sq[cell + step[d]];
        if (v == ST_WALL)
            continue;
        if (!ST_IS_PIECE(v) || ST_SIDE(v) == view->stm || (v & ST_MOVED) ||
            (ST_KIND(v) != ST_UNKNOWN && ST_KIND(v) != ST_BOMB))
            return 0;
    }
    return 1;
}

/* 1 if an enemy Bomb revealed in combat stands next to cell. */
static int next_to_shown_bomb(const st_pos *view, int cell)
{
    static const int step[4] = { 1, -1, 12, -12 };
    for (int d = 0; d < 4; d++) {
        uint8_t v = view->sq[cell + step[d]];
        if (ST_IS_PIECE(v) && ST_SIDE(v) != view->stm && ST_KIND(v) == ST_BOMB)
            return 1;
    }
    return 0;
}

static int sample(rng *g, const st_pos *view, const belief *bl, unsigned features, st_pos *out)
{
    int them = view->stm ^ 1;
    int pool[ST_NKINDS];
    memcpy(pool, bl->pool, sizeof pool);
    *out = *view;
    for (int i = 0; i < bl->nran; i++) {
        pool[ST_SCOUT]--;
        assign(out, bl->ran[i], ST_SCOUT);
    }
    int still[40], ns = bl->nstill;
    memcpy(still, bl->still, sizeof(int) * (size_t)ns);
    int flag = -1;
    if (pool[ST_FLAG] > 0) {
        int total = 0, w[40];
        for (int i = 0; i < ns; i++) {
            static const int depth_weight[4] = { 1, 3, 9, 27 };
            int d = home_depth(them, still[i]);
            w[i] = depth_weight[d < 0 ? 0 : d > 3 ? 3 : d];
            /* a Bomb seen beside it: Bombs guard Flags */
            if ((features & STB_F_EXPECT) && next_to_shown_bomb(view, still[i]))
                w[i] *= 4;
            /* walled in, or on an edge file: in the outside AI's games
             * these raised the chance given to its true Flag at ply 700
             * from 0.097 to 0.133 (docs/stratego-peer.md) */
            if (features & STB_F_DIG) {
                int f = ST_FILE(still[i]);
                w[i] *= (walled(view, still[i]) ? 3 : 1) * (f == 0 || f == 9 ? 2 : 1);
            }
            total += w[i];
        }
        int r = (int)rng_below(g, (uint64_t)total), i = 0;
        while (r >= w[i])
            r -= w[i++];
        flag = still[i];
        assign(out, flag, ST_FLAG);
        pool[ST_FLAG] = 0;
        still[i] = still[--ns];
    }
    for (int i = 0; i < bl->nmoved; i++) {
        int k;
        int w[ST_NKINDS];
        int weighed = (features & STB_F_BOLD) && bold_weights(view, bl->moved[i], features, w);
        int coming = (features & STB_F_EXPECT) ? bl->dz->of[bl->moved[i]].coming : 0;
        if (coming >= 2) {
            /* it keeps coming towards our Flag: a Miner come to dig */
            if (!weighed)
                for (int j = 0; j < ST_NKINDS; j++)
                    w[j] = st_movable(j);
            weighed = 1;
            w[ST_MINER] *= 1 + 2 * (coming < 4 ? coming - 1 : 3);
        }
        const st_deeds *r = &bl->dz->of[bl->moved[i]];
        if (bl->memory && (r->bold || r->fear)) {
            if (!weighed)
                for (int j = 0; j < ST_NKINDS; j++)
                    w[j] = st_movable(j);
            weighed = 1;
            remembered_weights(r->bold, r->fear, w);
        }
        int bait = (features & STB_F_PROTECT) ? bait_next_to(view, bl->moved[i]) : 0;
        if (bait) {
            if (!weighed)
                for (int j = 0; j < ST_NKINDS; j++)
                    w[j] = st_movable(j);
            weighed = 1;
            guard_weights(bait, w);
        }
        if ((features & (STB_F_EXPECT | STB_F_LEARNED)) == (STB_F_EXPECT | STB_F_LEARNED))
            k = draw_weighted(g, pool, bl->learned[i]);
        else if (weighed)
            k = draw_weighted(g, pool, w);
        else
            k = draw(g, pool, ST_SPY, ST_MARSHAL, 1);
        if (k < 0)
            return -1;
        assign(out, bl->moved[i], k);
    }
    if (features & STB_F_EXPECT) {
        /* Bombs die only to our Miners (counted as they strike): every
         * Bomb the pool holds stands among the pieces that never moved,
         * likelier next to the Flag and deeper in the setup; the rest of
         * those pieces are kinds that move and have not yet. */
        int bombs = pool[ST_BOMB] < ns ? pool[ST_BOMB] : ns;
        pool[ST_BOMB] = 0;
        for (int j = 0; j < bombs; j++) {
            int w[40], total = 0;
            for (int i = 0; i < ns; i++) {
                int c = still[i], d = home_depth(them, c);
                int by_flag = flag >= 0 && (abs(c - flag) == 1 || abs(c - flag) == 12);
                w[i] = (by_flag ? 6 : 1) * (2 + (d < 0 ? 0 : d));
                total += w[i];
            }
            int r = (int)rng_below(g, (uint64_t)total), i = 0;
            while (r >= w[i])
                r -= w[i++];
            assign(out, still[i], ST_BOMB);
            still[i] = still[--ns];
        }
        for (int i = 0; i < ns; i++) {
            int k = draw(g, pool, ST_SPY, ST_MARSHAL, 1);
            if (k < 0)
                return -1;
            assign(out, still[i], k);
        }
        return 0;
    }
    /* Squares next to the Flag first, Bombs likelier there. */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < ns; i++) {
            int c = still[i];
            int by_flag = flag >= 0 && (abs(c - flag) == 1 || abs(c - flag) == 12);
            if (by_flag != (pass == 0))
                continue;
            int k = draw(g, pool, ST_SPY, ST_BOMB, by_flag ? 6 : 1);
            if (k < 0)
                return -1;
            assign(out, c, k);
        }
    }
    return 0;
}

int stbot_sample(stbot *b, const void *view, void *out)
{
    belief bl;
    stbot br = *b;  /* reading a view updates what has died; not here */
    if (read_view(&br, view, &bl) != 0)
        return -1;
    return sample(&b->g, view, &bl, b->features, out);
}

/* --- choosing a move ----------------------------------------------------- */

static int64_t budget_ms(const st_pos *view, const game_limits *lim)
{
    if (lim->movetime > 0)
        return lim->movetime;
    int s = view->stm;
    if (lim->time[s] >= 0)
        return lim->time[s] / 40 + lim->inc[s] / 2;
    return 0;  /* none */
}

/* The belief as the chance of each kind per unknown piece: the share of
 * `count` samples that gave it that kind. Returns the samples drawn. */
#define BELIEF_SAMPLES 400

static int belief_of(stbot *b, const st_pos *view, const belief *bl, st_belief *out)
{
    int cells[40], n = 0;
    for (int i = 0; i < bl->nran; i++)
        cells[n++] = bl->ran[i];
    for (int i = 0; i < bl->nmoved; i++)
        cells[n++] = bl->moved[i];
    for (int i = 0; i < bl->nstill; i++)
        cells[n++] = bl->still[i];
    int tally[40][ST_NKINDS];
    memset(tally, 0, sizeof tally);
    int drawn = 0;
    for (int s = 0; s < BELIEF_SAMPLES; s++) {
        st_pos full;
        if (sample(&b->g, view, bl, b->features, &full) != 0)
            continue;
        drawn++;
        for (int i = 0; i < n; i++)
            tally[i][ST_KIND(full.sq[cells[i]])]++;
    }
    memset(out, 0, sizeof *out);
    memcpy(out->pool, bl->pool, sizeof out->pool);
    for (int i = 0; i < n; i++)
        for (int k = ST_SPY; k <= ST_FLAG; k++)
            out->p[cells[i]][k] = drawn ? (float)tally[i][k] / (float)drawn : 0;
    return drawn;
}

/* Each kind the pool holds by its count, as the marks allow. */
static void counts_of(const st_pos *view, const belief *bl, st_belief *out)
{
    memset(out, 0, sizeof *out);
    memcpy(out->pool, bl->pool, sizeof out->pool);
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
        uint8_t v = view->sq[c];
        if (!ST_IS_PIECE(v) || ST_KIND(v) != ST_UNKNOWN)
            continue;
        int total = 0;
        for (int k = ST_SPY; k <= ST_FLAG; k++)
            if (st_marks_allow(v, k))
                total += bl->pool[k];
        for (int k = ST_SPY; k <= ST_FLAG; k++)
            if (total && st_marks_allow(v, k))
                out->p[c][k] = (float)bl->pool[k] / (float)total;
    }
}

void stbot_played(stbot *b, const void *vview, game_move m)
{
    const st_pos *view = vview;
    if (m == GAME_MOVE_NONE)
        return;
    uint8_t a = view->sq[ST_FROM(m)], d = view->sq[ST_TO(m)];
    if (ST_KIND(a) == ST_MINER && ST_IS_PIECE(d) && ST_KIND(d) == ST_UNKNOWN && !(d & ST_MOVED))
        b->struck = ST_TO(m);
}

int stbot_belief(stbot *b, const void *vview, st_belief *out, st_belief *counts)
{
    const st_pos *view = vview;
    belief bl;
    if (read_view(b, view, &bl) != 0)
        return -1;
    belief_of(b, view, &bl, out);
    if (counts)
        counts_of(view, &bl, counts);
    return 0;
}

game_move stbot_move(stbot *b, const void *vview, const game_limits *lim, atomic_int *stop)
{
    const st_pos *view = vview;
    game_move root[ST_MAX_MOVES];
    int n = st_legal(view, root);
    b->last_samples = 0;
    memset(&b->last, 0, sizeof b->last);
    if (n <= 1)
        return n == 1 ? root[0] : GAME_MOVE_NONE;
    belief bl;
    if (read_view(b, view, &bl) != 0)
        return root[rng_below(&b->g, (uint64_t)n)];

    const int lv = b->level;
    int want = levels[lv].samples;
    int64_t ms = budget_ms(view, lim);
    if (want == 0 && ms == 0)
        want = 40;  /* no time given: a fixed amount of work */
    if (lim->nodes && want == 0)
        want = MAX_SAMPLES;
    /* Thinking stops at TIME_SHARE of the move's time: the rest is the
     * margin for stopping (the search looks at the clock every 1,024
     * nodes, under a millisecond) and for sending the answer. */
    uint64_t t0 = timer_ns(),
             deadline = ms > 0 ? t0 + (uint64_t)ms * 1000000u * TIME_SHARE / 100 : 0;
    int64_t sum[ST_MAX_MOVES], capped[ST_MAX_MOVES];
    int flags[ST_MAX_MOVES], lottery[ST_MAX_MOVES];
    memset(sum, 0, sizeof sum);
    memset(capped, 0, sizeof capped);
    memset(flags, 0, sizeof flags);
    /* Attacks on a piece that never moved may find the Flag; unless the
     * samples make that likely, such a find counts as FLAG_LOTTERY, not
     * as a win: a mean over samples would otherwise send the Marshal into
     * Bombs for a small chance of the Flag. */
    for (int i = 0; i < n; i++) {
        uint8_t v = view->sq[ST_TO(root[i])];
        lottery[i] = (b->features & STB_F_LOTTERY) && ST_ATTACK(root[i]) &&
                     ST_KIND(v) == ST_UNKNOWN && !(v & ST_MOVED);
    }
    if ((b->features & STB_F_EXPECT) && levels[lv].samples == 0) {
        st_belief *sb = &b->bel;
        b->last_samples = belief_of(b, view, &bl, sb);
        uint64_t nodes = lim->nodes ? lim->nodes : ms == 0 ? EXPECT_NODES : 0;
        if (levels[lv].nodes && (nodes == 0 || nodes > (uint64_t)levels[lv].nodes))
            nodes = (uint64_t)levels[lv].nodes;
        unsigned xf = STX_F_HIDDEN | ((b->features & STB_F_MARSHAL_SAFE) ? STX_F_MARSHAL_SAFE : 0) |
                      ((b->features & STB_F_FEW_PROBES) ? STX_F_FEW_PROBES : 0) |
                      ((b->features & STB_F_GUARD) ? STX_F_GUARD : 0) |
                      ((b->features & STB_F_STILL) ? STX_F_STILL : 0) |
                      ((b->features & STB_F_SPY) ? STX_F_SPY : 0) |
                      ((b->features & STB_F_HIDE_MORE) ? STX_F_HIDE_MORE : 0) |
                      ((b->features & STB_F_DIG) ? STX_F_DIG : 0) |
                      ((b->features & STB_F_DOMINANT) ? STX_F_DOMINANT : 0) |
                      ((b->features & STB_F_APPROACH) ? STX_F_APPROACH : 0) |
                      ((b->features & STB_F_OWN_WORTH) ? STX_F_OWN_WORTH : 0);
        game_move mv = stx_search_lines(view, sb, xf, deadline, lim->depth, nodes, stop, b->lines,
                                        &b->last);
        stbot_played(b, view, mv);
        return mv;
    }
    ctx x = { 0, b->features };
    int done = 0;
    int cap = (b->features & STB_F_SAMPLES) ? MAX_SAMPLES : V1_MAX_SAMPLES;
    for (; done < (want ? want : cap); done++) {
        if (done > 0) {
            if (stop && atomic_load(stop))
                break;
            if (deadline && timer_ns() >= deadline)
                break;
            if (lim->nodes && x.nodes >= lim->nodes)
                break;
        }
        st_pos full;
        if (sample(&b->g, view, &bl, b->features, &full) != 0)
            break;
        for (int i = 0; i < n; i++) {
            int s;
            if (target_kind(&full, root[i]) == ST_FLAG) {
                s = WIN;
                flags[i]++;
                capped[i] += FLAG_LOTTERY;
            } else {
                st_pos c = full;
                st_make(&c, root[i]);
                s = -negamax(&x, &c, levels[lv].depth - 1, -INF, INF, levels[lv].quiesce, 1);
                capped[i] += s;
            }
            sum[i] += s;
        }
    }
    for (int i = 0; i < n; i++)
        if (lottery[i] && flags[i] * 2 < done)
            sum[i] = capped[i];
    b->last_samples = done;
    if (done == 0)
        return root[rng_below(&b->g, (uint64_t)n)];
    int best = 0;
    int64_t best_score = INT64_MIN;
    for (int i = 0; i < n; i++) {
        int64_t s = sum[i] / done;
        /* Noise never hides a certain win; ties go at random. */
        if (levels[lv].noise && s < WIN / 2)
            s += (int64_t)rng_below(&b->g, (uint64_t)levels[lv].noise);
        s = s * 16 + (int64_t)rng_below(&b->g, 16);
        if (s > best_score) {
            best_score = s;
            best = i;
        }
    }
    return root[best];
}
