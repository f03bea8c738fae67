/*
 * html.c - escaping and the page frame (see html.h).
 */
#include "html.h"

#include <string.h>

void html_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            fputc((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f ? '?' : c, f);
        }
    }
}

void html_url_component(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '.' || c == '_' || c == '~' || c == '-')
            fputc(c, f);
        else
            fprintf(f, "%%%02X", c);
    }
}

/* The style both pages share: readable on screen and on paper, no web fonts. */
static const char base_css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:70em;"
    "padding:0 1em;color:#1b1b1b;background:#fff;line-height:1.4}"
    "h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;margin-top:1.6em}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "th,td{padding:.25em .7em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}"
    "th{background:#f2f2f2}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}"
    "code,.mono{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.92em}"
    ".meta{color:#555}.approx{color:#a35200}.bad{color:#b00020}.good{color:#1b6e20}"
    ".bar{display:inline-block;height:.8em;background:#d9534f;vertical-align:middle}";

void html_page_open(FILE *f, const char *title, const char *extra_css)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
    html_text(f, title);
    fprintf(f, "</title>\n<style>%s%s</style>\n</head>\n<body>\n", base_css, extra_css ? extra_css : "");
}

void html_page_close(FILE *f)
{
    fputs("</body>\n</html>\n", f);
}

const char *html_duration(uint64_t ns, char *buf, size_t cap)
{
    static const char *const unit[] = { "ns", "us", "ms", "s" };
    uint64_t scale = 1;
    int u = 0;

    while (u < 3 && ns >= scale * 1000) {
        scale *= 1000;
        u++;
    }
    if (u == 0 || ns / scale >= 100) {
        snprintf(buf, cap, "%llu %s", (unsigned long long)((ns + scale / 2) / scale), unit[u]);
    } else {
        /* one or two decimals so that three digits show */
        unsigned dec = ns / scale >= 10 ? 1 : 2;
        uint64_t div = dec == 1 ? scale / 10 : scale / 100;
        uint64_t v = (ns + div / 2) / div;
        snprintf(buf, cap, "%llu.%0*llu %s", (unsigned long long)(v / (dec == 1 ? 10 : 100)), (int)dec,
                 (unsigned long long)(v % (dec == 1 ? 10 : 100)), unit[u]);
    }
    return buf;
}
