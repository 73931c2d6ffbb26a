/* api.c -- the HTTP JSON API of docs/api.md: accounts and reading.
 *
 * Passwords are hashed with Argon2id (libsodium's crypto_pwhash_str: 2
 * passes over 19 MiB, the figures commonly advised for interactive
 * sign-in) on the worker threads, never on the loop: the request's answer
 * waits for the job.
 */
#include <ctype.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server.h"

#define PW_OPS 2
#define PW_MEM (19u * 1024 * 1024)
#define COOKIE "citadel_session"

static void reply_json(net_http *h, int status, json_t *body, const char *headers)
{
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    if (!text) {
        net_http_reply(h, 500, "application/json", NULL, "{\"error\":\"internal\"}", 20);
        return;
    }
    net_http_reply(h, status, "application/json", headers, text, strlen(text));
    free(text);
}

static void reply_error(net_http *h, int status, const char *what)
{
    reply_json(h, status, json_pack("{s:s}", "error", what), NULL);
}

static void cookie_header(char *buf, size_t size, const char *token)
{
    if (token)
        snprintf(buf, size,
                 "Set-Cookie: " COOKIE "=%s; Path=/; HttpOnly; SameSite=Lax; Max-Age=%lld\r\n",
                 token, SRV_SESSION_MS / 1000);
    else
        snprintf(buf, size,
                 "Set-Cookie: " COOKIE "=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0\r\n");
}

/* The session token of a Cookie header into token (65 bytes), or "". */
static void cookie_token(const char *cookie, char *token)
{
    token[0] = 0;
    for (const char *p = cookie; p && *p;) {
        while (*p == ' ' || *p == ';')
            p++;
        if (strncmp(p, COOKIE "=", sizeof COOKIE) == 0) {
            p += sizeof COOKIE;
            size_t n = strcspn(p, "; ");
            if (n == 64) {
                memcpy(token, p, 64);
                token[64] = 0;
            }
            return;
        }
        p = strchr(p, ';');
    }
}

int session_player(srv *s, const char *cookie, ident *out)
{
    char token[65];
    cookie_token(cookie, token);
    if (!token[0])
        return -1;
    int64_t id;
    store_err e;
    if (store_session_player(s->st, token, net_wall_ms(), &id, &e) != 0)
        return -1;
    return ident_load(s, id, out);
}

static int session_new(srv *s, int64_t player, char *token)
{
    random_token(token, 32);
    store_err e;
    int64_t now = net_wall_ms();
    return store_session_add(s->st, token, player, now, now + SRV_SESSION_MS, &e);
}

int guest_new(srv *s, ident *out, char *token)
{
    store_err e;
    for (int tries = 0; tries < 5; tries++) {
        char hex[7], name[STORE_NAME_MAX + 1];
        random_token(hex, 3);
        snprintf(name, sizeof name, "guest-%s", hex);
        int64_t id;
        int r = store_player_add(s->st, name, "", 0, 1, "", net_wall_ms(), &id, &e);
        if (r == STORE_TAKEN)
            continue;
        if (r != 0 || session_new(s, id, token) != 0)
            return -1;
        return ident_load(s, id, out);
    }
    return -1;
}

/* --- failed sign-ins ---------------------------------------------------------- */

static fail_entry *fail_slot(srv *s, const char *key, int create)
{
    int64_t now = net_mono_ms();
    fail_entry *oldest = &s->fails[0];
    for (size_t i = 0; i < sizeof s->fails / sizeof s->fails[0]; i++) {
        fail_entry *f = &s->fails[i];
        if (f->key[0] && now - f->since > 60000)
            f->key[0] = 0;
        if (f->key[0] && strcmp(f->key, key) == 0)
            return f;
        if (!f->key[0] || f->since < oldest->since)
            oldest = f;
    }
    if (!create)
        return NULL;
    snprintf(oldest->key, sizeof oldest->key, "%s", key);
    oldest->count = 0;
    oldest->since = now;
    return oldest;
}

static int too_many_fails(srv *s, const char *name, const char *peer)
{
    char k1[80], k2[80];
    snprintf(k1, sizeof k1, "n:%s", name);
    snprintf(k2, sizeof k2, "a:%s", peer);
    for (char *p = k1; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    fail_entry *a = fail_slot(s, k1, 0), *b = fail_slot(s, k2, 0);
    return (a && a->count >= SRV_SIGNIN_FAILS) || (b && b->count >= SRV_SIGNIN_FAILS);
}

static void count_fail(srv *s, const char *name, const char *peer)
{
    char k1[80], k2[80];
    snprintf(k1, sizeof k1, "n:%s", name);
    snprintf(k2, sizeof k2, "a:%s", peer);
    for (char *p = k1; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    fail_entry *f = fail_slot(s, k1, 1);
    f->count++;
    f = fail_slot(s, k2, 1);
    f->count++;
}

/* --- sign up and sign in ----------------------------------------------------------- */

enum { PW_SIGNUP, PW_SIGNIN };

typedef struct pw_job {
    job base;
    int kind;
    net_http *h;
    int64_t player;
    char name[STORE_NAME_MAX + 1];
    char pw[129];
    char hash[STORE_TEXT_MAX];
    char peer[64];
    int ok;
} pw_job;

static void pw_run(job *j)
{
    pw_job *p = (pw_job *)j;
    if (p->kind == PW_SIGNUP)
        p->ok = crypto_pwhash_str(p->hash, p->pw, strlen(p->pw), PW_OPS, PW_MEM) == 0;
    else if (p->hash[0])
        p->ok = crypto_pwhash_str_verify(p->hash, p->pw, strlen(p->pw)) == 0;
    else {
        /* no such account: spend the same time, so that timing tells nothing */
        char dummy[crypto_pwhash_STRBYTES];
        if (crypto_pwhash_str(dummy, p->pw, strlen(p->pw), PW_OPS, PW_MEM) != 0)
            dummy[0] = 0;
        p->ok = 0;
    }
    sodium_memzero(p->pw, sizeof p->pw);
}

static void signed_in(srv *s, net_http *h, int64_t player, int status)
{
    char token[65], headers[256];
    ident me;
    if (session_new(s, player, token) != 0 || ident_load(s, player, &me) != 0) {
        reply_error(h, 500, "could not store the session");
        return;
    }
    cookie_header(headers, sizeof headers, token);
    reply_json(h, status, json_pack("{s:o}", "player", ident_json(&me)), headers);
}

static void pw_done(void *app, job *j)
{
    srv *s = app;
    pw_job *p = (pw_job *)j;
    if (p->kind == PW_SIGNUP) {
        store_err e;
        int64_t id;
        int r = p->ok ? store_player_add(s->st, p->name, p->hash, 0, 0, "", net_wall_ms(), &id, &e)
                      : -1;
        if (r == STORE_TAKEN)
            reply_error(p->h, 409, "that name is taken");
        else if (r != 0)
            reply_error(p->h, 500, "could not store the account");
        else
            signed_in(s, p->h, id, 201);
    } else if (!p->ok) {
        count_fail(s, p->name, p->peer);
        reply_error(p->h, 401, "wrong name or password");
    } else {
        signed_in(s, p->h, p->player, 200);
    }
    free(p);
}

static int name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n < 3 || n > 20)
        return 0;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
            return 0;
    return strncasecmp(name, "guest-", 6) != 0 && strncasecmp(name, "bot-", 4) != 0;
}

static int read_credentials(net_http *h, const net_request *req, const char **name,
                            const char **pw, json_t **body)
{
    json_error_t jerr;
    *body = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &jerr);
    if (!*body || !json_is_object(*body)) {
        char msg[200];
        snprintf(msg, sizeof msg, "malformed JSON: %s", *body ? "not an object" : jerr.text);
        reply_error(h, 400, msg);
        return -1;
    }
    *name = json_string_value(json_object_get(*body, "name"));
    *pw = json_string_value(json_object_get(*body, "password"));
    if (!*name || !*pw) {
        reply_error(h, 400, "name and password are required strings");
        return -1;
    }
    return 0;
}

static void signup(srv *s, net_http *h, const net_request *req)
{
    const char *name, *pw;
    json_t *body;
    if (read_credentials(h, req, &name, &pw, &body) != 0) {
        json_decref(body);
        return;
    }
    size_t pwlen = strlen(pw);
    if (!name_ok(name))
        reply_error(h, 400,
                    "names are 3-20 letters, digits, '_' or '-', not starting guest- or bot-");
    else if (pwlen < 8 || pwlen > 128)
        reply_error(h, 400, "passwords are 8-128 bytes");
    else {
        store_player p;
        store_err e;
        if (store_player_by_name(s->st, name, &p, NULL, &e) == 0)
            reply_error(h, 409, "that name is taken");
        else {
            pw_job *j = calloc(1, sizeof *j);
            if (!j)
                reply_error(h, 500, "out of memory");
            else {
                j->base.run = pw_run;
                j->base.done = pw_done;
                j->kind = PW_SIGNUP;
                j->h = h;
                snprintf(j->name, sizeof j->name, "%s", name);
                snprintf(j->pw, sizeof j->pw, "%s", pw);
                workers_submit(s->pool, &j->base);
            }
        }
    }
    json_decref(body);
}

static void signin(srv *s, net_http *h, const net_request *req)
{
    const char *name, *pw;
    json_t *body;
    if (read_credentials(h, req, &name, &pw, &body) != 0) {
        json_decref(body);
        return;
    }
    if (strlen(name) > STORE_NAME_MAX || strlen(pw) > 128) {
        reply_error(h, 401, "wrong name or password");
    } else if (too_many_fails(s, name, req->peer)) {
        reply_error(h, 429, "too many failed sign-ins; wait a minute");
    } else {
        pw_job *j = calloc(1, sizeof *j);
        if (!j) {
            reply_error(h, 500, "out of memory");
        } else {
            store_player p;
            store_err e;
            if (store_player_by_name(s->st, name, &p, j->hash, &e) != 0 || p.is_bot ||
                p.is_guest)
                j->hash[0] = 0;
            j->player = j->hash[0] ? p.id : 0;
            j->base.run = pw_run;
            j->base.done = pw_done;
            j->kind = PW_SIGNIN;
            j->h = h;
            snprintf(j->name, sizeof j->name, "%s", name);
            snprintf(j->pw, sizeof j->pw, "%s", pw);
            snprintf(j->peer, sizeof j->peer, "%s", req->peer);
            workers_submit(s->pool, &j->base);
        }
    }
    json_decref(body);
}

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

static int64_t path_id(const char *s, const char **rest)
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
    return json_pack("{s:I, s:s, s:o, s:s, s:i, s:s, s:b, s:b, s:I, s:I, s:I, s:I, s:i, s:i}",
                     "id", (json_int_t)g->id, "variant", g->variant, "players", players,
                     "status", status[g->status < 0 || g->status > 2 ? 0 : g->status],
                     "winner", g->winner, "reason", g->reason, "rated", g->rated, "sterile",
                     g->sterile, "created", (json_int_t)g->created, "ended",
                     (json_int_t)g->ended, "base_ms", (json_int_t)g->base_ms, "inc_ms",
                     (json_int_t)g->inc_ms, "move_limit", g->move_limit, "moves", g->nmoves);
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

/* POST /api/position: a position (the start by default) with moves played
 * on it; answers every legal move with the position it leads to, and the
 * result. For the page's teaching boards and puzzles, and for showing
 * threats: the engine stays the only judge of the rules. */
static void position_page(net_http *h, const net_request *req)
{
    json_error_t jerr;
    json_t *body = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &jerr);
    char msg[240];
    if (!body || !json_is_object(body)) {
        snprintf(msg, sizeof msg, "malformed JSON: %s", body ? "not an object" : jerr.text);
        reply_error(h, 400, msg);
        json_decref(body);
        return;
    }
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
        ops->make(pos, list[k], undo);
        ops->format(pos, after, sizeof after);
        ops->unmake(pos, list[k], undo);
        json_array_append_new(legal, json_pack("{s:s, s:s}", "move", mtext, "after", after));
    }
    json_t *material = json_array();
    for (int k = 0; ops->material && k < v->nsides; k++)
        json_array_append_new(material, json_integer(ops->material(pos, k)));
    reply_json(h, 200,
               json_pack("{s:s, s:s, s:i, s:o, s:o, s:{s:b, s:i, s:s}}", "variant", v->name,
                         "position", buf, "to_move", ops->side_to_move(pos), "legal", legal,
                         "material", material, "result", "over", r.over, "winner",
                         r.over ? r.winner : -1, "reason", r.reason),
               NULL);
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
    int signed_in = session_player(s, req->cookie, &me) == 0 && !me.guest;
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

static void game_page(srv *s, net_http *h, int64_t id, const char *rest)
{
    char err[160];
    if (strcmp(rest, "/record") == 0) {
        char *text = record_text(s, id, err, sizeof err);
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
        json_t *j = game_positions(s, id, &status, err, sizeof err);
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
    json_t *j = g ? live_state(g, NULL) : game_json_stored(s, id, err, sizeof err);
    if (!j)
        reply_error(h, 404, err);
    else
        reply_json(h, 200, j, NULL);
}

void api_http(srv *s, net_http *h, const net_request *req)
{
    const char *path = req->path + 4;  /* after "/api" */
    int get = strcmp(req->method, "GET") == 0, post = strcmp(req->method, "POST") == 0;
    const char *rest;
    int64_t id;

    if (post && strcmp(path, "/signup") == 0)
        signup(s, h, req);
    else if (post && strcmp(path, "/signin") == 0)
        signin(s, h, req);
    else if (post && strcmp(path, "/position") == 0)
        position_page(h, req);
    else if (strncmp(path, "/setups/", 8) == 0 && (get || post))
        setups_page(s, h, req, path + 8);
    else if (post && strcmp(path, "/signout") == 0) {
        char token[65], headers[200];
        store_err e;
        cookie_token(req->cookie, token);
        if (token[0])
            store_session_del(s->st, token, &e);
        cookie_header(headers, sizeof headers, NULL);
        reply_json(h, 200, json_pack("{s:b}", "ok", 1), headers);
    } else if (!get)
        reply_error(h, post ? 404 : 405, post ? "no such endpoint" : "GET or POST only");
    else if (strcmp(path, "/health") == 0)
        reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
    else if (strcmp(path, "/me") == 0) {
        ident me;
        char token[65], headers[256];
        if (session_player(s, req->cookie, &me) == 0)
            reply_json(h, 200, json_pack("{s:o}", "player", ident_json(&me)), NULL);
        else if (guest_new(s, &me, token) == 0) {
            cookie_header(headers, sizeof headers, token);
            reply_json(h, 200, json_pack("{s:o}", "player", ident_json(&me)), headers);
        } else
            reply_error(h, 500, "could not make a guest session");
    } else if (strcmp(path, "/variants") == 0)
        reply_json(h, 200, variants_json(), NULL);
    else if (strcmp(path, "/lobby") == 0) {
        json_t *l = lobby_now(s);
        json_object_del(l, "type");
        reply_json(h, 200, l, NULL);
    } else if (strcmp(path, "/bots") == 0)
        reply_json(h, 200, json_pack("{s:o}", "bots", bots_json(s)), NULL);
    else if (strncmp(path, "/games/", 7) == 0 && (id = path_id(path + 7, &rest)) > 0)
        game_page(s, h, id, rest);
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
    } else if (strncmp(path, "/ladder/", 8) == 0)
        ladder(s, h, path + 8);
    else
        reply_error(h, 404, "no such endpoint");
}
