/* keeps_moats.h -- the Keeps & Moats Chess engine (../shared/rules/keeps-and-moats.md).
 *
 * The board (K1) is the diamond |file - i| + |row - 9| <= 8 of a 17x17 grid:
 * 145 squares, numbered 0..144 from the south (row 1) northwards and, within
 * a row, west to east. A position is a mailbox: one byte per square (0 for
 * empty, else owner << 3 | type), the prisoners each kingdom holds as counts
 * by owner and type, and the few settings of the game (K3, K6, K7). It is
 * about 300 bytes, copied whole for unmake.
 *
 * Ownership is the token: when a kingdom's pieces pass to its King's captor
 * (K6 Gained) their owner letter changes, and from then on they move, and
 * are written, as the captor's. Territory (own, ally, enemy) is fixed by the
 * game type for the whole game (K3).
 *
 * A move is a 32-bit word: from (8 bits), to (8 bits), the K5 choice kind
 * (2 bits) and its argument (8 bits: a piece for a release, a square for an
 * assassination); `pass` is bit 31 alone; a resignation is bit 30 with the
 * kingdom in the low bits (move.c). Castling is the King's move from the
 * Throne to the Castle Pawn square while the Castle Pawn stands there.
 */
#ifndef CITADEL_KEEPS_MOATS_H
#define CITADEL_KEEPS_MOATS_H

#include <stddef.h>
#include <stdint.h>

#include "../game.h"

#define KM_NSQ 145
#define KM_NK 4
/* Moves written at most; see km_gen for why positions stay below it. */
#define KM_MAX_MOVES GAME_MAX_MOVES

enum { KM_WHITE, KM_RED, KM_BLACK, KM_BLUE };
/* Piece types; 0 is "no piece". */
enum { KM_KING = 1, KM_QUEEN, KM_ROOK, KM_BISHOP, KM_KNIGHT, KM_PAWN, KM_CASTLE, KM_NTYPES };
/* GameType option values (K3). */
enum { KM_NEIGHBORS, KM_CROSSROAD, KM_ANARCHY };
/* KingResult option values (K6). */
enum { KM_GAINED, KM_LOST, KM_FROZEN };
/* Zones of a square (K1). */
enum { KM_BATTLE, KM_MOAT, KM_KEEP };

#define KM_PIECE(owner, type) ((uint8_t)(((unsigned)(owner) << 3) | (unsigned)(type)))
#define KM_OWNER(p) ((int)((p) >> 3))
#define KM_TYPE(p) ((int)((p) & 7))

/* Geometry: immutable after construction. */
typedef struct km_geom {
    int8_t file[KM_NSQ], row[KM_NSQ];     /* 0-based: file 0 = a, row 0 = 1 */
    int16_t at[17][17];                   /* [file][row] -> square, -1 for a hole */
    uint8_t zone[KM_NSQ];                 /* KM_BATTLE, KM_MOAT, KM_KEEP */
    int8_t realm[KM_NSQ];                 /* the kingdom of a Moat/Keep square, else -1 */
    int16_t step[KM_NSQ][8];              /* neighbour in direction d, or -1 */
    int16_t knight[KM_NSQ][8];            /* knight targets, -1 padded */
    int16_t throne[KM_NK], castle_sq[KM_NK];
    int16_t keep[KM_NK][9];               /* each kingdom's Keep squares */
    int8_t fwd[KM_NK][2];                 /* forward as (dfile, drow) */
    uint64_t zob[KM_NSQ][32];             /* Zobrist keys [square][piece byte] */
    uint64_t zpris[KM_NK][KM_NK][KM_NTYPES];
    uint64_t zstm[KM_NK], zcastle[16], zout[16], zsettings[3][3];
} km_geom;

/* Directions 0..3 orthogonal (N E S W), 4..7 diagonal (NE SE SW NW). */
enum { KM_N, KM_E, KM_S, KM_W, KM_NE, KM_SE, KM_SW, KM_NW };

typedef struct km_pos {
    uint8_t sq[KM_NSQ];
    uint8_t pris[KM_NK][KM_NK][KM_NTYPES];  /* [holder][owner][type] counts */
    uint8_t stm;                            /* the kingdom to move */
    uint8_t game_type;                      /* KM_NEIGHBORS .. KM_ANARCHY */
    uint8_t king_result;                    /* KM_GAINED .. KM_FROZEN */
    uint8_t castle;                         /* bit k: kingdom k may castle */
    uint8_t out;                            /* bit k: kingdom k is out */
    uint8_t pad[3];
    int32_t round;                          /* from 1 */
    int32_t limit;                          /* rounds; 0 = none */
} km_pos;

/* Move words. */
enum { KM_PLAIN, KM_RELEASE, KM_ASSASSINATE };
#define KM_PASS ((game_move)1u << 31)
#define KM_RESIGN ((game_move)1u << 30)
#define KM_IS_RESIGN(m) (((m) & ~(game_move)3u) == KM_RESIGN)
#define KM_RESIGNER(m) ((int)((m) & 3u))
#define KM_MOVE(from, to, kind, arg)                                                   \
    ((game_move)((unsigned)(from) | ((unsigned)(to) << 8) | ((unsigned)(kind) << 16) | \
                 ((unsigned)(arg) << 18)))
#define KM_FROM(m) ((int)((m) & 255))
#define KM_TO(m) ((int)(((m) >> 8) & 255))
#define KM_KIND(m) ((int)(((m) >> 16) & 3))
#define KM_ARG(m) ((int)(((m) >> 18) & 255))

/* geom.c */
/* The tables, built once (thread-safe). */
const km_geom *km_geom_get(void);
/* Reads a square name ("i2", "q9") at s, of exactly `len` bytes; -1 if none. */
int km_parse_square(const char *s, size_t len);
/* Writes a square name (at most 4 bytes with the NUL). */
void km_square_name(int sq, char out[4]);

/* rules.c: sides, teams, territory, the end (K3, K6). */
/* The team of kingdom k: the lowest-numbered kingdom of its alliance. */
int km_team(int game_type, int k);
/* 1 if kingdoms a and b are on one side (a == b included). */
int km_friends(int game_type, int a, int b);
/* 1 if a piece of kingdom `by` may capture piece p (an enemy still in). */
int km_capturable(const km_pos *pos, int by, uint8_t p);
game_result km_result(const km_pos *pos);
int km_over(const km_pos *pos);
const char *km_side_name(int k);
/* The K7 result words: "ongoing", "red+black kings", "draw move-limit". */
size_t km_result_text(const km_pos *pos, char *buf, size_t size);

/* position.c: K7 position strings. */
/* Reads a position; on error fills err (if not NULL), leaves *pos as it was. */
int km_parse(km_pos *pos, const char *text, game_error *err);
size_t km_format(const km_pos *pos, char *buf, size_t size);
size_t km_render(const km_pos *pos, char *buf, size_t size);
/* Writes a piece token such as "wK" (3 bytes with the NUL). */
void km_token(uint8_t piece, char out[3]);
/* game_ops.squares: every square there is, rows 17 to 1, west to east. */
int km_squares(const km_pos *pos, game_piece_at *out, int max);
/* game_ops.kinds: the seven kinds, King first. */
int km_kinds(game_piece_kind *out, int max);
/* game_ops.areas: per kingdom its Moat and its Keep (K1), its Throne and
 * its Castle Pawn's square. */
int km_areas(const km_pos *pos, game_area_at *out, int max);
/* Reads a piece token; returns the piece byte or 0. */
uint8_t km_parse_token(const char *s);
uint64_t km_hash(const km_pos *pos);
/* Checks every invariant of a position; returns 1 if all hold. */
int km_pos_ok(const km_pos *pos);

/* movegen.c */
/* Writes the moves of the kingdom to move, ignoring the end of the game and
 * without `pass`; returns how many (at most KM_MAX_MOVES are written). */
int km_gen(const km_pos *pos, game_move *out);
/* Legal moves: none once the game is over, `pass` alone when km_gen has none. */
int km_legal(const km_pos *pos, game_move *out);
/* How many legal moves km_gen would find, counted without a cap. */
int km_count(const km_pos *pos);

/* move.c */
/* Plays a legal move or a resignation (km_resign) on pos. */
void km_make(km_pos *pos, game_move m);
/* effects.c: game_ops.effects and game_ops.threats */
void km_effects(const km_pos *pos, game_move m, game_effects *out);
int km_threats(const km_pos *pos, char (*out)[GAME_SQUARE_NAME], int max);
/* The move by which kingdom k resigns (KM_RESIGN | k): 0, or -1 with err
 * if the game is over or k is out already. km_legal never lists it;
 * km_parse_move reads it ("resign:r") like any legal move. */
int km_resign(const km_pos *pos, int k, game_move *m, game_error *err);
int km_parse_move(const km_pos *pos, const char *text, game_move *m, game_error *err);
size_t km_format_move(const km_pos *pos, game_move m, char *buf, size_t size);
/* Leaves of the legal move tree `depth` plies deep (copy-make, bulk counted). */
uint64_t km_perft(const km_pos *pos, int depth);

/* eval.c: for the bots. */
typedef struct km_style {
    int threat;        /* % of the best capture the mover has */
    int hang;          /* % of the pieces the mover attacks, lost by their owners (halved) */
    int king_threat;   /* a King the mover can take */
    int shelter;       /* per own piece next to the King */
    int moat_pawn;     /* per own Pawn on an enemy Moat */
    int inside;        /* per other own piece inside an enemy Keep */
    int intruder;      /* per enemy piece in one's Moat or Keep */
    int prisoner;      /* % of the value of own majors held by others */
} km_style;
enum { KM_AGGRESSIVE, KM_BALANCED, KM_DEFENSIVE };
extern const km_style km_styles[3];
/* Piece values by type (the King's is what taking it is worth). */
extern const int km_piece_value[KM_NTYPES];
/* What each kingdom's position is worth (0 when out, else at least 1). */
void km_eval(const km_pos *pos, const km_style *w, int out[KM_NK]);
/* The value a move takes from the board (captures, assassinations) or
 * brings back (a release). */
int km_move_gain(const km_pos *pos, game_move m);

/* bots.c: the game's own bots (game_ops.bots): "capture", and the styles
 * and levels src/ai's multi-player search is built from. */
extern const game_bot_ops km_bots;

/* variants.c */
extern const game_variant km_variant;
/* The K7 start of the given game type and King result. */
void km_start(km_pos *pos, int game_type, int king_result);

#endif
