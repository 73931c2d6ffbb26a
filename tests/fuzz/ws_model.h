/* ws_model.h -- what fuzz_ws.c's harness knows of the server's world, and
 * the reading of what the server sent that keeps that knowledge (ws_model.c).
 *
 * The invariant: after settle(), every slot's knowledge (its player, its
 * games' plies, legal moves, setup phases) is what the messages it was sent
 * say, and each of those messages was checked against the store.
 */
#ifndef CITADEL_WS_MODEL_H
#define CITADEL_WS_MODEL_H

#include <jansson.h>
#include <stdint.h>

#include "server_fake.h"

#define NSLOT 6
#define MAXG 32
#define MAXKNOWN 32
#define MAXSES 16

/* --- reading the input -------------------------------------------------------------- */

typedef struct rd {
    const uint8_t *p;
    size_t n;
} rd;

static inline unsigned u8(rd *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

/* --- what the harness knows ----------------------------------------------------------- */

typedef struct cgame {
    int64_t id;
    int ply;             /* moves the game has, as far as this client was told */
    json_t *legal;       /* the legal moves it was sent (it is to move), or NULL */
    int setup;           /* in its setup phase */
    unsigned ready, you; /* sides whose setup is in; sides this client plays */
    int ended;           /* over: an `end` came, or the game came over */
    int nsides;
} cgame;

typedef struct slot {
    net_conn *c;
    int64_t player;
    int session;         /* the session it connected with, -1 none */
    cgame g[MAXG];
    int ng;
    int lost;            /* messages were dropped (a full outbox): no order checks */
    int forgot;          /* more than MAXG games came: the oldest were forgotten */
    char name[STORE_NAME_MAX + 1];  /* its player's, from hello */
} slot;

typedef struct session {
    char cookie[100];
    int64_t player;
} session;

/* answers, by type (bits) */
enum {
    A_ERROR = 1, A_PONG = 2, A_SEEK = 4, A_CHALLENGE = 8, A_TABLE = 16, A_GAME = 32,
    A_LOBBY = 64, A_SETUP_OK = 128, A_CHAT = 256
};

typedef struct ws_state {
    fake_world w;
    slot sl[NSLOT];
    session ses[MAXSES];
    int nses;
    int64_t games[MAXKNOWN], seeks[MAXKNOWN], tables[MAXKNOWN];
    int ngames, nseeks, ntables;
    char tokens[8][40];
    int ntokens;
    unsigned got;        /* answers the slot being checked received */
} ws_state;

extern ws_state S;

/* The game as stored, replayed to `ply` moves into pos (as live_load
 * rebuilds it); NULL if its start is not known yet (a setup phase). Fails
 * if the store has fewer moves than a client was shown: nothing is shown
 * before it is stored. Replays are kept (the same moves reach every
 * watcher), so a game costs one replay, not one a message. */
typedef struct replay {
    int64_t gid;
    int ply;
    char start[STORE_TEXT_MAX];
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
} replay;
extern replay replays[8];

/* the Stratego setups of GET /api/setups/stratego, learned once */
extern char setups[24][128];
extern int nsetups;

/* Adds id to a list of known ids (at most MAXKNOWN, the oldest dropped). */
void remember(int64_t *list, int *n, int64_t id);
/* The b-th newest of a list; -1 if it is empty. */
int64_t pick(const int64_t *list, int n, unsigned b);
/* A session an HTTP answer set, for later connections. */
void add_session(const char *cookie, int64_t player);
/* The slot's game id (made if `make`), or NULL. */
cgame *cg_find(slot *s, int64_t id, int make);
/* The slot knows no game any more (it left, or lost messages). */
void slot_forget_games(slot *s);
/* o's integer member key, or -1. */
int64_t jint(json_t *o, const char *key);
/* Reads and checks what client k was sent, and empties its outbox. */
void read_outbox(int k);
/* Reads every outbox, delivers the closes the server asked for, then
 * checks srv_check and that every connected client's player is stored. */
void settle(void);

#endif
