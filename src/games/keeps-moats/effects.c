/* effects.c -- what a Keeps & Moats move does, as structure for the page
 * (game_ops.effects): its squares, the pieces it took (the mover's
 * prisoners now: on the square it lands on, K4, or the one a Pawn in an
 * enemy Keep assassinates, K5) and the pieces it removed elsewhere (a King
 * taken or resigned under the Lost or Gained Captured King Result, K6).
 *
 * Read off km_make itself: the move is played on a copy and the boards
 * compared, so what is reported is exactly what the rules did. A piece
 * that changed owner (Gained) is neither taken nor removed.
 */
#include <string.h>

#include "keeps_moats.h"

void km_effects(const km_pos *pos, game_move m, game_effects *out)
{
    memset(out, 0, sizeof *out);
    km_pos after = *pos;
    km_make(&after, m);
    int from = -1, to = -1;
    if (!(m & KM_PASS) && !KM_IS_RESIGN(m)) {
        from = KM_FROM(m);
        to = KM_TO(m);
        char a[4], b[4];
        km_square_name(from, a);
        km_square_name(to, b);
        memcpy(out->from, a, sizeof a);
        memcpy(out->to, b, sizeof b);
        if (pos->sq[to] && KM_OWNER(pos->sq[to]) != KM_OWNER(pos->sq[from]))
            memcpy(out->captured[out->ncaptured++], b, sizeof b);
    }
    int victim = !(m & KM_PASS) && !KM_IS_RESIGN(m) && KM_KIND(m) == KM_ASSASSINATE &&
                         pos->sq[KM_ARG(m)] && !after.sq[KM_ARG(m)]
                     ? KM_ARG(m)
                     : -1;
    if (victim >= 0)
        km_square_name(victim, out->captured[out->ncaptured++]);
    for (int s = 0; s < KM_NSQ && out->nremoved < GAME_EFFECT_SQUARES; s++)
        if (s != from && s != to && s != victim && pos->sq[s] && !after.sq[s])
            km_square_name(s, out->removed[out->nremoved++]);
}
