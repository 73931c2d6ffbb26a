/* rules.c -- sides, teams and the end of the game (K3, K6).
 *
 * Teams are numbered by their lowest-numbered kingdom: in Allied Neighbors
 * White+Blue are team 0 and Red+Black team 1; in Crossroad Allies
 * White+Black team 0 and Red+Blue team 1; in Anarchy each kingdom is its
 * own team. game_result.winner is such a team number.
 */
#include <stdio.h>

#include "keeps_moats.h"

int km_team(int game_type, int k)
{
    switch (game_type) {
    case KM_NEIGHBORS:
        return k == KM_WHITE || k == KM_BLUE ? KM_WHITE : KM_RED;
    case KM_CROSSROAD:
        return k & 1;
    default:
        return k;
    }
}

int km_friends(int game_type, int a, int b)
{
    return km_team(game_type, a) == km_team(game_type, b);
}

int km_capturable(const km_pos *pos, int by, uint8_t p)
{
    if (!p)
        return 0;
    int o = KM_OWNER(p);
    return !km_friends(pos->game_type, by, o) && !(pos->out >> o & 1);
}

/* K6: over when every kingdom still in is of one team; then the move
 * limit. Returns the winning team, -1 for a draw, -2 while ongoing. */
static int end_of(const km_pos *pos, const char **reason)
{
    int team = -1;
    for (int k = 0; k < KM_NK; k++) {
        if (pos->out >> k & 1)
            continue;
        int t = km_team(pos->game_type, k);
        if (team < 0)
            team = t;
        else if (team != t) {
            team = -2;
            break;
        }
    }
    if (team >= 0) {
        *reason = "kings";
        return team;
    }
    if (pos->limit > 0 && pos->round > pos->limit) {
        *reason = "move-limit";
        return -1;
    }
    *reason = "";
    return -2;
}

int km_over(const km_pos *pos)
{
    const char *reason;
    return end_of(pos, &reason) != -2;
}

game_result km_result(const km_pos *pos)
{
    game_result r;
    const char *reason;
    int e = end_of(pos, &reason);
    r.over = e != -2;
    r.winner = r.over ? e : -1;
    r.reason = reason;
    return r;
}

const char *km_side_name(int k)
{
    static const char *const names[KM_NK] = { "white", "red", "black", "blue" };
    return k >= 0 && k < KM_NK ? names[k] : "?";
}

size_t km_result_text(const km_pos *pos, char *buf, size_t size)
{
    game_result r = km_result(pos);
    if (!r.over)
        return (size_t)snprintf(buf, size, "ongoing");
    if (r.winner < 0)
        return (size_t)snprintf(buf, size, "draw %s", r.reason);
    char names[40] = "";
    size_t n = 0;
    for (int k = 0; k < KM_NK; k++)
        if (km_team(pos->game_type, k) == r.winner)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? "+" : "",
                                  km_side_name(k));
    return (size_t)snprintf(buf, size, "%s %s", names, r.reason);
}
