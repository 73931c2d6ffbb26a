/* bots.h -- every kind of player a program can be, behind one interface:
 * the one factory the server, the match runner and `citadel uci` ask.
 *
 * A bot is made from a spec string. The generic kinds work through game.h
 * alone:
 *   "level=N"       the alpha-beta searcher at level N (1 beginner .. 6),
 *                   for two sides with nothing hidden
 *   "greedy"        one ply: takes the most game material now (captures and
 *                   enclosures), otherwise a random move; two sides
 *   "random"        a uniformly random legal move
 *   "attacker"      a random noisy move (an attack, a capture) when there is
 *                   one, otherwise a random move
 *   "mcts"          plain UCT Monte Carlo tree search with random playouts;
 *                   two sides, nothing hidden
 *   "uci:<command>" an external engine speaking our UCI dialect, started
 *                   with /bin/sh -c <command>
 * Games offer bots of their own through game.h's factory (game_ops.bots),
 * living in the game's folder: bots the game plays itself (Stratego's
 * "level=N", its sampling player, and "cautious", "stratego-v1", "stratego-v6",
 * "stratego-f=N"; Keeps & Moats's "capture"; Rampart's "ab-material")
 * and style bots, src/ai's multi-player search built from a game's styles
 * and levels ("balanced=3", multi_bot.h). A variant's own spec wins over
 * a generic one: "level=3" is Stratego's player in Stratego, the searcher
 * elsewhere.
 * bot_specs lists them all.
 *
 * Any spec but "uci:" and the style bots (which read "/paranoid", "/maxn",
 * "/nodes=N", "/depth=N", multi_bot.h) may end with limits of the bot's
 * own that replace the caller's for every move: "/movetime=MS",
 * "/depth=N", "/nodes=N", e.g. "level=6/movetime=50" (so one match can
 * pit two thinking times).
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
 * error (a spec no kind and no game knows, a bad level or limit) returns
 * NULL and writes why into err, naming the specs there are. A game's own
 * bot is made when a game of its variant begins. */
bot *bot_new(const char *spec, uint64_t seed, char *err, size_t errlen);
void bot_free(bot *b);

/* The spec it was made from, for reports ("level=6", "greedy"). */
const char *bot_name(const bot *b);

/* 1 if a bot made from spec can play variant v (without making one):
 * exactly when bot_new_game would accept it (external engines aside,
 * which only the engine can answer for). */
int bot_spec_can_play(const char *spec, const game_variant *v);

/* Writes the specs of the bots that can play v, or of every bot when v is
 * NULL, as one list ("random, attacker, uci:<command>, capture,
 * aggressive=N"), patterns with N for a number; returns the length it
 * needs, as snprintf does. */
size_t bot_specs(const game_variant *v, char *buf, size_t size);

/* A new game of variant v begins; move_limit is the game's limit in full
 * moves (0 = none). Returns 0, or -1 if the bot cannot play it (an
 * external engine that died, say, or memory short for a game's own bot). */
int bot_new_game(bot *b, const game_variant *v, int move_limit);

/* Writes into buf the setup b plays in a game of v, a variant with
 * setups (game.h's setup ops), in the notation `check` reads. Every kind
 * but "uci:" answers the game's `varied` setup from seed (the library's
 * setup seed % its size where the game has none): the caller's seed, so
 * that one match seed gives the same setups whichever thread plays. An
 * external engine is asked `go setup` and must answer `bestsetup <setup>`
 * within the handshake timeout (T, as uci/isready), a setup `check`
 * accepts. Returns 0, or -1 with why in err: a variant without setups, an
 * engine that answered nothing in time, or one `check` refused. Call
 * after bot_new_game. */
int bot_setup(bot *b, const game_variant *v, uint64_t seed, char *buf, size_t size, char *err,
              size_t errlen);

/* Chooses a legal move in pos within lim; *stop (may be NULL) ends the
 * thinking early. GAME_MOVE_NONE if it has no move or failed. */
game_move bot_move(bot *b, const game_variant *v, const void *pos, const search_limits *lim,
                   atomic_int *stop);

#endif
