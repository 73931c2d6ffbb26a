/* dispatch.c -- WebSocket connections as the top of the server sees them:
 * who each one is once it opens, what it may send, and which layer
 * answers each of its messages (docs/api.md); and what a client leaves
 * behind when it goes.
 *
 * A connection with a session cookie is known only once the server's
 * reader has read its session (off the loop): until then it is `ready` 0,
 * with player id 0 (no game, seek or player names it), and its messages
 * wait in `early`, to run in order after its `hello`.
 *
 * The layers below reach dispatch_message and dispatch_client_gone
 * only through srv_hooks (client_dispatch, client_close), which srv_new
 * fills in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"
#include "core/srv.h"
#include "dispatch.h"
#include "play/chat.h"
#include "play/live.h"
#include "play/lobby.h"
#include "play/messages.h"

/* --- opening and closing ------------------------------------------------------------- */

int srv_ws_filter(void *app, const net_request *req)
{
    srv *s = app;
    if (!ident_origin_ok(s, req))
        return 403;  /* another site's page must not act with this visitor's session */
    char addr[64], key[96];
    ident_request_addr(s, req, addr, sizeof addr);
    snprintf(key, sizeof key, "ws:%s", addr);
    int max = s->cfg.limits[LIM_WS_PER_ADDR];
    if (max > 0 && quota_count(s->quota, key) >= max)
        return 429;
    ident me;
    if (!ident_guest_allowed(s, addr) && ident_session_player(s, req->cookie, &me) != 0)
        return 429;  /* would be one guest too many */
    return 0;
}

static void on_text(srv *s, client *c, const char *text, size_t len);

/* A new connection is known (me its player; NULL: none, so a new guest):
 * its `hello`, then the messages that waited. 0, or -1 if no guest may be
 * made for it. */
static int client_known(srv *s, client *c, const ident *me, const int64_t *games, int ngames)
{
    char token[65];
    if (me) {
        c->me = *me;
    } else {
        c->session[0] = 0;  /* its cookie named no session: signing that out ends nothing */
        if (ident_guest_new(s, c->addr, &c->me, token) != 0)
            return -1;
    }
    c->ready = 1;
    json_t *list;
    if (games) {
        list = json_array();
        for (int i = 0; i < ngames; i++)
            json_array_append_new(list, json_integer(games[i]));
    } else {
        list = s->cl ? cluster_live_of_player(s, c->me.id) : live_of_player(s, c->me.id);
    }
    json_t *m = json_pack("{s:s, s:o, s:o}", "type", "hello", "player", ident_json(&c->me),
                          "games", list);
    client_send(c, m);
    json_decref(m);
    live_player_back(s, c->me.id);
    uint64_t id = c->id;
    for (int i = 0; i < c->nearly && client_find(s, id) == c; i++) {
        on_text(s, c, c->early[i], c->early_len[i]);
        free(c->early[i]);
        c->early[i] = NULL;
    }
    if (client_find(s, id) == c)
        c->nearly = 0;
    return 0;
}

/* Who a new connection is, read off the loop by the server's reader (a
 * writer.h thread that only reads, on a connection of its own): the
 * session, the player and (several servers) the player's live games.
 * Thousands of connections opening at once (a server's players coming
 * back on another after it stopped) held the loop for seconds when the
 * loop read them itself. */
typedef struct ident_job {
    wjob base;
    uint64_t client;
    char token[65];
    int64_t now;
    int found, failed, cluster, ngames;
    store_player p;
    int64_t games[64];
} ident_job;

static int ident_run(store *st, wjob *j)
{
    ident_job *g = (ident_job *)j;
    int64_t id;
    store_err e;
    int r = store_session_player(st, g->token, g->now, &id, &e);
    if (r == 0)
        r = store_player_by_id(st, id, &g->p, &e);
    if (r != 0) {
        g->failed = r < 0;  /* the store failed; STORE_NOT_FOUND: no such session */
        return 0;
    }
    g->found = 1;
    g->ngames = g->cluster ? store_player_live(st, id, g->games, 64, &e) : -1;
    return 0;
}

static void ident_done(void *app, wjob *j)
{
    srv *s = app;
    ident_job *g = (ident_job *)j;
    client *c = client_find(s, g->client);
    /* a store that failed to say must not make a signed-in visitor a guest:
     * the connection closes, and the page opens it again */
    int unknown = !g->found && (!j->ok || g->failed);
    ident me;
    if (g->found)
        ident_of(&g->p, &me);
    if (c && !c->ready &&
        (unknown || client_known(s, c, g->found ? &me : NULL,
                                 g->ngames >= 0 ? g->games : NULL, g->ngames) != 0))
        net_ws_close(c->conn);
    free(g);
    srv_check(s);
}

int srv_ws_open(void *app, net_conn *conn, const net_request *req)
{
    srv *s = app;
    char addr[64], key[96], token[65];
    ident_request_addr(s, req, addr, sizeof addr);
    snprintf(key, sizeof key, "ws:%s", addr);
    if (!quota_hold(s->quota, key, s->cfg.limits[LIM_WS_PER_ADDR], net_mono_ms()))
        return -1;
    client *c = client_new(s, conn, NULL, addr, NULL);
    if (!c) {
        quota_release(s->quota, key);
        return -1;
    }
    c->tokens = s->cfg.limits[LIM_MSG_BURST];
    c->refill_ms = net_mono_ms();
    ident_cookie_token(req->cookie, token);
    revoke_session_id(token, c->session);  /* cleared if it names no session */
    writer *reads = s->reader ? s->reader : s->writer;
    ident_job *g = token[0] && reads && writer_threaded(reads) ? calloc(1, sizeof *g) : NULL;
    net_conn_set_data(conn, c);
    if (g) {  /* known when the reader has read it */
        g->base.run = ident_run;
        g->base.done = ident_done;
        g->base.read_only = 1;
        g->client = c->id;
        memcpy(g->token, token, sizeof g->token);
        g->now = net_wall_ms();
        g->cluster = s->cl != NULL;
        g->ngames = -1;
        writer_submit(reads, &g->base);
        srv_check(s);
        return 0;
    }
    ident me;  /* no session, or a store with no file: here and now */
    int known = ident_session_player(s, req->cookie, &me) == 0;
    if (client_known(s, c, known ? &me : NULL, NULL, 0) != 0) {
        net_conn_set_data(conn, NULL);
        client_discard(s, c);
        return -1;
    }
    srv_check(s);
    return 0;
}

void srv_ws_close(void *app, net_conn *conn)
{
    srv *s = app;
    client *c = net_conn_data(conn);
    if (!c)
        return;
    net_conn_set_data(conn, NULL);
    client_close(s, c);
}

void dispatch_client_gone(srv *s, client *c)
{
    /* each live_unwatch takes the game out of c->watch; the loop ends even
     * if a game and its list disagreed */
    while (c->nwatch > 0) {
        int n = c->nwatch;
        live *g = live_find(s, c->watch[n - 1]);
        if (g)
            live_unwatch(g, c);
        if (c->nwatch == n)
            c->nwatch--;
    }
    lobby_client_gone(s, c);
    if (!client_of_player(s, c->me.id))
        live_player_left(s, c->me.id);
    cluster_client_gone(s, c);
}

/* --- messages ------------------------------------------------------------------------ */

/* 1 if the client may send another message now (token bucket). */
static int rate_ok(srv *s, client *c)
{
    double rate = s->cfg.limits[LIM_MSG_RATE], burst = s->cfg.limits[LIM_MSG_BURST];
    if (rate <= 0 || burst <= 0)
        return 1;
    int64_t now = net_mono_ms();
    c->tokens += (double)(now - c->refill_ms) * rate / 1000.0;
    if (c->tokens > burst)
        c->tokens = burst;
    c->refill_ms = now;
    if (c->tokens < 1.0)
        return 0;
    c->tokens -= 1.0;
    return 1;
}

static void on_watch(srv *s, client *c, const cmsg *m)
{
    live *g = live_find(s, m->game);
    if (!g) {
        if (m->kind == MSG_WATCH) {
            /* a finished game no longer in memory: send it as stored */
            char err[160];
            json_t *st = records_game_json(s, m->game, c, err, sizeof err);
            if (st) {
                json_t *out = game_message(st);
                client_send(c, out);
                json_decref(out);
                return;
            }
        }
        client_error(c, m->ref, "no such game");
        return;
    }
    if (m->kind == MSG_WATCH)
        live_watch(s, g, c);
    else
        live_unwatch(g, c);
}

/* 1 if m, a request for a live game, waits for a write of that game
 * (live_store.c), which keeps msg to run it then. */
/* 1 for the requests that make or play a game. */
static int plays(msg_kind k)
{
    switch (k) {
    case MSG_MOVE: case MSG_RESIGN: case MSG_DRAW: case MSG_ABORT: case MSG_UNCOVER: case MSG_REMATCH:
    case MSG_SETUP: case MSG_SEEK: case MSG_CHALLENGE: case MSG_ACCEPT: case MSG_ACCEPT_CHALLENGE:
    case MSG_PLAY_BOT: case MSG_LOCAL: case MSG_TABLE: case MSG_SIT:
        return 1;
    default:
        return 0;
    }
}

static int waits(srv *s, client *c, const cmsg *m, json_t *msg)
{
    switch (m->kind) {
    case MSG_MOVE: case MSG_RESIGN: case MSG_DRAW: case MSG_ABORT: case MSG_UNCOVER: case MSG_REMATCH:
    case MSG_SETUP: {
        live *g = live_find(s, m->game);
        return g && live_defer(g, c, msg);
    }
    default:
        return 0;
    }
}

void dispatch_message(srv *s, client *c, json_t *msg)
{
    cmsg m;
    char err[200];
    if (msg_parse(msg, &m, err, sizeof err) != 0) {
        client_error(c, json_is_object(msg) ? json_object_get(msg, "ref") : NULL, "%s", err);
        return;
    }
    if (!cluster_lease_holds(s)) {  /* paused past the lease, maybe: never answer stale */
        client_error(c, m.ref, "this server cannot reach its database; try again in a moment");
        return;
    }
    if (c->me.api_bot && !c->api && plays(m.kind)) {
        client_error(c, m.ref, "a bot account plays through the Bot API only (docs/bot-api.md)");
        return;
    }
    if (cluster_forward(s, c, &m, msg) || waits(s, c, &m, msg))
        return;
    switch (m.kind) {
    case MSG_PING: {
        json_t *out = json_pack("{s:s}", "type", "pong");
        if (m.ref)
            json_object_set(out, "ref", m.ref);
        client_send(c, out);
        json_decref(out);
        break;
    }
    case MSG_WATCH:
    case MSG_UNWATCH:
        on_watch(s, c, &m);
        break;
    case MSG_MOVE:
        live_on_move(s, c, &m);
        break;
    case MSG_RESIGN:
        live_on_resign(s, c, &m);
        break;
    case MSG_DRAW:
        live_on_draw(s, c, &m);
        break;
    case MSG_ABORT:
        live_on_abort(s, c, &m);
        break;
    case MSG_UNCOVER:
        live_on_uncover(s, c, &m);
        break;
    case MSG_REMATCH:
        live_on_rematch(s, c, &m);
        break;
    case MSG_SETUP:
        live_on_setup(s, c, &m);
        break;
    case MSG_CHAT:
        chat_request(s, c, &m);
        break;
    default:
        lobby_request(s, c, &m);
        break;
    }
}

void srv_ws_message(void *app, net_conn *conn, const char *text, size_t len)
{
    srv *s = app;
    client *c = net_conn_data(conn);
    if (!c)
        return;
    if (c->ready) {
        on_text(s, c, text, len);
        return;
    }
    /* not known yet: the message waits for the reader's answer */
    char *copy = c->nearly < SRV_EARLY_MESSAGES ? malloc(len + 1) : NULL;
    if (!copy) {
        net_ws_close(c->conn);  /* no player to tell why yet */
        return;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    c->early[c->nearly] = copy;
    c->early_len[c->nearly++] = len;
}

static void on_text(srv *s, client *c, const char *text, size_t len)
{
    int allowed = rate_ok(s, c);
    json_error_t jerr;
    json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    json_t *ref = json_is_object(msg) ? json_object_get(msg, "ref") : NULL;
    if (!allowed) {
        /* the ref says which request was dropped, so a client can send it again */
        client_error(c, ref, "too many messages; slow down");
        json_decref(msg);
        return;
    }
    if (!msg || !json_is_object(msg)) {
        client_error(c, NULL, "malformed JSON: %s", msg ? "not an object" : jerr.text);
        json_decref(msg);
        return;
    }
    dispatch_message(s, c, msg);
    json_decref(msg);
    srv_check(s);
}
