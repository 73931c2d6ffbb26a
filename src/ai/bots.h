/* bots.h -- every kind of player a program can be, behind one interface.
 *
 * A bot is made from a spec string:
 *   "level=N"       the alpha-beta searcher at level N (1 beginner .. 6); in
 *                   Stratego, the determinized sampling player of that
 *                   level (stratego_bot.h)
 *   "greedy"        one ply: takes the most game material now (captures and
 *                   enclosures), otherwise a random move
 *   "random"        a uniformly random legal move
 *   "attacker"      a random noisy move (an attack, a capture) when there is
 *                   one, otherwise a random move
 *   "cautious"      Stratego only: a rule-based reference opponent that never
 *                   attacks unknown pieces with its top three ranks, takes
 *                   known weaker ones, runs from known stronger ones and
 *                   probes with Scouts and low ranks (stratego_cautious.h)
 *   "mcts"          plain UCT Monte Carlo tree search with random playouts
 *   "aggressive=N", "balanced=N", "defensive=N", "capture"
 *                   Keeps & Moats's own bots (km_bots.h), for that game only
 *   "uci:<command>" an external engine speaking our UCI dialect, started
 *                   with /bin/sh -c <command>
 * Any spec but "uci:" may end with limits of the bot's own that replace the
 * caller's for every move: "/movetime=MS", "/depth=N", "/nodes=N", e.g.
 * "level=6/movetime=50" (so one match can pit two thinking times).
 * A bot is used by one thread at a time; different bots may play at once.
 * Bots see only what they are given: the caller passes a player's view.
 */
#ifndef CITADEL_BOTS_H
#define CITADEL_BOTS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../games/game.h"
#include "search.h"

typedef struct bot bot;

/* Makes a bot from a spec; seed makes its random choices repeatable. On
 * error returns NULL and writes why into err. */
bot *bot_new(const char *spec, uint64_t seed, char *err, size_t errlen);
void bot_free(bot *b);

/* The spec it was made from, for reports ("level=6", "greedy"). */
const char *bot_name(const bot *b);

/* 1 if a bot made from spec can play variant v (without making one). */
int bot_spec_can_play(const char *spec, const game_variant *v);

/* A new game of variant v begins; move_limit is the game's limit in full
 * moves (0 = none). Returns 0, or -1 if the bot cannot play it (an
 * external engine that died, say). */
int bot_new_game(bot *b, const game_variant *v, int move_limit);

/* Chooses a legal move in pos within lim; *stop (may be NULL) ends the
 * thinking early. GAME_MOVE_NONE if it has no move or failed. */
game_move bot_move(bot *b, const game_variant *v, const void *pos, const search_limits *lim,
                   atomic_int *stop);

#endif
