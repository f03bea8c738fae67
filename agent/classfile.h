/*
 * classfile.h - a bounds-checked reader for whole .class files.
 *
 * Pure C, built on cpool.h. Used by tests (real javac output), by the fuzz
 * targets and by tools that need a class's methods without starting a JVM.
 * Points into the caller's bytes, which must outlive the classfile.
 */
#ifndef PSF_CLASSFILE_H
#define PSF_CLASSFILE_H

#include "cpool.h"

typedef struct cf_method {
    uint16_t access;        /* ACC_* flags */
    cp_str name;
    cp_str desc;
    const uint8_t *code;    /* Code attribute's bytecode, NULL for abstract/native */
    uint32_t code_len;
    uint16_t max_stack, max_locals;
} cf_method;

typedef struct classfile {
    uint16_t minor, major;
    cpool cp;
    uint16_t access;
    cp_str this_name;       /* internal name, e.g. "pkg/Outer$Inner" */
    cp_str super_name;      /* len 0 for java/lang/Object */
    uint16_t method_count;
    cf_method *methods;     /* owned */
} classfile;

/* 0 on success; -1 with a message in err on any malformed or truncated input
 * (the classfile is then empty and safe to cf_free). */
int cf_parse(classfile *cf, const uint8_t *bytes, size_t len, char *err, size_t errlen);
void cf_free(classfile *cf);

#endif
