/* uci.c -- the UCI dialect: variant choice, positions, perft, search and `d`.
 *
 * Every command that changes state builds the new state aside and installs
 * it only when all of it succeeded, so an error leaves the session as it
 * was: `position fen F moves m1 m2` with a bad F or an illegal m2 keeps the
 * previous position in force. A search runs on a thread of its own; every
 * command that changes the session stops it first.
 */
#include "uci.h"

#include <strings.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>

#include "../base/rng.h"

#define MAX_LINE (1 << 20)  /* bytes; longer lines are refused */

/* Applies the settings given by setoption to a fresh position of the
 * session's variant (the variant's defaults are already in it). A position
 * read from text keeps the settings its string carries. */
void uci_init(uci_session *s)
{
    memset(s, 0, sizeof *s);
    s->level = SEARCH_LEVELS;
    s->hash_mb = 16;
    s->multipv = 1;
    s->line = 1;
    uci_options_init(s);
    atomic_init(&s->stop, 0);
    atomic_init(&s->ponderhit, 0);
    s->variant = game_variants()[0];
    /* Every option any variant has, with its default. */
    for (const game_variant *const *v = game_variants(); *v; v++) {
        for (const game_option *o = (*v)->options; o && o->name; o++) {
            int seen = 0;
            for (int i = 0; i < s->nopts; i++)
                seen |= strcmp(s->opts[i].name, o->name) == 0;
            if (!seen && s->nopts < UCI_MAX_OPTIONS) {
                s->opts[s->nopts].name = o->name;
                s->opts[s->nopts].value = o->def;
                s->nopts++;
            }
        }
    }
    uci_start_position(s, s->pos);
}

/* The letters a variant's position strings give its first and second
 * mover, when its strings are "<board> <side> <number>" and two sides play
 * with nothing hidden (Rampart, R9: b and t): 0, or -1 for any other. */
static int side_letters(const game_variant *v, char letters[2])
{
    const game_ops *ops = v->ops;
    if (v->nsides != 2 || v->hidden)
        return -1;
    _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
    game_move moves[GAME_MAX_MOVES];
    ops->start(v, pos, 0);
    for (int k = 0; k < 2; k++) {
        char text[1024], board[1024], side[8], num[32], more[2];
        ops->format(pos, text, sizeof text);
        if (sscanf(text, "%1023s %7s %31s %1s", board, side, num, more) != 3 || side[1] ||
            strspn(num, "0123456789") != strlen(num))
            return -1;
        letters[k] = side[0];
        if (k == 0 && ops->moves(pos, moves) < 1)
            return -1;
        if (k == 0)
            ops->make(pos, moves[0], undo);
    }
    return letters[0] != letters[1] ? 0 : -1;
}

static int is_number(const char *t)
{
    return *t && strspn(t, "0123456789") == strlen(t);
}

/* A position string in Fairy-Stockfish's notation, read as it means it,
 * for a variant of side_letters' form (docs/uci.md "Position strings"):
 * "<board> w|b - - <halfmoves> <full moves>" (six fields, as its tools
 * write them) has w for the first mover and b for the second; "<board> w
 * <full moves>" has w for the first mover. f[0..*nf) are rewritten in the
 * variant's own notation; anything else is left as it is. */
static void read_fsf_fields(const game_variant *v, char **f, int *nf, char side[2])
{
    char letters[2];
    int six = *nf == 6 && (strcmp(f[1], "w") == 0 || strcmp(f[1], "b") == 0) &&
              strcmp(f[2], "-") == 0 && strcmp(f[3], "-") == 0 && is_number(f[4]) &&
              is_number(f[5]);
    int three_w = *nf == 3 && strcmp(f[1], "w") == 0;
    if ((!six && !three_w) || side_letters(v, letters) != 0)
        return;
    if (six) {
        side[0] = f[1][0] == 'w' ? letters[0] : letters[1];
        f[1] = side;
        f[2] = f[5];
        *nf = 3;
    } else if (letters[0] != 'w' && letters[1] != 'w') {
        side[0] = letters[0];
        f[1] = side;
    }
}

/* position startpos|fen <F...> [moves m1 m2 ...] */
static void cmd_position(uci_session *s, char **tok, int ntok, FILE *out)
{
    const game_ops *ops = s->variant->ops;
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    _Alignas(16) unsigned char undo[GAME_POS_MAX];
    game_error err;
    int i = 1;
    if (ntok < 2) {
        uci_error(out, "usage: position startpos|fen <position> [moves ...]");
        return;
    }
    if (strcmp(tok[1], "startpos") == 0) {
        uci_start_position(s, pos);
        i = 2;
    } else if (strcmp(tok[1], "fen") == 0) {
        char fen[1024], side[2] = "";
        size_t n = 0;
        int end = 2;
        while (end < ntok && strcmp(tok[end], "moves") != 0)
            end++;
        int nf = end - 2;
        read_fsf_fields(s->variant, tok + 2, &nf, side);
        for (int k = 0; k < nf; k++) {
            size_t len = strlen(tok[2 + k]);
            if (n + len + 2 > sizeof fen) {
                uci_error(out, "position string too long");
                return;
            }
            if (n)
                fen[n++] = ' ';
            memcpy(fen + n, tok[2 + k], len);
            n += len;
        }
        fen[n] = 0;
        i = end;
        if (ops->parse(s->variant, pos, fen, &err) != 0 || uci_apply_options(s, pos, 1, &err) != 0) {
            char msg[300];
            snprintf(msg, sizeof msg, "bad position: %s", err.msg);
            uci_error(out, msg);
            return;
        }
    } else {
        uci_error(out, "usage: position startpos|fen <position> [moves ...]");
        return;
    }
    if (i < ntok) {
        if (strcmp(tok[i], "moves") != 0) {
            uci_error(out, "expected 'moves' after the position");
            return;
        }
        for (i++; i < ntok; i++) {
            game_move m;
            if (ops->parse_move(pos, tok[i], &m, &err) != 0) {
                uci_error(out, err.msg);
                return;
            }
            ops->make(pos, m, undo);
        }
    }
    memcpy(s->pos, pos, ops->pos_size);
}

void uci_divide(const game_variant *v, void *pos, int depth, FILE *out)
{
    const game_ops *ops = v->ops;
    game_move moves[GAME_MAX_MOVES];
    _Alignas(16) unsigned char undo[GAME_POS_MAX];
    int n = ops->moves(pos, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        char text[32];
        ops->format_move(pos, moves[i], text, sizeof text);
        ops->make(pos, moves[i], undo);
        uint64_t c = game_perft_fast(v, pos, depth - 1);
        ops->unmake(pos, moves[i], undo);
        fprintf(out, "%s: %llu\n", text, (unsigned long long)c);
        total += c;
    }
    fprintf(out, "\nNodes searched: %llu\n", (unsigned long long)total);
}

/* Writes the report as a UCI info line. Scores of game ends read
 * "mate N" as Stockfish prints them: N the mover's own moves until the
 * end, negative when it loses. With MultiPV, "multipv K" names the line.
 * An aspiration search that failed high or low is reported as Stockfish
 * does, its score marked "lowerbound" or "upperbound". */
static void print_info(void *ctx, const search_report *r)
{
    uci_session *s = ctx;
    const game_ops *ops = s->job.variant->ops;
    char line[8192];
    size_t n = 0;
    int plies = SEARCH_WIN - abs(r->score);
    uint64_t nps = r->ms ? r->nodes * 1000 / r->ms : r->nodes * 1000;
    n += (size_t)snprintf(line + n, sizeof line - n, "info depth %d seldepth %d ", r->depth,
                          r->seldepth);
    if (s->multipv > 1)
        n += (size_t)snprintf(line + n, sizeof line - n, "multipv %d ", s->line);
    n += (size_t)snprintf(line + n, sizeof line - n, "score ");
    if (r->score > SEARCH_WIN_MIN)
        n += (size_t)snprintf(line + n, sizeof line - n, "mate %d", (plies + 1) / 2);
    else if (r->score < -SEARCH_WIN_MIN)
        n += (size_t)snprintf(line + n, sizeof line - n, "mate -%d", (plies + 1) / 2);
    else
        n += (size_t)snprintf(line + n, sizeof line - n, "cp %d", r->score);
    if (r->bound == SEARCH_LOWER)
        n += (size_t)snprintf(line + n, sizeof line - n, " lowerbound");
    else if (r->bound == SEARCH_UPPER)
        n += (size_t)snprintf(line + n, sizeof line - n, " upperbound");
    n += (size_t)snprintf(line + n, sizeof line - n, " nodes %llu nps %llu hashfull %d time %llu pv",
                          (unsigned long long)r->nodes, (unsigned long long)nps,
                          search_hashfull(s->searcher), (unsigned long long)r->ms);
    _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
    memcpy(pos, s->job.pos, ops->pos_size);
    for (int i = 0; i < r->pvlen && n < sizeof line - 64; i++) {
        char mv[32];
        ops->format_move(pos, r->pv[i], mv, sizeof mv);
        n += (size_t)snprintf(line + n, sizeof line - n, " %s", mv);
        ops->make(pos, r->pv[i], undo);
    }
    fprintf(s->out, "%s\n", line);
    fflush(s->out);
}

/* A finished game: "info depth 0 score mate 0" when a side has won (as
 * Fairy-Stockfish prints it, which says mate 0 for the side to move lost
 * and won alike), "info depth 0 score cp 0" for a draw. */
static void print_finished(uci_session *s, game_result r)
{
    fprintf(s->out, "info depth 0 score %s\n", r.winner >= 0 ? "mate 0" : "cp 0");
    fflush(s->out);
}

static void *search_thread(void *arg)
{
    uci_session *s = arg;
    struct uci_job *j = &s->job;
    game_move m = GAME_MOVE_NONE;
    const game_ops *ops = j->variant->ops;
    search_report last;
    last.pvlen = 0;
    game_result over = ops->result(j->pos);
    if (over.over) {
        print_finished(s, over);
    } else if ((j->variant->hidden || j->variant->nsides > 2) && ops->view && s->hidden_bot) {
        /* the game's own player at the level, as the server plays it: it
         * sees what the side to move may see (all of it where nothing is
         * hidden), and no more */
        _Alignas(16) unsigned char view[GAME_POS_MAX];
        ops->view(j->pos, ops->side_to_move(j->pos), view);
        m = bot_move(s->hidden_bot, j->variant, view, &j->lim, &s->stop);
    } else {
        /* MultiPV: each further line searched again without the best moves
         * of the lines before it (search_skip), its info lines numbered */
        game_move found[UCI_MAX_MULTIPV];
        search_only(s->searcher, j->searchmoves, j->nsearchmoves);
        for (int k = 0; k < s->multipv && (k == 0 || !atomic_load(&s->stop)); k++) {
            /* (the first line always: a search stopped at once still
             * answers the move of its first depth) */
            s->line = k + 1;
            search_skip(s->searcher, found, k);
            found[k] = search_run(s->searcher, j->variant, j->pos, &j->lim, &s->stop, print_info, s,
                                  k == 0 ? &last : NULL);
            if (k == 0)
                m = found[0];
            if (found[k] == GAME_MOVE_NONE)
                break;
        }
        search_skip(s->searcher, NULL, 0);
        search_only(s->searcher, NULL, 0);
        s->line = 1;
    }
    /* "go infinite" and "go ponder" report their move only when told to
     * stop; a ponder search that ponderhit stopped reports none (the
     * search on the clock that follows it does). */
    while (j->lim.infinite && !atomic_load(&s->stop)) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    if (atomic_load(&s->ponderhit))
        return NULL;
    char mv[32] = "(none)", ponder[48] = "";
    if (m != GAME_MOVE_NONE) {
        ops->format_move(j->pos, m, mv, sizeof mv);
        /* Ponder on: the move the line expects in reply, as Stockfish names it */
        if (s->ponder && last.pvlen >= 2 && last.pv[0] == m) {
            _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
            char reply[32];
            memcpy(pos, j->pos, ops->pos_size);
            ops->make(pos, m, undo);
            ops->format_move(pos, last.pv[1], reply, sizeof reply);
            snprintf(ponder, sizeof ponder, " ponder %s", reply);
        }
    }
    fprintf(s->out, "bestmove %s%s\n", mv, ponder);
    fflush(s->out);
    return NULL;
}

/* Stops the background search, if any, and waits for its bestmove. */
static void stop_search(uci_session *s)
{
    if (!s->searching)
        return;
    atomic_store(&s->stop, 1);
    pthread_join(s->thread, NULL);
    s->searching = 0;
    s->pondering = 0;
}

void uci_finish(uci_session *s)
{
    stop_search(s);
    search_free(s->searcher);
    s->searcher = NULL;
    bot_free(s->hidden_bot);
    s->hidden_bot = NULL;
}

static int go_number(char **tok, int ntok, int *i, long long lo, long long hi, long long *out,
                     FILE *out_file)
{
    char *end;
    if (*i + 1 >= ntok) {
        uci_error(out_file, "go: a limit needs a number");
        return -1;
    }
    long long v = strtoll(tok[*i + 1], &end, 10);
    if (*end || end == tok[*i + 1] || v < lo || v > hi) {
        char msg[128];
        snprintf(msg, sizeof msg, "go: bad number for %.20s", tok[*i]);
        uci_error(out_file, msg);
        return -1;
    }
    *out = v;
    (*i)++;
    return 0;
}

/* go ... searchmoves m1 m2 ...: reads tok[from..ntok) into moves, each
 * legal move once; a move that is not legal in the position in force is
 * left out with a warning naming it (Stockfish leaves such moves out
 * silently). Returns how many are kept, or -1 after an error line when
 * none is, or when the variant is played by a player of its own that
 * cannot be held to a set of moves (bots.h). */
static int read_searchmoves(const uci_session *s, char **tok, int from, int ntok,
                            game_move *moves, FILE *out)
{
    const game_ops *ops = s->variant->ops;
    char msg[400];
    if (s->variant->hidden || s->variant->nsides > 2) {
        snprintf(msg, sizeof msg, "searchmoves is not supported for %s", s->variant->name);
        uci_error(out, msg);
        return -1;
    }
    int n = 0;
    for (int i = from; i < ntok; i++) {
        game_move m;
        game_error err;
        if (ops->parse_move(s->pos, tok[i], &m, &err) != 0) {
            snprintf(msg, sizeof msg, "info string warning: searchmoves ignores %.40s: %s\n",
                     tok[i], err.msg);
            fputs(msg, out);
            continue;
        }
        int seen = 0;
        for (int k = 0; k < n && !seen; k++)
            seen = moves[k] == m;
        if (!seen && n < GAME_MAX_MOVES)
            moves[n++] = m;
    }
    if (n == 0) {
        uci_error(out, "searchmoves names no legal move: no search");
        return -1;
    }
    return n;
}

/* Makes the level's own player for the session's variant (games with
 * hidden pieces or more than two sides, which their own players play, as
 * the server plays them), unless the one made fits. 0, or -1 after an
 * error line. */
static int own_player(uci_session *s, FILE *out)
{
    int level = uci_level(s);
    if (s->hidden_bot && s->hidden_level == level && s->hidden_variant == s->variant &&
        strcmp(s->hidden_style, s->style) == 0)
        return 0;
    char spec[64], err[160];
    snprintf(spec, sizeof spec, "level=%d", level);
    /* a game of more sides: its style bots (game_bot_ops.styles) at the
     * level, as far as the game has levels; Style names which (the
     * middle one unless set) */
    const game_bot_ops *bots = s->variant->ops->bots;
    int nstyles = 0;
    while (bots && bots->styles && bots->styles[nstyles].name)
        nstyles++;
    if (!s->variant->hidden && nstyles > 0) {
        int st = nstyles / 2;
        for (int k = 0; k < nstyles; k++)
            if (s->style[0] && strcasecmp(s->style, bots->styles[k].name) == 0)
                st = k;
        int lv = bots->nlevels > 0 && level > bots->nlevels ? bots->nlevels : level;
        snprintf(spec, sizeof spec, "%s=%d", bots->styles[st].name, lv);
    }
    bot_free(s->hidden_bot);
    s->hidden_bot = bot_new(spec, 0x5eed, err, sizeof err);
    s->hidden_level = level;
    s->hidden_variant = s->variant;
    snprintf(s->hidden_style, sizeof s->hidden_style, "%s", s->style);
    if (!s->hidden_bot || bot_new_game(s->hidden_bot, s->variant, 0) != 0) {
        uci_error(out, "this variant's player could not be made");
        return -1;
    }
    return 0;
}

/* go setup [seed N]: the level's own player's setup for a variant with
 * setups (bots.h bot_setup), from seed N, or else from the session's
 * count of `go setup` answered so far (0x5eed + count, mixed), so that a
 * session answers a new setup each game and the same ones each time it
 * is started. */
static void cmd_go_setup(uci_session *s, char **tok, int ntok, FILE *out)
{
    char text[256], err[200];
    uint64_t seed = 0;
    if (ntok == 4 && strcmp(tok[2], "seed") == 0) {
        char *end;
        seed = strtoull(tok[3], &end, 10);
        if (*end || end == tok[3] || tok[3][0] == '-') {
            uci_error(out, "usage: go setup [seed <N>]");
            return;
        }
    } else if (ntok != 2) {
        uci_error(out, "usage: go setup [seed <N>]");
        return;
    }
    if (!s->variant->ops->setup) {
        snprintf(err, sizeof err, "go setup: %s has no setups", s->variant->name);
        uci_error(out, err);
        return;
    }
    stop_search(s);
    if (own_player(s, out) != 0)
        return;
    if (ntok == 2)
        seed = rng_mix(0x5eedu + s->setups++);
    if (bot_setup(s->hidden_bot, s->variant, seed, text, sizeof text, err, sizeof err) != 0) {
        uci_error(out, err);
        return;
    }
    fprintf(out, "bestsetup %s\n", text);
}

/* Starts the search of the job in s->job (variant, position, searchmoves)
 * on a thread of its own, with these limits. */
static void start_search(uci_session *s, const search_limits *lim, FILE *out)
{
    s->job.lim = *lim;
    atomic_store(&s->stop, 0);
    if (pthread_create(&s->thread, NULL, search_thread, s) != 0) {
        uci_error(out, "cannot start the search");
        return;
    }
    s->searching = 1;
}

static void cmd_go(uci_session *s, char **tok, int ntok, FILE *out)
{
    if (ntok >= 2 && strcmp(tok[1], "setup") == 0) {
        cmd_go_setup(s, tok, ntok, out);
        return;
    }
    if (ntok >= 2 && strcmp(tok[1], "perft") == 0) {
        char *end;
        long d = ntok >= 3 ? strtol(tok[2], &end, 10) : -1;
        if (ntok != 3 || *end || d < 1 || d > 64) {
            uci_error(out, "usage: go perft <depth 1-64>");
            return;
        }
        if (s->max_perft_depth && d > s->max_perft_depth) {
            uci_error(out, "perft depth over this session's cap");
            return;
        }
        stop_search(s);
        uci_divide(s->variant, s->pos, (int)d, out);
        return;
    }
    search_limits lim = { .time = { -1, -1 } };
    game_move only[GAME_MAX_MOVES];
    int nonly = 0, ponder = 0;
    for (int i = 1; i < ntok; i++) {
        long long v = 0;
        const char *k = tok[i];
        const long long big = 1000000000000LL;
        if (strcmp(k, "searchmoves") == 0) {
            /* the last group of `go`: every token after it is a move */
            nonly = read_searchmoves(s, tok, i + 1, ntok, only, out);
            if (nonly < 0)
                return;
            break;
        }
        if (strcmp(k, "infinite") == 0) {
            lim.infinite = 1;
            continue;
        }
        if (strcmp(k, "ponder") == 0) {
            ponder = 1;
            continue;
        }
        if (go_number(tok, ntok, &i, 0, big, &v, out) != 0)
            return;
        if (strcmp(k, "depth") == 0 && v >= 1 && v < SEARCH_MAX_PLY)
            lim.depth = (int)v;
        else if (strcmp(k, "nodes") == 0)
            lim.nodes = (uint64_t)v;
        else if (strcmp(k, "movetime") == 0)
            lim.movetime = v;
        else if (strcmp(k, "wtime") == 0)
            lim.time[0] = v;
        else if (strcmp(k, "btime") == 0)
            lim.time[1] = v;
        else if (strcmp(k, "winc") == 0)
            lim.inc[0] = v;
        else if (strcmp(k, "binc") == 0)
            lim.inc[1] = v;
        else if (strcmp(k, "movestogo") == 0)
            ;
        else {
            char msg[128];
            snprintf(msg, sizeof msg, "go: unknown or out-of-range limit '%.20s'", k);
            uci_error(out, msg);
            return;
        }
    }
    stop_search(s);
    if (!s->searcher) {
        s->searcher = search_new((size_t)s->hash_mb);
        if (!s->searcher) {
            uci_error(out, "out of memory for the search");
            return;
        }
    }
    search_set_threads(s->searcher, s->threads);
    search_set_level(s->searcher, uci_level(s), 0x5eed);
    /* Games with hidden pieces (Stratego's belief player) and of more than
     * two sides (Keeps & Moats's multi-player search in its styles) are
     * played by their own players, as the server plays them */
    int own = s->variant->hidden || s->variant->nsides > 2;
    if (own && own_player(s, out) != 0)
        return;
    /* Move Overhead: taken off every time budget (never below 1 ms) */
    int64_t lag = s->move_overhead;
    if (lim.movetime > 0)
        lim.movetime = lim.movetime > lag ? lim.movetime - lag : 1;
    for (int side = 0; side < 2; side++)
        if (lim.time[side] >= 0)
            lim.time[side] = lim.time[side] > lag ? lim.time[side] - lag : 1;
    s->job.variant = s->variant;
    memcpy(s->job.pos, s->pos, s->variant->ops->pos_size);
    s->job.nsearchmoves = nonly;
    memcpy(s->job.searchmoves, only, sizeof(game_move) * (size_t)nonly);
    s->out = out;
    /* go ponder: search until ponderhit or stop, then as the limits say */
    s->pondering = ponder && !lim.infinite;
    s->ponder_lim = lim;
    if (s->pondering)
        lim = (search_limits){ .time = { -1, -1 }, .infinite = 1 };
    start_search(s, &lim, out);
}

/* ponderhit: the move pondered on was played. The ponder search stops
 * without a bestmove and the search starts again on the clock's limits,
 * with what the ponder search learnt in its table. */
static void cmd_ponderhit(uci_session *s, FILE *out)
{
    if (!s->searching || !s->pondering)
        return;
    atomic_store(&s->ponderhit, 1);
    stop_search(s);
    atomic_store(&s->ponderhit, 0);
    s->pondering = 0;
    search_limits lim = s->ponder_lim;
    start_search(s, &lim, out);
}

static void cmd_d(uci_session *s, FILE *out)
{
    const game_ops *ops = s->variant->ops;
    char buf[4096];
    ops->render(s->pos, buf, sizeof buf);
    fputs(buf, out);
    ops->format(s->pos, buf, sizeof buf);
    fprintf(out, "\nFen: %s\n", buf);
    game_result r = ops->result(s->pos);
    if (!r.over) {
        fprintf(out, "Result: ongoing\n");
        return;
    }
    /* The winning team by the names of its sides, in turn order, joined
     * by '+' ("bottom", "red+black"). */
    char names[128] = "draw";
    size_t n = 0;
    for (int side = 0; r.winner >= 0 && side < s->variant->nsides; side++)
        if (ops->team_of(s->pos, side) == r.winner && n < sizeof names)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? "+" : "",
                                  ops->side_name(s->pos, side));
    fprintf(out, "Result: %s %s\n", names, r.reason);
}

int uci_command(uci_session *s, const char *line, FILE *out)
{
    size_t len = strlen(line);
    char *buf = malloc(len + 1);
    char **t = malloc(sizeof(char *) * (len / 2 + 2));
    if (!buf || !t) {
        free(buf);
        free(t);
        uci_error(out, "out of memory");
        return 0;
    }
    memcpy(buf, line, len + 1);
    int ntok = 0, quit = 0;
    char *save = NULL;
    for (char *p = strtok_r(buf, " \t\r\n", &save); p; p = strtok_r(NULL, " \t\r\n", &save))
        t[ntok++] = p;
    const char *c = ntok ? t[0] : "";
    if (ntok == 0)
        ;
    else if (strcmp(c, "uci") == 0)
        uci_cmd_uci(s, out);
    else if (strcmp(c, "isready") == 0)
        fprintf(out, "readyok\n");
    else if (strcmp(c, "ucinewgame") == 0) {
        stop_search(s);
        if (s->searcher)
            search_clear(s->searcher);
        if (s->hidden_bot)
            bot_new_game(s->hidden_bot, s->variant, 0);
        uci_start_position(s, s->pos);
    } else if (strcmp(c, "setoption") == 0) {
        stop_search(s);
        uci_cmd_setoption(s, t, ntok, out);
    } else if (strcmp(c, "position") == 0) {
        stop_search(s);
        cmd_position(s, t, ntok, out);
    }
    else if (strcmp(c, "go") == 0)
        cmd_go(s, t, ntok, out);
    else if (strcmp(c, "d") == 0)
        cmd_d(s, out);
    else if (strcmp(c, "quit") == 0) {
        stop_search(s);
        quit = 1;
    } else if (strcmp(c, "stop") == 0)
        stop_search(s);
    else if (strcmp(c, "ponderhit") == 0)
        cmd_ponderhit(s, out);
    else {
        char msg[128];
        snprintf(msg, sizeof msg, "unknown command '%.60s'", c);
        uci_error(out, msg);
    }
    free(t);
    free(buf);
    return quit;
}

void uci_loop(FILE *in, FILE *out)
{
    uci_session *s = malloc(sizeof *s);
    if (!s) {
        fprintf(out, "info string error: out of memory\n");
        return;
    }
    uci_init(s);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    setvbuf(out, NULL, _IOLBF, 0);
    while ((n = getline(&line, &cap, in)) >= 0) {
        if (n > MAX_LINE) {
            uci_error(out, "line too long");
            continue;
        }
        if (uci_command(s, line, out))
            break;
        fflush(out);
    }
    /* End of input: let a running search finish its move, as after quit. */
    const search_limits *l = &s->job.lim;
    if (s->searching && !l->infinite &&
        (l->depth || l->nodes || l->movetime || l->time[0] >= 0 || l->time[1] >= 0)) {
        pthread_join(s->thread, NULL);
        s->searching = 0;
    }
    uci_finish(s);
    free(line);
    free(s);
}
