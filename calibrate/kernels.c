/*
 * kernels.c - the built-in calibration kernels, kernels for --keys, and the
 * writer of Kernels.java (see kernels.h).
 *
 * Conventions inside a body: `i` is the loop counter, `acc` a long sink the
 * method returns. Bodies never branch on data that changes from one period
 * of 64 iterations to the next, so every iteration's histogram is exact.
 */
#include "kernels.h"

#include <stdlib.h>
#include <string.h>

static char *xstrdup0(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d)
        abort();
    return d;
}

void kernels_add(kernel_set *ks, const char *name, unsigned flags,
                 const char *setup, const char *body)
{
    if (ks->n == ks->cap) {
        size_t cap = ks->cap ? 2 * ks->cap : 64;
        kernel *v = realloc(ks->v, cap * sizeof *v);
        if (!v)
            abort();
        ks->v = v;
        ks->cap = cap;
    }
    ks->v[ks->n].name = xstrdup0(name);
    ks->v[ks->n].flags = flags;
    ks->v[ks->n].setup = xstrdup0(setup);
    ks->v[ks->n].body = xstrdup0(body);
    ks->n++;
}

void kernels_free(kernel_set *ks)
{
    for (size_t i = 0; i < ks->n; i++) {
        free(ks->v[i].name);
        free(ks->v[i].setup);
        free(ks->v[i].body);
    }
    free(ks->v);
    memset(ks, 0, sizeof *ks);
}

#define Q KF_QUICK
#define H KF_HOLDOUT

/* the zip kernels' input: N bytes that compress about 2:1, and (ZIP_PACKED)
 * the same deflated into p[0..pn) */
#define ZIP_DATA(n) "byte[] a = new byte[" #n "]; for (int k = 0; k < a.length; k++) a[k] = (byte) ((k * 31 + (k >> 7)) & 0x3f);"
#define ZIP_PACKED "java.util.zip.Deflater z0 = new java.util.zip.Deflater(1); z0.setInput(a); z0.finish();" \
    " byte[] p = new byte[a.length * 2 + 64]; int pn = z0.deflate(p); z0.end();"

/* a class file of Kernels' own, and hidden classes defined from it */
#define HIDDEN(cls) "byte[] cf = CLASSFILE(\"" cls "\"); java.lang.invoke.MethodHandles.Lookup lk = java.lang.invoke.MethodHandles.lookup(); Class<?> hc = Kernels.class;"
#define DEFINE_HIDDEN "try { hc = lk.defineHiddenClass(cf, false).lookupClass(); } catch (IllegalAccessException e) { acc--; }"

/* the Math kernels' arguments: 0.005, 0.015, ... 10.235 */
/* a big-endian IntBuffer over n direct bytes: bulk puts swap bytes (copySwapMemory0) */
#define SWAPPED(n) "java.nio.IntBuffer d = java.nio.ByteBuffer.allocateDirect(" #n ").order(java.nio.ByteOrder.BIG_ENDIAN).asIntBuffer();"
/* `decl` = `open`, with the checked exception turned unchecked (kernels declare none) */
#define FILE_OPEN(decl, open) \
    decl "; try { f = " open "; } catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); } "
#define MATH_ARGS "double[] v = new double[1024]; for (int k = 0; k < 1024; k++) v[k] = 0.01 * k + 0.005; double d, r;"
/* two kernels of one Math function: the argument read from an array (flags:
 * KF_QUICK or 0) and converted from the loop counter (full set only) */
#define MATH_KERNELS(fn, flags, setup, call) \
    { "math_" fn, flags, MATH_ARGS setup, "d = v[i & 1023]; r = " call ";" }, \
    { "math_" fn "_i2d", 0, "double d, r;" setup, "d = (i & 1023) * 0.01 + 0.005; r = " call ";" }

/* name, flags, setup, body */
static const struct { const char *name; unsigned flags; const char *setup, *body; } builtin[] = {
    /* --- the loop itself, locals, constants ------------------------------- */
    { "empty", Q, "", "" },
    { "iarith", Q, "int x = 1, y = 2;",
      "x = x + i; y = y ^ x; x = x - y; y = y | 3; x = x & y; y = y << 1; x = x >> 1; y = y >>> 2; x = -x;" },
    { "iarith2", 0, "int x = 1, y = 2, z = 3;", "x = y + z; y = z - x; z = x ^ y;" },
    { "iinc", Q, "int x = 0, y = 0, z = 0;", "x += 7; y -= 3; z++; x++; y += 100;" },
    { "const", Q, "int x, y, z, w; long l; double d; float f; Object o;",
      "x = 5; y = -1; z = 100; w = 1000; l = 1L; d = 1.0; f = 2.0f; o = null;" },
    { "ldc", Q, "int x; long l; double d; String s; float f;",
      "x = 123456; l = 1234567890123L; d = 1.5e10; s = \"str\"; f = 3.5f;" },
    /* a class constant: the interpreter calls into the VM for each (<ldc constant="class">) */
    { "ldc_class", Q, "Object c, d;", "c = Object.class; d = int[].class;" },
    { "loadstore", Q, "int x = 1, y = 2; long l = 3, m = 4; double d = 1, e = 2; Object o = null, p = null; float f = 1, g = 2;",
      "x = y; y = x; l = m; m = l; d = e; e = d; o = p; p = o; f = g; g = f;" },
    { "dup", Q, "int x = 1, y = 2; long l = 3, m = 4;", "x = y = i; l = m = l; x = y = x;" },
    { "dupx", Q, "int x = 1, y = 2; long l = 3, m = 4; Pt p = new Pt(); int[] a = new int[8]; long[] la = new long[8];",
      "x = (p.x = y); y = (a[3] = x); l = (la[2] = m); m = (p.l = l);" },
    { "pop", Q, "int x = 1; long l = 2;", "sf(x); slf(l); sf(x);" },
    /* --- arithmetic ------------------------------------------------------- */
    { "imul", Q, "int x = 3, y = 5;", "x = x * y; y = y * 7; x = x * 3;" },
    { "idiv", Q, "int x = 1000003, y = 7, z = 0, w = 0;", "z = x / y; w = x % y; z = x / 13; w = x % 1000;" },
    { "larith", Q, "long a = 1, b = 2;",
      "a = a + b; b = b ^ a; a = a - b; a = a << 3; b = b >> 1; a = a >>> 2; b = -b; a = a & b; b = b | a;" },
    { "lmul", Q, "long a = 3, b = 5;", "a = a * b; b = b * a; a = a * b;" },
    { "ldiv", Q, "long a = 100000000003L, b = 7, c = 0, d = 0;", "c = a / b; d = a % b; c = a / d;" },
    { "farith", Q, "float f = 1.5f, g = 0.5f, h = 0.5f, k = 1.0f; double d = 1.5, e = 0.5, p = 0.5, q = 1.0;",
      "f = g * h + k; g = f - h; g = -g; g = -g; d = e * p + q; e = d - p; e = -e; e = -e;" },
    { "fdiv", Q, "float f = 1.5f, g = 3.0f, r; double d = 1.5, e = 3.0, s;", "r = f / g; s = d / e; r = g / f; s = e / d;" },
    { "frem", Q, "float f = 10.5f, g = 3.0f, r; double d = 10.5, e = 3.0, s;", "r = f % g; s = d % e;" },
    { "conv_int", Q, "int x = 5; long l = 7; byte b; char c; short s;",
      "l = x; x = (int) l; b = (byte) x; c = (char) x; s = (short) x;" },
    { "conv_fp", Q, "int x = 5; long l = 7; float f = 1.5f; double d = 2.5;",
      "f = x; d = x; x = (int) f; l = (long) d; d = f; f = (float) d; f = l; d = l; x = (int) d; l = (long) f;" },
    { "cmp", Q, "long a = 1, b = 2; float f = 1, g = 2; double d = 1, e = 2; int x = 0;",
      "if (a < b) x++; if (f < g) x++; if (d > e) x++; if (f > g) x++; if (d < e) x++;" },
    /* --- control flow ----------------------------------------------------- */
    { "if", Q, "int x = 1, y = 2, z = 0; Object o = null, p = new Object();",
      "if (x > 0) z++; if (x == 0) z--; if (y < x) z++; if (o == null) z++; if (p != null) z++; if (o == p) z++; if (x != y) z++;" },
    { "ifgoto", Q, "int x = 0, y = 0;", "if ((i & 1) == 0) x++; else y++; if ((i & 2) != 0) x--; else y--;" },
    { "innerloop", 0, "int x = 0;", "for (int j = 0; j < 4; j++) x += j;" },
    { "tableswitch", Q, "int x = 0;",
      "switch (i & 7) { case 0: x += 1; break; case 1: x += 2; break; case 2: x += 3; break; case 3: x -= 1; break;"
      " case 4: x ^= 5; break; case 5: x -= 3; break; case 6: x += 7; break; default: x++; }" },
    { "lookupswitch", Q, "int x = 0; int[] keys = { 1, 100, 1000, 10000, 5, 50000, 77, 3 };",
      "switch (keys[i & 7]) { case 1: x += 1; break; case 100: x += 2; break; case 1000: x += 3; break; case 10000: x -= 1; break;"
      " case 5: x ^= 5; break; case 50000: x -= 3; break; case 77: x += 7; break; default: x++; }" },
    /* --- array elements --------------------------------------------------- */
    { "xarray_int", Q, "int[] a = new int[16]; int x = 0;", "int j = i & 7; a[j] = a[j + 8] + x; x = a[j + 1];" },
    { "xarray_long", 0, "long[] a = new long[16]; long x = 0;", "int j = i & 7; a[j] = a[j + 8] + x; x = a[j + 1];" },
    { "xarray_double", 0, "double[] a = new double[16]; double x = 0;", "int j = i & 7; a[j] = a[j + 8] + x; x = a[j + 1];" },
    { "xarray_byte", Q, "byte[] a = new byte[16]; byte x = 0;", "int j = i & 7; a[j] = a[j + 8]; x = a[j + 1];" },
    { "xarray_char", 0, "char[] a = new char[16]; char x = 0;", "int j = i & 7; a[j] = a[j + 8]; x = a[j + 1];" },
    { "xarray_sfz", 0, "short[] a = new short[16]; float[] b = new float[16]; boolean[] c = new boolean[16]; short x = 0; float y = 0; boolean z;",
      "int j = i & 7; a[j] = a[j + 8]; x = a[j + 1]; b[j] = b[j + 8]; y = b[j + 1]; c[j] = c[j + 8]; z = c[j + 1];" },
    { "aaload", Q, "Object[] a = new Object[16]; Object x = null;", "int j = i & 7; x = a[j]; x = a[j + 8]; x = a[j + 1];" },
    { "aastore", Q, "Object[] a = new Object[16]; Object o = new Object(); String[] s = new String[16]; String t = \"x\";",
      "int j = i & 7; a[j] = o; a[j + 8] = null; s[j] = t; a[j + 1] = t;" },
    { "arraylength", Q, "int[] a = new int[16]; int x = 0;", "x += a.length; x += a.length; x += a.length;" },
    /* --- fields ----------------------------------------------------------- */
    { "getfield", Q, "Pt p = new Pt(); int x = 0;", "x = p.x; x = p.y; x = p.x + p.y;" },
    { "putfield", Q, "Pt p = new Pt(); int x = 5;", "p.x = x; p.y = x; p.x = i;" },
    { "getstatic", Q, "int x = 0;", "x = si; x = sj + si; x = sj;" },
    { "putstatic", Q, "", "si = i; sj = i; sl = i;" },
    /* --- invocations ------------------------------------------------------ */
    { "invokestatic", Q, "int x = 0;", "x = sf(x);" },
    { "invokestatic_void", Q, "", "sv(); sv();" },
    { "invokestatic_args", 0, "int x = 1;", "x = s3(x, i, 5);" },
    { "invokestatic_wide", 0, "long l = 0; double d = 1.0; Object o = null;", "l = slf(l); d = sdf(d); o = sof(o);" },
    { "invokevirtual", Q, "Pt p = new Pt(); int x = 0;", "x = p.getX(); x += p.getX();" },
    { "invokevirtual_poly", Q, "Base[] b = { new Sq(), new Rect() }; int x = 0;", "x += b[i & 1].v();" },
    { "invokevirtual_inherited", 0, "Base b = new Sq(); int x = 0;", "x += b.fin();" },
    { "invokevirtual_private", 0, "Pt p = new Pt(); int x = 0;", "x = p.callPriv(i);" },
    { "invokeinterface", Q, "Shape[] s = { new Sq(), new Rect() }; int x = 0;", "x += s[i & 1].area();" },
    { "invokeinterface_deep", 0, "I7 m = new Many(); I0 m0 = (I0) m; int x = 0;", "x += m.m7(); x += m0.m0();" },
    { "invokespecial", Q, "Sub s = new Sub(); int x = 0;", "x = s.m(x);" },
    /* calls whose callee does some work: in -Xint a call's fixed cost
     * overlaps with the callee's own bytecodes, so naked calls alone would
     * overprice the calls of real code */
    { "call_body10", Q, "int x = 0;", "x = s10(x);" },
    { "call_body40", Q, "int x = 0;", "x = s40(x);" },
    { "call_body100", Q, "int x = 0;", "x = s100(x);" },
    { "call_nested", 0, "int x = 0;", "x = g2(x);" },
    { "call_recursive", Q, "int r;", "r = fib(4);" },
    { "call_jdk_small", 0, "String s = \"hello\"; int x = 0;", "x += s.length(); x += s.charAt(i & 3);" },
    { "call_virtual_work", 0, "Base[] b = { new Sq(), new Rect() }; int x = 0;", "x += b[i & 1].work(x);" },
    /* a native call or an allocation soon after a Java method entry, and
     * the same after 40 more bytecodes: the fence prices (common/calls.h) */
    { "fence_copy_near", Q, "int[] a = new int[8], b = new int[8]; int x = 0;", "x = sf(x); System.arraycopy(a, 0, b, 0, 8);" },
    { "fence_copy_far", Q, "int[] a = new int[8], b = new int[8]; int x = 0, y = 1;",
      "x = sf(x); y = y + x; x = x ^ y; y = y - x; x = x | 3; y = y & x; x = x + y; y = y ^ 5; x = x - y; y = y + 7; x = x & y; System.arraycopy(a, 0, b, 0, 8);" },
    { "fence_alloc_near", Q, "int x = 0; int[] o;", "x = sf(x); o = new int[4];" },
    { "fence_alloc_far", Q, "int x = 0, y = 1; int[] o;",
      "x = sf(x); y = y + x; x = x ^ y; y = y - x; x = x | 3; y = y & x; x = x + y; y = y ^ 5; x = x - y; y = y + 7; x = x & y; o = new int[4];" },
    { "fence_hash_near", 0, "Object p = new Object(); int x = 0, h;", "x = sf(x); h = p.hashCode();" },
    { "invokedynamic_lambda", Q, "Runnable r = null;", "r = () -> { };" },
    { "invokedynamic_capture", 0, "java.util.function.IntSupplier s = null;", "final int y = i; s = () -> y;" },
    { "invokedynamic_concat", 0, "String s = null; int[] v = { 1, 22, 333, 4444 };", "s = \"a\" + v[i & 3];" },
    /* --- objects and types ------------------------------------------------ */
    { "new_object", Q, "Object o = null;", "o = new Object();" },
    { "new_pt", Q, "Pt p = null;", "p = new Pt(i, 3);" },
    { "checkcast", Q, "Object o = new Pt(); Pt p = null;", "p = (Pt) o; p = (Pt) o;" },
    { "checkcast_iface", 0, "Object o = new Sq(); Shape s = null;", "s = (Shape) o; s = (Shape) o;" },
    { "instanceof", Q, "Object o = new Pt(); int x = 0;", "if (o instanceof Pt) x++; if (o instanceof Shape) x--;" },
    { "monitor", Q, "Object lock = new Object(); int x = 0;", "synchronized (lock) { x++; }" },
    { "athrow", Q, "int x = 0;", "try { throw PRE; } catch (RuntimeException e) { x++; }" },
    { "athrow_call", 0, "int x = 0;", "try { thrower(); } catch (RuntimeException e) { x++; }" },
    { "new_exception", 0, "int x = 0;", "try { throw new RuntimeException(); } catch (RuntimeException e) { x++; }" },
    /* --- allocation: fixed and per-element parts --------------------------
     * The largest kernel of a type allocates 1 KB (2 KB for long and double):
     * zeroing fewer bytes costs a few cycles (byte[256] 5 more than byte[1]
     * in the shipped JDK 25 report), less than a quick run's noise, so a
     * 256-element kernel of a 1- or 2-byte type can leave its per-element
     * price at 0, which the calibrator refuses */
    { "alloc_boolean_1", 0, "boolean[] a;", "a = new boolean[1];" },
    { "alloc_boolean_16", 0, "boolean[] a;", "a = new boolean[16];" },
    { "alloc_boolean_1024", Q, "boolean[] a;", "a = new boolean[1024];" },
    { "alloc_byte_1", Q, "byte[] a;", "a = new byte[1];" },
    { "alloc_byte_16", 0, "byte[] a;", "a = new byte[16];" },
    { "alloc_byte_1024", Q, "byte[] a;", "a = new byte[1024];" },
    { "alloc_char_1", 0, "char[] a;", "a = new char[1];" },
    { "alloc_char_16", 0, "char[] a;", "a = new char[16];" },
    { "alloc_char_512", Q, "char[] a;", "a = new char[512];" },
    { "alloc_short_1", 0, "short[] a;", "a = new short[1];" },
    { "alloc_short_16", 0, "short[] a;", "a = new short[16];" },
    { "alloc_short_512", Q, "short[] a;", "a = new short[512];" },
    { "alloc_int_1", Q, "int[] a;", "a = new int[1];" },
    { "alloc_int_16", 0, "int[] a;", "a = new int[16];" },
    { "alloc_int_256", Q, "int[] a;", "a = new int[256];" },
    { "alloc_long_1", 0, "long[] a;", "a = new long[1];" },
    { "alloc_long_16", 0, "long[] a;", "a = new long[16];" },
    { "alloc_long_256", Q, "long[] a;", "a = new long[256];" },
    { "alloc_float_1", 0, "float[] a;", "a = new float[1];" },
    { "alloc_float_16", 0, "float[] a;", "a = new float[16];" },
    { "alloc_float_256", Q, "float[] a;", "a = new float[256];" },
    { "alloc_double_1", 0, "double[] a;", "a = new double[1];" },
    { "alloc_double_16", 0, "double[] a;", "a = new double[16];" },
    { "alloc_double_256", Q, "double[] a;", "a = new double[256];" },
    { "alloc_ref_1", Q, "Object[] a;", "a = new Object[1];" },
    { "alloc_ref_16", 0, "String[] a;", "a = new String[16];" },
    { "alloc_ref_256", Q, "Object[] a;", "a = new Object[256];" },
    { "alloc_multi", Q, "int[][] m;", "m = new int[2][4];" },
    /* --- native and intrinsic methods the table prices -------------------- */
    { "arraycopy_8", Q, "int[] a = new int[64], b = new int[64];", "System.arraycopy(a, 0, b, 8, 8);" },
    { "arraycopy_64", Q, "int[] a = new int[64], b = new int[64];", "System.arraycopy(a, 0, b, 0, 64);" },
    { "arraycopy_1k", 0, "long[] a = new long[1024], b = new long[1024];", "System.arraycopy(a, 0, b, 0, 1024);" },
    { "clone_int", Q, "int[] a = new int[16], b;", "b = a.clone();" },
    { "clone_long", 0, "long[] a = new long[16], b;", "b = a.clone();" },
    { "clone_byte", 0, "byte[] a = new byte[16], b;", "b = a.clone();" },
    { "clone_char", 0, "char[] a = new char[16], b;", "b = a.clone();" },
    { "clone_double", 0, "double[] a = new double[16], b;", "b = a.clone();" },
    { "clone_objects", 0, "Object[] a = new Object[16], b;", "b = a.clone();" },
    /* the same at 256 elements: a clone copies every element, so it is
     * priced per call and per element (the agent reports the elements) */
    { "clone_int_256", 0, "int[] a = new int[256], b;", "b = a.clone();" },
    { "clone_long_256", 0, "long[] a = new long[256], b;", "b = a.clone();" },
    { "clone_byte_256", 0, "byte[] a = new byte[256], b;", "b = a.clone();" },
    { "clone_char_256", 0, "char[] a = new char[256], b;", "b = a.clone();" },
    { "clone_double_256", 0, "double[] a = new double[256], b;", "b = a.clone();" },
    { "clone_objects_256", 0, "Object[] a = new Object[256], b;", "b = a.clone();" },
    { "object_clone", Q, "Cl c = new Cl(), d;", "d = c.copy();" },
    /* Arguments sweep 1024 values over (0, 10.24], as a numeric loop's do (a
     * constant 0.5 would time only the fastest paths: sin and cos of
     * |x| < pi/4 need no argument reduction). Each function twice, because
     * where the argument comes from decides whether its latency shows: read
     * from an array, the next call starts while this one finishes; computed
     * from the loop counter (Math.sin(i * h)), the interpreter's i2d writes
     * only the low half of the register the last call left its result in,
     * waits for it, and the calls run one after another (about 20 cycles
     * more a call here). The fit prices each function between the two. */
    MATH_KERNELS("sin", Q, "", "Math.sin(d)"),
    MATH_KERNELS("cos", 0, "", "Math.cos(d)"),
    MATH_KERNELS("tan", 0, "", "Math.tan(d)"),
    MATH_KERNELS("sqrt", Q, "", "Math.sqrt(d)"),
    MATH_KERNELS("log", 0, "", "Math.log(d)"),
    MATH_KERNELS("log10", 0, "", "Math.log10(d)"),
    MATH_KERNELS("exp", 0, "", "Math.exp(d)"),
    MATH_KERNELS("pow", 0, " double e = 1.7;", "Math.pow(d, e)"),
    { "math_abs", 0, MATH_ARGS, "d = -v[i & 1023]; r = Math.abs(d);" },
    { "math_atan2", 0, MATH_ARGS " double e = 1.5;", "d = v[i & 1023]; r = Math.atan2(d, e);" },
    { "object_hashcode", Q, "Object o = new Object(); int h;", "h = o.hashCode();" },
    { "identity_hashcode", 0, "Object o = new Object(); int h;", "h = System.identityHashCode(o);" },
    { "string_hashcode", Q, "String s = \"hello world\"; int h;", "h = s.hashCode();" },
    { "get_class", 0, "Object o = new Pt(); Class<?> c;", "c = o.getClass();" },
    { "class_isarray", 0, "Class<?> c = int[].class; boolean b;", "b = c.isArray();" },
    { "array_newinstance", 0, "String[] s = new String[8]; Object[] t;", "t = java.util.Arrays.copyOf(s, 8);" },
    { "array_newinstance_256", 0, "String[] s = new String[256]; Object[] t;", "t = java.util.Arrays.copyOf(s, 256);" },
    { "nanotime", 0, "long t;", "t = System.nanoTime();" },
    { "currenttimemillis", 0, "long t;", "t = System.currentTimeMillis();" },
    { "current_thread", 0, "Thread t;", "t = Thread.currentThread();" },
    /* natives and interpreter intrinsics that common library code reaches:
     * Class queries, fences (VarHandle's static fences call Unsafe's),
     * Reference accessors, the Unsafe accessors of the atomics,
     * ConcurrentHashMap, Arrays.mismatch and ThreadLocalRandom, and
     * Unsafe.allocateInstance behind a constructor's method handle */
    { "class_isprimitive", 0, "Class<?> c = int.class; boolean b;", "b = c.isPrimitive();" },
    { "class_isinterface", 0, "Class<?> c = Runnable.class; boolean b;", "b = c.isInterface();" },
    { "class_isinstance", 0, "Class<?> c = Number.class; Object o = 7; boolean b;", "b = c.isInstance(o);" },
    { "class_isassignable", 0, "Class<?> c = Number.class, d = Integer.class; boolean b;",
      "b = c.isAssignableFrom(d);" },
    { "class_forname", 0, "Class<?> c;",
      "try { c = Class.forName(\"java.lang.String\"); } catch (ClassNotFoundException e) { acc--; }" },
    { "class_declaring", 0, "Class<?> c = java.util.Map.Entry.class, d;", "d = c.getDeclaringClass();" },
    { "fence_release", 0, "", "java.lang.invoke.VarHandle.releaseFence();" },
    { "fence_acquire", 0, "", "java.lang.invoke.VarHandle.acquireFence();" },
    { "fence_full", 0, "", "java.lang.invoke.VarHandle.fullFence();" },
    { "ref_get", 0, "Object o = new Object(); java.lang.ref.Reference<Object> r = new java.lang.ref.WeakReference<>(o); Object g;",
      "g = r.get();" },
    { "weakref_get", 0, "Object o = new Object(); java.lang.ref.WeakReference<Object> r = new java.lang.ref.WeakReference<>(o); Object g;",
      "g = r.get();" },
    { "ref_refers_to", 0, "Object o = new Object(); java.lang.ref.WeakReference<Object> r = new java.lang.ref.WeakReference<>(o); boolean b;",
      "b = r.refersTo(o);" },
    { "ref_clear", 0, "Object o = new Object(); java.lang.ref.WeakReference<Object> r = new java.lang.ref.WeakReference<>(o);",
      "r.clear();" },
    { "atomic_cas_int", 0, "java.util.concurrent.atomic.AtomicInteger a = new java.util.concurrent.atomic.AtomicInteger();",
      "a.compareAndSet(0, 1); a.compareAndSet(1, 0);" },
    { "atomic_cas_long", 0, "java.util.concurrent.atomic.AtomicLong a = new java.util.concurrent.atomic.AtomicLong();",
      "a.compareAndSet(0, 1); a.compareAndSet(1, 0);" },
    { "atomic_add_int", 0, "java.util.concurrent.atomic.AtomicInteger a = new java.util.concurrent.atomic.AtomicInteger(); int v;",
      "v = a.incrementAndGet();" },
    { "chm_get", 0, "java.util.concurrent.ConcurrentHashMap<String, Integer> m = new java.util.concurrent.ConcurrentHashMap<>(); "
      "m.put(\"a\", 1); m.put(\"b\", 2); Integer v;", "v = m.get(\"a\");" },
    { "chm_put_remove", 0, "java.util.concurrent.ConcurrentHashMap<String, Integer> m = new java.util.concurrent.ConcurrentHashMap<>(); "
      "m.put(\"a\", 1);", "m.put(\"k\", 2); m.remove(\"k\");" },
    { "mismatch_71", 0, "byte[] a = new byte[71], b = new byte[71]; int v;", "v = java.util.Arrays.mismatch(a, b);" },
    { "str_region", 0, "String s = \"the quick brown fox jumps\", t = \"quick brown\"; boolean b;",
      "b = s.regionMatches(4, t, 0, 11); b = s.startsWith(t, 4);" },
    /* the same at an offset of 2: on JDK 25 the compare reads the string's
     * bytes with getLongUnaligned, which at an address of 2 mod 4 makes
     * each long of four Unsafe.getShort (the strings corpus' search loops) */
    { "str_region_short", 0, "String s = \"the quick brown fox jumps\", t = \"e quick bro\"; boolean b;",
      "b = s.regionMatches(2, t, 0, 11);" },
    { "tlr_next", 0, "int v;", "v = java.util.concurrent.ThreadLocalRandom.current().nextInt();" },
    { "arraylist_copy", 0, "java.util.ArrayList<Integer> l = new java.util.ArrayList<>(java.util.List.of(1, 2, 3, 4)); "
      "java.util.ArrayList<Integer> c;", "c = new java.util.ArrayList<>(l);" },
    { "mh_constructor", 0, "java.lang.invoke.MethodHandle h = MH_NEW_LIST(); Object o;",
      "try { o = (java.util.ArrayList) h.invokeExact(); } catch (Throwable e) { acc--; }" },
    { "float_bits", 0, "float f = 1.5f; int b;", "b = Float.floatToRawIntBits(f); f = Float.intBitsToFloat(b);" },
    { "double_bits", 0, "double d = 1.5; long b;", "b = Double.doubleToRawLongBits(d); d = Double.longBitsToDouble(b);" },
    /* natives whose work grows with the bytes they handle (agent/runtime/bulk.c),
     * each at two sizes so that the fit tells the call from the bytes; the
     * same data every iteration, so the same work */
    { "crc32_256", 0, "java.util.zip.CRC32 c = new java.util.zip.CRC32(); byte[] a = new byte[256];", "c.update(a, 0, 256);" },
    { "crc32_4k", 0, "java.util.zip.CRC32 c = new java.util.zip.CRC32(); byte[] a = new byte[4096];", "c.update(a, 0, 4096);" },
    { "adler32_256", 0, "java.util.zip.Adler32 c = new java.util.zip.Adler32(); byte[] a = new byte[256];", "c.update(a, 0, 256);" },
    { "adler32_4k", 0, "java.util.zip.Adler32 c = new java.util.zip.Adler32(); byte[] a = new byte[4096];", "c.update(a, 0, 4096);" },
    { "deflate_512", 0, ZIP_DATA(512) "java.util.zip.Deflater z = new java.util.zip.Deflater(1); byte[] o = new byte[2048]; int zn;",
      "z.reset(); z.setInput(a); z.finish(); zn = z.deflate(o);" },
    { "deflate_8k", 0, ZIP_DATA(8192) "java.util.zip.Deflater z = new java.util.zip.Deflater(1); byte[] o = new byte[16384]; int zn;",
      "z.reset(); z.setInput(a); z.finish(); zn = z.deflate(o);" },
    { "inflate_512", 0, ZIP_DATA(512) ZIP_PACKED "java.util.zip.Inflater z = new java.util.zip.Inflater(); byte[] o = new byte[512]; int zn;",
      "z.reset(); z.setInput(p, 0, pn); try { zn = z.inflate(o); } catch (java.util.zip.DataFormatException e) { zn = -1; }" },
    { "inflate_8k", 0, ZIP_DATA(8192) ZIP_PACKED "java.util.zip.Inflater z = new java.util.zip.Inflater(); byte[] o = new byte[8192]; int zn;",
      "z.reset(); z.setInput(p, 0, pn); try { zn = z.inflate(o); } catch (java.util.zip.DataFormatException e) { zn = -1; }" },
    { "deflate_dict_512", 0, ZIP_DATA(512) "java.util.zip.Deflater z = new java.util.zip.Deflater(1);",
      "z.reset(); z.setDictionary(a);" },
    { "deflate_dict_8k", 0, ZIP_DATA(8192) "java.util.zip.Deflater z = new java.util.zip.Deflater(1);",
      "z.reset(); z.setDictionary(a);" },
    /* direct buffers' bulk puts: Unsafe.copyMemory0 (256 bytes and 64 KB, so
     * that the copy outweighs the put's bytecodes), and copySwapMemory0 for
     * a byte order that is not the machine's */
    { "direct_put_256", 0, "java.nio.ByteBuffer d = java.nio.ByteBuffer.allocateDirect(256); byte[] a = new byte[256];",
      "d.clear(); d.put(a, 0, 256);" },
    { "direct_put_64k", 0, "java.nio.ByteBuffer d = java.nio.ByteBuffer.allocateDirect(65536); byte[] a = new byte[65536];",
      "d.clear(); d.put(a, 0, 65536);" },
    { "direct_swap_256", 0, SWAPPED(256) "int[] a = new int[64];", "d.clear(); d.put(a, 0, 64);" },
    { "direct_swap_4k", 0, SWAPPED(4096) "int[] a = new int[1024];", "d.clear(); d.put(a, 0, 1024);" },
    /* file I/O: reads from /dev/zero (the JDK's copy and the kernel's
     * clearing grow with the bytes), writes to a temporary file rewound each
     * time (the page cache's copy) */
    { "fis_read_256", 0, FILE_OPEN("java.io.FileInputStream f", "new java.io.FileInputStream(\"/dev/zero\")") "byte[] a = new byte[256];",
      "try { acc += f.read(a, 0, 256); } catch (java.io.IOException e) { acc--; }" },
    { "fis_read_4k", 0, FILE_OPEN("java.io.FileInputStream f", "new java.io.FileInputStream(\"/dev/zero\")") "byte[] a = new byte[4096];",
      "try { acc += f.read(a, 0, 4096); } catch (java.io.IOException e) { acc--; }" },
    { "fos_write_256", 0, FILE_OPEN("java.io.FileOutputStream f", "new java.io.FileOutputStream(TMP())")
      "java.nio.channels.FileChannel c = f.getChannel(); byte[] a = new byte[256];",
      "try { c.position(0); f.write(a, 0, 256); } catch (java.io.IOException e) { acc--; }" },
    { "fos_write_4k", 0, FILE_OPEN("java.io.FileOutputStream f", "new java.io.FileOutputStream(TMP())")
      "java.nio.channels.FileChannel c = f.getChannel(); byte[] a = new byte[4096];",
      "try { c.position(0); f.write(a, 0, 4096); } catch (java.io.IOException e) { acc--; }" },
    { "raf_write_256", 0, FILE_OPEN("java.io.RandomAccessFile f", "new java.io.RandomAccessFile(TMP(), \"rw\")") "byte[] a = new byte[256];",
      "try { f.seek(0); f.write(a, 0, 256); } catch (java.io.IOException e) { acc--; }" },
    { "raf_write_4k", 0, FILE_OPEN("java.io.RandomAccessFile f", "new java.io.RandomAccessFile(TMP(), \"rw\")") "byte[] a = new byte[4096];",
      "try { f.seek(0); f.write(a, 0, 4096); } catch (java.io.IOException e) { acc--; }" },
    { "raf_read_256", 0, FILE_OPEN("java.io.RandomAccessFile f", "new java.io.RandomAccessFile(TMP(4096), \"r\")") "byte[] a = new byte[256];",
      "try { f.seek(0); acc += f.read(a, 0, 256); } catch (java.io.IOException e) { acc--; }" },
    { "raf_read_4k", 0, FILE_OPEN("java.io.RandomAccessFile f", "new java.io.RandomAccessFile(TMP(4096), \"r\")") "byte[] a = new byte[4096];",
      "try { f.seek(0); acc += f.read(a, 0, 4096); } catch (java.io.IOException e) { acc--; }" },
    /* String.intern of a string already interned: hashing and comparing its characters */
    { "intern_16", 0, "String s = \"abcdefghijklmnop\", t;", "t = s.intern();" },
    { "intern_256", 0, "String s = \"abcdefghijklmnop\".repeat(16), t;", "t = s.intern();" },
    /* File.list of a directory of 16 and of 256 files: charged by the entries */
    { "file_list_16", 0, "java.io.File d = DIR(16); String[] l;", "l = d.list();" },
    { "file_list_256", 0, "java.io.File d = DIR(256); String[] l;", "l = d.list();" },
    /* a Throwable 40 calls deep: fillInStackTrace is charged by the frames */
    { "new_exception_deep", 0, "RuntimeException x;", "x = deepEx(40);" },
    /* StackWalker over 40 and 400 frames: fetchStackFrames is charged by the
     * frames of each batch after the first */
    { "stack_walk_40", 0, "long w;", "w = deepWalk(40);" },
    { "stack_walk_400", 0, "long w;", "w = deepWalk(400);" },
    /* another thread's stack trace, 40 and 400 frames deep: Thread.dumpThreads
     * (JDK 17) or getStackTrace0 (later JDKs) is charged by the frames. The
     * threads are parked before the measured call (KF_WAITERS): one started
     * inside it would be the method's own, whose park returns at once under
     * the agent's scheduler */
    { "other_stack_40", KF_WAITERS, "StackTraceElement[] e;", "e = W40.getStackTrace();" },
    { "other_stack_400", KF_WAITERS, "StackTraceElement[] e;", "e = W400.getStackTrace();" },
    /* a mapped file of 16 KB and 256 KB: isLoaded (mincore), load (madvise,
     * then a read of each page, counted) and force (msync of clean pages)
     * are charged by the range's bytes */
    { "mapped_isloaded_16k", 0, "java.nio.MappedByteBuffer m = MAP(16384); boolean b;", "b = m.isLoaded();" },
    { "mapped_isloaded_256k", 0, "java.nio.MappedByteBuffer m = MAP(262144); boolean b;", "b = m.isLoaded();" },
    { "mapped_load_16k", 0, "java.nio.MappedByteBuffer m = MAP(16384);", "m.load();" },
    { "mapped_load_256k", 0, "java.nio.MappedByteBuffer m = MAP(262144);", "m.load();" },
    { "mapped_force_16k", 0, "java.nio.MappedByteBuffer m = MAP(16384);", "m.force();" },
    { "mapped_force_256k", 0, "java.nio.MappedByteBuffer m = MAP(262144);", "m.force();" },
    /* a hidden class defined from the class file of Pt and of Many:
     * defineClass0 is charged by the class file's bytes */
    { "define_hidden_pt", 0, HIDDEN("Kernels$Pt"), DEFINE_HIDDEN },
    { "define_hidden_many", 0, HIDDEN("Kernels$Many"), DEFINE_HIDDEN },
    /* the same, then its methods listed: a new class each time, so the JDK's
     * cache of member lists does not answer; getDeclaredMethods0 is charged
     * by the arrays it makes */
    { "reflect_methods_pt", 0, HIDDEN("Kernels$Pt") "java.lang.reflect.Method[] ms;", DEFINE_HIDDEN " ms = hc.getDeclaredMethods();" },
    { "reflect_methods_many", 0, HIDDEN("Kernels$Many") "java.lang.reflect.Method[] ms;", DEFINE_HIDDEN " ms = hc.getDeclaredMethods();" },
    /* the same, then its generic signature asked for: getGenericSignature0
     * runs once per class (Class caches what it returns), so once per new
     * class here; Gen's signature is short, which getTypeParameters parses
     * in bytecode; HashMap asks a key's class for its generic interfaces
     * when a bin becomes a tree */
    { "generic_signature_gen", 0, HIDDEN("Kernels$Gen") "java.lang.reflect.TypeVariable<?>[] tv;",
      DEFINE_HIDDEN " tv = hc.getTypeParameters();" },
    /* --- realistic mixes: fitted (mix_*) and held out (h_*) ----------------
     * In -Xint the cost of a bytecode depends on its neighbours (dependency
     * chains through locals in memory, a call's latency overlapping the
     * callee's work), so the fit also sees code shaped like real programs.
     * Every iteration starts from the same state, so data-dependent branches
     * still repeat exactly. */
    /* random data, period 4096: branches the predictor cannot learn, like real code */
    { "real_compare_swap", KF_LONG | KF_REAL | Q, "int[] a = RND.clone();",
      "int j = i & 4094; if (a[j] > a[j + 1]) { int t = a[j]; a[j] = a[j + 1]; a[j + 1] = t; } a[j] ^= RND[j];" },
    { "real_branchy", KF_LONG | KF_REAL, "int x = 0, y = 0;",
      "int r = RND[i & 4095]; if ((r & 1) != 0) x += r; else y -= r; if ((r & 6) == 6) x ^= y; if (r < 0) y++;" },
    { "real_search", KF_LONG | KF_REAL, "int[] a = new int[256]; for (int k = 0; k < 256; k++) a[k] = k * 8;",
      "int key = RND[i & 4095] & 2047, lo = 0, hi = 255; while (lo <= hi) { int mid = (lo + hi) >>> 1;"
      " if (a[mid] < key) lo = mid + 1; else if (a[mid] > key) hi = mid - 1; else break; } acc += lo;" },
    { "real_sieve_like", KF_LONG | KF_REAL, "boolean[] f = new boolean[4096];",
      "int p = (RND[i & 4095] & 7) + 2; for (int j = p; j < 64; j += p) f[(i & 4031) + j] = !f[(i & 4031) + j];" },
    { "real_float", KF_LONG | KF_REAL, "double x = 0, y = 0;",
      "double c = (RND[i & 4095] & 1023) / 512.0 - 1.0; int it = 0; x = 0; y = 0;"
      " while (x * x + y * y < 4 && it < 8) { double t = x * x - y * y + c; y = 2 * x * y + c; x = t; it++; } acc += it;" },
    { "real_long_mix", KF_LONG | KF_REAL, "long h = 1;",
      "long z = h + RND[i & 4095]; z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L; if ((z & 1) == 0) h += z % 1000003; else h ^= z;" },
    { "real_calls", KF_LONG | KF_REAL, "int[] a = RND;",
      "int r = a[i & 4095]; acc += r > 0 ? sf(r) : s10(r); if ((r & 3) == 0) acc += g2(r);" },
    { "real_objects", KF_LONG | KF_REAL, "Pt[] ps = new Pt[64]; for (int k = 0; k < 64; k++) ps[k] = new Pt(k, -k);",
      "Pt p = ps[RND[i & 4095] & 63]; if (p.x > 20) p.y += p.x; else ps[i & 63] = new Pt(p.y, i); acc += p.getX();" },
    { "real_virtual", KF_LONG | KF_REAL, "Shape[] s = { new Sq(), new Rect(), new Sq(), new Rect() };",
      "Shape x = s[RND[i & 4095] & 3]; acc += x.area(); if (x instanceof Sq) acc++;" },
    /* algorithm steps on random data, every iteration from a fresh copy of
     * a window of RND: sorting, partitioning, merging, heaps, divide and
     * conquer with small calls, boxed values in collections */
    { "real_insertion16", KF_LONG | KF_REAL, "int[] a = new int[16];",
      "System.arraycopy(RND, (i & 255) << 4, a, 0, 16); for (int p = 1; p < 16; p++) { int v = a[p], q = p - 1;"
      " while (q >= 0 && a[q] > v) { a[q + 1] = a[q]; q--; } a[q + 1] = v; } acc += a[7];" },
    { "real_partition", KF_LONG | KF_REAL | Q, "int[] a = new int[32];",
      "System.arraycopy(RND, (i & 127) << 5, a, 0, 32); int piv = a[31], st = 0; for (int q = 0; q < 31; q++)"
      " if (a[q] < piv) { int t = a[q]; a[q] = a[st]; a[st] = t; st++; } acc += st;" },
    { "real_merge", KF_LONG | KF_REAL, "int[] a = new int[32], b = new int[32];",
      "System.arraycopy(RND, (i & 127) << 5, a, 0, 32); int p = 0, q = 16, k = 0;"
      " while (p < 16 && q < 32) b[k++] = a[p] <= a[q] ? a[p++] : a[q++];"
      " while (p < 16) b[k++] = a[p++]; while (q < 32) b[k++] = a[q++]; acc += b[5];" },
    { "real_siftdown", KF_LONG | KF_REAL, "int[] a = new int[31];",
      "System.arraycopy(RND, (i & 127) << 5, a, 0, 31); int r = 0; while (2 * r + 1 < 31) { int c = 2 * r + 1;"
      " if (c + 1 < 31 && a[c + 1] > a[c]) c++; if (a[r] >= a[c]) break; int t = a[r]; a[r] = a[c]; a[c] = t; r = c; }"
      " acc += r;" },
    { "real_divide", KF_LONG | KF_REAL | Q, "",
      "acc += rsum(RND, (i & 511) << 3, ((i & 511) << 3) + (RND[i & 4095] & 7) + 1);" },
    { "real_boxed_deque", KF_LONG | KF_REAL, "java.util.ArrayDeque<Integer> d = new java.util.ArrayDeque<>(64);",
      "d.addLast(RND[i & 4095] & 1023); if ((RND[(i + 7) & 4095] & 1) == 0 && !d.isEmpty()) acc += d.pollFirst();"
      " if ((i & 4095) == 4095) d.clear();" },
    { "real_hash_lookup", KF_LONG | KF_REAL, "java.util.HashMap<Integer, Integer> m = new java.util.HashMap<>();"
      " for (int k = 0; k < 512; k++) m.put(k * 7, k);",
      "Integer v = m.get((RND[i & 4095] & 1023) * 7 / 2); if (v != null) acc += v;" },
    { "mix_bubble8", 0, "int[] src = { 7, 3, 6, 1, 8, 2, 5, 4 }; int[] a = new int[8];",
      "System.arraycopy(src, 0, a, 0, 8); for (int p = 0; p < 7; p++) for (int q = 0; q < 7 - p; q++)"
      " if (a[q] > a[q + 1]) { int t = a[q]; a[q] = a[q + 1]; a[q + 1] = t; }" },
    { "mix_insertion_objects", 0, "Integer[] src = { 7, 3, 6, 1, 8, 2, 5, 4 }; Integer[] a = new Integer[8];",
      "System.arraycopy(src, 0, a, 0, 8); for (int p = 1; p < 8; p++) { Integer v = a[p]; int q = p - 1;"
      " while (q >= 0 && a[q].compareTo(v) > 0) { a[q + 1] = a[q]; q--; } a[q + 1] = v; }" },
    { "mix_treemap", 0, "java.util.TreeMap<Integer, Integer> m = new java.util.TreeMap<>(); for (int k = 0; k < 16; k++) m.put(k, k);",
      "acc += m.get(i & 15);" },
    { "mix_sum2d", 0, "int[][] g = new int[4][8]; int s = 0;",
      "for (int r = 0; r < 4; r++) { int[] row = g[r]; for (int c = 0; c < 8; c++) s += row[c]; }" },
    { "mix_objects", 0, "Node head = null;",
      "Node nd = new Node(); nd.val = i; nd.next = head; head = (i & 7) == 7 ? null : nd; acc += nd.val;" },
    { "mix_strings", 0, "String a = \"alpha\", b = \"alpha beta\";",
      "acc += a.compareTo(b) + b.indexOf('b') + (b.startsWith(a) ? 1 : 0);" },
    { "h_sum_array", H | Q, "int[] a = new int[64]; int s = 0;", "s += a[i & 63] * 3 + a[(i + 1) & 63];" },
    { "mix_matvec", Q, "double[][] m = new double[4][4]; double[] v = new double[4]; double s = 0;",
      "int r = i & 3; s = 0; for (int c = 0; c < 4; c++) s += m[r][c] * v[c];" },
    { "mix_list_walk", 0, "Node head = null; for (int k = 0; k < 8; k++) { Node nd = new Node(); nd.val = k; nd.next = head; head = nd; }",
      "for (Node p = head; p != null; p = p.next) acc += p.val;" },
    { "h_arraylist", H | Q, "java.util.List<Integer> l = new java.util.ArrayList<>(); for (int k = 0; k < 16; k++) l.add(k);",
      "acc += l.get(i & 15); l.set(i & 15, l.get((i + 1) & 15));" },
    { "mix_hashmap", 0, "java.util.HashMap<Integer, Integer> m = new java.util.HashMap<>(); for (int k = 0; k < 16; k++) m.put(k, k);",
      "acc += m.get(i & 15);" },
    { "mix_stringbuilder", Q, "StringBuilder sb = new StringBuilder(64);",
      "sb.setLength(0); sb.append(\"ab\").append(i & 7).append('c'); acc += sb.length();" },
    { "mix_fib", 0, "int r;", "r = fib(6);" },
    { "h_shapes", H, "Shape[] s = { new Sq(), new Rect(), new Sq(), new Rect() }; int a = 0;",
      "for (int k = 0; k < 4; k++) a += s[k].area();" },
    { "h_alloc_points", H, "Pt[] ps = new Pt[8]; for (int k = 0; k < 8; k++) ps[k] = new Pt();", "ps[i & 7] = new Pt(i, i + 1); acc += ps[(i + 3) & 7].x;" },
    { "mix_hashmix", 0, "long h = 17;", "h ^= h >>> 33; h *= 0xff51afd7ed558ccdL; h ^= h >>> 29; acc += h;" },
    { "h_math", H, "double d = 0.5, s = 0;", "s += Math.sqrt(d + (i & 7)) * Math.sin(d);" },
    { "h_copyof", H, "int[] a = new int[32], b;", "b = java.util.Arrays.copyOf(a, 32); acc += b.length;" },
    { "h_string_equals", H, "String a = \"hello world\", b = new String(\"hello world\");", "if (a.equals(b)) acc++;" },
    { "mix_sort16", 0, "int[] src = { 5, 3, 7, 1, 9, 2, 8, 6, 4, 0, 15, 11, 13, 12, 10, 14 }; int[] a = new int[16];",
      "System.arraycopy(src, 0, a, 0, 16); java.util.Arrays.sort(a); acc += a[3];" },
    { "h_string_switch", H, "String[] w = { \"alpha\", \"beta\", \"gamma\", \"delta\" };",
      "switch (w[i & 3]) { case \"alpha\": acc += 1; break; case \"beta\": acc += 2; break; case \"gamma\": acc += 3; break; default: acc += 4; }" },
    { "h_boxing", H, "long s = 0;", "Integer b = Integer.valueOf(i & 127); s += b.intValue();" },
};

#undef Q
#undef H

/* A kernel with more than 255 local slots: every local access is wide. */
static void add_wide(kernel_set *ks)
{
    char setup[4096];
    size_t o = 0;
    o += (size_t)snprintf(setup + o, sizeof setup - o, "long ");
    for (int k = 0; k < 130; k++)
        o += (size_t)snprintf(setup + o, sizeof setup - o, "%sw%d = 0", k ? ", " : "", k);
    snprintf(setup + o, sizeof setup - o, "; int x = 0, y = 0;");
    kernels_add(ks, "wide", KF_QUICK, setup, "x += 1000; y = x; w129 = w128 + y;");
}

/* A loop body longer than 32 KiB: the back branch is a goto_w. */
static void add_goto_w(kernel_set *ks)
{
    const char *stmt = "x += y; ";
    size_t reps = 5000, len = strlen(stmt);
    char *body = malloc(reps * len + 1);
    if (!body)
        abort();
    for (size_t k = 0; k < reps; k++)
        memcpy(body + k * len, stmt, len);
    body[reps * len] = '\0';
    kernels_add(ks, "goto_w", 0, "int x = 0, y = 1;", body);
    free(body);
}

void kernels_builtin(kernel_set *ks)
{
    memset(ks, 0, sizeof *ks);
    for (size_t k = 0; k < sizeof builtin / sizeof builtin[0]; k++)
        kernels_add(ks, builtin[k].name, builtin[k].flags, builtin[k].setup, builtin[k].body);
    add_wide(ks);
    add_goto_w(ks);
}

/* --- kernels for --keys ----------------------------------------------------- */

/* A Java identifier made from a key: everything else becomes '_'. */
static void ident_of(const char *key, char *out, size_t cap)
{
    size_t o = 0;
    for (const char *p = key; *p && o + 1 < cap; p++)
        out[o++] = ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')) ? *p : '_';
    out[o] = '\0';
}

/* Java source for a value of the field descriptor at *d (advanced past it);
 * NULL when the type is not supported. A floating-point argument is the
 * local d, which the kernel sets each iteration as the Math kernels do
 * (a constant would time only the calls' overlapped fast path). */
static const char *arg_value(const char **d)
{
    char c = **d;
    (*d)++;
    switch (c) {
    case 'Z': return "true";
    case 'B': return "(byte) 3";
    case 'C': return "'c'";
    case 'S': return "(short) 3";
    case 'I': return "3";
    case 'J': return "3L";
    case 'F': return "(float) d";
    case 'D': return "d";
    case 'L':
        if (strncmp(*d, "java/lang/String;", 17) == 0) {
            *d += 17;
            return "\"calibrate\"";
        }
        return NULL;
    default:
        return NULL;
    }
}

int kernels_for_key(kernel_set *ks, const char *key, char *why, size_t whylen)
{
    char name[160], body[1400], ident[120];
    const char *colon = strchr(key, ':');
    if (!colon) {
        snprintf(why, whylen, "'%s' is not a key (expected kind:name)", key);
        return -1;
    }
    ident_of(colon + 1, ident, sizeof ident);
    if (strncmp(key, "array:", 6) == 0) {
        const char *t = key + 6;
        if (strchr(t, '<') || strchr(t, ';') || strchr(t, '/')) {
            snprintf(why, whylen, "array element type '%s' is not a Java type name", t);
            return -1;
        }
        for (int s = 0; s < 3; s++) {
            static const int sizes[] = { 1, 16, 256 };
            snprintf(name, sizeof name, "x_%s_%d", ident, sizes[s]);
            snprintf(body, sizeof body, "Object a = new %s[%d];", t, sizes[s]);
            kernels_add(ks, name, KF_EXTRA | KF_QUICK, "", body);
        }
        return 0;
    }
    if (strncmp(key, "new:", 4) == 0) {
        const char *c = key + 4;
        char cls[600];
        size_t k;
        if (strlen(c) >= sizeof cls || strchr(c, '(') || strchr(c, '/')) {
            snprintf(why, whylen, "'%s' is not a class name", c);
            return -1;
        }
        for (k = 0; c[k]; k++)
            cls[k] = c[k] == '$' ? '.' : c[k];
        cls[k] = '\0';
        snprintf(name, sizeof name, "x_%s", ident);
        snprintf(body, sizeof body, "Object o = new %s();", cls);
        kernels_add(ks, name, KF_EXTRA | KF_QUICK, "", body);
        return 0;
    }
    if (strncmp(key, "invoke:", 7) == 0) {
        /* owner.name(descriptor): static methods with simple arguments only */
        const char *m = key + 7, *paren = strchr(m, '('), *dot;
        char owner[512], meth[128], args[512];
        size_t ao = 0;
        int floating = 0;
        const char *d;
        if (!paren) {
            snprintf(why, whylen, "'%s' has no descriptor", m);
            return -1;
        }
        for (dot = paren; dot > m && *dot != '.'; dot--)
            ;
        if (dot == m || (size_t)(dot - m) >= sizeof owner || (size_t)(paren - dot) >= sizeof meth ||
            m[0] == '[') {
            snprintf(why, whylen, "'%s': only static methods of named classes are supported", m);
            return -1;
        }
        memcpy(owner, m, (size_t)(dot - m));
        owner[dot - m] = '\0';
        for (char *p = owner; *p; p++)
            if (*p == '$')
                *p = '.';
        memcpy(meth, dot + 1, (size_t)(paren - dot - 1));
        meth[paren - dot - 1] = '\0';
        args[0] = '\0';
        for (d = paren + 1; *d && *d != ')';) {
            floating |= *d == 'D' || *d == 'F';
            const char *v = arg_value(&d);
            if (!v) {
                snprintf(why, whylen, "'%s': argument types other than primitives and String are not supported", m);
                return -1;
            }
            ao += (size_t)snprintf(args + ao, sizeof args - ao, "%s%s", ao ? ", " : "", v);
            if (ao >= sizeof args)
                break;
        }
        snprintf(name, sizeof name, "x_%s", ident);
        /* The call is written as a static call; javac rejects it (and the
         * calibrator reports that) when the method is not static or not public. */
        if (!floating) {
            snprintf(body, sizeof body, "%s.%s(%s);", owner, meth, args);
            kernels_add(ks, name, KF_EXTRA | KF_QUICK, "", body);
            return 0;
        }
        /* Floating-point arguments: both sources of the Math kernels, the
         * array and the loop counter; the fit prices the call between them. */
        snprintf(body, sizeof body, "d = v[i & 1023]; %s.%s(%s);", owner, meth, args);
        kernels_add(ks, name, KF_EXTRA | KF_QUICK, MATH_ARGS, body);
        snprintf(name, sizeof name, "x_%s_i2d", ident);
        snprintf(body, sizeof body, "d = (i & 1023) * 0.01 + 0.005; %s.%s(%s);", owner, meth, args);
        kernels_add(ks, name, KF_EXTRA | KF_QUICK, "double d;", body);
        return 0;
    }
    snprintf(why, whylen, "'%s': opcode keys and ldc:class are always in a calibrated table (built-in kernels); "
             "other kinds are not calibrated", key);
    return -1;
}

/* --- Kernels.java ----------------------------------------------------------- */

static const char support[] =
    "    /* 4096 pseudo-random ints (LCG, fixed seed): data for KF_LONG kernels */\n"
    "    static final int[] RND = new int[4096];\n"
    "    static { long s = 12345; for (int k = 0; k < RND.length; k++) { s = s * 6364136223846793005L + 1442695040888963407L; RND[k] = (int) (s >>> 33); } }\n"
    "    static int si = 1, sj = 2; static long sl = 3;\n"
    "    static final RuntimeException PRE = new RuntimeException(\"preallocated\");\n"
    "    static int sf(int x) { return x + 1; }\n"
    "    static void sv() { }\n"
    "    static int s3(int a, int b, int c) { return a + b - c; }\n"
    "    static long slf(long x) { return x + 1; }\n"
    "    static double sdf(double x) { return x * 0.5; }\n"
    "    static Object sof(Object o) { return o; }\n"
    "    static void thrower() { throw PRE; }\n"
    "    static RuntimeException deepEx(int k) { return k == 0 ? new RuntimeException() : deepEx(k - 1); }\n"
    "    static long deepWalk(int k) { return k == 0 ? StackWalker.getInstance().walk(s -> s.count()) : deepWalk(k - 1); }\n"
    "    /* two daemon threads parked for good, about 40 and 400 calls deep (other_stack_*):\n"
    "     * id() starts them, before the measured call; each is WAITING when it returns */\n"
    "    static Thread W40, W400;\n"
    "    static void WAITERS() { if (W40 == null) { W40 = WAITER(40); W400 = WAITER(400); } }\n"
    "    static Thread WAITER(int depth) { Thread t = new Thread(() -> parkDeep(depth), \"psf-waiter-\" + depth);\n"
    "        t.setDaemon(true); t.start();\n"
    "        while (t.getState() != Thread.State.WAITING) Thread.onSpinWait();\n"
    "        return t; }\n"
    "    static void parkDeep(int k) { if (k > 0) { parkDeep(k - 1); return; }\n"
    "        for (;;) java.util.concurrent.locks.LockSupport.park(); }\n"
    "    /* a method handle of ArrayList's constructor: invoked, it allocates through Unsafe.allocateInstance */\n"
    "    static java.lang.invoke.MethodHandle MH_NEW_LIST() { try { return java.lang.invoke.MethodHandles.lookup()\n"
    "        .findConstructor(java.util.ArrayList.class, java.lang.invoke.MethodType.methodType(void.class)); }\n"
    "        catch (ReflectiveOperationException e) { throw new IllegalStateException(e); } }\n"
    "    /* a temporary file (removed at exit), `size` zero bytes long */\n"
    "    static java.io.File TMP(int size) { try { java.io.File t = java.io.File.createTempFile(\"psf-kernel\", \".tmp\");\n"
    "        t.deleteOnExit(); java.nio.file.Files.write(t.toPath(), new byte[size]); return t; }\n"
    "        catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); } }\n"
    "    static java.io.File TMP() { return TMP(0); }\n"
    "    /* the class file of a class of Kernels' */\n"
    "    static byte[] CLASSFILE(String name) { try (java.io.InputStream in = Kernels.class.getResourceAsStream(name + \".class\")) {\n"
    "        return in.readAllBytes(); } catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); } }\n"
    "    /* a temporary file of `size` zero bytes, mapped read-write */\n"
    "    static java.nio.MappedByteBuffer MAP(int size) { try (java.nio.channels.FileChannel c = java.nio.channels.FileChannel.open(\n"
    "            TMP(size).toPath(), java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {\n"
    "        return c.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, size); }\n"
    "        catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); } }\n"
    "    /* a temporary directory (removed at exit) of n empty files; its name has the same\n"
    "     * length in every run (the counting runs are compared, and paths are handled per\n"
    "     * character): twelve letters from the process id, not a random number */\n"
    "    static java.io.File DIR(int n) { long x = ProcessHandle.current().pid(); char[] c = new char[12];\n"
    "        for (int i = 0; i < 12; i++) { c[i] = (char) ('a' + (int) (x % 26)); x /= 26; }\n"
    "        java.io.File d = new java.io.File(System.getProperty(\"java.io.tmpdir\"), \"psf-kernel-\" + new String(c));\n"
    "        d.mkdir();\n"
    "        try { for (int i = 0; i < n; i++) new java.io.File(d, \"f\" + i).createNewFile(); }\n"
    "        catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }\n"
    "        /* removed by a hook of its own: deleteOnExit's set of paths would hash the\n"
    "         * names, whose collisions differ from run to run */\n"
    "        Runtime.getRuntime().addShutdownHook(new Thread(() -> {\n"
    "            for (int i = 0; i < n; i++) new java.io.File(d, \"f\" + i).delete();\n"
    "            d.delete(); }));\n"
    "        return d; }\n"
    "    static int s10(int x) { x += 1; x += 2; x += 3; x += 4; x += 5; return x; }\n"
    "    static int s40(int x) { int y = x; for (int j = 0; j < 4; j++) { y += j; y ^= x; } return y; }\n"
    "    static int s100(int x) { int y = x; for (int j = 0; j < 10; j++) { y += j; y ^= x; } return y; }\n"
    "    static int g2(int x) { return sf(x) + 1; }\n"
    "    static int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }\n"
    "    static int rsum(int[] a, int lo, int hi) { if (hi - lo < 2) return lo < hi ? a[lo] : 0;\n"
    "        int mid = (lo + hi) >>> 1; return rsum(a, lo, mid) + rsum(a, mid, hi); }\n"
    "    static final class Pt { int x, y; long l; Pt() { } Pt(int x, int y) { this.x = x; this.y = y; }\n"
    "        int getX() { return x; } private int priv(int v) { return v + x; } int callPriv(int v) { return priv(v); } }\n"
    "    interface Shape { int area(); }\n"
    "    static abstract class Base implements Shape { abstract int v(); int fin() { return 1; }\n"
    "        int work(int x) { int y = x; for (int j = 0; j < 3; j++) y += v() + j; return y; } }\n"
    "    static final class Sq extends Base { int s = 3; int v() { return s; } public int area() { return s * s; } }\n"
    "    static final class Rect extends Base { int w = 2, h = 5; int v() { return w; } public int area() { return w * h; } }\n"
    "    interface I0 { int m0(); } interface I1 { int m1(); } interface I2 { int m2(); } interface I3 { int m3(); }\n"
    "    interface I4 { int m4(); } interface I5 { int m5(); } interface I6 { int m6(); } interface I7 { int m7(); }\n"
    "    static final class Many implements I0, I1, I2, I3, I4, I5, I6, I7 {\n"
    "        public int m0() { return 0; } public int m1() { return 1; } public int m2() { return 2; } public int m3() { return 3; }\n"
    "        public int m4() { return 4; } public int m5() { return 5; } public int m6() { return 6; } public int m7() { return 7; } }\n"
    "    static class Sup { int m(int x) { return x + 1; } }\n"
    "    static final class Sub extends Sup { int m(int x) { return super.m(x) + 1; } }\n"
    "    static final class Cl implements Cloneable { int a, b;\n"
    "        Cl copy() { try { return (Cl) super.clone(); } catch (CloneNotSupportedException e) { throw new AssertionError(e); } } }\n"
    "    static final class Node { int val; Node next; }\n"
    "    /* a class with a generic signature (generic_signature_gen); no method\n"
    "     * names its own class, so that a hidden class can be defined from it */\n"
    "    static final class Gen<T> { T v; }\n"
    "    /* --jit: what a kernel computes goes into acc or a static field, so a\n"
    "     * compiler must compute it (unused without --jit) */\n"
    "    static Object sunk;\n"
    "    static long SINK(long v) { return v; }\n"
    "    static long SINK(double v) { return Double.doubleToRawLongBits(v); }\n"
    "    static long SINK(boolean v) { return v ? 1 : 0; }\n"
    "    static long SINK(Object v) { sunk = v; return 0; }\n";

/* --- locals a kernel declares (for the sinks of --jit) ------------------------ */

static int id_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
static int id_char(char c) { return id_start(c) || (c >= '0' && c <= '9'); }
static const char *skip_ws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* An identifier at p (before e): its end, or NULL. */
static const char *ident(const char *p, const char *e)
{
    if (p >= e || !id_start(*p))
        return NULL;
    while (p < e && id_char(*p))
        p++;
    return p;
}

static int is_keyword(const char *p, const char *q)
{
    static const char *const kw[] = { "for", "if", "while", "do", "try", "return", "throw", "switch",
                                      "synchronized", "new", "break", "continue", "else", "case",
                                      "default", "assert", "this", "super" };
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
        if (strlen(kw[k]) == (size_t)(q - p) && strncmp(kw[k], p, (size_t)(q - p)) == 0)
            return 1;
    return 0;
}

/* The type at p: a dotted name, type arguments, array brackets. Its end, or NULL. */
static const char *type_end(const char *p, const char *e)
{
    const char *q = ident(p, e);
    if (!q || is_keyword(p, q))
        return NULL;
    while (q < e && *q == '.' && ident(q + 1, e))
        q = ident(q + 1, e);
    q = skip_ws(q, e);
    if (q < e && *q == '<') {
        int depth = 0;
        for (; q < e; q++) {
            if (*q == '<')
                depth++;
            else if (*q == '>' && --depth == 0)
                break;
            else if (!id_char(*q) && !strchr(" .,?[]", *q))
                return NULL;
        }
        if (q == e)
            return NULL;
        q = skip_ws(q + 1, e);
    }
    while (q < e && *q == '[') {
        q = skip_ws(q + 1, e);
        if (q >= e || *q != ']')
            return NULL;
        q = skip_ws(q + 1, e);
    }
    return q;
}

/* The closing quote of the string or character literal that opens at q
 * (before e), or e - 1 when it does not close. */
static const char *literal_end(const char *q, const char *e)
{
    char quote = *q;
    for (q++; q < e; q++) {
        if (*q == '\\' && q + 1 < e)
            q++;
        else if (*q == quote)
            return q;
    }
    return e - 1;
}

/* "NAME =" at p (not "=="): the end of NAME, or NULL. */
static const char *declarator(const char *p, const char *e)
{
    const char *n = ident(skip_ws(p, e), e), *q;
    if (!n)
        return NULL;
    q = skip_ws(n, e);
    return q < e && *q == '=' && (q + 1 >= e || q[1] != '=') ? n : NULL;
}

/* Declarators with an initializer of the statement [p, e), appended to names. */
static size_t statement_decls(const char *p, const char *e, char (*names)[64], size_t n, size_t max)
{
    const char *q;
    p = skip_ws(p, e);
    if (e - p > 6 && strncmp(p, "final", 5) == 0 && !id_char(p[5]))
        p = skip_ws(p + 5, e);
    q = type_end(p, e);
    if (!q || !declarator(q, e))
        return n;
    while (q) {
        const char *s = skip_ws(q, e), *ne = declarator(q, e);
        int depth = 0;
        if (!ne)
            break;
        if (n < max && (size_t)(ne - s) < 64) {
            memcpy(names[n], s, (size_t)(ne - s));
            names[n][ne - s] = '\0';
            n++;
        }
        /* the initializer runs to a comma at depth 0 that starts another declarator */
        for (q = ne; q < e; q++) {
            if (*q == '"' || *q == '\'') {
                q = literal_end(q, e);
            } else if (strchr("([{", *q)) {
                depth++;
            } else if (strchr(")]}", *q)) {
                depth--;
            } else if (*q == ',' && depth == 0 && declarator(q + 1, e)) {
                break;
            }
        }
        q = q < e ? q + 1 : NULL;
    }
    return n;
}

size_t kernels_declared(const char *stmts, char (*names)[64], size_t max)
{
    size_t n = 0;
    const char *p = stmts ? stmts : "";
    const char *end = p + strlen(p);
    while (*p) {
        const char *e = p;
        int depth = 0, assigned = 0, block = 0;
        for (; *e; e++) {
            if (*e == '"' || *e == '\'') {
                e = literal_end(e, end);
            } else if (strchr("([{", *e)) {
                depth++;
            } else if (strchr(")]}", *e)) {
                /* a block statement (a loop's, an if's) ends at its brace */
                if (--depth == 0 && *e == '}' && !assigned) {
                    block = 1;
                    break;
                }
            } else if (*e == '=' && depth == 0) {
                assigned = 1;
            } else if (*e == ';' && depth == 0) {
                break;
            }
        }
        if (!block)
            n = statement_decls(p, e, names, n, max);
        p = *e ? e + 1 : e;
    }
    return n;
}

static void write_sinks(FILE *f, const char *stmts, const char *indent)
{
    char names[256][64];
    size_t n = kernels_declared(stmts, names, sizeof names / sizeof names[0]);
    for (size_t k = 0; k < n; k++)
        fprintf(f, "%sacc += SINK(%s);\n", indent, names[k]);
}

void kernels_write_java(const kernel_set *ks, FILE *f, int sink)
{
    fprintf(f, "// Generated by psf-calibrate: calibration kernels (calibrate/kernels.c). Do not edit.\n"
               "@SuppressWarnings(\"unused\")\n"
               "public final class Kernels implements PsfKernels {\n%s\n", support);
    fprintf(f, "    public int id(String name) {\n        switch (name) {\n");
    for (size_t k = 0; k < ks->n; k++)
        fprintf(f, "        case \"%s\": %sreturn %zu;\n", ks->v[k].name,
                ks->v[k].flags & KF_WAITERS ? "WAITERS(); " : "", k);
    fprintf(f, "        default: return -1;\n        }\n    }\n\n");
    fprintf(f, "    public long call(int id, int n) {\n        switch (id) {\n");
    for (size_t k = 0; k < ks->n; k++)
        fprintf(f, "        case %zu: return k_%s(n);\n", k, ks->v[k].name);
    fprintf(f, "        default: throw new IllegalArgumentException(\"no kernel \" + id);\n        }\n    }\n\n");
    for (size_t k = 0; k < ks->n; k++) {
        fprintf(f, "    static long k_%s(int n) {\n        long acc = 0;\n        %s\n"
                   "        for (int i = 0; i < n; i++) {\n            %s\n",
                ks->v[k].name, ks->v[k].setup, ks->v[k].body);
        if (sink)
            write_sinks(f, ks->v[k].body, "            ");
        fprintf(f, "        }\n");
        if (sink)
            write_sinks(f, ks->v[k].setup, "        ");
        fprintf(f, "        return acc;\n    }\n\n");
    }
    fprintf(f, "}\n");
}
