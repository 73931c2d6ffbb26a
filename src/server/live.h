/* live.h -- what live.c, live_json.c and records.c share of a live game's
 * insides; nothing outside those three uses it. */
#ifndef CITADEL_LIVE_H
#define CITADEL_LIVE_H

#include "server.h"

int live_to_move(const live *g);
/* The sides client c plays (a bit mask; 0 for a spectator or NULL). */
unsigned live_sides_of(const live *g, const client *c);

json_t *live_clocks_json(const live *g);
/* The position as `to` may see it: its side's view in hidden games. */
json_t *live_position_json(const live *g, const client *to);
json_t *live_legal_json(const live *g);
json_t *live_material_json(const live *g);
json_t *live_sides_json(const live *g, unsigned mask);
/* Sends msg to every watcher; with_position: each gets its own position
 * (hidden games) and the mover its legal moves. */
void live_broadcast(live *g, json_t *msg, int with_position);

/* A stored game rebuilt in memory (moves replayed), or NULL with err; free
 * it with live_free unless it is put in the server's table. */
live *live_load(srv *s, int64_t id, char *err, size_t errlen);
void live_free(live *g);

#endif
