/*
 * keys.c - interning of dependency keys.
 *
 * A key is a kind (new, invoke, invokedynamic, array) plus a name. Keys are
 * created on the once-per-method path (under the agent lock) and get dense
 * indices, so the per-bytecode path counts with a plain array index.
 */
#include "keys.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_key(enum key_kind kind, const char *s)
{
    uint32_t h = 2166136261u ^ (uint32_t)kind;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static int keys_grow_slots(key_table *t)
{
    uint32_t n = t->nslots ? t->nslots * 2 : 256;
    uint32_t *slots = calloc(n, sizeof *slots);
    if (slots == NULL)
        return -1;
    for (uint32_t i = 0; i < t->count; i++) {
        uint32_t s = hash_key(t->kind[i], t->names[i]) & (n - 1);
        while (slots[s] != 0)
            s = (s + 1) & (n - 1);
        slots[s] = i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = n;
    return 0;
}

/* The slot that holds (kind, name), or the empty slot where it would go
 * (t->nslots > 0). */
static uint32_t slot_of(const key_table *t, enum key_kind kind, const char *name)
{
    uint32_t s = hash_key(kind, name) & (t->nslots - 1);
    while (t->slots[s] != 0) {
        uint32_t i = t->slots[s] - 1;
        if (t->kind[i] == kind && strcmp(t->names[i], name) == 0)
            break;
        s = (s + 1) & (t->nslots - 1);
    }
    return s;
}

uint32_t keys_intern(key_table *t, enum key_kind kind, const char *name)
{
    if (t->nslots == 0 || (t->count + 1) * 2 > t->nslots)
        if (keys_grow_slots(t) != 0)
            return 0;
    uint32_t s = slot_of(t, kind, name);
    if (t->slots[s] != 0)
        return t->slots[s];
    if (t->count == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 256;
        char **names = realloc(t->names, cap * sizeof *names);
        if (names == NULL)
            return 0;
        t->names = names;
        uint8_t *kinds = realloc(t->kind, cap);
        if (kinds == NULL)
            return 0;
        t->kind = kinds;
        t->cap = cap;
    }
    char *copy = strdup(name);
    if (copy == NULL)
        return 0;
    uint32_t i = t->count;
    t->names[i] = copy;
    t->kind[i] = (uint8_t)kind;
    t->count++;
    t->slots[s] = i + 1;
    return i + 1;
}

uint32_t keys_find(const key_table *t, enum key_kind kind, const char *name)
{
    return t->nslots == 0 ? 0 : t->slots[slot_of(t, kind, name)];
}

void keys_free(key_table *t)
{
    for (uint32_t i = 0; i < t->count; i++)
        free(t->names[i]);
    free(t->names);
    free(t->kind);
    free(t->slots);
    memset(t, 0, sizeof *t);
}
