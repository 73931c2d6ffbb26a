/* live.h -- live games as the rest of the server sees them: found by id,
 * started, watched, asked for moves and ends, listed, and stored games
 * read back (records.c). Their insides, and the order of the files that
 * keep them, are in live_inside.h.
 *
 * A live game is in two places, both kept by games.c alone: its id's hash
 * chain (lookups) and the list of every game (walks); clients are named in
 * it by id (core/srv.h).
 */
#ifndef CITADEL_LIVE_H
#define CITADEL_LIVE_H

#include <jansson.h>

#include "../core/srv.h"

/* games.c */
live *live_find(srv *s, int64_t id);
/* Live games a player plays in now; those with a bot on another side. */
int live_count_of_player(srv *s, int64_t player, int *with_bots);
/* Live games with a bot in them, server-wide. */
int live_count_with_bots(srv *s);
void live_free_all(srv *s);
/* live_json.c */
json_t *live_state(live *g, const client *to);
json_t *live_summary(const live *g);
void live_watch(srv *s, live *g, client *c);
void live_unwatch(live *g, client *c);
json_t *live_list(srv *s, int max);
/* Ids of the live games a player plays in (to resume after reconnecting). */
json_t *live_of_player(srv *s, int64_t player);
/* turn.c: 1 if a write of g is out and msg, c's request for g, now
 * waits for it (or was refused: too many wait); 0 to run it now. */
int live_defer(live *g, client *c, json_t *msg);
/* live.c */
/* Starts a game between players (one per side); NULL with err on failure. */
live *live_start(srv *s, const game_settings *set, const ident *players, char *err,
                 size_t errlen);
int live_resume_all(srv *s);
/* Loads one stored live game and runs it here (a game adopted from a
 * server that stopped): the game, or NULL if it is here already or could
 * not be loaded. */
live *live_resume(srv *s, int64_t id);
void live_player_left(srv *s, int64_t player);
void live_player_back(srv *s, int64_t player);
int live_sweep(srv *s);  /* the number of finished games freed */
/* live_requests.c */
void live_on_move(srv *s, client *c, const cmsg *m);
void live_on_resign(srv *s, client *c, const cmsg *m);
void live_on_draw(srv *s, client *c, const cmsg *m);
/* Calls the game off before every side has made ABORT_BEFORE moves: no
 * result, no rating change (the game reads "aborted"). */
#define ABORT_BEFORE 2
void live_on_abort(srv *s, client *c, const cmsg *m);
/* One device: the board is shown to the next player; the clocks run again. */
void live_on_uncover(srv *s, client *c, const cmsg *m);
void live_on_rematch(srv *s, client *c, const cmsg *m);
void live_on_setup(srv *s, client *c, const cmsg *m);
/* records.c */
/* The record of a stored game as text (malloc'd), or NULL; site is its
 * Site tag. */
char *records_text(srv *s, int64_t id, const char *site, char *err, size_t errlen);
/* A stored game as `to` sees it (NULL: a spectator), as live_state. */
json_t *records_game_json(srv *s, int64_t id, const client *to, char *err, size_t errlen);
/* Every position of a game, the start first (for reviewing); a hidden
 * game's only once it is over. NULL with *status 404 or 403 and err. */
json_t *records_positions(srv *s, int64_t id, int *status, char *err, size_t errlen);

/* import.c: POST /api/games/import, a game from a PGN record */
void import_http(srv *s, net_http *h, const net_request *req);
/* check.c: the invariant of core/srv.h (hooks.check), debug builds only. */
void play_check(srv *s);

/* What legal move m of pos does (game_ops.effects) as the schema's
 * Effects, or NULL for games without effects. */
json_t *live_effects_json(const game_variant *v, const void *pos, game_move m);

#endif
