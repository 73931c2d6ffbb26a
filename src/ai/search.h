/* search.h -- alpha-beta search for two-sided games, through game.h alone.
 *
 * Iterative deepening principal variation search (aspiration windows from
 * depth 5) with a transposition table, move ordering (hash move, the game's
 * hints for captures and enclosures, killers, history), late move
 * reductions and a quiescence search over the game's noisy moves. A fixed
 * move time is used in full; an unfinished iteration's better root move is
 * kept. Game ends score exactly: a win in p plies is SEARCH_WIN - p, a
 * draw -SEARCH_CONTEMPT for the side searching; a blockade costs the side
 * searching SEARCH_BLOCKADE.
 *
 * A searcher owns its tables and is used by one thread at a time; several
 * searchers may run at once. search_run() returns when a limit is reached
 * or *stop becomes nonzero (set it from another thread). A searcher given
 * threads (search_set_threads) runs that many, itself and helpers sharing
 * its hash table (lazy SMP); it is still used by one thread at a time.
 */
#ifndef CITADEL_SEARCH_H
#define CITADEL_SEARCH_H

#include <stdatomic.h>
#include <stdint.h>

#include "../games/game.h"

#define SEARCH_WIN 32000
#define SEARCH_WIN_MIN (SEARCH_WIN - 1000)  /* scores beyond are game ends */
#define SEARCH_MAX_PLY 128
#define SEARCH_LEVELS 6
#define SEARCH_MAX_SKIP 8   /* root moves search_skip can leave out */
#define SEARCH_MAX_THREADS 64
/* A draw is worth -SEARCH_CONTEMPT to the side searching, +SEARCH_CONTEMPT
 * to its opponent: with material level the search prefers to play on. */
#define SEARCH_CONTEMPT 60
/* A position the game calls a blockade (game_ops.blockade) is worth
 * SEARCH_BLOCKADE less to the side searching than its evaluation says,
 * and that much more to its opponent: the search pays up to this much to
 * break a mutual blockade rather than sit in it until the move limit. */
#define SEARCH_BLOCKADE 80

/* The limits of one move (game.h). */
typedef game_limits search_limits;

/* What a report's score is: the iteration's value, or a bound from an
 * aspiration search that failed high (the value is at least the score)
 * or low (at most the score) and is searched again. */
enum { SEARCH_EXACT = 0, SEARCH_LOWER = 1, SEARCH_UPPER = 2 };

typedef struct search_report {
    int depth, seldepth;
    int score;               /* for the side to move */
    int bound;               /* SEARCH_EXACT, SEARCH_LOWER or SEARCH_UPPER */
    uint64_t nodes;
    uint64_t ms;
    int pvlen;
    game_move pv[SEARCH_MAX_PLY];
} search_report;

typedef void (*search_info_fn)(void *ctx, const search_report *r);

typedef struct searcher searcher;

/* A searcher with a hash table of about hash_mb megabytes (1 at least);
 * NULL if memory is short. */
searcher *search_new(size_t hash_mb);
void search_free(searcher *s);
/* Forgets everything learnt (a new game). */
void search_clear(searcher *s);
/* Resizes the hash table; returns 0, or -1 (and keeps the old) if short. */
int search_resize(searcher *s, size_t hash_mb);

/* Level 1 (a beginner) to SEARCH_LEVELS (the strongest, the default). */
void search_set_level(searcher *s, int level, uint64_t seed);

/* Contempt on (the default) or off: with it off a draw scores 0 and a
 * blockade nothing, for both sides, so that the scores say what a position
 * is worth and not what the side searching would rather do (the labels of
 * `citadel train gen`). */
void search_set_contempt(searcher *s, int on);

/* The threads the next runs search on, itself included (1-SEARCH_MAX_THREADS;
 * 1, as a new searcher has, is one thread exactly as always); returns how
 * many it will use (fewer if memory is short; 1 where there are no threads,
 * as in the page's WebAssembly). At levels below SEARCH_LEVELS a run uses
 * one. The helpers' nodes are in the final report only. */
int search_set_threads(searcher *s, int n);

/* How full the hash table is, per mille (UCI's hashfull), from a sample of
 * its first entries. */
int search_hashfull(const searcher *s);

/* The root moves the next runs leave out (at most SEARCH_MAX_SKIP; n = 0
 * for none, as a new searcher has): MultiPV searches again without the
 * lines found so far. A run whose every move is left out returns
 * GAME_MOVE_NONE. */
void search_skip(searcher *s, const game_move *moves, int n);

/* The root moves the next runs choose among (at most GAME_MAX_MOVES; n = 0
 * for all, as a new searcher has): UCI's `go searchmoves`. Moves not legal
 * at the root are never played; with search_skip too, the runs choose
 * among these moves less those left out. */
void search_only(searcher *s, const game_move *moves, int n);

/* Searches pos (not changed) and returns the best move, or GAME_MOVE_NONE
 * if the game is over. info, if not NULL, is called after each iteration
 * (r->bound SEARCH_EXACT) and, from depth 5 on, after each aspiration
 * search that fails high (SEARCH_LOWER) or low (SEARCH_UPPER), before the
 * same depth is searched again with a wider window; the bound's line is
 * the move that failed high, or on a fail low the last iteration's line.
 * Reporting never changes what is searched. The final report (an
 * iteration's) is left in *last if not NULL. */

game_move search_run(searcher *s, const game_variant *v, const void *pos,
                     const search_limits *lim, atomic_int *stop, search_info_fn info,
                     void *ctx, search_report *last);

/* search_tool.c: this searcher as game.h's game_searcher, which the
 * command line lends to a game's tools. */
extern const game_searcher search_tool;

#endif
