/*
 * rank.h - ordering scored submissions into a leaderboard.
 *
 * Lower score is better (it is a cost). Equal scores share a rank and the
 * next rank skips ("competition ranking": 1, 2, 2, 4); among equal scores,
 * and among the unranked, entries are listed by label (byte order), so the
 * order never depends on the order of the arguments. An approximate score
 * ranks by its integer like any other; the output marks it.
 */
#ifndef PSF_RANK_H
#define PSF_RANK_H

#include <stddef.h>
#include <stdint.h>

typedef struct rank_entry {
    const char *label;      /* borrowed */
    int scored;             /* 1 if score is valid; 0 lists the entry after the ranked ones */
    uint64_t score;
    size_t index;           /* caller's index, carried through the sort */
    unsigned rank;          /* set by rank_order: 1.., or 0 when not scored */
} rank_entry;

/* Sort v into leaderboard order and set every rank. */
void rank_order(rank_entry *v, size_t n);

#endif
