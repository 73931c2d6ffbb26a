/* streams.c -- the players who use the Bot API (docs/bot-api.md), their
 * NDJSON streams and the requests waiting for the server's answer.
 *
 * A player who uses the API has one `apibot` here, and with it one client
 * of the server's own (conn NULL, c->api set) that plays, watches and
 * opens seeks exactly as a WebSocket's client does: every request becomes
 * the same message a page would send (client_dispatch), and every message
 * the server sends it (client_send) comes to botapi_deliver, which answers
 * the requests waiting on it and turns what happened into stream lines
 * (shapes.c). The rules stay where they are: nothing here judges a move.
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

#include "botapi_inside.h"

#define API_TICK_MS 3000        /* keep-alives, deadlines and idleness are looked at */
#define API_KEEPALIVE_MS 6000   /* an empty line on every stream this often */
#define API_WAIT_MS 30000       /* the longest a request waits for its ref */

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

client *api_bot_client(const apibot *b)
{
    return client_find(b->s, b->client);
}

static void botapi_deliver(client *c, json_t *msg);

apibot *api_bot_of(srv *s, const ident *me, const net_request *req)
{
    struct botapi *A = api_state(s);
    if (!A)
        return NULL;
    for (apibot *b = A->bots; b; b = b->next)
        if (b->player == me->id) {
            client *c = api_bot_client(b);
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

void api_line(api_stream *st, json_t *j)
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

void api_stream_end(api_stream *st)
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

api_stream *api_stream_open(srv *s, net_http *h, apibot *b, int64_t token, int64_t game)
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

client *api_client(srv *s, net_http *h, const net_request *req, int want, ident *me,
                          int64_t *token, apibot **b)
{
    if (tokens_me(s, h, req, want, me, token) != 0)
        return NULL;
    *b = api_bot_of(s, me, req);
    client *c = *b ? api_bot_client(*b) : NULL;
    if (!c)
        reply_error(h, 500, "out of memory");
    return c;
}

apibot *api_bots(srv *s)
{
    return s->botapi ? s->botapi->bots : NULL;
}

static int told_index(const apibot *b, int64_t game)
{
    for (int i = 0; i < b->ntold; i++)
        if (b->told[i] == game)
            return i;
    return -1;
}

void api_told(apibot *b, int64_t game)
{
    if (told_index(b, game) < 0 && b->ntold < (int)(sizeof b->told / sizeof b->told[0]))
        b->told[b->ntold++] = game;
}

void api_event_all(apibot *b, json_t *j)
{
    for (api_stream *st = b->streams; st; st = st->next)
        if (!st->game)
            api_line(st, json_incref(j));
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
        api_event_all(b, json_pack("{s:s, s:o}", "type", "gameStart", "game",
                                   shape_game_info(b->s, g, c)));
    } else if (g->over && k >= 0) {
        b->told[k] = b->told[--b->ntold];
        api_event_all(b, json_pack("{s:s, s:o}", "type", "gameFinish", "game",
                                   shape_game_info(b->s, g, c)));
    }
    /* a move that ended the game is told with the end, once it is stored:
     * a line between would say "started" and someone's turn */
    if (!g->over && !g->setting_up && g->v->ops->result(g->pos).over)
        return;
    char said[64];
    shape_state_said(g, said, sizeof said);
    for (api_stream *st = b->streams, *next; st; st = next) {
        next = st->next;
        if (st->game != id || strcmp(st->said, said) == 0)
            continue;
        snprintf(st->said, sizeof st->said, "%s", said);
        json_t *state = shape_game_state(g, c);
        if (state)
            api_line(st, state);
        if (g->over)
            api_stream_end(st);
    }
}

/* A chat line of game `id` (the server's `chat` message): lichess's
 * chatLine on the game's streams. */
static void chat_news(apibot *b, int64_t id, json_t *msg)
{
    json_t *l = json_object_get(msg, "line");
    const char *from = json_string_value(json_object_get(json_object_get(l, "from"), "name"));
    const char *text = json_string_value(json_object_get(l, "text"));
    const char *room = json_string_value(json_object_get(msg, "room"));
    if (!from || !text || !room)
        return;
    for (api_stream *st = b->streams; st; st = st->next)
        if (st->game == id)
            api_line(st, json_pack("{s:s, s:s, s:s, s:s}", "type", "chatLine", "room",
                                   strcmp(room, "players") == 0 ? "player" : "spectator",
                                   "username", from, "text", text));
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
    const char *type = json_string_value(json_object_get(msg, "type"));
    if (id > 0 && type && strcmp(type, "chat") == 0)
        chat_news(b, id, msg);
    else if (id > 0)
        game_news(b, c, id);
}

void api_request(srv *s, net_http *h, apibot *b, json_t *msg, int wait)
{
    client *c = api_bot_client(b);
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

void api_tell_player(srv *s, int64_t player, json_t *j)
{
    for (apibot *b = s->botapi ? s->botapi->bots : NULL; b; b = b->next)
        if (b->player == player) {
            api_event_all(b, j);
            return;
        }
    json_decref(j);
}

/* --- time ------------------------------------------------------------------------- */

/* b's streams end, its waiting requests are answered `status` `why`, and
 * its client goes; b is freed (its caller has taken it out of the list). */
static void apibot_close(srv *s, apibot *b, int status, const char *why)
{
    while (b->streams)
        api_stream_end(b->streams);
    while (b->waits) {
        api_wait *w = b->waits;
        b->waits = w->next;
        reply_error(w->h, status, why);
        free(w);
    }
    client *c = api_bot_client(b);
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
                    api_stream_end(st);
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
