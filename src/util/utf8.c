/* UTF-8 sequences (see utf8.h). */
#include "util/utf8.h"

#include "util/banned.h"

size_t utf8_seq_len(const unsigned char *s, size_t n, unsigned *cpp)
{
	unsigned c = s[0];
	size_t len, i;
	unsigned cp;

	if (c < 0x80) {
		if (cpp)
			*cpp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	if (cpp)
		*cpp = cp;
	return len;
}
