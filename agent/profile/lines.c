/*
 * lines.c - the source line of each bytecode offset of a method, for the
 * profile's per-line counts (profile.c) and the calling contexts' call
 * lines (profile_contexts.c), kept apart so neither writer calls the other.
 */
#include "agent.h"
#include "fast_api.h"
#include "jvmti_util.h"
#include "writer.h"

#include <stdlib.h>

/*
 * The source line of each bytecode offset of mi, by cf_lines_apply's rule
 * (an offset belongs to the entry with the greatest start at or below it;
 * offsets before the first entry, and every offset of a method without a
 * table, or whose class is gone, are line 0): from its LineNumberTable as
 * the JVM gives it (read here, once per method, when the profile is
 * written), or for a method the fast engine counted (no jmethodID, and the
 * JVM's table would be the rewritten code's) from its original class file.
 * Returns a malloc'd array of code_len lines, or NULL when out of memory.
 */
uint32_t *profile_offset_lines(agent *a, const method_info *mi)
{
    uint32_t *line = calloc(mi->code_len ? mi->code_len : 1, sizeof *line);
    if (line == NULL)
        return NULL;
    if (mi->fast != 0) {
        if (fast_offset_lines(a, mi, line) != 0) {
            free(line);
            return NULL;
        }
        return line;
    }
    if (mi->id == NULL)
        return line;
    jint n = 0;
    jvmtiLineNumberEntry *t = NULL;
    jvmtiError err = (*a->jvmti)->GetLineNumberTable(a->jvmti, mi->id, &n, &t);
    if (err == JVMTI_ERROR_ABSENT_INFORMATION || err == JVMTI_ERROR_INVALID_METHODID ||
        err == JVMTI_ERROR_NATIVE_METHOD || err == JVMTI_ERROR_WRONG_PHASE)
        return line;
    if (jvmti_check(a, err, "GetLineNumberTable") != 0)
        return line;
    cf_line *e = malloc((n > 0 ? (size_t)n : 1) * sizeof *e);
    uint32_t k = 0;
    for (jint i = 0; e != NULL && i < n; i++)
        if (t[i].start_location >= 0 && (uint64_t)t[i].start_location < mi->code_len)
            e[k++] = (cf_line){(uint32_t)t[i].start_location,
                               t[i].line_number > 0 ? (uint32_t)t[i].line_number : 0};
    jvmti_free(a, t);
    if (e == NULL || cf_lines_apply(line, mi->code_len, e, k) != 0) {
        free(e);
        free(line);
        return NULL;
    }
    free(e);
    return line;
}
