/* stratego.h -- the Stratego rules engine (../shared/rules/stratego.md).
 *
 * The board is a 12x12 mailbox: the 10x10 playing area framed by one ring of
 * wall cells, with the eight lake squares (S1) walls too, so a step or a
 * Scout's ray stops at the first cell that is not empty without any bounds
 * test. Square (row r, file f), both from 0, lives at cell (r+1)*12 + f+1;
 * row 0 is Red's back row (row 1 in notation), file 0 the a-file.
 *
 * A cell is one byte: 0 empty, ST_WALL, or a piece:
 *   bits 0-3  kind: ST_SPY (1) .. ST_MARSHAL (10) are the ranks, then
 *             ST_BOMB, ST_FLAG, and ST_UNKNOWN (only in a view: an enemy
 *             piece whose rank the viewer does not know)
 *   bit 4     side (ST_RED 0, ST_BLUE 1)
 *   bit 5     ST_REVEALED: its rank was shown in combat (S5); it stays
 *             shown while the piece lives
 *   bit 6     ST_MOVED: the piece has moved (so it is no Bomb or Flag)
 *   bit 7     ST_SCOUTED: it once moved more than one square, which only a
 *             Scout can do; both players saw it
 * The moved and scouted bits are public knowledge (both players watch the
 * board); the revealed bit is the combat knowledge of S5 and S8.
 *
 * A position is the board, the side to move, the plies played, the move
 * limit (a setting), and per side the state of the two-square rule (S6):
 * that side's last move (from, to) and how many of its consecutive turns
 * moved one piece back and forth between those two squares. A view (S8) is
 * a position of the same layout in which the other side's unrevealed pieces
 * are ST_UNKNOWN; nothing else marks it as a view.
 *
 * And per side the pieces of each kind that combat removed (`lost`): S5
 * shows both ranks of a combat to both players, so these are public and a
 * view keeps them. make() counts them; a position read from text derives
 * them (an army less what stands on the board) for each side whose every
 * piece it shows, and marks them unknown (`lost_known`) for the hidden
 * side of a view read from text, whose unknown pieces could be anything.
 */
#ifndef CITADEL_STRATEGO_H
#define CITADEL_STRATEGO_H

#include <stddef.h>
#include <stdint.h>

#include "../game.h"

enum {
    ST_EMPTY = 0,
    ST_SPY = 1, ST_SCOUT, ST_MINER, ST_SERGEANT, ST_LIEUTENANT, ST_CAPTAIN, ST_MAJOR,
    ST_COLONEL, ST_GENERAL, ST_MARSHAL = 10,
    ST_BOMB = 11, ST_FLAG = 12, ST_UNKNOWN = 13,
    ST_NKINDS = 14
};
enum { ST_RED = 0, ST_BLUE = 1 };

#define ST_WALL 0xFFu
#define ST_SIDE_BIT 0x10u
#define ST_REVEALED 0x20u
#define ST_MOVED 0x40u
#define ST_SCOUTED 0x80u
#define ST_KIND(c) ((int)((c) & 15u))
#define ST_SIDE(c) ((int)(((c) >> 4) & 1u))
#define ST_IS_PIECE(c) ((c) != ST_EMPTY && (c) != ST_WALL)
#define ST_PIECE(side, kind) ((uint8_t)((unsigned)(kind) | ((unsigned)(side) << 4)))

#define ST_CELLS 144
#define ST_CELL(r, f) (((r) + 1) * 12 + (f) + 1)
#define ST_ROW(c) ((c) / 12 - 1)
#define ST_FILE(c) ((c) % 12 - 1)
#define ST_ARMY 40
#define ST_SETUP_ROWS 4
#define ST_DEFAULT_MOVE_LIMIT 1000
#define ST_MAX_MOVE_LIMIT 100000
/* 8 Scouts reach at most 18 squares each, 32 other pieces at most 4. */
#define ST_MAX_MOVES 272

/* How many of each kind an army has (S2), indexed by kind. */
extern const int st_army[ST_NKINDS];

typedef struct st_pos {
    uint8_t sq[ST_CELLS];
    int32_t ply;          /* plies played */
    int32_t move_limit;   /* plies after which the game is drawn; 0 = none */
    uint8_t stm;          /* ST_RED or ST_BLUE */
    uint8_t two_from[2];  /* per side: its last move's cells (0 = none) */
    uint8_t two_to[2];
    uint8_t two_count[2]; /* consecutive own turns between those two cells */
    uint8_t lost_known;   /* bit s: lost[s] is known (see below) */
    uint8_t lost[2][ST_NKINDS]; /* per side, its pieces of each kind removed */
} st_pos;

/* 1 if pieces of kind move (the ranks; not a Bomb or the Flag). */
static inline int st_movable(int kind)
{
    return kind >= ST_SPY && kind <= ST_MARSHAL;
}

/* Steps between two cells as a piece walks, lakes aside (|rows| + |files|). */
static inline int st_steps(int a, int b)
{
    int dr = ST_ROW(a) - ST_ROW(b), df = ST_FILE(a) - ST_FILE(b);
    return (dr < 0 ? -dr : dr) + (df < 0 ? -df : df);
}

/* 1 if a piece whose public marks are those of cell value v (moved,
 * scouted) can be of kind: a piece that moved is no Bomb or Flag, one that
 * ran is a Scout (what a view tells of an unknown piece). */
static inline int st_marks_allow(uint8_t v, int kind)
{
    if ((v & ST_MOVED) && !st_movable(kind))
        return 0;
    return !(v & ST_SCOUTED) || kind == ST_SCOUT;
}

/* A move: from cell, to cell, and whether the target held an enemy. */
#define ST_MOVE(from, to, attack)                                                   \
    ((game_move)((unsigned)(from) | ((unsigned)(to) << 8) | ((unsigned)(attack) << 16)))
#define ST_FROM(m) ((int)((m) & 255u))
#define ST_TO(m) ((int)(((m) >> 8) & 255u))
#define ST_ATTACK(m) ((int)(((m) >> 16) & 1u))

/* A setup (S3): the 40 kinds of one army, front row first; within a row
 * from the owner's left to right (Red: files a..j; Blue: files j..a). */
typedef struct st_setup {
    uint8_t kind[ST_ARMY];
} st_setup;

/* position.c */
/* Reads a position string (docs/stratego.md) into *pos, move limit at its
 * default. On error fills err (if not NULL) and leaves *pos unchanged. */
int st_parse(st_pos *pos, const char *text, game_error *err);
size_t st_format(const st_pos *pos, char *buf, size_t size);
size_t st_render(const st_pos *pos, char *buf, size_t size);
/* Reads a square name ("a1".."j10") at s, storing the chars it used in
 * *len; returns the cell, or -1 for no square or a lake. */
int st_parse_square(const char *s, int *len);
/* Writes a square name (at most 4 bytes with the NUL). */
void st_square_name(int cell, char out[4]);
/* game_ops.squares: every square, rows from the top, a piece with its
 * marks as the position string writes them, a lake "~". */
int st_squares(const st_pos *pos, game_piece_at *out, int max);
/* game_ops.kinds: S2's army, strongest first, then Bomb and Flag. */
int st_kinds(game_piece_kind *out, int max);
/* game_ops.areas: each side's forty setup squares (S3), in a setup
 * string's order (slot_cell). */
int st_areas(const st_pos *pos, game_area_at *out, int max);
/* The letter of a kind for side (F B S O N E L A J C G M, X for unknown;
 * lower case for Blue). */
char st_kind_char(int side, int kind);
/* 1 if the cell is a playing square (on the board and not a lake). */
int st_on_board(int cell);
/* 1 if row r (0-based) is one of side's four setup rows. */
int st_home_row(int side, int r);
uint64_t st_hash(const st_pos *pos);
/* Checks every invariant of a position (full or view); 1 if all hold. */
int st_pos_ok(const st_pos *pos);

/* movegen.c */
/* Writes the moves the side to move may play, ignoring game ends; returns
 * the count. out must hold ST_MAX_MOVES. */
int st_gen(const st_pos *pos, game_move *out);
/* The attacks among st_gen's moves (for quiescence search). */
int st_gen_attacks(const st_pos *pos, game_move *out);
/* 1 if the move (from, to) would break the two-square rule (S6). */
int st_two_square_banned(const st_pos *pos, int from, int to);

/* move.c */
enum { ST_ATTACKER_WINS, ST_DEFENDER_WINS, ST_BOTH_DIE };
/* The outcome of kind a attacking kind d (S5). */
int st_combat(int a, int d);
void st_make(st_pos *pos, game_move m);
/* Parses a move ("a4a5", also "a4-a5", "a4xa5") and checks it is legal. */
int st_parse_move(const st_pos *pos, const char *text, game_move *m, game_error *err);
size_t st_format_move(const st_pos *pos, game_move m, char *buf, size_t size);
/* Bulk-counted perft by copy-make. */
uint64_t st_perft(const st_pos *pos, int depth);

/* rules.c */
enum { ST_ONGOING = 0, ST_END_FLAG, ST_END_NO_MOVES, ST_END_MOVE_LIMIT };
/* The ends that need no move generation: a Flag taken, the move limit.
 * Returns ST_ONGOING or the end; *winner gets the winning side or -1. */
int st_board_end(const st_pos *pos, int *winner);
/* Legal moves: st_gen, or 0 once the game is over. */
int st_legal(const st_pos *pos, game_move *out);
game_result st_result(const st_pos *pos);
int st_over(const st_pos *pos);
/* S7: side's clock ran out in pos. The board's own decision, if any,
 * stands; otherwise side loses ("time"). */
game_result st_timeout(const st_pos *pos, int side);
/* S8: what side may see of pos. */
void st_view(const st_pos *pos, int side, st_pos *out);
/* Pieces of side on the board (any kind). */
int st_count(const st_pos *pos, int side);

/* setups.c */
/* Reads a setup string (four rows of ten letters joined by '/', front row
 * first, as the owner sees them) and checks the counts of S2. */
int st_setup_parse(st_setup *s, const char *text, game_error *err);
size_t st_setup_format(const st_setup *s, char *buf, size_t size);
/* Checks that a setup has exactly the army of S2. */
int st_setup_check(const st_setup *s, game_error *err);
/* A uniformly random arrangement of the army, from seed. */
void st_setup_random(st_setup *s, uint64_t seed);
/* The library of hand-written setups. */
int st_library_size(void);
const char *st_library_name(int i);
const char *st_library_text(int i);
void st_library_setup(int i, st_setup *s);
/* A library setup varied by seed, as a bot sets up: the Flag and the
 * pieces beside it stay, and a dozen swaps exchange pieces of ranks at
 * most two apart, or a Bomb with a Scout, Miner or Sergeant within the two
 * back rows. Always a legal army (S2) with the library's Flag guard. */
void st_setup_varied(st_setup *s, uint64_t seed);
/* The setup of side in pos, read from its four rows (only meaningful
 * before any move: 0 on success, -1 if those rows do not hold a full army
 * of unmoved pieces). */
int st_setup_of(const st_pos *pos, int side, st_setup *s, game_error *err);
/* The start position: Red's and Blue's setups, Red to move, ply 0. */
void st_start_from(st_pos *pos, const st_setup *red, const st_setup *blue);
/* The variant's start number `seed`: below st_library_size()^2 a pair of
 * library setups (Red seed % N, Blue seed / N); from there on, two random
 * setups drawn from the seed. */
void st_start_seed(st_pos *pos, uint64_t seed);

/* bots.c: the game's own bots (game_ops.bots): the sampling levels of
 * bot.h and cautious.h's reference opponent. */
extern const game_bot_ops st_bots;

/* tool_belief.c: the game's command-line tool (game.h's game_tools;
 * native builds only): `citadel belief` scores bot.h's belief against
 * recorded games. */
extern const game_tool st_tool_belief;
/* tool_belief_fit.c: `citadel belief-fit` fits belief_net.h's weights. */
extern const game_tool st_tool_belief_fit;

/* variants.c */
extern const game_variant st_variant;

#endif
