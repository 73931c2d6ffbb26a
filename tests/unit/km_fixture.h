/* km_fixture.h -- what the Keeps & Moats unit tests share: positions built
 * from a list of pieces, or read from text, failing the running cmocka test
 * when the text is not a position; the start, moves played and listed, a
 * position's text and result. Include after cmocka.h and keeps_moats.h. */
#ifndef CITADEL_TEST_KM_FIXTURE_H
#define CITADEL_TEST_KM_FIXTURE_H

#define START                                                                             \
    "bC/bNbKbB/bRbBbQbNbR/bPbPbPbPbPbPbP/9/rP9uP/rRrP9uPuR/rBrNrP9uPuBuN/"               \
    "rCrKrQrP9uPuQuKuC/rNrBrP9uPuNuB/rRrP9uPuR/rP9uP/9/wPwPwPwPwPwPwP/wRwNwQwBwR/wBwKwN/" \
    "wC w anarchy gained wrbu -,-,-,- - 1 200"
#define KINGS "wK@i2 rK@b9 bK@i16 uK@p9 "
#define ANARCHY "anarchy gained - -,-,-,- - 1 200"


static inline int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The legal moves from square `from` ("" for every move), sorted, joined by
 * spaces. */
static inline const char *moves_from(const km_pos *p, const char *from)
{
    static char out[8192];
    char texts[KM_MAX_MOVES][24];
    char *ptr[KM_MAX_MOVES];
    game_move list[KM_MAX_MOVES];
    int n = km_legal(p, list), k = 0;
    size_t fl = strlen(from);
    for (int i = 0; i < n; i++) {
        km_format_move(p, list[i], texts[k], sizeof texts[k]);
        if (strncmp(texts[k], from, fl) == 0 &&
            !(fl == 2 && texts[k][2] >= '0' && texts[k][2] <= '9' && texts[k][1] == '1')) {
            ptr[k] = texts[k];
            k++;
        }
    }
    qsort(ptr, (size_t)k, sizeof ptr[0], cmp_str);
    out[0] = 0;
    for (int i = 0; i < k; i++) {
        strcat(out, i ? " " : "");
        strcat(out, ptr[i]);
    }
    return out;
}

static inline void play(km_pos *p, const char *text)
{
    game_move m;
    game_error err = { "" };
    if (km_parse_move(p, text, &m, &err) != 0)
        fail_msg("move %s refused: %s", text, err.msg);
    km_make(p, m);
    if (!km_pos_ok(p))
        fail_msg("invariants broken after %s", text);
}

static inline int legal(const km_pos *p, const char *text)
{
    game_move m;
    return km_parse_move(p, text, &m, NULL) == 0;
}

static inline uint8_t at(const km_pos *p, const char *sq)
{
    int s = km_parse_square(sq, strlen(sq));
    assert_true(s >= 0);
    return p->sq[s];
}

static inline uint8_t piece(const char *tok)
{
    return km_parse_token(tok);
}

static inline const char *fen(const km_pos *p)
{
    static char buf[1024];
    km_format(p, buf, sizeof buf);
    return buf;
}

static inline const char *result(const km_pos *p)
{
    static char buf[64];
    km_result_text(p, buf, sizeof buf);
    return buf;
}

/* A position from pieces ("wK@i2 ...") and the fields after the board. */
static inline km_pos build(const char *pieces, const char *rest)
{
    km_pos t;
    memset(&t, 0, sizeof t);
    for (const char *s = pieces; *s;) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        uint8_t piece = km_parse_token(s);
        const char *sq = s + 3;
        size_t len = strcspn(sq, " ");
        int at = km_parse_square(sq, len);
        if (!piece || s[2] != '@' || at < 0)
            fail_msg("bad piece spec '%s'", s);
        t.sq[at] = piece;
        s = sq + len;
    }
    char buf[1024], text[1200];
    km_format(&t, buf, sizeof buf);
    buf[strcspn(buf, " ")] = 0;
    snprintf(text, sizeof text, "%s %s", buf, rest);
    km_pos p;
    game_error err = { "" };
    if (km_parse(&p, text, &err) != 0)
        fail_msg("cannot read %s: %s", text, err.msg);
    return p;
}

static inline km_pos from_text(const char *text)
{
    km_pos p;
    game_error err = { "" };
    if (km_parse(&p, text, &err) != 0)
        fail_msg("cannot read %s: %s", text, err.msg);
    return p;
}

#endif
