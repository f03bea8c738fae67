/*
 * leaderboard.h - the leaderboard as one self-contained HTML page.
 *
 * What a course publishes after a batch (scripts/score_batch.sh): ranks in
 * order with ties shown, labels (linked to each student's report when
 * asked), scores with approximate ones marked, predicted times, the failed
 * submissions with their status in words, and the cost table and machine
 * the scores mean something on.
 */
#ifndef PSF_LEADERBOARD_H
#define PSF_LEADERBOARD_H

#include <stddef.h>
#include <stdio.h>

#include "output.h"

/* rows[i] belongs to order[i], in rank order (as for out_rank). */
void leaderboard_html(FILE *f, const options *o, const cost_table *t,
                      const rank_entry *order, const outcome *rows, size_t n);

#endif
