/*
 * names.c - Java names, descriptors and method specs.
 *
 * Turns what a user types ("pkg.Outer$Inner.name(I)V") into the internal
 * names JVMTI uses, checks method descriptors against the JVMS 4.3 grammar,
 * and turns internal names and JVMTI class signatures back into the names a
 * Java programmer reads.
 *
 * Choices:
 *  - Method spec: the descriptor starts at the first '('; the method name is
 *    what follows the last '.' before it, the class everything before that
 *    '.'. Class segments and the method name must be non-empty and may not
 *    hold '/', ';' or '[' (JVMS 4.2.2); a method name may also not hold '<'
 *    or '>' unless it is exactly "<init>" or "<clinit>". Anything else,
 *    including spaces, is accepted: Kotlin and other JVM languages use such
 *    names. "<init>" must return V and "<clinit>" must be "()V" when a
 *    descriptor is given.
 *  - Descriptors: class names in L...; are one or more non-empty segments
 *    separated by '/', without '.', ';' or '['; arrays have at most 255
 *    dimensions; the parameters may take at most 255 local slots (long and
 *    double count two; "this" is not counted, as the descriptor does not say
 *    whether the method is static), as JVMS 4.3.3 requires.
 *  - Hidden classes have three spellings (all checked with JDK 17):
 *    Class.getName() gives "pkg.Name/0x<address>", JVMTI GetClassSignature
 *    gives "Lpkg/Name.0x<address>;", and inside constant pools (this_class,
 *    or a Methodref owner, as JVMTI GetConstantPool returns them) HotSpot
 *    writes "pkg/Name+0x<address>". name_binary() and name_from_signature()
 *    accept all three internal forms and write "pkg.Name/0x0": the getName()
 *    form with the run-dependent address replaced by 0, so names match
 *    between runs and between the three sources. A lambda proxy's number
 *    (JDK 17's "Main$$Lambda$14") is left out too ("Main$$Lambda/0x0", as
 *    JDK 25 names them): a proxy the CDS archive holds keeps the number it
 *    was archived with, one spun in the run gets the next of a counter, and
 *    the fast engine, which rewrites the archived proxies' callers, spins
 *    them all. The suffix is recognised
 *    only at the end, as '/', '.' or '+' followed by "0x" and at least one
 *    hex digit ('.' cannot occur in any other internal name; '/' and '+'
 *    only in a class literally named like an address, which javac cannot
 *    produce for '+').
 *  - name_from_signature() also accepts the one-letter signatures of
 *    primitive classes ("I" -> "int", "V" -> "void"), as GetClassSignature
 *    returns them for int.class and void.class. With elem_only, a non-array
 *    signature is written whole.
 */
#include "names.h"
#include "errmsg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARRAY_DIMS 255
#define MAX_PARAM_SLOTS 255


/* ---- descriptors ------------------------------------------------------- */

/*
 * Parse one field type at desc[*pos]; advance *pos past it and add its slot
 * count to *slots. allow_void accepts a bare 'V' (only as a return type).
 * Returns 1 if a well-formed type was found.
 */
static int field_type(const char *desc, size_t len, size_t *pos, unsigned *slots, int allow_void)
{
    size_t p = *pos;
    unsigned dims = 0;
    while (p < len && desc[p] == '[') {
        if (++dims > MAX_ARRAY_DIMS)
            return 0;
        p++;
    }
    if (p >= len)
        return 0;
    unsigned size = 1;
    switch (desc[p]) {
    case 'B': case 'C': case 'F': case 'I': case 'S': case 'Z':
        p++;
        break;
    case 'D': case 'J':
        size = 2;
        p++;
        break;
    case 'V':
        if (!allow_void || dims > 0)
            return 0;
        size = 0;
        p++;
        break;
    case 'L': {
        size_t seg = 0;     /* length of the current '/'-separated segment */
        for (p++;; p++) {
            if (p >= len)
                return 0;
            char c = desc[p];
            if (c == ';')
                break;
            if (c == '/') {
                if (seg == 0)
                    return 0;
                seg = 0;
                continue;
            }
            if (c == '.' || c == '[' || c == '\0')
                return 0;
            seg++;
        }
        if (seg == 0)       /* "L;", "La/;" */
            return 0;
        p++;
        break;
    }
    default:
        return 0;
    }
    if (dims > 0)
        size = 1;
    if (slots)
        *slots += size;
    *pos = p;
    return 1;
}

int descriptor_is_method(const char *desc, size_t len)
{
    if (desc == NULL || len < 3 || desc[0] != '(')
        return 0;
    size_t pos = 1;
    unsigned slots = 0;
    while (pos < len && desc[pos] != ')') {
        if (!field_type(desc, len, &pos, &slots, 0))
            return 0;
        if (slots > MAX_PARAM_SLOTS)
            return 0;
    }
    if (pos >= len)
        return 0;
    pos++;  /* ')' */
    if (!field_type(desc, len, &pos, NULL, 1))
        return 0;
    return pos == len;
}

/* ---- method specs ------------------------------------------------------ */

static char *dup_range(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

void method_spec_free(method_spec *spec)
{
    if (spec == NULL)
        return;
    free(spec->class_internal);
    free(spec->class_signature);
    free(spec->name);
    free(spec->descriptor);
    memset(spec, 0, sizeof *spec);
}

/* Position of the first of '/', ';', '[' in s[0..n), or n. */
static size_t find_illegal(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] == '/' || s[i] == ';' || s[i] == '[')
            return i;
    return n;
}

int method_spec_parse(method_spec *out, const char *text, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (out == NULL) {
        errmsg_set(err, errlen, "method spec: no output");
        return -1;
    }
    memset(out, 0, sizeof *out);
    if (text == NULL || text[0] == '\0') {
        errmsg_set(err, errlen, "empty method spec (expected pkg.Class.method or pkg.Class.method(desc))");
        return -1;
    }
    size_t total = strlen(text);
    const char *paren = strchr(text, '(');
    size_t head_len = paren ? (size_t)(paren - text) : total;

    /* The last '.' before the descriptor splits class and method name. */
    size_t dot = head_len;
    while (dot > 0 && text[dot - 1] != '.')
        dot--;
    if (dot == 0) {
        errmsg_set(err, errlen, "method spec '%s': no class (expected pkg.Class.method)", text);
        return -1;
    }
    dot--;  /* index of the '.' */
    const char *cls = text, *name = text + dot + 1;
    size_t cls_len = dot, name_len = head_len - dot - 1;

    if (name_len == 0) {
        errmsg_set(err, errlen, "method spec '%s': empty method name", text);
        return -1;
    }
    size_t bad = find_illegal(name, name_len);
    if (bad < name_len) {
        errmsg_set(err, errlen, "method spec '%s': method name may not contain '%c'", text, name[bad]);
        return -1;
    }
    int is_init = name_len == 6 && memcmp(name, "<init>", 6) == 0;
    int is_clinit = name_len == 8 && memcmp(name, "<clinit>", 8) == 0;
    if (!is_init && !is_clinit && (memchr(name, '<', name_len) || memchr(name, '>', name_len))) {
        errmsg_set(err, errlen, "method spec '%s': method name may contain '<' or '>' only as "
             "<init> or <clinit>", text);
        return -1;
    }

    /* Class: non-empty dot-separated segments without illegal characters. */
    size_t seg = 0;
    for (size_t i = 0; i <= cls_len; i++) {
        if (i == cls_len || cls[i] == '.') {
            if (seg == 0) {
                errmsg_set(err, errlen, "method spec '%s': empty part in class name '%.*s'", text,
                     (int)cls_len, cls);
                return -1;
            }
            seg = 0;
        } else if (cls[i] == '/' || cls[i] == ';' || cls[i] == '[') {
            errmsg_set(err, errlen, "method spec '%s': class name may not contain '%c' "
                 "(write pkg.Outer$Inner)", text, cls[i]);
            return -1;
        } else {
            seg++;
        }
    }

    if (paren) {
        const char *desc = paren;
        size_t desc_len = total - head_len;
        if (!descriptor_is_method(desc, desc_len)) {
            errmsg_set(err, errlen, "method spec '%s': '%s' is not a method descriptor "
                 "(e.g. (I)V or (Ljava/lang/String;)[J; class names use '/')", text, desc);
            return -1;
        }
        int returns_void = desc[desc_len - 1] == 'V' && desc[desc_len - 2] == ')';
        if ((is_init && !returns_void) || (is_clinit && strcmp(desc, "()V") != 0)) {
            errmsg_set(err, errlen, "method spec '%s': %.*s must have descriptor %s", text,
                 (int)name_len, name, is_init ? "(...)V" : "()V");
            return -1;
        }
    }

    out->class_internal = dup_range(cls, cls_len);
    out->class_signature = malloc(cls_len + 3);
    out->name = dup_range(name, name_len);
    out->descriptor = paren ? dup_range(paren, total - head_len) : NULL;
    if (!out->class_internal || !out->class_signature || !out->name || (paren && !out->descriptor)) {
        method_spec_free(out);
        errmsg_set(err, errlen, "method spec '%s': out of memory", text);
        return -1;
    }
    for (char *c = out->class_internal; *c; c++)
        if (*c == '.')
            *c = '/';
    out->class_signature[0] = 'L';
    memcpy(out->class_signature + 1, out->class_internal, cls_len);
    out->class_signature[cls_len + 1] = ';';
    out->class_signature[cls_len + 2] = '\0';
    return 0;
}

/* ---- names back to Java ------------------------------------------------ */

/* Appends to a caller buffer like snprintf: counts everything, stores what
 * fits, keeps room for the terminating NUL. */
typedef struct sink {
    char *out;
    size_t cap, n;
} sink;

static void put(sink *s, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++, s->n++)
        if (s->n + 1 < s->cap)
            s->out[s->n] = p[i];
}

static void put_str(sink *s, const char *p)
{
    put(s, p, strlen(p));
}

static size_t finish(sink *s)
{
    if (s->cap > 0)
        s->out[s->n < s->cap ? s->n : s->cap - 1] = '\0';
    return s->n;
}

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* If internal[0..len) ends in a hidden-class suffix "/0x<hex>",
 * ".0x<hex>" or "+0x<hex>", return the index of its separator, else len. */
static size_t hidden_suffix(const char *internal, size_t len)
{
    size_t i = len;
    while (i > 0 && is_hex(internal[i - 1]))
        i--;
    /* internal[i..len) is hex; it must be preceded by "<sep>0x" and hold at
     * least one digit after the x. The 'x' is not a hex digit, so the scan
     * stopped on it; the '0' before it was not scanned. */
    if (i == len || i < 3 || internal[i - 1] != 'x' || internal[i - 2] != '0')
        return len;
    char sep = internal[i - 3];
    return sep == '/' || sep == '.' || sep == '+' ? i - 3 : len;
}

/* The length of internal[0..end) less a lambda proxy's number: "$$Lambda"
 * then '$' and digits at its end (JDK 17's InnerClassLambdaMetafactory
 * numbers its classes; JDK 25's do not), else end. */
static size_t lambda_number(const char *internal, size_t end)
{
    size_t i = end;
    while (i > 0 && internal[i - 1] >= '0' && internal[i - 1] <= '9')
        i--;
    if (i == end || i < 9 || memcmp(internal + i - 9, "$$Lambda$", 9) != 0)
        return end;
    return i - 1;
}

/* Write internal[0..len) as a binary name with the hidden suffix made
 * stable: the address written as 0x0, a lambda proxy's number left out. */
static void put_binary(sink *s, const char *internal, size_t len)
{
    size_t end = hidden_suffix(internal, len);
    if (end < len)
        end = lambda_number(internal, end);
    for (size_t i = 0; i < end; i++) {
        char c = internal[i] == '/' ? '.' : internal[i];
        put(s, &c, 1);
    }
    if (end < len)
        put_str(s, "/0x0");
}

size_t name_binary(const char *internal, size_t len, char *out, size_t cap)
{
    sink s = {out, out ? cap : 0, 0};
    if (internal)
        put_binary(&s, internal, len);
    return finish(&s);
}

static const char *primitive_name(char c)
{
    switch (c) {
    case 'B': return "byte";
    case 'C': return "char";
    case 'D': return "double";
    case 'F': return "float";
    case 'I': return "int";
    case 'J': return "long";
    case 'S': return "short";
    case 'Z': return "boolean";
    default: return NULL;
    }
}

size_t name_from_signature(const char *sig, int elem_only, char *out, size_t cap)
{
    sink s = {out, out ? cap : 0, 0};
    if (out && cap > 0)
        out[0] = '\0';
    if (sig == NULL)
        return 0;
    size_t len = strlen(sig);
    size_t dims = 0;
    while (dims < len && sig[dims] == '[')
        dims++;
    if (dims > MAX_ARRAY_DIMS || dims == len)
        return 0;
    const char *elem = sig + dims;
    size_t elem_len = len - dims;

    if (elem[0] == 'L') {
        /* "L" name ";" with a non-empty name and nothing after the ';'. */
        if (elem_len < 3 || elem[elem_len - 1] != ';' || memchr(elem, ';', elem_len - 1) ||
            memchr(elem, '[', elem_len))
            return 0;
        put_binary(&s, elem + 1, elem_len - 2);
    } else if (elem_len == 1 && primitive_name(elem[0])) {
        put_str(&s, primitive_name(elem[0]));
    } else if (elem_len == 1 && elem[0] == 'V' && dims == 0) {
        put_str(&s, "void");
    } else {
        return 0;
    }
    size_t shown = elem_only && dims > 0 ? dims - 1 : dims;
    for (size_t i = 0; i < shown; i++)
        put_str(&s, "[]");
    return finish(&s);
}

size_t name_array_level(unsigned op, unsigned atype, const char *cls, size_t cls_len, unsigned level, char *out,
                        size_t cap)
{
    static const char *const newarray_elem[8] = {"boolean", "char", "float", "double", "byte", "short", "int", "long"};
    char sig[1024];
    if (out && cap > 0)
        out[0] = '\0';
    if (op == 0xbc) { /* newarray */
        if (level != 0 || atype < 4 || atype > 11)
            return 0;
        sink s = {out, out ? cap : 0, 0};
        put_str(&s, newarray_elem[atype - 4]);
        return finish(&s);
    }
    if (cls == NULL || cls_len == 0 || cls_len + 3 >= sizeof sig || memchr(cls, '\0', cls_len))
        return 0;
    if (op == 0xbd && level == 0) /* anewarray: an array of cls */
        snprintf(sig, sizeof sig, cls[0] == '[' ? "[%.*s" : "[L%.*s;", (int)cls_len, cls);
    else if (op == 0xc5 && level < cls_len) { /* multianewarray: cls less `level` dimensions, still an array */
        for (unsigned i = 0; i <= level; i++)
            if (cls[i] != '[')
                return 0;
        snprintf(sig, sizeof sig, "%.*s", (int)(cls_len - level), cls + level);
    } else
        return 0;
    return name_from_signature(sig, 1, out, cap);
}
