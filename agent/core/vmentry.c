/*
 * vmentry.c - the agent's entry points: Agent_OnLoad, the capabilities it
 * asks for, every callback wired in one table, VMInit, ClassPrepare and
 * VMDeath (where how the JVM ended is recorded and the profile written).
 *
 * It is the top of the agent's files: it calls extent.c, clinit.c,
 * target.c, natives.c and methods.c, and none of them calls it. Where a
 * lower file must call up (clinit_target.c starting a count, natives.c charging a
 * copy, extent.c ending the run at a limit), it calls through
 * a->hooks, which wire_hooks fills here, or a function passed in
 * (target_check_class); so the calls among those files point one way:
 * vmentry -> counting -> clinit -> methods, target, program.
 *
 * Load it with
 *   java -XX:-UseTLAB -agentpath:build/libpsfagent.so=method=pkg.C.m,out=FILE ...
 * -XX:-UseTLAB is required: only then does HotSpot report every array
 * allocation to SampledObjectAlloc, which gives exact array sizes.
 */
#include "agent.h"
#include "bulk.h"
#include "bystanders.h"
#include "clinit.h"
#include "engine.h"
#include "events.h"
#include "extent.h"
#include "fast_api.h"
#include "gcrefs.h"
#include "jvmti_util.h"
#include "linkage.h"
#include "methods.h"
#include "natives.h"
#include "progress.h"
#include "scheduler.h"
#include "startup.h"
#include "step.h"
#include "target.h"
#include "writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ClassPrepare: is it the method's class (target.c), does it access that
 * class statically (clinit.c), does its module read the probe's (fast/)? */
static void JNICALL on_class_prepare(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jclass klass)
{
    (void)jvmti;
    (void)thread;
    if (!g_agent.dead && !g_agent.class_seen)
        target_check_class(&g_agent, jni, klass, clinit_target_prepared);
    if (!g_agent.dead && !g_agent.target_init_done)
        clinit_scan_class(&g_agent, jni, klass);
    if (!g_agent.dead && g_agent.engine->class_prepare != NULL)
        g_agent.engine->class_prepare(&g_agent, jni, klass);
    bulk_class_prepared(&g_agent, jni, klass); /* natives charged by size */
}

/* A global reference to the loader ClassLoader.`getter`() returns. */
static jobject jdk_loader(agent *a, JNIEnv *jni, const char *getter)
{
    jclass cl = (*jni)->FindClass(jni, "java/lang/ClassLoader");
    jmethodID get = cl ? (*jni)->GetStaticMethodID(jni, cl, getter, "()Ljava/lang/ClassLoader;") : NULL;
    jobject loader = get ? (*jni)->CallStaticObjectMethod(jni, cl, get) : NULL;
    jobject ref = loader ? (*jni)->NewGlobalRef(jni, loader) : NULL;
    if (ref == NULL) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "cannot find the class loader ClassLoader.%s() returns", getter);
    }
    return ref;
}

/* Before the module system boots: the virtual clock (natives.c). */
static void JNICALL on_vm_start(jvmtiEnv *jvmti, JNIEnv *jni)
{
    (void)jvmti;
    natives_bind_clock(&g_agent, jni);
}

/* Classes loaded before VMInit (java.lang.String, ...) get no ClassPrepare
 * event that we can act on, so look through them once here. */
static char *system_property(agent *a, const char *name);

static void JNICALL on_vm_init(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread)
{
    agent *a = &g_agent;
    (void)thread;
    /* the JDK's own loaders: the only ones that may define classes (natives.c) */
    a->platform_loader = jdk_loader(a, jni, "getPlatformClassLoader");
    a->system_loader = jdk_loader(a, jni, "getSystemClassLoader");
    char *spec = system_property(a, "java.vm.specification.version");
    a->jdk_feature = spec != NULL ? atoi(spec) : 0; /* fast/engine.c identity_hash_read */
    free(spec);
    start_hash_classes(a, jni); /* before either start: on the main thread, the same under both engines */
    if (a->engine->vm_init != NULL)
        a->engine->vm_init(a, jni); /* on an agent thread (startup.c), before the program's classes load: the hook, the classes loaded so far retransformed */
    clinit_init(a, jni);
    natives_bind(a, jni);
    gcrefs_init(a, jni); /* after fast_vm_init: a retransformation would clear its breakpoint */
    sched_check_bound(a, jni);
    bystanders_init(a, jni, thread);
    a->main_thread = (*jni)->NewGlobalRef(jni, thread); /* how the JVM ended: on_vm_death */
    if (a->main_thread == NULL)
        agent_fail(a, "cannot keep a reference to the main thread");
    progress_start(a);
    if (jvmti_check(a, (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_PREPARE, NULL),
                    "SetEventNotificationMode(CLASS_PREPARE)") != 0 ||
        jvmti_check(a, (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, NULL),
                    "SetEventNotificationMode(THREAD_START)") != 0 ||
        jvmti_check(a, (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_THREAD_END, NULL),
                    "SetEventNotificationMode(THREAD_END)") != 0)
        return;
    jint n = 0;
    jclass *classes = NULL;
    if (jvmti_check(a, (*jvmti)->GetLoadedClasses(jvmti, &n, &classes), "GetLoadedClasses") != 0)
        return;
    for (jint i = 0; i < n; i++) {
        if (!a->class_seen)
            target_check_class(a, jni, classes[i], clinit_target_prepared);
        bulk_class_prepared(a, jni, classes[i]);
        (*jni)->DeleteLocalRef(jni, classes[i]);
    }
    jvmti_free(a, classes);
}

/* The first invocation that ended by exception, or NULL. */
static const invocation *first_thrown(const agent *a)
{
    for (uint32_t i = 0; i < a->ninvocations; i++)
        if (strcmp(a->invocations[i].end, "exception") == 0)
            return &a->invocations[i];
    return NULL;
}

/*
 * The run's status word, most important first: the program's code the fast
 * engine saw run hidden from stepping, the fast engine's fallback,
 * a limit that stopped the program, a fault of the agent, the target not
 * found or not invoked, the JVM ending inside the method, an exception
 * escaping it, else ok.
 */
static void status_of(agent *a, const char **status, const char **message, char *buf, size_t cap)
{
    *message = NULL;
    if (a->fast.hidden_work[0] != '\0') {
        *status = "hidden_work"; /* the step engine would not see it: never a fallback */
        *message = a->fast.hidden_work;
        return;
    }
    if (a->engine->fallback != NULL && (*message = a->engine->fallback(a, buf, cap)) != NULL) {
        *status = "fallback";
        return;
    }
    int incomplete = 0;
    for (uint32_t i = 0; i < a->ninvocations; i++)
        incomplete |= strcmp(a->invocations[i].end, "incomplete") == 0;
    const invocation *thrown = first_thrown(a);
    if (a->stop_status != NULL) {
        *status = a->stop_status;
        *message = a->stop_message;
    } else if (a->error[0] != '\0') {
        *status = "agent_error";
        *message = a->error;
    } else if (!a->class_seen) {
        *status = "class_not_loaded";
        char cls[512];
        name_binary(a->spec.class_internal, strlen(a->spec.class_internal), cls, sizeof cls);
        snprintf(buf, cap, "class %s was never loaded: check the class path and the spelling (nested classes as Outer$Inner)",
                 cls);
        *message = buf;
    } else if (a->ambiguous) {
        *status = "ambiguous_method";
        snprintf(buf, cap, "%s names %d overloads: add a descriptor, e.g. %s%s", a->opts.method, a->ncandidates,
                 a->opts.method, a->ncandidates > 0 ? a->candidates[0] : "(...)");
        *message = buf;
    } else if (!a->method_found) {
        *status = "method_not_found";
        if (a->target_problem[0] != '\0')
            *message = a->target_problem;
        else {
            snprintf(buf, cap, "the class was loaded but has no method %s", a->opts.method);
            *message = buf;
        }
    } else if (a->ninvocations == 0) {
        *status = "not_invoked";
        snprintf(buf, cap, "%s exists but was never invoked", a->opts.method);
        *message = buf;
    } else if (incomplete) {
        *status = a->exit_kind != NULL ? a->exit_kind : "incomplete";
        *message = a->exit_kind == NULL ? "the JVM ended while the method was still running (another thread ended it)"
                   : strcmp(a->exit_kind, "halt_in_method") == 0 ? "the method called Runtime.halt"
                                                                   : "the method called System.exit";
    } else if (a->bystander[0] != '\0') {
        *status = "hidden_threads";
        *message = a->bystander;
    } else if (thrown != NULL) {
        const char *ex = thrown->exception ? thrown->exception : "an exception";
        *status = strcmp(ex, "java.lang.StackOverflowError") == 0 ? "stack_overflow"
                  : strcmp(ex, "java.lang.OutOfMemoryError") == 0 ? "out_of_memory"
                                                                   : "exception";
        snprintf(buf, cap, "%s escaped the method (invocation %u)", ex, (unsigned)(thrown - a->invocations) + 1);
        *message = buf;
    } else {
        *status = "ok";
    }
}

/* Decide the status and write the result, once: the first caller (VMDeath,
 * or a limit stop through a->hooks.finish) writes it; callbacks return at
 * once from then on. 1 when this call wrote it. */
static int result_finish(agent *a, JNIEnv *jni)
{
    lock_enter(a);
    int first = !a->result_written;
    a->result_written = 1;
    a->dead = 1; /* callbacks from here on return at once */
    lock_exit(a);
    if (!first)
        return 0;
    counting_quiesce(a);
    /* Another thread can still be inside a callback that began before
     * `dead` was set: a limit stop comes from one thread while others
     * count (a virtual thread's carrier stops the run while main is still
     * reading a new method). The tables such a callback grows are grown
     * under the lock, so the result is built under it too; building it
     * beside a growing method table crashed the JVM. */
    lock_enter(a);
    counting_finish(a, jni);
    const char *status, *message;
    char buf[2048];
    status_of(a, &status, &message, buf, sizeof buf);
    profile_write(a, status, message);
    lock_exit(a);
    return 1;
}

/* Is frame f's class one of java.lang's Runtime, System and Shutdown (the
 * boot loader's: no other loader may define a java.* class)? Its method's
 * name goes to *name (Deallocate it); -1 when JVMTI cannot say. */
static int exit_frame(agent *a, JNIEnv *jni, jmethodID m, jclass *klass, char **name, char **desc, char **csig)
{
    jvmtiEnv *jv = a->jvmti;
    if (jvmti_check(a, (*jv)->GetMethodName(jv, m, name, desc, NULL), "GetMethodName") != 0 ||
        jvmti_check(a, (*jv)->GetMethodDeclaringClass(jv, m, klass), "GetMethodDeclaringClass") != 0 ||
        jvmti_check(a, (*jv)->GetClassSignature(jv, *klass, csig, NULL), "GetClassSignature") != 0)
        return -1;
    jobject loader = NULL;
    if (jvmti_check(a, (*jv)->GetClassLoader(jv, *klass, &loader), "GetClassLoader") != 0)
        return -1;
    if (loader != NULL) {
        (*jni)->DeleteLocalRef(jni, loader);
        return 0;
    }
    return strcmp(*csig, "Ljava/lang/Runtime;") == 0 || strcmp(*csig, "Ljava/lang/System;") == 0 ||
           strcmp(*csig, "Ljava/lang/Shutdown;") == 0;
}

/*
 * How the JVM ended, into a->end, from the thread VMDeath is posted on:
 * Runtime.exit and Runtime.halt post it on the thread that called them,
 * inside their frames; the launcher's DestroyJavaVM (main returned or
 * threw, and the last other non-daemon thread ended) posts it on a thread
 * with no Java frame. The caller is the first frame below java.lang's
 * Runtime, System and Shutdown frames; `entry` says that it is the bottom
 * frame of the main thread, i.e. the program's entry method itself. The
 * program cannot reach any of this: a judge (scripts/lib/judge.sh) reads
 * it to know whose code ended the run whose output it judges.
 */
static void record_end(agent *a, JNIEnv *jni)
{
    jvmtiEnv *jv = a->jvmti;
    jvmtiFrameInfo frames[16];
    jint n = 0, depth = 0;
    jthread self = NULL;
    const char *by = "other";
    char thread[sizeof a->end.thread] = "", caller[sizeof a->end.caller] = "";
    int entry = 0, below = -1;
    if (jvmti_check(a, (*jv)->GetCurrentThread(jv, &self), "GetCurrentThread") != 0 ||
        jvmti_check(a, (*jv)->GetFrameCount(jv, self, &depth), "GetFrameCount") != 0 ||
        jvmti_check(a, (*jv)->GetStackTrace(jv, self, 0, 16, frames, &n), "GetStackTrace") != 0)
        return;
    if (depth == 0)
        by = "return";
    for (jint i = 0; i < n && below < 0; i++) {
        char *name = NULL, *desc = NULL, *csig = NULL;
        jclass k = NULL;
        int lang = exit_frame(a, jni, frames[i].method, &k, &name, &desc, &csig);
        if (lang == 1 && strcmp(csig, "Ljava/lang/Runtime;") == 0 && strcmp(name, "exit") == 0)
            by = "exit";
        else if (lang == 1 && strcmp(csig, "Ljava/lang/Runtime;") == 0 && strcmp(name, "halt") == 0 &&
                 strcmp(by, "exit") != 0)
            by = "halt";
        else if (lang == 0) {
            char cls[1024];
            char *full = method_full_name(csig, name, desc, cls, sizeof cls);
            snprintf(caller, sizeof caller, "%s", full ? full : "?");
            free(full);
            below = i;
        }
        char *held[] = {name, desc, csig};
        for (size_t h = 0; h < sizeof held / sizeof held[0]; h++)
            if (held[h] != NULL)
                jvmti_free(a, held[h]);
        if (k != NULL)
            (*jni)->DeleteLocalRef(jni, k);
        if (lang < 0)
            return;
    }
    if (depth > 0) {
        char *t = thread_name(a, jni, self);
        snprintf(thread, sizeof thread, "%s", t ? t : "?");
        free(t);
        entry = below >= 0 && below == depth - 1 && a->main_thread != NULL &&
                (*jni)->IsSameObject(jni, self, a->main_thread);
    }
    (*jni)->DeleteLocalRef(jni, self);
    lock_enter(a);
    if (!a->result_written) {
        a->end.by = by;
        memcpy(a->end.thread, thread, sizeof thread);
        memcpy(a->end.caller, caller, sizeof caller);
        a->end.entry = entry;
    }
    lock_exit(a);
}

/* VMDeath: the result goes out, unless a limit stop sent it already. */
static void JNICALL on_vm_death(jvmtiEnv *jvmti, JNIEnv *jni)
{
    agent *a = &g_agent;
    (void)jvmti;
    if (!a->result_written)
        record_end(a, jni);
    (void)result_finish(a, jni);
    a->dead = 1;
}

/* Launcher options that take the next word as their value. */
static int takes_value(const char *w)
{
    static const char *const opts[] = {"-cp", "-classpath", "--class-path", "-p", "--module-path",
                                       "--upgrade-module-path", "--add-modules", "--limit-modules",
                                       "--add-reads", "--add-exports", "--add-opens", "--patch-module",
                                       "--enable-native-access", "--source"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (strcmp(w, opts[i]) == 0)
            return 1;
    return 0;
}

/* The JVM's -X options (deterministic: no paths), from the command line up
 * to the main class (the program's own arguments are not the JVM's) and the
 * environment variables the launcher reads. Sets *tlab_off when the last
 * -XX:[+-]UseTLAB says off. */
static char *read_vm_flags(int *tlab_off)
{
    size_t cap = 1024, len = 0;
    char *out = calloc(cap, 1);
    if (out == NULL)
        return NULL;
    char raw[65536];
    size_t n = 0;
    const char *env = getenv("JAVA_TOOL_OPTIONS");
    if (env != NULL && strlen(env) < sizeof raw - 1) {
        /* split on spaces into NUL-separated words */
        for (const char *p = env; *p; p++)
            raw[n++] = *p == ' ' ? '\0' : *p;
        raw[n++] = '\0';
    }
    size_t cmdline = n; /* where the command line's words begin: argv[0] */
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (f != NULL) {
        n += fread(raw + n, 1, sizeof raw - n - 1, f);
        fclose(f);
    }
    raw[n] = '\0';
    *tlab_off = 0;
    int skip = 0;
    for (size_t i = 0; i < n; i += strlen(raw + i) + 1) {
        const char *w = raw + i;
        if (i >= cmdline) {
            if (i == cmdline || skip) { /* the launcher's path, an option's value */
                skip = 0;
                continue;
            }
            if (w[0] != '-' || strcmp(w, "-jar") == 0 || strcmp(w, "-m") == 0 || strcmp(w, "--module") == 0 ||
                strncmp(w, "--module=", 9) == 0)
                break; /* the main class: what follows is the program's */
            skip = takes_value(w);
        }
        if (strncmp(w, "-X", 2) != 0)
            continue;
        if (strcmp(w, "-XX:-UseTLAB") == 0)
            *tlab_off = 1;
        else if (strcmp(w, "-XX:+UseTLAB") == 0)
            *tlab_off = 0;
        size_t wl = strlen(w);
        if (len + wl + 2 > cap) {
            while (len + wl + 2 > cap)
                cap *= 2;
            char *grown = realloc(out, cap);
            if (grown == NULL)
                break;
            out = grown;
        }
        if (len > 0)
            out[len++] = ' ';
        memcpy(out + len, w, wl + 1);
        len += wl;
    }
    char *clean = utf8_dup(out); /* command-line bytes need not be UTF-8, nor XML-safe */
    free(out);
    return clean;
}

/* A malloc'd copy of a JVM system property, or NULL. */
static char *system_property(agent *a, const char *name)
{
    char *v = NULL;
    if ((*a->jvmti)->GetSystemProperty(a->jvmti, name, &v) != JVMTI_ERROR_NONE)
        return NULL;
    return xstrdup_jvmti(a, v);
}

/* The calls that go up the agent's layers (agent.h, struct agent_hooks),
 * all set here, before any event can use them. */
static void wire_hooks(agent *a)
{
    a->hooks.pre_begin = pre_extent_begin;
    a->hooks.pre_end = pre_extent_end;
    a->hooks.arraycopy = counting_arraycopy;
    a->hooks.elements = counting_charge_elements;
    a->hooks.finish = result_finish;
    a->hooks.stop = limit_stop;
}

/* Capabilities, the callback table and the global events; JNI_OK, or
 * JNI_ERR (reported). */
static jint setup_jvmti(agent *a, JavaVM *vm)
{
    jvmtiEnv *jv = a->jvmti;
    jvmtiCapabilities caps;
    memset(&caps, 0, sizeof caps);
    caps.can_generate_single_step_events = 1;
    caps.can_generate_breakpoint_events = 1;
    caps.can_generate_frame_pop_events = 1;
    caps.can_get_bytecodes = 1;
    caps.can_get_line_numbers = 1;   /* profile.c: the profile's lines */
    caps.can_get_constant_pool = 1;
    caps.can_tag_objects = 1;
    caps.can_generate_sampled_object_alloc_events = 1;
    caps.can_generate_exception_events = 1;
    caps.can_access_local_variables = 1;
    caps.can_generate_native_method_bind_events = 1;
    caps.can_generate_early_vmstart = 1; /* VMStart before java.base boots: the virtual clock (natives.c) */
    caps.can_get_thread_cpu_time = 1;
    caps.can_generate_monitor_events = 1;      /* sched.c: where counted threads block on monitors */
    caps.can_get_monitor_info = 1;             /* sched.c: a monitor's owner and wait set */
    caps.can_get_current_contended_monitor = 1; /* sched.c: the JVM's own waits */
    caps.can_generate_garbage_collection_events = 1; /* gcrefs.c: collections while an extent runs */
    a->engine->capabilities(a, vm, &caps); /* step: method entries (linkage.c); fast: retransformation */
    if (jvmti_check(a, (*jv)->AddCapabilities(jv, &caps), "AddCapabilities") != 0)
        return JNI_ERR;

    wire_hooks(a);
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.VMStart = on_vm_start;
    cb.VMInit = on_vm_init;
    cb.VMDeath = on_vm_death;
    cb.ClassPrepare = on_class_prepare;
    cb.Breakpoint = on_breakpoint;
    cb.SingleStep = on_single_step;
    cb.MethodEntry = linkage_method_entry;
    cb.FramePop = on_frame_pop;
    cb.SampledObjectAlloc = on_sampled_alloc;
    cb.Exception = on_exception;
    cb.ExceptionCatch = on_exception_catch;
    cb.ThreadStart = on_thread_start;
    cb.ThreadEnd = on_thread_end;
    cb.NativeMethodBind = on_native_bind;
    cb.MonitorWait = sched_monitor_wait;
    cb.MonitorWaited = sched_monitor_waited;
    cb.MonitorContendedEnter = sched_monitor_contended_enter;
    cb.MonitorContendedEntered = sched_monitor_contended_entered;
    cb.GarbageCollectionFinish = gcrefs_gc_finish;
    cb.ClassFileLoadHook = a->engine->class_file_load; /* enabled by the engine's start at VMInit */
    if (jvmti_check(a, (*jv)->SetEventCallbacks(jv, &cb, (jint)sizeof cb), "SetEventCallbacks") != 0)
        return JNI_ERR;
    /* Global: VM life cycle and the breakpoint. SingleStep, FramePop and
     * SampledObjectAlloc are switched on per thread, only inside an extent. */
    if (jvmti_check(a, (*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, JVMTI_EVENT_VM_START, NULL), "SetEventNotificationMode(VM_START)") != 0 ||
        jvmti_check(a, (*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL), "SetEventNotificationMode(VM_INIT)") != 0 ||
        jvmti_check(a, (*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL), "SetEventNotificationMode(VM_DEATH)") != 0 ||
        jvmti_check(a, (*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, JVMTI_EVENT_BREAKPOINT, NULL), "SetEventNotificationMode(BREAKPOINT)") != 0 ||
        jvmti_check(a, (*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, JVMTI_EVENT_NATIVE_METHOD_BIND, NULL),
                    "SetEventNotificationMode(NATIVE_METHOD_BIND)") != 0 ||
        jvmti_check(a, (*jv)->SetHeapSamplingInterval(jv, 0), "SetHeapSamplingInterval") != 0 ||
        jvmti_check(a, (*jv)->CreateRawMonitor(jv, "psf-agent", &a->lock), "CreateRawMonitor") != 0 ||
        sched_init(a) != 0)
        return JNI_ERR;
    return JNI_OK;
}

/* Parse the options, read the key and the JVM's flags, and set up JVMTI;
 * JNI_ERR (the reason on stderr and the result channel) on bad options. */
JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    agent *a = &g_agent;
    (void)reserved;
    memset(a, 0, sizeof *a);
    atomic_init(&a->counted, 0);
    if ((*vm)->GetEnv(vm, (void **)&a->jvmti, JVMTI_VERSION_11) != JNI_OK || a->jvmti == NULL) {
        fprintf(stderr, "psf-agent: this JVM offers no JVMTI 11 environment (JDK 11 or newer is needed)\n");
        return JNI_ERR;
    }
    char err[1024];
    int bad = agent_options_parse(&a->opts, options, err, sizeof err) != 0;
    a->engine = engine_select(&a->opts); /* the one test of engine= */
    /* the key first: whatever goes wrong next is reported on the result channel */
    if (!bad && result_init(a, err, sizeof err) != 0)
        bad = 1;
    if (!bad && method_spec_parse(&a->spec, a->opts.method, err, sizeof err) != 0)
        bad = 1;
    int tlab_off = 0;
    a->vm_flags = read_vm_flags(&tlab_off);
    a->vm_version = system_property(a, "java.vm.version");
    a->vm_vendor = system_property(a, "java.vm.vendor");
    a->vm_info = system_property(a, "java.vm.info");
    a->java_home = system_property(a, "java.home");
    if (!bad && !tlab_off) {
        snprintf(err, sizeof err, "the JVM must run with -XX:-UseTLAB: only then is every array allocation reported, "
                                  "which exact array sizes need");
        bad = 1;
    }
    if (bad) {
        fprintf(stderr, "psf-agent: %s\n", err);
        if (a->opts.out != NULL || a->key_page != NULL) /* tell the caller why, where it waits */
            profile_write(a, "bad_options", err);
        return JNI_ERR;
    }
    return setup_jvmti(a, vm);
}

/*
 * The JVM unloads the agent while it shuts down, and threads it has not
 * stopped yet (daemon threads: a parallel stream's workers) can still be
 * inside a callback that began before VMDeath, reading their thread state,
 * the method tables and the options. So nothing they can reach is freed:
 * the process is ending and takes it all (freeing it cost 4 ms of every
 * run, and freeing it under a running callback crashed the JVM at exit,
 * after the result was sent). Only the result key is wiped.
 */
JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *vm)
{
    (void)vm;
    result_free(&g_agent);
}
