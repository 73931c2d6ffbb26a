/* multi.h -- search for games of more than two sides (Keeps & Moats).
 *
 * Two classic algorithms, both over game.h alone:
 *   paranoid  the root side's team maximises one score and every other team
 *             minimises it (a two-player reduction), with alpha-beta;
 *   max-n     every side maximises its own team's score; no pruning.
 * A position's leaves are valued by the caller's `eval`, which writes one
 * value per side (0 for a side that is out, more is better). A team's score
 * is the sum of its sides' values minus the mean, over the other teams, of
 * theirs. A finished game scores MULTI_WIN for the winners (sooner is
 * better), -MULTI_WIN for the others, 0 for a draw.
 *
 * The search deepens one ply at a time (a ply is one side's move) up to
 * `depth` and stops when `nodes` is spent, keeping the best move of the
 * last finished depth. It never allocates; positions live on the stack.
 */
#ifndef CITADEL_MULTI_H
#define CITADEL_MULTI_H

#include <stdatomic.h>
#include <stdint.h>

#include "../games/game.h"

#define MULTI_WIN 1000000
#define MULTI_MAX_DEPTH 16

enum { MULTI_PARANOID, MULTI_MAXN };

typedef void (*multi_eval_fn)(const void *pos, void *ctx, int out[GAME_MAX_SIDES]);
/* How promising a move looks (higher first); captures, say. */
typedef int (*multi_hint_fn)(const void *pos, game_move m, void *ctx);

typedef struct multi_config {
    const game_variant *variant;
    multi_eval_fn eval;
    multi_hint_fn hint;        /* may be NULL */
    void *ctx;                 /* passed to eval and hint */
    int algo;                  /* MULTI_PARANOID or MULTI_MAXN */
    int depth;                 /* 1 .. MULTI_MAX_DEPTH */
    uint64_t nodes;            /* budget; 0 = none */
    int noise;                 /* a leaf's score moves by up to +-noise */
    uint64_t seed;             /* for the noise */
    /* Paranoid only: search for the team of side `for_side` rather than the
     * side to move's (for_side_set 1): what the position is worth to a
     * side that has just moved, its best reply being another's to choose
     * (a review's verdict on that move). The best move is then the side to
     * move's that is worst for that team. */
    int for_side_set, for_side;
    /* Becoming nonzero ends the search (past its first depth) at once, with
     * the best move of the last finished depth; may be NULL. */
    atomic_int *stop;
} multi_config;

typedef struct multi_report {
    int depth;                 /* last depth finished */
    int score;                 /* the root team's score at that depth */
    uint64_t nodes;
} multi_report;

/* The best move for the side to move in pos, or GAME_MOVE_NONE when the
 * game is over. rep may be NULL. */
game_move multi_search(const multi_config *c, const void *pos, multi_report *rep);

#endif
