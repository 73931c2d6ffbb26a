/* cluster.c -- several servers on one PostgreSQL database (cluster.h):
 * the lease and its beat, the adoption of a stopped server's games,
 * requests passed to the server that owns their game, stand-in clients for
 * the clients of other servers, and the lobby every server shows.
 *
 * The messages between servers (bus.h), each a JSON object with "k":
 *   req      {s, c, who, addr, m}  client c of server s asks m of us
 *   out      {c, m}                m for our client c (from a stand-in)
 *   gone     {s, c}                client c of server s closed
 *   adopted  {s, games}            server s serves these games now
 *   note     {p, m}                m for player p's connections
 *   chat     {id}                  chat line id was hidden or shown again
 *   revoke   {s, w, p, t, sid}     a credential revoked on server s (w: "token" t of
 *                                  player p, "session" sid, "player" p's every
 *                                  one, or "others": p's sessions but sid): what
 *                                  it opened here ends (core/revoke.c)
 *   lobby    {s, seeks, games, tokens}  server s's lobby, whole
 *   hello    {s}                   server s joined: send it your lobby
 *
 * The invariants: a stand-in exists only while its server lives and its
 * client has not closed, and the table `proxies` holds exactly the
 * stand-ins (by server and client); a client's rwatch lists games of other
 * servers only (an adopted game's watchers are moved onto it here).
 * Nothing from the bus is trusted for more than the bus carries: a
 * message counts only from a server's own bus connection (bus.h), and
 * only as the server it came from (an "s" naming another is dropped); a
 * stand-in may ask only what a client may ask of a game or a seek.
 *
 * The lease (store.h) is this server's right to answer for its games. A
 * renewal sent less than LEASE_SURE_MS ago proves it; after a longer gap
 * (the process paused, say by SIGSTOP, or the loop stalled) no request is
 * answered before the database has been asked again (cluster_lease_holds),
 * and a server whose games were taken over meanwhile stops at once, having
 * written and said nothing more.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bus.h"
#include "../play/chat.h"
#include "cluster.h"
#include "../play/live.h"
#include "../play/lobby.h"
#define OWNER_SLOTS 4096  /* games whose owner is remembered (direct-mapped) */
#define PROXY_BUCKETS 1024
#define ALIVE_MAX 256     /* servers on one database */
#define RWATCH_MAX 64     /* games of other servers one client watches */
#define ADOPT_SLICE 100   /* games adopted at once */
#define LEASE_SURE_MS (STORE_LEASE_MS / 2)  /* a renewal sent this recently holds */
#define SENDER_LOOKUP_MS 100  /* the bus's senders are looked up at most this often */

typedef struct proxy_ref {
    int64_t origin;
    uint64_t rid, local;
    struct proxy_ref *next;
} proxy_ref;

typedef struct waiting {
    uint64_t client;
    int64_t until;
    json_t *msg;
} waiting;

typedef struct remote_lobby {
    int64_t server;
    json_t *seeks, *games, *tokens;
} remote_lobby;

struct cluster {
    srv *s;
    bus *bus;
    int64_t me;
    net_timer *beat;
    int64_t alive[ALIVE_MAX];
    int nalive;
    struct {
        int64_t game, owner;
    } owners[OWNER_SLOTS];
    proxy_ref *proxies[PROXY_BUCKETS];
    waiting *wait;
    int nwait, capwait;
    remote_lobby lobbies[ALIVE_MAX];
    int nlobbies;
    long adopted;         /* games adopted since it was last said */
    int64_t sure_until;   /* net_mono_ms: the lease holds surely until then */
    struct {
        int pid;
        int64_t server;
    } senders[ALIVE_MAX]; /* the servers' bus connections (store_bus_senders) */
    int nsenders;
    int64_t senders_at;   /* net_mono_ms of their last look-up */
};

static void alive_refresh(struct cluster *cl);

static _Noreturn void fatal(const char *why)
{
    fprintf(stderr, "citadel serve: %s; stopping, so that another server takes over\n", why);
    fflush(stdout);
    fflush(stderr);
    _exit(3);
}

static int is_alive(const struct cluster *cl, int64_t id)
{
    for (int i = 0; i < cl->nalive; i++)
        if (cl->alive[i] == id)
            return 1;
    return 0;
}

/* --- the lease ------------------------------------------------------------------------ */

/* Renews the lease: 0, or -1 if the database could not say (a server
 * whose games were taken over, or whose database is gone, stops). */
static int renew(struct cluster *cl)
{
    int64_t sent = net_mono_ms();
    store_err e;
    int r = store_server_beat(cl->s->st, cl->me, &e);
    if (r == STORE_NOT_FOUND)
        fatal("another server has taken this server's games over (its lease lapsed)");
    if (r != 0 && store_lost(cl->s->st))
        fatal("the connection to the database is lost");
    if (r != 0)
        return -1;
    cl->sure_until = sent + LEASE_SURE_MS;
    return 0;
}

int cluster_lease_holds(srv *s)
{
    struct cluster *cl = s->cl;
    if (!cl || net_mono_ms() < cl->sure_until)
        return 1;
    /* a pause or a stall since the last renewal: ask before answering */
    return renew(cl) == 0 && net_mono_ms() < cl->sure_until;
}

/* --- who is on the bus ----------------------------------------------------------------- */

static void senders_refresh(struct cluster *cl)
{
    int pids[ALIVE_MAX];
    int64_t ids[ALIVE_MAX];
    store_err e;
    cl->senders_at = net_mono_ms();
    int n = store_bus_senders(cl->s->st, pids, ids, ALIVE_MAX, &e);
    if (n < 0)
        return;
    for (int i = 0; i < n; i++) {
        cl->senders[i].pid = pids[i];
        cl->senders[i].server = ids[i];
    }
    cl->nsenders = n;
}

/* bus_sender_fn: the server whose bus is backend pid, or 0. An unknown
 * pid is looked up at most every SENDER_LOOKUP_MS, so a stranger's flood
 * costs the loop one query a tenth of a second (a server that joined
 * meanwhile is heard from its first message after the next look-up). */
static int64_t sender_of(void *app, int pid)
{
    srv *s = app;
    struct cluster *cl = s->cl;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < cl->nsenders; i++)
            if (cl->senders[i].pid == pid)
                return cl->senders[i].server;
        if (round || net_mono_ms() - cl->senders_at < SENDER_LOOKUP_MS)
            break;
        senders_refresh(cl);
    }
    return 0;
}

/* --- sending ------------------------------------------------------------------------ */

/* Sends m (stolen) to server `to`. */
static void post(struct cluster *cl, int64_t to, json_t *m)
{
    char *text = m ? json_dumps(m, JSON_COMPACT) : NULL;
    json_decref(m);
    if (!text)
        return;
    if (bus_send(cl->bus, to, text) != 0 && bus_lost(cl->bus))
        fatal("the connection to the other servers is lost");
    free(text);
}

static void forward(struct cluster *cl, client *c, int64_t to, json_t *msg)
{
    c->forwarded = 1;
    post(cl, to,
         json_pack("{s:s, s:I, s:I, s:o, s:s, s:O}", "k", "req", "s", (json_int_t)cl->me, "c",
                   (json_int_t)c->id, "who", ident_json(&c->me), "addr", c->addr, "m", msg));
}

void cluster_send(client *c, json_t *msg)
{
    struct cluster *cl = c->s->cl;
    if (cl && is_alive(cl, c->origin))
        post(cl, c->origin,
             json_pack("{s:s, s:I, s:O}", "k", "out", "c", (json_int_t)c->rid, "m", msg));
}

void cluster_note(srv *s, int64_t player, json_t *msg)
{
    post(s->cl, BUS_ALL, json_pack("{s:s, s:I, s:O}", "k", "note", "p", (json_int_t)player,
                                   "m", msg));
}

void cluster_chat_changed(srv *s, int64_t line)
{
    post(s->cl, BUS_ALL, json_pack("{s:s, s:I}", "k", "chat", "id", (json_int_t)line));
}

static const char *const revoke_kinds[] = {[REVOKE_TOKEN] = "token",
                                            [REVOKE_SESSION] = "session",
                                            [REVOKE_PLAYER] = "player",
                                            [REVOKE_OTHERS] = "others"};

void cluster_revoke(srv *s, const revoked *r)
{
    post(s->cl, BUS_ALL,
         json_pack("{s:s, s:I, s:s, s:I, s:I, s:s}", "k", "revoke", "s", (json_int_t)s->cl->me,
                   "w", revoke_kinds[r->kind], "p", (json_int_t)r->player, "t",
                   (json_int_t)r->token, "sid", r->session));
}

/* A "revoke" of the bus, checked (a forged or garbled one ends nothing):
 * 0 with *r filled, or -1. */
static int revoke_of(json_t *m, revoked *r)
{
    const char *w = json_string_value(json_object_get(m, "w"));
    const char *sid = json_string_value(json_object_get(m, "sid"));
    json_t *p = json_object_get(m, "p"), *t = json_object_get(m, "t");
    memset(r, 0, sizeof *r);
    if (!w || !sid || !json_is_integer(p) || !json_is_integer(t))
        return -1;
    for (size_t i = 0; i < sizeof revoke_kinds / sizeof revoke_kinds[0]; i++)
        if (strcmp(w, revoke_kinds[i]) == 0)
            r->kind = (revoke_kind)i;
    if (strcmp(w, revoke_kinds[r->kind]) != 0)
        return -1;
    r->player = json_integer_value(p);
    r->token = json_integer_value(t);
    if (r->kind == REVOKE_SESSION || (r->kind == REVOKE_OTHERS && sid[0])) {
        if (strlen(sid) != REVOKE_SESSION_ID - 1 ||
            strspn(sid, "0123456789abcdef") != REVOKE_SESSION_ID - 1)
            return -1;
        memcpy(r->session, sid, REVOKE_SESSION_ID);
    }
    if (r->kind != REVOKE_SESSION && r->player <= 0)
        return -1;
    return 0;
}

void cluster_lobby_changed(srv *s)
{
    json_t *tokens;
    json_t *seeks = lobby_mine(s, &tokens);
    post(s->cl, BUS_ALL,
         json_pack("{s:s, s:I, s:o, s:o, s:o}", "k", "lobby", "s", (json_int_t)s->cl->me,
                   "seeks", seeks, "games", live_list(s, 100), "tokens", tokens));
}

/* --- who owns a game ------------------------------------------------------------------- */

/* The server of live game `game`, or -1 if it is not live (or unknown). */
static int64_t owner_of(struct cluster *cl, int64_t game)
{
    unsigned slot = (unsigned)((uint64_t)game % OWNER_SLOTS);
    if (cl->owners[slot].game == game)
        return cl->owners[slot].owner;
    int64_t owner;
    store_err e;
    if (store_game_owner(cl->s->st, game, &owner, &e) != 0)
        return -1;
    cl->owners[slot].game = game;
    cl->owners[slot].owner = owner;
    return owner;
}

static void owner_set(struct cluster *cl, int64_t game, int64_t owner)
{
    unsigned slot = (unsigned)((uint64_t)game % OWNER_SLOTS);
    cl->owners[slot].game = game;
    cl->owners[slot].owner = owner;
}

static void owner_forget(struct cluster *cl, int64_t game)
{
    unsigned slot = (unsigned)((uint64_t)game % OWNER_SLOTS);
    if (cl->owners[slot].game == game)
        cl->owners[slot].game = 0;
}

/* --- games of other servers a client watches ---------------------------------------- */

static void rwatch_add(client *c, int64_t game)
{
    for (int i = 0; i < c->nrwatch; i++)
        if (c->rwatch[i] == game)
            return;
    if (c->nrwatch == RWATCH_MAX) {  /* the oldest gives way */
        memmove(c->rwatch, c->rwatch + 1, (size_t)(RWATCH_MAX - 1) * sizeof *c->rwatch);
        c->nrwatch--;
    }
    if (c->nrwatch == c->caprwatch) {
        int cap = c->caprwatch ? c->caprwatch * 2 : 4;
        int64_t *w = realloc(c->rwatch, (size_t)cap * sizeof *w);
        if (!w)
            return;
        c->rwatch = w;
        c->caprwatch = cap;
    }
    c->rwatch[c->nrwatch++] = game;
}

static void rwatch_del(client *c, int64_t game)
{
    for (int i = 0; i < c->nrwatch; i++)
        if (c->rwatch[i] == game) {
            c->rwatch[i] = c->rwatch[--c->nrwatch];
            return;
        }
}

/* Each client watching a game that is now here from afar watches it here. */
static void rwatch_settle(srv *s)
{
    for (client *c = s->clients; c; c = c->next)
        for (int i = 0; i < c->nrwatch;) {
            live *g = live_find(s, c->rwatch[i]);
            if (!g) {
                i++;
                continue;
            }
            c->rwatch[i] = c->rwatch[--c->nrwatch];
            live_watch(s, g, c);
        }
}

/* --- requests for games of other servers -------------------------------------------- */

/* 1 if a request of kind k may come from another server: one for a game
 * this server owns, or to take a seek, challenge or table of its own. */
static int passed_on(msg_kind k)
{
    return msg_names_game(k) || k == MSG_ACCEPT || k == MSG_SIT || k == MSG_ACCEPT_CHALLENGE;
}

/* A seek's server: seek ids are numbered from the server's id << 32. */
static int64_t seek_server(int64_t id)
{
    return id >> 32;
}

/* msg waits for its game's new server until `until`: 0, or -1 after
 * telling c why it cannot. */
static int wait_add(struct cluster *cl, client *c, json_t *msg, int64_t until)
{
    json_t *ref = json_object_get(msg, "ref");
    if (cl->nwait >= SRV_FORWARD_WAITING) {
        client_error(c, ref, "the game's server is not answering; try again in a moment");
        return -1;
    }
    if (cl->nwait == cl->capwait) {
        int cap = cl->capwait ? cl->capwait * 2 : 16;
        waiting *w = realloc(cl->wait, (size_t)cap * sizeof *w);
        if (!w) {
            client_error(c, ref, "out of memory");
            return -1;
        }
        cl->wait = w;
        cl->capwait = cap;
    }
    cl->wait[cl->nwait++] = (waiting){ c->id, until, json_incref(msg) };
    return 0;
}

int cluster_forward(srv *s, client *c, const cmsg *m, json_t *msg)
{
    struct cluster *cl = s->cl;
    if (!cl || !c->conn)
        return 0;  /* one server alone, or a stand-in's request: here or nowhere */
    if (msg_names_game(m->kind)) {
        int64_t game = m->game;
        if (live_find(s, game))
            return 0;
        int64_t owner = owner_of(cl, game);
        if (owner < 0 || owner == cl->me)
            return 0;  /* over (the stored game is answered here), or just adopted */
        if (m->kind == MSG_WATCH)
            rwatch_add(c, game);
        else if (m->kind == MSG_UNWATCH)
            rwatch_del(c, game);
        if (is_alive(cl, owner))
            forward(cl, c, owner, msg);
        else
            /* its server stopped: the game's next one gets it */
            wait_add(cl, c, msg, net_mono_ms() + SRV_FORWARD_WAIT_MS);
        return 1;
    }
    if (m->kind == MSG_ACCEPT || m->kind == MSG_SIT) {
        /* a table is a seek of more sides: its id names its server alike */
        int64_t to = seek_server(m->kind == MSG_SIT ? m->table : m->seek);
        if (to == cl->me || !is_alive(cl, to))
            return 0;
        forward(cl, c, to, msg);
        return 1;
    }
    if (m->kind == MSG_ACCEPT_CHALLENGE) {
        const char *token = m->text;
        for (int i = 0; i < cl->nlobbies; i++) {
            size_t k;
            json_t *t;
            json_array_foreach(cl->lobbies[i].tokens, k, t)
                if (json_is_string(t) && strcmp(json_string_value(t), token) == 0) {
                    forward(cl, c, cl->lobbies[i].server, msg);
                    return 1;
                }
        }
    }
    return 0;
}

static void retry_waiting(struct cluster *cl)
{
    int64_t now = net_mono_ms();
    waiting *w = cl->wait;
    int n = cl->nwait;
    cl->wait = NULL;  /* a fresh list: what is dispatched below may wait again */
    cl->nwait = cl->capwait = 0;
    for (int i = 0; i < n; i++) {
        client *c = client_find(cl->s, w[i].client);
        int64_t game = json_integer_value(json_object_get(w[i].msg, "game"));
        owner_forget(cl, game);
        int64_t owner = c ? owner_of(cl, game) : -1;
        int stopped = owner > 0 && owner != cl->me && !is_alive(cl, owner);
        if (c && stopped && now < w[i].until) {
            wait_add(cl, c, w[i].msg, w[i].until);
        } else if (c && stopped) {
            client_error(c, json_object_get(w[i].msg, "ref"),
                         "game %lld: its server is not answering; try again in a moment",
                         (long long)game);
        } else if (c) {
            client_dispatch(cl->s, c, w[i].msg);
        }
        json_decref(w[i].msg);
    }
    free(w);
}

/* --- stand-ins --------------------------------------------------------------------------- */

static unsigned proxy_bucket(int64_t origin, uint64_t rid)
{
    return (unsigned)(((uint64_t)origin * 0x9E3779B97F4A7C15ULL ^ rid) % PROXY_BUCKETS);
}

static client *proxy_find(struct cluster *cl, int64_t origin, uint64_t rid)
{
    for (proxy_ref *p = cl->proxies[proxy_bucket(origin, rid)]; p; p = p->next)
        if (p->origin == origin && p->rid == rid)
            return client_find(cl->s, p->local);
    return NULL;
}

static void proxy_forget(struct cluster *cl, int64_t origin, uint64_t rid)
{
    for (proxy_ref **p = &cl->proxies[proxy_bucket(origin, rid)]; *p; p = &(*p)->next)
        if ((*p)->origin == origin && (*p)->rid == rid) {
            proxy_ref *dead = *p;
            *p = dead->next;
            free(dead);
            return;
        }
}

static client *proxy_make(struct cluster *cl, int64_t origin, uint64_t rid, json_t *who,
                          const char *addr)
{
    ident me;
    memset(&me, 0, sizeof me);
    json_t *id = json_object_get(who, "id");
    const char *name = json_string_value(json_object_get(who, "name"));
    if (!json_is_integer(id) || !name)
        return NULL;
    me.id = json_integer_value(id);
    snprintf(me.name, sizeof me.name, "%s", name);
    /* a connection's player is never a bot the server plays; one shown as
     * a bot is a Bot API account */
    me.api_bot = json_is_true(json_object_get(who, "bot"));
    me.guest = json_is_true(json_object_get(who, "guest"));
    proxy_ref *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    client *c = client_new(cl->s, NULL, &me, addr ? addr : "", cluster_send);
    if (!c) {
        free(p);
        return NULL;
    }
    c->origin = origin;
    c->rid = rid;
    live_player_back(cl->s, c->me.id);
    p->origin = origin;
    p->rid = rid;
    p->local = c->id;
    unsigned b = proxy_bucket(origin, rid);
    p->next = cl->proxies[b];
    cl->proxies[b] = p;
    return c;
}

void cluster_client_gone(srv *s, client *c)
{
    struct cluster *cl = s->cl;
    if (!cl)
        return;
    if (c->origin)
        proxy_forget(cl, c->origin, c->rid);
    else if (c->forwarded)
        post(cl, BUS_ALL, json_pack("{s:s, s:I, s:I}", "k", "gone", "s", (json_int_t)cl->me,
                                    "c", (json_int_t)c->id));
}

/* Stand-ins of servers that stopped go. */
static void proxies_of_the_dead(struct cluster *cl)
{
    for (int b = 0; b < PROXY_BUCKETS; b++)
        for (proxy_ref *p = cl->proxies[b], *next; p; p = next) {
            next = p->next;
            if (is_alive(cl, p->origin))
                continue;
            client *c = client_find(cl->s, p->local);
            if (c)
                client_close(cl->s, c);  /* unlinks and frees p */
            else
                proxy_forget(cl, p->origin, p->rid);
        }
}

/* --- arriving ------------------------------------------------------------------------- */

static remote_lobby *lobby_of(struct cluster *cl, int64_t server, int make)
{
    for (int i = 0; i < cl->nlobbies; i++)
        if (cl->lobbies[i].server == server)
            return &cl->lobbies[i];
    if (!make || cl->nlobbies == ALIVE_MAX)
        return NULL;
    remote_lobby *l = &cl->lobbies[cl->nlobbies++];
    memset(l, 0, sizeof *l);
    l->server = server;
    return l;
}

static void lobby_forget(remote_lobby *l)
{
    json_decref(l->seeks);
    json_decref(l->games);
    json_decref(l->tokens);
}

static void on_adopted(struct cluster *cl, int64_t by, json_t *games)
{
    size_t i;
    json_t *g;
    json_array_foreach(games, i, g)
        if (json_is_integer(g))
            owner_set(cl, json_integer_value(g), by);
    /* this server's clients watching those games ask the new server again */
    for (client *c = cl->s->clients; c; c = c->next)
        for (int k = 0; k < c->nrwatch; k++)
            json_array_foreach(games, i, g)
                if (json_integer_value(g) == c->rwatch[k]) {
                    json_t *w = json_pack("{s:s, s:I}", "type", "watch", "game",
                                          (json_int_t)c->rwatch[k]);
                    forward(cl, c, by, w);
                    json_decref(w);
                    break;
                }
}

static void arrived(void *app, int64_t from, const char *text, size_t len)
{
    srv *s = app;
    struct cluster *cl = s->cl;
    json_t *m = json_loadb(text, len, 0, NULL);
    const char *k = json_string_value(json_object_get(m, "k"));
    json_t *said = json_object_get(m, "s");
    json_t *body = json_object_get(m, "m");
    if (!k || from == cl->me || (said && json_integer_value(said) != from)) {
        json_decref(m);  /* garbled, or in another server's name */
        return;
    }
    if (!is_alive(cl, from))
        alive_refresh(cl);  /* a server that joined since the last beat */
    if (!is_alive(cl, from)) {  /* one whose lease lapsed (paused, say) speaks for nothing */
        json_decref(m);
        return;
    }
    if (strcmp(k, "req") == 0 && json_is_object(body) && is_alive(cl, from)) {
        uint64_t rid = (uint64_t)json_integer_value(json_object_get(m, "c"));
        cmsg req;
        char err[200];
        client *c = NULL;
        if (msg_parse(body, &req, err, sizeof err) == 0 && passed_on(req.kind)) {
            c = proxy_find(cl, from, rid);
            if (!c)
                c = proxy_make(cl, from, rid, json_object_get(m, "who"),
                               json_string_value(json_object_get(m, "addr")));
        }
        if (c)
            client_dispatch(s, c, body);
    } else if (strcmp(k, "out") == 0 && json_is_object(body)) {
        client *c = client_find(s, (uint64_t)json_integer_value(json_object_get(m, "c")));
        if (c && c->conn) {
            /* a game this client was put in or shown elsewhere: followed after adoption */
            const char *type = json_string_value(json_object_get(body, "type"));
            json_t *g = json_object_get(json_object_get(body, "game"), "id");
            if (type && strcmp(type, "game") == 0 && json_is_integer(g) &&
                !live_find(s, json_integer_value(g)))
                rwatch_add(c, json_integer_value(g));
            char *out = json_dumps(body, JSON_COMPACT);
            if (out)
                net_ws_send(c->conn, out, strlen(out));
            free(out);
        }
    } else if (strcmp(k, "gone") == 0) {
        client *c = proxy_find(cl, from, (uint64_t)json_integer_value(json_object_get(m, "c")));
        if (c)
            client_close(s, c);
    } else if (strcmp(k, "adopted") == 0) {
        on_adopted(cl, from, json_object_get(m, "games"));
    } else if (strcmp(k, "note") == 0 && json_is_object(body)) {
        int64_t player = json_integer_value(json_object_get(m, "p"));
        for (client *c = s->clients; c; c = c->next)
            if (c->me.id == player && c->conn)
                client_send(c, body);
    } else if (strcmp(k, "chat") == 0) {
        store_chat line;
        store_err e;
        json_t *id = json_object_get(m, "id");
        if (json_is_integer(id) && store_chat_get(s->st, json_integer_value(id), &line, &e) == 0)
            chat_line_changed(s, &line);  /* nothing if the game is not here */
    } else if (strcmp(k, "revoke") == 0) {
        revoked r;
        if (from != cl->me && revoke_of(m, &r) == 0)  /* its own ran when it was sent */
            revoke_end_here(s, &r);
    } else if (strcmp(k, "lobby") == 0 && from != cl->me) {
        remote_lobby *l = lobby_of(cl, from, 1);
        if (l) {
            lobby_forget(l);
            l->seeks = json_incref(json_is_array(json_object_get(m, "seeks"))
                                       ? json_object_get(m, "seeks") : NULL);
            l->games = json_incref(json_is_array(json_object_get(m, "games"))
                                       ? json_object_get(m, "games") : NULL);
            l->tokens = json_incref(json_is_array(json_object_get(m, "tokens"))
                                        ? json_object_get(m, "tokens") : NULL);
            lobby_refresh(s);
        }
    } else if (strcmp(k, "hello") == 0 && from != cl->me) {
        cluster_lobby_changed(s);
    }
    json_decref(m);
    srv_check(s);
}

void cluster_lobby_add(srv *s, json_t *seeks, json_t *games)
{
    struct cluster *cl = s->cl;
    for (int i = 0; i < cl->nlobbies; i++) {
        size_t k;
        json_t *x;
        json_array_foreach(cl->lobbies[i].seeks, k, x)
            if (json_array_size(seeks) < SRV_LOBBY_SEEKS)
                json_array_append(seeks, x);
        json_array_foreach(cl->lobbies[i].games, k, x)
            if (json_array_size(games) < 100)
                json_array_append(games, x);
    }
}

json_t *cluster_live_of_player(srv *s, int64_t player)
{
    int64_t ids[64];
    store_err e;
    int n = store_player_live(s->st, player, ids, 64, &e);
    if (n < 0)
        return live_of_player(s, player);
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer(ids[i]));
    return a;
}

/* --- the beat -------------------------------------------------------------------------- */

/* Adopts at most ADOPT_SLICE games nobody serves, resumes them here and
 * tells the others: how many (-1 if the store failed). A slice keeps the
 * loop's stall short (each game is a few reads); what is left goes to the
 * next slice, here or on another server looking meanwhile. */
static int adopt_slice(srv *s)
{
    struct cluster *cl = s->cl;
    int64_t ids[ADOPT_SLICE];
    store_err e;
    int n = store_games_adopt(s->st, cl->me, ids, ADOPT_SLICE, &e);
    if (n < 0) {
        fprintf(stderr, "citadel serve: adopting games: %s\n", e.msg);
        return -1;
    }
    if (!n)
        return 0;
    json_t *told = json_array();
    for (int i = 0; i < n; i++) {
        owner_set(cl, ids[i], cl->me);
        live_resume(s, ids[i]);
        json_array_append_new(told, json_integer(ids[i]));
    }
    post(cl, BUS_ALL, json_pack("{s:s, s:I, s:o}", "k", "adopted", "s", (json_int_t)cl->me,
                                "games", told));
    cl->adopted += n;
    rwatch_settle(s);
    lobby_changed(s);
    return n;
}

int cluster_adopt(srv *s)
{
    struct cluster *cl = s->cl;
    int n, total = 0;
    while ((n = adopt_slice(s)) > 0) {
        total += n;
        if (renew(cl) != 0)  /* a long adoption keeps its lease */
            fatal("this server's lease was lost while it adopted games");
    }
    return n < 0 && !total ? -1 : total;
}

static void alive_refresh(struct cluster *cl)
{
    store_err e;
    int64_t ids[ALIVE_MAX];
    int n = store_servers_alive(cl->s->st, ids, ALIVE_MAX, &e);
    if (n < 0)
        return;
    memcpy(cl->alive, ids, (size_t)n * sizeof *ids);
    cl->nalive = n;
    for (int i = 0; i < cl->nsenders;)  /* a gone server's pid may be another's next */
        if (is_alive(cl, cl->senders[i].server))
            i++;
        else
            cl->senders[i] = cl->senders[--cl->nsenders];
    int dropped = 0;
    for (int i = 0; i < cl->nlobbies;) {
        if (is_alive(cl, cl->lobbies[i].server)) {
            i++;
            continue;
        }
        lobby_forget(&cl->lobbies[i]);
        cl->lobbies[i] = cl->lobbies[--cl->nlobbies];
        dropped = 1;
    }
    if (dropped)
        lobby_refresh(cl->s);
}

static void beat(void *arg)
{
    srv *s = arg;
    struct cluster *cl = s->cl;
    /* a renewal that came back late (the process paused while it waited)
     * proves nothing of now: then the database is asked again */
    int held = renew(cl) == 0 && cluster_lease_holds(s);
    if (bus_lost(cl->bus))
        fatal("the connection to the other servers is lost");
    if (!held) {  /* the database did not answer: nothing is adopted meanwhile */
        net_timer_set(cl->beat, SRV_BEAT_MS);
        return;
    }
    alive_refresh(cl);
    proxies_of_the_dead(cl);
    /* one slice a beat, the beats close together while games are left */
    int n = adopt_slice(s);
    retry_waiting(cl);
    if (n < ADOPT_SLICE && cl->adopted) {
        fprintf(stderr, "citadel serve: adopted %ld games of servers that stopped\n",
                cl->adopted);
        cl->adopted = 0;
    }
    net_timer_set(cl->beat, n == ADOPT_SLICE ? SRV_ADOPT_PAUSE_MS : SRV_BEAT_MS);
    srv_check(s);
}

int cluster_start(srv *s, const char *uri, const char *label, char *err, size_t errlen)
{
    struct cluster *cl = calloc(1, sizeof *cl);
    store_err e;
    if (!cl) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    cl->s = s;
    int64_t joining = net_mono_ms();
    if (store_server_join(s->st, label, &cl->me, &e) != 0) {
        snprintf(err, errlen, "%s", e.msg);
        free(cl);
        return -1;
    }
    cl->bus = bus_open(uri, cl->me, s->net, arrived, sender_of, s, err, errlen);
    cl->beat = cl->bus ? net_timer_new(s->net, beat, s) : NULL;
    if (!cl->beat) {
        if (cl->bus)
            snprintf(err, errlen, "out of memory");
        bus_free(cl->bus);
        store_server_leave(s->st, cl->me, &e);
        free(cl);
        return -1;
    }
    cl->sure_until = joining + LEASE_SURE_MS;
    s->cl = cl;
    s->hooks.lobby_add = cluster_lobby_add;
    s->hooks.lobby_changed = cluster_lobby_changed;
    s->hooks.note = cluster_note;
    s->hooks.chat_changed = cluster_chat_changed;
    s->hooks.revoke_others = cluster_revoke;
    s->server_id = cl->me;
    s->next_seek = cl->me << 32;
    store_set_server(s->st, cl->me);
    alive_refresh(cl);
    post(cl, BUS_ALL, json_pack("{s:s, s:I}", "k", "hello", "s", (json_int_t)cl->me));
    net_timer_set(cl->beat, SRV_BEAT_MS);
    return 0;
}

void cluster_leave(srv *s)
{
    store_err e;
    if (s->cl && store_server_leave(s->st, s->cl->me, &e) != 0)
        fprintf(stderr, "citadel serve: leaving the servers: %s\n", e.msg);
}

void cluster_free(srv *s)
{
    struct cluster *cl = s->cl;
    if (!cl)
        return;
    net_timer_free(cl->beat);
    bus_drain(cl->bus);
    bus_free(cl->bus);
    for (int b = 0; b < PROXY_BUCKETS; b++)
        while (cl->proxies[b]) {
            proxy_ref *p = cl->proxies[b];
            cl->proxies[b] = p->next;
            free(p);
        }
    for (int i = 0; i < cl->nwait; i++)
        json_decref(cl->wait[i].msg);
    free(cl->wait);
    for (int i = 0; i < cl->nlobbies; i++)
        lobby_forget(&cl->lobbies[i]);
    free(cl);
    s->cl = NULL;
}
