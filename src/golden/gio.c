/* Kinds of file and I/O buckets (see gio.h). */
#include "golden/gio.h"

#include <stdio.h>
#include <string.h>

#include "util/banned.h"

static const char *const gio_kind_names[GK_NKINDS] = {
	"file", "pipe", "socket", "tty", "device", "other", "stdio",
};

const char *gio_bucket_name(int bucket)
{
	static char names[GIO_NBUCKETS][24];
	int k = bucket / 2, out = bucket % 2;

	if (bucket < 0 || bucket >= GIO_NBUCKETS)
		return "?";
	if (!names[bucket][0])
		snprintf(names[bucket], sizeof(names[bucket]), "%s_%s", gio_kind_names[k],
			 k == GK_SOCKET ? (out ? "sent" : "received") : (out ? "written" : "read"));
	return names[bucket];
}

const char *gio_bucket_phrase(int bucket)
{
	static const char *const p[GIO_NBUCKETS] = {
		"bytes read from regular files", "bytes written to regular files",
		"bytes read from pipes", "bytes written to pipes",
		"bytes received from sockets", "bytes sent to sockets",
		"bytes read from terminals", "bytes written to terminals",
		"bytes read from devices", "bytes written to devices",
		"bytes read from other files", "bytes written to other files",
		"bytes read from the standard input", "bytes written to the standard output and error",
	};
	return bucket >= 0 && bucket < GIO_NBUCKETS ? p[bucket] : "bytes";
}

int gio_bucket_parse(const char *s)
{
	for (int i = 0; i < GIO_NBUCKETS; i++)
		if (!strcmp(gio_bucket_name(i), s))
			return i;
	return -1;
}

