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
    /* Where the Code attribute's parts lie in the input (for rewriters):
     * all zero for a method without code. */
    size_t code_attr_off;       /* offset of the Code attribute's attribute_name_index */
    uint32_t code_attr_size;    /* its whole size: 6 + attribute_length */
    const uint8_t *exc;         /* exception_table: exc_count entries of 8 bytes */
    uint16_t exc_count;
    const uint8_t *code_attrs;  /* the Code attribute's own attributes, after their count */
    uint32_t code_attrs_len;    /* bytes of code_attrs */
    uint16_t code_attr_count;
} cf_method;

/* One field_info: its flags, name and descriptor (its attributes are
 * checked and skipped). */
typedef struct cf_field {
    uint16_t access;        /* ACC_* flags */
    cp_str name;
    cp_str desc;
} cf_field;

typedef struct classfile {
    uint16_t minor, major;
    cpool cp;
    size_t cp_end;          /* offset of the first byte after the constant pool (access_flags) */
    uint16_t access;
    cp_str this_name;       /* internal name, e.g. "pkg/Outer$Inner" */
    cp_str super_name;      /* len 0 for java/lang/Object */
    uint16_t field_count;
    cf_field *fields;       /* owned */
    uint16_t method_count;
    cf_method *methods;     /* owned */
} classfile;

/* 0 on success; -1 with a message in err on any malformed or truncated input
 * (the classfile is then empty and safe to cf_free). */
int cf_parse(classfile *cf, const uint8_t *bytes, size_t len, char *err, size_t errlen);
void cf_free(classfile *cf);

/* One LineNumberTable entry: code offset where a line starts, its line. */
typedef struct cf_line {
    uint32_t start;
    uint32_t line;
} cf_line;

/*
 * The source line of each offset of a method's code, both engines' rule
 * (the step engine reads the entries through JVMTI, lines.c; the fast one
 * from the class file, cf_offset_lines): an offset belongs to the entry
 * with the greatest start at or below it, the first such entry in table
 * order when several start there; offsets before every entry are line 0.
 * Fills line[0..code_len). Returns 0, or -1 when out of memory (line is
 * then all 0).
 */
int cf_lines_apply(uint32_t *line, uint32_t code_len, const cf_line *t, uint32_t n);

/*
 * The same from method m's own LineNumberTable attributes in the class
 * file cf (all of them, in order, as the JVM reads them): line[0..code_len)
 * all 0 for a method without a table. Returns 0, or -1 when out of memory
 * or when a table is malformed (line is then all 0).
 */
int cf_offset_lines(const classfile *cf, const cf_method *m, uint32_t *line);

#endif
