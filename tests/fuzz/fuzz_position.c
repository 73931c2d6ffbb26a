/* fuzz_position.c -- libFuzzer target for the R9 position reader.
 *
 * Any bytes: the reader either refuses them (with a message, leaving the
 * position untouched) or yields a position that satisfies every invariant,
 * formats to a string that reads back to the same position, and whose moves
 * can all be made.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/games/rampart/rampart.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    rp_pos p, before;
    memset(&p, 0xa5, sizeof p);
    before = p;
    game_error err = { "" };
    if (rp_parse(&p, text, 0, 0, &err) != 0) {
        assert(err.msg[0] != 0);
        assert(memcmp(&p, &before, sizeof p) == 0);
        free(text);
        return 0;
    }
    assert(rp_pos_ok(&p));
    char buf[256], again[256];
    rp_format(&p, buf, sizeof buf);
    rp_pos q;
    assert(rp_parse(&q, buf, 0, 0, NULL) == 0);
    rp_format(&q, again, sizeof again);
    assert(strcmp(buf, again) == 0);
    assert(q.key == p.key);
    rp_render(&p, buf, sizeof buf);
    game_move list[RP_MAX_MOVES];
    int n = rp_legal(&p, list);
    assert(n == 0 || n == rp_count(&p));
    for (int i = 0; i < n; i++) {
        rp_pos c = p;
        rp_make(&c, list[i]);
        assert(rp_pos_ok(&c));
        (void)rp_result(&c);
    }
    free(text);
    return 0;
}
