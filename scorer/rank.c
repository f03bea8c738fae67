/*
 * rank.c - leaderboard order and competition ranks (see rank.h).
 */
#include "rank.h"

#include <stdlib.h>
#include <string.h>

static int cmp_entry(const void *a, const void *b)
{
    const rank_entry *x = a, *y = b;
    if (x->scored != y->scored)
        return x->scored ? -1 : 1;
    if (x->scored && x->score != y->score)
        return x->score < y->score ? -1 : 1;
    int c = strcmp(x->label, y->label);
    if (c)
        return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

void rank_order(rank_entry *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, cmp_entry);
    for (size_t i = 0; i < n; i++) {
        if (!v[i].scored)
            v[i].rank = 0;
        else if (i > 0 && v[i - 1].scored && v[i - 1].score == v[i].score)
            v[i].rank = v[i - 1].rank;
        else
            v[i].rank = (unsigned)(i + 1);
    }
}
