/* Unit tests for agent/profile/keys.c: interning dependency keys, and finding them
 * without interning (vmentry.c asks whether a key was ever counted). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "keys.h"

static void keys_find__empty_table__absent(void **state)
{
    (void)state;
    key_table t;
    memset(&t, 0, sizeof t);
    assert_int_equal(keys_find(&t, KEY_INVOKE, "java.lang.Object.hashCode()I"), 0);
    keys_free(&t);
}

static void keys_find__interned__same_index_as_intern(void **state)
{
    (void)state;
    key_table t;
    memset(&t, 0, sizeof t);
    uint32_t a = keys_intern(&t, KEY_INVOKE, "java.lang.Object.hashCode()I");
    uint32_t b = keys_intern(&t, KEY_NEW, "java.lang.Object");
    assert_int_equal(a, 1);
    assert_int_equal(b, 2);
    assert_int_equal(keys_find(&t, KEY_INVOKE, "java.lang.Object.hashCode()I"), a);
    assert_int_equal(keys_find(&t, KEY_NEW, "java.lang.Object"), b);
    assert_int_equal(t.count, 2); /* finding interns nothing */
    keys_free(&t);
}

static void keys_find__other_kind_or_name__absent(void **state)
{
    (void)state;
    key_table t;
    memset(&t, 0, sizeof t);
    keys_intern(&t, KEY_INVOKE, "java.lang.System.identityHashCode(Ljava/lang/Object;)I");
    /* the same text as another kind is another key */
    assert_int_equal(keys_find(&t, KEY_INDY, "java.lang.System.identityHashCode(Ljava/lang/Object;)I"), 0);
    assert_int_equal(keys_find(&t, KEY_INVOKE, "java.lang.System.identityHashCode"), 0);
    assert_int_equal(t.count, 1);
    keys_free(&t);
}

/* 1000 keys: the slot table grows (from 256 slots) several times, and
 * every key is still found at the index interning gave it */
static void keys_find__after_growth__every_key_found(void **state)
{
    (void)state;
    key_table t;
    memset(&t, 0, sizeof t);
    char name[64];
    for (uint32_t i = 0; i < 1000; i++) {
        snprintf(name, sizeof name, "pkg.C%u.m()V", i);
        assert_int_equal(keys_intern(&t, KEY_INVOKE, name), i + 1);
    }
    for (uint32_t i = 0; i < 1000; i++) {
        snprintf(name, sizeof name, "pkg.C%u.m()V", i);
        assert_int_equal(keys_find(&t, KEY_INVOKE, name), i + 1);
    }
    assert_int_equal(keys_find(&t, KEY_INVOKE, "pkg.C1000.m()V"), 0);
    keys_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keys_find__empty_table__absent),
        cmocka_unit_test(keys_find__interned__same_index_as_intern),
        cmocka_unit_test(keys_find__other_kind_or_name__absent),
        cmocka_unit_test(keys_find__after_growth__every_key_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
