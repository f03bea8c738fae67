/*
 * arrays.c - arrays: the array key of each array site, the allocations and
 * elements the array probes counted collected per key, and the arrays that
 * natives allocate or fill (fast_array_alloc, native_pend and
 * probe_native_arrays, fast_charge_elements) charged to the call site that
 * called the native.
 */

#include "bulk.h"
#include "bytes.h"
#include "events.h"
#include "fast.h"
#include "jvmti_util.h"
#include "keys.h"
#include "methods.h"

/* The array key of one array site (lock held), as the step engine names
 * the class of the array that level allocates (step/arrays.c array_key:
 * name_from_signature(signature, 1)); interned on first use. 0 when the
 * instruction's class cannot be read (reported). */
static uint32_t site_key(agent *a, uint32_t site)
{
    fast_site *st = &a->fast.sites[site];
    if (st->key != 0)
        return st->key;
    const fast_method *fm = &a->fast.methods[st->method];
    const uint8_t *p = fm->code + st->pc;
    char elem[1024];
    cp_str c = {0};
    if (p[0] != BC_NEWARRAY) {
        const cpool *cp = fast_pool_of(a, fm);
        if (cp == NULL || cp_class_name(cp, be_u16(&p[1]), &c) != 0 || c.len == 0) {
            fast_problem(a, "the array class of %s at offset %u cannot be read", fm->name, st->pc);
            return 0;
        }
    }
    size_t n = name_array_level(p[0], p[1], c.ptr, c.len, st->level, elem, sizeof elem);
    if (n == 0 || n >= sizeof elem) {
        fast_problem(a, "the array instruction of %s at offset %u names no array type", fm->name, st->pc);
        return 0;
    }
    char *utf8 = utf8_dup(elem);
    st->key = utf8 != NULL ? keys_intern(&a->keys, KEY_ARRAY, utf8) : 0;
    free(utf8);
    if (st->key == 0)
        agent_fail(a, "out of memory for the keys of arrays");
    return st->key;
}

/* The keys of a made probe's site (lock held): *k, the array key of the
 * class its thread counted there (classes[site]); *ik, the call's invoke
 * key. 0, or -1 (reported). */
static int made_site_keys(agent *a, JNIEnv *jni, jobjectArray classes, uint32_t site, uint32_t *k, uint32_t *ik)
{
    const fast_site *st = &a->fast.sites[site];
    const fast_method *fm = &a->fast.methods[st->method];
    jobject c = classes != NULL && (jsize)site < (*jni)->GetArrayLength(jni, classes)
                    ? (*jni)->GetObjectArrayElement(jni, classes, (jsize)site)
                    : NULL;
    *k = c != NULL ? counting_array_key(a, (jclass)c) : 0;
    if (c != NULL)
        (*jni)->DeleteLocalRef(jni, c);
    const cpool *cp = fast_pool_of(a, fm);
    *ik = cp != NULL ? methods_key_of(a, cp, fm->code, st->pc) : 0;
    if (*k == 0 || *ik == 0) {
        fast_problem(a, "the call in %s at offset %u made arrays whose %s", fm->name, st->pc,
                     *k == 0 ? "class has no array key" : "call has no key");
        return -1;
    }
    return 0;
}

/* Add n to a counter, refusing the run rather than wrapping. */
static int add_count(agent *a, uint64_t *slot, uint64_t n)
{
    if (*slot > UINT64_MAX - n) {
        fast_problem(a, "an array count passed 2^64");
        return -1;
    }
    *slot += n;
    return 0;
}

/* The arrays one mode's probes counted by site (fields fa, fe), into the
 * keys of `bucket` (a made probe's site: the key of the class counted
 * there, and the call's elements too); in the overhead bucket the
 * program's sites go to the work bucket. 0, or -1 (reported). */
static int collect_sites(agent *a, JNIEnv *jni, thread_state *ts, jfieldID fa, jfieldID fe, int bucket)
{
    int bad = 0;
    jlongArray aa = (*jni)->GetObjectField(jni, ts->fast.probe, fa);
    jlongArray ea = (*jni)->GetObjectField(jni, ts->fast.probe, fe);
    jobjectArray ca = (*jni)->GetObjectField(jni, ts->fast.probe, a->fast.f_classes);
    if (aa != NULL && ea != NULL) {
        jsize n = (*jni)->GetArrayLength(jni, aa);
        jlong *al = (*jni)->GetLongArrayElements(jni, aa, NULL);
        jlong *el = (*jni)->GetLongArrayElements(jni, ea, NULL);
        if (al == NULL || el == NULL || (*jni)->GetArrayLength(jni, ea) != n)
            bad = -1;
        for (jsize site = 0; site < n && !bad; site++) {
            if (al[site] == 0)
                continue;
            if ((uint32_t)site >= a->fast.next_site) {
                fast_problem(a, "array site %d was counted but never handed out", (int)site);
                continue;
            }
            uint32_t k = 0, ik = 0;
            if (a->fast.sites[site].made) { /* a native's arrays of one class: their key and the call's */
                if (made_site_keys(a, jni, ca, (uint32_t)site, &k, &ik) != 0)
                    continue;
            } else if ((k = site_key(a, (uint32_t)site)) == 0) {
                continue;
            }
            if (ts_keys_grow(ts, a->keys.count) != 0) {
                agent_fail(a, "out of memory for the fast engine's key counters");
                bad = -1;
                break;
            }
            int b = bucket == BUCKET_OVERHEAD && a->fast.methods[a->fast.sites[site].method].program ? BUCKET_WORK
                                                                                                  : bucket;
            if (add_count(a, &ts->dep[b][k - 1], (uint64_t)al[site]) != 0 ||
                add_count(a, &ts->elems[b][k - 1], (uint64_t)el[site]) != 0 ||
                (ik != 0 && add_count(a, &ts->elems[b][ik - 1], (uint64_t)el[site]) != 0))
                break;
        }
        if (al != NULL)
            (*jni)->ReleaseLongArrayElements(jni, aa, al, JNI_ABORT);
        if (el != NULL)
            (*jni)->ReleaseLongArrayElements(jni, ea, el, JNI_ABORT);
    }
    if (aa != NULL)
        (*jni)->DeleteLocalRef(jni, aa);
    if (ea != NULL)
        (*jni)->DeleteLocalRef(jni, ea);
    if (ca != NULL)
        (*jni)->DeleteLocalRef(jni, ca);
    return bad;
}

/*
 * One thread's arrays (lock held), bucket by bucket: what its array and
 * made probes counted, by site, into the keys of the arrays' element types
 * (an allocation and its elements each; a made probe's elements also to
 * its call); what native methods allocated (fast_array_alloc, made0) into
 * those keys and into the elements of the invoke that called the native,
 * as the step engine charges them (and the elements of natives charged by
 * size); what its copy probes saw System.arraycopy copy, into that
 * invoke's elements. 0, or -1 (reported).
 */
int fast_collect_arrays(agent *a, JNIEnv *jni, thread_state *ts)
{
    int bad = collect_sites(a, jni, ts, a->fast.f_allocations, a->fast.f_elements, BUCKET_WORK);
    if (!bad)
        bad = collect_sites(a, jni, ts, a->fast.f_oallocations, a->fast.f_oelements, BUCKET_OVERHEAD);
    for (uint32_t i = 0; i < ts->fast.nnarrays && !bad; i++) {
        struct fast_native_array *na = &ts->fast.narrays[i];
        if (na->invoke == 0) { /* a made probe's: the call's key, read now */
            const fast_method *fm = &a->fast.methods[na->method];
            const cpool *cp = fast_pool_of(a, fm);
            na->invoke = cp != NULL ? methods_key_of(a, cp, fm->code, na->pc) : 0;
            if (na->invoke == 0) {
                fast_problem(a, "the call in %s at offset %u made an array and has no key", fm->name, na->pc);
                continue;
            }
        }
        if (ts_keys_grow(ts, a->keys.count) != 0) {
            agent_fail(a, "out of memory for the fast engine's key counters");
            bad = -1;
            break;
        }
        if ((na->key != 0 && (add_count(a, &ts->dep[na->bucket][na->key - 1], na->allocations) != 0 ||
                              add_count(a, &ts->elems[na->bucket][na->key - 1], na->elements) != 0)) ||
            add_count(a, &ts->elems[na->bucket][na->invoke - 1], na->elements) != 0)
            break;
    }
    /* what System.arraycopy copied, charged to its key as step/arrays.c does,
     * bucket by bucket */
    for (int b = 0; b < BUCKETS && !bad; b++) {
        uint64_t copied = (uint64_t)(*jni)->GetLongField(jni, ts->fast.probe, b == BUCKET_WORK ? a->fast.f_copied
                                                                                       : a->fast.f_ocopied);
        if (copied == 0)
            continue;
        uint32_t k = a->arraycopy_key;
        if (k == 0)
            fast_problem(a, "System.arraycopy copied elements, and it has no key");
        else if (ts_keys_grow(ts, a->keys.count) != 0) {
            agent_fail(a, "out of memory for the fast engine's key counters");
            bad = -1;
        } else {
            add_count(a, &ts->elems[b][k - 1], copied);
        }
    }
    return bad;
}

/*
 * The call a native method of this thread was called by (frame 1 of
 * `thread`, the native at the top): the caller's index in a->fast.methods,
 * the invoke's offset in its original code, the invoke's key and whether a
 * made probe follows it (*made), through a one-entry cache by frame
 * location (a native's arrays and the elements charged by size come from
 * one call site at a time). 0, or -1 when the
 * caller is not an instrumented method at an invoke with a key.
 */
static int native_caller(agent *a, jthread thread, uint32_t *index, uint32_t *pc, uint32_t *ik, int *made)
{
    jmethodID caller = NULL;
    jlocation at = 0;
    if (jvmti_check(a, (*a->jvmti)->GetFrameLocation(a->jvmti, thread, 1, &caller, &at), "GetFrameLocation") != 0 ||
        at < 0)
        return -1;
    lock_enter(a);
    int hit = a->fast.last_caller == caller && a->fast.last_at == at;
    *index = a->fast.last_index;
    *pc = a->fast.last_pc;
    *ik = a->fast.last_key;
    *made = a->fast.last_made;
    lock_exit(a);
    if (hit)
        return 0;
    fast_method *named = fast_method_named(a, caller);
    if (named == NULL)
        return -1;
    lock_enter(a);
    const fast_method *fm = named; /* fast_method_named's pointer, before the table can move */
    ins_method view = {.status = INS_METHOD_DONE, .pcs = fm->pcs, .npcs = fm->npcs, .new_len = fm->new_len};
    int in_probe = 0;
    int64_t old = ins_original_offset(&view, (uint32_t)at, &in_probe);
    const cpool *cp = old >= 0 && !in_probe && (bc_flags(fm->code[old]) & BCF_INVOKE) ? fast_pool_of(a, fm) : NULL;
    uint32_t k = cp != NULL ? methods_key_of(a, cp, fm->code, (uint32_t)old) : 0;
    if (k != 0) {
        a->fast.last_caller = caller;
        a->fast.last_at = at;
        a->fast.last_index = *index = (uint32_t)(fm - a->fast.methods);
        a->fast.last_pc = *pc = (uint32_t)old;
        a->fast.last_key = *ik = k;
        a->fast.last_made = *made = ins_makes_array(cp, fm->code, (uint32_t)old);
    }
    lock_exit(a);
    return k != 0 ? 0 : -1;
}

/* Add a native's allocations (of array key `key`, 0 for none) and elements
 * to the thread's charges in `bucket` for the call at (index, pc) with
 * invoke key ik (0: read when the counts are collected). */
static void charge_in(agent *a, thread_state *ts, uint32_t index, uint32_t pc, uint32_t ik, uint32_t key,
                      uint64_t allocations, uint64_t elements, int bucket)
{
    uint32_t i = 0;
    while (i < ts->fast.nnarrays && !(ts->fast.narrays[i].method == index && ts->fast.narrays[i].pc == pc &&
                                 ts->fast.narrays[i].key == key && ts->fast.narrays[i].bucket == bucket))
        i++;
    if (i == ts->fast.nnarrays) {
        if (ts->fast.nnarrays == ts->fast.narrays_cap) {
            struct fast_native_array *v = grow_cap(ts->fast.narrays, &ts->fast.narrays_cap, 8, sizeof *v);
            if (v == NULL) {
                agent_fail(a, "out of memory for what native calls handled");
                return;
            }
            ts->fast.narrays = v;
        }
        ts->fast.narrays[ts->fast.nnarrays++] = (struct fast_native_array){index, pc, key, ik, bucket, 0, 0};
    }
    ts->fast.narrays[i].allocations += allocations;
    ts->fast.narrays[i].elements += elements;
}

/* The same in the bucket of the thread's mode, where the program's calls
 * are work (nothing in HIDDEN mode). */
void fast_native_charge(agent *a, thread_state *ts, uint32_t index, uint32_t pc, uint32_t ik, uint32_t key,
                   uint64_t allocations, uint64_t elements)
{
    JNIEnv *jni = fast_env(a);
    jint mode = jni != NULL ? (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_mode) : MODE_WORK;
    if (mode == MODE_HIDDEN)
        return;
    lock_enter(a);
    int program = index < a->fast.nmethods && a->fast.methods[index].program;
    lock_exit(a);
    charge_in(a, ts, index, pc, ik, key, allocations, elements,
              mode == MODE_OVERHEAD && !program ? BUCKET_OVERHEAD : BUCKET_WORK);
}

/*
 * An array (key, len elements) that a native method allocated on a
 * counting thread, kept for the return probe of the call the probes hold
 * pending when nothing was counted since its call probe (else nothing is
 * kept). The step engine keeps every array allocated after an invoke
 * (step/arrays.c step_array_alloc) until the next step: the caller's
 * instruction after the invoke (the callee ran no bytecode: a native)
 * charges them to their keys and their elements to the invoke; any other
 * step drops them, and after a counted step nothing is kept until the
 * next invoke. So here: a native that runs Java code (a class loader while
 * reflection resolves a field's type, the method Method.invoke calls)
 * moves the total, and its arrays are dropped then, or not kept after
 * it; one that throws never reaches its return probe (fast_on_exception
 * drops them). Kept as the step engine keeps them, by key, at most
 * PEND_ALLOCS keys, more merged into the last one's.
 */
static void native_pend(agent *a, JNIEnv *jni, thread_state *ts, uint32_t key, uint64_t len)
{
    jint pending = (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_pending);
    jlong at = (*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_pending_at);
    if (pending <= 0 ||
        (*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_n) + (*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_on) != at)
        return; /* no call pending, or bytecode counted since its call: the step engine keeps none */
    if (ts->fast.nfpend > 0 && (ts->fast.fpend_site != pending - 1 || ts->fast.fpend_at != at))
        ts->fast.nfpend = 0; /* an earlier call's, whose return probe never ran */
    if (ts->fast.nfpend == 0) {
        ts->fast.fpend_site = pending - 1;
        ts->fast.fpend_at = at;
        (*jni)->SetIntField(jni, ts->fast.probe, a->fast.f_native_arrays, 1);
    }
    int i = 0;
    while (i < ts->fast.nfpend && ts->fast.fpend[i].key != key)
        i++;
    if (i == ts->fast.nfpend) {
        if (ts->fast.nfpend == PEND_ALLOCS)
            i = PEND_ALLOCS - 1; /* as step_array_alloc: into the last slot's key */
        else
            ts->fast.fpend[ts->fast.nfpend++] = (pend_alloc){key, 0, 0};
    }
    ts->fast.fpend[i].allocations++;
    ts->fast.fpend[i].elements += len;
}

/* Forget the arrays natives allocated that wait for a return probe: an
 * exception was thrown on the thread (the call that made them does not
 * return), or its probes are switched on or off. */
void native_arrays_drop(thread_state *ts)
{
    ts->fast.nfpend = 0;
}

/*
 * Probe.nativeArrays0(site, nat), from the return probe of the call at
 * site when arrays a native allocated wait (native_pend): when the call
 * was native (nat: nothing counted between its call and return probes)
 * and they were allocated during it, they are charged as the step engine
 * charges a native call's arrays (step/step.c step_count): each to its
 * array key, its elements to that key and to the invoke's, in the bucket
 * of the thread's mode (the step engine's bucket then, the program's
 * calls included); else dropped.
 */
void JNICALL probe_native_arrays(JNIEnv *jni, jclass cls, jint site, jboolean nat)
{
    agent *a = &g_agent;
    (void)cls;
    thread_state *ts = agent_self();
    if (a->dead || ts == NULL || ts->fast.probe == NULL)
        return;
    int n = ts->fast.nfpend;
    ts->fast.nfpend = 0;
    if (!nat || n == 0 || !ts->measuring || site != ts->fast.fpend_site ||
        (*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_pending_at) != ts->fast.fpend_at)
        return;
    jint mode = (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_mode);
    if (mode == MODE_HIDDEN)
        return;
    lock_enter(a);
    int known = site >= 0 && (uint32_t)site < a->fast.next_call;
    fast_call c = known ? a->fast.calls[site] : (fast_call){0, 0};
    const fast_method *fm = known ? &a->fast.methods[c.method] : NULL;
    const cpool *cp = fm != NULL ? fast_pool_of(a, fm) : NULL;
    uint32_t ik = cp != NULL ? methods_key_of(a, cp, fm->code, c.pc) : 0;
    lock_exit(a);
    if (!known) {
        fast_problem(a, "a return probe ran with call site %d, which was never handed out", (int)site);
        return;
    }
    if (ik == 0)
        return; /* an invoke without a key: the step engine keeps nothing after it */
    for (int i = 0; i < n; i++)
        charge_in(a, ts, c.method, c.pc, ik, ts->fast.fpend[i].key, ts->fast.fpend[i].allocations, ts->fast.fpend[i].elements,
                  mode == MODE_OVERHEAD ? BUCKET_OVERHEAD : BUCKET_WORK);
}

/* Whether method m is the probe class's (Probe.java), with a one-entry
 * cache per thread; -1 when its class cannot be read (reported). */
static int probe_method(agent *a, JNIEnv *jni, thread_state *ts, jmethodID m)
{
    if (m == ts->fast.alloc_method)
        return ts->fast.alloc_probe;
    jclass k = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetMethodDeclaringClass(a->jvmti, m, &k), "GetMethodDeclaringClass") != 0)
        return -1;
    ts->fast.alloc_probe = (*jni)->IsSameObject(jni, k, a->fast.probe) ? 1 : 0;
    ts->fast.alloc_method = m;
    (*jni)->DeleteLocalRef(jni, k);
    return ts->fast.alloc_probe;
}

/*
 * SampledObjectAlloc of an array of class klass on a counting thread.
 * Arrays that array instructions make are the probes' (a Java frame on
 * top: the instruction, or the JVM's own work inside another instruction,
 * which the step engine does not charge either). Arrays made under
 * Object.clone and Array.newArray are the made probe's that follows their
 * call (probe_made). An array a native method makes is charged, as the
 * step engine charges it, to its key and to the elements of the invoke
 * that called the native: as it is made for Throwable.fillInStackTrace(int)
 * (the backtraces of every exception), Class.initClassName and
 * StackTraceElement.initStackTraceElements, which call no Java code (the
 * run is refused when one of the latter two throws: exceptions.c); by the
 * return probe of the call that made it for any other native
 * (native_pend). Arrays the probe class's code and natives make, and the
 * agent's own (fast_own_alloc), are the agent's: their class is not even tagged
 * with its array key (counting_array_key), for a tag draws the class's
 * identity hash code on this thread where it has none (Class[] on
 * JDK 25: the probe's growSites makes a Class[]), which the step engine, which makes
 * no such arrays, does not (docs/fast-engine.md, "Identity hash codes").
 * Every other array's class is tagged here, as the step engine tags it at
 * the array it charges.
 */
_Thread_local int fast_own_alloc __attribute__((tls_model("initial-exec")));

void fast_array_alloc(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jobject array, jclass klass)
{
    jvmtiEnv *jv = a->jvmti;
    jmethodID m = NULL;
    jlocation loc = 0;
    if (fast_own_alloc)
        return; /* the agent's own array (hidden.c, threads.c) */
    if (jvmti_check(a, (*jv)->GetFrameLocation(jv, thread, 0, &m, &loc), "GetFrameLocation") != 0 ||
        probe_method(a, jni, ts, m) != 0)
        return;
    uint32_t key = counting_array_key(a, klass);
    if (key == 0 || ts->fast.probe == NULL)
        return;
    if (loc != -1)
        return; /* a Java frame */
    if ((*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_mode) == MODE_HIDDEN)
        return; /* where HotSpot hides stepping (class loading): as the step engine, nothing is charged */
    uint32_t index, pc, ik;
    if (m == a->fast.obj_clone || m == a->fast.new_array || m == a->fast.multi_new_array) {
        /* the made probe after the call charges it, when the call is one
         * it follows (an array's clone(), Array.newArray); called otherwise
         * (from another native), it is any native's */
        int probed = 0;
        if (native_caller(a, thread, &index, &pc, &ik, &probed) == 0 && probed)
            return;
        native_pend(a, jni, ts, key, (uint64_t)(*jni)->GetArrayLength(jni, (jarray)array));
        return;
    }
    if (m != a->fast.fill_in && m != a->fast.init_class_name && m != a->fast.ste_init) {
        /* any other native's (reflection's, ...): kept for its call's return probe */
        native_pend(a, jni, ts, key, (uint64_t)(*jni)->GetArrayLength(jni, (jarray)array));
        return;
    }
    int made = 0;
    if (native_caller(a, thread, &index, &pc, &ik, &made) != 0) {
        fast_problem(a, "%s allocated an array, called from a method without probes",
                     m == a->fast.fill_in         ? "Throwable.fillInStackTrace(int)"
                     : m == a->fast.init_class_name ? "Class.initClassName"
                                                    : "StackTraceElement.initStackTraceElements");
        return;
    }
    fast_native_charge(a, ts, index, pc, ik, key, 1, (uint64_t)(*jni)->GetArrayLength(jni, (jarray)array));
}

/*
 * A native charged by size (bulk.c, through step/arrays.c) handled n
 * elements, to be charged to its invoke key k: as the step engine charges
 * them only when the invoke it just counted has that key, they are charged
 * when the native's caller is an instrumented method whose invoke at the
 * call has key k and nothing was counted since that call's call probe (a
 * native called from another native, or through another key, or one that
 * ran Java code, as defineClass1 does when a class loader resolves the
 * superclass, is charged by neither engine).
 */
void fast_charge_elements(agent *a, thread_state *ts, uint32_t k, uint64_t n)
{
    jthread thread = NULL;
    JNIEnv *jni = fast_env(a);
    if (ts->fast.probe == NULL || jni == NULL ||
        (*jni)->GetIntField(jni, ts->fast.probe, a->fast.f_pending) <= 0 ||
        (*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_n) + (*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_on) !=
            (*jni)->GetLongField(jni, ts->fast.probe, a->fast.f_pending_at) ||
        jvmti_check(a, (*a->jvmti)->GetCurrentThread(a->jvmti, &thread), "GetCurrentThread") != 0)
        return;
    jmethodID m = NULL;
    jlocation loc = 0;
    uint32_t index, pc, ik;
    int made = 0;
    if (jvmti_check(a, (*a->jvmti)->GetFrameLocation(a->jvmti, thread, 0, &m, &loc), "GetFrameLocation") == 0 &&
        loc == -1 && native_caller(a, thread, &index, &pc, &ik, &made) == 0 && ik == k)
        fast_native_charge(a, ts, index, pc, ik, 0, 0, n);
    (*jni)->DeleteLocalRef(jni, thread);
}

/* 1 when the invoke at fm's original offset pc calls a native whose arrays
 * fast_array_alloc charges as they are made and that may throw
 * (Class.initClassName, StackTraceElement.initStackTraceElements: an
 * OutOfMemoryError): the step engine charges nothing when such a call
 * throws, since the caller does not resume after it (lock not held). */
int fast_charged_native_call(agent *a, const fast_method *fm, uint32_t pc)
{
    if (!(bc_flags(fm->code[pc]) & BCF_INVOKE) || fm->code[pc] == BC_INVOKEDYNAMIC)
        return 0;
    lock_enter(a);
    const cpool *cp = fast_pool_of(a, fm);
    cp_str owner, name, desc;
    int hit = cp != NULL &&
              cp_member_ref(cp, be_u16(&fm->code[pc + 1]), &owner, &name, &desc) == 0 &&
              ((owner.len == 15 && memcmp(owner.ptr, "java/lang/Class", 15) == 0 && name.len == 13 &&
                memcmp(name.ptr, "initClassName", 13) == 0) ||
               (owner.len == 27 && memcmp(owner.ptr, "java/lang/StackTraceElement", 27) == 0 && name.len == 22 &&
                memcmp(name.ptr, "initStackTraceElements", 22) == 0));
    lock_exit(a);
    return hit;
}
