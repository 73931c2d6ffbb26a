/* pgn_cmd.c -- `citadel pgn check FILE`: reads every game of a PGN file
 * (src/games/pgn.h), replays it through the engine, and prints one line
 * per game and a summary:
 *
 *   game 1 (line 1): ok: rampart, 57 plies, 1-0
 *   game 2 (line 31): line 40: move 12 'c4c9': ...
 *   2 games: 1 ok, 1 with errors
 *
 * The exit status says whether every game was sound. */
#include "pgn_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/file.h"
#include "../games/pgn.h"

static const char pgn_usage[] =
    "usage: citadel pgn check FILE\n"
    "\n"
    "Reads every game of a PGN file (docs/pgn.md): its tags (the Seven Tag Roster\n"
    "and Variant at least), its movetext, every move replayed from the start (the\n"
    "variant's, or the FEN tag's), and the result against the final position where\n"
    "the game's rules decide it. One line per game, then a summary; exit status 0\n"
    "when every game is sound, 1 otherwise.\n";

static int check(const char *path)
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
    int line = 1, games = 0, bad = 0;
    for (;;) {
        int rc = pgn_next(text, len, &at, &line, &r, err, sizeof err);
        if (rc == 0)
            break;
        games++;
        int start = r.line;
        if (rc > 0)
            rc = pgn_replay(&r, &rp, NULL, 0, err, sizeof err);
        else
            start = 0;
        if (rc < 0) {
            bad++;
            if (start)
                printf("game %d (line %d): %s\n", games, start, err);
            else
                printf("game %d: %s\n", games, err);
        } else if (rc > 0) {
            printf("game %d (line %d): ok: %s, %d moves read, not replayed (the start of a "
                   "game with hidden pieces is shown once it is over), %s\n",
                   games, start, rp.v->name, r.nmoves, r.result);
        } else {
            printf("game %d (line %d): ok: %s, %d plies, %s%s%s\n", games, start, rp.v->name,
                   rp.nplies, r.result, rp.result.over ? ", " : "",
                   rp.result.over ? rp.result.reason : "");
        }
    }
    pgn_record_free(&r);
    free(text);
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
    if (argc != 2 || strcmp(argv[0], "check") != 0) {
        fprintf(stderr, "citadel: pgn needs `check FILE`\n\n%s", pgn_usage);
        return 2;
    }
    return check(argv[1]);
}
