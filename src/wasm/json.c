/* json.c - the JSON values of src/wasm/jansson/jansson.h: made, packed,
 * written as text and freed. Only for the WebAssembly build.
 */
#include "jansson.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    J_OBJECT,
    J_ARRAY,
    J_STRING,
    J_INT,
    J_REAL,
    J_TRUE,
    J_FALSE,
    J_NULL
} jtype;

struct json_t {
    jtype type;
    long refs;
    union {
        struct {
            char **key; /* objects: keys, in order of insertion */
            json_t **item;
            size_t n, cap;
        } list;
        char *str;
        json_int_t i;
        double r;
    } u;
};

static json_t *make(jtype type) {
    json_t *v = calloc(1, sizeof *v);
    if (v) {
        v->type = type;
        v->refs = 1;
    }
    return v;
}

json_t *json_object(void) {
    return make(J_OBJECT);
}
json_t *json_array(void) {
    return make(J_ARRAY);
}
json_t *json_true(void) {
    return make(J_TRUE);
}
json_t *json_false(void) {
    return make(J_FALSE);
}
json_t *json_null(void) {
    return make(J_NULL);
}

json_t *json_string(const char *s) {
    if (!s)
        return NULL;
    json_t *v = make(J_STRING);
    if (v && !(v->u.str = strdup(s))) {
        free(v);
        return NULL;
    }
    return v;
}

json_t *json_integer(json_int_t i) {
    json_t *v = make(J_INT);
    if (v)
        v->u.i = i;
    return v;
}

json_t *json_real(double r) {
    if (!isfinite(r)) /* JSON has no infinities and no NaN */
        return NULL;
    json_t *v = make(J_REAL);
    if (v)
        v->u.r = r;
    return v;
}

void json_decref(json_t *v) {
    if (!v || --v->refs > 0)
        return;
    if (v->type == J_OBJECT || v->type == J_ARRAY) {
        for (size_t i = 0; i < v->u.list.n; i++) {
            if (v->u.list.key)
                free(v->u.list.key[i]);
            json_decref(v->u.list.item[i]);
        }
        free(v->u.list.key);
        free(v->u.list.item);
    } else if (v->type == J_STRING)
        free(v->u.str);
    free(v);
}

/* Appends value (taken over) to a list, with its key for an object. */
static int append(json_t *list, char *key, json_t *value) {
    if (list->u.list.n == list->u.list.cap) {
        size_t cap = list->u.list.cap ? 2 * list->u.list.cap : 8;
        json_t **item = realloc(list->u.list.item, cap * sizeof *item);
        if (item)
            list->u.list.item = item;
        char **keys =
            key ? realloc(list->u.list.key, cap * sizeof *keys) : NULL;
        if (keys)
            list->u.list.key = keys;
        if (!item || (key && !keys))
            return -1;
        list->u.list.cap = cap;
    }
    if (key)
        list->u.list.key[list->u.list.n] = key;
    list->u.list.item[list->u.list.n++] = value;
    return 0;
}

int json_object_set_new(json_t *o, const char *key, json_t *value) {
    if (!o || o->type != J_OBJECT || !key || !value) {
        json_decref(value);
        return -1;
    }
    for (size_t i = 0; i < o->u.list.n; i++)
        if (strcmp(o->u.list.key[i], key) == 0) {
            json_decref(o->u.list.item[i]);
            o->u.list.item[i] = value;
            return 0;
        }
    char *k = strdup(key);
    if (!k || append(o, k, value)) {
        free(k);
        json_decref(value);
        return -1;
    }
    return 0;
}

int json_array_append_new(json_t *a, json_t *value) {
    if (!a || a->type != J_ARRAY || !value || append(a, NULL, value)) {
        json_decref(value);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * json_pack: the whole format is read (every argument taken, every "o"
 * taken over) even after a failure, which then gives NULL.
 * --------------------------------------------------------------------- */
typedef struct packer {
    const char *f;
    va_list ap;
    bool failed;
} packer;

static void skip(packer *p) {
    while (*p->f == ' ' || *p->f == ',' || *p->f == ':' || *p->f == '\t')
        p->f++;
}

static bool optional(packer *p) {
    if (*p->f != '?')
        return false;
    p->f++;
    return true;
}

static json_t *pack(packer *p) {
    skip(p);
    char c = *p->f ? *p->f++ : '\0';
    json_t *v = NULL;
    switch (c) {
    case '{':
    case '[':
        v = make(c == '{' ? J_OBJECT : J_ARRAY);
        for (;;) {
            skip(p);
            if (*p->f == (c == '{' ? '}' : ']')) {
                p->f++;
                break;
            }
            if (!*p->f) {
                p->failed = true;
                break;
            }
            const char *key = NULL;
            if (c == '{') {
                if (*p->f++ != 's') {
                    p->failed = true;
                    break;
                }
                key = va_arg(p->ap, const char *);
            }
            json_t *item = pack(p);
            if (!item || (c == '{' && !key))
                p->failed = true;
            if (!v || (c == '{' ? json_object_set_new(v, key ? key : "", item)
                                : json_array_append_new(v, item)))
                p->failed = true;
        }
        break;
    case 's': {
        const char *s = va_arg(p->ap, const char *);
        v = s ? json_string(s) : optional(p) ? json_null() : NULL;
        optional(p);
        break;
    }
    case 'o': {
        json_t *o = va_arg(p->ap, json_t *);
        v = o ? o : optional(p) ? json_null() : NULL;
        optional(p);
        break;
    }
    case 'i': v = json_integer(va_arg(p->ap, int)); break;
    case 'I': v = json_integer(va_arg(p->ap, json_int_t)); break;
    case 'f': v = json_real(va_arg(p->ap, double)); break;
    case 'b': v = json_boolean(va_arg(p->ap, int)); break;
    case 'n': v = json_null(); break;
    default: break;
    }
    if (!v)
        p->failed = true;
    return v;
}

json_t *json_pack(const char *fmt, ...) {
    packer p = {.f = fmt};
    va_start(p.ap, fmt);
    json_t *v = pack(&p);
    va_end(p.ap);
    skip(&p);
    if (p.failed || *p.f) {
        json_decref(v);
        return NULL;
    }
    return v;
}

/* ------------------------------------------------------------------------
 * Text
 * --------------------------------------------------------------------- */
typedef struct out {
    char *s;
    size_t n, cap;
    bool failed;
} out;

static void put(out *o, const char *s, size_t k) {
    if (o->failed)
        return;
    if (o->n + k + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->n + k + 1)
            cap *= 2;
        char *g = realloc(o->s, cap);
        if (!g) {
            o->failed = true;
            return;
        }
        o->s = g;
        o->cap = cap;
    }
    memcpy(o->s + o->n, s, k);
    o->n += k;
    o->s[o->n] = '\0';
}

static void put_string(out *o, const char *s) {
    put(o, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char e[8];
        if (c == '"' || c == '\\')
            put(o, (char[]){'\\', (char)c}, 2);
        else if (c == '\n')
            put(o, "\\n", 2);
        else if (c == '\t')
            put(o, "\\t", 2);
        else if (c == '\r')
            put(o, "\\r", 2);
        else if (c < 0x20) {
            snprintf(e, sizeof e, "\\u%04x", c);
            put(o, e, 6);
        } else
            put(o, s, 1);
    }
    put(o, "\"", 1);
}

static void put_value(out *o, const json_t *v) {
    char num[40];
    switch (v->type) {
    case J_OBJECT:
    case J_ARRAY:
        put(o, v->type == J_OBJECT ? "{" : "[", 1);
        for (size_t i = 0; i < v->u.list.n; i++) {
            if (i)
                put(o, ",", 1);
            if (v->type == J_OBJECT) {
                put_string(o, v->u.list.key[i]);
                put(o, ":", 1);
            }
            put_value(o, v->u.list.item[i]);
        }
        put(o, v->type == J_OBJECT ? "}" : "]", 1);
        break;
    case J_STRING: put_string(o, v->u.str); break;
    case J_INT:
        snprintf(num, sizeof num, "%lld", v->u.i);
        put(o, num, strlen(num));
        break;
    case J_REAL:
        snprintf(num, sizeof num, "%.17g", v->u.r);
        /* a real stays a real when read back */
        if (!strpbrk(num, ".eE"))
            strcat(num, ".0");
        put(o, num, strlen(num));
        break;
    case J_TRUE: put(o, "true", 4); break;
    case J_FALSE: put(o, "false", 5); break;
    case J_NULL: put(o, "null", 4); break;
    }
}

char *json_dumps(const json_t *v, size_t flags) {
    (void)flags;
    if (!v)
        return NULL;
    out o = {0};
    put_value(&o, v);
    if (o.failed) {
        free(o.s);
        return NULL;
    }
    return o.s;
}
