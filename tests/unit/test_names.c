/*
 * test_names.c - unit tests for agent/classfile/names.c: method specs, method
 * descriptors, binary names and JVMTI class signatures.
 *
 * The hidden-class forms are the ones JDK 17 produces: Class.getName()
 * gives "java.lang.invoke.LambdaForm$MH/0x0000000800c01000", JVMTI
 * GetClassSignature gives "Ljava/lang/invoke/LambdaForm$MH.0x00007fd708001000;"
 * and constant pools from JVMTI GetConstantPool hold
 * "java/lang/invoke/LambdaForm$MH+0x00007f0880000400".
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "names.h"

/* ---- method_spec_parse ------------------------------------------------- */

static void expect_spec(const char *text, const char *internal, const char *signature,
                        const char *name, const char *desc)
{
    method_spec s;
    char err[256] = "";
    if (method_spec_parse(&s, text, err, sizeof err))
        fail_msg("'%s' rejected: %s", text, err);
    assert_string_equal(s.class_internal, internal);
    assert_string_equal(s.class_signature, signature);
    assert_string_equal(s.name, name);
    if (desc)
        assert_string_equal(s.descriptor, desc);
    else
        assert_null(s.descriptor);
    method_spec_free(&s);
}

static void expect_spec_error(const char *text, const char *part)
{
    method_spec s;
    char err[256] = "";
    assert_int_equal(method_spec_parse(&s, text, err, sizeof err), -1);
    assert_null(s.class_internal);
    assert_null(s.class_signature);
    assert_null(s.name);
    assert_null(s.descriptor);
    if (strstr(err, part) == NULL)
        fail_msg("'%s': error '%s' lacks '%s'", text ? text : "(null)", err, part);
    method_spec_free(&s);
}

static void method_spec_parse__package_class_name__splits_at_last_dot(void **state)
{
    (void)state;
    expect_spec("pkg.Class.name", "pkg/Class", "Lpkg/Class;", "name", NULL);
    expect_spec("com.example.deep.pkg.Fib.fib", "com/example/deep/pkg/Fib", "Lcom/example/deep/pkg/Fib;",
                "fib", NULL);
    expect_spec("Fib.fib", "Fib", "LFib;", "fib", NULL);    /* default package */
    expect_spec("a.B.c", "a/B", "La/B;", "c", NULL);
}

static void method_spec_parse__with_descriptor__keeps_it_verbatim(void **state)
{
    (void)state;
    expect_spec("pkg.Class.name(I)I", "pkg/Class", "Lpkg/Class;", "name", "(I)I");
    expect_spec("pkg.Class.name()V", "pkg/Class", "Lpkg/Class;", "name", "()V");
    /* Dots in the class part, slashes in the descriptor. */
    expect_spec("java.util.HashMap.put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
                "java/util/HashMap", "Ljava/util/HashMap;", "put",
                "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;");
    expect_spec("p.Q.sort([[J[Ljava/lang/String;)[Z", "p/Q", "Lp/Q;", "sort", "([[J[Ljava/lang/String;)[Z");
}

static void method_spec_parse__nested_and_special_names__accepted(void **state)
{
    (void)state;
    expect_spec("pkg.Outer$Inner.name", "pkg/Outer$Inner", "Lpkg/Outer$Inner;", "name", NULL);
    expect_spec("pkg.Outer$Inner$Deeper.run()V", "pkg/Outer$Inner$Deeper",
                "Lpkg/Outer$Inner$Deeper;", "run", "()V");
    expect_spec("Class.<init>(I)V", "Class", "LClass;", "<init>", "(I)V");
    expect_spec("pkg.C.<init>", "pkg/C", "Lpkg/C;", "<init>", NULL);
    expect_spec("pkg.C.<clinit>()V", "pkg/C", "Lpkg/C;", "<clinit>", "()V");
    expect_spec("pkg.C.lambda$main$0(I)I", "pkg/C", "Lpkg/C;", "lambda$main$0", "(I)I");
    /* JVM names may hold what Java identifiers cannot (Kotlin: `a test`). */
    expect_spec("pkg.KtTest.a test", "pkg/KtTest", "Lpkg/KtTest;", "a test", NULL);
    expect_spec("pkg.Outer$Inner.name(Lpkg/Outer$Inner;)V", "pkg/Outer$Inner",
                "Lpkg/Outer$Inner;", "name", "(Lpkg/Outer$Inner;)V");
}

static void method_spec_parse__malformed__rejected_with_reason(void **state)
{
    (void)state;
    expect_spec_error(NULL, "empty method spec");
    expect_spec_error("", "empty method spec");
    expect_spec_error("fib", "no class");
    expect_spec_error("fib(I)I", "no class");
    expect_spec_error(".fib", "empty part in class name");
    expect_spec_error("pkg..C.fib", "empty part in class name 'pkg..C'");
    expect_spec_error(".pkg.C.fib", "empty part in class name");
    expect_spec_error("pkg.C.", "empty method name");
    expect_spec_error("pkg.C.(I)V", "empty method name");
    expect_spec_error("pkg/C.fib", "class name may not contain '/'");
    expect_spec_error("pkg.C;.fib", "class name may not contain ';'");
    expect_spec_error("pkg.C[].fib", "class name may not contain '['");
    expect_spec_error("pkg.C.fi;b", "method name may not contain ';'");
    expect_spec_error("pkg.C.fi[b", "method name may not contain '['");
    expect_spec_error("pkg.C.<foo>", "only as <init> or <clinit>");
    expect_spec_error("pkg.C.a<b", "only as <init> or <clinit>");
    expect_spec_error("pkg.C.<init>(I)I", "<init> must have descriptor (...)V");
    expect_spec_error("pkg.C.<clinit>(I)V", "<clinit> must have descriptor ()V");
    expect_spec_error("pkg.C.fib(I", "is not a method descriptor");
    expect_spec_error("pkg.C.fib(I)", "is not a method descriptor");
    expect_spec_error("pkg.C.fib()", "is not a method descriptor");
    expect_spec_error("pkg.C.fib(", "is not a method descriptor");
    expect_spec_error("pkg.C.fib(Q)V", "'(Q)V' is not a method descriptor");
    expect_spec_error("pkg.C.fib(Ljava.lang.String;)V", "class names use '/'");
    expect_spec_error("pkg.C.fib(I)V extra", "is not a method descriptor");
    expect_spec_error("pkg.C.fib(I)V(I)V", "is not a method descriptor");
}

static void method_spec_parse__tiny_error_buffers__still_fail_safely(void **state)
{
    (void)state;
    method_spec s;
    char err[4] = "xyz";
    assert_int_equal(method_spec_parse(&s, "nodot", err, sizeof err), -1);
    assert_int_equal(strlen(err), 3);
    assert_int_equal(method_spec_parse(&s, "nodot", NULL, 0), -1);
    assert_int_equal(method_spec_parse(NULL, "a.b", NULL, 0), -1);
    method_spec_free(&s);
    method_spec_free(&s);
    method_spec_free(NULL);
}

/* ---- descriptor_is_method ---------------------------------------------- */

static int desc_ok(const char *d)
{
    /* Exactly sized heap copy without a NUL: the length bounds the read. */
    size_t n = strlen(d);
    char *copy = malloc(n ? n : 1);
    assert_non_null(copy);
    memcpy(copy, d, n);
    int ok = descriptor_is_method(copy, n);
    free(copy);
    return ok;
}

static void descriptor_is_method__valid_descriptors__accepted(void **state)
{
    (void)state;
    static const char *const ok[] = {
        "()V", "(I)I", "(BCDFIJSZ)V", "(IJ)D", "()Ljava/lang/Object;",
        "(Ljava/lang/String;)V", "([Ljava/lang/String;)V", "([[I)[[J",
        "(Ljava/util/Map$Entry;)[I", "(La;)La;", "(La/b/c/D;[La/b/c/D;)Z",
        "(L<weird>;)V", "(Lx y;)V",     /* JVM class names may hold these */
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!desc_ok(ok[i]))
            fail_msg("'%s' rejected", ok[i]);
}

static void descriptor_is_method__grammar_violations__rejected(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "(", ")", "()", "(V)V", "()VV", "()II", "I", "V", "(I)X", "()[V", "(I)V ",
        " ()V", "(L;)V", "(Ljava/lang/String)V", "(Ljava//String;)V", "(L/a;)V", "(La/;)V",
        "(La.b;)V", "(La[b;)V", "(Q)V", "([)V", "()[", "(I))V", "((I)V", "()L;", "()Lx",
        "[I", "(i)V", "(I)v",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (desc_ok(bad[i]))
            fail_msg("'%s' accepted", bad[i]);
    assert_int_equal(descriptor_is_method(NULL, 3), 0);
}

static void descriptor_is_method__length_bounds_the_check(void **state)
{
    (void)state;
    const char *d = "()Vtrailing";
    assert_int_equal(descriptor_is_method(d, 3), 1);
    assert_int_equal(descriptor_is_method(d, 4), 0);
    assert_int_equal(descriptor_is_method(d, 2), 0);
    assert_int_equal(descriptor_is_method("(I)V", 3), 0);   /* cut inside */
    assert_int_equal(descriptor_is_method("(Ljava/lang/String;)V", 10), 0);
    /* An embedded NUL is not part of any name. */
    assert_int_equal(descriptor_is_method("(La\0b;)V", 8), 0);
    assert_int_equal(descriptor_is_method("(I\0)V", 5), 0);
}

static char *repeat(const char *prefix, const char *unit, int times, const char *suffix)
{
    size_t n = strlen(prefix) + strlen(unit) * (size_t)times + strlen(suffix) + 1;
    char *s = malloc(n);
    assert_non_null(s);
    strcpy(s, prefix);
    for (int i = 0; i < times; i++)
        strcat(s, unit);
    strcat(s, suffix);
    return s;
}

static void descriptor_is_method__dimension_and_slot_limits__enforced(void **state)
{
    (void)state;
    char *d;
    d = repeat("(", "[", 255, "I)V");           /* 255 dimensions: the limit */
    assert_true(desc_ok(d));
    free(d);
    d = repeat("(", "[", 256, "I)V");
    assert_false(desc_ok(d));
    free(d);
    d = repeat("()", "[", 255, "Ljava/lang/Object;");
    assert_true(desc_ok(d));
    free(d);
    d = repeat("()", "[", 256, "J");
    assert_false(desc_ok(d));
    free(d);

    d = repeat("(", "I", 255, ")V");            /* 255 parameter slots */
    assert_true(desc_ok(d));
    free(d);
    d = repeat("(", "I", 256, ")V");
    assert_false(desc_ok(d));
    free(d);
    d = repeat("(", "J", 127, "I)V");           /* longs take two slots: 255 */
    assert_true(desc_ok(d));
    free(d);
    d = repeat("(", "D", 128, ")V");            /* 256 */
    assert_false(desc_ok(d));
    free(d);
    d = repeat("(", "[J", 255, ")V");           /* an array is one slot */
    assert_true(desc_ok(d));
    free(d);
}

/* ---- name_binary ------------------------------------------------------- */

static void expect_binary(const char *internal, const char *want)
{
    char out[256];
    size_t n = name_binary(internal, strlen(internal), out, sizeof out);
    assert_string_equal(out, want);
    assert_int_equal(n, strlen(want));
}

static void name_binary__slashes__become_dots(void **state)
{
    (void)state;
    expect_binary("a/b/C", "a.b.C");
    expect_binary("java/util/Map$Entry", "java.util.Map$Entry");
    expect_binary("Fib", "Fib");
    expect_binary("", "");
    expect_binary("module-info", "module-info");
}

static void name_binary__hidden_class_suffix__becomes_0x0(void **state)
{
    (void)state;
    /* Class.getName() form. */
    expect_binary("java/lang/invoke/LambdaForm$MH/0x0000000800c01000", "java.lang.invoke.LambdaForm$MH/0x0");
    /* JVMTI GetClassSignature form (JDK 17), same result. */
    expect_binary("java/lang/invoke/LambdaForm$MH.0x00007fd708001000", "java.lang.invoke.LambdaForm$MH/0x0");
    expect_binary("H$$Lambda$1.0x00007fd708000a08", "H$$Lambda/0x0");
    /* Constant-pool form (GetConstantPool), same result. */
    expect_binary("java/lang/invoke/LambdaForm$MH+0x00007f0880000400", "java.lang.invoke.LambdaForm$MH/0x0");
    expect_binary("java/util/stream/Collectors$$Lambda$27+0x80000003e", "java.util.stream.Collectors$$Lambda/0x0");
    expect_binary("pkg/Main$$Lambda$14/0x0000000800c0b6c8", "pkg.Main$$Lambda/0x0");
    /* a lambda proxy's number goes with the address (JDK 25 has none); a
     * name that only looks like one, without a hidden suffix, keeps it */
    expect_binary("pkg/Main$$Lambda/0x0000000800c0b6c8", "pkg.Main$$Lambda/0x0");
    expect_binary("pkg/Main$$Lambda$14", "pkg.Main$$Lambda$14");
    expect_binary("pkg/Main$Lambda$14/0x1", "pkg.Main$Lambda$14/0x0");
    expect_binary("p/Q/0xABCDEF", "p.Q/0x0");
    expect_binary("p/Q/0x0", "p.Q/0x0");
}

static void name_binary__address_lookalikes__left_alone(void **state)
{
    (void)state;
    expect_binary("p/Q/0x", "p.Q.0x");              /* no digits */
    expect_binary("p/Q/0xZZ", "p.Q.0xZZ");          /* not hex */
    expect_binary("p/Q/0x12g", "p.Q.0x12g");
    expect_binary("p/Q/x12", "p.Q.x12");
    expect_binary("p/Q/00x12", "p.Q.00x12");
    expect_binary("p/Q0x12", "p.Q0x12");            /* not after a separator */
    expect_binary("0x12", "0x12");                  /* a whole name, no separator */
    expect_binary("p/0x12/Q", "p.0x12.Q");          /* not the last segment */
    expect_binary("p/Q+0x", "p.Q+0x");
    expect_binary("p/Q-0x12", "p.Q-0x12");          /* '-' is no separator */
}

static void name_binary__small_buffers__truncate_and_report_full_length(void **state)
{
    (void)state;
    char out[8];
    memset(out, 'X', sizeof out);
    assert_int_equal(name_binary("a/b/C", 5, out, 4), 5);
    assert_string_equal(out, "a.b");
    assert_int_equal(out[4], 'X');                  /* nothing written past cap */
    assert_int_equal(name_binary("a/b/C", 5, out, 1), 5);
    assert_string_equal(out, "");
    assert_int_equal(name_binary("a/b/C", 5, NULL, 0), 5);
    assert_int_equal(name_binary("a/b/C", 5, out, 6), 5);
    assert_string_equal(out, "a.b.C");
    /* The length limits the input: no NUL needed. */
    assert_int_equal(name_binary("a/b/Cxyz", 5, out, sizeof out), 5);
    assert_string_equal(out, "a.b.C");
    assert_int_equal(name_binary("p/Q.0x7f", 8, out, 6), 7);
    assert_string_equal(out, "p.Q/0");
    assert_int_equal(name_binary(NULL, 0, out, sizeof out), 0);
    assert_string_equal(out, "");
}

/* ---- name_from_signature ----------------------------------------------- */

static void expect_sig(const char *sig, int elem_only, const char *want)
{
    char out[1024];
    memset(out, 'X', sizeof out);
    size_t n = name_from_signature(sig, elem_only, out, sizeof out);
    if (want == NULL) {
        if (n != 0)
            fail_msg("'%s' accepted as '%s'", sig, out);
        assert_string_equal(out, "");
        return;
    }
    assert_string_equal(out, want);
    assert_int_equal(n, strlen(want));
}

static void name_from_signature__classes_and_arrays__java_type_names(void **state)
{
    (void)state;
    expect_sig("Lpkg/C;", 0, "pkg.C");
    expect_sig("Ljava/lang/String;", 0, "java.lang.String");
    expect_sig("LFib;", 0, "Fib");
    expect_sig("Lpkg/Outer$Inner;", 0, "pkg.Outer$Inner");
    expect_sig("[I", 0, "int[]");
    expect_sig("[[Lx/Y;", 0, "x.Y[][]");
    expect_sig("[[[J", 0, "long[][][]");
    static const struct { const char *sig, *name; } prims[] = {
        {"[B", "byte[]"}, {"[C", "char[]"}, {"[D", "double[]"}, {"[F", "float[]"},
        {"[I", "int[]"}, {"[J", "long[]"}, {"[S", "short[]"}, {"[Z", "boolean[]"},
    };
    for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++)
        expect_sig(prims[i].sig, 0, prims[i].name);
    /* Primitive classes, as GetClassSignature reports int.class, void.class. */
    expect_sig("I", 0, "int");
    expect_sig("Z", 0, "boolean");
    expect_sig("V", 0, "void");
}

static void name_from_signature__elem_only__drops_the_outermost_dimension(void **state)
{
    (void)state;
    expect_sig("[[I", 1, "int[]");
    expect_sig("[Ljava/lang/String;", 1, "java.lang.String");
    expect_sig("[[[Lx/Y;", 1, "x.Y[][]");
    expect_sig("[J", 1, "long");
    expect_sig("Lpkg/C;", 1, "pkg.C");              /* not an array: whole type */
}

static void name_from_signature__hidden_classes__stable_names(void **state)
{
    (void)state;
    expect_sig("Ljava/lang/invoke/LambdaForm$MH.0x00007fd708001000;", 0, "java.lang.invoke.LambdaForm$MH/0x0");
    expect_sig("LH$$Lambda$1.0x00007fd708000a08;", 0, "H$$Lambda/0x0");
    expect_sig("[LH$$Lambda$1.0x00007fd708000a08;", 0, "H$$Lambda/0x0[]");
    expect_sig("Lpkg/Main$$Lambda$14/0x0000000800c0b6c8;", 0, "pkg.Main$$Lambda/0x0");
    expect_sig("Ljava/lang/invoke/LambdaForm$DMH+0x00007f0880003000;", 0, "java.lang.invoke.LambdaForm$DMH/0x0");
}

static void name_from_signature__malformed__returns_zero(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "L", "L;", "Lpkg/C", "pkg/C", "Lpkg/C;x", "Lpkg;C;", "[", "[[", "[X", "[V",
        "X", "II", "[Lpkg/C", "[L;", "L[I;", "Q",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_sig(bad[i], 0, NULL);
    expect_sig(NULL, 0, NULL);
    char *deep = repeat("", "[", 256, "I");
    expect_sig(deep, 0, NULL);
    free(deep);
    deep = repeat("", "[", 255, "I");
    char *want = repeat("int", "[]", 255, "");
    expect_sig(deep, 0, want);
    free(want);
    free(deep);
}

static void name_from_signature__small_buffers__truncate_and_report_full_length(void **state)
{
    (void)state;
    char out[16];
    memset(out, 'X', sizeof out);
    assert_int_equal(name_from_signature("[[Lx/Y;", 0, out, 4), 7);
    assert_string_equal(out, "x.Y");
    assert_int_equal(out[4], 'X');
    assert_int_equal(name_from_signature("[[Lx/Y;", 0, NULL, 0), 7);
    assert_int_equal(name_from_signature("[I", 0, out, 1), 5);
    assert_string_equal(out, "");
}

/* ---- name_array_level -------------------------------------------------- */

static void expect_level(unsigned op, unsigned atype, const char *cls, unsigned level, const char *want)
{
    char out[1024];
    memset(out, 'X', sizeof out);
    size_t n = name_array_level(op, atype, cls, cls ? strlen(cls) : 0, level, out, sizeof out);
    if (want == NULL) {
        if (n != 0)
            fail_msg("op %#x '%s' level %u accepted as '%s'", op, cls ? cls : "", level, out);
        return;
    }
    assert_string_equal(out, want);
    assert_int_equal(n, strlen(want));
}

static void name_array_level__each_instruction__the_element_type_of_each_level(void **state)
{
    (void)state;
    expect_level(0xbc, 10, NULL, 0, "int");                    /* newarray T_INT */
    expect_level(0xbc, 4, NULL, 0, "boolean");
    expect_level(0xbc, 11, NULL, 0, "long");
    expect_level(0xbd, 0, "ArrayLoad$Later", 0, "ArrayLoad$Later"); /* anewarray: Later[] */
    expect_level(0xbd, 0, "java/lang/String", 0, "java.lang.String");
    expect_level(0xbd, 0, "[I", 0, "int[]");                   /* anewarray of int[]: int[][] */
    expect_level(0xbd, 0, "[Lx/Y;", 0, "x.Y[]");
    expect_level(0xc5, 0, "[[LArrayLoad$Cell;", 0, "ArrayLoad$Cell[]"); /* new Cell[n][2] */
    expect_level(0xc5, 0, "[[LArrayLoad$Cell;", 1, "ArrayLoad$Cell");
    expect_level(0xc5, 0, "[[[I", 2, "int");
}

static void name_array_level__no_such_level__returns_zero(void **state)
{
    (void)state;
    expect_level(0xbc, 3, NULL, 0, NULL);   /* no T_ below 4 */
    expect_level(0xbc, 12, NULL, 0, NULL);
    expect_level(0xbc, 10, NULL, 1, NULL);  /* newarray has one level */
    expect_level(0xbd, 0, "x/Y", 1, NULL);
    expect_level(0xbd, 0, "", 0, NULL);
    expect_level(0xbd, 0, NULL, 0, NULL);
    expect_level(0xc5, 0, "[[I", 2, NULL);  /* level 2 of int[][] is no array */
    expect_level(0xc5, 0, "x/Y", 0, NULL);  /* multianewarray of a non-array class */
    expect_level(0xc5, 0, "[Lx/[;", 0, NULL);
    expect_level(0xbb, 0, "x/Y", 0, NULL);  /* new makes no array */
    char *deep = repeat("L", "a", 1100, ";");
    expect_level(0xbd, 0, deep, 0, NULL);   /* longer than the signature buffer */
    free(deep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(method_spec_parse__package_class_name__splits_at_last_dot),
        cmocka_unit_test(method_spec_parse__with_descriptor__keeps_it_verbatim),
        cmocka_unit_test(method_spec_parse__nested_and_special_names__accepted),
        cmocka_unit_test(method_spec_parse__malformed__rejected_with_reason),
        cmocka_unit_test(method_spec_parse__tiny_error_buffers__still_fail_safely),
        cmocka_unit_test(descriptor_is_method__valid_descriptors__accepted),
        cmocka_unit_test(descriptor_is_method__grammar_violations__rejected),
        cmocka_unit_test(descriptor_is_method__length_bounds_the_check),
        cmocka_unit_test(descriptor_is_method__dimension_and_slot_limits__enforced),
        cmocka_unit_test(name_binary__slashes__become_dots),
        cmocka_unit_test(name_binary__hidden_class_suffix__becomes_0x0),
        cmocka_unit_test(name_binary__address_lookalikes__left_alone),
        cmocka_unit_test(name_binary__small_buffers__truncate_and_report_full_length),
        cmocka_unit_test(name_from_signature__classes_and_arrays__java_type_names),
        cmocka_unit_test(name_from_signature__elem_only__drops_the_outermost_dimension),
        cmocka_unit_test(name_from_signature__hidden_classes__stable_names),
        cmocka_unit_test(name_from_signature__malformed__returns_zero),
        cmocka_unit_test(name_from_signature__small_buffers__truncate_and_report_full_length),
        cmocka_unit_test(name_array_level__each_instruction__the_element_type_of_each_level),
        cmocka_unit_test(name_array_level__no_such_level__returns_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
