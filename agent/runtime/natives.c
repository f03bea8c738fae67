/*
 * natives.c - native methods the agent takes over at VMInit.
 *
 * System.arraycopy does its work outside bytecode, so counting alone would
 * make copying a million elements as cheap as copying one; the agent binds
 * the method to a wrapper that calls the JVM's own implementation
 * (JVM_ArrayCopy, exported by libjvm) and hands the length to step/arrays.c
 * (a->hooks.arraycopy), which adds it to the dependency key.
 *
 * With clock=virtual, System.nanoTime and System.currentTimeMillis read a
 * per-thread virtual clock instead: it starts at the same value in every
 * run and advances 1 microsecond per read, so time-seeded randomness
 * (new Random(), Math.random, ThreadLocalRandom, Collections.shuffle) and
 * clock-driven code behave the same in every run. currentTimeMillis starts
 * at 2020-01-01T00:00:00Z; so does the wall clock behind java.time
 * (Instant.now(), Clock.systemUTC(): jdk.internal.misc.VM's
 * getNanoTimeAdjustment). Compiled code normally inlines both clocks; the
 * JVM must run with -XX:DisableIntrinsic=_nanoTime,_currentTimeMillis so
 * that every read comes here (get_score.sh passes it).
 *
 * The JVM binds System's natives before the agent can see NativeMethodBind
 * events, so the wrappers are installed with RegisterNatives, which the JNI
 * specification allows for re-binding.
 *
 * With processes=deny, java.lang.ProcessImpl.forkAndExec (bound lazily, on
 * first use, so NativeMethodBind sees it) is bound to a function that throws
 * IOException: a submission cannot start programs, fork-bomb the machine or
 * run work outside the JVM where no bytecode is counted. In the same mode
 * the diagnostic commands of the platform MBean server
 * (com.sun.management:type=DiagnosticCommand, what jcmd runs) are refused,
 * all but "help" (the MBean describes itself with it): JVMTI.agent_load
 * would load a JVMTI or Java agent into the JVM from inside the program
 * (dlopen past the native-library check below), VM.start_java_debugging a
 * debugger back end; either could rewrite the counters or redefine the
 * measured class. And classes may be defined only by the JDK's own loaders
 * (the boot, platform and application loaders, reflection's delegating
 * loaders): the JVM calls a class's defining loader to resolve the classes
 * it names while it hides single-stepping, so a loader of the program's own
 * (or a URLClassLoader reading through a URL handler of its own) would run
 * the program's code uncounted.
 *
 * In the same mode sun.misc.Unsafe is disarmed at VMInit: its two static
 * fields, the instance reflection hands out (theUnsafe) and the JDK-internal
 * Unsafe every one of its methods calls (theInternalUnsafe), are set to
 * null, so however the program gets hold of an instance (the field, its
 * private constructor, a method handle) each call throws
 * NullPointerException instead of reading or writing memory at an address:
 * the agent's counters and the result key live in the same process. No JDK
 * module the program can reach uses sun.misc.Unsafe (they use the internal
 * one, which java.base does not open).
 */
#define _GNU_SOURCE
#include "agent.h"
#include "bulk.h"
#include "bystanders.h"
#include "engine.h"
#include "jvmti_util.h"
#include "keys.h"
#include "natives.h"
#include "pervalues.h"
#include "scheduler.h"
#include "vclock.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef void(JNICALL *arraycopy_fn)(JNIEnv *, jclass, jobject, jint, jobject, jint, jint);

static arraycopy_fn real_arraycopy;

#define VCLOCK_NANO_BASE 1000000000000LL
#define VCLOCK_EPOCH_MS 1577836800000LL

/* System.arraycopy: the JVM's copy, then its length to step/arrays.c. */
static void JNICALL psf_arraycopy(JNIEnv *env, jclass cls, jobject src, jint src_pos, jobject dst, jint dst_pos,
                                  jint length)
{
    real_arraycopy(env, cls, src, src_pos, dst, dst_pos, length);
    g_agent.hooks.arraycopy(&g_agent, env, length); /* step/arrays.c charges it */
    /* on a stepped bystander, to the bystanders' allowance (the fast
     * engine's copy probes report compiled copies, which skip this) */
    if (g_agent.engine->steps && length > 0)
        bystanders_native(&g_agent, env, (uint64_t)length);
}

static jlong JNICALL psf_nano_time(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return VCLOCK_NANO_BASE + vclock_tick();
}

static jlong JNICALL psf_current_millis(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return VCLOCK_EPOCH_MS + vclock_tick() / 1000000LL;
}

/* VM.getNanoTimeAdjustment(offset): nanoseconds from `offset` seconds since
 * the epoch to now, or -1 when they are more than 2^32 s apart (its
 * contract), read from the virtual clock. */
static jlong JNICALL psf_nano_adjustment(JNIEnv *env, jclass cls, jlong offset_s)
{
    (void)env;
    (void)cls;
    long long now_ns = VCLOCK_EPOCH_MS * 1000000LL + vclock_tick();
    long long now_s = now_ns / 1000000000LL;
    if (offset_s < now_s - (1LL << 32) || offset_s > now_s + (1LL << 32))
        return -1;
    return now_ns - (long long)offset_s * 1000000000LL;
}

/* Refuse in the program: throw `cls` saying what is not allowed. */
static void refuse(JNIEnv *env, const char *cls, const char *what)
{
    char msg[160];
    snprintf(msg, sizeof msg, "%s not allowed while PSF scores a method", what);
    jclass k = (*env)->FindClass(env, cls);
    if (k != NULL)
        (*env)->ThrowNew(env, k, msg);
}

static jint JNICALL psf_deny_fork(JNIEnv *env, jobject self, jint mode, jbyteArray helper, jbyteArray prog,
                                  jbyteArray argv, jint argc, jbyteArray envv, jint envc, jbyteArray dir,
                                  jintArray fds, jboolean redirect)
{
    (void)self; (void)mode; (void)helper; (void)prog; (void)argv; (void)argc;
    (void)envv; (void)envc; (void)dir; (void)fds; (void)redirect;
    refuse(env, "java/io/IOException", "starting processes is");
    return -1;
}

typedef jstring(JNICALL *dcmd_fn)(JNIEnv *, jobject, jstring);
static dcmd_fn real_dcmd;

static jstring JNICALL psf_deny_dcmd(JNIEnv *env, jobject self, jstring command)
{
    const char *text = command != NULL ? (*env)->GetStringUTFChars(env, command, NULL) : NULL;
    int help = text != NULL && strncmp(text, "help", 4) == 0 && (text[4] == '\0' || text[4] == ' ');
    if (text != NULL)
        (*env)->ReleaseStringUTFChars(env, command, text);
    if (help)
        return real_dcmd(env, self, command);
    refuse(env, "java/lang/SecurityException", "diagnostic commands are");
    return NULL;
}

/* May `loader` define classes while PSF scores a method? If not, a
 * SecurityException is pending: returns 1. */
static int loader_refused(JNIEnv *env, jobject loader)
{
    agent *a = &g_agent;
    if (loader == NULL || (a->platform_loader != NULL && (*env)->IsSameObject(env, loader, a->platform_loader)) ||
        (a->system_loader != NULL && (*env)->IsSameObject(env, loader, a->system_loader)))
        return 0;
    if (a->delegating_loader != NULL && (*env)->IsInstanceOf(env, loader, a->delegating_loader))
        return 0;
    refuse(env, "java/lang/SecurityException", "class loaders of the program's own are");
    return 1;
}

typedef jclass(JNICALL *define0_fn)(JNIEnv *, jclass, jobject, jclass, jstring, jbyteArray, jint, jint, jobject,
                                     jboolean, jint, jobject);
typedef jclass(JNICALL *define1_fn)(JNIEnv *, jclass, jobject, jstring, jbyteArray, jint, jint, jobject, jstring);
typedef jclass(JNICALL *define2_fn)(JNIEnv *, jclass, jobject, jstring, jobject, jint, jint, jobject, jstring);
static define0_fn real_define0;
static define1_fn real_define1;
static define2_fn real_define2;

static jclass JNICALL psf_define0(JNIEnv *env, jclass cls, jobject loader, jclass lookup, jstring name, jbyteArray b,
                                  jint off, jint len, jobject pd, jboolean init, jint flags, jobject data)
{
    if (loader_refused(env, loader))
        return NULL;
    return real_define0(env, cls, loader, lookup, name, b, off, len, pd, init, flags, data);
}

static jclass JNICALL psf_define1(JNIEnv *env, jclass cls, jobject loader, jstring name, jbyteArray b, jint off,
                                  jint len, jobject pd, jstring source)
{
    if (loader_refused(env, loader))
        return NULL;
    return real_define1(env, cls, loader, name, b, off, len, pd, source);
}

static jclass JNICALL psf_define2(JNIEnv *env, jclass cls, jobject loader, jstring name, jobject b, jint off,
                                  jint len, jobject pd, jstring source)
{
    if (loader_refused(env, loader))
        return NULL;
    return real_define2(env, cls, loader, name, b, off, len, pd, source);
}

typedef jboolean(JNICALL *native_load_fn)(JNIEnv *, jclass, jobject, jstring, jboolean, jboolean, jboolean);
static native_load_fn real_native_load;

static jboolean JNICALL psf_native_load(JNIEnv *env, jclass cls, jobject impl, jstring name, jboolean builtin,
                                        jboolean jni, jboolean throw_if_fail)
{
    agent *a = &g_agent;
    const char *path = name != NULL ? (*env)->GetStringUTFChars(env, name, NULL) : NULL;
    size_t home = a->java_home != NULL ? strlen(a->java_home) : 0;
    int ok = builtin || (path != NULL && home > 0 && strncmp(path, a->java_home, home) == 0 && path[home] == '/');
    if (path != NULL)
        (*env)->ReleaseStringUTFChars(env, name, path);
    if (ok)
        return real_native_load(env, cls, impl, name, builtin, jni, throw_if_fail);
    refuse(env, "java/lang/UnsatisfiedLinkError", "loading native libraries is");
    return JNI_FALSE;
}

/* The signature of METHOD's declaring class, fetched on first use into *SIG
 * (NULL, and the run failed, when JVMTI cannot tell). */
static const char *declaring_sig(agent *a, jmethodID method, char **sig)
{
    jclass k = NULL;
    if (*sig == NULL &&
        (jvmti_check(a, (*a->jvmti)->GetMethodDeclaringClass(a->jvmti, method, &k), "GetMethodDeclaringClass") != 0 ||
         jvmti_check(a, (*a->jvmti)->GetClassSignature(a->jvmti, k, sig, NULL), "GetClassSignature") != 0))
        *sig = NULL;
    return *sig;
}

/* With processes=deny: the natives that start processes, load libraries,
 * run diagnostic commands or define classes go through the agent. */
static void deny_bound(const char *sig, const char *name, void *address, void **new_address)
{
    if (strcmp(name, "forkAndExec") == 0 && strcmp(sig, "Ljava/lang/ProcessImpl;") == 0) {
        *new_address = (void *)psf_deny_fork;
    } else if (strcmp(sig, "Ljava/lang/ClassLoader;") == 0 && strcmp(name, "defineClass0") == 0) {
        real_define0 = (define0_fn)address;
        *new_address = (void *)psf_define0;
    } else if (strcmp(sig, "Ljava/lang/ClassLoader;") == 0 && strcmp(name, "defineClass1") == 0) {
        real_define1 = (define1_fn)address;
        *new_address = (void *)psf_define1;
    } else if (strcmp(sig, "Ljava/lang/ClassLoader;") == 0 && strcmp(name, "defineClass2") == 0) {
        real_define2 = (define2_fn)address;
        *new_address = (void *)psf_define2;
    } else if (strcmp(name, "executeDiagnosticCommand") == 0 &&
               strcmp(sig, "Lcom/sun/management/internal/DiagnosticCommandImpl;") == 0) {
        real_dcmd = (dcmd_fn)address;
        *new_address = (void *)psf_deny_dcmd;
    } else if (strcmp(name, "load") == 0 && strcmp(sig, "Ljdk/internal/loader/NativeLibraries;") == 0) {
        real_native_load = (native_load_fn)address;
        *new_address = (void *)psf_native_load;
    }
}

void JNICALL on_native_bind(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, void *address,
                            void **new_address)
{
    agent *a = &g_agent;
    (void)jni; (void)thread;
    char *name = NULL, *desc = NULL, *sig = NULL;
    /* In the primordial phase (natives the JVM binds before VMStart) no
     * method can be named, so such a native stays as bound. */
    jvmtiError err = (*jvmti)->GetMethodName(jvmti, method, &name, &desc, NULL);
    if (err == JVMTI_ERROR_WRONG_PHASE || jvmti_check(a, err, "GetMethodName") != 0)
        return;
    /* the first that takes the native: the fast engine's watch on the
     * lookups of its probe's members (fast.c), the scheduler's (sched.c: where a
     * thread starts, blocks or wakes another), natives charged by size
     * (bulk.c), per-run values under the virtual clock (pervalues.c), the
     * sandbox's denials */
    if ((strcmp(name, "getDeclaredMethods0") == 0 || strcmp(name, "resolve") == 0) && declaring_sig(a, method, &sig) &&
        a->engine->native_bound != NULL && a->engine->native_bound(a, sig, name, address, new_address))
        goto done;
    /* ClassLoader.defineClass0: the sandbox's check, and the fast engine's
     * rewriting of hidden classes (fast/hidden.c) around it */
    if (strcmp(name, "defineClass0") == 0 && declaring_sig(a, method, &sig)) {
        if (a->opts.deny_processes)
            deny_bound(sig, name, address, new_address);
        if (a->engine->native_bound != NULL)
            a->engine->native_bound(a, sig, name, *new_address, new_address);
        goto done;
    }
    if (sched_named(name) && declaring_sig(a, method, &sig) &&
        sched_native_bound(sig, name, desc, address, new_address))
        goto done;
    if (bulk_named(name) && declaring_sig(a, method, &sig) && bulk_native_bound(sig, name, address, new_address))
        goto done;
    if (a->opts.virtual_clock && pervalues_named(name) && declaring_sig(a, method, &sig) &&
        pervalues_swap(sig, name, desc, address, new_address))
        goto done;
    if (a->opts.deny_processes &&
        (strcmp(name, "forkAndExec") == 0 || strcmp(name, "load") == 0 ||
         strcmp(name, "executeDiagnosticCommand") == 0 || strncmp(name, "defineClass", 11) == 0) &&
        declaring_sig(a, method, &sig))
        deny_bound(sig, name, address, new_address);
done:
    jvmti_free(a, sig);
    jvmti_free(a, desc);
    jvmti_free(a, name);
}

/* Disarm sun.misc.Unsafe (see the top of this file). */
static void disarm_unsafe(agent *a, JNIEnv *jni)
{
    jclass k = (*jni)->FindClass(jni, "sun/misc/Unsafe"); /* initializes it */
    if (k == NULL) {
        (*jni)->ExceptionClear(jni); /* jdk.unsupported not in the JVM: nothing to disarm */
        return;
    }
    jfieldID pub = (*jni)->GetStaticFieldID(jni, k, "theUnsafe", "Lsun/misc/Unsafe;");
    jfieldID internal = pub ? (*jni)->GetStaticFieldID(jni, k, "theInternalUnsafe", "Ljdk/internal/misc/Unsafe;") : NULL;
    if (internal == NULL) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "cannot find the fields of sun.misc.Unsafe to disarm it");
        return;
    }
    (*jni)->SetStaticObjectField(jni, k, pub, NULL);
    (*jni)->SetStaticObjectField(jni, k, internal, NULL);
}

/* At VMInit: with processes=deny, disarm Unsafe and find reflection's
 * loader; re-bind System.arraycopy (and, with clock=virtual, the clocks) to
 * the wrappers above. Failures are reported. */
void natives_bind(agent *a, JNIEnv *jni)
{
    if (a->opts.deny_processes) {
        disarm_unsafe(a, jni);
        /* Reflection's loaders may define classes (loader_refused). JDK 22
         * and later have none: reflection runs on method handles there, so
         * no instance can exist and nothing needs letting through. */
        jclass k = (*jni)->FindClass(jni, "jdk/internal/reflect/DelegatingClassLoader");
        if (k == NULL)
            (*jni)->ExceptionClear(jni);
        a->delegating_loader = k ? (*jni)->NewGlobalRef(jni, k) : NULL;
        if (k != NULL && a->delegating_loader == NULL)
            agent_fail(a, "cannot keep a reference to jdk.internal.reflect.DelegatingClassLoader");
    }
    real_arraycopy = (arraycopy_fn)dlsym(RTLD_DEFAULT, "JVM_ArrayCopy");
    if (real_arraycopy == NULL) {
        agent_fail(a, "cannot find JVM_ArrayCopy in the JVM: System.arraycopy cannot be charged by size");
        return;
    }
    lock_enter(a);
    a->arraycopy_key = keys_intern(&a->keys, KEY_INVOKE,
                                   "java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V");
    lock_exit(a);
    JNINativeMethod methods[] = {
        {"arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V", (void *)psf_arraycopy},
    };
    jclass system = (*jni)->FindClass(jni, "java/lang/System");
    if (system == NULL || (*jni)->RegisterNatives(jni, system, methods, 1) != 0) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "cannot re-bind System.arraycopy");
    }
    if (a->opts.virtual_clock)
        pervalues_bind(a, jni);
    bulk_bind(a, jni);
}

/*
 * The virtual clock goes in at VMStart, before the module system starts
 * (VMInit comes after it): the JDK seeds values from System.nanoTime while
 * it boots, among them the salt that orders the iteration of Set.of and
 * Map.of (java.util.ImmutableCollections), which would otherwise change
 * from run to run for the program and for the JDK code it calls.
 */
void natives_bind_clock(agent *a, JNIEnv *jni)
{
    if (!a->opts.virtual_clock)
        return;
    JNINativeMethod methods[] = {
        {"nanoTime", "()J", (void *)psf_nano_time},
        {"currentTimeMillis", "()J", (void *)psf_current_millis},
    };
    jclass system = (*jni)->FindClass(jni, "java/lang/System");
    if (system == NULL || (*jni)->RegisterNatives(jni, system, methods, 2) != 0) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "cannot re-bind the clocks of java.lang.System");
    }
    JNINativeMethod adjust[] = {{"getNanoTimeAdjustment", "(J)J", (void *)psf_nano_adjustment}};
    jclass vm = (*jni)->FindClass(jni, "jdk/internal/misc/VM");
    if (vm == NULL || (*jni)->RegisterNatives(jni, vm, adjust, 1) != 0) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "cannot re-bind jdk.internal.misc.VM.getNanoTimeAdjustment");
    }
}
