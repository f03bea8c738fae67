/*
 * writer.h - the profile writer's face: profile_write (profile.c), which
 * vmentry.c calls once at the run's end, with what it writes through:
 * source lines by offset (lines.c), the calling contexts (profile_contexts.c),
 * and where the profile goes, a file or a signed record (result.c, set up
 * at load).
 */
#ifndef PSF_WRITER_H
#define PSF_WRITER_H

#include "agent.h"

/* profile.c */
int profile_write(agent *a, const char *status, const char *message);

/* lines.c */
uint32_t *profile_offset_lines(agent *a, const method_info *mi); /* source line per offset; malloc'd */

/* profile_contexts.c */
struct _xmlTextWriter;
int profile_contexts(agent *a, struct _xmlTextWriter *w); /* writes <contexts>; 1 on failure */

/* result.c */
int result_init(agent *a, char *err, size_t errlen); /* read the key (if any); at load */
int result_emit(agent *a, const char *body, size_t len); /* file or record; 0 on success */
void result_free(agent *a);

#endif
