/*
 * sources.h - a submission's Java source files, read for the student
 * report's lines (report_lines.c): which file holds a class, and its lines.
 */
#ifndef PSF_SOURCES_H
#define PSF_SOURCES_H

#include <stddef.h>

/* One source file, split into lines (no line ends). */
typedef struct src_file {
    char *rel;              /* owned: the path under the sources directory ("pkg/A.java") */
    char **lines;           /* owned: line 1 is lines[0] */
    size_t n_lines;
} src_file;

/* The file "pkg/Top.java" that holds the class of a method named
 * "pkg.Top$Inner.name(desc)" (the top-level class's name and package, as
 * javac requires of a public class); the caller frees it. NULL when the
 * name has no class part. */
char *sources_rel_path(const char *method);

/*
 * Read rel under dir: dir/rel, else dir/BASENAME (a submission whose files
 * are not in package directories). Only regular files of at most
 * SOURCES_MAX_BYTES; a NUL byte ends nothing special (it is shown as is up
 * to it). Returns 0 and fills f (f->rel a copy of rel), or -1 when there is
 * no such readable file.
 */
#define SOURCES_MAX_BYTES (4u << 20)
int sources_read(const char *dir, const char *rel, src_file *f);
void src_file_free(src_file *f);

#endif
