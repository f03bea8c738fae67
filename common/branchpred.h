/*
 * branchpred.h - a simulated branch predictor, so that a score can charge
 * conditional branches whose outcome a CPU could not have predicted.
 *
 * A branch on random data (the compare of a sort) costs a modern core a
 * pipeline flush, about 15 to 20 cycles, each time it goes the other way
 * than predicted; the same branch in a loop that always goes one way costs
 * about 1. Counting bytecodes cannot tell the two apart; simulating a
 * predictor over the exact sequence of outcomes can, and stays a pure
 * function of the path the program took, so the count is the same on every
 * run and machine.
 *
 * The model (docs/profile-format.md, "Branches"): gshare. Each thread has a
 * table of BP_ENTRIES two-bit saturating counters, all 0 (strongly not
 * taken) at its first branch, and a global history of its last BP_HISTORY
 * conditional-branch outcomes (1 = taken). A branch at `site` (a hash of its
 * method's name and its bytecode offset) uses the counter at
 * (site ^ history) mod BP_ENTRIES: it predicts taken when the counter is 2
 * or 3; the counter then moves one step toward the outcome, and the outcome
 * is shifted into the history. The history lets it learn patterns (a loop
 * of fixed length, alternation), as real predictors do.
 *
 * Pure C, header only (the step path inlines it): no JVM, no allocation.
 */
#ifndef PSF_BRANCHPRED_H
#define PSF_BRANCHPRED_H

#include <stdint.h>
#include <string.h>

#define BP_BITS 14
#define BP_ENTRIES (1u << BP_BITS)
#define BP_HISTORY 12

typedef struct branchpred {
    uint8_t counter[BP_ENTRIES];
    uint32_t history;
} branchpred;

static inline void bp_init(branchpred *p)
{
    memset(p, 0, sizeof *p);
}

/* The site of a branch: a method's seed (bp_seed of its name) and the
 * branch's bytecode offset. */
static inline uint32_t bp_site(uint32_t seed, uint32_t bci)
{
    return seed ^ (bci * 0x9E3779B1u);
}

/* A seed from a method's name (FNV-1a): the same name gives the same sites
 * in every run, whatever the order in which methods were first executed. */
static inline uint32_t bp_seed(const char *name)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *s = (const unsigned char *)name; *s; s++)
        h = (h ^ *s) * 16777619u;
    return h;
}

/* Record one outcome; returns 1 when the predictor had predicted the other
 * way. */
static inline int bp_branch(branchpred *p, uint32_t site, int taken)
{
    uint32_t i = (site ^ p->history) & (BP_ENTRIES - 1);
    uint8_t c = p->counter[i];
    int miss = (c >= 2) != (taken != 0);
    if (taken) {
        if (c < 3)
            p->counter[i] = (uint8_t)(c + 1);
    } else if (c > 0) {
        p->counter[i] = (uint8_t)(c - 1);
    }
    p->history = ((p->history << 1) | (taken != 0)) & ((1u << BP_HISTORY) - 1);
    return miss;
}

/* 1 for the conditional branches: if<cond>, if_icmp<cond>, if_acmp<cond>,
 * ifnull, ifnonnull (all three bytes long, a signed 16-bit offset). */
static inline int bp_is_conditional(uint8_t op)
{
    return (op >= 0x99 && op <= 0xa6) || op == 0xc6 || op == 0xc7;
}

#endif
