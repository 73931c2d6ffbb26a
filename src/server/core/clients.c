/* clients.c -- the server's clients: WebSocket connections, stand-ins for
 * another server's (cluster/), the Bot API's (botapi/): the table of them,
 * sending them messages and errors, what each watches, and their going.
 * What a client may send, and where it goes, is ../dispatch.c.
 *
 * Every client is in two places only: the list s->clients (for walking
 * them all) and the id table s->client_ids (for finding one by id); a
 * client leaves both before anything else happens at its close, and
 * games and seeks hold its id, never its address (srv.h). A client's
 * own `watch` list and the games' watcher lists mirror each other:
 * client_watch/client_unwatch change a client's side, live_watch and
 * live_unwatch (play/) change both.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "srv.h"

/* --- the table of clients ----------------------------------------------------------- */

static unsigned client_bucket(uint64_t id)
{
    return (unsigned)(id % SRV_CLIENT_BUCKETS);
}

client *client_find(srv *s, uint64_t id)
{
    if (!id)
        return NULL;
    for (client *c = s->client_ids[client_bucket(id)]; c; c = c->hnext)
        if (c->id == id)
            return c;
    return NULL;
}

static void client_add(srv *s, client *c)
{
    c->id = ++s->last_client;
    unsigned b = client_bucket(c->id);
    c->hnext = s->client_ids[b];
    s->client_ids[b] = c;
    c->prev = NULL;
    c->next = s->clients;
    if (s->clients)
        s->clients->prev = c;
    s->clients = c;
    s->nclients++;
}

/* Takes c out of the list and the table (it is not freed). */
static void client_remove(srv *s, client *c)
{
    for (client **p = &s->client_ids[client_bucket(c->id)]; *p; p = &(*p)->hnext)
        if (*p == c) {
            *p = c->hnext;
            break;
        }
    if (c->prev)
        c->prev->next = c->next;
    else
        s->clients = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->prev = c->next = c->hnext = NULL;
    s->nclients--;
    if (c->origin || c->api)
        return;  /* a stand-in or the Bot API's: no connection of this server */
    char key[96];
    snprintf(key, sizeof key, "ws:%s", c->addr);
    quota_release(s->quota, key);
}

static void client_free(client *c)
{
    free(c->watch);
    free(c->rwatch);
    for (int i = 0; i < c->nearly; i++)
        free(c->early[i]);
    free(c);
}

void clients_free_all(srv *s)
{
    while (s->clients) {
        client *c = s->clients;
        client_remove(s, c);
        if (c->conn)
            net_conn_set_data(c->conn, NULL);
        client_free(c);
    }
}

client *client_of_player(srv *s, int64_t player)
{
    for (client *c = s->clients; c; c = c->next)
        if (c->me.id == player)
            return c;
    return NULL;
}

/* --- sending ------------------------------------------------------------------------- */

void client_send(client *c, json_t *msg)
{
    if (c->deliver) {  /* a stand-in, the Bot API's: as its maker said */
        c->deliver(c, msg);
        return;
    }
    if (!c->conn)
        return;
    char *text = json_dumps(msg, JSON_COMPACT);
    if (text) {
        net_ws_send(c->conn, text, strlen(text));
        free(text);
    }
}

void client_error(client *c, json_t *ref, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    text_utf8(buf);  /* a quoted input cut short may end in half a character */
    json_t *m = json_pack("{s:s, s:s}", "type", "error", "error", buf);
    if (ref)
        json_object_set(m, "ref", ref);
    client_send(c, m);
    json_decref(m);
}

/* --- watching ------------------------------------------------------------------------ */

int client_watch(client *c, int64_t game)
{
    for (int i = 0; i < c->nwatch; i++)
        if (c->watch[i] == game)
            return 0;
    if (c->nwatch == c->capwatch) {
        int cap = c->capwatch ? 2 * c->capwatch : 4;
        int64_t *w = realloc(c->watch, (size_t)cap * sizeof *w);
        if (!w)
            return -1;
        c->watch = w;
        c->capwatch = cap;
    }
    c->watch[c->nwatch++] = game;
    return 0;
}

void client_unwatch(client *c, int64_t game)
{
    for (int i = 0; i < c->nwatch; i++)
        if (c->watch[i] == game) {
            c->watch[i] = c->watch[--c->nwatch];
            return;
        }
}

client *client_new(srv *s, net_conn *conn, const ident *me, const char *addr,
                   void (*deliver)(client *c, json_t *msg))
{
    client *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->s = s;
    c->conn = conn;
    c->deliver = deliver;
    if (me)
        c->me = *me;
    snprintf(c->addr, sizeof c->addr, "%s", addr);
    client_add(s, c);
    return c;
}

void client_discard(srv *s, client *c)
{
    client_remove(s, c);
    client_free(c);
}

void client_close(srv *s, client *c)
{
    client_remove(s, c);
    if (s->stopping) {
        client_free(c);
        return;
    }
    if (s->hooks.client_gone)
        s->hooks.client_gone(s, c);
    client_free(c);
    srv_check(s);
}

void client_dispatch(srv *s, client *c, json_t *msg)
{
    s->hooks.dispatch(s, c, msg);
}

void srv_check(srv *s)
{
    if (s->hooks.check)
        s->hooks.check(s);
}
