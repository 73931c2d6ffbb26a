/* match_seats.h -- matches in games of more than two sides: bot A in one
 * seat, copies of bot B in all the others (`citadel match A B --variant
 * keeps-moats`; two-sided matches are match.h's).
 *
 * Game g seats A at side g mod nsides and a copy of B at every other side.
 * Each game starts from the variant's start with the config's settings
 * and a few random plies; every bot is made afresh for it (bots.h) with a
 * seed drawn from the match's, so one seed replays the whole match. Games
 * are played one after another on the calling thread; bots see only each
 * side's view and think within the config's limits. A game counts for A as a win
 * when A's team wins, a draw when nobody does (the move limit, say), a loss
 * otherwise. A bot that gives no legal move resigns where the game lets a
 * side leave (game_ops.resign); elsewhere it stops the match. Each game's
 * record, opening plies included (OpeningPlies), goes to `records` when it
 * is over, in the one format of src/games/pgn.h.
 */
#ifndef CITADEL_MATCH_SEATS_H
#define CITADEL_MATCH_SEATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../games/game.h"

#define SEATS_MAX_SETTINGS 8

typedef struct seats_tally {
    int games;                 /* planned */
    int wins, losses, draws;   /* of A, in the games played so far */
    long long plies;           /* the bots' moves, opening plies not counted */
} seats_tally;

/* Called after each game. */
typedef void (*seats_progress_fn)(void *ctx, const seats_tally *t);

typedef struct seats_setting {
    const char *name;          /* one of the variant's options */
    int value;
} seats_setting;

typedef struct seats_config {
    const game_variant *variant;
    const char *spec[2];       /* A, and B for every other seat (bots.h) */
    int games;                 /* 1 or more */
    int opening_plies;         /* random plies at the start of each game */
    uint64_t seed;
    seats_setting settings[SEATS_MAX_SETTINGS];  /* set on every start */
    int nsettings;
    game_limits lim;           /* every move's (a clock's fields unused: -1);
                                * bots with limits of their own keep theirs */
    seats_progress_fn progress;  /* may be NULL */
    void *progress_ctx;
    FILE *records;             /* each game's PGN record appended (docs/pgn.md); NULL: none */
} seats_config;

/* Checks before any game that both bots can be made and play the variant
 * and that the variant takes the settings: 0, or -1 with why in err. */
int seats_check(const seats_config *cfg, char *err, size_t errlen);

/* Plays the match: 0 with the tally in *out, or -1 with why in err (what
 * seats_check finds, a bot that cannot start a game, a move nobody can
 * resign for); *out then holds the games played before. */
int seats_run(const seats_config *cfg, seats_tally *out, char *err, size_t errlen);

#endif
