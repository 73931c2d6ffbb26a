/* ref_rampart.h -- an independent, deliberately simple reference
 * implementation of the Rampart rules (../shared/rules/rampart.md, R1-R10),
 * written from the rules text alone, for cross-checking the real engine.
 *
 * Header-only: every function is static, so a test file includes it as is.
 *
 * Board: a mailbox of chars, w*h, row-major; square = row * w + file, row 0
 * is Bottom's back row (R1 "row 1"), file 0 is the a-file. Bottom pieces are
 * 'Q' 'N' 'K' 'B', Top pieces 'q' 'n' 'k' 'b', an empty square is '.'.
 *
 * Nothing here is clever: moves are found by walking squares and
 * directions one step at a time, and every rule is checked literally.
 */
#ifndef CITADEL_REF_RAMPART_H
#define CITADEL_REF_RAMPART_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REF_MAX_SQ 64
#define REF_MAX_MOVES 1024

enum { REF_BOTTOM = 0, REF_TOP = 1 };

typedef struct ref_pos {
    int w, h;
    char sq[REF_MAX_SQ];
    int stm;       /* REF_BOTTOM or REF_TOP */
    int fullmove;  /* starts at 1, grows after each Top move (R9) */
    int limit;     /* move limit in full moves, 0 = none (R7.3) */
} ref_pos;

typedef struct ref_move {
    int from, to;
} ref_move;

typedef struct ref_result {
    int over;
    int winner;          /* 0 Bottom, 1 Top, -1 draw (when over) */
    const char *reason;  /* "" while ongoing */
} ref_result;

/* The 8 directions as (file step, row step); even indices are orthogonal. */
static const int ref_df[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };
static const int ref_dr[8] = { 1, 1, 0, -1, -1, -1, 0, 1 };

/* -1 for an empty square, else the side owning the piece. */
static inline int ref_side(char c)
{
    switch (c) {
    case 'Q': case 'N': case 'K': case 'B': return REF_BOTTOM;
    case 'q': case 'n': case 'k': case 'b': return REF_TOP;
    default: return -1;
    }
}

/* The piece letter in upper case ('.' stays '.'). */
static inline char ref_kind(char c)
{
    switch (c) {
    case 'q': return 'Q';
    case 'n': return 'N';
    case 'k': return 'K';
    case 'b': return 'B';
    default: return c;
    }
}

/* R4: the kind each kind takes directly; 0 for none (the Blocker). */
static inline char ref_prey(char kind)
{
    switch (kind) {
    case 'Q': return 'N';
    case 'N': return 'K';
    case 'K': return 'Q';
    default: return 0;
    }
}

static inline int ref_on_board(const ref_pos *p, int file, int row)
{
    return file >= 0 && file < p->w && row >= 0 && row < p->h;
}

static inline char ref_at(const ref_pos *p, int file, int row)
{
    return p->sq[row * p->w + file];
}

/* R9 position string. Only well-formed input needs handling; returns 0 on
 * success, -1 on the few malformations that are cheap to notice. The move
 * limit is set to 0 (none); the caller changes it. */
static inline int ref_parse(ref_pos *p, const char *text)
{
    char grid[9][8];   /* grid[i] is the i-th row written, i.e. row h-1-i */
    int nrows = 0, width = 0, w = -1;
    const char *s = text;

    memset(p, 0, sizeof *p);
    for (;; s++) {
        char c = *s;
        if (c == '/' || c == ' ') {
            if (w < 0)
                w = width;
            else if (width != w)
                return -1;
            nrows++;
            width = 0;
            if (c == ' ')
                break;
            if (nrows >= 9)
                return -1;
        } else if (c >= '1' && c <= '9') {
            for (int k = 0; k < c - '0'; k++) {
                if (width >= 8)
                    return -1;
                grid[nrows][width++] = '.';
            }
        } else if (ref_side(c) >= 0) {
            if (width >= 8)
                return -1;
            grid[nrows][width++] = c;
        } else {
            return -1;
        }
    }
    if (w < 1 || w * nrows > REF_MAX_SQ)
        return -1;
    p->w = w;
    p->h = nrows;
    for (int i = 0; i < nrows; i++)
        for (int f = 0; f < w; f++)
            p->sq[(nrows - 1 - i) * w + f] = grid[i][f];

    s++;  /* past the space */
    if (*s == 'b')
        p->stm = REF_BOTTOM;
    else if (*s == 't')
        p->stm = REF_TOP;
    else
        return -1;
    s++;
    if (*s != ' ')
        return -1;
    p->fullmove = atoi(s + 1);
    if (p->fullmove < 1)
        return -1;
    p->limit = 0;
    return 0;
}

/* R9 position string into buf (100 bytes are always enough). */
static inline void ref_format(const ref_pos *p, char *buf, size_t size)
{
    char tmp[128];
    size_t n = 0;
    for (int row = p->h - 1; row >= 0; row--) {
        int run = 0;
        for (int f = 0; f < p->w; f++) {
            char c = ref_at(p, f, row);
            if (c == '.') {
                run++;
                continue;
            }
            if (run)
                tmp[n++] = (char)('0' + run);
            run = 0;
            tmp[n++] = c;
        }
        if (run)
            tmp[n++] = (char)('0' + run);
        if (row > 0)
            tmp[n++] = '/';
    }
    tmp[n++] = ' ';
    tmp[n++] = p->stm == REF_BOTTOM ? 'b' : 't';
    tmp[n++] = ' ';
    {
        char digits[12];
        int nd = 0;
        unsigned v = (unsigned)p->fullmove;
        do {
            digits[nd++] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        while (nd > 0)
            tmp[n++] = digits[--nd];
    }
    tmp[n] = 0;
    if (size > 0) {
        size_t k = n < size - 1 ? n : size - 1;
        memcpy(buf, tmp, k);
        buf[k] = 0;
    }
}

/* Square name, "a1" .. "h9". */
static inline void ref_square_name(const ref_pos *p, int sq, char out[3])
{
    out[0] = (char)('a' + sq % p->w);
    out[1] = (char)('1' + sq / p->w);
    out[2] = 0;
}

/* R9 move text "c4c5". */
static inline void ref_move_name(const ref_pos *p, ref_move m, char out[5])
{
    ref_square_name(p, m.from, out);
    ref_square_name(p, m.to, out + 2);
}

/* Every move of the side to move by R3/R4, ignoring whether the game is
 * over. Returns the count. */
static inline int ref_gen(const ref_pos *p, ref_move *out)
{
    int n = 0;
    for (int row = 0; row < p->h; row++) {
        for (int f = 0; f < p->w; f++) {
            char c = ref_at(p, f, row);
            if (ref_side(c) != p->stm)
                continue;
            int from = row * p->w + f;
            char kind = ref_kind(c);
            for (int d = 0; d < 8; d++) {
                int orth = (d % 2 == 0);
                int maxdist;
                if (kind == 'Q')
                    maxdist = 3;
                else if (kind == 'N')
                    maxdist = orth ? 2 : 0;
                else if (kind == 'K')
                    maxdist = 1;
                else /* Blocker */
                    maxdist = orth ? 1 : 0;
                for (int dist = 1; dist <= maxdist; dist++) {
                    int tf = f + ref_df[d] * dist, tr = row + ref_dr[d] * dist;
                    if (!ref_on_board(p, tf, tr))
                        break;
                    char t = ref_at(p, tf, tr);
                    int to = tr * p->w + tf;
                    if (t == '.') {
                        out[n].from = from;
                        out[n].to = to;
                        n++;
                        continue;
                    }
                    /* Occupied: a direct capture if the piece is an enemy
                     * of the kind this piece takes (R4). */
                    if (ref_side(t) != p->stm && ref_prey(kind) == ref_kind(t)) {
                        out[n].from = from;
                        out[n].to = to;
                        n++;
                    }
                    /* Only the Knight jumps (R3); everything else stops. */
                    if (kind != 'N')
                        break;
                }
            }
        }
    }
    return n;
}

/* Index of a kind in count tables: Q N K B. */
static inline int ref_kind_index(char kind)
{
    return kind == 'Q' ? 0 : kind == 'N' ? 1 : kind == 'K' ? 2 : 3;
}

/* How many pieces of each kind (Q N K B) each side has. */
static inline void ref_counts(const ref_pos *p, int cnt[2][4])
{
    memset(cnt, 0, sizeof(int[2][4]));
    for (int i = 0; i < p->w * p->h; i++) {
        int s = ref_side(p->sq[i]);
        if (s >= 0)
            cnt[s][ref_kind_index(ref_kind(p->sq[i]))]++;
    }
}

/* Game material of a side (R6): Queens, Knights and Kings count 1. */
static inline int ref_material_of(const int cnt[2][4], int side)
{
    return cnt[side][0] + cnt[side][1] + cnt[side][2];
}

static inline int ref_material(const ref_pos *p, int side)
{
    int cnt[2][4];
    ref_counts(p, cnt);
    return ref_material_of(cnt, side);
}

/* The most pieces `side` can still take directly: the other side's pieces
 * whose kind `side` has an attacker for (R4, R7.2). */
static inline int ref_takeable(const int cnt[2][4], int side)
{
    static const char kinds[3] = { 'Q', 'N', 'K' };
    int n = 0;
    for (int i = 0; i < 3; i++)
        if (cnt[side][ref_kind_index(kinds[i])] > 0)
            n += cnt[1 - side][ref_kind_index(ref_prey(kinds[i]))];
    return n;
}

/* Adjudication by material (R6): more wins, equal draws. */
static inline ref_result ref_adjudicate(const int cnt[2][4], const char *reason)
{
    ref_result r;
    int mb = ref_material_of(cnt, REF_BOTTOM), mt = ref_material_of(cnt, REF_TOP);
    r.over = 1;
    r.winner = mb > mt ? REF_BOTTOM : mt > mb ? REF_TOP : -1;
    r.reason = reason;
    return r;
}

/* R7, in the ruling's order; nmoves is what ref_gen returns for p. */
static inline ref_result ref_result_given_moves(const ref_pos *p, int nmoves)
{
    ref_result r = { 0, -1, "" };
    int cnt[2][4], mat[2];

    ref_counts(p, cnt);
    mat[0] = ref_material_of(cnt, REF_BOTTOM);
    mat[1] = ref_material_of(cnt, REF_TOP);

    /* 1: no direct capture relationship for either side, by types present. */
    if (ref_takeable(cnt, REF_BOTTOM) == 0 && ref_takeable(cnt, REF_TOP) == 0)
        return ref_adjudicate(cnt, "no-captures");

    /* 2: the side behind cannot even get level by taking everything it
     * has an attacker for. */
    if (mat[0] != mat[1]) {
        int lo = mat[0] < mat[1] ? REF_BOTTOM : REF_TOP;
        int hi = 1 - lo;
        if (mat[hi] - ref_takeable(cnt, lo) > mat[lo])
            return ref_adjudicate(cnt, "insufficient");
    }

    /* 3: the move limit: Top's move completing full move N makes the
     * full-move number N + 1. */
    if (p->limit > 0 && p->fullmove > p->limit)
        return ref_adjudicate(cnt, "move-limit");

    /* 4: no legal move for the side to move. */
    if (nmoves == 0)
        return ref_adjudicate(cnt, "no-moves");

    return r;
}

/* R7: the result of a position. */
static inline ref_result ref_get_result(const ref_pos *p)
{
    ref_move moves[REF_MAX_MOVES];
    return ref_result_given_moves(p, ref_gen(p, moves));
}

/* Legal moves: none once the game is over. */
static inline int ref_legal(const ref_pos *p, ref_move *out)
{
    int n = ref_gen(p, out);
    return ref_result_given_moves(p, n).over ? 0 : n;
}

/* Plays a move (R3/R4/R5); returns how many enemy pieces it removed. */
static inline int ref_make(ref_pos *p, ref_move m)
{
    int mover = p->stm, removed = 0;
    int gone[REF_MAX_SQ], ngone = 0;

    /* Move, and a direct capture by moving onto the piece. */
    if (p->sq[m.to] != '.')
        removed++;
    p->sq[m.to] = p->sq[m.from];
    p->sq[m.from] = '.';

    /* Enclosure: every enemy piece whose four orthogonal neighbours all
     * exist and all hold the mover's pieces; found first, removed together. */
    for (int row = 0; row < p->h; row++) {
        for (int f = 0; f < p->w; f++) {
            if (ref_side(ref_at(p, f, row)) != 1 - mover)
                continue;
            int enclosed = 1;
            for (int d = 0; d < 8; d += 2) {
                int nf = f + ref_df[d], nr = row + ref_dr[d];
                if (!ref_on_board(p, nf, nr) || ref_side(ref_at(p, nf, nr)) != mover) {
                    enclosed = 0;
                    break;
                }
            }
            if (enclosed)
                gone[ngone++] = row * p->w + f;
        }
    }
    for (int i = 0; i < ngone; i++)
        p->sq[gone[i]] = '.';
    removed += ngone;

    if (mover == REF_TOP)
        p->fullmove++;
    p->stm = 1 - mover;
    return removed;
}

/* Leaves of the legal move tree `depth` plies deep. */
static inline unsigned long long ref_perft(const ref_pos *p, int depth)
{
    ref_move moves[REF_MAX_MOVES];
    unsigned long long total = 0;
    if (depth == 0)
        return 1;
    int n = ref_legal(p, moves);
    if (depth == 1)
        return (unsigned long long)n;
    for (int i = 0; i < n; i++) {
        ref_pos q = *p;
        ref_make(&q, moves[i]);
        total += ref_perft(&q, depth - 1);
    }
    return total;
}

#endif
