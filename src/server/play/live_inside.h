/* live_inside.h -- what the files of live games share of a game's
 * insides: games.c, live_json.c, live_setup.c, turn.c, live.c,
 * live_requests.c and records.c; outside them only chat.c (a game's
 * rooms), lobby_list.c, check.c (the links between clients and games),
 * ../botapi/botapi.c (a game's state for its streams) and ../server.c
 * (which stops games' timers) read them. Everyone else has live.h.
 *
 * The files are in layers, each calling only those before it:
 *   games.c        the table of games; who is to move, who plays which side
 *   chat.c         chat in a game's rooms (chat.h)
 *   live_json.c    what a game looks like to each client; sending to watchers
 *   live_setup.c   private setups taken and stored (Stratego S3)
 *   lobby_list.c   the lobby message, and when it is sent (lobby.h)
 *   turn.c         a game's progress: moves and ends checked, stored, then
 *                  made and told; requests that wait for a write; clocks'
 *                  timer; bots asked to move; the setup phase's end
 *   live.c         games started, loaded, resumed, swept; players gone/back
 *   live_requests.c  what players ask of a game: move, resign, draw, rematch,
 *                  setup
 *   lobby.c, records.c, review.c, import.c, check.c  above them all */
#ifndef CITADEL_LIVE_INSIDE_H
#define CITADEL_LIVE_INSIDE_H

#include "clock.h"
#include "live.h"

/* Every live game of s, as g (newest first); g may not be removed inside. */
#define LIVE_EACH(s, g) for (live *g = (s)->all_games; g; g = g->all_next)

/* A move made, and what every player learned from it (game.h describe;
 * NULL when it showed nothing more, or the game describes no move). */
typedef struct played {
    char text[32];
    int64_t clock_ms;  /* the side to move's clock after it (store_move) */
    char *event;
    json_t *combat;  /* its effects' combat (Stratego S5), or NULL */
} played;

/* A request that waits for its game's write (turn.c, live_defer). */
struct deferred {
    deferred *next;
    uint64_t client;
    json_t *msg;
};

struct live {
    srv *s;
    int64_t id;
    game_settings set;       /* as created (a rematch repeats them) */
    const game_variant *v;
    store_game g;
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    _Alignas(16) unsigned char start[GAME_POS_MAX];
    played *moves;
    int nmoves, capmoves;
    gclock clk;          /* clock.h; clk.began: the side to move's turn began */
    ident players[GAME_MAX_SIDES];
    uint64_t *watchers;  /* client ids */
    int nwatch, capwatch;
    unsigned draw_offer;     /* sides offering a draw */
    unsigned rematch_offer;  /* sides asking for a rematch */
    int64_t rematch_id;
    int64_t gone[GAME_MAX_SIDES];  /* monotonic ms a side's player left; 0 if here */
    int setting_up;          /* private setups still coming (game_setup_ops) */
    unsigned ready;          /* sides whose setup is in */
    char setups[GAME_MAX_SIDES][128];
    net_timer *timer;
    int bot_busy;            /* a bot job is out for the current ply */
    int64_t bot_failed;      /* monotonic ms the bot to move first failed to answer; 0 */
    int64_t retry_at;        /* monotonic ms to try a failed store write again; 0 */
    /* A write of the game is out (live_store.c): requests for it wait. */
    int writing;
    deferred *deferred, *deferred_tail;
    int ndeferred;
    /* An end the store has not taken yet: announced only once stored. */
    int ending;
    int end_status, end_winner;
    char end_reason[32];
    int over;
    int64_t over_mono;
    json_t *end_msg;         /* the `end` message, for late watchers */
    json_t *last;            /* what the last move did (game_ops.effects), or NULL */
    live *next;              /* hash chain */
    live *all_prev, *all_next; /* every live game (srv.all_games) */
};



/* games.c */
/* Puts g in the server's table (both lists); live_unlink takes it out. */
void live_insert(srv *s, live *g);
void live_unlink(srv *s, live *g);
int live_to_move(const live *g);
/* The sides client c plays (a bit mask; 0 for a spectator or NULL). */
unsigned live_sides_of(const live *g, const client *c);
/* 1 if `side` still plays: always, but in games where a side may resign
 * and leave the others playing (game.h resign), not once it is out. */
int live_side_in(const live *g, int side);
int live_set_limit(const game_variant *v, void *pos, int limit);
/* Frees g, which is in no list (live_unlink), with the requests waiting. */
void live_free(live *g);
void live_deferred_free(live *g);

/* live_json.c */
json_t *live_clocks_json(const live *g);
/* The position as `to` may see it: its side's view in hidden games. */
json_t *live_position_json(const live *g, const client *to);
json_t *live_legal_json(const live *g);
json_t *live_material_json(const live *g);
/* Keeps what legal move m of g's position (not made yet) does, as g->last. */
void live_note_effects(live *g, game_move m);
/* The squares whose pieces stand attacked now, or NULL where the game
 * has no such list (game_ops.threats). */
json_t *live_threats_json(const live *g);
json_t *live_sides_json(const live *g, unsigned mask);
/* Sends msg to every watcher; with_position: each gets its own position
 * (hidden games) and the mover its legal moves. Watchers no longer
 * connected are dropped from the list. */
void live_broadcast(live *g, json_t *msg, int with_position);
/* Sends every watcher the whole game as it may see it (a `game` message):
 * play begun after the setups, the clocks released after the cover. */
void live_send_states(srv *s, live *g);
/* The same, but `special` (if not NULL) gets `mine` instead of msg. */
void live_broadcast_to(live *g, json_t *msg, int with_position, const client *special,
                       json_t *mine);

/* live_setup.c */
int live_all_ready(const live *g);
void setup_key(const live *g, int side, char *buf, size_t size);
/* Takes side's setup; returns 1 when every side's is in (the caller then
 * begins play), 0 if not yet, -1 with err if refused. */
int setup_take(srv *s, live *g, int side, const char *text, char *err, size_t errlen);

/* turn.c */
/* A new game of variant v, in no list yet, with its timer; NULL if out of
 * memory. */
live *live_new(srv *s, const game_variant *v);
/* Plays `text` for `side`, the side to move: checks that it is one of the
 * legal moves, charges the clock, stores, then makes and tells. Returns 0
 * if the move was made; -2 if it is not legal; -1 if it was not made for
 * another reason (the clock, the store). A client's error goes back to it
 * with ref. */
int live_apply_move(srv *s, live *g, int side, const char *text, client *from, json_t *ref);
/* Stores a move the game has checked (a legal move, or a resignation of
 * any side), then makes it and tells every watcher; `from` (if not NULL)
 * gets its copy with ref. `clock` is the side to move's clock after it,
 * stored with it; turn_ends: the side to move's turn ends with it (the
 * next turn begins now; else the turn and its clock go on). Returns 0, or
 * -1 after telling `from` that the `what` ("move") could not be stored. */
int live_commit(srv *s, live *g, game_move m, int64_t clock, int turn_ends, client *from,
                json_t *ref, const char *what);
/* Ends the game: winner is a team or -1 (a draw). The store writes the
 * result and the rating changes in one transaction, and only then is
 * everyone told. If the store refuses, nothing changes: `from` (a player
 * who asked, or NULL) is told that the `what` could not be stored; an end
 * nobody asked for waits (g->ending) and is tried again later. */
void live_end(srv *s, live *g, int status, int winner, const char *reason, client *from,
              json_t *ref, const char *what);
/* Ends the game as the game's rule on flags says for `side` (reason
 * "time" or "abandoned"), or tries again later if the store refuses. */
void live_end_by_clock(srv *s, live *g, int side, const char *reason);
/* Ends the game once the store has taken the end; if it does not, the
 * game waits (no move is taken) and the end is tried again later. */
void live_end_or_retry(srv *s, live *g, int status, int winner, const char *reason);
/* A game's writes wait for each other. When a write is done,
 * live_after_write runs the requests that waited for it (live_defer),
 * arms the game's timer and wakes its bot. */
void live_after_write(srv *s, live *g);
/* Sets the game's timer for the next thing that can end it (or retry). */
void live_arm(live *g);
/* A game of hidden pieces that one person plays on one device (every side
 * theirs): its page covers the board while the device changes hands, and
 * live_hold stands the clocks meanwhile, for LIVE_HOLD_MS at most; the
 * player who takes the device uncovers (live_on_uncover), or the time runs
 * out, and live_release starts the turn then and tells the watchers. */
#define LIVE_HOLD_MS 60000
int live_covered_between_turns(const live *g);
void live_hold(live *g);
void live_release(srv *s, live *g);
/* If a bot is to move, sends it to think. */
void live_kick_bot(srv *s, live *g);
/* A store write failed: try again in SRV_RETRY_MS. */
void live_retry_later(live *g);
/* Every setup is in: the start is made, stored and shown, and play
 * begins (or the game is aborted, or the start tried again later). */
void setup_begin_play(srv *s, live *g);
/* Bots choose their setups at once. */
void setup_bots(srv *s, live *g);
/* A game resumed in its setup phase: the setups stored so far come back. */
void setup_resume(srv *s, live *g);

/* live.c */
/* A stored game rebuilt in memory (moves replayed), or NULL with err; free
 * it with live_free unless it is put in the server's table. */
live *live_load(srv *s, int64_t id, char *err, size_t errlen);

#endif
