/* position.c -- R9 position strings, square names, keys and invariants.
 *
 * A position string is "<rows> <side> <fullmove>": rows from the top (row 9
 * on a 9-row board) down, joined by '/'; in a row, files from a upwards,
 * pieces QNKB (Bottom) and qnkb (Top), one digit for a run of empty squares.
 * The reader is strict: anything it does not understand is an error that
 * names what is wrong, and the position it was given stays as it was.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../base/bits.h"
#include "rampart.h"

static const char piece_chars[2][RP_NTYPES] = { { 'Q', 'N', 'K', 'B' }, { 'q', 'n', 'k', 'b' } };
static const char *const piece_names[RP_NTYPES] = { "Queen", "Knight", "King", "Blocker" };

__attribute__((format(printf, 2, 3))) static void set_err(game_error *err, const char *fmt,
                                                           ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

static int piece_of(char c, int *side, int *type)
{
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < RP_NTYPES; t++)
            if (piece_chars[s][t] == c) {
                *side = s;
                *type = t;
                return 1;
            }
    return 0;
}

uint64_t rp_compute_key(const rp_pos *pos)
{
    uint64_t key = pos->stm == RP_TOP ? pos->g->zside : 0;
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < RP_NTYPES; t++)
            for (uint64_t b = pos->pc[s][t]; b;)
                key ^= pos->g->zob[s][t][bits_pop(&b)];
    return key;
}

int rp_parse(rp_pos *out, const char *text, int want_w, int want_h, game_error *err)
{
    uint64_t pc[2][RP_NTYPES] = { { 0 } };
    /* Pass 1: the board field's shape. Rows are stored top first. */
    const char *p = text;
    while (*p == ' ')
        p++;
    const char *board = p;
    int rows = 0, w = -1, width = 0, last_digit = 0;
    for (; *p && *p != ' '; p++) {
        char c = *p;
        int s, t;
        if (c == '/') {
            if (w < 0)
                w = width;
            else if (width != w) {
                set_err(err, "row %d of the board field has %d squares, not %d",
                        rows + 1, width, w);
                return -1;
            }
            rows++;
            width = 0;
            last_digit = 0;
        } else if (c >= '1' && c <= '9') {
            if (last_digit) {
                set_err(err, "two digits in a row in the board field");
                return -1;
            }
            width += c - '0';
            last_digit = 1;
        } else if (piece_of(c, &s, &t)) {
            width++;
            last_digit = 0;
        } else {
            set_err(err, "unexpected character '%c' in the board field", c);
            return -1;
        }
        if (width > RP_MAX_W) {
            set_err(err, "a row is wider than %d files", RP_MAX_W);
            return -1;
        }
    }
    if (p == board) {
        set_err(err, "empty position");
        return -1;
    }
    if (w < 0)
        w = width;
    else if (width != w) {
        set_err(err, "the last row of the board field has %d squares, not %d", width, w);
        return -1;
    }
    rows++;
    int h = rows;
    const rp_geom *g = rp_geom_get(w, h);
    if (!g) {
        set_err(err, "unsupported board size %dx%d (3-8 files, 3-9 rows, at most 64 squares)",
                w, h);
        return -1;
    }
    if ((want_w && want_w != w) || (want_h && want_h != h)) {
        set_err(err, "the board is %dx%d but this variant is played on %dx%d", w, h, want_w,
                want_h);
        return -1;
    }
    /* Pass 2: place the pieces. */
    int r = h - 1, f = 0;
    for (const char *q = board; q < p; q++) {
        int s, t;
        if (*q == '/') {
            r--;
            f = 0;
        } else if (*q >= '1' && *q <= '9') {
            f += *q - '0';
        } else if (piece_of(*q, &s, &t)) {
            pc[s][t] |= bits_sq(r * w + f);
            f++;
        }
    }
    /* Side to move. */
    while (*p == ' ')
        p++;
    int stm;
    if (p[0] == 'b' && (p[1] == ' ' || p[1] == 0))
        stm = RP_BOTTOM;
    else if (p[0] == 't' && (p[1] == ' ' || p[1] == 0))
        stm = RP_TOP;
    else {
        set_err(err, "the side to move must be 'b' or 't'");
        return -1;
    }
    p++;
    while (*p == ' ')
        p++;
    /* Full-move number. */
    long fullmove = 0;
    if (!(*p >= '0' && *p <= '9')) {
        set_err(err, "missing full-move number after the side to move");
        return -1;
    }
    for (; *p >= '0' && *p <= '9'; p++) {
        fullmove = fullmove * 10 + (*p - '0');
        if (fullmove > 1000000) {
            set_err(err, "full-move number too large (at most 1000000)");
            return -1;
        }
    }
    if (fullmove < 1) {
        set_err(err, "the full-move number starts at 1");
        return -1;
    }
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
    if (*p) {
        set_err(err, "unexpected text after the full-move number: '%.40s'", p);
        return -1;
    }

    rp_pos pos;
    memset(&pos, 0, sizeof pos);
    pos.g = g;
    memcpy(pos.pc, pc, sizeof pc);
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < RP_NTYPES; t++)
            pos.occ[s] |= pc[s][t];
    pos.stm = (uint8_t)stm;
    pos.fullmove = (int32_t)fullmove;
    pos.move_limit = 0;
    pos.key = rp_compute_key(&pos);
    pos.status = rp_material_status(&pos);
    *out = pos;
    return 0;
}

int rp_kinds(game_piece_kind *out, int max)
{
    int n = 0;
    for (int t = 0; t < RP_NTYPES && n < max; t++)
        out[n++] = (game_piece_kind){ piece_chars[0][t], piece_names[t], 0, 0 };
    return n;
}

int rp_squares(const rp_pos *pos, game_piece_at *out, int max)
{
    const rp_geom *g = pos->g;
    int n = 0;
    for (int r = g->h - 1; r >= 0; r--)
        for (int f = 0; f < g->w && n < max; f++, n++) {
            uint64_t b = bits_sq(r * g->w + f);
            rp_square_name(g, r * g->w + f, out[n].square);
            out[n].piece[0] = 0;
            for (int s = 0; s < 2; s++)
                for (int t = 0; t < RP_NTYPES; t++)
                    if (pos->pc[s][t] & b) {
                        out[n].piece[0] = piece_chars[s][t];
                        out[n].piece[1] = 0;
                    }
        }
    return n;
}

size_t rp_format(const rp_pos *pos, char *buf, size_t size)
{
    char tmp[128];
    size_t n = 0;
    const rp_geom *g = pos->g;
    for (int r = g->h - 1; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < g->w; f++) {
            uint64_t b = bits_sq(r * g->w + f);
            char c = 0;
            for (int s = 0; s < 2; s++)
                for (int t = 0; t < RP_NTYPES; t++)
                    if (pos->pc[s][t] & b)
                        c = piece_chars[s][t];
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                tmp[n++] = (char)('0' + empty);
            empty = 0;
            tmp[n++] = c;
        }
        if (empty)
            tmp[n++] = (char)('0' + empty);
        if (r > 0)
            tmp[n++] = '/';
    }
    tmp[n] = 0;
    return (size_t)snprintf(buf, size, "%s %c %d", tmp, pos->stm == RP_BOTTOM ? 'b' : 't',
                            (int)pos->fullmove);
}

size_t rp_render(const rp_pos *pos, char *buf, size_t size)
{
    const rp_geom *g = pos->g;
    char out[2048];
    size_t n = 0;
    char line[64];
    size_t ln = 0;
    ln += (size_t)snprintf(line, sizeof line, "   +");
    for (int f = 0; f < g->w; f++)
        ln += (size_t)snprintf(line + ln, sizeof line - ln, "---+");
    for (int r = g->h - 1; r >= 0; r--) {
        n += (size_t)snprintf(out + n, sizeof out - n, "%s\n %d |", line, r + 1);
        for (int f = 0; f < g->w; f++) {
            uint64_t b = bits_sq(r * g->w + f);
            char c = ' ';
            for (int s = 0; s < 2; s++)
                for (int t = 0; t < RP_NTYPES; t++)
                    if (pos->pc[s][t] & b)
                        c = piece_chars[s][t];
            n += (size_t)snprintf(out + n, sizeof out - n, " %c |", c);
        }
        n += (size_t)snprintf(out + n, sizeof out - n, "\n");
    }
    n += (size_t)snprintf(out + n, sizeof out - n, "%s\n    ", line);
    for (int f = 0; f < g->w; f++)
        n += (size_t)snprintf(out + n, sizeof out - n, " %c  ", 'a' + f);
    return (size_t)snprintf(buf, size, "%s\n", out);
}

int rp_parse_square(const rp_geom *g, const char *s)
{
    int f = s[0] - 'a', r = s[1] - '1';
    if (f < 0 || f >= g->w || r < 0 || r >= g->h)
        return -1;
    return r * g->w + f;
}

void rp_square_name(const rp_geom *g, int sq, char out[3])
{
    out[0] = (char)('a' + sq % g->w);
    out[1] = (char)('1' + sq / g->w);
    out[2] = 0;
}

int rp_pos_ok(const rp_pos *pos)
{
    const rp_geom *g = pos->g;
    if (!g || g != rp_geom_get(g->w, g->h))
        return 0;
    if (pos->stm > 1 || pos->fullmove < 1 || pos->move_limit < 0)
        return 0;
    uint64_t all = 0;
    for (int s = 0; s < 2; s++) {
        uint64_t occ = 0;
        for (int t = 0; t < RP_NTYPES; t++) {
            if (pos->pc[s][t] & all)  /* two pieces on one square */
                return 0;
            if (pos->pc[s][t] & ~g->board)
                return 0;
            all |= pos->pc[s][t];
            occ |= pos->pc[s][t];
        }
        if (occ != pos->occ[s])
            return 0;
    }
    return pos->key == rp_compute_key(pos) && pos->status == rp_material_status(pos);
}
