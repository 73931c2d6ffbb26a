/* expect_eval.c -- the strongest search's evaluation (expect_eval.h): what
 * a node is worth to the side to move, and what the root makes of the view
 * and the belief for it.
 *
 * Invariant: an enemy piece of unknown rank counts at its expected worth
 * under the belief; nothing here reads a rank the view does not show.
 */
#include "expect_eval.h"

#include <stdlib.h>
#include <string.h>

const int stx_value[ST_NKINDS] = {
    0, 60 /* Spy */, 20, 40, 30, 45, 80, 140, 220, 350, 500 /* Marshal */,
    40 /* Bomb */, 0 /* Flag */, 0,
};

/* What a rank not yet shown adds: the enemy must guess it (the strongest
 * pass for Bombs while they stand still); value/10 for the others. */
static const int hidden_bonus[ST_NKINDS] = {
    0, 15, 2, 4, 3, 5, 8, 25, 45, 100, 150, 4, 0, 0,
};



static int worth(const stx_eval *x, int kind, int shown)
{
    int w = stx_value[kind];
    if (!shown)
        w += (x->features & STX_F_HIDDEN) ? hidden_bonus[kind] : stx_value[kind] / 10;
    return w;
}

/* What an enemy piece of kind k is worth while we do not know it: its
 * worth unshown, and as much again for what knowing it is worth to us
 * (where the Marshal is, which piece is no Bomb), so that finding out
 * pays: a Scout that runs into an unknown piece buys that. */
static int unknown_worth(const stx_eval *x, int kind)
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

static int unmoved_worth(const stx_eval *x, int kind, int ply)
{
    if (!(x->features & STX_F_HIDDEN))
        return worth(x, kind, 0);
    int f = ply < UNMOVED_RAMP ? ply * 256 / UNMOVED_RAMP : 256;
    if (f < 32)
        f = 32;
    return worth(x, kind, 0) + hidden_bonus[kind] * f / 256;
}


/* What the evaluation counts the enemy piece of unknown rank on cell c
 * (marks v) for: a Scout's worth if it ran, else its expected worth under
 * the belief, as a mover if it moved. */
static inline int counted_worth(const stx_eval *x, const stx_node *n, int c, uint8_t v)
{
    return (v & ST_SCOUTED) ? x->scout_worth : x->ev[n->home[c]][(v & ST_MOVED) != 0];
}

void stx_kind_gap(const stx_eval *x, const stx_node *n, int c, int kind, int *hidden, int *shown)
{
    uint8_t v = n->p.sq[c];
    int now = counted_worth(x, n, c, v);
    *hidden = ((v & (ST_SCOUTED | ST_MOVED)) ? unknown_worth(x, kind)
                                             : unmoved_worth(x, kind, x->ply)) - now;
    *shown = worth(x, kind, 1) - now;
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

/* STX_F_DIG: from ply STX_DIG_PLY, our nearest Scout to Lieutenant is
 * pulled DIG_PULL a step towards the likeliest enemy Flag, and our nearest
 * Miner PRESS_MINER, by the steps around the lakes; our Scouts and Miners
 * that never moved count as still no more (root_rules.c lets our Scouts
 * and Sergeants attack still pieces). Against the outside AI, 22 of 40
 * games were drawn by the move limit; in 21 of them we still had Miners,
 * the nearest 6 to 18 steps from its Flag at the end, and in 19 they had
 * opened no Bomb; its Flag stood beside an empty square in 6. */
#define DIG_PULL 6
/* ... and a piece whose every step closer is onto a piece of ours counts
 * DIG_BOXED steps further: our army stands still around it (in those
 * games our Miners were walled in by our own still pieces), and stepping
 * one of those aside is the way out. */
#define DIG_BOXED 4

static int boxed(const stx_eval *x, const uint8_t *sq, int c)
{
    static const int step[4] = { 1, -1, 12, -12 };
    for (int i = 0; i < 4; i++) {
        int t = c + step[i];
        uint8_t v = sq[t];
        if (v != ST_WALL && x->to_target[t] < x->to_target[c] &&
            (!ST_IS_PIECE(v) || ST_SIDE(v) != x->us))
            return 0;
    }
    return 1;
}

static int still_worth(int side, int cell)
{
    int r = ST_ROW(cell), depth = side == ST_RED ? 3 - r : r - 6;  /* 0 front .. 3 back */
    return depth < 0 ? 0 : STILL_FRONT + STILL_STEP * depth;
}

static int danger_of(const stx_eval *x, const stx_node *n, int c, uint8_t v, int k)
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

/* 1 if one of our movers, the strongest of kind `top` (and our Spy if
 * `spy`), beats an enemy mover of kind kq: between movers only rank
 * counts (S5), but for the Spy against the Marshal. */
static int ours_take(int top, int spy, int kq)
{
    return st_combat(top, kq) == ST_ATTACKER_WINS ||
           (spy && st_combat(ST_SPY, kq) == ST_ATTACKER_WINS);
}

/* Material (unknown pieces at their expected worth), the last movers, the
 * Spy's and the Miners' jobs, the danger to our Flag, the pull of our
 * nearest piece and nearest Miner towards the likeliest square of the
 * enemy Flag, of our best hunt, and of trades for the side ahead. For the
 * side to move; one pass over the board (and the hunt over our movers
 * and the enemy's shown ones). mat gets each side's material. */
static int evaluate_with(const stx_eval *x, const stx_node *n, int mat[2])
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
                mat[s] += counted_worth(x, n, c, v);
                if (v & ST_SCOUTED) {
                    movers[s] += 256;
                } else {
                    movers[s] += (v & ST_MOVED) ? 256 : x->mov[h];
                    miners[s] += x->miner[h];
                }
                continue;
            }
        }
        mat[s] += worth(x, k, (v & ST_REVEALED) != 0);
        if (!st_movable(k))
            continue;
        if (s == us && !(v & ST_MOVED) && (x->features & STX_F_STILL) &&
            !(x->dig && (k == ST_SCOUT || k == ST_MINER)))
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
            int d = x->dig ? x->to_target[c] + (boxed(x, sq, c) ? DIG_BOXED : 0) : st_steps(c, t);
            if (d < near && (!x->dig || (k >= ST_SCOUT && k <= ST_LIEUTENANT && k != ST_MINER)))
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
    if (x->features & STX_F_DOMINANT)
        for (int i = 0; i < nprey; i++) {
            int kq = ST_KIND(sq[prey[i]]);
            if (!ours_take(top, spy, kq))
                score[them] += stx_value[kq] / 2;
        }
    if (nprey > 0 || nblind > 0) {
        /* the best of worth * (10 - steps) over the hunters that win; a
         * target whose worth * 9 (one step, the nearest there is) is no
         * better than the best so far is passed over */
        int best = 0, hrow[ST_ARMY], hfile[ST_ARMY], hkind[ST_ARMY];
        for (int j = 0; j < nhunters; j++) {
            hrow[j] = ST_ROW(hunter[j]);
            hfile[j] = ST_FILE(hunter[j]);
            hkind[j] = ST_KIND(sq[hunter[j]]);
        }
        for (int i = 0; i < nprey; i++) {
            int kq = ST_KIND(sq[prey[i]]), worth_of = stx_value[kq];
            if (worth_of * 9 <= best || !ours_take(top, spy, kq))
                continue;  /* no better, or none of ours beats it */
            int r = ST_ROW(prey[i]), f = ST_FILE(prey[i]);
            for (int j = 0; j < nhunters; j++) {
                int d = abs(hrow[j] - r) + abs(hfile[j] - f), w = worth_of * (10 - d);
                if (d < 10 && w > best && st_combat(hkind[j], kq) == ST_ATTACKER_WINS)
                    best = w;
            }
        }
        for (int i = 0; i < nblind; i++) {
            int c = blind[i];
            int worth_of = (sq[c] & ST_SCOUTED) ? x->scout_worth : x->ev[n->home[c]][1];
            if (worth_of * 9 <= best)
                continue;
            int r = ST_ROW(c), f = ST_FILE(c);
            for (int j = 0; j < nhunters; j++) {
                int d = abs(hrow[j] - r) + abs(hfile[j] - f), w = worth_of * (10 - d);
                if (d < 10 && w > best && hkind[j] > left)
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
        score[us] -= (x->dig ? DIG_PULL : 4) * near;
    if (near_miner < 99)
        score[us] -= (x->press || x->dig ? PRESS_MINER : 3) * near_miner;
    /* The side ahead gains by trades: its lead counts more, by up to
     * 1/TRADE, as the board empties (and the side behind loses by them). */
    int total = mat[0] + mat[1];
    if (total < x->full)
        score[us] += (mat[us] - mat[them]) * (x->full - total) / (TRADE * x->full);
    return n->p.stm == us ? score[us] - score[them] : score[them] - score[us];
}

int stx_evaluate(const stx_eval *x, const stx_node *n)
{
    int mat[2] = { 0, 0 };
    return evaluate_with(x, n, mat);
}


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

void stx_eval_prepare(stx_eval *x, const st_belief *bl, unsigned features, const st_pos *view,
                      stx_node *root)
{
    memset(x, 0, sizeof *x);
    x->bl = bl;
    x->features = features;
    x->us = view->stm;
    x->ply = view->ply;
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
    x->dig = (x->features & STX_F_DIG) && view->ply >= STX_DIG_PLY && x->target;
    if (x->dig)
        steps_to(view, x->target, x->us, 1, x->to_target);
    x->enemy_miners = x->bl->pool[ST_MINER] > 0;
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
        uint8_t v = view->sq[c];
        if (ST_IS_PIECE(v) && ST_SIDE(v) != x->us && ST_KIND(v) == ST_MINER)
            x->enemy_miners = 1;
    }
    for (int k = ST_SPY; k <= ST_FLAG; k++)
        x->full += 2 * st_army[k] * worth(x, k, 0);
    int mat[2] = { 0, 0 };
    evaluate_with(x, root, mat);
    x->press = mat[x->us] - mat[x->us ^ 1] >= PRESS_LEAD;
}

