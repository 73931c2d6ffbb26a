/* rampart.h -- the Rampart rules engine (../shared/rules/rampart.md).
 *
 * Boards up to 64 squares are bitboards: square = row * width + file, with
 * row 0 Bottom's back row and file 0 the a-file. A position keeps one
 * bitboard per side and piece type, the occupancy of each side, and an
 * incrementally updated Zobrist key. Geometry tables (neighbours, rays) are
 * built once per board size and never change afterwards.
 *
 * Moves carry their piece type and a capture flag, so make() needs no
 * mailbox. make() plays the move, removes a captured piece (R4), then every
 * enclosed enemy piece at once (R5), and only after a capture re-evaluates
 * the material ends of R7 (cached in `status`).
 */
#ifndef CITADEL_RAMPART_H
#define CITADEL_RAMPART_H

#include <stddef.h>
#include <stdint.h>

#include "../game.h"

enum { RP_QUEEN, RP_KNIGHT, RP_KING, RP_BLOCKER, RP_NTYPES };
enum { RP_BOTTOM, RP_TOP };

#define RP_MIN_W 3
#define RP_MAX_W 8
#define RP_MIN_H 3
#define RP_MAX_H 9
/* At most 24 moves leave a square and at most 24 reach one; with O squares
 * of the mover and T other squares (O + T <= 64) that bounds the count by
 * 24 * min(O, T) <= 768. */
#define RP_MAX_MOVES 768

/* Board geometry: immutable after construction. */
typedef struct rp_geom {
    int w, h, nsq;
    uint64_t board;            /* every square */
    uint64_t not_first;        /* every square but the a-file */
    uint64_t not_last;         /* every square but the last file */
    uint64_t interior;         /* squares with four neighbours */
    uint64_t knight[64];       /* 1 or 2 squares orthogonally */
    uint64_t king[64];         /* the 8 neighbours */
    uint64_t step[64];         /* the 4 orthogonal neighbours */
    uint64_t ray[64][8];       /* up to 3 squares in direction d */
    uint64_t zob[2][RP_NTYPES][64];  /* Zobrist keys [side][type][square] */
    uint64_t zside;            /* Zobrist key of Top to move */
} rp_geom;

/* Directions: 0..3 run towards higher squares (first blocker = lowest bit). */
enum { RP_N, RP_NE, RP_E, RP_NW, RP_S, RP_SW, RP_W, RP_SE };

typedef struct rp_pos {
    uint64_t pc[2][RP_NTYPES];  /* [side][type] */
    uint64_t occ[2];
    uint64_t key;
    const rp_geom *g;
    int32_t fullmove;           /* from 1; grows after each Top move */
    int32_t move_limit;         /* full moves; 0 = none (R7.3) */
    uint8_t stm;                /* RP_BOTTOM or RP_TOP */
    uint8_t status;             /* cached R7.1/R7.2 end, see rules.c */
} rp_pos;

/* A move: from (6 bits), to (6 bits), piece type (2 bits), capture (1 bit). */
#define RP_MOVE(from, to, type, cap)                                               \
    ((game_move)(((unsigned)(from)) | ((unsigned)(to) << 6) | ((unsigned)(type) << 12) | \
                 ((unsigned)(cap) << 14)))
#define RP_FROM(m) ((int)((m) & 63))
#define RP_TO(m) ((int)(((m) >> 6) & 63))
#define RP_TYPE(m) ((int)(((m) >> 12) & 3))
#define RP_CAP(m) ((int)(((m) >> 14) & 1))

/* End codes kept in rp_pos.status and returned by rp_end(). */
enum { RP_ONGOING = 0 };
enum { RP_WIN_BOTTOM = 1, RP_WIN_TOP = 2, RP_DRAW = 3 };
enum { RP_R_NONE, RP_R_NO_CAPTURES, RP_R_INSUFFICIENT, RP_R_MOVE_LIMIT, RP_R_NO_MOVES };
#define RP_END(outcome, reason) ((uint8_t)(((reason) << 2) | (outcome)))
#define RP_END_OUTCOME(e) ((e) & 3)
#define RP_END_REASON(e) ((e) >> 2)

/* The piece type each type takes directly (R4); -1 for the Blocker. */
extern const int rp_prey[RP_NTYPES];

/* geom.c */
/* The geometry of a w x h board (RP_MIN_W..RP_MAX_W, RP_MIN_H..RP_MAX_H,
 * w*h <= 64), or NULL for any other size. Thread-safe. */
const rp_geom *rp_geom_get(int w, int h);

/* position.c */
/* Reads an R9 position string into *pos. On error fills err (if not NULL)
 * and leaves *pos unchanged. want_w/want_h: the board size required, or 0
 * for any supported size. */
int rp_parse(rp_pos *pos, const char *text, int want_w, int want_h, game_error *err);
size_t rp_format(const rp_pos *pos, char *buf, size_t size);
size_t rp_render(const rp_pos *pos, char *buf, size_t size);
/* Reads a square name such as "c4"; returns the square or -1. */
int rp_parse_square(const rp_geom *g, const char *s);
/* Writes a square name (at most 3 bytes with the NUL). */
void rp_square_name(const rp_geom *g, int sq, char out[3]);
/* game_ops.squares: every square, rows from the top, west to east. */
int rp_squares(const rp_pos *pos, game_piece_at *out, int max);
/* game_ops.kinds: Queen, Knight, King, Blocker (R2). */
int rp_kinds(game_piece_kind *out, int max);
uint64_t rp_compute_key(const rp_pos *pos);
/* Checks every invariant of a position; returns 1 if all hold. */
int rp_pos_ok(const rp_pos *pos);

/* movegen.c */
/* Writes the pseudo-legal moves (all legal in Rampart) ignoring game end;
 * returns the count. out must hold RP_MAX_MOVES. */
int rp_gen(const rp_pos *pos, game_move *out);
/* How many moves rp_gen would write, computed without writing them. */
int rp_count(const rp_pos *pos);
/* Legal moves: rp_gen, or 0 once the game is over. */
int rp_legal(const rp_pos *pos, game_move *out);
/* Squares the piece on sq (of side, type) may move to. */
uint64_t rp_targets(const rp_pos *pos, int side, int type, int sq);

/* Squares a Queen on sq reaches (1-3 squares, up to and including the
 * first occupied square in each direction). */
uint64_t rp_queen_reach(const rp_geom *g, int sq, uint64_t occ);
uint64_t rp_queen_attacks(const rp_geom *g, uint64_t queens, uint64_t occ);
/* Writes the moves that capture or enclose (for quiescence search). */
int rp_gen_noisy(const rp_pos *pos, game_move *out);
/* Interior squares with three of their four neighbours in `mine` and the
 * fourth in `empty`: where a piece is one move from being enclosed. */
uint64_t rp_three_sided(const rp_geom *g, uint64_t mine, uint64_t empty);
/* The enemy pieces that move m would enclose (R5). */
uint64_t rp_encloses(const rp_pos *pos, game_move m);

/* effects.c: game_ops.effects and game_ops.threats */
void rp_effects(const rp_pos *pos, game_move m, game_effects *out);
int rp_threats(const rp_pos *pos, char (*out)[GAME_SQUARE_NAME], int max);

/* move.c */
void rp_make(rp_pos *pos, game_move m);
/* Parses a move in R9 notation and checks it is legal now. */
int rp_parse_move(const rp_pos *pos, const char *text, game_move *m, game_error *err);
size_t rp_format_move(const rp_pos *pos, game_move m, char *buf, size_t size);
/* Bulk-counted perft: leaves of the legal move tree depth plies deep. */
uint64_t rp_perft(const rp_pos *pos, int depth);

/* rules.c */
int rp_material(const rp_pos *pos, int side);
/* The material end of R7.1/R7.2 (0 if none); make() caches it in status. */
uint8_t rp_material_status(const rp_pos *pos);
/* The full R7 result code: status, then the move limit, then no moves. */
uint8_t rp_end(const rp_pos *pos);
/* 1 if the game is over (cheap: R7.1-3 from cached state, then a count). */
int rp_over(const rp_pos *pos);
game_result rp_result(const rp_pos *pos);
/* R8: the result when side's clock runs out, the game having begun at start. */
game_result rp_timeout(const rp_pos *start, const rp_pos *pos, int side);
/* R8: 1 if neither side lost game material between start and pos. */
int rp_sterile(const rp_pos *start, const rp_pos *pos);
const char *rp_reason_name(int reason);

/* rating.c: R8 Elo. */
/* K factor for a player with `games` rated games in the variant so far. */
int rp_elo_k(int games);
/* New rating of a player rated `r` with `games` rated games, after scoring
 * `score` (1 win, 0.5 draw, 0 loss) against `opp`. A sterile draw changes
 * nothing. Ratings are kept as doubles; the caller rounds for display. */
double rp_elo_update(double r, int games, double opp, double score, int sterile);

/* eval.c: the bots' static evaluation, from the side to move's view. */
typedef struct rp_weights {
    int material;               /* one point of game material (R6) */
    int tactical[RP_NTYPES];    /* extra by type: Q N K B */
    int queen_wide;             /* extra per Queen on boards 7+ files wide */
    int last_of_type;           /* the last piece of a type that has prey */
    int no_capture;             /* a side that can take nothing at all */
    int hanging[RP_NTYPES];     /* attacked by its predator, not covered */
    int pressure[RP_NTYPES];    /* attacked by its predator, covered or not */
    int cage;                   /* enemy piece with three sides ours */
    int cage_to_move;           /* the same when we are to move */
    int mobility;               /* per legal move */
    int advance;                /* per row advanced, up to the middle */
    int centre;                 /* per file towards the centre */
} rp_weights;
extern const rp_weights rp_default_weights;
int rp_evaluate(const rp_pos *pos);
/* Squares that pieces of type t on the squares of b attack (R3, R4), on a
 * board holding occ, whatever stands on them. */
uint64_t rp_attacks(const rp_geom *g, int type, uint64_t b, uint64_t occ);
/* Pieces of the side not to move walled in on all four sides by the side
 * to move (they stepped in): they fall with its next move (R5). */
uint64_t rp_doomed(const rp_pos *pos);
/* A mutual blockade: no Queen, Knight or King of either side attacked by
 * the type that takes it, and no piece walled in (game_ops.blockade). */
int rp_blockade(const rp_pos *pos);
int rp_evaluate_with(const rp_pos *pos, const rp_weights *w);

/* bots.c: the game's own bots (game_ops.bots): ab_material.h's reference
 * opponent. The levels are src/ai's generic searcher. */
extern const game_bot_ops rp_bots;

/* tool_*.c: the game's command-line tools (game.h's game_tools; native
 * builds only): `citadel tune` fits eval.c's weights (tool_tune.c),
 * `citadel train gen|fit` the learnt evaluation (tool_train.h). */
extern const game_tool rp_tool_tune, rp_tool_train;

/* variants.c */
typedef struct rp_variant_data {
    int w, h;
    const char *start;      /* NULL for the shuffled start */
} rp_variant_data;
extern const game_variant rp_variant_classic, rp_variant_xl, rp_variant_six,
    rp_variant_narrow, rp_variant_mini, rp_variant_shuffle;
/* The start position string of the shuffled form numbered index % 1680. */
void rp_shuffle_start(uint64_t index, char *buf, size_t size);
#define RP_SHUFFLE_STARTS 1680

#endif
