/* uci.h -- the UCI dialect (like Fairy-Stockfish's) spoken by `citadel uci`.
 *
 * A session holds the chosen variant, the position in force and the option
 * values. uci_command() carries out one line and writes the replies to out.
 * A command that cannot be carried out writes "info string error: <why>"
 * and changes nothing. The session's options (`uci`, setoption) are in
 * uci_options.c, the rest in uci.c.
 */
#ifndef CITADEL_UCI_H
#define CITADEL_UCI_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "../ai/bots.h"
#include "../ai/search.h"
#include "../games/game.h"

#define UCI_MAX_OPTIONS 8

#define UCI_MAX_MULTIPV 5

typedef struct uci_session {
    const game_variant *variant;
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    int nopts;
    struct {
        const char *name;
        int value;
        int set;              /* given by setoption; others keep each variant's default */
    } opts[UCI_MAX_OPTIONS];
    int start_index;          /* StartIndex: which start of a variant with several */
    int max_perft_depth;      /* refuse deeper `go perft` (for fuzzing); 0 = no cap */
    int level;                /* Level 1..SEARCH_LEVELS */
    int hash_mb;              /* Hash */
    int multipv;              /* MultiPV: best lines a search reports (two-sided games) */
    int line;                 /* the line being searched (1 .. multipv), for its info */
    int threads;              /* Threads: the two-sided search's threads (lazy SMP) */
    int move_overhead;        /* Move Overhead: ms taken off every time budget */
    int ponder;               /* Ponder: bestmove names the move to ponder on */
    int limit_strength;       /* UCI_LimitStrength: play at the level UCI_Elo names */
    int elo;                  /* UCI_Elo */
    int analyse_mode;         /* UCI_AnalyseMode: accepted, changes nothing */

    /* The search running in the background, if any. */
    searcher *searcher;
    /* Games with hidden pieces or more than two sides: the level's own
     * player (bots.h), given only the view of the side to move (in a game
     * of more sides without hidden pieces, the position itself) */
    bot *hidden_bot;
    int hidden_level;         /* the level it was made for */
    const game_variant *hidden_variant;  /* and the variant it began a game of */
    char hidden_style[24];    /* and the style */
    char style[24];           /* Style: a game of more sides' style bot ("" its middle one) */
    uint64_t setups;          /* `go setup` answered without a seed, for the next one's */
    pthread_t thread;
    int searching;
    int pondering;            /* the search running is `go ponder`'s */
    search_limits ponder_lim; /* and the limits it keeps for ponderhit */
    atomic_int ponderhit;     /* ponderhit stopped it: no bestmove from it */
    atomic_int stop;
    FILE *out;
    struct uci_job {
        const game_variant *variant;
        _Alignas(16) unsigned char pos[GAME_POS_MAX];
        search_limits lim;
        int nsearchmoves;     /* go searchmoves: the root moves to choose among, 0 = all */
        game_move searchmoves[GAME_MAX_MOVES];
    } job;
} uci_session;

void uci_init(uci_session *s);

/* Stops any search and frees what the session holds. */
void uci_finish(uci_session *s);

/* Carries out one command line. Returns 1 after `quit`, else 0. */
int uci_command(uci_session *s, const char *line, FILE *out);

/* Writes one "<move>: <count>" line per legal move of pos, a blank line and
 * "Nodes searched: N" (the `go perft` reply). pos is restored. */
void uci_divide(const game_variant *v, void *pos, int depth, FILE *out);

/* Reads commands from in until `quit` or end of input. */
void uci_loop(FILE *in, FILE *out);

/* Between uci.c and uci_options.c. */

/* Defaults of the options that are the session's own (not the games'). */
void uci_options_init(uci_session *s);
/* `uci`: the ids, every option with its default (those of the variant in
 * force for a game's settings), uciok. */
void uci_cmd_uci(uci_session *s, FILE *out);
/* setoption name <name...> [value <value...>] */
void uci_cmd_setoption(uci_session *s, char **tok, int ntok, FILE *out);
/* The level the search plays at: Level (or Skill Level), or the one
 * UCI_Elo names when UCI_LimitStrength is on. */
int uci_level(const uci_session *s);
/* The level nearest an Elo of UCI_Elo's scale (docs/uci.md). */
int uci_elo_level(int elo);
/* A fresh position of the session's variant with the options set. */
void uci_start_position(uci_session *s, void *pos);
/* Applies the options set to pos (from_text: keep those its string
 * carries). 0, or -1 with err filled. */
int uci_apply_options(const uci_session *s, void *pos, int from_text, game_error *err);
/* "info string error: <msg>" */
void uci_error(FILE *out, const char *msg);

#endif
