/* store.h -- everything the server keeps, behind one interface.
 *
 * The server stores players, sessions, games, every move with its clock
 * time, results, ratings and their history. This header is the only way it
 * does so, on SQLite (WAL; store_sqlite.c) or PostgreSQL (store_pg.c): one
 * implementation of the functions (store.c and the others, through db.h)
 * runs on both, and the store's tests run against both.
 *
 * Durability.  Every function that writes returns only after its change is
 * committed (in a batch, below: is committed when the batch is): a process
 * killed at any moment afterwards loses nothing that a write function
 * reported as done. (SQLite: WAL; store_open's `sync_full`, the server's
 * default, makes a commit survive a power cut as well as a killed process,
 * synchronous=NORMAL only the latter. PostgreSQL: synchronous_commit on,
 * or off without sync_full: then a crash of the database server itself
 * may lose the last moments.)
 *
 * Locks.  A write that finds the database locked (by another process, say)
 * waits at most a quarter of a second (on SQLite, while the lock stays
 * taken, it then fails at once): the caller's thread (the server's event
 * loop) never stalls for long.
 *
 * Threads.  A store is used by one thread at a time. The server opens two
 * on one database: the event loop's, and its writer's (src/server/writer.h),
 * which writes the moves and results in batches.
 *
 * Functions return 0 on success and -1 on failure with a line for people
 * in err; "not found" is reported as STORE_NOT_FOUND (1) where
 * the function says so, and a name already taken as STORE_TAKEN (2).
 *
 * Times are milliseconds since the Unix epoch (int64_t). Ids are positive
 * int64_t, given by the store, and never given twice (not even after a
 * player was purged).
 */
#ifndef CITADEL_STORE_H
#define CITADEL_STORE_H

#include <stddef.h>
#include <stdint.h>

#define STORE_NOT_FOUND 1
#define STORE_TAKEN 2
#define STORE_NAME_MAX 32
#define STORE_TEXT_MAX 256

typedef struct store store;

typedef struct store_err {
    char msg[200];
} store_err;

/* Opens (creating if needed) the database at path and brings its schema
 * up to date by numbered migrations kept in the code (SQLite: PRAGMA
 * user_version; PostgreSQL: the table citadel_schema). A path that begins
 * postgresql:// or postgres:// is a libpq connection URI; ":memory:" gives
 * a private in-memory SQLite store for tests; anything else is a SQLite
 * file. NULL on failure. */
store *store_open(const char *path, int sync_full, store_err *err);
void store_close(store *s);

/* The schema version the store is at after store_open. */
int store_schema_version(store *s);

/* Leaves the copying of the WAL into the database (SQLite's checkpoints)
 * to the other store open on the same file: the server's writer opens a
 * second store, and one checkpointer is enough. Nothing on PostgreSQL. */
void store_leave_checkpoints(store *s);

/* Is the store on PostgreSQL? */
int store_is_pg(store *s);

/* Has the store lost its connection (PostgreSQL: the database server went
 * away, or the connection broke), or its server its games (store_evicted)?
 * Its claims went with it. */
int store_lost(store *s);

/* path as it may be shown: a URI's password, if any, as "***". */
void store_path_shown(const char *path, char *out, size_t size);

/* --- group commit --------------------------------------------------------
 * Between store_batch_begin and store_batch_commit the write functions
 * run inside one transaction, each as a savepoint of its own: a write that
 * fails undoes only itself and the others stand, and what they report as
 * done is committed when the batch is, with one sync of the disk for the
 * lot. A write error that takes the whole transaction with it (a full
 * disk, an I/O error) leaves store_batch_intact 0: every write of the batch
 * is lost, and store_batch_commit says so. store_batch_abandon undoes the
 * batch. Reads in a batch see its writes. */
int store_batch_begin(store *s, store_err *err);
int store_batch_intact(store *s);
int store_batch_commit(store *s, store_err *err);
void store_batch_abandon(store *s);

/* --- players ------------------------------------------------------------ */
typedef struct store_player {
    int64_t id;
    char name[STORE_NAME_MAX + 1];
    int is_bot;            /* bots are accounts too */
    int is_guest;          /* anonymous players: never rated */
    char bot_spec[64];     /* bots: "level=3" and the like; "" otherwise */
    int64_t created;
    int is_api_bot;        /* an account that plays only through the Bot API */
} store_player;

/* Creates a player. pass_hash is the Argon2id string (libsodium's
 * crypto_pwhash_str), or "" for bots and guests. Returns STORE_TAKEN if the
 * name is in use (names compare case-insensitively). Sets *id. */
int store_player_add(store *s, const char *name, const char *pass_hash, int is_bot,
                     int is_guest, const char *bot_spec, int64_t now, int64_t *id,
                     store_err *err);
/* By name (case-insensitive) or id; STORE_NOT_FOUND if none. pass_hash
 * (may be NULL) receives the stored hash, room for STORE_TEXT_MAX bytes. */
int store_player_by_name(store *s, const char *name, store_player *p, char *pass_hash,
                         store_err *err);
int store_player_by_id(store *s, int64_t id, store_player *p, store_err *err);
/* Every bot account, in id order; returns how many (up to max), or -1. */
int store_bots(store *s, store_player *out, int max, store_err *err);

/* --- sessions ----------------------------------------------------------- */
/* token: the session cookie's value (the caller makes it, random). */
int store_session_add(store *s, const char *token, int64_t player, int64_t now,
                      int64_t expires, store_err *err);
/* The player of a session that has not expired at `now`; STORE_NOT_FOUND
 * otherwise. */
int store_session_player(store *s, const char *token, int64_t now, int64_t *player,
                         store_err *err);
int store_session_del(store *s, const char *token, store_err *err);
/* A new password (its Argon2id string) for a player who is not a guest,
 * and every session of the player but `keep` (a session token, or "" for
 * none) ended, in one transaction; STORE_NOT_FOUND if no such player. */
int store_password_set(store *s, int64_t player, const char *pass_hash, const char *keep,
                       store_err *err);

/* Removes every guest nobody can use any more: no session left that has
 * not expired at `now`, no game, and not one of the nkeep ids in keep (the
 * guests still connected, whose cookie may have expired under them).
 * Returns how many, or -1. */
int store_guests_purge(store *s, int64_t now, const int64_t *keep, size_t nkeep,
                       store_err *err);

/* --- ratings ------------------------------------------------------------ */
typedef struct store_rating {
    char variant[32];
    double rating;         /* 1500 until the first rated game */
    int games;             /* rated games played in that variant */
} store_rating;

/* A player's rating in a variant (1500 and 0 games if never rated). */
int store_rating_get(store *s, int64_t player, const char *variant, store_rating *r,
                     store_err *err);
/* Every variant the player has a rating in; returns how many, or -1. */
int store_ratings(store *s, int64_t player, store_rating *out, int max, store_err *err);

typedef struct store_rating_point {
    int64_t game;
    int64_t time;
    double before, after;
} store_rating_point;
/* A player's rating history in a variant, oldest first; returns how many
 * (the latest `max` if there are more), or -1. */
int store_rating_history(store *s, int64_t player, const char *variant,
                         store_rating_point *out, int max, store_err *err);

typedef struct store_ladder_row {
    int64_t player;
    char name[STORE_NAME_MAX + 1];
    int is_bot;
    double rating;
    int games;
} store_ladder_row;
/* The ladder of a variant: rated players, best first; returns how many. */
int store_ladder(store *s, const char *variant, store_ladder_row *out, int max,
                 store_err *err);

/* --- games -------------------------------------------------------------- */
#define STORE_MAX_SIDES 4

enum { STORE_GAME_LIVE = 0, STORE_GAME_OVER = 1, STORE_GAME_ABORTED = 2 };

typedef struct store_game {
    int64_t id;
    char variant[32];
    char start[STORE_TEXT_MAX];  /* the start position in the game's notation */
    int64_t base_ms, inc_ms;     /* clock; base_ms 0 means no clock */
    int move_limit;              /* 0 = none */
    int rated;
    int nsides;
    int64_t players[STORE_MAX_SIDES];  /* player id per side */
    int64_t created;
    int64_t started;             /* when the clocks began; 0 if not yet */
    int status;                  /* STORE_GAME_* */
    int winner;                  /* winning team, -1 draw (when over) */
    char reason[32];             /* "move-limit", "time", "resign", ... */
    int sterile;                 /* 1 for a sterile draw */
    int64_t ended;
    int nmoves;                  /* moves stored */
    int imported;                /* 1: made by store_game_import */
} store_game;

/* Creates a live game from g (id, status, nmoves ignored); sets g->id. */
int store_game_add(store *s, store_game *g, store_err *err);
/* STORE_NOT_FOUND if none. */
int store_game_get(store *s, int64_t id, store_game *g, store_err *err);


typedef struct store_move {
    int ply;                 /* 0 for the first move */
    char text[32];           /* the move in the game's notation */
    int64_t clock_ms;        /* the mover's clock after the move (with increment) */
    int64_t time;            /* when it was made */
} store_move;

/* Appends move number m->ply (must equal the number stored so far, else
 * -1 and nothing changes) and, in the same transaction, sets the game's
 * `started` to started if it is nonzero. */
int store_move_add(store *s, int64_t game, const store_move *m, int64_t started,
                   store_err *err);
/* All moves of a game in order into out (room for max); returns how many,
 * or -1. */
int store_moves(store *s, int64_t game, store_move *out, int max, store_err *err);

/* Stores a finished game from elsewhere (a PGN record), in one
 * transaction: g's variant, start, move_limit, nsides, players, created,
 * winner and reason, and its n moves (ply 0 .. n-1, clock_ms and time
 * as given), as a game over (STORE_GAME_OVER, ended = created), never
 * rated, with `imported` set; sets g->id. Nothing is stored if any of it
 * fails. */
int store_game_import(store *s, store_game *g, const store_move *moves, int n, store_err *err);

/* Ends a game and, in the same transaction, writes the rating changes:
 * for each of n entries, the player's new rating in g->variant (games + 1)
 * and a history point. Ending a game that is not live fails. */
typedef struct store_rating_change {
    int64_t player;
    double before, after;
} store_rating_change;
int store_game_end(store *s, int64_t game, int status, int winner, const char *reason,
                   int sterile, int64_t ended, const store_rating_change *changes, int n,
                   store_err *err);
/* Ends a rated two-sided game (STORE_GAME_OVER, not sterile) and rates it
 * in the same transaction, from the two players' ratings as they stand
 * inside it, so two ends committed at once never lose an update: side i,
 * players[i], scored score[i] (1, 0.5 or 0) and is rated
 * update(its rating, its rated games, the opponent's rating, score[i]).
 * A player with no rated game yet in the variant stands at start[i] (its
 * first rating row is made from it); start NULL: 1500 for both, as
 * store_rating_get has it. The changes made are written to out. */
typedef double (*store_rating_update)(double rating, int games, double opponent,
                                      double score);
int store_game_end_rated(store *s, int64_t game, int winner, const char *reason,
                         int64_t ended, const int64_t players[2], const double score[2],
                         const double start[2], store_rating_update update,
                         store_rating_change out[2], store_err *err);

/* --- several servers on one database (store_servers.c) -------------------
 * Each server serving a database has a row in `servers`: its lease, which
 * it renews with store_server_beat more often than every STORE_LEASE_MS.
 * The first server to look after a lease has lapsed (store_games_adopt)
 * removes that row and takes the server's live games over: each live game
 * names its owner (0: none, as games made before servers were counted).
 * The owner's writes are fenced: once a store is given its server
 * (store_set_server), each batch (store_batch_begin) first holds that
 * server's row; a batch of a server whose row is gone fails, and
 * store_lost says so from then on: its games are someone else's now.
 * On PostgreSQL a server is also dead as soon as the connection of the
 * store that joined goes (a killed process), through a lock it holds.
 * Times are the database's clock, so servers on several machines agree. */
#define STORE_LEASE_MS 10000
/* A new server's row (label: what it is, for people): its id in *id. */
int store_server_join(store *s, const char *label, int64_t *id, store_err *err);
/* The server whose games this store's writes are (0: none, no fencing);
 * games it adds are that server's. */
void store_set_server(store *s, int64_t id);
/* Renews a server's lease: 0, or STORE_NOT_FOUND if another server has
 * taken its games over (its row is gone). */
int store_server_beat(store *s, int64_t id, store_err *err);
/* A server stopping: its row goes, and its games to the next to adopt. */
int store_server_leave(store *s, int64_t id, store_err *err);
/* Ids of the servers whose lease holds, in order; how many, or -1. */
int store_servers_alive(store *s, int64_t *out, int max, store_err *err);
/* Removes every lapsed server's row and gives server `me` the live games
 * nobody alive owns: their ids in out (at most max; the rest at the next
 * call), how many, or -1. One server adopts at a time. */
int store_games_adopt(store *s, int64_t me, int64_t *out, int max, store_err *err);
/* The bus between servers (src/server/cluster/bus.h): on PostgreSQL each
 * server's bus connection holds the advisory lock (STORE_BUS_LOCK << 32 |
 * its id) while it lives, so a notification's sender (its backend's pid)
 * names the server that sent it, and nobody else can take that name while
 * the server lives. The pids of those connections and their servers' ids
 * (SQLite: none): how many, or -1. */
#define STORE_BUS_LOCK 71105
int store_bus_senders(store *s, int *pids, int64_t *ids, int max, store_err *err);
/* The owner of a live game: 0, or STORE_NOT_FOUND if it is not live. */
int store_game_owner(store *s, int64_t game, int64_t *owner, store_err *err);
/* Ids of a player's live games, oldest first: how many, or -1. */
int store_player_live(store *s, int64_t player, int64_t *out, int max, store_err *err);

/* Ids of every live game, oldest first (for resuming after a restart);
 * returns how many, or -1. */
int store_live_games(store *s, int64_t *out, int max, store_err *err);
/* A player's games, newest first, skipping `offset`; returns how many. */
int store_player_games(store *s, int64_t player, int offset, store_game *out, int max,
                       store_err *err);

/* --- saved setups and other per-player text ---------------------------- */
/* Key/value text per player ("setup:stratego:1" -> setup string). */
int store_kv_put(store *s, int64_t player, const char *key, const char *value,
                 store_err *err);
/* STORE_NOT_FOUND if none. */
int store_kv_get(store *s, int64_t player, const char *key, char *value, size_t size,
                 store_err *err);
/* Removes a key (nothing to remove is no error). */
int store_kv_del(store *s, int64_t player, const char *key, store_err *err);

typedef struct store_kv {
    char key[STORE_TEXT_MAX];
    char value[STORE_TEXT_MAX];  /* longer values come back cut */
} store_kv;
/* A player's keys that begin with prefix, in key order; returns how many
 * (up to max), or -1. */
int store_kv_list(store *s, int64_t player, const char *prefix, store_kv *out, int max,
                  store_err *err);

/* Sets the start position of a live game that has no move yet, and when
 * its clocks began (games whose sides set up their pieces in private learn
 * their start only when every setup is in). */
int store_game_set_start(store *s, int64_t game, const char *start, int64_t started,
                         store_err *err);

/* --- computer reviews ------------------------------------------------------
 * The server's review of a finished game (src/server/review.h): asked for
 * by a player (queued), then the engine's score of every position (done),
 * or given up (failed). One review per game. */
enum { STORE_REVIEW_QUEUED = 0, STORE_REVIEW_DONE = 1, STORE_REVIEW_FAILED = 2 };
#define STORE_REVIEW_MAX 65536   /* bytes of a review's scores */

typedef struct store_review {
    int64_t game;
    int64_t requester;    /* 0 if that player is gone */
    int64_t requested;    /* when it was asked for */
    int status;           /* STORE_REVIEW_* */
    int depth;            /* plies searched in each position */
} store_review;

/* Writes the review of r->game (a new one, or its new state) with its
 * scores (text of at most STORE_REVIEW_MAX bytes; "" while queued). */
int store_review_put(store *s, const store_review *r, const char *scores, store_err *err);
/* Reads the review of `game` and its scores (room for size bytes; scores
 * NULL: the row alone); STORE_NOT_FOUND if none was asked for. */
int store_review_get(store *s, int64_t game, store_review *r, char *scores, size_t size,
                     store_err *err);
/* The games whose reviews wait (queued), the oldest asked first; how many
 * (at most max), or -1. */
int store_reviews_waiting(store *s, int64_t *games, int max, store_err *err);
/* How many reviews `player` asked for since `since` (ms). */
int store_reviews_asked(store *s, int64_t player, int64_t since, store_err *err);

/* --- Bot API tokens (store_tokens.c) ---------------------------------------
 * A personal API token is shown to its owner once; the store keeps only its
 * SHA-256 (hex), so a stolen database gives no token. */
#define STORE_TOKEN_SCOPES_MAX 127
#define STORE_TOKEN_DESC_MAX 200
#define STORE_TOKENS_PER_PLAYER 20

typedef struct store_token {
    int64_t id;
    int64_t player;
    char scopes[STORE_TOKEN_SCOPES_MAX + 1];  /* "bot:play challenge:write" */
    char description[STORE_TOKEN_DESC_MAX + 1];
    int64_t created;
    int64_t used;         /* last used (ms), 0 never */
} store_token;

/* Adds a token of `player` by its hash (64 hex characters); STORE_TAKEN if
 * the player holds STORE_TOKENS_PER_PLAYER already. Sets *id. */
int store_token_add(store *s, int64_t player, const char *hash, const char *scopes,
                    const char *description, int64_t now, int64_t *id, store_err *err);
/* The token of a hash; STORE_NOT_FOUND if none. */
int store_token_by_hash(store *s, const char *hash, store_token *t, store_err *err);
/* A player's tokens, oldest first; how many (at most max), or -1. */
int store_tokens(store *s, int64_t player, store_token *out, int max, store_err *err);
/* Revokes token `id` of `player`; STORE_NOT_FOUND if the player has none
 * such. */
int store_token_del(store *s, int64_t player, int64_t id, store_err *err);
/* Notes a token's use at `now` (kept to the minute: at most one write a
 * minute a token). */
int store_token_used(store *s, int64_t id, int64_t now, store_err *err);
/* Makes `player` a Bot API account: only an account (not a guest, not a
 * server bot) that has played no game; STORE_NOT_FOUND if it may not be
 * made one (nothing changes), 0 if it is one now (or was). */
int store_player_api_bot(store *s, int64_t player, store_err *err);

#endif
