/* lobby_list.c -- the lobby message: the open seeks and the newest live
 * games, here and (through the cluster's hook) on the other servers; and
 * when it is sent to the clients that follow the lobby.
 *
 * The invariant: a change of the lobby is told at most SRV_LOBBY_MS after
 * it happened, in one message for any number of changes, serialized once
 * for every subscriber.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/srv.h"
#include "live_inside.h"
#include "lobby.h"
#include "messages.h"

static json_t *seek_json(const seek *k)
{
    json_t *j = json_pack("{s:I, s:s, s:s, s:I, s:I, s:i, s:b, s:o}", "id", (json_int_t)k->id,
                          "variant", k->set.v->name, "title", k->set.v->title, "base_ms",
                          (json_int_t)k->set.base_ms, "inc_ms", (json_int_t)k->set.inc_ms,
                          "move_limit", k->set.move_limit, "rated", k->set.rated, "player",
                          ident_json(&k->by));
    json_t *opts = json_object();
    for (int i = 0; i < k->set.nopts; i++)
        json_object_set_new(opts, k->set.opts[i].name, json_integer(k->set.opts[i].value));
    json_object_set_new(j, "options", opts);
    if (k->nseats) {
        json_t *seats = json_array();
        for (int i = 0; i < k->nseats; i++)
            json_array_append_new(seats, k->seated[i] ? ident_json(&k->who[i]) : json_null());
        json_object_set_new(j, "seats", seats);
    }
    return j;
}

json_t *lobby_now(srv *s)
{
    json_t *seeks = json_array();
    int n = 0;
    for (seek *k = s->seeks; k && n < SRV_LOBBY_SEEKS; k = k->next)
        if (!k->token[0]) {
            json_array_append_new(seeks, seek_json(k));
            n++;
        }
    json_t *games = live_list(s, 100);
    if (s->hooks.lobby_add)
        s->hooks.lobby_add(s, seeks, games);
    return lobby_message(seeks, games);
}

json_t *lobby_mine(srv *s, json_t **tokens)
{
    json_t *seeks = json_array();
    *tokens = json_array();
    int n = 0;
    for (seek *k = s->seeks; k; k = k->next)
        if (k->token[0])
            json_array_append_new(*tokens, json_string(k->token));
        else if (n++ < SRV_LOBBY_SEEKS)
            json_array_append_new(seeks, seek_json(k));
    return seeks;
}

/* Every subscriber gets the lobby: one text for all. (A burst of changes,
 * thousands of games ending at once, once cost each subscriber a message
 * of every seek per change, and the server hundreds of MB of queues.) */
static void lobby_send(srv *s)
{
    char *text = NULL;
    size_t len = 0;
    for (client *c = s->clients; c; c = c->next)
        if (c->lobby && c->conn) {
            if (!text) {
                json_t *m = lobby_now(s);
                text = json_dumps(m, JSON_COMPACT);
                json_decref(m);
                if (!text)
                    return;
                len = strlen(text);
            }
            net_ws_send(c->conn, text, len);
        }
    free(text);
}

void lobby_changed(srv *s)
{
    s->lobby_mine = 1;
    lobby_refresh(s);
}

void lobby_refresh(srv *s)
{
    if (!s->lobby_timer) {
        lobby_send(s);   /* not started (no loop): at once */
        return;
    }
    if (!s->lobby_pending) {
        s->lobby_pending = 1;
        net_timer_set(s->lobby_timer, SRV_LOBBY_MS);
    }
}

void lobby_flush(void *arg)
{
    srv *s = arg;
    s->lobby_pending = 0;
    if (s->lobby_mine && s->hooks.lobby_changed)
        s->hooks.lobby_changed(s);
    s->lobby_mine = 0;
    lobby_send(s);
}
