/* km_fixture.h -- what the Keeps & Moats unit tests share: positions built
 * from a list of pieces, or read from text, failing the running cmocka test
 * when the text is not a position. Include after cmocka.h and
 * keeps_moats.h. */
#ifndef CITADEL_TEST_KM_FIXTURE_H
#define CITADEL_TEST_KM_FIXTURE_H

/* A position from pieces ("wK@i2 ...") and the fields after the board. */
static km_pos build(const char *pieces, const char *rest)
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

static km_pos from_text(const char *text)
{
    km_pos p;
    game_error err = { "" };
    if (km_parse(&p, text, &err) != 0)
        fail_msg("cannot read %s: %s", text, err.msg);
    return p;
}

#endif
