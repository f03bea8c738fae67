/*
 * probename.h - the fast engine's probe class under a name drawn for the
 * run (agent/fast/probe/java/lang/Probe.java, fast.c). Pure: no JVM.
 *
 * The class is compiled as java/lang/Probe and defined as java/lang/Probe
 * followed by PROBE_NAME_RANDOM characters: no name the program can know
 * in advance finds it, and its length is the same in every run. The last
 * PROBE_NAME_FIT of them are chosen so that the binary name's Java
 * String.hashCode is PROBE_NAME_HASH in every run: a hash table that holds
 * the name (a class loader's lock map) puts it in the same bucket, and
 * what the program's own lookups cost does not depend on the draw.
 */
#ifndef PSF_PROBENAME_H
#define PSF_PROBENAME_H

#include <stddef.h>
#include <stdint.h>

#define PROBE_NAME_COMPILED "java/lang/Probe"
#define PROBE_NAME_RANDOM 20
#define PROBE_NAME_FIT 7
#define PROBE_NAME_LEN (sizeof PROBE_NAME_COMPILED - 1 + PROBE_NAME_RANDOM)
/* String.hashCode of every drawn binary name ("java.lang.Probe" + 20 characters) */
#define PROBE_NAME_HASH ((int32_t)0x50534650) /* "PSFP" */

/* Java's String.hashCode of the binary name of an internal name ('/' read as '.'), ASCII. */
int32_t probe_name_hash(const char *internal);

/*
 * The internal name for the random bytes `rnd` (PROBE_NAME_RANDOM of
 * them, from the kernel): PROBE_NAME_COMPILED, PROBE_NAME_RANDOM -
 * PROBE_NAME_FIT letters and digits, then PROBE_NAME_FIT characters of
 * '`'..'~' that bring the hash to PROBE_NAME_HASH. out holds
 * PROBE_NAME_LEN + 1 bytes.
 */
void probe_name_make(const uint8_t rnd[PROBE_NAME_RANDOM], char out[PROBE_NAME_LEN + 1]);

/*
 * A copy of the class file `in` whose constant pool names class `from`
 * as `to` instead: a Utf8 entry equal to `from` becomes `to`, and every
 * "L<from>;" inside one (descriptors, signatures) becomes "L<to>;"; the
 * rest of the file is copied as it is (it refers to the pool by index).
 * 0 with *out (malloc'd, the caller frees it) and *out_len, or -1 with a
 * message in err when the file is not a class file or does not name
 * `from` as a class.
 */
int probe_class_rename(const uint8_t *in, size_t len, const char *from, const char *to, uint8_t **out,
                       size_t *out_len, char *err, size_t errlen);

#endif
