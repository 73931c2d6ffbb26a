/* msg.h -- the typed form of every message a client sends on /ws
 * (docs/api.schema.json's ClientMessage), and its one parse.
 *
 * msg_parse reads a message once, at the door: its type, every field its
 * kind allows (and no other), each of its JSON type and range, and for
 * the messages that make a game, the game's settings against its variant.
 * The handlers of clients.c, lobby.c, live_requests.c, live_setup.c and
 * chat.c read the fields of a cmsg and never the JSON; what they check is
 * only what needs the server's state (is the game live, is it yours).
 *
 * Invariant: msg_parse returns 0 only for a message the schema accepts,
 * with every field of the cmsg filled from it or from its default; on -1
 * it says why, in words a player can act on, and the cmsg is not to be
 * read. A cmsg borrows its strings and ref from the JSON it was read
 * from, so it lives no longer than that JSON.
 *
 * msg_fields lists each kind's fields as the parse knows them, so that a
 * test holds them equal to the schema's.
 */
#ifndef CITADEL_SERVER_MSG_H
#define CITADEL_SERVER_MSG_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "../../games/game.h"

#define SRV_MAX_OPTIONS 4
#define SRV_MAX_BASE_MS (3LL * 3600 * 1000)
#define SRV_MAX_INC_MS (60LL * 1000)

/* Settings of a new game. */
typedef struct game_settings {
    const game_variant *v;
    int64_t base_ms, inc_ms;
    int move_limit;
    int rated;
    int nopts;           /* the variant's other settings ("GameType": 2) */
    struct {
        const char *name;  /* the variant's option name (static) */
        int value;
    } opts[SRV_MAX_OPTIONS];
} game_settings;

typedef enum msg_kind {
    MSG_PING,
    MSG_WATCH,
    MSG_UNWATCH,
    MSG_MOVE,
    MSG_RESIGN,
    MSG_DRAW,
    MSG_ABORT,
    MSG_UNCOVER,
    MSG_REMATCH,
    MSG_SETUP,
    MSG_SEEK,
    MSG_CHALLENGE,
    MSG_CANCEL,
    MSG_ACCEPT,
    MSG_ACCEPT_CHALLENGE,
    MSG_PLAY_BOT,
    MSG_LOCAL,
    MSG_TABLE,
    MSG_SIT,
    MSG_LOBBY,
    MSG_UNLOBBY,
    MSG_CHAT,
    MSG_KINDS
} msg_kind;

#define MSG_MAX_TEXT 4096  /* the longest move, setup, token or bot name taken */

typedef struct cmsg {
    msg_kind kind;
    json_t *ref;         /* any JSON the client attached, or NULL (borrowed) */
    int64_t game;        /* watch, unwatch, move, resign, draw, rematch, setup, chat */
    int64_t seek;        /* cancel, accept */
    int64_t table;       /* sit */
    int64_t ply;         /* move: the move's number, 0 for the first */
    int side;            /* resign, setup: a side, or -1 when not named;
                          * play_bot: 0, 1, or -1 for random; sit: the seat */
    const char *text;    /* move: the move; setup: the setup; chat: the line;
                          * accept_challenge: the token; play_bot: the bot's name */
    size_t text_len;     /* bytes of text (a chat line may not hold a NUL) */
    game_settings set;   /* seek, challenge, play_bot, local (never rated), table */
    int decline;         /* draw: 1 to decline the others' offers, not to offer */
    int nseats;          /* table: one per side, in turn order */
    const char *seats[GAME_MAX_SIDES];  /* "me", "open" or a bot's name */
} cmsg;

/* Reads msg (a JSON object) into *m; 0, or -1 with the reason in err. */
int msg_parse(json_t *msg, cmsg *m, char *err, size_t errlen);

/* The settings fields of msg (variant, base_ms, inc_ms, move_limit,
 * rated, options) checked against the variant; 0, or -1 with the reason. */
int msg_settings_parse(json_t *msg, game_settings *set, char *err, size_t errlen);

/* The wire name of a kind ("accept_challenge"), or NULL. */
const char *msg_name(msg_kind k);

/* A field's JSON type and range, as the schema gives it. */
typedef enum msg_type {
    MSG_T_CONST,     /* "type": the kind's name */
    MSG_T_ANY,       /* "ref": any JSON value */
    MSG_T_ID,        /* Id: an integer from 1 */
    MSG_T_SIDE,      /* Side: an integer 0-3 */
    MSG_T_BOT_SIDE,  /* an integer -1-1 */
    MSG_T_NATURAL,   /* an integer from 0 */
    MSG_T_INT,       /* any integer */
    MSG_T_STRING,    /* a string */
    MSG_T_TEXT,      /* a string of at least one byte */
    MSG_T_BOOL,
    MSG_T_OBJECT,
    MSG_T_SEATS      /* an array of 2-4 strings */
} msg_type;

/* A kind's fields as the parse takes them, "type" and "ref" included;
 * `required` is 1 if a message must carry the field; `type` a msg_type. */
typedef struct msg_field {
    const char *name;
    int required;
    int type;
} msg_field;
const msg_field *msg_fields(msg_kind k, int *n);

/* 1 if a kind is a request for a live game that waits for the game's
 * store write and goes to the game's server (move, resign, draw, rematch,
 * setup, chat, watch, unwatch). */
int msg_names_game(msg_kind k);

#endif
