/* fuzz_uci.c -- libFuzzer target for the UCI command reader.
 *
 * Input is split into lines, each carried out by one session; replies go to
 * /dev/null. No line may crash or hang the session (perft depth is capped;
 * a search started by `go` is stopped at the end of the input).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/cli/uci.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    uci_session *s = malloc(sizeof *s);
    char *text = malloc(size + 1);
    if (!s || !text || !sink) {
        free(s);
        free(text);
        return 0;
    }
    uci_init(s);
    s->max_perft_depth = 3;
    memcpy(text, data, size);
    text[size] = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (uci_command(s, line, sink))
            break;
    uci_finish(s);
    free(text);
    free(s);
    return 0;
}
