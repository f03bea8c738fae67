/*
 * arrays.c - arrays the step engine counts: every array allocation
 * (SampledObjectAlloc, with -XX:-UseTLAB) charged by its dependency key and
 * elements to the instruction that made it, and the elements natives copy
 * or allocate (counting_arraycopy, step_elements).
 */
#include "bytes.h"
#include "events.h"
#include "extent.h"
#include "jvmti_util.h"
#include "keys.h"
#include "step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Whether array key k, allocated while the last step is an array
 * instruction, is that instruction's. An anewarray or multianewarray whose
 * class this class loader has not resolved yet first has HotSpot resolve it:
 * the class loader's Java code, which HotSpot runs without single-stepping
 * (the step engine counts none of its bytecodes, and the fast engine runs it
 * HIDDEN, counting nothing), and the JVM's own work (the String of the
 * name it looks up). The arrays they allocate are theirs, not the
 * instruction's: the instruction's are of the classes it names (every
 * level of a multianewarray) and are allocated in its own frame, at its
 * offset. A newarray resolves nothing.
 */
static int own_array(agent *a, jthread thread, thread_state *ts, uint32_t k)
{
    uint8_t op = ts->prev_op;
    if (op != BC_ANEWARRAY && op != BC_MULTIANEWARRAY)
        return 1;
    /* An instruction that made an array of its own has its class resolved
     * for good: nothing runs at it before its arrays any more (the byte[]
     * of the message of an exception it throws is taken back with the
     * rest, step_arrays_thrown). */
    uint32_t mslot = step_cache_slot(ts->prev_method);
    uint32_t slot = (mslot ^ (uint32_t)ts->prev_loc) & (OWN_SITES - 1);
    if (ts->step.own_sites[slot].method == ts->prev_method && ts->step.own_sites[slot].loc == ts->prev_loc)
        return 1;
    const mcache_entry *e = &ts->step.cache[mslot];
    const method_info *m = e->id == ts->prev_method ? e->m : NULL;
    uint32_t pc = (uint32_t)ts->prev_loc;
    cp_str c = {0};
    if (m == NULL || m->cls == NULL || !m->cls->cp_ok || ts->prev_loc < 0 || pc + 3u > m->code_len ||
        m->code[pc] != op || cp_class_name(&m->cls->cp, be_u16(&m->code[pc + 1]), &c) != 0) {
        agent_fail(a, "the class of the array instruction that made an array cannot be read");
        return 1;
    }
    unsigned dims = op == BC_MULTIANEWARRAY && pc + 3 < m->code_len ? m->code[pc + 3] : 1;
    int named = 0;
    lock_enter(a);
    for (unsigned level = 0; level < dims && !named; level++) {
        char elem[1024], utf8[2048];
        size_t n = name_array_level(op, 0, c.ptr, c.len, level, elem, sizeof elem);
        if (n == 0)
            continue;
        if (n >= sizeof elem || mutf8_to_utf8(elem, n, utf8, sizeof utf8) >= sizeof utf8)
            named = 1; /* a name too long to compare: the frame decides */
        else
            named = keys_find(&a->keys, KEY_ARRAY, utf8) == k;
    }
    lock_exit(a);
    if (!named)
        return 0;
    jmethodID fm = NULL;
    jlocation at = -1;
    if (jvmti_check(a, (*a->jvmti)->GetFrameLocation(a->jvmti, thread, 0, &fm, &at), "GetFrameLocation") != 0)
        return 1; /* reported: the run fails */
    if (fm != ts->prev_method || at != ts->prev_loc)
        return 0;
    ts->step.own_sites[slot].method = ts->prev_method;
    ts->step.own_sites[slot].loc = ts->prev_loc;
    return 1;
}

/* An array charged to the array instruction now executing: noted, so that
 * step_arrays_thrown can take it back. */
static void step_array_note(thread_state *ts, uint32_t k, uint64_t len)
{
    uint32_t i = 0;
    while (i < ts->step.narr && (ts->step.arr[i].key != k || ts->step.arr[i].bucket != ts->bucket))
        i++;
    if (i == ts->step.narr) {
        if (ts->step.narr == STEP_ARRAYS) {
            ts->step.arr_overflow = 1;
            return;
        }
        ts->step.arr[i].key = k;
        ts->step.arr[i].bucket = ts->bucket;
        ts->step.arr[i].allocations = ts->step.arr[i].elements = 0;
        ts->step.narr++;
    }
    ts->step.arr[i].allocations++;
    ts->step.arr[i].elements += len;
}

/*
 * An exception thrown at (method, loc): if that is the allocating
 * instruction stepped last, it made no array. A negative size (or no
 * memory) throws, and by then HotSpot may have allocated arrays all the
 * same (the outer levels of a multianewarray, the byte[] of the
 * exception's message), which the step engine charged to the instruction
 * as it saw them and takes back now: the program got no array, and the
 * fast engine, whose array probe runs after the instruction, counts none.
 */
void step_arrays_thrown(agent *a, thread_state *ts, jmethodID method, jlocation loc)
{
    if (method != ts->step.arr_method || loc != ts->step.arr_loc || (ts->step.narr == 0 && !ts->step.arr_overflow))
        return;
    if (ts->step.arr_overflow)
        agent_fail(a, "an array instruction that threw had made arrays of more than %d kinds", STEP_ARRAYS);
    for (uint32_t i = 0; i < ts->step.narr; i++) {
        ts->dep[ts->step.arr[i].bucket][ts->step.arr[i].key - 1] -= ts->step.arr[i].allocations;
        ts->elems[ts->step.arr[i].bucket][ts->step.arr[i].key - 1] -= ts->step.arr[i].elements;
    }
    ts->step.narr = 0;
    ts->step.arr_overflow = 0;
}

/*
 * With -XX:-UseTLAB and a sampling interval of 0, HotSpot reports every
 * allocation through SampledObjectAlloc, on the allocating thread. Arrays
 * allocated while a newarray/anewarray/multianewarray executes in a measured
 * extent are charged with their exact length, however it was computed
 * (core/extent.c on_sampled_alloc passes those of a counting thread here).
 * Every array's class is tagged with its array key (counting_array_key),
 * the arrays charged and the others alike (but those of the agent's own
 * class lookup, while the thread is paused), as the fast engine tags the
 * class of every array a counting thread makes but its own (fast/arrays.c
 * fast_array_alloc): a tag draws the class's identity hash code on this
 * thread where it has none (on JDK 25, byte[] and Class[] have none at
 * main), so both engines draw it at the same array (docs/fast-engine.md,
 * "Identity hash codes").
 */
void step_array_alloc(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jobject obj, jclass klass)
{
    jboolean is_array = JNI_FALSE;
    if (ts->paused)
        return; /* the agent's own lookup of a class (clinit.c: its Field[]), which the fast engine makes none of */
    if (jvmti_check(a, (*a->jvmti)->IsArrayClass(a->jvmti, klass, &is_array), "IsArrayClass") != 0 || !is_array)
        return;
    uint32_t k = counting_array_key(a, klass);
    int direct = (bc_flags(ts->prev_op) & BCF_NEWARRAY) != 0;
    if (!direct && ts->pend_key == 0)
        return; /* not allocated by an array bytecode nor by a native call */
    if (k == 0)
        return; /* no key */
    if (direct && !own_array(a, thread, ts, k))
        return; /* made while HotSpot resolved the instruction's class (unstepped) */
    if (k > ts->dep_cap && ts_cover_keys(a, ts) != 0) {
        /* an array that cannot be charged: the result must not be ok */
        agent_fail(a, "out of memory for the counters of array allocations");
        return;
    }
    uint64_t len = (uint64_t)(*jni)->GetArrayLength(jni, (jarray)obj);
    if (direct) {
        ts->dep[ts->bucket][k - 1]++;
        ts->elems[ts->bucket][k - 1] += len;
        step_array_note(ts, k, len);
        return;
    }
    int i = 0;
    while (i < ts->npend && ts->pend[i].key != k)
        i++;
    if (i == ts->npend) {
        if (ts->npend == PEND_ALLOCS)
            i = PEND_ALLOCS - 1; /* merge into the last slot's key: rare, and still charged */
        else
            ts->pend[ts->npend++] = (pend_alloc){k, 0, 0};
    }
    ts->pend[i].allocations++;
    ts->pend[i].elements += len;
}


/* System.arraycopy copied `length` elements (natives.c, through
 * a->hooks.arraycopy): on a measured thread, charge them to its invoke key,
 * in the bucket of the code that called it. */
void counting_arraycopy(agent *a, JNIEnv *jni, jint length)
{
    thread_state *ts = agent_tls;
    if (ts == NULL || !ts->measuring || length <= 0 || (*jni)->ExceptionCheck(jni))
        return;
    /* Only the copy the step path just saw invoked: code HotSpot runs
     * without single-stepping (a class initializer it hides) copies arrays
     * too, and its invoke was never counted. */
    uint32_t k = a->arraycopy_key;
    if (k != 0 && k <= ts->dep_cap && ts->pend_key == k)
        ts->elems[ts->bucket][k - 1] += (uint64_t)length;
}

/* A native of bulk.c handled n elements on a counting thread (core/extent.c
 * counting_charge_elements): charge them to its invoke key, in the bucket
 * of the code that called it, when that invoke is the one the step path
 * just counted (as counting_arraycopy). */
void step_elements(agent *a, thread_state *ts, uint32_t k, uint64_t n)
{
    (void)a;
    if (k <= ts->dep_cap && ts->pend_key == k)
        ts->elems[ts->bucket][k - 1] += n;
}
