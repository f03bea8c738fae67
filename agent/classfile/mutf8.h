/*
 * mutf8.h - JVM "modified UTF-8" to standard UTF-8.
 *
 * JVMTI returns names in modified UTF-8: NUL is written as C0 80 and
 * characters beyond U+FFFF as two three-byte surrogates. XML (libxml2) needs
 * standard UTF-8, so every name goes through mutf8_to_utf8 before it is
 * written. Pure C.
 */
#ifndef PSF_MUTF8_H
#define PSF_MUTF8_H

#include <stddef.h>

/*
 * Convert in[0..len) into out (cap bytes, NUL-terminated when cap > 0).
 * Surrogate pairs become one four-byte sequence; NUL, lone surrogates,
 * control characters XML cannot hold and malformed bytes become U+FFFD.
 * Returns the length the whole result needs (excluding the NUL), like
 * snprintf; the result is never longer than 2 * len.
 */
size_t mutf8_to_utf8(const char *in, size_t len, char *out, size_t cap);

#endif
