/*
 * report_flame.h - the student report's flame graph of the calling
 * contexts, and the library work by the student's line that called it
 * (report_flame.c).
 */
#ifndef PSF_REPORT_FLAME_H
#define PSF_REPORT_FLAME_H

#include <stdio.h>

#include "output.h"

/* The style of the graph, for the page's inline style sheet. */
#define REPORT_FLAME_CSS \
    ".flame{position:relative;border:1px solid #ddd;background:#fafafa;margin:.5em 0;overflow:hidden}" \
    ".fr{position:absolute;height:1.45em;line-height:1.45em;box-sizing:border-box;border:1px solid #fff;" \
    "font-size:.8em;padding:0 .3em;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;" \
    "background:#9cb4d8;color:#111}" \
    ".fr.prog{background:#f4a259}.fr.other{background:#ccc;color:#444}"

/* The section for oc (scored, oc->prof set): the graph of its <contexts>
 * and the library calls of the program's lines; for a profile older than
 * version 7, a sentence saying it has none. */
void report_flame(FILE *f, const outcome *oc);

#endif
