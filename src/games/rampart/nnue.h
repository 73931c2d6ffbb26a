/* nnue.h -- Rampart's learnt evaluation: a small network in the NNUE style.
 *
 * One net per board (Classic 5x9, XL 7x9), trained by `citadel train` on
 * self-play positions labelled with search scores and results, shipped as
 * one file (src/games/rampart/rampart.nnue) that the build embeds.
 *
 * The net: two accumulators of RN_HIDDEN values, one from each side's point
 * of view, each the bias plus one weight row per active feature; clipped to
 * [0, 1] (CReLU) and joined, the side to move's first; one linear output.
 * A feature is a piece seen from a perspective (own or enemy, its type, its
 * square with the board turned for Top, so that both sides read the board
 * from their own back row), the same for the pieces under threat (below),
 * and the one bucket of plies left to the move limit (R7.3) the position is
 * in: the net knows how long material has to change before it decides the
 * game.
 *
 * In the file the weights are integers: hidden weights and biases times
 * RN_QA, output weights times RN_QB, the output bias times RN_QA * RN_QB,
 * and `scale`, the centipawns that one unit of the net's output is worth
 * (the same centipawns as rp_evaluate's, so the search's contempt keeps its
 * meaning). The trainer clips hidden weights to [-RN_W1_MAX, RN_W1_MAX] and
 * output weights to [-RN_W2_MAX, RN_W2_MAX], so that every quantized weight
 * fits in 16 bits and a sum of up to RN_ACC16 rows does too; a position
 * with more active features (rare in play, with at most 24 pieces) is summed in
 * 32 bits, so any position a string can describe is summed exactly.
 *
 * Invariant: an embedded net is used only after rn_check has accepted the
 * whole file (magic, version, sizes, board sizes); any other board, or no
 * valid file, falls back to the hand-written rp_evaluate.
 */
#ifndef CITADEL_RAMPART_NNUE_H
#define CITADEL_RAMPART_NNUE_H

#include <stddef.h>
#include <stdint.h>

#include "rampart.h"

#define RN_HIDDEN 128
/* Four blocks of 2 x 4 x 64 piece features: every piece; those attacked by
 * the enemy type that takes them (R4); those of them not covered by the
 * type that takes the attacker; those with three of their four neighbours
 * enemy pieces and the fourth empty (one move from enclosure, R5). */
#define RN_SQUARES (2 * RP_NTYPES * 64)
#define RN_ATTACKED RN_SQUARES
#define RN_HANGING (2 * RN_SQUARES)
#define RN_CAGED (3 * RN_SQUARES)
#define RN_PIECE_FEATURES (4 * RN_SQUARES)
#define RN_BUCKETS 16
#define RN_FEATURES (RN_PIECE_FEATURES + RN_BUCKETS)
/* Active features of one perspective: a piece on every square, each in
 * every block, and the bucket. */
#define RN_MAX_ACTIVE (4 * 64 + 1)
#define RN_QA 255
#define RN_QB 64
#define RN_W1_MAX 1.98f
/* The largest quantized hidden weight or bias (RN_W1_MAX * RN_QA), and the
 * most active features whose sum is kept in 16 bits. */
#define RN_W1_Q 505
#define RN_ACC16 63
#define RN_W2_MAX 8.0f
#define RN_MAX_NETS 4

/* One net, quantized, in the file's layout (all little-endian). */
typedef struct rn_net {
    int w, h;
    int32_t scale;             /* centipawns per unit of output */
    const int16_t *w1;         /* [RN_FEATURES][RN_HIDDEN] */
    const int16_t *b1;         /* [RN_HIDDEN] */
    const int16_t *w2;         /* [2 * RN_HIDDEN]: side to move's half first */
    int32_t b2;
} rn_net;

/* Feature indices of pos seen from side `persp` (RP_BOTTOM or RP_TOP):
 * writes them to out and returns how many (at most RN_MAX_ACTIVE). */
int rn_features(const rp_pos *pos, int persp, int *out);
/* The bucket of plies left before the move limit adjudicates: 1 (120 or
 * more, or no limit) to 12 (the last ply); 0 is never used. */
int rn_bucket(const rp_pos *pos);

/* Checks a net file in memory: 0 and the nets it holds (pointing into
 * data, which must outlive them and be 2-byte aligned), or -1 with a
 * reason in err (at most errsize bytes). */
int rn_check(const unsigned char *data, size_t size, rn_net *nets, int *count, char *err,
             size_t errsize);

/* The embedded net for pos's board, or NULL. Thread-safe. */
const rn_net *rn_for(const rp_pos *pos);
/* What net says of pos, in centipawns from the side to move's view. */
int rn_evaluate(const rn_net *net, const rp_pos *pos);

/* The embedded file (build/gen/rampart_net.c, made from rampart.nnue). */
extern const unsigned char rn_blob[];
extern const size_t rn_blob_size;

#endif
