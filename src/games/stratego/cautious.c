/* cautious.c -- "cautious": a reference Stratego opponent of our
 * own, for measuring the strong bots (bot.c) against something
 * that plays sensibly and never peeks.
 *
 * Invariants: it reads nothing but the view it is given (its own ranks, the
 * squares of all enemy pieces, the ranks of revealed ones, and the public
 * moved and scouted marks), and it never attacks an unrevealed enemy piece
 * with its Marshal, General or a Colonel (ranks 10, 9, 8) -- unless every
 * legal move it has is such an attack.
 *
 * One ply, by rules; the first that yields a move decides, ties at random:
 *  1. Take or run. Takes a known enemy piece it beats (the higher rank, the
 *     Spy attacking the Marshal, a Miner on a Bomb; a piece that ran is a
 *     Scout), the most valuable first, with its least valuable taker; not
 *     when the taker is worth more and lands next to a known enemy that
 *     beats it. Runs from danger: a piece of its own that the enemy knows
 *     (revealed, or a Major and up) next to a known enemy that beats it, and
 *     its revealed Marshal next to any unknown piece while the enemy Spy
 *     may live, steps to a square free of such danger (a capture if it
 *     can), the most valuable piece first. It runs rather than takes when
 *     the piece in danger is worth more than the best capture.
 *  2. Probe: Scouts (long runs too), Sergeants, Lieutenants and Captains
 *     attack unknown pieces, those that moved (no Bombs) first; Captains
 *     only those. Miners attack unmoved pieces in the enemy's two back rows
 *     (Bombs by the Flag). Once no Scout, Miner, Sergeant or Lieutenant is
 *     left, Captains and Majors probe any unknown piece.
 *  3. Advance a Scout, Miner, Sergeant or Lieutenant (once they are gone,
 *     a Captain or Major) forward, sideways if none can, never next to a
 *     known enemy that beats it.
 *  4. Any quiet move that steps no piece next to a known enemy that beats
 *     it; else any move but an attack known to lose; else any legal move.
 */
#include "cautious.h"

#include <stdlib.h>
#include <string.h>

#include "../../base/rng.h"
#include "stratego.h"

static const int value[ST_NKINDS] = {
    0, 60 /* Spy */, 15, 40, 30, 45, 80, 140, 220, 350, 500 /* Marshal */,
    40 /* Bomb */, 1000 /* Flag */, 0,
};

static const int dirs[4] = { 1, -1, 12, -12 };

struct stcautious {
    rng g;
    int dead[ST_NKINDS];      /* enemy kinds seen revealed, since gone */
    int prev_rev[ST_NKINDS];  /* enemy kinds revealed on the board last time */
    int have_prev;
};

stcautious *stcautious_new(uint64_t seed)
{
    stcautious *b = calloc(1, sizeof *b);
    if (b)
        rng_seed(&b->g, seed);
    return b;
}

void stcautious_free(stcautious *b)
{
    free(b);
}

void stcautious_new_game(stcautious *b)
{
    memset(b->dead, 0, sizeof b->dead);
    memset(b->prev_rev, 0, sizeof b->prev_rev);
    b->have_prev = 0;
}

/* What one move knows of the view. */
typedef struct ctx {
    const st_pos *v;
    int us, them;
    int spy_hidden;  /* the enemy Spy may live among the unknown pieces */
} ctx;

static int top_rank(int kind)
{
    return kind >= ST_COLONEL && kind <= ST_MARSHAL;
}

static int is_enemy(const ctx *x, int c)
{
    uint8_t s = x->v->sq[c];
    return ST_IS_PIECE(s) && ST_SIDE(s) == x->them;
}

/* The kind of the enemy piece on c as far as the view tells: its rank if
 * revealed, a Scout if it ever ran, else ST_UNKNOWN. */
static int known_kind(const ctx *x, int c)
{
    uint8_t s = x->v->sq[c];
    int k = ST_KIND(s);
    return k == ST_UNKNOWN && (s & ST_SCOUTED) ? ST_SCOUT : k;
}

/* 1 if its piece of kind k standing on `at` (having come from `from`, or
 * -1) is next to no known enemy that beats it; if `exposed` (the enemy
 * knows it), its Marshal wants no unknown neighbour either while the Spy
 * may live. */
static int safe(const ctx *x, int at, int from, int k, int exposed)
{
    for (int i = 0; i < 4; i++) {
        int n = at + dirs[i];
        if (n == from || !is_enemy(x, n))
            continue;
        int e = known_kind(x, n);
        if (e == ST_UNKNOWN) {
            if (exposed && k == ST_MARSHAL && x->spy_hidden)
                return 0;
        } else if (st_movable(e) && st_movable(k) && st_combat(e, k) == ST_ATTACKER_WINS) {
            return 0;
        }
    }
    return 1;
}

/* 0 (front) .. 3 (back) for a cell in side's setup rows, negative outside. */
static int home_depth(int side, int cell)
{
    int r = ST_ROW(cell);
    return side == ST_RED ? 3 - r : r - 6;
}

/* How much an attack of kind a on an unknown, unscouted piece on t is
 * worth as a probe, or -1 if it is none. Once its low ranks are gone
 * (`late`), Captains and Majors probe anything. */
static int probe_score(const ctx *x, int a, int t, int late)
{
    int moved = (x->v->sq[t] & ST_MOVED) != 0;
    if (late && (a == ST_CAPTAIN || a == ST_MAJOR))
        return moved ? 20 : 4;
    switch (a) {
    case ST_SCOUT:
        return moved ? 40 : 15;
    case ST_SERGEANT:
        return moved ? 30 : 8;
    case ST_LIEUTENANT:
        return moved ? 25 : 6;
    case ST_CAPTAIN:
        return moved ? 20 : -1;
    case ST_MINER:
        return !moved && home_depth(x->them, t) >= 2 ? 35 : -1;
    default:
        return -1;
    }
}

/* The best of the moves offered, ties drawn uniformly. */
typedef struct pick {
    game_move m;
    long score;
    int ties;
} pick;

static void offer(rng *g, pick *p, game_move m, long score)
{
    if (p->ties == 0 || score > p->score) {
        p->m = m;
        p->score = score;
        p->ties = 1;
    } else if (score == p->score && rng_below(g, (uint64_t)++p->ties) == 0) {
        p->m = m;
    }
}

/* Counts the enemy's revealed kinds; those that went since the last move
 * died. Sets x->spy_hidden. */
static void read_deaths(stcautious *b, ctx *x)
{
    int rev[ST_NKINDS] = { 0 };
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++)
        if (is_enemy(x, c) && ST_KIND(x->v->sq[c]) != ST_UNKNOWN)
            rev[ST_KIND(x->v->sq[c])]++;
    if (b->have_prev)
        for (int k = 0; k < ST_NKINDS; k++)
            if (rev[k] < b->prev_rev[k])
                b->dead[k] += b->prev_rev[k] - rev[k];
    memcpy(b->prev_rev, rev, sizeof rev);
    b->have_prev = 1;
    x->spy_hidden = st_army[ST_SPY] - rev[ST_SPY] - b->dead[ST_SPY] > 0;
}

game_move stcautious_move(stcautious *b, const void *view)
{
    ctx x = { .v = view };
    x.us = x.v->stm;
    x.them = x.us ^ 1;
    game_move list[ST_MAX_MOVES];
    int n = st_legal(x.v, list);
    if (n <= 0)
        return GAME_MOVE_NONE;
    read_deaths(b, &x);

    /* Its pieces in danger where they stand; whether low ranks are left. */
    uint8_t danger[ST_CELLS] = { 0 };
    int low = 0;
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
        uint8_t s = x.v->sq[c];
        if (!ST_IS_PIECE(s) || ST_SIDE(s) != x.us || !st_movable(ST_KIND(s)))
            continue;
        int k = ST_KIND(s), revealed = (s & ST_REVEALED) != 0;
        low += k >= ST_SCOUT && k <= ST_LIEUTENANT;
        if ((revealed || k >= ST_MAJOR) && !safe(&x, c, -1, k, revealed))
            danger[c] = 1;
    }

    pick take = { 0 }, run = { 0 }, probe = { 0 }, advance = { 0 }, quiet = { 0 }, any = { 0 },
         last = { 0 };
    const int forward = x.us == ST_RED ? 1 : -1;
    for (int i = 0; i < n; i++) {
        game_move m = list[i];
        int f = ST_FROM(m), t = ST_TO(m), att = ST_ATTACK(m);
        int a = ST_KIND(x.v->sq[f]);
        offer(&b->g, &last, m, 0);
        if (att && top_rank(a) && ST_KIND(x.v->sq[t]) == ST_UNKNOWN)
            continue;  /* the invariant */
        int d = att ? known_kind(&x, t) : ST_EMPTY;
        int fight = att && d != ST_UNKNOWN && st_movable(a) ? st_combat(a, d) : -1;
        if (fight == ST_DEFENDER_WINS)
            continue;
        offer(&b->g, &any, m, 0);
        if (!st_movable(a))
            continue;  /* not a view of the side to move: take what is left */
        int win = fight == ST_ATTACKER_WINS;
        int exposed = (x.v->sq[f] & ST_REVEALED) || att;
        int safe_to = safe(&x, t, f, a, exposed);
        if (win && (safe_to || value[a] <= value[d]))
            offer(&b->g, &take, m, (long)value[d] * 1024 - value[a]);
        if (danger[f] && safe_to && (!att || win))
            offer(&b->g, &run, m, (long)value[a] * 1024 + (win ? value[d] : 0));
        if (att && d == ST_UNKNOWN) {
            int s = probe_score(&x, a, t, !low);
            if (s >= 0)
                offer(&b->g, &probe, m, s);
        }
        if (!att && safe_to) {
            int ahead = (ST_ROW(t) - ST_ROW(f)) * forward;
            if (a >= ST_SCOUT && a <= (low ? ST_LIEUTENANT : ST_MAJOR) && ahead >= 0)
                offer(&b->g, &advance, m, ahead > 0);
            offer(&b->g, &quiet, m, 0);
        }
    }
    if (run.ties && (!take.ties || run.score / 1024 > value[known_kind(&x, ST_TO(take.m))]))
        return run.m;
    const pick *order[] = { &take, &probe, &advance, &quiet, &any, &last };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (order[i]->ties)
            return order[i]->m;
    return GAME_MOVE_NONE;
}
