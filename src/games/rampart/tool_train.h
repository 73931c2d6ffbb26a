/* tool_train.h -- `citadel train`: Rampart's learnt evaluation (nnue.h)
 * from self-play, a tool of game.h (rp_tool_train, tool_train.c).
 *
 *   citadel train gen --out FILE [...]   plays games, keeps labelled positions
 *   citadel train fit --out NET DATA...  fits one net per board in the data
 *
 * A data file is the 8-byte magic "RPDATA01" and then rn_sample records,
 * 80 bytes each, in the machine's byte order (little-endian wherever the
 * engine runs: nnue.c needs it).
 */
#ifndef CITADEL_RAMPART_TOOL_TRAIN_H
#define CITADEL_RAMPART_TOOL_TRAIN_H

#include <stdint.h>

#include "rampart.h"

#define TRAIN_SCORE_MAX 3000

typedef struct rn_sample {
    uint64_t pc[2][RP_NTYPES];  /* [side][type] bitboards */
    int16_t score;              /* search score, side to move's view, clipped */
    int8_t result;              /* the game's end for the side to move: 1, 0, -1 */
    uint8_t stm;
    uint8_t w, h;
    int16_t fullmove, move_limit;
    uint8_t pad[6];
} rn_sample;

typedef struct train_gen_options {
    const char *out;
    const char *variant;     /* "rampart", "rampart-xl" or "both" */
    int games;
    uint64_t nodes;          /* per move */
    int move_limit;
    int plies_min, plies_max;  /* random opening plies */
    int concurrency;
    uint64_t seed;
} train_gen_options;

typedef struct train_fit_options {
    const char *out;
    const char *const *data;
    int ndata;
    int epochs;
    int batch;
    double lr;
    double lambda;           /* weight of the search score against the result */
    int concurrency;
    uint64_t seed;
} train_fit_options;

/* Each returns the process's exit status, having said what went wrong.
 * train_gen plays with the searcher its caller lends (game.h). */
int train_gen(const train_gen_options *o, const game_searcher *search);
int train_fit(const train_fit_options *o);

/* tool_train_gen.c: rebuilds the position of a sample; 0, or -1 for a board
 * Rampart has not. */
int train_sample_pos(const rn_sample *s, rp_pos *pos);

#endif
