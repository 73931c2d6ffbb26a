/* markdown.h -- what players write on the board, in Markdown, made into
 * HTML that is safe to put in another player's page (cmark).
 *
 * The invariant: nothing in the output runs code or loads anything. Raw
 * HTML in the source is shown as the text it is (never passed through);
 * links keep only http:, https:, mailto: and the site's own paths, each
 * marked rel="nofollow ugc"; images become links to the image (no remote
 * loads); every attribute and text is escaped. Besides CommonMark, a
 * game named in the text ("game 42", "game #42", or a URL whose path is
 * /game/42 or /review/42) becomes a link to its review labelled with its
 * players and result, and "@name" of a player who exists a link to their
 * page. Neither happens inside code or inside a link.
 */
#ifndef CITADEL_MARKDOWN_H
#define CITADEL_MARKDOWN_H

#include <stddef.h>
#include <stdint.h>

#define MD_NAME_MAX 32
#define MD_MAX_GAMES 20     /* game links per post; later mentions stay text */
#define MD_MAX_MENTIONS 20

typedef struct md_hooks {
    void *ctx;
    /* A game named in the text: 0 and its label ("alice vs bob, 1-0",
     * plain text) into label; -1 if there is no such game (the text stays
     * as written). May be NULL. */
    int (*game)(void *ctx, int64_t id, char *label, size_t size);
    /* "@name": 0 and the name as the player spells it into canon if such a
     * player exists, -1 if not. May be NULL. */
    int (*player)(void *ctx, const char *name, char *canon, size_t size);
} md_hooks;

/* The HTML of src (len bytes of UTF-8), malloc'd; NULL if out of memory. */
char *md_render(const char *src, size_t len, const md_hooks *hooks);

/* The players src mentions (hooks->player said they exist), each once, in
 * the order met, at most max; returns how many. Mentions in code or links
 * do not count. */
int md_mentions(const char *src, size_t len, const md_hooks *hooks,
                char names[][MD_NAME_MAX + 1], int max);

/* A plain-text excerpt of src (Markdown stripped), at most size-1 bytes,
 * cut at a character boundary with "…" when cut. */
void md_excerpt(const char *src, size_t len, char *out, size_t size);

#endif
