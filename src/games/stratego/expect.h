/* expect.h -- Stratego's strongest search: expectimax on the view.
 *
 * The search never sees a rank it may not know. It plays on the view
 * itself; every enemy piece of unknown rank carries a belief, the chance of
 * each kind (from bot.c's sampler, which knows the counts, the moves and
 * the setups). A combat that involves such a piece is a chance node: each
 * kind the piece may be is tried, the piece revealed as that kind, and the
 * results weighed by their chances. Between combats it is an alpha-beta
 * search, deepened one ply at a time for as long as the time allows, with a
 * quiescence search of attacks. So an attack on an unknown piece is worth
 * what it wins or loses on average, with no sample's answer known for free
 * below the root (the strategy fusion of a determinized search).
 *
 * The belief thins as the search goes: a kind is not tried once the line
 * has revealed as many as can be left, a piece that moves is no Bomb or
 * Flag, a piece that ran is a Scout.
 */
#ifndef CITADEL_STRATEGO_EXPECT_H
#define CITADEL_STRATEGO_EXPECT_H

#include <stdatomic.h>
#include <stdint.h>

#include "../game.h"
#include "stratego.h"

/* What the search is told about the enemy: for each cell holding an enemy
 * piece of unknown rank, the chance of each kind (p[cell][kind], summing
 * to 1 over ST_SPY..ST_FLAG), and how many of each kind the unknown pieces
 * hold at most (pool). */
typedef struct st_belief {
    float p[ST_CELLS][ST_NKINDS];
    int pool[ST_NKINDS];
} st_belief;

/* The evaluation's terms that can be turned off to measure them (all on
 * by default): */
#define STX_F_HIDDEN 1u  /* our high ranks not yet shown are worth more */
/* Root rules (off unless asked, so that older players keep their moves): */
#define STX_F_MARSHAL_SAFE 2u  /* our shown Marshal ends no move next to an
                                * unknown piece that may be the enemy Spy */
#define STX_F_FEW_PROBES 4u    /* no piece but a Miner attacks an unknown
                                * piece that never moved, unless it is
                                * likely the Flag */
#define STX_F_GUARD 8u         /* a piece of ours that beats a Miner stays
                                * near our Flag while enemy Miners live */
#define STX_F_STILL 16u        /* our pieces that never moved are worth more:
                                * each may be a Bomb or the Flag to the enemy */
#define STX_F_SPY 32u          /* our Spy is worth more while the enemy
                                * Marshal may live */
#define STX_F_HIDE_MORE 64u    /* our Majors and above not yet shown are
                                * worth more again */
#define STX_F_DIG 128u         /* from ply STX_DIG_PLY, dig for the enemy
                                * Flag (expect_eval.c, root_rules.c) */
#define STX_F_DOMINANT 256u    /* each enemy mover whose rank we see and
                                * none of ours can take costs half its worth */
#define STX_F_APPROACH 512u    /* our shown Miners to Majors do not attack an
                                * unknown piece that has just come next to
                                * them (root_rules.c) */
#define STX_F_OWN_WORTH 1024u  /* an unknown enemy attacker weighs its attack
                                * against its best other move with itself at
                                * its own kind's worth, not at the worth we
                                * expect of it (expect.c child_value) */
/* The ply from which STX_F_DIG digs. */
#define STX_DIG_PLY 600

#define STX_LINES_MAX 8

typedef struct stx_report {
    int depth;        /* last depth finished */
    int score;        /* its score for the side to move */
    uint64_t nodes;
    /* the best moves of the last depth finished, best first, each with its
     * score for the side to move (stx_search_lines; one for stx_search) */
    int nlines;
    game_move line[STX_LINES_MAX];
    int line_score[STX_LINES_MAX];
} stx_report;

/* The best move for the side to move of view (a view of that side) under
 * belief bl, thinking until deadline_ns (timer_ns(); 0 = none), max_depth
 * plies (0 = no limit), max_nodes (0 = none) or *stop. At least depth 1 is
 * finished. GAME_MOVE_NONE if there is no move. rep may be NULL. */
game_move stx_search(const st_pos *view, const st_belief *bl, unsigned features,
                     uint64_t deadline_ns, int max_depth, uint64_t max_nodes, atomic_int *stop,
                     stx_report *rep);
/* As stx_search, but the best `lines` root moves (1 to STX_LINES_MAX) are
 * each searched with a window that gives their exact scores, for the
 * analysis board's several lines; with lines 1 it is stx_search, move for
 * move and node for node. */
game_move stx_search_lines(const st_pos *view, const st_belief *bl, unsigned features,
                           uint64_t deadline_ns, int max_depth, uint64_t max_nodes,
                           atomic_int *stop, int lines, stx_report *rep);

#endif
