/*
 * names.h - Java names, descriptors and method specs.
 *
 * Pure C. A method spec is what a user types: "pkg.Class.name" or
 * "pkg.Class.name(descriptor)", nested classes as "pkg.Outer$Inner.name".
 * Internal names use '/', binary names use '.'.
 */
#ifndef PSF_NAMES_H
#define PSF_NAMES_H

#include <stddef.h>

typedef struct method_spec {
    char *class_internal;   /* owned, "pkg/Outer$Inner" */
    char *class_signature;  /* owned, "Lpkg/Outer$Inner;" as JVMTI GetClassSignature returns */
    char *name;             /* owned, "fib", "<init>" */
    char *descriptor;       /* owned, "(I)I", or NULL when the spec gave none */
} method_spec;

/* Parse a spec; 0 on success, -1 with a message in err. Rejects empty parts,
 * a missing class, characters a Java name cannot hold ('/', ';', '[' in the
 * class or method part), and descriptors that are not valid method
 * descriptors. */
int method_spec_parse(method_spec *out, const char *text, char *err, size_t errlen);
void method_spec_free(method_spec *spec);

/* 1 if desc is a well-formed JVMS method descriptor, else 0. */
int descriptor_is_method(const char *desc, size_t len);

/* Copy an internal name ("a/b/C") as a binary name ("a.b.C") into out (cap
 * bytes, always NUL-terminated when cap > 0). A hidden class's address suffix
 * "/0x<hex>" becomes "/0x0" so names are stable between runs. Returns the
 * length the full result needs (like snprintf). */
size_t name_binary(const char *internal, size_t len, char *out, size_t cap);

/* From a JVMTI class signature "Lpkg/C;" or array signature "[I", "[[Lx/Y;"
 * write the Java type name ("pkg.C", "int[]", "x.Y[][]"). For an array
 * signature, elem_only=1 writes the element type of the outermost array
 * ("[[I" -> "int[]", "[Ljava/lang/String;" -> "java.lang.String").
 * Returns the length needed, or 0 for a malformed signature. */
size_t name_from_signature(const char *sig, int elem_only, char *out, size_t cap);

/* The element type's name, as name_from_signature(sig, 1) writes it, of the
 * arrays that level `level` of an array instruction makes: newarray (op
 * 0xbc, atype 4..11: "int" for T_INT), anewarray (0xbd) of the class `cls`
 * (an internal name "a/B" or an array descriptor "[I", cls_len bytes; level
 * 0 only), multianewarray (0xc5) of the array class `cls` (level l drops l
 * dimensions: "[[La/B;" makes "a.B[]" at level 0 and "a.B" at level 1).
 * Returns the length needed, or 0 when the level or the name is not one. */
size_t name_array_level(unsigned op, unsigned atype, const char *cls, size_t cls_len, unsigned level, char *out,
                        size_t cap);

#endif
