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
#include "root_rules.h"

#include <assert.h>
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

static const int value[ST_NKINDS] = {
    0, 60 /* Spy */, 20, 40, 30, 45, 80, 140, 220, 350, 500 /* Marshal */,
    40 /* Bomb */, 0 /* Flag */, 0,
};

/* What a rank not yet shown adds: the enemy must guess it (the strongest
 * pass for Bombs while they stand still); value/10 for the others. */
static const int hidden_bonus[ST_NKINDS] = {
    0, 15, 2, 4, 3, 5, 8, 25, 45, 100, 150, 4, 0, 0,
};

typedef struct node {
    st_pos p;
    uint64_t key;                /* of the board, the homes and `used` (cell_key) */
    uint8_t home[ST_CELLS];      /* root cell of the unknown piece here, 0 if none */
    uint8_t used[ST_NKINDS];     /* enemy kinds revealed by this line's chance nodes */
} node;

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
    const st_belief *bl;
    unsigned features;
    int us;
    int ev[ST_CELLS][2];         /* expected worth of an unknown piece: [0] any, [1] if it moved */
    int mov[ST_CELLS];           /* the chance that it moves at all, times 256 */
    int miner[ST_CELLS];         /* the chance that it is a Miner, times 256 */
    uint8_t may_move[ST_CELLS];  /* 1 if the belief lets it be a mover at all */
    int scout_worth;             /* what an unknown piece that ran is worth */
    int full;                    /* the material of both armies at the start */
    int press;                   /* 1 if we are PRESS_LEAD ahead at the root */
    int enemy_miners;            /* 1 if the enemy may have a Miner left (STX_F_GUARD) */
    int target;                  /* the likeliest cell of the enemy Flag, 0 if none */
    /* Steps from each cell to our Flag: [0] around our Bombs, [1] through
     * them (a Miner's way); 99 where there is no way. */
    uint8_t to_flag[2][ST_CELLS];
    /* Quiet moves that cut the search off: by from and to for each side
     * (their depth squared, summed), and the last two at each ply. */
    int (*hist)[ST_CELLS][ST_CELLS];
    game_move killer[MAX_DEPTH + 1][2];
    struct tt_entry *tt;         /* NULL if memory was short */
    uint64_t nodes, max_nodes, deadline;
    atomic_int *stop;
    int can_stop;                /* 0 until the first depth is done */
    int aborted;
} ex;

static int worth(const ex *x, int kind, int shown)
{
    int w = value[kind];
    if (!shown)
        w += (x->features & STX_F_HIDDEN) ? hidden_bonus[kind] : value[kind] / 10;
    return w;
}

/* What an enemy piece of kind k is worth while we do not know it: its
 * worth unshown, and as much again for what knowing it is worth to us
 * (where the Marshal is, which piece is no Bomb), so that finding out
 * pays: a Scout that runs into an unknown piece buys that. */
static int unknown_worth(const ex *x, int kind)
{
    return worth(x, kind, 0) + ((x->features & STX_F_HIDDEN) ? hidden_bonus[kind] : 0);
}

/* The same for a piece that never moved, at `ply` of the game: knowing
 * its rank is worth an eighth as much at the start, growing to the full
 * worth at ply UNMOVED_RAMP. Early, the enemy's pieces show themselves as
 * they move, and a probe of a still piece costs a piece to learn what may
 * be a Bomb; later, against an enemy that keeps still, only probes find
 * out what there is to take. Counted at half throughout, Scouts ran into
 * 3.0 never-moved pieces a game against stratego-v1 (20 ms), 2.6 of them
 * in the first 100 plies; with the ramp 2.3 (docs/stratego.md, "Fewer
 * probes"). */
#define UNMOVED_RAMP 400

static int unmoved_worth(const ex *x, int kind, int ply)
{
    if (!(x->features & STX_F_HIDDEN))
        return worth(x, kind, 0);
    int f = ply < UNMOVED_RAMP ? ply * 256 / UNMOVED_RAMP : 256;
    if (f < 32)
        f = 32;
    return worth(x, kind, 0) + hidden_bonus[kind] * f / 256;
}

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
    const float *p = x->bl->p[n->home[cell]];
    float sum = 0;
    for (int k = 0; k < ST_NKINDS; k++) {
        w[k] = 0;
        if (k < ST_SPY || k > ST_FLAG || n->used[k] >= x->bl->pool[k] || !st_marks_allow(v, k))
            continue;
        w[k] = p[k];
        sum += w[k];
    }
    if (sum > 0)
        return sum;
    /* The belief left nothing here: any kind the pool and the marks allow. */
    for (int k = ST_SPY; k <= ST_FLAG; k++) {
        if (n->used[k] >= x->bl->pool[k] || !st_marks_allow(v, k))
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
    if (!x->may_move[n->home[from]])
        return 0;
    for (int k = ST_SPY; k <= ST_MARSHAL; k++)
        if (n->used[k] < x->bl->pool[k])
            return 1;
    return 0;
}

/* --- evaluation ---------------------------------------------------------- */

/* What the closest enemy mover to our Flag costs by the steps it needs
 * (a Miner's through our Bombs, the others' around them): the enemy takes
 * a Flag it stands next to; the search sees that, this sees it coming. */
static const int danger[8] = { 0, 400, 300, 150, 60, 25, 10, 0 };

/* The pull of our best hunt: of our pieces that beat an enemy piece whose
 * rank is shown, the pair with the most of the prey's worth times (10 -
 * steps between them), over HUNT. Without it, two armies that know few of
 * each other's ranks shuffle to the move limit. */
#define HUNT 40

/* Ahead by PRESS_LEAD at the root, our nearest Miner's pull towards the
 * enemy Flag is PRESS_MINER a step instead of 3: a lead wins nothing
 * until a Miner opens the Flag's Bombs, and the move limit draws. And a
 * lead counts more as the board empties, up to 1/TRADE more with no
 * material left: the side ahead trades, the side behind does not. */
#define PRESS_LEAD 200
#define PRESS_MINER 8
#define TRADE 1

/* STX_F_GUARD: while the enemy has Miners, the nearest of our Sergeants
 * to Colonels (each beats a Miner; the top two stay free to hunt) costs
 * GUARD_STEP a step beyond GUARD_NEAR steps from our Flag (through our
 * Bombs, a Miner's way: a Flag walled in by Bombs has no other), up to
 * GUARD_FAR. Against the outside AI most of our lost games
 * were our Flag taken by a Miner that had just opened a Bomb beside it,
 * with none of ours near enough to take it first. And an unknown enemy
 * piece that moved and stands GUARD_NEAR steps or fewer from our Flag
 * through our Bombs counts in the danger to our Flag as at least half a
 * Miner (GUARD_MINER / 256), whatever the belief says. */
#define GUARD_NEAR 2
#define GUARD_FAR 12
#define GUARD_STEP 15
#define GUARD_MINER 128

/* STX_F_STILL: each of our movable pieces that never moved is worth
 * STILL_FRONT more in our front row, STILL_STEP more a row further back:
 * to the enemy it may be a Bomb or the Flag. Against the outside AI our
 * army had moved all but one or two of its pieces by ply 400 in most of
 * the games it lost by its Flag, while the outside AI kept ten or more
 * still: our Flag and its Bombs were then the last still pieces, and the
 * first structure it dug was the Flag's. */
#define STILL_FRONT 6
#define STILL_STEP 4

/* STX_F_SPY: while the enemy Marshal may live, our Spy is worth SPY_KEEP
 * more: it is the one piece that takes a Marshal. Against the outside AI,
 * 193 of the 264 pieces its Marshal took in 80 games were taken after our
 * Spy had died (most often to a Major, Scout, Colonel or General), with
 * our Marshal alive and theirs shown: nothing of ours could stop it. */
#define SPY_KEEP 140

/* STX_F_HIDE_MORE: what our Majors and above add, beyond hidden_bonus,
 * while not yet shown. Against the outside AI our Colonels first fought
 * at a median ply of 74, its own at 242; once shown, its hidden General
 * and Marshal took them (22 of our Colonels in 40 games), and its
 * Colonels and Generals attacked our unknown pieces knowing that ours
 * stood elsewhere. */
static const int hide_more[ST_NKINDS] = {
    0, 0, 0, 0, 0, 0, 0, 15 /* Major */, 45, 50, 50 /* Marshal */, 0, 0, 0,
};

static int still_worth(int side, int cell)
{
    int r = ST_ROW(cell), depth = side == ST_RED ? 3 - r : r - 6;  /* 0 front .. 3 back */
    return depth < 0 ? 0 : STILL_FRONT + STILL_STEP * depth;
}

static int danger_of(const ex *x, const node *n, int c, uint8_t v, int k)
{
    int d0 = x->to_flag[0][c], d1 = x->to_flag[1][c];
    int w0 = d0 < 8 ? danger[d0] : 0, w1 = d1 < 8 ? danger[d1] : 0;
    if (w1 == 0)
        return 0;
    if (k != ST_UNKNOWN)
        return k == ST_MINER ? w1 : st_movable(k) ? w0 : 0;
    if (v & ST_SCOUTED)
        return w0;
    /* a piece of unknown rank: a Miner by its chance of being one (with
     * STX_F_GUARD at least GUARD_MINER of one for a mover GUARD_NEAR
     * steps or fewer from our Flag through our Bombs) */
    int h = n->home[c], m = x->miner[h], mov = (v & ST_MOVED) ? 256 : x->mov[h];
    if ((x->features & STX_F_GUARD) && (v & ST_MOVED) && d1 <= GUARD_NEAR && m < GUARD_MINER)
        m = GUARD_MINER;
    return (mov * (((256 - m) * w0 + m * w1) >> 8)) >> 8;
}

/* Material (unknown pieces at their expected worth), the last movers, the
 * Spy's and the Miners' jobs, the danger to our Flag, the pull of our
 * nearest piece and nearest Miner towards the likeliest square of the
 * enemy Flag, of our best hunt, and of trades for the side ahead. For the
 * side to move; one pass over the board (and the hunt over our movers
 * and the enemy's shown ones). mat gets each side's material. */
static int evaluate_with(const ex *x, const node *n, int mat[2])
{
    const int us = x->us, them = us ^ 1, t = x->target;
    int score[2] = { 0, 0 }, marshal[2] = { 0, 0 }, spy = 0;
    int movers[2] = { 0, 0 }, miners[2] = { 0, 0 };  /* times 256 */
    int near = 99, near_miner = 99, worst = 0, guard = GUARD_FAR;
    uint8_t hunter[ST_ARMY], prey[ST_ARMY], blind[ST_ARMY];
    int nhunters = 0, nprey = 0, nblind = 0, top = 0;
    const uint8_t *sq = n->p.sq;
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
        uint8_t v = sq[c];
        if (!ST_IS_PIECE(v))
            continue;
        int s = ST_SIDE(v), k = ST_KIND(v);
        if (s == them) {
            if (x->to_flag[1][c] < 8) {
                int w = danger_of(x, n, c, v, k);
                if (w > worst)
                    worst = w;
            }
            if (k == ST_UNKNOWN) {
                int h = n->home[c];
                if ((v & ST_MOVED) && nblind < ST_ARMY)
                    blind[nblind++] = (uint8_t)c;
                if (v & ST_SCOUTED) {
                    mat[s] += x->scout_worth;
                    movers[s] += 256;
                } else {
                    mat[s] += x->ev[h][(v & ST_MOVED) != 0];
                    movers[s] += (v & ST_MOVED) ? 256 : x->mov[h];
                    miners[s] += x->miner[h];
                }
                continue;
            }
        }
        mat[s] += worth(x, k, (v & ST_REVEALED) != 0);
        if (!st_movable(k))
            continue;
        if (s == us && !(v & ST_MOVED) && (x->features & STX_F_STILL))
            score[us] += still_worth(us, c);
        if (s == us && !(v & ST_REVEALED) && (x->features & STX_F_HIDE_MORE))
            score[us] += hide_more[k];
        movers[s] += 256;
        if (s == us && nhunters < ST_ARMY) {
            hunter[nhunters++] = (uint8_t)c;
            if (k > top)
                top = k;
        }
        else if (s == them && nprey < ST_ARMY)
            prey[nprey++] = (uint8_t)c;
        if (k == ST_MARSHAL)
            marshal[s] = 1;
        else if (k == ST_SPY && s == us)
            spy = 1;
        else if (k == ST_MINER)
            miners[s] += 256;
        if (s == us && k >= ST_SERGEANT && k <= ST_COLONEL && x->to_flag[1][c] < guard)
            guard = x->to_flag[1][c];
        if (s == us && t) {
            int d = st_steps(c, t);
            if (d < near)
                near = d;
            if (k == ST_MINER && d < near_miner)
                near_miner = d;
        }
    }
    score[0] += mat[0];
    score[1] += mat[1];
    score[us] -= worst;
    /* Unknown pieces that moved are prey too for our pieces above the
     * enemy's highest rank left unseen: they beat whatever it is. */
    int left = ST_MARSHAL;
    while (left > ST_SPY && n->used[left] >= x->bl->pool[left])
        left--;
    if (top <= left)
        nblind = 0;
    if (nprey > 0 || nblind > 0) {
        int best = 0;
        for (int i = 0; i < nprey; i++) {
            int kq = ST_KIND(sq[prey[i]]);
            for (int j = 0; j < nhunters; j++) {
                int d = st_steps(hunter[j], prey[i]), w = value[kq] * (10 - d);
                if (d < 10 && w > best && st_combat(ST_KIND(sq[hunter[j]]), kq) == ST_ATTACKER_WINS)
                    best = w;
            }
        }
        for (int i = 0; i < nblind; i++) {
            int c = blind[i];
            int worth_of = (sq[c] & ST_SCOUTED) ? x->scout_worth : x->ev[n->home[c]][1];
            for (int j = 0; j < nhunters; j++) {
                int d = st_steps(hunter[j], c), w = worth_of * (10 - d);
                if (d < 10 && w > best && ST_KIND(sq[hunter[j]]) > left)
                    best = w;
            }
        }
        score[us] += best / HUNT;
    }
    for (int s = 0; s < 2; s++) {
        /* A side that cannot move loses (S7): the last movers count extra. */
        if (movers[s] < 8 * 256) {
            int miss = 8 * 256 - movers[s];
            score[s] -= (6 * (miss >> 4) * (miss >> 4)) >> 8;
        }
        if (miners[s] <= 2 * 256)
            score[s] += (60 * miners[s]) >> 8;  /* the last Miners open the Flag's Bombs */
    }
    if ((x->features & STX_F_GUARD) && x->enemy_miners && guard > GUARD_NEAR)
        score[us] -= GUARD_STEP * (guard - GUARD_NEAR);
    int their_marshal = marshal[them] || n->used[ST_MARSHAL] < x->bl->pool[ST_MARSHAL];
    if (spy && !marshal[them])
        score[us] -= 45;  /* a Spy without a Marshal to take */
    if (spy && their_marshal && (x->features & STX_F_SPY))
        score[us] += SPY_KEEP;
    if (near < 99)
        score[us] -= 4 * near;
    if (near_miner < 99)
        score[us] -= (x->press ? PRESS_MINER : 3) * near_miner;
    /* The side ahead gains by trades: its lead counts more, by up to
     * 1/TRADE, as the board empties (and the side behind loses by them). */
    int total = mat[0] + mat[1];
    if (total < x->full)
        score[us] += (mat[us] - mat[them]) * (x->full - total) / (TRADE * x->full);
    return n->p.stm == us ? score[us] - score[them] : score[them] - score[us];
}

static int evaluate(const ex *x, const node *n)
{
    int mat[2] = { 0, 0 };
    return evaluate_with(x, n, mat);
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
    float total = 0;
    for (int k = ST_SPY; k <= ST_FLAG; k++) {
        if (w[k] <= 0)
            continue;
        int s;
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
            s = depth >= 0 ? -search(x, &c, depth, -INF, INF, ply + 1)
                           : -quiesce(x, &c, -INF, INF, 0, ply + 1);
        }
        /* The attacker knows its own rank: as kind k it attacks only if
         * that does better than its best other move. */
        if (unknown == from && s < alt)
            s = alt;
        total += w[k] * (float)s;
        if (x->aborted)
            return 0;
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
        return (1 << 25) + 1000 - value[a == ST_UNKNOWN ? 0 : a];
    int r = st_combat(a, d);
    return r == ST_ATTACKER_WINS ? (1 << 28) + value[d] : r == ST_BOTH_DIE ? 1 << 27 : 1 << 24;
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

/* Steps from every cell to `flag` over playing squares, our Bombs walls
 * unless through_bombs. */
static void steps_to(const st_pos *view, int flag, int us, int through_bombs, uint8_t out[ST_CELLS])
{
    static const int step[4] = { 1, -1, 12, -12 };
    int queue[ST_CELLS], head = 0, tail = 0;
    memset(out, 99, ST_CELLS);
    out[flag] = 0;
    queue[tail++] = flag;
    while (head < tail) {
        int c = queue[head++];
        for (int d = 0; d < 4; d++) {
            int t = c + step[d];
            uint8_t v = view->sq[t];
            if (v == ST_WALL || out[t] != 99)
                continue;
            if (!through_bombs && ST_IS_PIECE(v) && ST_SIDE(v) == us && ST_KIND(v) == ST_BOMB)
                continue;
            out[t] = (uint8_t)(out[c] + 1);
            queue[tail++] = t;
        }
    }
}

static void prepare(ex *x, const st_pos *view, node *root)
{
    memset(root, 0, sizeof *root);
    root->p = *view;
    memset(x->to_flag, 99, sizeof x->to_flag);
    x->scout_worth = unknown_worth(x, ST_SCOUT);
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
        uint8_t v = view->sq[c];
        if (ST_IS_PIECE(v) && ST_SIDE(v) == x->us && ST_KIND(v) == ST_FLAG) {
            steps_to(view, c, x->us, 0, x->to_flag[0]);
            steps_to(view, c, x->us, 1, x->to_flag[1]);
        }
    }
    float best_flag = 0;
    x->target = 0;
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
        uint8_t v = view->sq[c];
        if (!ST_IS_PIECE(v) || ST_KIND(v) != ST_UNKNOWN)
            continue;
        root->home[c] = (uint8_t)c;
        const float *p = x->bl->p[c];
        float any = 0, moved = 0, msum = 0;
        for (int k = ST_SPY; k <= ST_FLAG; k++) {
            any += p[k] * (float)unmoved_worth(x, k, view->ply);
            if (st_movable(k)) {
                moved += p[k] * (float)unknown_worth(x, k);
                msum += p[k];
            }
        }
        x->ev[c][0] = (int)any;
        x->ev[c][1] = msum > 0 ? (int)(moved / msum) : unknown_worth(x, ST_SCOUT);
        x->mov[c] = (int)(msum * 256);
        x->miner[c] = (int)(p[ST_MINER] * 256);
        x->may_move[c] = msum > 0 || (v & ST_MOVED);
        if (!(v & ST_MOVED) && p[ST_FLAG] > best_flag) {
            best_flag = p[ST_FLAG];
            x->target = c;
        }
    }
    x->enemy_miners = x->bl->pool[ST_MINER] > 0;
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
        uint8_t v = view->sq[c];
        if (ST_IS_PIECE(v) && ST_SIDE(v) != x->us && ST_KIND(v) == ST_MINER)
            x->enemy_miners = 1;
    }
    root->key = full_key(root);
    for (int k = ST_SPY; k <= ST_FLAG; k++)
        x->full += 2 * st_army[k] * worth(x, k, 0);
    int mat[2] = { 0, 0 };
    evaluate_with(x, root, mat);
    x->press = mat[x->us] - mat[x->us ^ 1] >= PRESS_LEAD;
}

game_move stx_search(const st_pos *view, const st_belief *bl, unsigned features,
                     uint64_t deadline_ns, int max_depth, uint64_t max_nodes, atomic_int *stop,
                     stx_report *rep)
{
    ex x;
    memset(&x, 0, sizeof x);
    x.bl = bl;
    x.features = features;
    x.us = view->stm;
    x.max_nodes = max_nodes;
    x.deadline = deadline_ns;
    x.stop = stop;
    node root;
    prepare(&x, view, &root);
    x.hist = calloc(2, sizeof *x.hist);  /* without it, quiet moves keep their order */
    x.tt = calloc((size_t)1 << TT_BITS, sizeof *x.tt);  /* without it, none is stored */
    game_move list[ST_MAX_MOVES];
    int count = st_legal(view, list);
    if (rep)
        *rep = (stx_report){ 0, 0, 0 };
    if (count == 0) {
        free(x.hist);
        free(x.tt);
        return GAME_MOVE_NONE;
    }
    count = stx_root_rules(view, bl, features, list, count);
    order(&x, &root, list, count, 0);
    if (max_depth <= 0 || max_depth > MAX_DEPTH)
        max_depth = MAX_DEPTH;
    game_move best = list[0];
    int best_score = 0, done = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        int alpha = -INF, iter_best = -1, iter_score = -INF;
        for (int i = 0; i < count; i++) {
            int s = child_value(&x, &root, list[i], depth - 1, alpha, INF, 0, QDEPTH, -INF);
            if (x.aborted)
                break;
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
        /* the best first next time */
        game_move m = list[iter_best];
        memmove(list + 1, list, sizeof *list * (size_t)iter_best);
        list[0] = m;
        if (x.aborted || best_score >= WIN - MAX_DEPTH)
            break;
        x.aborted = 0;
    }
    if (rep)
        *rep = (stx_report){ done, best_score, x.nodes };
    free(x.hist);
    free(x.tt);
    return best;
}
