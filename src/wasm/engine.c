/* engine.c -- the games through game.h, for the page (engine.h).
 *
 * Invariant: a slot holds a position of its variant that game.h made or
 * moved (start, parse, make, view), or nothing (v NULL); every function
 * checks its slot and its text before touching either, so no argument the
 * page passes can make it read or write outside its slots and its buffer.
 */
#include "engine.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/multi.h"
#include "../ai/search.h"
#include "../games/game.h"

static struct slot {
    const game_variant *v;
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
} slots[ENG_SLOTS];

static char buf[ENG_BUF];

char *eng_buf(void)
{
    return buf;
}

static struct slot *slot_at(int i)
{
    if (i < 0 || i >= ENG_SLOTS || !slots[i].v) {
        snprintf(buf, sizeof buf, "no position in slot %d", i);
        return NULL;
    }
    return &slots[i];
}

static int fail(const game_error *e)
{
    snprintf(buf, sizeof buf, "%s", e->msg);
    return -1;
}

/* The argument in the buffer, NUL-terminated within it. */
static const char *arg(void)
{
    buf[sizeof buf - 1] = 0;
    return buf;
}

/* Appends to out (used bytes so far in *n) as snprintf does; the text is
 * cut at the buffer's end, which no answer reaches. */
static void add(char *out, size_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add(char *out, size_t *n, const char *fmt, ...)
{
    if (*n >= ENG_BUF - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(out + *n, ENG_BUF - *n, fmt, ap);
    va_end(ap);
    if (k > 0)
        *n += (size_t)k < ENG_BUF - *n ? (size_t)k : ENG_BUF - 1 - *n;
}

int eng_variants(void)
{
    static char out[ENG_BUF];
    size_t n = 0;
    for (const game_variant *const *v = game_variants(); *v; v++)
        add(out, &n, "%s %d %d %d %s\n", (*v)->name, (*v)->nsides, (*v)->hidden, (*v)->rated,
            (*v)->family);
    memcpy(buf, out, n + 1);
    return (int)n;
}

int eng_set(int i, unsigned seed)
{
    if (i < 0 || i >= ENG_SLOTS) {
        snprintf(buf, sizeof buf, "no slot %d", i);
        return -1;
    }
    char name[64];
    const char *text = arg();
    size_t len = strcspn(text, " ");
    if (len == 0 || len >= sizeof name) {
        snprintf(buf, sizeof buf, "want a variant's name");
        return -1;
    }
    memcpy(name, text, len);
    name[len] = 0;
    const game_variant *v = game_variant_find(name);
    if (!v) {
        snprintf(buf, sizeof buf, "unknown variant '%.40s'", name);
        return -1;
    }
    const char *position = text + len + (text[len] == ' ');
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    game_error e;
    if (!position[0])
        v->ops->start(v, pos, seed);
    else if (v->ops->parse(v, pos, position, &e) != 0)
        return fail(&e);
    slots[i].v = v;
    memcpy(slots[i].pos, pos, v->ops->pos_size);
    buf[0] = 0;
    return 0;
}

int eng_copy(int from, int to)
{
    struct slot *s = slot_at(from);
    if (!s)
        return -1;
    if (to < 0 || to >= ENG_SLOTS) {
        snprintf(buf, sizeof buf, "no slot %d", to);
        return -1;
    }
    if (to != from)
        slots[to] = *s;
    buf[0] = 0;
    return 0;
}

int eng_format(int i)
{
    struct slot *s = slot_at(i);
    if (!s)
        return -1;
    size_t n = s->v->ops->format(s->pos, buf, sizeof buf);
    return n < sizeof buf ? (int)n : (int)sizeof buf - 1;
}

int eng_side_to_move(int i)
{
    struct slot *s = slot_at(i);
    return s ? s->v->ops->side_to_move(s->pos) : -1;
}

int eng_moves(int i)
{
    struct slot *s = slot_at(i);
    if (!s)
        return -1;
    static game_move list[GAME_MAX_MOVES];
    static char out[ENG_BUF];
    int k = s->v->ops->moves(s->pos, list);
    size_t n = 0;
    out[0] = 0;
    for (int m = 0; m < k; m++) {
        char text[32];
        s->v->ops->format_move(s->pos, list[m], text, sizeof text);
        add(out, &n, "%s%s", m ? " " : "", text);
    }
    memcpy(buf, out, n + 1);
    return (int)n;
}

/* The move in the buffer, checked legal in slot s's position. */
static int read_move(struct slot *s, game_move *m)
{
    game_error e;
    if (s->v->ops->parse_move(s->pos, arg(), m, &e) != 0)
        return fail(&e);
    return 0;
}

int eng_play(int i)
{
    struct slot *s = slot_at(i);
    game_move m;
    if (!s || read_move(s, &m) != 0)
        return -1;
    _Alignas(16) unsigned char undo[GAME_POS_MAX];
    s->v->ops->make(s->pos, m, undo);
    buf[0] = 0;
    return 0;
}

int eng_result(int i)
{
    struct slot *s = slot_at(i);
    if (!s)
        return -1;
    game_result r = s->v->ops->result(s->pos);
    int n = snprintf(buf, sizeof buf, "%d %d %s", r.over, r.over ? r.winner : -1,
                     r.over && r.reason && r.reason[0] ? r.reason : "-");
    return n;
}

int eng_set_option(int i, int value)
{
    struct slot *s = slot_at(i);
    if (!s)
        return -1;
    char name[64];
    const char *text = arg();
    size_t len = strnlen(text, sizeof name);
    if (len == sizeof name) {
        snprintf(buf, sizeof buf, "no such setting");
        return -1;
    }
    memcpy(name, text, len + 1);
    game_error e;
    if (s->v->ops->set_option(s->pos, name, value, &e) != 0)
        return fail(&e);
    buf[0] = 0;
    return 0;
}

int eng_squares(int i)
{
    struct slot *s = slot_at(i);
    if (!s)
        return -1;
    if (!s->v->ops->squares) {
        snprintf(buf, sizeof buf, "%s does not list its squares", s->v->name);
        return -1;
    }
    static game_piece_at at[512];
    int count = s->v->ops->squares(s->pos, at, 512);
    static char out[ENG_BUF];
    size_t n = 0;
    out[0] = 0;
    for (int k = 0; k < count; k++)
        add(out, &n, "%s%s %s", k ? " " : "", at[k].square, at[k].piece[0] ? at[k].piece : ".");
    memcpy(buf, out, n + 1);
    return (int)n;
}

int eng_kinds(int i)
{
    struct slot *s = slot_at(i);
    if (!s)
        return -1;
    static game_piece_kind kinds[64];
    int count = s->v->ops->kinds ? s->v->ops->kinds(kinds, 64) : 0;
    static char out[ENG_BUF];
    size_t n = 0;
    out[0] = 0;
    for (int k = 0; k < count; k++)
        add(out, &n, "%s%c %d %d %s", k ? "\n" : "", kinds[k].letter, kinds[k].rank, kinds[k].count,
            kinds[k].name);
    memcpy(buf, out, n + 1);
    return (int)n;
}

int eng_areas(int i)
{
    struct slot *s = slot_at(i);
    if (!s)
        return -1;
    static game_area_at at[1024];
    int count = s->v->ops->areas ? s->v->ops->areas(s->pos, at, 1024) : 0;
    static char out[ENG_BUF];
    size_t n = 0;
    out[0] = 0;
    for (int k = 0; k < count; k++) {
        /* a new line where the area or its side changes */
        if (k == 0 || strcmp(at[k].area, at[k - 1].area) != 0 || at[k].side != at[k - 1].side)
            add(out, &n, "%s%s %d", k ? "\n" : "", at[k].area, at[k].side);
        add(out, &n, " %s", at[k].square);
    }
    memcpy(buf, out, n + 1);
    return (int)n;
}

int eng_options(int i)
{
    struct slot *s = slot_at(i);
    if (!s)
        return -1;
    static char out[ENG_BUF];
    size_t n = 0;
    out[0] = 0;
    for (const game_option *o = s->v->options; o && o->name; o++) {
        add(out, &n, "%s%s %d %d %d %d", n ? "\n" : "", o->name, o->def, o->min, o->max,
            o->in_position);
        for (int k = 0; o->labels && k <= o->max - o->min; k++)
            add(out, &n, " %s", o->labels[k]);
    }
    memcpy(buf, out, n + 1);
    return (int)n;
}

int eng_view(int from, int side, int to)
{
    struct slot *s = slot_at(from);
    if (!s)
        return -1;
    if (to < 0 || to >= ENG_SLOTS || side < -1 || side >= s->v->nsides) {
        snprintf(buf, sizeof buf, "no slot %d, or no side %d", to, side);
        return -1;
    }
    _Alignas(16) unsigned char view[GAME_POS_MAX];
    if (s->v->ops->view)
        s->v->ops->view(s->pos, side, view);
    else
        memcpy(view, s->pos, s->v->ops->pos_size);
    slots[to].v = s->v;
    memcpy(slots[to].pos, view, s->v->ops->pos_size);
    buf[0] = 0;
    return 0;
}

int eng_describe(int i)
{
    struct slot *s = slot_at(i);
    game_move m;
    if (!s || read_move(s, &m) != 0)
        return -1;
    if (!s->v->ops->describe) {
        buf[0] = 0;
        return 0;
    }
    char out[256];
    s->v->ops->describe(s->pos, m, out, sizeof out);
    return snprintf(buf, sizeof buf, "%s", out);
}

/* 1 if square `to` is empty after move m of slot s's position (the
 * position itself unchanged): the game's own make and squares say so. */
static int target_empty_after(struct slot *s, game_move m, const char *to)
{
    if (!s->v->ops->squares)
        return 0;
    _Alignas(16) unsigned char after[GAME_POS_MAX], undo[GAME_POS_MAX];
    memcpy(after, s->pos, s->v->ops->pos_size);
    s->v->ops->make(after, m, undo);
    static game_piece_at at[512];
    int count = s->v->ops->squares(after, at, 512);
    for (int k = 0; k < count; k++)
        if (strcmp(at[k].square, to) == 0)
            return !at[k].piece[0];
    return 0;
}

int eng_effects(int i)
{
    struct slot *s = slot_at(i);
    game_move m;
    if (!s || read_move(s, &m) != 0)
        return -1;
    static game_effects fx;
    memset(&fx, 0, sizeof fx);
    if (s->v->ops->effects)
        s->v->ops->effects(s->pos, m, &fx);
    static char out[ENG_BUF];
    size_t n = 0;
    add(out, &n, "%s %s", fx.from[0] ? fx.from : "-", fx.to[0] ? fx.to : "-");
    for (int k = 0; k < fx.ncaptured && k < GAME_EFFECT_SQUARES; k++)
        add(out, &n, " x %s", fx.captured[k]);
    for (int k = 0; k < fx.nremoved && k < GAME_EFFECT_SQUARES; k++)
        add(out, &n, " r %s", fx.removed[k]);
    if (fx.combat)
        add(out, &n, " c %s %s %d", fx.attacker, fx.defender, fx.lost);
    if (fx.to[0] && target_empty_after(s, m, fx.to))
        add(out, &n, " e");
    memcpy(buf, out, n + 1);
    return (int)n;
}

int eng_threats(int i)
{
    struct slot *s = slot_at(i);
    if (!s)
        return -1;
    static char sq[256][GAME_SQUARE_NAME];
    int k = s->v->ops->threats ? s->v->ops->threats(s->pos, sq, 256) : 0;
    size_t n = 0;
    static char out[ENG_BUF];
    out[0] = 0;
    for (int j = 0; j < k; j++)
        add(out, &n, "%s%s", j ? " " : "", sq[j]);
    memcpy(buf, out, n + 1);
    return (int)n;
}

/* --- analysis ------------------------------------------------------------------------ */

static searcher *analyser;  /* one, kept between calls: what it learnt helps the next */
static size_t analyser_mb;

/* The analyser with hash_mb megabytes of table, cleared; NULL (the reason
 * in the buffer) if the slot's game is not for it or memory is short. */
static struct slot *analysis_slot(int i, int depth, int movetime_ms, int hash_mb)
{
    struct slot *s = slot_at(i);
    if (!s)
        return NULL;
    if (s->v->nsides != 2 || s->v->hidden) {
        snprintf(buf, sizeof buf, "%s is not analysed by the two-sided search", s->v->name);
        return NULL;
    }
    if (depth < 0 || depth > SEARCH_MAX_PLY || movetime_ms < 0 ||
        (depth == 0 && movetime_ms == 0) || hash_mb < 1 || hash_mb > 256) {
        snprintf(buf, sizeof buf, "want a depth (1-%d) or a time, and 1-256 MB of hash",
                 SEARCH_MAX_PLY);
        return NULL;
    }
    if (!analyser || analyser_mb != (size_t)hash_mb) {
        if (analyser)
            search_free(analyser);
        analyser = search_new((size_t)hash_mb);
        analyser_mb = (size_t)hash_mb;
        if (!analyser) {
            snprintf(buf, sizeof buf, "out of memory");
            return NULL;
        }
    }
    search_clear(analyser);
    search_set_level(analyser, SEARCH_LEVELS, 1);
    search_skip(analyser, NULL, 0);
    return s;
}

/* One search of the slot's position (its root moves less those skipped),
 * its line appended to out; the best move, GAME_MOVE_NONE if none. */
static game_move search_line(struct slot *s, int depth, int movetime_ms, char *out, size_t *n)
{
    search_limits lim = { .depth = depth, .movetime = movetime_ms, .time = { -1, -1 } };
    static search_report rep;
    game_move best = search_run(analyser, s->v, s->pos, &lim, NULL, NULL, NULL, &rep);
    char text[32] = "-";
    if (best)
        s->v->ops->format_move(s->pos, best, text, sizeof text);
    add(out, n, "%s %d %d %llu", text, rep.score, rep.depth, (unsigned long long)rep.nodes);
    /* the principal variation, played out on a copy to write each move */
    _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
    memcpy(pos, s->pos, s->v->ops->pos_size);
    for (int k = 0; best && k < rep.pvlen && k < SEARCH_MAX_PLY; k++) {
        s->v->ops->format_move(pos, rep.pv[k], text, sizeof text);
        add(out, n, " %s", text);
        s->v->ops->make(pos, rep.pv[k], undo);
    }
    return best;
}

int eng_search(int i, int depth, int movetime_ms, int hash_mb)
{
    struct slot *s = analysis_slot(i, depth, movetime_ms, hash_mb);
    if (!s)
        return -1;
    static char out[ENG_BUF];
    size_t n = 0;
    search_line(s, depth, movetime_ms, out, &n);
    memcpy(buf, out, n + 1);
    return (int)n;
}

int eng_lines(int i, int depth, int hash_mb, int lines)
{
    if (lines < 1 || lines > ENG_MAX_LINES) {
        snprintf(buf, sizeof buf, "want 1-%d lines", ENG_MAX_LINES);
        return -1;
    }
    struct slot *s = analysis_slot(i, depth, 0, hash_mb);
    if (!s)
        return -1;
    /* the lines written one after another in found order, then given in
     * order of score: a search without the moves found so far may score a
     * little differently from one with them (its table and window differ),
     * and best comes first */
    static char out[ENG_BUF];
    game_move found[ENG_MAX_LINES];
    size_t start[ENG_MAX_LINES], n = 0;
    int score[ENG_MAX_LINES], order[ENG_MAX_LINES], count = 0;
    for (int k = 0; k < lines; k++) {
        search_skip(analyser, found, k);
        start[k] = n;
        found[k] = search_line(s, depth, 0, out, &n);
        if (!found[k] && k)
            break;  /* fewer moves than lines */
        add(out, &n, "%c", 0);  /* each line ends with a NUL, for now */
        score[k] = atoi(strchr(out + start[k], ' ') + 1);
        order[count++] = k;
        if (!found[k])
            break;  /* the game is over: "- ..." */
    }
    search_skip(analyser, NULL, 0);
    for (int a = 1; a < count; a++)  /* stable: ties keep the order found */
        for (int b = a; b > 0 && score[order[b]] > score[order[b - 1]]; b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    size_t m = 0;
    for (int k = 0; k < count; k++) {
        const char *line = out + start[order[k]];
        size_t len = strlen(line);
        if (k)
            buf[m++] = '\n';
        memcpy(buf + m, line, len);
        m += len;
    }
    buf[m] = 0;
    return (int)m;
}

/* --- analysis of games of more sides ------------------------------------------------ */

static void style_eval(const void *pos, void *ctx, int out[GAME_MAX_SIDES])
{
    ((const game_bot_style *)ctx)->eval(pos, out);
}

static const game_bot_ops *multi_bots;  /* the hint's game, for the call below */

static int style_hint(const void *pos, game_move m, void *ctx)
{
    (void)ctx;
    return multi_bots->hint ? multi_bots->hint(pos, m) : 0;
}

static int multi_for(int i, int depth, int nodes, int style, int for_side)
{
    struct slot *s = slot_at(i);
    if (!s)
        return -1;
    const game_bot_ops *bots = s->v->ops->bots;
    int nstyles = 0;
    while (bots && bots->styles && bots->styles[nstyles].name)
        nstyles++;
    if (s->v->nsides < 3 || s->v->hidden || !nstyles) {
        snprintf(buf, sizeof buf, "%s is not analysed by the multi-player search", s->v->name);
        return -1;
    }
    if (depth < 1 || depth > MULTI_MAX_DEPTH || nodes < 0 || style < 0 || style >= nstyles) {
        snprintf(buf, sizeof buf, "want a depth of 1-%d, a node budget and a style 0-%d",
                 MULTI_MAX_DEPTH, nstyles - 1);
        return -1;
    }
    const game_bot_style *st = &bots->styles[style];
    multi_bots = bots;
    multi_config c = {
        .variant = s->v, .eval = style_eval, .hint = style_hint, .ctx = (void *)st,
        .algo = MULTI_PARANOID, .depth = depth, .nodes = (uint64_t)nodes,
        .for_side_set = for_side >= 0, .for_side = for_side,
    };
    multi_report rep = { 0, 0, 0 };
    game_move best = multi_search(&c, s->pos, &rep);
    char text[32] = "-";
    if (best)
        s->v->ops->format_move(s->pos, best, text, sizeof text);
    int values[GAME_MAX_SIDES] = { 0 };
    st->eval(s->pos, values);
    static char out[ENG_BUF];
    size_t n = 0;
    add(out, &n, "%s %d %d %llu", text, rep.score, rep.depth, (unsigned long long)rep.nodes);
    for (int k = 0; k < s->v->nsides; k++)
        add(out, &n, " %d", values[k]);
    memcpy(buf, out, n + 1);
    return (int)n;
}

int eng_multi(int i, int depth, int nodes, int style)
{
    return multi_for(i, depth, nodes, style, -1);
}

int eng_multi_for(int i, int depth, int nodes, int style, int side)
{
    struct slot *s = slot_at(i);
    if (!s)
        return -1;
    if (side < 0 || side >= s->v->nsides) {
        snprintf(buf, sizeof buf, "no side %d in %s", side, s->v->name);
        return -1;
    }
    return multi_for(i, depth, nodes, style, side);
}

/* --- analysis by a game's own bot (games with hidden pieces) ---------------------- */

/* The analyst of a variant (game_bot_ops.analyst), made for one call and
 * destroyed after it, with the same seed each time: equal calls give equal
 * answers. */
static void *analyst_for(const game_variant *v)
{
    const game_bot_ops *bots = v->ops->bots;
    return bots && bots->analyst && bots->create ? bots->create(v, bots->analyst, 1) : NULL;
}

/* Slot i's analyst, made for one call, once the slot, the budget and (for
 * `lines` > 0, eng_bot_lines) the number of lines are checked; NULL after
 * writing why into the buffer. */
static void *analyst_ready(int i, int movetime_ms, int nodes, int lines, struct slot **out)
{
    struct slot *s = slot_at(i);
    if (!s)
        return NULL;
    const game_bot_ops *bots = s->v->ops->bots;
    if (!bots || !bots->analyst || !bots->report || (lines && !bots->lines)) {
        snprintf(buf, sizeof buf, "%s has no bot that %s", s->v->name,
                 lines ? "gives several lines" : "analyses");
        return NULL;
    }
    if (movetime_ms < 0 || nodes < 0 || (movetime_ms == 0 && nodes == 0) ||
        (lines && (lines < 1 || lines > GAME_LINES_MAX))) {
        if (lines)
            snprintf(buf, sizeof buf, "want a time or a node budget, and 1-%d lines", GAME_LINES_MAX);
        else
            snprintf(buf, sizeof buf, "want a time or a node budget");
        return NULL;
    }
    void *bot = analyst_for(s->v);
    if (!bot)
        snprintf(buf, sizeof buf, "out of memory");
    *out = s;
    return bot;
}

int eng_bot(int i, int movetime_ms, int nodes)
{
    struct slot *s;
    void *bot = analyst_ready(i, movetime_ms, nodes, 0, &s);
    if (!bot)
        return -1;
    const game_bot_ops *bots = s->v->ops->bots;
    game_limits lim = { .movetime = movetime_ms, .nodes = (uint64_t)nodes, .time = { -1, -1 } };
    game_move best = bots->move(bot, s->pos, &lim, NULL);
    int depth = 0, score = 0;
    uint64_t n = 0;
    if (bots->report(bot, &depth, &score, &n) != 0)
        depth = score = 0, n = 0;
    bots->destroy(bot);
    char text[32] = "-";
    if (best)
        s->v->ops->format_move(s->pos, best, text, sizeof text);
    return snprintf(buf, sizeof buf, "%s %d %d %llu", text, score, depth, (unsigned long long)n);
}

int eng_bot_lines(int i, int movetime_ms, int nodes, int lines)
{
    struct slot *s;
    /* 0 lines asked is refused as too few, not read as eng_bot's call */
    void *bot = analyst_ready(i, movetime_ms, nodes, lines ? lines : -1, &s);
    if (!bot)
        return -1;
    const game_bot_ops *bots = s->v->ops->bots;
    game_limits lim = { .movetime = movetime_ms, .nodes = (uint64_t)nodes, .time = { -1, -1 } };
    game_move moves[GAME_LINES_MAX];
    int scores[GAME_LINES_MAX];
    int n = bots->lines(bot, s->pos, &lim, lines, moves, scores);
    int depth = 0, score = 0;
    uint64_t nn = 0;
    if (bots->report(bot, &depth, &score, &nn) != 0)
        depth = score = 0, nn = 0;
    bots->destroy(bot);
    if (n <= 0) {
        /* no line the search scored (one legal move, say): the bot's move alone */
        return eng_bot(i, movetime_ms, nodes);
    }
    static char out[ENG_BUF];
    size_t len = 0;
    out[0] = 0;
    for (int k = 0; k < n; k++) {
        char text[32];
        s->v->ops->format_move(s->pos, moves[k], text, sizeof text);
        add(out, &len, "%s%s %d %d %llu", k ? "\n" : "", text, scores[k], depth,
            (unsigned long long)nn);
    }
    memcpy(buf, out, len + 1);
    return (int)len;
}

int eng_belief(int i)
{
    struct slot *s = slot_at(i);
    if (!s)
        return -1;
    const game_bot_ops *bots = s->v->ops->bots;
    if (!bots || !bots->belief) {
        snprintf(buf, sizeof buf, "%s has no hidden pieces to believe about", s->v->name);
        return -1;
    }
    void *bot = analyst_for(s->v);
    if (!bot) {
        snprintf(buf, sizeof buf, "out of memory");
        return -1;
    }
    static char out[ENG_BUF];
    int n = bots->belief(bot, s->pos, out, sizeof out);
    bots->destroy(bot);
    if (n < 0) {
        snprintf(buf, sizeof buf, "no position fits this view");
        return -1;
    }
    memcpy(buf, out, sizeof buf);
    return n;
}
