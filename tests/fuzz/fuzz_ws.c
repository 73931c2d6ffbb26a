/* fuzz_ws.c -- libFuzzer target for the server's live side: WebSocket
 * clients that seek, challenge, sit at tables, play bots, watch, move,
 * resign, offer draws and rematches, set up Stratego pieces, leave and come
 * back, while the clock moves and the workers think (dispatch.c,
 * core/clients.c, play/: the lobby, live games, records; core/account.c),
 * on the fake net of server_fake.c.
 *
 * The input is a byte of settings, then a script of operations, each an
 * opcode byte and its operands (a byte each; an input that runs out reads
 * zeros). Up to NSLOT clients at once. The harness reads every message the
 * server sends and learns from them what a client would: its player, the
 * games it was sent (their ply, the legal moves when it is to move, the
 * setup phase), seeks, tables, challenge tokens; the templated messages
 * and AUTOPLAY use what was learned, so games are played to their end by
 * legal moves.
 *
 * The settings byte: bit 0 lowers the limits (so they are met), bit 1
 * --behind-tls, bit 2 fills the store first (FAKE_POP_ALL: alice, bob and
 * their games, resumed by srv_start), bit 3 a quota table of 12 keys (it
 * fills and fails closed), bit 4 finished games dropped after 1 s, bits
 * 5-6 abandon-ms (5000, 1000, 60000, 200), bit 7 --trust-proxy 10.0.0.9.
 * Operations (opcode % 16, then its operand bytes):
 *    0 OPEN slot who via     who%8: 0-1 no cookie (a new guest), 2 alice,
 *                            3 bob, 4-7 a session an HTTP answer set
 *                            (who>>3 picks, newest first; who&4 clear:
 *                            another cookie before it); via: bits 0-1 the
 *                            peer, 2-3 the Origin (none, own, allowed,
 *                            foreign)
 *    1 CLOSE slot            the peer leaves
 *    2 RAW slot len bytes... a text message (made valid UTF-8)
 *    3-7 TEMPLATE slot type ref fields...   type%23: seek challenge accept
 *                            accept_challenge cancel play_bot local table
 *                            sit watch unwatch lobby unlobby move resign
 *                            draw (an offer or a decline) rematch setup ping
 *                            chat garbage abort uncover; the fields are
 *                            read in the order op_template reads them
 *    8 MOVE slot game move ply   (as the template, without ref)
 *    9 AUTOPLAY n seed       up to n%64+1 steps of legal play
 *   10 ADVANCE b             the clock moves (timers fire on the way)
 *   11 DRAIN                 the workers run and deliver
 *   12 JOBS b                b%4: run one job of the bot pool, of the
 *                            hashing pool, deliver what ran, one round
 *   13 HTTP kind arg         me, signup, signin, signout, a game's page,
 *                            lobby, setups, a player's page
 *   14 RECONNECT slot        leaves and comes back with the same session
 *   15 MISC b [arg]          b%8: wall clock +8 days, srv_sweep, wall clock
 *                            +31 days, +30 s, 4-7: the clock moves with
 *                            the loop busy (timers fire late, next ADVANCE)
 * A game is named by a byte: the client's own games newest first, or with
 * the top bit any game seen, newest first; seeks, tables and tokens alike.
 *
 * After every operation srv_check (the invariant of core/srv.h). Checked
 * besides: every message sent is a JSON object with a known type; a
 * request the protocol always answers (ping, seek, challenge, table,
 * lobby, play_bot, local, accept, accept_challenge, watch, setup, chat, and
 * anything malformed or of an unknown type) gets its answer or an error;
 * a client watching a game receives its moves in order, ply after ply,
 * none after the end and one end at most; every position a client is
 * shown is the stored game's at that ply (so nothing is shown before it is
 * stored), as the receiver may see it (a hidden game's view of its side,
 * a spectator's view otherwise, the whole position once the game is over),
 * its legal moves are that position's and
 * go only to who plays the side to move, `you` names the sides its player
 * plays, and a hidden game's end shows the stored final position and
 * start; a game's chat (the `game` message's and every `chat` line)
 * reaches its players from the players' room only and everyone else from
 * the spectators' room only; a connected client's player is still in the
 * store under its id;
 * HTTP requests (sign-up, sign-in and the rest, made on the way) as in
 * fuzz_http.c; a WebSocket is refused only with 403 or 429.
 *
 * Known faults can be let through with CITADEL_FUZZ_ALLOW (server_fake.h):
 * "unanswered" skips the check that a request is answered; "purged-guest"
 * the check that a connected client's player is still in the store.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* --- HTTP on the way ------------------------------------------------------------------- */

static int64_t player_of(const net_http *h)
{
    json_t *j = json_loadb(h->body, h->len, 0, NULL);
    int64_t v = jint(json_object_get(j, "player"), "id");
    json_decref(j);
    return v;
}

static void on_reply(net_http *h, void *ctx)
{
    (void)ctx;
    if (h->answers != 1)
        return;
    fake_check_answer(h);
    char cookie[128];
    if (fake_session_cookie(h, cookie, sizeof cookie) > 0)
        add_session(cookie, player_of(h));
}

static void http(const char *method, const char *path, const char *cookie, const char *body,
                 const char *peer)
{
    net_request req = {
        .method = method, .path = path, .query = "", .cookie = cookie ? cookie : "",
        .peer = peer, .origin = "", .host = "localhost:8080",
        .content_type = body[0] ? "application/json" : "", .forwarded_for = "",
        .authorization = "", .body = body,
        .body_len = strlen(body),
    };
    fake_http(S.w.n, &req, 0);
}

static const char *const peers[4] = {"127.0.0.1", "10.1.2.3", "2001:db8::1", "10.0.0.9"};
static const char *const origins[4] = {"", "http://localhost:8080", "https://citadel.example",
                                       "http://evil.example"};
static const char *const names[4] = {"alice", "bob", "carol", "dave_2"};

static const char *session_cookie(unsigned b)
{
    return S.nses ? S.ses[S.nses - 1 - (int)(b % (unsigned)S.nses)].cookie : "";
}

static void op_http(rd *r)
{
    unsigned kind = u8(r), a = u8(r);
    char path[96], body[160];
    const char *peer = peers[(a >> 6) & 3];
    switch (kind % 8) {
    case 0:
        http("GET", "/api/me", "", "", peer);
        break;
    case 1:
        snprintf(body, sizeof body, "{\"name\":\"%s\",\"password\":\"%s\"}", names[a % 4],
                 FAKE_PASSWORD);
        http("POST", "/api/signup", "", body, peer);
        break;
    case 2:
        snprintf(body, sizeof body, "{\"name\":\"%s\",\"password\":\"%s\"}", names[a % 4],
                 (a & 4) ? "wrong-password" : FAKE_PASSWORD);
        http("POST", "/api/signin", "", body, peer);
        break;
    case 3:
        http("POST", "/api/signout", session_cookie(a), "", peer);
        break;
    case 4: {
        static const char *const rest[4] = {"", "/record", "/positions", "/nope"};
        int64_t id = pick(S.games, S.ngames, a >> 2);
        snprintf(path, sizeof path, "/api/games/%lld%s", (long long)(id > 0 ? id : 1),
                 rest[a & 3]);
        http("GET", path, "", "", peer);
        break;
    }
    case 5:
        http("GET", "/api/lobby", "", "", peer);
        break;
    case 6:
        http("GET", "/api/setups/stratego", session_cookie(a), "", peer);
        break;
    default:
        snprintf(path, sizeof path, "/api/players/%s%s", names[a % 4],
                 (a & 4) ? "/games" : "");
        http("GET", path, "", "", peer);
        break;
    }
}

/* --- connecting ------------------------------------------------------------------------ */

static void open_slot(int k, unsigned who, unsigned via)
{
    slot *s = &S.sl[k];
    if (s->c)
        return;
    char cookie[128] = "";
    int ses = -1;
    switch (who % 8) {
    case 0:
    case 1:
        break;
    case 2:
        snprintf(cookie, sizeof cookie, "%s", FAKE_COOKIE_ALICE);
        break;
    case 3:
        snprintf(cookie, sizeof cookie, "%s", FAKE_COOKIE_BOB);
        break;
    default:
        if (S.nses) {
            ses = S.nses - 1 - (int)((who >> 3) % (unsigned)S.nses);
            snprintf(cookie, sizeof cookie, "%s%s", (who & 4) ? "" : "lang=en; ",
                     S.ses[ses].cookie);
        }
        break;
    }
    net_request req = {
        .method = "GET", .path = "/ws", .query = "", .cookie = cookie, .peer = peers[via & 3],
        .origin = origins[(via >> 2) & 3], .host = "localhost:8080", .content_type = "",
        .forwarded_for = (via & 3) == 3 ? "203.0.113.9" : "", .authorization = "", .body = "",
        .body_len = 0,
    };
    int status;
    net_conn *c = fake_ws_connect(S.w.n, &req, &status);
    if (!c) {
        if (status != -1 && status != 403 && status != 429)
            fake_fail("a WebSocket refused with %d", status);
        if (status == 403 && !((via >> 2) & 3))
            fake_fail("a WebSocket without an Origin refused with 403");
        return;
    }
    memset(s, 0, sizeof *s);
    s->c = c;
    s->session = ses;
}

static void close_slot(int k)
{
    slot *s = &S.sl[k];
    if (!s->c)
        return;
    fake_ws_close(S.w.n, s->c);
    s->c = NULL;
    slot_forget_games(s);
}

/* --- messages -------------------------------------------------------------------------- */

/* The answers a message must get (0: none is promised), from its text as
 * the server will read it. */
static unsigned expected(const char *text, size_t len)
{
    json_t *m = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
    if (!m || !json_is_object(m)) {
        json_decref(m);
        return A_ERROR;
    }
    const char *type = json_string_value(json_object_get(m, "type"));
    static const struct {
        const char *type;
        unsigned want;
    } t[] = {{"ping", A_PONG},         {"seek", A_SEEK},     {"challenge", A_CHALLENGE},
             {"table", A_TABLE | A_GAME}, {"lobby", A_LOBBY}, {"play_bot", A_GAME},
             {"local", A_GAME},        {"accept", A_GAME},   {"accept_challenge", A_GAME},
             {"watch", A_GAME},        {"setup", A_SETUP_OK}, {"chat", A_CHAT}};
    static const char *const quiet[] = {"cancel", "sit", "unwatch", "unlobby", "move",
                                        "resign", "draw", "rematch", "abort", "uncover"};
    unsigned want = A_ERROR;  /* no type, or an unknown one */
    if (type) {
        for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
            if (strcmp(type, t[i].type) == 0)
                want = A_ERROR | t[i].want;
        for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++)
            if (strcmp(type, quiet[i]) == 0)
                want = 0;
    }
    json_decref(m);
    return want;
}

static void send_text(int k, const char *text, size_t len)
{
    slot *s = &S.sl[k];
    if (!s->c || s->c->closing)
        return;
    unsigned want = expected(text, len);
    S.got = 0;
    /* what earlier operations sent is read first */
    read_outbox(k);
    S.got = 0;
    fake_ws_message(S.w.n, s->c, text, len);
    int closing = s->c->closing || s->c->dropped;
    read_outbox(k);
    if (want && !closing && !(S.got & want) && !fake_allowed("unanswered"))
        fake_fail("client %d sent %.*s and got no answer (wanted one of 0x%x)", k,
                  (int)(len > 300 ? 300 : len), text, want);
    settle();
}

static void send_json(int k, json_t *m)
{
    char *text = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    if (!text)
        return;
    send_text(k, text, strlen(text));
    free(text);
}

static json_t *ref_of(unsigned b)
{
    switch (b % 4) {
    case 1:
        return json_integer(b);
    case 2:
        return json_string("r");
    case 3:
        return json_pack("{s:[i]}", "a", (int)b);
    default:
        return NULL;
    }
}

static json_t *message(const char *type, rd *r)
{
    json_t *m = json_pack("{s:s}", "type", type);
    json_t *ref = ref_of(u8(r));
    if (ref)
        json_object_set_new(m, "ref", ref);
    return m;
}

/* A name of `n` letters, each 'x' or 'e' with an acute accent (two bytes):
 * messages quote names cut at a byte count. */
static json_t *mixed_name(unsigned n, unsigned pattern)
{
    char buf[128];
    size_t len = 0;
    for (unsigned i = 0; i < n && len + 3 < sizeof buf; i++) {
        if ((pattern >> (i % 8)) & 1) {
            buf[len++] = (char)0xc3;
            buf[len++] = (char)0xa9;
        } else {
            buf[len++] = 'x';
        }
    }
    buf[len] = 0;
    return json_string(buf);
}

/* variant, base_ms, inc_ms, move_limit, rated, options: six bytes (two
 * more for a long name); returns the variant (NULL if none). */
static const game_variant *settings(json_t *m, rd *r)
{
    const game_variant *const *vs = game_variants();
    unsigned nv = 0;
    while (vs[nv])
        nv++;
    unsigned k = u8(r) % (nv + 2);
    const game_variant *v = NULL;
    if (k < nv) {
        v = vs[k];
        json_object_set_new(m, "variant", json_string(v->name));
    } else if (k == nv) {
        json_object_set_new(m, "variant", json_string("nope"));
    } else {
        unsigned n = u8(r) % 48;
        json_object_set_new(m, "variant", mixed_name(n, u8(r)));
    }
    static const int64_t base[16] = {-1, 0, 1000, 5000, 60000, 300000, 10800000, 10800001,
                                     -5, 200, 2000, -1, -1, 30000, 600000, 1};
    static const int64_t inc[8] = {-1, 0, 100, 2000, 60000, 60001, -1, 1000};
    static const int64_t limit[16] = {-1, 50, 100, 150, 200, 0, 7, 1000, 3, -1, -1, 1, 2, 20, 100001, -2};
    int64_t b = base[u8(r) % 16], i = inc[u8(r) % 8], l = limit[u8(r) % 16];
    if (b != -1)
        json_object_set_new(m, "base_ms", json_integer(b));
    if (i != -1)
        json_object_set_new(m, "inc_ms", json_integer(i));
    if (l != -1)
        json_object_set_new(m, "move_limit", json_integer(l));
    switch (u8(r) % 4) {
    case 1:
        json_object_set_new(m, "rated", json_true());
        break;
    case 2:
        json_object_set_new(m, "rated", json_false());
        break;
    case 3:
        json_object_set_new(m, "rated", json_integer(1));
        break;
    default:
        break;
    }
    unsigned o = u8(r);
    switch (o % 4) {
    case 1:
        json_object_set_new(m, "options", json_pack("{s:i}", "GameType", (int)((o >> 2) % 3)));
        break;
    case 2:
        json_object_set_new(m, "options",
                            json_pack("{s:i, s:i}", "KingResult", (int)((o >> 2) % 3),
                                      "GameType", (int)((o >> 4) % 3)));
        break;
    case 3:
        json_object_set_new(m, "options", json_pack("{s:i}", "Bogus", 1));
        break;
    default:
        break;
    }
    return v;
}

static json_t *bot_name(unsigned b)
{
    srv *s = S.w.s;
    if ((int)(b % (unsigned)(s->nbots + 1)) == s->nbots)
        return json_string("bot-nope");
    return json_string(s->bots[b % (unsigned)(s->nbots + 1)].name);
}

/* a game: the client's own (newest first), or with the top bit any known */
static int64_t game_pick(slot *s, unsigned b)
{
    if ((b & 0x80) || !s->ng) {
        int64_t id = pick(S.games, S.ngames, b & 0x7f);
        return id > 0 ? id : (int64_t)(b & 0x7f);
    }
    return s->g[s->ng - 1 - (int)((b & 0x7f) % (unsigned)s->ng)].id;
}

static int64_t id_pick(const int64_t *list, int n, unsigned b)
{
    if ((b & 0x80) || !n)
        return (int64_t)(b & 0x7f);
    return pick(list, n, b);
}

static const char *const bad_moves[8] = {"a1a2", "", "resign", "zz99", "b1a1 ", "b1-a1",
                                         "a4a5", "h3i5"};

/* move {game, ply, move}: gamepick, movepick, plypick */
static json_t *move_message(json_t *m, slot *s, rd *r)
{
    int64_t id = game_pick(s, u8(r));
    unsigned mv = u8(r), pl = u8(r);
    cgame *g = cg_find(s, id, 0);
    int ply = g ? g->ply : (int)(pl % 8);
    if (pl % 8 == 7)
        ply--;
    else if (pl % 8 == 6)
        ply++;
    json_object_set_new(m, "game", json_integer(id));
    json_object_set_new(m, "ply", pl % 16 == 5 ? json_string("0") : json_integer(ply));
    size_t n = g && g->legal ? json_array_size(g->legal) : 0;
    if (n && mv < 0xc0)
        json_object_set(m, "move", json_array_get(g->legal, mv % n));
    else
        json_object_set_new(m, "move", json_string(bad_moves[mv % 8]));
    return m;
}

static void op_template(int k, unsigned t, rd *r)
{
    slot *s = &S.sl[k];
    static const char *const types[23] = {
        "seek", "challenge", "accept", "accept_challenge", "cancel", "play_bot", "local",
        "table", "sit", "watch", "unwatch", "lobby", "unlobby", "move", "resign", "draw",
        "rematch", "setup", "ping", "chat", "?", "abort", "uncover"};
    t %= 23;
    if (t == 20) {
        unsigned g = u8(r);
        json_t *m;
        if (g % 4 == 0)
            m = json_pack("{s:s}", "type", "nope");
        else if (g % 4 == 1)
            m = json_pack("{s:i}", "ref", 1);
        else if (g % 4 == 2)
            m = json_pack("{s:i}", "type", 5);
        else {
            m = json_object();
            json_object_set_new(m, "type", mixed_name(u8(r) % 48, u8(r)));
        }
        send_json(k, m);
        return;
    }
    json_t *m = message(types[t], r);
    switch (t) {
    case 0:
    case 1:
    case 6:
        settings(m, r);
        break;
    case 2:
    case 4:
        json_object_set_new(m, "seek", json_integer(id_pick(S.seeks, S.nseeks, u8(r))));
        break;
    case 3: {
        unsigned b = u8(r);
        json_object_set_new(m, "token", json_string((b & 0x80) || !S.ntokens
                                                        ? "0123456789abcdef0123456789abcdef"
                                                        : S.tokens[S.ntokens - 1 -
                                                                   (int)(b % (unsigned)S.ntokens)]));
        break;
    }
    case 5: {
        settings(m, r);
        json_object_set_new(m, "bot", bot_name(u8(r)));
        unsigned sd = u8(r) % 6;
        if (sd == 5)
            json_object_set_new(m, "side", json_string("0"));
        else if (sd)
            json_object_set_new(m, "side", json_integer((int)sd - 2));
        break;
    }
    case 7: {
        const game_variant *v = settings(m, r);
        int n = v ? v->nsides : 4;
        unsigned adj = u8(r);
        if (adj % 8 == 7)
            n++;
        json_t *seats = json_array();
        for (int i = 0; i < n; i++) {
            unsigned b = u8(r);
            switch (b % 4) {
            case 0:
                json_array_append_new(seats, json_string("me"));
                break;
            case 1:
                json_array_append_new(seats, json_string("open"));
                break;
            case 2:
                json_array_append_new(seats, bot_name(b >> 2));
                break;
            default:
                json_array_append_new(seats, json_integer(1));
                break;
            }
        }
        json_object_set_new(m, "seats", seats);
        break;
    }
    case 8:
        json_object_set_new(m, "table", json_integer(id_pick(S.tables, S.ntables, u8(r))));
        json_object_set_new(m, "seat", json_integer((int)(u8(r) % 5)));
        break;
    case 9:
    case 10:
    case 14:
    case 16:
    case 21:
    case 22:
        json_object_set_new(m, "game", json_integer(game_pick(s, u8(r))));
        break;
    case 15: {  /* an offer, or a decline of the others' (or a bad decline) */
        json_object_set_new(m, "game", json_integer(game_pick(s, u8(r))));
        unsigned b = u8(r) % 4;
        if (b == 1)
            json_object_set_new(m, "decline", json_true());
        else if (b == 2)
            json_object_set_new(m, "decline", json_string("yes"));
        break;
    }
    case 13:
        move_message(m, s, r);
        break;
    case 17: {
        json_object_set_new(m, "game", json_integer(game_pick(s, u8(r))));
        unsigned b = u8(r);
        if (b < 0xe0 && nsetups)
            json_object_set_new(m, "setup", json_string(setups[b % (unsigned)nsetups]));
        else if (b < 0xf0 && nsetups) {
            char bad[128];
            snprintf(bad, sizeof bad, "%s", setups[b % (unsigned)nsetups]);
            size_t n = strlen(bad);
            if (n > 2) {
                char c = bad[b % n];
                bad[b % n] = bad[(b + 1) % n];
                bad[(b + 1) % n] = c;
            }
            json_object_set_new(m, "setup", json_string(bad));
        } else
            json_object_set_new(m, "setup", json_string(b & 1 ? "XX" : ""));
        unsigned sd = u8(r) % 5;
        if (sd == 4)
            json_object_set_new(m, "side", json_string("x"));
        else if (sd)
            json_object_set_new(m, "side", json_integer((int)sd - 1));
        break;
    }
    case 19: {
        static const char *const lines[8] = {"gg", "", " ", "<script>x</script>", "a\nb",
                                             "\u00e9t\u00e9", "@alice game 1", NULL};
        json_object_set_new(m, "game", json_integer(game_pick(s, u8(r))));
        unsigned b = u8(r) % 8;
        if (lines[b])
            json_object_set_new(m, "text", json_string(lines[b]));
        else {
            char longer[402];
            memset(longer, 'x', sizeof longer - 1);
            longer[400 + (u8(r) & 1)] = 0;
            json_object_set_new(m, "text", json_string(longer));
        }
        break;
    }
    default:
        break;  /* lobby, unlobby, ping */
    }
    send_json(k, m);
}

/* --- playing on by itself ------------------------------------------------------------------ */

static uint64_t ap_state;

static unsigned ap_next(void)
{
    ap_state = ap_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(ap_state >> 33);
}

/* Up to n steps: a client with legal moves plays one (chosen at random), or
 * a client whose side has not set up sends a library setup, and the clock
 * moves 60-159 ms; when nobody can, the workers run (bots). */
static void autoplay(unsigned n, unsigned seed)
{
    ap_state = seed * 0x9e3779b97f4a7c15ULL + 1;
    for (unsigned step = 0; step < n; step++) {
        int cand_k[NSLOT * MAXG], cand_g[NSLOT * MAXG], nc = 0;
        for (int k = 0; k < NSLOT; k++) {
            slot *s = &S.sl[k];
            if (!s->c || s->c->closing)
                continue;
            for (int i = 0; i < s->ng; i++) {
                cgame *g = &s->g[i];
                if (g->ended)
                    continue;
                if ((g->legal && json_array_size(g->legal)) ||
                    (g->setup && (g->you & ~g->ready))) {
                    cand_k[nc] = k;
                    cand_g[nc++] = i;
                }
            }
        }
        if (!nc) {
            if (!fake_jobs_queued(S.w.n) && !fake_jobs_done(S.w.n))
                return;
            fake_drain(S.w.n, 1);
            settle();
            continue;
        }
        int c = (int)(ap_next() % (unsigned)nc);
        int k = cand_k[c];
        cgame *g = &S.sl[k].g[cand_g[c]];
        json_t *m;
        if (g->setup) {
            unsigned todo = g->you & ~g->ready;
            int side = __builtin_ctz(todo);
            m = json_pack("{s:s, s:I, s:s, s:i}", "type", "setup", "game", (json_int_t)g->id,
                          "setup", nsetups ? setups[ap_next() % (unsigned)nsetups] : "",
                          "side", side);
        } else {
            size_t nl = json_array_size(g->legal);
            m = json_pack("{s:s, s:I, s:i, s:O}", "type", "move", "game", (json_int_t)g->id,
                          "ply", g->ply, "move", json_array_get(g->legal, ap_next() % nl));
        }
        send_json(k, m);
        /* a person takes a moment, and the rate limit wants one */
        fake_advance(S.w.n, 60 + ap_next() % 100);
        settle();
    }
}

/* --- the script ------------------------------------------------------------------------------- */

enum {
    OP_OPEN, OP_CLOSE, OP_RAW, OP_T1, OP_T2, OP_T3, OP_T4, OP_T5, OP_MOVE, OP_AUTOPLAY,
    OP_ADVANCE, OP_DRAIN, OP_JOBS, OP_HTTP, OP_RECONNECT, OP_MISC, OP_COUNT
};

static void step(rd *r)
{
    unsigned op = u8(r) % OP_COUNT;
    switch (op) {
    case OP_OPEN: {
        int k = (int)(u8(r) % NSLOT);
        unsigned who = u8(r), via = u8(r);
        open_slot(k, who, via);
        break;
    }
    case OP_CLOSE:
        close_slot((int)(u8(r) % NSLOT));
        break;
    case OP_RAW: {
        int k = (int)(u8(r) % NSLOT);
        unsigned len = u8(r);
        char buf[256];
        unsigned i;
        for (i = 0; i < len && r->n; i++)
            buf[i] = (char)u8(r);
        fake_utf8_fix(buf, i);  /* the real net closes a connection that sends other */
        send_text(k, buf, i);
        break;
    }
    case OP_T1:
    case OP_T2:
    case OP_T3:
    case OP_T4:
    case OP_T5: {
        int k = (int)(u8(r) % NSLOT);
        op_template(k, u8(r), r);
        break;
    }
    case OP_MOVE: {
        int k = (int)(u8(r) % NSLOT);
        json_t *m = json_pack("{s:s}", "type", "move");
        send_json(k, move_message(m, &S.sl[k], r));
        break;
    }
    case OP_AUTOPLAY: {
        unsigned n = u8(r) % 64 + 1;
        autoplay(n, u8(r));
        break;
    }
    case OP_ADVANCE: {
        static const int64_t ms[16] = {1,    50,    100,   500,   1000,  2000,   5000,   5100,
                                       10000, 20000, 30000, 60000, 61000, 120000, 300000,
                                       3600000};
        unsigned b = u8(r);
        fake_advance(S.w.n, ms[b % 16] + (b >> 4) * 7);
        break;
    }
    case OP_DRAIN:
        fake_drain(S.w.n, 8);
        break;
    case OP_JOBS: {
        unsigned b = u8(r) % 4;
        if (b < 2)
            fake_run_one(S.w.n, (int)b);
        else if (b == 2)
            fake_wake(S.w.n);
        else
            fake_drain(S.w.n, 1);
        break;
    }
    case OP_HTTP:
        op_http(r);
        break;
    case OP_RECONNECT: {
        int k = (int)(u8(r) % NSLOT);
        slot *s = &S.sl[k];
        if (s->c && s->session >= 0) {
            int ses = s->session;
            close_slot(k);
            settle();
            open_slot(k, 4 | (unsigned)(S.nses - 1 - ses) << 3, 0);
        } else {
            close_slot(k);
        }
        break;
    }
    default: {
        unsigned b = u8(r) % 8;
        if (b >= 4) {
            static const int64_t late[8] = {1, 100, 150, 1000, 5000, 5101, 30000, 61000};
            fake_advance_late(late[u8(r) % 8]);
        } else if (b == 0)
            fake_wall_jump(8LL * 24 * 3600 * 1000);
        else if (b == 1)
            srv_sweep(S.w.s);
        else if (b == 2)
            fake_wall_jump(31LL * 24 * 3600 * 1000);
        else
            fake_advance(S.w.n, 30000);
        break;
    }
    }
    settle();
}

static void tune(srv_config *cfg, void *ctx)
{
    unsigned f = *(const unsigned *)ctx;
    if (f & 1) {
        cfg->limits[LIM_WS_PER_ADDR] = 3;
        cfg->limits[LIM_MSG_RATE] = 5;
        cfg->limits[LIM_MSG_BURST] = 8;
        cfg->limits[LIM_GUESTS] = 4;
        cfg->limits[LIM_SIGNUPS] = 2;
        cfg->limits[LIM_SIGNIN_FAILS] = 2;
        cfg->limits[LIM_GAMES] = 3;
        cfg->limits[LIM_BOT_GAMES] = 1;
        cfg->limits[LIM_BOT_GAMES_ALL] = 2;
        cfg->limits[LIM_NEW_GAMES] = 8;
        cfg->limits[LIM_SEEKS] = 2;
        cfg->limits[LIM_HASH_QUEUE] = 1;
    }
    cfg->behind_tls = (f >> 1) & 1;
    if (f & 16)
        cfg->keep_over_ms = 1000;
    static const int64_t abandon[4] = {5000, 1000, 60000, 200};
    cfg->abandon_ms = abandon[(f >> 5) & 3];
    if (f & 128)
        snprintf(cfg->proxy, sizeof cfg->proxy, "10.0.0.9");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* the setups to play, as a client learns them */
    fake_world w;
    fake_world_new(&w, NULL, NULL, 0);
    net_request req = {
        .method = "GET", .path = "/api/setups/stratego", .query = "", .cookie = "",
        .peer = "127.0.0.1", .origin = "", .host = "", .content_type = "",
        .forwarded_for = "", .authorization = "", .body = "", .body_len = 0,
    };
    net_http *h = fake_http(w.n, &req, 0);
    json_t *j = json_loadb(h->body, h->len, 0, NULL);
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(j, "library"), i, v) {
        if (nsetups < 23 && json_string_value(json_object_get(v, "setup")))
            snprintf(setups[nsetups++], sizeof setups[0], "%s",
                     json_string_value(json_object_get(v, "setup")));
    }
    if (json_string_value(json_object_get(j, "random")))
        snprintf(setups[nsetups++], sizeof setups[0], "%s",
                 json_string_value(json_object_get(j, "random")));
    json_decref(j);
    if (nsetups < 2)
        fake_fail("GET /api/setups/stratego gave no setups");
    fake_world_free(&w);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned flags = data[0];
    memset(&S, 0, sizeof S);
    memset(replays, 0, sizeof replays);
    fake_quota_keys = (flags & 8) ? 12 : 0;
    fake_world_new(&S.w, tune, &flags, (flags & 4) ? FAKE_POP_ALL : 0);
    fake_on_reply(S.w.n, on_reply, NULL);
    if (flags & 4) {
        store_player p;
        store_err e;
        if (store_player_by_name(S.w.st, "alice", &p, NULL, &e) == 0)
            add_session(FAKE_COOKIE_ALICE, p.id);
        if (store_player_by_name(S.w.st, "bob", &p, NULL, &e) == 0)
            add_session(FAKE_COOKIE_BOB, p.id);
    }
    rd r = {data + 1, size - 1};
    while (r.n)
        step(&r);
    for (int k = 0; k < NSLOT; k++)
        slot_forget_games(&S.sl[k]);
    fake_world_free(&S.w);
    fake_quota_keys = 0;
    return 0;
}
