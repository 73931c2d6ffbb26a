/* bot.h -- Stratego players that see only their own view (S8).
 *
 * The bot keeps a belief about every enemy piece it cannot see the rank of:
 * what the enemy army can still hold (its 40 pieces less those revealed on
 * the board and those seen revealed earlier that have since gone), that a
 * piece that moved is no Bomb or Flag, that a piece that ran is a Scout, and
 * a prior that puts the Flag deep in the enemy's rows with Bombs beside it.
 * It then samples full positions consistent with that belief and searches
 * each (a determinized, or "perfect information Monte Carlo", search): every
 * root move is scored two plies deep plus a quiescence search of attacks in
 * each sample, and the move with the best mean over the samples is played.
 *
 * Levels 1 (a beginner) to 4 differ in samples, depth and noise. Levels 5
 * and 6 draw samples only to make the belief (the chance of each kind for
 * each unknown piece) and search the view itself by expectimax, every
 * combat with an unknown piece a chance node (expect.h): level 5 for a
 * fixed 20,000 nodes a move, so that it plays alike on any machine; the
 * strongest, STB_LEVELS, for as long as its time allows.
 * A bot is used by one thread at a time.
 */
#ifndef CITADEL_STRATEGO_BOT_H
#define CITADEL_STRATEGO_BOT_H

#include <stdatomic.h>
#include <stdint.h>

#include "../game.h"
#include "expect.h"

#define STB_LEVELS 6

typedef struct stbot stbot;

/* What the levels do beyond the first version of the bot (STB_F_LEVELS
 * by default; `stratego-v1` is the strongest level with none, kept to
 * measure against):
 *   STB_F_RESERVE  the last movable pieces are worth more (a side that
 *                  cannot move loses)
 *   STB_F_BOLD     a moved piece standing next to one of ours it knows the
 *                  rank of is believed to be stronger (next to our Marshal,
 *                  the Spy)
 *   STB_F_LOTTERY  a Flag found by attacking a still piece counts as a win
 *                  only if most samples put it there
 *   STB_F_SAMPLES  sampling goes on for as long as the time allows (the
 *                  first version stopped at 400 samples) */
#define STB_F_RESERVE 1u
#define STB_F_BOLD 2u
#define STB_F_LOTTERY 4u
#define STB_F_SAMPLES 8u
#define STB_F_EXPECT 16u   /* the search is expectimax on the view (expect.h),
                            * the samples only making the belief */
/* Level 6 as it was when it was first measured against an outside AI
 * (docs/stratego-peer.md): `stratego-v6`.
 * Every later change to the strongest level is a feature bit above these,
 * and the code these five select stays as it was, so that `stratego-v6`
 * plays as that level 6 did. */
#define STB_F_V6 31u
/*   STB_F_MARSHAL_SAFE  our shown Marshal ends no move next to an unknown
 *                       piece that may be the Spy (expect.h)
 *   STB_F_FEW_PROBES    only Miners attack unknown pieces that never
 *                       moved, unless likely the Flag (expect.h)
 *   STB_F_GUARD         a piece of ours that beats a Miner stays near our
 *                       Flag while enemy Miners live (expect.h) */
#define STB_F_MARSHAL_SAFE 32u
#define STB_F_FEW_PROBES 64u
#define STB_F_GUARD 128u
/*   STB_F_MEMORY        the belief remembers, for each enemy piece of
 *                       unknown rank, the strongest of our shown pieces it
 *                       has ended a move next to (it does not fear it) and
 *                       the weakest it stepped away from (it does) */
#define STB_F_MEMORY 256u
/*   STB_F_STILL         our pieces that never moved are worth more: each
 *                       may be a Bomb or the Flag to the enemy (expect.h) */
#define STB_F_STILL 512u
/*   STB_F_SPY           our Spy is worth more while the enemy Marshal may
 *                       live (expect.h) */
#define STB_F_SPY 1024u
/*   STB_F_HIDE_MORE     our Majors and above not yet shown are worth more
 *                       again (expect.h) */
#define STB_F_HIDE_MORE 2048u
/*   STB_F_PROTECT       an enemy piece next to one of its own that a shown
 *                       piece of ours could take is believed likelier
 *                       stronger than ours: it guards the bait */
#define STB_F_PROTECT 4096u
/*   STB_F_DIG           from ply STX_DIG_PLY our Scouts to Lieutenants
 *                       and Miners go for the likeliest enemy Flag, and
 *                       Scouts and Sergeants may probe still pieces
 *                       (expect.h); the belief puts the Flag likelier on
 *                       a piece walled in by still ones, and on the edge
 *                       files */
#define STB_F_DIG 8192u
/*   STB_F_DOMINANT      each enemy mover whose rank we see and that none of
 *                       ours can take (no higher rank, nor our Spy for its
 *                       Marshal) costs half its worth: it eats what it
 *                       meets (expect.h) */
#define STB_F_DOMINANT 16384u
/*   STB_F_APPROACH      our shown Miners to Majors do not attack an unknown
 *                       enemy piece that has just come next to them: it
 *                       came knowing their rank (expect.h) */
#define STB_F_APPROACH 32768u
/*   STB_F_OWN_WORTH     an unknown enemy piece decides whether to attack
 *                       with itself at its own kind's worth: a Major takes
 *                       our shown Captain though the belief expects more
 *                       of it (expect.h) */
#define STB_F_OWN_WORTH 65536u
/*   STB_F_LEARNED       the belief of each enemy piece that moved is the
 *                       learned one (belief_net.h), read off what the
 *                       piece has done (dossier.h), instead of the hand
 *                       weights of STB_F_BOLD, STB_F_MEMORY, STB_F_PROTECT
 *                       and the Miner that keeps coming */
#define STB_F_LEARNED 131072u
#define STB_F_ALL (STB_F_V6 | STB_F_MARSHAL_SAFE | STB_F_FEW_PROBES | STB_F_GUARD | STB_F_MEMORY | STB_F_STILL | STB_F_SPY | STB_F_HIDE_MORE | STB_F_PROTECT | STB_F_DIG | STB_F_DOMINANT | STB_F_APPROACH | STB_F_OWN_WORTH | STB_F_LEARNED)
/* The levels' features: all but STB_F_GUARD, which measured no gain,
 * STB_F_PROTECT, which added to the others measured worse, and
 * STB_F_APPROACH and STB_F_OWN_WORTH, not yet shown to gain
 * (docs/stratego-peer.md). */
#define STB_F_LEVELS (STB_F_ALL & ~(STB_F_GUARD | STB_F_PROTECT | STB_F_APPROACH | STB_F_OWN_WORTH | STB_F_LEARNED))

/* NULL if memory is short. */
stbot *stbot_new(int level, uint64_t seed);
void stbot_set_features(stbot *b, unsigned features);
void stbot_free(stbot *b);
/* Forgets what it learnt in the last game. */
void stbot_new_game(stbot *b);
/* Chooses a move for the side to move of `view` (a Stratego view of that
 * side: no rank of the other side's unrevealed pieces). GAME_MOVE_NONE if
 * there is none. */
game_move stbot_move(stbot *b, const void *view, const game_limits *lim, atomic_int *stop);

/* Draws one full position consistent with `view` and what the bot has
 * learnt (its belief; for tests). Returns 0, or -1 if none is. */
int stbot_sample(stbot *b, const void *view, void *out);

/* The belief the strongest level searches with on `view` (expect.h), and,
 * if counts is not NULL, the belief from the counts alone (each unknown
 * piece any kind the pool still holds, by its count, no Bomb or Flag if
 * it moved, a Scout if it ran): for reports of how good the belief is.
 * Learns from the view as stbot_move does. 0, or -1 if the view admits no
 * consistent position. */
int stbot_belief(stbot *b, const void *view, st_belief *out, st_belief *counts);
/* Tells the bot the move its side played on `view` when another player
 * chose it (stbot_move notes its own): what it learns from combat. */
void stbot_played(stbot *b, const void *view, game_move m);

/* How many positions the last stbot_move sampled (for tests and reports). */
int stbot_last_samples(const stbot *b);
/* The search of the last stbot_move (its depth, its score for the side to
 * move, its nodes); 0, or -1 if that move was not chosen by the
 * expectimax of levels 5 and 6 (a lower level, or a single legal move). */
int stbot_last_report(const stbot *b, stx_report *out);
/* How many of the best moves the next searches of levels 5 and 6 score
 * exactly (1, the default, to STX_LINES_MAX), for the analysis board's
 * several lines (stbot_last_report's lines); the move chosen is the same. */
void stbot_set_lines(stbot *b, int n);

#endif
