/* ref_stratego.h -- a deliberately naive second Stratego rules engine, used
 * only by the tests as an independent oracle for move generation and perft.
 *
 * It shares nothing with src/games/stratego but the input: it copies an
 * st_pos into a plain 10x10 grid of (side, kind) and then generates moves by
 * walking coordinates, with its own lake test, combat table, two-square
 * bookkeeping and game ends, straight from rules/stratego.md.
 */
#ifndef CITADEL_REF_STRATEGO_H
#define CITADEL_REF_STRATEGO_H

#include <string.h>

#include "../../src/games/stratego/stratego.h"

enum { REF_NONE = -1 };

typedef struct ref_pos {
    int side[10][10];   /* -1 empty, 0 Red, 1 Blue */
    int kind[10][10];   /* 1 Spy .. 10 Marshal, 11 Bomb, 12 Flag */
    int stm, ply, limit;
    int last_from[2], last_to[2], run[2];  /* r*10+f, run length */
} ref_pos;

static int ref_lake(int r, int f)
{
    return (r == 4 || r == 5) && (f == 2 || f == 3 || f == 6 || f == 7);
}

static void ref_from_st(const st_pos *p, ref_pos *q)
{
    memset(q, 0, sizeof *q);
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 10; f++) {
            uint8_t v = p->sq[(r + 1) * 12 + f + 1];
            q->side[r][f] = (v == 0 || v == 0xFF) ? -1 : (v >> 4) & 1;
            q->kind[r][f] = q->side[r][f] < 0 ? 0 : v & 15;
        }
    q->stm = p->stm;
    q->ply = p->ply;
    q->limit = p->move_limit;
    for (int s = 0; s < 2; s++) {
        q->run[s] = p->two_count[s];
        q->last_from[s] = p->two_count[s] ? (p->two_from[s] / 12 - 1) * 10 + p->two_from[s] % 12 - 1 : -1;
        q->last_to[s] = p->two_count[s] ? (p->two_to[s] / 12 - 1) * 10 + p->two_to[s] % 12 - 1 : -1;
    }
}

typedef struct ref_move {
    int from, to;  /* r*10+f */
} ref_move;

static int ref_gen(const ref_pos *q, ref_move *out)
{
    static const int dr[4] = { 1, -1, 0, 0 }, df[4] = { 0, 0, 1, -1 };
    int n = 0, s = q->stm;
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 10; f++) {
            if (q->side[r][f] != s || q->kind[r][f] >= 11)
                continue;
            int reach = q->kind[r][f] == 2 ? 9 : 1;
            for (int d = 0; d < 4; d++)
                for (int k = 1; k <= reach; k++) {
                    int r2 = r + dr[d] * k, f2 = f + df[d] * k;
                    if (r2 < 0 || r2 > 9 || f2 < 0 || f2 > 9 || ref_lake(r2, f2))
                        break;
                    if (q->side[r2][f2] == s)
                        break;
                    int from = r * 10 + f, to = r2 * 10 + f2;
                    int banned = q->run[s] == 3 && from == q->last_to[s] && to == q->last_from[s];
                    if (!banned)
                        out[n++] = (ref_move){ from, to };
                    if (q->side[r2][f2] >= 0)
                        break;
                }
        }
    return n;
}

/* +1 attacker wins, -1 defender wins, 0 both die. */
static int ref_fight(int a, int d)
{
    if (d == 12)
        return 1;
    if (d == 11)
        return a == 3 ? 1 : -1;
    if (a == 1 && d == 10)
        return 1;
    return a > d ? 1 : a < d ? -1 : 0;
}

static int ref_has_flag(const ref_pos *q, int s)
{
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 10; f++)
            if (q->side[r][f] == s && q->kind[r][f] == 12)
                return 1;
    return 0;
}

/* 1 if the game is over (flag gone, move limit, or no move). */
static int ref_over(const ref_pos *q)
{
    if (!ref_has_flag(q, 0) || !ref_has_flag(q, 1))
        return 1;
    if (q->limit && q->ply >= q->limit)
        return 1;
    ref_move list[400];
    return ref_gen(q, list) == 0;
}

static void ref_make(ref_pos *q, ref_move m)
{
    int s = q->stm;
    int fr = m.from / 10, ff = m.from % 10, tr = m.to / 10, tf = m.to % 10;
    int a = q->kind[fr][ff];
    q->side[fr][ff] = -1;
    q->kind[fr][ff] = 0;
    if (q->side[tr][tf] < 0) {
        q->side[tr][tf] = s;
        q->kind[tr][tf] = a;
    } else {
        int o = ref_fight(a, q->kind[tr][tf]);
        if (o > 0) {
            q->side[tr][tf] = s;
            q->kind[tr][tf] = a;
        } else if (o == 0) {
            q->side[tr][tf] = -1;
            q->kind[tr][tf] = 0;
        }
    }
    if (q->run[s] > 0 && m.from == q->last_to[s] && m.to == q->last_from[s])
        q->run[s]++;
    else
        q->run[s] = 1;
    q->last_from[s] = m.from;
    q->last_to[s] = m.to;
    q->ply++;
    q->stm = 1 - s;
}

static unsigned long long ref_perft(const ref_pos *q, int depth)
{
    if (depth == 0)
        return 1;
    if (ref_over(q))
        return 0;
    ref_move list[400];
    int n = ref_gen(q, list);
    unsigned long long total = 0;
    for (int i = 0; i < n; i++) {
        ref_pos c = *q;
        ref_make(&c, list[i]);
        total += ref_perft(&c, depth - 1);
    }
    return total;
}

#endif
