/* clock.h -- a live game's clocks on their own: Fischer clocks (a base time
 * and an increment a move) with a lag allowance, and no loop, store or
 * JSON. Times are the caller's (milliseconds of a monotonic clock), so
 * the server passes the loop's time and tests choose theirs.
 *
 * Invariants.  Only the side to move's clock runs, since `began`, the start
 * of its turn; every other clock stands at left[side]. A move is charged
 * the time since `began` less an allowance of up to lag_ms (network and
 * server delays are not the player's), then gains the increment; a side
 * whose charged clock would be 0 or below has lost on time instead, and
 * its clock shows 0. A game with base 0 has no clock: nothing runs,
 * nothing falls. left[] changes only by gclock_set; `began` only by
 * gclock_turn and gclock_release. While the clocks are held (a one-device
 * game's board covered between turns) nothing runs and nothing falls; the
 * side to move's turn begins again when they are released.
 */
#ifndef CITADEL_CLOCK_H
#define CITADEL_CLOCK_H

#include <stdint.h>

#include "../../games/game.h"

typedef struct gclock {
    int64_t base_ms, inc_ms, lag_ms;
    int64_t left[GAME_MAX_SIDES];  /* as of `began` for the side to move */
    int64_t began;                 /* when the side to move's turn began */
    int held;                      /* 1 while no clock runs (gclock_hold) */
    int64_t held_at;               /* when they were held */
} gclock;

/* Every side starts with base_ms; the first turn begins at now. */
void gclock_init(gclock *c, int64_t base_ms, int64_t inc_ms, int64_t lag_ms, int64_t now);
/* 1 if the game has a clock (base > 0). */
int gclock_timed(const gclock *c);
/* What side's clock shows at now: if `running` (it is to move) the time
 * used so far is taken off, the allowance first; never below 0. */
int64_t gclock_show(const gclock *c, int side, int running, int64_t now);
/* What side's clock would stand at after its move at now (the side is to
 * move): charged, plus the increment if `inc`. 0 or below: its flag fell
 * first (then without the increment, whatever `inc`). An untimed game
 * returns left[side] as it is. */
int64_t gclock_charge(const gclock *c, int side, int64_t now, int inc);
/* When the flag of side, to move, falls: -1 in an untimed game or while
 * the clocks are held. */
int64_t gclock_flag_at(const gclock *c, int side);
/* 1 if side, to move, has run out of time at now. */
int gclock_fallen(const gclock *c, int side, int64_t now);
/* side's clock stands at ms (a move charged, a stored clock restored). */
void gclock_set(gclock *c, int side, int64_t ms);
/* The next turn begins at now. */
void gclock_turn(gclock *c, int64_t now);
/* From now no clock runs, until gclock_release; then the side to move's
 * turn begins at that moment (the time held is nobody's). */
void gclock_hold(gclock *c, int64_t now);
void gclock_release(gclock *c, int64_t now);
/* How long a bot with side's clock may think on its turn: a thirtieth of
 * what is left plus three quarters of the increment, at least 50 ms;
 * untimed, a second; never more than max_ms (if max_ms > 0). */
int64_t gclock_think(const gclock *c, int side, int64_t max_ms);

#endif
