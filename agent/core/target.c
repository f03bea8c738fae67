/*
 * target.c - finding the method to measure.
 *
 * The spec names a class by its binary name and a method by name, optionally
 * with a descriptor. Each prepared class whose signature matches is searched;
 * a bare name with several overloads is ambiguous (the profile lists their
 * descriptors), and a unique match gets a breakpoint at offset 0, which is the
 * only event the agent keeps armed while the JVM runs unmeasured code. What
 * happens next to the class found (clinit.c watches its initializer) is the
 * caller's: it passes that function in.
 */
#include "agent.h"
#include "engine.h"
#include "jvmti_util.h"
#include "target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Remember one overload's descriptor for the ambiguous_method message. */
static void add_candidate(agent *a, const char *desc)
{
    char **v = realloc(a->candidates, (size_t)(a->ncandidates + 1) * sizeof *v);
    if (v == NULL)
        return;
    a->candidates = v;
    a->candidates[a->ncandidates] = utf8_dup(desc);
    if (a->candidates[a->ncandidates] != NULL)
        a->ncandidates++;
}

/* qsort order of C strings. */
static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/*
 * No method of the class matches the spec: say in target_problem what it
 * has, so that the message shows which spelling was meant. WORDS (n) are
 * the descriptors of the methods of the spec's name when there are some
 * (same: only the descriptor differs), else every method's name; sorted
 * here and each named once, since GetClassMethods' order varies between
 * runs and the message is part of the profile.
 */
static void say_methods(agent *a, char **words, int n, int same)
{
    qsort(words, (size_t)n, sizeof *words, cmp_str);
    char *p = a->target_problem, *end = p + sizeof a->target_problem;
    int w = snprintf(p, (size_t)(end - p), "the class was loaded but has no method %s (%s%s", a->opts.method,
                     same ? a->spec.name : "its methods: ", same ? " takes " : "");
    if (w < 0 || w >= end - p)
        return;
    p += w;
    for (int i = 0; i < n; i++) {
        if (i > 0 && strcmp(words[i], words[i - 1]) == 0)
            continue;
        const char *sep = p[-1] == ' ' ? "" : same ? " or " : ", ";
        if ((size_t)(end - p) < strlen(sep) + strlen(words[i]) + 7) { /* and room for " or ...)" */
            snprintf(p, (size_t)(end - p), "%s...)", sep);
            return;
        }
        p += snprintf(p, (size_t)(end - p), "%s%s", sep, words[i]);
    }
    snprintf(p, (size_t)(end - p), ")");
}

/* Search one prepared class with the target's name (lock held). */
static void search_methods(agent *a, jclass klass)
{
    jvmtiEnv *jv = a->jvmti;
    jint n = 0;
    jmethodID *ms = NULL;
    if (jvmti_check(a, (*jv)->GetClassMethods(jv, klass, &n, &ms), "GetClassMethods") != 0)
        return;
    jmethodID found = NULL;
    char *found_desc = NULL;
    int matches = 0;
    /* for the message when nothing matches: the other methods' names (the
     * name's descriptors are the candidates, mismatched ones included) */
    char **names = calloc((size_t)n + 1, sizeof *names);
    int nnames = 0;
    for (jint i = 0; i < n; i++) {
        char *name = NULL, *desc = NULL;
        if (jvmti_check(a, (*jv)->GetMethodName(jv, ms[i], &name, &desc, NULL), "GetMethodName") != 0)
            continue;
        char *uname = utf8_dup(name), *udesc = utf8_dup(desc);
        int named = uname != NULL && udesc != NULL && strcmp(uname, a->spec.name) == 0;
        if (named)
            add_candidate(a, desc);
        if (named && (a->spec.descriptor == NULL || strcmp(udesc, a->spec.descriptor) == 0)) {
            matches++;
            if (found == NULL) {
                found = ms[i];
                found_desc = utf8_dup(desc);
            }
        } else if (!named && names != NULL && uname != NULL && strcmp(uname, "<clinit>") != 0) {
            names[nnames++] = uname;
            uname = NULL;
        }
        free(uname);
        free(udesc);
        jvmti_free(a, name);
        jvmti_free(a, desc);
    }
    jvmti_free(a, ms);
    if (matches == 0 && a->target_problem[0] == '\0') {
        if (a->ncandidates > 0)
            say_methods(a, a->candidates, a->ncandidates, 1);
        else if (names != NULL)
            say_methods(a, names, nnames, 0);
    }
    for (int k = 0; k < nnames; k++)
        free(names[k]);
    free(names);
    if (matches > 1) {
        a->ambiguous = 1; /* GetClassMethods' order varies between runs: sort */
        qsort(a->candidates, (size_t)a->ncandidates, sizeof *a->candidates, cmp_str);
        free(found_desc);
        return;
    }
    for (int i = 0; i < a->ncandidates; i++)
        free(a->candidates[i]);
    free(a->candidates);
    a->candidates = NULL;
    a->ncandidates = 0;
    if (found == NULL)
        return;
    jint mods = 0;
    if (jvmti_check(a, (*jv)->GetMethodModifiers(jv, found, &mods), "GetMethodModifiers") != 0) {
        free(found_desc);
        return;
    }
    a->target_desc = found_desc;
    if (mods & (0x0100 | 0x0400)) { /* ACC_NATIVE, ACC_ABSTRACT */
        snprintf(a->target_problem, sizeof a->target_problem,
                 "%s%s is %s: it has no bytecode of its own to measure; name a method with a body",
                 a->opts.method, a->spec.descriptor ? "" : found_desc, (mods & 0x0100) ? "native" : "abstract");
        return;
    }
    a->method_found = 1;
    /* engine=fast: no breakpoint (an event at every call, recursive ones
     * included); the method's entry probe opens the extent (fast.c) */
    if (a->engine->entry_probe ||
        jvmti_check(a, (*jv)->SetBreakpoint(jv, found, 0), "SetBreakpoint") == 0) {
        a->target = found;
        agent_log(a, "measuring %s%s", a->opts.method, found_desc);
    }
}

/* 1 when klass has the spec's class name (from any loader). */
int target_class_named(agent *a, jclass klass)
{
    jvmtiEnv *jv = a->jvmti;
    char *sig = NULL;
    if (jvmti_check(a, (*jv)->GetClassSignature(jv, klass, &sig, NULL), "GetClassSignature") != 0)
        return 0;
    /* JVMTI speaks modified UTF-8 (surrogate pairs for letters beyond
     * U+FFFF); the spec came in as UTF-8 */
    char *utf8 = utf8_dup(sig);
    int match = utf8 != NULL && strcmp(utf8, a->spec.class_signature) == 0;
    free(utf8);
    jvmti_free(a, sig);
    return match;
}

/* If klass is the spec's class, prepared, and the first of that name: search
 * it for the method, and when the method is found call found(a, jni, klass)
 * under a->lock. Any other class is left alone. */
void target_check_class(agent *a, JNIEnv *jni, jclass klass, target_found_fn found)
{
    jvmtiEnv *jv = a->jvmti;
    if (!target_class_named(a, klass))
        return;
    jint status = 0;
    if (jvmti_check(a, (*jv)->GetClassStatus(jv, klass, &status), "GetClassStatus") != 0 ||
        !(status & JVMTI_CLASS_STATUS_PREPARED))
        return; /* its ClassPrepare event will come */
    lock_enter(a);
    if (!a->class_seen) { /* a second class of that name (another loader) is not measured */
        a->class_seen = 1;
        search_methods(a, klass);
        if (a->target != NULL)
            found(a, jni, klass); /* vmentry.c: its initializer is counted too (clinit.c) */
    }
    lock_exit(a);
}
