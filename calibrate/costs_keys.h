/*
 * costs_keys.h - the dependency keys a calibrated table prices: array
 * element types and native or intrinsic methods (keys as the counting agent
 * writes them, docs/profile-format.md).
 */
#ifndef PSF_COSTS_KEYS_H
#define PSF_COSTS_KEYS_H

#include <stddef.h>

extern const char *const costs_array_types[];     /* 8 primitives, then "reference" */
extern const size_t costs_n_array_types;
extern const char *const costs_priced_methods[];  /* owner.name(descriptor) */
extern const size_t costs_n_priced_methods;

/* 1 for a priced method that is not native: its work is its own bytecodes,
 * which are counted, and its price an extra that may be 0 (String.hashCode). */
int costs_runs_bytecode(const char *method);

/* 1 for the eight Java primitive type names. */
int costs_is_primitive_type(const char *type);

#endif
