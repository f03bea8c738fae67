/*
 * json.h - a small JSON tree and its one writer.
 *
 * Output is built as a tree and written at the end, so the key order is
 * decided here (sorted by byte value) and not by the order of the code that
 * fills an object. Strings are escaped per RFC 8259: quote, backslash and
 * control characters are escaped, valid UTF-8 passes through, and a byte that
 * is not part of valid UTF-8 becomes U+FFFD.
 */
#ifndef PSF_JSON_H
#define PSF_JSON_H

#include <stdint.h>
#include <stdio.h>

typedef struct json json;

json *json_object(void);
json *json_array(void);
json *json_string(const char *s);        /* copies s; NULL gives null */
json *json_u64(uint64_t v);
json *json_number(const char *text);     /* a number already formatted, e.g. "12.5" */
json *json_bool(int v);
json *json_null(void);

/* Add key -> val to an object; the object owns val. A key must not be set
 * twice (asserted). */
void json_set(json *obj, const char *key, json *val);

/* Append val to an array, which owns it. */
void json_push(json *arr, json *val);

/* Write v, indented by two spaces per level, keys sorted, plus a newline. */
void json_write(FILE *f, const json *v);

/* Write s as a JSON string literal (with quotes). */
void json_write_string(FILE *f, const char *s);

void json_free(json *v);

#endif
