/*
 * sources.c - finding and reading a submission's .java files (sources.h).
 *
 * The profile names methods by class, not by file: a class's file is found
 * from its top-level class's name and package, which is where javac wants a
 * public class. Files are read whole, bounded in size, never followed
 * through anything but a regular file.
 */
#include "sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"

char *sources_rel_path(const char *method)
{
    const char *paren = strchr(method, '(');
    size_t end = paren ? (size_t)(paren - method) : strlen(method);
    size_t dot = end;
    while (dot > 0 && method[dot - 1] != '.')
        dot--;
    if (dot < 2)
        return NULL;                         /* no "Class." before the name */
    size_t cls_len = dot - 1;                /* "pkg.Top$Inner" */
    size_t simple = cls_len;                 /* where the simple name starts */
    while (simple > 0 && method[simple - 1] != '.')
        simple--;
    size_t top_len = cls_len;
    for (size_t i = simple + 1; i < cls_len; i++)
        if (method[i] == '$') {              /* Top$Inner, Top$1: the file is Top's */
            top_len = i;
            break;
        }
    if (top_len == 0)
        return NULL;
    char *rel = xmalloc(top_len + 6);
    for (size_t i = 0; i < top_len; i++)
        rel[i] = method[i] == '.' ? '/' : method[i];
    memcpy(rel + top_len, ".java", 6);
    if (strstr(rel, "..") || rel[0] == '/')
        rel[0] = '\0';                       /* never a path outside the directory */
    return rel;
}

/* Read path whole when it is a regular file of at most SOURCES_MAX_BYTES. */
static char *read_small(const char *path, size_t *len)
{
    struct stat st;
    FILE *fp;
    char *buf;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (unsigned long long)st.st_size > SOURCES_MAX_BYTES)
        return NULL;
    if (!(fp = fopen(path, "rb")))
        return NULL;
    buf = xmalloc((size_t)st.st_size + 1);
    *len = fread(buf, 1, (size_t)st.st_size, fp);
    fclose(fp);
    buf[*len] = '\0';
    return buf;
}

int sources_read(const char *dir, const char *rel, src_file *f)
{
    memset(f, 0, sizeof *f);
    if (!rel || !*rel)
        return -1;
    const char *base = strrchr(rel, '/');
    base = base ? base + 1 : rel;
    const char *tries[2] = { rel, base };
    char *buf = NULL;
    size_t len = 0;
    for (int k = 0; k < 2 && !buf; k++) {
        size_t n = strlen(dir) + strlen(tries[k]) + 2;
        char *path = xmalloc(n);
        snprintf(path, n, "%s/%s", dir, tries[k]);
        buf = read_small(path, &len);
        free(path);
    }
    if (!buf)
        return -1;
    size_t cap = 16;
    f->lines = xcalloc(cap, sizeof *f->lines);
    for (size_t at = 0; at < len || (at == len && len == 0 && f->n_lines == 0);) {
        size_t e = at;
        while (e < len && buf[e] != '\n')
            e++;
        size_t l = e;
        if (l > at && buf[l - 1] == '\r')
            l--;
        if (f->n_lines == cap) {
            cap *= 2;
            f->lines = xrealloc(f->lines, cap * sizeof *f->lines);
        }
        f->lines[f->n_lines] = xmalloc(l - at + 1);
        memcpy(f->lines[f->n_lines], buf + at, l - at);
        f->lines[f->n_lines][l - at] = '\0';
        f->n_lines++;
        at = e + 1;
        if (len == 0)
            break;
    }
    free(buf);
    f->rel = xstrdup(rel);
    return 0;
}

void src_file_free(src_file *f)
{
    for (size_t i = 0; i < f->n_lines; i++)
        free(f->lines[i]);
    free(f->lines);
    free(f->rel);
    memset(f, 0, sizeof *f);
}
