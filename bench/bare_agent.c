/*
 * bare_agent.c - the baseline for bench/step_overhead.sh: the cheapest agent
 * that single-steps the same extent as PSF's (breakpoint at the target's
 * offset 0, SingleStep and FramePop for that thread until the outermost
 * frame pops) and only increments a counter per step.
 *
 * Options: "Class.method" (binary class name, no descriptor). It prints the
 * count at VM death so the benchmark can check both agents stepped alike.
 */
#include <jvmti.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jvmtiEnv *jv;
static char class_sig[512], method_name[256];
static jmethodID target;
static _Thread_local int depth_active;
static uint64_t steps;

static void JNICALL on_step(jvmtiEnv *e, JNIEnv *j, jthread t, jmethodID m, jlocation l)
{
    (void)e; (void)j; (void)t; (void)m; (void)l;
    steps++;
}

static void JNICALL on_breakpoint(jvmtiEnv *e, JNIEnv *j, jthread t, jmethodID m, jlocation l)
{
    (void)j; (void)l;
    if (m != target || depth_active)
        return;
    depth_active = 1;
    (*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_FRAME_POP, t);
    (*e)->NotifyFramePop(e, t, 0);
    (*e)->SetEventNotificationMode(e, JVMTI_ENABLE, JVMTI_EVENT_SINGLE_STEP, t);
    steps++;
}

static void JNICALL on_frame_pop(jvmtiEnv *e, JNIEnv *j, jthread t, jmethodID m, jboolean x)
{
    (void)j; (void)x;
    if (m != target)
        return;
    (*e)->SetEventNotificationMode(e, JVMTI_DISABLE, JVMTI_EVENT_SINGLE_STEP, t);
    (*e)->SetEventNotificationMode(e, JVMTI_DISABLE, JVMTI_EVENT_FRAME_POP, t);
    depth_active = 0;
}

static void JNICALL on_prepare(jvmtiEnv *e, JNIEnv *j, jthread t, jclass k)
{
    (void)j; (void)t;
    char *sig;
    if ((*e)->GetClassSignature(e, k, &sig, NULL) != JVMTI_ERROR_NONE)
        return;
    if (strcmp(sig, class_sig) == 0) {
        jint n;
        jmethodID *ms;
        (*e)->GetClassMethods(e, k, &n, &ms);
        for (jint i = 0; i < n; i++) {
            char *name, *desc;
            (*e)->GetMethodName(e, ms[i], &name, &desc, NULL);
            if (strcmp(name, method_name) == 0 && target == NULL) {
                target = ms[i];
                (*e)->SetBreakpoint(e, target, 0);
            }
            (*e)->Deallocate(e, (unsigned char *)name);
            (*e)->Deallocate(e, (unsigned char *)desc);
        }
        (*e)->Deallocate(e, (unsigned char *)ms);
    }
    (*e)->Deallocate(e, (unsigned char *)sig);
}

static void JNICALL on_death(jvmtiEnv *e, JNIEnv *j)
{
    (void)e; (void)j;
    fprintf(stderr, "bare-agent steps=%llu\n", (unsigned long long)steps);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
    (void)reserved;
    const char *dot = options ? strrchr(options, '.') : NULL;
    if (dot == NULL || (*vm)->GetEnv(vm, (void **)&jv, JVMTI_VERSION_11) != JNI_OK)
        return JNI_ERR;
    snprintf(class_sig, sizeof class_sig, "L%.*s;", (int)(dot - options), options);
    for (char *p = class_sig; *p; p++)
        if (*p == '.')
            *p = '/';
    snprintf(method_name, sizeof method_name, "%s", dot + 1);
    jvmtiCapabilities c;
    memset(&c, 0, sizeof c);
    c.can_generate_single_step_events = 1;
    c.can_generate_breakpoint_events = 1;
    c.can_generate_frame_pop_events = 1;
    if (getenv("BARE_PSF_CAPS") != NULL) {
        c.can_get_bytecodes = 1;
        c.can_get_constant_pool = 1;
        c.can_tag_objects = 1;
        c.can_generate_sampled_object_alloc_events = 1;
        c.can_generate_exception_events = 1;
        c.can_access_local_variables = 1;
        c.can_generate_native_method_bind_events = 1;
    }
    if ((*jv)->AddCapabilities(jv, &c) != JVMTI_ERROR_NONE)
        return JNI_ERR;
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.SingleStep = on_step;
    cb.Breakpoint = on_breakpoint;
    cb.FramePop = on_frame_pop;
    cb.ClassPrepare = on_prepare;
    cb.VMDeath = on_death;
    (*jv)->SetEventCallbacks(jv, &cb, (jint)sizeof cb);
    (*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, JVMTI_EVENT_CLASS_PREPARE, NULL);
    (*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, JVMTI_EVENT_BREAKPOINT, NULL);
    (*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL);
    return JNI_OK;
}
