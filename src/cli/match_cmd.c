/* match_cmd.c -- `citadel match`: parses the options, shows progress on
 * stderr, and prints the result on stdout:
 *
 *   Score of A vs B: W - L - D  [0.xxx] N
 *   Elo difference: X +/- Y
 *   SPRT: llr 2.97 (lbound -2.94, ubound 2.94) - H1 was accepted
 *
 * The last line only with --sprt. The playing is src/ai/match.c's.
 *
 * A variant of more than two sides gets the seat match of
 * src/ai/match_seats.c instead (chosen by nsides), whose options include
 * every setting of the variant as --kebab-case (GameType: --game-type):
 *
 *   Score of A vs 3x B (anarchy): W - L - D  [0.xxx] N
 *   Win rate: 0.xxx, 95% interval 0.xxx-0.xxx
 *   Plies per game: P, T s
 *
 * with, in brackets, the names of the settings that have them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../ai/bots.h"
#include "../ai/match.h"
#include "../ai/match_seats.h"
#include "../ai/multi_bot.h"
#include "../ai/stats.h"
#include "../base/file.h"
#include "../base/timer.h"
#include "../games/pgn.h"
#include "match_cmd.h"

static const char match_usage[] =
    "usage: citadel match A B [options]\n"
    "\n"
    "Plays bot A against bot B and prints the score, the Elo difference with its\n"
    "95% interval and, with --sprt, the SPRT verdict. Bots: level=N (1-6), greedy,\n"
    "random, attacker, mcts, \"uci:<command>\" (an engine speaking our UCI dialect),\n"
    "and each game's own: Stratego's cautious, stratego-v1, stratego-v6 and stratego-f=N\n"
    "(docs/stratego.md). Variants of more than two sides: see --variant V --help.\n"
    "\n"
    "options:\n"
"      --variant V          default rampart\n"
    "      --games N            default 100, rounded up to even: each opening is\n"
    "                           played twice, colours swapped\n"
    "      --concurrency C      games at once, default 1\n"
    "      --movetime MS | --tc BASE+INC (seconds, e.g. 10+0.1) | --depth N | --nodes N\n"
    "                           limits per move (any mix; without any, --movetime 100).\n"
    "                           Under --tc a side whose clock runs out loses by the\n"
    "                           game's time rule; a bot that returns no move or an\n"
    "                           illegal one loses (reason \"illegal\")\n"
    "      --move-limit N       the variant's MoveLimit (0 = none); default 100 where\n"
    "                           the variant's own default is none (Rampart: full\n"
    "                           moves), else that default (Stratego: 1000 plies)\n"
    "      --openings-plies K   random plies of each opening, default 4; with\n"
    "                           --openings, the plies taken from each game\n"
    "      --openings FILE.pgn  openings from a PGN file, one per pair of games in\n"
    "                           the file's order (again from the first when they\n"
    "                           run out): each game's start and its moves (all of\n"
    "                           them, at most 40, or the first K)\n"
    "      --setups own|library where the variant has setups (Stratego): own, the\n"
    "                           default, asks each bot for its setup (an engine:\n"
    "                           go setup); library draws a start of the variant's\n"
    "                           (library pairs) as before. Not with --openings\n"
    "      --seed S             openings and bots' random choices, default 0\n"
    "      --sprt [elo0=0] [elo1=10] [alpha=0.05] [beta=0.05]\n"
    "                           stop when the SPRT accepts a hypothesis\n"
    "      --records FILE       append every game as a text record\n"
    "      --quiet              no progress on stderr\n";

__attribute__((format(printf, 1, 2))) static int bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("citadel: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n\n%s", match_usage);
    return 2;
}

static int whole(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int real(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || v != v)
        return -1;
    *out = v;
    return 0;
}

/* "BASE" or "BASE+INC", in seconds. */
static int parse_tc(const char *s, match_config *cfg)
{
    char buf[64];
    if (strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    char *plus = strchr(buf, '+');
    double base, inc = 0.0;
    if (plus)
        *plus = 0;
    if (real(buf, &base) || base <= 0 || base > 1e6 || (plus && real(plus + 1, &inc)) ||
        inc < 0 || inc > 1e6)
        return -1;
    cfg->base_ms = (int64_t)(base * 1000.0 + 0.5);
    cfg->inc_ms = (int64_t)(inc * 1000.0 + 0.5);
    return cfg->base_ms > 0 ? 0 : -1;
}

/* Reads the key=value words after --sprt; returns how many it took, or -1. */
static int parse_sprt(int argc, char **argv, match_config *cfg)
{
    int used = 0;
    for (; used < argc; used++) {
        const char *a = argv[used], *eq = strchr(a, '=');
        double *to = NULL;
        if (!eq)
            break;
        size_t k = (size_t)(eq - a);
        if (k == 4 && strncmp(a, "elo0", 4) == 0)
            to = &cfg->elo0;
        else if (k == 4 && strncmp(a, "elo1", 4) == 0)
            to = &cfg->elo1;
        else if (k == 5 && strncmp(a, "alpha", 5) == 0)
            to = &cfg->alpha;
        else if (k == 4 && strncmp(a, "beta", 4) == 0)
            to = &cfg->beta;
        else
            break;
        if (real(eq + 1, to))
            return -1;
    }
    return used;
}

typedef struct progress {
    int tty;
    int tenths;   /* of the match reported so far, when not a tty */
} progress;

static void show_progress(void *ctx, const match_tally *t)
{
    progress *p = ctx;
    int done = t->wins + t->losses + t->draws;
    stats_elo e = stats_elo_of(t->wins, t->losses, t->draws);
    if (p->tty) {
        char bar[21];
        int fill = (int)((long long)done * 20 / t->games);
        for (int i = 0; i < 20; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[20] = 0;
        fprintf(stderr, "\r[%s] %d/%d  %d-%d-%d  Elo %.1f +/- %.1f   ", bar, done, t->games,
                t->wins, t->losses, t->draws, e.elo, e.margin);
    } else {
        int tenths = (int)((long long)done * 10 / t->games);
        if (tenths <= p->tenths)
            return;
        p->tenths = tenths;
        fprintf(stderr, "%d/%d games  %d-%d-%d  Elo %.1f +/- %.1f\n", done, t->games, t->wins,
                t->losses, t->draws, e.elo, e.margin);
    }
    fflush(stderr);
}

static void print_result(const match_config *cfg, const match_tally *t)
{
    int n = t->wins + t->losses + t->draws;
    stats_elo e = stats_elo_of(t->wins, t->losses, t->draws);
    printf("Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", cfg->spec[0], cfg->spec[1], t->wins,
           t->losses, t->draws, e.score, n);
    printf("Elo difference: %.1f +/- %.1f\n", e.elo, e.margin);
    if (cfg->sprt) {
        const stats_sprt *s = &t->sprt;
        printf("SPRT: llr %.2f (lbound %.2f, ubound %.2f) - %s\n", s->llr, s->lbound, s->ubound,
               s->verdict == STATS_SPRT_H1   ? "H1 was accepted"
               : s->verdict == STATS_SPRT_H0 ? "H0 was accepted"
                                             : "no hypothesis was accepted");
    }
    fflush(stdout);
}

/* --- games of more than two sides ---------------------------------------- */

/* An option's flag: "GameType" -> "game-type". */
static void flag_of(const char *name, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = name; *c && n + 2 < size; c++) {
        if (*c >= 'A' && *c <= 'Z') {
            if (c != name)
                out[n++] = '-';
            out[n++] = (char)(*c - 'A' + 'a');
        } else {
            out[n++] = *c;
        }
    }
    out[n] = 0;
}

/* Writes text to f wrapped before 80 columns, each line after the first
 * indented by `indent` spaces. */
static void wrapped(FILE *f, const char *text, int col, int indent)
{
    while (*text) {
        size_t len = strcspn(text, " ");
        if (col > indent && col + 1 + (int)len > 79) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", (int)len, text);
        col += (int)len;
        text += len;
        text += strspn(text, " ");
    }
    fputc('\n', f);
}

static void seats_usage(const game_variant *v, FILE *f)
{
    char text[1024];
    fprintf(f, "usage: citadel match A B --variant %s [options]\n\n", v->name);
    size_t n = (size_t)snprintf(text, sizeof text,
                                "Plays bot A against %d copies of bot B, A's seat rotating game "
                                "by game, and prints A's score and win rate with its 95%% "
                                "interval. Bots: ",
                                v->nsides - 1);
    if (n < sizeof text)
        n += bot_specs(v, text + n, sizeof text - n);
    if (n < sizeof text)
        snprintf(text + n, sizeof text - n, "%s",
                 v->ops->bots && v->ops->bots->styles
                     ? ", the style bots optionally with " MULTIBOT_OPTIONS "."
                     : ".");
    wrapped(f, text, 0, 0);
    fprintf(f, "\noptions:\n      --games N            default 100\n");
    for (const game_option *o = v->options; o && o->name; o++) {
        char flag[64], arg[68];
        flag_of(o->name, flag, sizeof flag);
        snprintf(arg, sizeof arg, "%s N", flag);
        int width = fprintf(f, "      --%-18s ", arg);
        snprintf(text, sizeof text, "%s (%d-%d, default %d)", o->help, o->min, o->max, o->def);
        wrapped(f, text, width, 27);
    }
    fprintf(f, "      --movetime MS | --depth N | --nodes N\n"
               "                           limits per move for the bots that read them (none\n"
               "                           by default; capture and the style bots ignore them)\n"
               "      --openings-plies K   random plies at the start of each game, default 4\n"
               "      --seed S             default 0\n"
               "      --records FILE       append every game's PGN record (docs/pgn.md)\n"
               "      --quiet              no progress on stderr\n");
}

__attribute__((format(printf, 2, 3))) static int seats_bad(const game_variant *v,
                                                          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("citadel: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n\n", stderr);
    seats_usage(v, stderr);
    return 2;
}

static void seats_progress(void *ctx, const seats_tally *t)
{
    (void)ctx;
    int done = t->wins + t->losses + t->draws;
    if (done % 10 == 0 || done == t->games) {
        fprintf(stderr, "\r%d/%d games: %d - %d - %d", done, t->games, t->wins, t->losses,
                t->draws);
        fflush(stderr);
    }
}

/* `citadel match A B --variant V` for a variant v of more than two sides. */
static int seats_main(int argc, char **argv, const game_variant *v)
{
    seats_config cfg = { .variant = v, .games = 100, .opening_plies = 4,
                         .lim = { .time = { -1, -1 } } };
    int nspecs = 0, quiet = 0;
    const char *records = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        long long x;
        if (strncmp(a, "--", 2) != 0) {
            if (nspecs == 2)
                return seats_bad(v, "one bot too many: '%s'", a);
            cfg.spec[nspecs++] = a;
            continue;
        }
        if (strcmp(a, "--help") == 0) {
            seats_usage(v, stdout);
            return 0;
        }
        if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
            continue;
        }
        if (i + 1 >= argc)
            return seats_bad(v, "%s needs a value", a);
        const char *val = argv[++i];
        const game_option *opt = NULL;
        for (const game_option *o = v->options; o && o->name && !opt; o++) {
            char flag[64];
            flag_of(o->name, flag, sizeof flag);
            if (strcmp(a + 2, flag) == 0)
                opt = o;
        }
        if (opt) {
            if (whole(val, opt->min, opt->max, &x))
                return seats_bad(v, "%s must be %d-%d, not '%s'", a, opt->min, opt->max, val);
            int k = 0;
            while (k < cfg.nsettings && strcmp(cfg.settings[k].name, opt->name) != 0)
                k++;
            if (k == SEATS_MAX_SETTINGS)
                return seats_bad(v, "too many settings");
            cfg.settings[k] = (seats_setting){ opt->name, (int)x };
            cfg.nsettings += k == cfg.nsettings;
        } else if (strcmp(a, "--variant") == 0) {
            if (strcmp(val, v->name) != 0)
                return seats_bad(v, "--variant given twice: '%s'", val);
        } else if (strcmp(a, "--games") == 0) {
            if (whole(val, 1, 10000000, &x))
                return seats_bad(v, "--games must be 1-10000000, not '%s'", val);
            cfg.games = (int)x;
        } else if (strcmp(a, "--movetime") == 0) {
            if (whole(val, 1, 100000000, &x))
                return seats_bad(v, "--movetime must be 1-100000000 ms, not '%s'", val);
            cfg.lim.movetime = x;
        } else if (strcmp(a, "--depth") == 0) {
            if (whole(val, 1, SEARCH_MAX_PLY - 1, &x))
                return seats_bad(v, "--depth must be 1-127, not '%s'", val);
            cfg.lim.depth = (int)x;
        } else if (strcmp(a, "--nodes") == 0) {
            if (whole(val, 1, 1000000000000000LL, &x))
                return seats_bad(v, "--nodes must be a whole number >= 1, not '%s'", val);
            cfg.lim.nodes = (uint64_t)x;
        } else if (strcmp(a, "--openings-plies") == 0) {
            if (whole(val, 0, MATCH_MAX_OPENING_PLIES, &x))
                return seats_bad(v, "--openings-plies must be 0-40, not '%s'", val);
            cfg.opening_plies = (int)x;
        } else if (strcmp(a, "--records") == 0) {
            records = val;
        } else if (strcmp(a, "--seed") == 0) {
            char *end;
            errno = 0;
            cfg.seed = strtoull(val, &end, 10);
            if (end == val || *end || errno || val[0] == '-')
                return seats_bad(v, "--seed must be a whole number >= 0, not '%s'", val);
        } else {
            return seats_bad(v, "unknown match option '%s'", a);
        }
    }
    if (nspecs < 2)
        return seats_bad(v, "match needs two bots, e.g. `citadel match random attacker "
                            "--variant %s`", v->name);
    char err[400];
    if (seats_check(&cfg, err, sizeof err) != 0)
        return seats_bad(v, "%s", err);
    if (!quiet)
        cfg.progress = seats_progress;
    if (records && !(cfg.records = fopen(records, "a")))
        return seats_bad(v, "cannot open the records file '%s'", records);
    uint64_t t0 = timer_ns();
    seats_tally t;
    int rc = seats_run(&cfg, &t, err, sizeof err);
    if (cfg.records && fclose(cfg.records) != 0 && rc == 0) {
        snprintf(err, sizeof err, "could not write the records file %s", records);
        rc = -1;
    }
    if (!quiet)
        fputc('\n', stderr);
    int games = t.wins + t.losses + t.draws;
    if (rc != 0) {
        fprintf(stderr, "citadel: match stopped: %s\n", err);
        if (!games)
            return 1;
    }
    /* The names of the settings in force that have them: " (anarchy)". */
    char forms[128] = "";
    size_t n = 0;
    for (const game_option *o = v->options; o && o->name; o++) {
        if (!o->labels)
            continue;
        int value = o->def;
        for (int k = 0; k < cfg.nsettings; k++)
            if (strcmp(cfg.settings[k].name, o->name) == 0)
                value = cfg.settings[k].value;
        if (n < sizeof forms)
            n += (size_t)snprintf(forms + n, sizeof forms - n, "%s%s", n ? " " : " (",
                                  o->labels[value - o->min]);
    }
    if (n && n < sizeof forms)
        snprintf(forms + n, sizeof forms - n, ")");
    double lo, hi, rate = games ? (double)t.wins / games : 0.0;
    stats_wilson(t.wins, games, &lo, &hi);
    printf("Score of %s vs %dx %s%s: %d - %d - %d  [%.3f] %d\n", cfg.spec[0], v->nsides - 1,
           cfg.spec[1], forms, t.wins, t.losses, t.draws, rate, games);
    printf("Win rate: %.3f, 95%% interval %.3f-%.3f\n", rate, lo, hi);
    printf("Plies per game: %.1f, %.1f s\n", games ? (double)t.plies / games : 0.0,
           (double)(timer_ns() - t0) / 1e9);
    fflush(stdout);
    return rc != 0 ? 1 : 0;
}

/* --- openings from a PGN file --------------------------------------------- */

/* Reads the openings of cfg's match from the PGN file at path: each game's
 * start and its first `plies` moves (-1: all of them), the match's move
 * limit set. Returns how many, with the list in *out (the caller frees
 * it), or -1 after saying why on stderr. */
static int read_openings(const match_config *cfg, const char *path, int plies,
                         match_opening **out)
{
    char err[320];
    size_t len = 0;
    char *text = file_read_all(path, PGN_FILE_MAX, &len, err, sizeof err);
    if (!text) {
        fprintf(stderr, "citadel: --openings: %s\n", err);
        return -1;
    }
    const game_ops *ops = cfg->variant->ops;
    pgn_record r;
    pgn_record_init(&r);
    static pgn_replayed rp;
    match_opening *list = NULL;
    int n = 0, cap = 0, games = 0, rc, failed = 0;
    size_t at = 0;
    int line = 1;
    while (!failed && (rc = pgn_next(text, len, &at, &line, &r, err, sizeof err)) != 0) {
        games++;
        game_move moves[MATCH_MAX_OPENING_PLIES];
        if (rc > 0)
            rc = pgn_replay(&r, &rp, moves, MATCH_MAX_OPENING_PLIES, err, sizeof err);
        if (rc > 0)
            snprintf(err, sizeof err, "line %d: a game with hidden pieces and no FEN", r.line);
        else if (rc == 0 && rp.v != cfg->variant)
            snprintf(err, sizeof err, "line %d: a game of %s, not %s", r.line, rp.v->name,
                     cfg->variant->name);
        else if (rc == 0 && plies < 0 && rp.nplies > MATCH_MAX_OPENING_PLIES)
            snprintf(err, sizeof err, "line %d: %d plies, more than %d (give --openings-plies)",
                     r.line, rp.nplies, MATCH_MAX_OPENING_PLIES);
        else if (rc == 0 && plies > rp.nplies)
            snprintf(err, sizeof err, "line %d: %d plies, fewer than --openings-plies %d",
                     r.line, rp.nplies, plies);
        else if (rc == 0)
            err[0] = 0;
        if (err[0]) {
            fprintf(stderr, "citadel: --openings: %s: game %d: %s\n", path, games, err);
            failed = 1;
            break;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            match_opening *more = realloc(list, (size_t)cap * sizeof *more);
            if (!more) {
                fprintf(stderr, "citadel: --openings: out of memory\n");
                failed = 1;
                break;
            }
            list = more;
        }
        match_opening *o = &list[n];
        memcpy(o->start, rp.start, ops->pos_size);
        o->nplies = plies < 0 ? rp.nplies : plies;
        memcpy(o->plies, moves, (size_t)o->nplies * sizeof *moves);
        /* The match's move limit, then the plies again: they must leave
         * the game going. */
        game_error ge;
        _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
        for (const game_option *opt = cfg->variant->options; opt && opt->name; opt++)
            if (strcmp(opt->name, "MoveLimit") == 0 &&
                ops->set_option(o->start, "MoveLimit", cfg->move_limit, &ge) != 0) {
                fprintf(stderr, "citadel: --openings: %s\n", ge.msg);
                failed = 1;
            }
        memcpy(pos, o->start, ops->pos_size);
        for (int i = 0; i < o->nplies; i++)
            ops->make(pos, o->plies[i], undo);
        if (!failed && ops->result(pos).over) {
            fprintf(stderr, "citadel: --openings: %s: game %d (line %d): the game is over "
                            "after its %d plies (give fewer with --openings-plies)\n",
                    path, games, r.line, o->nplies);
            failed = 1;
        }
        n++;
    }
    if (!failed && rc < 0) {
        fprintf(stderr, "citadel: --openings: %s: game %d: %s\n", path, games, err);
        failed = 1;
    }
    pgn_record_free(&r);
    free(text);
    if (!failed && n == 0) {
        fprintf(stderr, "citadel: --openings: no game in %s\n", path);
        failed = 1;
    }
    if (failed) {
        free(list);
        return -1;
    }
    *out = list;
    return n;
}

/* --- two sides -------------------------------------------------------------- */

int match_main(int argc, char **argv)
{
    /* Games of more than two sides have a match of their own. */
    for (int i = 0; i + 1 < argc; i++)
        if (strcmp(argv[i], "--variant") == 0) {
            const game_variant *v = game_variant_find(argv[i + 1]);
            if (v && v->nsides > 2)
                return seats_main(argc, argv, v);
        }
    match_config cfg;
    match_defaults(&cfg);
    int nspecs = 0, quiet = 0, limited = 0, limit_given = 0, plies_given = 0;
    const char *variant = "rampart", *openings = NULL, *setups = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        long long v;
        if (strncmp(a, "--", 2) != 0) {
            if (nspecs == 2)
                return bad("one bot too many: '%s'", a);
            cfg.spec[nspecs++] = a;
            continue;
        }
        if (strcmp(a, "--help") == 0) {
            fputs(match_usage, stdout);
            return 0;
        }
        if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
            continue;
        }
        if (strcmp(a, "--sprt") == 0) {
            int used = parse_sprt(argc - i - 1, argv + i + 1, &cfg);
            if (used < 0)
                return bad("%s: bad SPRT value (want elo0=0 elo1=10 alpha=0.05 beta=0.05)", a);
            cfg.sprt = 1;
            i += used;
            continue;
        }
        if (i + 1 >= argc)
            return bad("%s needs a value", a);
        const char *val = argv[++i];
        if (strcmp(a, "--variant") == 0) {
            variant = val;
        } else if (strcmp(a, "--games") == 0) {
            if (whole(val, 1, 100000000, &v))
                return bad("--games must be 1-100000000, not '%s'", val);
            cfg.games = (int)v;
        } else if (strcmp(a, "--concurrency") == 0) {
            if (whole(val, 1, 256, &v))
                return bad("--concurrency must be 1-256, not '%s'", val);
            cfg.concurrency = (int)v;
        } else if (strcmp(a, "--movetime") == 0) {
            if (whole(val, 1, 100000000, &v))
                return bad("--movetime must be 1-100000000 ms, not '%s'", val);
            cfg.movetime = v;
            limited = 1;
        } else if (strcmp(a, "--tc") == 0) {
            if (parse_tc(val, &cfg))
                return bad("--tc must be BASE+INC in seconds (e.g. 10+0.1), not '%s'", val);
            limited = 1;
        } else if (strcmp(a, "--depth") == 0) {
            if (whole(val, 1, SEARCH_MAX_PLY - 1, &v))
                return bad("--depth must be 1-127, not '%s'", val);
            cfg.depth = (int)v;
            limited = 1;
        } else if (strcmp(a, "--nodes") == 0) {
            if (whole(val, 1, 1000000000000000LL, &v))
                return bad("--nodes must be a whole number >= 1, not '%s'", val);
            cfg.nodes = (uint64_t)v;
            limited = 1;
        } else if (strcmp(a, "--move-limit") == 0) {
            if (whole(val, 0, 100000, &v))
                return bad("--move-limit must be 0-100000, not '%s'", val);
            cfg.move_limit = (int)v;
            limit_given = 1;
        } else if (strcmp(a, "--openings-plies") == 0) {
            if (whole(val, 0, MATCH_MAX_OPENING_PLIES, &v))
                return bad("--openings-plies must be 0-40, not '%s'", val);
            cfg.opening_plies = (int)v;
            plies_given = 1;
        } else if (strcmp(a, "--openings") == 0) {
            openings = val;
        } else if (strcmp(a, "--setups") == 0) {
            if (strcmp(val, "own") != 0 && strcmp(val, "library") != 0)
                return bad("--setups must be own or library, not '%s'", val);
            setups = val;
        } else if (strcmp(a, "--seed") == 0) {
            char *end;
            errno = 0;
            cfg.seed = strtoull(val, &end, 10);
            if (end == val || *end || errno || val[0] == '-')
                return bad("--seed must be a whole number >= 0, not '%s'", val);
        } else if (strcmp(a, "--records") == 0) {
            cfg.records = val;
        } else {
            return bad("unknown match option '%s'", a);
        }
    }
    if (nspecs < 2)
        return bad("%s", "match needs two bots, e.g. `citadel match level=6 greedy`");
    if (!(cfg.alpha > 0 && cfg.alpha < 1 && cfg.beta > 0 && cfg.beta < 1))
        return bad("%s", "--sprt: alpha and beta must be between 0 and 1");
    if (!(cfg.elo0 < cfg.elo1))
        return bad("%s", "--sprt: elo0 must be below elo1");
    cfg.variant = game_variant_find(variant);
    if (!cfg.variant)
        return bad("unknown variant '%s' (see `citadel variants`)", variant);
    if (cfg.variant->nsides != 2)
        return bad("variant '%s' is not for two players", variant);
    if (setups && !cfg.variant->ops->setup)
        return bad("--setups: variant '%s' has no setups", variant);
    if (setups && openings && strcmp(setups, "own") == 0)
        return bad("%s", "--setups own and --openings: the openings' starts hold their setups");
    cfg.own_setups = !setups || strcmp(setups, "own") == 0;
    for (const game_option *o = cfg.variant->options; !limit_given && o && o->name; o++)
        if (strcmp(o->name, "MoveLimit") == 0 && o->def > 0)
            cfg.move_limit = o->def;
    if (!limited)
        cfg.movetime = 100;
    for (int i = 0; i < 2; i++) {
        char why[320] = "";
        bot *b = bot_new(cfg.spec[i], 0, why, sizeof why);
        if (!b) {
            fprintf(stderr, "citadel: bot '%s': %s\n", cfg.spec[i], why);
            return bad("%s", "bad bot spec");
        }
        bot_free(b);
    }
    if (cfg.records) {
        FILE *f = fopen(cfg.records, "a");
        if (!f)
            return bad("cannot open the records file '%s'", cfg.records);
        fclose(f);
    }

    match_opening *book = NULL;
    if (openings) {
        int n = read_openings(&cfg, openings, plies_given ? cfg.opening_plies : -1, &book);
        if (n < 0)
            return bad("%s", "bad --openings file");
        cfg.openings = book;
        cfg.nopenings = n;
    }

    progress p = { isatty(STDERR_FILENO), 0 };
    if (!quiet) {
        cfg.progress = show_progress;
        cfg.progress_ctx = &p;
    }
    match_tally t;
    char err[200];
    int rc = match_run(&cfg, &t, err, sizeof err);
    free(book);
    if (!quiet && p.tty)
        fputc('\n', stderr);
    if (rc != 0) {
        fprintf(stderr, "citadel: match stopped: %s\n", err);
        if (t.wins + t.losses + t.draws)
            print_result(&cfg, &t);
        return 1;
    }
    print_result(&cfg, &t);
    return 0;
}
