/*
 * json.h - what psf-score adds to jansson for its JSON output: numbers kept
 * exact, strings from arbitrary bytes, and the one writer.
 *
 * A document is a jansson tree (json_object, json_object_set_new,
 * json_array_append_new, json_boolean, json_null), built completely and
 * written at the end by psf_json_write: keys sorted by byte value at every
 * level (not in the order the code filled an object), two spaces of indent
 * per level, a newline at the end. jansson escapes the strings (RFC 8259).
 *
 * Numbers are exact. jansson keeps an integer as json_int_t (long long)
 * and any other number as a double, which would round a count above
 * LLONG_MAX and a fixed-point decimal such as 0.000001. So
 * psf_json_u64 makes a jansson integer when the count fits one, and a
 * count above LLONG_MAX, like every decimal from psf_json_number, is kept
 * as its own text: a jansson string of that text behind one NUL byte, a
 * tag that no string from psf_json_string can carry (C strings have no
 * NUL). psf_json_write writes the text in place of such a string, so
 * 18446744073709551615 and 12.5 come out as written, as numbers.
 */
#ifndef PSF_JSON_H
#define PSF_JSON_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

/* A JSON string of s, or null when s is NULL. Bytes that are not valid
 * UTF-8 become U+FFFD each, so any C string (a path, a label from the
 * command line) gives a string jansson accepts. */
json_t *psf_json_string(const char *s);

/* The number v, exactly (a jansson integer when v <= LLONG_MAX). */
json_t *psf_json_u64(uint64_t v);

/* A number already formatted as digits with at most one '.' ("12.5",
 * "0.000001"), written exactly as given; NULL gives null. Text of any other
 * form is not a JSON number this writer can vouch for: it becomes a string. */
json_t *psf_json_number(const char *text);

/* Write v, keys sorted, indented by two spaces, plus a newline. Returns 0,
 * or -1 (nothing written) when jansson cannot encode it. */
int psf_json_write(FILE *f, const json_t *v);

/* Route jansson's allocations through xmalloc/free (err.h): a scorer out of
 * memory exits 70 there, and no constructor returns NULL for lack of it.
 * Call once, before the first jansson call. */
void psf_json_init(void);

#endif
