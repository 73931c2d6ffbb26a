/* wire.h -- what the tests of the server over the wire share: the server
 * under test (fixture.h: one per test group, in `server`), and helpers that
 * talk to it as the page would and fail the running cmocka test when the
 * answer is not what they need.
 */
#ifndef CITADEL_TEST_WIRE_H
#define CITADEL_TEST_WIRE_H

#include <jansson.h>
#include <stddef.h>

#include "client.h"
#include "fixture.h"

#define HOST "127.0.0.1"
#define WAIT 15000   /* ms: generous, for sanitizer builds on a loaded machine */

/* GET path (with the session cookie, if not NULL), expecting want_status
 * and a JSON body; the body parsed (caller decrefs). */
json_t *get_json(const char *path, const char *cookie, int want_status);
/* Signs up `name` (password "password-NAME"); its session cookie into
 * cookie (65 bytes). */
void signup(const char *name, char *cookie);
/* A fresh guest's session cookie into cookie (65 bytes). */
void guest(char *cookie);
/* A WebSocket with that session, past its `hello` (into *hello if not
 * NULL; caller decrefs). */
ws_conn *connect_as(const char *cookie, json_t **hello);
void send_fmt(ws_conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
json_int_t jint(json_t *o, const char *key);

/* Both players' connections and the game they share. */
typedef struct duel {
    ws_conn *side[2];    /* the connection playing each side */
    json_int_t game;
    json_t *state;       /* the first `game` message of side 0 */
} duel;

/* a seeks with `settings` (JSON members), b accepts; both get the game. */
void start_duel(ws_conn *a, ws_conn *b, const char *settings, duel *d);
/* b accepts a's seek; both get the game. */
void duel_accept(ws_conn *a, ws_conn *b, json_int_t seek, duel *d);
/* Plays `move` as ply on c; returns the `move` message c gets back. */
json_t *play(ws_conn *c, json_int_t game, int ply, const char *move);
/* A legal move of a message carrying `legal` (the pick-th, wrapping). */
const char *first_legal(json_t *m, size_t pick);
json_t *player_json(const char *name);
double rating_of(json_t *player, const char *variant, int *games);
/* The i-th setup (0 or 1) of Stratego's library. */
const char *library_setup(int i);

#endif
