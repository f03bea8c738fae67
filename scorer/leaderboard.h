/*
 * leaderboard.h - the leaderboard as one self-contained HTML page.
 *
 * What a course publishes after a batch (scripts/score_batch.sh): ranks in
 * order with ties shown, labels (linked to each student's report when
 * asked), scores with approximate ones marked, predicted times, the failed
 * submissions with their status in words, the cost table and the machine
 * it was calibrated on, and a warning when the page is made on another.
 */
#ifndef PSF_LEADERBOARD_H
#define PSF_LEADERBOARD_H

#include <stddef.h>
#include <stdio.h>

#include "output.h"

/*
 * rows[i] belongs to order[i], in rank order (as for out_rank). mc is the
 * table against the machine that makes the page (here), NULL when the
 * table predicts no times: a table from another machine, or one that
 * does not say which, gets a warning above the ranks.
 */
void leaderboard_html(FILE *f, const options *o, const cost_table *t,
                      const rank_entry *order, const outcome *rows, size_t n,
                      const machine_check *mc, const machine_here *here);

#endif
