/* test_pgn.c -- game records in PGN (src/games/pgn.c, pgn_read.c;
 * docs/pgn.md): what the writer writes for each kind of game, and what
 * the reader takes, refuses and says. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/games/pgn.h"

/* The first `n` legal moves' texts from v's start (seed 0), each the
 * first legal move of its position; the position after them in end. */
static int first_moves(const game_variant *v, const void *start, int n, char texts[][32],
                       void *end)
{
    const game_ops *ops = v->ops;
    _Alignas(16) unsigned char undo[GAME_POS_MAX];
    game_move list[GAME_MAX_MOVES];
    memcpy(end, start, ops->pos_size);
    int k = 0;
    for (; k < n && ops->moves(end, list) > 0; k++) {
        ops->format_move(end, list[0], texts[k], 32);
        ops->make(end, list[0], undo);
    }
    return k;
}

/* g written into a new string (free it). */
static char *written(const pgn_game *g)
{
    size_t need = pgn_write(g, NULL, 0);
    char *buf = malloc(need + 1);
    assert_non_null(buf);
    assert_int_equal(pgn_write(g, buf, need + 1), need);
    assert_int_equal(strlen(buf), need);
    return buf;
}

/* The first game of text, read and replayed: the replay's return. */
static int read_back(const char *text, pgn_record *r, pgn_replayed *rp, char *err, size_t errlen)
{
    size_t at = 0;
    int line = 1;
    pgn_record_init(r);
    int rc = pgn_next(text, strlen(text), &at, &line, r, err, errlen);
    if (rc != 1)
        return -2;
    return pgn_replay(r, rp, NULL, 0, err, errlen);
}

static pgn_replayed rp;

static void test_two_sides_tags_and_numbers(void **state)
{
    (void)state;
    const game_variant *v = game_variant_find("rampart");
    _Alignas(16) unsigned char start[GAME_POS_MAX], end[GAME_POS_MAX];
    v->ops->start(v, start, 0);
    char texts[6][32];
    const char *moves[6];
    assert_int_equal(first_moves(v, start, 6, texts, end), 6);
    for (int i = 0; i < 6; i++)
        moves[i] = texts[i];
    pgn_game g = { .v = v, .start = start, .moves = moves, .nmoves = 6,
                   .players = { "ann \"the\" \\bold\\", "bo\tb" }, .over = 1, .winner = 1,
                   .reason = "resign" };
    char *t = written(&g);
    const char *roster = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                         "[White \"ann \\\"the\\\" \\\\bold\\\\\"]\n[Black \"bo b\"]\n"
                         "[Result \"0-1\"]\n[Bottom \"ann";
    assert_true(strncmp(t, roster, strlen(roster)) == 0);
    assert_non_null(strstr(t, "[TimeControl \"-\"]\n[Termination \"normal\"]\n[Reason \"resign\"]\n\n"));
    assert_null(strstr(t, "[FEN"));  /* the standard start */
    char want[256];
    snprintf(want, sizeof want, "\n\n1. %s %s 2. %s %s 3. %s %s 0-1\n\n", texts[0], texts[1],
             texts[2], texts[3], texts[4], texts[5]);
    assert_non_null(strstr(t, want));
    /* read back: the players unescaped, the moves replayed */
    pgn_record r;
    char err[200];
    assert_int_equal(read_back(t, &r, &rp, err, sizeof err), 0);
    assert_string_equal(pgn_tag_of(&r, "White"), "ann \"the\" \\bold\\");
    assert_int_equal(rp.nplies, 6);
    assert_int_equal(v->ops->hash(rp.pos), v->ops->hash(end));
    pgn_record_free(&r);
    /* a buffer too small: cut, terminated, the length it needs */
    char small[10];
    assert_int_equal(pgn_write(&g, small, sizeof small), strlen(t));
    assert_string_equal(small, "[Event \"?");
    free(t);
}

static void test_clocks_and_a_set_up_start(void **state)
{
    (void)state;
    const game_variant *v = game_variant_find("rampart-shuffle");
    _Alignas(16) unsigned char start[GAME_POS_MAX], end[GAME_POS_MAX];
    v->ops->start(v, start, 5);
    char texts[3][32], fen[256];
    const char *moves[3];
    assert_int_equal(first_moves(v, start, 3, texts, end), 3);
    for (int i = 0; i < 3; i++)
        moves[i] = texts[i];
    int64_t clocks[3] = { 59000, 3723400, 1500 };
    pgn_tag setting = { "MoveLimit", "40" };
    pgn_game g = { .v = v, .start = start, .moves = moves, .nmoves = 3, .clock_ms = clocks,
                   .base_ms = 300000, .inc_ms = 5000, .settings = &setting, .nsettings = 1 };
    char *t = written(&g);
    v->ops->format(start, fen, sizeof fen);
    char want[512];
    snprintf(want, sizeof want, "[TimeControl \"300+5\"]\n[SetUp \"1\"]\n[FEN \"%s\"]\n"
             "[MoveLimit \"40\"]\n[Termination \"unterminated\"]\n\n", fen);
    assert_non_null(strstr(t, want));
    assert_non_null(strstr(t, "[Result \"*\"]"));
    snprintf(want, sizeof want, "1. %s {[%%clk 0:00:59]} 1... %s {[%%clk 1:02:03.4]} 2. %s "
             "{[%%clk 0:00:01.5]} *  ", texts[0], texts[1], texts[2]);
    char *flat = strdup(strstr(t, "\n\n1. ") + 2);  /* the movetext, lines joined */
    assert_non_null(flat);
    for (char *c = flat; *c; c++)
        *c = *c == '\n' ? ' ' : *c;
    assert_string_equal(flat, want);
    free(flat);
    pgn_record r;
    char err[200];
    assert_int_equal(read_back(t, &r, &rp, err, sizeof err), 0);
    assert_int_equal(v->ops->hash(rp.pos), v->ops->hash(end));
    pgn_record_free(&r);
    /* a clock PGN cannot write */
    g.inc_ms = 100;
    free(t);
    t = written(&g);
    assert_non_null(strstr(t, "[TimeControl \"?\"]"));
    free(t);
}

/* Tag values are cut to 200 bytes, escapes whole and UTF-8 characters
 * whole. */
static void test_long_values_are_cut_whole(void **state)
{
    (void)state;
    const game_variant *v = game_variant_find("rampart");
    _Alignas(16) unsigned char start[GAME_POS_MAX];
    v->ops->start(v, start, 0);
    char name[400] = "a";
    for (int i = 0; i < 150; i++)
        strcat(name, "\xc3\xa9");  /* e acute */
    char quotes[400];
    memset(quotes, '"', 300);
    quotes[300] = 0;
    pgn_game g = { .v = v, .start = start, .players = { name, quotes } };
    char *t = written(&g);
    pgn_record r;
    char err[200];
    assert_int_equal(read_back(t, &r, &rp, err, sizeof err), 0);
    const char *w = pgn_tag_of(&r, "White"), *b = pgn_tag_of(&r, "Black");
    assert_int_equal(strlen(w), 199);
    assert_memory_equal(w, name, 199);
    assert_int_equal(strlen(b), 100);  /* 100 escaped quotes: 200 bytes */
    pgn_record_free(&r);
    free(t);
}

/* Four sides: Result "*" with the winners in Outcome; a number before the
 * first move of every round; resignations among the moves. */
static void test_four_sides(void **state)
{
    (void)state;
    const game_variant *v = game_variant_find("keeps-moats");
    const game_ops *ops = v->ops;
    _Alignas(16) unsigned char start[GAME_POS_MAX], pos[GAME_POS_MAX], undo[GAME_POS_MAX];
    ops->start(v, start, 0);
    char texts[8][32];
    const char *moves[8];
    int n = first_moves(v, start, 5, texts, pos);
    assert_int_equal(n, 5);
    /* three kingdoms resign, one each, out of turn: Blue wins */
    for (int side = 0; side < 3; side++) {
        game_move m;
        game_error e;
        assert_int_equal(ops->resign(pos, side, &m, &e), 0);
        ops->format_move(pos, m, texts[n++], 32);
        ops->make(pos, m, undo);
    }
    game_result res = ops->result(pos);
    assert_true(res.over);
    for (int i = 0; i < n; i++)
        moves[i] = texts[i];
    pgn_game g = { .v = v, .start = start, .moves = moves, .nmoves = n, .over = 1,
                   .winner = res.winner, .reason = res.reason,
                   .players = { "w", "r", "b", "u" } };
    char *t = written(&g);
    /* Anarchy (the default GameType): Blue alone */
    assert_non_null(strstr(t, "[White \"w\"]\n[Black \"b\"]\n[Result \"*\"]\n[Red \"r\"]\n"
                              "[Blue \"u\"]\n[Variant \"keeps-moats\"]\n[Outcome \"blue\"]\n"));
    char want[256];
    snprintf(want, sizeof want, "\n\n1. %s %s %s %s 2. %s resign:w resign:r resign:b *\n\n",
             texts[0], texts[1], texts[2], texts[3], texts[4]);
    assert_non_null(strstr(t, want));
    pgn_record r;
    char err[200];
    assert_int_equal(read_back(t, &r, &rp, err, sizeof err), 0);
    assert_true(rp.result.over);
    pgn_record_free(&r);
    /* the wrong winners, and winners that are no sides */
    const char *wrong[2][2] = {
        { "[Outcome \"red+black\"]", "Outcome \"red+black\", but the final position gives "
                                     "blue (kings)" },
        { "[Outcome \"reds\"]", "Outcome \"reds\" is neither \"draw\" nor sides joined by '+'" },
    };
    for (int k = 0; k < 2; k++) {
        char other[2048];
        const char *o = strstr(t, "[Outcome ");
        snprintf(other, sizeof other, "%.*s%s%s", (int)(o - t), t, wrong[k][0], strchr(o, ']') + 1);
        assert_int_equal(read_back(other, &r, &rp, err, sizeof err), -1);
        assert_non_null(strstr(err, wrong[k][1]));
        pgn_record_free(&r);
    }
    free(t);
}

/* Stratego: the start and both setups only once the game is over; the
 * combats as comments whenever. */
static void test_hidden_start_only_once_over(void **state)
{
    (void)state;
    const game_variant *v = game_variant_find("stratego");
    const game_ops *ops = v->ops;
    _Alignas(16) unsigned char start[GAME_POS_MAX], end[GAME_POS_MAX];
    const char *setups[2] = { ops->setup->library_text(0), ops->setup->library_text(1) };
    game_error e;
    assert_int_equal(ops->setup->start(v, start, setups, &e), 0);
    char texts[40][32];
    const char *moves[40];
    int n = first_moves(v, start, 40, texts, end);
    for (int i = 0; i < n; i++)
        moves[i] = texts[i];
    pgn_game g = { .v = v, .start = start, .moves = moves, .nmoves = n };
    char *t = written(&g);
    assert_null(strstr(t, "[FEN"));
    assert_null(strstr(t, "[SetUp"));
    assert_null(strstr(t, "Setup \""));
    pgn_record r;
    char err[200];
    assert_int_equal(read_back(t, &r, &rp, err, sizeof err), 1);  /* not replayed */
    pgn_record_free(&r);
    free(t);
    g.over = 1;
    g.winner = 0;
    g.reason = "resign";
    t = written(&g);
    char want[160];
    snprintf(want, sizeof want, "[RedSetup \"%s\"]\n[BlueSetup \"%s\"]\n", setups[0], setups[1]);
    assert_non_null(strstr(t, want));
    assert_non_null(strstr(t, "[SetUp \"1\"]\n[FEN \""));
    assert_int_equal(read_back(t, &r, &rp, err, sizeof err), 0);
    assert_int_equal(ops->hash(rp.pos), ops->hash(end));
    pgn_record_free(&r);
    free(t);
}

static void test_termination_words(void **state)
{
    (void)state;
    assert_string_equal(pgn_termination(0, NULL), "unterminated");
    assert_string_equal(pgn_termination(1, "time"), "time forfeit");
    assert_string_equal(pgn_termination(1, "abandoned"), "abandoned");
    assert_string_equal(pgn_termination(1, "aborted"), "abandoned");
    assert_string_equal(pgn_termination(1, "illegal"), "rules infraction");
    assert_string_equal(pgn_termination(1, "resign"), "normal");
    assert_string_equal(pgn_termination(1, "no-captures"), "normal");
}

static const char roster[] = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
                             "[Round \"?\"]\n[White \"a\"]\n[Black \"b\"]\n";

/* The reader's errors name their line, and the next game is read. */
static void test_reader_errors_and_recovery(void **state)
{
    (void)state;
    char text[2048];
    snprintf(text, sizeof text,
             "%s[Result \"*\"]\n[Variant \"rampart\"]\n\n1. b3a3 {a\ncomment} $1 (1. x) ; rest\n"
             "1... b9a8!? *\n\n"            /* game 1, lines 1-12: sound */
             "%s[Result \"*\"\n\n1. *\n\n"  /* game 2, line 20: no ']' */
             "%s[Result \"*\"]\n[Variant \"rampart\"]\n\n1. c2c9 *\n\n"  /* 3: illegal, line 33 */
             "%s[Result \"1-0\"]\n[Variant \"rampart\"]\n\n1. b3a3 *\n",  /* 4: unlike, line 44 */
             roster, roster, roster, roster);
    size_t at = 0, len = strlen(text);
    int line = 1;
    pgn_record r;
    pgn_record_init(&r);
    char err[200];
    assert_int_equal(pgn_next(text, len, &at, &line, &r, err, sizeof err), 1);
    assert_int_equal(r.nmoves, 2);
    assert_string_equal(r.moves[1], "b9a8");
    assert_int_equal(r.lines[1], 12);
    assert_int_equal(pgn_replay(&r, &rp, NULL, 0, err, sizeof err), 0);
    assert_int_equal(pgn_next(text, len, &at, &line, &r, err, sizeof err), -1);
    assert_string_equal(err, "line 20: tag Result: no ']' after its value");
    assert_int_equal(pgn_next(text, len, &at, &line, &r, err, sizeof err), 1);
    assert_int_equal(r.line, 24);
    assert_int_equal(pgn_replay(&r, &rp, NULL, 0, err, sizeof err), -1);
    assert_true(strncmp(err, "line 33: move 1 'c2c9': ", 24) == 0);
    assert_int_equal(pgn_next(text, len, &at, &line, &r, err, sizeof err), 1);
    assert_int_equal(pgn_replay(&r, &rp, NULL, 0, err, sizeof err), -1);
    assert_string_equal(err, "line 44: the result token * differs from the Result tag \"1-0\"");
    assert_int_equal(pgn_next(text, len, &at, &line, &r, err, sizeof err), 0);
    pgn_record_free(&r);
}

/* Bounds: too many tags, a value too long, a move too long. */
static void test_reader_bounds(void **state)
{
    (void)state;
    size_t size = 64 * 1024;
    char *text = malloc(size);
    assert_non_null(text);
    size_t n = 0;
    for (int i = 0; i < PGN_TAGS_MAX + 1; i++)
        n += (size_t)snprintf(text + n, size - n, "[T%d \"x\"]\n", i);
    snprintf(text + n, size - n, "\n*\n");
    size_t at = 0;
    int line = 1;
    pgn_record r;
    pgn_record_init(&r);
    char err[200];
    assert_int_equal(pgn_next(text, strlen(text), &at, &line, &r, err, sizeof err), -1);
    assert_string_equal(err, "line 65: more than 64 tags");
    memset(text, 'x', size);
    memcpy(text, "[T \"", 4);
    strcpy(text + 4 + PGN_VALUE_MAX, "\"]\n\n*\n");
    at = 0;
    line = 1;
    assert_int_equal(pgn_next(text, strlen(text), &at, &line, &r, err, sizeof err), -1);
    assert_string_equal(err, "line 1: tag T: its value is longer than 511 bytes");
    snprintf(text, size, "[T \"x\"]\n\n1. %040d *\n", 7);
    text[14] = 'a';
    at = 0;
    line = 1;
    assert_int_equal(pgn_next(text, strlen(text), &at, &line, &r, err, sizeof err), -1);
    assert_string_equal(err, "line 3: a move of more than 31 characters");
    pgn_record_free(&r);
    free(text);
}

/* Every setting of every variant reads back as it was set
 * (game_ops.get_option), so that a start read from a record can be kept
 * with its settings; a setting a variant lacks is -1. */
static void test_settings_read_back(void **state)
{
    (void)state;
    for (const game_variant *const *v = game_variants(); *v; v++) {
        const game_ops *ops = (*v)->ops;
        _Alignas(16) unsigned char pos[GAME_POS_MAX];
        ops->start(*v, pos, 0);
        assert_non_null(ops->get_option);
        for (const game_option *o = (*v)->options; o && o->name; o++) {
            int value = -7;
            assert_int_equal(ops->get_option(pos, o->name, &value), 0);
            assert_int_equal(value, o->def);
            game_error e;
            int want = o->max > o->min ? o->min + 1 : o->min;
            if (ops->set_option(pos, o->name, want, &e) != 0)
                continue;  /* a value this position cannot take */
            assert_int_equal(ops->get_option(pos, o->name, &value), 0);
            assert_int_equal(value, want);
        }
        int value;
        assert_int_equal(ops->get_option(pos, "NoSuchSetting", &value), -1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_sides_tags_and_numbers),
        cmocka_unit_test(test_clocks_and_a_set_up_start),
        cmocka_unit_test(test_long_values_are_cut_whole),
        cmocka_unit_test(test_four_sides),
        cmocka_unit_test(test_hidden_start_only_once_over),
        cmocka_unit_test(test_termination_words),
        cmocka_unit_test(test_settings_read_back),
        cmocka_unit_test(test_reader_errors_and_recovery),
        cmocka_unit_test(test_reader_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
