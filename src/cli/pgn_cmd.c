/* pgn_cmd.c -- `citadel pgn check FILE`: reads every game of a PGN file
 * (src/games/pgn.h), replays it through the engine, and prints one line
 * per game and a summary:
 *
 *   game 1 (line 1): ok: rampart, 57 plies, 1-0
 *   game 2 (line 31): line 40: move 12 'c4c9': ...
 *   2 games: 1 ok, 1 with errors
 *
 * `citadel pgn export --format json|uci FILE` prints each sound game again
 * for tools that read no PGN: a JSON object a line, or the UCI command
 * that replays it (`position fen START moves ...`, as Fairy-Stockfish's
 * tools and python-chess's engine module send a game).
 *
 * The exit status says whether every game was sound. */
#include "pgn_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../base/file.h"
#include "../games/pgn.h"

static const char pgn_usage[] =
    "usage: citadel pgn check FILE\n"
    "       citadel pgn export --format json|uci FILE\n"
    "\n"
    "Reads every game of a PGN file (docs/pgn.md): its tags (the Seven Tag Roster\n"
    "and Variant at least), its movetext, every move replayed from the start (the\n"
    "variant's, or the FEN tag's), and the result against the final position where\n"
    "the game's rules decide it. One line per game, then a summary; exit status 0\n"
    "when every game is sound, 1 otherwise.\n"
    "\n"
    "export prints every sound game again, one line each: with --format json a JSON\n"
    "object (variant, tags, start, moves, result, final, over, reason); with --format\n"
    "uci the command that replays it, position fen START moves M1 M2 ... A game that\n"
    "does not read is named on stderr, and the exit status is then 1.\n";

/* One sound game r, replayed into rp, as a line of `format`. */
static void export_game(const pgn_record *r, const pgn_replayed *rp, int json)
{
    char start[2048], final[2048];
    rp->v->ops->format(rp->start, start, sizeof start);
    rp->v->ops->format(rp->pos, final, sizeof final);
    if (!json) {
        printf("position fen %s%s", start, r->nmoves ? " moves" : "");
        for (int i = 0; i < r->nmoves; i++)
            printf(" %s", r->moves[i]);
        printf("\n");
        return;
    }
    json_t *tags = json_object(), *moves = json_array();
    for (int i = 0; i < r->ntags; i++)
        json_object_set_new(tags, r->names[i], json_string(r->values[i] ? r->values[i] : ""));
    for (int i = 0; i < r->nmoves; i++)
        json_array_append_new(moves, json_string(r->moves[i]));
    json_t *j = json_pack("{s:s, s:o, s:s, s:o, s:s, s:s, s:b, s:s}", "variant", rp->v->name,
                          "tags", tags, "start", start, "moves", moves, "result", r->result,
                          "final", final, "over", rp->result.over, "reason",
                          rp->result.over ? rp->result.reason : "");
    char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
    if (text)
        printf("%s\n", text);
    free(text);
    json_decref(j);
}

/* What to do with each game of a file: its number, the line it starts on
 * (0 if it did not read), pgn_replay's answer (or -1 if it did not read)
 * with err; returns 1 if the game counts as unsound. */
typedef int (*game_fn)(void *ctx, int game, int line, int rc, const pgn_record *r,
                       const pgn_replayed *rp, const char *err);

/* Reads every game of the file at path, replays each and hands it to fn:
 * 0 with the games and the unsound ones counted, or 1 if the file does not
 * read (said on stderr). */
static int each_game(const char *path, game_fn fn, void *ctx, int *games, int *bad)
{
    char err[256] = "";
    size_t len = 0;
    char *text = file_read_all(path, PGN_FILE_MAX, &len, err, sizeof err);
    if (!text) {
        fprintf(stderr, "citadel: %s\n", err);
        return 1;
    }
    pgn_record r;
    pgn_record_init(&r);
    static pgn_replayed rp;
    size_t at = 0;
    int line = 1;
    *games = *bad = 0;
    for (;;) {
        int rc = pgn_next(text, len, &at, &line, &r, err, sizeof err);
        if (rc == 0)
            break;
        int start = rc > 0 ? r.line : 0;
        if (rc > 0)
            rc = pgn_replay(&r, &rp, NULL, 0, err, sizeof err);
        *bad += fn(ctx, ++*games, start, rc, &r, &rp, err);
    }
    pgn_record_free(&r);
    free(text);
    return 0;
}

static int export_one(void *ctx, int game, int line, int rc, const pgn_record *r,
                      const pgn_replayed *rp, const char *err)
{
    (void)line;
    if (rc == 0) {
        export_game(r, rp, *(const int *)ctx);
        return 0;
    }
    fprintf(stderr, "citadel: game %d: %s\n", game,
            rc > 0 ? "hidden pieces whose start the record does not show: not exported" : err);
    return 1;
}

static int export(const char *format, const char *path)
{
    int json = strcmp(format, "json") == 0, games, bad;
    if (!json && strcmp(format, "uci") != 0) {
        fprintf(stderr, "citadel: pgn export: --format json or uci, not '%s'\n", format);
        return 2;
    }
    if (each_game(path, export_one, &json, &games, &bad) != 0)
        return 1;
    fflush(stdout);
    if (games == 0)
        fprintf(stderr, "citadel: no game in %s\n", path);
    return bad || games == 0 ? 1 : 0;
}

static int check_one(void *ctx, int game, int line, int rc, const pgn_record *r,
                     const pgn_replayed *rp, const char *err)
{
    (void)ctx;
    if (rc < 0) {
        if (line)
            printf("game %d (line %d): %s\n", game, line, err);
        else
            printf("game %d: %s\n", game, err);
        return 1;
    }
    if (rc > 0)
        printf("game %d (line %d): ok: %s, %d moves read, not replayed (the start of a "
               "game with hidden pieces is shown once it is over), %s\n",
               game, line, rp->v->name, r->nmoves, r->result);
    else
        printf("game %d (line %d): ok: %s, %d plies, %s%s%s\n", game, line, rp->v->name,
               rp->nplies, r->result, rp->result.over ? ", " : "",
               rp->result.over ? rp->result.reason : "");
    return 0;
}

static int check(const char *path)
{
    int games, bad;
    if (each_game(path, check_one, NULL, &games, &bad) != 0)
        return 1;
    printf("%d game%s: %d ok, %d with errors\n", games, games == 1 ? "" : "s", games - bad, bad);
    if (games == 0)
        fprintf(stderr, "citadel: no game in %s\n", path);
    fflush(stdout);
    return bad || games == 0 ? 1 : 0;
}

int pgn_main(int argc, char **argv)
{
    if (argc == 1 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "help") == 0)) {
        fputs(pgn_usage, stdout);
        return 0;
    }
    if (argc == 4 && strcmp(argv[0], "export") == 0 && strcmp(argv[1], "--format") == 0)
        return export(argv[2], argv[3]);
    if (argc != 2 || strcmp(argv[0], "check") != 0) {
        fprintf(stderr, "citadel: pgn needs `check FILE` or `export --format json|uci FILE`"
                        "\n\n%s", pgn_usage);
        return 2;
    }
    return check(argv[1]);
}
