/* messages.c -- the messages of play that the server sends the page
 * (messages.h), in the shapes docs/api.schema.json gives them; the tests
 * check every one sent against that schema.
 */
#include "messages.h"

/* msg with the request's ref, if any (SetupOk, SeekCreated...). */
static json_t *with_ref(json_t *msg, json_t *ref)
{
    if (msg && ref)
        json_object_set(msg, "ref", ref);
    return msg;
}

json_t *game_message(json_t *game)
{
    return json_pack("{s:s, s:o}", "type", "game", "game", game);
}

json_t *move_message(int64_t game, int ply, const char *move, json_t *position, int to_move,
                     json_t *clocks)
{
    return json_pack("{s:s, s:I, s:i, s:s, s:o, s:i, s:o}", "type", "move", "game",
                     (json_int_t)game, "ply", ply, "move", move, "position", position, "to_move",
                     to_move, "clocks", clocks);
}

json_t *end_message(int64_t game, int winner, const char *reason, int sterile, json_t *ratings,
                    json_t *clocks)
{
    json_t *m = json_pack("{s:s, s:I, s:{s:i, s:s, s:b, s:o}}", "type", "end", "game",
                          (json_int_t)game, "result", "winner", winner, "reason", reason,
                          "sterile", sterile, "ratings", ratings ? ratings : json_array());
    if (m && clocks)
        json_object_set_new(m, "clocks", clocks);
    else
        json_decref(clocks);
    return m;
}

static json_t *sides_message(const char *type, int64_t game, json_t *sides)
{
    return json_pack("{s:s, s:I, s:o}", "type", type, "game", (json_int_t)game, "sides", sides);
}

json_t *draw_offer_message(int64_t game, json_t *sides)
{
    return sides_message("draw_offer", game, sides);
}

json_t *draw_declined_message(int64_t game, json_t *sides, json_t *declined_by)
{
    json_t *m = sides_message("draw_offer", game, sides);
    json_object_set_new(m, "declined_by", declined_by);
    return m;
}

json_t *rematch_offer_message(int64_t game, json_t *sides)
{
    return sides_message("rematch_offer", game, sides);
}

json_t *ready_message(int64_t game, json_t *sides)
{
    return sides_message("ready", game, sides);
}

json_t *setup_ok_message(int64_t game, int side, json_t *ref)
{
    return with_ref(json_pack("{s:s, s:I, s:i}", "type", "setup_ok", "game", (json_int_t)game,
                              "side", side),
                    ref);
}

json_t *seek_created_message(int64_t seek_id, json_t *ref)
{
    return with_ref(json_pack("{s:s, s:I}", "type", "seek_created", "seek", (json_int_t)seek_id),
                    ref);
}

json_t *challenge_created_message(const char *token, int64_t seek_id, json_t *ref)
{
    return with_ref(json_pack("{s:s, s:s, s:I}", "type", "challenge_created", "token", token,
                              "seek", (json_int_t)seek_id),
                    ref);
}

json_t *table_created_message(int64_t table, json_t *ref)
{
    return with_ref(json_pack("{s:s, s:I}", "type", "table_created", "table", (json_int_t)table),
                    ref);
}

json_t *lobby_message(json_t *seeks, json_t *games)
{
    return json_pack("{s:s, s:o, s:o}", "type", "lobby", "seeks", seeks, "games", games);
}
