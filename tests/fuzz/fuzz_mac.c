/*
 * fuzz_mac.c - libFuzzer target for mac_find_record (common/mac.c), which
 * get_score.sh's receiver runs over a stream the submission may have written
 * into.
 *
 * The key is fixed (FUZZ_KEY below; the seeds in tests/fuzz/corpus/mac/ hold
 * records signed with it, so mutations start from authentic records). The
 * first input byte picks a mode:
 *   0 (mod 4): the rest of the input is the stream as it is;
 *   1: the harness signs a body cut from the input and splices the genuine
 *      record between a prefix and a suffix that are also from the input:
 *      at least one record must then be found, and a reported body must be
 *      the signed one or another authentic one;
 *   2: the same record twice: never a single record;
 *   3: a genuine header whose body is cut short by one byte.
 * Whenever a body is reported it must lie in the stream and carry a valid
 * MAC (so a cut record is accepted only if the suffix happens to complete
 * it).
 */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mac.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t FUZZ_KEY[MAC_KEY_BYTES] = {
    0x50, 0x53, 0x46, 0x2d, 0x66, 0x75, 0x7a, 0x7a, 0x2d, 0x6b, 0x65, 0x79, 0x2d, 0x30, 0x31, 0x21,
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
};

static void need(int ok)
{
    if (!ok)
        abort();
}

/* A reported body lies in the stream and its MAC is one we made with the key:
 * recompute the header and compare it with the bytes before the body. */
static void check_body(const uint8_t *s, size_t len, const uint8_t *body, size_t body_len)
{
    char hdr[MAC_HEADER_MAX];
    need(body >= s && body <= s + len && body_len <= (size_t)(s + len - body));
    int n = mac_header(FUZZ_KEY, body, body_len, hdr);
    need(n > 0 && (size_t)n <= (size_t)(body - s));
    /* The length may be written with leading zeros and the hex in either
     * case, so compare only the MAC digits, ignoring case. */
    const uint8_t *got = body - 2 * MAC_BYTES - 1;
    const char *want = hdr + n - 2 * MAC_BYTES - 1;
    for (int i = 0; i < 2 * MAC_BYTES; i++)
        need(tolower(got[i]) == want[i]);
    need(body[-1] == '\n');
}

/* Headers in s: each starts with the magic. More than MAC_MAX_CANDIDATES
 * of them to check is tampering (mac.h), and then even an authentic record
 * is not believed. */
static size_t magic_count(const uint8_t *s, size_t len)
{
    static const char magic[] = "PSF-RESULT 1 ";
    size_t m = sizeof magic - 1, n = 0;
    for (size_t i = 0; i + m <= len; i++)
        n += memcmp(s + i, magic, m) == 0;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *body = NULL;
    size_t body_len = 0;
    int rc;

    if (size == 0)
        return 0;
    unsigned mode = data[0] & 3;
    data++;
    size--;

    if (mode == 0) {
        rc = mac_find_record(FUZZ_KEY, data, size, &body, &body_len);
        need(rc == 0 || rc == -1 || rc == -2);
        if (rc == 0)
            check_body(data, size, body, body_len);
        return 0;
    }

    /* prefix | body | suffix, cut at two positions taken from the input. */
    if (size < 2)
        return 0;
    size_t a = data[0] % (size - 1), b = data[1];
    data += 2;
    size -= 2;
    if (a > size)
        a = size;
    if (b > size - a)
        b = size - a;
    const uint8_t *pre = data, *sig = data + a, *suf = data + a + b;
    size_t npre = a, nsig = b, nsuf = size - a - b;

    char hdr[MAC_HEADER_MAX];
    int nh = mac_header(FUZZ_KEY, sig, nsig, hdr);
    need(nh > 0 && nh < MAC_HEADER_MAX);
    size_t copies = mode == 2 ? 2 : 1;
    size_t cut = mode == 3 && nsig > 0 ? 1 : 0;
    size_t len = npre + copies * ((size_t)nh + nsig) - cut + nsuf;
    uint8_t *s = malloc(len ? len : 1);
    need(s != NULL);
    size_t pos = 0;
    memcpy(s + pos, pre, npre);
    pos += npre;
    for (size_t c = 0; c < copies; c++) {
        memcpy(s + pos, hdr, (size_t)nh);
        pos += (size_t)nh;
        memcpy(s + pos, sig, nsig - cut);
        pos += nsig - cut;
    }
    memcpy(s + pos, suf, nsuf);
    pos += nsuf;
    need(pos == len);

    rc = mac_find_record(FUZZ_KEY, s, len, &body, &body_len);
    need(rc == 0 || rc == -1 || rc == -2);
    if (rc == 0)
        check_body(s, len, body, body_len);
    if (mode == 1)
        need(rc != -1 || magic_count(s, len) > MAC_MAX_CANDIDATES); /* the genuine record cannot be missed */
    if (mode == 2) {
        /* Finding one copy means finding the other: the scan resumes right
         * after the first copy, at the second's header, and it can only skip
         * the first by consuming an earlier authentic record. */
        const uint8_t *b1 = s + npre + (size_t)nh, *b2 = b1 + nsig + (size_t)nh;
        need(rc != 0 || (body != b1 && body != b2));
    }
    free(s);
    return 0;
}
