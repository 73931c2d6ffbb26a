/* fuzz_move.c -- libFuzzer target for the move reader.
 *
 * The first byte picks a variant and start; the rest is a space-separated
 * list of move texts. Each is read against the position in force: refused
 * with a message and no change, or legal and played.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/games/rampart/rampart.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const game_variant *const *all = game_variants();
    int nv = 0;
    while (all[nv] && strcmp(all[nv]->family, "rampart") == 0)
        nv++;  /* the Rampart forms, listed first */
    const game_variant *v = all[data[0] % nv];
    rp_pos p;
    v->ops->start(v, &p, data[0]);
    if (data[0] & 0x80)
        p.move_limit = 3;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    char *save = NULL;
    for (char *t = strtok_r(text, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        rp_pos before = p;
        game_move m;
        game_error err = { "" };
        if (rp_parse_move(&p, t, &m, &err) != 0) {
            assert(err.msg[0] != 0);
            assert(memcmp(&p, &before, sizeof p) == 0);
            continue;
        }
        char back[16];
        rp_format_move(&p, m, back, sizeof back);
        game_move again;
        assert(rp_parse_move(&p, back, &again, NULL) == 0 && again == m);
        rp_make(&p, m);
        assert(rp_pos_ok(&p));
    }
    free(text);
    return 0;
}
