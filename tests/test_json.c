/* test_json.c - the JSON values of the WebAssembly build (src/wasm/json.c,
 * standing in for Jansson there), built natively: what json_pack makes,
 * the text json_dumps writes, the NULLs that must fail, and values freed
 * whole (the sanitizer run checks for leaks).
 */
#include "jansson.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The value's text, the value freed; compared with `want`. */
static void dumps_is(json_t *v, const char *want) {
    assert_non_null(v);
    char *s = json_dumps(v, JSON_COMPACT);
    assert_non_null(s);
    assert_string_equal(s, want);
    free(s);
    json_decref(v);
}

static void scalars(void **state) {
    (void)state;
    dumps_is(json_integer(-42), "-42");
    dumps_is(json_integer(9007199254740993LL), "9007199254740993");
    dumps_is(json_real(0.5), "0.5");
    dumps_is(json_real(3), "3.0");
    dumps_is(json_real(1e300), "1.0000000000000001e+300");
    dumps_is(json_true(), "true");
    dumps_is(json_false(), "false");
    dumps_is(json_null(), "null");
    dumps_is(json_boolean(7), "true");
    assert_null(json_real(NAN));
    assert_null(json_real(INFINITY));
    assert_null(json_string(NULL));
}

static void strings_escaped(void **state) {
    (void)state;
    dumps_is(json_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
    dumps_is(json_string("line\nnext\ttab\r"), "\"line\\nnext\\ttab\\r\"");
    dumps_is(json_string("\x01\x1f"), "\"\\u0001\\u001f\"");
    /* UTF-8 passes as it is */
    dumps_is(json_string("Duat \xc3\xa9 \xe2\x80\x94"),
             "\"Duat \xc3\xa9 \xe2\x80\x94\"");
}

static void containers(void **state) {
    (void)state;
    json_t *o = json_object();
    assert_int_equal(json_object_set_new(o, "b", json_integer(1)), 0);
    assert_int_equal(json_object_set_new(o, "a", json_array()), 0);
    /* a key set again keeps its place, with the new value */
    assert_int_equal(json_object_set_new(o, "b", json_string("x")), 0);
    dumps_is(o, "{\"b\":\"x\",\"a\":[]}");
    json_t *a = json_array();
    for (int i = 0; i < 100; i++)
        assert_int_equal(json_array_append_new(a, json_integer(i)), 0);
    char *s = json_dumps(a, 0);
    assert_non_null(s);
    assert_true(strncmp(s, "[0,1,2,", 7) == 0);
    assert_non_null(strstr(s, ",98,99]"));
    free(s);
    json_decref(a);
    /* misuse: the value given is freed, -1 */
    assert_int_equal(json_object_set_new(NULL, "k", json_integer(1)), -1);
    json_t *notarray = json_object();
    assert_int_equal(json_array_append_new(notarray, NULL), -1);
    assert_int_equal(json_array_append_new(notarray, json_integer(1)), -1);
    json_decref(notarray);
}

static void packing(void **state) {
    (void)state;
    dumps_is(json_pack("[i,i]", 3, -4), "[3,-4]");
    dumps_is(json_pack("{s:s, s:I, s:f, s:b, s:n}", "k", "v", "big",
                       (json_int_t)1 << 40, "r", 0.25, "t", 0, "z"),
             "{\"k\":\"v\",\"big\":1099511627776,\"r\":0.25,\"t\":false,"
             "\"z\":null}");
    dumps_is(json_pack("{s:[s,s], s:{s:f, s:f}, s:o}", "p", "A", "B", "q", "x",
                       1.5, "y", 2.0, "o", json_integer(9)),
             "{\"p\":[\"A\",\"B\"],\"q\":{\"x\":1.5,\"y\":2.0},\"o\":9}");
    /* optional: NULL gives null */
    dumps_is(
        json_pack("{s:s?, s:o?}", "a", (const char *)NULL, "b", (json_t *)NULL),
        "{\"a\":null,\"b\":null}");
    dumps_is(json_pack("{s:s?}", "a", "here"), "{\"a\":\"here\"}");
    dumps_is(json_pack("{}"), "{}");
    dumps_is(json_pack("[]"), "[]");
}

static void packing_fails(void **state) {
    (void)state;
    /* a NULL where none may be: NULL, and every "o" given is freed */
    assert_null(
        json_pack("{s:s, s:o}", "a", (const char *)NULL, "b", json_integer(1)));
    assert_null(
        json_pack("{s:o, s:o}", "a", json_array(), "b", (json_t *)NULL));
    assert_null(json_pack("{s:i}", (const char *)NULL, 1));
    assert_null(json_pack("{s:f}", "nan", (double)NAN));
    /* formats that are not whole or not known */
    assert_null(json_pack("[i", 1));
    assert_null(json_pack("{s:i", "a", 1));
    assert_null(json_pack("{i:i}", 1, 2));
    assert_null(json_pack("x"));
    assert_null(json_pack("i i", 1, 2));
    assert_null(json_pack(""));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scalars),       cmocka_unit_test(strings_escaped),
        cmocka_unit_test(containers),    cmocka_unit_test(packing),
        cmocka_unit_test(packing_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
