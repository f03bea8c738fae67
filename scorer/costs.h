/*
 * costs.h - the cost table: loading config/costs.xml-style files and
 * looking up the price of a key.
 *
 * Keys are "opcode:<mnemonic>", "new:<binary class name>",
 * "invoke:<owner.name(descriptor)>", "array:<element type>" and "ldc:class". Prices are
 * micro-units (fixed.h). A table is immutable once loaded; scoring never
 * writes it back.
 */
#ifndef PSF_COSTS_H
#define PSF_COSTS_H

#include <stdint.h>

#include "err.h"
#include "fixed.h"

/* <branch kind="..."> entries: the extra price of a conditional branch. */
enum { BRANCH_TAKEN = 0, BRANCH_MISPREDICTED, BRANCH_KINDS };
/* <call kind>: in the order of the profile's <calls> counts they price */
enum { CALLK_CLOSE = 0, CALLK_FENCE_NATIVE, CALLK_FENCE_ALLOC, CALLK_KINDS };

typedef struct cost_entry {
    char *key;              /* owned: class name, method or element type (no prefix) */
    psf_micro cost;         /* per new / call / allocation */
    psf_micro per_element;  /* arrays, and invokes that price elements (0 if not) */
    int has_per_element;    /* the table gave cost_per_element (an invoke's elements are priced) */
    long line;              /* where the entry is, for messages */
} cost_entry;

typedef struct cost_list {
    cost_entry *v;          /* owned, sorted by key (strcmp) */
    size_t n, cap;
} cost_list;

typedef struct cost_table {
    char *path;             /* owned: as given on the command line; NULL for the built-in table */
    char sha256[65];        /* of the bytes parsed; "" for the built-in table */
    char *unit;             /* owned: "bytecodes" or "cycles" */
    int calibrated;         /* calibrated="true" */
    int builtin;            /* the table used without --costs: opcodes 1, everything else 0, nothing missing */

    /* Calibration metadata: set when the table carries it (always when calibrated). */
    char *cpu_model;        /* owned */
    uint64_t tsc_hz;        /* timestamp-counter ticks per second */
    char *jdk_version;      /* owned */
    char *jvm_flags;        /* owned */
    char *date;             /* owned */
    char *fit_r2;           /* owned: as written, e.g. "0.9981" */
    int isolated_core;
    /* What identifies the CPU that measured the table (optional in any table). */
    char *cpu_vendor;       /* owned; NULL when absent */
    long cpu_family;        /* -1 when absent */
    long cpu_model_number;  /* -1 when absent */
    long cpu_stepping;      /* -1 when absent */

    psf_micro default_cost;     /* charged for a missing key */
    unsigned char has_opcode[256];
    psf_micro opcode[256];      /* valid where has_opcode */
    cost_list arrays, news, invokes;
    unsigned char has_branch[BRANCH_KINDS]; /* <branch kind="..."> present */
    psf_micro branch[BRANCH_KINDS];         /* extra per taken / mispredicted conditional branch */
    unsigned char has_call[CALLK_KINDS];    /* <call kind="..."> present */
    psf_micro call[CALLK_KINDS];            /* extra per unit of the profile's <calls close>,
                                             * fence_native and fence_alloc */
    int has_ldc_class;          /* <ldc constant="class"> present */
    psf_micro ldc_class;        /* extra per class constant an ldc or ldc_w loaded */
} cost_table;

/* Name of a branch kind as the table and the keys write it. */
const char *costs_branch_kind(int kind);
const char *costs_call_kind(int kind);

/* Fill t with the built-in table used when no --costs is given. */
void costs_builtin(cost_table *t);

/*
 * Load and check a table from a file. Checks, in order: readable, well-formed
 * XML, root <costs>, every cost* attribute a valid price (clear message with
 * its line), the XSD, then what XSD cannot say (mnemonics, calibration
 * attributes, duplicates). On failure t is left empty (safe to free) and
 * err has status ST_BAD_INPUT and a "FILE:LINE: ..." message.
 */
int costs_load_file(cost_table *t, const char *path, psf_err *err);

/* The same from bytes in memory; `name` stands for the file in messages. */
int costs_load_memory(cost_table *t, const char *name,
                      const unsigned char *bytes, size_t len, psf_err *err);

/* Release what t owns; t may be zeroed or partly filled. */
void costs_free(cost_table *t);

/* The entry for key in a list, or NULL. */
const cost_entry *costs_find(const cost_list *l, const char *key);

/* 1 for the eight Java primitive type names. */
int costs_is_primitive(const char *type);

#endif
