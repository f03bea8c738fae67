/*
 * mutf8.c - modified UTF-8 to standard UTF-8 (see mutf8.h).
 */
#include "mutf8.h"

#include <stdint.h>

typedef struct sink {
    char *out;
    size_t cap, n;
} sink;

static void put_byte(sink *s, unsigned char c)
{
    if (s->n + 1 < s->cap)
        s->out[s->n] = (char)c;
    s->n++;
}

static void put_cp(sink *s, uint32_t cp)
{
    if (cp < 0x80) {
        put_byte(s, (unsigned char)cp);
    } else if (cp < 0x800) {
        put_byte(s, (unsigned char)(0xC0 | cp >> 6));
        put_byte(s, (unsigned char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        put_byte(s, (unsigned char)(0xE0 | cp >> 12));
        put_byte(s, (unsigned char)(0x80 | ((cp >> 6) & 0x3F)));
        put_byte(s, (unsigned char)(0x80 | (cp & 0x3F)));
    } else {
        put_byte(s, (unsigned char)(0xF0 | cp >> 18));
        put_byte(s, (unsigned char)(0x80 | ((cp >> 12) & 0x3F)));
        put_byte(s, (unsigned char)(0x80 | ((cp >> 6) & 0x3F)));
        put_byte(s, (unsigned char)(0x80 | (cp & 0x3F)));
    }
}

/* Decode one 1-3 byte sequence at in[*i]; returns the code point, or
 * UINT32_MAX when malformed (and advances past one byte). */
static uint32_t decode(const unsigned char *in, size_t len, size_t *i)
{
    unsigned char c = in[*i];
    if (c < 0x80) {
        (*i)++;
        return c;
    }
    if ((c & 0xE0) == 0xC0 && *i + 1 < len && (in[*i + 1] & 0xC0) == 0x80) {
        uint32_t cp = (uint32_t)(c & 0x1F) << 6 | (in[*i + 1] & 0x3F);
        *i += 2;
        return cp;
    }
    if ((c & 0xF0) == 0xE0 && *i + 2 < len && (in[*i + 1] & 0xC0) == 0x80 && (in[*i + 2] & 0xC0) == 0x80) {
        uint32_t cp = (uint32_t)(c & 0x0F) << 12 | (uint32_t)(in[*i + 1] & 0x3F) << 6 | (in[*i + 2] & 0x3F);
        *i += 3;
        return cp;
    }
    (*i)++;
    return UINT32_MAX;
}

static int xml_char(uint32_t cp)
{
    return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
           (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
}

size_t mutf8_to_utf8(const char *in_, size_t len, char *out, size_t cap)
{
    const unsigned char *in = (const unsigned char *)in_;
    sink s = {out, cap, 0};
    for (size_t i = 0; i < len;) {
        uint32_t cp = decode(in, len, &i);
        if (cp >= 0xD800 && cp <= 0xDBFF && i < len) {
            size_t j = i;
            uint32_t lo = decode(in, len, &j);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                i = j;
            }
        }
        put_cp(&s, xml_char(cp) ? cp : 0xFFFD);
    }
    if (cap > 0)
        out[s.n < cap ? s.n : cap - 1] = '\0';
    return s.n;
}
