/*
 * xml_quiet.h - set-up shared by the two XML fuzz targets (fuzz_profile.c,
 * fuzz_costs.c): silence libxml2's own stderr output, which the loaders do
 * not use (they take errors through structured handlers), so a fuzz log
 * shows only libFuzzer's lines.
 */
#ifndef PSF_FUZZ_XML_QUIET_H
#define PSF_FUZZ_XML_QUIET_H

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

static void fuzz_xml_ignore(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

static void fuzz_xml_quiet(void)
{
    xmlInitParser();
    xmlSetGenericErrorFunc(NULL, fuzz_xml_ignore);
}

#endif
