/*
 * bulk_impl.h - what the two files of the natives charged by size share and
 * no other file reads: bulk.c (the wrappers and the table of natives) and
 * bulk_bind.c (binding them at VMInit, at ClassPrepare and at
 * NativeMethodBind).
 */
#ifndef PSF_BULK_IMPL_H
#define PSF_BULK_IMPL_H

#include <jni.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum bulk_id {
    CRC_BYTES, CRC_BUFFER, ADLER_BYTES, ADLER_BUFFER,
    DEFL_BB, DEFL_BX, DEFL_XB, DEFL_XX, INFL_BB, INFL_BX, INFL_XB, INFL_XX,
    DEFL_DICT, DEFL_DICT_BUF, INFL_DICT, INFL_DICT_BUF,
    /* bound when their class is prepared (bulk_class_prepared) */
    FIS_READ, FOS_WRITE, RAF_READ, RAF_WRITE, RAF_READ0, RAF_WRITE0, STR_INTERN,
    FD_READ, FD_PREAD, FD_READV, FD_WRITE, FD_PWRITE, FD_WRITEV,
    UFD_READ, UFD_PREAD, UFD_READV, UFD_WRITE, UFD_PWRITE, UFD_WRITEV,
    THROW_FILL, STE_INIT, STE_INIT3, COPY_TRANSFER, COPY_BUFFERED, COPY_DIRECT,
    UND_READ, UND_WRITE, UND_READ0, UND_WRITE0, FC_TRANSFER_TO, FD_TRANSFER_TO, FD_TRANSFER_FROM,
    FS_LIST, FS_LIST0, SW_FETCH, SW_FETCH25, MAP_LOADED, MAP_LOAD, MAP_UNLOAD, MAP_FORCE,
    DEFINE0, DEFINE1, DEFINE2,
    /* wrapped for the scheduler only (sched_io): sockets and selectors */
    SOCK_READ, SOCK_READV, SOCK_WRITE, SOCK_WRITEV, NET_ACCEPT, NET_CONNECT, NET_POLL, NET_POLL_CONNECT, EPOLL_WAIT,
    /* registered by the JDK itself, caught at NativeMethodBind (bulk_native_bound) */
    UNSAFE_COPY, UNSAFE_SWAP, UNSAFE_SET,
    BULK_COUNT
};

/* Where the JDK's own function comes from. */
enum bulk_lib {
    LIB_ZIP,     /* libzip: bound at VMInit (bulk_bind) */
    LIB_JAVA,    /* libjava: bound when the class is prepared (bulk_class_prepared) */
    LIB_NIO,     /* libnio: likewise */
    LIB_JVM      /* libjvm, registered by the JDK: caught at NativeMethodBind */
};

/* One native charged by size: where it is, its wrapper and its library. */
struct bulk_native {
    const char *cls, *name, *sig, *symbol; /* class, method, JNI signature, the library's function */
    void *wrapper;
    enum bulk_lib lib;
    const char *via; /* the class callers name in the invoke, when another (an abstract supertype) */
    int registered;  /* some JDKs register it from the class's initializer, with a function their
                        library does not export: then caught at NativeMethodBind */
};

extern const struct bulk_native bulk_natives[BULK_COUNT]; /* bulk.c */
extern void *bulk_real[BULK_COUNT];           /* the JDK's own function behind each wrapper */
extern _Atomic uint32_t bulk_key[BULK_COUNT];     /* invoke key index + 1, interned at bind */
extern _Atomic uint32_t bulk_via_key[BULK_COUNT]; /* the same through bulk_natives[].via, or 0 */
extern jfieldID bulk_fd_int;                  /* java.io.FileDescriptor.fd (bulk_bind) */
extern jfieldID bulk_throwable_depth;         /* Throwable.depth (bulk_class_prepared) */

/* "pkg.Cls.name(sig)" of native i: its invoke key's text (bulk_bind.c). */
void bulk_key_text(int i, char *text, size_t cap);

#endif
