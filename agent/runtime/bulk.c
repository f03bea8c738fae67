/*
 * bulk.c - JDK natives whose work grows with their input, charged per
 * element (docs/hidden-work.md, "Natives charged by size").
 *
 * Counting sees a native call as one invoke, whatever it does: 20 MB of
 * CRC32 would cost what 20 bytes cost. Like System.arraycopy (natives.c),
 * these natives are bound to wrappers that call the JDK's own function and
 * add what it handled to the elements of the invoke that called it, when
 * the step path has just counted that invoke (so work HotSpot runs with
 * stepping hidden is not charged to an invoke never counted):
 *
 *   java.util.zip.CRC32, Adler32: update of a byte array or a direct buffer
 *                                 -> the bytes checksummed
 *   java.util.zip.Deflater, Inflater: (de)compression of arrays or buffers
 *                                 -> the bytes read plus the bytes written
 *                                 (both packed in the result: JDK 11+);
 *                                 setDictionary -> the dictionary's bytes
 *   jdk.internal.misc.Unsafe copyMemory0, copySwapMemory0, setMemory0
 *                                 (direct buffers' bulk puts and gets,
 *                                 allocateDirect's zeroing) -> the bytes
 *   java.io FileInputStream, FileOutputStream, RandomAccessFile readBytes
 *                                 and writeBytes -> the bytes moved
 *   sun.nio.ch [Unix]FileDispatcherImpl read0/pread0/readv0/write0/...,
 *                                 transferTo0/From0, sun.nio.fs read/write
 *                                 -> the bytes moved (the result)
 *   Files.copy's native copy loops -> the bytes copied
 *   String.intern                 -> the string's characters
 *   Throwable.fillInStackTrace    -> the frames recorded
 *   StackTraceElement.initStackTraceElements -> the elements filled
 *   java.io.UnixFileSystem list (list0 in later JDKs), behind File.list
 *                                 and listFiles -> the directory's entries
 *   StackStreamFactory$AbstractStackWalker.fetchStackFrames (StackWalker's
 *                                 batches after the first) -> the frames filled
 *   java.nio.MappedMemoryUtils isLoaded0, load0, unload0, force0
 *                                 (MappedByteBuffer) -> the range's bytes
 *   ClassLoader.defineClass0/1/2  -> the class file's bytes
 *
 * The same wrappers (and those of sockets' reads, accept, connect, polls and
 * EPoll.wait, wrapped for this alone) ask the scheduler first whether the
 * I/O would wait for another of the method's threads (sched_io.c, sched_io):
 * the run then ends as unschedulable instead of blocking with the baton.
 *
 * Arrays a native call allocates (an array's clone, Array.newArray) are
 * charged by step/arrays.c's allocation hook instead, as elements of the call.
 *
 * A cost table prices them with cost_per_element; the scorer lists an
 * invoke that handled elements without such a price as missing (the score
 * is approximate), never free. The interpreter runs CRC32 and CRC32C as
 * intrinsics, past any native binding: get_score.sh switches those off
 * (-XX:-UseCRC32Intrinsics -XX:-UseCRC32CIntrinsics), so CRC32 comes here
 * and CRC32C runs as bytecode, counted. No other native above has an
 * interpreter intrinsic (compiled code does not run while counting).
 *
 * Three ways in, by where the JDK's function comes from: libzip's natives
 * are bound at VMInit; libjava's and libnio's when their class is prepared
 * (or at VMInit for classes already loaded), before anything can call them;
 * Unsafe's, which the JDK registers itself while it boots, at
 * NativeMethodBind, and so are MappedMemoryUtils' where the JDK registers
 * them from the class's initializer (25) instead of exporting them (17). A
 * native this JDK does not declare (they moved between 17 and 25) is
 * skipped; one it declares that cannot be bound fails the run. The binding
 * is bulk_bind.c's; here are the wrappers and the table of natives
 * (bulk_natives), shared through bulk_impl.h.
 */
#define _GNU_SOURCE
#include "agent.h"
#include "bulk.h"
#include "bulk_impl.h"
#include "bystanders.h"
#include "jvmti_util.h"
#include "scheduler.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

void *bulk_real[BULK_COUNT];
_Atomic uint32_t bulk_key[BULK_COUNT]; /* invoke key index + 1, interned at bind */
_Atomic uint32_t bulk_via_key[BULK_COUNT]; /* the same through bulk_natives[].via, or 0 */

/* Charge n elements to the invoke of native `id` that the step path just
 * counted on this thread; on a bystander, to the bystanders' allowance. */
static void charge(JNIEnv *env, enum bulk_id id, uint64_t n)
{
    g_agent.hooks.elements(&g_agent, atomic_load(&bulk_key[id]), n); /* step/arrays.c */
    uint32_t v = atomic_load(&bulk_via_key[id]); /* at most one of the two is the invoke just counted */
    if (v != 0)
        g_agent.hooks.elements(&g_agent, v, n);
    bystanders_native(&g_agent, env, n); /* nothing on a counting thread */
}

/* java.io.FileDescriptor.fd (bulk_bind): for the scheduler's look at what
 * a descriptor is. (java.io streams reach pipes only of other processes,
 * which wait for no thread: the scheduler does not look at them.) */
jfieldID bulk_fd_int;

/* The descriptor of a FileDescriptor object, or -1. */
static int fd_val(JNIEnv *env, jobject fdo)
{
    return fdo != NULL && bulk_fd_int != NULL ? (*env)->GetIntField(env, fdo, bulk_fd_int) : -1;
}

/* Before native `id` does I/O of `kind` on fd: while this thread is
 * scheduled, I/O that would wait for another thread ends the run
 * (sched.c). */
static void io_check(JNIEnv *env, enum bulk_id id, int fd, enum sched_io kind, jlong len)
{
    if (!sched_scheduled())
        return;
    char text[256];
    bulk_key_text(id, text, sizeof text);
    sched_io(env, fd, kind, len, text);
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
    jint r = ((sum_bytes_fn)bulk_real[CRC_BYTES])(env, cls, crc, b, off, len);
    if (!(*env)->ExceptionCheck(env) && len > 0)
        charge(env, CRC_BYTES, (uint64_t)len);
    return r;
}

static jint JNICALL crc_buffer(JNIEnv *env, jclass cls, jint crc, jlong addr, jint off, jint len)
{
    jint r = ((sum_buffer_fn)bulk_real[CRC_BUFFER])(env, cls, crc, addr, off, len);
    if (!(*env)->ExceptionCheck(env) && len > 0)
        charge(env, CRC_BUFFER, (uint64_t)len);
    return r;
}

static jint JNICALL adler_bytes(JNIEnv *env, jclass cls, jint adler, jbyteArray b, jint off, jint len)
{
    jint r = ((sum_bytes_fn)bulk_real[ADLER_BYTES])(env, cls, adler, b, off, len);
    if (!(*env)->ExceptionCheck(env) && len > 0)
        charge(env, ADLER_BYTES, (uint64_t)len);
    return r;
}

static jint JNICALL adler_buffer(JNIEnv *env, jclass cls, jint adler, jlong addr, jint off, jint len)
{
    jint r = ((sum_buffer_fn)bulk_real[ADLER_BUFFER])(env, cls, adler, addr, off, len);
    if (!(*env)->ExceptionCheck(env) && len > 0)
        charge(env, ADLER_BUFFER, (uint64_t)len);
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
        charge(env, id, zip_handled(r));
    return r;
}

static jlong JNICALL defl_bb(JNIEnv *env, jobject self, jlong addr, jbyteArray in, jint ioff, jint ilen,
                             jbyteArray out, jint ooff, jint olen, jint flush, jint params)
{
    return after_zip(env, DEFL_BB,
                     ((defl_bb_fn)bulk_real[DEFL_BB])(env, self, addr, in, ioff, ilen, out, ooff, olen, flush, params));
}

static jlong JNICALL defl_bx(JNIEnv *env, jobject self, jlong addr, jbyteArray in, jint ioff, jint ilen,
                             jlong out, jint olen, jint flush, jint params)
{
    return after_zip(env, DEFL_BX, ((defl_bx_fn)bulk_real[DEFL_BX])(env, self, addr, in, ioff, ilen, out, olen, flush, params));
}

static jlong JNICALL defl_xb(JNIEnv *env, jobject self, jlong addr, jlong in, jint ilen, jbyteArray out, jint ooff,
                             jint olen, jint flush, jint params)
{
    return after_zip(env, DEFL_XB, ((defl_xb_fn)bulk_real[DEFL_XB])(env, self, addr, in, ilen, out, ooff, olen, flush, params));
}

static jlong JNICALL defl_xx(JNIEnv *env, jobject self, jlong addr, jlong in, jint ilen, jlong out, jint olen,
                             jint flush, jint params)
{
    return after_zip(env, DEFL_XX, ((defl_xx_fn)bulk_real[DEFL_XX])(env, self, addr, in, ilen, out, olen, flush, params));
}

/* Inflater: (addr, in..., out...) in four shapes. */
typedef jlong(JNICALL *infl_bb_fn)(JNIEnv *, jobject, jlong, jbyteArray, jint, jint, jbyteArray, jint, jint);
typedef jlong(JNICALL *infl_bx_fn)(JNIEnv *, jobject, jlong, jbyteArray, jint, jint, jlong, jint);
typedef jlong(JNICALL *infl_xb_fn)(JNIEnv *, jobject, jlong, jlong, jint, jbyteArray, jint, jint);
typedef jlong(JNICALL *infl_xx_fn)(JNIEnv *, jobject, jlong, jlong, jint, jlong, jint);

static jlong JNICALL infl_bb(JNIEnv *env, jobject self, jlong addr, jbyteArray in, jint ioff, jint ilen,
                             jbyteArray out, jint ooff, jint olen)
{
    return after_zip(env, INFL_BB, ((infl_bb_fn)bulk_real[INFL_BB])(env, self, addr, in, ioff, ilen, out, ooff, olen));
}

static jlong JNICALL infl_bx(JNIEnv *env, jobject self, jlong addr, jbyteArray in, jint ioff, jint ilen, jlong out,
                             jint olen)
{
    return after_zip(env, INFL_BX, ((infl_bx_fn)bulk_real[INFL_BX])(env, self, addr, in, ioff, ilen, out, olen));
}

static jlong JNICALL infl_xb(JNIEnv *env, jobject self, jlong addr, jlong in, jint ilen, jbyteArray out, jint ooff,
                             jint olen)
{
    return after_zip(env, INFL_XB, ((infl_xb_fn)bulk_real[INFL_XB])(env, self, addr, in, ilen, out, ooff, olen));
}

static jlong JNICALL infl_xx(JNIEnv *env, jobject self, jlong addr, jlong in, jint ilen, jlong out, jint olen)
{
    return after_zip(env, INFL_XX, ((infl_xx_fn)bulk_real[INFL_XX])(env, self, addr, in, ilen, out, olen));
}

/* Deflater/Inflater.setDictionary: the dictionary's bytes (zlib hashes them). */
typedef void(JNICALL *dict_bytes_fn)(JNIEnv *, jclass, jlong, jbyteArray, jint, jint);
typedef void(JNICALL *dict_buffer_fn)(JNIEnv *, jclass, jlong, jlong, jint);

static void after_len(JNIEnv *env, enum bulk_id id, jlong n)
{
    if (!(*env)->ExceptionCheck(env) && n > 0)
        charge(env, id, (uint64_t)n);
}

static void JNICALL defl_dict(JNIEnv *env, jclass cls, jlong addr, jbyteArray b, jint off, jint len)
{
    ((dict_bytes_fn)bulk_real[DEFL_DICT])(env, cls, addr, b, off, len);
    after_len(env, DEFL_DICT, len);
}

static void JNICALL defl_dict_buf(JNIEnv *env, jclass cls, jlong addr, jlong buf, jint len)
{
    ((dict_buffer_fn)bulk_real[DEFL_DICT_BUF])(env, cls, addr, buf, len);
    after_len(env, DEFL_DICT_BUF, len);
}

static void JNICALL infl_dict(JNIEnv *env, jclass cls, jlong addr, jbyteArray b, jint off, jint len)
{
    ((dict_bytes_fn)bulk_real[INFL_DICT])(env, cls, addr, b, off, len);
    after_len(env, INFL_DICT, len);
}

static void JNICALL infl_dict_buf(JNIEnv *env, jclass cls, jlong addr, jlong buf, jint len)
{
    ((dict_buffer_fn)bulk_real[INFL_DICT_BUF])(env, cls, addr, buf, len);
    after_len(env, INFL_DICT_BUF, len);
}

/* java.io streams: the bytes read (the result) or written (the length). */
typedef jint(JNICALL *read_bytes_fn)(JNIEnv *, jobject, jbyteArray, jint, jint);
typedef void(JNICALL *write_bytes_fn)(JNIEnv *, jobject, jbyteArray, jint, jint);
typedef void(JNICALL *write_bytes_z_fn)(JNIEnv *, jobject, jbyteArray, jint, jint, jboolean);

static jint read_bytes(JNIEnv *env, enum bulk_id id, jobject self, jbyteArray b, jint off, jint len)
{
    jint r = ((read_bytes_fn)bulk_real[id])(env, self, b, off, len);
    after_len(env, id, r);
    return r;
}

static jint JNICALL fis_read(JNIEnv *env, jobject self, jbyteArray b, jint off, jint len)
{
    return read_bytes(env, FIS_READ, self, b, off, len);
}

static jint JNICALL raf_read(JNIEnv *env, jobject self, jbyteArray b, jint off, jint len)
{
    return read_bytes(env, RAF_READ, self, b, off, len);
}

static jint JNICALL raf_read0(JNIEnv *env, jobject self, jbyteArray b, jint off, jint len)
{
    return read_bytes(env, RAF_READ0, self, b, off, len);
}

static void JNICALL fos_write(JNIEnv *env, jobject self, jbyteArray b, jint off, jint len, jboolean append)
{
    ((write_bytes_z_fn)bulk_real[FOS_WRITE])(env, self, b, off, len, append);
    after_len(env, FOS_WRITE, len);
}

static void JNICALL raf_write(JNIEnv *env, jobject self, jbyteArray b, jint off, jint len)
{
    ((write_bytes_fn)bulk_real[RAF_WRITE])(env, self, b, off, len);
    after_len(env, RAF_WRITE, len);
}

static void JNICALL raf_write0(JNIEnv *env, jobject self, jbyteArray b, jint off, jint len)
{
    ((write_bytes_fn)bulk_real[RAF_WRITE0])(env, self, b, off, len);
    after_len(env, RAF_WRITE0, len);
}

/* String.intern: hashes and compares the string's characters. */
typedef jstring(JNICALL *intern_fn)(JNIEnv *, jstring);

static jstring JNICALL str_intern(JNIEnv *env, jstring self)
{
    jstring r = ((intern_fn)bulk_real[STR_INTERN])(env, self);
    if (!(*env)->ExceptionCheck(env) && self != NULL)
        after_len(env, STR_INTERN, (*env)->GetStringLength(env, self));
    return r;
}

/* The bytes of the iovec array at addr (n entries) that writev0 is handed. */
static jlong iov_bytes(jlong addr, jint n)
{
    const struct iovec *v = (const struct iovec *)(intptr_t)addr;
    jlong total = 0;
    for (jint i = 0; v != NULL && i < n; i++)
        total += (jlong)v[i].iov_len;
    return total;
}

/* NIO file channels (sun.nio.ch.[Unix]FileDispatcherImpl): the bytes the
 * system call moved, its result. */
typedef jint(JNICALL *fd_io_fn)(JNIEnv *, jclass, jobject, jlong, jint);
typedef jint(JNICALL *fd_pio_fn)(JNIEnv *, jclass, jobject, jlong, jint, jlong);
typedef jlong(JNICALL *fd_vio_fn)(JNIEnv *, jclass, jobject, jlong, jint);

#define FD_WRAPPERS(ID, READ, PREAD, READV, WRITE, PWRITE, WRITEV)                                        \
    static jint JNICALL READ(JNIEnv *env, jclass cls, jobject fd, jlong addr, jint len)                   \
    {                                                                                                     \
        io_check(env, ID##_READ, fd_val(env, fd), SCHED_IO_READ, len);                                    \
        jint r = ((fd_io_fn)bulk_real[ID##_READ])(env, cls, fd, addr, len);                                    \
        after_len(env, ID##_READ, r);                                                                     \
        return r;                                                                                         \
    }                                                                                                     \
    static jint JNICALL PREAD(JNIEnv *env, jclass cls, jobject fd, jlong addr, jint len, jlong pos)       \
    {                                                                                                     \
        jint r = ((fd_pio_fn)bulk_real[ID##_PREAD])(env, cls, fd, addr, len, pos);                             \
        after_len(env, ID##_PREAD, r);                                                                    \
        return r;                                                                                         \
    }                                                                                                     \
    static jlong JNICALL READV(JNIEnv *env, jclass cls, jobject fd, jlong addr, jint len)                 \
    {                                                                                                     \
        io_check(env, ID##_READV, fd_val(env, fd), SCHED_IO_READ, 1);                                     \
        jlong r = ((fd_vio_fn)bulk_real[ID##_READV])(env, cls, fd, addr, len);                                 \
        after_len(env, ID##_READV, r);                                                                    \
        return r;                                                                                         \
    }                                                                                                     \
    static jint JNICALL WRITE(JNIEnv *env, jclass cls, jobject fd, jlong addr, jint len)                  \
    {                                                                                                     \
        io_check(env, ID##_WRITE, fd_val(env, fd), SCHED_IO_WRITE, len);                                  \
        jint r = ((fd_io_fn)bulk_real[ID##_WRITE])(env, cls, fd, addr, len);                                   \
        after_len(env, ID##_WRITE, r);                                                                    \
        return r;                                                                                         \
    }                                                                                                     \
    static jint JNICALL PWRITE(JNIEnv *env, jclass cls, jobject fd, jlong addr, jint len, jlong pos)      \
    {                                                                                                     \
        jint r = ((fd_pio_fn)bulk_real[ID##_PWRITE])(env, cls, fd, addr, len, pos);                            \
        after_len(env, ID##_PWRITE, r);                                                                   \
        return r;                                                                                         \
    }                                                                                                     \
    static jlong JNICALL WRITEV(JNIEnv *env, jclass cls, jobject fd, jlong addr, jint len)                \
    {                                                                                                     \
        io_check(env, ID##_WRITEV, fd_val(env, fd), SCHED_IO_WRITE, iov_bytes(addr, len));                \
        jlong r = ((fd_vio_fn)bulk_real[ID##_WRITEV])(env, cls, fd, addr, len);                                \
        after_len(env, ID##_WRITEV, r);                                                                   \
        return r;                                                                                         \
    }

FD_WRAPPERS(FD, fd_read, fd_pread, fd_readv, fd_write, fd_pwrite, fd_writev)
FD_WRAPPERS(UFD, ufd_read, ufd_pread, ufd_readv, ufd_write, ufd_pwrite, ufd_writev)

/* Throwable.fillInStackTrace walks the stack: the frames it recorded (the
 * Throwable's `depth`, which the JVM sets). StackTraceElement's
 * initStackTraceElements fills one element per frame: the array's length. */
typedef jobject(JNICALL *fill_fn)(JNIEnv *, jobject, jint);
typedef void(JNICALL *ste_fn)(JNIEnv *, jclass, jobjectArray, jobject);
typedef void(JNICALL *ste3_fn)(JNIEnv *, jclass, jobjectArray, jobject, jint);
jfieldID bulk_throwable_depth; /* set at bind (bulk_class_prepared) */

static jobject JNICALL throw_fill(JNIEnv *env, jobject self, jint dummy)
{
    jobject r = ((fill_fn)bulk_real[THROW_FILL])(env, self, dummy);
    if (!(*env)->ExceptionCheck(env) && self != NULL && bulk_throwable_depth != NULL)
        after_len(env, THROW_FILL, (*env)->GetIntField(env, self, bulk_throwable_depth));
    return r;
}

static void JNICALL ste_init(JNIEnv *env, jclass cls, jobjectArray elements, jobject x)
{
    ((ste_fn)bulk_real[STE_INIT])(env, cls, elements, x);
    if (!(*env)->ExceptionCheck(env) && elements != NULL)
        after_len(env, STE_INIT, (*env)->GetArrayLength(env, elements));
}

static void JNICALL ste_init3(JNIEnv *env, jclass cls, jobjectArray elements, jobject x, jint depth)
{
    ((ste3_fn)bulk_real[STE_INIT3])(env, cls, elements, x, depth);
    after_len(env, STE_INIT3, depth);
}

/* File.list: the JDK reads the whole directory in C and makes a String of
 * each entry's name: the entries returned. */
typedef jobjectArray(JNICALL *list_fn)(JNIEnv *, jobject, jobject);

static jobjectArray listed(JNIEnv *env, enum bulk_id id, jobject self, jobject file)
{
    jobjectArray r = ((list_fn)bulk_real[id])(env, self, file);
    if (r != NULL)
        after_len(env, id, (*env)->GetArrayLength(env, r));
    return r;
}

static jobjectArray JNICALL fs_list(JNIEnv *env, jobject self, jobject file)
{
    return listed(env, FS_LIST, self, file);
}

static jobjectArray JNICALL fs_list0(JNIEnv *env, jobject self, jobject file)
{
    return listed(env, FS_LIST0, self, file);
}

/* Sockets and selectors, wrapped only for the scheduler (sched_io): a
 * socket's reads (SocketDispatcher; its writes are FileDispatcherImpl's on
 * JDK 17), accept, connect and polls, and a selector's wait (EPoll.wait
 * with a timeout: 0 returns at once). */
typedef jint(JNICALL *sock_io_fn)(JNIEnv *, jclass, jobject, jlong, jint);
typedef jlong(JNICALL *sock_vio_fn)(JNIEnv *, jclass, jobject, jlong, jint);
typedef jint(JNICALL *accept_fn)(JNIEnv *, jclass, jobject, jobject, jobjectArray);
typedef jint(JNICALL *connect_fn)(JNIEnv *, jclass, jboolean, jobject, jobject, jint);
typedef jint(JNICALL *poll_fn)(JNIEnv *, jclass, jobject, jint, jlong);
typedef jboolean(JNICALL *poll_connect_fn)(JNIEnv *, jclass, jobject, jlong);
typedef jint(JNICALL *epoll_wait_fn)(JNIEnv *, jclass, jint, jlong, jint, jint);

static jint JNICALL sock_read(JNIEnv *env, jclass cls, jobject fd, jlong addr, jint len)
{
    io_check(env, SOCK_READ, fd_val(env, fd), SCHED_IO_READ, len);
    return ((sock_io_fn)bulk_real[SOCK_READ])(env, cls, fd, addr, len);
}

static jlong JNICALL sock_readv(JNIEnv *env, jclass cls, jobject fd, jlong addr, jint len)
{
    io_check(env, SOCK_READV, fd_val(env, fd), SCHED_IO_READ, 1);
    return ((sock_vio_fn)bulk_real[SOCK_READV])(env, cls, fd, addr, len);
}

static jint JNICALL sock_write(JNIEnv *env, jclass cls, jobject fd, jlong addr, jint len)
{
    io_check(env, SOCK_WRITE, fd_val(env, fd), SCHED_IO_WRITE, len);
    return ((sock_io_fn)bulk_real[SOCK_WRITE])(env, cls, fd, addr, len);
}

static jlong JNICALL sock_writev(JNIEnv *env, jclass cls, jobject fd, jlong addr, jint len)
{
    io_check(env, SOCK_WRITEV, fd_val(env, fd), SCHED_IO_WRITE, iov_bytes(addr, len));
    return ((sock_vio_fn)bulk_real[SOCK_WRITEV])(env, cls, fd, addr, len);
}

static jint JNICALL net_accept(JNIEnv *env, jclass cls, jobject fd, jobject newfd, jobjectArray isaa)
{
    io_check(env, NET_ACCEPT, fd_val(env, fd), SCHED_IO_WAIT, 0);
    return ((accept_fn)bulk_real[NET_ACCEPT])(env, cls, fd, newfd, isaa);
}

static jint JNICALL net_connect(JNIEnv *env, jclass cls, jboolean v6, jobject fd, jobject addr, jint port)
{
    io_check(env, NET_CONNECT, fd_val(env, fd), SCHED_IO_WAIT, 0);
    return ((connect_fn)bulk_real[NET_CONNECT])(env, cls, v6, fd, addr, port);
}

static jint JNICALL net_poll(JNIEnv *env, jclass cls, jobject fd, jint events, jlong timeout)
{
    io_check(env, NET_POLL, fd_val(env, fd), SCHED_IO_WAIT, 0);
    return ((poll_fn)bulk_real[NET_POLL])(env, cls, fd, events, timeout);
}

static jboolean JNICALL net_poll_connect(JNIEnv *env, jclass cls, jobject fd, jlong timeout)
{
    io_check(env, NET_POLL_CONNECT, fd_val(env, fd), SCHED_IO_WAIT, 0);
    return ((poll_connect_fn)bulk_real[NET_POLL_CONNECT])(env, cls, fd, timeout);
}

static jint JNICALL epoll_wait(JNIEnv *env, jclass cls, jint epfd, jlong events, jint n, jint timeout)
{
    if (timeout != 0)
        io_check(env, EPOLL_WAIT, epfd, SCHED_IO_SELECT, 0);
    return ((epoll_wait_fn)bulk_real[EPOLL_WAIT])(env, cls, epfd, events, n, timeout);
}

/* StackWalker: after the first batch (callStackWalk, which calls back into
 * Java), each further batch of frames is one fetchStackFrames, which fills
 * that many frame objects: the frames it filled. JDK 17 returns the end
 * index in the buffer, later JDKs the count. */
typedef jint(JNICALL *fetch_fn)(JNIEnv *, jobject, jlong, jlong, jint, jint, jobjectArray);
typedef jint(JNICALL *fetch25_fn)(JNIEnv *, jobject, jint, jlong, jint, jint, jint, jobjectArray);

static jint JNICALL sw_fetch(JNIEnv *env, jobject self, jlong mode, jlong anchor, jint batch, jint start,
                             jobjectArray frames)
{
    jint end = ((fetch_fn)bulk_real[SW_FETCH])(env, self, mode, anchor, batch, start, frames);
    after_len(env, SW_FETCH, (jlong)end - start);
    return end;
}

static jint JNICALL sw_fetch25(JNIEnv *env, jobject self, jint mode, jlong anchor, jint last, jint size, jint start,
                               jobjectArray frames)
{
    jint n = ((fetch25_fn)bulk_real[SW_FETCH25])(env, self, mode, anchor, last, size, start, frames);
    after_len(env, SW_FETCH25, n);
    return n;
}

/* MappedByteBuffer's isLoaded, load, unload and force: the kernel walks
 * (mincore, madvise, msync) every page of the range: its bytes. */
typedef jboolean(JNICALL *map_loaded_fn)(JNIEnv *, jclass, jlong, jlong, jlong);
typedef void(JNICALL *map_range_fn)(JNIEnv *, jclass, jlong, jlong);
typedef void(JNICALL *map_force_fn)(JNIEnv *, jclass, jobject, jlong, jlong);

static jboolean JNICALL map_loaded(JNIEnv *env, jclass cls, jlong addr, jlong len, jlong pages)
{
    jboolean r = ((map_loaded_fn)bulk_real[MAP_LOADED])(env, cls, addr, len, pages);
    after_len(env, MAP_LOADED, len);
    return r;
}

static void JNICALL map_load(JNIEnv *env, jclass cls, jlong addr, jlong len)
{
    ((map_range_fn)bulk_real[MAP_LOAD])(env, cls, addr, len);
    after_len(env, MAP_LOAD, len);
}

static void JNICALL map_unload(JNIEnv *env, jclass cls, jlong addr, jlong len)
{
    ((map_range_fn)bulk_real[MAP_UNLOAD])(env, cls, addr, len);
    after_len(env, MAP_UNLOAD, len);
}

static void JNICALL map_force(JNIEnv *env, jclass cls, jobject fd, jlong addr, jlong len)
{
    ((map_force_fn)bulk_real[MAP_FORCE])(env, cls, fd, addr, len);
    after_len(env, MAP_FORCE, len);
}

/* ClassLoader's defineClass natives (Lookup.defineClass and
 * defineHiddenClass, proxies, reflection's accessors): the JVM parses and
 * verifies the class file: its bytes. Where the definition runs Java code
 * (a loader resolving the superclass), the invoke is no longer the one just
 * counted and nothing is charged (charge). natives.c wraps these again, with
 * processes=deny, to refuse loaders of the program's own. */
typedef jclass(JNICALL *def0_fn)(JNIEnv *, jclass, jobject, jclass, jstring, jbyteArray, jint, jint, jobject,
                                  jboolean, jint, jobject);
typedef jclass(JNICALL *def1_fn)(JNIEnv *, jclass, jobject, jstring, jbyteArray, jint, jint, jobject, jstring);
typedef jclass(JNICALL *def2_fn)(JNIEnv *, jclass, jobject, jstring, jobject, jint, jint, jobject, jstring);

_Thread_local jint hidden_defining __attribute__((tls_model("initial-exec")));

static jclass JNICALL define0(JNIEnv *env, jclass cls, jobject loader, jclass lookup, jstring name, jbyteArray b,
                              jint off, jint len, jobject pd, jboolean init, jint flags, jobject data)
{
    /* read before the call: defining a class may define others on this thread */
    jint charged = hidden_defining > 0 ? hidden_defining : len;
    hidden_defining = 0;
    jclass r = ((def0_fn)bulk_real[DEFINE0])(env, cls, loader, lookup, name, b, off, len, pd, init, flags, data);
    after_len(env, DEFINE0, charged);
    return r;
}

static jclass JNICALL define1(JNIEnv *env, jclass cls, jobject loader, jstring name, jbyteArray b, jint off, jint len,
                              jobject pd, jstring source)
{
    jclass r = ((def1_fn)bulk_real[DEFINE1])(env, cls, loader, name, b, off, len, pd, source);
    after_len(env, DEFINE1, len);
    return r;
}

static jclass JNICALL define2(JNIEnv *env, jclass cls, jobject loader, jstring name, jobject b, jint off, jint len,
                              jobject pd, jstring source)
{
    jclass r = ((def2_fn)bulk_real[DEFINE2])(env, cls, loader, name, b, off, len, pd, source);
    after_len(env, DEFINE2, len);
    return r;
}

/* Files.copy: the JDK copies the whole file in C. The bytes copied are how
 * far the source's file position moved (every copy loop here reads the
 * source sequentially from its position). */
typedef void(JNICALL *transfer_fn)(JNIEnv *, jclass, jint, jint, jlong);
typedef void(JNICALL *buffered_fn)(JNIEnv *, jclass, jint, jint, jlong, jint, jlong);
typedef jint(JNICALL *direct_fn)(JNIEnv *, jclass, jint, jint, jlong);

static void after_copy(JNIEnv *env, enum bulk_id id, jint src, off_t before)
{
    off_t after = lseek(src, 0, SEEK_CUR);
    if (before >= 0 && after > before)
        after_len(env, id, (jlong)(after - before));
}

static void JNICALL copy_transfer(JNIEnv *env, jclass cls, jint dst, jint src, jlong cancel)
{
    off_t before = lseek(src, 0, SEEK_CUR);
    ((transfer_fn)bulk_real[COPY_TRANSFER])(env, cls, dst, src, cancel);
    after_copy(env, COPY_TRANSFER, src, before);
}

static void JNICALL copy_buffered(JNIEnv *env, jclass cls, jint dst, jint src, jlong buf, jint size, jlong cancel)
{
    off_t before = lseek(src, 0, SEEK_CUR);
    ((buffered_fn)bulk_real[COPY_BUFFERED])(env, cls, dst, src, buf, size, cancel);
    after_copy(env, COPY_BUFFERED, src, before);
}

static jint JNICALL copy_direct(JNIEnv *env, jclass cls, jint dst, jint src, jlong cancel)
{
    off_t before = lseek(src, 0, SEEK_CUR);
    jint r = ((direct_fn)bulk_real[COPY_DIRECT])(env, cls, dst, src, cancel);
    after_copy(env, COPY_DIRECT, src, before);
    return r;
}

/* sun.nio.fs.UnixNativeDispatcher's read and write: the result. */
typedef jint(JNICALL *und_io_fn)(JNIEnv *, jclass, jint, jlong, jint);

#define UND_WRAPPER(FN, ID)                                                   \
    static jint JNICALL FN(JNIEnv *env, jclass cls, jint fd, jlong addr, jint n) \
    {                                                                         \
        jint r = ((und_io_fn)bulk_real[ID])(env, cls, fd, addr, n);                \
        after_len(env, ID, r);                                                \
        return r;                                                             \
    }
UND_WRAPPER(und_read, UND_READ)
UND_WRAPPER(und_write, UND_WRITE)
UND_WRAPPER(und_read0, UND_READ0)
UND_WRAPPER(und_write0, UND_WRITE0)

/* FileChannel.transferTo/From through sendfile and the like: the result
 * (bytes moved; negative values are the JDK's status codes). */
typedef jlong(JNICALL *fc_to_fn)(JNIEnv *, jobject, jobject, jlong, jlong, jobject);
typedef jlong(JNICALL *fd_to_fn)(JNIEnv *, jobject, jobject, jlong, jlong, jobject, jboolean);
typedef jlong(JNICALL *fd_from_fn)(JNIEnv *, jobject, jobject, jobject, jlong, jlong, jboolean);

static jlong JNICALL fc_transfer_to(JNIEnv *env, jobject self, jobject src, jlong pos, jlong n, jobject dst)
{
    jlong r = ((fc_to_fn)bulk_real[FC_TRANSFER_TO])(env, self, src, pos, n, dst);
    after_len(env, FC_TRANSFER_TO, r);
    return r;
}

static jlong JNICALL fd_transfer_to(JNIEnv *env, jobject self, jobject src, jlong pos, jlong n, jobject dst,
                                    jboolean append)
{
    jlong r = ((fd_to_fn)bulk_real[FD_TRANSFER_TO])(env, self, src, pos, n, dst, append);
    after_len(env, FD_TRANSFER_TO, r);
    return r;
}

static jlong JNICALL fd_transfer_from(JNIEnv *env, jobject self, jobject src, jobject dst, jlong pos, jlong n,
                                      jboolean append)
{
    jlong r = ((fd_from_fn)bulk_real[FD_TRANSFER_FROM])(env, self, src, dst, pos, n, append);
    after_len(env, FD_TRANSFER_FROM, r);
    return r;
}

/* jdk.internal.misc.Unsafe: bulk copies (direct buffers' bulk puts and
 * gets), byte-swapping copies and fills: their byte counts. */
typedef void(JNICALL *copy_fn)(JNIEnv *, jobject, jobject, jlong, jobject, jlong, jlong);
typedef void(JNICALL *swap_fn)(JNIEnv *, jobject, jobject, jlong, jobject, jlong, jlong, jlong);
typedef void(JNICALL *set_fn)(JNIEnv *, jobject, jobject, jlong, jlong, jbyte);

static void JNICALL unsafe_copy(JNIEnv *env, jobject self, jobject src, jlong soff, jobject dst, jlong doff, jlong n)
{
    ((copy_fn)bulk_real[UNSAFE_COPY])(env, self, src, soff, dst, doff, n);
    after_len(env, UNSAFE_COPY, n);
}

static void JNICALL unsafe_swap(JNIEnv *env, jobject self, jobject src, jlong soff, jobject dst, jlong doff, jlong n,
                                jlong elem)
{
    ((swap_fn)bulk_real[UNSAFE_SWAP])(env, self, src, soff, dst, doff, n, elem);
    after_len(env, UNSAFE_SWAP, n);
}

static void JNICALL unsafe_set(JNIEnv *env, jobject self, jobject o, jlong off, jlong n, jbyte v)
{
    ((set_fn)bulk_real[UNSAFE_SET])(env, self, o, off, n, v);
    after_len(env, UNSAFE_SET, n);
}

/* The natives charged by size (bulk_impl.h), bound by bulk_bind.c. */
const struct bulk_native bulk_natives[BULK_COUNT] = {
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
    [DEFL_DICT] = {"java/util/zip/Deflater", "setDictionary", "(J[BII)V", "Java_java_util_zip_Deflater_setDictionary",
                   (void *)defl_dict},
    [DEFL_DICT_BUF] = {"java/util/zip/Deflater", "setDictionaryBuffer", "(JJI)V",
                       "Java_java_util_zip_Deflater_setDictionaryBuffer", (void *)defl_dict_buf},
    [INFL_DICT] = {"java/util/zip/Inflater", "setDictionary", "(J[BII)V", "Java_java_util_zip_Inflater_setDictionary",
                   (void *)infl_dict},
    [INFL_DICT_BUF] = {"java/util/zip/Inflater", "setDictionaryBuffer", "(JJI)V",
                       "Java_java_util_zip_Inflater_setDictionaryBuffer", (void *)infl_dict_buf},
    [FIS_READ] = {"java/io/FileInputStream", "readBytes", "([BII)I", "Java_java_io_FileInputStream_readBytes",
                  (void *)fis_read, LIB_JAVA},
    [FOS_WRITE] = {"java/io/FileOutputStream", "writeBytes", "([BIIZ)V", "Java_java_io_FileOutputStream_writeBytes",
                   (void *)fos_write, LIB_JAVA},
    [RAF_READ] = {"java/io/RandomAccessFile", "readBytes", "([BII)I", "Java_java_io_RandomAccessFile_readBytes",
                  (void *)raf_read, LIB_JAVA},
    [RAF_WRITE] = {"java/io/RandomAccessFile", "writeBytes", "([BII)V", "Java_java_io_RandomAccessFile_writeBytes",
                   (void *)raf_write, LIB_JAVA},
    [RAF_READ0] = {"java/io/RandomAccessFile", "readBytes0", "([BII)I", "Java_java_io_RandomAccessFile_readBytes0",
                   (void *)raf_read0, LIB_JAVA},
    [RAF_WRITE0] = {"java/io/RandomAccessFile", "writeBytes0", "([BII)V", "Java_java_io_RandomAccessFile_writeBytes0",
                    (void *)raf_write0, LIB_JAVA},
    [STR_INTERN] = {"java/lang/String", "intern", "()Ljava/lang/String;", "Java_java_lang_String_intern",
                    (void *)str_intern, LIB_JAVA},
#define FD_NATIVES(ID, CLS, SYM, READ, PREAD, READV, WRITE, PWRITE, WRITEV)                                     \
    [ID##_READ] = {CLS, "read0", "(Ljava/io/FileDescriptor;JI)I", SYM "_read0", (void *)READ, LIB_NIO},         \
    [ID##_PREAD] = {CLS, "pread0", "(Ljava/io/FileDescriptor;JIJ)I", SYM "_pread0", (void *)PREAD, LIB_NIO},    \
    [ID##_READV] = {CLS, "readv0", "(Ljava/io/FileDescriptor;JI)J", SYM "_readv0", (void *)READV, LIB_NIO},     \
    [ID##_WRITE] = {CLS, "write0", "(Ljava/io/FileDescriptor;JI)I", SYM "_write0", (void *)WRITE, LIB_NIO},     \
    [ID##_PWRITE] = {CLS, "pwrite0", "(Ljava/io/FileDescriptor;JIJ)I", SYM "_pwrite0", (void *)PWRITE, LIB_NIO}, \
    [ID##_WRITEV] = {CLS, "writev0", "(Ljava/io/FileDescriptor;JI)J", SYM "_writev0", (void *)WRITEV, LIB_NIO}
    FD_NATIVES(FD, "sun/nio/ch/FileDispatcherImpl", "Java_sun_nio_ch_FileDispatcherImpl", fd_read, fd_pread,
               fd_readv, fd_write, fd_pwrite, fd_writev),
    FD_NATIVES(UFD, "sun/nio/ch/UnixFileDispatcherImpl", "Java_sun_nio_ch_UnixFileDispatcherImpl", ufd_read,
               ufd_pread, ufd_readv, ufd_write, ufd_pwrite, ufd_writev),
#undef FD_NATIVES
    [THROW_FILL] = {"java/lang/Throwable", "fillInStackTrace", "(I)Ljava/lang/Throwable;",
                    "Java_java_lang_Throwable_fillInStackTrace", (void *)throw_fill, LIB_JAVA},
    [STE_INIT] = {"java/lang/StackTraceElement", "initStackTraceElements",
                  "([Ljava/lang/StackTraceElement;Ljava/lang/Throwable;)V",
                  "Java_java_lang_StackTraceElement_initStackTraceElements", (void *)ste_init, LIB_JAVA},
    [STE_INIT3] = {"java/lang/StackTraceElement", "initStackTraceElements",
                   "([Ljava/lang/StackTraceElement;Ljava/lang/Object;I)V",
                   "Java_java_lang_StackTraceElement_initStackTraceElements", (void *)ste_init3, LIB_JAVA},
    [COPY_TRANSFER] = {"sun/nio/fs/UnixCopyFile", "transfer", "(IIJ)V", "Java_sun_nio_fs_UnixCopyFile_transfer",
                       (void *)copy_transfer, LIB_NIO},
    [COPY_BUFFERED] = {"sun/nio/fs/UnixFileSystem", "bufferedCopy0", "(IIJIJ)V",
                       "Java_sun_nio_fs_UnixFileSystem_bufferedCopy0", (void *)copy_buffered, LIB_NIO},
    [COPY_DIRECT] = {"sun/nio/fs/LinuxNativeDispatcher", "directCopy0", "(IIJ)I",
                     "Java_sun_nio_fs_LinuxNativeDispatcher_directCopy0", (void *)copy_direct, LIB_NIO},
    [UND_READ] = {"sun/nio/fs/UnixNativeDispatcher", "read", "(IJI)I", "Java_sun_nio_fs_UnixNativeDispatcher_read",
                  (void *)und_read, LIB_NIO},
    [UND_WRITE] = {"sun/nio/fs/UnixNativeDispatcher", "write", "(IJI)I", "Java_sun_nio_fs_UnixNativeDispatcher_write",
                   (void *)und_write, LIB_NIO},
    [UND_READ0] = {"sun/nio/fs/UnixNativeDispatcher", "read0", "(IJI)I", "Java_sun_nio_fs_UnixNativeDispatcher_read0",
                   (void *)und_read0, LIB_NIO},
    [UND_WRITE0] = {"sun/nio/fs/UnixNativeDispatcher", "write0", "(IJI)I",
                    "Java_sun_nio_fs_UnixNativeDispatcher_write0", (void *)und_write0, LIB_NIO},
    [FC_TRANSFER_TO] = {"sun/nio/ch/FileChannelImpl", "transferTo0",
                        "(Ljava/io/FileDescriptor;JJLjava/io/FileDescriptor;)J",
                        "Java_sun_nio_ch_FileChannelImpl_transferTo0", (void *)fc_transfer_to, LIB_NIO},
    [FD_TRANSFER_TO] = {"sun/nio/ch/FileDispatcherImpl", "transferTo0",
                        "(Ljava/io/FileDescriptor;JJLjava/io/FileDescriptor;Z)J",
                        "Java_sun_nio_ch_FileDispatcherImpl_transferTo0", (void *)fd_transfer_to, LIB_NIO},
    [FD_TRANSFER_FROM] = {"sun/nio/ch/FileDispatcherImpl", "transferFrom0",
                          "(Ljava/io/FileDescriptor;Ljava/io/FileDescriptor;JJZ)J",
                          "Java_sun_nio_ch_FileDispatcherImpl_transferFrom0", (void *)fd_transfer_from, LIB_NIO},
    [FS_LIST] = {"java/io/UnixFileSystem", "list", "(Ljava/io/File;)[Ljava/lang/String;",
                 "Java_java_io_UnixFileSystem_list", (void *)fs_list, LIB_JAVA, "java/io/FileSystem"},
    [FS_LIST0] = {"java/io/UnixFileSystem", "list0", "(Ljava/io/File;)[Ljava/lang/String;",
                  "Java_java_io_UnixFileSystem_list0", (void *)fs_list0, LIB_JAVA},
#define SW_CLASS "java/lang/StackStreamFactory$AbstractStackWalker"
#define SW_SYMBOL "Java_java_lang_StackStreamFactory_00024AbstractStackWalker_fetchStackFrames"
    [SW_FETCH] = {SW_CLASS, "fetchStackFrames", "(JJII[Ljava/lang/Object;)I", SW_SYMBOL, (void *)sw_fetch, LIB_JAVA},
    [SW_FETCH25] = {SW_CLASS, "fetchStackFrames", "(IJIII[Ljava/lang/Object;)I", SW_SYMBOL, (void *)sw_fetch25,
                    LIB_JAVA},
#undef SW_CLASS
#undef SW_SYMBOL
#define MAP_CLASS "java/nio/MappedMemoryUtils"
    [MAP_LOADED] = {MAP_CLASS, "isLoaded0", "(JJJ)Z", "Java_java_nio_MappedMemoryUtils_isLoaded0", (void *)map_loaded,
                    LIB_NIO, NULL, 1},
    [MAP_LOAD] = {MAP_CLASS, "load0", "(JJ)V", "Java_java_nio_MappedMemoryUtils_load0", (void *)map_load, LIB_NIO, NULL,
                  1},
    [MAP_UNLOAD] = {MAP_CLASS, "unload0", "(JJ)V", "Java_java_nio_MappedMemoryUtils_unload0", (void *)map_unload,
                    LIB_NIO, NULL, 1},
    [MAP_FORCE] = {MAP_CLASS, "force0", "(Ljava/io/FileDescriptor;JJ)V", "Java_java_nio_MappedMemoryUtils_force0",
                   (void *)map_force, LIB_NIO, NULL, 1},
#undef MAP_CLASS
    [DEFINE0] = {"java/lang/ClassLoader", "defineClass0",
                 "(Ljava/lang/ClassLoader;Ljava/lang/Class;Ljava/lang/String;[BIILjava/security/ProtectionDomain;ZILjava/"
                 "lang/Object;)Ljava/lang/Class;",
                 "Java_java_lang_ClassLoader_defineClass0", (void *)define0, LIB_JAVA},
    [DEFINE1] = {"java/lang/ClassLoader", "defineClass1",
                 "(Ljava/lang/ClassLoader;Ljava/lang/String;[BIILjava/security/ProtectionDomain;Ljava/lang/String;)Ljava/"
                 "lang/Class;",
                 "Java_java_lang_ClassLoader_defineClass1", (void *)define1, LIB_JAVA},
    [DEFINE2] = {"java/lang/ClassLoader", "defineClass2",
                 "(Ljava/lang/ClassLoader;Ljava/lang/String;Ljava/nio/ByteBuffer;IILjava/security/ProtectionDomain;Ljava/"
                 "lang/String;)Ljava/lang/Class;",
                 "Java_java_lang_ClassLoader_defineClass2", (void *)define2, LIB_JAVA},
#define FDO "Ljava/io/FileDescriptor;"
    [SOCK_READ] = {"sun/nio/ch/SocketDispatcher", "read0", "(" FDO "JI)I", "Java_sun_nio_ch_SocketDispatcher_read0",
                   (void *)sock_read, LIB_NIO},
    [SOCK_READV] = {"sun/nio/ch/SocketDispatcher", "readv0", "(" FDO "JI)J", "Java_sun_nio_ch_SocketDispatcher_readv0",
                    (void *)sock_readv, LIB_NIO},
    [SOCK_WRITE] = {"sun/nio/ch/SocketDispatcher", "write0", "(" FDO "JI)I", "Java_sun_nio_ch_SocketDispatcher_write0",
                    (void *)sock_write, LIB_NIO},
    [SOCK_WRITEV] = {"sun/nio/ch/SocketDispatcher", "writev0", "(" FDO "JI)J",
                     "Java_sun_nio_ch_SocketDispatcher_writev0", (void *)sock_writev, LIB_NIO},
    [NET_ACCEPT] = {"sun/nio/ch/Net", "accept", "(" FDO FDO "[Ljava/net/InetSocketAddress;)I",
                    "Java_sun_nio_ch_Net_accept", (void *)net_accept, LIB_NIO},
    [NET_CONNECT] = {"sun/nio/ch/Net", "connect0", "(Z" FDO "Ljava/net/InetAddress;I)I", "Java_sun_nio_ch_Net_connect0",
                     (void *)net_connect, LIB_NIO},
    [NET_POLL] = {"sun/nio/ch/Net", "poll", "(" FDO "IJ)I", "Java_sun_nio_ch_Net_poll", (void *)net_poll, LIB_NIO},
    [NET_POLL_CONNECT] = {"sun/nio/ch/Net", "pollConnect", "(" FDO "J)Z", "Java_sun_nio_ch_Net_pollConnect",
                          (void *)net_poll_connect, LIB_NIO},
    [EPOLL_WAIT] = {"sun/nio/ch/EPoll", "wait", "(IJII)I", "Java_sun_nio_ch_EPoll_wait", (void *)epoll_wait, LIB_NIO},
#undef FDO
    [UNSAFE_COPY] = {"jdk/internal/misc/Unsafe", "copyMemory0", "(Ljava/lang/Object;JLjava/lang/Object;JJ)V", NULL,
                     (void *)unsafe_copy, LIB_JVM},
    [UNSAFE_SWAP] = {"jdk/internal/misc/Unsafe", "copySwapMemory0", "(Ljava/lang/Object;JLjava/lang/Object;JJJ)V",
                     NULL, (void *)unsafe_swap, LIB_JVM},
    [UNSAFE_SET] = {"jdk/internal/misc/Unsafe", "setMemory0", "(Ljava/lang/Object;JJB)V", NULL, (void *)unsafe_set,
                    LIB_JVM},
};
