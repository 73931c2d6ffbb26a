/* dossier.c -- what each enemy piece of unknown rank has done (dossier.h).
 *
 * Invariant: after st_dossier_watch, a record is non-zero only on a cell
 * that holds an enemy piece of unknown rank in the view last read.
 */
#include "dossier.h"

#include <math.h>
#include <string.h>

static const int step[4] = { 1, -1, 12, -12 };

int st_shown_mover(const st_pos *view, int c)
{
    uint8_t v = view->sq[c];
    if (!ST_IS_PIECE(v) || ST_SIDE(v) != view->stm || !(v & ST_REVEALED) || !st_movable(ST_KIND(v)))
        return 0;
    return ST_KIND(v);
}

/* The strongest shown mover of ours next to c, except on cell `but`. */
static int shown_next_to(const st_pos *view, int c, int but)
{
    int best = 0;
    for (int d = 0; d < 4; d++) {
        int k = c + step[d] == but ? 0 : st_shown_mover(view, c + step[d]);
        if (k > best)
            best = k;
    }
    return best;
}

static int unknown_enemy(const st_pos *view, int c)
{
    uint8_t v = view->sq[c];
    return ST_IS_PIECE(v) && ST_SIDE(v) != view->stm && ST_KIND(v) == ST_UNKNOWN;
}

void st_dossier_clear(st_dossier *d)
{
    memset(d, 0, sizeof *d);
}

/* The enemy's move from -> to, by the piece whose record is r. */
static void follow(st_deeds *r, const st_pos *view, int from, int to, int flag)
{
    int dist = flag ? st_steps(to, flag) : 99;
    int n = r->coming + (dist <= ST_COMING_NEAR && dist < st_steps(from, flag));
    r->coming = (uint8_t)(n < 255 ? n : 255);
    int after = shown_next_to(view, to, 0), before = shown_next_to(view, from, to);
    if (after > r->bold)
        r->bold = (uint8_t)after;
    /* it stepped away from a shown mover of ours our last move brought */
    int chaser = view->two_to[view->stm], k = chaser ? st_shown_mover(view, chaser) : 0;
    if (k >= ST_FEAR_FROM && st_steps(chaser, from) == 1 && st_steps(chaser, to) > 1 &&
        (r->fear == 0 || k < r->fear))
        r->fear = (uint8_t)k;
    r->came = (uint8_t)(after && !before ? after : 0);
    if (r->came && r->approaches < 255)
        r->approaches++;
    if (before && !after && r->flights < 255)
        r->flights++;
    if (r->moves < 255)
        r->moves++;
    if (r->first < 0)
        r->first = (int16_t)(view->ply < 32767 ? view->ply : 32767);
    r->last = (int16_t)(view->ply < 32767 ? view->ply : 32767);
}

void st_dossier_watch(st_dossier *d, const st_pos *view)
{
    if (d->watched == view->ply + 1)
        return;
    int us = view->stm, them = us ^ 1, flag = 0, first = d->watched == 0;
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9) && !flag; c++)
        if (ST_IS_PIECE(view->sq[c]) && ST_SIDE(view->sq[c]) == us && ST_KIND(view->sq[c]) == ST_FLAG)
            flag = c;
    static st_deeds none;
    st_deeds next[ST_CELLS];
    memset(next, 0, sizeof next);
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++)
        if (unknown_enemy(view, c)) {
            next[c] = d->of[c];
            if (first) {
                next[c].home = (uint8_t)c;
                next[c].first = next[c].last = -1;
            }
        }
    int from = view->two_from[them], to = view->two_to[them];
    if (from && to && unknown_enemy(view, to)) {
        next[to] = first ? none : d->of[from];
        if (first) {
            next[to].first = next[to].last = -1;
        }
        follow(&next[to], view, from, to, flag);
    }
    /* Our last move brought a shown mover next to pieces that stayed. */
    int u = view->two_to[us], k = u ? st_shown_mover(view, u) : 0;
    for (int i = 0; k && i < 4; i++) {
        int c = u + step[i];
        if (c != to && unknown_enemy(view, c) && k > next[c].stood)
            next[c].stood = (uint8_t)k;
    }
    memcpy(d->of, next, sizeof next);
    d->watched = view->ply + 1;
}

static int home_depth(int side, int cell)
{
    int r = ST_ROW(cell);
    return side == ST_RED ? 3 - r : r - 6;  /* 0 front row .. 3 back row */
}

void st_dossier_inputs(const st_dossier *d, const st_pos *view, int cell, float in[ST_DEED_INPUTS])
{
    const st_deeds *r = &d->of[cell];
    int them = view->stm ^ 1, home = r->home ? r->home : cell;
    int depth = home_depth(them, home), own = 0, ours = 0, guard = 0, marshal = 0;
    for (int i = 0; i < 4; i++) {
        int c = cell + step[i];
        uint8_t v = view->sq[c];
        if (!ST_IS_PIECE(v))
            continue;
        if (ST_SIDE(v) == them) {
            own++;
            guard |= shown_next_to(view, c, 0) > 0;
        } else {
            ours++;
            marshal |= st_shown_mover(view, c) == ST_MARSHAL;
        }
    }
    int fwd = them == ST_RED ? ST_ROW(cell) - ST_ROW(home) : ST_ROW(home) - ST_ROW(cell);
    int since = r->last >= 0 ? view->ply - r->last : 200;
    float ply = (float)view->ply;
    in[0] = ply < 1000 ? ply / 1000.0f : 1.0f;
    in[1] = log1pf((float)r->moves) / 3.0f;
    in[2] = (float)(depth < 0 ? 0 : depth > 3 ? 3 : depth) / 3.0f;
    in[3] = ST_FILE(home) == 0 || ST_FILE(home) == 9;
    in[4] = (float)r->bold / 10.0f;
    in[5] = (float)r->fear / 10.0f;
    in[6] = r->fear != 0;
    in[7] = (float)shown_next_to(view, cell, 0) / 10.0f;
    in[8] = r->came != 0;
    in[9] = (float)r->came / 10.0f;
    in[10] = (float)own / 4.0f;
    in[11] = (float)ours / 4.0f;
    in[12] = (float)st_steps(cell, home) / 9.0f;
    in[13] = (float)fwd / 9.0f;
    in[14] = (float)(since < 0 ? 0 : since > 200 ? 200 : since) / 200.0f;
    in[15] = r->first >= 0 && r->first < 1000 ? (float)r->first / 1000.0f : 1.0f;
    in[16] = log1pf((float)r->approaches) / 3.0f;
    in[17] = log1pf((float)r->flights) / 3.0f;
    in[18] = (float)r->stood / 10.0f;
    in[19] = (float)guard;
    in[20] = (float)(r->coming < 4 ? r->coming : 4) / 4.0f;
    in[21] = r->bold == ST_MARSHAL;
    in[22] = (float)marshal;
    in[23] = r->stood >= ST_COLONEL;
}
