/* engine.h -- the games as the page uses them (engine.c): compiled to
 * WebAssembly into web/dist (the Makefile's `wasm`), and natively for the
 * test that holds the two builds to the same answers (tests/wasm).
 *
 * A position lives in one of ENG_SLOTS slots, named by its number. Text
 * goes in and out through one buffer (eng_buf, ENG_BUF bytes): a caller
 * writes a NUL-terminated argument there and calls; a function that
 * answers with text writes it there, NUL-terminated, and returns its
 * length, or -1 with the reason there instead. No function allocates;
 * nothing is kept between calls but the slots.
 *
 * Text answers, each a line of fields apart by single spaces:
 *   eng_variants      one line per variant: name sides hidden rated family
 *   eng_moves         the legal moves in the game's notation
 *   eng_squares       "SQ PIECE SQ PIECE ..." for every square, in the
 *                     position string's order: the piece as the string
 *                     writes it, "." for none, "~" where none may stand
 *   eng_kinds         one line per kind of piece: "LETTER RANK COUNT NAME"
 *                     (game_ops.kinds; the name last, it may hold spaces)
 *   eng_areas         one line per area and side: "AREA SIDE SQ SQ ..."
 *                     (game_ops.areas, its squares in its order)
 *   eng_options       per setting: "NAME DEFAULT MIN MAX IN_POSITION" then,
 *                     where its values have names, the name of each
 *                     (IN_POSITION 1: the position string carries it)
 *   eng_result        "over winner reason" ("0 -1 -" while it goes on)
 *   eng_effects       "from to" then "x SQ" per capture, "r SQ" per removal
 *                     (a piece that left the board another way), "c ATT DEF
 *                     LOST" for a combat of hidden ranks, "e" when the
 *                     move's target square is empty after it (the piece
 *                     that moved left the board there); "-" for no square
 *   eng_threats       the squares whose pieces stand attacked
 *   eng_search        "BEST SCORE DEPTH NODES PV..." (BEST "-" when the game
 *                     is over; SCORE for the side to move, as `citadel bench`)
 *   eng_lines         eng_search's line for each of several best moves
 *   eng_multi         "BEST SCORE DEPTH NODES V0 V1 .." (SCORE the side to
 *                     move's team's, as multi.h; Vk what the style's
 *                     evaluation gives side k, 0 for a side that is out)
 *   eng_bot           "BEST SCORE DEPTH NODES" as eng_search (DEPTH 0 when
 *                     the bot searched nothing: one legal move)
 *   eng_bot_lines     eng_bot's line for each of several best moves
 *   eng_belief        one line per hidden piece: "SQ KIND PERMILLE ..."
 *                     (game_bot_ops.belief)
 */
#ifndef CITADEL_WASM_ENGINE_H
#define CITADEL_WASM_ENGINE_H

#define ENG_SLOTS 64
#define ENG_BUF 65536

#ifdef __wasi__
#define ENG_EXPORT(name) __attribute__((export_name(#name)))
#else
#define ENG_EXPORT(name)
#endif

ENG_EXPORT(eng_buf) char *eng_buf(void);
ENG_EXPORT(eng_variants) int eng_variants(void);
/* Slot `slot` takes variant (the buffer holds "VARIANT POSITION", the
 * position empty for the variant's start, `seed` choosing among several
 * starts); 0, or -1. */
ENG_EXPORT(eng_set) int eng_set(int slot, unsigned seed);
/* Slot `to` becomes a copy of slot `from`; 0, or -1. */
ENG_EXPORT(eng_copy) int eng_copy(int from, int to);
ENG_EXPORT(eng_format) int eng_format(int slot);
ENG_EXPORT(eng_side_to_move) int eng_side_to_move(int slot);
ENG_EXPORT(eng_moves) int eng_moves(int slot);
/* Plays the move in the buffer if it is legal; 0, or -1. */
ENG_EXPORT(eng_play) int eng_play(int slot);
ENG_EXPORT(eng_result) int eng_result(int slot);
/* The setting NAME (in the buffer) of the slot's position set to value. */
ENG_EXPORT(eng_set_option) int eng_set_option(int slot, int value);
/* The board: "SQUARE PIECE" for every square, all on one line
 * (game_ops.squares). */
ENG_EXPORT(eng_squares) int eng_squares(int slot);
/* The kinds of piece of the slot's variant and the areas of its board
 * (game_ops.kinds, game_ops.areas): "" where the game names none. */
ENG_EXPORT(eng_kinds) int eng_kinds(int slot);
ENG_EXPORT(eng_areas) int eng_areas(int slot);
/* The settings of the slot's variant (game_option), one a line. */
ENG_EXPORT(eng_options) int eng_options(int slot);
/* Slot `to` becomes what side (-1: a spectator) may see of slot `from`. */
ENG_EXPORT(eng_view) int eng_view(int from, int side, int to);
/* What the legal move in the buffer does, in words (eng_describe; "" when
 * nothing beyond the move) and as structure (eng_effects). */
ENG_EXPORT(eng_describe) int eng_describe(int slot);
ENG_EXPORT(eng_effects) int eng_effects(int slot);
ENG_EXPORT(eng_threats) int eng_threats(int slot);
/* The two-sided search of `citadel bench` and `citadel uci` (src/ai/search.h,
 * its strongest level) on the slot's position: to `depth` plies, or for
 * movetime_ms, with hash_mb megabytes of table; the table is cleared first,
 * so equal calls give equal answers. Games of more sides (eng_multi) and of
 * hidden pieces (eng_bot) are refused here. */
ENG_EXPORT(eng_search) int eng_search(int slot, int depth, int movetime_ms, int hash_mb);
/* MultiPV: the same search to `depth` for the best `lines` (1-ENG_MAX_LINES)
 * root moves, each line found by searching again without the moves of the
 * lines before it; one line of eng_search's form per move, best first
 * (fewer where there are fewer moves; "- ..." once the game is over). */
#define ENG_MAX_LINES 5
ENG_EXPORT(eng_lines) int eng_lines(int slot, int depth, int hash_mb, int lines);
/* The multi-player search of the style bots (src/ai/multi.h, paranoid) on a
 * game of more than two sides: to `depth` plies within `nodes` (0: no
 * budget), valuing positions by the game's style number `style`. */
ENG_EXPORT(eng_multi) int eng_multi(int slot, int depth, int nodes, int style);
/* The same search for the team of `side`, which need not be to move: what
 * the position is worth to it, every other team playing against it (a
 * review's score of the position a side's move left); SCORE that team's,
 * BEST the side to move's worst move for it. */
ENG_EXPORT(eng_multi_for) int eng_multi_for(int slot, int depth, int nodes, int style, int side);
/* The game's own analysing bot (game_bot_ops.analyst; Stratego's
 * strongest level) on the slot's position: for a game of hidden pieces, a
 * view of the side to move (what that player knows), or a full position
 * (after the game, all known). Within movetime_ms or `nodes` (0: none of
 * that limit; a node budget gives the same answer on every machine). */
ENG_EXPORT(eng_bot) int eng_bot(int slot, int movetime_ms, int nodes);
/* The same bot's best `lines` moves (1-GAME_LINES_MAX, game_bot_ops.lines),
 * each scored exactly, for the analysis board's several lines: one line
 * "MOVE SCORE DEPTH NODES" each, best first, the first eng_bot's move;
 * "- 0 0 0" when there is no move. */
ENG_EXPORT(eng_bot_lines) int eng_bot_lines(int slot, int movetime_ms, int nodes, int lines);
/* What that bot believes of each hidden piece of the view in the slot. */
ENG_EXPORT(eng_belief) int eng_belief(int slot);

#endif
