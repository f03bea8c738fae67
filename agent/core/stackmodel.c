/*
 * stackmodel.c - the stop of a run whose modelled stack use passes the
 * budget (stackmodel.h; docs/determinism.md, "The stack"): the same status
 * as a real StackOverflowError (extent.c, stack_overflow_stop), with a
 * message that names the rule, the frame and the method whose entry passed
 * it, the same under both engines. The use itself is kept where each engine
 * keeps its calling contexts (profile/contexts.c for the step engine,
 * Probe.push for the fast engine, which calls in through fast/probes.c).
 */
#include "stackmodel.h"
#include "events.h"
#include "extent.h"

#include <stdio.h>

void stack_model_stop(agent *a, JNIEnv *jni, jthread thread, const thread_state *ts, const char *method,
                      uint32_t frame, uint64_t use)
{
    char msg[1024];
    unsigned inv = ts->helper ? (unsigned)ts->inv_index + 1 : (unsigned)a->ninvocations + 1;
    snprintf(msg, sizeof msg,
             "the method's calls nested too deep (invocation %u): entering %s as frame %u of thread '%s' "
             "would take its frames' modelled stack use to %llu words, past the %u words each counting thread "
             "may use (%u words a frame plus its max_locals), so the run is not counted",
             inv, method != NULL ? method : "?", (unsigned)frame,
             ts->thread_name != NULL ? ts->thread_name : "?", (unsigned long long)use,
             (unsigned)SM_BUDGET_WORDS, (unsigned)SM_FRAME_WORDS);
    limit_stop(a, jni, thread, "stack_overflow", msg);
}
