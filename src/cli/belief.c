/* belief.c -- `citadel belief RECORDS`: how good Stratego's belief is.
 *
 * Replays every Stratego game of a records file (`citadel match
 * --records`), and before every move gives the side to move's view to a
 * level-6 bot of that side, which reads its belief from the view alone
 * (bot.h's stbot_belief, learning as the game goes, as in play). For each
 * enemy piece of unknown rank it adds the chance the belief gave the
 * piece's true rank, and the chance the belief from the counts alone gave
 * it; it prints the means, over all such pieces and apart for pieces that
 * never moved and pieces that moved. The true ranks are read from the
 * full position only to score; the bots never see it.
 */
#include "belief.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../games/stratego/bot.h"
#include "../games/stratego/stratego.h"

#define RECORDS_MAX (64u << 20)

typedef struct tally {
    double belief, counts;
    long n;
} tally;

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len + 1 >= cap) {
            if (cap >= RECORDS_MAX) {
                free(buf);
                buf = NULL;
                break;
            }
            char *more = realloc(buf, cap * 2);
            if (!more) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - 1 - len, f);
        if (got == 0)
            break;
        len += got;
    }
    fclose(f);
    if (buf)
        buf[len] = 0;
    return buf;
}

/* The value of header `name` in the record at rec (up to end), into out. */
static int header(const char *rec, const char *end, const char *name, char *out, size_t size)
{
    char key[32];
    snprintf(key, sizeof key, "[%s \"", name);
    const char *h = strstr(rec, key);
    if (!h || h >= end)
        return -1;
    h += strlen(key);
    const char *q = strchr(h, '"');
    if (!q || q >= end || (size_t)(q - h) >= size)
        return -1;
    memcpy(out, h, (size_t)(q - h));
    out[q - h] = 0;
    return 0;
}

/* Scores the beliefs of both sides over one game; returns its plies, or
 * -1 if the record is not a Stratego game this can read. */
static int score_game(const char *rec, const char *end, uint64_t seed, tally t[3])
{
    char text[512];
    if (header(rec, end, "Variant", text, sizeof text) != 0 || strcmp(text, "stratego") != 0)
        return -1;
    st_pos pos;
    if (header(rec, end, "Start", text, sizeof text) != 0 || st_parse(&pos, text, NULL) != 0)
        return -1;
    pos.move_limit = 0;
    const char *body = strstr(rec, "\n\n");
    if (!body || body >= end)
        return -1;
    stbot *bots[2] = { stbot_new(STB_LEVELS, seed), stbot_new(STB_LEVELS, seed + 1) };
    static st_belief bel, cnt;
    int plies = 0;
    for (const char *s = body; bots[0] && bots[1] && s < end;) {
        while (s < end && (*s == ' ' || *s == '\n'))
            s++;
        size_t len = strcspn(s, " \n");
        if (len == 0 || len >= 16 || s + len > end)
            break;
        char tok[16];
        memcpy(tok, s, len);
        tok[len] = 0;
        s += len;
        if (tok[len - 1] == '.')
            continue;  /* a move number */
        game_move m;
        if (st_over(&pos) || st_parse_move(&pos, tok, &m, NULL) != 0)
            break;
        int side = pos.stm;
        st_pos view;
        st_view(&pos, side, &view);
        if (stbot_belief(bots[side], &view, &bel, &cnt) == 0) {
            for (int c = ST_CELL(0, 0); c <= ST_CELL(9, 9); c++) {
                uint8_t v = view.sq[c];
                if (!ST_IS_PIECE(v) || ST_KIND(v) != ST_UNKNOWN)
                    continue;
                int k = ST_KIND(pos.sq[c]);
                for (int i = 0; i < 3; i++) {
                    if ((i == 1 && (v & ST_MOVED)) || (i == 2 && !(v & ST_MOVED)))
                        continue;
                    t[i].belief += bel.p[c][k];
                    t[i].counts += cnt.p[c][k];
                    t[i].n++;
                }
            }
        }
        stbot_played(bots[side], &view, m);
        st_make(&pos, m);
        plies++;
    }
    stbot_free(bots[0]);
    stbot_free(bots[1]);
    return plies;
}

int belief_main(int argc, char **argv)
{
    if (argc != 1) {
        fprintf(stderr, "usage: citadel belief RECORDS  (a file of `citadel match --records`)\n");
        return 2;
    }
    char *all = read_all(argv[0]);
    if (!all) {
        fprintf(stderr, "citadel belief: cannot read %s\n", argv[0]);
        return 1;
    }
    tally t[3] = { { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } };
    int games = 0;
    long plies = 0;
    for (char *rec = strstr(all, "[Game "); rec;) {
        char *next = strstr(rec + 1, "[Game ");
        const char *end = next ? next : rec + strlen(rec);
        int p = score_game(rec, end, (uint64_t)games * 2 + 1, t);
        if (p >= 0) {
            games++;
            plies += p;
        }
        rec = next;
    }
    free(all);
    printf("games %d, plies %ld\n", games, plies);
    static const char *const names[3] = { "all unknown pieces", "never moved", "moved" };
    printf("%-20s %10s %12s %12s\n", "mean P(true rank)", "pieces", "belief", "counts only");
    for (int i = 0; i < 3; i++)
        printf("%-20s %10ld %12.4f %12.4f\n", names[i], t[i].n,
               t[i].n ? t[i].belief / (double)t[i].n : 0.0, t[i].n ? t[i].counts / (double)t[i].n : 0.0);
    return games > 0 ? 0 : 1;
}
