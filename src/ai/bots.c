/* bots.c -- the bot kinds of bots.h: searcher levels, greedy, random,
 * attacker, MCTS (mcts.c), external UCI engines, and the bots games offer
 * through game.h (game_ops.bots): those a game plays itself, and the style
 * bots of multi_bot.c built from a game's styles and levels.
 *
 * Which player a spec is depends on the variant, which bot_new does not
 * know: bot_new checks the spec against the generic kinds and every
 * variant's factory, and a game's own bot is made when a game of its
 * variant begins (bot_new_game, or the first bot_move). The variant's
 * factory is asked first, so a game's own spec wins over a generic one
 * ("level=3" in Stratego is the game's player). Nothing here knows a game
 * by name: the generic kinds' rules look at nsides and hidden only.
 * Invariant: bot_spec_can_play(spec, v) and bot_new_game(bot_new(spec), v)
 * agree for every spec and variant (both read can_play).
 *
 * External engines.  An engine is `/bin/sh -c <command>` in its own process
 * group, talking over two pipes. Every read waits in poll() against a
 * deadline, so an engine that hangs or dies costs at most its timeout and
 * never blocks the caller for good. The timeouts all scale with T, 5 s by
 * default or CITADEL_UCI_TIMEOUT_MS (for tests): T for each handshake
 * (uci/uciok, isready/readyok) and for a setup (go setup/bestsetup), the
 * move's own time + 2T for a bestmove, 12T when the move has no time limit. A move that times out is answered
 * with "stop" and GAME_MOVE_NONE; the next command first resynchronises with
 * isready/readyok, dropping the late bestmove. After EOF the bot is dead.
 *
 * Writing to an engine that died would raise SIGPIPE and kill the whole
 * program, so making a uci bot sets SIGPIPE to SIG_IGN, once and for the
 * whole process, unless the program already handles it; a dead engine then
 * shows as a failed write (EPIPE). Engines get SIGPIPE back at its default.
 */
#include "bots.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../base/rng.h"
#include "../base/timer.h"
#include "mcts.h"
#include "multi_bot.h"

#define LINE_MAX_BYTES 16384   /* longer engine lines are dropped */
#define DEFAULT_TIMEOUT_MS 5000
#define QUIT_GRACE_MS 2000     /* after "quit", before SIGKILL */

/* The generic kinds, and BOT_GAME for a spec only games offer (a game's
 * own bot or a style bot). A spec that is both ("level=3") has the
 * generic kind, and games that own it play their own. */
enum bot_kind { BOT_LEVEL, BOT_GREEDY, BOT_RANDOM, BOT_ATTACKER, BOT_MCTS, BOT_UCI, BOT_GAME };

typedef struct engine {
    pid_t pid;
    int to, from;              /* our ends: the engine's stdin and stdout */
    int dead;                  /* EOF, a failed write: nothing more to say */
    int desync;                /* a bestmove may still be on its way */
    int64_t timeout_ms;        /* T */
    size_t len;                /* bytes in buf */
    int skipping;              /* dropping the rest of an overlong line */
    char buf[LINE_MAX_BYTES];
    char line[LINE_MAX_BYTES];
} engine;

struct bot {
    enum bot_kind kind;
    char *name;
    char base[64];             /* the spec without its own limits */
    int style;                 /* 1 for a style bot (multi_bot.h), which reads its own */
    uint64_t seed;
    rng rng;
    searcher *search;
    mcts *mcts;
    engine *eng;
    /* A game's own bot, made for the variant of the game begun last. */
    const game_variant *own_v;
    void *own;
    multibot *multi;           /* or a style bot, for own_v */
    /* Limits of its own ("level=6/movetime=50"), replacing the caller's. */
    int64_t own_movetime;
    int own_depth;
    uint64_t own_nodes;
};

/* Reads "/movetime=N", "/depth=N" and "/nodes=N" suffixes (any order) into
 * b; returns 0, or -1 on anything else. */
static int parse_own_limits(bot *b, const char *s)
{
    while (*s == '/') {
        s++;
        char key[16];
        size_t k = 0;
        while (*s && *s != '=' && k < sizeof key - 1)
            key[k++] = *s++;
        key[k] = 0;
        if (*s++ != '=')
            return -1;
        char *end;
        long long v = strtoll(s, &end, 10);
        if (end == s || v < 1 || v > 100000000000LL)
            return -1;
        s = end;
        if (strcmp(key, "movetime") == 0)
            b->own_movetime = v;
        else if (strcmp(key, "depth") == 0 && v < SEARCH_MAX_PLY)
            b->own_depth = (int)v;
        else if (strcmp(key, "nodes") == 0)
            b->own_nodes = (uint64_t)v;
        else
            return -1;
    }
    return *s ? -1 : 0;
}

static void set_err(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
}

/* --- one-ply and random bots ------------------------------------------- */

static game_move pick(rng *g, const game_move *moves, int n)
{
    return n > 0 ? moves[rng_below(g, (uint64_t)n)] : GAME_MOVE_NONE;
}

/* Material of every side not on `team`'s. */
static int enemy_material(const game_variant *v, const void *pos, int team)
{
    int sum = 0;
    for (int s = 0; s < v->nsides; s++)
        if (v->ops->team_of(pos, s) != team)
            sum += v->ops->material(pos, s);
    return sum;
}

/* A move that wins at once; else one taking the most material (captures
 * and enclosures alike, through ops->material); else any; ties at random.
 * A game without a material op gets the first and the last rule only. */
static game_move greedy_move(bot *b, const game_variant *v, const void *root)
{
    const game_ops *ops = v->ops;
    _Alignas(16) unsigned char pos[GAME_POS_MAX], undo[GAME_POS_MAX];
    game_move moves[GAME_MAX_MOVES], wins[GAME_MAX_MOVES], gains[GAME_MAX_MOVES];
    int n = ops->moves(root, moves), nwin = 0, ngain = 0, best = 0;
    memcpy(pos, root, ops->pos_size);
    int team = ops->team_of(pos, ops->side_to_move(pos));
    int before = ops->material ? enemy_material(v, pos, team) : 0;
    for (int i = 0; i < n; i++) {
        ops->make(pos, moves[i], undo);
        game_result r = ops->result(pos);
        int gain = ops->material ? before - enemy_material(v, pos, team) : 0;
        ops->unmake(pos, moves[i], undo);
        if (r.over && r.winner == team)
            wins[nwin++] = moves[i];
        if (gain > best) {
            best = gain;
            ngain = 0;
        }
        if (gain > 0 && gain == best)
            gains[ngain++] = moves[i];
    }
    if (nwin)
        return pick(&b->rng, wins, nwin);
    if (ngain)
        return pick(&b->rng, gains, ngain);
    return pick(&b->rng, moves, n);
}

static game_move random_move(bot *b, const game_variant *v, const void *pos)
{
    game_move moves[GAME_MAX_MOVES];
    return pick(&b->rng, moves, v->ops->moves(pos, moves));
}

/* Any noisy move (an attack, a capture) at random; else any move. */
static game_move attacker_move(bot *b, const game_variant *v, const void *pos)
{
    game_move moves[GAME_MAX_MOVES];
    if (v->ops->noisy) {
        int n = v->ops->noisy(pos, moves);
        if (n > 0)
            return pick(&b->rng, moves, n);
    }
    return random_move(b, v, pos);
}

/* --- external engines ---------------------------------------------------- */

static int64_t env_timeout_ms(void)
{
    const char *s = getenv("CITADEL_UCI_TIMEOUT_MS");
    if (!s || !*s)
        return DEFAULT_TIMEOUT_MS;
    char *end;
    long long v = strtoll(s, &end, 10);
    return (*end || v < 1 || v > 3600000) ? DEFAULT_TIMEOUT_MS : (int64_t)v;
}

static uint64_t deadline_in(int64_t ms)
{
    return timer_ns() + (uint64_t)ms * 1000000u;
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* Moves fd to a number above 2 with close-on-exec set; -1 on failure (fd
 * is closed either way). */
static int high_cloexec(int fd)
{
    int nfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close(fd);
    return nfd;
}

static void ignore_sigpipe(void)
{
    struct sigaction old;
    if (sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_DFL) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_IGN;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGPIPE, &sa, NULL);
    }
}

/* Starts `/bin/sh -c cmd` on two pipes. 0, or -1 with err filled. */
static int eng_spawn(engine *e, const char *cmd, char *err, size_t errlen)
{
    int in[2], out[2];
    if (pipe(in) != 0)
        goto fail;
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        goto fail;
    }
    for (int k = 0; k < 2; k++) {
        in[k] = high_cloexec(in[k]);
        out[k] = high_cloexec(out[k]);
    }
    long maxfd = sysconf(_SC_OPEN_MAX);
    if (maxfd < 256 || maxfd > 65536)
        maxfd = 65536;
    pid_t pid = in[0] < 0 || in[1] < 0 || out[0] < 0 || out[1] < 0 ? -1 : fork();
    int saved = errno;
    if (pid == 0) {
        /* The child: only async-signal-safe calls until exec. */
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        setpgid(0, 0);
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0)
            _exit(127);
        for (int fd = 3; fd < (int)maxfd; fd++)  /* fds other threads opened */
            close(fd);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    for (int k = 0; k < 2; k++) {
        if (in[k] >= 0 && (pid < 0 || k == 0))
            close(in[k]);
        if (out[k] >= 0 && (pid < 0 || k == 1))
            close(out[k]);
    }
    if (pid < 0) {
        errno = saved;
        goto fail;
    }
    setpgid(pid, pid);
    e->pid = pid;
    e->to = in[1];
    e->from = out[0];
    fcntl(e->to, F_SETFL, fcntl(e->to, F_GETFL) | O_NONBLOCK);
    fcntl(e->from, F_SETFL, fcntl(e->from, F_GETFL) | O_NONBLOCK);
    return 0;
fail:
    if (err && errlen)
        snprintf(err, errlen, "cannot start the engine: %s", strerror(errno));
    return -1;
}

/* Writes one line (a newline is added) within T. 0, or -1 (the engine is
 * then dead). */
static int eng_send(engine *e, const char *text)
{
    char msg[4096];
    int len = snprintf(msg, sizeof msg, "%s\n", text);
    if (e->dead || len < 0 || (size_t)len >= sizeof msg)
        return -1;
    uint64_t deadline = deadline_in(e->timeout_ms);
    size_t done = 0;
    while (done < (size_t)len) {
        ssize_t w = write(e->to, msg + done, (size_t)len - done);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno != EAGAIN && errno != EINTR)
            break;
        uint64_t now = timer_ns();
        if (now >= deadline)
            break;
        struct pollfd p = { .fd = e->to, .events = POLLOUT };
        poll(&p, 1, (int)((deadline - now) / 1000000u) + 1);
    }
    if (done < (size_t)len) {
        e->dead = 1;
        return -1;
    }
    return 0;
}

/* Takes a complete line out of buf into e->line, if there is one. */
static int take_line(engine *e)
{
    char *nl = memchr(e->buf, '\n', e->len);
    if (!nl) {
        if (e->len == sizeof e->buf) {  /* overlong: drop what we have */
            e->len = 0;
            e->skipping = 1;
        }
        return 0;
    }
    size_t n = (size_t)(nl - e->buf);
    int skipped = e->skipping;
    if (!skipped) {
        memcpy(e->line, e->buf, n);
        if (n > 0 && e->line[n - 1] == '\r')
            n--;
        e->line[n] = 0;
    }
    e->skipping = 0;
    e->len -= (size_t)(nl - e->buf) + 1;
    memmove(e->buf, nl + 1, e->len);
    return !skipped;
}

/* Reads lines until one whose first word is `word` (left in e->line).
 * Returns 1, 0 on the deadline, -1 on EOF. If *stop becomes nonzero,
 * sends "stop" once and allows 2T more. *errors counts our dialect's
 * "info string error" lines on the way. */
static int eng_wait(engine *e, const char *word, uint64_t deadline, atomic_int *stop,
                    int *errors)
{
    size_t wlen = strlen(word);
    int stop_sent = 0;
    for (;;) {
        while (take_line(e)) {
            const char *l = e->line + strspn(e->line, " \t");
            if (strncmp(l, word, wlen) == 0 && (l[wlen] == 0 || l[wlen] == ' ' ||
                                                l[wlen] == '\t'))
                return 1;
            if (errors && strncmp(l, "info string error", 17) == 0)
                (*errors)++;
        }
        if (e->dead)
            return -1;
        if (stop && !stop_sent && atomic_load(stop)) {
            stop_sent = 1;
            eng_send(e, "stop");
            uint64_t soon = deadline_in(2 * e->timeout_ms);
            deadline = soon < deadline ? soon : deadline;
        }
        uint64_t now = timer_ns();
        if (now >= deadline)
            return 0;
        uint64_t wait = (deadline - now) / 1000000u + 1;
        if (stop && !stop_sent && wait > 10)
            wait = 10;  /* look at *stop now and then */
        struct pollfd p = { .fd = e->from, .events = POLLIN };
        if (poll(&p, 1, wait > 60000 ? 60000 : (int)wait) <= 0)
            continue;
        ssize_t r = read(e->from, e->buf + e->len, sizeof e->buf - e->len);
        if (r > 0)
            e->len += (size_t)r;
        else if (r == 0 || (errno != EAGAIN && errno != EINTR))
            e->dead = 1;
    }
}

/* Says quit, waits QUIT_GRACE_MS for the engine to leave, then kills its
 * process group; reaps it and closes the pipes. */
static void eng_close(engine *e)
{
    if (!e->dead)
        eng_send(e, "quit");
    close(e->to);
    /* Drain its output so it never blocks on a full pipe while leaving. */
    uint64_t deadline = deadline_in(QUIT_GRACE_MS);
    for (;;) {
        int status;
        pid_t w = waitpid(e->pid, &status, WNOHANG);
        if (w == e->pid || (w < 0 && errno != EINTR))  /* gone, or reaped by others */
            break;
        if (timer_ns() >= deadline) {
            kill(-e->pid, SIGKILL);
            kill(e->pid, SIGKILL);
            waitpid(e->pid, &status, 0);
            break;
        }
        struct pollfd p = { .fd = e->from, .events = POLLIN };
        if (e->from >= 0 && poll(&p, 1, 10) > 0) {
            char sink[4096];
            ssize_t r = read(e->from, sink, sizeof sink);
            if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
                close(e->from);
                e->from = -1;
            }
        } else if (e->from < 0) {
            sleep_ms(10);
        }
    }
    if (e->from >= 0)
        close(e->from);
}

/* Starts the engine and does the uci and isready handshakes. */
static engine *eng_open(const char *cmd, char *err, size_t errlen)
{
    engine *e = calloc(1, sizeof *e);
    if (!e) {
        set_err(err, errlen, "out of memory");
        return NULL;
    }
    e->timeout_ms = env_timeout_ms();
    if (eng_spawn(e, cmd, err, errlen) != 0) {
        free(e);
        return NULL;
    }
    int rc = eng_send(e, "uci") == 0 ? eng_wait(e, "uciok", deadline_in(e->timeout_ms), NULL,
                                                NULL)
                                     : -1;
    if (rc == 1)
        rc = eng_send(e, "isready") == 0
                 ? eng_wait(e, "readyok", deadline_in(e->timeout_ms), NULL, NULL)
                 : -1;
    if (rc != 1) {
        if (err && errlen)
            snprintf(err, errlen, "engine '%.60s' %s", cmd,
                     rc == 0 ? "did not answer uci/isready in time" : "exited or closed its pipes");
        eng_close(e);
        free(e);
        return NULL;
    }
    return e;
}

/* isready/readyok, dropping anything older. 0, or -1. */
static int eng_sync(engine *e, int *errors)
{
    if (eng_send(e, "isready") != 0 ||
        eng_wait(e, "readyok", deadline_in(e->timeout_ms), NULL, errors) != 1)
        return -1;
    e->desync = 0;
    return 0;
}

static int uci_new_game(engine *e, const game_variant *v, int move_limit)
{
    char cmd[256];
    int errors = 0;
    if (e->dead)
        return -1;
    if (e->desync)
        eng_send(e, "stop");
    snprintf(cmd, sizeof cmd, "setoption name UCI_Variant value %s", v->name);
    eng_send(e, cmd);
    for (const game_option *o = v->options; o && o->name; o++)
        if (strcmp(o->name, "MoveLimit") == 0) {
            snprintf(cmd, sizeof cmd, "setoption name MoveLimit value %d", move_limit);
            eng_send(e, cmd);
        }
    eng_send(e, "ucinewgame");
    return eng_sync(e, &errors) == 0 && errors == 0 ? 0 : -1;
}

/* Appends " key value" to a go command when the value is set. */
static size_t go_arg(char *buf, size_t size, size_t n, const char *key, long long value)
{
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n, " %s %lld", key, value);
    return n;
}

static game_move uci_move(engine *e, const game_variant *v, const void *pos,
                          const search_limits *lim, atomic_int *stop)
{
    const game_ops *ops = v->ops;
    char cmd[2048], fen[1800];
    if (e->dead || (e->desync && (eng_send(e, "stop") != 0 || eng_sync(e, NULL) != 0)))
        return GAME_MOVE_NONE;
    if (ops->format(pos, fen, sizeof fen) >= sizeof fen)
        return GAME_MOVE_NONE;
    snprintf(cmd, sizeof cmd, "position fen %s", fen);
    if (eng_send(e, cmd) != 0)
        return GAME_MOVE_NONE;

    size_t n = (size_t)snprintf(cmd, sizeof cmd, "go");
    int side = ops->side_to_move(pos) & 1;
    int64_t budget = -1;  /* ms the engine may take; -1 = unknown */
    if (lim->movetime > 0) {
        n = go_arg(cmd, sizeof cmd, n, "movetime", lim->movetime);
        budget = lim->movetime;
    }
    if (lim->time[0] >= 0 || lim->time[1] >= 0) {
        static const char *const keys[2][2] = { { "wtime", "winc" }, { "btime", "binc" } };
        for (int s = 0; s < 2; s++)
            if (lim->time[s] >= 0) {
                n = go_arg(cmd, sizeof cmd, n, keys[s][0], lim->time[s]);
                n = go_arg(cmd, sizeof cmd, n, keys[s][1], lim->inc[s] > 0 ? lim->inc[s] : 0);
            }
        if (budget < 0 && lim->time[side] >= 0)
            budget = lim->time[side] + (lim->inc[side] > 0 ? lim->inc[side] : 0);
    }
    if (lim->depth > 0)
        n = go_arg(cmd, sizeof cmd, n, "depth", lim->depth);
    if (lim->nodes > 0)
        n = go_arg(cmd, sizeof cmd, n, "nodes", (long long)lim->nodes);
    if (lim->infinite && n < sizeof cmd)
        snprintf(cmd + n, sizeof cmd - n, " infinite");
    if (eng_send(e, cmd) != 0)
        return GAME_MOVE_NONE;

    /* An infinite search waits for *stop (then 2T more); without a stop
     * flag nobody could end it, so it gets the no-time-limit wait. */
    uint64_t deadline = lim->infinite && stop ? UINT64_MAX
                        : budget >= 0         ? deadline_in(budget + 2 * e->timeout_ms)
                                              : deadline_in(12 * e->timeout_ms);
    int rc = eng_wait(e, "bestmove", deadline, stop, NULL);
    if (rc != 1) {
        if (rc == 0 && eng_send(e, "stop") == 0)
            e->desync = 1;
        return GAME_MOVE_NONE;
    }
    char text[64] = "";
    game_move m;
    if (sscanf(e->line, " bestmove %63s", text) != 1 ||
        ops->parse_move(pos, text, &m, &(game_error){ "" }) != 0)
        return GAME_MOVE_NONE;
    return m;
}

/* Asks for a setup: `go setup`, answered by `bestsetup <setup>` within T.
 * A late answer is dropped by the next command's resynchronisation. */
static int uci_setup(engine *e, const game_variant *v, char *buf, size_t size, char *err,
                     size_t errlen)
{
    if (e->dead || (e->desync && (eng_send(e, "stop") != 0 || eng_sync(e, NULL) != 0)) ||
        eng_send(e, "go setup") != 0) {
        set_err(err, errlen, "the engine is gone");
        return -1;
    }
    int rc = eng_wait(e, "bestsetup", deadline_in(e->timeout_ms), NULL, NULL);
    if (rc != 1) {
        e->desync = rc == 0;
        if (err && errlen)
            snprintf(err, errlen, rc == 0 ? "no bestsetup within %lld ms" : "the engine is gone",
                     (long long)e->timeout_ms);
        return -1;
    }
    const char *t = e->line + strspn(e->line, " \t") + strlen("bestsetup");
    t += strspn(t, " \t");
    size_t len = strcspn(t, " \t");
    game_error ge = { "" };
    if (len >= size || t[len + strspn(t + len, " \t")] != 0) {
        set_err(err, errlen, "bestsetup must be followed by one setup");
        return -1;
    }
    memcpy(buf, t, len);
    buf[len] = 0;
    if (v->ops->setup->check(buf, &ge) != 0) {
        if (err && errlen)
            snprintf(err, errlen, "bad setup '%.60s': %s", buf, ge.msg);
        return -1;
    }
    return 0;
}

/* --- which bot plays what ------------------------------------------------ */

/* The N of "level=N" or "levelN"; 0 if spec is no level, -1 for a bad N. */
static int parse_level(const char *spec)
{
    if (strncmp(spec, "level", 5) != 0)
        return 0;
    const char *s = spec + 5 + (spec[5] == '=');
    char *end;
    long n = strtol(s, &end, 10);
    if (end == s || *end || n < 1 || n > SEARCH_LEVELS)
        return -1;
    return (int)n;
}

/* The generic kinds by their specs, in the order lists show them. */
static const struct {
    const char *spec;
    enum bot_kind kind;
} generic[] = {
    { "level=N", BOT_LEVEL }, { "greedy", BOT_GREEDY }, { "random", BOT_RANDOM },
    { "attacker", BOT_ATTACKER }, { "mcts", BOT_MCTS }, { "uci:<command>", BOT_UCI },
};

/* The generic kind of a spec without its limits, or -1. Levels are read
 * by parse_level; BOT_UCI is told apart before, by its prefix. */
static int generic_kind(const char *base)
{
    if (parse_level(base) > 0)
        return BOT_LEVEL;
    for (size_t i = 0; i < sizeof generic / sizeof generic[0]; i++)
        if (generic[i].kind != BOT_LEVEL && generic[i].kind != BOT_UCI &&
            strcmp(base, generic[i].spec) == 0)
            return (int)generic[i].kind;
    return -1;
}

/* What the generic kinds play. The searcher and MCTS play every side's
 * moves in their trees, which a view of a hidden game does not allow
 * (game.h); the searcher is for two sides; greedy and MCTS are offered
 * for two sides only (games of more have bots of their own, and the
 * one-ply greedy is "capture" there). random, attacker and external
 * engines play anything. */
static int generic_plays(int kind, const game_variant *v)
{
    switch (kind) {
    case BOT_RANDOM:
    case BOT_ATTACKER:
    case BOT_UCI:
        return 1;
    case BOT_GREEDY:
        return v->nsides == 2;
    case BOT_LEVEL:
    case BOT_MCTS:
        return v->nsides == 2 && !v->hidden;
    default:
        return 0;
    }
}

/* 1 if v's game owns the spec (base: without its limits) as a bot it
 * plays itself; 2 if it is one of the game's style bots; else 0. */
static int game_offers(const game_variant *v, const char *spec, const char *base)
{
    const game_bot_ops *g = v->ops->bots;
    if (!g)
        return 0;
    if (g->owns && g->owns(v, base))
        return 1;
    return multibot_check(v, spec, NULL, 0) == 1 ? 2 : 0;
}

static int plays(int kind, const char *spec, const char *base, const game_variant *v)
{
    return kind == BOT_UCI || game_offers(v, spec, base) || generic_plays(kind, v);
}

static int can_play(const bot *b, const game_variant *v)
{
    return plays(b->kind, b->name, b->base, v);
}

/* The k-th spec of the list bot_specs writes, duplicates included, or
 * NULL past the end: the generic kinds that play v, then the specs of
 * v's game (of every game when v is NULL). */
static const char *nth_spec(const game_variant *v, int k)
{
    for (size_t i = 0; i < sizeof generic / sizeof generic[0]; i++)
        if ((!v || generic_plays(generic[i].kind, v)) && k-- == 0)
            return generic[i].spec;
    for (const game_variant *const *w = game_variants(); *w; w++) {
        const game_bot_ops *g = (*w)->ops->bots;
        if ((v && *w != v) || !g || !g->list)
            continue;
        for (const game_bot_info *i = g->list; i->spec; i++)
            if (k-- == 0)
                return i->spec;
    }
    return NULL;
}

size_t bot_specs(const game_variant *v, char *buf, size_t size)
{
    size_t n = 0;
    if (size)
        buf[0] = 0;
    const char *spec;
    for (int k = 0; (spec = nth_spec(v, k)) != NULL; k++) {
        int seen = 0;
        for (int j = 0; j < k && !seen; j++)
            seen = strcmp(nth_spec(v, j), spec) == 0;
        if (seen)
            continue;
        int len = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, "%s%s",
                           n ? ", " : "", spec);
        n += len > 0 ? (size_t)len : 0;
    }
    return n;
}

/* --- the interface ------------------------------------------------------- */

static void unknown(const char *spec, char *err, size_t errlen)
{
    char all[512];
    bot_specs(NULL, all, sizeof all);
    if (err && errlen)
        snprintf(err, errlen, "unknown bot '%.40s' (want %s)", spec, all);
}

bot *bot_new(const char *spec, uint64_t seed, char *err, size_t errlen)
{
    if (!spec)
        spec = "";
    bot *b = calloc(1, sizeof *b);
    if (!b || !(b->name = malloc(strlen(spec) + 1))) {
        free(b);
        set_err(err, errlen, "out of memory");
        return NULL;
    }
    memcpy(b->name, spec, strlen(spec) + 1);
    b->seed = seed;
    rng_seed(&b->rng, seed);
    if (strncmp(spec, "uci:", 4) == 0) {
        b->kind = BOT_UCI;
        if (spec[4 + strspn(spec + 4, " \t")] == 0) {
            set_err(err, errlen, "bad bot 'uci:': it needs a command after the colon");
            goto fail;
        }
        ignore_sigpipe();
        if (!(b->eng = eng_open(spec + 4, err, errlen)))
            goto fail;
        return b;
    }
    const char *slash = strchr(spec, '/');
    size_t len = slash ? (size_t)(slash - spec) : strlen(spec);
    if (len >= sizeof b->base) {
        unknown(spec, err, errlen);
        goto fail;
    }
    memcpy(b->base, spec, len);
    b->base[len] = 0;

    /* A game's own, for some variant: a bot it plays, or a style bot. */
    int owned = 0;
    for (const game_variant *const *v = game_variants(); *v && !owned && !b->style; v++) {
        int r = game_offers(*v, spec, b->base);
        if (r == 1)
            owned = 1;
        else if (r == 2)
            b->style = 1;
        else if (multibot_check(*v, spec, err, errlen) < 0)
            goto fail;  /* one of its styles, with a bad level or limits */
    }
    if (b->style) {
        b->kind = BOT_GAME;  /* its limits are its own (multi_bot.h) */
        return b;
    }
    if (slash && parse_own_limits(b, slash) != 0) {
        if (err && errlen)
            snprintf(err, errlen, "bad bot '%.60s': limits are /movetime=MS, /depth=N or /nodes=N",
                     spec);
        goto fail;
    }
    int kind = generic_kind(b->base);
    if (kind < 0 && !owned) {
        if (parse_level(b->base) < 0 && err && errlen)
            snprintf(err, errlen, "bad bot '%.40s': the level must be 1-%d", b->base,
                     SEARCH_LEVELS);
        else
            unknown(b->base, err, errlen);
        goto fail;
    }
    b->kind = kind >= 0 ? (enum bot_kind)kind : BOT_GAME;
    if (b->kind == BOT_LEVEL) {
        if ((b->search = search_new(16)) != NULL)
            search_set_level(b->search, parse_level(b->base), seed);
    } else if (b->kind == BOT_MCTS) {
        b->mcts = mcts_new(seed);
    }
    if ((b->kind == BOT_LEVEL && !b->search) || (b->kind == BOT_MCTS && !b->mcts)) {
        set_err(err, errlen, "out of memory");
        goto fail;
    }
    return b;
fail:
    bot_free(b);
    return NULL;
}

/* Frees the game's own bot, if one is made. */
static void drop_game_bot(bot *b)
{
    if (b->own)
        b->own_v->ops->bots->destroy(b->own);
    multibot_free(b->multi);
    b->own = NULL;
    b->multi = NULL;
    b->own_v = NULL;
}

void bot_free(bot *b)
{
    if (!b)
        return;
    drop_game_bot(b);
    search_free(b->search);
    mcts_free(b->mcts);
    if (b->eng) {
        eng_close(b->eng);
        free(b->eng);
    }
    free(b->name);
    free(b);
}

const char *bot_name(const bot *b)
{
    return b->name;
}

int bot_spec_can_play(const char *spec, const game_variant *v)
{
    if (strncmp(spec, "uci:", 4) == 0)
        return 1;  /* only the engine can say; bot_new_game will ask it */
    /* the bot without its own limits ("level=3/nodes=5000"), as bot_new reads it */
    char base[64];
    const char *slash = strchr(spec, '/');
    size_t len = slash ? (size_t)(slash - spec) : strlen(spec);
    if (len >= sizeof base)
        return 0;
    memcpy(base, spec, len);
    base[len] = 0;
    return plays(generic_kind(base), spec, base, v);
}

/* Makes the bot v's game offers for this spec, unless it is made already.
 * 1 if the bot plays v by a game's own bot, 0 if by a generic kind, -1 if
 * memory is short. */
static int game_bot_for(bot *b, const game_variant *v)
{
    if (b->own_v == v)
        return 1;
    int r = b->kind == BOT_UCI ? 0 : game_offers(v, b->name, b->base);
    if (r == 0)
        return 0;
    drop_game_bot(b);
    if (r == 1)
        b->own = v->ops->bots->create(v, b->base, b->seed);
    else
        b->multi = multibot_new(v, b->name, b->seed);
    if (!b->own && !b->multi)
        return -1;
    b->own_v = v;
    return 1;
}

int bot_new_game(bot *b, const game_variant *v, int move_limit)
{
    if (!can_play(b, v))
        return -1;
    int own = game_bot_for(b, v);
    if (own != 0) {
        if (own > 0 && b->own && v->ops->bots->new_game)
            v->ops->bots->new_game(b->own);
        return own > 0 ? 0 : -1;
    }
    switch (b->kind) {
    case BOT_LEVEL:
        search_clear(b->search);
        return 0;
    case BOT_UCI:
        return uci_new_game(b->eng, v, move_limit);
    default:
        return 0;
    }
}

int bot_setup(bot *b, const game_variant *v, uint64_t seed, char *buf, size_t size, char *err,
              size_t errlen)
{
    const game_setup_ops *so = v->ops->setup;
    if (!so) {
        if (err && errlen)
            snprintf(err, errlen, "%s has no setups", v->name);
        return -1;
    }
    if (b->kind == BOT_UCI)
        return uci_setup(b->eng, v, buf, size, err, errlen);
    int n = so->library_size();
    size_t len = so->varied ? so->varied(seed, buf, size)
                 : n > 0    ? (size_t)snprintf(buf, size, "%s", so->library_text((int)(seed % (uint64_t)n)))
                            : so->random(seed, buf, size);
    if (len >= size) {
        set_err(err, errlen, "no room for the setup");
        return -1;
    }
    return 0;
}

game_move bot_move(bot *b, const game_variant *v, const void *pos, const search_limits *lim,
                   atomic_int *stop)
{
    static const search_limits none = { .time = { -1, -1 } };
    if (!lim)
        lim = &none;
    if (!can_play(b, v))
        return GAME_MOVE_NONE;
    search_limits own;
    if (b->own_movetime || b->own_depth || b->own_nodes) {
        own = *lim;
        if (b->own_movetime) {
            own.movetime = b->own_movetime;
            own.time[0] = own.time[1] = -1;
        }
        if (b->own_depth)
            own.depth = b->own_depth;
        if (b->own_nodes)
            own.nodes = b->own_nodes;
        lim = &own;
    }
    int mine = game_bot_for(b, v);  /* made by bot_new_game, or now */
    if (mine < 0)
        return GAME_MOVE_NONE;
    if (mine)
        return b->multi ? multibot_move(b->multi, pos, stop)
                        : v->ops->bots->move(b->own, pos, lim, stop);
    switch (b->kind) {
    case BOT_LEVEL:
        return search_run(b->search, v, pos, lim, stop, NULL, NULL, NULL);
    case BOT_GREEDY:
        return greedy_move(b, v, pos);
    case BOT_RANDOM:
        return random_move(b, v, pos);
    case BOT_ATTACKER:
        return attacker_move(b, v, pos);
    case BOT_MCTS:
        return mcts_run(b->mcts, v, pos, lim, stop, NULL);
    case BOT_UCI:
        return uci_move(b->eng, v, pos, lim, stop);
    case BOT_GAME:
        break;
    }
    return GAME_MOVE_NONE;
}
