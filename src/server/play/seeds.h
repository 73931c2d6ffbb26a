/* seeds.h -- where the server's own bots enter a rated ladder: the rating
 * a built-in bot account starts from in a rated variant (seeds.c).
 *
 * Rampart R8 starts every player at 1500 in each rated variant, and people
 * still start there. A built-in bot (server.c's accounts: bot-level1 ...
 * bot-level6, bot-greedy, bot-random, bot-attacker, bot-mcts) starts at
 * its seed instead: its strength as `citadel match` measured it against
 * the other bots, with level 1 at 1500 (docs/bots.md, "Where bots enter
 * the ladder"). Only the start differs; K and every later change are R8's.
 *
 * The invariant: a start other than 1500 goes only to an account the
 * server plays itself (ident.bot, not a Bot API account) under a name in
 * the table, and only in a variant the table has; every person, every
 * other bot and every other variant starts at ELO_START.
 */
#ifndef CITADEL_SERVER_SEEDS_H
#define CITADEL_SERVER_SEEDS_H

#include "../core/identity.h"

/* The rating `who` starts from in `variant` before its first rated game
 * there: a built-in bot's seed, else ELO_START (1500). */
double seed_rating(const ident *who, const char *variant);

#endif
