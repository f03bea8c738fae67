/*
 * lines.c - the source line of each bytecode offset of a method, for the
 * profile's per-line counts (profile.c) and the calling contexts' call
 * lines (profile_contexts.c), kept apart so neither writer calls the other.
 */
#include "agent.h"

#include <stdlib.h>

/*
 * The source line of each bytecode offset of mi, from its LineNumberTable
 * (read here, once per method, when the profile is written): an offset
 * belongs to the entry with the greatest start at or below it; offsets
 * before the first entry, and every offset of a method without a table
 * (or whose class is gone), are line 0. Returns a malloc'd array of
 * code_len lines, or NULL when out of memory.
 */
uint32_t *profile_offset_lines(agent *a, const method_info *mi)
{
    uint32_t *line = calloc(mi->code_len ? mi->code_len : 1, sizeof *line);
    if (line == NULL)
        return NULL;
    jint n = 0;
    jvmtiLineNumberEntry *t = NULL;
    jvmtiError err = (*a->jvmti)->GetLineNumberTable(a->jvmti, mi->id, &n, &t);
    if (err == JVMTI_ERROR_ABSENT_INFORMATION || err == JVMTI_ERROR_INVALID_METHODID ||
        err == JVMTI_ERROR_NATIVE_METHOD || err == JVMTI_ERROR_WRONG_PHASE)
        return line;
    if (jvmti_check(a, err, "GetLineNumberTable") != 0)
        return line;
    for (uint32_t o = 0; o < mi->code_len; o++) {
        jlocation best = -1;
        for (jint i = 0; i < n; i++)
            if (t[i].start_location <= (jlocation)o && t[i].start_location > best) {
                best = t[i].start_location;
                line[o] = t[i].line_number > 0 ? (uint32_t)t[i].line_number : 0;
            }
    }
    jvmti_check(a, (*a->jvmti)->Deallocate(a->jvmti, (unsigned char *)t), "Deallocate");
    return line;
}
