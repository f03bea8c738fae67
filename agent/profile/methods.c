/*
 * methods.c - the once-per-method path: everything the per-bytecode path
 * needs about a method, computed on the first step into it.
 *
 * For each method: its name (for the per-method breakdown), a private copy of
 * its bytecodes (so a step never calls GetBytecodes), whether its frame is an
 * overhead root, and for every offset holding new, an invoke, invokedynamic or an
 * ldc of a class constant, the dependency key its constant-pool operand names. Constant pools are read
 * once per class (GetConstantPool) and remembered through a JVMTI tag on the
 * class object.
 */
#include "agent.h"
#include "bytecode.h"
#include "bytes.h"
#include "jvmti_util.h"
#include "keys.h"
#include "methods.h"
#include "program.h"
#include "stackmodel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A hash of a jmethodID for the method table. */
static uint32_t hash_ptr(const void *p)
{
    uintptr_t v = (uintptr_t)p;
    v ^= v >> 17;
    v *= 0x9E3779B1u;
    return (uint32_t)(v ^ (v >> 15));
}

/* The method_info of id, or NULL (lock held). */
static method_info *table_find(agent *a, jmethodID id)
{
    if (a->nmslots == 0)
        return NULL;
    for (uint32_t s = hash_ptr(id) & (a->nmslots - 1);; s = (s + 1) & (a->nmslots - 1)) {
        method_info *m = a->mslots[s];
        if (m == NULL || m->id == id)
            return m;
    }
}

/* Add m to the method table, growing it; 0, or -1 out of memory (lock held). */
static int table_insert(agent *a, method_info *m)
{
    if (a->nmethods == a->methods_cap) {
        method_info **v = grow_cap(a->methods, &a->methods_cap, 1024, sizeof *v);
        if (v == NULL)
            return -1;
        a->methods = v;
    }
    if ((a->nmethods + 1) * 2 > a->nmslots) {
        uint32_t n = a->nmslots ? a->nmslots * 2 : 2048;
        method_info **slots = calloc(n, sizeof *slots);
        if (slots == NULL)
            return -1;
        for (uint32_t i = 0; i < a->nmethods; i++) {
            uint32_t s = hash_ptr(a->methods[i]->id) & (n - 1);
            while (slots[s] != NULL)
                s = (s + 1) & (n - 1);
            slots[s] = a->methods[i];
        }
        free(a->mslots);
        a->mslots = slots;
        a->nmslots = n;
    }
    m->index = a->nmethods;
    a->methods[a->nmethods++] = m;
    uint32_t s = hash_ptr(m->id) & (a->nmslots - 1);
    while (a->mslots[s] != NULL)
        s = (s + 1) & (a->nmslots - 1);
    a->mslots[s] = m;
    return 0;
}

/* The parsed constant pool of klass, read on first use. NULL on failure. */
static class_info *class_get(agent *a, jclass klass)
{
    jvmtiEnv *jv = a->jvmti;
    jlong tag = 0;
    if (jvmti_check(a, (*jv)->GetTag(jv, klass, &tag), "GetTag") != 0)
        return NULL;
    if ((tag >> TAG_KIND_SHIFT) == TAG_CLASS_INFO)
        return a->classes[(tag & TAG_INDEX_MASK) - 1];

    class_info *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    jint count = 0, len = 0;
    if (jvmti_check(a, (*jv)->GetConstantPool(jv, klass, &count, &len, &c->cp_bytes), "GetConstantPool") == 0) {
        char err[256] = "the pool count is out of range";
        size_t used = 0;
        if (count > 0 && count <= 65535 &&
            cp_parse(&c->cp, (uint16_t)count, c->cp_bytes, (size_t)len, &used, err, sizeof err) == 0)
            c->cp_ok = 1;
        else
            agent_fail(a, "cannot read a constant pool returned by GetConstantPool: %s", err);
    }
    if (a->nclasses == a->classes_cap) {
        class_info **v = grow_cap(a->classes, &a->classes_cap, 256, sizeof *v);
        if (v == NULL) {
            free(c);
            return NULL;
        }
        a->classes = v;
    }
    a->classes[a->nclasses++] = c;
    jvmti_check(a, (*jv)->SetTag(jv, klass, ((jlong)TAG_CLASS_INFO << TAG_KIND_SHIFT) | (jlong)a->nclasses), "SetTag");
    return c;
}

/* "a/b/C" (cp_str) -> "a.b.C" into buf. */
static void binary_of(cp_str s, char *buf, size_t cap)
{
    name_binary(s.ptr, s.len, buf, cap);
}

/* Intern a key whose text is modified UTF-8 from a constant pool. */
static uint32_t intern_mutf8(agent *a, enum key_kind kind, const char *text)
{
    char *utf8 = utf8_dup(text);
    if (utf8 == NULL)
        return 0;
    uint32_t k = keys_intern(&a->keys, kind, utf8);
    free(utf8);
    return k;
}

/* The dependency key an instruction at code[pc] names, as key index + 1, or 0. */
static uint32_t key_at(agent *a, const class_info *c, const uint8_t *code, uint32_t pc)
{
    uint8_t op = code[pc];
    uint16_t idx = be_u16(&code[pc + 1]);
    char owner[1024], key[4096];
    cp_str o, n, d;
    switch (op) {
    case BC_NEW:
        if (cp_class_name(&c->cp, idx, &o) != 0)
            return 0;
        binary_of(o, owner, sizeof owner);
        return intern_mutf8(a, KEY_NEW, owner);
    case BC_INVOKEVIRTUAL:
    case BC_INVOKESPECIAL:
    case BC_INVOKESTATIC:
    case BC_INVOKEINTERFACE:
        if (cp_member_ref(&c->cp, idx, &o, &n, &d) != 0)
            return 0;
        binary_of(o, owner, sizeof owner);
        snprintf(key, sizeof key, "%s.%.*s%.*s", owner, (int)n.len, n.ptr, (int)d.len, d.ptr);
        return intern_mutf8(a, KEY_INVOKE, key);
    case BC_LDC:
    case BC_LDC_W:
        return intern_mutf8(a, KEY_LDC, "class"); /* only called for class constants */
    case BC_INVOKEDYNAMIC: {
        uint16_t bsm;
        if (cp_dynamic(&c->cp, idx, &bsm, &n, &d) != 0)
            return 0;
        snprintf(key, sizeof key, "%.*s%.*s", (int)n.len, n.ptr, (int)d.len, d.ptr);
        return intern_mutf8(a, KEY_INDY, key);
    }
    default:
        return 0;
    }
}

/* 1 when the instruction at code[pc] names a dependency key: new, invoke*,
 * and ldc/ldc_w of a class constant (ldc of a number or string costs the
 * opcode alone). */
static int names_dep(const class_info *c, const uint8_t *code, uint32_t pc)
{
    uint8_t op = code[pc];
    if (op == BC_LDC || op == BC_LDC_W) {
        uint16_t idx = op == BC_LDC ? code[pc + 1] : be_u16(&code[pc + 1]);
        return cp_tag(&c->cp, idx) == CP_CLASS;
    }
    return op == BC_NEW || (bc_flags(op) & BCF_INVOKE);
}

/* The invoke at pc (len bytes) names a method with m's own name and
 * descriptor and a return follows it: record the pair in m->tail
 * (step/step.c: tail_returns). */
static int note_self_tail_call(method_info *m, const class_info *c, uint32_t pc, uint32_t len, const char *name,
                               const char *desc)
{
    uint32_t next = pc + len;
    cp_str o, n, d;
    if (m->code[pc] == BC_INVOKEDYNAMIC || next >= m->code_len || !(bc_flags(m->code[next]) & BCF_RETURN) ||
        cp_member_ref(&c->cp, be_u16(&m->code[pc + 1]), &o, &n, &d) != 0 ||
        n.len != strlen(name) || memcmp(n.ptr, name, n.len) != 0 || d.len != strlen(desc) ||
        memcmp(d.ptr, desc, d.len) != 0)
        return 0;
    uint32_t *t = realloc(m->tail, (m->ntail + 1) * 2 * sizeof *t);
    if (t == NULL)
        return -1;
    m->tail = t;
    m->tail[2 * m->ntail] = pc;
    m->tail[2 * m->ntail + 1] = next;
    m->ntail++;
    return 0;
}

/* 1 when an invokestatic key names a java.lang.Math method that HotSpot 17's
 * template interpreter runs as an intrinsic entry (AbstractInterpreter's
 * java_lang_math_* kinds): it runs no bytecode like a native, but returns
 * without a native wrapper's fence. */
static int math_intrinsic(const char *key)
{
    static const char *const names[] = {
        "java.lang.Math.sin(D)D", "java.lang.Math.cos(D)D", "java.lang.Math.tan(D)D",
        "java.lang.Math.abs(D)D", "java.lang.Math.sqrt(D)D", "java.lang.Math.log(D)D",
        "java.lang.Math.log10(D)D", "java.lang.Math.pow(DD)D", "java.lang.Math.exp(D)D",
        "java.lang.Math.fma(DDD)D", "java.lang.Math.fma(FFF)F",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(key, names[i]) == 0)
            return 1;
    return 0;
}

int methods_no_fence(const char *key)
{
    return math_intrinsic(key);
}

/* Fill m->dep from the method's code and its class's constant pool, and
 * for a method whose static accesses clinit.c checks (init_sites != 0: the
 * program's, reflection's accessors) m->init_site; for any other method
 * (the JDK's: boot and platform loaders) DEP_WATCH and m->watch_site on
 * its static accesses, whose resolution linkage.c watches. */
static int compute_deps(agent *a, method_info *m, jclass klass, const char *name, const char *desc, int init_sites)
{
    int any = 0, triggers = 0, watch = 0;
    for (uint32_t pc = 0; pc < m->code_len;) {
        uint32_t len = bc_insn_length(m->code, m->code_len, pc);
        if (len == 0)
            break;
        uint8_t op = m->code[pc];
        if (op == BC_NEW || (bc_flags(op) & BCF_INVOKE) || op == BC_LDC || op == BC_LDC_W || op == BC_ANEWARRAY ||
            op == BC_MULTIANEWARRAY)
            any = 1; /* an ldc may name a class: its constant pool tells; the arrays' classes, step/arrays.c own_array */
        if (init_sites && (program_init_trigger(op) || op == BC_INVOKEDYNAMIC))
            triggers = 1;
        if (!init_sites && program_init_trigger(op))
            watch = any = 1;
        pc += len;
    }
    if (!any && !triggers)
        return 0;
    class_info *c = class_get(a, klass);
    if (c == NULL || !c->cp_ok)
        return -1;
    m->cls = c;
    if (triggers) {
        m->init_site = calloc(m->code_len, sizeof *m->init_site);
        if (m->init_site == NULL)
            return -1;
        for (uint32_t pc = 0; pc < m->code_len;) {
            uint32_t len = bc_insn_length(m->code, m->code_len, pc);
            if (len == 0)
                break; /* reported below */
            if (program_init_trigger(m->code[pc]) || m->code[pc] == BC_INVOKEDYNAMIC)
                atomic_init(&m->init_site[pc], 1);
            pc += len;
        }
    }
    if (!any)
        return 0;
    m->dep = calloc(m->code_len, sizeof *m->dep);
    if (m->dep == NULL)
        return -1;
    if (watch) {
        m->watch_site = calloc(m->code_len, sizeof *m->watch_site);
        if (m->watch_site == NULL)
            return -1;
    }
    int named = watch;
    for (uint32_t pc = 0; pc < m->code_len;) {
        uint32_t len = bc_insn_length(m->code, m->code_len, pc);
        if (len == 0) {
            agent_fail(a, "malformed bytecode at offset %u of %s", pc, m->name);
            return -1;
        }
        uint8_t op = m->code[pc];
        if (names_dep(c, m->code, pc)) {
            named = 1;
            m->dep[pc] = key_at(a, c, m->code, pc);
            if (m->dep[pc] == 0)
                agent_fail(a, "cannot resolve the constant-pool operand at offset %u of %s", pc, m->name);
            else if (op == BC_INVOKESTATIC && math_intrinsic(a->keys.names[m->dep[pc] - 1]))
                m->dep[pc] |= DEP_NO_FENCE;
        }
        if (watch && program_init_trigger(op)) {
            m->dep[pc] |= DEP_WATCH;
            atomic_init(&m->watch_site[pc], 1);
        }
        if ((bc_flags(op) & BCF_INVOKE) && note_self_tail_call(m, c, pc, len, name, desc) != 0)
            return -1;
        pc += len;
    }
    if (!named) { /* only ldc of numbers and strings: the per-step path skips the method */
        free(m->dep);
        m->dep = NULL;
    }
    return 0;
}

/* How a frame of this method relates to the overhead bucket (enum root_kind). */
static uint8_t root_kind_of(const char *cls, const char *name, const char *desc)
{
    if (strcmp(name, "<clinit>") == 0)
        return ROOT_ALWAYS;
    if (strcmp(cls, "java.lang.invoke.MethodHandleNatives") == 0 &&
        (strcmp(name, "linkCallSite") == 0 || strcmp(name, "linkDynamicConstant") == 0 ||
         strcmp(name, "linkMethod") == 0 || strcmp(name, "linkMethodHandleConstant") == 0 ||
         strcmp(name, "findMethodHandleType") == 0))
        return ROOT_ALWAYS;
    if (strcmp(name, "loadClass") == 0 && strcmp(desc, "(Ljava/lang/String;)Ljava/lang/Class;") == 0)
        return ROOT_IF_UPCALL;
    /* the JVM's call at a thread's end: its thread group's bookkeeping,
     * which races with threads nobody schedules (the launcher's
     * DestroyJavaVM thread joining the main group): overhead */
    if (strcmp(cls, "java.lang.Thread") == 0 && strcmp(name, "exit") == 0 && strcmp(desc, "()V") == 0)
        return ROOT_ALWAYS;
    /* Thread.start(), and on JDK 19 and later Thread.start(ThreadContainer),
     * through which executors and ForkJoin pools start their workers
     * (SharedThreadContainer.start) without calling start() */
    if (strcmp(cls, "java.lang.Thread") == 0 && strcmp(name, "start") == 0 &&
        (strcmp(desc, "()V") == 0 || strcmp(desc, "(Ljdk/internal/vm/ThreadContainer;)V") == 0))
        return ROOT_THREAD_START;
    /* JDK 21+: every virtual thread starts here (Thread.ofVirtual,
     * Executors.newVirtualThreadPerTaskExecutor, Thread.startVirtualThread) */
    if (strcmp(cls, "java.lang.VirtualThread") == 0 && strcmp(name, "start") == 0 &&
        strcmp(desc, "(Ljdk/internal/vm/ThreadContainer;)V") == 0)
        return ROOT_VIRTUAL_START;
    /* JDK 21+: a carrier thread runs a virtual thread's code from here
     * (one started before the method, which nothing refused at its start) */
    if (strcmp(cls, "java.lang.VirtualThread") == 0 && strcmp(name, "runContinuation") == 0 &&
        strcmp(desc, "()V") == 0)
        return ROOT_VIRTUAL_MOUNT;
    return ROOT_NONE;
}

char *method_full_name(const char *csig, const char *name, const char *desc, char *cls, size_t clslen)
{
    if (name_from_signature(csig, 0, cls, clslen) == 0)
        snprintf(cls, clslen, "%s", csig);
    size_t need = strlen(cls) + strlen(name) + strlen(desc) + 2;
    char *full = malloc(need);
    if (full == NULL)
        return NULL;
    snprintf(full, need, "%s.%s%s", cls, name, desc);
    char *utf8 = utf8_dup(full);
    free(full);
    return utf8;
}

/* Build a method_info (lock held). */
static method_info *method_create(agent *a, JNIEnv *jni, jmethodID id)
{
    jvmtiEnv *jv = a->jvmti;
    char *name = NULL, *desc = NULL, *csig = NULL;
    jclass klass = NULL;
    method_info *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    m->id = id;
    if (jvmti_check(a, (*jv)->GetMethodName(jv, id, &name, &desc, NULL), "GetMethodName") != 0 ||
        jvmti_check(a, (*jv)->GetMethodDeclaringClass(jv, id, &klass), "GetMethodDeclaringClass") != 0 ||
        jvmti_check(a, (*jv)->GetClassSignature(jv, klass, &csig, NULL), "GetClassSignature") != 0)
        goto fail;
    char cls[1024];
    m->name = method_full_name(csig, name, desc, cls, sizeof cls);
    if (m->name == NULL)
        goto fail;
    m->bp_seed = bp_seed(m->name);
    m->root = root_kind_of(cls, name, desc);
    /* the program's own static initializers are work (clinit.c) */
    int program = program_class(a, jni, klass);
    m->program = (uint8_t)(program != 0);
    if (program && m->root == ROOT_ALWAYS && strcmp(name, "<clinit>") == 0)
        m->root = ROOT_NONE;
    if (m->root == ROOT_IF_UPCALL) {
        /* only a class loader's loadClass is the JVM's upcall: a method of
         * that name elsewhere must not turn its work into overhead */
        jclass loader = (*jni)->FindClass(jni, "java/lang/ClassLoader");
        if (loader == NULL || !(*jni)->IsAssignableFrom(jni, klass, loader))
            m->root = ROOT_NONE;
        if (loader == NULL)
            (*jni)->ExceptionClear(jni);
    }

    jboolean is_native = JNI_FALSE;
    if (jvmti_check(a, (*jv)->IsMethodNative(jv, id, &is_native), "IsMethodNative") != 0)
        goto fail;
    m->frame_cost = sm_cost(0);
    if (!is_native) {
        /* its frames' modelled stack use: max_locals, as in the class file
         * (the fast engine reads it there, fast/registry.c) */
        jint locals = 0;
        if (jvmti_check(a, (*jv)->GetMaxLocals(jv, id, &locals), "GetMaxLocals") != 0)
            goto fail;
        m->frame_cost = sm_cost(locals > 0 ? (uint32_t)locals : 0);
        jint len = 0;
        unsigned char *code = NULL;
        if (jvmti_check(a, (*jv)->GetBytecodes(jv, id, &len, &code), "GetBytecodes") != 0)
            goto fail;
        m->code = malloc(len > 0 ? (size_t)len : 1);
        if (m->code == NULL) {
            jvmti_free(a, code);
            goto fail;
        }
        memcpy(m->code, code, (size_t)len);
        m->code_len = (uint32_t)len;
        jvmti_free(a, code);
        if (compute_deps(a, m, klass, name, desc, program || init_sites_class(a, jni, klass)) != 0)
            agent_fail(a, "dependency keys of %s are incomplete", m->name);
    }
    jvmti_free(a, name);
    jvmti_free(a, desc);
    jvmti_free(a, csig);
    return m;
fail:
    jvmti_free(a, name);
    jvmti_free(a, desc);
    jvmti_free(a, csig);
    free(m->name);
    free(m->code);
    free(m->dep);
    free(m->tail);
    free((void *)m->init_site);
    free((void *)m->watch_site);
    free(m);
    return NULL;
}

/* The method_info of id, made on first use (takes a->lock); NULL on failure. */
method_info *methods_get(agent *a, JNIEnv *jni, jmethodID id)
{
    lock_enter(a);
    method_info *m = table_find(a, id);
    if (m == NULL) {
        m = method_create(a, jni, id);
        if (m != NULL && table_insert(a, m) != 0) {
            agent_fail(a, "out of memory in the method table");
            m = NULL; /* leaks one method_info; the profile reports agent_error */
        }
    }
    lock_exit(a);
    return m;
}

/* The fast engine's entry for a method it counted by probes (fast.c): a
 * method_info with a name and the original code but no jmethodID, whose
 * counters the probes' hits fill when the run ends (lock held). NULL when
 * out of memory. */
method_info *methods_add_plain(agent *a, const char *name, const uint8_t *code, uint32_t code_len)
{
    method_info *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    m->name = strdup(name);
    m->code = malloc(code_len ? code_len : 1);
    if (m->name == NULL || m->code == NULL || table_insert(a, m) != 0) {
        free(m->name);
        free(m->code);
        free(m);
        return NULL;
    }
    memcpy(m->code, code, code_len);
    m->code_len = code_len;
    m->bp_seed = bp_seed(m->name);
    return m;
}

/* The dependency key (index + 1) the instruction at code[pc] names through
 * the constant pool cp, as the step engine keys it, or 0 when it names
 * none: for the fast engine, which reads the pool from the class file
 * (lock held). */
uint32_t methods_key_of(agent *a, const cpool *cp, const uint8_t *code, uint32_t pc)
{
    class_info c = {.cp = *cp, .cp_ok = 1};
    return names_dep(&c, code, pc) ? key_at(a, &c, code, pc) : 0;
}

/* The overhead role of a method by its class's binary name, name and
 * descriptor (root_kind_of), for the fast engine, which sees methods as
 * class-file entries. */
uint8_t methods_root_kind(const char *cls, const char *name, const char *desc)
{
    return root_kind_of(cls, name, desc);
}

/* klass's parsed constant pool, read once and kept (takes a->lock). */
const class_info *methods_class(agent *a, jclass klass)
{
    lock_enter(a);
    class_info *c = class_get(a, klass);
    lock_exit(a);
    return c != NULL && c->cp_ok ? c : NULL;
}
