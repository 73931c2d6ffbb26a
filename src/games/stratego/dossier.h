/* dossier.h -- what each enemy piece of unknown rank has done, as one
 * side's bot has seen it.
 *
 * The record of a piece is kept by the cell it stands on: when the piece
 * moves, its record moves with it; when it is revealed or gone, its record
 * is dropped. The bot reads each view of its side once (st_dossier_watch),
 * and each view tells the enemy's last move (S6's record of it): a piece
 * that moved twice between two views the bot read carries only the last
 * of those moves. Nothing in a record is more than the view showed.
 */
#ifndef CITADEL_STRATEGO_DOSSIER_H
#define CITADEL_STRATEGO_DOSSIER_H

#include <stdint.h>

#include "stratego.h"

/* One piece's record. Ranks are those of our movers the enemy could see
 * (revealed), 0 for none. */
typedef struct st_deeds {
    uint8_t coming;      /* moves that brought it nearer our Flag, ending
                          * within ST_COMING_NEAR steps of it */
    uint8_t bold;        /* the strongest of our shown movers it ended a
                          * move next to */
    uint8_t fear;        /* the weakest of our shown movers, ST_FEAR_FROM or
                          * stronger, that our last move brought next to it
                          * and that it stepped away from */
    uint8_t moves;       /* its moves, at most 255 */
    uint8_t came;        /* the strongest of our shown movers its last move
                          * brought it next to from none */
    uint8_t approaches;  /* its moves that did so */
    uint8_t flights;     /* its moves from next to a shown mover of ours to
                          * next to none */
    uint8_t stood;       /* the strongest of our shown movers that our move
                          * brought next to it and that it did not step away
                          * from on its side's next turn */
    uint8_t home;        /* the cell it stood on when first watched, 0 if
                          * not known */
    int16_t first, last; /* the plies of the views after its first and last
                          * moves seen, -1 if none */
} st_deeds;

#define ST_COMING_NEAR 6
#define ST_FEAR_FROM ST_LIEUTENANT

typedef struct st_dossier {
    st_deeds of[ST_CELLS];
    int32_t watched;  /* the ply of the view last read, plus one; 0: none */
} st_dossier;

void st_dossier_clear(st_dossier *d);
/* The rank of a mover of the side to move standing revealed on c, else 0. */
int st_shown_mover(const st_pos *view, int c);
/* Reads a view of its side to move: follows the enemy's last move and
 * our last one. A view already read changes nothing. */
void st_dossier_watch(st_dossier *d, const st_pos *view);

/* The numbers a learned belief reads of the enemy piece on cell (one of
 * unknown rank that moved), each of about unit size. */
#define ST_DEED_INPUTS 24
void st_dossier_inputs(const st_dossier *d, const st_pos *view, int cell, float in[ST_DEED_INPUTS]);

#endif
