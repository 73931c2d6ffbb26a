/* move.c -- making moves (R4 capture, R5 enclosure), move text, perft.
 *
 * make() order, as R5 demands: the piece moves; a direct capture removes the
 * enemy piece on the target square; then every enemy piece whose four
 * orthogonal neighbours all exist and all hold the mover's pieces is removed,
 * all at once. The mover's own pieces are never checked on its move, so a
 * piece that stepped into a cage survives until the opponent's next move.
 *
 * Enclosure is computed for the whole board with four shifts: a square is
 * enclosed when its north, south, east and west neighbours are all in the
 * mover's occupancy. Edge squares lack a neighbour and never qualify.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../base/bits.h"
#include "rampart.h"

#ifdef CITADEL_DEBUG
#define POS_CHECK(pos) assert(rp_pos_ok(pos))
#else
#define POS_CHECK(pos) ((void)0)
#endif

void rp_make(rp_pos *pos, game_move m)
{
    const rp_geom *g = pos->g;
    const int us = pos->stm, them = us ^ 1;
    const int from = RP_FROM(m), to = RP_TO(m), type = RP_TYPE(m);
    const uint64_t fb = bits_sq(from), tb = bits_sq(to);
    uint64_t key = pos->key ^ g->zob[us][type][from] ^ g->zob[us][type][to] ^ g->zside;
    int taken = 0;

    pos->pc[us][type] ^= fb | tb;
    pos->occ[us] ^= fb | tb;
    if (RP_CAP(m)) {
        int victim = rp_prey[type];
        pos->pc[them][victim] ^= tb;
        pos->occ[them] ^= tb;
        key ^= g->zob[them][victim][to];
        taken = 1;
    }
    const uint64_t mine = pos->occ[us];
    uint64_t caged = pos->occ[them] & (mine >> g->w) & (mine << g->w) &
                     ((mine & g->not_first) >> 1) & ((mine & g->not_last) << 1);
    if (caged) {
        for (int t = 0; t < RP_NTYPES; t++) {
            uint64_t e = pos->pc[them][t] & caged;
            pos->pc[them][t] ^= e;
            while (e)
                key ^= g->zob[them][t][bits_pop(&e)];
        }
        pos->occ[them] ^= caged;
        taken = 1;
    }
    pos->key = key;
    pos->stm = (uint8_t)them;
    if (us == RP_TOP)
        pos->fullmove++;
    if (taken)
        pos->status = rp_material_status(pos);
    POS_CHECK(pos);
}

int rp_parse_move(const rp_pos *pos, const char *text, game_move *m, game_error *err)
{
    const rp_geom *g = pos->g;
    size_t len = strlen(text);
    int from, to;
    if (len == 4) {
        from = rp_parse_square(g, text);
        to = rp_parse_square(g, text + 2);
    } else if (len == 5 && (text[2] == '-' || text[2] == 'x')) {
        from = rp_parse_square(g, text);
        to = rp_parse_square(g, text + 3);
    } else {
        return game_fail(err, "malformed move '%.20s' (write it as c4c5)", text);
    }
    if (from < 0 || to < 0)
        return game_fail(err, "malformed move '%.20s': no such square on a %dx%d board", text, g->w,
                    g->h);
    uint8_t end = rp_end(pos);
    if (end) {
        game_result r = rp_result(pos);
        return game_fail(err, "illegal move %s: the game is over (%s %s)", text,
                    r.winner < 0 ? "draw" : r.winner == RP_BOTTOM ? "bottom" : "top", r.reason);
    }
    if (!((pos->occ[pos->stm] >> from) & 1))
        return game_fail(err, "illegal move %s: no %s piece on %.2s", text,
                    pos->stm == RP_BOTTOM ? "Bottom" : "Top", text);
    game_move list[RP_MAX_MOVES];
    int n = rp_gen(pos, list);
    for (int i = 0; i < n; i++) {
        if (RP_FROM(list[i]) == from && RP_TO(list[i]) == to) {
            *m = list[i];
            return 0;
        }
    }
    return game_fail(err, "illegal move %s", text);
}

size_t rp_format_move(const rp_pos *pos, game_move m, char *buf, size_t size)
{
    char a[3], b[3];
    rp_square_name(pos->g, RP_FROM(m), a);
    rp_square_name(pos->g, RP_TO(m), b);
    return (size_t)snprintf(buf, size, "%s%s", a, b);
}

static int stopped(const rp_pos *pos)
{
    return pos->status || (pos->move_limit && pos->fullmove > pos->move_limit);
}

uint64_t rp_perft(const rp_pos *pos, int depth)
{
    if (depth <= 0)
        return 1;
    if (stopped(pos))
        return 0;
    if (depth == 1)
        return (uint64_t)rp_count(pos);
    game_move list[RP_MAX_MOVES];
    int n = rp_gen(pos, list);
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        rp_pos child = *pos;
        rp_make(&child, list[i]);
        nodes += rp_perft(&child, depth - 1);
    }
    return nodes;
}
