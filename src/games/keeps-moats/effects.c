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
 * that changed owner (Gained) is neither taken nor removed. The threats
 * are km_effects' captures of every such move, found without playing the
 * moves that cannot assassinate (tests/unit/test_effects.c compares them).
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
        /* what km_effects reports as taken, without playing every move: the
         * square a move lands on holds another kingdom's piece (read off
         * the board, as km_effects does), or an assassination's victim
         * leaves the board (km_make says so) */
        for (int i = 0; i < n; i++) {
            game_move m = moves[i];
            if ((m & KM_PASS) || KM_IS_RESIGN(m))
                continue;
            int from = KM_FROM(m), to = KM_TO(m);
            if (turn.sq[to] && KM_OWNER(turn.sq[to]) != KM_OWNER(turn.sq[from]))
                attacked[to] = 1;
            int victim = KM_ARG(m);
            if (KM_KIND(m) == KM_ASSASSINATE && turn.sq[victim] && !attacked[victim]) {
                km_pos after = turn;
                km_make(&after, m);
                if (!after.sq[victim])
                    attacked[victim] = 1;
            }
        }
    }
    int n = 0;
    for (int s = 0; s < KM_NSQ && n < max; s++)
        if (attacked[s])
            km_square_name(s, out[n++]);
    return n;
}
