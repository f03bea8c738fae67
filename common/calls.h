/*
 * calls.h - how close a method entry comes after the previous one, so that
 * a score can charge the part of a call's cost that other work cannot hide.
 *
 * HotSpot's interpreter bangs the stack's shadow zone at every entry of a
 * Java method (on x86-64 JDK 17: 20 stores, 4 KB apart, all in one set of
 * the L1 data cache). Entries back to back pay about 200 cycles each for it
 * (a calibration kernel measures it: 208 cycles per call of `x = sf(x)`);
 * the stores drain while the bytecodes that follow execute, so an entry
 * about 100 bytecodes after the previous one pays almost nothing extra
 * (docs/calibration.md, "Method entries"). A price per call cannot express
 * that; a price per bytecode of shortfall can.
 *
 * The profile's <calls close> is the sum over method entries of
 * call_closeness(bytecodes executed on the thread since its previous
 * entry). <calls fence_native> and <calls fence_alloc> sum the same
 * closeness to the last entry for calls that ran no bytecode (a native
 * returns through a full fence) and for allocation bytecodes (a locked
 * compare-and-swap on shared eden with -XX:-UseTLAB): both wait for the
 * entry's stack-banging stores to drain. Pure C, header only: the agent's
 * step path and the scorer's consistency check share it.
 */
#ifndef PSF_CALLS_H
#define PSF_CALLS_H

#include <stdint.h>

#define CALL_CLOSE_WINDOW 100

/* The closeness of an entry `gap` bytecodes after the previous one (gap >= 1:
 * the previous entry is itself a bytecode): at most CALL_CLOSE_WINDOW - 1. */
static inline uint64_t call_closeness(uint64_t gap)
{
    return gap < CALL_CLOSE_WINDOW ? CALL_CLOSE_WINDOW - gap : 0;
}

#endif
