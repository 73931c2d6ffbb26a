/* setups.c -- armies on their four rows (S2, S3), the setup library, and
 * start positions made from two setups.
 *
 * A setup string is four rows of ten piece letters joined by '/', the front
 * row (next to the lakes) first and the back row last, each row from the
 * owner's left to its right, always in upper case: the same string means
 * the same arrangement for either colour. Red's left is the a-file and its
 * front row is row 4; Blue sits opposite, so its left is the j-file and its
 * front row is row 7.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../base/rng.h"
#include "stratego.h"

static const struct {
    const char *name, *text;
} library[] = {
    { "corner-fortress", "OAOLMOGOAO/EJLOCSCJLE/BNAEOLJANB/FBNEONBNBB" },
    { "corner-fortress-mirrored", "OAOGOMLOAO/ELJCSCOLJE/BNAJLOEANB/BBNBNOENBF" },
    { "central-keep", "OLOAOOAOLO/CESGNMEJCE/AJNOBBJANL/NELBFBONBB" },
    { "central-keep-mirrored", "OLOAOOAOLO/ECJEMNGSEC/LNAJBBONJA/BBNOBFBLEN" },
    { "shoreline", "AOLOOMOLOA/ONGECSJEOC/BJALNEJLNB/FBNBOANEBB" },
    { "shoreline-mirrored", "AOLOMOOLOA/COEJSCEGNO/BNLJENLAJB/BBENAOBNBF" },
    { "blitz", "OOMOAGOAOO/LECJSLCJEL/NBEALBNAJN/BFBONEBOBN" },
    { "blitz-mirrored", "OOAOGAOMOO/LEJCLSJCEL/NJANBLAEBN/NBOBENOBFB" },
    { "turtle", "ELOAOOAOLE/OCJMSGJCNO/NBOLEALBNO/BFBNEJNABB" },
    { "turtle-mirrored", "ELOAOOAOLE/ONCJGSMJCO/ONBLAELOBN/BBANJENBFB" },
    { "spy-guard", "OAOOLMOLOA/JEGSCNCEJO/LNBAEBONAE/NBFBOLJBNB" },
    { "spy-guard-mirrored", "AOLOMLOOAO/OJECNCSGEJ/EANOBEABNL/BNBJLOBFBN" },
};
#define NLIB ((int)(sizeof library / sizeof library[0]))

static const char letters[] = "?SONELAJCGMBF";

/* The cell of setup slot i (row from the front, then from the left). */
static int slot_cell(int side, int i)
{
    int row = i / 10, col = i % 10;
    return side == ST_RED ? ST_CELL(3 - row, col) : ST_CELL(6 + row, 9 - col);
}

int st_areas(const st_pos *pos, game_area_at *out, int max)
{
    (void)pos;
    int n = 0;
    for (int side = ST_RED; side <= ST_BLUE; side++)
        for (int i = 0; i < ST_ARMY && n < max; i++, n++) {
            char name[4];
            st_square_name(slot_cell(side, i), name);
            memcpy(out[n].square, name, sizeof name);
            snprintf(out[n].area, sizeof out[n].area, "setup");
            out[n].side = side;
        }
    return n;
}

int st_setup_check(const st_setup *s, game_error *err)
{
    int count[ST_NKINDS] = { 0 };
    for (int i = 0; i < ST_ARMY; i++) {
        if (s->kind[i] < ST_SPY || s->kind[i] > ST_FLAG)
            return game_fail(err, "setup square %d holds no piece", i + 1);
        count[s->kind[i]]++;
    }
    for (int k = ST_SPY; k <= ST_FLAG; k++)
        if (count[k] != st_army[k])
            return game_fail(err, "a setup has %d of '%c', not %d", count[k], letters[k], st_army[k]);
    return 0;
}

int st_setup_parse(st_setup *out, const char *text, game_error *err)
{
    st_setup s;
    int i = 0;
    const char *p = text;
    for (int row = 0; row < ST_SETUP_ROWS; row++) {
        if (row > 0) {
            if (*p != '/')
                return game_fail(err, "setup row %d has more than 10 pieces (rows are joined by '/')",
                            row);
            p++;
        }
        for (int col = 0; col < 10; col++, p++) {
            const char *at = *p ? strchr(letters + 1, *p) : NULL;
            if (!at)
                return game_fail(err, "setup row %d, place %d: '%c' is no piece letter (SONELAJCGMBF)",
                            row + 1, col + 1, *p ? *p : ' ');
            s.kind[i++] = (uint8_t)(at - letters);
        }
    }
    if (*p)
        return game_fail(err, "unexpected text after the fourth setup row: '%.20s'", p);
    if (st_setup_check(&s, err) != 0)
        return -1;
    *out = s;
    return 0;
}

size_t st_setup_format(const st_setup *s, char *buf, size_t size)
{
    char tmp[48];
    size_t n = 0;
    for (int i = 0; i < ST_ARMY; i++) {
        if (i && i % 10 == 0)
            tmp[n++] = '/';
        tmp[n++] = s->kind[i] <= ST_FLAG ? letters[s->kind[i]] : '?';
    }
    tmp[n] = 0;
    return (size_t)snprintf(buf, size, "%s", tmp);
}

void st_setup_random(st_setup *s, uint64_t seed)
{
    rng g;
    rng_seed(&g, seed);
    int i = 0;
    for (int k = ST_SPY; k <= ST_FLAG; k++)
        for (int j = 0; j < st_army[k]; j++)
            s->kind[i++] = (uint8_t)k;
    for (i = ST_ARMY - 1; i > 0; i--) {
        int j = (int)rng_below(&g, (uint64_t)i + 1);
        uint8_t t = s->kind[i];
        s->kind[i] = s->kind[j];
        s->kind[j] = t;
    }
}

int st_library_size(void)
{
    return NLIB;
}

const char *st_library_name(int i)
{
    return i >= 0 && i < NLIB ? library[i].name : NULL;
}

const char *st_library_text(int i)
{
    return i >= 0 && i < NLIB ? library[i].text : NULL;
}

/* 1 if the kinds of slots a and b may change places in a varied setup. */
static int swappable(const st_setup *s, int a, int b)
{
    int ka = s->kind[a], kb = s->kind[b];
    if (ka == kb)
        return 0;
    if (ka <= ST_MARSHAL && kb <= ST_MARSHAL)
        return ka - kb <= 2 && kb - ka <= 2;
    if (ka == ST_BOMB || kb == ST_BOMB) {
        int other = ka == ST_BOMB ? kb : ka;
        return a >= 20 && b >= 20 && other >= ST_SCOUT && other <= ST_SERGEANT;
    }
    return 0;
}

void st_setup_varied(st_setup *s, uint64_t seed)
{
    rng g;
    rng_seed(&g, seed);
    st_library_setup((int)rng_below(&g, NLIB), s);
    int flag = 0;
    for (int i = 0; i < ST_ARMY; i++)
        if (s->kind[i] == ST_FLAG)
            flag = i;
    int fixed[ST_ARMY] = { 0 };
    fixed[flag] = 1;
    if (flag % 10 > 0)
        fixed[flag - 1] = 1;
    if (flag % 10 < 9)
        fixed[flag + 1] = 1;
    if (flag >= 10)
        fixed[flag - 10] = 1;
    if (flag < 30)
        fixed[flag + 10] = 1;
    for (int swaps = 0, tries = 0; swaps < 12 && tries < 1000; tries++) {
        int a = (int)rng_below(&g, ST_ARMY), b = (int)rng_below(&g, ST_ARMY);
        if (fixed[a] || fixed[b] || !swappable(s, a, b))
            continue;
        uint8_t t = s->kind[a];
        s->kind[a] = s->kind[b];
        s->kind[b] = t;
        swaps++;
    }
}

void st_library_setup(int i, st_setup *s)
{
    int rc = st_setup_parse(s, library[((i % NLIB) + NLIB) % NLIB].text, NULL);
    (void)rc;
}

int st_setup_of(const st_pos *pos, int side, st_setup *s, game_error *err)
{
    for (int i = 0; i < ST_ARMY; i++) {
        uint8_t v = pos->sq[slot_cell(side, i)];
        if (!ST_IS_PIECE(v) || ST_SIDE(v) != side || (v & ST_MOVED) ||
            ST_KIND(v) == ST_UNKNOWN)
            return game_fail(err, "%s's setup rows do not hold its full, unmoved army",
                        side == ST_RED ? "Red" : "Blue");
        s->kind[i] = (uint8_t)ST_KIND(v);
    }
    return st_setup_check(s, err);
}

void st_start_from(st_pos *pos, const st_setup *red, const st_setup *blue)
{
    memset(pos, 0, sizeof *pos);
    memset(pos->sq, ST_WALL, sizeof pos->sq);
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 10; f++)
            if (st_on_board(ST_CELL(r, f)))
                pos->sq[ST_CELL(r, f)] = ST_EMPTY;
    for (int i = 0; i < ST_ARMY; i++) {
        pos->sq[slot_cell(ST_RED, i)] = ST_PIECE(ST_RED, red->kind[i]);
        pos->sq[slot_cell(ST_BLUE, i)] = ST_PIECE(ST_BLUE, blue->kind[i]);
    }
    pos->stm = ST_RED;
    pos->move_limit = ST_DEFAULT_MOVE_LIMIT;
    pos->lost_known = 3;
}

void st_start_seed(st_pos *pos, uint64_t seed)
{
    st_setup red, blue;
    uint64_t n = (uint64_t)NLIB;
    if (seed < n * n) {
        st_library_setup((int)(seed % n), &red);
        st_library_setup((int)(seed / n), &blue);
    } else {
        st_setup_random(&red, rng_mix(seed));
        st_setup_random(&blue, rng_mix(seed ^ 0xb1e5b1e5b1e5ull));
    }
    st_start_from(pos, &red, &blue);
}
