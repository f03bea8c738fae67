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
 * path pays one byte test on these opcodes in the program's methods, and
 * in those of every class a loader other than the boot and platform
 * loaders defined (program.c, init_sites_class): reflection's generated
 * accessors call the program's static methods from such classes.
 *
 * The method's own class is initialized before the method runs;
 * clinit_target.c counts its initializer too, and its constructors, with
 * the class search and initialization here (clinit_impl.h).
 */
#include "agent.h"
#include "bytecode.h"
#include "bytes.h"
#include "clinit.h"
#include "clinit_impl.h"
#include "contexts.h"
#include "jvmti_util.h"
#include "methods.h"
#include "program.h"

#include <stdlib.h>
#include <string.h>

/* A breakpoint at offset loc of method; one already there (the same place
 * reached twice: a shared superinterface, a supertype's initializer that
 * starts with a watched access) is fine. 0 on success. */
int clinit_set_breakpoint(agent *a, jmethodID method, jlocation loc)
{
    jvmtiError err = (*a->jvmti)->SetBreakpoint(a->jvmti, method, loc);
    return err == JVMTI_ERROR_DUPLICATE ? 1 : jvmti_check(a, err, "SetBreakpoint");
}

/* At VMInit: find java.lang.Class.forName and getDeclaredFields0, which
 * load, link and initialize classes below (reported when missing). */
void clinit_init(agent *a, JNIEnv *jni)
{
    jclass c = (*jni)->FindClass(jni, "java/lang/Class");
    jmethodID for_name = c ? (*jni)->GetStaticMethodID(jni, c, "forName",
                                                      "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;")
                           : NULL;
    /* the private native behind getDeclaredFields (JNI ignores access): it
     * links the class without filling the Class object's reflection cache,
     * which would make the program's own reflection on it cheaper later */
    jmethodID fields = c ? (*jni)->GetMethodID(jni, c, "getDeclaredFields0", "(Z)[Ljava/lang/reflect/Field;") : NULL;
    a->class_class = c ? (*jni)->NewGlobalRef(jni, c) : NULL;
    a->class_for_name = for_name;
    a->class_declared_fields = fields;
    if (a->class_class == NULL || for_name == NULL || fields == NULL) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "cannot find java.lang.Class.forName and getDeclaredFields0");
    }
}

/* Neither initialized nor failed: its initializer has yet to run. */
int clinit_uninitialized(agent *a, jclass klass)
{
    jint status = 0;
    return jvmti_check(a, (*a->jvmti)->GetClassStatus(a->jvmti, klass, &status), "GetClassStatus") == 0 &&
           !(status & (JVMTI_CLASS_STATUS_INITIALIZED | JVMTI_CLASS_STATUS_ERROR));
}

/* 1 when C string s has exactly the bytes of want. */
int clinit_same(const char *s, cp_str want)
{
    return strlen(s) == want.len && memcmp(s, want.ptr, want.len) == 0;
}

/* 1 when class k itself declares the field name:desc. */
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
        found = clinit_same(fname, name) && clinit_same(fsig, desc);
        jvmti_free(a, fname);
        jvmti_free(a, fsig);
    }
    jvmti_free(a, f);
    return found;
}

/* 1 when class k itself declares the method name desc. */
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
        found = clinit_same(mname, name) && clinit_same(msig, desc);
        jvmti_free(a, mname);
        jvmti_free(a, msig);
    }
    jvmti_free(a, m);
    return found;
}

/* The class (a new local reference) that declares the field or method
 * name:desc as the JVM resolves it from k, or NULL. k is linked. */
jclass clinit_declaring_class(agent *a, JNIEnv *jni, jclass k, int field, cp_str name, cp_str desc, int depth)
{
    if (depth > SEARCH_DEPTH) {
        /* give up loudly: the JVM would initialize what we did not find, hidden */
        agent_fail(a, "a class hierarchy deeper than %d: cannot tell which class a static access initializes",
                   SEARCH_DEPTH);
        return NULL;
    }
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
                found = clinit_declaring_class(a, jni, ifs[i], field, name, desc, depth + 1);
            (*jni)->DeleteLocalRef(jni, ifs[i]);
        }
        jvmti_free(a, ifs);
    }
    if (found == NULL) {
        jclass super = (*jni)->GetSuperclass(jni, k);
        if (super != NULL) {
            found = clinit_declaring_class(a, jni, super, field, name, desc, depth + 1);
            (*jni)->DeleteLocalRef(jni, super);
        }
    }
    return found;
}

/* The class the instruction names, loaded and linked through the loader of
 * the method's class (as the JVM's resolution would), or NULL. Not counted:
 * the caller has switched counting off. */
jclass clinit_named_class(agent *a, JNIEnv *jni, jmethodID method, cp_str owner)
{
    if (owner.len == 0 || owner.ptr[0] == '[')
        return NULL;
    char *name = malloc((size_t)owner.len + 1);
    if (name == NULL) {
        agent_fail(a, "out of memory initializing a class");
        return NULL;
    }
    for (uint16_t i = 0; i < owner.len; i++)
        name[i] = owner.ptr[i] == '/' ? '.' : owner.ptr[i];
    name[owner.len] = '\0';
    jclass holder = NULL;
    jobject loader = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetMethodDeclaringClass(a->jvmti, method, &holder), "GetMethodDeclaringClass") != 0 ||
        jvmti_check(a, (*a->jvmti)->GetClassLoader(a->jvmti, holder, &loader), "GetClassLoader") != 0) {
        free(name);
        return NULL;
    }
    jstring jname = (*jni)->NewStringUTF(jni, name); /* a constant pool's modified UTF-8, as JNI wants */
    free(name);
    jclass k = jname ? (jclass)(*jni)->CallStaticObjectMethod(jni, a->class_class, a->class_for_name, jname,
                                                              JNI_FALSE, loader)
                     : NULL;
    jint status = 0;
    if (k != NULL && !(*jni)->ExceptionCheck(jni) &&
        jvmti_check(a, (*a->jvmti)->GetClassStatus(a->jvmti, k, &status), "GetClassStatus") == 0 &&
        !(status & JVMTI_CLASS_STATUS_PREPARED))
        (*jni)->CallObjectMethod(jni, k, a->class_declared_fields, JNI_FALSE); /* links it (JVM_GetClassDeclaredFields) */
    if ((*jni)->ExceptionCheck(jni)) {
        /* not found, or it cannot be linked: the instruction will fail the same way */
        (*jni)->ExceptionClear(jni);
        return NULL;
    }
    return k;
}

/*
 * Initialize klass (the declaring class of name:desc) as the JVM would for
 * the instruction op: through JNI's lookup of that very member, which
 * initializes the class first (JNI GetStaticFieldID / GetStaticMethodID) and
 * throws nothing more, since the member exists. An initializer's failure is
 * returned as a local reference; NULL otherwise.
 */
jthrowable clinit_initialize(agent *a, JNIEnv *jni, jclass klass, uint8_t op, cp_str name, cp_str desc)
{
    char *n = malloc((size_t)name.len + 1), *d = malloc((size_t)desc.len + 1);
    if (n == NULL || d == NULL) {
        free(n);
        free(d);
        agent_fail(a, "out of memory initializing a class");
        return NULL;
    }
    memcpy(n, name.ptr, name.len);
    n[name.len] = '\0';
    memcpy(d, desc.ptr, desc.len);
    d[desc.len] = '\0';
    if (op == BC_INVOKESTATIC)
        (*jni)->GetStaticMethodID(jni, klass, n, d);
    else
        (*jni)->GetStaticFieldID(jni, klass, n, d);
    free(n);
    free(d);
    jthrowable thrown = (*jni)->ExceptionOccurred(jni);
    (*jni)->ExceptionClear(jni);
    jint status = 0;
    if (thrown != NULL &&
        (jvmti_check(a, (*a->jvmti)->GetClassStatus(a->jvmti, klass, &status), "GetClassStatus") != 0 ||
         !(status & JVMTI_CLASS_STATUS_ERROR)))
        return NULL; /* not the initializer's: the instruction will meet it itself */
    return thrown;
}

/*
 * Classes known to need no initializing through any member (initialized,
 * and so are their superinterfaces of the program's; superclasses always
 * are then): a site naming one is done without a lookup. Without it every
 * first execution of a static access paid Class.forName and a scan of the
 * class's fields: 3000 sites of one class took 48 s. Direct-mapped by name,
 * under the agent's lock; entries are never freed before unload.
 */
#define DONE_SLOTS 1024
static char *done_names[DONE_SLOTS];

/* The slot of class name n in done_names. */
static uint32_t name_slot(cp_str n)
{
    uint32_t h = 2166136261u;
    for (uint16_t i = 0; i < n.len; i++)
        h = (h ^ (uint8_t)n.ptr[i]) * 16777619u;
    return h & (DONE_SLOTS - 1);
}

/* 1 when owner is remembered as initialized (done_names): no check needed. */
static int known_done(agent *a, cp_str owner)
{
    lock_enter(a);
    const char *d = done_names[name_slot(owner)];
    int yes = d != NULL && strlen(d) == owner.len && memcmp(d, owner.ptr, owner.len) == 0;
    lock_exit(a);
    return yes;
}

/* 1 when every superinterface of k that is the program's is initialized,
 * theirs too (at most SEARCH_DEPTH deep). */
static int interfaces_initialized(agent *a, JNIEnv *jni, jclass k, int depth)
{
    jint n = 0;
    jclass *ifs = NULL;
    if (depth > SEARCH_DEPTH ||
        jvmti_check(a, (*a->jvmti)->GetImplementedInterfaces(a->jvmti, k, &n, &ifs), "GetImplementedInterfaces") != 0)
        return 0;
    int all = 1;
    for (jint i = 0; i < n; i++) {
        jint st = 0;
        if (all && program_class(a, jni, ifs[i]) &&
            ((*a->jvmti)->GetClassStatus(a->jvmti, ifs[i], &st) != JVMTI_ERROR_NONE ||
             !(st & JVMTI_CLASS_STATUS_INITIALIZED) || !interfaces_initialized(a, jni, ifs[i], depth + 1)))
            all = 0;
        (*jni)->DeleteLocalRef(jni, ifs[i]);
    }
    jvmti_free(a, ifs);
    return all;
}

/*
 * Does the access name the class of the method it is in, and can it need
 * no initializing? That class's code runs only once its initialization has
 * begun, its superclasses' has ended: only a field of a superinterface can
 * still need it. Spares the lookup for a class's own static fields in its
 * own initializer (3000 of them made the check quadratic).
 */
static int own_class_named(agent *a, JNIEnv *jni, jmethodID method, cp_str owner)
{
    jclass holder = NULL;
    char *sig = NULL;
    if ((*a->jvmti)->GetMethodDeclaringClass(a->jvmti, method, &holder) != JVMTI_ERROR_NONE)
        return 0;
    int own = (*a->jvmti)->GetClassSignature(a->jvmti, holder, &sig, NULL) == JVMTI_ERROR_NONE &&
              strlen(sig) == (size_t)owner.len + 2 && memcmp(sig + 1, owner.ptr, owner.len) == 0;
    jvmti_free(a, sig);
    return own && interfaces_initialized(a, jni, holder, 0);
}

/* After a check: remember `named` if nothing it names can need initializing. */
static void note_done(agent *a, JNIEnv *jni, jclass named, cp_str owner)
{
    jint st = 0;
    if (named == NULL || (*a->jvmti)->GetClassStatus(a->jvmti, named, &st) != JVMTI_ERROR_NONE ||
        !(st & JVMTI_CLASS_STATUS_INITIALIZED) || !interfaces_initialized(a, jni, named, 0))
        return;
    char *copy = malloc((size_t)owner.len + 1);
    if (copy == NULL)
        return; /* only slower */
    memcpy(copy, owner.ptr, owner.len);
    copy[owner.len] = '\0';
    lock_enter(a);
    uint32_t slot = name_slot(owner);
    free(done_names[slot]);
    done_names[slot] = copy;
    lock_exit(a);
}

/* Does interface k declare a default method (a non-abstract instance method)? */
static int has_default_method(agent *a, jclass k)
{
    jint n = 0;
    jmethodID *ms = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetClassMethods(a->jvmti, k, &n, &ms), "GetClassMethods") != 0)
        return 0;
    int found = 0;
    for (jint i = 0; i < n && !found; i++) {
        jint mod = 0;
        if ((*a->jvmti)->GetMethodModifiers(a->jvmti, ms[i], &mod) == JVMTI_ERROR_NONE)
            found = !(mod & 0x0408); /* neither ACC_STATIC nor ACC_ABSTRACT */
    }
    jvmti_free(a, ms);
    return found;
}

/* Initialize interface k as a class implementing it would (JVMS 5.5: the
 * superinterfaces that declare default methods, deepest first), through
 * JNI's lookup of one of its static fields, stepped here. Returns an
 * initializer's failure, or NULL. */
static jthrowable initialize_interface(agent *a, JNIEnv *jni, jclass k, int depth)
{
    jint n = 0;
    jclass *ifs = NULL;
    if (depth > SEARCH_DEPTH ||
        jvmti_check(a, (*a->jvmti)->GetImplementedInterfaces(a->jvmti, k, &n, &ifs), "GetImplementedInterfaces") != 0)
        return NULL;
    jthrowable thrown = NULL;
    for (jint i = 0; i < n && thrown == NULL; i++)
        thrown = initialize_interface(a, jni, ifs[i], depth + 1);
    jvmti_free(a, ifs);
    if (thrown != NULL || !program_class(a, jni, k) || !clinit_uninitialized(a, k) || !has_default_method(a, k))
        return thrown;
    jint nf = 0;
    jfieldID *fs = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetClassFields(a->jvmti, k, &nf, &fs), "GetClassFields") != 0)
        return NULL;
    if (nf > 0) { /* interface fields are all static; none: no initializer to run */
        char *name = NULL, *sig = NULL;
        if (jvmti_check(a, (*a->jvmti)->GetFieldName(a->jvmti, k, fs[0], &name, &sig, NULL), "GetFieldName") == 0) {
            (*jni)->GetStaticFieldID(jni, k, name, sig);
            thrown = (*jni)->ExceptionOccurred(jni);
            (*jni)->ExceptionClear(jni);
            jvmti_free(a, name);
            jvmti_free(a, sig);
        }
    }
    jvmti_free(a, fs);
    return thrown;
}

/*
 * The first execution of an invokedynamic in a program's method. HotSpot
 * links it with single-stepping hidden, and linking a lambda creates its
 * class, whose initialization initializes the functional interface when
 * that declares default methods (and its superinterfaces that do): the
 * interface's static initializer would run uncounted (a sort in a static
 * field's initializer scored 13 bytecodes). So the interface the call site
 * returns, when it is the program's, is initialized here first, counted,
 * as clinit_site does for static accesses. What linkage itself runs
 * (LambdaMetafactory) stays the JVM's overhead.
 */
static void indy_site(agent *a, thread_state *ts, JNIEnv *jni, jmethodID method, const method_info *m, jlocation loc)
{
    uint16_t idx = be_u16(&m->code[loc + 1]);
    uint16_t bsm = 0;
    cp_str name, desc, iface = {0};
    if (m->cls != NULL && cp_dynamic(&m->cls->cp, idx, &bsm, &name, &desc) == 0) {
        const char *close = memchr(desc.ptr, ')', desc.len);
        size_t at = close ? (size_t)(close - desc.ptr) + 1 : desc.len;
        if (at + 2 < desc.len && desc.ptr[at] == 'L' && desc.ptr[desc.len - 1] == ';') {
            iface.ptr = desc.ptr + at + 1;
            iface.len = (uint16_t)(desc.len - at - 2);
        }
    }
    if (iface.len == 0 || (iface.len >= 5 && memcmp(iface.ptr, "java/", 5) == 0) || known_done(a, iface) ||
        (*jni)->PushLocalFrame(jni, 32) != 0) {
        (*jni)->ExceptionClear(jni);
        atomic_store_explicit(&m->init_site[loc], 0, memory_order_relaxed);
        return;
    }
    uint8_t prev_op = ts->prev_op;
    jmethodID prev_method = ts->prev_method;
    jlocation prev_loc = ts->prev_loc;
    uint32_t pend_key = ts->pend_key;
    ts->pend_key = 0;
    ts->npend = 0;
    ts->paused = 1; /* finding the class is the JVM's resolution */
    jclass k = clinit_named_class(a, jni, method, iface);
    ts->paused = 0;
    jthrowable thrown = NULL;
    if (k != NULL) {
        uint32_t ctop, ccount;
        ctx_mark(ts, &ctop, &ccount);
        ts->prev_op = BC_INVOKESTATIC; /* as if the method called the initializer */
        ts->prev_method = method;      /* ... from this instruction (its calling context) */
        ts->prev_loc = loc;
        thrown = initialize_interface(a, jni, k, 0);
        ctx_restore(ts, ctop, ccount); /* its frames ended in the JVM's call, unseen */
    }
    ts->prev_op = prev_op;
    ts->prev_method = prev_method;
    ts->prev_loc = prev_loc;
    ts->pend_key = pend_key;
    ts->npend = 0;
    if (thrown == NULL)
        note_done(a, jni, k, iface);
    atomic_store_explicit(&m->init_site[loc], 0, memory_order_relaxed);
    /* an initializer's failure surfaces when linkage initializes the
     * interface again (NoClassDefFoundError), as without this */
    (*jni)->PopLocalFrame(jni, NULL);
}

/* The first step on a static access at loc of m: initialize, counted, the
 * class of the program's it would initialize hidden, then mark the site
 * checked; the thread's step state is as it was before. */
void clinit_site(agent *a, thread_state *ts, JNIEnv *jni, jmethodID method, const method_info *m, jlocation loc)
{
    uint8_t op = m->code[loc];
    if (op == BC_INVOKEDYNAMIC) {
        indy_site(a, ts, jni, method, m, loc);
        return;
    }
    uint16_t idx = be_u16(&m->code[loc + 1]);
    cp_str owner, name, desc;
    /* Checked once, when the check is over: another thread that arrives
     * meanwhile checks too (and waits in JNI while this one initializes),
     * instead of running the instruction and the initializer hidden. */
    if (m->cls == NULL || cp_member_ref(&m->cls->cp, idx, &owner, &name, &desc) != 0 || known_done(a, owner)) {
        atomic_store_explicit(&m->init_site[loc], 0, memory_order_relaxed);
        return;
    }
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
    int pend_fence = ts->pend_fence;
    jmethodID pend_method = ts->pend_method;
    jlocation pend_next = ts->pend_next;
    ts->pend_key = 0;
    ts->npend = 0;
    ts->paused = 1; /* the lookup is the JVM's resolution, not the program's work */
    jclass named = own_class_named(a, jni, method, owner) ? NULL : clinit_named_class(a, jni, method, owner);
    jclass owner_class = named ? clinit_declaring_class(a, jni, named, op != BC_INVOKESTATIC, name, desc, 0) : NULL;
    ts->paused = 0;
    jthrowable thrown = NULL;
    if (owner_class != NULL && clinit_uninitialized(a, owner_class)) {
        /* run it here, counted: as if the method called the initializer. A
         * JDK class's initializer is overhead (an overhead root), but the
         * program's code it runs is work (a class named in a system
         * property that ForkJoinPool's initializer instantiates) */
        uint32_t ctop, ccount;
        ctx_mark(ts, &ctop, &ccount);
        ts->prev_op = BC_INVOKESTATIC;
        ts->prev_method = method; /* the calling context: this instruction */
        ts->prev_loc = loc;
        thrown = clinit_initialize(a, jni, owner_class, op, name, desc);
        ctx_restore(ts, ctop, ccount); /* its frames ended in the JVM's call, unseen */
    }
    ts->prev_op = prev_op;
    ts->prev_method = prev_method;
    ts->prev_loc = prev_loc;
    ts->pend_key = pend_key;
    ts->pend_fence = pend_fence;
    ts->pend_method = pend_method;
    ts->pend_next = pend_next;
    ts->npend = 0;
    if (thrown == NULL)
        note_done(a, jni, named, owner);
    atomic_store_explicit(&m->init_site[loc], 0, memory_order_relaxed);
    thrown = (*jni)->PopLocalFrame(jni, thrown);
    if (thrown != NULL)
        (*jni)->Throw(jni, thrown); /* the initializer failed: what the instruction throws (see the top) */
}
