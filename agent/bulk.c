/*
 * bulk.c - JDK natives whose work grows with their input, charged per
 * element (docs/hidden-work.md, "Natives charged by size").
 *
 * Counting sees a native call as one invoke, whatever it does: 20 MB of
 * CRC32 would cost what 20 bytes cost. Like System.arraycopy (natives.c),
 * these natives are bound to wrappers that call the JDK's own function and
 * add the bytes it handled to the elements of the invoke that called it,
 * when the step path has just counted that invoke (so work HotSpot runs
 * with stepping hidden is not charged to an invoke never counted):
 *
 *   java.util.zip.CRC32, Adler32: update of a byte array or a direct buffer
 *                                 -> the bytes checksummed
 *   java.util.zip.Deflater, Inflater: (de)compression of arrays or buffers
 *                                 -> the bytes read plus the bytes written
 *                                 (both packed in the result: JDK 11+)
 *
 * A cost table prices them with cost_per_element; the scorer lists an
 * invoke that handled elements without such a price as missing (the score
 * is approximate), never free. The interpreter runs CRC32 and CRC32C as
 * intrinsics, past any native binding: get_score.sh switches those off
 * (-XX:-UseCRC32Intrinsics -XX:-UseCRC32CIntrinsics), so CRC32 comes here
 * and CRC32C runs as bytecode, counted.
 */
#define _GNU_SOURCE
#include "agent.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

enum bulk_id {
    CRC_BYTES, CRC_BUFFER, ADLER_BYTES, ADLER_BUFFER,
    DEFL_BB, DEFL_BX, DEFL_XB, DEFL_XX, INFL_BB, INFL_BX, INFL_XB, INFL_XX, BULK_COUNT
};

static void *real[BULK_COUNT];
static _Atomic uint32_t key[BULK_COUNT]; /* invoke key index + 1, interned at bind */

/* Charge n elements to the invoke of native `id` that the step path just
 * counted on this thread. */
static void charge(enum bulk_id id, uint64_t n)
{
    g_agent.hooks.elements(&g_agent, atomic_load(&key[id]), n); /* counting.c */
}

/* Deflater/Inflater results: bytes read in bits 0-30, written in bits 31-61. */
static uint64_t zip_handled(jlong result)
{
    uint64_t r = (uint64_t)result;
    return (r & 0x7fffffffu) + ((r >> 31) & 0x7fffffffu);
}

typedef jint(JNICALL *sum_bytes_fn)(JNIEnv *, jclass, jint, jbyteArray, jint, jint);
typedef jint(JNICALL *sum_buffer_fn)(JNIEnv *, jclass, jint, jlong, jint, jint);

static jint JNICALL crc_bytes(JNIEnv *env, jclass cls, jint crc, jbyteArray b, jint off, jint len)
{
    jint r = ((sum_bytes_fn)real[CRC_BYTES])(env, cls, crc, b, off, len);
    if (!(*env)->ExceptionCheck(env) && len > 0)
        charge(CRC_BYTES, (uint64_t)len);
    return r;
}

static jint JNICALL crc_buffer(JNIEnv *env, jclass cls, jint crc, jlong addr, jint off, jint len)
{
    jint r = ((sum_buffer_fn)real[CRC_BUFFER])(env, cls, crc, addr, off, len);
    if (!(*env)->ExceptionCheck(env) && len > 0)
        charge(CRC_BUFFER, (uint64_t)len);
    return r;
}

static jint JNICALL adler_bytes(JNIEnv *env, jclass cls, jint adler, jbyteArray b, jint off, jint len)
{
    jint r = ((sum_bytes_fn)real[ADLER_BYTES])(env, cls, adler, b, off, len);
    if (!(*env)->ExceptionCheck(env) && len > 0)
        charge(ADLER_BYTES, (uint64_t)len);
    return r;
}

static jint JNICALL adler_buffer(JNIEnv *env, jclass cls, jint adler, jlong addr, jint off, jint len)
{
    jint r = ((sum_buffer_fn)real[ADLER_BUFFER])(env, cls, adler, addr, off, len);
    if (!(*env)->ExceptionCheck(env) && len > 0)
        charge(ADLER_BUFFER, (uint64_t)len);
    return r;
}

/* Deflater: (addr, in..., out..., flush, params) in four shapes of input and output. */
typedef jlong(JNICALL *defl_bb_fn)(JNIEnv *, jobject, jlong, jbyteArray, jint, jint, jbyteArray, jint, jint, jint, jint);
typedef jlong(JNICALL *defl_bx_fn)(JNIEnv *, jobject, jlong, jbyteArray, jint, jint, jlong, jint, jint, jint);
typedef jlong(JNICALL *defl_xb_fn)(JNIEnv *, jobject, jlong, jlong, jint, jbyteArray, jint, jint, jint, jint);
typedef jlong(JNICALL *defl_xx_fn)(JNIEnv *, jobject, jlong, jlong, jint, jlong, jint, jint, jint);

static jlong after_zip(JNIEnv *env, enum bulk_id id, jlong r)
{
    if (!(*env)->ExceptionCheck(env))
        charge(id, zip_handled(r));
    return r;
}

static jlong JNICALL defl_bb(JNIEnv *env, jobject self, jlong addr, jbyteArray in, jint ioff, jint ilen,
                             jbyteArray out, jint ooff, jint olen, jint flush, jint params)
{
    return after_zip(env, DEFL_BB,
                     ((defl_bb_fn)real[DEFL_BB])(env, self, addr, in, ioff, ilen, out, ooff, olen, flush, params));
}

static jlong JNICALL defl_bx(JNIEnv *env, jobject self, jlong addr, jbyteArray in, jint ioff, jint ilen,
                             jlong out, jint olen, jint flush, jint params)
{
    return after_zip(env, DEFL_BX, ((defl_bx_fn)real[DEFL_BX])(env, self, addr, in, ioff, ilen, out, olen, flush, params));
}

static jlong JNICALL defl_xb(JNIEnv *env, jobject self, jlong addr, jlong in, jint ilen, jbyteArray out, jint ooff,
                             jint olen, jint flush, jint params)
{
    return after_zip(env, DEFL_XB, ((defl_xb_fn)real[DEFL_XB])(env, self, addr, in, ilen, out, ooff, olen, flush, params));
}

static jlong JNICALL defl_xx(JNIEnv *env, jobject self, jlong addr, jlong in, jint ilen, jlong out, jint olen,
                             jint flush, jint params)
{
    return after_zip(env, DEFL_XX, ((defl_xx_fn)real[DEFL_XX])(env, self, addr, in, ilen, out, olen, flush, params));
}

/* Inflater: (addr, in..., out...) in four shapes. */
typedef jlong(JNICALL *infl_bb_fn)(JNIEnv *, jobject, jlong, jbyteArray, jint, jint, jbyteArray, jint, jint);
typedef jlong(JNICALL *infl_bx_fn)(JNIEnv *, jobject, jlong, jbyteArray, jint, jint, jlong, jint);
typedef jlong(JNICALL *infl_xb_fn)(JNIEnv *, jobject, jlong, jlong, jint, jbyteArray, jint, jint);
typedef jlong(JNICALL *infl_xx_fn)(JNIEnv *, jobject, jlong, jlong, jint, jlong, jint);

static jlong JNICALL infl_bb(JNIEnv *env, jobject self, jlong addr, jbyteArray in, jint ioff, jint ilen,
                             jbyteArray out, jint ooff, jint olen)
{
    return after_zip(env, INFL_BB, ((infl_bb_fn)real[INFL_BB])(env, self, addr, in, ioff, ilen, out, ooff, olen));
}

static jlong JNICALL infl_bx(JNIEnv *env, jobject self, jlong addr, jbyteArray in, jint ioff, jint ilen, jlong out,
                             jint olen)
{
    return after_zip(env, INFL_BX, ((infl_bx_fn)real[INFL_BX])(env, self, addr, in, ioff, ilen, out, olen));
}

static jlong JNICALL infl_xb(JNIEnv *env, jobject self, jlong addr, jlong in, jint ilen, jbyteArray out, jint ooff,
                             jint olen)
{
    return after_zip(env, INFL_XB, ((infl_xb_fn)real[INFL_XB])(env, self, addr, in, ilen, out, ooff, olen));
}

static jlong JNICALL infl_xx(JNIEnv *env, jobject self, jlong addr, jlong in, jint ilen, jlong out, jint olen)
{
    return after_zip(env, INFL_XX, ((infl_xx_fn)real[INFL_XX])(env, self, addr, in, ilen, out, olen));
}

static const struct bulk_native {
    const char *cls, *name, *sig, *symbol; /* class, method, JNI signature, libzip's function */
    void *wrapper;
} natives[BULK_COUNT] = {
    [CRC_BYTES] = {"java/util/zip/CRC32", "updateBytes0", "(I[BII)I", "Java_java_util_zip_CRC32_updateBytes0",
                   (void *)crc_bytes},
    [CRC_BUFFER] = {"java/util/zip/CRC32", "updateByteBuffer0", "(IJII)I", "Java_java_util_zip_CRC32_updateByteBuffer0",
                    (void *)crc_buffer},
    [ADLER_BYTES] = {"java/util/zip/Adler32", "updateBytes", "(I[BII)I", "Java_java_util_zip_Adler32_updateBytes",
                     (void *)adler_bytes},
    [ADLER_BUFFER] = {"java/util/zip/Adler32", "updateByteBuffer", "(IJII)I",
                      "Java_java_util_zip_Adler32_updateByteBuffer", (void *)adler_buffer},
    [DEFL_BB] = {"java/util/zip/Deflater", "deflateBytesBytes", "(J[BII[BIIII)J",
                 "Java_java_util_zip_Deflater_deflateBytesBytes", (void *)defl_bb},
    [DEFL_BX] = {"java/util/zip/Deflater", "deflateBytesBuffer", "(J[BIIJIII)J",
                 "Java_java_util_zip_Deflater_deflateBytesBuffer", (void *)defl_bx},
    [DEFL_XB] = {"java/util/zip/Deflater", "deflateBufferBytes", "(JJI[BIIII)J",
                 "Java_java_util_zip_Deflater_deflateBufferBytes", (void *)defl_xb},
    [DEFL_XX] = {"java/util/zip/Deflater", "deflateBufferBuffer", "(JJIJIII)J",
                 "Java_java_util_zip_Deflater_deflateBufferBuffer", (void *)defl_xx},
    [INFL_BB] = {"java/util/zip/Inflater", "inflateBytesBytes", "(J[BII[BII)J",
                 "Java_java_util_zip_Inflater_inflateBytesBytes", (void *)infl_bb},
    [INFL_BX] = {"java/util/zip/Inflater", "inflateBytesBuffer", "(J[BIIJI)J",
                 "Java_java_util_zip_Inflater_inflateBytesBuffer", (void *)infl_bx},
    [INFL_XB] = {"java/util/zip/Inflater", "inflateBufferBytes", "(JJI[BII)J",
                 "Java_java_util_zip_Inflater_inflateBufferBytes", (void *)infl_xb},
    [INFL_XX] = {"java/util/zip/Inflater", "inflateBufferBuffer", "(JJIJI)J",
                 "Java_java_util_zip_Inflater_inflateBufferBuffer", (void *)infl_xx},
};

/* Bind one native: the invoke key, libzip's function, the wrapper. */
static int bind_one(agent *a, JNIEnv *jni, void *lib, int i)
{
    const struct bulk_native *b = &natives[i];
    char text[256];
    snprintf(text, sizeof text, "%s.%s%s", b->cls, b->name, b->sig);
    for (char *c = text; *c != '\0' && *c != '('; c++)
        if (*c == '/')
            *c = '.';
    lock_enter(a);
    uint32_t k = keys_intern(&a->keys, KEY_INVOKE, text);
    lock_exit(a);
    real[i] = dlsym(lib, b->symbol);
    if (k == 0 || real[i] == NULL) {
        agent_fail(a, "cannot charge %s by size: %s", text, k == 0 ? "out of memory" : "not in libzip");
        return -1;
    }
    atomic_store(&key[i], k);
    JNINativeMethod m = {(char *)b->name, (char *)b->sig, b->wrapper};
    jclass cls = (*jni)->FindClass(jni, b->cls);
    if (cls == NULL || (*jni)->RegisterNatives(jni, cls, &m, 1) != 0) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "cannot re-bind %s", text);
        return -1;
    }
    (*jni)->DeleteLocalRef(jni, cls);
    return 0;
}

/*
 * At VMInit: bind the natives above to their wrappers, with libzip's own
 * functions behind them. Binding them before the program runs (instead of
 * when the JDK links them, on their first call) matters: the first call of
 * a lazily linked native runs the JDK's library lookup (Java code) between
 * the invoke and the native, and the native could no longer tell that the
 * invoke just counted was its own.
 */
void bulk_bind(agent *a, JNIEnv *jni)
{
    if (a->java_home == NULL) {
        agent_fail(a, "cannot find libzip: java.home is unknown");
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/lib/libzip.so", a->java_home);
    void *lib = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (lib == NULL) {
        agent_fail(a, "cannot load %s to charge checksums and compression by size", path);
        return;
    }
    for (int i = 0; i < BULK_COUNT; i++)
        if (bind_one(a, jni, lib, i) != 0)
            return;
}
