/* tool_registry.c -- every game's command-line tools (game.h's
 * game_tools), in the order of the menu's games.
 *
 * Like registry.c for variants, the one file that names each game's
 * tools; the command line finds them here by their command. Native builds
 * only: the tools use files and threads, and the WebAssembly build leaves
 * out this file with every tool_*.c.
 *
 * Invariant: no two tools share a command, and none is a command of
 * `citadel` itself (src/cli/main.c dispatches its own first).
 */
#include <string.h>

#include "game.h"
#include "rampart/rampart.h"
#include "stratego/stratego.h"

static const game_tool *const tools[] = {
    &rp_tool_tune,
    &rp_tool_train,
    &st_tool_belief,
    &st_tool_belief_fit,
    NULL,
};

const game_tool *const *game_tools(void)
{
    return tools;
}

const game_tool *game_tool_find(const char *command)
{
    for (int i = 0; tools[i]; i++)
        if (strcmp(tools[i]->command, command) == 0)
            return tools[i];
    return NULL;
}
