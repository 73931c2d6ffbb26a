/* records.c -- stored games read back: the PGN-like record, every position
 * for review, and the state of a game no longer in memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "live_inside.h"
#include "server.h"

json_t *game_positions(srv *s, int64_t id, int *status, char *err, size_t errlen)
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

json_t *game_json_stored(srv *s, int64_t id, const client *to, char *err, size_t errlen)
{
    live *g = live_load(s, id, err, errlen);
    if (!g)
        return NULL;
    json_t *j = live_state(g, to);
    live_free(g);
    return j;
}

/* --- records ----------------------------------------------------------------------- */

static void append(char **buf, size_t *len, size_t *cap, const char *text)
{
    size_t n = strlen(text);
    if (*len + n + 1 > *cap) {
        size_t c2 = (*cap + n + 1) * 2;
        char *b = realloc(*buf, c2);
        if (!b)
            return;
        *buf = b;
        *cap = c2;
    }
    memcpy(*buf + *len, text, n + 1);
    *len += n;
}

/* A tag pair, [Name "value"], the value's quotes and backslashes escaped. */
static void tag(char **buf, size_t *len, size_t *cap, const char *name, const char *value)
{
    char line[512];
    int n = snprintf(line, sizeof line, "[%s \"", name);
    for (const char *c = value; *c && n < (int)sizeof line - 8; c++) {
        if (*c == '"' || *c == '\\')
            line[n++] = '\\';
        line[n++] = *c;
    }
    snprintf(line + n, sizeof line - (size_t)n, "\"]\n");
    append(buf, len, cap, line);
}

char *record_text(srv *s, int64_t id, char *err, size_t errlen)
{
    live *mem = live_find(s, id);
    live *g = mem ? mem : live_load(s, id, err, errlen);
    if (!g)
        return NULL;
    size_t len = 0, cap = 1024;
    char *buf = malloc(cap), val[256];
    if (!buf) {
        if (!mem)
            live_free(g);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    buf[0] = 0;
    tag(&buf, &len, &cap, "Game", g->v->title);
    tag(&buf, &len, &cap, "Variant", g->v->name);
    snprintf(val, sizeof val, "%lld", (long long)g->id);
    tag(&buf, &len, &cap, "Id", val);
    time_t t = (time_t)(g->g.created / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(val, sizeof val, "%Y.%m.%d", &tm);
    tag(&buf, &len, &cap, "Date", val);
    strftime(val, sizeof val, "%H:%M:%S", &tm);
    tag(&buf, &len, &cap, "Time", val);
    for (int i = 0; i < g->v->nsides; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s", g->v->ops->side_name(g->pos, i));
        name[0] = (char)(name[0] >= 'a' && name[0] <= 'z' ? name[0] - 'a' + 'A' : name[0]);
        tag(&buf, &len, &cap, name, g->players[i].name);
    }
    if (g->g.base_ms > 0)
        snprintf(val, sizeof val, "%lld+%lld", (long long)(g->g.base_ms / 1000),
                 (long long)(g->g.inc_ms / 1000));
    else
        snprintf(val, sizeof val, "-");
    tag(&buf, &len, &cap, "Clock", val);
    snprintf(val, sizeof val, "%d", g->g.move_limit);
    tag(&buf, &len, &cap, "MoveLimit", val);
    tag(&buf, &len, &cap, "Rated", g->g.rated ? "yes" : "no");
    if (!g->v->hidden || g->over)
        tag(&buf, &len, &cap, "Start", g->g.start);
    const char *result = "*";
    if (g->over && g->v->nsides == 2)
        result = g->g.winner < 0 ? "1/2-1/2" : g->g.winner == 0 ? "1-0" : "0-1";
    else if (g->over)
        result = g->g.winner < 0 ? "draw" : "won";
    tag(&buf, &len, &cap, "Result", result);
    if (g->over) {
        tag(&buf, &len, &cap, "Reason", g->g.reason);
        if (g->g.winner < 0)
            tag(&buf, &len, &cap, "Sterile", g->g.sterile ? "yes" : "no");
    }
    append(&buf, &len, &cap, "\n");
    int per = g->v->nsides;
    for (int i = 0; i < g->nmoves; i++) {
        if (i % per == 0) {
            snprintf(val, sizeof val, "%s%d.", i ? (i % (per * 8) == 0 ? "\n" : " ") : "",
                     i / per + 1);
            append(&buf, &len, &cap, val);
        }
        append(&buf, &len, &cap, " ");
        append(&buf, &len, &cap, g->moves[i].text);
    }
    snprintf(val, sizeof val, "%s%s\n", g->nmoves ? " " : "", result);
    append(&buf, &len, &cap, val);
    if (!mem)
        live_free(g);
    return buf;
}
