/* movegen.c -- the moves of K4 and K5.
 *
 * Moves are written through a sink that counts every move but stores at
 * most its capacity, so that one routine serves both generation and
 * counting. Positions the reader accepts have at most KM_MAX_MOVES moves
 * (km_parse checks it), and no real game comes near: the material bound of
 * K2 (64 pieces) and the few Pawns that can stand next to one Keep keep
 * counts in the low hundreds.
 *
 * Territory decides what Pawns and sliders may do (K4); Knights and Kings
 * see only holes and pieces. A Pawn or Castle Pawn arriving in an enemy
 * Keep makes one move per K5 choice (release a prisoner, assassinate a
 * piece), judged after the capture the move makes; with no choice it is a
 * single plain move.
 */
#include "keeps_moats.h"

typedef struct sink {
    game_move *out;
    int n, cap;
} sink;

static inline void emit(sink *s, game_move m)
{
    if (s->n < s->cap)
        s->out[s->n] = m;
    s->n++;
}

static inline int is_major(int t)
{
    return t == KM_QUEEN || t == KM_ROOK || t == KM_BISHOP || t == KM_KNIGHT;
}

/* 1 if territory allows a Pawn (or Castle Pawn) of k onto square t. */
static int pawn_may_enter(const km_pos *pos, const km_geom *g, int k, int is_castle, int t)
{
    if (g->zone[t] == KM_BATTLE)
        return 1;
    return is_castle || !km_friends(pos->game_type, k, g->realm[t]);
}

/* A Pawn of k from `from` to `to`; K5 when `to` is in an enemy Keep. */
static void pawn_arrives(const km_pos *pos, const km_geom *g, sink *s, int k, int from, int to)
{
    int e = g->realm[to];
    if (g->zone[to] != KM_KEEP || km_friends(pos->game_type, k, e)) {
        emit(s, KM_MOVE(from, to, KM_PLAIN, 0));
        return;
    }
    uint8_t victim = pos->sq[to];
    int king_out = victim && KM_TYPE(victim) == KM_KING ? KM_OWNER(victim) : -1;
    int choices = 0;
    /* Release: a major piece the Keep's kingdom holds, of the mover or an
     * ally still in. */
    for (int o = 0; o < KM_NK; o++) {
        if (!km_friends(pos->game_type, k, o) || (pos->out >> o & 1))
            continue;
        for (int t = KM_QUEEN; t <= KM_KNIGHT; t++)
            if (pos->pris[e][o][t]) {
                emit(s, KM_MOVE(from, to, KM_RELEASE, KM_PIECE(o, t)));
                choices++;
            }
    }
    /* Assassinate: a major enemy piece in that Keep, judged after the
     * capture (a King just taken takes its kingdom out first). */
    for (int i = 0; i < 9; i++) {
        int u = g->keep[e][i];
        uint8_t q = pos->sq[u];
        if (u == to || !q || !is_major(KM_TYPE(q)) || KM_OWNER(q) == king_out)
            continue;
        if (km_capturable(pos, k, q)) {
            emit(s, KM_MOVE(from, to, KM_ASSASSINATE, u));
            choices++;
        }
    }
    if (!choices)
        emit(s, KM_MOVE(from, to, KM_PLAIN, 0));
}

static void gen_pawn(const km_pos *pos, const km_geom *g, sink *s, int k, int sq, int is_castle)
{
    int zs = g->zone[sq], rs = g->realm[sq];
    /* On an enemy Moat: only into that enemy's Keep. */
    if (zs == KM_MOAT && !km_friends(pos->game_type, k, rs)) {
        for (int d = 0; d < 8; d++) {
            int t = g->step[sq][d];
            if (t < 0 || g->zone[t] != KM_KEEP || g->realm[t] != rs)
                continue;
            if (d < 4 ? !pos->sq[t] : km_capturable(pos, k, pos->sq[t]))
                pawn_arrives(pos, g, s, k, sq, t);
        }
        return;
    }
    int own_moat = zs == KM_MOAT && rs == k;
    int f1 = g->step[sq][k];  /* forward: N for White, E Red, S Black, W Blue */
    if (own_moat && !is_castle) {
        /* A Pawn in its own Moat: the opening moves only. */
        if (f1 >= 0 && !pos->sq[f1] && pawn_may_enter(pos, g, k, 0, f1)) {
            pawn_arrives(pos, g, s, k, sq, f1);
            int f2 = g->step[f1][k];
            if (f2 >= 0 && !pos->sq[f2] && pawn_may_enter(pos, g, k, 0, f2))
                pawn_arrives(pos, g, s, k, sq, f2);
        }
        int diag[2] = { 4 + k, 4 + (k + 3) % 4 };
        for (int i = 0; i < 2; i++) {
            int t = g->step[sq][diag[i]];
            if (t >= 0 && g->zone[t] == KM_BATTLE && km_capturable(pos, k, pos->sq[t]))
                pawn_arrives(pos, g, s, k, sq, t);
        }
        return;
    }
    for (int d = 0; d < 8; d++) {
        int t = g->step[sq][d];
        if (t < 0 || !pawn_may_enter(pos, g, k, is_castle, t))
            continue;
        if (d < 4 ? !pos->sq[t] : km_capturable(pos, k, pos->sq[t]))
            pawn_arrives(pos, g, s, k, sq, t);
    }
    /* The Castle Pawn in its own Moat keeps the two-square opening move. */
    if (own_moat && f1 >= 0 && !pos->sq[f1]) {
        int f2 = g->step[f1][k];
        if (f2 >= 0 && !pos->sq[f2] && pawn_may_enter(pos, g, k, 1, f2))
            pawn_arrives(pos, g, s, k, sq, f2);
    }
}

static void gen_slider(const km_pos *pos, const km_geom *g, sink *s, int k, int sq, int d0,
                       int d1)
{
    int zs = g->zone[sq], rs = g->realm[sq];
    for (int d = d0; d < d1; d++) {
        for (int t = g->step[sq][d]; t >= 0; t = g->step[t][d]) {
            int r = g->realm[t];
            int enemy_land = r >= 0 && !km_friends(pos->game_type, k, r);
            /* An enemy Keep only from its own Moat or from inside it. */
            if (enemy_land && g->zone[t] == KM_KEEP && !(zs != KM_BATTLE && rs == r))
                break;
            uint8_t q = pos->sq[t];
            if (q) {
                if (km_capturable(pos, k, q))
                    emit(s, KM_MOVE(sq, t, KM_PLAIN, 0));
                break;
            }
            emit(s, KM_MOVE(sq, t, KM_PLAIN, 0));
            /* The first square of an enemy Moat ends the slide, unless the
             * slide began on that Moat. */
            if (enemy_land && g->zone[t] == KM_MOAT && !(zs == KM_MOAT && rs == r))
                break;
        }
    }
}

static void gen_all(const km_pos *pos, sink *s)
{
    const km_geom *g = km_geom_get();
    int k = pos->stm;
    for (int sq = 0; sq < KM_NSQ; sq++) {
        uint8_t p = pos->sq[sq];
        if (!p || KM_OWNER(p) != k)
            continue;
        switch (KM_TYPE(p)) {
        case KM_KING:
            for (int d = 0; d < 8; d++) {
                int t = g->step[sq][d];
                if (t >= 0 && (!pos->sq[t] || km_capturable(pos, k, pos->sq[t])))
                    emit(s, KM_MOVE(sq, t, KM_PLAIN, 0));
            }
            break;
        case KM_KNIGHT:
            for (int i = 0; i < 8; i++) {
                int t = g->knight[sq][i];
                if (t >= 0 && (!pos->sq[t] || km_capturable(pos, k, pos->sq[t])))
                    emit(s, KM_MOVE(sq, t, KM_PLAIN, 0));
            }
            break;
        case KM_QUEEN:
            gen_slider(pos, g, s, k, sq, 0, 8);
            break;
        case KM_ROOK:
            gen_slider(pos, g, s, k, sq, 0, 4);
            break;
        case KM_BISHOP:
            gen_slider(pos, g, s, k, sq, 4, 8);
            break;
        case KM_PAWN:
            gen_pawn(pos, g, s, k, sq, 0);
            break;
        case KM_CASTLE:
            gen_pawn(pos, g, s, k, sq, 1);
            break;
        default:
            break;
        }
    }
    /* Castling (K4): the King on the Throne swaps with the Castle Pawn. */
    int th = g->throne[k], cp = g->castle_sq[k];
    if ((pos->castle >> k & 1) && pos->sq[th] == KM_PIECE(k, KM_KING) &&
        pos->sq[cp] == KM_PIECE(k, KM_CASTLE))
        emit(s, KM_MOVE(th, cp, KM_PLAIN, 0));
}

int km_gen(const km_pos *pos, game_move *out)
{
    sink s = { out, 0, KM_MAX_MOVES };
    gen_all(pos, &s);
    return s.n < s.cap ? s.n : s.cap;
}

int km_count(const km_pos *pos)
{
    sink s = { NULL, 0, 0 };
    gen_all(pos, &s);
    return s.n;
}

int km_legal(const km_pos *pos, game_move *out)
{
    if (km_over(pos))
        return 0;
    int n = km_gen(pos, out);
    if (n == 0)
        out[n++] = KM_PASS;
    return n;
}
