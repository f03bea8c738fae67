/*
 * test_probename.c - unit tests for agent/classfile/probename.c: the probe class's
 * name drawn for a run, and its class file renamed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "probename.h"

/* Java's String.hashCode, by hand: "abc" is 97*31^2 + 98*31 + 99 = 96354;
 * "a/b" hashes as "a.b": 97*961 + 46*31 + 98 = 94741. */
static void test_hash_is_javas(void **state)
{
    (void)state;
    assert_int_equal(probe_name_hash("abc"), 96354);
    assert_int_equal(probe_name_hash("a/b"), 94741);
    assert_int_equal(probe_name_hash(""), 0);
    /* wraps around as Java's int does: 31^7 = 27512614111 = 6 * 2^32 + 1742810335 */
    assert_int_equal(probe_name_hash("\001"), 1);
    assert_int_equal((uint32_t)probe_name_hash("\002zzzzzzz") - (uint32_t)probe_name_hash("\001zzzzzzz"), 1742810335u);
}

/* Every draw: the fixed prefix, the fixed length, characters a class name may hold, the fixed hash. */
static void test_names_drawn(void **state)
{
    (void)state;
    char first[PROBE_NAME_LEN + 1] = "";
    for (unsigned seed = 0; seed < 2000; seed++) {
        uint8_t rnd[PROBE_NAME_RANDOM];
        uint32_t x = seed * 2654435761u + 1;
        for (size_t i = 0; i < sizeof rnd; i++) {
            x = x * 1103515245u + 12345u;
            rnd[i] = (uint8_t)(x >> 23);
        }
        if (seed == 1999)
            memset(rnd, 0xff, sizeof rnd);
        char name[PROBE_NAME_LEN + 1];
        memset(name, 'X', sizeof name);
        probe_name_make(rnd, name);
        assert_int_equal(strlen(name), PROBE_NAME_LEN);
        assert_int_equal(strlen(name), strlen("java/lang/Probe") + 20);
        assert_memory_equal(name, "java/lang/Probe", 15);
        for (size_t i = 15; i < PROBE_NAME_LEN; i++)
            if (name[i] <= ' ' || name[i] > '~' || strchr(".;[/<>", name[i]) != NULL)
                fail_msg("draw %u: character %zu of %s cannot be in a class name", seed, i, name);
        if (probe_name_hash(name) != PROBE_NAME_HASH)
            fail_msg("draw %u: %s hashes to %d", seed, name, (int)probe_name_hash(name));
        if (seed == 0)
            strcpy(first, name);
        else if (strcmp(first, name) == 0)
            fail_msg("draw %u gave draw 0's name %s", seed, name);
    }
}

/*
 * A class file by hand: magic, version, 7 pool slots (a/B as a name, a
 * descriptor naming it twice, a/Bc which is another class, a Long taking
 * two slots, a Class entry), then the rest of the file.
 */
static const uint8_t klass[] = {
    0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 55, 0, 7,
    1, 0, 3, 'a', '/', 'B',                                                            /* #1 */
    1, 0, 14, '(', '[', 'L', 'a', '/', 'B', ';', 'L', 'a', '/', 'B', ';', ')', 'V',     /* #2 */
    1, 0, 6, 'L', 'a', '/', 'B', 'c', ';',                                             /* #3 */
    5, 0, 0, 0, 0, 0, 0, 0, 42,                                                       /* #4, #5 */
    7, 0, 1,                                                                           /* #6 */
    0, 0x21, 0, 6, 0, 0, 0, 0};

static void test_rename(void **state)
{
    (void)state;
    static const uint8_t want[] = {
        0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 55, 0, 7,
        1, 0, 5, 'x', '/', 'Y', 'z', 'w',
        1, 0, 18, '(', '[', 'L', 'x', '/', 'Y', 'z', 'w', ';', 'L', 'x', '/', 'Y', 'z', 'w', ';', ')', 'V',
        1, 0, 6, 'L', 'a', '/', 'B', 'c', ';',
        5, 0, 0, 0, 0, 0, 0, 0, 42,
        7, 0, 1,
        0, 0x21, 0, 6, 0, 0, 0, 0};
    uint8_t *out = NULL;
    size_t n = 0;
    char err[128] = "";
    if (probe_class_rename(klass, sizeof klass, "a/B", "x/Yzw", &out, &n, err, sizeof err) != 0)
        fail_msg("rename refused: %s", err);
    assert_int_equal(n, sizeof want);
    assert_memory_equal(out, want, sizeof want);
    free(out);
    /* a shorter name shrinks the entries the same way */
    if (probe_class_rename(want, sizeof want, "x/Yzw", "a/B", &out, &n, err, sizeof err) != 0)
        fail_msg("rename back refused: %s", err);
    assert_int_equal(n, sizeof klass);
    assert_memory_equal(out, klass, sizeof klass);
    free(out);
}

static void test_rename_refused(void **state)
{
    (void)state;
    uint8_t *out = (uint8_t *)"";
    size_t n = 1;
    char err[128] = "";
    assert_int_equal(probe_class_rename(klass, sizeof klass, "a/Bc", "x/Y", &out, &n, err, sizeof err), -1);
    assert_null(out);
    assert_int_equal(n, 0);
    assert_string_equal(err, "the class file does not name a/Bc");
    assert_int_equal(probe_class_rename(klass, 30, "a/B", "x/Y", &out, &n, err, sizeof err), -1);
    assert_string_equal(err, "the constant pool is truncated");
    uint8_t bad[sizeof klass];
    memcpy(bad, klass, sizeof bad);
    bad[0] = 0;
    assert_int_equal(probe_class_rename(bad, sizeof bad, "a/B", "x/Y", &out, &n, err, sizeof err), -1);
    assert_string_equal(err, "not a class file");
    memcpy(bad, klass, sizeof bad);
    bad[51] = 2; /* #6's tag: none such */
    assert_int_equal(probe_class_rename(bad, sizeof bad, "a/B", "x/Y", &out, &n, err, sizeof err), -1);
    assert_string_equal(err, "constant 6 has an unknown tag 2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_is_javas),
        cmocka_unit_test(test_names_drawn),
        cmocka_unit_test(test_rename),
        cmocka_unit_test(test_rename_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
