/*
 * html.h - writing HTML that is safe and self-contained.
 *
 * The leaderboard and the student report are single pages that a person
 * opens from a file or a course web site. Every string that came from a
 * submission (labels, method names, source lines, messages) goes through
 * html_text, every link target through html_url_component, and the page
 * frame carries its style inline: no writer emits a reference to anything
 * outside the page (no script, style sheet, font or image from elsewhere).
 */
#ifndef PSF_HTML_H
#define PSF_HTML_H

#include <stdint.h>
#include <stdio.h>

/* s as HTML text or attribute value: & < > " ' as entities, control
 * characters other than tab and newline as '?'. NULL writes nothing. */
void html_text(FILE *f, const char *s);

/* s as one path segment of a relative URL: every byte outside
 * [A-Za-z0-9._~-] as %XX, so a label cannot add a scheme, a host or a
 * directory. */
void html_url_component(FILE *f, const char *s);

/* <!DOCTYPE html> up to the opening <body>, with the shared inline style
 * and, when given, extra_css (trusted: written as is). */
void html_page_open(FILE *f, const char *title, const char *extra_css);

/* </body></html>. */
void html_page_close(FILE *f);

/* A duration for a person, three significant digits: "850 ns", "12.3 us",
 * "4.56 ms", "1.23 s", "1234 s". buf holds at least 32 bytes. */
const char *html_duration(uint64_t ns, char *buf, size_t cap);

#endif
