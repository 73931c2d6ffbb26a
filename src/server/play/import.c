/* import.c -- POST /api/games/import: a game from a PGN record, kept as a
 * finished game to look at and review (docs/api.md, "Importing a game").
 *
 * The invariant: a record is stored only whole and only once the reader
 * (src/games/pgn.h) has read it as one game and replayed every move
 * through the engine; anything else is answered 400 (429 past the quota)
 * and changes nothing, the quota included. The work is bounded: a record
 * of at most IMPORT_TEXT_MAX bytes and IMPORT_PLIES_MAX moves, replayed
 * once to check it and once more to write each move's text as the engine
 * writes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../games/pgn.h"
#include "../core/http.h"
#include "../core/identity.h"
#include "../core/quota.h"
#include "live.h"

#define IMPORT_TEXT_MAX (60 * 1024)
#define IMPORT_PLIES_MAX 4000
#define HOUR_MS (3600 * 1000LL)

/* The winning team a record gives when the board does not decide (a
 * resignation, a flag): its Result for two sides, its Outcome for more;
 * -1 for a draw or no result. */
static int recorded_winner(const pgn_record *r, const pgn_replayed *rp)
{
    const game_variant *v = rp->v;
    const game_ops *ops = v->ops;
    if (v->nsides == 2) {
        if (strcmp(r->result, "1-0") == 0)
            return ops->team_of(rp->start, 0);
        if (strcmp(r->result, "0-1") == 0)
            return ops->team_of(rp->start, 1);
        return -1;
    }
    const char *outcome = pgn_tag_of(r, "Outcome");
    if (!outcome)
        return -1;
    size_t n = strcspn(outcome, "+");
    for (int i = 0; i < v->nsides; i++) {
        const char *name = ops->side_name(rp->start, i);
        if (strlen(name) == n && strncmp(name, outcome, n) == 0)
            return ops->team_of(rp->start, i);
    }
    return -1;  /* "draw" */
}

/* The reason to keep: the board's when it decided, else the record's
 * Reason if it is a plain word that fits, else "unfinished" for a record
 * without a result and "imported" for one with. */
static void reason_of(const pgn_record *r, const pgn_replayed *rp, char *out, size_t size)
{
    const char *why = pgn_tag_of(r, "Reason");
    int plain = why && why[0] && strlen(why) < size;
    for (const char *c = why; plain && *c; c++)
        plain = (*c >= 'a' && *c <= 'z') || *c == '-';
    if (rp->result.over)
        snprintf(out, size, "%s", rp->result.reason);
    else if (plain)
        snprintf(out, size, "%s", why);
    else
        snprintf(out, size, "%s", strcmp(r->result, "*") == 0 && !pgn_tag_of(r, "Outcome")
                                      ? "unfinished" : "imported");
}

/* Reads text as one game and fills g and moves (room for
 * IMPORT_PLIES_MAX); 0, or -1 with why in err. */
static int read_record(const char *text, size_t len, store_game *g, store_move *moves,
                       char *err, size_t errlen)
{
    pgn_record r;
    pgn_record_init(&r);
    pgn_replayed rp;
    game_move *played = malloc(IMPORT_PLIES_MAX * sizeof *played);
    size_t at = 0;
    int line = 1, rc = -1;
    char why[200];
    if (!played) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int got = pgn_next(text, len, &at, &line, &r, why, sizeof why);
    if (got == 0) {
        snprintf(err, errlen, "no game in the record");
    } else if (got < 0) {
        snprintf(err, errlen, "%s", why);
    } else if (r.nmoves > IMPORT_PLIES_MAX) {
        snprintf(err, errlen, "a game of at most %d moves (this one has %d)", IMPORT_PLIES_MAX,
                 r.nmoves);
    } else {
        int first = r.line;
        pgn_record next;
        pgn_record_init(&next);
        got = pgn_next(text, len, &at, &line, &next, why, sizeof why);
        pgn_record_free(&next);
        int replayed = got == 0 ? pgn_replay(&r, &rp, played, IMPORT_PLIES_MAX, why, sizeof why)
                                : -1;
        char start[GAME_POS_MAX * 2];
        if (got != 0)
            snprintf(err, errlen, "one game at a time: another follows the one at line %d",
                     first);
        else if (replayed < 0)
            snprintf(err, errlen, "%s", why);
        else if (replayed > 0)
            snprintf(err, errlen, "a game with hidden pieces needs its start: SetUp \"1\" and "
                                  "FEN");
        else if (rp.v->ops->format(rp.start, start, sizeof start) >= sizeof g->start)
            snprintf(err, errlen, "the start position is longer than %zu bytes",
                     sizeof g->start - 1);
        else {
            const game_variant *v = rp.v;
            const game_ops *ops = v->ops;
            memset(g, 0, sizeof *g);
            snprintf(g->variant, sizeof g->variant, "%s", v->name);
            memcpy(g->start, start, strlen(start) + 1);  /* it fits: checked above */
            g->nsides = v->nsides;
            int limit = 0;
            for (const game_option *o = v->options; o && o->name; o++)
                if (strcmp(o->name, "MoveLimit") == 0 && ops->get_option)
                    ops->get_option(rp.start, "MoveLimit", &limit);
            g->move_limit = limit;
            g->winner = rp.result.over ? rp.result.winner : recorded_winner(&r, &rp);
            reason_of(&r, &rp, g->reason, sizeof g->reason);
            /* each move as the engine writes it */
            _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
            memcpy(pos, rp.start, ops->pos_size);
            for (int i = 0; i < rp.nplies; i++) {
                memset(&moves[i], 0, sizeof moves[i]);
                moves[i].ply = i;
                ops->format_move(pos, played[i], moves[i].text, sizeof moves[i].text);
                ops->make(pos, played[i], undo);
            }
            g->nmoves = rp.nplies;
            rc = 0;
        }
    }
    pgn_record_free(&r);
    free(played);
    return rc;
}

void import_http(srv *s, net_http *h, const net_request *req)
{
    ident me;
    if (ident_session_player(s, req->cookie, &me) != 0 || me.guest) {
        reply_error(h, 401, "sign in with an account to import games");
        return;
    }
    json_t *body = req_body_object(req, h);
    if (!body)
        return;
    json_t *pgn = json_object_get(body, "pgn");
    const char *text = json_string_value(pgn);
    size_t len = text ? json_string_length(pgn) : 0;
    char key[48], err[240];
    snprintf(key, sizeof key, "imports:%lld", (long long)me.id);
    int64_t now = net_mono_ms();
    int burst = s->cfg.limits[LIM_IMPORTS];
    if (!text || json_object_size(body) != 1) {
        reply_error(h, 400, "want {\"pgn\": the record as text}");
    } else if (len != strlen(text)) {
        reply_error(h, 400, "the record holds a NUL character");
    } else if (len > IMPORT_TEXT_MAX) {
        snprintf(err, sizeof err, "a record of at most %d bytes", IMPORT_TEXT_MAX);
        reply_error(h, 400, err);
    } else if (!quota_take(s->quota, key, burst, HOUR_MS, now)) {
        reply_limited(h, quota_retry_s(s->quota, key, burst, HOUR_MS, now),
                      "too many imports this hour");
    } else {
        store_game g;
        store_move *moves = malloc(IMPORT_PLIES_MAX * sizeof *moves);
        store_err e;
        if (!moves) {
            quota_refund(s->quota, key, burst, HOUR_MS, now);
            reply_error(h, 500, "out of memory");
        } else if (read_record(text, len, &g, moves, err, sizeof err) != 0) {
            quota_refund(s->quota, key, burst, HOUR_MS, now);
            char msg[sizeof err + 32];
            snprintf(msg, sizeof msg, "not imported: %s", err);
            reply_error(h, 400, msg);
        } else {
            int64_t wall = net_wall_ms();
            for (int i = 0; i < g.nsides; i++)
                g.players[i] = me.id;
            g.created = wall;
            for (int i = 0; i < g.nmoves; i++)
                moves[i].time = wall;
            if (store_game_import(s->st, &g, moves, g.nmoves, &e) != 0) {
                quota_refund(s->quota, key, burst, HOUR_MS, now);
                fprintf(stderr, "citadel serve: import: %s\n", e.msg);
                reply_error(h, 500, "could not store the game; try again");
            } else {
                reply_json(h, 200,
                           json_pack("{s:I, s:s, s:i}", "id", (json_int_t)g.id, "variant",
                                     g.variant, "plies", g.nmoves),
                           NULL);
            }
        }
        free(moves);
    }
    json_decref(body);
}
