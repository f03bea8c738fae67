/*
 * xmlload.h - reading, parsing and schema-validating one XML input file.
 *
 * Shared by the cost-table and profile loaders. Every failure becomes a
 * psf_err with status ST_BAD_INPUT and a message "FILE:LINE: what", taken
 * from libxml2's first error where libxml2 found it. Parsing never touches
 * the network, and a document with a DTD is refused (neither format has one),
 * so entity tricks cannot reach the scorer.
 */
#ifndef PSF_XMLLOAD_H
#define PSF_XMLLOAD_H

#include <stddef.h>

#include <libxml/tree.h>

#include "err.h"

#define XML_MAX_INPUT ((size_t)1 << 30)   /* 1 GiB: far above any real profile */

/* Read the whole file into a NUL-terminated buffer the caller frees. Only a
 * regular file of at most XML_MAX_INPUT bytes is read: a FIFO, device or
 * directory is refused at once (ST_BAD_INPUT), never waited on. */
int xml_read_file(const char *path, unsigned char **bytes, size_t *len, psf_err *err);

/* Parse bytes (named `name` in messages) into *doc, which the caller frees
 * with xmlFreeDoc. */
int xml_parse(const char *name, const unsigned char *bytes, size_t len,
              xmlDocPtr *doc, psf_err *err);

/* Validate doc against an XSD given as bytes (compiled once per xsd and
 * cached until xml_cleanup). */
int xml_validate(xmlDocPtr doc, const char *name,
                 const unsigned char *xsd, size_t xsd_len, psf_err *err);

/* Compile an XSD given as bytes into xml_validate's cache ahead of its
 * first use (a process that forks its children after this compiles it once
 * for all of them). */
int xml_schema_compile(const unsigned char *xsd, size_t xsd_len, psf_err *err);

/* The value of an attribute without namespace, or NULL; caller frees with
 * xmlFree. */
char *xml_attr(xmlNodePtr node, const char *attr);

/* 1 if the element's name is `name`. */
int xml_is(xmlNodePtr node, const char *name);

/* The first element child of node (or next element sibling), or NULL. */
xmlNodePtr xml_first_elem(xmlNodePtr node);
xmlNodePtr xml_next_elem(xmlNodePtr node);

/* Free the cached schemas and libxml2's global state; call once at exit. */
void xml_cleanup(void);

#endif
