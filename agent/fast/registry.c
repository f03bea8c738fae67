/*
 * registry.c - the class registry and rewriting: every class through the
 * ClassFileLoadHook (fast_class_file_load), and every hidden class as
 * ClassLoader.defineClass0 defines it (hidden.c), rewritten by the pure rewriter
 * (classfile/instrument.h) with probe ids, sites and call sites handed out
 * under the agent's lock, and each method's block table kept for the
 * whole run (a->fast.methods, in id order).
 */

#include "bytes.h"
#include "fast.h"
#include "fast_api.h"
#include "jvmti_util.h"
#include "methods.h"
#include "program.h"
#include "stackmodel.h"

/* The capacity that holds `need` entries: `cap` doubled (from `first`
 * when 0) until it does. */
static uint32_t grown_cap(uint32_t cap, uint32_t first, uint32_t need)
{
    if (cap == 0)
        cap = first;
    while (cap < need)
        cap *= 2;
    return cap;
}

/* Reallocate the table `ptr` to `cap` entries, or return -1 from the
 * caller (the table unchanged, its capacity field not yet raised: the
 * next call grows it again). */
#define RESIZE_OR_RETURN(ptr, cap)                                        \
    do {                                                                  \
        void *resized_ = realloc((ptr), (size_t)(cap) * sizeof *(ptr));   \
        if (resized_ == NULL)                                             \
            return -1;                                                    \
        (ptr) = resized_;                                                 \
    } while (0)

/* Grow the id tables to hold `need` ids (lock held); 0 or -1. */
static int ids_reserve(agent *a, uint32_t need)
{
    if (need <= a->fast.len_cap)
        return 0;
    uint32_t cap = grown_cap(a->fast.len_cap, 65536, need);
    RESIZE_OR_RETURN(a->fast.len, cap);
    RESIZE_OR_RETURN(a->fast.site, cap);
    RESIZE_OR_RETURN(a->fast.flags, cap);
    a->fast.len_cap = cap;
    return 0;
}


/* Hand fm (a->fast.methods[index]) the array sites the rewriter gave im,
 * one per level of each array instruction in code order (lock held); 0 or
 * -1 (OOM, or a count that disagrees with the rewriter's: reported). */
static int keep_sites(agent *a, uint32_t index, const fast_method *fm, const ins_method *im)
{
    if (im->nsites == 0)
        return 0;
    uint32_t need = im->first_site + im->nsites;
    if (need > a->fast.sites_cap) {
        uint32_t cap = grown_cap(a->fast.sites_cap, 4096, need);
        RESIZE_OR_RETURN(a->fast.sites, cap);
        RESIZE_OR_RETURN(a->fast.arrayseg, cap);
        a->fast.sites_cap = cap;
    }
    /* the array instructions' levels; the calls of natives that make an
     * array (a site each) only when there are more sites than levels: the
     * constant pool is read for those alone */
    uint32_t levels = 0;
    for (uint32_t pc = 0; pc < fm->code_len; pc++)
        if ((fm->blocks.mark[pc] & BLK_MARK_INSN) && (bc_flags(fm->code[pc]) & BCF_NEWARRAY))
            levels += fm->code[pc] == BC_MULTIANEWARRAY ? fm->code[pc + 3] : 1;
    const cpool *cp = levels < im->nsites ? fast_pool_of(a, fm) : NULL;
    uint32_t site = im->first_site;
    for (uint32_t pc = 0; pc < fm->code_len; pc++) {
        if (!(fm->blocks.mark[pc] & BLK_MARK_INSN))
            continue;
        if (bc_flags(fm->code[pc]) & BCF_NEWARRAY) {
            uint32_t dims = fm->code[pc] == BC_MULTIANEWARRAY ? fm->code[pc + 3] : 1;
            for (uint32_t level = 0; level < dims && site < need; level++) {
                a->fast.arrayseg[site] = level == 0 ? seg_after(fm, pc) : 0; /* the probe passes the first */
                a->fast.sites[site++] = (fast_site){index, pc, level, 0, 0};
            }
        } else if (cp != NULL && site < need) {
            int makes = ins_makes_array(cp, fm->code, pc);
            if (makes) {
                a->fast.arrayseg[site] = 0; /* the return probe before it adds the segment */
                a->fast.sites[site++] = (fast_site){index, pc, 0, 0, (uint32_t)makes};
            }
        }
    }
    if (site != need) {
        fast_problem(a, "the array sites of %s do not match its array instructions", fm->name);
        return 0;
    }
    return 0;
}

/* Hand fm (a->fast.methods[index]) the call sites the rewriter gave im,
 * one per invoke (invokedynamic too) and per new in code order (lock held); 0 or -1
 * (OOM, or a count that disagrees with the rewriter's: reported). */
static int keep_calls(agent *a, uint32_t index, const fast_method *fm, const ins_method *im)
{
    if (im->ncalls == 0)
        return 0;
    uint32_t need = im->first_call + im->ncalls;
    if (need > a->fast.calls_cap) {
        uint32_t cap = grown_cap(a->fast.calls_cap, 16384, need);
        RESIZE_OR_RETURN(a->fast.calls, cap);
        RESIZE_OR_RETURN(a->fast.callseg, cap);
        a->fast.calls_cap = cap;
    }
    uint32_t site = im->first_call;
    for (uint32_t pc = 0; pc < fm->code_len && site < need; pc++)
        if ((fm->blocks.mark[pc] & BLK_MARK_INSN) &&
            ((fm->code[pc] >= BC_INVOKEVIRTUAL && fm->code[pc] <= BC_INVOKEDYNAMIC) || fm->code[pc] == BC_NEW)) {
            a->fast.callseg[site] = seg_after(fm, pc);
            a->fast.calls[site++] = (fast_call){index, pc};
        }
    if (site != need)
        fast_problem(a, "the call sites of %s do not match its invokes", fm->name);
    return 0;
}

/* Room for one more method in a->fast.methods (lock held); 0 or -1. */
static int methods_grow(agent *a)
{
    if (a->fast.nmethods < a->fast.methods_cap)
        return 0;
    fast_method *v = grow_cap(a->fast.methods, &a->fast.methods_cap, 4096, sizeof *v);
    if (v == NULL)
        return -1;
    a->fast.methods = v;
    return 0;
}

/* Copies at most max bytes of s (a pool's Utf8, which holds no zero
 * byte) to out, and a zero after them; how many it copied. Every method of
 * every class passes here, three times: no snprintf. */
static size_t put_clipped(char *out, cp_str s, size_t max)
{
    size_t n = s.len < max ? s.len : max;
    memcpy(out, s.ptr, n);
    out[n] = '\0';
    return n;
}

/* The name a method of class cls (binary name) has in the profile, and
 * whose bp_seed seeds its branch sites: UTF-8, malloc'd (NULL when out of
 * memory). */
static char *method_name(const char *cls, cp_str name, cp_str desc)
{
    char full[8192];
    size_t c = strlen(cls);
    if (c > 1023) /* cls is at most 1023 bytes (fast_rewrite's buffer) */
        c = 1023;
    memcpy(full, cls, c);
    full[c++] = '.';
    c += put_clipped(full + c, name, 1023);
    put_clipped(full + c, desc, 4095);
    return utf8_dup(full);
}

/* Keep the rewritten class's methods (lock held), cls the class's name:
 * name, original code, block table (moved out of r), ids and block lengths; each in a place of
 * its own at the end of a->fast.methods, or with slots, in the places
 * fast_reserve_slots gave the instrumented ones, in method order. 0 or -1 (OOM). */
static int keep_methods(agent *a, const classfile *cf, ins_result *r, const char *cls, int program, int init_sites,
                        const uint8_t *data, size_t len, const uint32_t *slots)
{
    if (slots == NULL && ids_reserve(a, r->next_id) != 0)
        return -1;
    uint32_t nslot = 0;
    if (a->fast.nclasses == a->fast.classes_cap) {
        fast_class *v = grow_cap(a->fast.classes, &a->fast.classes_cap, 1024, sizeof *v);
        if (v == NULL)
            return -1;
        a->fast.classes = v;
    }
    fast_class *fc = &a->fast.classes[a->fast.nclasses];
    memset(fc, 0, sizeof *fc);
    fc->bytes = malloc(len);
    if (fc->bytes == NULL)
        return -1;
    memcpy(fc->bytes, data, len);
    fc->len = len;
    uint32_t cls_index = a->fast.nclasses++;
    for (uint16_t i = 0; i < r->nmethods; i++) {
        ins_method *im = &r->methods[i];
        if (im->status == INS_METHOD_NO_CODE)
            continue;
        if (im->status != INS_METHOD_DONE) {
            fast_problem(a, "%s.%.*s%.*s is not instrumented: %s", cls, (int)im->name.len, im->name.ptr,
                         (int)im->desc.len, im->desc.ptr, im->why);
            continue;
        }
        if (slots == NULL && methods_grow(a) != 0)
            return -1;
        uint32_t index = slots != NULL ? slots[nslot++] : a->fast.nmethods;
        const cf_method *cm = &cf->methods[i];
        /* a finalize() HotSpot calls (not just `return`): the Finalizer
         * thread runs it after whichever collection finds the object dead,
         * and the fast engine runs the method too fast to tell whether that
         * falls inside it as in the step engine's run */
        if (program && im->name.len == 8 && memcmp(im->name.ptr, "finalize", 8) == 0 && im->desc.len == 3 &&
            memcmp(im->desc.ptr, "()V", 3) == 0 && cm->code_len > 0 && !(cm->code_len == 1 && cm->code[0] == 0xb1))
            fast_problem(a, "%s declares finalize(): the JVM's Finalizer thread runs it whenever a collection "
                            "finds such an object dead, and only the step engine's run shows what of that falls "
                            "inside the method", cls);
        char name[1024], desc[4096];
        put_clipped(name, im->name, sizeof name - 1);
        put_clipped(desc, im->desc, sizeof desc - 1);
        fast_method *fm = &a->fast.methods[index];
        memset(fm, 0, sizeof *fm);
        fm->name = method_name(cls, im->name, im->desc);
        fm->code = malloc(cm->code_len ? cm->code_len : 1);
        if (fm->name == NULL || fm->code == NULL) {
            free(fm->name);
            free(fm->code);
            return -1;
        }
        memcpy(fm->code, cm->code, cm->code_len);
        fm->code_len = cm->code_len;
        fm->blocks = im->blocks;
        memset(&im->blocks, 0, sizeof im->blocks); /* moved: ins_free leaves them */
        fm->pcs = im->pcs;
        fm->npcs = im->npcs;
        fm->new_len = im->new_len;
        im->pcs = NULL;
        fm->first_id = im->first_id;
        fm->cls = cls_index;
        fm->cf_index = i;
        fm->root = methods_root_kind(cls, name, desc);
        if (program && fm->root == ROOT_ALWAYS && strcmp(name, "<clinit>") == 0)
            fm->root = ROOT_NONE; /* the program's own initializers are work (as methods.c) */
        /* a lambda's proxy is the program's by its loader, but its
         * constructor, which LambdaMetafactory runs while it links the
         * call site where HotSpot hides single-stepping, is the JDK's code
         * there (linkage.c): its blocks do not flag the program's code run
         * hidden */
        size_t cl = strlen(cls);
        int proxy_init = cl > 4 && strcmp(cls + cl - 4, "/0x0") == 0 && strstr(cls, "$$Lambda") != NULL &&
                         strcmp(name, "<init>") == 0;
        fm->program = (uint8_t)(program != 0);
        fm->init_sites = (uint8_t)(init_sites != 0);
        fm->root_probes = im->calls == 2;
        uint32_t seed = bp_seed(fm->name);
        for (uint32_t b = 0; b < fm->blocks.nblocks; b++) {
            const blk_block *bb = &fm->blocks.blocks[b];
            if (bb->ninsns > SEG_LEN)
                fast_problem(a, "%s has a block of %u bytecodes (the fast engine packs lengths in 15 bits)", fm->name,
                             bb->ninsns);
            uint32_t first = seg_from(fm, bb, bb->start);
            a->fast.len[fm->first_id + b] = (bb->ninsns & SEG_LEN) | (first & SEG_LEN) << 15 |
                                            ((first & SEG_ALLOC) ? 1u << 30 : 0) |
                                            (bc_goto_self(fm->code, fm->code_len, bb->start) ? LEN_ENDLESS : 0);
            /* the step engine's site of this branch: its method's name, its
             * offset in the original code */
            a->fast.site[fm->first_id + b] = bb->end_kind == BLK_END_COND ? bp_site(seed, bb->last) : 0;
            a->fast.flags[fm->first_id + b] = fm->program && !proxy_init ? FLAG_PROGRAM : 0;
        }
        /* its frames' modelled stack use, from the original class file's
         * max_locals (the step engine asks the JVM, methods.c: the same) */
        if (fm->blocks.nblocks > 0)
            a->fast.flags[fm->first_id] |= sm_cost(cm->max_locals) << FLAG_COST_SHIFT;
        if (keep_sites(a, index, fm, im) != 0 || keep_calls(a, index, fm, im) != 0)
            return -1;
        if (slots == NULL)
            a->fast.nmethods++;
        if (fast_by_name_add(a, index) != 0)
            return -1;
    }
    return 0;
}

/*
 * The places the methods of a class rewritten during the start's
 * retransformation on two threads (fast_retransform_loaded) reserved, in method
 * order: a->fast.methods stays in probe-id order, as fast_method_of's search
 * needs, whichever thread's class comes first.
 */
typedef struct slot_list {
    agent *a;
    uint32_t *slots;
    uint32_t n, cap;
} slot_list;

/* The rewriter's reserve: the method's probe ids, array sites and call
 * sites, and its place in a->fast.methods, with the id tables grown to
 * hold them (under the lock); 0 or -1. */
int fast_reserve_slots(void *ctx, uint32_t ids, uint32_t sites, uint32_t calls, uint32_t *first_id,
                  uint32_t *first_site, uint32_t *first_call)
{
    slot_list *l = ctx;
    agent *a = l->a;
    if (l->n == l->cap) {
        uint32_t *v = grow_cap(l->slots, &l->cap, 64, sizeof *v);
        if (v == NULL)
            return -1;
        l->slots = v;
    }
    lock_enter(a);
    int bad = (uint64_t)a->fast.next_id + ids > INT32_MAX || (uint64_t)a->fast.next_site + sites > INT32_MAX ||
              (uint64_t)a->fast.next_call + calls > INT32_MAX || ids_reserve(a, a->fast.next_id + ids) != 0 ||
              methods_grow(a) != 0;
    if (!bad) {
        *first_id = a->fast.next_id;
        *first_site = a->fast.next_site;
        *first_call = a->fast.next_call;
        a->fast.next_id += ids;
        a->fast.next_site += sites;
        a->fast.next_call += calls;
        fast_method *fm = &a->fast.methods[a->fast.nmethods];
        memset(fm, 0, sizeof *fm);  /* no blocks: fast_method_of finds it once keep_methods filled it */
        fm->first_id = *first_id;
        l->slots[l->n++] = a->fast.nmethods++;
    }
    lock_exit(a);
    return bad ? -1 : 0;
}

/* What the rewriter's calls_filter needs to know of the class. */
typedef struct calls_ctx {
    const agent *a;
    const char *cls;            /* binary name */
    int measured;               /* it is the measured class (by name) */
    int oom;                    /* seed_of ran out of memory: the sites it gave are wrong */
} calls_ctx;

/* The rewriter's branch_seed: bp_seed of the method's name, as keep_methods
 * gives it the sites of the branches that keep their probes. */
static uint32_t seed_of(void *ctx, cp_str name, cp_str desc)
{
    calls_ctx *c = ctx;
    char *full = method_name(c->cls, name, desc);
    if (full == NULL) {
        c->oom = 1;
        return 0;
    }
    uint32_t seed = bp_seed(full);
    free(full);
    return seed;
}

/* Whether s, a name or descriptor from a class file (modified UTF-8), is
 * utf8 (standard UTF-8, as the spec is written): the step engine converts
 * JVMTI's names before it compares them (target.c), so a name with
 * characters beyond U+FFFF (surrogate pairs here) must match the same way. */
static int mutf8_is(cp_str s, const char *utf8)
{
    size_t n = strlen(utf8);
    if (memchr(s.ptr, 0xED, s.len) == NULL && memchr(s.ptr, 0xC0, s.len) == NULL)
        return s.len == n && memcmp(s.ptr, utf8, n) == 0; /* no surrogate, no NUL: the same bytes */
    char *u = malloc(2 * (size_t)s.len + 1);
    if (u == NULL)
        return 0;
    size_t need = mutf8_to_utf8(s.ptr, s.len, u, 2 * (size_t)s.len + 1);
    int same = need == n && memcmp(u, utf8, n) == 0;
    free(u);
    return same;
}

/* The rewriter's calls_filter: 1, the entry and exit probes, for the
 * methods of the measured class (by name: ClassPrepare has not found it
 * yet) with the measured method's name and, when the spec gives one,
 * descriptor; 2, the root entry and exit probes, for every method that may
 * open an overhead frame (methods_root_kind: JDK initializers, loadClass,
 * method-handle linkage, Thread.exit) and for every static initializer (the
 * program's too: where the JVM runs one decides whether the step engine
 * sees it, probe_root). */
static int calls_of(void *ctx, cp_str name, cp_str desc)
{
    const calls_ctx *c = ctx;
    const char *d = c->a->spec.descriptor;
    if (c->measured && mutf8_is(name, c->a->spec.name) && (d == NULL || mutf8_is(desc, d)))
        return 1;
    char n[256], ds[256];
    if (name.len >= sizeof n || desc.len >= sizeof ds)
        return 0; /* no root has a name or descriptor that long */
    memcpy(n, name.ptr, name.len);
    n[name.len] = '\0';
    memcpy(ds, desc.ptr, desc.len);
    ds[desc.len] = '\0';
    uint8_t root = methods_root_kind(c->cls, n, ds);
    return root == ROOT_ALWAYS || root == ROOT_IF_UPCALL ? 2 : 0;
}

/* data, a hidden class's bytes (len), with its own name's Utf8 entry
 * (this_class's) ending in "+0x0": len + 4 bytes, malloc'd, or NULL (out
 * of memory, or a name too long to grow). */
static uint8_t *hidden_kept_bytes(const classfile *cf, const unsigned char *data, size_t len)
{
    const uint8_t *name = (const uint8_t *)cf->this_name.ptr;
    if (name < data + 3 || name + cf->this_name.len > data + len || cf->this_name.len + 4 > 0xFFFF)
        return NULL;
    size_t at = (size_t)(name - data), n = cf->this_name.len;
    uint8_t *out = malloc(len + 4);
    if (out == NULL)
        return NULL;
    memcpy(out, data, at - 2);
    be_put_u16(out + at - 2, (uint16_t)(n + 4));
    memcpy(out + at, name, n);
    memcpy(out + at + n, "+0x0", 4);
    memcpy(out + at + n + 4, name + n, len - at - n);
    return out;
}

/*
 * Rewrite a class with block probes, ids from a->fast.next_id; the measured
 * method also gets the entry and exit probes that open and close its
 * extents. A hidden class (hidden.c) is named as the step engine names it,
 * "pkg.Name/0x0", and is never the measured class. Returns 1 with the
 * rewritten class in *out (malloc'd, *out_len bytes), 0 when the class keeps
 * its bytes (no bytecode, or a class that cannot be rewritten: recorded as
 * a problem, its code would run uncounted).
 */
int fast_rewrite(agent *a, JNIEnv *jni, jobject loader, const char *name, const unsigned char *data, size_t len,
                 int hidden, unsigned char **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    int program = program_loader(a, jni, loader);
    int init_sites = init_sites_loader(a, jni, loader);
    classfile cf;
    char err[256];
    if (cf_parse(&cf, data, len, err, sizeof err) != 0) {
        fast_problem(a, "class %s cannot be read for instrumentation: %s", name ? name : "?", err);
        return 0;
    }
    int measured = !hidden && mutf8_is(cf.this_name, a->spec.class_internal);
    char cls[1024];
    if (hidden) { /* the step engine's name of a hidden class: "pkg.Name/0x0" (names.c) */
        char internal[1024];
        snprintf(internal, sizeof internal, "%.*s+0x0", (int)(cf.this_name.len < 1000 ? cf.this_name.len : 1000),
                 cf.this_name.ptr);
        name_binary(internal, strlen(internal), cls, sizeof cls);
    } else {
        name_binary(cf.this_name.ptr, cf.this_name.len, cls, sizeof cls);
    }
    calls_ctx cc = {.a = a, .cls = cls, .measured = measured};
    /* during the start's retransformation on two threads, each rewrites
     * outside the lock, its methods' numbers reserved one by one */
    slot_list sl = {.a = a};
    int parallel = a->fast.parallel;
    if (hidden && parallel) { /* the start's retransformation is under way: the class stays watched (hidden.c) */
        cf_free(&cf);
        return 0;
    }
    if (!parallel)
        lock_enter(a);
    /* the probes (Probe.java) and the run's numbering: ins_fast_options */
    ins_options opt;
    ins_fast_options(&opt, a->fast.probe_name, program, loader == NULL);
    opt.first_id = a->fast.next_id;
    opt.first_site = a->fast.next_site;
    opt.first_call = a->fast.next_call;
    opt.calls_filter = calls_of;
    opt.calls_ctx = &cc;
    opt.branch_seed = seed_of;
    opt.seed_ctx = &cc;
    if (measured) {
        opt.entry_method = "enter";
        opt.exit_method = "exit";
    }
    if (parallel) {
        opt.reserve = fast_reserve_slots;
        opt.reserve_ctx = &sl;
    }
    ins_result r;
    int failed = ins_rewrite_parsed(&cf, data, len, &opt, &r, err, sizeof err) != 0;
    if (failed) {
        if (!parallel)
            lock_exit(a);
        free(sl.slots);
        cf_free(&cf);
        fast_problem(a, "class %s cannot be instrumented: %s", name ? name : cls, err);
        return 0;
    }
    if (parallel)
        lock_enter(a);
    /* a hidden class's kept bytes name it as HotSpot's constant pool does
     * ("pkg/Name+0x<address>"), so that the keys of its instructions that
     * name their own class are the step engine's (names.c) */
    uint8_t *kept = hidden ? hidden_kept_bytes(&cf, data, len) : NULL;
    if (cc.oom || r.nmethods != cf.method_count || (hidden && kept == NULL) ||
        keep_methods(a, &cf, &r, cls, program, init_sites, kept != NULL ? kept : data, kept != NULL ? len + 4 : len,
                     parallel ? sl.slots : NULL) != 0) {
        free(kept);
        lock_exit(a);
        agent_fail(a, "out of memory keeping the block tables of %s", name ? name : cls);
        free(sl.slots);
        ins_free(&r);
        cf_free(&cf);
        return 0;
    }
    free(kept);
    if (!parallel) {
        a->fast.next_id = r.next_id;
        a->fast.next_site = r.next_site;
        a->fast.next_call = r.next_call;
    }
    lock_exit(a);
    free(sl.slots);
    /* a class without bytecode keeps its own bytes: the rewrite only added
     * the probes' constant-pool entries, which the JVM would parse for
     * nothing */
    int code = 0;
    for (uint16_t i = 0; i < r.nmethods && !code; i++)
        code = r.methods[i].status != INS_METHOD_NO_CODE;
    if (code) {
        *out = malloc(r.len);
        if (*out != NULL) {
            memcpy(*out, r.bytes, r.len);
            *out_len = r.len;
        } else {
            agent_fail(a, "out of memory rewriting %s", name ? name : cls);
        }
    }
    ins_free(&r);
    cf_free(&cf);
    return *out != NULL;
}

/* ClassFileLoadHook: every class the hook sees is rewritten (fast_rewrite). */
void JNICALL fast_class_file_load(jvmtiEnv *jvmti, JNIEnv *jni, jclass redefined, jobject loader, const char *name,
                                  jobject domain, jint len, const unsigned char *data, jint *new_len,
                                  unsigned char **new_data)
{
    agent *a = &g_agent;
    (void)redefined;
    (void)domain;
    if (a->dead || !a->fast.hooked || len <= 0 || (name != NULL && strcmp(name, a->fast.probe_name) == 0))
        return;
    unsigned char *bytes = NULL, *out = NULL;
    size_t n = 0;
    if (!fast_rewrite(a, jni, loader, name, data, (size_t)len, 0, &bytes, &n))
        return;
    if (n <= INT32_MAX && jvmti_check(a, (*jvmti)->Allocate(jvmti, (jlong)n, &out), "Allocate") == 0) {
        memcpy(out, bytes, n);
        *new_data = out;
        *new_len = (jint)n;
    }
    free(bytes);
}
