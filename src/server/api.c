/* api.c -- the HTTP JSON API of docs/api.md: the router, and reading
 * (variants, games, players, ladders, challenges, positions, setups).
 * Accounts and sessions are account.c.
 *
 * A POST acts for the visitor, so it must come from the server's own page
 * or a tool, never from another site: one whose Origin is foreign is
 * refused (403), and a body must be declared application/json (415
 * otherwise), which no cross-site form can send without the browser
 * asking first, and this server answers no such asking.
 */
#include <ctype.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "botapi/botapi.h"
#include "cluster/cluster.h"
#include "community/community.h"
#include "core/http.h"
#include "core/srv.h"
#include "play/live.h"
#include "play/boards.h"
#include "play/lobby.h"
#include "play/review.h"
#include "server.h"


/* --- reading ---------------------------------------------------------------------- */

static json_t *variants_json(void)
{
    json_t *a = json_array();
    for (const game_variant *const *v = game_variants(); *v; v++) {
        json_t *opts = json_array();
        for (const game_option *o = (*v)->options; o && o->name; o++) {
            json_t *offered = json_array();
            for (const int *x = o->offered; x && *x >= 0; x++)
                json_array_append_new(offered, json_integer(*x));
            json_array_append_new(
                opts, json_pack("{s:s, s:i, s:i, s:i, s:s, s:o}", "name", o->name, "default",
                                o->offered ? o->offer_def : o->def, "min", o->min, "max", o->max,
                                "help", o->help ? o->help : "", "offered", offered));
        }
        json_array_append_new(
            a, json_pack("{s:s, s:s, s:s, s:s, s:b, s:i, s:b, s:i, s:o}", "name", (*v)->name,
                         "family", (*v)->family, "title", (*v)->title, "about", (*v)->about,
                         "rated", (*v)->rated, "sides", (*v)->nsides, "hidden", (*v)->hidden,
                         "starts", (*v)->starts, "options", opts));
    }
    return a;
}

static int64_t game_id(const char *s, const char **rest)
{
    char *end;
    long long id = strtoll(s, &end, 10);
    if (end == s || id <= 0)
        return -1;
    *rest = end;
    return id;
}

static void player_page(srv *s, net_http *h, const char *name)
{
    store_player p;
    store_err e;
    if (strlen(name) > STORE_NAME_MAX || store_player_by_name(s->st, name, &p, NULL, &e) != 0) {
        reply_error(h, 404, "no such player");
        return;
    }
    ident me;
    ident_load(s, p.id, &me);
    store_rating r[32];
    int n = store_ratings(s->st, p.id, r, 32, &e);
    json_t *ratings = json_array(), *history = json_object();
    store_rating_point *pts = malloc(500 * sizeof *pts);
    for (int i = 0; i < n; i++) {
        json_array_append_new(ratings, json_pack("{s:s, s:f, s:i}", "variant", r[i].variant,
                                                 "rating", r[i].rating, "games", r[i].games));
        int m = pts ? store_rating_history(s->st, p.id, r[i].variant, pts, 500, &e) : 0;
        json_t *a = json_array();
        for (int k = 0; k < m; k++)
            json_array_append_new(a, json_pack("{s:I, s:I, s:f, s:f}", "game",
                                               (json_int_t)pts[k].game, "time",
                                               (json_int_t)pts[k].time, "before", pts[k].before,
                                               "after", pts[k].after));
        json_object_set_new(history, r[i].variant, a);
    }
    free(pts);
    reply_json(h, 200,
               json_pack("{s:o, s:o, s:o}", "player", ident_json(&me), "ratings", ratings,
                         "history", history),
               NULL);
}

static json_t *stored_summary(srv *s, const store_game *g)
{
    json_t *players = json_array();
    for (int i = 0; i < g->nsides; i++) {
        ident p;
        if (ident_load(s, g->players[i], &p) == 0)
            json_array_append_new(players, ident_json(&p));
        else
            json_array_append_new(players, json_null());
    }
    static const char *status[] = {"live", "over", "aborted"};
    return json_pack("{s:I, s:s, s:o, s:s, s:i, s:s, s:b, s:b, s:I, s:I, s:I, s:I, s:i, s:i, s:b}",
                     "id", (json_int_t)g->id, "variant", g->variant, "players", players,
                     "status", status[g->status < 0 || g->status > 2 ? 0 : g->status],
                     "winner", g->winner, "reason", g->reason, "rated", g->rated, "sterile",
                     g->sterile, "created", (json_int_t)g->created, "ended",
                     (json_int_t)g->ended, "base_ms", (json_int_t)g->base_ms, "inc_ms",
                     (json_int_t)g->inc_ms, "move_limit", g->move_limit, "moves", g->nmoves,
                     "imported", g->imported);
}

static void player_games(srv *s, net_http *h, const char *name, const char *query)
{
    store_player p;
    store_err e;
    if (strlen(name) > STORE_NAME_MAX || store_player_by_name(s->st, name, &p, NULL, &e) != 0) {
        reply_error(h, 404, "no such player");
        return;
    }
    long offset = 0;
    const char *o = strstr(query, "offset=");
    if (o) {
        char *end;
        offset = strtol(o + 7, &end, 10);
        if (offset < 0 || offset > 1000000000L || (*end && *end != '&')) {
            reply_error(h, 400, "offset must be a number from 0");
            return;
        }
    }
    store_game *games = malloc(50 * sizeof *games);
    int n = games ? store_player_games(s->st, p.id, (int)offset, games, 50, &e) : -1;
    if (n < 0) {
        free(games);
        reply_error(h, 500, "could not read the games");
        return;
    }
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, stored_summary(s, &games[i]));
    free(games);
    reply_json(h, 200, json_pack("{s:o}", "games", a), NULL);
}

static void ladder(srv *s, net_http *h, const char *variant)
{
    const game_variant *v = game_variant_find(variant);
    if (!v || !v->rated) {
        reply_error(h, 404, "no ladder for that variant");
        return;
    }
    store_ladder_row *rows = malloc(200 * sizeof *rows);
    store_err e;
    int n = rows ? store_ladder(s->st, v->name, rows, 200, &e) : -1;
    if (n < 0) {
        free(rows);
        reply_error(h, 500, "could not read the ladder");
        return;
    }
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:s, s:f, s:i, s:b}", "name", rows[i].name,
                                           "rating", rows[i].rating, "games", rows[i].games,
                                           "bot", rows[i].is_bot));
    free(rows);
    reply_json(h, 200, json_pack("{s:s, s:s, s:o}", "variant", v->name, "title", v->title,
                                 "rows", a),
               NULL);
}

/* GET /api/challenges/TOKEN: an open challenge, so its link can say who
 * challenges and on what terms before anyone accepts; 404 once it is taken
 * or withdrawn (lobby.c removes it then). */
static void challenge_page(srv *s, net_http *h, const char *token)
{
    size_t n = strlen(token);
    const seek *k = NULL;
    if (n > 0 && n < sizeof k->token && strspn(token, "0123456789abcdef") == n)
        for (k = s->seeks; k; k = k->next)
            if (k->token[0] && strcmp(k->token, token) == 0)
                break;
    if (!k) {
        reply_error(h, 404, "no such challenge (taken or withdrawn)");
        return;
    }
    reply_json(h, 200,
               json_pack("{s:s, s:o, s:s, s:s, s:I, s:I, s:i, s:b}", "token", k->token,
                         "challenger", ident_json(&k->by), "variant", k->set.v->name, "title",
                         k->set.v->title, "base_ms", (json_int_t)k->set.base_ms, "inc_ms",
                         (json_int_t)k->set.inc_ms, "move_limit", k->set.move_limit, "rated",
                         k->set.rated),
               NULL);
}

/* The per-address quota of the routes that read positions and write
 * nothing (POST /api/position, POST /api/read): 1 if this request may go
 * on, else 0 after answering 429. */
static int positions_take(srv *s, net_http *h, const net_request *req)
{
    char addr[64], key[96];
    ident_request_addr(s, req, addr, sizeof addr);
    snprintf(key, sizeof key, "positions:%s", addr);
    int64_t mono = net_mono_ms();
    if (!quota_take(s->quota, key, s->cfg.limits[LIM_POSITIONS], 60000, mono)) {
        reply_limited(h, quota_retry_s(s->quota, key, s->cfg.limits[LIM_POSITIONS], 60000, mono),
                      "too many positions asked from here; slow down");
        return 0;
    }
    return 1;
}

/* POST /api/position: a position (the start by default) with moves played
 * on it; answers every legal move with the position it leads to, and the
 * result. For the page's teaching boards and puzzles, and for showing
 * threats: the engine stays the only judge of the rules. It writes
 * nothing, so it is counted per address by positions-per-minute and not
 * under the writes ceiling: a learner's page may ask hundreds at once. */
static void position_page(net_http *h, const net_request *req)
{
    json_t *body = req_body_strict(req, h);
    char msg[240];
    if (!body)
        return;
    const char *name = json_string_value(json_object_get(body, "variant"));
    const char *text = json_string_value(json_object_get(body, "position"));
    json_t *moves = json_object_get(body, "moves");
    const game_variant *v = name ? game_variant_find(name) : NULL;
    if (!v || v->hidden || (json_object_get(body, "position") && !text) ||
        (moves && !json_is_array(moves)) || json_array_size(moves) > 2000) {
        reply_error(h, 400,
                    v && v->hidden ? "hidden-information variants are not shown this way"
                                   : "want variant (a name), position (text, optional) and "
                                     "moves (a list of at most 2000, optional)");
        json_decref(body);
        return;
    }
    const game_ops *ops = v->ops;
    _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
    game_error ge;
    if (text) {
        if (ops->parse(v, pos, text, &ge) != 0) {
            snprintf(msg, sizeof msg, "bad position: %s", ge.msg);
            reply_error(h, 400, msg);
            json_decref(body);
            return;
        }
    } else {
        ops->start(v, pos, 0);
    }
    json_t *mv;
    size_t i;
    json_array_foreach(moves, i, mv) {
        game_move m;
        const char *mt = json_string_value(mv);
        if (!mt || ops->parse_move(pos, mt, &m, &ge) != 0) {
            snprintf(msg, sizeof msg, "move %zu: %s", i + 1, mt ? ge.msg : "not text");
            reply_error(h, 400, msg);
            json_decref(body);
            return;
        }
        ops->make(pos, m, undo);
    }
    json_decref(body);
    char buf[2048], mtext[32];
    ops->format(pos, buf, sizeof buf);
    game_result r = ops->result(pos);
    json_t *legal = json_array();
    game_move list[GAME_MAX_MOVES];
    int n = ops->moves(pos, list);
    for (int k = 0; k < n; k++) {
        char after[2048];
        ops->format_move(pos, list[k], mtext, sizeof mtext);
        json_t *effects = live_effects_json(v, pos, list[k]);
        ops->make(pos, list[k], undo);
        ops->format(pos, after, sizeof after);
        ops->unmake(pos, list[k], undo);
        json_t *entry = json_pack("{s:s, s:s}", "move", mtext, "after", after);
        if (effects)
            json_object_set_new(entry, "effects", effects);
        json_array_append_new(legal, entry);
    }
    json_t *material = json_array();
    for (int k = 0; ops->material && k < v->nsides; k++)
        json_array_append_new(material, json_integer(ops->material(pos, k)));
    json_t *out = json_pack("{s:s, s:s, s:i, s:o, s:o, s:{s:b, s:i, s:s}}", "variant", v->name,
                            "position", buf, "to_move", ops->side_to_move(pos), "legal", legal,
                            "material", material, "result", "over", r.over, "winner",
                            r.over ? r.winner : -1, "reason", r.reason);
    if (ops->threats) {
        char names[64][GAME_SQUARE_NAME];
        int nt = ops->threats(pos, names, 64);
        json_t *t = json_array();
        for (int k = 0; k < nt; k++)
            json_array_append_new(t, json_string(names[k]));
        json_object_set_new(out, "threats", t);
    }
    reply_json(h, 200, out, NULL);
}

/* --- setups --------------------------------------------------------------------------- */

#define SETUPS_MAX 50

/* GET /api/setups/VARIANT, POST /api/setups/VARIANT (save) and
 * POST /api/setups/VARIANT/delete: the game's library, the player's saved
 * setups (store key "setup:<variant>:<name>") and a random one. */
static void setups_page(srv *s, net_http *h, const net_request *req, const char *rest)
{
    char vname[40];
    size_t n = strcspn(rest, "/");
    if (n == 0 || n >= sizeof vname) {
        reply_error(h, 404, "no such variant");
        return;
    }
    memcpy(vname, rest, n);
    vname[n] = 0;
    const char *action = rest + n;
    const game_variant *v = game_variant_find(vname);
    if (!v || !v->ops->setup) {
        reply_error(h, 404, "that variant has no private setups");
        return;
    }
    const game_setup_ops *so = v->ops->setup;
    ident me;
    int signed_in = ident_session_player(s, req->cookie, &me) == 0 && !me.guest;
    char prefix[64];
    snprintf(prefix, sizeof prefix, "setup:%s:", v->name);
    store_err e;
    if (strcmp(req->method, "GET") == 0 && !action[0]) {
        json_t *library = json_array(), *saved = json_array();
        for (int i = 0; i < so->library_size(); i++)
            json_array_append_new(library, json_pack("{s:s, s:s}", "name", so->library_name(i),
                                                     "setup", so->library_text(i)));
        store_kv *kv = signed_in ? malloc(SETUPS_MAX * sizeof *kv) : NULL;
        int k = kv ? store_kv_list(s->st, me.id, prefix, kv, SETUPS_MAX, &e) : 0;
        for (int i = 0; i < k; i++)
            json_array_append_new(saved, json_pack("{s:s, s:s}", "name",
                                                   kv[i].key + strlen(prefix), "setup",
                                                   kv[i].value));
        free(kv);
        char random[128];
        uint64_t seed;
        randombytes_buf(&seed, sizeof seed);
        so->random(seed, random, sizeof random);
        reply_json(h, 200,
                   json_pack("{s:o, s:o, s:s}", "library", library, "saved", saved, "random",
                             random),
                   NULL);
        return;
    }
    if (strcmp(req->method, "POST") != 0 || (action[0] && strcmp(action, "/delete") != 0)) {
        reply_error(h, 404, "no such endpoint");
        return;
    }
    if (!signed_in) {
        reply_error(h, 401, "sign in to keep setups");
        return;
    }
    json_error_t jerr;
    json_t *body = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &jerr);
    const char *name = json_string_value(json_object_get(body, "name"));
    const char *text = json_string_value(json_object_get(body, "setup"));
    size_t nlen = name ? strlen(name) : 0;
    int name_ok = nlen >= 1 && nlen <= 40;
    for (size_t i = 0; name_ok && i < nlen; i++)
        name_ok = (unsigned char)name[i] >= 0x20 && name[i] != 0x7f;
    char key[128], msg[220];
    if (name_ok)
        snprintf(key, sizeof key, "%s%s", prefix, name);
    if (!body || !json_is_object(body))
        reply_error(h, 400, "malformed JSON");
    else if (!name_ok)
        reply_error(h, 400, "a setup's name has 1-40 printable characters");
    else if (action[0]) {
        if (store_kv_del(s->st, me.id, key, &e) != 0)
            reply_error(h, 500, "could not remove the setup");
        else
            reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
    } else {
        game_error ge;
        store_kv *kv = malloc(SETUPS_MAX * sizeof *kv);
        int k = kv ? store_kv_list(s->st, me.id, prefix, kv, SETUPS_MAX, &e) : -1;
        int exists = 0;
        for (int i = 0; i < k; i++)
            exists |= strcmp(kv[i].key, key) == 0;
        free(kv);
        if (!text)
            reply_error(h, 400, "want name and setup (text)");
        else if (so->check(text, &ge) != 0) {
            snprintf(msg, sizeof msg, "bad setup: %s", ge.msg);
            reply_error(h, 400, msg);
        } else if (k < 0)
            reply_error(h, 500, "could not read the saved setups");
        else if (k >= SETUPS_MAX && !exists)
            reply_error(h, 409, "at most 50 saved setups per game; remove one first");
        else if (store_kv_put(s->st, me.id, key, text, &e) != 0)
            reply_error(h, 500, "could not save the setup");
        else
            reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
    }
    json_decref(body);
}

static void game_page(srv *s, net_http *h, const net_request *req, int64_t id, const char *rest)
{
    char err[160];
    if (strcmp(rest, "/record") == 0) {
        char site[200];
        ident_site(s, req, site, sizeof site);
        char *text = records_text(s, id, site, err, sizeof err);
        if (!text) {
            reply_error(h, 404, err);
            return;
        }
        net_http_reply(h, 200, "text/plain; charset=utf-8", NULL, text, strlen(text));
        free(text);
        return;
    }
    if (strcmp(rest, "/positions") == 0) {
        int status;
        json_t *j = records_positions(s, id, &status, err, sizeof err);
        if (!j)
            reply_error(h, status, err);
        else
            reply_json(h, 200, j, NULL);
        return;
    }
    if (rest[0]) {
        reply_error(h, 404, "no such page");
        return;
    }
    live *g = live_find(s, id);
    json_t *j = g ? live_state(g, NULL) : records_game_json(s, id, NULL, err, sizeof err);
    if (!j)
        reply_error(h, 404, err);
    else
        reply_json(h, 200, j, NULL);
}

/* GET /game/export/{id}: a game's record in PGN where lichess's clients
 * ask for it; with Accept: application/json, the game as /api/games/{id}
 * answers it, its record in `pgn` if ?pgnInJson=true (or True, or 1, as
 * clients write it). The query's other options are not read: the record
 * is always the whole one. */
static void export_page(srv *s, net_http *h, const net_request *req)
{
    const char *rest;
    int64_t id = game_id(req->path + 13, &rest);
    char err[160], site[200], flag[8];
    if (id <= 0 || (rest[0] && strcmp(rest, ".pgn") != 0)) {
        reply_error(h, 404, "no such game");
        return;
    }
    ident_site(s, req, site, sizeof site);
    char *text = records_text(s, id, site, err, sizeof err);
    if (!text) {
        reply_error(h, 404, err);
        return;
    }
    if (req->accept && strstr(req->accept, "application/json") && !rest[0]) {
        live *g = live_find(s, id);
        json_t *j = g ? live_state(g, NULL) : records_game_json(s, id, NULL, err, sizeof err);
        if (j && req_query_param(req->query, "pgnInJson", flag, sizeof flag) == 1 &&
            (strcmp(flag, "true") == 0 || strcmp(flag, "True") == 0 || strcmp(flag, "1") == 0))
            json_object_set_new(j, "pgn", json_string(text));
        free(text);
        if (!j)
            reply_error(h, 404, err);
        else
            reply_json(h, 200, j, NULL);
        return;
    }
    net_http_reply(h, 200, "application/x-chess-pgn; charset=utf-8", NULL, text, strlen(text));
    free(text);
}

/* The bodies taken other than JSON, as lichess's clients send them: a
 * form (application/x-www-form-urlencoded) with a token (a browser sends
 * no Authorization header of its own to another site, so a form from
 * another site cannot act with a token), and /api/token/test's text, of
 * any type (lichess's clients send it as text, or with no type at all). */
static int other_body_ok(const net_request *req, const char *path)
{
    if (strcmp(path, "/token/test") == 0)
        return 1;  /* tokens as text, whatever it is called: it reads and changes nothing */
    return req_type_is(req->content_type, "application/x-www-form-urlencoded") &&
           strncasecmp(req->authorization, "Bearer ", 7) == 0;
}

/* Every request that may write (a POST or DELETE) is counted per account
 * and per address (writes-per-minute, address-writes-per-minute), before
 * its route is even looked at: the ceiling under each route's own quota,
 * so that no route that writes, today's or a new one, is without one. The
 * Bot API's game, seek and challenge routes are counted per token by
 * api-requests instead (a bot may move many times a minute). 1, or 0
 * after answering 429. */
static int writes_take(srv *s, net_http *h, const net_request *req, const char *path)
{
    if (strncmp(path, "/bot/", 5) == 0 || strncmp(path, "/board/", 7) == 0 ||
        strncmp(path, "/challenge/", 11) == 0)
        return 1;
    int64_t mono = net_mono_ms();
    char addr[64], key[96];
    ident_request_addr(s, req, addr, sizeof addr);
    snprintf(key, sizeof key, "writes-at:%s", addr);
    if (!quota_take(s->quota, key, s->cfg.limits[LIM_ADDR_WRITES], 60000, mono)) {
        reply_limited(h, quota_retry_s(s->quota, key, s->cfg.limits[LIM_ADDR_WRITES], 60000, mono),
                      "too many requests from here; slow down");
        return 0;
    }
    ident me;
    if (s->cfg.limits[LIM_WRITES] > 0 && ident_request_me(s, req, &me, NULL) == 0) {
        snprintf(key, sizeof key, "writes:%lld", (long long)me.id);
        if (!quota_take(s->quota, key, s->cfg.limits[LIM_WRITES], 60000, mono)) {
            reply_limited(h, quota_retry_s(s->quota, key, s->cfg.limits[LIM_WRITES], 60000, mono),
                          "too many requests from this account; slow down");
            return 0;
        }
    }
    return 1;
}

void api_http(srv *s, net_http *h, const net_request *req)
{
    if (strncmp(req->path, "/game/export/", 13) == 0) {
        export_page(s, h, req);
        return;
    }
    const char *path = req->path + 4;  /* after "/api" */
    int get = strcmp(req->method, "GET") == 0, post = strcmp(req->method, "POST") == 0;
    const char *rest;
    int64_t id;

    if (!get && !ident_origin_ok(s, req)) {
        reply_error(h, 403, "cross-site requests are refused");
        return;
    }
    if (!cluster_lease_holds(s)) {  /* paused past the lease, maybe: never answer stale */
        reply_error(h, 503, "this server cannot reach its database; try again in a moment");
        return;
    }
    if (post && req->body_len > 0 && !req_type_is(req->content_type, "application/json") &&
        !other_body_ok(req, path)) {
        reply_error(h, 415, "send the body as application/json");
        return;
    }
    if (post && strcmp(path, "/position") == 0) {
        if (positions_take(s, h, req))  /* computes, writes nothing: its own quota */
            position_page(h, req);
        return;
    }
    if (post && strcmp(path, "/read") == 0) {
        if (positions_take(s, h, req))  /* as /position */
            boards_read_http(h, req);
        return;
    }
    if (!get && !writes_take(s, h, req, path))
        return;
    if (botapi_http(s, h, req, path))
        return;
    if (strcmp(req->method, "DELETE") == 0)
        reply_error(h, 404, "no such endpoint");
    else if (post && (strcmp(path, "/signup") == 0 || strcmp(path, "/signin") == 0 ||
                      strcmp(path, "/signout") == 0 || strcmp(path, "/account/password") == 0))
        account_http(s, h, req, path);
    else if ((get || post) && strcmp(path, "/account/prefs") == 0)
        account_http(s, h, req, path);
    else if (post && strcmp(path, "/games/import") == 0)
        import_http(s, h, req);
    else if (strncmp(path, "/games/", 7) == 0 && (get || post) &&
             (id = game_id(path + 7, &rest)) > 0 && strcmp(rest, "/review") == 0)
        review_http(s, h, req, id);
    else if (strncmp(path, "/setups/", 8) == 0 && (get || post))
        setups_page(s, h, req, path + 8);
    else if (strncmp(path, "/forum", 6) == 0 && (path[6] == 0 || path[6] == '/') &&
             (get || post))
        forum_http(s, h, req, path + 6);
    else if ((strcmp(path, "/support") == 0 || strncmp(path, "/support/", 9) == 0 ||
              strncmp(path, "/staff/", 7) == 0 || strcmp(path, "/notifications") == 0 ||
              strcmp(path, "/notifications/read") == 0) &&
             (get || post))
        support_http(s, h, req, path);
    else if ((strcmp(path, "/reports") == 0 || strncmp(path, "/mod/", 5) == 0 ||
              strncmp(path, "/admin/", 7) == 0) &&
             (get || post))
        moderation_http(s, h, req, path);
    else if (!get)
        reply_error(h, post ? 404 : 405, post ? "no such endpoint" : "GET or POST only");
    else if (strcmp(path, "/health") == 0)
        reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
    else if (strcmp(path, "/me") == 0)
        account_http(s, h, req, path);
    else if (strcmp(path, "/variants") == 0)
        reply_json(h, 200, variants_json(), NULL);
    else if (strcmp(path, "/lobby") == 0) {
        json_t *l = lobby_now(s);
        json_object_del(l, "type");
        reply_json(h, 200, l, NULL);
    } else if (strcmp(path, "/bots") == 0)
        reply_json(h, 200, json_pack("{s:o}", "bots", lobby_bots_json(s)), NULL);
    else if (strncmp(path, "/games/", 7) == 0 && (id = game_id(path + 7, &rest)) > 0)
        game_page(s, h, req, id, rest);
    else if (strncmp(path, "/players/", 9) == 0) {
        char name[64];
        const char *p = path + 9;
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 0 || n >= sizeof name) {
            reply_error(h, 404, "no such player");
            return;
        }
        memcpy(name, p, n);
        name[n] = 0;
        if (!slash)
            player_page(s, h, name);
        else if (strcmp(slash, "/games") == 0)
            player_games(s, h, name, req->query);
        else
            reply_error(h, 404, "no such page");
    } else if (strncmp(path, "/challenges/", 12) == 0)
        challenge_page(s, h, path + 12);
    else if (strncmp(path, "/ladder/", 8) == 0)
        ladder(s, h, path + 8);
    else
        reply_error(h, 404, "no such endpoint");
}
