/* notify.c -- notifications: stored for a player, then sent live to every
 * connection of theirs, on this server and (through the cluster's hook)
 * on the others; and shown as the API shows them.
 *
 * The invariant: a notification is sent only once it is stored, so what
 * a player was told is still in their list after any restart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/http.h"
#include "../core/srv.h"
#include "community.h"

static json_t *note_json(srv *s, const store_note *n)
{
    json_t *j = json_pack("{s:I, s:s, s:o, s:s, s:I, s:b}", "id", (json_int_t)n->id, "kind",
                          n->kind, "from",
                          n->from ? req_player_ref(s, n->from, n->from_name) : json_null(),
                          "title", n->title, "created", (json_int_t)n->created, "read", n->read);
    if (n->thread)
        json_object_set_new(j, "thread", json_integer(n->thread));
    if (n->post)
        json_object_set_new(j, "post", json_integer(n->post));
    if (n->ticket)
        json_object_set_new(j, "ticket", json_integer(n->ticket));
    return j;
}

json_t *notes_json(srv *s, const store_note *notes, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, note_json(s, &notes[i]));
    return a;
}

void notify_player(srv *s, store_note *n)
{
    store_err e;
    n->created = net_wall_ms();
    n->read = 0;
    if (store_note_add(s->st, n, &n->id, &e) != 0) {
        fprintf(stderr, "citadel serve: a notification was not stored: %s\n", e.msg);
        return;
    }
    int unread = 0;
    store_note one;
    if (store_notes(s->st, n->player, 1, &one, &unread, &e) < 0)
        unread = 1;
    json_t *msg = json_pack("{s:s, s:o, s:i}", "type", "notify", "notification",
                            note_json(s, n), "unread", unread);
    for (client *c = s->clients; c; c = c->next)
        if (c->me.id == n->player && c->conn)  /* stand-ins' own servers are told */
            client_send(c, msg);
    if (s->hooks.note)
        s->hooks.note(s, n->player, msg);
    json_decref(msg);
}
