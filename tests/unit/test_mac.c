/* Unit tests for common/mac.c: authenticated result records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "mac.h"

static uint8_t key[MAC_KEY_BYTES];

static int setup(void **state)
{
    (void)state;
    for (int i = 0; i < MAC_KEY_BYTES; i++)
        key[i] = (uint8_t)i;
    return 0;
}

/* Known answer from an independent implementation (Python's hmac module). */
static void mac_compute__known_vector__matches(void **state)
{
    (void)state;
    uint8_t out[MAC_BYTES];
    assert_int_equal(mac_compute(key, "<psf-profile/>", 14, out), 0);
    char hex[65];
    for (int i = 0; i < MAC_BYTES; i++)
        snprintf(hex + 2 * i, 3, "%02x", out[i]);
    assert_string_equal(hex, "3a29a2d3c801e8d9a0648017f2621aaa8d547ea36fa930946161011fd486a56f");
}

static size_t make_record(char *buf, const char *body)
{
    int n = mac_header(key, body, strlen(body), buf);
    assert_true(n > 0);
    memcpy(buf + n, body, strlen(body));
    return (size_t)n + strlen(body);
}

static void mac_find_record__amid_garbage__found(void **state)
{
    (void)state;
    char stream[1024];
    size_t n = (size_t)sprintf(stream, "PSF-RESULT 1 5 %064d\nfake!{\"score\":1}", 0);
    n += make_record(stream + n, "<psf-profile status=\"ok\"/>");
    n += (size_t)sprintf(stream + n, "trailing PSF-RESULT 1 9");
    const uint8_t *body;
    size_t len;
    assert_int_equal(mac_find_record(key, (const uint8_t *)stream, n, &body, &len), 0);
    assert_int_equal(len, 26);
    assert_memory_equal(body, "<psf-profile status=\"ok\"/>", 26);
}

static void mac_find_record__tampered_body__rejected(void **state)
{
    (void)state;
    char stream[512];
    size_t n = make_record(stream, "<psf-profile work=\"100\"/>");
    stream[n - 6] = '9'; /* 100 -> 900 */
    const uint8_t *body;
    size_t len;
    assert_int_equal(mac_find_record(key, (const uint8_t *)stream, n, &body, &len), -1);
}

static void mac_find_record__wrong_key__rejected(void **state)
{
    (void)state;
    char stream[512];
    size_t n = make_record(stream, "<x/>");
    uint8_t other[MAC_KEY_BYTES];
    memcpy(other, key, sizeof other);
    other[0] ^= 1;
    const uint8_t *body;
    size_t len;
    assert_int_equal(mac_find_record(other, (const uint8_t *)stream, n, &body, &len), -1);
}

static void mac_find_record__two_records__rejected(void **state)
{
    (void)state;
    char stream[512];
    size_t n = make_record(stream, "<a/>");
    n += make_record(stream + n, "<b/>");
    const uint8_t *body;
    size_t len;
    assert_int_equal(mac_find_record(key, (const uint8_t *)stream, n, &body, &len), -2);
}

static void mac_find_record__every_truncation__never_found(void **state)
{
    (void)state;
    char stream[512];
    size_t n = make_record(stream, "<psf-profile/>");
    const uint8_t *body;
    size_t len;
    for (size_t cut = 0; cut < n; cut++)
        assert_int_equal(mac_find_record(key, (const uint8_t *)stream, cut, &body, &len), -1);
    assert_int_equal(mac_find_record(key, (const uint8_t *)stream, n, &body, &len), 0);
}

static void mac_find_record__huge_length__rejected(void **state)
{
    (void)state;
    char stream[256];
    size_t n = (size_t)sprintf(stream, "PSF-RESULT 1 99999999999999999999999 %064d\n<x/>", 0);
    const uint8_t *body;
    size_t len;
    assert_int_equal(mac_find_record(key, (const uint8_t *)stream, n, &body, &len), -1);
}

static void mac_key_from_hex__forms__parsed_or_rejected(void **state)
{
    (void)state;
    uint8_t k[MAC_KEY_BYTES];
    const char *good = "000102030405060708090a0b0c0d0e0f101112131415161718191A1B1C1D1E1F\n";
    assert_int_equal(mac_key_from_hex(good, strlen(good), k), 0);
    assert_memory_equal(k, key, MAC_KEY_BYTES);
    assert_int_equal(mac_key_from_hex(good, 63, k), -1);
    assert_int_equal(mac_key_from_hex("zz0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", 64, k), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mac_compute__known_vector__matches),
        cmocka_unit_test(mac_find_record__amid_garbage__found),
        cmocka_unit_test(mac_find_record__tampered_body__rejected),
        cmocka_unit_test(mac_find_record__wrong_key__rejected),
        cmocka_unit_test(mac_find_record__two_records__rejected),
        cmocka_unit_test(mac_find_record__every_truncation__never_found),
        cmocka_unit_test(mac_find_record__huge_length__rejected),
        cmocka_unit_test(mac_key_from_hex__forms__parsed_or_rejected),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
