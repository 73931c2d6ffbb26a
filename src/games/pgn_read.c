/* pgn_read.c -- reads PGN records and replays them through the engine
 * (pgn.h; the format is docs/pgn.md).
 *
 * The invariant it keeps: whatever the text, reading takes memory bounded
 * by the limits of pgn.h (tags, their sizes, moves per game) and time
 * linear in the text, and a record handed back has passed every check
 * made so far; a text that breaks a rule is answered with one line that
 * names the line of the text, and the reader can go on with the next
 * game. Comments, NAGs, annotations (!, ?) and variations are read and
 * set aside; the moves of the main line and the result token are kept.
 */
#include "pgn.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lex {
    const char *t;
    size_t len, at;
    int line;
    char *err;
    size_t errlen;
} lex;

__attribute__((format(printf, 3, 4))) static int fail(lex *x, int line, const char *fmt, ...)
{
    int n = snprintf(x->err, x->errlen, "line %d: ", line);
    if (n > 0 && (size_t)n < x->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(x->err + n, x->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int peek(const lex *x)
{
    return x->at < x->len ? (unsigned char)x->t[x->at] : -1;
}

static int at_line_start(const lex *x)
{
    return x->at == 0 || x->t[x->at - 1] == '\n';
}

static void skip_line(lex *x)
{
    while (x->at < x->len && x->t[x->at] != '\n')
        x->at++;
}

/* Spaces, line ends, ';' comments and '%' escape lines. */
static void skip_blank(lex *x)
{
    for (;;) {
        int c = peek(x);
        if (c == '\n') {
            x->line++;
            x->at++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
            x->at++;
        } else if (c == ';' || (c == '%' && at_line_start(x))) {
            skip_line(x);
        } else {
            return;
        }
    }
}

static int is_symbol(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '+' || c == '#' || c == '=' || c == ':' || c == '-' || c == '/';
}

/* One tag pair, from its '['. */
static int read_tag(lex *x, pgn_record *r)
{
    int line = x->line;
    x->at++;
    while (peek(x) == ' ' || peek(x) == '\t')
        x->at++;
    char name[PGN_NAME_MAX];
    size_t n = 0;
    int c = peek(x);
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
        return fail(x, line, "a tag's name must begin with a letter");
    while ((c = peek(x)) >= 0 && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                  (c >= '0' && c <= '9') || c == '_')) {
        if (n + 1 >= sizeof name)
            return fail(x, line, "a tag's name is longer than %d bytes", PGN_NAME_MAX - 1);
        name[n++] = (char)c;
        x->at++;
    }
    name[n] = 0;
    while (peek(x) == ' ' || peek(x) == '\t')
        x->at++;
    if (peek(x) != '"')
        return fail(x, line, "tag %s: its value must be in double quotes", name);
    x->at++;
    char value[PGN_VALUE_MAX];
    n = 0;
    for (;;) {
        c = peek(x);
        if (c < 0 || c == '\n')
            return fail(x, line, "tag %s: its value does not end on its line", name);
        x->at++;
        if (c == '"')
            break;
        if (c == '\\') {
            c = peek(x);
            if (c != '"' && c != '\\')
                return fail(x, line, "tag %s: a backslash escapes only '\"' and '\\'", name);
            x->at++;
        }
        if (n + 1 >= sizeof value)
            return fail(x, line, "tag %s: its value is longer than %d bytes", name,
                        PGN_VALUE_MAX - 1);
        value[n++] = (char)c;
    }
    value[n] = 0;
    while (peek(x) == ' ' || peek(x) == '\t')
        x->at++;
    if (peek(x) != ']')
        return fail(x, line, "tag %s: no ']' after its value", name);
    x->at++;
    if (pgn_tag_of(r, name))
        return fail(x, line, "tag %s appears twice", name);
    if (r->ntags == PGN_TAGS_MAX)
        return fail(x, line, "more than %d tags", PGN_TAGS_MAX);
    char *copy = malloc(n + 1);
    if (!copy)
        return fail(x, line, "out of memory");
    memcpy(copy, value, n + 1);
    memcpy(r->names[r->ntags], name, sizeof name);
    r->values[r->ntags++] = copy;
    return 0;
}

static int add_move(lex *x, pgn_record *r, const char *text, size_t n, int line)
{
    if (r->nmoves == PGN_PLIES_MAX)
        return fail(x, line, "more than %d moves", PGN_PLIES_MAX);
    if (r->nmoves == r->capmoves) {
        int cap = r->capmoves ? 2 * r->capmoves : 64;
        char(*m)[PGN_MOVE_MAX] = realloc(r->moves, (size_t)cap * sizeof *m);
        if (m)
            r->moves = m;
        int *l = m ? realloc(r->lines, (size_t)cap * sizeof *l) : NULL;
        if (!m || !l)
            return fail(x, line, "out of memory");
        r->lines = l;
        r->capmoves = cap;
    }
    memcpy(r->moves[r->nmoves], text, n);
    r->moves[r->nmoves][n] = 0;
    r->lines[r->nmoves++] = line;
    return 0;
}

/* A brace comment, from its '{'. */
static int skip_comment(lex *x)
{
    int line = x->line;
    while (++x->at < x->len && x->t[x->at] != '}')
        x->line += x->t[x->at] == '\n';
    if (x->at >= x->len)
        return fail(x, line, "a comment ('{') is never closed");
    x->at++;
    return 0;
}

/* A variation, from its '(': everything up to the matching ')'. */
static int skip_variation(lex *x)
{
    int line = x->line, depth = 0;
    for (;;) {
        int c = peek(x);
        if (c < 0)
            return fail(x, line, "a variation ('(') is never closed");
        if (c == '{') {
            if (skip_comment(x) != 0)
                return -1;
            continue;
        }
        if (c == ';' || c == '\n' || (c == '%' && at_line_start(x))) {
            skip_blank(x);
            continue;
        }
        x->at++;
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        if (depth == 0)
            return 0;
    }
}

static int read_movetext(lex *x, pgn_record *r)
{
    for (;;) {
        skip_blank(x);
        int c = peek(x), line = x->line;
        if (c < 0)
            return fail(x, line, "the game has no result token (1-0, 0-1, 1/2-1/2 or *)");
        if (c == '{') {
            if (skip_comment(x) != 0)
                return -1;
        } else if (c == '(') {
            if (skip_variation(x) != 0)
                return -1;
        } else if (c == ')') {
            return fail(x, line, "')' closes no variation");
        } else if (c == '[') {
            return fail(x, line, "a tag in the movetext: the game before has no result token");
        } else if (c == '$') {
            size_t n = 0;
            while (++x->at < x->len && x->t[x->at] >= '0' && x->t[x->at] <= '9')
                n++;
            if (n == 0 || n > 3)
                return fail(x, line, "a NAG is '$' and a number of 1-3 digits");
        } else if (c == '!' || c == '?') {
            while (peek(x) == '!' || peek(x) == '?')
                x->at++;
        } else if (c == '*') {
            x->at++;
            snprintf(r->result, sizeof r->result, "*");
            r->result_line = line;
            return 0;
        } else if (is_symbol(c)) {
            size_t start = x->at, n = 0;
            while (x->at < x->len && is_symbol((unsigned char)x->t[x->at]))
                x->at++;
            n = x->at - start;
            const char *w = x->t + start;
            if (strspn(w, "0123456789") == n) {  /* a move number indication */
                while (peek(x) == '.')
                    x->at++;
                continue;
            }
            if ((n == 3 && (memcmp(w, "1-0", 3) == 0 || memcmp(w, "0-1", 3) == 0)) ||
                (n == 7 && memcmp(w, "1/2-1/2", 7) == 0)) {
                memcpy(r->result, w, n);
                r->result[n] = 0;
                r->result_line = line;
                return 0;
            }
            if (n >= PGN_MOVE_MAX)
                return fail(x, line, "a move of more than %d characters", PGN_MOVE_MAX - 1);
            if (add_move(x, r, w, n, line) != 0)
                return -1;
            while (peek(x) == '!' || peek(x) == '?')
                x->at++;
        } else {
            return fail(x, line, "unexpected character '%c' in the movetext",
                        c >= 0x20 && c < 0x7F ? c : '?');
        }
    }
}

void pgn_record_init(pgn_record *r)
{
    memset(r, 0, sizeof *r);
}

void pgn_record_free(pgn_record *r)
{
    for (int i = 0; i < r->ntags; i++)
        free(r->values[i]);
    free(r->moves);
    free(r->lines);
    pgn_record_init(r);
}

const char *pgn_tag_of(const pgn_record *r, const char *name)
{
    for (int i = 0; i < r->ntags; i++)
        if (strcmp(r->names[i], name) == 0)
            return r->values[i];
    return NULL;
}

/* Past a broken game: to the next line that begins with '[' after a
 * blank line (or the end). */
static void skip_game(lex *x)
{
    int blank = 0;
    while (x->at < x->len) {
        size_t eol = x->at;
        while (eol < x->len && x->t[eol] != '\n')
            eol++;
        size_t k = x->at;
        while (k < eol && (x->t[k] == ' ' || x->t[k] == '\t' || x->t[k] == '\r'))
            k++;
        if (blank && x->t[x->at] == '[')
            return;
        blank = k == eol;
        x->at = eol < x->len ? eol + 1 : eol;
        x->line += eol < x->len;
    }
}

int pgn_next(const char *text, size_t len, size_t *at, int *line, pgn_record *r, char *err,
             size_t errlen)
{
    pgn_record_free(r);
    lex x = { text, len, *at, *line, err, errlen };
    if (errlen)
        err[0] = 0;
    skip_blank(&x);
    if (x.at >= x.len) {
        *at = x.at;
        *line = x.line;
        return 0;
    }
    r->line = x.line;
    int rc = 0;
    while (rc == 0 && peek(&x) == '[') {
        rc = read_tag(&x, r);
        skip_blank(&x);
    }
    if (rc == 0)
        rc = read_movetext(&x, r);
    if (rc != 0) {
        skip_line(&x);
        if (x.at < x.len) {  /* past the line's end: skip_game starts on a line */
            x.at++;
            x.line++;
        }
        skip_game(&x);
    }
    *at = x.at;
    *line = x.line;
    return rc == 0 ? 1 : -1;
}

/* --- replaying ---------------------------------------------------------------- */

static const char *const roster[] = { "Event", "Site", "Date", "Round", "White", "Black",
                                      "Result" };
static const char *const terminations[] = { "abandoned", "adjudication", "death", "emergency",
                                            "normal", "rules infraction", "time forfeit",
                                            "unterminated" };

static int whole(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < -1000000000L || v > 1000000000L)
        return -1;
    *out = (int)v;
    return 0;
}

/* An Outcome's words: "draw", or names of sides joined by '+'. */
static int outcome_ok(const game_variant *v, const void *pos, const char *s)
{
    if (strcmp(s, "draw") == 0)
        return 1;
    while (*s) {
        size_t n = strcspn(s, "+");
        int found = 0;
        for (int i = 0; i < v->nsides && !found; i++) {
            const char *name = v->ops->side_name(pos, i);
            found = strlen(name) == n && strncmp(name, s, n) == 0;
        }
        if (!found || (s[n] == '+' && s[n + 1] == 0))
            return 0;
        s += n + (s[n] == '+');
    }
    return 1;
}

int pgn_replay(const pgn_record *r, pgn_replayed *out, game_move *moves, int max, char *err,
               size_t errlen)
{
    lex x = { NULL, 0, 0, r->line, err, errlen };
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++)
        if (!pgn_tag_of(r, roster[i]))
            return fail(&x, r->line, "no %s tag (the Seven Tag Roster is Event, Site, Date, "
                                     "Round, White, Black, Result)", roster[i]);
    const char *result = pgn_tag_of(r, "Result");
    if (strcmp(result, r->result) != 0)
        return fail(&x, r->result_line, "the result token %s differs from the Result tag \"%s\"",
                    r->result, result);
    const char *term = pgn_tag_of(r, "Termination");
    if (term) {
        size_t k = 0, n = sizeof terminations / sizeof terminations[0];
        while (k < n && strcmp(term, terminations[k]) != 0)
            k++;
        if (k == n)
            return fail(&x, r->line, "Termination \"%s\" is none of PGN's words", term);
    }
    const char *variant = pgn_tag_of(r, "Variant");
    if (!variant)
        return fail(&x, r->line, "no Variant tag (`citadel variants` lists them)");
    const game_variant *v = game_variant_find(variant);
    if (!v)
        return fail(&x, r->line, "unknown variant \"%s\"", variant);
    const game_ops *ops = v->ops;
    out->v = v;
    const char *setup = pgn_tag_of(r, "SetUp"), *fen = pgn_tag_of(r, "FEN");
    game_error ge;
    if (setup && strcmp(setup, "0") != 0 && strcmp(setup, "1") != 0)
        return fail(&x, r->line, "SetUp must be \"0\" or \"1\", not \"%s\"", setup);
    int set_up = setup && strcmp(setup, "1") == 0;
    if (set_up != (fen != NULL))
        return fail(&x, r->line, set_up ? "SetUp \"1\" without a FEN tag"
                                        : "a FEN tag without SetUp \"1\"");
    if (fen) {
        if (ops->parse(v, out->start, fen, &ge) != 0)
            return fail(&x, r->line, "FEN: %s", ge.msg);
    } else if (v->hidden) {
        return 1;  /* the start of a game with hidden pieces, not shown (yet) */
    } else {
        ops->start(v, out->start, 0);
    }
    for (const game_option *o = v->options; o && o->name; o++) {
        const char *val = pgn_tag_of(r, o->name);
        int n;
        if (!val)
            continue;
        if (whole(val, &n) != 0)
            return fail(&x, r->line, "tag %s: \"%s\" is not a whole number", o->name, val);
        if (ops->set_option(out->start, o->name, n, &ge) != 0)
            return fail(&x, r->line, "tag %s: %s", o->name, ge.msg);
    }
    memcpy(out->pos, out->start, ops->pos_size);
    _Alignas(16) unsigned char undo[GAME_POS_MAX];
    for (int i = 0; i < r->nmoves; i++) {
        game_move m;
        game_result now = ops->result(out->pos);
        if (now.over)
            return fail(&x, r->lines[i], "move %d '%s' comes after the end of the game (%s)",
                        i + 1, r->moves[i], now.reason);
        if (ops->parse_move(out->pos, r->moves[i], &m, &ge) != 0)
            return fail(&x, r->lines[i], "move %d '%s': %s", i + 1, r->moves[i], ge.msg);
        if (moves && i < max)
            moves[i] = m;
        ops->make(out->pos, m, undo);
        out->nplies = i + 1;
    }
    game_result end = ops->result(out->pos);
    out->result = end;
    const char *outcome = pgn_tag_of(r, "Outcome");
    char want[128];
    if (v->nsides > 2) {
        if (strcmp(result, "*") != 0)
            return fail(&x, r->line, "a game of %d sides has the result \"*\", its outcome in "
                                     "the Outcome tag", v->nsides);
        if (outcome && !outcome_ok(v, out->pos, outcome))
            return fail(&x, r->line, "Outcome \"%s\" is neither \"draw\" nor sides joined by '+'",
                        outcome);
        if (end.over) {
            pgn_outcome(v, out->pos, end.winner, want, sizeof want);
            if (!outcome)
                return fail(&x, r->result_line, "the game is over (%s, %s) but has no Outcome "
                                                "tag", want, end.reason);
            if (strcmp(outcome, want) != 0)
                return fail(&x, r->result_line, "Outcome \"%s\", but the final position gives "
                                                "%s (%s)", outcome, want, end.reason);
        }
    } else if (end.over) {
        const char *token = pgn_result_token(v, out->pos, 1, end.winner);
        if (strcmp(token, result) != 0)
            return fail(&x, r->result_line, "the result is %s, but the final position gives %s "
                                            "(%s)", result, token, end.reason);
    }
    return 0;
}
