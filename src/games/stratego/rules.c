/* rules.c -- the ends of a game (S7) and what each player sees (S8).
 *
 * result() checks, in order: a side without its Flag has lost ("flag"; in a
 * view, an enemy piece of unknown rank may be the Flag); the move limit
 * ("move-limit", a draw once `ply` reaches it); the side to move has no
 * legal move and loses ("no-moves"). The move limit comes before the last
 * check because a game ended by it has no further turn to start.
 * st_legal is st_gen (movegen.c) cut off by those ends.
 *
 * Layering: of the move files it calls movegen.c alone; move.c calls it.
 */
#include <string.h>

#include "stratego.h"

static int may_have_flag(const st_pos *pos, int side)
{
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
        uint8_t v = pos->sq[c];
        if (ST_IS_PIECE(v) && ST_SIDE(v) == side &&
            (ST_KIND(v) == ST_FLAG || ST_KIND(v) == ST_UNKNOWN))
            return 1;
    }
    return 0;
}

int st_board_end(const st_pos *pos, int *winner)
{
    int w = -1, end = ST_ONGOING;
    if (!may_have_flag(pos, ST_BLUE)) {
        w = ST_RED;
        end = ST_END_FLAG;
    } else if (!may_have_flag(pos, ST_RED)) {
        w = ST_BLUE;
        end = ST_END_FLAG;
    } else if (pos->move_limit && pos->ply >= pos->move_limit) {
        end = ST_END_MOVE_LIMIT;
    }
    if (winner)
        *winner = w;
    return end;
}

int st_legal(const st_pos *pos, game_move *out)
{
    if (st_board_end(pos, NULL) != ST_ONGOING)
        return 0;
    return st_gen(pos, out);
}

game_result st_result(const st_pos *pos)
{
    game_result r = { 0, -1, "" };
    int w;
    int end = st_board_end(pos, &w);
    if (end == ST_ONGOING) {
        game_move list[ST_MAX_MOVES];
        if (st_gen(pos, list) > 0)
            return r;
        end = ST_END_NO_MOVES;
        w = pos->stm ^ 1;
    }
    r.over = 1;
    r.winner = w;
    r.reason = end == ST_END_FLAG ? "flag" : end == ST_END_MOVE_LIMIT ? "move-limit" : "no-moves";
    return r;
}

int st_over(const st_pos *pos)
{
    return st_result(pos).over;
}

game_result st_timeout(const st_pos *pos, int side)
{
    game_result r = st_result(pos);
    if (r.over)
        return r;
    r.over = 1;
    r.winner = side ^ 1;
    r.reason = "time";
    return r;
}

void st_view(const st_pos *pos, int side, st_pos *out)
{
    *out = *pos;
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
        uint8_t v = out->sq[c];
        if (ST_IS_PIECE(v) && ST_SIDE(v) != side && !(v & ST_REVEALED))
            out->sq[c] = (uint8_t)((v & ~15u) | ST_UNKNOWN);
    }
}

int st_count(const st_pos *pos, int side)
{
    int n = 0;
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++)
        if (ST_IS_PIECE(pos->sq[c]) && ST_SIDE(pos->sq[c]) == side)
            n++;
    return n;
}
