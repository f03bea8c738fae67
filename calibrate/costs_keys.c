/*
 * costs_keys.c - the dependency keys a calibrated table prices (costs_keys.h).
 *
 * The methods are those whose work runs no bytecode in -Xint (natives and
 * interpreter intrinsics), so counting cannot see it, plus String.hashCode,
 * which the table prices as an extra on top of its bytecodes (usually fitted
 * near zero: its bytecodes are counted).
 */
#include "costs_keys.h"

#include <string.h>

const char *const costs_array_types[] = {
    "boolean", "byte", "char", "short", "int", "long", "float", "double", "reference"
};
const size_t costs_n_array_types = sizeof costs_array_types / sizeof costs_array_types[0];

const char *const costs_priced_methods[] = {
    "java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V",
    "[I.clone()Ljava/lang/Object;",
    "[J.clone()Ljava/lang/Object;",
    "[B.clone()Ljava/lang/Object;",
    "[C.clone()Ljava/lang/Object;",
    "[D.clone()Ljava/lang/Object;",
    "[Ljava.lang.Object;.clone()Ljava/lang/Object;",   /* the agent names a reference array's class with dots */
    "java.lang.Object.clone()Ljava/lang/Object;",
    "java.lang.Math.sin(D)D",
    "java.lang.Math.cos(D)D",
    "java.lang.Math.tan(D)D",
    "java.lang.Math.sqrt(D)D",
    "java.lang.Math.log(D)D",
    "java.lang.Math.log10(D)D",
    "java.lang.Math.exp(D)D",
    "java.lang.Math.pow(DD)D",
    "java.lang.Math.abs(D)D",
    "java.lang.StrictMath.atan2(DD)D",
    "java.lang.Object.hashCode()I",
    "java.lang.System.identityHashCode(Ljava/lang/Object;)I",
    "java.lang.String.hashCode()I",
    "java.lang.Object.getClass()Ljava/lang/Class;",
    "java.lang.Class.isArray()Z",
    "java.lang.reflect.Array.newArray(Ljava/lang/Class;I)Ljava/lang/Object;",
    "java.lang.System.nanoTime()J",
    "java.lang.System.currentTimeMillis()J",
    "java.lang.Thread.currentThread()Ljava/lang/Thread;",
    "java.lang.Float.floatToRawIntBits(F)I",
    "java.lang.Float.intBitsToFloat(I)F",
    "java.lang.Double.doubleToRawLongBits(D)J",
    "java.lang.Double.longBitsToDouble(J)D",
    "java.lang.Throwable.fillInStackTrace(I)Ljava/lang/Throwable;",
    /* what common library code reaches: Class queries (forName and
     * getDeclaringClass: HashMap's comparableClassFor on a bin of Long
     * keys), fences, Reference
     * accessors (the key names the class the call names), the Unsafe
     * accessors behind the atomics, ConcurrentHashMap, Arrays.mismatch,
     * String.regionMatches and ThreadLocalRandom, ArrayList's copy
     * constructor's getClass on JDK 25, a constructor's method handle */
    "java.lang.Class.isPrimitive()Z",
    "java.lang.Class.isInterface()Z",
    "java.lang.Class.isInstance(Ljava/lang/Object;)Z",
    "java.lang.Class.isAssignableFrom(Ljava/lang/Class;)Z",
    "java.lang.Class.forName0(Ljava/lang/String;ZLjava/lang/ClassLoader;Ljava/lang/Class;)Ljava/lang/Class;",
    "jdk.internal.reflect.Reflection.getCallerClass()Ljava/lang/Class;",
    "java.lang.Class.getDeclaringClass0()Ljava/lang/Class;",
    "jdk.internal.misc.Unsafe.storeFence()V",
    "jdk.internal.misc.Unsafe.loadFence()V",
    "jdk.internal.misc.Unsafe.fullFence()V",
    "java.lang.ref.Reference.get()Ljava/lang/Object;",
    "java.lang.ref.WeakReference.get()Ljava/lang/Object;",
    "java.lang.ref.Reference.refersTo0(Ljava/lang/Object;)Z",
    "java.lang.ref.Reference.clear0()V",
    "jdk.internal.misc.Unsafe.compareAndSetInt(Ljava/lang/Object;JII)Z",
    "jdk.internal.misc.Unsafe.compareAndSetLong(Ljava/lang/Object;JJJ)Z",
    "jdk.internal.misc.Unsafe.compareAndSetReference(Ljava/lang/Object;JLjava/lang/Object;Ljava/lang/Object;)Z",
    "jdk.internal.misc.Unsafe.getAndAddInt(Ljava/lang/Object;JI)I",
    "jdk.internal.misc.Unsafe.getIntVolatile(Ljava/lang/Object;J)I",
    "jdk.internal.misc.Unsafe.getLongVolatile(Ljava/lang/Object;J)J",
    "jdk.internal.misc.Unsafe.getReferenceVolatile(Ljava/lang/Object;J)Ljava/lang/Object;",
    "jdk.internal.misc.Unsafe.putReferenceVolatile(Ljava/lang/Object;JLjava/lang/Object;)V",
    "jdk.internal.misc.Unsafe.putIntVolatile(Ljava/lang/Object;JI)V",
    "jdk.internal.misc.Unsafe.putLongVolatile(Ljava/lang/Object;JJ)V",
    "jdk.internal.misc.Unsafe.getByte(Ljava/lang/Object;J)B",
    "jdk.internal.misc.Unsafe.getShort(Ljava/lang/Object;J)S",
    "jdk.internal.misc.Unsafe.getInt(Ljava/lang/Object;J)I",
    "jdk.internal.misc.Unsafe.getLong(Ljava/lang/Object;J)J",
    "jdk.internal.misc.Unsafe.putByte(Ljava/lang/Object;JB)V",
    "jdk.internal.misc.Unsafe.putInt(Ljava/lang/Object;JI)V",
    "jdk.internal.misc.Unsafe.putLong(Ljava/lang/Object;JJ)V",
    "java.lang.Thread.currentCarrierThread()Ljava/lang/Thread;",
    "java.util.Collection.getClass()Ljava/lang/Class;",
    "jdk.internal.misc.Unsafe.allocateInstance(Ljava/lang/Class;)Ljava/lang/Object;",
    /* natives charged by the bytes they handle (agent/runtime/bulk.c) */
    "java.util.zip.CRC32.updateBytes0(I[BII)I",
    "java.util.zip.Adler32.updateBytes(I[BII)I",
    "java.util.zip.Deflater.deflateBytesBytes(J[BII[BIIII)J",
    "java.util.zip.Inflater.inflateBytesBytes(J[BII[BII)J",
    "java.util.zip.Deflater.setDictionary(J[BII)V",
    "jdk.internal.misc.Unsafe.copyMemory0(Ljava/lang/Object;JLjava/lang/Object;JJ)V",
    "jdk.internal.misc.Unsafe.copySwapMemory0(Ljava/lang/Object;JLjava/lang/Object;JJJ)V",
    "java.io.FileInputStream.readBytes([BII)I",
    "java.io.FileOutputStream.writeBytes([BIIZ)V",
    "java.io.RandomAccessFile.readBytes([BII)I",
    "java.io.RandomAccessFile.writeBytes([BII)V",
    "java.io.RandomAccessFile.readBytes0([BII)I",   /* JDK 25's natives behind readBytes/writeBytes */
    "java.io.RandomAccessFile.writeBytes0([BII)V",
    "java.lang.String.intern()Ljava/lang/String;",
    "java.io.FileSystem.list(Ljava/io/File;)[Ljava/lang/String;",       /* File.list: JDK 17 */
    "java.io.UnixFileSystem.list0(Ljava/io/File;)[Ljava/lang/String;",  /* File.list: JDK 25 */
    /* StackWalker's batches after the first: JDK 17, JDK 22 and later */
    "java.lang.StackStreamFactory$AbstractStackWalker.fetchStackFrames(JJII[Ljava/lang/Object;)I",
    "java.lang.StackStreamFactory$AbstractStackWalker.fetchStackFrames(IJIII[Ljava/lang/Object;)I",
    /* MappedByteBuffer's isLoaded, load and force */
    "java.nio.MappedMemoryUtils.isLoaded0(JJJ)Z",
    "java.nio.MappedMemoryUtils.load0(JJ)V",
    "java.nio.MappedMemoryUtils.force0(Ljava/io/FileDescriptor;JJ)V",
    /* classes defined from bytes: Lookup.defineHiddenClass and defineClass */
    "java.lang.ClassLoader.defineClass0(Ljava/lang/ClassLoader;Ljava/lang/Class;Ljava/lang/String;[BIILjava/security/ProtectionDomain;ZILjava/lang/Object;)Ljava/lang/Class;",
    /* reflection's member lists: the arrays they make */
    "java.lang.Class.getDeclaredMethods0(Z)[Ljava/lang/reflect/Method;",
    /* a class's generic signature, asked for once per class */
    "java.lang.Class.getGenericSignature0()Ljava/lang/String;",
    /* another thread's stack trace: its frames (JDK 17; later JDKs) */
    "java.lang.Thread.dumpThreads([Ljava/lang/Thread;)[[Ljava/lang/StackTraceElement;",
    "java.lang.Thread.getStackTrace0()Ljava/lang/Object;",
};
const size_t costs_n_priced_methods = sizeof costs_priced_methods / sizeof costs_priced_methods[0];

int costs_runs_bytecode(const char *method)
{
    return strcmp(method, "java.lang.String.hashCode()I") == 0;
}

int costs_is_primitive_type(const char *type)
{
    for (size_t i = 0; i < 8; i++)
        if (strcmp(type, costs_array_types[i]) == 0)
            return 1;
    return 0;
}
