/* messages.h -- the messages of play that the server sends the page, each
 * built here alone and named after its schema definition in
 * docs/api.schema.json (GameMessage: game_message, ...). Chat's own are
 * chat.c's, the lobby's request answers and the game's are these.
 *
 * Every builder returns a new reference (NULL only if out of memory) and
 * takes the references it is given; a ref, if not NULL, is copied in.
 */
#ifndef CITADEL_SERVER_PLAY_MESSAGES_H
#define CITADEL_SERVER_PLAY_MESSAGES_H

#include <jansson.h>
#include <stdint.h>

#include "../core/srv.h"

/* GameMessage: a whole game as one client sees it (game: live_state's or
 * a stored game's, taken). */
json_t *game_message(json_t *game);
/* MoveMessage: ply `ply` of game `game` was `move`; position, clocks
 * taken, to_move the side to move after it. The caller adds what only
 * some games have (material, event, effects, threats). */
json_t *move_message(int64_t game, int ply, const char *move, json_t *position, int to_move,
                     json_t *clocks);
/* EndMessage: the result; ratings taken (NULL: none), clocks taken (NULL:
 * left out, a game over before this server loaded it). */
json_t *end_message(int64_t game, int winner, const char *reason, int sterile, json_t *ratings,
                    json_t *clocks);
/* DrawOfferMessage, RematchOfferMessage, ReadyMessage: the sides (taken)
 * that offer, ask, or have their setup in. */
json_t *draw_offer_message(int64_t game, json_t *sides);
/* The same after a refusal: the offers left, and the sides that declined
 * the others' (both references taken). */
json_t *draw_declined_message(int64_t game, json_t *sides, json_t *declined_by);
json_t *rematch_offer_message(int64_t game, json_t *sides);
json_t *ready_message(int64_t game, json_t *sides);
/* SetupOkMessage: the setup of `side` is in. */
json_t *setup_ok_message(int64_t game, int side, json_t *ref);
/* SeekCreatedMessage, ChallengeCreatedMessage, TableCreatedMessage. */
json_t *seek_created_message(int64_t seek_id, json_t *ref);
json_t *challenge_created_message(const char *token, int64_t seek_id, json_t *ref);
json_t *table_created_message(int64_t table, json_t *ref);
/* LobbyMessage: open seeks and live games (both taken). */
json_t *lobby_message(json_t *seeks, json_t *games);

#endif
