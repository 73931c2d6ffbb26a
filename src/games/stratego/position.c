/* position.c -- position strings, square names, hashing and invariants.
 *
 * A position string is "<board> <side> <ply> <red-two> <blue-two> [<lost>]":
 *   board     rows 10 down to 1 joined by '/'; in a row, files a..j. A piece
 *             is a letter (Red upper case, Blue lower case) followed by its
 *             marks: '*' revealed in combat, then '+' moved or '^' moved
 *             and seen to move more than one square (a known Scout). A run
 *             of empty squares is a number 1-10; a lake is '~'.
 *   side      'r' or 'b'
 *   ply       plies played so far, 0-1000000
 *   two       per side the two-square state of S6: '-' or <from><to>:<n>,
 *             that side's last move and on how many consecutive turns of
 *             its own a piece has gone between those squares (1-3).
 *   lost      optional: the pieces combat removed (S5), Red's as upper-case
 *             letters then Blue's as lower-case, each side's strongest
 *             first (M G C J A L E N O S B F), one letter a piece; '-' for
 *             none. Written only where it says what the board does not: in
 *             a view (unknown pieces) whose losses are known; a full
 *             position's losses are its army less its board.
 * Invariant: whatever st_format writes, st_parse reads back to the same
 * board, side, ply, two-square state and known losses.
 * The reader is strict: anything it does not understand is an error naming
 * what is wrong, and the position it was given stays as it was.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../base/rng.h"
#include "stratego.h"

const int st_army[ST_NKINDS] = { 0, 1, 8, 5, 4, 4, 4, 3, 2, 1, 1, 6, 1, 0 };

static const char kind_chars[ST_NKINDS + 1] = "?SONELAJCGMBFX";

static const char *const kind_names[ST_NKINDS] = {
    "empty",   "Spy",   "Scout", "Miner",   "Sergeant", "Lieutenant", "Captain",
    "Major",   "Colonel", "General", "Marshal", "Bomb", "Flag", "unknown piece"
};

int st_kinds(game_piece_kind *out, int max)
{
    /* S2's army, strongest first: the ranks are the kinds' numbers, Marshal
     * (10) down to Spy (1); then the Bombs and the Flag, which have none */
    int n = 0;
    for (int kind = ST_MARSHAL; kind >= ST_SPY && n < max; kind--)
        out[n++] = (game_piece_kind){ kind_chars[kind], kind_names[kind], kind, st_army[kind] };
    for (int kind = ST_BOMB; kind <= ST_FLAG && n < max; kind++)
        out[n++] = (game_piece_kind){ kind_chars[kind], kind_names[kind], 0, st_army[kind] };
    return n;
}

char st_kind_char(int side, int kind)
{
    char c = kind_chars[kind];
    return side == ST_BLUE ? (char)(c - 'A' + 'a') : c;
}

static int kind_of_char(char c, int *side)
{
    for (int k = ST_SPY; k <= ST_UNKNOWN; k++) {
        if (c == kind_chars[k]) {
            *side = ST_RED;
            return k;
        }
        if (c == kind_chars[k] - 'A' + 'a') {
            *side = ST_BLUE;
            return k;
        }
    }
    return 0;
}

static int is_lake(int r, int f)
{
    return (r == 4 || r == 5) && (f == 2 || f == 3 || f == 6 || f == 7);
}

int st_on_board(int cell)
{
    if (cell < 0 || cell >= ST_CELLS)
        return 0;
    int r = ST_ROW(cell), f = ST_FILE(cell);
    return r >= 0 && r < 10 && f >= 0 && f < 10 && !is_lake(r, f);
}

int st_home_row(int side, int r)
{
    return side == ST_RED ? r < ST_SETUP_ROWS : r >= 10 - ST_SETUP_ROWS;
}

int st_parse_square(const char *s, int *len)
{
    if (s[0] < 'a' || s[0] > 'j' || s[1] < '1' || s[1] > '9')
        return -1;
    int f = s[0] - 'a', r = s[1] - '1', n = 2;
    if (s[1] == '1' && s[2] == '0') {
        r = 9;
        n = 3;
    }
    if (is_lake(r, f))
        return -1;
    *len = n;
    return ST_CELL(r, f);
}

void st_square_name(int cell, char out[4])
{
    int r = ST_ROW(cell), f = ST_FILE(cell);
    out[0] = (char)('a' + f);
    if (r == 9) {
        out[1] = '1';
        out[2] = '0';
        out[3] = 0;
    } else {
        out[1] = (char)('1' + r);
        out[2] = 0;
    }
}

/* The empty board: walls around and in the lakes. */
static void empty_board(uint8_t sq[ST_CELLS])
{
    memset(sq, ST_WALL, ST_CELLS);
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 10; f++)
            if (!is_lake(r, f))
                sq[ST_CELL(r, f)] = ST_EMPTY;
}

/* Checks what the board may hold; shared by the reader and st_pos_ok. */
static int check_board(const uint8_t sq[ST_CELLS], game_error *err)
{
    int count[2][ST_NKINDS] = { { 0 } };
    for (int c = 0; c < ST_CELLS; c++) {
        uint8_t v = sq[c];
        if (!st_on_board(c)) {
            if (v != ST_WALL)
                return game_fail(err, "cell %d should be a wall", c);
            continue;
        }
        if (v == ST_WALL)
            return game_fail(err, "a wall on a playing square");
        if (v == ST_EMPTY)
            continue;
        int side = ST_SIDE(v), kind = ST_KIND(v);
        char name[4];
        st_square_name(c, name);
        if (kind < ST_SPY || kind > ST_UNKNOWN)
            return game_fail(err, "no such piece on %s", name);
        count[side][kind]++;
        if ((kind == ST_BOMB || kind == ST_FLAG) && (v & (ST_MOVED | ST_SCOUTED)))
            return game_fail(err, "the %s on %s is marked as moved, but it never moves", kind_names[kind],
                        name);
        if ((v & ST_SCOUTED) && kind != ST_SCOUT && kind != ST_UNKNOWN)
            return game_fail(err, "the %s on %s is marked as a known Scout", kind_names[kind], name);
        if ((v & ST_SCOUTED) && !(v & ST_MOVED))
            return game_fail(err, "the piece on %s is a known Scout but not marked as moved", name);
        if (kind == ST_UNKNOWN && (v & ST_REVEALED))
            return game_fail(err, "the unknown piece on %s is marked as revealed", name);
        if (!(v & ST_MOVED) && !st_home_row(side, ST_ROW(c)))
            return game_fail(err, "the %s %s on %s has not moved but stands outside its setup rows",
                        side == ST_RED ? "Red" : "Blue", kind_names[kind], name);
    }
    int total[2] = { 0, 0 };
    for (int s = 0; s < 2; s++) {
        for (int k = ST_SPY; k < ST_UNKNOWN; k++) {
            if (count[s][k] > st_army[k])
                return game_fail(err, "%s has %d %ss; an army has %d", s == ST_RED ? "Red" : "Blue",
                            count[s][k], kind_names[k], st_army[k]);
            total[s] += count[s][k];
        }
        total[s] += count[s][ST_UNKNOWN];
        if (total[s] > ST_ARMY)
            return game_fail(err, "%s has %d pieces; an army has %d", s == ST_RED ? "Red" : "Blue",
                        total[s], ST_ARMY);
    }
    /* Unknown pieces of both sides make a spectator's view (st_view's side
     * -1), which reads back as it was written. */
    /* Unknown pieces must fit in what is left of the army. */
    for (int s = 0; s < 2; s++) {
        int left = 0;
        for (int k = ST_SPY; k < ST_UNKNOWN; k++)
            left += st_army[k] - count[s][k];
        if (count[s][ST_UNKNOWN] > left)
            return game_fail(err, "too many unknown %s pieces", s == ST_RED ? "Red" : "Blue");
    }
    int flagless[2];
    for (int s = 0; s < 2; s++)
        flagless[s] = count[s][ST_FLAG] == 0 && count[s][ST_UNKNOWN] == 0;
    if (flagless[0] && flagless[1])
        return game_fail(err, "neither side has a Flag");
    return 0;
}

/* Counts the pieces on the board per side and kind. */
static void count_board(const uint8_t sq[ST_CELLS], int count[2][ST_NKINDS])
{
    memset(count, 0, sizeof(int) * 2 * ST_NKINDS);
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++)
        if (ST_IS_PIECE(sq[c]))
            count[ST_SIDE(sq[c])][ST_KIND(sq[c])]++;
}

/* The losses of each side whose every piece the board shows: its army
 * less what stands (a position read from text is taken to come from a
 * game, where pieces leave the board only by combat). */
static void derive_lost(st_pos *pos)
{
    int count[2][ST_NKINDS];
    count_board(pos->sq, count);
    pos->lost_known = 0;
    memset(pos->lost, 0, sizeof pos->lost);
    for (int s = 0; s < 2; s++) {
        if (count[s][ST_UNKNOWN])
            continue;
        pos->lost_known |= (uint8_t)(1u << s);
        for (int k = ST_SPY; k <= ST_FLAG; k++)
            pos->lost[s][k] = (uint8_t)(st_army[k] - count[s][k]);
    }
}

/* The kinds in the letter table's order (strongest first, then Bomb and
 * Flag): the order of the lost field. */
static const int lost_order[12] = {
    ST_MARSHAL, ST_GENERAL, ST_COLONEL, ST_MAJOR, ST_CAPTAIN, ST_LIEUTENANT,
    ST_SERGEANT, ST_MINER, ST_SCOUT, ST_SPY, ST_BOMB, ST_FLAG
};

/* Checks losses against a board (S5: pieces leave only by combat): for a
 * side whose every piece the board shows, its army less the board; for a
 * side with unknown pieces, losses that could be: per kind no more than
 * the army less that side's known pieces of the kind, with the board's
 * pieces forty in all, and enough Scouts left for its unknown pieces seen
 * to run and enough movable pieces for those seen to move. */
static int check_lost(const uint8_t sq[ST_CELLS], const uint8_t lost[2][ST_NKINDS],
                      game_error *err)
{
    int count[2][ST_NKINDS];
    count_board(sq, count);
    for (int s = 0; s < 2; s++) {
        const char *who = s == ST_RED ? "Red" : "Blue";
        int total = count[s][ST_UNKNOWN];
        for (int k = ST_SPY; k <= ST_FLAG; k++) {
            total += count[s][k] + lost[s][k];
            if (count[s][ST_UNKNOWN] == 0 && count[s][k] + lost[s][k] != st_army[k])
                return game_fail(err, "%s's losses disagree with the board: %ss %d lost and "
                                 "%d standing, but an army has %d", who, kind_names[k],
                                 lost[s][k], count[s][k], st_army[k]);
            if (count[s][k] + lost[s][k] > st_army[k])
                return game_fail(err, "%s's losses are impossible: %ss %d lost and %d "
                                 "standing, but an army has %d", who, kind_names[k],
                                 lost[s][k], count[s][k], st_army[k]);
        }
        if (total != ST_ARMY)
            return game_fail(err, "%s's losses and pieces on the board make %d, not %d", who,
                             total, ST_ARMY);
        if (!count[s][ST_UNKNOWN])
            continue;
        /* which kinds the unknown pieces can still be, by their marks */
        int ran = 0, moved = 0, scouts, movers = 0;
        for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
            uint8_t v = sq[c];
            if (ST_IS_PIECE(v) && ST_SIDE(v) == s && ST_KIND(v) == ST_UNKNOWN) {
                ran += (v & ST_SCOUTED) != 0;
                moved += (v & ST_MOVED) != 0;
            }
        }
        scouts = st_army[ST_SCOUT] - count[s][ST_SCOUT] - lost[s][ST_SCOUT];
        for (int k = ST_SPY; k <= ST_MARSHAL; k++)
            movers += st_army[k] - count[s][k] - lost[s][k];
        if (ran > scouts)
            return game_fail(err, "%s's losses leave %d Scouts unseen, but %d of its unknown "
                             "pieces ran like Scouts", who, scouts, ran);
        if (moved > movers)
            return game_fail(err, "%s's losses leave %d movable pieces unseen, but %d of its "
                             "unknown pieces moved", who, movers, moved);
    }
    return 0;
}

/* Reads the lost field at p (after its leading spaces) into lost[][];
 * returns the text after it, or NULL after filling err. */
static const char *parse_lost(const char *p, uint8_t lost[2][ST_NKINDS], game_error *err)
{
    memset(lost, 0, sizeof(uint8_t) * 2 * ST_NKINDS);
    if (p[0] == '-' && (p[1] == 0 || p[1] == ' ' || p[1] == '\n' || p[1] == '\r' ||
                        p[1] == '\t'))
        return p + 1;
    int at = 0;  /* side * 12 + place in lost_order of the last letter */
    for (; *p && *p != ' ' && *p != '\n' && *p != '\r' && *p != '\t'; p++) {
        int side, kind = kind_of_char(*p, &side), place = 0;
        if (!kind || kind == ST_UNKNOWN) {
            game_fail(err, "unexpected character '%c' in the lost field (piece letters, or "
                      "'-' for none)", *p);
            return NULL;
        }
        while (lost_order[place] != kind)
            place++;
        if (side * 12 + place < at) {
            game_fail(err, "the lost field must list Red's pieces, then Blue's, each side's in "
                      "the order M G C J A L E N O S B F");
            return NULL;
        }
        at = side * 12 + place;
        if (++lost[side][kind] > st_army[kind]) {
            game_fail(err, "the lost field has more %ss of %s than an army has (%d)",
                      kind_names[kind], side == ST_RED ? "Red" : "Blue", st_army[kind]);
            return NULL;
        }
    }
    return p;
}

static const char *parse_two(const char *p, uint8_t *from, uint8_t *to, uint8_t *count,
                             const char *who, game_error *err)
{
    if (p[0] == '-' && (p[1] == ' ' || p[1] == 0)) {
        *from = *to = *count = 0;
        return p + 1;
    }
    int l1, l2;
    int a = st_parse_square(p, &l1);
    int b = a < 0 ? -1 : st_parse_square(p + l1, &l2);
    if (a < 0 || b < 0 || p[l1 + l2] != ':' || p[l1 + l2 + 1] < '1' || p[l1 + l2 + 1] > '3' ||
        (p[l1 + l2 + 2] != ' ' && p[l1 + l2 + 2] != 0)) {
        game_fail(err, "%s's two-square field must be '-' or like a4a5:2 (count 1-3)", who);
        return NULL;
    }
    if (a == b || (ST_ROW(a) != ST_ROW(b) && ST_FILE(a) != ST_FILE(b))) {
        game_fail(err, "%s's two-square move must join two squares in a line", who);
        return NULL;
    }
    *from = (uint8_t)a;
    *to = (uint8_t)b;
    *count = (uint8_t)(p[l1 + l2 + 1] - '0');
    return p + l1 + l2 + 2;
}

int st_parse(st_pos *out, const char *text, game_error *err)
{
    st_pos pos;
    memset(&pos, 0, sizeof pos);
    empty_board(pos.sq);
    const char *p = text;
    while (*p == ' ')
        p++;
    if (!*p)
        return game_fail(err, "empty position");
    int r = 9, f = 0;
    for (; *p && *p != ' '; p++) {
        char c = *p;
        int side, kind;
        if (c == '/') {
            if (f != 10)
                return game_fail(err, "row %d has %d squares, not 10", r + 1, f);
            if (r == 0)
                return game_fail(err, "more than 10 rows");
            r--;
            f = 0;
        } else if (c >= '1' && c <= '9') {
            int n = c - '0';
            if (c == '1' && p[1] == '0') {
                n = 10;
                p++;
            } else if (p[1] >= '0' && p[1] <= '9') {
                return game_fail(err, "bad run of empty squares in row %d (1-10)", r + 1);
            }
            for (int i = 0; i < n; i++, f++) {
                if (f >= 10)
                    return game_fail(err, "row %d is longer than 10 squares", r + 1);
                if (is_lake(r, f))
                    return game_fail(err, "%c%d is a lake: write it as '~'", 'a' + f, r + 1);
            }
        } else if (c == '~') {
            if (f >= 10)
                return game_fail(err, "row %d is longer than 10 squares", r + 1);
            if (!is_lake(r, f))
                return game_fail(err, "%c%d is not a lake", 'a' + f, r + 1);
            f++;
        } else if ((kind = kind_of_char(c, &side)) != 0) {
            if (f >= 10)
                return game_fail(err, "row %d is longer than 10 squares", r + 1);
            if (is_lake(r, f))
                return game_fail(err, "%c%d is a lake; no piece stands there", 'a' + f, r + 1);
            uint8_t v = ST_PIECE(side, kind);
            if (p[1] == '*') {
                v |= ST_REVEALED;
                p++;
            }
            if (p[1] == '+') {
                v |= ST_MOVED;
                p++;
            } else if (p[1] == '^') {
                v |= ST_MOVED | ST_SCOUTED;
                p++;
            }
            if (p[1] == '*' || p[1] == '+' || p[1] == '^')
                return game_fail(err, "marks after the piece on %c%d out of order or repeated (write *, then + or ^)",
                            'a' + f, r + 1);
            pos.sq[ST_CELL(r, f)] = v;
            f++;
        } else {
            return game_fail(err, "unexpected character '%c' in the board field", c);
        }
    }
    if (r != 0 || f != 10)
        return game_fail(err, "the board must have 10 rows of 10 squares");
    if (check_board(pos.sq, err) != 0)
        return -1;
    while (*p == ' ')
        p++;
    if ((p[0] == 'r' || p[0] == 'b') && (p[1] == ' ' || p[1] == 0))
        pos.stm = p[0] == 'r' ? ST_RED : ST_BLUE;
    else
        return game_fail(err, "the side to move must be 'r' or 'b'");
    p++;
    while (*p == ' ')
        p++;
    if (!(*p >= '0' && *p <= '9'))
        return game_fail(err, "missing ply count after the side to move");
    long ply = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        ply = ply * 10 + (*p - '0');
        if (ply > 1000000)
            return game_fail(err, "ply count too large (at most 1000000)");
    }
    if (*p != ' ')
        return game_fail(err, "missing two-square fields after the ply count");
    pos.ply = (int32_t)ply;
    for (int s = 0; s < 2; s++) {
        while (*p == ' ')
            p++;
        p = parse_two(p, &pos.two_from[s], &pos.two_to[s], &pos.two_count[s],
                      s == ST_RED ? "Red" : "Blue", err);
        if (!p)
            return -1;
    }
    while (*p == ' ')
        p++;
    int has_lost = *p && *p != '\n' && *p != '\r' && *p != '\t';
    if (has_lost && !(p = parse_lost(p, pos.lost, err)))
        return -1;
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
    if (*p)
        return game_fail(err, "unexpected text after the lost field: '%.40s'", p);
    pos.move_limit = ST_DEFAULT_MOVE_LIMIT;
    if (has_lost) {
        if (check_lost(pos.sq, (const uint8_t(*)[ST_NKINDS])pos.lost, err) != 0)
            return -1;
        pos.lost_known = 3;
    } else {
        derive_lost(&pos);
    }
    *out = pos;
    return 0;
}

static size_t put_two(char *buf, size_t n, size_t size, const st_pos *pos, int s)
{
    if (!pos->two_count[s])
        return (size_t)snprintf(buf + n, n < size ? size - n : 0, " -");
    char a[4], b[4];
    st_square_name(pos->two_from[s], a);
    st_square_name(pos->two_to[s], b);
    return (size_t)snprintf(buf + n, n < size ? size - n : 0, " %s%s:%d", a, b,
                            pos->two_count[s]);
}

int st_squares(const st_pos *pos, game_piece_at *out, int max)
{
    int n = 0;
    for (int r = 9; r >= 0; r--)
        for (int f = 0; f < 10 && n < max; f++, n++) {
            uint8_t v = pos->sq[ST_CELL(r, f)];
            st_square_name(ST_CELL(r, f), out[n].square);
            char *p = out[n].piece;
            if (v == ST_WALL) {
                *p++ = '~';
            } else if (v != ST_EMPTY) {
                *p++ = st_kind_char(ST_SIDE(v), ST_KIND(v));
                if (v & ST_REVEALED)
                    *p++ = '*';
                if (v & ST_SCOUTED)
                    *p++ = '^';
                else if (v & ST_MOVED)
                    *p++ = '+';
            }
            *p = 0;
        }
    return n;
}

size_t st_format(const st_pos *pos, char *buf, size_t size)
{
    char tmp[512];
    size_t n = 0;
    for (int r = 9; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 10; f++) {
            uint8_t v = pos->sq[ST_CELL(r, f)];
            if (v == ST_EMPTY) {
                empty++;
                continue;
            }
            if (empty)
                n += (size_t)snprintf(tmp + n, sizeof tmp - n, "%d", empty);
            empty = 0;
            if (v == ST_WALL) {
                tmp[n++] = '~';
                continue;
            }
            tmp[n++] = st_kind_char(ST_SIDE(v), ST_KIND(v));
            if (v & ST_REVEALED)
                tmp[n++] = '*';
            if (v & ST_SCOUTED)
                tmp[n++] = '^';
            else if (v & ST_MOVED)
                tmp[n++] = '+';
        }
        if (empty)
            n += (size_t)snprintf(tmp + n, sizeof tmp - n, "%d", empty);
        if (r > 0)
            tmp[n++] = '/';
    }
    tmp[n] = 0;
    size_t len = (size_t)snprintf(buf, size, "%s %c %d", tmp, pos->stm == ST_RED ? 'r' : 'b',
                                  (int)pos->ply);
    len += put_two(buf, len, size, pos, ST_RED);
    len += put_two(buf, len, size, pos, ST_BLUE);
    /* The losses, where the board does not tell them: a view's, when known
     * and possible (so that what is written reads back). */
    int hidden = 0;
    for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9) && !hidden; c++)
        hidden = ST_IS_PIECE(pos->sq[c]) && ST_KIND(pos->sq[c]) == ST_UNKNOWN;
    if (hidden && pos->lost_known == 3 &&
        check_lost(pos->sq, (const uint8_t(*)[ST_NKINDS])pos->lost, NULL) == 0) {
        char lost[2 * ST_ARMY + 2];
        size_t k = 0;
        for (int s = 0; s < 2; s++)
            for (int i = 0; i < 12; i++)
                for (int j = 0; j < pos->lost[s][lost_order[i]]; j++)
                    lost[k++] = st_kind_char(s, lost_order[i]);
        if (!k)
            lost[k++] = '-';
        lost[k] = 0;
        len += (size_t)snprintf(buf + len, len < size ? size - len : 0, " %s", lost);
    }
    return len;
}

size_t st_render(const st_pos *pos, char *buf, size_t size)
{
    char out[4096];
    size_t n = 0;
    const char *line = "    +---+---+---+---+---+---+---+---+---+---+";
    for (int r = 9; r >= 0; r--) {
        n += (size_t)snprintf(out + n, sizeof out - n, "%s\n %2d |", line, r + 1);
        for (int f = 0; f < 10; f++) {
            uint8_t v = pos->sq[ST_CELL(r, f)];
            char c = ' ', m = ' ';
            if (v == ST_WALL)
                c = m = '~';
            else if (v != ST_EMPTY) {
                c = st_kind_char(ST_SIDE(v), ST_KIND(v));
                m = (v & ST_REVEALED) ? '*' : (v & ST_SCOUTED) ? '^' : (v & ST_MOVED) ? '+' : ' ';
            }
            n += (size_t)snprintf(out + n, sizeof out - n, "%c%c |", c, m);
        }
        n += (size_t)snprintf(out + n, sizeof out - n, "\n");
    }
    n += (size_t)snprintf(out + n, sizeof out - n, "%s\n     ", line);
    for (int f = 0; f < 10; f++)
        n += (size_t)snprintf(out + n, sizeof out - n, " %c  ", 'a' + f);
    return (size_t)snprintf(buf, size, "%s\n", out);
}

uint64_t st_hash(const st_pos *pos)
{
    uint64_t h = rng_mix((uint64_t)0x57a7e90u + pos->stm);
    for (int c = 13; c < ST_CELLS - 13; c++)
        if (ST_IS_PIECE(pos->sq[c]))
            h ^= rng_mix(((uint64_t)c << 8) | pos->sq[c]);
    for (int s = 0; s < 2; s++)
        if (pos->two_count[s])
            h ^= rng_mix((uint64_t)0x2500000u + ((uint64_t)s << 20) + ((uint64_t)pos->two_from[s] << 12) +
                         ((uint64_t)pos->two_to[s] << 4) + pos->two_count[s]);
    /* Near the move limit the plies left change what a position is worth. */
    if (pos->move_limit) {
        int left = pos->move_limit - pos->ply;
        if (left >= 0 && left < 64)
            h ^= rng_mix((uint64_t)0x11700000u + (uint64_t)left);
    }
    return h;
}

int st_pos_ok(const st_pos *pos)
{
    if (check_board(pos->sq, NULL) != 0)
        return 0;
    if (pos->stm > 1 || pos->ply < 0 || pos->move_limit < 0 ||
        pos->move_limit > ST_MAX_MOVE_LIMIT)
        return 0;
    for (int s = 0; s < 2; s++) {
        if (pos->two_count[s] > 3)
            return 0;
        if (pos->two_count[s] &&
            (!st_on_board(pos->two_from[s]) || !st_on_board(pos->two_to[s]) ||
             pos->two_from[s] == pos->two_to[s]))
            return 0;
        if (!pos->two_count[s] && (pos->two_from[s] || pos->two_to[s]))
            return 0;
    }
    return 1;
}
