/* rules.c -- the ends of a Rampart game (R6, R7, R8).
 *
 * R7 is checked after every move, in order: no capture relationship left
 * (no-captures), the side behind cannot get level (insufficient), the move
 * limit (move-limit), the side to move has no move (no-moves). The first
 * two change only when a piece leaves the board, so make() caches them in
 * rp_pos.status; the others are read from the position when asked.
 */
#include "../../base/bits.h"
#include "rampart.h"

static const char *const reason_names[] = { "", "no-captures", "insufficient", "move-limit",
                                            "no-moves" };

const char *rp_reason_name(int reason)
{
    if (reason < 0 || reason > RP_R_NO_MOVES)
        return "";
    return reason_names[reason];
}

int rp_material(const rp_pos *pos, int side)
{
    return bits_count(pos->pc[side][RP_QUEEN] | pos->pc[side][RP_KNIGHT] |
                      pos->pc[side][RP_KING]);
}

static int by_material(const rp_pos *pos)
{
    int b = rp_material(pos, RP_BOTTOM), t = rp_material(pos, RP_TOP);
    return b > t ? RP_WIN_BOTTOM : t > b ? RP_WIN_TOP : RP_DRAW;
}

uint8_t rp_material_status(const rp_pos *pos)
{
    int n[2][3];
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < 3; t++)
            n[s][t] = bits_count(pos->pc[s][t]);
    /* R7.1: does either side have an attacker whose prey the other has? */
    int relation = 0;
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < 3; t++)
            if (n[s][t] && n[s ^ 1][rp_prey[t]])
                relation = 1;
    if (!relation)
        return RP_END(by_material(pos), RP_R_NO_CAPTURES);
    /* R7.2: can the side behind take enough to get level? */
    int mb = rp_material(pos, RP_BOTTOM), mt = rp_material(pos, RP_TOP);
    if (mb != mt) {
        int low = mb < mt ? RP_BOTTOM : RP_TOP, high = low ^ 1;
        int most = 0;
        for (int t = 0; t < 3; t++)
            if (n[low][t])
                most += n[high][rp_prey[t]];
        if (rp_material(pos, high) - most > rp_material(pos, low))
            return RP_END(high == RP_BOTTOM ? RP_WIN_BOTTOM : RP_WIN_TOP, RP_R_INSUFFICIENT);
    }
    return RP_ONGOING;
}

uint8_t rp_end(const rp_pos *pos)
{
    if (pos->status)
        return pos->status;
    if (pos->move_limit && pos->fullmove > pos->move_limit)
        return RP_END(by_material(pos), RP_R_MOVE_LIMIT);
    if (rp_count(pos) == 0)
        return RP_END(by_material(pos), RP_R_NO_MOVES);
    return RP_ONGOING;
}

int rp_over(const rp_pos *pos)
{
    return rp_end(pos) != RP_ONGOING;
}

static game_result from_end(uint8_t end)
{
    game_result r = { 0, -1, "" };
    if (!end)
        return r;
    r.over = 1;
    int o = RP_END_OUTCOME(end);
    r.winner = o == RP_WIN_BOTTOM ? RP_BOTTOM : o == RP_WIN_TOP ? RP_TOP : -1;
    r.reason = rp_reason_name(RP_END_REASON(end));
    return r;
}

game_result rp_result(const rp_pos *pos)
{
    return from_end(rp_end(pos));
}

int rp_sterile(const rp_pos *start, const rp_pos *pos)
{
    return rp_material(start, RP_BOTTOM) == rp_material(pos, RP_BOTTOM) &&
           rp_material(start, RP_TOP) == rp_material(pos, RP_TOP);
}

game_result rp_timeout(const rp_pos *start, const rp_pos *pos, int side)
{
    game_result r = rp_result(pos);
    if (r.over)  /* the material decision came first */
        return r;
    r.over = 1;
    r.reason = "time";
    r.winner = rp_sterile(start, pos) ? -1 : side ^ 1;
    return r;
}
