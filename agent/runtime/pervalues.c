/*
 * pervalues.c - values a program can read that would differ from run to run
 * (docs/hidden-work.md, "Values that differ between runs").
 *
 * A score must repeat, so whatever the program reads must repeat too.
 * get_score.sh fixes what the process is given (paths, environment, host
 * name, process id: the sandbox); the virtual clock (natives.c) covers
 * System's clocks. What is left are values the JDK reads from the kernel
 * through its own natives, re-bound here with clock=virtual:
 *
 *   file times (java.io.File.lastModified, NIO's stat family: modified,
 *   accessed, changed, created)     2020-01-01T00:00:00Z, the virtual epoch
 *   inode and device numbers (NIO)  device 0, inodes numbered 1, 2, ... in the
 *                                   order the program first sees them
 *   disk space (File.getFreeSpace,  1 GiB total, 512 MiB free and usable
 *   FileStore)
 *   the JVM's start time            the virtual epoch; uptime: the virtual
 *   (RuntimeMXBean)                 clock
 *   JIT, GC, safepoint and class    0 ms
 *   loading times (management)
 *   thread and process CPU time,    -1, "not available" in their contracts
 *   CPU load, load average
 *   physical memory and swap        2 GiB total, 1 GiB free, no swap
 *   free heap (Runtime.freeMemory,  half the heap; the heap's use in
 *   MemoryMXBean, memory pools)     MemoryUsage: committed = its maximum (or
 *                                   initial size), used = half of that
 *                                   (a few bytes allocated by the JVM's own
 *                                   threads at their own pace move it)
 *
 * Lazily bound natives (the JDK's JNI names, linked on first call) are
 * swapped at NativeMethodBind; natives the JDK registers itself at start-up
 * (jdk.internal.misc.Unsafe's load average) are re-bound at VMInit with
 * RegisterNatives. None of this is on the per-bytecode path. JDK 17 and
 * JDK 25 name some of these natives differently (File.getSpace0, fstat0)
 * and JDK 25's stat0 returns the errno instead of throwing: the table of
 * swaps holds both, and an entry with a descriptor binds only to a native
 * with that descriptor.
 */
#define _GNU_SOURCE
#include "agent.h"
#include "jvmti_util.h"
#include "pervalues.h"
#include "vclock.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EPOCH_S 1577836800LL         /* 2020-01-01T00:00:00Z, as the virtual clock */
#define DISK_BLOCK 4096LL
#define DISK_BLOCKS 262144LL         /* 1 GiB */
#define MEMORY_TOTAL (2LL << 30)
#define MEMORY_FREE (1LL << 30)

/* --- file times and identities ------------------------------------------------------- */

typedef jlong(JNICALL *file_long_fn)(JNIEnv *, jobject, jobject);
typedef jlong(JNICALL *file_space_fn)(JNIEnv *, jobject, jobject, jint);
typedef void(JNICALL *stat_fn)(JNIEnv *, jclass, jlong, jobject);
typedef jint(JNICALL *stat_errno_fn)(JNIEnv *, jclass, jlong, jobject);
typedef void(JNICALL *fstat_fn)(JNIEnv *, jclass, jint, jobject);
typedef void(JNICALL *fstatat_fn)(JNIEnv *, jclass, jint, jlong, jint, jobject);

static file_long_fn real_last_modified;
static file_space_fn real_get_space;
static stat_fn real_stat0, real_lstat0, real_statvfs0;
static stat_errno_fn real_stat0_errno;
static fstat_fn real_fstat;
static fstatat_fn real_fstatat0;

/* sun.nio.fs.UnixFileAttributes' fields, looked up once (the same IDs every time). */
enum { F_ATIME, F_ATIME_NS, F_MTIME, F_MTIME_NS, F_CTIME, F_CTIME_NS, F_BTIME, F_BTIME_NS, F_INO, F_DEV, NFIELDS };
static const char *const attr_fields[NFIELDS] = {
    "st_atime_sec", "st_atime_nsec", "st_mtime_sec", "st_mtime_nsec", "st_ctime_sec",
    "st_ctime_nsec", "st_birthtime_sec", "st_birthtime_nsec", "st_ino", "st_dev",
};
static jfieldID attr_ids[NFIELDS];
static int attr_ids_state; /* 0 not looked up, 1 ready, -1 failed */

/* (device, inode) -> a number in the order of first sight; under a->lock. */
static struct ino_entry { jlong dev, ino, id; } *ino_slots;
static uint32_t ino_nslots, ino_count;

static uint32_t ino_hash(jlong dev, jlong ino)
{
    uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ULL ^ (uint64_t)dev * 0xc2b2ae3d27d4eb4fULL;
    return (uint32_t)(h >> 32);
}

/* The number standing for (dev, ino), or 0 when no memory is left. */
static jlong ino_number(agent *a, jlong dev, jlong ino)
{
    lock_enter(a);
    if (ino_count * 2 >= ino_nslots) {
        uint32_t n = ino_nslots ? ino_nslots * 2 : 1024;
        struct ino_entry *s = calloc(n, sizeof *s);
        if (s == NULL) {
            lock_exit(a);
            return 0;
        }
        for (uint32_t i = 0; i < ino_nslots; i++)
            if (ino_slots[i].id != 0) {
                uint32_t j = ino_hash(ino_slots[i].dev, ino_slots[i].ino) & (n - 1);
                while (s[j].id != 0)
                    j = (j + 1) & (n - 1);
                s[j] = ino_slots[i];
            }
        free(ino_slots);
        ino_slots = s;
        ino_nslots = n;
    }
    uint32_t j = ino_hash(dev, ino) & (ino_nslots - 1);
    while (ino_slots[j].id != 0 && !(ino_slots[j].dev == dev && ino_slots[j].ino == ino))
        j = (j + 1) & (ino_nslots - 1);
    if (ino_slots[j].id == 0)
        ino_slots[j] = (struct ino_entry){dev, ino, (jlong)++ino_count};
    jlong id = ino_slots[j].id;
    lock_exit(a);
    return id;
}

/* Overwrite the times and the identity a stat call filled in. */
static void fix_attrs(JNIEnv *env, jobject attrs)
{
    agent *a = &g_agent;
    if (attrs == NULL || (*env)->ExceptionCheck(env))
        return;
    if (attr_ids_state == 0) {
        jclass k = (*env)->GetObjectClass(env, attrs);
        int ok = k != NULL;
        for (int i = 0; ok && i < NFIELDS; i++) {
            attr_ids[i] = (*env)->GetFieldID(env, k, attr_fields[i], "J");
            if (attr_ids[i] == NULL) {
                /* st_birthtime_* are missing from some JDK 17 builds: leave them */
                (*env)->ExceptionClear(env);
                ok = i == F_BTIME || i == F_BTIME_NS;
            }
        }
        attr_ids_state = ok ? 1 : -1;
        if (!ok)
            agent_fail(a, "cannot find the fields of sun.nio.fs.UnixFileAttributes to fix file times");
    }
    if (attr_ids_state != 1)
        return;
    for (int i = F_ATIME; i <= F_BTIME_NS; i++)
        if (attr_ids[i] != NULL)
            (*env)->SetLongField(env, attrs, attr_ids[i], (i & 1) ? 0 : EPOCH_S);
    jlong dev = (*env)->GetLongField(env, attrs, attr_ids[F_DEV]);
    jlong ino = (*env)->GetLongField(env, attrs, attr_ids[F_INO]);
    jlong id = ino_number(a, dev, ino);
    if (id == 0) {
        agent_fail(a, "out of memory for inode numbers");
        return;
    }
    (*env)->SetLongField(env, attrs, attr_ids[F_INO], id);
    (*env)->SetLongField(env, attrs, attr_ids[F_DEV], 0);
}

static void JNICALL psf_stat0(JNIEnv *env, jclass cls, jlong path, jobject attrs)
{
    real_stat0(env, cls, path, attrs);
    fix_attrs(env, attrs);
}

/* JDK 21 and later: stat0 returns 0 or the errno, and fills attrs on 0 only. */
static jint JNICALL psf_stat0_errno(JNIEnv *env, jclass cls, jlong path, jobject attrs)
{
    jint e = real_stat0_errno(env, cls, path, attrs);
    if (e == 0)
        fix_attrs(env, attrs);
    return e;
}

static void JNICALL psf_lstat0(JNIEnv *env, jclass cls, jlong path, jobject attrs)
{
    real_lstat0(env, cls, path, attrs);
    fix_attrs(env, attrs);
}

static void JNICALL psf_fstat(JNIEnv *env, jclass cls, jint fd, jobject attrs)
{
    real_fstat(env, cls, fd, attrs);
    fix_attrs(env, attrs);
}

static void JNICALL psf_fstatat0(JNIEnv *env, jclass cls, jint dfd, jlong path, jint flag, jobject attrs)
{
    real_fstatat0(env, cls, dfd, path, flag, attrs);
    fix_attrs(env, attrs);
}

/* File.lastModified: 0 means "no such file" and stays 0. */
static jlong JNICALL psf_last_modified(JNIEnv *env, jobject self, jobject file)
{
    jlong t = real_last_modified(env, self, file);
    return t == 0 ? 0 : EPOCH_S * 1000;
}

/* File.getTotalSpace/getFreeSpace/getUsableSpace (t = 0, 1, 2); 0 means "no such file". */
static jlong JNICALL psf_get_space(JNIEnv *env, jobject self, jobject file, jint t)
{
    jlong v = real_get_space(env, self, file, t);
    if (v == 0)
        return 0;
    return t == 0 ? DISK_BLOCK * DISK_BLOCKS : DISK_BLOCK * DISK_BLOCKS / 2;
}

/* FileStore's sizes. */
static void JNICALL psf_statvfs0(JNIEnv *env, jclass cls, jlong path, jobject attrs)
{
    real_statvfs0(env, cls, path, attrs);
    if (attrs == NULL || (*env)->ExceptionCheck(env))
        return;
    jclass k = (*env)->GetObjectClass(env, attrs);
    static const char *const names[] = {"f_frsize", "f_blocks", "f_bfree", "f_bavail"};
    const jlong values[] = {DISK_BLOCK, DISK_BLOCKS, DISK_BLOCKS / 2, DISK_BLOCKS / 2};
    for (int i = 0; k != NULL && i < 4; i++) {
        jfieldID f = (*env)->GetFieldID(env, k, names[i], "J");
        if (f == NULL) {
            (*env)->ExceptionClear(env);
            agent_fail(&g_agent, "cannot find sun.nio.fs.UnixFileStoreAttributes.%s to fix disk space", names[i]);
            return;
        }
        (*env)->SetLongField(env, attrs, f, values[i]);
    }
}

/* --- management ----------------------------------------------------------------------- */

static jlong JNICALL psf_long_zero(JNIEnv *env, jobject self)
{
    (void)env; (void)self;
    return 0;
}

static jlong JNICALL psf_long_unavailable(JNIEnv *env, jobject self)
{
    (void)env; (void)self;
    return -1;
}

static jlong JNICALL psf_long_unavailable_j(JNIEnv *env, jclass cls, jlong id)
{
    (void)env; (void)cls; (void)id;
    return -1;
}

/* getThreadTotalCpuTime1(ids, times) and the like: every time -1 */
static void JNICALL psf_fill_unavailable(JNIEnv *env, jclass cls, jlongArray ids, jlongArray times)
{
    (void)cls; (void)ids;
    if (times == NULL)
        return;
    jsize n = (*env)->GetArrayLength(env, times);
    jlong *v = (*env)->GetLongArrayElements(env, times, NULL);
    if (v == NULL)
        return;
    for (jsize i = 0; i < n; i++)
        v[i] = -1;
    (*env)->ReleaseLongArrayElements(env, times, v, 0);
}

static jdouble JNICALL psf_double_unavailable(JNIEnv *env, jobject self)
{
    (void)env; (void)self;
    return -1.0;
}

static jdouble JNICALL psf_double_unavailable_i(JNIEnv *env, jobject self, jint cpu)
{
    (void)env; (void)self; (void)cpu;
    return -1.0;
}

static jboolean JNICALL psf_false(JNIEnv *env, jobject self)
{
    (void)env; (void)self;
    return JNI_FALSE;
}

static jint JNICALL psf_int_one(JNIEnv *env, jobject self)
{
    (void)env; (void)self;
    return 1;
}

static jlong JNICALL psf_startup_time(JNIEnv *env, jobject self)
{
    (void)env; (void)self;
    return EPOCH_S * 1000;
}

static jlong JNICALL psf_uptime(JNIEnv *env, jobject self)
{
    (void)env; (void)self;
    return vclock_tick() / 1000000;
}

static jlong JNICALL psf_memory_total(JNIEnv *env, jobject self)
{
    (void)env; (void)self;
    return MEMORY_TOTAL;
}

static jlong JNICALL psf_memory_free(JNIEnv *env, jobject self)
{
    (void)env; (void)self;
    return MEMORY_FREE;
}

static jint JNICALL psf_load_average(JNIEnv *env, jobject self, jdoubleArray loads, jint n)
{
    (void)env; (void)self; (void)loads; (void)n;
    return -1;
}

/* Runtime.freeMemory: half of the heap (totalMemory, pinned with -Xms = -Xmx). */
typedef jlong(JNICALL *jvm_long_fn)(void);
static jlong JNICALL psf_free_memory(JNIEnv *env, jobject self)
{
    (void)env; (void)self;
    static jvm_long_fn total;
    if (total == NULL)
        total = (jvm_long_fn)dlsym(RTLD_DEFAULT, "JVM_TotalMemory");
    return total != NULL ? total() / 2 : 0;
}

/* MemoryUsage from the JVM: committed becomes the maximum (the initial size
 * when there is none), used half of it. */
typedef jobject(JNICALL *usage_fn)(JNIEnv *, jobject);
typedef jobject(JNICALL *usage_z_fn)(JNIEnv *, jobject, jboolean);
static usage_fn real_pool_usage, real_pool_peak, real_pool_collection;
static usage_z_fn real_memory_usage;

static jobject fix_usage(JNIEnv *env, jobject usage)
{
    if (usage == NULL || (*env)->ExceptionCheck(env))
        return usage;
    jclass k = (*env)->GetObjectClass(env, usage);
    jfieldID used = k ? (*env)->GetFieldID(env, k, "used", "J") : NULL;
    jfieldID committed = used ? (*env)->GetFieldID(env, k, "committed", "J") : NULL;
    jfieldID init = committed ? (*env)->GetFieldID(env, k, "init", "J") : NULL;
    jfieldID max = init ? (*env)->GetFieldID(env, k, "max", "J") : NULL;
    if (max == NULL) {
        (*env)->ExceptionClear(env);
        agent_fail(&g_agent, "cannot find the fields of java.lang.management.MemoryUsage");
        return usage;
    }
    /* the limits are configured (get_score.sh pins them); what is committed and used moves */
    jlong size = (*env)->GetLongField(env, usage, max);
    if (size <= 0)
        size = (*env)->GetLongField(env, usage, init);
    if (size < 0)
        size = 0;
    (*env)->SetLongField(env, usage, committed, size);
    (*env)->SetLongField(env, usage, used, size / 2);
    return usage;
}

static jobject JNICALL psf_memory_usage(JNIEnv *env, jobject self, jboolean heap)
{
    return fix_usage(env, real_memory_usage(env, self, heap));
}

static jobject JNICALL psf_pool_usage(JNIEnv *env, jobject self)
{
    return fix_usage(env, real_pool_usage(env, self));
}

static jobject JNICALL psf_pool_peak(JNIEnv *env, jobject self)
{
    return fix_usage(env, real_pool_peak(env, self));
}

static jobject JNICALL psf_pool_collection(JNIEnv *env, jobject self)
{
    return fix_usage(env, real_pool_collection(env, self));
}

/* What replaces each lazily bound native: class signature, method name, the
 * method's descriptor where JDKs differ in it (else NULL: any), and where
 * `real` is set, the JDK's own function is kept for the wrapper. */
static const struct swap {
    const char *cls, *name, *desc;
    void *replacement;
    void **real;
} swaps[] = {
    {"Ljava/io/UnixFileSystem;", "getLastModifiedTime", NULL, (void *)psf_last_modified, (void **)&real_last_modified},
    {"Ljava/io/UnixFileSystem;", "getLastModifiedTime0", NULL, (void *)psf_last_modified, (void **)&real_last_modified},
    {"Ljava/io/UnixFileSystem;", "getSpace", NULL, (void *)psf_get_space, (void **)&real_get_space},
    {"Ljava/io/UnixFileSystem;", "getSpace0", NULL, (void *)psf_get_space, (void **)&real_get_space},
    {"Lsun/nio/fs/UnixNativeDispatcher;", "stat0", "(JLsun/nio/fs/UnixFileAttributes;)V", (void *)psf_stat0,
     (void **)&real_stat0},
    {"Lsun/nio/fs/UnixNativeDispatcher;", "stat0", "(JLsun/nio/fs/UnixFileAttributes;)I", (void *)psf_stat0_errno,
     (void **)&real_stat0_errno},
    {"Lsun/nio/fs/UnixNativeDispatcher;", "lstat0", NULL, (void *)psf_lstat0, (void **)&real_lstat0},
    {"Lsun/nio/fs/UnixNativeDispatcher;", "fstat", NULL, (void *)psf_fstat, (void **)&real_fstat},
    {"Lsun/nio/fs/UnixNativeDispatcher;", "fstat0", NULL, (void *)psf_fstat, (void **)&real_fstat},
    {"Lsun/nio/fs/UnixNativeDispatcher;", "fstatat0", NULL, (void *)psf_fstatat0, (void **)&real_fstatat0},
    {"Lsun/nio/fs/UnixNativeDispatcher;", "statvfs0", NULL, (void *)psf_statvfs0, (void **)&real_statvfs0},
    {"Ljava/lang/Runtime;", "freeMemory", NULL, (void *)psf_free_memory, NULL},
    {"Lsun/management/MemoryImpl;", "getMemoryUsage0", NULL, (void *)psf_memory_usage, (void **)&real_memory_usage},
    {"Lsun/management/MemoryPoolImpl;", "getUsage0", NULL, (void *)psf_pool_usage, (void **)&real_pool_usage},
    {"Lsun/management/MemoryPoolImpl;", "getPeakUsage0", NULL, (void *)psf_pool_peak, (void **)&real_pool_peak},
    {"Lsun/management/MemoryPoolImpl;", "getCollectionUsage0", NULL, (void *)psf_pool_collection,
     (void **)&real_pool_collection},
    {"Lsun/management/VMManagementImpl;", "getStartupTime", NULL, (void *)psf_startup_time, NULL},
    {"Lsun/management/VMManagementImpl;", "getUptime0", NULL, (void *)psf_uptime, NULL},
    {"Lsun/management/VMManagementImpl;", "getTotalCompileTime", NULL, (void *)psf_long_zero, NULL},
    {"Lsun/management/VMManagementImpl;", "getTotalSafepointTime", NULL, (void *)psf_long_zero, NULL},
    {"Lsun/management/VMManagementImpl;", "getSafepointSyncTime", NULL, (void *)psf_long_zero, NULL},
    {"Lsun/management/VMManagementImpl;", "getSafepointCount", NULL, (void *)psf_long_zero, NULL},
    {"Lsun/management/VMManagementImpl;", "getTotalApplicationNonStoppedTime", NULL, (void *)psf_long_zero, NULL},
    {"Lsun/management/VMManagementImpl;", "getClassLoadingTime", NULL, (void *)psf_long_zero, NULL},
    {"Lsun/management/VMManagementImpl;", "getClassInitializationTime", NULL, (void *)psf_long_zero, NULL},
    {"Lsun/management/VMManagementImpl;", "getClassVerificationTime", NULL, (void *)psf_long_zero, NULL},
    {"Lsun/management/VMManagementImpl;", "isThreadCpuTimeEnabled", NULL, (void *)psf_false, NULL},
    {"Lsun/management/VMManagementImpl;", "getAvailableProcessors", NULL, (void *)psf_int_one, NULL},
    {"Lsun/management/ThreadImpl;", "getThreadTotalCpuTime0", NULL, (void *)psf_long_unavailable_j, NULL},
    {"Lsun/management/ThreadImpl;", "getThreadUserCpuTime0", NULL, (void *)psf_long_unavailable_j, NULL},
    {"Lsun/management/ThreadImpl;", "getThreadTotalCpuTime1", NULL, (void *)psf_fill_unavailable, NULL},
    {"Lsun/management/ThreadImpl;", "getThreadUserCpuTime1", NULL, (void *)psf_fill_unavailable, NULL},
    {"Lsun/management/GarbageCollectorImpl;", "getCollectionTime", NULL, (void *)psf_long_zero, NULL},
    {"Lcom/sun/management/internal/OperatingSystemImpl;", "getProcessCpuTime0", NULL, (void *)psf_long_unavailable, NULL},
    {"Lcom/sun/management/internal/OperatingSystemImpl;", "getProcessCpuLoad0", NULL, (void *)psf_double_unavailable, NULL},
    {"Lcom/sun/management/internal/OperatingSystemImpl;", "getCpuLoad0", NULL, (void *)psf_double_unavailable, NULL},
    {"Lcom/sun/management/internal/OperatingSystemImpl;", "getSingleCpuLoad0", NULL, (void *)psf_double_unavailable_i, NULL},
    {"Lcom/sun/management/internal/OperatingSystemImpl;", "getHostTotalCpuTicks0", NULL, (void *)psf_long_unavailable, NULL},
    {"Lcom/sun/management/internal/OperatingSystemImpl;", "getHostConfiguredCpuCount0", NULL, (void *)psf_int_one, NULL},
    {"Lcom/sun/management/internal/OperatingSystemImpl;", "getHostOnlineCpuCount0", NULL, (void *)psf_int_one, NULL},
    {"Lcom/sun/management/internal/OperatingSystemImpl;", "getCommittedVirtualMemorySize0", NULL, (void *)psf_long_unavailable, NULL},
    {"Lcom/sun/management/internal/OperatingSystemImpl;", "getOpenFileDescriptorCount0", NULL, (void *)psf_long_unavailable, NULL},
    {"Lcom/sun/management/internal/OperatingSystemImpl;", "getTotalMemorySize0", NULL, (void *)psf_memory_total, NULL},
    {"Lcom/sun/management/internal/OperatingSystemImpl;", "getFreeMemorySize0", NULL, (void *)psf_memory_free, NULL},
    {"Lcom/sun/management/internal/OperatingSystemImpl;", "getTotalSwapSpaceSize0", NULL, (void *)psf_long_zero, NULL},
    {"Lcom/sun/management/internal/OperatingSystemImpl;", "getFreeSwapSpaceSize0", NULL, (void *)psf_long_zero, NULL},
};

int pervalues_swap(const char *cls, const char *name, const char *desc, void *address, void **new_address)
{
    for (size_t i = 0; i < sizeof swaps / sizeof swaps[0]; i++)
        if (strcmp(swaps[i].name, name) == 0 && strcmp(swaps[i].cls, cls) == 0 &&
            (swaps[i].desc == NULL || (desc != NULL && strcmp(swaps[i].desc, desc) == 0))) {
            if (swaps[i].real != NULL)
                *swaps[i].real = address;
            *new_address = swaps[i].replacement;
            return 1;
        }
    return 0;
}

int pervalues_named(const char *name)
{
    for (size_t i = 0; i < sizeof swaps / sizeof swaps[0]; i++)
        if (strcmp(swaps[i].name, name) == 0)
            return 1;
    return 0;
}

void pervalues_bind(agent *a, JNIEnv *jni)
{
    JNINativeMethod load[] = {{"getLoadAverage0", "([DI)I", (void *)psf_load_average}};
    jclass k = (*jni)->FindClass(jni, "jdk/internal/misc/Unsafe");
    if (k == NULL || (*jni)->RegisterNatives(jni, k, load, 1) != 0) {
        (*jni)->ExceptionClear(jni);
        agent_fail(a, "cannot re-bind jdk.internal.misc.Unsafe.getLoadAverage0");
    }
}
