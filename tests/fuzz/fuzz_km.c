/* fuzz_km.c -- libFuzzer target for the Keeps & Moats readers (K7).
 *
 * The first line is a position string, or "@" followed by two digits for
 * the start of a game type and King result; the rest is a space-separated
 * list of moves. A position or move is either refused with a one-line
 * message, leaving the position untouched, or accepted: a position then
 * keeps every invariant and reads back from its own text, and a move reads
 * back from its own text and is played.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/games/keeps-moats/keeps_moats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void round_trip(const km_pos *p)
{
    char a[1024], b[1024];
    assert(km_pos_ok(p));
    km_format(p, a, sizeof a);
    km_pos q;
    assert(km_parse(&q, a, NULL) == 0);
    km_format(&q, b, sizeof b);
    assert(strcmp(a, b) == 0);
    assert(km_hash(&q) == km_hash(p));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char *nl = strchr(text, '\n');
    char *moves = nl ? nl + 1 : text + size;
    if (nl)
        *nl = 0;
    km_pos p;
    if (text[0] == '@') {
        int gt = text[1] ? (text[1] & 0xff) % 3 : 2, kr = text[1] && text[2] ? (text[2] & 0xff) % 3 : 0;
        km_start(&p, gt, kr);
        if (text[1] && text[2] && text[3])
            p.limit = (text[3] & 0xff) % 4;
    } else {
        km_pos before;
        memset(&p, 0x5a, sizeof p);
        before = p;
        game_error err = { "" };
        if (km_parse(&p, text, &err) != 0) {
            assert(err.msg[0] != 0 && !strchr(err.msg, '\n'));
            assert(memcmp(&p, &before, sizeof p) == 0);
            free(text);
            return 0;
        }
    }
    round_trip(&p);
    char board[2048];
    km_render(&p, board, sizeof board);
    char *save = NULL;
    for (char *t = strtok_r(moves, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
        km_pos before = p;
        game_move m;
        game_error err = { "" };
        if (km_parse_move(&p, t, &m, &err) != 0) {
            assert(err.msg[0] != 0);
            assert(memcmp(&p, &before, sizeof p) == 0);
            continue;
        }
        char back[32];
        km_format_move(&p, m, back, sizeof back);
        game_move again;
        assert(km_parse_move(&p, back, &again, NULL) == 0 && again == m);
        km_make(&p, m);
        round_trip(&p);
        (void)km_result(&p);
    }
    free(text);
    return 0;
}
