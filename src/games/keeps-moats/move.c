/* move.c -- playing moves (K4-K6), resignations, their K7 text, and perft.
 *
 * km_make plays a move in this order: the move itself (a capture makes the
 * taken piece the mover's prisoner; a King taken puts its kingdom out and
 * applies the Captured King Result at once), then K5 for a Pawn that
 * arrived in an enemy Keep (the Pawn leaves the board, then the release or
 * the assassination), then castling rights, then the turn passes to the
 * next kingdom still in, and the round grows each time the turn passes
 * White's place in the order.
 *
 * A resignation (KM_RESIGN | kingdom, written `resign:<letter>`) is a move
 * no list holds: any kingdom still in may play it, its turn or not. It puts
 * that kingdom out as a King taken by nobody would (docs/keeps-moats.md):
 * the King leaves the board, nobody's prisoner; the other pieces follow the
 * Captured King Result, and under Gained, with no captor to pass to, they
 * leave the board as under Lost. The turn passes on only if it was that
 * kingdom's. Every move, resignations included, keeps km_pos_ok.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "keeps_moats.h"

static const char kingdom_letters[KM_NK + 1] = "wrbu";

/* A kingdom's King was taken by `by` (-1: nobody, a resignation): K6. */
static void knock_out(km_pos *pos, int k, int by)
{
    pos->out = (uint8_t)(pos->out | 1u << k);
    pos->castle = (uint8_t)(pos->castle & ~(1u << k));
    if (pos->king_result == KM_FROZEN)
        return;
    for (int s = 0; s < KM_NSQ; s++) {
        uint8_t p = pos->sq[s];
        if (p && KM_OWNER(p) == k)
            pos->sq[s] = pos->king_result == KM_GAINED && by >= 0 ? KM_PIECE(by, KM_TYPE(p)) : 0;
    }
}

static void take(km_pos *pos, int by, int s)
{
    uint8_t q = pos->sq[s];
    if (!q)
        return;
    pos->pris[by][KM_OWNER(q)][KM_TYPE(q)]++;
    pos->sq[s] = 0;
    if (KM_TYPE(q) == KM_KING)
        knock_out(pos, KM_OWNER(q), by);
}

/* A move touching the Throne or the Castle Pawn square of k ends k's
 * right to castle (K4). */
static void touch(km_pos *pos, const km_geom *g, int s)
{
    for (int k = 0; k < KM_NK; k++)
        if (g->throne[k] == s || g->castle_sq[k] == s)
            pos->castle = (uint8_t)(pos->castle & ~(1u << k));
}

static void next_turn(km_pos *pos)
{
    int s = pos->stm;
    for (int i = 0; i < KM_NK; i++) {
        s = (s + 1) % KM_NK;
        if (s == KM_WHITE)
            pos->round++;
        if (!(pos->out >> s & 1))
            break;
    }
    pos->stm = (uint8_t)s;
}

/* Kingdom k gives up: its King leaves the board, then K6 as for a King
 * taken by nobody. */
static void resign(km_pos *pos, int k)
{
    for (int s = 0; s < KM_NSQ; s++)
        if (pos->sq[s] == KM_PIECE(k, KM_KING))
            pos->sq[s] = 0;
    knock_out(pos, k, -1);
    if (pos->stm == k)
        next_turn(pos);
}

int km_resign(const km_pos *pos, int k, game_move *m, game_error *err)
{
    if (k < 0 || k >= KM_NK)
        return game_fail(err, "there is no kingdom %d to resign", k);
    if (km_over(pos)) {
        char why[64];
        km_result_text(pos, why, sizeof why);
        return game_fail(err, "%s cannot resign: the game is over (%s)", km_side_name(k), why);
    }
    if (pos->out >> k & 1)
        return game_fail(err, "%s cannot resign: it is out of the game already", km_side_name(k));
    *m = KM_RESIGN | (game_move)k;
    return 0;
}

void km_make(km_pos *pos, game_move m)
{
    if (m == KM_PASS) {
        next_turn(pos);
        return;
    }
    if (KM_IS_RESIGN(m)) {
        resign(pos, KM_RESIGNER(m));
        return;
    }
    const km_geom *g = km_geom_get();
    int from = KM_FROM(m), to = KM_TO(m);
    uint8_t p = pos->sq[from];
    int k = KM_OWNER(p), t = KM_TYPE(p);
    if (t == KM_KING && from == g->throne[k] && to == g->castle_sq[k] &&
        pos->sq[to] == KM_PIECE(k, KM_CASTLE)) {
        pos->sq[to] = p;
        pos->sq[from] = KM_PIECE(k, KM_CASTLE);
    } else {
        take(pos, k, to);
        pos->sq[from] = 0;
        pos->sq[to] = p;
        if ((t == KM_PAWN || t == KM_CASTLE) && g->zone[to] == KM_KEEP &&
            !km_friends(pos->game_type, k, g->realm[to])) {
            int e = g->realm[to];
            pos->sq[to] = 0;
            if (KM_KIND(m) == KM_RELEASE) {
                uint8_t r = (uint8_t)KM_ARG(m);
                pos->pris[e][KM_OWNER(r)][KM_TYPE(r)]--;
                pos->sq[to] = r;
            } else if (KM_KIND(m) == KM_ASSASSINATE) {
                take(pos, k, KM_ARG(m));
                touch(pos, g, KM_ARG(m));
            }
        }
    }
    touch(pos, g, from);
    touch(pos, g, to);
    next_turn(pos);
}

size_t km_format_move(const km_pos *pos, game_move m, char *buf, size_t size)
{
    (void)pos;
    if (m == KM_PASS)
        return (size_t)snprintf(buf, size, "pass");
    if (KM_IS_RESIGN(m))
        return (size_t)snprintf(buf, size, "resign:%c", kingdom_letters[KM_RESIGNER(m)]);
    char a[4], b[4];
    km_square_name(KM_FROM(m), a);
    km_square_name(KM_TO(m), b);
    if (KM_KIND(m) == KM_RELEASE) {
        char tok[3];
        km_token((uint8_t)KM_ARG(m), tok);
        return (size_t)snprintf(buf, size, "%s%s=r:%s", a, b, tok);
    }
    if (KM_KIND(m) == KM_ASSASSINATE) {
        char c[4];
        km_square_name(KM_ARG(m), c);
        return (size_t)snprintf(buf, size, "%s%s=a:%s", a, b, c);
    }
    return (size_t)snprintf(buf, size, "%s%s", a, b);
}

/* Splits a leading square name off s: returns its length (2 or 3), or 0. */
static size_t square_len(const char *s)
{
    if (s[0] < 'a' || s[0] > 'q' || s[1] < '1' || s[1] > '9')
        return 0;
    if (s[1] == '1' && s[2] >= '0' && s[2] <= '7')
        return 3;
    return 2;
}

int km_parse_move(const km_pos *pos, const char *text, game_move *out, game_error *err)
{
    game_move list[KM_MAX_MOVES];
    int n = km_legal(pos, list);
    if (n == 0) {
        char why[64];
        km_result_text(pos, why, sizeof why);
        return game_fail(err, "illegal move %.20s: the game is over (%s)", text, why);
    }
    if (strcmp(text, "pass") == 0) {
        if (n == 1 && list[0] == KM_PASS) {
            *out = KM_PASS;
            return 0;
        }
        return game_fail(err, "illegal move pass: %s has moves to make", km_side_name(pos->stm));
    }
    if (strncmp(text, "resign:", 7) == 0) {
        const char *k = text[7] ? strchr(kingdom_letters, text[7]) : NULL;
        if (!k || text[8])
            return game_fail(err, "bad move '%.20s': a resignation is resign:<w, r, b or u>", text);
        return km_resign(pos, (int)(k - kingdom_letters), out, err);
    }
    /* from, to, and an optional K5 choice. */
    const char *p = text;
    size_t la = square_len(p);
    int from = la ? km_parse_square(p, la) : -1;
    if (from < 0)
        return game_fail(err, "bad move '%.20s': expected a square such as f4", text);
    p += la;
    size_t lb = square_len(p);
    int to = lb ? km_parse_square(p, lb) : -1;
    if (to < 0)
        return game_fail(err, "bad move '%.20s': expected a second square", text);
    p += lb;
    int kind = KM_PLAIN, arg = 0;
    if (*p) {
        if (p[0] != '=' || (p[1] != 'r' && p[1] != 'a') || p[2] != ':')
            return game_fail(err, "bad move '%.20s': a choice is =r:<piece> or =a:<square>", text);
        if (p[1] == 'r') {
            uint8_t piece = km_parse_token(p + 3);
            if (!piece || p[5])
                return game_fail(err, "bad move '%.20s': =r: needs a piece such as wR", text);
            kind = KM_RELEASE;
            arg = piece;
        } else {
            size_t lc = square_len(p + 3);
            int u = lc ? km_parse_square(p + 3, lc) : -1;
            if (u < 0 || p[3 + lc])
                return game_fail(err, "bad move '%.20s': =a: needs a square", text);
            kind = KM_ASSASSINATE;
            arg = u;
        }
    }
    game_move m = KM_MOVE(from, to, kind, arg);
    int same_squares = 0;
    for (int i = 0; i < n; i++) {
        if (list[i] == m) {
            *out = m;
            return 0;
        }
        if (list[i] != KM_PASS && KM_FROM(list[i]) == from && KM_TO(list[i]) == to)
            same_squares++;
    }
    uint8_t piece = pos->sq[from];
    if (!piece || KM_OWNER(piece) != pos->stm)
        return game_fail(err, "illegal move %.20s: no %s piece on the first square", text,
                    km_side_name(pos->stm));
    if (same_squares && kind == KM_PLAIN)
        return game_fail(err, "illegal move %.20s: a Pawn entering an enemy Keep must choose "
                         "=r:<piece> or =a:<square>", text);
    if (same_squares)
        return game_fail(err, "illegal move %.20s: that release or assassination is not possible",
                    text);
    return game_fail(err, "illegal move %.20s", text);
}

static uint64_t perft_rec(const km_pos *pos, int depth)
{
    game_move list[KM_MAX_MOVES];
    int n = km_legal(pos, list);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        km_pos c = *pos;
        km_make(&c, list[i]);
        nodes += perft_rec(&c, depth - 1);
    }
    return nodes;
}

uint64_t km_perft(const km_pos *pos, int depth)
{
    return depth <= 0 ? 1 : perft_rec(pos, depth);
}
