/*
 * xmlload.c - read, parse and validate XML inputs (see xmlload.h).
 */
#include "xmlload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>

#if LIBXML_VERSION >= 21200
typedef const xmlError *xml_error_arg;
#else
typedef xmlErrorPtr xml_error_arg;
#endif

/* The first error libxml2 reported during one call. */
typedef struct first_error {
    int seen;
    long line;
    char msg[700];
} first_error;

static void catch_error(void *ctx, xml_error_arg e)
{
    first_error *fe = ctx;
    size_t n;

    if (fe->seen || !e || e->level < XML_ERR_ERROR)
        return;
    fe->seen = 1;
    fe->line = e->line;
    if (e->line <= 0 && e->node && ((xmlNodePtr)e->node)->type == XML_ELEMENT_NODE)
        fe->line = xmlGetLineNo((xmlNodePtr)e->node);
    snprintf(fe->msg, sizeof fe->msg, "%s", e->message ? e->message : "unknown XML error");
    n = strlen(fe->msg);
    while (n > 0 && (fe->msg[n - 1] == '\n' || fe->msg[n - 1] == ' '))
        fe->msg[--n] = '\0';
}

/*
 * Open path for reading only if it is a regular file. O_NONBLOCK keeps open()
 * from waiting on a FIFO nobody writes; the type is then checked on the open
 * descriptor (no window between a check and the open), so a FIFO, a device
 * (/dev/zero) or a directory is refused before a byte is read, and so is a
 * file already larger than XML_MAX_INPUT.
 */
static FILE *open_regular(const char *path, psf_err *err)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    FILE *f;

    if (fd < 0) {
        psf_fail(err, ST_BAD_INPUT, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        psf_fail(err, ST_BAD_INPUT, "%s: not a regular file (%s)", path,
                 S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
                 : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "not readable as a file");
        close(fd);
        return NULL;
    }
    if ((uintmax_t)st.st_size > XML_MAX_INPUT) {
        psf_fail(err, ST_BAD_INPUT, "%s: larger than %zu bytes", path, XML_MAX_INPUT);
        close(fd);
        return NULL;
    }
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "rb"))) {
        psf_fail(err, ST_BAD_INPUT, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    return f;
}

int xml_read_file(const char *path, unsigned char **bytes, size_t *len, psf_err *err)
{
    unsigned char *buf = NULL;
    size_t n = 0, cap = 0;
    FILE *f;

    *bytes = NULL;
    *len = 0;
    if (!(f = open_regular(path, err)))
        return -1;
    for (;;) {
        xgrow((void **)&buf, &cap, n + 65536, 1);
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n > XML_MAX_INPUT) {
            free(buf);
            fclose(f);
            return psf_fail(err, ST_BAD_INPUT, "%s: larger than %zu bytes", path, XML_MAX_INPUT);
        }
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        return psf_fail(err, ST_BAD_INPUT, "%s: cannot read: %s", path, strerror(e));
    }
    fclose(f);
    buf[n] = '\0';
    *bytes = buf;
    *len = n;
    return 0;
}

int xml_parse(const char *name, const unsigned char *bytes, size_t len,
              xmlDocPtr *doc, psf_err *err)
{
    first_error fe = { 0 };
    xmlDocPtr d;

    *doc = NULL;
    if (len == 0)
        return psf_fail(err, ST_BAD_INPUT, "%s: empty file", name);
    if (len > (size_t)0x7fffffff)
        return psf_fail(err, ST_BAD_INPUT, "%s: too large to parse", name);
    xmlSetStructuredErrorFunc(&fe, catch_error);
    d = xmlReadMemory((const char *)bytes, (int)len, name, NULL,
                      XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING);
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (!d || fe.seen) {
        xmlFreeDoc(d);
        size_t i = 0;
        while (i < len && (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\n' || bytes[i] == '\r'))
            i++;
        if (i < len && (bytes[i] == '{' || bytes[i] == '['))
            /* (get_score.sh --json's result given for a profile, say) */
            return psf_fail(err, ST_BAD_INPUT, "%s: JSON, not XML (it begins with '%c')", name, bytes[i]);
        if (fe.seen)
            return psf_fail(err, ST_BAD_INPUT, "%s:%ld: malformed XML: %s", name, fe.line, fe.msg);
        return psf_fail(err, ST_BAD_INPUT, "%s: malformed XML", name);
    }
    if (d->intSubset || d->extSubset) {
        /* libxml2 keeps no line for a DTD: count the lines before it. */
        long line = 1;
        for (size_t i = 0; i + 9 <= len && memcmp(bytes + i, "<!DOCTYPE", 9) != 0; i++)
            line += bytes[i] == '\n';
        xmlFreeDoc(d);
        return psf_fail(err, ST_BAD_INPUT, "%s:%ld: a DOCTYPE is not allowed", name, line);
    }
    if (!xmlDocGetRootElement(d)) {
        xmlFreeDoc(d);
        return psf_fail(err, ST_BAD_INPUT, "%s: no root element", name);
    }
    *doc = d;
    return 0;
}

/* Compiled schemas, keyed by the address of their XSD bytes. */
static struct {
    const unsigned char *xsd;
    xmlSchemaPtr schema;
} cache[4];

static xmlSchemaPtr compile(const unsigned char *xsd, size_t xsd_len, psf_err *err)
{
    first_error fe = { 0 };
    xmlSchemaParserCtxtPtr pc;
    xmlSchemaPtr schema;
    unsigned i;

    for (i = 0; i < sizeof cache / sizeof cache[0] && cache[i].xsd; i++)
        if (cache[i].xsd == xsd)
            return cache[i].schema;
    pc = xmlSchemaNewMemParserCtxt((const char *)xsd, (int)xsd_len);
    if (!pc) {
        psf_fail(err, ST_INTERNAL_ERROR, "cannot create a schema parser");
        return NULL;
    }
    xmlSchemaSetParserStructuredErrors(pc, catch_error, &fe);
    schema = xmlSchemaParse(pc);
    xmlSchemaFreeParserCtxt(pc);
    if (!schema) {
        psf_fail(err, ST_INTERNAL_ERROR, "built-in schema does not compile: line %ld: %s",
                 fe.line, fe.seen ? fe.msg : "?");
        return NULL;
    }
    if (i < sizeof cache / sizeof cache[0]) {
        cache[i].xsd = xsd;
        cache[i].schema = schema;
    }
    return schema;
}

int xml_schema_compile(const unsigned char *xsd, size_t xsd_len, psf_err *err)
{
    return compile(xsd, xsd_len, err) ? 0 : -1;
}

int xml_validate(xmlDocPtr doc, const char *name,
                 const unsigned char *xsd, size_t xsd_len, psf_err *err)
{
    first_error fe = { 0 };
    xmlSchemaPtr schema = compile(xsd, xsd_len, err);
    xmlSchemaValidCtxtPtr vc;
    int rc;

    if (!schema)
        return -1;
    vc = xmlSchemaNewValidCtxt(schema);
    if (!vc)
        return psf_fail(err, ST_INTERNAL_ERROR, "cannot create a schema validator");
    xmlSchemaSetValidStructuredErrors(vc, catch_error, &fe);
    rc = xmlSchemaValidateDoc(vc, doc);
    xmlSchemaFreeValidCtxt(vc);
    if (rc == 0)
        return 0;
    if (rc < 0)
        return psf_fail(err, ST_INTERNAL_ERROR, "%s: schema validation failed internally", name);
    if (fe.seen)
        return psf_fail(err, ST_BAD_INPUT, "%s:%ld: does not match the schema: %s", name, fe.line, fe.msg);
    return psf_fail(err, ST_BAD_INPUT, "%s: does not match the schema", name);
}

char *xml_attr(xmlNodePtr node, const char *attr)
{
    return (char *)xmlGetNoNsProp(node, (const xmlChar *)attr);
}

int xml_is(xmlNodePtr node, const char *name)
{
    return node && node->type == XML_ELEMENT_NODE && strcmp((const char *)node->name, name) == 0;
}

static xmlNodePtr elem_from(xmlNodePtr n)
{
    while (n && n->type != XML_ELEMENT_NODE)
        n = n->next;
    return n;
}

xmlNodePtr xml_first_elem(xmlNodePtr node)
{
    return node ? elem_from(node->children) : NULL;
}

xmlNodePtr xml_next_elem(xmlNodePtr node)
{
    return node ? elem_from(node->next) : NULL;
}

void xml_cleanup(void)
{
    for (unsigned i = 0; i < sizeof cache / sizeof cache[0]; i++) {
        if (cache[i].schema)
            xmlSchemaFree(cache[i].schema);
        cache[i].xsd = NULL;
        cache[i].schema = NULL;
    }
    xmlCleanupParser();
}
