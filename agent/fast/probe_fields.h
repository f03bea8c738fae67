/*
 * probe_fields.h - every field and method of the probe class
 * (agent/fast/probe/java/lang/Probe.java) that the fast engine binds by
 * name, in one list.
 *
 * The engine reaches the probe class's counters through JNI field IDs,
 * which JNI finds by a name and a descriptor given as strings: a field
 * renamed or retyped in Probe.java and not here would surface only as a
 * JVM run that falls back. So the names live here once; boot.c binds from
 * these lists, and tests/unit/test_probe_fields.c reads the compiled
 * Probe.class with the pure class-file reader (classfile.h) and checks
 * that every entry is there, with that descriptor and that static-ness.
 *
 * Pure: no JVM. Each list is an X-macro; an entry of the fields' and the
 * methods' lists is
 *   X(member, "name", "descriptor", is_static)
 * where member is the field of struct fast_state (fast_state.h) that holds the
 * ID. A descriptor naming the probe class itself names it as compiled,
 * java/lang/Probe (PROBE_NAME_COMPILED); boot.c (probe_field) puts the run's drawn
 * name in its place (probename.h).
 */
#ifndef PSF_PROBE_FIELDS_H
#define PSF_PROBE_FIELDS_H

#include <stdint.h>

/* Probe.FAR, the position the agent gives entryAt when it switches a
 * thread on (threads.c): so far back that no entry is close to it. Java
 * and C each write the number; tests/unit/test_probe_fields.c checks this
 * one against the compiled field's ConstantValue. */
#define PROBE_FAR (INT64_MIN / 2)

/* Bound when the class is defined (define_probe); the first static one
 * initializes the class, before any probe runs. */
#define PROBE_FIELDS(X)                                                   \
    X(f_counting, "counting", "[Ljava/lang/Probe;", 1)                    \
    X(f_one, "one", "Ljava/lang/Probe;", 1)                               \
    X(f_watching, "watching", "Z", 1)                                     \
    X(f_thread, "thread", "Ljava/lang/Thread;", 0)                        \
    X(f_hits, "hits", "[J", 0)                                            \
    X(f_n, "n", "J", 0)                                                   \
    X(f_depth, "depth", "I", 0)                                           \
    X(f_counters, "counters", "[B", 0)                                    \
    X(f_history, "history", "I", 0)                                       \
    X(f_br[BR_EXECUTED], "conditional", "J", 0)                           \
    X(f_br[BR_TAKEN], "taken", "J", 0)                                    \
    X(f_br[BR_MISPREDICTED], "mispredicted", "J", 0)                      \
    X(f_ohits, "ohits", "[J", 0)                                          \
    X(f_on, "on", "J", 0)                                                 \
    X(f_ocounters, "ocounters", "[B", 0)                                  \
    X(f_ohistory, "ohistory", "I", 0)                                     \
    X(f_obr[BR_EXECUTED], "oconditional", "J", 0)                         \
    X(f_obr[BR_TAKEN], "otaken", "J", 0)                                  \
    X(f_obr[BR_MISPREDICTED], "omispredicted", "J", 0)                    \
    X(f_mode, "mode", "I", 0)                                             \
    X(f_sp, "sp", "I", 0)                                                 \
    X(f_root_ids, "rootIds", "[I", 0)                                     \
    X(f_root_modes, "rootModes", "[I", 0)                                 \
    X(f_hidden, "hidden", "I", 0)                                         \
    X(f_hidden_root, "hiddenRoot", "I", 0)                                \
    X(f_pending, "pending", "I", 0)                                       \
    X(f_natives, "natives", "[B", 0)                                      \
    X(f_call_mark, "callMark", "J", 0)                                    \
    X(f_entries, "entries", "J", 0)                                       \
    X(f_oentries, "oentries", "J", 0)                                     \
    X(f_pos, "pos", "J", 0)                                               \
    X(f_bound, "bound", "J", 0)                                           \
    X(f_entry_at, "entryAt", "J", 0)                                      \
    X(f_seg_fence, "segFence", "J", 0)                                    \
    X(f_seg_fence_b, "segFenceB", "I", 0)                                 \
    X(f_close[BUCKET_WORK], "close", "J", 0)                              \
    X(f_close[BUCKET_OVERHEAD], "oclose", "J", 0)                         \
    X(f_fence_native[BUCKET_WORK], "fenceNative", "J", 0)                 \
    X(f_fence_native[BUCKET_OVERHEAD], "ofenceNative", "J", 0)            \
    X(f_fence_alloc[BUCKET_WORK], "fenceAlloc", "J", 0)                   \
    X(f_fence_alloc[BUCKET_OVERHEAD], "ofenceAlloc", "J", 0)              \
    X(f_root_lend, "rootLend", "[I", 0)                                   \
    X(f_root_seg_fence, "rootSegFence", "[J", 0)                          \
    X(f_root_seg_fence_b, "rootSegFenceB", "[I", 0)                       \
    X(f_ctx_parent, "ctxParent", "[I", 0)                                 \
    X(f_ctx_method, "ctxMethod", "[I", 0)                                 \
    X(f_ctx_site, "ctxSite", "[I", 0)                                     \
    X(f_ctx_count, "ctxCount", "[J", 0)                                   \
    X(f_ctx_nodes, "ctxNodes", "I", 0)                                    \
    X(f_ctx_at, "ctxAt", "I", 0)                                          \
    X(f_ctx_last, "ctxLast", "I", 0)                                      \
    X(f_ctx_at_method, "ctxAtMethod", "I", 0)                             \
    X(f_run_node, "runNode", "[I", 0)                                     \
    X(f_run_count, "runCount", "[I", 0)                                   \
    X(f_ctx_top, "ctxTop", "I", 0)                                        \
    X(f_ctx_cur, "ctxCur", "I", 0)                                        \
    X(f_saved, "saved", "[J", 0)                                          \
    X(f_nsaved, "nsaved", "I", 0)                                         \
    X(f_root_ctx, "rootCtx", "[J", 0)                                     \
    X(f_root_saved, "rootSaved", "[I", 0)

/* The array probes' counters, bound with the natives whose arrays are
 * charged (arrays_init). */
#define PROBE_ARRAY_FIELDS(X)                                             \
    X(f_allocations, "allocations", "[J", 0)                              \
    X(f_elements, "elements", "[J", 0)                                    \
    X(f_copied, "copied", "J", 0)                                         \
    X(f_oallocations, "oallocations", "[J", 0)                            \
    X(f_oelements, "oelements", "[J", 0)                                  \
    X(f_ocopied, "ocopied", "J", 0)                                       \
    X(f_classes, "classes", "[Ljava/lang/Class;", 0)                     \
    X(f_pending_at, "pendingAt", "J", 0)                                  \
    X(f_native_arrays, "nativeArrays", "I", 0)

/* Methods of the probe class the agent calls. */
#define PROBE_METHODS(X) X(m_ctx_init, "ctxInit", "()V", 0)

/* The probe class's native methods and the functions of probes.c (and
 * arrays.c: nativeArrays0) bound to them (RegisterNatives):
 * X(function, "name", "descriptor"). */
#define PROBE_NATIVES(X)                                                  \
    X(probe_lengths, "lengths0", "(I)[I")                                 \
    X(probe_sites, "sites0", "(I)[I")                                     \
    X(probe_flags, "flags0", "(I)[I")                                     \
    X(probe_root, "root0", "(II)I")                                       \
    X(probe_begin, "begin0", "()V")                                       \
    X(probe_end, "end0", "()V")                                           \
    X(probe_limit, "limit0", "(IIJ)J")                                     \
    X(probe_bystander, "bystander0", "(IZ)V")                             \
    X(probe_array_sites, "arraySites0", "(II)I")                          \
    X(probe_call_sites, "callSites0", "(I)I")                             \
    X(probe_call_kind, "callKind0", "(I)I")                               \
    X(probe_call_segs, "callSegs0", "(I)[I")                              \
    X(probe_array_segs, "arraySegs0", "(I)[I")                            \
    X(probe_jvm_entered, "jvmEntered0", "(II)V")                          \
    X(probe_made, "made0", "(Ljava/lang/Object;I)V")                      \
    X(probe_native_arrays, "nativeArrays0", "(IZ)V")                      \
    X(probe_deep, "deep0", "(III)V")

#endif
