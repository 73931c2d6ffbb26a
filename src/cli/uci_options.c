/* uci_options.c -- the options of `citadel uci`: what `uci` announces and
 * what setoption does (docs/uci.md), how the settings reach a position,
 * and the error line every command prints.
 *
 * Every option `uci` announces is one setoption takes, under the same name
 * (any case; names may have spaces, "Move Overhead"), type and range; a
 * setoption that is refused prints why and changes nothing. The games'
 * own settings (game_option: MoveLimit, ...) are announced with the
 * defaults of the variant in force, inside `uci` ... `uciok`, where a
 * client reads them. Choosing the variant in force again keeps every
 * setting; choosing another starts its own settings at its defaults.
 */
#include "uci.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* UCI_Elo's scale: the ladder's, level L at the rating its bot account
 * enters Rampart Classic's ladder at (docs/bots.md "Where bots enter the
 * ladder", src/server/play/seeds.c): level 1 at R8's 1500, the others at
 * their Elo over it as measured against each other. */
#define ELO_BASE 1500
static const int level_elo[SEARCH_LEVELS] = { 0, 660, 950, 1020, 1300, 1470 };
#define ELO_MIN ELO_BASE
#define ELO_MAX (ELO_BASE + 1470)

int uci_apply_options(const uci_session *s, void *pos, int from_text, game_error *err)
{
    for (const game_option *o = s->variant->options; o && o->name; o++) {
        if (from_text && o->in_position)
            continue;
        for (int i = 0; i < s->nopts; i++)
            if (s->opts[i].set && strcmp(s->opts[i].name, o->name) == 0 &&
                s->variant->ops->set_option(pos, o->name, s->opts[i].value, err) != 0)
                return -1;
    }
    return 0;
}

void uci_start_position(uci_session *s, void *pos)
{
    game_error err;
    s->variant->ops->start(s->variant, pos, (uint64_t)s->start_index);
    uci_apply_options(s, pos, 0, &err);
}

void uci_error(FILE *out, const char *msg)
{
    fprintf(out, "info string error: %s\n", msg);
}

void uci_options_init(uci_session *s)
{
    s->threads = 1;
    s->move_overhead = 0;
    s->ponder = 0;
    s->limit_strength = 0;
    s->elo = ELO_MIN;
    s->analyse_mode = 0;
}

int uci_elo_level(int elo)
{
    int best = 1;
    for (int l = 2; l <= SEARCH_LEVELS; l++)
        if (abs(elo - (ELO_BASE + level_elo[l - 1])) < abs(elo - (ELO_BASE + level_elo[best - 1])))
            best = l;
    return best;
}

int uci_level(const uci_session *s)
{
    return s->limit_strength ? uci_elo_level(s->elo) : s->level;
}

static int *option_slot(uci_session *s, const char *name)
{
    for (int i = 0; i < s->nopts; i++)
        if (strcasecmp(s->opts[i].name, name) == 0)
            return &s->opts[i].value;
    return NULL;
}

/* A game's setting by name: the variant in force's, else the first
 * variant's that has it. */
static const game_option *game_setting(const uci_session *s, const char *name)
{
    for (const game_option *o = s->variant->options; o && o->name; o++)
        if (strcasecmp(o->name, name) == 0)
            return o;
    for (const game_variant *const *v = game_variants(); *v; v++)
        for (const game_option *o = (*v)->options; o && o->name; o++)
            if (strcasecmp(o->name, name) == 0)
                return o;
    return NULL;
}

void uci_cmd_uci(uci_session *s, FILE *out)
{
    fprintf(out, "id name Citadel\nid author the Citadel developers\n");
    fprintf(out, "option name UCI_Variant type combo default %s", game_variants()[0]->name);
    for (const game_variant *const *v = game_variants(); *v; v++)
        fprintf(out, " var %s", (*v)->name);
    fprintf(out, "\n");
    for (int i = 0; i < s->nopts; i++) {
        const game_option *o = game_setting(s, s->opts[i].name);
        if (o)
            fprintf(out, "option name %s type spin default %d min %d max %d\n", o->name, o->def,
                    o->min, o->max);
    }
    fprintf(out, "option name StartIndex type spin default 0 min 0 max 1000000\n");
    fprintf(out, "option name Level type spin default %d min 1 max %d\n", SEARCH_LEVELS,
            SEARCH_LEVELS);
    fprintf(out, "option name Skill Level type spin default 20 min 0 max 20\n");
    fprintf(out, "option name UCI_LimitStrength type check default false\n");
    fprintf(out, "option name UCI_Elo type spin default %d min %d max %d\n", ELO_MIN, ELO_MIN,
            ELO_MAX);
    fprintf(out, "option name Threads type spin default 1 min 1 max 512\n");
    fprintf(out, "option name Hash type spin default 16 min 1 max 4096\n");
    fprintf(out, "option name Clear Hash type button\n");
    fprintf(out, "option name Ponder type check default false\n");
    fprintf(out, "option name MultiPV type spin default 1 min 1 max %d\n", UCI_MAX_MULTIPV);
    fprintf(out, "option name Move Overhead type spin default 0 min 0 max 5000\n");
    fprintf(out, "option name UCI_AnalyseMode type check default false\n");
    fprintf(out, "option name Style type string default <empty>\n");
    fprintf(out, "uciok\n");
}

/* After UCI_Variant, as Fairy-Stockfish announces a variant: its name, its
 * board's files and ranks (counted from game_ops.squares), and its start. */
static void announce_variant(const uci_session *s, FILE *out)
{
    const game_ops *ops = s->variant->ops;
    char start[2048];
    ops->format(s->pos, start, sizeof start);
    int files = 0, ranks = 0;
    if (ops->squares) {
        static game_piece_at at[512];
        int n = ops->squares(s->pos, at, 512);
        char seen_file[64] = { 0 };
        int seen_rank[64] = { 0 };
        for (int i = 0; i < n; i++) {
            unsigned char f = (unsigned char)at[i].square[0];
            int r = atoi(at[i].square + 1);
            if (f >= 'a' && f < 'a' + 64 && !seen_file[f - 'a']++)
                files++;
            if (r >= 1 && r < 64 && !seen_rank[r]++)
                ranks++;
        }
    }
    fprintf(out, "info string variant %s files %d ranks %d startpos %s\n", s->variant->name, files,
            ranks, start);
}

/* Joins tok[from..to) with single spaces into buf. */
static void join(char **tok, int from, int to, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = from; i < to && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i > from ? " " : "", tok[i]);
}

static void set_variant(uci_session *s, const char *value, FILE *out)
{
    char msg[200];
    const game_variant *v = game_variant_find(value);
    if (!v) {
        snprintf(msg, sizeof msg, "unknown variant '%.60s'", value);
        uci_error(out, msg);
        return;
    }
    if (v != s->variant) {
        s->variant = v;
        s->style[0] = 0;  /* each game's styles are its own */
        /* another variant's own settings start at its own defaults */
        for (const game_option *o = v->options; o && o->name; o++) {
            int *slot = option_slot(s, o->name);
            if (slot)
                *slot = o->def;
        }
    }
    uci_start_position(s, s->pos);
    announce_variant(s, out);
}

static int read_check(const char *value, int *out)
{
    if (strcasecmp(value, "true") == 0)
        *out = 1;
    else if (strcasecmp(value, "false") == 0)
        *out = 0;
    else
        return -1;
    return 0;
}

/* A game's setting (game_option), in force at once where the variant in
 * force has it. */
static void set_game_setting(uci_session *s, const char *name, long n, FILE *out)
{
    char msg[200];
    int *slot = option_slot(s, name);
    const game_option *o = game_setting(s, name);
    if (n < o->min || n > o->max) {
        snprintf(msg, sizeof msg, "%s must be %d-%d", o->name, o->min, o->max);
        uci_error(out, msg);
        return;
    }
    for (const game_option *own = s->variant->options; own && own->name; own++) {
        if (strcasecmp(own->name, name) == 0) {
            game_error err;
            _Alignas(16) unsigned char pos[GAME_POS_MAX];
            memcpy(pos, s->pos, s->variant->ops->pos_size);
            if (s->variant->ops->set_option(pos, own->name, (int)n, &err) != 0) {
                uci_error(out, err.msg);
                return;
            }
            memcpy(s->pos, pos, s->variant->ops->pos_size);
        }
    }
    for (int i = 0; i < s->nopts; i++)
        if (&s->opts[i].value == slot) {
            s->opts[i].value = (int)n;
            s->opts[i].set = 1;
        }
}

/* The spin options of the session's own: name, range, where the value goes. */
struct spin {
    const char *name;
    long min, max;
    const char *what;  /* for the error: "Hash must be 1-4096 (MB)" */
};

void uci_cmd_setoption(uci_session *s, char **tok, int ntok, FILE *out)
{
    if (ntok < 3 || strcmp(tok[1], "name") != 0) {
        uci_error(out, "usage: setoption name <name> [value <value>]");
        return;
    }
    int vi = ntok;
    for (int i = 2; i < ntok; i++)
        if (strcmp(tok[i], "value") == 0) {
            vi = i;
            break;
        }
    char name[128], value[256], msg[300];
    join(tok, 2, vi, name, sizeof name);
    join(tok, vi + 1, ntok, value, sizeof value);
    if (vi == 2) {
        uci_error(out, "usage: setoption name <name> [value <value>]");
        return;
    }
    if (strcasecmp(name, "Clear Hash") == 0) {  /* a button: any value is ignored */
        if (s->searcher)
            search_clear(s->searcher);
        return;
    }
    /* Every other option needs a value. */
    int known = strcasecmp(name, "Style") == 0 || strcasecmp(name, "UCI_Variant") == 0 ||
                strcasecmp(name, "Ponder") == 0 || strcasecmp(name, "UCI_LimitStrength") == 0 ||
                strcasecmp(name, "UCI_AnalyseMode") == 0 || game_setting(s, name) != NULL;
    static const struct spin spins[] = {
        { "Level", 1, SEARCH_LEVELS, "" },
        { "Skill Level", 0, 20, "" },
        { "UCI_Elo", ELO_MIN, ELO_MAX, "" },
        { "Threads", 1, 512, "" },
        { "Hash", 1, 4096, " (MB)" },
        { "MultiPV", 1, UCI_MAX_MULTIPV, "" },
        { "Move Overhead", 0, 5000, " (ms)" },
        { "StartIndex", 0, 1000000, "" },
    };
    const struct spin *spin = NULL;
    for (size_t i = 0; i < sizeof spins / sizeof spins[0]; i++)
        if (strcasecmp(name, spins[i].name) == 0)
            spin = &spins[i];
    if (!known && !spin) {
        /* as Fairy-Stockfish answers it */
        fprintf(out, "No such option: %s\n", name);
        return;
    }
    if (vi >= ntok) {
        snprintf(msg, sizeof msg, "option %.60s needs a value", name);
        uci_error(out, msg);
        return;
    }
    if (strcasecmp(name, "Style") == 0) {
        const game_bot_ops *bots = s->variant->ops->bots;
        const char *found = NULL;
        for (int k = 0; bots && bots->styles && bots->styles[k].name; k++)
            if (strcasecmp(value, bots->styles[k].name) == 0)
                found = bots->styles[k].name;
        if (!found) {
            snprintf(msg, sizeof msg, "%s has no style '%.40s'", s->variant->name, value);
            uci_error(out, msg);
            return;
        }
        snprintf(s->style, sizeof s->style, "%s", found);
        return;
    }
    if (strcasecmp(name, "UCI_Variant") == 0) {
        set_variant(s, value, out);
        return;
    }
    int *check = strcasecmp(name, "Ponder") == 0              ? &s->ponder
                 : strcasecmp(name, "UCI_LimitStrength") == 0 ? &s->limit_strength
                 : strcasecmp(name, "UCI_AnalyseMode") == 0   ? &s->analyse_mode
                                                              : NULL;
    if (check) {
        if (read_check(value, check) != 0) {
            snprintf(msg, sizeof msg, "option %.40s is true or false, not '%.40s'", name, value);
            uci_error(out, msg);
        }
        return;
    }
    char *end;
    long n = strtol(value, &end, 10);
    if (*end || end == value || n < -1000000000L || n > 1000000000L) {
        snprintf(msg, sizeof msg, "option %.40s needs a whole number, not '%.40s'", name, value);
        uci_error(out, msg);
        return;
    }
    if (!spin) {
        set_game_setting(s, name, n, out);
        return;
    }
    if (n < spin->min || n > spin->max) {
        snprintf(msg, sizeof msg, "%s must be %ld-%ld%s", spin->name, spin->min, spin->max,
                 spin->what);
        uci_error(out, msg);
        return;
    }
    if (strcasecmp(name, "Hash") == 0 && s->searcher && search_resize(s->searcher, (size_t)n) != 0) {
        uci_error(out, "not enough memory for that Hash");
        return;
    }
    int v = (int)n;
    if (strcasecmp(name, "Level") == 0)
        s->level = v;
    else if (strcasecmp(name, "Skill Level") == 0)
        s->level = 1 + v / 4;  /* 0-3: 1, 4-7: 2, ... 16-19: 5, 20: 6 */
    else if (strcasecmp(name, "UCI_Elo") == 0)
        s->elo = v;
    else if (strcasecmp(name, "Threads") == 0)
        s->threads = v;
    else if (strcasecmp(name, "Hash") == 0)
        s->hash_mb = v;
    else if (strcasecmp(name, "MultiPV") == 0)
        s->multipv = v;
    else if (strcasecmp(name, "Move Overhead") == 0)
        s->move_overhead = v;
    else
        s->start_index = v;
}
