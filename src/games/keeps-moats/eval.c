/* eval.c -- what a Keeps & Moats position is worth to each kingdom (for
 * the bots; the rules never look here).
 *
 * km_eval writes one value per kingdom: 0 for a kingdom that is out, else
 * a fixed worth for being alive plus its material on the board, plus its prospects (own pieces held by others
 * that a Pawn could still release), plus or minus what the kingdom to move
 * can do at once: it may take the most valuable piece it attacks, and every
 * other kingdom's pieces it attacks are at risk (a King above all). King
 * shelter and pressure on enemy Keeps (Pawns on enemy Moats, pieces inside
 * enemy Keeps, enemies inside one's own) complete it. A style's weights
 * scale these terms.
 */
#include <stdlib.h>

#include "keeps_moats.h"

#define KM_ALIVE 4000

const int km_piece_value[KM_NTYPES] = { 0, 2000, 900, 500, 320, 300, 100, 150 };

const km_style km_styles[3] = {
    /* Aggressive: hunts Kings and Keeps, cares little for its own. */
    { .threat = 60, .hang = 30, .king_threat = 1200, .shelter = 10, .moat_pawn = 60,
      .inside = 80, .intruder = 20, .prisoner = 15 },
    /* Balanced. */
    { .threat = 45, .hang = 45, .king_threat = 1800, .shelter = 20, .moat_pawn = 40,
      .inside = 50, .intruder = 40, .prisoner = 15 },
    /* Defensive: its King and Keep first. */
    { .threat = 30, .hang = 60, .king_threat = 2400, .shelter = 35, .moat_pawn = 20,
      .inside = 30, .intruder = 70, .prisoner = 15 },
};

int km_move_gain(const km_pos *pos, game_move m)
{
    if (m == KM_PASS)
        return 0;
    int gain = km_piece_value[KM_TYPE(pos->sq[KM_TO(m)])];
    if (pos->sq[KM_TO(m)] && KM_OWNER(pos->sq[KM_TO(m)]) == pos->stm)
        gain = 0;  /* castling */
    if (KM_KIND(m) == KM_ASSASSINATE)
        gain += km_piece_value[KM_TYPE(pos->sq[KM_ARG(m)])];
    if (KM_KIND(m) == KM_RELEASE)
        gain += km_piece_value[KM_TYPE(KM_ARG(m))];
    return gain;
}

void km_eval(const km_pos *pos, const km_style *w, int out[KM_NK])
{
    const km_geom *g = km_geom_get();
    int king_sq[KM_NK] = { -1, -1, -1, -1 };
    for (int k = 0; k < KM_NK; k++)
        out[k] = 0;
    for (int s = 0; s < KM_NSQ; s++) {
        uint8_t p = pos->sq[s];
        if (!p)
            continue;
        int o = KM_OWNER(p), t = KM_TYPE(p);
        if (pos->out >> o & 1)
            continue;
        /* The King is the kingdom's life: worth more than all its pieces. */
        out[o] += t == KM_KING ? KM_ALIVE : km_piece_value[t];
        if (t == KM_KING)
            king_sq[o] = s;
        int r = g->realm[s];
        if (r >= 0 && r != o && !km_friends(pos->game_type, o, r)) {
            if (g->zone[s] == KM_MOAT && (t == KM_PAWN || t == KM_CASTLE))
                out[o] += w->moat_pawn;
            else if (g->zone[s] == KM_KEEP)
                out[o] += w->inside;
            if (!(pos->out >> r & 1))
                out[r] -= w->intruder;
        }
    }
    /* Own majors held by others: a Pawn may bring them back. */
    for (int h = 0; h < KM_NK; h++)
        for (int o = 0; o < KM_NK; o++)
            for (int t = KM_QUEEN; t <= KM_KNIGHT; t++)
                out[o] += pos->pris[h][o][t] * km_piece_value[t] * w->prisoner / 100;
    /* King shelter: own pieces next to the King. */
    for (int k = 0; k < KM_NK; k++) {
        if (king_sq[k] < 0)
            continue;
        for (int d = 0; d < 8; d++) {
            int t = g->step[king_sq[k]][d];
            if (t >= 0 && pos->sq[t] && KM_OWNER(pos->sq[t]) == k)
                out[k] += w->shelter;
        }
    }
    /* What the kingdom to move threatens now. */
    if (!km_over(pos)) {
        game_move list[KM_MAX_MOVES];
        int n = km_gen(pos, list), best = 0;
        int hit[KM_NK] = { 0 }, king_hit[KM_NK] = { 0 };
        uint8_t seen[KM_NSQ] = { 0 };
        for (int i = 0; i < n; i++) {
            int gain = km_move_gain(pos, list[i]);
            if (gain > best)
                best = gain;
            int to = KM_TO(list[i]);
            uint8_t q = pos->sq[to];
            if (!q || KM_OWNER(q) == pos->stm || seen[to])
                continue;
            seen[to] = 1;
            if (KM_TYPE(q) == KM_KING)
                king_hit[KM_OWNER(q)] = 1;
            else
                hit[KM_OWNER(q)] += km_piece_value[KM_TYPE(q)];
        }
        out[pos->stm] += best * w->threat / 100;
        for (int k = 0; k < KM_NK; k++) {
            out[k] -= hit[k] * w->hang / 100 / 2;
            if (king_hit[k])
                out[k] -= w->king_threat;
        }
    }
    for (int k = 0; k < KM_NK; k++)
        if (pos->out >> k & 1)
            out[k] = 0;
        else if (out[k] < 1)
            out[k] = 1;
}
