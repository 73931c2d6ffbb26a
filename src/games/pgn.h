/* pgn.h -- game records in PGN, written and read through game.h alone.
 *
 * One format for every record Citadel writes (the server's, the match
 * runner's) and reads (`citadel pgn check`, match openings): PGN's export
 * format, with each game's own notation for moves and positions. The
 * format, and its extension for games of more than two sides, is
 * docs/pgn.md. Neither half does I/O: the writer fills a caller's buffer,
 * the reader reads a caller's text.
 *
 * Writing.  A record is the Seven Tag Roster (Event, Site, Date, Round,
 * White, Black, Result: White the first side's player, Black the second's,
 * or the players of the sides named so), then the players again under
 * tags named after the game's sides (Bottom, Top), Variant, TimeControl,
 * SetUp/FEN where the start is not the variant's standard one, the
 * settings, Termination (PGN's words) and Reason (the engine's). Moves go
 * in the game's notation, numbered by rounds of every side, with the
 * clocks as {[%clk h:mm:ss]} and what a move showed every player (a
 * combat of hidden pieces) as a comment. In a game with hidden pieces the
 * start (FEN) and each side's setup are written only once it is over.
 *
 * Reading.  pgn_next reads one game of a text at a time (tags, movetext
 * with move numbers, comments, NAGs and variations, which are skipped,
 * and the result token); pgn_replay plays its moves through the engine
 * and checks that the result agrees with the final position where the
 * engine can tell. Errors are one line that names the text's line.
 * Input is bounded: PGN_TAGS_MAX tags of PGN_VALUE_MAX bytes, moves of
 * PGN_MOVE_MAX bytes, at most PGN_PLIES_MAX moves a game.
 */
#ifndef CITADEL_PGN_H
#define CITADEL_PGN_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

#define PGN_TAGS_MAX 64
#define PGN_NAME_MAX 32      /* bytes of a tag's name, NUL included */
#define PGN_VALUE_MAX 512    /* bytes of a tag's value, NUL included */
#define PGN_MOVE_MAX 32      /* bytes of a move's text, NUL included */
/* The largest PGN file the command line and the games' tools read. */
#define PGN_FILE_MAX ((size_t)256 << 20)
#define PGN_PLIES_MAX 200000

/* A tag pair beyond those the writer makes itself. */
typedef struct pgn_tag {
    const char *name, *value;
} pgn_tag;

/* A game to write. Everything but v, start and moves may be left zero. */
typedef struct pgn_game {
    const game_variant *v;
    const void *start;            /* the whole start position, settings in force */
    const char *const *moves;     /* nmoves moves in the game's notation */
    int nmoves;
    const int64_t *clock_ms;      /* per move, the mover's clock after it; or NULL */
    const char *event, *site, *date, *round;  /* date "YYYY.MM.DD"; NULL: unknown */
    const char *players[GAME_MAX_SIDES];      /* by side; NULL: unknown */
    int64_t base_ms, inc_ms;      /* the clock; base_ms 0: none */
    int over;                     /* 0: the game goes on */
    int no_result;                /* over, but with no result (an aborted game):
                                   * Result "*" */
    int hide_start;               /* 1: no start to show (one never made) */
    int winner;                   /* when over: the winning team, -1 a draw */
    const char *reason;           /* when over: why ("resign", "move-limit") */
    const pgn_tag *settings;      /* the variant's settings the position string
                                   * does not carry (MoveLimit), as tags */
    int nsettings;
    const pgn_tag *extra;         /* more tags, written last */
    int nextra;
} pgn_game;

/* Writes g's record (ending with a blank line) into buf of `size` bytes,
 * NUL-terminated when size > 0; returns the length it needs, as snprintf
 * does. A move that does not read in its position ends the replaying:
 * the moves after it are written as they are, without comments. */
size_t pgn_write(const pgn_game *g, char *buf, size_t size);

/* PGN's Termination word for an end: "unterminated" while the game goes
 * on, "time forfeit" for "time", "abandoned" for "abandoned" and
 * "aborted", "rules infraction" for "illegal", else "normal". */
const char *pgn_termination(int over, const char *reason);

/* The result token of an end in v (pos: any position of the game, for
 * its teams): "1-0" (the first side's team won), "0-1", "1/2-1/2"; "*"
 * while the game goes on, and always for games of more than two sides. */
const char *pgn_result_token(const game_variant *v, const void *pos, int over, int winner);

/* The Outcome of an end in a game of more than two sides: the names of
 * the winning team's sides in turn order joined by '+' ("white+blue"),
 * or "draw". Returns the length it needs, as snprintf. */
size_t pgn_outcome(const game_variant *v, const void *pos, int winner, char *buf, size_t size);

/* A record as read. */
typedef struct pgn_record {
    int line;                        /* where its first tag stands */
    int ntags;
    char names[PGN_TAGS_MAX][PGN_NAME_MAX];
    char *values[PGN_TAGS_MAX];      /* owned */
    int nmoves, capmoves;
    char (*moves)[PGN_MOVE_MAX];     /* owned; annotations (!, ?) cut off */
    int *lines;                      /* owned: the line of each move */
    char result[8];                  /* the result token */
    int result_line;
} pgn_record;

void pgn_record_init(pgn_record *r);
void pgn_record_free(pgn_record *r);

/* The value of tag `name` in r, or NULL. */
const char *pgn_tag_of(const pgn_record *r, const char *name);

/* Reads the next game of text[0..len) from *at, whose line is *line, into
 * r (emptied first), and moves *at and *line past it. Returns 1 for a
 * game, 0 at the end of the text (nothing but blanks left), -1 with err
 * ("line N: why") for a game that does not read: *at is then past the
 * broken game (at the next line that begins with '[' after a blank
 * line), so the caller may go on with the next. */
int pgn_next(const char *text, size_t len, size_t *at, int *line, pgn_record *r, char *err,
             size_t errlen);

/* A record replayed. */
typedef struct pgn_replayed {
    const game_variant *v;
    _Alignas(16) unsigned char start[GAME_POS_MAX];   /* settings applied */
    _Alignas(16) unsigned char pos[GAME_POS_MAX];     /* after every move */
    int nplies;
    game_result result;              /* the engine's, of pos */
} pgn_replayed;

/* Replays r: its variant (the Variant tag, which it must have), the
 * start (FEN where SetUp is "1"; a record of a variant with hidden pieces
 * that has no FEN, as while such a game goes on, is checked but not
 * replayed: 1 is returned), the settings from tags named after the
 * variant's options,
 * then every move; checks that the Seven Tag Roster is there, that the
 * Result tag equals the result token, and that the result agrees with the
 * final position when the engine says it is over (and, for games of more
 * than two sides, the Outcome tag). The first `max` moves go to moves
 * (may be NULL). Returns 0, 1 (not replayed, see above) or -1 with err. */
int pgn_replay(const pgn_record *r, pgn_replayed *out, game_move *moves, int max, char *err,
               size_t errlen);

#endif
