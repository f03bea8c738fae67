/*
 * keys.h - the interned dependency keys (keys.c): a kind (new, invoke,
 * invokedynamic, array, ldc) and a name, each with a dense index the
 * per-bytecode path counts with. Pure C: no JVM (tests/unit/test_keys.c).
 */
#ifndef PSF_KEYS_H
#define PSF_KEYS_H

#include <stdint.h>

/* Kinds of dependency keys (what a constant-pool operand names). KEY_LDC: an
 * ldc or ldc_w that loads a class constant (HotSpot's interpreter calls into
 * the VM for it at every execution; other constants load inline). */
enum key_kind { KEY_NEW = 0, KEY_INVOKE, KEY_INDY, KEY_ARRAY, KEY_LDC, KEY_KINDS };

/* Interned dependency keys ("new:java.lang.String", ...). */
typedef struct key_table {
    char **names;           /* owned strings; the key text without the kind prefix */
    uint8_t *kind;          /* enum key_kind */
    uint32_t count, cap;
    uint32_t *slots;        /* open addressing: key index + 1, 0 = empty */
    uint32_t nslots;
} key_table;

uint32_t keys_intern(key_table *t, enum key_kind kind, const char *name); /* index + 1, 0 on OOM */
uint32_t keys_find(const key_table *t, enum key_kind kind, const char *name); /* index + 1, 0 when absent */
void keys_free(key_table *t);

#endif
