/* match.h -- bot against bot: many games, both colours, a running score.
 *
 * A match plays `games` games (an even number) between bot A and bot B.
 * Games go in pairs: both games of a pair start from the same opening (a
 * few random plies from the variant's start, drawn from the seed, or the
 * next of the openings given), with A
 * as the first side in the first game and the second side in the other.
 * In a variant with setups (game.h's setup ops) each side's bot may choose
 * its own instead (own_setups): bot_setup is asked with a seed of the
 * match seed, the pair and the bot, so a game's own bots play the same
 * setup in both games of a pair; the start is built from the two setups
 * and the random plies are drawn for each game. A bot whose setup fails
 * (an engine that answers none in time, or a bad one) loses at once,
 * reason "illegal", as for an illegal move; the record then holds the
 * library's first setup in its place and says why in a SetupError tag.
 * `concurrency` threads play at once, each with its own two bots.
 *
 * A game ends when the game's `result` says it is over; when a side's clock
 * runs out (the runner keeps the clocks; the game's `timeout` rule decides,
 * reason "time"); or when a bot returns no move or an illegal one: that bot
 * loses, reason "illegal". Bots see only ops->view of the position.
 *
 * Results are counted from A's side. With an SPRT the match stops as soon
 * as the log-likelihood ratio crosses a bound; games still being played
 * then are abandoned and not counted.
 */
#ifndef CITADEL_MATCH_H
#define CITADEL_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "../games/game.h"
#include "search.h"
#include "stats.h"

#define MATCH_MAX_OPENING_PLIES 40

/* An opening given to the match (read from a PGN file, say): a start
 * position and the plies played from it, legal in turn, that do not end
 * the game. The match sets its own move limit on the start. */
typedef struct match_opening {
    _Alignas(16) unsigned char start[GAME_POS_MAX];
    game_move plies[MATCH_MAX_OPENING_PLIES];
    int nplies;
} match_opening;

typedef struct match_tally {
    int wins, losses, draws;   /* of bot A, in the games counted so far */
    int games;                 /* games planned */
    stats_sprt sprt;           /* after the last counted game, when an SPRT runs */
} match_tally;

/* Called after each counted game, from one thread at a time. */
typedef void (*match_progress_fn)(void *ctx, const match_tally *t);

typedef struct match_config {
    const game_variant *variant;   /* two-sided */
    const char *spec[2];           /* bot specs of A and B (see bots.h) */
    int games;                     /* rounded up to even by match_run */
    int concurrency;               /* threads, 1 or more */
    int depth;                     /* per move; 0 = none */
    uint64_t nodes;                /* per move; 0 = none */
    int64_t movetime;              /* ms per move; 0 = none */
    int64_t base_ms, inc_ms;       /* the clock; base_ms 0 = no clock */
    int move_limit;                /* full moves (the variant's MoveLimit); 0 = none */
    int opening_plies;             /* 0 .. MATCH_MAX_OPENING_PLIES random plies */
    const match_opening *openings; /* NULL: random openings; else pair p plays */
    int nopenings;                 /* openings[p % nopenings] */
    int own_setups;                /* 1 (the default): in a variant with setups and
                                    * without openings given, each bot chooses its
                                    * setup; 0: a start of the variant's drawn */
    uint64_t seed;
    int sprt;                      /* 1 to stop on an SPRT decision */
    double elo0, elo1, alpha, beta;
    const char *records;           /* file to append game records to, or NULL */
    match_progress_fn progress;    /* may be NULL */
    void *progress_ctx;
} match_config;

/* The defaults of `citadel match`: rampart, 100 games, one thread, move
 * limit 100, 4 opening plies, SPRT 0/10/0.05/0.05 (off). No bots, no
 * limits. */
void match_defaults(match_config *cfg);

/* Writes the limits of cfg as a record's Limits text ("10+0.1",
 * "movetime=20 nodes=50", "-"). Returns the length it needs, as snprintf. */
size_t match_limits_text(const match_config *cfg, char *buf, size_t size);

/* Plays the match. On success returns 0 with the final tally in *out.
 * Returns -1 and a reason in err if it could not be played to the end (a
 * bot could not be made or could not start a game, the records file could
 * not be written, memory ran short); *out then holds the games counted. */
int match_run(const match_config *cfg, match_tally *out, char *err, size_t errlen);

#endif
