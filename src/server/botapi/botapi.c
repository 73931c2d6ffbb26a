/* botapi.c -- the Bot API (docs/bot-api.md), shaped after lichess's: the
 * account's tokens, the event and game streams (NDJSON), and what a token's
 * holder asks of its games and challenges.
 *
 * A player who uses the API has one `apibot` here, and with it one client
 * of the server's own (conn NULL, c->api set) that plays, watches and
 * opens seeks exactly as a WebSocket's client does: every request becomes
 * the same message a page would send (client_dispatch), and every message
 * the server sends it (client_send) comes to botapi_deliver, which answers
 * the requests waiting on it and turns what happened into stream lines.
 * The rules stay where they are: nothing here judges a move.
 *
 * The invariants: an apibot names its client by id, and the client points
 * back to it until the apibot closes it; a stream is held from its opening
 * until its connection goes (`gone`) or it is ended here, never after; a
 * request waiting for its ref is answered exactly once (by its ref's
 * message, by its deadline, or when the server stops). An apibot with no
 * stream and no waiting request for --api-idle-ms goes, and its client with
 * it, as a page's client goes when its WebSocket closes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botapi.h"
#include "../core/http.h"
#include "../play/live_inside.h"
#include "../play/lobby.h"
#include "../core/srv.h"

#define API_TICK_MS 3000        /* keep-alives, deadlines and idleness are looked at */
#define API_KEEPALIVE_MS 6000   /* an empty line on every stream this often */
#define API_WAIT_MS 30000       /* the longest a request waits for its ref */


typedef struct api_stream {
    struct apibot *bot;
    net_stream *st;
    int64_t game;        /* 0: the event stream */
    int64_t token;       /* the token it was opened with */
    char said[64];       /* the game's state its last line told */
    struct api_stream *next;
} api_stream;

typedef struct api_wait {
    net_http *h;
    char ref[24];
    int64_t deadline;    /* monotonic ms */
    struct api_wait *next;
} api_wait;

typedef struct apibot {
    srv *s;
    int64_t player;
    uint64_t client;
    api_stream *streams;
    api_wait *waits;
    int64_t quiet_since; /* monotonic ms since nothing is open; 0 while something is */
    int64_t told[64];    /* games whose start the event stream told, not yet their end */
    int ntold;
    struct apibot *next;
} apibot;

struct botapi {
    apibot *bots;
    net_timer *timer;
    int64_t keepalive;   /* monotonic ms of the last keep-alive */
    uint64_t refs;
};

/* --- the players who use the API, and their streams -------------------------- */

static void api_tick(void *arg);

static struct botapi *api_state(srv *s)
{
    if (!s->botapi) {
        s->botapi = calloc(1, sizeof *s->botapi);
        if (s->botapi && !s->stopping) {
            s->botapi->timer = net_timer_new(s->net, api_tick, s);
            if (s->botapi->timer)
                net_timer_set(s->botapi->timer, API_TICK_MS);
        }
    }
    return s->botapi;
}

static client *bot_client(const apibot *b)
{
    return client_find(b->s, b->client);
}

static void botapi_deliver(client *c, json_t *msg);

/* The apibot of a token's player, made with its client if there is none. */
static apibot *apibot_of(srv *s, const ident *me, const net_request *req)
{
    struct botapi *A = api_state(s);
    if (!A)
        return NULL;
    for (apibot *b = A->bots; b; b = b->next)
        if (b->player == me->id) {
            client *c = bot_client(b);
            if (c)
                c->me = *me;  /* an upgrade shows at once */
            return c ? b : NULL;
        }
    apibot *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    char addr[64];
    ident_request_addr(s, req, addr, sizeof addr);
    client *c = client_new(s, NULL, me, addr, botapi_deliver);
    if (!c) {
        free(b);
        return NULL;
    }
    c->api = b;
    c->ready = 1;
    live_player_back(s, c->me.id);
    b->s = s;
    b->player = me->id;
    b->client = c->id;
    b->quiet_since = net_mono_ms();
    b->next = A->bots;
    A->bots = b;
    return b;
}

static void line(api_stream *st, json_t *j)
{
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (!text)
        return;
    size_t n = strlen(text);
    char *l = realloc(text, n + 2);
    if (l) {
        l[n] = '\n';
        net_stream_write(st->st, l, n + 1);
        free(l);
    } else {
        free(text);
    }
}

static void stream_forget(api_stream *st)
{
    apibot *b = st->bot;
    for (api_stream **p = &b->streams; *p; p = &(*p)->next)
        if (*p == st) {
            *p = st->next;
            break;
        }
    if (!b->streams && !b->waits)
        b->quiet_since = net_mono_ms();
    free(st);
}

static void stream_gone(void *arg)
{
    stream_forget(arg);
}

static void stream_end(api_stream *st)
{
    net_stream_end(st->st);
    stream_forget(st);
}

static int token_streams(srv *s, int64_t token)
{
    int n = 0;
    for (apibot *b = s->botapi ? s->botapi->bots : NULL; b; b = b->next)
        for (api_stream *st = b->streams; st; st = st->next)
            n += st->token == token;
    return n;
}

static api_stream *stream_open(srv *s, net_http *h, apibot *b, int64_t token, int64_t game)
{
    int max = s->cfg.limits[LIM_API_STREAMS];
    if (max > 0 && token_streams(s, token) >= max) {
        char msg[96];
        snprintf(msg, sizeof msg, "at most %d open streams a token", max);
        reply_error(h, 429, msg);
        return NULL;
    }
    api_stream *st = calloc(1, sizeof *st);
    if (!st) {
        reply_error(h, 500, "out of memory");
        return NULL;
    }
    st->bot = b;
    st->game = game;
    st->token = token;
    st->st = net_http_stream(h, 200, "application/x-ndjson", stream_gone, st);
    if (!st->st) {
        free(st);
        return NULL;
    }
    st->next = b->streams;
    b->streams = st;
    b->quiet_since = 0;
    return st;
}

/* The Bot API's client of a request's token (with one of the scopes in
 * `want`), made if need be: the client, with its apibot in *b; NULL after
 * answering. */
static client *api_client(srv *s, net_http *h, const net_request *req, int want, ident *me,
                          int64_t *token, apibot **b)
{
    if (tokens_me(s, h, req, want, me, token) != 0)
        return NULL;
    *b = apibot_of(s, me, req);
    client *c = *b ? bot_client(*b) : NULL;
    if (!c)
        reply_error(h, 500, "out of memory");
    return c;
}

/* --- what a game looks like on the streams ----------------------------------------- */

static json_t *variant_json(const game_variant *v)
{
    return json_pack("{s:s, s:s}", "key", v->name, "name", v->title);
}

static json_t *clock_json(int64_t base_ms, int64_t inc_ms)
{
    return base_ms > 0 ? json_pack("{s:I, s:I}", "limit", (json_int_t)(base_ms / 1000),
                                   "increment", (json_int_t)(inc_ms / 1000))
                       : json_null();
}

static int my_side(const live *g, const client *c)
{
    unsigned m = live_sides_of(g, c);
    return m ? (m & (m - 1) ? live_to_move(g) : __builtin_ctz(m)) : -1;
}

/* What the state line of g says, in brief: a new line goes out when it
 * changes. */
static void state_said(const live *g, char *out, size_t size)
{
    snprintf(out, size, "%d/%d/%u/%u/%d", g->nmoves, g->over, g->draw_offer, g->ready,
             g->setting_up);
}

static json_t *game_state(live *g, const client *c)
{
    size_t len = 1;
    for (int i = 0; i < g->nmoves; i++)
        len += strlen(g->moves[i].text) + 1;
    char *moves = malloc(len);
    if (!moves)
        return NULL;
    moves[0] = 0;
    for (int i = 0, at = 0; i < g->nmoves; i++)
        at += sprintf(moves + at, "%s%s", i ? " " : "", g->moves[i].text);
    json_t *clocks = live_clocks_json(g);
    json_t *j = json_pack("{s:s, s:s, s:o, s:i, s:i, s:o, s:I, s:s, s:o}", "type", "gameState",
                          "moves", moves, "position", live_position_json(g, c), "ply",
                          g->nmoves, "to_move", g->over ? -1 : live_to_move(g), "clocks",
                          clocks, "inc_ms", (json_int_t)g->g.inc_ms, "status",
                          g->over ? g->g.reason : "started", "draw_offer",
                          live_sides_json(g, g->draw_offer));
    free(moves);
    if (g->v->nsides == 2) {
        json_object_set(j, "wtime", json_array_get(clocks, 0));
        json_object_set(j, "btime", json_array_get(clocks, 1));
        json_object_set_new(j, "winc", json_integer(g->g.inc_ms));
        json_object_set_new(j, "binc", json_integer(g->g.inc_ms));
    }
    if (g->over && g->g.winner >= 0) {
        json_t *w = json_array();
        for (int i = 0; i < g->v->nsides; i++)
            if (g->v->ops->team_of(g->pos, i) == g->g.winner)
                json_array_append_new(w, json_string(g->v->ops->side_name(g->pos, i)));
        if (json_array_size(w) == 1)
            json_object_set(j, "winner", json_array_get(w, 0));
        json_object_set_new(j, "winners", w);
    }
    if (g->v->ops->setup) {
        json_object_set_new(j, "phase", json_string(g->setting_up ? "setup" : "play"));
        json_object_set_new(j, "ready", live_sides_json(g, g->ready));
    }
    return j;
}

static json_t *players_of(const live *g)
{
    json_t *a = json_array();
    for (int i = 0; i < g->v->nsides; i++)
        json_array_append_new(a, ident_json(&g->players[i]));
    return a;
}

static json_t *game_full(live *g, const client *c)
{
    json_t *sides = json_array();
    for (int i = 0; i < g->v->nsides; i++)
        json_array_append_new(sides, json_string(g->v->ops->side_name(g->pos, i)));
    const char *initial = g->v->hidden && !g->over ? "" : g->g.start;
    json_t *state = game_state(g, c), *options = json_object();
    for (const game_option *o = g->v->options; o && o->name; o++) {
        int value;
        if (g->v->ops->get_option && g->v->ops->get_option(g->pos, o->name, &value) == 0)
            json_object_set_new(options, o->name, json_integer(value));
    }
    return json_pack("{s:s, s:I, s:o, s:b, s:o, s:i, s:o, s:o, s:o, s:i, s:s, s:o, s:I}",
                     "type", "gameFull", "id", (json_int_t)g->id, "variant",
                     variant_json(g->v), "rated", g->g.rated, "clock",
                     clock_json(g->g.base_ms, g->g.inc_ms), "move_limit", g->g.move_limit,
                     "options", options, "players", players_of(g), "sides", sides, "you",
                     my_side(g, c), "initialFen", initial, "state",
                     state ? state : json_null(), "created", (json_int_t)g->g.created);
}

static json_t *game_brief(live *g, const client *c)
{
    return json_pack("{s:I, s:o, s:b, s:o, s:i}", "id", (json_int_t)g->id, "variant",
                     variant_json(g->v), "rated", g->g.rated, "players", players_of(g), "you",
                     my_side(g, c));
}

static int told_index(const apibot *b, int64_t game)
{
    for (int i = 0; i < b->ntold; i++)
        if (b->told[i] == game)
            return i;
    return -1;
}

static void event_all(apibot *b, json_t *j)
{
    for (api_stream *st = b->streams; st; st = st->next)
        if (!st->game)
            line(st, json_incref(j));
    json_decref(j);
}

/* Something happened in game `id`: the event stream hears of its start
 * and end, its game streams of its new state. */
static void game_news(apibot *b, client *c, int64_t id)
{
    live *g = live_find(b->s, id);
    if (!g || !live_sides_of(g, c))
        return;
    int k = told_index(b, id);
    if (!g->over && k < 0 && b->ntold < (int)(sizeof b->told / sizeof b->told[0])) {
        b->told[b->ntold++] = id;
        event_all(b, json_pack("{s:s, s:o}", "type", "gameStart", "game", game_brief(g, c)));
    } else if (g->over && k >= 0) {
        b->told[k] = b->told[--b->ntold];
        event_all(b, json_pack("{s:s, s:o}", "type", "gameFinish", "game", game_brief(g, c)));
    }
    char said[64];
    state_said(g, said, sizeof said);
    for (api_stream *st = b->streams, *next; st; st = next) {
        next = st->next;
        if (st->game != id || strcmp(st->said, said) == 0)
            continue;
        snprintf(st->said, sizeof st->said, "%s", said);
        json_t *state = game_state(g, c);
        if (state)
            line(st, state);
        if (g->over)
            stream_end(st);
    }
}

/* What the server sends a Bot API client (client_send, through the
 * client's `deliver`). */
static void botapi_deliver(client *c, json_t *msg)
{
    apibot *b = c->api;
    const char *ref = json_string_value(json_object_get(msg, "ref"));
    for (api_wait **p = &b->waits; ref && *p; p = &(*p)->next) {
        api_wait *w = *p;
        if (strcmp(w->ref, ref) != 0)
            continue;
        *p = w->next;
        const char *type = json_string_value(json_object_get(msg, "type"));
        if (type && strcmp(type, "error") == 0)
            reply_json(w->h, 400, json_pack("{s:O}", "error", json_object_get(msg, "error")),
                       NULL);
        else
            reply_json(w->h, 200, json_pack("{s:b}", "ok", 1), NULL);
        free(w);
        if (!b->streams && !b->waits)
            b->quiet_since = net_mono_ms();
        break;
    }
    json_t *game = json_object_get(msg, "game");
    int64_t id = json_is_integer(game) ? json_integer_value(game)
               : json_is_object(game)  ? json_integer_value(json_object_get(game, "id"))
                                       : 0;
    if (id > 0)
        game_news(b, c, id);
}

/* --- requests of a game ------------------------------------------------------------- */

/* Sends msg as c's request; answers h when its ref comes back (wait) or
 * at once unless it was refused at once. Steals msg. */
static void request(srv *s, net_http *h, apibot *b, json_t *msg, int wait)
{
    client *c = bot_client(b);
    api_wait *w = calloc(1, sizeof *w);
    if (!c || !w) {
        free(w);
        json_decref(msg);
        reply_error(h, 500, "out of memory");
        return;
    }
    w->h = h;
    w->deadline = net_mono_ms() + API_WAIT_MS;
    snprintf(w->ref, sizeof w->ref, "api-%llu", (unsigned long long)++s->botapi->refs);
    json_object_set_new(msg, "ref", json_string(w->ref));
    w->next = b->waits;
    b->waits = w;
    b->quiet_since = 0;
    client_dispatch(s, c, msg);
    json_decref(msg);
    if (wait)
        return;
    for (api_wait **p = &b->waits; *p; p = &(*p)->next)
        if (*p == w) {  /* not answered yet: taken */
            *p = w->next;
            reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
            free(w);
            break;
        }
    if (!b->streams && !b->waits)
        b->quiet_since = net_mono_ms();
}

/* Whether c watches g (and so hears of its moves). */
static int watching(const live *g, const client *c)
{
    for (int i = 0; i < g->nwatch; i++)
        if (g->watchers[i] == c->id)
            return 1;
    return 0;
}

/* /api/bot/game/... and /api/board/game/... */
static void game_http(srv *s, net_http *h, const net_request *req, const char *rest, int board)
{
    ident me;
    int64_t token;
    if (tokens_me(s, h, req, board ? SC_BOARD : SC_BOT, &me, &token) != 0)
        return;
    if (!board && !me.api_bot) {
        reply_error(h, 403, "only a bot account plays through /api/bot (see "
                            "/api/bot/account/upgrade, or /api/board with board:play)");
        return;
    }
    if (board && me.api_bot) {
        reply_error(h, 403, "a bot account plays through /api/bot");
        return;
    }
    int get = strcmp(req->method, "GET") == 0;
    int stream = strncmp(rest, "stream/", 7) == 0;
    const char *after;
    int64_t id = req_path_id(stream ? rest + 7 : rest, &after);
    if (id <= 0 || (stream && *after) || get != stream) {
        reply_error(h, 404, "no such endpoint");
        return;
    }
    live *g = live_find(s, id);
    if (!g) {
        reply_error(h, 404, "no such game live on this server");
        return;
    }
    apibot *b = apibot_of(s, &me, req);
    client *c = b ? bot_client(b) : NULL;
    if (!c) {
        reply_error(h, 500, "out of memory");
        return;
    }
    if (!live_sides_of(g, c)) {
        reply_error(h, 403, "you do not play in that game");
        return;
    }
    if (stream) {
        api_stream *st = stream_open(s, h, b, token, id);
        if (!st)
            return;
        state_said(g, st->said, sizeof st->said);
        line(st, game_full(g, c));
        if (g->over)
            stream_end(st);
        else
            live_watch(s, g, c);
        return;
    }
    /* the game's messages are how a request's ref is answered: a client
     * made afresh (its apibot went idle, nothing open) watches the game it
     * plays, or its move would be made and its request time out */
    if (!watching(g, c))
        live_watch(s, g, c);
    json_t *msg = NULL;
    int wait = 0;
    if (strncmp(after, "/move/", 6) == 0 && after[6] && strlen(after + 6) < 32) {
        msg = json_pack("{s:s, s:I, s:i, s:s}", "type", "move", "game", (json_int_t)id, "ply",
                        g->nmoves, "move", after + 6);
        wait = 1;
    } else if (strcmp(after, "/resign") == 0) {
        msg = json_pack("{s:s, s:I}", "type", "resign", "game", (json_int_t)id);
    } else if (strcmp(after, "/draw/yes") == 0) {
        msg = json_pack("{s:s, s:I}", "type", "draw", "game", (json_int_t)id);
    } else if (strcmp(after, "/draw/no") == 0) {
        reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);  /* an offer lapses by itself */
        return;
    } else if (strcmp(after, "/setup") == 0) {
        json_t *body = req_body_object(req, h);
        if (!body)
            return;
        const char *setup = json_string_value(json_object_get(body, "setup"));
        if (!setup || strlen(setup) >= MSG_MAX_TEXT) {
            json_decref(body);
            reply_error(h, 400, "setup: a string (docs/api.md, private setups)");
            return;
        }
        msg = json_pack("{s:s, s:I, s:s}", "type", "setup", "game", (json_int_t)id, "setup",
                        setup);
        json_decref(body);
    } else {
        reply_error(h, 404, "no such endpoint");
        return;
    }
    if (!msg) {
        reply_error(h, 400, "the move is not text");
        return;
    }
    request(s, h, b, msg, wait);
}

/* GET /api/stream/event */
static void events_http(srv *s, net_http *h, const net_request *req)
{
    ident me;
    int64_t token;
    apibot *b;
    client *c = api_client(s, h, req, SC_BOT | SC_BOARD, &me, &token, &b);
    if (!c)
        return;
    api_stream *st = stream_open(s, h, b, token, 0);
    if (!st)
        return;
    /* what is under way already: its games (told afresh on this stream),
     * and the challenges waiting for the player */
    LIVE_EACH(s, g)
        if (!g->over && live_sides_of(g, c)) {
            if (told_index(b, g->id) < 0 && b->ntold < (int)(sizeof b->told / sizeof b->told[0]))
                b->told[b->ntold++] = g->id;
            line(st, json_pack("{s:s, s:o}", "type", "gameStart", "game", game_brief(g, c)));
        }
    for (seek *k = s->seeks; k; k = k->next)
        if (k->to.id == me.id)
            line(st, json_pack("{s:s, s:o}", "type", "challenge", "challenge",
                               botapi_challenge_json(k, "created", 0)));
}

/* --- challenges and seeks ------------------------------------------------------- */

json_t *botapi_challenge_json(const seek *k, const char *status, int64_t game)
{
    json_t *j = json_pack("{s:s, s:s, s:o, s:o, s:o, s:b, s:o, s:i}", "id", k->token, "status",
                          status, "challenger", ident_json(&k->by), "destUser",
                          ident_json(&k->to), "variant", variant_json(k->set.v), "rated",
                          k->set.rated, "clock", clock_json(k->set.base_ms, k->set.inc_ms),
                          "move_limit", k->set.move_limit);
    if (game > 0)
        json_object_set_new(j, "game", json_integer(game));
    if (k->token[0]) {
        char url[64];
        snprintf(url, sizeof url, "/play/%s", k->token);  /* the page's challenge link */
        json_object_set_new(j, "url", json_string(url));
    }
    return j;
}

/* The event streams of a player, if they use the API here. */
static void tell_player(srv *s, int64_t player, json_t *j)
{
    for (apibot *b = s->botapi ? s->botapi->bots : NULL; b; b = b->next)
        if (b->player == player) {
            event_all(b, j);
            return;
        }
    json_decref(j);
}

/* The settings of a challenge's or seek's body ({variant, clock: {limit,
 * increment}, rated, move_limit, options}): 0, or -1 after answering 400. */
static int body_settings(net_http *h, const net_request *req, game_settings *set)
{
    json_t *body = req_body_object(req, h);
    if (!body)
        return -1;
    json_t *msg = json_object();
    const char *keys[] = {"variant", "rated", "move_limit", "options"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (json_object_get(body, keys[i]))
            json_object_set(msg, keys[i], json_object_get(body, keys[i]));
    json_t *clock = json_object_get(body, "clock");
    char err[200] = "";
    json_object_set_new(msg, "base_ms", json_integer(0));  /* no clock unless one is given */
    json_object_set_new(msg, "inc_ms", json_integer(0));
    if (clock && !json_is_null(clock)) {
        json_t *limit = json_object_get(clock, "limit"), *inc = json_object_get(clock, "increment");
        if (!json_is_integer(limit) || (inc && !json_is_integer(inc)) ||
            json_integer_value(limit) < 0 || json_integer_value(limit) > SRV_MAX_BASE_MS / 1000 ||
            (inc && (json_integer_value(inc) < 0 ||
                     json_integer_value(inc) > SRV_MAX_INC_MS / 1000)))
            snprintf(err, sizeof err, "clock: {\"limit\": seconds, \"increment\": seconds}");
        else {
            json_object_set_new(msg, "base_ms", json_integer(json_integer_value(limit) * 1000));
            json_object_set_new(msg, "inc_ms",
                                json_integer(inc ? json_integer_value(inc) * 1000 : 0));
        }
    }
    int rc = err[0] ? -1 : msg_settings_parse(msg, set, err, sizeof err);
    json_decref(msg);
    json_decref(body);
    if (rc != 0)
        reply_error(h, 400, err);
    return rc;
}

/* POST /api/challenge/{name}, /api/challenge/{id}/accept|decline|cancel */
static void challenge_http(srv *s, net_http *h, const net_request *req, const char *rest)
{
    const char *slash = strchr(rest, '/');
    const char *action = slash ? slash + 1 : "";
    int create = !slash;
    ident me;
    int64_t token;
    if (strcmp(req->method, "POST") != 0) {
        reply_error(h, 405, "POST only");
        return;
    }
    apibot *b;
    client *c = api_client(s, h, req, create ? SC_CHALLENGE : SC_CHALLENGE | SC_BOT | SC_BOARD,
                           &me, &token, &b);
    if (!c)
        return;
    char err[200];
    if (!create) {
        char tok[40];
        size_t n = (size_t)(slash - rest);
        seek *k = NULL;
        if (n > 0 && n < sizeof tok) {
            memcpy(tok, rest, n);
            tok[n] = 0;
            k = lobby_challenge_find(s, tok);
        }
        if (!k || (strcmp(action, "cancel") == 0 ? k->by.id != me.id
                                                  : k->to.id != me.id && k->to.id)) {
            reply_error(h, 404, "no such challenge of or for you (taken or withdrawn)");
            return;
        }
        if (strcmp(action, "accept") == 0) {
            json_t *j = botapi_challenge_json(k, "accepted", 0);
            live *g = lobby_take(s, c, k, err, sizeof err);
            if (!g) {
                json_decref(j);
                reply_error(h, 400, err);
                return;
            }
            json_object_set_new(j, "game", json_integer(g->id));
            json_object_del(j, "url");
            reply_json(h, 200, json_pack("{s:o}", "challenge", j), NULL);
        } else if (strcmp(action, "decline") == 0 || strcmp(action, "cancel") == 0) {
            int decline = action[0] == 'd';
            json_t *j = botapi_challenge_json(k, decline ? "declined" : "canceled", 0);
            int64_t other = decline ? k->by.id : k->to.id;
            lobby_drop(s, k);
            tell_player(s, other, json_pack("{s:s, s:O}", "type",
                                            decline ? "challengeDeclined" : "challengeCanceled",
                                            "challenge", j));
            reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
            json_decref(j);
        } else {
            reply_error(h, 404, "no such endpoint");
        }
        return;
    }
    game_settings set;
    if (body_settings(h, req, &set) != 0)
        return;
    const ident *robot = lobby_bot_by_name(s, rest);
    store_player p;
    store_err e;
    ident to;
    if (robot) {
        live *g = lobby_play_bot(s, c, &set, robot, -1, err, sizeof err);
        if (!g) {
            reply_error(h, 400, err);
            return;
        }
        seek k = {.by = me, .to = *robot, .set = set};
        json_t *j = botapi_challenge_json(&k, "accepted", g->id);
        json_object_set_new(j, "id", json_string(""));
        reply_json(h, 200, json_pack("{s:o}", "challenge", j), NULL);
        return;
    }
    store_standing st;
    if (store_player_by_name(s->st, rest, &p, NULL, &e) != 0 || p.is_guest || p.is_bot ||
        store_standing_get(s->st, p.id, &st, &e) != 0 || st.closed) {
        reply_error(h, 404, "no such player");  /* a closed account is no one's to challenge */
        return;
    }
    ident_of(&p, &to);
    seek *k = lobby_challenge(s, c, &set, &to, err, sizeof err);
    if (!k) {
        reply_error(h, 400, err);
        return;
    }
    json_t *j = botapi_challenge_json(k, "created", 0);
    tell_player(s, to.id, json_pack("{s:s, s:O}", "type", "challenge", "challenge", j));
    reply_json(h, 200, json_pack("{s:o}", "challenge", j), NULL);
}

/* POST /api/bot/seek, DELETE /api/bot/seek/{id} */
static void seek_http(srv *s, net_http *h, const net_request *req, const char *rest)
{
    ident me;
    int64_t token;
    apibot *b;
    client *c = api_client(s, h, req, SC_BOT | SC_BOARD, &me, &token, &b);
    if (!c)
        return;
    if (strcmp(req->method, "DELETE") == 0 && rest[0] == '/') {
        const char *end;
        int64_t id = req_path_id(rest + 1, &end);
        if (id <= 0 || *end || lobby_withdraw(s, c, id) != 0)
            reply_error(h, 404, "no such seek of yours");
        else
            reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
        return;
    }
    if (strcmp(req->method, "POST") != 0 || rest[0]) {
        reply_error(h, 405, "POST /api/bot/seek, DELETE /api/bot/seek/ID");
        return;
    }
    game_settings set;
    if (body_settings(h, req, &set) != 0)
        return;
    char err[200];
    seek *k = lobby_seek(s, c, &set, err, sizeof err);
    if (!k)
        reply_error(h, 400, err);
    else
        reply_json(h, 200, json_pack("{s:I}", "id", (json_int_t)k->id), NULL);
}

/* POST /api/bot/account/upgrade */
static void upgrade_http(srv *s, net_http *h, const net_request *req)
{
    ident me;
    int64_t token;
    if (tokens_me(s, h, req, SC_BOT, &me, &token) != 0)
        return;
    store_err e;
    int rc = store_player_api_bot(s->st, me.id, &e);
    if (rc != 0) {
        reply_error(h, rc == STORE_NOT_FOUND ? 400 : 500,
                    rc == STORE_NOT_FOUND ? e.msg : "could not upgrade; try again");
        return;
    }
    me.api_bot = 1;
    for (apibot *b = s->botapi ? s->botapi->bots : NULL; b; b = b->next) {
        client *c = b->player == me.id ? bot_client(b) : NULL;
        if (c)
            c->me.api_bot = 1;
    }
    reply_json(h, 200, json_pack("{s:b}", "ok", 1), NULL);
}

int botapi_http(srv *s, net_http *h, const net_request *req, const char *path)
{
    int64_t token;
    ident me;
    if (strcmp(path, "/account/tokens") == 0 || strncmp(path, "/account/tokens/", 16) == 0)
        tokens_http(s, h, req, path + 15);
    else if (strcmp(path, "/account") == 0 && strcmp(req->method, "GET") == 0) {
        if (tokens_me(s, h, req, 0, &me, &token) == 0)
            reply_json(h, 200,
                       json_pack("{s:I, s:s, s:b, s:b}", "id", (json_int_t)me.id, "name",
                                 me.name, "bot", me.api_bot, "guest", me.guest),
                       NULL);
    } else if (strcmp(path, "/bot/account/upgrade") == 0 && strcmp(req->method, "POST") == 0)
        upgrade_http(s, h, req);
    else if (strcmp(path, "/stream/event") == 0 && strcmp(req->method, "GET") == 0)
        events_http(s, h, req);
    else if (strncmp(path, "/bot/game/", 10) == 0)
        game_http(s, h, req, path + 10, 0);
    else if (strncmp(path, "/board/game/", 12) == 0)
        game_http(s, h, req, path + 12, 1);
    else if (strcmp(path, "/bot/seek") == 0 || strncmp(path, "/bot/seek/", 10) == 0)
        seek_http(s, h, req, path + 9);
    else if (strncmp(path, "/challenge/", 11) == 0 && path[11])
        challenge_http(s, h, req, path + 11);
    else
        return 0;
    return 1;
}

/* --- time ------------------------------------------------------------------------- */

/* b's streams end, its waiting requests are answered `status` `why`, and
 * its client goes; b is freed (its caller has taken it out of the list). */
static void apibot_close(srv *s, apibot *b, int status, const char *why)
{
    while (b->streams)
        stream_end(b->streams);
    while (b->waits) {
        api_wait *w = b->waits;
        b->waits = w->next;
        reply_error(w->h, status, why);
        free(w);
    }
    client *c = bot_client(b);
    if (c) {
        c->api = NULL;
        if (!s->stopping)
            client_close(s, c);
    }
    free(b);
}

static void api_tick(void *arg)
{
    srv *s = arg;
    struct botapi *A = s->botapi;
    int64_t now = net_mono_ms();
    int keepalive = now - A->keepalive >= API_KEEPALIVE_MS;
    if (keepalive)
        A->keepalive = now;
    for (apibot **p = &A->bots; *p;) {
        apibot *b = *p;
        for (api_wait **w = &b->waits; *w;) {
            if ((*w)->deadline <= now) {
                api_wait *x = *w;
                *w = x->next;
                reply_error(x->h, 504, "no answer yet: follow the game's stream");
                free(x);
            } else {
                w = &(*w)->next;
            }
        }
        if (keepalive)
            for (api_stream *st = b->streams; st; st = st->next)
                net_stream_write(st->st, "\n", 1);
        if (!b->streams && !b->waits && !b->quiet_since)
            b->quiet_since = now;
        if (b->quiet_since && now - b->quiet_since >= s->cfg.api_idle_ms) {
            *p = b->next;
            apibot_close(s, b, 503, "the server is stopping; try again");  /* none wait */
        } else {
            p = &b->next;
        }
    }
    net_timer_set(A->timer, API_TICK_MS);
}

/* hooks.revoke_api (core/revoke.c): a token's streams end; a closed
 * account's apibot goes, every stream of it ended, its waiting requests
 * answered 401 and its client closed. Sessions open no stream. */
void botapi_revoke(srv *s, const revoked *r)
{
    if (!s->botapi || r->kind == REVOKE_SESSION || r->kind == REVOKE_OTHERS)
        return;
    for (apibot **p = &s->botapi->bots; *p;) {
        apibot *b = *p;
        if (b->player != r->player) {
            p = &b->next;
        } else if (r->kind == REVOKE_PLAYER) {
            *p = b->next;
            apibot_close(s, b, 401, "the token's account is closed");
        } else {
            for (api_stream *st = b->streams, *next; st; st = next) {
                next = st->next;
                if (st->token == r->token)
                    stream_end(st);
            }
            p = &b->next;
        }
    }
}

void botapi_stop(srv *s)
{
    struct botapi *A = s->botapi;
    if (!A)
        return;
    net_timer_free(A->timer);
    A->timer = NULL;
    while (A->bots) {
        apibot *b = A->bots;
        A->bots = b->next;
        apibot_close(s, b, 503, "the server is stopping; try again");
    }
}

void botapi_free(srv *s)
{
    botapi_stop(s);
    free(s->botapi);
    s->botapi = NULL;
}
