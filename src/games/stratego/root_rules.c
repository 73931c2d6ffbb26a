/* root_rules.c -- the rules that keep moves from the strongest search's
 * root (root_rules.h).
 *
 * Each rule is a test of one move on the view and the belief; a rule
 * applied keeps the moves it does not hold, unless it holds them all.
 * Only the root is filtered: below it, the threat of every move stays in
 * the tree.
 */
#include "root_rules.h"

/* Our top three ranks never attack a piece that never moved and may be a
 * Bomb (TOP_BOMB_ODDS under the belief), unless the belief gives it at
 * least TOP_FLAG_ODDS of being the Flag: a front-row piece taken is worth
 * less than the risk (a rule of strong players, and of `cautious`).
 * Without it, our Colonels, General and Marshal, mostly once shown in
 * combat, attacked never-moved pieces 0.5 times a game against
 * stratego-v1 (20 ms); with it, 0.1 (docs/stratego.md, "Fewer probes").
 * Applied at the root only: below it, the threat of such an attack stays
 * in the tree. Keeps every move if it would leave none. Returns the count
 * kept. */
#define TOP_FLAG_ODDS 0.33f
#define TOP_BOMB_ODDS 0.05f

static int top_rank_risk(const st_pos *view, const st_belief *bl, game_move m)
{
    int to = ST_TO(m), k = ST_KIND(view->sq[ST_FROM(m)]);
    uint8_t d = view->sq[to];
    if (!ST_ATTACK(m) || ST_KIND(d) != ST_UNKNOWN || (d & ST_MOVED) || bl->p[to][ST_FLAG] >= TOP_FLAG_ODDS)
        return 0;
    return k >= ST_COLONEL && k <= ST_MARSHAL && bl->p[to][ST_BOMB] >= TOP_BOMB_ODDS;
}

static int keep_top_ranks_back(const st_pos *view, const st_belief *bl, game_move *list, int count)
{
    int risky = 0;
    for (int i = 0; i < count; i++)
        risky += top_rank_risk(view, bl, list[i]);
    if (risky == count)
        return count;
    int kept = 0;
    for (int i = 0; i < count; i++)
        if (!top_rank_risk(view, bl, list[i]))
            list[kept++] = list[i];
    return kept;
}

/* STX_F_MARSHAL_SAFE: while the enemy Spy may be among its unknown
 * pieces, our Marshal, once shown in combat, ends no move (a capture
 * included) next to an unknown enemy piece the belief gives more than
 * SPY_ODDS of being the Spy. The search prices that risk at the piece's
 * chance of being the Spy, a few percent, which a capture outweighs; but
 * the enemy knows where its Spy stands and baits the shown Marshal next
 * to it: over 62 games lost to the outside AI (docs/stratego-peer.md,
 * "The outside AI") our Marshal died to an unknown Spy
 * 31 times, each time right after stepping next to it.
 *
 * STX_F_FEW_PROBES: no piece but a Miner attacks an unknown piece that
 * never moved, unless the belief gives it TOP_FLAG_ODDS of being the
 * Flag: such a piece threatens nothing while it stands, and the attacker
 * mostly dies for a rank shown (our Scouts ran into such pieces about four
 * times a game against the outside AI, and armies left without movers lost).
 *
 * Both apply at the root only, after keep_top_ranks_back, and only where
 * they leave a move. */
#define SPY_ODDS 0.005f

static int marshal_exposed(const st_pos *view, const st_belief *bl, game_move m)
{
    static const int step[4] = { 1, -1, 12, -12 };
    int from = ST_FROM(m), to = ST_TO(m);
    uint8_t a = view->sq[from];
    if (ST_KIND(a) != ST_MARSHAL || !(a & ST_REVEALED) || bl->pool[ST_SPY] == 0)
        return 0;
    for (int d = 0; d < 4; d++) {
        int c = to + step[d];
        uint8_t v = view->sq[c];
        if (c != from && ST_IS_PIECE(v) && ST_SIDE(v) != view->stm && ST_KIND(v) == ST_UNKNOWN &&
            bl->p[c][ST_SPY] > SPY_ODDS)
            return 1;
    }
    return 0;
}

static int blind_probe(const st_pos *view, const st_belief *bl, game_move m)
{
    int to = ST_TO(m), k = ST_KIND(view->sq[ST_FROM(m)]);
    uint8_t d = view->sq[to];
    return ST_ATTACK(m) && k != ST_MINER && ST_KIND(d) == ST_UNKNOWN && !(d & ST_MOVED) &&
           bl->p[to][ST_FLAG] < TOP_FLAG_ODDS;
}

/* The same, but from STX_DIG_PLY with STX_F_DIG our Scouts and Sergeants
 * may probe: late in the game only probes find the Flag (expect_eval.c). */
static int blind_probe_late(const st_pos *view, const st_belief *bl, game_move m)
{
    int k = ST_KIND(view->sq[ST_FROM(m)]);
    if (view->ply >= STX_DIG_PLY && (k == ST_SCOUT || k == ST_SERGEANT))
        return 0;
    return blind_probe(view, bl, m);
}

/* STX_F_APPROACH: our shown Miners to Majors do not attack an unknown
 * enemy piece whose last move brought it next to them: it came knowing
 * their rank, so it is most often stronger (the outside AI seldom
 * bluffs). Against it (120 games of level 6 at 20 ms), such attacks by
 * our shown Lieutenants won 1 of 27, Captains 9 of 53, Majors 23 of 58,
 * Miners and Sergeants 1 of 26: the search valued what the combat would
 * show of a likely Colonel or Marshal above the piece it spent. Our
 * Scouts still may (a Scout is spent to learn a rank), and our Colonels
 * and above (45 of 61 won by Colonels); and any of ours a piece that ran
 * (a Scout). */
static int attacks_approacher(const st_pos *view, const st_belief *bl, game_move m)
{
    (void)bl;
    int to = ST_TO(m), them = view->stm ^ 1;
    uint8_t a = view->sq[ST_FROM(m)], d = view->sq[to];
    int k = ST_KIND(a);
    if (!ST_ATTACK(m) || !(a & ST_REVEALED) || k < ST_MINER || k > ST_MAJOR ||
        ST_KIND(d) != ST_UNKNOWN || (d & ST_SCOUTED) || !view->two_from[them])
        return 0;  /* (one that ran is a Scout, which ours beat) */
    /* it moved last, so it came to ours: no step joins two squares that
     * are both next to ours */
    return view->two_to[them] == to;
}

/* Keeps the moves for which held(view, bl, move) is 0, if there is one;
 * else all. Returns the count kept. */
static int keep_unless(const st_pos *view, const st_belief *bl, game_move *list, int count,
                       int (*held)(const st_pos *, const st_belief *, game_move))
{
    int kept = 0;
    for (int i = 0; i < count; i++)
        kept += !held(view, bl, list[i]);
    if (kept == 0)
        return count;
    kept = 0;
    for (int i = 0; i < count; i++)
        if (!held(view, bl, list[i]))
            list[kept++] = list[i];
    return kept;
}

int stx_root_rules(const st_pos *view, const st_belief *bl, unsigned features, game_move *list,
                   int count)
{
    count = keep_top_ranks_back(view, bl, list, count);
    if (features & STX_F_MARSHAL_SAFE)
        count = keep_unless(view, bl, list, count, marshal_exposed);
    if (features & STX_F_FEW_PROBES)
        count = keep_unless(view, bl, list, count,
                            (features & STX_F_DIG) ? blind_probe_late : blind_probe);
    if (features & STX_F_APPROACH)
        count = keep_unless(view, bl, list, count, attacks_approacher);
    return count;
}
