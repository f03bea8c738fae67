/*
 * bulk_bind.c - how the natives charged by size (bulk.c) get their
 * wrappers: each native's invoke key interned at VMInit, and the JDK's own
 * function found behind it by where it comes from (bulk.c, top): libzip's
 * bound at VMInit, libjava's and libnio's when their class is prepared,
 * those the JDK registers itself caught at NativeMethodBind. A native this
 * JDK does not declare is skipped; one it declares that cannot be bound
 * fails the run. bulk.c holds the wrappers and the table of natives.
 */
#define _GNU_SOURCE
#include "agent.h"
#include "bulk.h"
#include "bulk_impl.h"
#include "jvmti_util.h"
#include "keys.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static const char *const lib_names[] = {[LIB_ZIP] = "zip", [LIB_JAVA] = "java", [LIB_NIO] = "nio", [LIB_JVM] = "jvm"};

/* "pkg.Cls.name(sig)" of native i, with class `cls`: its invoke key's text. */
static void key_text_of(int i, const char *cls, char *text, size_t cap)
{
    const struct bulk_native *b = &bulk_natives[i];
    snprintf(text, cap, "%s.%s%s", cls, b->name, b->sig);
    for (char *c = text; *c != '\0' && *c != '('; c++)
        if (*c == '/')
            *c = '.';
}

void bulk_key_text(int i, char *text, size_t cap)
{
    key_text_of(i, bulk_natives[i].cls, text, cap);
}

/* The JDK library `lib` (loaded once; the JDK's own load later finds it
 * loaded), or NULL, reported. */
static void *lib_handle(agent *a, enum bulk_lib lib)
{
    static void *handles[LIB_JVM];
    if (handles[lib] != NULL)
        return handles[lib];
    char path[4096];
    snprintf(path, sizeof path, "%s/lib/lib%s.so", a->java_home, lib_names[lib]);
    handles[lib] = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (handles[lib] == NULL)
        agent_fail(a, "cannot load %s to charge its natives by size", path);
    return handles[lib];
}

/* Does `klass` (prepared) declare native `i` as a native method (JDKs move
 * work between Java and natives: RandomAccessFile.readBytes is Java in
 * JDK 25)? 0 no, 1 yes, -1 not prepared yet or failed (reported). Through
 * JVMTI: JNI's method lookups would initialize the class. */
static int declares(agent *a, jclass klass, int i)
{
    jint n = 0;
    jmethodID *methods = NULL;
    jvmtiError err = (*a->jvmti)->GetClassMethods(a->jvmti, klass, &n, &methods);
    if (err == JVMTI_ERROR_CLASS_NOT_PREPARED)
        return -1; /* its ClassPrepare comes later */
    if (jvmti_check(a, err, "GetClassMethods") != 0)
        return -1;
    int found = 0;
    for (jint m = 0; m < n && !found; m++) {
        char *name = NULL, *sig = NULL;
        if (jvmti_check(a, (*a->jvmti)->GetMethodName(a->jvmti, methods[m], &name, &sig, NULL), "GetMethodName") != 0)
            break;
        jint mods = 0;
        found = strcmp(name, bulk_natives[i].name) == 0 && strcmp(sig, bulk_natives[i].sig) == 0 &&
                jvmti_check(a, (*a->jvmti)->GetMethodModifiers(a->jvmti, methods[m], &mods), "GetMethodModifiers") == 0 &&
                (mods & 0x0100) != 0; /* ACC_NATIVE */
        jvmti_free(a, name);
        jvmti_free(a, sig);
    }
    jvmti_free(a, methods);
    return found;
}

/* Bind native i of `cls` to its wrapper, with the library's function behind it. */
static int bind_one(agent *a, JNIEnv *jni, jclass cls, int i)
{
    const struct bulk_native *b = &bulk_natives[i];
    char text[256];
    bulk_key_text(i, text, sizeof text);
    void *lib = lib_handle(a, b->lib);
    if (lib == NULL)
        return -1;
    void *fn = dlsym(lib, b->symbol);
    if (fn == NULL && b->registered)
        return 0; /* this JDK registers it itself: caught at NativeMethodBind (bulk_native_bound) */
    bulk_real[i] = fn;
    if (bulk_real[i] == NULL) {
        agent_fail(a, "cannot charge %s by size: %s is not in lib%s", text, b->symbol, lib_names[b->lib]);
        return -1;
    }
    JNINativeMethod m = {(char *)b->name, (char *)b->sig, b->wrapper};
    if ((*jni)->RegisterNatives(jni, cls, &m, 1) != 0) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "cannot re-bind %s", text);
        return -1;
    }
    return 0;
}

/*
 * At VMInit: intern every native's invoke key, and bind the libzip ones to
 * their wrappers, with libzip's own functions behind them. Binding before
 * the program runs (instead of when the JDK links them, on their first
 * call) matters: the first call of a native outside libjava runs the JDK's
 * library lookup (Java code) between the invoke and the native, and the
 * native could no longer tell that the invoke just counted was its own.
 * Natives whose classes are not initialized yet are bound when the class is
 * prepared (bulk_class_prepared); Unsafe's, which the JDK registers itself
 * while it boots, were caught at NativeMethodBind (bulk_native_bound): one
 * this JDK declares and the agent did not catch is a failure.
 */
void bulk_bind(agent *a, JNIEnv *jni)
{
    if (a->java_home == NULL) {
        agent_fail(a, "cannot charge natives by size: java.home is unknown");
        return;
    }
    jclass fdc = (*jni)->FindClass(jni, "java/io/FileDescriptor"); /* initialized while the JDK booted */
    bulk_fd_int = fdc != NULL ? (*jni)->GetFieldID(jni, fdc, "fd", "I") : NULL;
    if (bulk_fd_int == NULL) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "cannot schedule I/O: no field java.io.FileDescriptor.fd");
        return;
    }
    (*jni)->DeleteLocalRef(jni, fdc);
    char text[256];
    for (int i = 0; i < BULK_COUNT; i++) {
        bulk_key_text(i, text, sizeof text);
        lock_enter(a);
        uint32_t k = keys_intern(&a->keys, KEY_INVOKE, text);
        lock_exit(a);
        if (k == 0) {
            agent_fail(a, "cannot charge %s by size: out of memory", text);
            return;
        }
        atomic_store(&bulk_key[i], k);
        if (bulk_natives[i].via != NULL) {
            key_text_of(i, bulk_natives[i].via, text, sizeof text);
            lock_enter(a);
            k = keys_intern(&a->keys, KEY_INVOKE, text);
            lock_exit(a);
            if (k == 0) {
                agent_fail(a, "cannot charge %s by size: out of memory", text);
                return;
            }
            atomic_store(&bulk_via_key[i], k);
        }
    }
    for (int i = 0; i < BULK_COUNT; i++) {
        const struct bulk_native *b = &bulk_natives[i];
        if (b->lib != LIB_ZIP && b->lib != LIB_JVM)
            continue;
        if (b->lib == LIB_JVM && bulk_real[i] != NULL)
            continue;
        jclass cls = (*jni)->FindClass(jni, b->cls);
        if (cls == NULL) {
            (*jni)->ExceptionClear(jni);
            bulk_key_text(i, text, sizeof text);
            agent_fail(a, "cannot charge %s by size: no class %s", text, b->cls);
            return;
        }
        int rc = 0;
        if (b->lib == LIB_ZIP) {
            rc = bind_one(a, jni, cls, i);
        } else if (declares(a, cls, i) != 0) {
            bulk_key_text(i, text, sizeof text);
            agent_fail(a, "cannot charge %s by size: the JDK bound it unseen", text);
            rc = -1;
        }
        (*jni)->DeleteLocalRef(jni, cls);
        if (rc != 0)
            return;
    }
}

void bulk_class_prepared(agent *a, JNIEnv *jni, jclass klass)
{
    char *sig = NULL;
    if (a->dead || a->java_home == NULL ||
        jvmti_check(a, (*a->jvmti)->GetClassSignature(a->jvmti, klass, &sig, NULL), "GetClassSignature") != 0)
        return;
    size_t len = strlen(sig);
    for (int i = 0; i < BULK_COUNT; i++) {
        const struct bulk_native *b = &bulk_natives[i];
        if ((b->lib != LIB_JAVA && b->lib != LIB_NIO) || len < 2 || strlen(b->cls) != len - 2 ||
            strncmp(sig + 1, b->cls, len - 2) != 0)
            continue;
        if (declares(a, klass, i) != 1)
            continue;
        if (i == THROW_FILL && bulk_throwable_depth == NULL) {
            /* Throwable is initialized long before VMInit: no initializer runs here */
            bulk_throwable_depth = (*jni)->GetFieldID(jni, klass, "depth", "I");
            if (bulk_throwable_depth == NULL) {
                (*jni)->ExceptionClear(jni);
                agent_fail(a, "cannot charge Throwable.fillInStackTrace by the frames: no field Throwable.depth");
                break;
            }
        }
        if (bind_one(a, jni, klass, i) != 0)
            break;
    }
    jvmti_free(a, sig);
}

int bulk_native_bound(const char *cls, const char *name, void *address, void **new_address)
{
    for (int i = 0; i < BULK_COUNT; i++) {
        const struct bulk_native *b = &bulk_natives[i];
        if ((b->lib != LIB_JVM && !b->registered) || strcmp(b->name, name) != 0 || cls[0] != 'L' ||
            strncmp(cls + 1, b->cls, strlen(b->cls)) != 0 || strcmp(cls + 1 + strlen(b->cls), ";") != 0)
            continue;
        if (address == b->wrapper)
            return 1;
        bulk_real[i] = address;
        *new_address = b->wrapper;
        return 1;
    }
    return 0;
}

int bulk_named(const char *name)
{
    for (int i = 0; i < BULK_COUNT; i++)
        if ((bulk_natives[i].lib == LIB_JVM || bulk_natives[i].registered) && strcmp(bulk_natives[i].name, name) == 0)
            return 1;
    return 0;
}
