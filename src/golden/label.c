/* Task labels (see label.h). */
#include "golden/label.h"

#include <ctype.h>
#include <stdlib.h>

#include "util/banned.h"

int gproc_label_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);
			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}
