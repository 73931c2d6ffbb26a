/* effects.c -- what a Keeps & Moats move does, as structure for the page
 * (game_ops.effects): its squares, the pieces it took (the mover's
 * prisoners now: on the square it lands on, K4, or the one a Pawn in an
 * enemy Keep assassinates, K5) and the pieces it removed elsewhere (a King
 * taken or resigned under the Lost or Gained Captured King Result, K6);
 * and which pieces stand attacked (game_ops.threats): those some move of
 * another kingdom still in would take, were it that kingdom's turn.
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

int km_threats(const km_pos *pos, char (*out)[GAME_SQUARE_NAME], int max)
{
    if (km_over(pos))
        return 0;
    uint8_t attacked[KM_NSQ] = {0};
    for (int k = 0; k < KM_NK; k++) {
        if (pos->out >> k & 1)
            continue;
        km_pos turn = *pos;  /* kingdom k's moves, were it its turn */
        turn.stm = (uint8_t)k;
        game_move moves[GAME_MAX_MOVES];
        int n = km_gen(&turn, moves);
        for (int i = 0; i < n; i++) {
            game_effects e;
            km_effects(&turn, moves[i], &e);
            for (int c = 0; c < e.ncaptured; c++) {
                int sq = km_parse_square(e.captured[c], strlen(e.captured[c]));
                if (sq >= 0)
                    attacked[sq] = 1;
            }
        }
    }
    int n = 0;
    for (int s = 0; s < KM_NSQ && n < max; s++)
        if (attacked[s])
            km_square_name(s, out[n++]);
    return n;
}
