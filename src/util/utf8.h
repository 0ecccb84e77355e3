/* UTF-8: the one decoder of sequences every writer of text uses. */
#ifndef RENACER_UTIL_UTF8_H
#define RENACER_UTIL_UTF8_H

#include <stddef.h>

/*
 * Length of the valid UTF-8 sequence at s (at most n bytes), 0 when the
 * bytes there are not valid UTF-8 (overlong forms, surrogates and values
 * above U+10FFFF are invalid).  *cp gets the code point when cp is not NULL.
 */
size_t utf8_seq_len(const unsigned char *s, size_t n, unsigned *cp);

#endif
