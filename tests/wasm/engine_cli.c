/* engine_cli.c -- src/wasm/engine.c built natively, driven by lines on
 * standard input, for tests/wasm/compare.mjs, which sends the same lines
 * to the WebAssembly build and holds the answers equal.
 *
 * Each line is a command and its arguments; the text argument, if any,
 * last (it may hold spaces):
 *   variants | set SLOT SEED TEXT | copy FROM TO | format SLOT | stm SLOT
 *   moves SLOT | play SLOT MOVE | result SLOT | option SLOT VALUE NAME
 *   view FROM SIDE TO | describe SLOT MOVE | effects SLOT MOVE | threats SLOT | options SLOT
 *   squares SLOT | kinds SLOT | areas SLOT
 *   search SLOT DEPTH MOVETIME HASH_MB | multi SLOT DEPTH NODES STYLE
 *   multifor SLOT DEPTH NODES STYLE SIDE
 *   lines SLOT DEPTH HASH_MB LINES | bot SLOT MOVETIME NODES | belief SLOT
 * Each answer is one line: the function's return value, a tab, and the
 * buffer (its newlines written as '|').
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wasm/engine.h"

/* The text after the first `skip` fields of line (spaces apart). */
static const char *rest(const char *line, int skip)
{
    const char *p = line;
    for (int i = 0; i < skip && p; i++) {
        p = strchr(p, ' ');
        if (p)
            p++;
    }
    return p ? p : "";
}

static void put_text(const char *text)
{
    snprintf(eng_buf(), ENG_BUF, "%s", text);
}

int main(void)
{
    char line[ENG_BUF];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        char cmd[16] = "";
        int a = 0, b = 0, c = 0;
        sscanf(line, "%15s %d %d %d", cmd, &a, &b, &c);
        int rc;
        if (strcmp(cmd, "variants") == 0) {
            rc = eng_variants();
        } else if (strcmp(cmd, "set") == 0) {
            put_text(rest(line, 3));
            rc = eng_set(a, (unsigned)b);
        } else if (strcmp(cmd, "copy") == 0) {
            rc = eng_copy(a, b);
        } else if (strcmp(cmd, "format") == 0) {
            rc = eng_format(a);
        } else if (strcmp(cmd, "stm") == 0) {
            rc = eng_side_to_move(a);
            eng_buf()[0] = 0;
        } else if (strcmp(cmd, "moves") == 0) {
            rc = eng_moves(a);
        } else if (strcmp(cmd, "play") == 0) {
            put_text(rest(line, 2));
            rc = eng_play(a);
        } else if (strcmp(cmd, "result") == 0) {
            rc = eng_result(a);
        } else if (strcmp(cmd, "option") == 0) {
            put_text(rest(line, 3));
            rc = eng_set_option(a, b);
        } else if (strcmp(cmd, "view") == 0) {
            rc = eng_view(a, b, c);
        } else if (strcmp(cmd, "describe") == 0) {
            put_text(rest(line, 2));
            rc = eng_describe(a);
        } else if (strcmp(cmd, "effects") == 0) {
            put_text(rest(line, 2));
            rc = eng_effects(a);
        } else if (strcmp(cmd, "threats") == 0) {
            rc = eng_threats(a);
        } else if (strcmp(cmd, "multi") == 0) {
            int d = 0;
            sscanf(line, "%*s %*d %*d %*d %d", &d);
            rc = eng_multi(a, b, c, d);
        } else if (strcmp(cmd, "multifor") == 0) {
            int d = 0, e = 0;
            sscanf(line, "%*s %*d %*d %*d %d %d", &d, &e);
            rc = eng_multi_for(a, b, c, d, e);
        } else if (strcmp(cmd, "search") == 0) {
            int d = 0;
            sscanf(line, "%*s %*d %*d %*d %d", &d);
            rc = eng_search(a, b, c, d);
        } else if (strcmp(cmd, "lines") == 0) {
            int d = 0;
            sscanf(line, "%*s %*d %*d %*d %d", &d);
            rc = eng_lines(a, b, c, d);
        } else if (strcmp(cmd, "squares") == 0) {
            rc = eng_squares(a);
        } else if (strcmp(cmd, "options") == 0) {
            rc = eng_options(a);
        } else if (strcmp(cmd, "kinds") == 0) {
            rc = eng_kinds(a);
        } else if (strcmp(cmd, "areas") == 0) {
            rc = eng_areas(a);
        } else if (strcmp(cmd, "bot") == 0) {
            rc = eng_bot(a, b, c);
        } else if (strcmp(cmd, "botlines") == 0) {
            int d = 0;
            sscanf(line, "%*s %*d %*d %*d %d", &d);
            rc = eng_bot_lines(a, b, c, d);
        } else if (strcmp(cmd, "belief") == 0) {
            rc = eng_belief(a);
        } else {
            printf("unknown command %s\n", cmd);
            return 2;
        }
        for (char *p = eng_buf(); *p; p++)
            if (*p == '\n')
                *p = '|';
        printf("%d\t%s\n", rc, eng_buf());
    }
    return 0;
}
