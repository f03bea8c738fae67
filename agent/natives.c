/*
 * natives.c - native methods the agent takes over at VMInit.
 *
 * System.arraycopy does its work outside bytecode, so counting alone would
 * make copying a million elements as cheap as copying one; the agent binds
 * the method to a wrapper that adds the length to its dependency key and
 * calls the JVM's own implementation (JVM_ArrayCopy, exported by libjvm).
 *
 * With clock=virtual, System.nanoTime and System.currentTimeMillis read a
 * per-thread virtual clock instead: it starts at the same value in every
 * run and advances 1 microsecond per read, so time-seeded randomness
 * (new Random(), Math.random, ThreadLocalRandom, Collections.shuffle) and
 * clock-driven code behave the same in every run. currentTimeMillis starts
 * at 2020-01-01T00:00:00Z. Compiled code normally inlines both clocks; the
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
 * run work outside the JVM where no bytecode is counted.
 */
#define _GNU_SOURCE
#include "agent.h"

#include <dlfcn.h>
#include <string.h>

typedef void(JNICALL *arraycopy_fn)(JNIEnv *, jclass, jobject, jint, jobject, jint, jint);

static arraycopy_fn real_arraycopy;

#define VCLOCK_STEP_NS 1000LL
#define VCLOCK_NANO_BASE 1000000000000LL
#define VCLOCK_EPOCH_MS 1577836800000LL

static _Thread_local long long vclock_ns __attribute__((tls_model("initial-exec")));

static void JNICALL psf_arraycopy(JNIEnv *env, jclass cls, jobject src, jint src_pos, jobject dst, jint dst_pos,
                                  jint length)
{
    real_arraycopy(env, cls, src, src_pos, dst, dst_pos, length);
    thread_state *ts = current_thread_state();
    if (ts != NULL && ts->measuring && length > 0 && !(*env)->ExceptionCheck(env))
        natives_on_arraycopy(&g_agent, ts, length);
}

static jlong JNICALL psf_nano_time(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    vclock_ns += VCLOCK_STEP_NS;
    return VCLOCK_NANO_BASE + vclock_ns;
}

static jlong JNICALL psf_current_millis(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    vclock_ns += VCLOCK_STEP_NS;
    return VCLOCK_EPOCH_MS + vclock_ns / 1000000LL;
}

static jint JNICALL psf_deny_fork(JNIEnv *env, jobject self, jint mode, jbyteArray helper, jbyteArray prog,
                                  jbyteArray argv, jint argc, jbyteArray envv, jint envc, jbyteArray dir,
                                  jintArray fds, jboolean redirect)
{
    (void)self; (void)mode; (void)helper; (void)prog; (void)argv; (void)argc;
    (void)envv; (void)envc; (void)dir; (void)fds; (void)redirect;
    jclass io = (*env)->FindClass(env, "java/io/IOException");
    if (io != NULL)
        (*env)->ThrowNew(env, io, "starting processes is not allowed while PSF scores a method");
    return -1;
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
    jclass err = (*env)->FindClass(env, "java/lang/UnsatisfiedLinkError");
    if (err != NULL)
        (*env)->ThrowNew(env, err, "loading native libraries is not allowed while PSF scores a method");
    return JNI_FALSE;
}

void JNICALL on_native_bind(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method, void *address,
                            void **new_address)
{
    agent *a = &g_agent;
    (void)jni; (void)thread;
    if (!a->opts.deny_processes)
        return;
    char *name = NULL, *sig = NULL;
    jclass k = NULL;
    if ((*jvmti)->GetMethodName(jvmti, method, &name, NULL, NULL) != JVMTI_ERROR_NONE)
        return;
    if ((strcmp(name, "forkAndExec") == 0 || strcmp(name, "load") == 0) &&
        (*jvmti)->GetMethodDeclaringClass(jvmti, method, &k) == JVMTI_ERROR_NONE &&
        (*jvmti)->GetClassSignature(jvmti, k, &sig, NULL) == JVMTI_ERROR_NONE) {
        if (strcmp(name, "forkAndExec") == 0 && strcmp(sig, "Ljava/lang/ProcessImpl;") == 0) {
            *new_address = (void *)psf_deny_fork;
        } else if (strcmp(name, "load") == 0 && strcmp(sig, "Ljdk/internal/loader/NativeLibraries;") == 0) {
            real_native_load = (native_load_fn)address;
            *new_address = (void *)psf_native_load;
        }
    }
    if (sig != NULL)
        (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)name);
}

void natives_bind(agent *a, JNIEnv *jni)
{
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
        {"nanoTime", "()J", (void *)psf_nano_time},
        {"currentTimeMillis", "()J", (void *)psf_current_millis},
    };
    jclass system = (*jni)->FindClass(jni, "java/lang/System");
    if (system == NULL || (*jni)->RegisterNatives(jni, system, methods, a->opts.virtual_clock ? 3 : 1) != 0) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "cannot re-bind the natives of java.lang.System");
    }
}
