/* jansson.h - for the WebAssembly build only: the part of Jansson's
 * interface that the game layer (src/serve/wgame.c, views.c) uses to make
 * JSON, implemented in src/wasm/json.c. Debian's Jansson, which the
 * server links, is built for the machine, not for WebAssembly. Same
 * names and meanings as Jansson's: values are reference-counted, the
 * _new calls and json_pack's "o" take over the reference given.
 */
#ifndef KEMET_WASM_JANSSON_H
#define KEMET_WASM_JANSSON_H

#include <stddef.h>

typedef long long json_int_t;
typedef struct json_t json_t;

#define JSON_COMPACT 0x20

json_t *json_object(void);
json_t *json_array(void);
json_t *json_string(const char *s);
json_t *json_integer(json_int_t v);
json_t *json_real(double v);
json_t *json_true(void);
json_t *json_false(void);
json_t *json_null(void);
#define json_boolean(v) ((v) ? json_true() : json_false())

/* Sets key (replacing its value) or appends; the value's reference is
 * taken over, even on failure (-1). */
int json_object_set_new(json_t *object, const char *key, json_t *value);
int json_array_append_new(json_t *array, json_t *value);

void json_decref(json_t *v);

/* A value built from a format: {} an object of "key": value pairs, [] an
 * array; s a string (s? NULL gives null), i an int, I a json_int_t, f a
 * double, b an int as a boolean, o a value taken over (o? NULL gives
 * null), n null. NULL on a NULL where none may be, or out of memory. */
json_t *json_pack(const char *fmt, ...);

/* The value as JSON text, malloc'd (compact whatever the flags). */
char *json_dumps(const json_t *v, size_t flags);

#endif
