/* ref_keeps_moats.h -- a second, deliberately plain Keeps & Moats move
 * generator for cross-checking the engine (K1-K6).
 *
 * It shares no code and no tables with src/games/keeps-moats: the board is a
 * 17x17 grid addressed by (file, row), territory is computed from the
 * coordinates each time, moves are written as text, and a position is read
 * from its K7 string with a reader of its own that trusts its input. Slow
 * and obvious on purpose.
 */
#ifndef REF_KEEPS_MOATS_H
#define REF_KEEPS_MOATS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ref_km {
    signed char who[17][17];   /* owner 0-3, or -1 for empty */
    char what[17][17];         /* 'K' 'Q' 'R' 'B' 'N' 'P' 'C' */
    int pris[4][4][128];       /* [holder][owner][type letter] */
    int stm, gt, kr, castle, out, round, limit;  /* gt: 0 nb 1 cr 2 an; kr: 0 g 1 l 2 f */
} ref_km;

typedef struct ref_move {
    char text[24];
    int f0, r0, f1, r1;
    char kind;                 /* 0, 'r' release, 'a' assassinate */
    int ro, rt;                /* released owner and type letter */
    int af, ar;                /* assassinated square */
} ref_move;

#define REF_KM_MAX 1024

static const char ref_k_letters[] = "wrbu";

static int ref_on(int f, int r)
{
    return f >= 0 && f < 17 && r >= 0 && r < 17 && abs(f - 8) + abs(r - 8) <= 8;
}

/* The kingdom whose territory (f, r) is, or -1 on the Battlefield. */
static int ref_realm(int f, int r)
{
    if (r <= 3)
        return 0;
    if (r >= 13)
        return 2;
    if (f <= 3)
        return 1;
    if (f >= 13)
        return 3;
    return -1;
}

static int ref_is_moat(int f, int r)
{
    return (r == 3 && f >= 5 && f <= 11) || (r == 13 && f >= 5 && f <= 11) ||
           (f == 3 && r >= 5 && r <= 11) || (f == 13 && r >= 5 && r <= 11);
}

static int ref_is_keep(int f, int r)
{
    return ref_realm(f, r) >= 0 && !ref_is_moat(f, r);
}

static int ref_side(int gt, int k)
{
    if (gt == 0)
        return (k == 0 || k == 3) ? 10 : 11;
    if (gt == 1)
        return (k == 0 || k == 2) ? 20 : 21;
    return k;
}

static int ref_enemy(const ref_km *p, int a, int b)
{
    return ref_side(p->gt, a) != ref_side(p->gt, b);
}

static int ref_takeable(const ref_km *p, int k, int f, int r)
{
    int o = p->who[f][r];
    return o >= 0 && ref_enemy(p, k, o) && !((p->out >> o) & 1);
}

static void ref_sq(int f, int r, char out[4])
{
    snprintf(out, 4, "%c%d", 'a' + (f & 31), (r & 31) + 1);
}

static int ref_read(ref_km *p, const char *text)
{
    memset(p, 0, sizeof *p);
    memset(p->who, -1, sizeof p->who);
    char board[600], stm[4], gt[16], kr[16], castle[8], pris[300], out[8];
    if (sscanf(text, "%599s %3s %15s %15s %7s %299s %7s %d %d", board, stm, gt, kr, castle, pris,
               out, &p->round, &p->limit) != 9)
        return -1;
    int r = 16, f = -1;
    for (const char *c = board; *c; c++) {
        if (f < 0)
            for (f = 0; !ref_on(f, r); f++)
                ;
        if (*c == '/') {
            r--;
            f = -1;
        } else if (*c >= '0' && *c <= '9') {
            f += (int)strtol(c, (char **)&c, 10);
            c--;
        } else {
            p->who[f][r] = (signed char)(strchr(ref_k_letters, c[0]) - ref_k_letters);
            p->what[f][r] = c[1];
            f++;
            c++;
        }
    }
    p->stm = (int)(strchr(ref_k_letters, stm[0]) - ref_k_letters);
    p->gt = gt[0] == 'n' ? 0 : gt[0] == 'c' ? 1 : 2;
    p->kr = kr[0] == 'g' ? 0 : kr[0] == 'l' ? 1 : 2;
    for (const char *c = castle; *c && *c != '-'; c++)
        p->castle |= 1 << (strchr(ref_k_letters, *c) - ref_k_letters);
    for (const char *c = out; *c && *c != '-'; c++)
        p->out |= 1 << (strchr(ref_k_letters, *c) - ref_k_letters);
    int h = 0;
    for (const char *c = pris; *c; c++) {
        if (*c == ',')
            h++;
        else if (*c != '-') {
            p->pris[h][strchr(ref_k_letters, c[0]) - ref_k_letters][(int)c[1]]++;
            c++;
        }
    }
    return 0;
}

static int ref_over(const ref_km *p)
{
    int side = -100;
    for (int k = 0; k < 4; k++) {
        if ((p->out >> k) & 1)
            continue;
        if (side == -100)
            side = ref_side(p->gt, k);
        else if (side != ref_side(p->gt, k))
            return p->limit > 0 && p->round > p->limit;
    }
    return 1;
}

typedef struct ref_list {
    ref_move m[REF_KM_MAX];
    int n;
} ref_list;

static void ref_add(ref_list *l, int f0, int r0, int f1, int r1, char kind, int a, int b)
{
    ref_move *m = &l->m[l->n++];
    memset(m, 0, sizeof *m);
    m->f0 = f0;
    m->r0 = r0;
    m->f1 = f1;
    m->r1 = r1;
    m->kind = kind;
    char s0[8], s1[8], s2[8];
    ref_sq(f0, r0, s0);
    ref_sq(f1, r1, s1);
    if (kind == 'r') {
        m->ro = a;
        m->rt = b;
        snprintf(m->text, sizeof m->text, "%.3s%.3s=r:%c%c", s0, s1, ref_k_letters[a & 3], b);
    } else if (kind == 'a') {
        m->af = a;
        m->ar = b;
        ref_sq(a, b, s2);
        snprintf(m->text, sizeof m->text, "%.3s%.3s=a:%.3s", s0, s1, s2);
    } else {
        snprintf(m->text, sizeof m->text, "%.3s%.3s", s0, s1);
    }
}

/* A Pawn (or Castle Pawn) of k moves from (f0, r0) to (f1, r1). */
static void ref_pawn_to(const ref_km *p, ref_list *l, int k, int f0, int r0, int f1, int r1)
{
    int e = ref_realm(f1, r1);
    if (!ref_is_keep(f1, r1) || !ref_enemy(p, k, e)) {
        ref_add(l, f0, r0, f1, r1, 0, 0, 0);
        return;
    }
    int before = l->n;
    int gone = (p->who[f1][r1] >= 0 && p->what[f1][r1] == 'K') ? p->who[f1][r1] : -1;
    for (int o = 0; o < 4; o++) {
        if (ref_enemy(p, k, o) || ((p->out >> o) & 1))
            continue;
        const char *types = "QRBN";
        for (int i = 0; i < 4; i++)
            if (p->pris[e][o][(int)types[i]] > 0)
                ref_add(l, f0, r0, f1, r1, 'r', o, types[i]);
    }
    for (int f = 0; f < 17; f++)
        for (int r = 0; r < 17; r++) {
            if (!ref_on(f, r) || !ref_is_keep(f, r) || ref_realm(f, r) != e)
                continue;
            if (f == f1 && r == r1)
                continue;
            char t = p->what[f][r];
            if (p->who[f][r] < 0 || !strchr("QRBN", t) || p->who[f][r] == gone)
                continue;
            if (ref_takeable(p, k, f, r))
                ref_add(l, f0, r0, f1, r1, 'a', f, r);
        }
    if (l->n == before)
        ref_add(l, f0, r0, f1, r1, 0, 0, 0);
}

static void ref_gen(const ref_km *p, ref_list *l)
{
    static const int df[8] = { 0, 1, 0, -1, 1, 1, -1, -1 }, dr[8] = { 1, 0, -1, 0, 1, -1, -1, 1 };
    static const int nf[8] = { 1, 2, 2, 1, -1, -2, -2, -1 }, nr[8] = { 2, 1, -1, -2, -2, -1, 1, 2 };
    l->n = 0;
    int k = p->stm;
    for (int f = 0; f < 17; f++)
        for (int r = 0; r < 17; r++) {
            if (!ref_on(f, r) || p->who[f][r] != k)
                continue;
            char t = p->what[f][r];
            if (t == 'K' || t == 'N') {
                for (int i = 0; i < 8; i++) {
                    int tf = f + (t == 'K' ? df[i] : nf[i]), tr = r + (t == 'K' ? dr[i] : nr[i]);
                    if (ref_on(tf, tr) && (p->who[tf][tr] < 0 || ref_takeable(p, k, tf, tr)))
                        ref_add(l, f, r, tf, tr, 0, 0, 0);
                }
            } else if (t == 'Q' || t == 'R' || t == 'B') {
                int from_realm = ref_realm(f, r);
                int on_moat = ref_is_moat(f, r);
                for (int i = t == 'B' ? 4 : 0; i < (t == 'R' ? 4 : 8); i++) {
                    int tf = f, tr = r;
                    for (;;) {
                        tf += df[i];
                        tr += dr[i];
                        if (!ref_on(tf, tr))
                            break;
                        int e = ref_realm(tf, tr);
                        int hostile = e >= 0 && ref_enemy(p, k, e);
                        if (hostile && ref_is_keep(tf, tr) && from_realm != e)
                            break;
                        if (p->who[tf][tr] >= 0) {
                            if (ref_takeable(p, k, tf, tr))
                                ref_add(l, f, r, tf, tr, 0, 0, 0);
                            break;
                        }
                        ref_add(l, f, r, tf, tr, 0, 0, 0);
                        if (hostile && ref_is_moat(tf, tr) && !(on_moat && from_realm == e))
                            break;
                    }
                }
            } else {
                int castle_pawn = t == 'C';
                int e0 = ref_realm(f, r);
                int fwdf = df[k], fwdr = dr[k];
                if (ref_is_moat(f, r) && ref_enemy(p, k, e0)) {
                    for (int i = 0; i < 8; i++) {
                        int tf = f + df[i], tr = r + dr[i];
                        if (!ref_on(tf, tr) || !ref_is_keep(tf, tr) || ref_realm(tf, tr) != e0)
                            continue;
                        if (i < 4 ? p->who[tf][tr] < 0 : ref_takeable(p, k, tf, tr))
                            ref_pawn_to(p, l, k, f, r, tf, tr);
                    }
                    continue;
                }
                int home = ref_is_moat(f, r) && e0 == k;
                if (home && !castle_pawn) {
                    int tf = f + fwdf, tr = r + fwdr;
                    if (ref_on(tf, tr) && p->who[tf][tr] < 0 && ref_realm(tf, tr) < 0) {
                        ref_add(l, f, r, tf, tr, 0, 0, 0);
                        if (ref_on(tf + fwdf, tr + fwdr) && p->who[tf + fwdf][tr + fwdr] < 0 &&
                            ref_realm(tf + fwdf, tr + fwdr) < 0)
                            ref_add(l, f, r, tf + fwdf, tr + fwdr, 0, 0, 0);
                    }
                    for (int i = 4; i < 8; i++) {
                        int cf = f + df[i], cr = r + dr[i];
                        /* diagonal-forward: shares the forward component */
                        if ((fwdf && df[i] != fwdf) || (fwdr && dr[i] != fwdr))
                            continue;
                        if (ref_on(cf, cr) && ref_realm(cf, cr) < 0 && ref_takeable(p, k, cf, cr))
                            ref_add(l, f, r, cf, cr, 0, 0, 0);
                    }
                    continue;
                }
                for (int i = 0; i < 8; i++) {
                    int tf = f + df[i], tr = r + dr[i];
                    if (!ref_on(tf, tr))
                        continue;
                    int e = ref_realm(tf, tr);
                    if (e >= 0 && !ref_enemy(p, k, e) && !castle_pawn)
                        continue;
                    if (i < 4 ? p->who[tf][tr] < 0 : ref_takeable(p, k, tf, tr))
                        ref_pawn_to(p, l, k, f, r, tf, tr);
                }
                if (home && castle_pawn) {
                    int tf = f + fwdf, tr = r + fwdr;
                    if (p->who[tf][tr] < 0 && ref_on(tf + fwdf, tr + fwdr) &&
                        p->who[tf + fwdf][tr + fwdr] < 0)
                        ref_add(l, f, r, tf + fwdf, tr + fwdr, 0, 0, 0);
                }
            }
        }
    /* Castling. */
    static const int thf[4] = { 8, 1, 8, 15 }, thr[4] = { 1, 8, 15, 8 };
    static const int cpf[4] = { 8, 0, 8, 16 }, cpr[4] = { 0, 8, 16, 8 };
    if (((p->castle >> k) & 1) && p->who[thf[k]][thr[k]] == k && p->what[thf[k]][thr[k]] == 'K' &&
        p->who[cpf[k]][cpr[k]] == k && p->what[cpf[k]][cpr[k]] == 'C')
        ref_add(l, thf[k], thr[k], cpf[k], cpr[k], 0, 0, 0);
}

static void ref_capture(ref_km *p, int by, int f, int r)
{
    int o = p->who[f][r];
    if (o < 0)
        return;
    char t = p->what[f][r];
    p->pris[by][o][(int)t]++;
    p->who[f][r] = -1;
    if (t != 'K')
        return;
    p->out |= 1 << o;
    p->castle &= ~(1 << o);
    for (int a = 0; a < 17; a++)
        for (int b = 0; b < 17; b++)
            if (p->who[a][b] == o) {
                if (p->kr == 0)
                    p->who[a][b] = (signed char)by;
                else if (p->kr == 1)
                    p->who[a][b] = -1;
            }
}

static void ref_touch(ref_km *p, int f, int r)
{
    static const int thf[4] = { 8, 1, 8, 15 }, thr[4] = { 1, 8, 15, 8 };
    static const int cpf[4] = { 8, 0, 8, 16 }, cpr[4] = { 0, 8, 16, 8 };
    for (int k = 0; k < 4; k++)
        if ((f == thf[k] && r == thr[k]) || (f == cpf[k] && r == cpr[k]))
            p->castle &= ~(1 << k);
}

static void ref_play(ref_km *p, const ref_move *m)
{
    if (m) {
        int k = p->stm;
        char t = p->what[m->f0][m->r0];
        int swap = t == 'K' && p->who[m->f1][m->r1] == k && p->what[m->f1][m->r1] == 'C';
        if (swap) {
            p->what[m->f1][m->r1] = 'K';
            p->what[m->f0][m->r0] = 'C';
        } else {
            ref_capture(p, k, m->f1, m->r1);
            p->who[m->f1][m->r1] = (signed char)k;
            p->what[m->f1][m->r1] = t;
            p->who[m->f0][m->r0] = -1;
            int e = ref_realm(m->f1, m->r1);
            if ((t == 'P' || t == 'C') && ref_is_keep(m->f1, m->r1) && ref_enemy(p, k, e)) {
                p->who[m->f1][m->r1] = -1;
                if (m->kind == 'r') {
                    p->pris[e][m->ro][m->rt]--;
                    p->who[m->f1][m->r1] = (signed char)m->ro;
                    p->what[m->f1][m->r1] = (char)m->rt;
                } else if (m->kind == 'a') {
                    ref_capture(p, k, m->af, m->ar);
                    ref_touch(p, m->af, m->ar);
                }
            }
        }
        ref_touch(p, m->f0, m->r0);
        ref_touch(p, m->f1, m->r1);
    }
    do {
        p->stm = (p->stm + 1) % 4;
        if (p->stm == 0)
            p->round++;
    } while ((p->out >> p->stm) & 1);
}

/* Legal moves as the engine lists them: none when over, "pass" alone. */
static int ref_legal(const ref_km *p, ref_list *l)
{
    l->n = 0;
    if (ref_over(p))
        return 0;
    ref_gen(p, l);
    if (l->n == 0) {
        memset(&l->m[0], 0, sizeof l->m[0]);
        strcpy(l->m[0].text, "pass");
        l->n = 1;
    }
    return l->n;
}

static unsigned long long ref_perft(const ref_km *p, int depth)
{
    ref_list *l = malloc(sizeof *l);
    int n = ref_legal(p, l);
    unsigned long long total = 0;
    if (depth <= 1)
        total = (unsigned long long)n;
    else
        for (int i = 0; i < n; i++) {
            ref_km c = *p;
            ref_play(&c, strcmp(l->m[i].text, "pass") ? &l->m[i] : NULL);
            total += ref_perft(&c, depth - 1);
        }
    free(l);
    return total;
}

#endif
