/*
 * stackmodel.h - the modelled stack: one overflow rule both counting
 * engines apply alike (docs/determinism.md, "The stack").
 *
 * Where a thread's real stack ends depends on the sizes of the frames on
 * it, which differ between the engines (the step engine's are all
 * interpreted; the fast engine's carry the probes, interpreted or compiled
 * by C1, and when C1 compiles depends on timing). So the real
 * StackOverflowError never decides a counted run: each counting thread
 * keeps a modelled stack use, the sum over its counted frames (the frames
 * of its calling contexts, contexts.c and Probe.push) of a cost per frame
 * that depends on the method's class file alone, SM_FRAME_WORDS plus its
 * max_locals, in words. A frame whose entry would take that sum past
 * SM_BUDGET_WORDS stops the run there, with status stack_overflow, under
 * either engine at the same call. The budget is a sixteenth of the pinned
 * stack (get_score.sh, -Xss256m), so that a real frame may take up to
 * sixteen times its modelled size before the real stack could end first
 * (measured: up to 4.3 times, the fast engine's C1-compiled frames of small
 * methods with inlined callees; docs/determinism.md); the real
 * StackOverflowError stays a backstop (extent.c, stack_overflow_stop).
 *
 * The constants and the cost are shared by the step path (contexts.c,
 * methods.c), the fast engine's id tables (fast/registry.c, which hands the
 * costs to Probe.java) and the stop (stackmodel.c).
 */
#ifndef PSF_STACKMODEL_H
#define PSF_STACKMODEL_H

#include "agent.h"

#include <stdint.h>

/* A frame's fixed part, in words: HotSpot's interpreter keeps about 11
 * words of bookkeeping per frame on x86_64 (return address, saved frame
 * pointer, method, locals and bytecode pointers, ...), and the operand
 * values a call leaves on its caller's stack (the rest of an expression)
 * take a few more. Probe.java's STACK_FRAME must be the same. */
#define SM_FRAME_WORDS 16u

/* The most a counting thread's frames may use, in words (16 MiB): a
 * sixteenth of the 256 MiB stack get_score.sh pins (-Xss256m). Probe.java's
 * STACK_BUDGET must be the same. */
#define SM_BUDGET_WORDS 2097152u

/* The most frames the budget holds (every frame costs SM_FRAME_WORDS at
 * least), plus the one whose entry is refused. */
#define SM_MAX_FRAMES (SM_BUDGET_WORDS / SM_FRAME_WORDS + 2u)

/* The modelled cost of a frame of a method with max_locals locals. */
static inline uint32_t sm_cost(uint32_t max_locals)
{
    return SM_FRAME_WORDS + max_locals;
}

/* A frame of `method` ("pkg.Class.name(desc)"), the thread's `frame`th
 * counted one, would take its modelled use to `use` words, past the
 * budget: the run stops here, status stack_overflow (stackmodel.c). */
void stack_model_stop(agent *a, JNIEnv *jni, jthread thread, const thread_state *ts, const char *method,
                      uint32_t frame, uint64_t use);

#endif
