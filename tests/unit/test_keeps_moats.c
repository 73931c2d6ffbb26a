/* test_keeps_moats.c -- the Keeps & Moats rulings K1-K6 (of
 * rules/keeps-and-moats.md), by name; the notation (K7), perft and
 * playouts are in test_keeps_moats_notation.c.
 *
 * Positions are built from a list of pieces ("wK@i2 rK@b9") and the other
 * eight K7 fields, then read through km_parse, so every test position is
 * also one the reader accepts. Moves are compared as sorted texts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/base/rng.h"
#include "../../src/games/keeps-moats/keeps_moats.h"
#include "km_fixture.h"
/* --- K1 Board -------------------------------------------------------------- */

static void test_K1_board_has_145_squares(void **state)
{
    (void)state;
    const km_geom *g = km_geom_get();
    int n = 0, zones[3] = { 0 }, realm[KM_NK] = { 0 };
    for (int f = 0; f < 17; f++)
        for (int r = 0; r < 17; r++)
            if (g->at[f][r] >= 0) {
                int s = g->at[f][r];
                n++;
                zones[g->zone[s]]++;
                if (g->realm[s] >= 0)
                    realm[g->realm[s]]++;
            }
    assert_int_equal(n, KM_NSQ);
    assert_int_equal(zones[KM_BATTLE], 81);
    assert_int_equal(zones[KM_MOAT], 28);
    assert_int_equal(zones[KM_KEEP], 36);
    for (int k = 0; k < KM_NK; k++)
        assert_int_equal(realm[k], 16);
    /* Holes. */
    const char *holes[] = { "a1", "d5", "e4", "f3", "a8", "q10", "d13", "n5", "h1", "q17" };
    for (size_t i = 0; i < sizeof holes / sizeof holes[0]; i++)
        assert_int_equal(km_parse_square(holes[i], strlen(holes[i])), -1);
    assert_int_equal(km_parse_square("r1", 2), -1);
    assert_int_equal(km_parse_square("a18", 3), -1);
    assert_int_equal(km_parse_square("i0", 2), -1);
}

static void test_K1_zones_and_realms(void **state)
{
    (void)state;
    const km_geom *g = km_geom_get();
    struct {
        const char *sq;
        int zone, realm;
    } t[] = {
        { "e5", KM_BATTLE, -1 }, { "m13", KM_BATTLE, -1 }, { "i9", KM_BATTLE, -1 },
        { "f4", KM_MOAT, KM_WHITE }, { "l4", KM_MOAT, KM_WHITE }, { "g3", KM_KEEP, KM_WHITE },
        { "i1", KM_KEEP, KM_WHITE }, { "f14", KM_MOAT, KM_BLACK }, { "i17", KM_KEEP, KM_BLACK },
        { "d6", KM_MOAT, KM_RED }, { "d12", KM_MOAT, KM_RED }, { "a9", KM_KEEP, KM_RED },
        { "c11", KM_KEEP, KM_RED }, { "n6", KM_MOAT, KM_BLUE }, { "q9", KM_KEEP, KM_BLUE },
        { "p10", KM_KEEP, KM_BLUE },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int s = km_parse_square(t[i].sq, strlen(t[i].sq));
        assert_true(s >= 0);
        assert_int_equal(g->zone[s], t[i].zone);
        assert_int_equal(g->realm[s], t[i].realm);
    }
    /* Thrones and Castle Pawn squares. */
    const char *thrones[] = { "i2", "b9", "i16", "p9" }, *cps[] = { "i1", "a9", "i17", "q9" };
    for (int k = 0; k < KM_NK; k++) {
        char a[4], b[4];
        km_square_name(g->throne[k], a);
        km_square_name(g->castle_sq[k], b);
        assert_string_equal(a, thrones[k]);
        assert_string_equal(b, cps[k]);
    }
}

static void test_K1_square_names_round_trip(void **state)
{
    (void)state;
    for (int s = 0; s < KM_NSQ; s++) {
        char name[4];
        km_square_name(s, name);
        assert_int_equal(km_parse_square(name, strlen(name)), s);
    }
}

static void test_K1_nothing_enters_or_crosses_holes(void **state)
{
    (void)state;
    /* A Queen on the Battlefield's corner e5: west, south and south-west
     * are holes at once; north-west ends on Red's Moat; south-east runs
     * through White's own Moat and Keep to i1. */
    km_pos p = build(KINGS "wQ@e5", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "e5"),
                        "e5d6 e5e10 e5e11 e5e12 e5e13 e5e6 e5e7 e5e8 e5e9 e5f4 e5f5 e5f6 e5g3 "
                        "e5g5 e5g7 e5h2 e5h5 e5h8 e5i1 e5i5 e5i9 e5j10 e5j5 e5k11 e5k5 e5l12 "
                        "e5l5 e5m13 e5m5");
    /* A Rook on the row-4 Moat stops where the Moat ends. */
    p = build(KINGS "wR@f4", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "f4"),
                        "f4f10 f4f11 f4f12 f4f13 f4f14 f4f5 f4f6 f4f7 f4f8 f4f9 f4g4 f4h4 f4i4 "
                        "f4j4 f4k4 f4l4");
}

static void test_K1_forward_of_each_kingdom(void **state)
{
    (void)state;
    km_pos p = build(KINGS "wP@g4 rP@d8 bP@h14 uP@n10", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "g4"), "g4g5 g4g6");
    p = build(KINGS "wP@g4 rP@d8 bP@h14 uP@n10", "r " ANARCHY);
    assert_string_equal(moves_from(&p, "d8"), "d8e8 d8f8");
    p = build(KINGS "wP@g4 rP@d8 bP@h14 uP@n10", "b " ANARCHY);
    assert_string_equal(moves_from(&p, "h14"), "h14h12 h14h13");
    p = build(KINGS "wP@g4 rP@d8 bP@h14 uP@n10", "u " ANARCHY);
    assert_string_equal(moves_from(&p, "n10"), "n10l10 n10m10");
}

/* --- K2 Setup -------------------------------------------------------------- */

static void test_K2_start_position(void **state)
{
    (void)state;
    km_pos p;
    km_start(&p, KM_ANARCHY, KM_GAINED);
    assert_string_equal(fen(&p), START);
    struct {
        const char *sq, *tok;
    } t[] = {
        { "g3", "wR" }, { "h3", "wN" }, { "i3", "wQ" }, { "j3", "wB" }, { "k3", "wR" },
        { "h2", "wB" }, { "i2", "wK" }, { "j2", "wN" }, { "i1", "wC" }, { "k15", "bR" },
        { "j15", "bN" }, { "i15", "bQ" }, { "h15", "bB" }, { "g15", "bR" }, { "j16", "bB" },
        { "i16", "bK" }, { "h16", "bN" }, { "i17", "bC" }, { "c11", "rR" }, { "c10", "rN" },
        { "c9", "rQ" }, { "c8", "rB" }, { "c7", "rR" }, { "b10", "rB" }, { "b9", "rK" },
        { "b8", "rN" }, { "a9", "rC" }, { "o7", "uR" }, { "o8", "uN" }, { "o9", "uQ" },
        { "o10", "uB" }, { "o11", "uR" }, { "p8", "uB" }, { "p9", "uK" }, { "p10", "uN" },
        { "q9", "uC" },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        assert_int_equal(at(&p, t[i].sq), piece(t[i].tok));
    const char *moats[KM_NK] = { "f4 g4 h4 i4 j4 k4 l4", "d6 d7 d8 d9 d10 d11 d12",
                                 "f14 g14 h14 i14 j14 k14 l14", "n6 n7 n8 n9 n10 n11 n12" };
    for (int k = 0; k < KM_NK; k++) {
        char list[64];
        snprintf(list, sizeof list, "%s", moats[k]);
        for (char *s = strtok(list, " "); s; s = strtok(NULL, " "))
            assert_int_equal(at(&p, s), KM_PIECE(k, KM_PAWN));
    }
    int count[KM_NK] = { 0 };
    for (int s = 0; s < KM_NSQ; s++)
        if (p.sq[s])
            count[KM_OWNER(p.sq[s])]++;
    for (int k = 0; k < KM_NK; k++)
        assert_int_equal(count[k], 16);
}

/* --- K3 Turns and sides ---------------------------------------------------- */

static void test_K3_turn_order_and_rounds(void **state)
{
    (void)state;
    km_pos p;
    km_start(&p, KM_ANARCHY, KM_GAINED);
    const char *seq[] = { "f4f5", "d6e6", "f14f13", "n6m6" };
    int order[] = { KM_WHITE, KM_RED, KM_BLACK, KM_BLUE };
    for (int i = 0; i < 4; i++) {
        assert_int_equal(p.stm, order[i]);
        assert_int_equal(p.round, 1);
        play(&p, seq[i]);
    }
    assert_int_equal(p.stm, KM_WHITE);
    assert_int_equal(p.round, 2);
}

static void test_K3_teams_by_game_type(void **state)
{
    (void)state;
    const game_ops *ops = km_variant.ops;
    km_pos p;
    km_start(&p, KM_NEIGHBORS, KM_GAINED);
    assert_int_equal(ops->team_of(&p, KM_WHITE), ops->team_of(&p, KM_BLUE));
    assert_int_equal(ops->team_of(&p, KM_RED), ops->team_of(&p, KM_BLACK));
    assert_int_not_equal(ops->team_of(&p, KM_WHITE), ops->team_of(&p, KM_RED));
    km_start(&p, KM_CROSSROAD, KM_GAINED);
    assert_int_equal(ops->team_of(&p, KM_WHITE), ops->team_of(&p, KM_BLACK));
    assert_int_equal(ops->team_of(&p, KM_RED), ops->team_of(&p, KM_BLUE));
    assert_int_not_equal(ops->team_of(&p, KM_WHITE), ops->team_of(&p, KM_BLUE));
    km_start(&p, KM_ANARCHY, KM_GAINED);
    for (int a = 0; a < KM_NK; a++)
        for (int b = 0; b < KM_NK; b++)
            assert_int_equal(ops->team_of(&p, a) == ops->team_of(&p, b), a == b);
    assert_int_equal(km_variant.nsides, 4);
    static const char *const names[] = { "white", "red", "black", "blue" };
    for (int k = 0; k < KM_NK; k++)
        assert_string_equal(ops->side_name(&p, k), names[k]);
}

static void test_K3_allies_are_never_captured(void **state)
{
    (void)state;
    /* White Rook on h8 with a Blue Knight on k8 and a Black Knight on h11. */
    const char *pcs = KINGS "wR@h8 uN@k8 bN@h11";
    km_pos p = build(pcs, "w neighbors gained - -,-,-,- - 1 200");
    assert_false(legal(&p, "h8k8"));
    assert_true(legal(&p, "h8j8"));
    assert_true(legal(&p, "h8h11"));
    p = build(pcs, "w crossroad gained - -,-,-,- - 1 200");
    assert_true(legal(&p, "h8k8"));
    assert_false(legal(&p, "h8h11"));
    p = build(pcs, "w " ANARCHY);
    assert_true(legal(&p, "h8k8"));
    assert_true(legal(&p, "h8h11"));
}

static void test_K3_out_kingdoms_pieces_are_not_captured(void **state)
{
    (void)state;
    /* Frozen: White is out, its Rook stays; Red's Queen cannot take it. */
    km_pos p = build("rK@b9 bK@i16 uK@p9 wR@h8 rQ@e8", "r anarchy frozen - -,wK,-,- w 1 200");
    assert_false(legal(&p, "e8h8"));
    assert_true(legal(&p, "e8g8"));
}

/* --- K4 Movement ----------------------------------------------------------- */

static void test_K4_pawn_opening_moves(void **state)
{
    (void)state;
    km_pos p = build(KINGS "wP@g4", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "g4"), "g4g5 g4g6");
    /* Two squares need both empty; captures go diagonally forward onto the
     * Battlefield; never sideways or back in the Moat. */
    p = build(KINGS "wP@g4 rN@g6 rN@f5 bN@h5", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "g4"), "g4f5 g4g5 g4h5");
    p = build(KINGS "wP@g4 rN@g5", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "g4"), "");
    /* No capture into the Keep or along the Moat from the Moat. */
    p = build(KINGS "wP@g4 rN@h4 rN@g3", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "g4"), "g4g5 g4g6");
}

static void test_K4_pawn_on_battlefield(void **state)
{
    (void)state;
    km_pos p = build(KINGS "wP@h8", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "h8"), "h8g8 h8h7 h8h9 h8i8");
    p = build(KINGS "wP@h8 rN@g9 bN@i7 wN@i9 uN@g7 rN@h9", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "h8"), "h8g7 h8g8 h8g9 h8h7 h8i7 h8i8");
}

static void test_K4_pawn_never_enters_own_or_ally_moat(void **state)
{
    (void)state;
    km_pos p = build(KINGS "wP@h5 rN@g4", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "h5"), "h5g5 h5h6 h5i5");
    p = build(KINGS "wP@m8 uN@n9", "w neighbors gained - -,-,-,- - 1 200");
    assert_string_equal(moves_from(&p, "m8"), "m8l8 m8m7 m8m9");
    p = build(KINGS "wP@m8 uN@n9", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "m8"), "m8l8 m8m7 m8m9 m8n8 m8n9");
}

static void test_K4_pawn_on_enemy_moat_only_enters_keep(void **state)
{
    (void)state;
    km_pos p = build("wK@i2 rK@a9 bK@i16 uK@p9 wP@d9 rN@c10", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "d9"), "d9c10 d9c9=a:c10");
    p = build("wK@i2 rK@a9 bK@i16 uK@p9 wP@d9 rN@c9 rN@c8", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "d9"), "d9c8=a:c9");
}

static void test_K4_castle_pawn_in_own_and_ally_territory(void **state)
{
    (void)state;
    km_pos p = build("wK@h2 rK@b9 bK@i16 uK@p9 wC@i1", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "i1"), "i1i2");
    /* In its own Moat: along it, back into the Keep, and the openings. */
    p = build(KINGS "wC@i4", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "i4"), "i4h4 i4i3 i4i5 i4i6 i4j4");
    /* Stepping back from the Battlefield. */
    p = build(KINGS "wC@i5", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "i5"), "i5h5 i5i4 i5i6 i5j5");
    /* An ally's Moat and Keep. */
    p = build(KINGS "wC@n8", "w neighbors gained - -,-,-,- - 1 200");
    assert_string_equal(moves_from(&p, "n8"), "n8m8 n8n7 n8n9 n8o8");
    p = build(KINGS "wC@m8", "w neighbors gained - -,-,-,- - 1 200");
    assert_string_equal(moves_from(&p, "m8"), "m8l8 m8m7 m8m9 m8n8");
}

static void test_K4_castle_pawn_is_a_pawn_in_enemy_moat(void **state)
{
    (void)state;
    km_pos p = build("wK@i2 rK@a9 bK@i16 uK@p9 wC@d9", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "d9"), "d9c9");
    p = build(KINGS "wC@n8", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "n8"), "n8o8");
}

static void test_K4_slider_stops_on_enemy_moat(void **state)
{
    (void)state;
    km_pos p = build(KINGS "wR@h8", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "h8"),
                        "h8d8 h8e8 h8f8 h8g8 h8h10 h8h11 h8h12 h8h13 h8h14 h8h2 h8h3 h8h4 "
                        "h8h5 h8h6 h8h7 h8h9 h8i8 h8j8 h8k8 h8l8 h8m8 h8n8");
    /* A Bishop on the Battlefield stops on the Moat square it reaches. */
    p = build(KINGS "wB@f9", "w " ANARCHY);
    assert_true(legal(&p, "f9d11"));
    assert_false(legal(&p, "f9c12"));
    assert_true(legal(&p, "f9d7"));
}

static void test_K4_slider_slides_along_the_moat_it_started_on(void **state)
{
    (void)state;
    km_pos p = build(KINGS "wR@d8", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "d8"),
                        "d8b8 d8c8 d8d10 d8d11 d8d12 d8d6 d8d7 d8d9 d8e8 d8f8 d8g8 d8h8 d8i8 "
                        "d8j8 d8k8 d8l8 d8m8 d8n8");
    /* North-east it ends on Black's Moat; south-east White's own Moat and
     * Keep do not stop it. */
    p = build(KINGS "wB@d8", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "d8"),
                        "d8b10 d8c7 d8c9 d8e7 d8e9 d8f10 d8f6 d8g11 d8g5 d8h12 d8h4 d8i13 "
                        "d8i3 d8j14 d8j2");
}

static void test_K4_slider_enters_enemy_keep_only_from_its_moat(void **state)
{
    (void)state;
    /* From the Battlefield: never into the Keep behind the Moat. */
    km_pos p = build("wK@i2 rK@a9 bK@i16 uK@p9 wQ@e9", "w " ANARCHY);
    assert_true(legal(&p, "e9d9"));
    assert_true(legal(&p, "e9d10"));
    assert_false(legal(&p, "e9c9"));
    assert_false(legal(&p, "e9c11"));
    /* From inside the Keep: within it, and out onto its Moat (where the
     * slide ends). */
    p = build("wK@i2 rK@a9 bK@i16 uK@p9 wR@c9", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "c9"), "c9a9 c9b9 c9c10 c9c11 c9c7 c9c8 c9d9");
    /* A Knight's jump into a Keep is no slide: allowed. */
    p = build(KINGS "wN@e8", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "e8"), "e8c7 e8c9 e8d10 e8d6 e8f10 e8f6 e8g7 e8g9");
}

static void test_K4_sliders_free_in_own_and_ally_territory(void **state)
{
    (void)state;
    km_pos p = build(KINGS "wR@m8", "w neighbors gained - -,-,-,- - 1 200");
    assert_true(legal(&p, "m8n8"));
    assert_true(legal(&p, "m8o8"));
    assert_true(legal(&p, "m8p8"));
    p = build("wK@i2 rK@b9 bK@i16 uK@q9 wR@m8", "w " ANARCHY);
    assert_true(legal(&p, "m8n8"));
    assert_false(legal(&p, "m8o8"));
    /* Own Moat and Keep. */
    p = build("wK@i1 rK@b9 bK@i16 uK@p9 wR@h8", "w " ANARCHY);
    assert_true(legal(&p, "h8h2"));
    p = build("wK@i1 rK@b9 bK@i16 uK@p9 wQ@h4", "w " ANARCHY);
    assert_true(legal(&p, "h4f4"));
    assert_true(legal(&p, "h4l4"));
    assert_true(legal(&p, "h4i3"));
    assert_true(legal(&p, "h4h14"));
    assert_false(legal(&p, "h4h15"));
}

static void test_K4_knights_and_kings_ignore_moats(void **state)
{
    (void)state;
    km_pos p = build("wK@d9 rK@a9 bK@i16 uK@p9", "w " ANARCHY);
    assert_string_equal(moves_from(&p, "d9"), "d9c10 d9c8 d9c9 d9d10 d9d8 d9e10 d9e8 d9e9");
    p = build("wK@i2 rK@a9 bK@i16 uK@p9 wN@e10", "w " ANARCHY);
    assert_true(legal(&p, "e10c11"));
    assert_true(legal(&p, "e10c9"));
}

static void test_K4_castling(void **state)
{
    (void)state;
    km_pos p;
    km_start(&p, KM_ANARCHY, KM_GAINED);
    assert_string_equal(moves_from(&p, "i2"), "i2i1");
    play(&p, "i2i1");
    assert_int_equal(at(&p, "i1"), piece("wK"));
    assert_int_equal(at(&p, "i2"), piece("wC"));
    assert_int_equal(p.castle, 0xe);
    assert_true(strstr(fen(&p), " rbu -,-,-,- ") != NULL);
    /* Allowed with the King attacked (there is no check). */
    p = build("wK@i2 wC@i1 rK@b9 bK@i16 uK@p9 rR@i8", "w anarchy gained w -,-,-,- - 1 200");
    assert_true(legal(&p, "i2i1"));
    /* A King move ends the right for ever. */
    play(&p, "i2h3");
    assert_int_equal(p.castle & 1, 0);
    /* A capture onto the Castle Pawn square ends it too. */
    p = build("wK@i2 wC@i1 rK@b9 bK@i16 uK@p9 rN@h3", "r anarchy gained w -,-,-,- - 1 200");
    play(&p, "h3i1");
    assert_int_equal(p.castle & 1, 0);
    /* Without the right, no castling. */
    p = build("wK@i2 wC@i1 rK@b9 bK@i16 uK@p9", "w " ANARCHY);
    assert_false(legal(&p, "i2i1"));
    /* Each kingdom castles the same way. */
    km_start(&p, KM_ANARCHY, KM_GAINED);
    play(&p, "f4f5");
    assert_true(legal(&p, "b9a9"));
    play(&p, "b9a9");
    assert_true(legal(&p, "i16i17"));
    play(&p, "i16i17");
    assert_true(legal(&p, "p9q9"));
    play(&p, "p9q9");
    assert_int_equal(p.castle, 1);
}

/* --- K5 Pawn in an enemy Keep ---------------------------------------------- */

/* Black Pawn on White's Moat; White holds a Black Rook and a Red Queen. */
#define K5_PIECES "wK@i2 wC@i1 rK@b9 bK@i16 uK@p9 bP@h4 wR@k3 wN@j2 wB@h2 "

static void test_K5_choices_release_and_assassinate(void **state)
{
    (void)state;
    km_pos p = build(K5_PIECES, "b anarchy gained - bRrQ,-,-,- - 1 200");
    /* Release only Black's own piece (Red is no ally); assassinate the
     * majors (not the King, not the Castle Pawn). */
    assert_string_equal(moves_from(&p, "h4"), "h4h3=a:h2 h4h3=a:j2 h4h3=a:k3 h4h3=r:bR");
}

static void test_K5_release_puts_prisoner_on_the_pawns_square(void **state)
{
    (void)state;
    km_pos p = build(K5_PIECES, "b anarchy gained - bRrQ,-,-,- - 1 200");
    play(&p, "h4h3=r:bR");
    assert_int_equal(at(&p, "h3"), piece("bR"));
    assert_int_equal(at(&p, "h4"), 0);
    assert_int_equal(p.pris[KM_WHITE][KM_BLACK][KM_ROOK], 0);
    assert_int_equal(p.pris[KM_WHITE][KM_RED][KM_QUEEN], 1);
    /* The Pawn is nobody's prisoner. */
    for (int h = 0; h < KM_NK; h++)
        assert_int_equal(p.pris[h][KM_BLACK][KM_PAWN], 0);
}

static void test_K5_assassination_makes_a_prisoner(void **state)
{
    (void)state;
    km_pos p = build(K5_PIECES, "b anarchy gained - bRrQ,-,-,- - 1 200");
    play(&p, "h4h3=a:k3");
    assert_int_equal(at(&p, "k3"), 0);
    assert_int_equal(at(&p, "h3"), 0);
    assert_int_equal(p.pris[KM_BLACK][KM_WHITE][KM_ROOK], 1);
    assert_true(strstr(fen(&p), " bRrQ,-,wR,- ") != NULL);
}

static void test_K5_the_choice_is_required(void **state)
{
    (void)state;
    km_pos p = build(K5_PIECES, "b anarchy gained - bRrQ,-,-,- - 1 200");
    game_move m;
    game_error err = { "" };
    assert_int_equal(km_parse_move(&p, "h4h3", &m, &err), -1);
    assert_non_null(strstr(err.msg, "must choose"));
    assert_int_equal(km_parse_move(&p, "h4h3=r:rQ", &m, &err), -1);
    assert_int_equal(km_parse_move(&p, "h4h3=a:i2", &m, &err), -1);
    assert_int_equal(km_parse_move(&p, "h4h3=a:i1", &m, &err), -1);
}

static void test_K5_without_a_choice_the_pawn_just_leaves(void **state)
{
    (void)state;
    km_pos p = build("wK@i2 rK@b9 bK@i16 uK@p9 bP@h4", "b " ANARCHY);
    assert_string_equal(moves_from(&p, "h4"), "h4h3");
    play(&p, "h4h3");
    assert_int_equal(at(&p, "h3"), 0);
    assert_int_equal(at(&p, "h4"), 0);
}

static void test_K5_release_only_for_mover_or_ally_still_in(void **state)
{
    (void)state;
    /* Neighbors: Black and Red are allies. White holds a Red Rook and a
     * Black Pawn (never released). */
    km_pos p = build("wK@i2 rK@b9 bK@i16 uK@p9 bP@h4", "b neighbors gained - bPrR,-,-,- - 1 200");
    assert_string_equal(moves_from(&p, "h4"), "h4h3=r:rR");
    /* With Red out, its pieces held by others are never released. */
    p = build("wK@i2 bK@i16 uK@p9 bP@h4", "b neighbors gained - bPrR,-,-,rK r 1 200");
    assert_string_equal(moves_from(&p, "h4"), "h4h3");
    /* In Anarchy, Red is nobody's ally. */
    p = build("wK@i2 rK@b9 bK@i16 uK@p9 bP@h4", "b anarchy gained - bPrR,-,-,- - 1 200");
    assert_string_equal(moves_from(&p, "h4"), "h4h3");
}

static void test_K5_capture_happens_first(void **state)
{
    (void)state;
    /* The Pawn takes the Rook on g3, then may still assassinate the Knight;
     * the Rook is the mover's prisoner either way. */
    km_pos p = build("wK@i2 rK@b9 bK@i16 uK@p9 bP@h4 wR@g3 wN@j2", "b " ANARCHY);
    assert_string_equal(moves_from(&p, "h4"), "h4g3=a:j2 h4h3=a:g3 h4h3=a:j2");
    play(&p, "h4g3=a:j2");
    assert_int_equal(p.pris[KM_BLACK][KM_WHITE][KM_ROOK], 1);
    assert_int_equal(p.pris[KM_BLACK][KM_WHITE][KM_KNIGHT], 1);
    assert_int_equal(at(&p, "g3"), 0);
    assert_int_equal(at(&p, "j2"), 0);
    /* Taking the King in its Keep puts White out first: its pieces are
     * Black's (Gained) and nobody is left to assassinate. */
    p = build("wK@g3 rK@b9 bK@i16 uK@p9 bP@h4 wN@j2", "b " ANARCHY);
    assert_string_equal(moves_from(&p, "h4"), "h4g3 h4h3=a:j2");
    play(&p, "h4g3");
    assert_int_equal(p.out, 1);
    assert_int_equal(at(&p, "j2"), piece("bN"));
    assert_int_equal(at(&p, "g3"), 0);
}

static void test_K5_castle_pawn_in_enemy_keep(void **state)
{
    (void)state;
    km_pos p = build("wK@i2 rK@b9 bK@i16 uK@p9 bC@h4 wB@h2", "b " ANARCHY);
    assert_string_equal(moves_from(&p, "h4"), "h4h3=a:h2");
    play(&p, "h4h3=a:h2");
    assert_int_equal(at(&p, "h3"), 0);
    assert_int_equal(p.pris[KM_BLACK][KM_WHITE][KM_BISHOP], 1);
}

static void test_K5_assassination_on_the_castle_pawn_square(void **state)
{
    (void)state;
    /* Any major piece in the Keep, wherever it stands in it. */
    km_pos p = build("wK@h2 rK@b9 bK@i16 uK@p9 bP@h4 wB@i1", "b " ANARCHY);
    assert_string_equal(moves_from(&p, "h4"), "h4h3=a:i1");
    play(&p, "h4h3=a:i1");
    assert_int_equal(at(&p, "i1"), 0);
}

/* --- K6 Kings and the end ---------------------------------------------------- */

static void test_K6_no_check_king_is_captured(void **state)
{
    (void)state;
    km_pos p = build("wK@h8 rK@b9 bK@i16 uK@p9 rR@h12 wN@i5", "w " ANARCHY);
    /* Moves that leave the King attacked are legal. */
    assert_true(legal(&p, "i5j7"));
    assert_true(legal(&p, "h8h9"));
    play(&p, "i5j7");
    assert_true(legal(&p, "h12h8"));
    play(&p, "h12h8");
    assert_int_equal(p.out, 1);
    assert_int_equal(p.pris[KM_RED][KM_WHITE][KM_KING], 1);
}

static void test_K6_captured_king_gained(void **state)
{
    (void)state;
    km_pos p = build("wK@h8 rK@b9 bK@i16 uK@p9 rR@h12 wN@j7 wR@k3 wP@g4 wC@i1",
                     "r anarchy gained - -,-,-,- - 1 200");
    play(&p, "h12h8");
    assert_int_equal(at(&p, "j7"), piece("rN"));
    assert_int_equal(at(&p, "k3"), piece("rR"));
    assert_int_equal(at(&p, "g4"), piece("rP"));
    assert_int_equal(at(&p, "i1"), piece("rC"));
    assert_int_equal(p.stm, KM_BLACK);
    /* Red moves them from now on: the Pawn on White's Moat (an enemy Moat)
     * may only go into White's Keep. */
    play(&p, "i16i15");
    play(&p, "p9p10");
    assert_int_equal(p.stm, KM_RED);
    assert_int_equal(p.round, 2);
    assert_true(legal(&p, "j7i9"));
    assert_string_equal(moves_from(&p, "g4"), "g4g3");
}

static void test_K6_captured_king_lost(void **state)
{
    (void)state;
    km_pos p = build("wK@h8 rK@b9 bK@i16 uK@p9 rR@h12 wN@j7 wR@k3",
                     "r anarchy lost - -,-,-,- - 1 200");
    play(&p, "h12h8");
    assert_int_equal(at(&p, "j7"), 0);
    assert_int_equal(at(&p, "k3"), 0);
    assert_true(strstr(fen(&p), " w 1 200") != NULL);
}

static void test_K6_captured_king_frozen(void **state)
{
    (void)state;
    km_pos p = build("wK@h8 rK@b9 bK@i16 uK@p9 rR@h12 wN@j7 wR@k9 bP@h14",
                     "r anarchy frozen - -,-,-,- - 1 200");
    play(&p, "h12h8");
    assert_int_equal(at(&p, "j7"), piece("wN"));
    assert_int_equal(at(&p, "k9"), piece("wR"));
    /* Frozen pieces block and cannot be captured. */
    play(&p, "i16j16");
    play(&p, "p9p10");
    assert_int_equal(p.stm, KM_RED);
    p = build("rK@b9 bK@i16 uK@p9 rR@h9 wN@j9 wR@h11", "r anarchy frozen - -,wK,-,- w 1 200");
    assert_false(legal(&p, "h9j9"));
    assert_true(legal(&p, "h9i9"));
    assert_false(legal(&p, "h9h11"));
    assert_true(legal(&p, "h9h10"));
    /* Nor assassinated. */
    p = build("rK@b9 bK@i16 uK@p9 bP@h4 wR@k3", "b anarchy frozen - -,wK,-,- w 1 200");
    assert_string_equal(moves_from(&p, "h4"), "h4h3");
}

static void test_K6_kingdoms_out_are_skipped(void **state)
{
    (void)state;
    km_pos p = build("rK@b9 uK@p9 bK@i16", "u anarchy gained - -,-,-,- w 1 200");
    play(&p, "p9p10");
    assert_int_equal(p.stm, KM_RED);
    assert_int_equal(p.round, 2);
    play(&p, "b9b10");
    assert_int_equal(p.stm, KM_BLACK);
}

static void test_K6_pass_when_no_legal_move(void **state)
{
    (void)state;
    /* Blue's King on q9 is walled in by frozen White Rooks. */
    km_pos p = build("rK@b9 bK@i16 uK@q9 wR@p8 wR@p9 wR@p10", "u anarchy frozen - -,-,-,- w 1 200");
    assert_string_equal(moves_from(&p, ""), "pass");
    play(&p, "pass");
    assert_int_equal(p.stm, KM_RED);
    assert_int_equal(p.round, 2);
    /* Pass is refused while there are moves. */
    assert_false(legal(&p, "pass"));
}

static void test_K6_game_ends_when_one_side_is_left(void **state)
{
    (void)state;
    km_pos p = build("wK@h8 rK@b9 rR@h12", "r anarchy gained - -,-,-,- bu 5 200");
    assert_string_equal(result(&p), "ongoing");
    play(&p, "h12h8");
    assert_string_equal(result(&p), "red kings");
    game_result r = km_result(&p);
    assert_int_equal(r.over, 1);
    assert_int_equal(r.winner, KM_RED);
    game_move list[KM_MAX_MOVES];
    assert_int_equal(km_legal(&p, list), 0);
    /* Alliances win together, even with one ally out. */
    p = build("rK@b9 bK@i16", "r neighbors gained - -,-,-,- wu 5 200");
    assert_string_equal(result(&p), "red+black kings");
    p = build("wK@i2 rK@b9 bK@i16", "w neighbors gained - -,-,-,- u 5 200");
    assert_string_equal(result(&p), "ongoing");
    p = build("wK@i2 bK@i16", "w crossroad gained - -,-,-,- ru 5 200");
    assert_string_equal(result(&p), "white+black kings");
    p = build("wK@i2 uK@p9", "w neighbors gained - -,-,-,- rb 5 200");
    assert_string_equal(result(&p), "white+blue kings");
}

static void test_K6_move_limit_is_a_draw(void **state)
{
    (void)state;
    km_pos p = build(KINGS, "u anarchy gained - -,-,-,- - 3 3");
    assert_string_equal(result(&p), "ongoing");
    play(&p, "p9p10");
    assert_int_equal(p.round, 4);
    assert_string_equal(result(&p), "draw move-limit");
    game_result r = km_result(&p);
    assert_int_equal(r.winner, -1);
    game_move list[KM_MAX_MOVES];
    assert_int_equal(km_legal(&p, list), 0);
    /* A last move that also ends the game by Kings: the Kings decide. */
    p = build("wK@h8 rK@b9 rR@h12", "r anarchy gained - -,-,-,- bu 3 3");
    play(&p, "h12h8");
    assert_string_equal(result(&p), "red kings");
    /* 0 means no limit. */
    p = build(KINGS, "u anarchy gained - -,-,-,- - 999 0");
    play(&p, "p9p10");
    assert_string_equal(result(&p), "ongoing");
}

static void test_K6_prisoners_of_an_out_kingdom_stay(void **state)
{
    (void)state;
    /* White is out but still holds a Black Rook: Black may release it
     * through White's Keep. */
    km_pos p = build("rK@b9 bK@i16 uK@p9 bP@h4", "b anarchy gained - bR,-,-,- w 1 200");
    assert_string_equal(moves_from(&p, "h4"), "h4h3=r:bR");
    /* Capturing a King keeps the prisoners where they were. */
    p = build("wK@h8 rK@b9 bK@i16 uK@p9 rR@h12", "r anarchy gained - bR,-,-,- - 1 200");
    play(&p, "h12h8");
    assert_int_equal(p.pris[KM_WHITE][KM_BLACK][KM_ROOK], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_K1_board_has_145_squares),
        cmocka_unit_test(test_K1_zones_and_realms),
        cmocka_unit_test(test_K1_square_names_round_trip),
        cmocka_unit_test(test_K1_nothing_enters_or_crosses_holes),
        cmocka_unit_test(test_K1_forward_of_each_kingdom),
        cmocka_unit_test(test_K2_start_position),
        cmocka_unit_test(test_K3_turn_order_and_rounds),
        cmocka_unit_test(test_K3_teams_by_game_type),
        cmocka_unit_test(test_K3_allies_are_never_captured),
        cmocka_unit_test(test_K3_out_kingdoms_pieces_are_not_captured),
        cmocka_unit_test(test_K4_pawn_opening_moves),
        cmocka_unit_test(test_K4_pawn_on_battlefield),
        cmocka_unit_test(test_K4_pawn_never_enters_own_or_ally_moat),
        cmocka_unit_test(test_K4_pawn_on_enemy_moat_only_enters_keep),
        cmocka_unit_test(test_K4_castle_pawn_in_own_and_ally_territory),
        cmocka_unit_test(test_K4_castle_pawn_is_a_pawn_in_enemy_moat),
        cmocka_unit_test(test_K4_slider_stops_on_enemy_moat),
        cmocka_unit_test(test_K4_slider_slides_along_the_moat_it_started_on),
        cmocka_unit_test(test_K4_slider_enters_enemy_keep_only_from_its_moat),
        cmocka_unit_test(test_K4_sliders_free_in_own_and_ally_territory),
        cmocka_unit_test(test_K4_knights_and_kings_ignore_moats),
        cmocka_unit_test(test_K4_castling),
        cmocka_unit_test(test_K5_choices_release_and_assassinate),
        cmocka_unit_test(test_K5_release_puts_prisoner_on_the_pawns_square),
        cmocka_unit_test(test_K5_assassination_makes_a_prisoner),
        cmocka_unit_test(test_K5_the_choice_is_required),
        cmocka_unit_test(test_K5_without_a_choice_the_pawn_just_leaves),
        cmocka_unit_test(test_K5_release_only_for_mover_or_ally_still_in),
        cmocka_unit_test(test_K5_capture_happens_first),
        cmocka_unit_test(test_K5_castle_pawn_in_enemy_keep),
        cmocka_unit_test(test_K5_assassination_on_the_castle_pawn_square),
        cmocka_unit_test(test_K6_no_check_king_is_captured),
        cmocka_unit_test(test_K6_captured_king_gained),
        cmocka_unit_test(test_K6_captured_king_lost),
        cmocka_unit_test(test_K6_captured_king_frozen),
        cmocka_unit_test(test_K6_kingdoms_out_are_skipped),
        cmocka_unit_test(test_K6_pass_when_no_legal_move),
        cmocka_unit_test(test_K6_game_ends_when_one_side_is_left),
        cmocka_unit_test(test_K6_move_limit_is_a_draw),
        cmocka_unit_test(test_K6_prisoners_of_an_out_kingdom_stay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
