/* position.c -- K7 position strings, keys and invariants.
 *
 * A position string has nine fields:
 *   <board> <to-move> <game-type> <king-result> <castling> <prisoners> <out> <round> <limit>
 * The board lists rows 17 down to 1 joined by '/', each row only its
 * existing squares west to east: a piece is its token ("wK"), a run of empty
 * squares a decimal count. The reader is strict and canonical: every
 * position has exactly one string (counts without leading zeros and never
 * two runs side by side, prisoner tokens in sorted order, kingdom lists in
 * turn order), and anything else is refused with one line naming what is
 * wrong, leaving the position it was given as it was.
 *
 * Beyond the syntax, a position must be one a game could reach: see check().
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/rng.h"
#include "keeps_moats.h"

static const char kingdom_chars[KM_NK + 1] = "wrbu";
static const char type_chars[KM_NTYPES + 1] = "?KQRBNPC";
static const char *const type_names[KM_NTYPES] = {
    "none", "King", "Queen", "Rook", "Bishop", "Knight", "Pawn", "Castle Pawn"
};
static const char *const game_type_names[3] = { "neighbors", "crossroad", "anarchy" };
static const char *const king_result_names[3] = { "gained", "lost", "frozen" };
/* K2: how many pieces of each type the four kingdoms bring, all told. */
static const int type_bound[KM_NTYPES] = { 0, 4, 4, 8, 8, 8, 28, 4 };

void km_token(uint8_t piece, char out[3])
{
    out[0] = kingdom_chars[KM_OWNER(piece) & 3];
    out[1] = type_chars[KM_TYPE(piece)];
    out[2] = 0;
}

uint8_t km_parse_token(const char *s)
{
    const char *k = s[0] ? strchr(kingdom_chars, s[0]) : NULL;
    const char *t = s[0] && s[1] && s[1] != '?' ? strchr(type_chars, s[1]) : NULL;
    if (!k || !t)
        return 0;
    return KM_PIECE(k - kingdom_chars, t - type_chars);
}

/* Half-width of a row (0-based): row r holds files 8-h .. 8+h. */
static int half_width(int r)
{
    return 8 - abs(r - 8);
}

/* Reads an unsigned decimal without leading zeros; -1 if none or > max. */
static long read_number(const char **p, long max)
{
    const char *s = *p;
    if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
        return -1;
    long v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        v = v * 10 + (*s - '0');
        if (v > max)
            return -1;
    }
    *p = s;
    return v;
}

/* A list of kingdoms in turn order, or "-": returns the bit set or -1. */
static int read_kingdoms(const char *s, size_t len)
{
    if (len == 1 && s[0] == '-')
        return 0;
    int set = 0, last = -1;
    for (size_t i = 0; i < len; i++) {
        const char *k = s[i] ? strchr(kingdom_chars, s[i]) : NULL;
        if (!k || k - kingdom_chars <= last)
            return -1;
        last = (int)(k - kingdom_chars);
        set |= 1 << last;
    }
    return len ? set : -1;
}

static int read_board(km_pos *pos, const char *s, size_t len, game_error *err)
{
    const km_geom *g = km_geom_get();
    const char *p = s, *end = s + len;
    for (int r = 16; r >= 0; r--) {
        int h = half_width(r), f = 8 - h, last_run = 0;
        while (p < end && *p != '/') {
            if (*p >= '0' && *p <= '9') {
                if (last_run)
                    return game_fail(err, "two runs of empty squares side by side in row %d", r + 1);
                long n = read_number(&p, 17);
                if (n <= 0)
                    return game_fail(err, "bad run of empty squares in row %d", r + 1);
                f += (int)n;
                last_run = 1;
            } else {
                uint8_t piece = p + 1 < end ? km_parse_token(p) : 0;
                if (!piece)
                    return game_fail(err, "unknown piece '%.2s' in row %d of the board", p, r + 1);
                if (f <= 8 + h)
                    pos->sq[g->at[f][r]] = piece;
                f++;
                p += 2;
                last_run = 0;
            }
            if (f > 8 + h + 1)
                return game_fail(err, "row %d of the board has more than its %d squares", r + 1,
                            2 * h + 1);
        }
        if (f != 8 + h + 1)
            return game_fail(err, "row %d of the board has %d squares, not %d", r + 1, f - (8 - h),
                        2 * h + 1);
        if (r > 0) {
            if (p >= end)
                return game_fail(err, "the board has %d rows, not 17", 17 - r);
            p++;
        }
    }
    if (p != end)
        return game_fail(err, "the board has more than 17 rows");
    return 0;
}

static int read_prisoners(km_pos *pos, const char *s, size_t len, game_error *err)
{
    const char *p = s, *end = s + len;
    for (int h = 0; h < KM_NK; h++) {
        const char *q = p;
        while (q < end && *q != ',')
            q++;
        if ((q == end) != (h == KM_NK - 1))
            return game_fail(err, "the prisoners field needs four lists separated by commas");
        if (q - p == 1 && *p == '-') {
            p = q + 1;
            continue;
        }
        if (q == p || (q - p) % 2)
            return game_fail(err, "the prisoners of %s are not a list of tokens or '-'",
                         km_side_name(h));
        const char *prev = NULL;
        for (; p < q; p += 2) {
            uint8_t piece = km_parse_token(p);
            if (!piece)
                return game_fail(err, "unknown piece '%.2s' among the prisoners", p);
            if (prev && (prev[0] > p[0] || (prev[0] == p[0] && prev[1] > p[1])))
                return game_fail(err, "the prisoners of %s are not in sorted order", km_side_name(h));
            if (KM_OWNER(piece) == h)
                return game_fail(err, "%s cannot hold its own piece %.2s", km_side_name(h), p);
            if (pos->pris[h][KM_OWNER(piece)][KM_TYPE(piece)]++ >= 64)
                return game_fail(err, "too many prisoners");
            prev = p;
        }
        p = q + 1;
    }
    return 0;
}

/* The invariants of a position a game can reach (K2-K6). */
static int check(const km_pos *pos, game_error *err)
{
    const km_geom *g = km_geom_get();
    if (pos->game_type > KM_ANARCHY || pos->king_result > KM_FROZEN || pos->stm >= KM_NK ||
        pos->castle > 15 || pos->out > 15 || pos->round < 1 || pos->limit < 0)
        return game_fail(err, "a setting is out of range");
    if (pos->out >> pos->stm & 1)
        return game_fail(err, "%s is to move but is out", km_side_name(pos->stm));
    int count[KM_NTYPES] = { 0 }, kings[KM_NK] = { 0 }, pieces[KM_NK] = { 0 };
    for (int s = 0; s < KM_NSQ; s++) {
        uint8_t p = pos->sq[s];
        if (!p)
            continue;
        int o = KM_OWNER(p), t = KM_TYPE(p);
        if (o >= KM_NK || t == 0)
            return game_fail(err, "a square holds no valid piece");
        count[t]++;
        pieces[o]++;
        kings[o] += t == KM_KING;
        if (t == KM_PAWN && g->zone[s] == KM_KEEP && g->realm[s] == o) {
            char name[4];
            km_square_name(s, name);
            return game_fail(err, "a Pawn never stands in its own Keep (%s)", name);
        }
    }
    for (int h = 0; h < KM_NK; h++)
        for (int o = 0; o < KM_NK; o++)
            for (int t = 0; t < KM_NTYPES; t++) {
                if (pos->pris[h][o][t] && (h == o || t == 0))
                    return game_fail(err, "an impossible prisoner");
                count[t] += pos->pris[h][o][t];
            }
    for (int t = 1; t < KM_NTYPES; t++)
        if (count[t] > type_bound[t])
            return game_fail(err, "more than %d pieces of type %c on the board and in prison",
                        type_bound[t], type_chars[t]);
    for (int k = 0; k < KM_NK; k++) {
        int out = pos->out >> k & 1;
        if (!out && kings[k] != 1)
            return game_fail(err, "%s is in the game with %d Kings, not 1", km_side_name(k), kings[k]);
        if (out && kings[k])
            return game_fail(err, "%s is out but has a King on the board", km_side_name(k));
        if (out && pieces[k] && pos->king_result != KM_FROZEN)
            return game_fail(err, "%s is out but has pieces on the board (only Frozen keeps them)",
                        km_side_name(k));
        if ((pos->castle >> k & 1) && (out || pos->sq[g->throne[k]] != KM_PIECE(k, KM_KING) ||
                                       pos->sq[g->castle_sq[k]] != KM_PIECE(k, KM_CASTLE)))
            return game_fail(err, "%s may castle only with its King on the Throne and its Castle "
                             "Pawn behind it", km_side_name(k));
    }
    return 0;
}

int km_parse(km_pos *out, const char *text, game_error *err)
{
    const char *field[10];
    size_t flen[10];
    int nf = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p || *p == '\n' || *p == '\r' || *p == '\t')
            break;
        if (nf == 9)
            return game_fail(err, "more than nine fields: '%.30s'", p);
        field[nf] = p;
        while (*p && *p != ' ' && *p != '\n' && *p != '\r' && *p != '\t')
            p++;
        flen[nf] = (size_t)(p - field[nf]);
        nf++;
    }
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
    if (*p)
        return game_fail(err, "unexpected text inside the position: '%.30s'", p);
    if (nf != 9)
        return game_fail(err, "a position has nine fields (board, to-move, game type, King result, "
                         "castling, prisoners, out, round, limit), not %d", nf);
    km_pos pos;
    memset(&pos, 0, sizeof pos);
    if (read_board(&pos, field[0], flen[0], err) != 0)
        return -1;
    const char *k = flen[1] == 1 ? strchr(kingdom_chars, field[1][0]) : NULL;
    if (!k)
        return game_fail(err, "the kingdom to move must be w, r, b or u");
    pos.stm = (uint8_t)(k - kingdom_chars);
    int gt = -1, kr = -1;
    for (int i = 0; i < 3; i++) {
        if (flen[2] == strlen(game_type_names[i]) && !memcmp(field[2], game_type_names[i], flen[2]))
            gt = i;
        if (flen[3] == strlen(king_result_names[i]) &&
            !memcmp(field[3], king_result_names[i], flen[3]))
            kr = i;
    }
    if (gt < 0)
        return game_fail(err, "the game type must be neighbors, crossroad or anarchy");
    if (kr < 0)
        return game_fail(err, "the King result must be gained, lost or frozen");
    pos.game_type = (uint8_t)gt;
    pos.king_result = (uint8_t)kr;
    int castle = read_kingdoms(field[4], flen[4]);
    if (castle < 0)
        return game_fail(err, "castling must be kingdoms in turn order (such as wrbu) or '-'");
    pos.castle = (uint8_t)castle;
    if (read_prisoners(&pos, field[5], flen[5], err) != 0)
        return -1;
    int outs = read_kingdoms(field[6], flen[6]);
    if (outs < 0)
        return game_fail(err, "the kingdoms out must be in turn order (such as rb) or '-'");
    pos.out = (uint8_t)outs;
    const char *q = field[7];
    long round = read_number(&q, 1000000);
    if (round < 1 || q != field[7] + flen[7])
        return game_fail(err, "the round must be a number from 1 to 1000000");
    q = field[8];
    long limit = read_number(&q, 100000);
    if (limit < 0 || q != field[8] + flen[8])
        return game_fail(err, "the limit must be a number of rounds from 0 (none) to 100000");
    pos.round = (int32_t)round;
    pos.limit = (int32_t)limit;
    if (check(&pos, err) != 0)
        return -1;
    if (!km_over(&pos) && km_count(&pos) > KM_MAX_MOVES)
        return game_fail(err, "the position has more than %d moves", KM_MAX_MOVES);
    *out = pos;
    return 0;
}

static size_t put_kingdoms(char *buf, int set)
{
    size_t n = 0;
    for (int k = 0; k < KM_NK; k++)
        if (set >> k & 1)
            buf[n++] = kingdom_chars[k];
    if (!n)
        buf[n++] = '-';
    buf[n] = 0;
    return n;
}

int km_kinds(game_piece_kind *out, int max)
{
    int n = 0;
    for (int t = KM_KING; t < KM_NTYPES && n < max; t++)
        out[n++] = (game_piece_kind){ type_chars[t], type_names[t], 0, 0 };
    return n;
}

/* One area's entry: a square, the area's name, its kingdom. */
static void area_at(game_area_at *a, int sq, const char *name, int kingdom)
{
    char square[4];
    km_square_name(sq, square);
    memcpy(a->square, square, sizeof square);
    snprintf(a->area, sizeof a->area, "%s", name);
    a->side = kingdom;
}

int km_areas(const km_pos *pos, game_area_at *out, int max)
{
    (void)pos;
    const km_geom *g = km_geom_get();
    int n = 0;
    for (int k = 0; k < KM_NK; k++) {
        for (int zone = KM_MOAT; zone <= KM_KEEP; zone++)
            for (int s = 0; s < KM_NSQ && n < max; s++)
                if (g->zone[s] == zone && g->realm[s] == k)
                    area_at(&out[n++], s, zone == KM_MOAT ? "moat" : "keep", k);
        if (n < max)
            area_at(&out[n++], g->throne[k], "throne", k);
        if (n < max)
            area_at(&out[n++], g->castle_sq[k], "castle", k);
    }
    return n;
}

int km_squares(const km_pos *pos, game_piece_at *out, int max)
{
    const km_geom *g = km_geom_get();
    int n = 0;
    for (int r = 16; r >= 0; r--) {
        int h = half_width(r);
        for (int f = 8 - h; f <= 8 + h && n < max; f++, n++) {
            uint8_t p = pos->sq[g->at[f][r]];
            km_square_name(g->at[f][r], out[n].square);
            out[n].piece[0] = 0;
            if (p)
                km_token(p, out[n].piece);
        }
    }
    return n;
}

size_t km_format(const km_pos *pos, char *buf, size_t size)
{
    const km_geom *g = km_geom_get();
    char tmp[1024];
    size_t n = 0;
    for (int r = 16; r >= 0; r--) {
        int h = half_width(r), run = 0;
        for (int f = 8 - h; f <= 8 + h; f++) {
            uint8_t p = pos->sq[g->at[f][r]];
            if (!p) {
                run++;
                continue;
            }
            if (run)
                n += (size_t)snprintf(tmp + n, sizeof tmp - n, "%d", run);
            run = 0;
            km_token(p, tmp + n);
            n += 2;
        }
        if (run)
            n += (size_t)snprintf(tmp + n, sizeof tmp - n, "%d", run);
        if (r > 0)
            tmp[n++] = '/';
    }
    tmp[n++] = ' ';
    tmp[n++] = kingdom_chars[pos->stm & 3];
    n += (size_t)snprintf(tmp + n, sizeof tmp - n, " %s %s ", game_type_names[pos->game_type % 3],
                          king_result_names[pos->king_result % 3]);
    n += put_kingdoms(tmp + n, pos->castle);
    tmp[n++] = ' ';
    /* Prisoners: each list's tokens in sorted order (kingdom letter, then
     * type letter, in ASCII). */
    for (int h = 0; h < KM_NK; h++) {
        size_t start = n;
        for (int oc = 'a'; oc <= 'z'; oc++) {
            const char *o = strchr(kingdom_chars, oc);
            if (!o)
                continue;
            for (int tc = 'A'; tc <= 'Z'; tc++) {
                const char *t = strchr(type_chars + 1, tc);
                if (!t)
                    continue;
                for (int c = pos->pris[h][o - kingdom_chars][t - type_chars]; c > 0; c--) {
                    tmp[n++] = (char)oc;
                    tmp[n++] = (char)tc;
                }
            }
        }
        if (n == start)
            tmp[n++] = '-';
        tmp[n++] = h < KM_NK - 1 ? ',' : ' ';
    }
    n += put_kingdoms(tmp + n, pos->out);
    tmp[n] = 0;
    return (size_t)snprintf(buf, size, "%s %d %d", tmp, (int)pos->round, (int)pos->limit);
}

size_t km_render(const km_pos *pos, char *buf, size_t size)
{
    const km_geom *g = km_geom_get();
    char out[2048];
    size_t n = 0;
    for (int r = 16; r >= 0; r--) {
        n += (size_t)snprintf(out + n, sizeof out - n, "%3d ", r + 1);
        for (int f = 0; f < 17; f++) {
            int s = g->at[f][r];
            char tok[3] = "  ";
            if (s >= 0 && pos->sq[s])
                km_token(pos->sq[s], tok);
            else if (s >= 0)
                memcpy(tok, g->zone[s] == KM_BATTLE ? " ." : g->zone[s] == KM_MOAT ? " ~" : " #",
                       3);
            n += (size_t)snprintf(out + n, sizeof out - n, " %s", tok);
        }
        n += (size_t)snprintf(out + n, sizeof out - n, "\n");
    }
    n += (size_t)snprintf(out + n, sizeof out - n, "    ");
    for (int f = 0; f < 17; f++)
        n += (size_t)snprintf(out + n, sizeof out - n, "  %c", 'a' + f);
    return (size_t)snprintf(buf, size, "%s\n", out);
}

uint64_t km_hash(const km_pos *pos)
{
    const km_geom *g = km_geom_get();
    uint64_t key = g->zstm[pos->stm & 3] ^ g->zcastle[pos->castle & 15] ^ g->zout[pos->out & 15] ^
                   g->zsettings[pos->game_type % 3][pos->king_result % 3];
    for (int s = 0; s < KM_NSQ; s++)
        if (pos->sq[s])
            key ^= g->zob[s][pos->sq[s] & 31];
    for (int h = 0; h < KM_NK; h++)
        for (int o = 0; o < KM_NK; o++)
            for (int t = 1; t < KM_NTYPES; t++)
                if (pos->pris[h][o][t])
                    key ^= g->zpris[h][o][t] * pos->pris[h][o][t];
    /* Near the move limit the rounds left change what a position is worth. */
    if (pos->limit > 0) {
        int left = pos->limit - pos->round;
        if (left >= 0 && left < 16)
            key ^= rng_mix((uint64_t)left + 1);
    }
    return key;
}

int km_pos_ok(const km_pos *pos)
{
    for (int i = 0; i < 3; i++)
        if (pos->pad[i])
            return 0;
    return check(pos, NULL) == 0;
}
