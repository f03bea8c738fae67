/*
 * clinit.c - static initializers of the program's classes are work.
 *
 * A class is initialized by the first bytecode that needs it: new,
 * getstatic, putstatic or invokestatic. HotSpot steps an initializer that
 * `new` runs, but resolves the three static accesses with single-stepping
 * hidden, and the initializer they run, callees included, with it: work
 * placed in `static { ... }` of a helper the method touches first would run
 * uncounted.
 *
 * So at the first step on such an instruction in a method of the program
 * (a class the application class loader defined), before it executes, the
 * agent finds the class the JVM is about to initialize and, if it is one of
 * the program's and not initialized yet, initializes it itself through JNI,
 * from the step callback. HotSpot steps Java code that a SingleStep callback
 * runs like any other, so the initializer is counted, on the same thread
 * and at the same point of the program where the JVM would have run it;
 * when the instruction then executes, the class is initialized and nothing
 * is hidden. An initializer that throws leaves its ExceptionInInitializerError
 * pending: HotSpot throws it from the instruction, as it would have.
 *
 * The class the JVM initializes is the one that declares the member, not
 * necessarily the one the instruction names (`Sub.TABLE` with TABLE declared
 * in Base initializes Base only): the search below follows JVMS 5.4.3.2 for
 * fields (the class, its superinterfaces, its superclasses) and 5.4.3.3 for
 * methods (the class and its superclasses). Finding the class may load and
 * link it (Class.forName without initialization); the JVM's own resolution
 * of the instruction would load and link it at this same point, and that
 * lookup is not counted, as the JVM's resolution is not.
 *
 * Each instruction is checked once (method_info.init_site), so the step
 * path pays one byte test on these opcodes in the program's methods.
 */
#include "agent.h"
#include "bytecode.h"

#include <stdlib.h>
#include <string.h>

#define BC_PUTSTATIC 0xb3
#define SEARCH_DEPTH 64 /* class hierarchies deeper than this are not searched */

int clinit_is_trigger(uint8_t op)
{
    return op == BC_GETSTATIC || op == BC_PUTSTATIC || op == BC_INVOKESTATIC;
}

void clinit_init(agent *a, JNIEnv *jni)
{
    jclass c = (*jni)->FindClass(jni, "java/lang/Class");
    jmethodID for_name = c ? (*jni)->GetStaticMethodID(jni, c, "forName",
                                                      "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;")
                           : NULL;
    jmethodID fields = c ? (*jni)->GetMethodID(jni, c, "getDeclaredFields", "()[Ljava/lang/reflect/Field;") : NULL;
    a->class_class = c ? (*jni)->NewGlobalRef(jni, c) : NULL;
    a->class_for_name = for_name;
    a->class_declared_fields = fields;
    if (a->class_class == NULL || for_name == NULL || fields == NULL) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "cannot find java.lang.Class.forName and getDeclaredFields");
    }
}

/* Is klass defined by the application class loader (one of the program's)? */
int clinit_is_program_class(agent *a, JNIEnv *jni, jclass klass)
{
    jobject loader = NULL;
    if (a->system_loader == NULL ||
        jvmti_check(a, (*a->jvmti)->GetClassLoader(a->jvmti, klass, &loader), "GetClassLoader") != 0 ||
        loader == NULL)
        return 0;
    int yes = (*jni)->IsSameObject(jni, loader, a->system_loader);
    (*jni)->DeleteLocalRef(jni, loader);
    return yes;
}

static int same(const char *s, cp_str want)
{
    return strlen(s) == want.len && memcmp(s, want.ptr, want.len) == 0;
}

static int declares_field(agent *a, jclass k, cp_str name, cp_str desc)
{
    jvmtiEnv *jv = a->jvmti;
    jint n = 0;
    jfieldID *f = NULL;
    if (jvmti_check(a, (*jv)->GetClassFields(jv, k, &n, &f), "GetClassFields") != 0)
        return 0;
    int found = 0;
    for (jint i = 0; i < n && !found; i++) {
        char *fname = NULL, *fsig = NULL;
        if (jvmti_check(a, (*jv)->GetFieldName(jv, k, f[i], &fname, &fsig, NULL), "GetFieldName") != 0)
            continue;
        found = same(fname, name) && same(fsig, desc);
        (*jv)->Deallocate(jv, (unsigned char *)fname);
        (*jv)->Deallocate(jv, (unsigned char *)fsig);
    }
    (*jv)->Deallocate(jv, (unsigned char *)f);
    return found;
}

static int declares_method(agent *a, jclass k, cp_str name, cp_str desc)
{
    jvmtiEnv *jv = a->jvmti;
    jint n = 0;
    jmethodID *m = NULL;
    if (jvmti_check(a, (*jv)->GetClassMethods(jv, k, &n, &m), "GetClassMethods") != 0)
        return 0;
    int found = 0;
    for (jint i = 0; i < n && !found; i++) {
        char *mname = NULL, *msig = NULL;
        if (jvmti_check(a, (*jv)->GetMethodName(jv, m[i], &mname, &msig, NULL), "GetMethodName") != 0)
            continue;
        found = same(mname, name) && same(msig, desc);
        (*jv)->Deallocate(jv, (unsigned char *)mname);
        (*jv)->Deallocate(jv, (unsigned char *)msig);
    }
    (*jv)->Deallocate(jv, (unsigned char *)m);
    return found;
}

/* The class (a new local reference) that declares the field or method
 * name:desc as the JVM resolves it from k, or NULL. k is linked. */
static jclass declaring_class(agent *a, JNIEnv *jni, jclass k, int field, cp_str name, cp_str desc, int depth)
{
    if (depth > SEARCH_DEPTH)
        return NULL;
    if (field ? declares_field(a, k, name, desc) : declares_method(a, k, name, desc))
        return (*jni)->NewLocalRef(jni, k);
    jclass found = NULL;
    if (field) {
        jint n = 0;
        jclass *ifs = NULL;
        if (jvmti_check(a, (*a->jvmti)->GetImplementedInterfaces(a->jvmti, k, &n, &ifs),
                        "GetImplementedInterfaces") != 0)
            return NULL;
        for (jint i = 0; i < n; i++) {
            if (found == NULL)
                found = declaring_class(a, jni, ifs[i], field, name, desc, depth + 1);
            (*jni)->DeleteLocalRef(jni, ifs[i]);
        }
        (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)ifs);
    }
    if (found == NULL) {
        jclass super = (*jni)->GetSuperclass(jni, k);
        if (super != NULL) {
            found = declaring_class(a, jni, super, field, name, desc, depth + 1);
            (*jni)->DeleteLocalRef(jni, super);
        }
    }
    return found;
}

/* The class the instruction names, loaded and linked through the loader of
 * the method's class (as the JVM's resolution would), or NULL. Not counted:
 * the caller has switched counting off. */
static jclass named_class(agent *a, JNIEnv *jni, jmethodID method, cp_str owner)
{
    char name[1024];
    if (owner.len == 0 || owner.len >= sizeof name || owner.ptr[0] == '[')
        return NULL;
    for (uint16_t i = 0; i < owner.len; i++)
        name[i] = owner.ptr[i] == '/' ? '.' : owner.ptr[i];
    name[owner.len] = '\0';
    jclass holder = NULL;
    jobject loader = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetMethodDeclaringClass(a->jvmti, method, &holder), "GetMethodDeclaringClass") != 0 ||
        jvmti_check(a, (*a->jvmti)->GetClassLoader(a->jvmti, holder, &loader), "GetClassLoader") != 0)
        return NULL;
    jstring jname = (*jni)->NewStringUTF(jni, name); /* a constant pool's modified UTF-8, as JNI wants */
    jclass k = jname ? (jclass)(*jni)->CallStaticObjectMethod(jni, a->class_class, a->class_for_name, jname,
                                                              JNI_FALSE, loader)
                     : NULL;
    jint status = 0;
    if (k != NULL && !(*jni)->ExceptionCheck(jni) &&
        jvmti_check(a, (*a->jvmti)->GetClassStatus(a->jvmti, k, &status), "GetClassStatus") == 0 &&
        !(status & JVMTI_CLASS_STATUS_PREPARED))
        (*jni)->CallObjectMethod(jni, k, a->class_declared_fields); /* links it (JVM_GetClassDeclaredFields) */
    if ((*jni)->ExceptionCheck(jni)) {
        /* not found, or it cannot be linked: the instruction will fail the same way */
        (*jni)->ExceptionClear(jni);
        return NULL;
    }
    return k;
}

void clinit_site(agent *a, thread_state *ts, JNIEnv *jni, jmethodID method, const method_info *m, jlocation loc)
{
    atomic_store_explicit(&m->init_site[loc], 0, memory_order_relaxed); /* checked once, whatever follows */
    uint8_t op = m->code[loc];
    uint16_t idx = (uint16_t)(m->code[loc + 1] << 8 | m->code[loc + 2]);
    cp_str owner, name, desc;
    if (m->cls == NULL || cp_member_ref(&m->cls->cp, idx, &owner, &name, &desc) != 0)
        return;
    if (owner.len >= 5 && memcmp(owner.ptr, "java/", 5) == 0)
        return; /* the JDK's: never the program's */
    if ((*jni)->PushLocalFrame(jni, 32) != 0) {
        (*jni)->ExceptionClear(jni);
        return;
    }
    /* The instruction was counted; what runs now comes between it and its
     * execution. Its state (the last step, an invoke awaiting the native
     * check) is put back afterwards. */
    uint8_t prev_op = ts->prev_op;
    jmethodID prev_method = ts->prev_method;
    jlocation prev_loc = ts->prev_loc;
    uint32_t pend_key = ts->pend_key;
    jmethodID pend_method = ts->pend_method;
    jlocation pend_next = ts->pend_next;
    ts->pend_key = 0;
    ts->npend = 0;
    ts->paused = 1; /* the lookup is the JVM's resolution, not the program's work */
    jclass named = named_class(a, jni, method, owner);
    jclass owner_class = named ? declaring_class(a, jni, named, op != BC_INVOKESTATIC, name, desc, 0) : NULL;
    ts->paused = 0;
    jint status = 0;
    jthrowable thrown = NULL;
    if (owner_class != NULL && clinit_is_program_class(a, jni, owner_class) &&
        jvmti_check(a, (*a->jvmti)->GetClassStatus(a->jvmti, owner_class, &status), "GetClassStatus") == 0 &&
        !(status & (JVMTI_CLASS_STATUS_INITIALIZED | JVMTI_CLASS_STATUS_ERROR))) {
        /* run it here, counted: as if the method called the initializer */
        ts->prev_op = BC_INVOKESTATIC;
        ts->prev_method = NULL;
        ts->prev_loc = -1;
        /* GetStaticMethodID initializes the class first (JNI); "<clinit>"
         * itself may be absent (NoSuchMethodError), the initialization of
         * its superclasses still ran */
        (*jni)->GetStaticMethodID(jni, owner_class, "<clinit>", "()V");
        thrown = (*jni)->ExceptionOccurred(jni);
        (*jni)->ExceptionClear(jni);
        if (thrown != NULL &&
            (jvmti_check(a, (*a->jvmti)->GetClassStatus(a->jvmti, owner_class, &status), "GetClassStatus") != 0 ||
             !(status & JVMTI_CLASS_STATUS_ERROR)))
            thrown = NULL; /* only "<clinit>" was missing */
    }
    ts->prev_op = prev_op;
    ts->prev_method = prev_method;
    ts->prev_loc = prev_loc;
    ts->pend_key = pend_key;
    ts->pend_method = pend_method;
    ts->pend_next = pend_next;
    ts->npend = 0;
    thrown = (*jni)->PopLocalFrame(jni, thrown);
    if (thrown != NULL)
        (*jni)->Throw(jni, thrown); /* the initializer failed: what the instruction throws (see the top) */
}
