/* boards.c -- POST /api/read: the games' own reading of position strings,
 * for a page that has not yet loaded its copy of the engines (a phone on a
 * slow line draws the board from this while engine.wasm arrives): for each
 * string, every square and what stands on it, and the side to move; with
 * them, the facts of the family's board that the page's notation files
 * take from their engine (its squares, kinds of piece, areas and start).
 *
 * Invariant: the answer is what the page's engine (src/wasm/engine.c,
 * eng_squares, eng_kinds, eng_areas, eng_side_to_move) says of the same
 * strings: the same game ops, called in the same order, each family's
 * variants tried in the same order. It writes nothing; each request counts
 * once against the per-address positions quota, as POST /api/position
 * (api.c takes it before calling here).
 */
#include <stdio.h>
#include <string.h>

#include "../core/http.h"
#include "boards.h"

#define READ_POSITIONS_MAX 16
#define READ_TEXT_MAX 1024

static json_t *squares_json(const game_variant *v, const void *pos)
{
    static game_piece_at at[512];
    json_t *a = json_array();
    int n = v->ops->squares ? v->ops->squares(pos, at, 512) : 0;
    for (int k = 0; k < n; k++)
        json_array_append_new(a, json_pack("[s, s]", at[k].square, at[k].piece));
    return a;
}

/* The facts of a family's board: those of its first variant, from its start. */
static json_t *facts_json(const game_variant *v)
{
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    v->ops->start(v, pos, 0);
    game_piece_kind kinds[64];
    int nk = v->ops->kinds ? v->ops->kinds(kinds, 64) : 0;
    json_t *jk = json_array();
    for (int k = 0; k < nk; k++) {
        char letter[2] = { kinds[k].letter, 0 };
        json_array_append_new(jk, json_pack("{s:s, s:s, s:i, s:i}", "letter", letter, "name",
                                            kinds[k].name, "rank", kinds[k].rank, "count",
                                            kinds[k].count));
    }
    static game_area_at at[1024];
    int na = v->ops->areas ? v->ops->areas(pos, at, 1024) : 0;
    json_t *ja = json_array(), *group = NULL;
    for (int k = 0; k < na; k++) {
        if (k == 0 || strcmp(at[k].area, at[k - 1].area) != 0 || at[k].side != at[k - 1].side) {
            group = json_array();
            json_array_append_new(ja, json_pack("{s:s, s:i, s:o}", "area", at[k].area, "side",
                                                at[k].side, "squares", group));
        }
        json_array_append_new(group, json_string(at[k].square));
    }
    char text[2048];
    v->ops->format(pos, text, sizeof text);
    return json_pack("{s:s, s:o, s:o, s:o, s:s, s:i}", "variant", v->name, "squares",
                     squares_json(v, pos), "kinds", jk, "areas", ja, "start", text, "to_move",
                     v->ops->side_to_move(pos));
}

/* One string read as the first variant of the family that takes it. */
static json_t *reading_json(const char *family, const char *text)
{
    _Alignas(16) unsigned char pos[GAME_POS_MAX];
    char first[200] = "";
    for (const game_variant *const *v = game_variants(); *v; v++) {
        if (strcmp((*v)->family, family) != 0)
            continue;
        game_error e;
        if ((*v)->ops->parse(*v, pos, text, &e) != 0) {
            if (!first[0])
                snprintf(first, sizeof first, "%s", e.msg);
            continue;
        }
        return json_pack("{s:s, s:o, s:i}", "variant", (*v)->name, "squares",
                         squares_json(*v, pos), "to_move", (*v)->ops->side_to_move(pos));
    }
    return json_pack("{s:s}", "error", first);
}

void boards_read_http(net_http *h, const net_request *req)
{
    json_t *body = req_body_strict(req, h);
    if (!body)
        return;
    const char *family = json_string_value(json_object_get(body, "family"));
    json_t *texts = json_object_get(body, "positions");
    const game_variant *first = NULL;
    for (const game_variant *const *v = game_variants(); family && *v && !first; v++)
        if (strcmp((*v)->family, family) == 0 && (*v)->ops->squares)
            first = *v;
    int ok = first && (!texts || (json_is_array(texts) && json_array_size(texts) <= READ_POSITIONS_MAX));
    json_t *t;
    size_t i;
    json_array_foreach(texts, i, t)
        if (!json_is_string(t) || json_string_length(t) > READ_TEXT_MAX)
            ok = 0;
    if (!ok) {
        reply_error(h, 400, first || !family
                                ? "want family (a game's family) and positions (a list of at "
                                  "most 16 position strings, optional)"
                                : "no such family of games");
        json_decref(body);
        return;
    }
    json_t *variants = json_array(), *readings = json_array();
    for (const game_variant *const *v = game_variants(); *v; v++)
        if (strcmp((*v)->family, family) == 0)
            json_array_append_new(variants, json_string((*v)->name));
    json_array_foreach(texts, i, t)
        json_array_append_new(readings, reading_json(family, json_string_value(t)));
    json_t *out = json_pack("{s:s, s:o, s:o, s:o}", "family", family, "variants", variants,
                            "board", facts_json(first), "readings", readings);
    json_decref(body);
    reply_json(h, 200, out, NULL);
}
