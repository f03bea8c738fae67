/*
 * mac.c - HMAC-SHA256 result records (see mac.h), on OpenSSL's libcrypto.
 */
#include "mac.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

static const char MAGIC[] = "PSF-RESULT 1 ";

int mac_compute(const uint8_t key[MAC_KEY_BYTES], const void *data, size_t len, uint8_t out[MAC_BYTES])
{
    size_t outlen = 0;
    if (EVP_Q_mac(NULL, "HMAC", NULL, "SHA256", NULL, key, MAC_KEY_BYTES, data, len, out, MAC_BYTES, &outlen) == NULL)
        return -1;
    return outlen == MAC_BYTES ? 0 : -1;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int hex_decode(const char *hex, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int hi = hexval((unsigned char)hex[2 * i]), lo = hexval((unsigned char)hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

int mac_key_from_hex(const char *hex, size_t len, uint8_t key[MAC_KEY_BYTES])
{
    while (len > 0 && (hex[0] == ' ' || hex[0] == '\n' || hex[0] == '\t' || hex[0] == '\r')) {
        hex++;
        len--;
    }
    while (len > 0 && (hex[len - 1] == ' ' || hex[len - 1] == '\n' || hex[len - 1] == '\t' || hex[len - 1] == '\r'))
        len--;
    if (len != 2 * MAC_KEY_BYTES)
        return -1;
    return hex_decode(hex, key, MAC_KEY_BYTES);
}

int mac_header(const uint8_t key[MAC_KEY_BYTES], const void *body, size_t len, char *buf)
{
    uint8_t mac[MAC_BYTES];
    if (mac_compute(key, body, len, mac) != 0)
        return -1;
    int n = snprintf(buf, MAC_HEADER_MAX, "%s%zu ", MAGIC, len);
    if (n < 0 || n + 2 * MAC_BYTES + 2 > MAC_HEADER_MAX)
        return -1;
    for (int i = 0; i < MAC_BYTES; i++)
        n += snprintf(buf + n, (size_t)(MAC_HEADER_MAX - n), "%02x", mac[i]);
    buf[n++] = '\n';
    buf[n] = '\0';
    return n;
}

/* What try_record found at a position. */
enum { NO_RECORD, RECORD, OVER_BUDGET };

/*
 * Try to read a record at s[pos]. A header that parses and whose claimed body
 * fits in the stream is a candidate: checking it costs an HMAC over up to len
 * bytes, so it first takes one unit of *budget, and when none is left the
 * answer is OVER_BUDGET without hashing anything. On RECORD, *body and
 * *body_len are set and *next is the position after the record.
 */
static int try_record(const uint8_t key[MAC_KEY_BYTES], const uint8_t *s, size_t len, size_t pos,
                      unsigned *budget, const uint8_t **body, size_t *body_len, size_t *next)
{
    size_t m = sizeof MAGIC - 1;
    if (len - pos < m || memcmp(s + pos, MAGIC, m) != 0)
        return NO_RECORD;
    size_t p = pos + m, n = 0;
    int digits = 0;
    while (p < len && s[p] >= '0' && s[p] <= '9' && digits < 19) {
        n = n * 10 + (size_t)(s[p] - '0');
        p++;
        digits++;
    }
    if (digits == 0 || p >= len || s[p] != ' ')
        return NO_RECORD;
    p++;
    if (len - p < 2 * MAC_BYTES + 1 || s[p + 2 * MAC_BYTES] != '\n')
        return NO_RECORD;
    uint8_t want[MAC_BYTES], got[MAC_BYTES];
    if (hex_decode((const char *)s + p, want, MAC_BYTES) != 0)
        return NO_RECORD;
    p += 2 * MAC_BYTES + 1;
    if (n > len - p || n > MAC_MAX_BODY)
        return NO_RECORD;
    if (*budget == 0)
        return OVER_BUDGET;
    --*budget;
    if (mac_compute(key, s + p, n, got) != 0 || CRYPTO_memcmp(want, got, MAC_BYTES) != 0)
        return NO_RECORD;
    *body = s + p;
    *body_len = n;
    *next = p + n;
    return RECORD;
}

/*
 * Every byte offset is tried, so junk before or after the record (a program's
 * stray output, a few forged headers) does not hide it. Parsing a header is cheap;
 * the MAC check is not, and a stream of back-to-back forged headers each
 * claiming a body that runs to the end of the stream would cost quadratic
 * hashing (about 10^13 bytes for a 64 MiB stream). So at most
 * MAC_MAX_CANDIDATES candidates are checked: the work is bounded by
 * MAC_MAX_CANDIDATES * len bytes of HMAC-SHA256 plus a linear scan, and a
 * stream with more candidates than that has been tampered with and yields no
 * record (-1), whatever came before.
 */
int mac_find_record(const uint8_t key[MAC_KEY_BYTES], const uint8_t *stream, size_t len,
                    const uint8_t **body, size_t *body_len)
{
    int found = 0;
    unsigned budget = MAC_MAX_CANDIDATES;
    for (size_t pos = 0; pos < len;) {
        const uint8_t *b = NULL;
        size_t bl = 0, next = 0;
        int r = try_record(key, stream, len, pos, &budget, &b, &bl, &next);
        if (r == OVER_BUDGET)
            return -1;
        if (r == NO_RECORD) {
            pos++;
            continue;
        }
        if (found++ == 0) {
            *body = b;
            *body_len = bl;
        }
        pos = next;
    }
    return found == 1 ? 0 : found == 0 ? -1 : -2;
}
