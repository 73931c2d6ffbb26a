/* move.c -- combat (S5), making moves, and move text.
 *
 * make() order: the mover is marked as moved (and as a known Scout if it
 * went more than one square); onto an empty square it simply moves; onto an
 * enemy both pieces are revealed and S5 decides who stays. Then the mover's
 * two-square state (S6) is brought up to date, the ply counted and the turn
 * passed. A move is written from-square to-square ("a4a5", "b2b7"), attacks
 * alike; combat outcomes are not part of the move. Perft (bulk-counted,
 * copy-make) is here too, as it makes moves.
 *
 * Layering: the top of the engine's moves; it calls movegen.c (st_gen,
 * the two-square rule) and rules.c (st_result, st_legal), neither of
 * which calls back.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "stratego.h"

#ifdef CITADEL_DEBUG
#define POS_CHECK(pos) assert(st_pos_ok(pos))
#else
#define POS_CHECK(pos) ((void)0)
#endif

int st_combat(int a, int d)
{
    if (a == ST_UNKNOWN || d == ST_UNKNOWN)
        return ST_BOTH_DIE;  /* only in a view, where make() is not meant to be used */
    if (d == ST_FLAG)
        return ST_ATTACKER_WINS;
    if (d == ST_BOMB)
        return a == ST_MINER ? ST_ATTACKER_WINS : ST_DEFENDER_WINS;
    if (a == ST_SPY && d == ST_MARSHAL)
        return ST_ATTACKER_WINS;
    if (a == d)
        return ST_BOTH_DIE;
    return a > d ? ST_ATTACKER_WINS : ST_DEFENDER_WINS;
}

/* Counts piece v as removed by combat; a piece of unknown rank (make on a
 * view, which bots do not do) leaves its side's losses unknown. */
static void lose(st_pos *pos, uint8_t v)
{
    int side = ST_SIDE(v), kind = ST_KIND(v);
    if (kind == ST_UNKNOWN)
        pos->lost_known &= (uint8_t)~(1u << side);
    else
        pos->lost[side][kind]++;
}

void st_make(st_pos *pos, game_move m)
{
    const int us = pos->stm;
    const int from = ST_FROM(m), to = ST_TO(m);
    uint8_t a = pos->sq[from], d = pos->sq[to];
    int dist = from - to;
    if (dist < 0)
        dist = -dist;
    a |= ST_MOVED;
    if (dist != 1 && dist != 12)
        a |= ST_SCOUTED;
    pos->sq[from] = ST_EMPTY;
    if (d == ST_EMPTY) {
        pos->sq[to] = a;
    } else {
        switch (st_combat(ST_KIND(a), ST_KIND(d))) {
        case ST_ATTACKER_WINS:
            pos->sq[to] = (uint8_t)(a | ST_REVEALED);
            lose(pos, d);
            break;
        case ST_DEFENDER_WINS:
            pos->sq[to] = (uint8_t)(d | ST_REVEALED);
            lose(pos, a);
            break;
        default:
            pos->sq[to] = ST_EMPTY;
            lose(pos, a);
            lose(pos, d);
            break;
        }
    }
    if (pos->two_count[us] && from == pos->two_to[us] && to == pos->two_from[us])
        pos->two_count[us]++;
    else
        pos->two_count[us] = 1;
    pos->two_from[us] = (uint8_t)from;
    pos->two_to[us] = (uint8_t)to;
    pos->ply++;
    pos->stm = (uint8_t)(us ^ 1);
    POS_CHECK(pos);
}

__attribute__((format(printf, 2, 3))) static int fail(game_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int st_parse_move(const st_pos *pos, const char *text, game_move *m, game_error *err)
{
    int l1, l2;
    int from = st_parse_square(text, &l1);
    int sep = from >= 0 && (text[l1] == '-' || text[l1] == 'x');
    int to = from < 0 ? -1 : st_parse_square(text + l1 + sep, &l2);
    if (from < 0 || to < 0 || text[l1 + sep + l2] != 0)
        return fail(err, "malformed move '%.20s' (write it as a4a5; lakes are no squares)", text);
    game_result r = st_result(pos);
    if (r.over)
        return fail(err, "illegal move %s: the game is over (%s %s)", text,
                    r.winner < 0 ? "draw" : r.winner == ST_RED ? "red" : "blue", r.reason);
    uint8_t v = pos->sq[from];
    char fs[4];
    st_square_name(from, fs);
    if (!ST_IS_PIECE(v) || ST_SIDE(v) != pos->stm)
        return fail(err, "illegal move %s: no %s piece on %s", text,
                    pos->stm == ST_RED ? "Red" : "Blue", fs);
    if (ST_KIND(v) == ST_BOMB || ST_KIND(v) == ST_FLAG)
        return fail(err, "illegal move %s: a %s never moves", text,
                    ST_KIND(v) == ST_BOMB ? "Bomb" : "Flag");
    if (st_two_square_banned(pos, from, to))
        return fail(err, "illegal move %s: the two-square rule forbids a fourth move between "
                         "the same two squares", text);
    game_move list[ST_MAX_MOVES];
    int n = st_gen(pos, list);
    for (int i = 0; i < n; i++) {
        if (ST_FROM(list[i]) == from && ST_TO(list[i]) == to) {
            *m = list[i];
            return 0;
        }
    }
    return fail(err, "illegal move %s", text);
}

size_t st_format_move(const st_pos *pos, game_move m, char *buf, size_t size)
{
    (void)pos;
    char a[4], b[4];
    st_square_name(ST_FROM(m), a);
    st_square_name(ST_TO(m), b);
    return (size_t)snprintf(buf, size, "%s%s", a, b);
}

uint64_t st_perft(const st_pos *pos, int depth)
{
    if (depth <= 0)
        return 1;
    game_move list[ST_MAX_MOVES];
    int n = st_legal(pos, list);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        st_pos child = *pos;
        st_make(&child, list[i]);
        nodes += st_perft(&child, depth - 1);
    }
    return nodes;
}
