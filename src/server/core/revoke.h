/* revoke.h -- a credential revoked ends, at once, every stream and
 * connection it opened (revoke.c): a Bot API token deleted, a session
 * signed out, a player's every credential (its account closed), a player's
 * every other session (its password changed).
 */
#ifndef CITADEL_SERVER_REVOKE_H
#define CITADEL_SERVER_REVOKE_H

#include <stdint.h>

typedef struct srv srv;

typedef enum revoke_kind {
    REVOKE_TOKEN,    /* one Bot API token of `player` (its id in `token`) */
    REVOKE_SESSION,  /* one session (its id in `session`) */
    REVOKE_PLAYER,   /* every credential of `player`: its account closed */
    REVOKE_OTHERS,   /* every session of `player` but one (its id in `session`, or
                      * ""): its password changed; its tokens stay */
} revoke_kind;

#define REVOKE_SESSION_ID 65  /* revoke_session_id's size, NUL included */

typedef struct revoked {
    revoke_kind kind;
    int64_t player;                   /* whose it was (0: unknown, sessions only) */
    int64_t token;                    /* REVOKE_TOKEN */
    char session[REVOKE_SESSION_ID];  /* REVOKE_SESSION, REVOKE_OTHERS: revoke_session_id */
} revoked;

/* What the credential opened is ended, on this server (its WebSockets
 * closed, through hooks.revoke_api its Bot API streams ended) and on the
 * others (hooks.revoke_others). Call it once the store has let the
 * credential go, so that nothing it ends can be opened again with it. */
void revoke_end(srv *s, const revoked *r);
/* The same on this server alone: what the bus calls for another's. */
void revoke_end_here(srv *s, const revoked *r);
/* A session's id as clients keep it and the bus carries it: the SHA-256 of
 * its token, in hex (so that neither holds the token itself); "" for "". */
void revoke_session_id(const char *token, char out[REVOKE_SESSION_ID]);

#endif
