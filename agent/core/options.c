/*
 * options.c - parsing of the agent's "key=value,..." option string.
 *
 * Values cannot contain ',' (the separator); paths passed by get_score.sh come
 * from mktemp and never do. Unknown keys, repeated keys, empty values and bad
 * numbers are errors: a typo must not silently measure the wrong thing.
 */
#include "options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char KNOWN_KEYS[] = "method, out, result_fd, key_fd, max_bytecodes, max_threads, clock, processes, verbose, progress, engine";

/* Append a formatted sentence to err, separated by "; ". */
static void add_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (errlen == 0)
        return;
    size_t used = strnlen(err, errlen);
    if (used + 1 >= errlen)
        return;
    if (used > 0) {
        int n = snprintf(err + used, errlen - used, "; ");
        if (n < 0 || (size_t)n >= errlen - used)
            return;
        used += (size_t)n;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + used, errlen - used, fmt, ap);
    va_end(ap);
}

static int parse_u64(const char *s, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = (uint64_t)v;
    return 0;
}

static int set_string(char **slot, const char *key, const char *value, char *err, size_t errlen)
{
    if (*slot != NULL) {
        add_error(err, errlen, "option '%s' given twice", key);
        return -1;
    }
    *slot = strdup(value);
    if (*slot == NULL) {
        add_error(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

/* Handle one "key=value" item; returns 0 or -1 (message added). */
static int parse_item(agent_options *o, char *item, unsigned *seen, char *err, size_t errlen)
{
    char *eq = strchr(item, '=');
    if (eq == NULL) {
        add_error(err, errlen, "option '%s' has no value (expected key=value; known keys: %s)", item, KNOWN_KEYS);
        return -1;
    }
    *eq = '\0';
    const char *key = item, *value = eq + 1;
    if (*value == '\0') {
        add_error(err, errlen, "option '%s' has an empty value", key);
        return -1;
    }
    if (strcmp(key, "method") == 0)
        return set_string(&o->method, key, value, err, errlen);
    if (strcmp(key, "out") == 0)
        return set_string(&o->out, key, value, err, errlen);
    if (strcmp(key, "progress") == 0)
        return set_string(&o->progress, key, value, err, errlen);
    static const struct { const char *key; unsigned bit; } numeric[] = {
        {"max_bytecodes", 1u}, {"max_threads", 4u}, {"result_fd", 8u}, {"key_fd", 16u}};
    for (size_t i = 0; i < sizeof numeric / sizeof numeric[0]; i++) {
        if (strcmp(key, numeric[i].key) != 0)
            continue;
        if (*seen & numeric[i].bit) {
            add_error(err, errlen, "option '%s' given twice", key);
            return -1;
        }
        *seen |= numeric[i].bit;
        uint64_t v;
        if (parse_u64(value, &v) != 0 || (numeric[i].bit >= 8u && v > 65535)) {
            add_error(err, errlen, "option '%s' needs a whole number%s, not '%s'", key,
                      numeric[i].bit >= 8u ? " (a file descriptor)" : "", value);
            return -1;
        }
        if (numeric[i].bit == 1u)
            o->max_bytecodes = v;
        else if (numeric[i].bit == 4u)
            o->max_threads = v;
        else if (numeric[i].bit == 8u)
            o->result_fd = (int)v;
        else
            o->key_fd = (int)v;
        return 0;
    }
    if (strcmp(key, "processes") == 0) {
        if (*seen & 64u) {
            add_error(err, errlen, "option 'processes' given twice");
            return -1;
        }
        *seen |= 64u;
        if (strcmp(value, "deny") != 0 && strcmp(value, "allow") != 0) {
            add_error(err, errlen, "option 'processes' takes deny or allow, not '%s'", value);
            return -1;
        }
        o->deny_processes = value[0] == 'd';
        return 0;
    }
    if (strcmp(key, "clock") == 0) {
        if (*seen & 32u) {
            add_error(err, errlen, "option 'clock' given twice");
            return -1;
        }
        *seen |= 32u;
        if (strcmp(value, "virtual") != 0 && strcmp(value, "real") != 0) {
            add_error(err, errlen, "option 'clock' takes virtual or real, not '%s'", value);
            return -1;
        }
        o->virtual_clock = value[0] == 'v';
        return 0;
    }
    if (strcmp(key, "engine") == 0) {
        if (*seen & 128u) {
            add_error(err, errlen, "option 'engine' given twice");
            return -1;
        }
        *seen |= 128u;
        if (strcmp(value, "step") != 0 && strcmp(value, "fast") != 0) {
            add_error(err, errlen, "option 'engine' takes step or fast, not '%s'", value);
            return -1;
        }
        o->engine = value[0] == 'f' ? AGENT_ENGINE_FAST : AGENT_ENGINE_STEP;
        return 0;
    }
    if (strcmp(key, "verbose") == 0) {
        if (*seen & 2u) {
            add_error(err, errlen, "option 'verbose' given twice");
            return -1;
        }
        *seen |= 2u;
        if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0) {
            add_error(err, errlen, "option 'verbose' takes 0 or 1, not '%s'", value);
            return -1;
        }
        o->verbose = value[0] == '1';
        return 0;
    }
    add_error(err, errlen, "unknown option '%s' (known keys: %s)", key, KNOWN_KEYS);
    return -1;
}

int agent_options_parse(agent_options *o, const char *text, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->result_fd = o->key_fd = -1;
    if (errlen > 0)
        err[0] = '\0';
    int failed = 0;
    unsigned seen = 0;
    if (text != NULL && *text != '\0') {
        char *copy = strdup(text);
        if (copy == NULL) {
            add_error(err, errlen, "out of memory");
            return -1;
        }
        char *save = NULL;
        /* strtok_r skips empty items, so check for them explicitly first. */
        size_t n = strlen(copy);
        if (copy[0] == ',' || copy[n - 1] == ',' || strstr(copy, ",,") != NULL) {
            add_error(err, errlen, "empty item in option string '%s'", text);
            failed = 1;
        }
        for (char *item = strtok_r(copy, ",", &save); item != NULL; item = strtok_r(NULL, ",", &save))
            if (parse_item(o, item, &seen, err, errlen) != 0)
                failed = 1;
        free(copy);
    }
    if (o->method == NULL) {
        add_error(err, errlen, "option 'method' is required (e.g. method=pkg.Class.name or method=pkg.Class.name(I)I)");
        failed = 1;
    }
    if (o->out == NULL && o->result_fd < 0) {
        add_error(err, errlen, "option 'out' is required (the profile file to write), or result_fd with key_fd");
        failed = 1;
    }
    if (o->out != NULL && o->result_fd >= 0) {
        add_error(err, errlen, "options 'out' and 'result_fd' exclude each other");
        failed = 1;
    }
    if ((o->result_fd >= 0) != (o->key_fd >= 0)) {
        add_error(err, errlen, "options 'result_fd' and 'key_fd' go together");
        failed = 1;
    }
    return failed ? -1 : 0;
}

void agent_options_free(agent_options *o)
{
    free(o->method);
    free(o->out);
    free(o->progress);
    memset(o, 0, sizeof *o);
    o->result_fd = o->key_fd = -1;
}
