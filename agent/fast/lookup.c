/*
 * lookup.c - the rewritten methods found again: by probe id (fast_method_of), by
 * name or by a frame's jmethodID (fast_method_by_name, fast_method_named: a hash on
 * the name, as the probes of exception constructors and overhead roots look
 * frames up, in some runs millions of times), and the constant pool of a
 * method's kept class file (fast_pool_of). The registry (registry.c) fills the
 * tables; the probes' natives, the exception and limit fixes, the arrays
 * and the collection at the end read them through here.
 */

#include "fast.h"
#include "jvmti_util.h"
#include "methods.h"

/* The fast_method that probe id belongs to (binary search by first_id), or NULL. */
fast_method *fast_method_of(agent *a, uint32_t id)
{
    uint32_t lo = 0, hi = a->fast.nmethods;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a->fast.methods[mid].first_id <= id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    fast_method *fm = &a->fast.methods[lo - 1];
    return id - fm->first_id < fm->blocks.nblocks ? fm : NULL;
}

/* The constant pool of fm's class, parsed on first use (lock held); NULL
 * when it cannot be read (reported). */
const cpool *fast_pool_of(agent *a, const fast_method *fm)
{
    fast_class *fc = &a->fast.classes[fm->cls];
    if (!fc->parsed) {
        char err[256];
        if (cf_parse(&fc->cf, fc->bytes, fc->len, err, sizeof err) != 0) {
            fast_problem(a, "the class of %s cannot be read again: %s", fm->name, err);
            return NULL;
        }
        fc->parsed = 1;
    }
    return &fc->cf.cp;
}

/* A method's name as fast_method.name has it, "pkg.Class.name(desc)" in
 * UTF-8 (malloc'd; method_full_name, as methods.c names it), or NULL. */
char *fast_full_name(agent *a, jmethodID id)
{
    jvmtiEnv *jv = a->jvmti;
    char *name = NULL, *desc = NULL, *csig = NULL, *utf8 = NULL;
    jclass klass = NULL;
    if ((*jv)->GetMethodName(jv, id, &name, &desc, NULL) == JVMTI_ERROR_NONE &&
        (*jv)->GetMethodDeclaringClass(jv, id, &klass) == JVMTI_ERROR_NONE &&
        (*jv)->GetClassSignature(jv, klass, &csig, NULL) == JVMTI_ERROR_NONE) {
        char cls[1024];
        utf8 = method_full_name(csig, name, desc, cls, sizeof cls);
    }
    jvmti_free(a, name);
    jvmti_free(a, desc);
    jvmti_free(a, csig);
    return utf8;
}

/* FNV-1a of a method's name "pkg.Class.name(desc)". */
static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s != '\0'; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* Make methods[index] the one fast_method_by_name finds for its name: into that
 * name's slot, or an empty one (lock held; the table has room). */
static void by_name_put(agent *a, uint32_t index)
{
    uint32_t mask = a->fast.by_name_cap - 1;
    const char *name = a->fast.methods[index].name;
    for (uint32_t i = name_hash(name) & mask;; i = (i + 1) & mask) {
        uint32_t e = a->fast.by_name[i];
        if (e == 0 || strcmp(a->fast.methods[e - 1].name, name) == 0) {
            a->fast.by_name[i] = index + 1;
            return;
        }
    }
}

/* Index methods[index], just kept, by name; the table doubles when it
 * would be more than half full, refilled in rewriting order so that the
 * last method of a name wins (lock held). 0, or -1 when out of memory. */
/* Add methods[index], named, to the table; growing it puts back every
 * method named so far (a place fast_reserve_slots made, not yet filled, has no
 * name), in index order, so that of two methods of one name the later
 * stays found. */
int fast_by_name_add(agent *a, uint32_t index)
{
    if ((uint64_t)a->fast.by_name_n + 1 > a->fast.by_name_cap / 2) {
        uint32_t cap = a->fast.by_name_cap ? a->fast.by_name_cap * 2 : 8192;
        uint32_t *t = calloc(cap, sizeof *t);
        if (t == NULL)
            return -1;
        free(a->fast.by_name);
        a->fast.by_name = t;
        a->fast.by_name_cap = cap;
        for (uint32_t i = 0; i < a->fast.nmethods; i++)
            if (i != index && a->fast.methods[i].name != NULL)
                by_name_put(a, i);
    }
    by_name_put(a, index);
    a->fast.by_name_n++;
    return 0;
}

/* The instrumented method of that name, the one rewritten last (a class
 * retransformed later has new ids); NULL if none (lock held). A hash
 * lookup: the probes of exception constructors and overhead roots look
 * frames up by name, in some runs millions of times, among tens of
 * thousands of methods. */
fast_method *fast_method_by_name(agent *a, const char *name)
{
    if (name == NULL || a->fast.by_name_cap == 0)
        return NULL;
    uint32_t mask = a->fast.by_name_cap - 1;
    for (uint32_t i = name_hash(name) & mask;; i = (i + 1) & mask) {
        uint32_t e = a->fast.by_name[i];
        if (e == 0)
            return NULL;
        if (strcmp(a->fast.methods[e - 1].name, name) == 0)
            return &a->fast.methods[e - 1];
    }
}

/* The fast_method of a frame's method, by its name "pkg.Class.name(desc)";
 * NULL when no instrumented method has it. */
fast_method *fast_method_named(agent *a, jmethodID id)
{
    char *name = fast_full_name(a, id);
    lock_enter(a);
    fast_method *found = fast_method_by_name(a, name);
    lock_exit(a);
    free(name);
    return found;
}
