/* movegen.c -- the moves of S4 and the two-square rule of S6.
 *
 * Every piece but a Bomb or a Flag steps one square orthogonally onto an
 * empty square or an enemy; a Scout runs over empty squares and may stop on
 * any of them or attack the first enemy in line. Walls (the frame and the
 * lakes) and friends stop both. In a view, an enemy piece of unknown rank
 * moves as a Scout if it was seen to move as one, otherwise one square.
 *
 * S6: a side whose last three turns moved one piece A->B, B->A, A->B
 * (two_count == 3) may not play B->A next.
 *
 * The bottom of the engine's moves: it reads a position and calls no other
 * file of the game. rules.c (game ends, st_legal) builds on it, and
 * move.c (make, move text, perft) on both.
 */
#include "stratego.h"

static const int dirs[4] = { 12, -12, 1, -1 };

int st_two_square_banned(const st_pos *pos, int from, int to)
{
    int s = pos->stm;
    return pos->two_count[s] >= 3 && from == pos->two_to[s] && to == pos->two_from[s];
}

int st_gen(const st_pos *pos, game_move *out)
{
    const uint8_t *sq = pos->sq;
    const int us = pos->stm;
    int n = 0;
    for (int from = ST_CELL(0, 0); from <= ST_CELL(9, 9); from++) {
        uint8_t v = sq[from];
        if (!ST_IS_PIECE(v) || ST_SIDE(v) != us)
            continue;
        int kind = ST_KIND(v);
        if (kind == ST_BOMB || kind == ST_FLAG)
            continue;
        int runs = kind == ST_SCOUT || (kind == ST_UNKNOWN && (v & ST_SCOUTED));
        for (int d = 0; d < 4; d++) {
            int to = from + dirs[d];
            for (;;) {
                uint8_t t = sq[to];
                if (t == ST_WALL || (t != ST_EMPTY && ST_SIDE(t) == us))
                    break;
                if (!st_two_square_banned(pos, from, to))
                    out[n++] = ST_MOVE(from, to, t != ST_EMPTY);
                if (t != ST_EMPTY || !runs)
                    break;
                to += dirs[d];
            }
        }
    }
    return n;
}

int st_gen_attacks(const st_pos *pos, game_move *out)
{
    const uint8_t *sq = pos->sq;
    const int us = pos->stm;
    int n = 0;
    for (int from = ST_CELL(0, 0); from <= ST_CELL(9, 9); from++) {
        uint8_t v = sq[from];
        if (!ST_IS_PIECE(v) || ST_SIDE(v) != us)
            continue;
        int kind = ST_KIND(v);
        if (kind == ST_BOMB || kind == ST_FLAG)
            continue;
        int runs = kind == ST_SCOUT || (kind == ST_UNKNOWN && (v & ST_SCOUTED));
        for (int d = 0; d < 4; d++) {
            int to = from + dirs[d];
            while (runs && sq[to] == ST_EMPTY)
                to += dirs[d];
            uint8_t t = sq[to];
            if (ST_IS_PIECE(t) && ST_SIDE(t) != us && !st_two_square_banned(pos, from, to))
                out[n++] = ST_MOVE(from, to, 1);
        }
    }
    return n;
}
