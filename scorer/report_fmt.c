/*
 * report_fmt.c - text pieces of the student report (see report_fmt.h).
 */
#include "report_fmt.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

/* One field type of a descriptor at *d, appended to f; advances *d. */
static void pretty_type(FILE *f, const char **d)
{
    int dims = 0;
    while (**d == '[') {
        dims++;
        (*d)++;
    }
    switch (**d) {
    case 'B': fputs("byte", f); break;
    case 'C': fputs("char", f); break;
    case 'D': fputs("double", f); break;
    case 'F': fputs("float", f); break;
    case 'I': fputs("int", f); break;
    case 'J': fputs("long", f); break;
    case 'S': fputs("short", f); break;
    case 'Z': fputs("boolean", f); break;
    case 'V': fputs("void", f); break;
    case 'L': {
        const char *end = strchr(*d, ';'), *start = *d + 1;
        if (!end) {
            fputs(*d, f);
            *d += strlen(*d);
            return;
        }
        for (const char *p = start; p < end; p++)   /* simple name: after the last '/' */
            if (*p == '/')
                start = p + 1;
        fwrite(start, 1, (size_t)(end - start), f);
        *d = end;
        break;
    }
    default:
        fputc(**d ? **d : '?', f);
    }
    if (**d)
        (*d)++;
    while (dims--)
        fputs("[]", f);
}

char *report_pretty_method(const char *name)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const char *paren = strchr(name, '(');

    if (!f)
        return xstrdup(name);
    if (!paren) {
        fputs(name, f);
    } else {
        const char *d = paren + 1;
        fwrite(name, 1, (size_t)(paren - name) + 1, f);
        for (int first = 1; *d && *d != ')'; first = 0) {
            if (!first)
                fputs(", ", f);
            pretty_type(f, &d);
        }
        fputc(')', f);
    }
    if (fclose(f) != 0) {
        free(buf);
        return xstrdup(name);
    }
    return buf;
}

const char *report_units(psf_u128 micro, char *buf, size_t cap)
{
    fixed_format_u128((micro + PSF_MICRO_PER_UNIT / 2) / PSF_MICRO_PER_UNIT, buf, cap);
    return buf;
}

void report_share_cell(FILE *f, psf_u128 amount, psf_u128 total, const char *cls)
{
    unsigned pm = total ? fixed_share_permille(amount > total ? total : amount, total) : 0;
    fprintf(f, "<td class=\"num\">%u.%u%%</td><td class=\"barcell\"><span class=\"bar%s\" style=\"width:%u.%u%%\">"
            "</span></td>", pm / 10, pm % 10, cls, pm / 10, pm % 10);
}
