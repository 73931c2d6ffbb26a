/* main.c -- the `citadel` command: serve, uci, perft, bench, match, pgn,
 * variants, and the games' own tools.
 *
 * Each subcommand parses its own flags; a bad flag prints what is wrong and
 * the usage, and exits with status 2. A command that is none of these is
 * looked up among the games' tools (game.h's game_tools: Rampart's `tune`
 * and `train`, Stratego's `belief`), which are lent src/ai's searcher; the
 * command line never names a game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/search.h"
#include "../base/timer.h"
#include "../games/game.h"
#include "../server/serve.h"
#include "bench.h"
#include "match_cmd.h"
#include "pgn_cmd.h"
#include "uci.h"

/* The usage is usage_head, each game's tools (game_tool.usage), then
 * usage_tail. */
static const char usage_head[] =
    "usage: citadel <command> [options]\n"
    "\n"
    "commands:\n"
    "  serve [--listen ADDR:PORT] [--db FILE] [--web DIR]\n"
    "                           the web server: play, watch, ladders (docs/api.md)\n"
    "  admin grant|revoke NAME moderator|admin [--db FILE]\n"
    "                           give or take a role on the server's database\n"
    "  uci                      speak the UCI dialect on standard input/output\n"
    "  perft --variant V --depth N [--fen F] [--seed S] [--move-limit L]\n"
    "        [--set NAME=VALUE ...]\n"
    "                           count the move tree, one line per first move;\n"
    "                           --set changes a setting (`citadel uci` lists them)\n"
    "  bench [--depth N]        search the bench positions: node count and speed\n"
    "  bench perft [--depth N]  time bulk-counted perft from the Classic start\n"
    "  bench ab-material [--depth N]\n"
    "                           the bench positions searched by ab-material: its speed\n"
    "  match A B [options]      bot against bot: score, Elo +/- error, SPRT\n"
    "                           (`citadel match --help` lists the options)\n"
    "  pgn check FILE           read every game of a PGN file and replay its moves:\n"
    "                           one line per game, a summary (docs/pgn.md)\n"
    "  variants                 list every variant\n";
static const char usage_tail[] =
    "  help                     this text\n";

static void print_usage(FILE *out)
{
    fputs(usage_head, out);
    for (const game_tool *const *t = game_tools(); *t; t++)
        fputs((*t)->usage, out);
    fputs(usage_tail, out);
}

static int bad_usage(const char *what)
{
    fprintf(stderr, "citadel: %s\n\n", what);
    print_usage(stderr);
    return 2;
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int cmd_variants(void)
{
    for (const game_variant *const *v = game_variants(); *v; v++)
        printf("%-16s %-17s %s\n", (*v)->name, (*v)->rated ? "rated" : "unrated (Fun Zone)",
               (*v)->about);
    return 0;
}

static int cmd_perft(int argc, char **argv)
{
    const char *variant = "rampart", *fen = NULL;
    const char *sets[8];
    int nsets = 0;
    long depth = -1, seed = 0, limit = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc)
            return bad_usage("every perft option needs a value");
        const char *v = argv[++i];
        if (strcmp(a, "--variant") == 0)
            variant = v;
        else if (strcmp(a, "--fen") == 0)
            fen = v;
        else if (strcmp(a, "--depth") == 0) {
            if (parse_int(v, 1, 64, &depth))
                return bad_usage("--depth must be 1-64");
        } else if (strcmp(a, "--seed") == 0) {
            if (parse_int(v, 0, 1000000000L, &seed))
                return bad_usage("--seed must be a whole number >= 0");
        } else if (strcmp(a, "--move-limit") == 0) {
            if (parse_int(v, 0, 100000, &limit))
                return bad_usage("--move-limit must be 0-100000");
        } else if (strcmp(a, "--set") == 0 && nsets < 8) {
            sets[nsets++] = v;
        } else
            return bad_usage("unknown perft option");
    }
    if (depth < 0)
        return bad_usage("perft needs --depth");
    const game_variant *gv = game_variant_find(variant);
    if (!gv) {
        fprintf(stderr, "citadel: unknown variant '%s' (see `citadel variants`)\n", variant);
        return 2;
    }
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    game_error err;
    if (fen) {
        if (gv->ops->parse(gv, pos, fen, &err) != 0) {
            fprintf(stderr, "citadel: bad position: %s\n", err.msg);
            return 2;
        }
    } else {
        gv->ops->start(gv, pos, (uint64_t)seed);
    }
    if (limit && gv->ops->set_option(pos, "MoveLimit", (int)limit, &err) != 0) {
        fprintf(stderr, "citadel: %s\n", err.msg);
        return 2;
    }
    for (int i = 0; i < nsets; i++) {
        char name[64];
        const char *eq = strchr(sets[i], '=');
        long value;
        if (!eq || eq == sets[i] || (size_t)(eq - sets[i]) >= sizeof name ||
            parse_int(eq + 1, -1000000000L, 1000000000L, &value))
            return bad_usage("--set needs NAME=VALUE with a whole number");
        memcpy(name, sets[i], (size_t)(eq - sets[i]));
        name[eq - sets[i]] = 0;
        if (gv->ops->set_option(pos, name, (int)value, &err) != 0) {
            fprintf(stderr, "citadel: %s\n", err.msg);
            return 2;
        }
    }
    uint64_t t0 = timer_ns();
    uci_divide(gv, pos, (int)depth, stdout);
    double secs = (double)(timer_ns() - t0) / 1e9;
    fprintf(stderr, "time %.3f s\n", secs);
    return 0;
}

static int cmd_bench(int argc, char **argv)
{
    int perft = argc >= 1 && strcmp(argv[0], "perft") == 0;
    int ab = argc >= 1 && strcmp(argv[0], "ab-material") == 0;
    long depth = perft ? 6 : ab ? BENCH_AB_DEPTH : BENCH_DEPTH;
    for (int i = perft || ab; i < argc; i++) {
        if (strcmp(argv[i], "--depth") == 0 && i + 1 < argc) {
            if (parse_int(argv[++i], 1, perft ? 12 : ab ? BENCH_AB_MAX_DEPTH : 60, &depth))
                return bad_usage("--depth is out of range");
        } else
            return bad_usage("unknown bench option");
    }
    if (ab)
        return bench_ab_material((int)depth);
    return perft ? bench_perft((int)depth) : bench_search((int)depth);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return bad_usage("no command given");
    const char *cmd = argv[1];
    if (strcmp(cmd, "uci") == 0) {
        uci_loop(stdin, stdout);
        return 0;
    }
    if (strcmp(cmd, "serve") == 0)
        return serve_main(argc - 2, argv + 2);
    if (strcmp(cmd, "admin") == 0)
        return admin_main(argc - 2, argv + 2);
    if (strcmp(cmd, "perft") == 0)
        return cmd_perft(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0)
        return cmd_bench(argc - 2, argv + 2);
    if (strcmp(cmd, "match") == 0)
        return match_main(argc - 2, argv + 2);
    if (strcmp(cmd, "pgn") == 0)
        return pgn_main(argc - 2, argv + 2);
    if (strcmp(cmd, "variants") == 0)
        return cmd_variants();
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        print_usage(stdout);
        return 0;
    }
    const game_tool *tool = game_tool_find(cmd);
    if (tool) {
        const game_tool_env env = { .search = &search_tool, .bad_usage = bad_usage };
        return tool->run(argc - 2, argv + 2, &env);
    }
    return bad_usage("unknown command");
}
