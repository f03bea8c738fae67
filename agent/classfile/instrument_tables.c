/*
 * instrument_tables.c - the Code attribute's tables at the rewritten
 * code's offsets: the exception table, LineNumberTable,
 * LocalVariableTable, LocalVariableTypeTable, StackMapTable and the type
 * annotations on code, checked before the layout (ins_attrs_check: a table the
 * rewriter cannot relocate refuses the method, a malformed one fails the
 * class) and emitted after it (ins_tables_emit). Part of the rewriter
 * (instrument.c); pure C.
 *
 * Choices:
 *  - StackMapTable frames are re-encoded with their new deltas: same and
 *    same_locals_1_stack_item frames take their extended forms when the delta
 *    passes 63; no frame is added or removed.
 *  - RuntimeVisibleTypeAnnotations and RuntimeInvisibleTypeAnnotations inside
 *    Code (type annotations on local variables, casts, ...) keep their size:
 *    a local variable's range is mapped as in LocalVariableTable (its probes
 *    taken in), an instruction's offset (instanceof, new, checkcast, an
 *    invoke, a method reference) to the instruction itself, as
 *    Uninitialized(offset) in a frame, never to a probe in front of it; an
 *    exception table index is unchanged. The JVM does not read these
 *    attributes, so one the rewriter cannot walk (a target that is not on
 *    code, an offset inside an instruction, element values nested deeper
 *    than TA_MAX_DEPTH) refuses the method instead of failing the class.
 */
#include "instrument_impl.h"

/* Walk one verification_type_info at p (end: the frame's limit); with out,
 * copy it, mapping an Uninitialized offset. Returns its size, 0 when
 * malformed. */
static size_t vti(const method_ctx *c, const uint8_t *p, const uint8_t *end, buf *out)
{
    if (p >= end)
        return 0;
    uint8_t tag = p[0];
    if (tag <= 6) {
        if (out)
            put1(out, tag);
        return 1;
    }
    if (tag > 8 || end - p < 3)
        return 0;
    uint16_t v = be_u16(p + 1);
    if (tag == 8) { /* Uninitialized(offset of the new instruction) */
        if (!is_insn(c, v) || c->m->code[v] != BC_NEW)
            return 0;
        v = (uint16_t)map_insn(c, v);
    }
    if (out) {
        put1(out, tag);
        put2(out, v);
    }
    return 3;
}

/* Walk n verification_type_infos. */
static size_t vtis(const method_ctx *c, const uint8_t *p, const uint8_t *end, uint32_t n, buf *out)
{
    size_t total = 0;
    for (uint32_t k = 0; k < n; k++) {
        size_t s = vti(c, p + total, end, out);
        if (s == 0)
            return 0;
        total += s;
    }
    return total;
}

/*
 * Walk the StackMapTable. Without out: check it (every frame on an
 * instruction start, every type well formed, the body used exactly) and fill
 * c->frame_at. With out: emit it with the new deltas. Returns -1 with a
 * message when malformed.
 */
static int smt_walk(method_ctx *c, buf *out)
{
    const uint8_t *p = c->smt, *end = c->smt + c->smt_len;
    if (c->smt_len < 2)
        goto bad;
    uint32_t n = be_u16(p);
    p += 2;
    if (out)
        put2(out, n);
    int64_t old = -1;           /* offset of the previous frame */
    int64_t prev_new = -1;
    for (uint32_t k = 0; k < n; k++) {
        if (p >= end)
            goto bad;
        uint8_t type = *p++;
        uint32_t delta;
        if (type <= 127) {
            delta = type <= 63 ? type : (uint32_t)type - 64;
        } else if (type >= 247) {
            if (end - p < 2)
                goto bad;
            delta = be_u16(p);
            p += 2;
        } else {
            goto bad;   /* 128-246 are reserved */
        }
        old = old + 1 + delta;
        if (!is_insn(c, old))
            goto bad;
        if (!out)
            c->frame_at[old] = 1;
        uint32_t at_new = map_target(c, (uint32_t)old);
        uint32_t d = (uint32_t)(at_new - prev_new - 1);
        prev_new = at_new;
        /* the frame's types: how many, and where */
        size_t used;
        if (type <= 63 || type == 251) {
            if (out) {
                if (d <= 63 && type <= 63)
                    put1(out, d);
                else {
                    put1(out, 251);
                    put2(out, d);
                }
            }
            used = 0;
        } else if (type <= 127 || type == 247) {
            if (out) {
                if (d <= 63 && type <= 127)
                    put1(out, 64 + d);
                else {
                    put1(out, 247);
                    put2(out, d);
                }
            }
            used = vti(c, p, end, out);
            if (used == 0)
                goto bad;
        } else if (type <= 250) { /* chop */
            if (out) {
                put1(out, type);
                put2(out, d);
            }
            used = 0;
        } else if (type <= 254) { /* append */
            if (out) {
                put1(out, type);
                put2(out, d);
            }
            used = vtis(c, p, end, type - 251u, out);
            if (used == 0)
                goto bad;
        } else { /* full_frame */
            if (end - p < 2)
                goto bad;
            uint32_t nl = be_u16(p);
            if (out) {
                put1(out, type);
                put2(out, d);
                put2(out, nl);
            }
            size_t a = vtis(c, p + 2, end, nl, out);
            if (nl != 0 && a == 0)
                goto bad;
            const uint8_t *q = p + 2 + a;
            if (end - q < 2)
                goto bad;
            uint32_t ns = be_u16(q);
            if (out)
                put2(out, ns);
            size_t b = vtis(c, q + 2, end, ns, out);
            if (ns != 0 && b == 0)
                goto bad;
            used = 2 + a + 2 + b;
        }
        p += used;
    }
    if (p != end)
        goto bad;
    return 0;
bad:
    errmsg_set(c->w->err, c->w->errlen, "method %.*s%.*s: malformed StackMapTable",
               (int)c->im->name.len, c->im->name.ptr, (int)c->im->desc.len, c->im->desc.ptr);
    return -1;
}

/* Check an offset table attribute (LineNumberTable: entry 4 bytes, no
 * length; local variable tables: 10 bytes with a length). -1 if malformed. */
static int table_check(const method_ctx *c, const uint8_t *body, uint32_t len, int with_length)
{
    uint32_t esize = with_length ? 10 : 4;
    if (len < 2 || len != 2 + (uint32_t)be_u16(body) * esize)
        return -1;
    for (uint32_t k = 0; k < be_u16(body); k++) {
        const uint8_t *e = body + 2 + k * esize;
        uint32_t start = be_u16(e);
        if (!is_insn(c, start))
            return -1;
        if (with_length) {
            uint32_t end = start + be_u16(e + 2);
            if (end != c->m->code_len && !is_insn(c, end))
                return -1;
        }
    }
    return 0;
}

static void table_emit(const method_ctx *c, const uint8_t *body, int with_length, buf *out)
{
    uint32_t esize = with_length ? 10 : 4, n = be_u16(body);
    put2(out, n);
    for (uint32_t k = 0; k < n; k++) {
        const uint8_t *e = body + 2 + k * esize;
        uint32_t start = be_u16(e), ns = map_start(c, start);
        put2(out, ns);
        if (with_length) {
            put2(out, map_start(c, start + be_u16(e + 2)) - ns);
            put2(out, be_u16(e + 4));
            put2(out, be_u16(e + 6));
            put2(out, be_u16(e + 8));
        } else {
            put2(out, be_u16(e + 2));
        }
    }
}

/* ---- type annotations on code (JVMS 4.7.20) ----------------------------- */

/* Element values nested deeper than this (an array in an array, an
 * annotation in an annotation) refuse the method: the walk recurses, and an
 * attribute from an untrusted class could nest a million levels. javac
 * nests as deep as the source does. */
#define TA_MAX_DEPTH 64

static int ev_walk(const uint8_t **pp, const uint8_t *end, unsigned depth);

/* Walk an annotation at *pp (type_index, its element_value_pairs) and move
 * *pp past it; -1 when it does not fit in end. */
static int ann_walk(const uint8_t **pp, const uint8_t *end, unsigned depth)
{
    const uint8_t *p = *pp;
    if (end - p < 4)
        return -1;
    uint32_t npairs = be_u16(p + 2);
    p += 4;
    for (uint32_t k = 0; k < npairs; k++) {
        if (end - p < 2)
            return -1;
        p += 2;     /* element_name_index */
        if (ev_walk(&p, end, depth))
            return -1;
    }
    *pp = p;
    return 0;
}

/* Walk an element_value at *pp and move *pp past it. */
static int ev_walk(const uint8_t **pp, const uint8_t *end, unsigned depth)
{
    const uint8_t *p = *pp;
    if (depth >= TA_MAX_DEPTH || p >= end)
        return -1;
    uint8_t tag = *p++;
    switch (tag) {
    case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S': case 'Z': case 's': case 'c':
        if (end - p < 2)
            return -1;
        p += 2;
        break;
    case 'e':
        if (end - p < 4)
            return -1;
        p += 4;
        break;
    case '@':
        if (ann_walk(&p, end, depth + 1))
            return -1;
        break;
    case '[': {
        if (end - p < 2)
            return -1;
        uint32_t n = be_u16(p);
        p += 2;
        for (uint32_t k = 0; k < n; k++)
            if (ev_walk(&p, end, depth + 1))
                return -1;
        break;
    }
    default:
        return -1;
    }
    *pp = p;
    return 0;
}

/*
 * Walk a Runtime(In)visibleTypeAnnotations attribute of Code. Without
 * patch: check that it is a list of type annotations on code whose offsets
 * start instructions and whose ranges end on one (or at the code's end).
 * With patch (a copy of body, after layout): write the new offsets into the
 * copy; sizes do not change. 0, or -1 when it cannot be walked.
 */
static int ta_walk(const method_ctx *c, const uint8_t *body, uint32_t len, uint8_t *patch)
{
    const uint8_t *p = body, *end = body + len;
    if (len < 2)
        return -1;
    uint32_t n = be_u16(p);
    p += 2;
    for (uint32_t k = 0; k < n; k++) {
        if (p >= end)
            return -1;
        uint8_t target = *p++;
        if (target == 0x40 || target == 0x41) {    /* localvar_target: start_pc, length, index */
            if (end - p < 2)
                return -1;
            uint32_t m = be_u16(p);
            p += 2;
            if ((size_t)(end - p) < 6u * m)
                return -1;
            for (uint32_t j = 0; j < m; j++, p += 6) {
                uint32_t start = be_u16(p), stop = start + be_u16(p + 2);
                if (!is_insn(c, start) || (stop != c->m->code_len && !is_insn(c, stop)))
                    return -1;
                if (patch) {
                    uint32_t ns = map_start(c, start);
                    be_put_u16(patch + (p - body), (uint16_t)ns);
                    be_put_u16(patch + (p - body) + 2, (uint16_t)(map_start(c, stop) - ns));
                }
            }
        } else if (target == 0x42) {                /* catch_target: an exception table index */
            if (end - p < 2)
                return -1;
            p += 2;
        } else if (target >= 0x43 && target <= 0x4b) {  /* offset_target, type_argument_target */
            uint32_t size = target <= 0x46 ? 2 : 3;
            if ((uint32_t)(end - p) < size || !is_insn(c, be_u16(p)))
                return -1;
            if (patch)
                be_put_u16(patch + (p - body), (uint16_t)map_insn(c, be_u16(p)));
            p += size;
        } else {
            return -1;  /* a target on a class, a field or a method's signature */
        }
        if (p >= end || (uint32_t)(end - p - 1) < 2u * p[0])   /* type_path */
            return -1;
        p += 1 + 2u * p[0];
        if (ann_walk(&p, end, 0))
            return -1;
    }
    return p == end ? 0 : -1;
}

static int is_type_annotations(cp_str name)
{
    return str_is(name, "RuntimeVisibleTypeAnnotations") || str_is(name, "RuntimeInvisibleTypeAnnotations");
}

/* Check the Code attribute's own attributes: 0 when all are known and well
 * formed, 1 when the method must be refused, -1 when malformed. Finds the
 * StackMapTable. */
int ins_attrs_check(method_ctx *c)
{
    const uint8_t *p = c->m->code_attrs;
    for (uint32_t k = 0; k < c->m->code_attr_count; k++) {
        cp_str name;
        /* cf_parse has checked the sizes and the name index */
        if (cp_utf8(&c->w->cf->cp, be_u16(p), &name))
            return -1;
        uint32_t len = be_u32(p + 2);
        const uint8_t *body = p + 6;
        int bad = 0;
        if (str_is(name, "StackMapTable")) {
            if (c->smt != NULL)
                bad = 1;
            c->smt = body;
            c->smt_len = len;
        } else if (str_is(name, "LineNumberTable")) {
            bad = table_check(c, body, len, 0);
        } else if (str_is(name, "LocalVariableTable") || str_is(name, "LocalVariableTypeTable")) {
            bad = table_check(c, body, len, 1);
        } else if (is_type_annotations(name)) {
            if (ta_walk(c, body, len, NULL))
                return ins_refuse(c, INS_METHOD_REFUSED, "its Code attribute %.*s is not a list of type "
                              "annotations on code the rewriter can relocate", (int)name.len, name.ptr);
        } else {
            return ins_refuse(c, INS_METHOD_REFUSED, "its Code attribute %.*s holds code offsets the "
                          "rewriter does not relocate", (int)name.len, name.ptr);
        }
        if (bad) {
            errmsg_set(c->w->err, c->w->errlen, "method %.*s%.*s: malformed %.*s attribute",
                       (int)c->im->name.len, c->im->name.ptr, (int)c->im->desc.len, c->im->desc.ptr,
                       (int)name.len, name.ptr);
            return -1;
        }
        p += 6 + len;
    }
    if (c->smt != NULL && smt_walk(c, NULL))
        return -1;
    return 0;
}

/* The Code attribute after its code, relocated into body: the exception
 * table, then the attributes (checked by ins_attrs_check before). */
void ins_tables_emit(method_ctx *c, buf *body)
{
    const cf_method *m = c->m;
    put2(body, m->exc_count);
    for (uint32_t k = 0; k < m->exc_count; k++) {
        const uint8_t *e = m->exc + 8 * k;
        put2(body, map_start(c, be_u16(e)));
        put2(body, map_start(c, be_u16(e + 2)));
        put2(body, map_target(c, be_u16(e + 4)));
        put(body, e + 6, 2);
    }
    put2(body, m->code_attr_count);
    const uint8_t *p = m->code_attrs;
    for (uint32_t k = 0; k < m->code_attr_count; k++) {
        cp_str name;
        cp_utf8(&c->w->cf->cp, be_u16(p), &name);
        uint32_t len = be_u32(p + 2);
        /* its name, its length (patched in below) and its body */
        put(body, p, 2);
        put4(body, 0);
        size_t at = body->len;
        if (str_is(name, "StackMapTable")) {
            smt_walk(c, body);  /* checked before: cannot fail */
        } else if (is_type_annotations(name)) {
            put(body, p + 6, len);
            if (!body->oom)
                ta_walk(c, p + 6, len, body->p + at);   /* checked before: cannot fail */
        } else {
            table_emit(c, p + 6, !str_is(name, "LineNumberTable"), body);
        }
        if (!body->oom)
            be_put_u32(body->p + at - 4, (uint32_t)(body->len - at));
        p += 6 + len;
    }
}
