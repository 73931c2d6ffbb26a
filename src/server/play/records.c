/* records.c -- stored games read back: the record in PGN (written by
 * src/games/pgn.c, docs/pgn.md), every position for review, and the state
 * of a game no longer in memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../games/pgn.h"
#include "live_inside.h"
#include "../core/srv.h"

json_t *records_positions(srv *s, int64_t id, int *status, char *err, size_t errlen)
{
    live *mem = live_find(s, id);
    live *g = mem ? mem : live_load(s, id, err, errlen);
    if (!g) {
        *status = 404;
        return NULL;
    }
    json_t *out = NULL;
    if (g->setting_up || (g->v->hidden && !g->over)) {
        snprintf(err, errlen, "a game with hidden pieces is shown move by move once it is over");
        *status = 403;
    } else {
        const game_ops *ops = g->v->ops;
        _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
        memcpy(pos, g->start, ops->pos_size);
        json_t *list = json_array(), *effects = json_array();
        char buf[2048];
        ops->format(pos, buf, sizeof buf);
        json_array_append_new(list, json_string(buf));
        for (int i = 0; i < g->nmoves; i++) {
            game_move m;
            game_error ge;
            if (ops->parse_move(pos, g->moves[i].text, &m, &ge) != 0)
                break;
            json_t *e = live_effects_json(g->v, pos, m);
            json_array_append_new(effects, e ? e : json_null());
            ops->make(pos, m, undo);
            ops->format(pos, buf, sizeof buf);
            json_array_append_new(list, json_string(buf));
        }
        out = json_pack("{s:I, s:s, s:o, s:o}", "id", (json_int_t)g->id, "variant", g->v->name,
                        "positions", list, "effects", effects);
        *status = 200;
    }
    if (!mem)
        live_free(g);
    return out;
}

json_t *records_game_json(srv *s, int64_t id, const client *to, char *err, size_t errlen)
{
    live *g = live_load(s, id, err, errlen);
    if (!g)
        return NULL;
    json_t *j = live_state(g, to);
    live_free(g);
    return j;
}

/* --- records ----------------------------------------------------------------------- */

char *records_text(srv *s, int64_t id, const char *site_text, char *err, size_t errlen)
{
    live *mem = live_find(s, id);
    live *g = mem ? mem : live_load(s, id, err, errlen);
    if (!g)
        return NULL;
    const game_variant *v = g->v;
    char event[96], site[160], date[16], utc_time[16], gid[24], limit[16];
    snprintf(event, sizeof event, "%s %s game", v->title, g->g.rated ? "rated" : "casual");
    snprintf(site, sizeof site, "%s", site_text && site_text[0] ? site_text : "?");
    time_t t = (time_t)(g->g.created / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    strftime(utc_time, sizeof utc_time, "%H:%M:%S", &tm);
    snprintf(gid, sizeof gid, "%lld", (long long)g->id);
    snprintf(limit, sizeof limit, "%d", g->g.move_limit);
    int over = g->over || g->g.status != STORE_GAME_LIVE;
    pgn_tag extra[5] = { { "UTCDate", date }, { "UTCTime", utc_time }, { "GameId", gid },
                         { "Rated", g->g.rated ? "yes" : "no" } };
    int nextra = 4;
    if (over && g->g.status == STORE_GAME_OVER && g->g.winner < 0)
        extra[nextra++] = (pgn_tag){ "Sterile", g->g.sterile ? "yes" : "no" };
    /* The move limit as a tag where the position string does not carry it. */
    pgn_tag setting = { "MoveLimit", limit };
    int nsettings = 0;
    for (const game_option *o = v->options; o && o->name; o++)
        nsettings |= strcmp(o->name, "MoveLimit") == 0 && !o->in_position;
    const char **moves = malloc((size_t)(g->nmoves ? g->nmoves : 1) * sizeof *moves);
    int64_t *clocks = malloc((size_t)(g->nmoves ? g->nmoves : 1) * sizeof *clocks);
    char *buf = NULL;
    if (moves && clocks) {
        for (int i = 0; i < g->nmoves; i++) {
            moves[i] = g->moves[i].text;
            clocks[i] = g->moves[i].clock_ms;
        }
        pgn_game pg = {
            .v = v, .start = g->start, .moves = moves, .nmoves = g->nmoves,
            .clock_ms = g->g.base_ms > 0 ? clocks : NULL,
            .event = event, .site = site, .date = date, .round = "-",
            .base_ms = g->g.base_ms, .inc_ms = g->g.inc_ms,
            .over = over, .no_result = g->g.status == STORE_GAME_ABORTED,
            .hide_start = !g->g.start[0],
            .winner = g->g.winner, .reason = g->g.reason,
            .settings = nsettings ? &setting : NULL, .nsettings = nsettings,
            .extra = extra, .nextra = nextra,
        };
        for (int i = 0; i < v->nsides; i++)
            pg.players[i] = g->players[i].name;
        size_t need = pgn_write(&pg, NULL, 0);
        buf = malloc(need + 1);
        if (buf)
            pgn_write(&pg, buf, need + 1);
    }
    free(moves);
    free(clocks);
    if (!buf)
        snprintf(err, errlen, "out of memory");
    if (!mem)
        live_free(g);
    return buf;
}
