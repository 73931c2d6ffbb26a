/* fuzz_pgn.c -- libFuzzer target for the PGN reader (src/games/pgn_read.c)
 * and, through it, the writer (src/games/pgn.c).
 *
 * Input: PGN text, read game by game to its end. Checked: every call of
 * pgn_next moves on through the text (no game read twice, no endless
 * loop); a game refused has a reason that names its line; a game read
 * has a result token and at most PGN_PLIES_MAX moves. A game that
 * replays (pgn_replay 0) is written again by pgn_write, with its moves,
 * its settings and the engine's result, and that record reads and
 * replays to the same position.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/games/pgn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pgn_replayed first, again;

static void round_trip(const pgn_record *r)
{
    const game_variant *v = first.v;
    const char **moves = malloc((size_t)(r->nmoves + 1) * sizeof *moves);
    if (!moves)
        return;
    for (int i = 0; i < r->nmoves; i++)
        moves[i] = r->moves[i];
    pgn_tag settings[8];
    int nsettings = 0;
    for (const game_option *o = v->options; o && o->name && nsettings < 8; o++) {
        const char *val = pgn_tag_of(r, o->name);
        if (val)
            settings[nsettings++] = (pgn_tag){ o->name, val };
    }
    pgn_game g = { .v = v, .start = first.start, .moves = moves, .nmoves = r->nmoves,
                   /* a hidden start is written only for a game over */
                   .over = first.result.over || v->hidden,
                   .winner = first.result.over ? first.result.winner : -1,
                   .reason = first.result.reason, .players = { "a", "b", "c", "d" },
                   .settings = settings, .nsettings = nsettings };
    size_t need = pgn_write(&g, NULL, 0);
    char *text = malloc(need + 1);
    if (text) {
        assert(pgn_write(&g, text, need + 1) == need && strlen(text) == need);
        pgn_record back;
        pgn_record_init(&back);
        size_t at = 0;
        int line = 1;
        char err[256];
        assert(pgn_next(text, need, &at, &line, &back, err, sizeof err) == 1);
        assert(pgn_replay(&back, &again, NULL, 0, err, sizeof err) == 0);
        assert(again.nplies == first.nplies);
        assert(v->ops->hash(again.pos) == v->ops->hash(first.pos));
        pgn_record_free(&back);
        free(text);
    }
    free(moves);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    pgn_record r;
    pgn_record_init(&r);
    size_t at = 0;
    int line = 1;
    char err[256];
    for (;;) {
        size_t before = at;
        int rc = pgn_next(text, size, &at, &line, &r, err, sizeof err);
        if (rc == 0)
            break;
        assert(at > before && at <= size);
        if (rc < 0) {
            assert(strncmp(err, "line ", 5) == 0);
            continue;
        }
        assert(r.result[0] != 0 && r.nmoves <= PGN_PLIES_MAX);
        rc = pgn_replay(&r, &first, NULL, 0, err, sizeof err);
        if (rc < 0)
            assert(strncmp(err, "line ", 5) == 0);
        else if (rc == 0)
            round_trip(&r);
    }
    pgn_record_free(&r);
    free(text);
    return 0;
}
