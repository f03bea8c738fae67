/*
 * start.c - the step engine's start at VMInit: what the fast engine's
 * start does to the JVM, without the probes.
 *
 * The step engine counts by single-stepping and needs no class rewritten.
 * But HotSpot draws identity hash codes from a per-thread sequence, and
 * the JVM's own work for a class whose bytes a ClassFileLoadHook handed
 * back (its parsing and verification, instead of the CDS archive's copy)
 * draws codes on the threads that do it. The fast engine
 * hands back the bytes of every class with bytecode; were the step engine
 * to hand back none, the program's main thread would reach main() at
 * another place of its sequence under each engine, and a program whose
 * count depends on identity hash codes drawn before the method (a Set.of
 * of enum constants) would count differently (docs/fast-engine.md,
 * "Identity hash codes"). So the step engine's start does what the fast
 * engine's does, on an agent thread of its own while the main thread
 * waits (startup.c): it enables the ClassFileLoadHook and retransforms
 * every modifiable class with bytecode loaded so far, and from then on
 * the hook hands back an unchanged copy of every class with bytecode, as
 * the fast engine hands back its rewriting. The classes' code is the
 * same, so nothing the step engine counts changes but what identity hash
 * codes decide.
 */
#include "classfile.h"
#include "engine.h"
#include "jvmti_util.h"
#include "start.h"
#include "startup.h"

#include <stdlib.h>
#include <string.h>

/* 1 when the class file has a method with bytecode: the fast engine hands
 * back its rewriting of such a class (fast/registry.c) and keeps the bytes
 * of any other; 0 for one that cannot be read, which it keeps too. */
static int has_bytecode(const unsigned char *data, jint len)
{
    classfile cf;
    char err[128];
    if (cf_parse(&cf, data, (size_t)len, err, sizeof err) != 0)
        return 0;
    int code = 0;
    for (uint16_t i = 0; i < cf.method_count && !code; i++)
        code = cf.methods[i].code != NULL;
    cf_free(&cf);
    return code;
}

/* ClassFileLoadHook: a class with bytecode gets an unchanged copy of its
 * bytes back. */
void JNICALL step_class_file_load(jvmtiEnv *jvmti, JNIEnv *jni, jclass redefined, jobject loader, const char *name,
                                  jobject domain, jint len, const unsigned char *data, jint *new_len,
                                  unsigned char **new_data)
{
    agent *a = &g_agent;
    (void)jni; (void)redefined; (void)loader; (void)name; (void)domain;
    if (a->dead || len <= 0 || !has_bytecode(data, len))
        return;
    unsigned char *out = NULL;
    if (jvmti_check(a, (*jvmti)->Allocate(jvmti, (jlong)len, &out), "Allocate") == 0) {
        memcpy(out, data, (size_t)len);
        *new_data = out;
        *new_len = len;
    }
}

/* On psf-start: the hook from now on, and the classes loaded so far
 * retransformed (those the fast engine retransforms: fast/boot.c). */
static void step_boot(agent *a, JNIEnv *jni, void *arg)
{
    jvmtiEnv *jv = a->jvmti;
    (void)arg;
    if (jvmti_check(a, (*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL),
                    "SetEventNotificationMode(CLASS_FILE_LOAD_HOOK)") != 0)
        return;
    jint n = 0;
    jclass *classes = NULL;
    if (jvmti_check(a, (*jv)->GetLoadedClasses(jv, &n, &classes), "GetLoadedClasses") != 0)
        return;
    jclass *todo = malloc((n ? (size_t)n : 1) * sizeof *todo);
    jint ntodo = 0;
    if (todo == NULL)
        agent_fail(a, "out of memory for the classes to retransform");
    for (jint i = 0; todo != NULL && i < n; i++) {
        jboolean ok = JNI_FALSE;
        if ((*jv)->IsModifiableClass(jv, classes[i], &ok) == JVMTI_ERROR_NONE && ok &&
            class_has_code(a, classes[i]))
            todo[ntodo++] = classes[i];
    }
    if (ntodo > 0)
        jvmti_check(a, (*jv)->RetransformClasses(jv, ntodo, todo), "RetransformClasses");
    agent_log(a, "step engine: %d classes loaded before VMInit retransformed unchanged", (int)ntodo);
    free(todo);
    for (jint i = 0; i < n; i++)
        (*jni)->DeleteLocalRef(jni, classes[i]);
    jvmti_free(a, classes);
}

void step_vm_init(agent *a, JNIEnv *jni)
{
    agent_thread_run(a, jni, "psf-start", step_boot, NULL);
}

void step_capabilities_start(jvmtiCapabilities *caps)
{
    caps->can_retransform_classes = 1; /* the classes loaded before VMInit, as the fast engine's start */
}
