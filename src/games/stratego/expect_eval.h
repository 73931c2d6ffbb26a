/* expect_eval.h -- what the strongest search (expect.c) thinks of a node:
 * the node itself, the evaluation's inputs made once at the root from the
 * view and the belief, and the evaluation. Internal to expect.c and
 * expect_eval.c.
 *
 * Invariant: the evaluation reads the node and what the root made of the
 * view and the belief, never a rank the view does not show.
 */
#ifndef CITADEL_STRATEGO_EXPECT_EVAL_H
#define CITADEL_STRATEGO_EXPECT_EVAL_H

#include <stdint.h>

#include "expect.h"
#include "stratego.h"

/* What each kind is worth, shown (the hunt and the move order use it). */
extern const int stx_value[ST_NKINDS];

/* A node: the view as the line has changed it. */
typedef struct stx_node {
    st_pos p;
    uint64_t key;                /* of the board, the homes and `used` (cell_key) */
    uint8_t home[ST_CELLS];      /* root cell of the unknown piece here, 0 if none */
    uint8_t used[ST_NKINDS];     /* enemy kinds revealed by this line's chance nodes */
} stx_node;

/* The evaluation's inputs, made at the root. */
typedef struct stx_eval {
    const st_belief *bl;
    unsigned features;
    int us;
    int ev[ST_CELLS][2];         /* expected worth of an unknown piece: [0] any, [1] if it moved */
    int mov[ST_CELLS];           /* the chance that it moves at all, times 256 */
    int miner[ST_CELLS];         /* the chance that it is a Miner, times 256 */
    uint8_t may_move[ST_CELLS];  /* 1 if the belief lets it be a mover at all */
    int scout_worth;             /* what an unknown piece that ran is worth */
    int full;                    /* the material of both armies at the start */
    int ply;                     /* the root's ply */
    int press;                   /* 1 if we are PRESS_LEAD ahead at the root */
    int dig;                     /* 1 if STX_F_DIG digs at the root */
    int enemy_miners;            /* 1 if the enemy may have a Miner left (STX_F_GUARD) */
    int target;                  /* the likeliest cell of the enemy Flag, 0 if none */
    uint8_t to_target[ST_CELLS]; /* steps from each cell to target around the lakes */
    /* Steps from each cell to our Flag: [0] around our Bombs, [1] through
     * them (a Miner's way); 99 where there is no way. */
    uint8_t to_flag[2][ST_CELLS];
} stx_eval;

/* Makes e from view and bl for a search of `features` (STX_F_*), and
 * root's board and homes from view (not its key). */
void stx_eval_prepare(stx_eval *e, const st_belief *bl, unsigned features, const st_pos *view,
                      stx_node *root);
/* For the enemy piece of unknown rank on cell c of n, if it were of kind
 * k: what it would count for still unknown (*hidden) and shown (*shown),
 * each less what the evaluation counts it for now (its expected worth
 * under the belief). */
void stx_kind_gap(const stx_eval *e, const stx_node *n, int c, int kind, int *hidden, int *shown);
/* The node's score for its side to move. */
int stx_evaluate(const stx_eval *e, const stx_node *n);

#endif
