/*
 * clinit_target.c - the method's own class, its initializer and
 * constructors counted before the method runs.
 *
 * The class is initialized before the method first runs, outside any
 * extent, usually by the caller's invokestatic (hidden from single-stepping),
 * by `new`, or by the launcher when it is the main class.
 * Its initializer is the submission's work all the same (a table of answers
 * computed in `static { }`), so the agent counts it and charges it to the
 * next invocation (extent.c, reached through a->hooks.pre_begin; so are
 * the constructors of the class when the method is an instance method,
 * breakpoints at their offset 0: the caller's `new Solution()` is how the
 * method gets an instance to run on, and field initializers run there):
 *  - every getstatic, putstatic and invokestatic that names the class in
 *    the program's other classes gets a breakpoint when its class is
 *    prepared; at the first one that runs while the class is not yet
 *    initialized, the agent initializes it from the breakpoint callback,
 *    counted (as clinit_site does inside an extent);
 *  - a breakpoint at offset 0 of its <clinit> catches every other way in
 *    (`new`, the launcher, reflection), which HotSpot steps: counting starts
 *    there and ends when the frame pops.
 * Once the class is initialized, the breakpoints go. A way in that is both
 * hidden and not caught (a static member named through a subclass of the
 * class) leaves the initializer uncounted but for its first bytecode.
 *
 * The counts start and end through a->hooks (extent.c's, wired by
 * vmentry.c), so that this file never calls extent.c by name; finding and
 * initializing a class is clinit.c's (clinit_impl.h).
 */
#include "agent.h"
#include "bytecode.h"
#include "bytes.h"
#include "clinit.h"
#include "clinit_impl.h"
#include "jvmti_util.h"
#include "methods.h"
#include "program.h"
#include "target.h"

#include <stdlib.h>
#include <string.h>

static int owner_names_target(agent *a, cp_str owner)
{
    const char *sig = a->spec.class_signature; /* "Lpkg/Name;", UTF-8 */
    size_t len = strlen(sig);
    if (len < 3)
        return 0;
    if (owner.len == len - 2 && memcmp(owner.ptr, sig + 1, owner.len) == 0)
        return 1;
    int plain = 1; /* modified UTF-8 differs from UTF-8 only in bytes >= 0x80 */
    for (uint16_t i = 0; i < owner.len && plain; i++)
        plain = (unsigned char)owner.ptr[i] < 0x80;
    if (plain)
        return 0;
    char *raw = malloc((size_t)owner.len + 1);
    if (raw == NULL)
        return 0;
    memcpy(raw, owner.ptr, owner.len);
    raw[owner.len] = '\0';
    char *utf8 = utf8_dup(raw);
    free(raw);
    int same_name = utf8 != NULL && strlen(utf8) == len - 2 && memcmp(utf8, sig + 1, len - 2) == 0;
    free(utf8);
    return same_name;
}

/* The methods of klass called `name` (a malloc'd array, *count of them);
 * NULL when there are none or on failure (reported). */
static jmethodID *methods_named(agent *a, jclass klass, const char *name, int *count)
{
    jvmtiEnv *jv = a->jvmti;
    jint n = 0;
    jmethodID *ms = NULL, *found = NULL;
    *count = 0;
    if (jvmti_check(a, (*jv)->GetClassMethods(jv, klass, &n, &ms), "GetClassMethods") != 0)
        return NULL;
    for (jint i = 0; i < n; i++) {
        char *mname = NULL;
        if (jvmti_check(a, (*jv)->GetMethodName(jv, ms[i], &mname, NULL, NULL), "GetMethodName") != 0)
            continue;
        if (strcmp(mname, name) == 0 && (found != NULL || (found = malloc((size_t)n * sizeof *found)) != NULL))
            found[(*count)++] = ms[i];
        jvmti_free(a, mname);
    }
    jvmti_free(a, ms);
    return found;
}

/* The <clinit> of klass, or NULL. */
static jmethodID clinit_of(agent *a, jclass klass)
{
    int n = 0;
    jmethodID *m = methods_named(a, klass, "<clinit>", &n), c = n > 0 ? m[0] : NULL;
    free(m);
    return c;
}

/* Start counting at offset 0 of initializer c (the method's class's own or
 * a supertype's), once. Lock held or not yet needed (ClassPrepare). */
static void watch_clinit(agent *a, jmethodID c)
{
    for (int j = 0; j < a->nclinit_entries; j++)
        if (a->clinit_entries[j] == c)
            return; /* (an interface reached twice) */
    if (a->nclinit_entries == CLINIT_ENTRIES) {
        agent_fail(a, "the method's class has more than %d supertypes with initializers", CLINIT_ENTRIES);
        return;
    }
    if (clinit_set_breakpoint(a, c, 0) >= 0) /* (a watched access may sit at its offset 0 already) */
        a->clinit_entries[a->nclinit_entries++] = c;
}

/* Breakpoints at the initializers of klass's supertypes that are the
 * program's: initializing the method's class initializes its superclasses
 * first (and interfaces with default methods), before the breakpoint at its
 * own initializer, in the ways HotSpot steps (`new`, the launcher). */
static void watch_supertypes(agent *a, JNIEnv *jni, jclass klass, int depth)
{
    if (depth > SEARCH_DEPTH) {
        agent_fail(a, "the supertypes of the method's class nest deeper than %d: their initializers"
                      " cannot all be watched", SEARCH_DEPTH);
        return;
    }
    jint n = 0;
    jclass *ifs = NULL;
    if (jvmti_check(a, (*a->jvmti)->GetImplementedInterfaces(a->jvmti, klass, &n, &ifs), "GetImplementedInterfaces") != 0)
        n = 0;
    jclass super = (*jni)->GetSuperclass(jni, klass);
    for (jint i = -1; i < n; i++) {
        jclass k = i < 0 ? super : ifs[i];
        if (k == NULL || !program_class(a, jni, k))
            continue;
        jmethodID c = clinit_of(a, k);
        if (c != NULL)
            watch_clinit(a, c);
        watch_supertypes(a, jni, k, depth + 1);
    }
    for (jint i = 0; i < n; i++)
        (*jni)->DeleteLocalRef(jni, ifs[i]);
    jvmti_free(a, ifs);
    if (super != NULL)
        (*jni)->DeleteLocalRef(jni, super);
}

/* The method's class klass was found (lock held): watch its initializer,
 * its supertypes' initializers and, for an instance method, its
 * constructors with breakpoints at offset 0. */
void clinit_target_prepared(agent *a, JNIEnv *jni, jclass klass)
{
    jint mods = 0;
    if (jvmti_check(a, (*a->jvmti)->GetMethodModifiers(a->jvmti, a->target, &mods), "GetMethodModifiers") != 0)
        return;
    a->target_clinit = clinit_of(a, klass);
    if (a->target_clinit != NULL)
        watch_clinit(a, a->target_clinit);
    if (!(mods & 0x0008)) { /* an instance method (not ACC_STATIC): its constructors too */
        a->target_inits = methods_named(a, klass, "<init>", &a->ntarget_inits);
        for (int i = 0; i < a->ntarget_inits; i++)
            if (clinit_set_breakpoint(a, a->target_inits[i], 0) < 0)
                a->target_inits[i] = NULL; /* (reported) */
    }
    watch_supertypes(a, jni, klass, 0);
}

/* A breakpoint at site, remembered in a->tsites; 0, or -1 on failure. */
static int add_site(agent *a, struct init_site site)
{
    if (a->ntsites == a->tsites_cap) {
        struct init_site *v = grow_cap(a->tsites, &a->tsites_cap, 16, sizeof *v);
        if (v == NULL)
            return -1;
        a->tsites = v;
    }
    int r = clinit_set_breakpoint(a, site.method, site.loc);
    if (r < 0)
        return -1;
    if (r == 0) /* one of ours already there (a supertype's initializer) stays where it is */
        a->tsites[a->ntsites++] = site;
    return 0;
}

/* Breakpoints at the static accesses of one method that name the class. */
static void scan_method(agent *a, const class_info *c, jmethodID method)
{
    jvmtiEnv *jv = a->jvmti;
    jint mods = 0, len = 0;
    unsigned char *code = NULL;
    if (jvmti_check(a, (*jv)->GetMethodModifiers(jv, method, &mods), "GetMethodModifiers") != 0 ||
        (mods & (0x0100 | 0x0400)) || /* ACC_NATIVE, ACC_ABSTRACT: no code */
        jvmti_check(a, (*jv)->GetBytecodes(jv, method, &len, &code), "GetBytecodes") != 0)
        return;
    for (uint32_t pc = 0; pc < (uint32_t)len;) {
        uint32_t n = bc_insn_length(code, (uint32_t)len, pc);
        if (n == 0)
            break;
        cp_str owner, name, desc;
        if (program_init_trigger(code[pc]) &&
            cp_member_ref(&c->cp, be_u16(&code[pc + 1]), &owner, &name, &desc) == 0 &&
            owner_names_target(a, owner)) {
            lock_enter(a);
            if (!a->target_init_done && add_site(a, (struct init_site){method, pc, code[pc], owner, name, desc}) != 0)
                agent_fail(a, "cannot watch the static accesses of the method's class");
            lock_exit(a);
        }
        pc += n;
    }
    jvmti_free(a, code);
}

/* At ClassPrepare of a class of the program's other than the method's:
 * breakpoints at its static accesses that name the method's class. */
void clinit_scan_class(agent *a, JNIEnv *jni, jclass klass)
{
    jvmtiEnv *jv = a->jvmti;
    if (a->target_init_done || !program_class(a, jni, klass) || target_class_named(a, klass))
        return; /* (the method's class: its own code runs after its initialization) */
    const class_info *c = NULL;
    jint n = 0;
    jmethodID *ms = NULL;
    if (jvmti_check(a, (*jv)->GetClassMethods(jv, klass, &n, &ms), "GetClassMethods") != 0)
        return;
    for (jint i = 0; i < n; i++) {
        if (c == NULL && (c = methods_class(a, klass)) == NULL)
            break; /* methods_class reported it */
        scan_method(a, c, ms[i]);
    }
    jvmti_free(a, ms);
}

/* The method's class is initialized: clear the breakpoints that watched
 * for it, once. */
void clinit_target_done(agent *a)
{
    lock_enter(a);
    if (!a->target_init_done) {
        a->target_init_done = 1;
        for (uint32_t i = 0; i < a->ntsites; i++)
            (void)(*a->jvmti)->ClearBreakpoint(a->jvmti, a->tsites[i].method, a->tsites[i].loc);
        a->ntsites = 0;
        if (a->target_clinit != NULL)
            (void)(*a->jvmti)->ClearBreakpoint(a->jvmti, a->target_clinit, 0);
    }
    lock_exit(a);
}

/* Clear the watched access at loc of method and forget it. */
static void clear_site(agent *a, jmethodID method, jlocation loc)
{
    lock_enter(a);
    for (uint32_t i = 0; i < a->ntsites; i++)
        if (a->tsites[i].method == method && a->tsites[i].loc == loc) {
            (void)(*a->jvmti)->ClearBreakpoint(a->jvmti, method, loc);
            a->tsites[i] = a->tsites[--a->ntsites];
            break;
        }
    lock_exit(a);
}

/* The watched access at loc of method, copied into *out; 0 if there is none. */
static int find_site(agent *a, jmethodID method, jlocation loc, struct init_site *out)
{
    lock_enter(a);
    int found = 0;
    for (uint32_t i = 0; i < a->ntsites && !found; i++)
        if (a->tsites[i].method == method && a->tsites[i].loc == loc) {
            *out = a->tsites[i];
            found = 1;
        }
    lock_exit(a);
    return found;
}

/*
 * A constructor of the method's class runs outside the method: count it.
 * Counting starts and stops single-stepping on the thread (about 150 us
 * each time here: HotSpot switches the thread to interpreter-only mode and
 * back), so a caller that builds a large input out of the method's own
 * class (a list of a hundred thousand nodes) would take many seconds: the
 * first CONSTRUCTORS_COUNTED runs are counted, then the breakpoints go.
 * Constructors run by counted code are counted with it and never get here;
 * submission code the caller runs outside the method (a toString of a
 * returned object) could use up the limit (README, "No hidden work").
 */
#define CONSTRUCTORS_COUNTED 1000
static void constructor_run(agent *a, JNIEnv *jni, jthread thread, jmethodID method)
{
    lock_enter(a);
    int count = ++a->constructors_counted <= CONSTRUCTORS_COUNTED;
    if (!count && a->ntarget_inits > 0) {
        for (int i = 0; i < a->ntarget_inits; i++)
            (void)(*a->jvmti)->ClearBreakpoint(a->jvmti, a->target_inits[i], 0);
        a->ntarget_inits = 0;
        agent_log(a, "more than %d constructors of the method's class ran outside it: no longer counted",
                  CONSTRUCTORS_COUNTED);
    }
    lock_exit(a);
    if (count)
        a->hooks.pre_begin(a, jni, thread, method, 1);
}

/* A breakpoint other than the method's entry, on a thread whose state is ts
 * (NULL: never counted): outside an extent, starts the count of the method
 * class's initializer or constructor it belongs to, or initializes that
 * class counted; inside one, does nothing (the step path sees to it). */
void clinit_breakpoint(agent *a, JNIEnv *jni, jthread thread, thread_state *ts, jmethodID method, jlocation loc)
{
    if (ts != NULL && ts->measuring)
        return; /* inside an extent the step path sees to it */
    if (loc == 0) {
        for (int i = 0; i < a->ntarget_inits; i++)
            if (method == a->target_inits[i]) {
                constructor_run(a, jni, thread, method);
                return;
            }
        for (int i = 0; i < a->nclinit_entries; i++)
            if (method == a->clinit_entries[i]) {
                a->hooks.pre_begin(a, jni, thread, method, 1); /* a way in HotSpot steps */
                return;
            }
    }
    struct init_site site;
    if (a->target_init_done || !find_site(a, method, loc, &site))
        return;
    if ((*jni)->PushLocalFrame(jni, 16) != 0) {
        (*jni)->ExceptionClear(jni);
        return;
    }
    uint8_t op = site.op;
    cp_str owner = site.owner, name = site.name, desc = site.desc;
    jclass target = clinit_named_class(a, jni, method, owner); /* not counted: no extent */
    /* the class itself must declare the member: one inherited from a
     * superclass initializes that superclass, not this class */
    jclass owner_class = target ? clinit_declaring_class(a, jni, target, op != BC_INVOKESTATIC, name, desc, 0) : NULL;
    jthrowable thrown = NULL;
    if (owner_class != NULL && !(*jni)->IsSameObject(jni, owner_class, target))
        clear_site(a, method, loc); /* it initializes a supertype, never the class: no need to stop here again */
    else if (owner_class != NULL && clinit_uninitialized(a, target) &&
        /* (no frame pop ends this count: any method that never pops here will do) */
        a->hooks.pre_begin(a, jni, thread, a->target_clinit ? a->target_clinit : a->target, 0) == 0) {
        thrown = clinit_initialize(a, jni, target, op, name, desc); /* counted */
        a->hooks.pre_end(a, jni, thread);
    }
    if (target != NULL && !clinit_uninitialized(a, target))
        clinit_target_done(a);
    thrown = (*jni)->PopLocalFrame(jni, thrown);
    if (thrown != NULL)
        (*jni)->Throw(jni, thrown);
}
