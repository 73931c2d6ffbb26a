/* game.h -- the one interface through which everything uses a game.
 *
 * The server, the bots and the command line know games only through this
 * header. A game (Rampart, Stratego, Keeps & Moats) is a set of *variants*,
 * each a static `game_variant` that names it and points at the game's
 * `game_ops`. Adding a game means adding a folder under src/games and listing
 * its variants in registry.c (and any tools in tool_registry.c); nothing
 * else changes.
 *
 * Positions.  A position is a plain block of `ops->pos_size` bytes owned by
 * the caller (on the stack, in an array, anywhere). It holds no pointers to
 * memory the caller must free, so it may be copied with memcpy and dropped
 * without ceremony. Every position remembers its variant's settings (a move
 * limit, for example) so that `result` needs nothing else.
 *
 * Sides and teams.  Sides are numbered 0 .. nsides-1 in turn order (Rampart:
 * 0 Bottom, 1 Top; Keeps & Moats: White, Red, Black, Blue; Stratego: Red,
 * Blue). `team_of` maps a side to its team; sides of one team win or draw
 * together. In two-sided games each side is its own team.
 *
 * Moves.  A move is a `game_move`, a nonzero 32-bit integer whose bits only
 * the game interprets; 0 is GAME_MOVE_NONE. Moves are valid only for the
 * position they were generated or parsed in. Their text form (`format_move`,
 * `parse_move`) is the game's notation from ../shared/rules.
 *
 * Hidden information.  For games with hidden information, `view` writes the
 * position as one side may see it: everything that side may not know is
 * replaced by the game's "unknown" marker. A view is itself a position of the
 * same size; it can be formatted, hashed and have moves generated for the
 * viewing side, but it must never be given to `make` on behalf of another
 * side. Bots and clients receive only views. For full-information games,
 * `view` is a copy.
 *
 * Results.  `result` is a pure function of the position: ongoing, or over
 * with the winning team (or a draw) and a short reason word from the rules
 * (Rampart R7: "no-captures", "insufficient", "move-limit", "no-moves").
 * Ends that come from outside the board (a flag falling, resignation,
 * agreement) are decided by the caller, with `timeout` for the game's rule
 * on flags. Games of more than two sides may instead let a side resign and
 * leave the others playing (`resign`): the resignation is then a move, made,
 * written, read and stored like any other, that `moves` never lists.
 *
 * Errors.  Functions that can fail return 0 on success and -1 on failure,
 * fill the caller's `game_error` with one line a person can read, and leave
 * the position they were given untouched.
 *
 * Bots.  A game's own bots live in its folder and are offered through
 * `game_ops.bots` (game_bot_ops, below); src/ai asks that factory and never
 * a game's name.
 *
 * Tools.  A game's command-line tools (Rampart's `tune` and `train`,
 * Stratego's `belief`) live in its folder too, as tool_*.c files, and are
 * offered through `game_tools` (game_tool, below): the command line runs
 * them by their command and never names a game. They are native programs
 * (files, threads) that the WebAssembly build leaves out. A tool that
 * searches is lent a searcher by its caller (game_searcher): src/ai stands
 * above the games, which reach its search only through that table.
 *
 * Threads.  Game modules keep no mutable global state; any number of threads
 * may use different positions at once.
 */
#ifndef CITADEL_GAME_H
#define CITADEL_GAME_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define GAME_MAX_SIDES 4
#define GAME_MAX_MOVES 1024   /* more than any position of any game has */
#define GAME_POS_MAX 1024     /* bytes: an upper bound on any pos_size */
#define GAME_LINES_MAX 8      /* the most best moves a bot's `lines` gives */
#define GAME_MOVE_NONE 0u

typedef uint32_t game_move;

/* How long a player may think about one move; any mix, zero (or -1 for a
 * clock) meaning no limit. The searchers of src/ai and a game's own bots
 * read the same limits. */
typedef struct game_limits {
    int depth;               /* plies; 0 = no limit */
    uint64_t nodes;          /* 0 = no limit */
    int64_t movetime;        /* ms for this move; 0 = none */
    int64_t time[2];         /* ms left on each side's clock; -1 = no clock */
    int64_t inc[2];          /* ms added per move */
    int infinite;            /* think until stopped */
} game_limits;

typedef struct game_error {
    char msg[160];
} game_error;

typedef struct game_result {
    int over;            /* 0 while the game goes on */
    int winner;          /* the winning team, or -1 for a draw (when over) */
    const char *reason;  /* static string; "" while ongoing */
} game_result;

/* What a move does (game_ops.effects), squares by their names in the
 * game's notation ("c5"). A piece is either captured (taken on the square
 * the mover lands on or, in combat, removed there) or removed elsewhere by
 * the move (Rampart's enclosures, R5). */
#define GAME_SQUARE_NAME 8
#define GAME_EFFECT_SQUARES 32
typedef struct game_effects {
    char from[GAME_SQUARE_NAME], to[GAME_SQUARE_NAME];  /* "" when the move has none */
    int ncaptured, nremoved;
    char captured[GAME_EFFECT_SQUARES][GAME_SQUARE_NAME];
    char removed[GAME_EFFECT_SQUARES][GAME_SQUARE_NAME];
    /* combat of hidden ranks (Stratego S5): both ranks, public once they
     * fought, and who lost: 1 the attacker, 2 the defender, 3 both */
    int combat;
    char attacker[16], defender[16];
    int lost;
} game_effects;

/* One square of the board, as a page draws it: its name, and what stands
 * there as the position string writes it (Stratego's marks included): ""
 * for nothing, "~" for a square no piece may enter (Stratego's lakes). */
typedef struct game_piece_at {
    char square[GAME_SQUARE_NAME];
    char piece[8];
} game_piece_at;

/* A kind of piece as a page names and counts it (game_ops.kinds). */
typedef struct game_piece_kind {
    char letter;         /* the letter naming it in a position string (the first
                          * side's, in games that write sides by case) */
    const char *name;    /* for people: "Marshal", "Castle Pawn" */
    int rank;            /* its strength where the rules rank pieces (Stratego S2), else 0 */
    int count;           /* how many each side starts with where the rules fix it, else 0 */
} game_piece_kind;

/* A square's part in the rules, for a page to draw (game_ops.areas): the
 * area's name ("keep", "moat", "throne", "castle", "setup") and the side
 * it belongs to. A square may be in several areas. */
typedef struct game_area_at {
    char square[GAME_SQUARE_NAME];
    char area[12];
    int side;
} game_area_at;

typedef struct game_variant game_variant;
typedef struct game_setup_ops game_setup_ops;
typedef struct game_bot_ops game_bot_ops;

/* A variant's setting, shown by `citadel uci` as a UCI option. */
typedef struct game_option {
    const char *name;    /* e.g. "MoveLimit" */
    int def, min, max;   /* integer settings only, for now */
    const char *help;
    int in_position;     /* 1 if the position string carries it: a position
                          * read from text keeps its own value */
    /* The values a server offers players, ending with -1 (NULL: any value
     * from min to max), and the one it offers first. The engine's own
     * default (def) may differ: Rampart's engine has no move limit unless
     * told, while its games are offered with 100 (R7.3). */
    const int *offered;
    int offer_def;
    /* Where a value chooses a form of the game that people know by name,
     * the names of the values min..max (Keeps & Moats's GameType:
     * "neighbors", "crossroad", "anarchy"), for reports such as a match's;
     * NULL for a plain number. */
    const char *const *labels;
} game_option;

typedef struct game_ops {
    size_t pos_size;     /* bytes of a position; at most GAME_POS_MAX */
    size_t undo_size;    /* bytes `make` writes for `unmake`; at most GAME_POS_MAX */

    /* Writes the variant's start position. `seed` picks among start
     * positions for variants that have several (a shuffled start); others
     * ignore it. Settings take their defaults. */
    void (*start)(const game_variant *v, void *pos, uint64_t seed);

    /* Reads a position string in the game's notation. The board must be the
     * variant's. Settings take their defaults. */
    int (*parse)(const game_variant *v, void *pos, const char *text, game_error *err);

    /* Writes the position string (NUL-terminated) into buf of `size` bytes;
     * returns the length it needs, as snprintf does. */
    size_t (*format)(const void *pos, char *buf, size_t size);

    /* Changes one setting (see game_variant.options) of a position. */
    int (*set_option)(void *pos, const char *name, int value, game_error *err);

    /* Reads one setting of a position into *value: 0, or -1 if the
     * variant has no setting of that name. */
    int (*get_option)(const void *pos, const char *name, int *value);

    int (*side_to_move)(const void *pos);
    int (*team_of)(const void *pos, int side);

    /* Writes every legal move to out (room for GAME_MAX_MOVES) and returns
     * how many; 0 when the game is over. */
    int (*moves)(const void *pos, game_move *out);

    /* Reads a move in the game's notation and checks that it is legal
     * (or, in games with `resign`, a resignation possible in pos). */
    int (*parse_move)(const void *pos, const char *text, game_move *move, game_error *err);

    /* Writes a legal move's text; returns the length it needs. */
    size_t (*format_move)(const void *pos, game_move move, char *buf, size_t size);

    /* Plays a legal move, saving what unmake needs in undo (undo_size
     * bytes). unmake restores the position exactly. Neither allocates. */
    void (*make)(void *pos, game_move move, void *undo);
    void (*unmake)(void *pos, game_move move, const void *undo);

    game_result (*result)(const void *pos);

    /* The result when `side`'s clock runs out in pos, the game having begun
     * at start (some rules look at what was captured since). */
    game_result (*timeout)(const void *start, const void *pos, int side);

    /* 1 if a game from start to pos that ended in a draw changes no rating
     * (Rampart R8: a sterile draw); NULL means never. */
    int (*sterile)(const void *start, const void *pos);

    /* Games where a side that gives up leaves the game while the others
     * play on (Keeps & Moats: that kingdom is out); NULL where resigning
     * ends the game, which the caller decides. Writes the move by which
     * `side` resigns in pos, for `make` to play and `format_move` /
     * `parse_move` to write and read like a legal move, whether or not
     * `side` is to move; `moves` never lists it. 0, or -1 with err when
     * `side` cannot resign (the game is over, the side is out already). */
    int (*resign)(const void *pos, int side, game_move *move, game_error *err);

    /* A 64-bit hash of what decides the future of the game (pieces, side to
     * move); equal positions hash equally. */
    uint64_t (*hash)(const void *pos);

    /* Writes what `side` may see of pos into out (pos_size bytes). side -1
     * is a spectator, who may see what every player may: no side's hidden
     * information. */
    void (*view)(const void *pos, int side, void *out);

    /* What every player learns from a legal move of pos, in words for
     * people ("Red Scout (2) attacks Blue Marshal (10): the Scout is
     * removed"); returns the length, 0 when the move shows nothing beyond
     * itself. NULL for games where nothing is hidden. */
    size_t (*describe)(const void *pos, game_move move, char *buf, size_t size);

    /* What a legal move of pos does, as structure for a page to draw
     * (game_effects; describe has the words): only what every player
     * learns from it. NULL where a game has none. */
    void (*effects)(const void *pos, game_move move, game_effects *out);

    /* Writes the names of the squares whose pieces stand attacked in pos
     * (a move of the enemy's next turn could take them, by capture or as
     * Rampart's enclosure, whichever side is to move now) into out
     * and returns how many (at most max). NULL for games with hidden
     * pieces, where nobody may know it. */
    int (*threats)(const void *pos, char (*out)[GAME_SQUARE_NAME], int max);

    /* The board (optional): every square, in the order the position
     * string lists them, with what stands there, into out (room for max);
     * how many. The page draws boards from it, so the engine is the only
     * reader of position strings. */
    int (*squares)(const void *pos, game_piece_at *out, int max);

    /* The kinds of piece (optional): each once, in the order a page lists
     * them (strongest first where the rules rank them), into out (room for
     * max); how many. With `squares` and `areas`, all a page needs to draw
     * and name a board without restating a rule. */
    int (*kinds)(game_piece_kind *out, int max);

    /* The board's areas (optional): every square that belongs to an area
     * of the rules, grouped by area and side, into out (room for max); how
     * many. Within a group the squares come in an order the rules give
     * (Stratego's setup squares in a setup string's order, S3). */
    int (*areas)(const void *pos, game_area_at *out, int max);

    /* Games whose sides arrange their own pieces before the first move
     * (Stratego S3); NULL for the others. */
    const game_setup_ops *setup;

    /* For bots (all optional, NULL where a game has none):
     * evaluate: a static score in centipawn-like units for the side to move;
     * noisy: writes the moves a quiescence search should try (captures and
     *   the like) and returns how many; empty once the game is over;
     * move_hint: how promising a move looks before searching it (higher
     *   first; 0 for a quiet move);
     * material: `side`'s game material as the rules count it (Rampart R6:
     *   Queens, Knights and Kings 1 each, Blockers 0);
     * blockade: nonzero when no piece of either side stands attacked by
     *   one that could take it, so that nothing can happen until somebody
     *   gives ground; the search treats it as a draw in the making. */
    int (*evaluate)(const void *pos);
    int (*noisy)(const void *pos, game_move *out);
    int (*move_hint)(const void *pos, game_move move);
    int (*material)(const void *pos, int side);
    int (*blockade)(const void *pos);

    /* The game's own bots (game_bot_ops); NULL for a game that has none,
     * which src/ai's generic bots may still play. */
    const game_bot_ops *bots;

    /* Optional fast perft (bulk counting); NULL if the game has none. */
    uint64_t (*perft)(const void *pos, int depth);

    /* A board drawn in text for people (UCI `d`); returns the length. */
    size_t (*render)(const void *pos, char *buf, size_t size);

    /* Names of sides, in lower case ("bottom", "top"). */
    const char *(*side_name)(const void *pos, int side);
} game_ops;

/* Private setups. A setup is a string in the game's notation that means
 * the same arrangement for whichever side plays it. */
struct game_setup_ops {
    /* 0 if text is a legal setup, else -1 with the reason. */
    int (*check)(const char *text, game_error *err);
    /* A random legal setup drawn from seed. */
    size_t (*random)(uint64_t seed, char *buf, size_t size);
    /* The game's library of sensible setups: how many, and each one's
     * name and text. */
    int (*library_size)(void);
    const char *(*library_name)(int i);
    const char *(*library_text)(int i);
    /* A setup for a bot: one a strong player might use, varied by seed so
     * that its opponents cannot learn it; NULL to use the library. */
    size_t (*varied)(uint64_t seed, char *buf, size_t size);
    /* Writes the start position from one checked setup per side (side
     * order); settings take their defaults. */
    int (*start)(const game_variant *v, void *pos, const char *const *setups, game_error *err);
    /* The setup `side` arranged in pos, a start position before any move,
     * as `check` reads it (the reverse of `start`); returns the length it
     * needs, as snprintf, or 0 if pos holds no such setup. Optional. */
    size_t (*of)(const void *pos, int side, char *buf, size_t size);
};

/* A game's own bots: the factory src/ai/bots.h asks, per variant, before
 * its generic bots, so that the server, the match runner and `citadel uci`
 * all get the same player for a spec.
 *
 * A bot is named by a spec string (bots.h). A game offers two kinds of its
 * own, each listed in `list`:
 *   - bots it plays itself (Stratego's sampling levels and "cautious",
 *     Keeps & Moats's "capture"): `owns` says which specs are its, and
 *     create / destroy / new_game / move run them;
 *   - search bots that src/ai builds from what only the game knows: for
 *     the multi-player search (src/ai/multi.h), its named evaluation
 *     `styles`, its `levels` and a move `hint`; their spec is
 *     "<style>=<level>", level 1 .. nlevels.
 * A game's own spec wins over a generic one: "level=3" in Stratego is the
 * game's sampling player, in Rampart src/ai's alpha-beta searcher.
 *
 * Invariants: `list` names every spec the factory answers to, those `owns`
 * accepts and "<name>=N" for each style; `create` succeeds for every spec
 * `owns` accepts unless memory is short; a bot is used by one thread at a
 * time, is given only a player's view (for hidden games) and answers a
 * legal move of that view, or GAME_MOVE_NONE when the game is over. The
 * functions keep no global state. */
typedef struct game_bot_info {
    const char *spec;    /* "cautious", or a pattern whose N is a number: "level=N" */
    const char *about;   /* one line for people, the range of N included */
    int offered;         /* 1 if the server may offer it to players; 0 if it
                          * is kept only to measure others against */
} game_bot_info;

/* A way of valuing positions for the multi-player search. */
typedef struct game_bot_style {
    const char *name;    /* "balanced": the specs are "balanced=<level>" */
    /* Writes what pos is worth to each side, as multi.h's evaluations do:
     * one value per side, 0 for a side that is out, more is better. */
    void (*eval)(const void *pos, int out[GAME_MAX_SIDES]);
} game_bot_style;

/* One level of the style bots. */
typedef struct game_bot_level {
    int depth;           /* plies, one side's move each; at least 1 */
    uint64_t nodes;      /* a budget per move; 0 = none */
    int blur;            /* a leaf's score moves by up to +-blur (the same for
                          * a position throughout one move's search): weaker
                          * levels err, games vary */
} game_bot_level;

struct game_bot_ops {
    const game_bot_info *list;   /* ending with an entry whose spec is NULL */

    /* Bots the game plays itself; all NULL where it has none. spec is the
     * part of a spec before any '/' (src/ai reads the limits after it).
     * owns: 1 if spec is one of the game's own bots for v, else 0;
     * create: a bot for v whose random choices follow seed, NULL if
     *   memory is short;
     * new_game: a new game begins: forget what the last one taught;
     * move: a move for the side to move of `view`, within lim; *stop (may
     *   be NULL) becoming nonzero asks for a move at once. */
    int (*owns)(const game_variant *v, const char *spec);
    void *(*create)(const game_variant *v, const char *spec, uint64_t seed);
    void (*destroy)(void *bot);
    void (*new_game)(void *bot);
    game_move (*move)(void *bot, const void *view, const game_limits *lim, atomic_int *stop);

    /* For analysis (the page's analysis board); NULL where the game has
     * none. analyst: the spec of the bot that analyses (the strongest);
     * report: the last move()'s search, its depth, its score for the side
     * to move and its nodes; 0, or -1 if the bot keeps none;
     * belief (games with hidden pieces): what the bot believes of each
     * piece of `view` whose kind the side to move cannot see, as text, one
     * line per piece: its square, then "KIND PERMILLE" for each kind it may
     * be (KIND as the game writes it), likeliest first; the length as
     * snprintf gives it, or -1 if no position fits the view. */
    const char *analyst;
    int (*report)(const void *bot, int *depth, int *score, uint64_t *nodes);
    /* lines (optional): as move() on the analyst, but the best n moves
     * (n at most GAME_LINES_MAX) each with its exact score for the side to
     * move, into moves[] and scores[], best first; how many (0: no move;
     * -1 if the bot cannot tell) */
    int (*lines)(void *bot, const void *view, const game_limits *lim, int n, game_move *moves,
                 int *scores);
    int (*belief)(void *bot, const void *view, char *buf, size_t size);

    /* For the style bots src/ai builds; NULL / 0 where the game has none.
     * styles end with an entry whose name is NULL; levels[0] is level 1;
     * hint: how promising a move looks before searching it (higher first;
     * captures, say), as game_ops.move_hint is for the two-player search. */
    const game_bot_style *styles;
    const game_bot_level *levels;
    int nlevels;
    int (*hint)(const void *pos, game_move move);
};

struct game_variant {
    const char *name;     /* "rampart", "rampart-xl", "rampart-narrow", ... */
    const char *family;   /* the game: "rampart" */
    const char *title;    /* "Rampart Classic" */
    const char *about;    /* one sentence for lists */
    int rated;            /* 1 for official rated forms */
    int nsides;
    int hidden;           /* 1 if players see only views */
    int starts;           /* how many start positions `seed` chooses among */
    const game_option *options;  /* terminated by an entry with name NULL */
    const game_ops *ops;
    const void *data;     /* the game's own description of the variant */
};

/* A searcher lent to a game's tools by their caller: `citadel` lends
 * src/ai's alpha-beta searcher (search.h, search_tool.c). create: one with
 * a hash table of about hash_mb megabytes, NULL if memory is short;
 * new_game: forget everything learnt, play at level (1 .. levels, the
 * strongest) with random choices from seed, contempt on (1, the default)
 * or off (0: draws score 0 for both sides); run: the best move of pos (not
 * changed) within lim, GAME_MOVE_NONE if the game is over, and if score is
 * not NULL the last finished iteration's score for the side to move. */
typedef struct game_searcher {
    int levels;
    void *(*create)(size_t hash_mb);
    void (*destroy)(void *searcher);
    void (*new_game)(void *searcher, int level, uint64_t seed, int contempt);
    game_move (*run)(void *searcher, const game_variant *v, const void *pos,
                     const game_limits *lim, int *score);
} game_searcher;

/* What a tool is given besides its arguments. bad_usage writes "what" and
 * the command line's usage to stderr and returns the exit status for a
 * bad command line (2), for a tool that keeps no usage of its own. */
typedef struct game_tool_env {
    const game_searcher *search;
    int (*bad_usage)(const char *what);
} game_tool_env;

/* A command-line tool of a game: `citadel <command> ARGS...`. run gets
 * the arguments after the command, prints its own output and returns the
 * process's exit status (2 for a bad command line). usage is its lines in
 * `citadel help`, each ending in a newline. */
typedef struct game_tool {
    const char *command;     /* "tune" */
    const char *usage;
    int (*run)(int argc, char **argv, const game_tool_env *env);
} game_tool;

/* Fills err (if not NULL) with one line made like printf's, and returns
 * -1: the shared way a game reports an error. */
int game_fail(game_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The time a player of `side` may take over one move under lim, in ms: a
 * fixed move time is the hard limit, in full (soft 0); on a clock a
 * thirtieth of what is left (less a lag allowance) plus three quarters of
 * the increment, the soft limit no new iteration starts after, and a hard
 * limit no search passes (four times that, at most a third of the clock
 * plus the increment); both 0 with no time limit. */
void game_plan_time(const game_limits *lim, int side, int64_t *soft_ms, int64_t *hard_ms);

/* The registry of every variant, in menu order, ending with NULL. */
const game_variant *const *game_variants(void);

/* The variant of that name, or NULL. */
const game_variant *game_variant_find(const char *name);

/* Every game's tools (tool_registry.c; not in the WebAssembly build), in
 * the order of the menu's games, ending with NULL. */
const game_tool *const *game_tools(void);

/* The tool run by that command, or NULL. */
const game_tool *game_tool_find(const char *command);

/* Counts the leaf nodes of the move tree `depth` plies deep, through the
 * interface alone (the slow, obviously correct path). pos is restored. */
uint64_t game_perft(const game_variant *v, void *pos, int depth);

/* The same count by the game's own fast perft where it has one. */
uint64_t game_perft_fast(const game_variant *v, void *pos, int depth);

#endif
