/* effects.c -- what a Rampart move does, as structure for the page
 * (game_ops.effects), and which pieces stand attacked (game_ops.threats).
 *
 * Both are read off the engine's own moves, never re-derived: effects
 * plays the move on a copy and compares, so the squares it reports are
 * exactly what rp_make removed (R4's capture on the target square, R5's
 * enclosures elsewhere); threats are the enemy squares among rp_targets
 * of each piece, the captures R4 allows either side on its next move, and
 * the pieces rp_encloses says one of its moves would cage (R5).
 */
#include <stdio.h>
#include <string.h>

#include "../../base/bits.h"
#include "rampart.h"

static void add(char (*list)[GAME_SQUARE_NAME], int *n, const rp_geom *g, int sq)
{
    if (*n < GAME_EFFECT_SQUARES)
        rp_square_name(g, sq, list[(*n)++]);
}

void rp_effects(const rp_pos *pos, game_move m, game_effects *out)
{
    const rp_geom *g = pos->g;
    memset(out, 0, sizeof *out);
    int from = RP_FROM(m), to = RP_TO(m), them = pos->stm ^ 1;
    rp_square_name(g, from, out->from);
    rp_square_name(g, to, out->to);
    rp_pos after = *pos;
    rp_make(&after, m);
    if ((pos->occ[them] >> to) & 1)
        add(out->captured, &out->ncaptured, g, to);
    uint64_t gone = pos->occ[them] & ~after.occ[them] & ~(1ull << to);
    while (gone)
        add(out->removed, &out->nremoved, g, bits_pop(&gone));
}

int rp_threats(const rp_pos *pos, char (*out)[GAME_SQUARE_NAME], int max)
{
    uint64_t attacked = 0;
    for (int s = 0; s < 2; s++) {
        for (int t = 0; t < RP_NTYPES; t++)
            for (uint64_t b = pos->pc[s][t]; b;)
                attacked |= rp_targets(pos, s, t, bits_pop(&b)) & pos->occ[s ^ 1];
        /* and what side s could enclose (R5), were it its move */
        rp_pos turn = *pos;
        turn.stm = (uint8_t)s;
        game_move moves[RP_MAX_MOVES];
        int n = rp_gen(&turn, moves);
        for (int i = 0; i < n; i++)
            attacked |= rp_encloses(&turn, moves[i]);
    }
    int n = 0;
    while (attacked && n < max)
        rp_square_name(pos->g, bits_pop(&attacked), out[n++]);
    return n;
}
