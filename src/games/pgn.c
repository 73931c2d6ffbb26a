/* pgn.c -- writes a game's record in PGN (pgn.h; the format is docs/pgn.md).
 *
 * The invariant it keeps: what it writes, pgn_read.c reads back to the
 * same game, and a strict reader of PGN's export format accepts: the
 * Seven Tag Roster first and in order, tag values escaped and on one line,
 * movetext in lines under 80 columns (a word longer than that alone on its
 * line), a move number before the first move of every round and before a
 * move that follows a comment, and the result token last, equal to the
 * Result tag. It learns everything about the game through game.h.
 */
#include "pgn.h"

#include <stdio.h>
#include <string.h>

#define COLUMNS 79          /* movetext lines stay within this */
#define VALUE_SHOWN 200     /* bytes of a tag value written, escapes included */

typedef struct out {
    char *buf;
    size_t size, len;
    int column;
} out;

static void put(out *o, const char *s, size_t n)
{
    if (o->len < o->size) {
        size_t room = o->size - o->len - 1;
        memcpy(o->buf + o->len, s, n < room ? n : room);
        o->buf[o->len + (n < room ? n : room)] = 0;
    }
    o->len += n;
}

static void puts_(out *o, const char *s)
{
    put(o, s, strlen(s));
}

/* A tag pair on its own line: the value, escaped ('"' and '\' behind a
 * backslash, control characters as spaces), cut to VALUE_SHOWN bytes and
 * never in the middle of an escape or of a UTF-8 character. */
static void tag(out *o, const char *name, const char *value)
{
    char v[VALUE_SHOWN + 1];
    size_t n = 0;
    for (const char *p = value; *p; p++) {
        unsigned char c = (unsigned char)*p;
        size_t need = c == '"' || c == '\\' ? 2 : 1;
        if (n + need > VALUE_SHOWN) {  /* cut: no UTF-8 character left half */
            size_t k = n;
            while (k > 0 && ((unsigned char)v[k - 1] & 0xC0) == 0x80)
                k--;
            if (k > 0 && ((unsigned char)v[k - 1] & 0x80)) {
                unsigned char lead = (unsigned char)v[k - 1];
                size_t len = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
                if (n - (k - 1) < len)
                    n = k - 1;
            }
            break;
        }
        if (need == 2)
            v[n++] = '\\';
        v[n++] = c < 0x20 || c == 0x7F ? ' ' : (char)c;
    }
    v[n] = 0;
    puts_(o, "[");
    puts_(o, name);
    puts_(o, " \"");
    puts_(o, v);
    puts_(o, "\"]\n");
}

/* One word of movetext, after a space or at the start of a new line. */
static void word(out *o, const char *w, size_t n)
{
    if (o->column > 0 && (size_t)o->column + 1 + n > COLUMNS) {
        puts_(o, "\n");
        o->column = 0;
    } else if (o->column > 0) {
        puts_(o, " ");
        o->column++;
    }
    put(o, w, n);
    o->column += (int)n;
}

/* A comment's words (text holds the braces), wrapped as words are; a
 * command in square brackets ([%clk 0:04:59]) stays on one line. */
static void comment(out *o, const char *text)
{
    while (*text) {
        size_t n = strcspn(text, " ");
        const char *open = memchr(text, '[', n);
        if (open && !memchr(open, ']', n - (size_t)(open - text))) {
            const char *close = strchr(open, ']');
            if (close)
                n = (size_t)(close - text) + strcspn(close, " ");
        }
        if (n)
            word(o, text, n);
        text += n;
        text += strspn(text, " ");
    }
}

/* A side's name as a tag name: "bottom" -> "Bottom", the rest as it is,
 * anything but letters, digits and '_' left out. */
static void side_tag(const game_ops *ops, const void *pos, int side, const char *suffix,
                     char *buf, size_t size)
{
    const char *name = ops->side_name(pos, side);
    size_t n = 0;
    for (; *name && n + 1 < size; name++) {
        char c = *name;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_'))
            continue;
        buf[n] = n == 0 && c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
        n++;
    }
    buf[n] = 0;
    snprintf(buf + n, size - n, "%s", suffix);
}

/* The side named `name` (case aside), or -1. */
static int side_named(const game_variant *v, const void *pos, const char *name)
{
    for (int i = 0; i < v->nsides; i++) {
        char t[PGN_NAME_MAX];
        side_tag(v->ops, pos, i, "", t, sizeof t);
        if (strcmp(t, name) == 0)
            return i;
    }
    return -1;
}

/* The sides whose players the Seven Tag Roster's White and Black name:
 * the sides called so where there are, else the first two. */
static void roster_sides(const game_variant *v, const void *pos, int *white, int *black)
{
    *white = side_named(v, pos, "White");
    *black = side_named(v, pos, "Black");
    if (*white < 0)
        *white = *black == 0 ? 1 : 0;
    if (*black < 0)
        *black = *white == 0 ? 1 : 0;
}

const char *pgn_termination(int over, const char *reason)
{
    if (!over)
        return "unterminated";
    if (!reason)
        return "normal";
    if (strcmp(reason, "time") == 0)
        return "time forfeit";
    if (strcmp(reason, "abandoned") == 0 || strcmp(reason, "aborted") == 0)
        return "abandoned";
    if (strcmp(reason, "illegal") == 0)
        return "rules infraction";
    return "normal";
}

const char *pgn_result_token(const game_variant *v, const void *pos, int over, int winner)
{
    if (!over || v->nsides != 2)
        return "*";
    if (winner < 0)
        return "1/2-1/2";
    return winner == v->ops->team_of(pos, 0) ? "1-0" : "0-1";
}

size_t pgn_outcome(const game_variant *v, const void *pos, int winner, char *buf, size_t size)
{
    if (winner < 0)
        return (size_t)snprintf(buf, size, "draw");
    size_t n = 0;
    if (size)
        buf[0] = 0;
    for (int i = 0; i < v->nsides; i++) {
        if (v->ops->team_of(pos, i) != winner)
            continue;
        int k = snprintf(buf + (n < size ? n : size), n < size ? size - n : 0, "%s%s",
                         n ? "+" : "", v->ops->side_name(pos, i));
        n += k > 0 ? (size_t)k : 0;
    }
    return n;
}

/* "h:mm:ss", with tenths when the clock is not on a whole second. */
static void clock_text(int64_t ms, char *buf, size_t size)
{
    if (ms < 0)
        ms = 0;
    long long s = (long long)(ms / 1000);
    int tenths = (int)(ms % 1000 / 100);
    if (ms % 1000)
        snprintf(buf, size, "%lld:%02lld:%02lld.%d", s / 3600, s / 60 % 60, s % 60, tenths);
    else
        snprintf(buf, size, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
}

/* The comment after a move: its clock, and what it showed every player,
 * braces and '%' (an escape at the start of a line) kept out of the
 * words. "" when there is nothing to say. */
static void move_comment(const pgn_game *g, int i, const char *shown, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    if (g->clock_ms) {
        char t[32];
        clock_text(g->clock_ms[i], t, sizeof t);
        n = (size_t)snprintf(buf, size, "{[%%clk %s]", t);
    }
    if (shown && shown[0] && n + 4 < size) {
        buf[n] = n ? ' ' : '{';
        n++;
        for (const char *c = shown; *c && n + 2 < size; c++)
            buf[n++] = *c == '{' || *c == '(' ? '(' : *c == '}' || *c == ')' ? ')'
                       : *c == '%' || (unsigned char)*c < 0x20 ? ' ' : *c;
        buf[n] = 0;
    }
    if (n && n + 1 < size) {
        buf[n++] = '}';
        buf[n] = 0;
    }
}

static void write_tags(out *o, const pgn_game *g, const char *result)
{
    const game_variant *v = g->v;
    const game_ops *ops = v->ops;
    char name[PGN_NAME_MAX + 8], val[GAME_POS_MAX * 2];
    tag(o, "Event", g->event ? g->event : "?");
    tag(o, "Site", g->site ? g->site : "?");
    tag(o, "Date", g->date ? g->date : "????.??.??");
    tag(o, "Round", g->round ? g->round : "?");
    int white, black;
    roster_sides(v, g->start, &white, &black);
    tag(o, "White", g->players[white] ? g->players[white] : "?");
    tag(o, "Black", g->players[black] ? g->players[black] : "?");
    tag(o, "Result", result);
    for (int i = 0; i < v->nsides; i++) {
        side_tag(ops, g->start, i, "", name, sizeof name);
        if (strcmp(name, "White") != 0 && strcmp(name, "Black") != 0 && name[0])
            tag(o, name, g->players[i] ? g->players[i] : "?");
    }
    tag(o, "Variant", v->name);
    if (g->over && !g->no_result && v->nsides > 2) {
        pgn_outcome(v, g->start, g->winner, val, sizeof val);
        tag(o, "Outcome", val);
    }
    if (g->base_ms <= 0)
        snprintf(val, sizeof val, "-");
    else if (g->base_ms % 1000 == 0 && g->inc_ms % 1000 == 0)
        snprintf(val, sizeof val, "%lld+%lld", (long long)(g->base_ms / 1000),
                 (long long)(g->inc_ms / 1000));
    else
        snprintf(val, sizeof val, "?");  /* PGN counts whole seconds */
    tag(o, "TimeControl", val);
    /* The start: always for a variant with hidden pieces (once shown),
     * otherwise where it is not the variant's standard one. */
    int shown = (!v->hidden || g->over) && !g->hide_start;
    if (shown) {
        _Alignas(16) unsigned char std[GAME_POS_MAX];
        char s2[GAME_POS_MAX * 2];
        ops->start(v, std, 0);
        ops->format(g->start, val, sizeof val);
        ops->format(std, s2, sizeof s2);
        if (v->hidden || strcmp(val, s2) != 0) {
            tag(o, "SetUp", "1");
            tag(o, "FEN", val);
        }
    }
    for (int i = 0; i < g->nsettings; i++)
        tag(o, g->settings[i].name, g->settings[i].value);
    tag(o, "Termination", pgn_termination(g->over, g->reason));
    if (g->over && g->reason)
        tag(o, "Reason", g->reason);
    if (shown && v->hidden && ops->setup && ops->setup->of) {
        for (int i = 0; i < v->nsides; i++) {
            size_t n = ops->setup->of(g->start, i, val, sizeof val);
            if (n == 0 || n >= sizeof val)
                continue;
            side_tag(ops, g->start, i, "Setup", name, sizeof name);
            tag(o, name, val);
        }
    }
    for (int i = 0; i < g->nextra; i++)
        tag(o, g->extra[i].name, g->extra[i].value);
    puts_(o, "\n");
}

size_t pgn_write(const pgn_game *g, char *buf, size_t size)
{
    out o = { buf, size, 0, 0 };
    if (size)
        buf[0] = 0;
    const game_variant *v = g->v;
    const game_ops *ops = v->ops;
    const char *result = pgn_result_token(v, g->start, g->over && !g->no_result, g->winner);
    write_tags(&o, g, result);

    _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
    memcpy(pos, g->start, ops->pos_size);
    int replaying = 1, number = 1, prev = -1, after_comment = 0;
    char token[48], note[512], shown[256];
    for (int i = 0; i < g->nmoves; i++) {
        game_move m = GAME_MOVE_NONE;
        game_error err;
        if (replaying && ops->parse_move(pos, g->moves[i], &m, &err) != 0)
            replaying = 0;
        int side = replaying ? ops->side_to_move(pos) : i % v->nsides;
        int new_round = i > 0 && side < prev;
        number += new_round;
        token[0] = 0;
        if (i == 0 || new_round)
            snprintf(token, sizeof token, "%d.%s", number, side == 0 || new_round ? "" : "..");
        else if (after_comment)
            snprintf(token, sizeof token, "%d...", number);
        if (token[0])
            word(&o, token, strlen(token));
        word(&o, g->moves[i], strlen(g->moves[i]));
        shown[0] = 0;
        if (replaying && ops->describe)
            ops->describe(pos, m, shown, sizeof shown);
        move_comment(g, i, shown, note, sizeof note);
        comment(&o, note);
        after_comment = note[0] != 0;
        if (replaying)
            ops->make(pos, m, undo);
        prev = side;
    }
    word(&o, result, strlen(result));
    puts_(&o, "\n\n");
    return o.len;
}
