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

/* Try to read a record at stream[pos]; on success set body and return the
 * position after it, else return 0. */
static size_t try_record(const uint8_t key[MAC_KEY_BYTES], const uint8_t *s, size_t len, size_t pos,
                         const uint8_t **body, size_t *body_len)
{
    size_t m = sizeof MAGIC - 1;
    if (len - pos < m || memcmp(s + pos, MAGIC, m) != 0)
        return 0;
    size_t p = pos + m, n = 0;
    int digits = 0;
    while (p < len && s[p] >= '0' && s[p] <= '9' && digits < 19) {
        n = n * 10 + (size_t)(s[p] - '0');
        p++;
        digits++;
    }
    if (digits == 0 || p >= len || s[p] != ' ')
        return 0;
    p++;
    if (len - p < 2 * MAC_BYTES + 1 || s[p + 2 * MAC_BYTES] != '\n')
        return 0;
    uint8_t want[MAC_BYTES], got[MAC_BYTES];
    if (hex_decode((const char *)s + p, want, MAC_BYTES) != 0)
        return 0;
    p += 2 * MAC_BYTES + 1;
    if (n > len - p || n > MAC_MAX_BODY)
        return 0;
    if (mac_compute(key, s + p, n, got) != 0 || CRYPTO_memcmp(want, got, MAC_BYTES) != 0)
        return 0;
    *body = s + p;
    *body_len = n;
    return p + n;
}

int mac_find_record(const uint8_t key[MAC_KEY_BYTES], const uint8_t *stream, size_t len,
                    const uint8_t **body, size_t *body_len)
{
    int found = 0;
    for (size_t pos = 0; pos < len;) {
        const uint8_t *b;
        size_t bl;
        size_t next = try_record(key, stream, len, pos, &b, &bl);
        if (next == 0) {
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
