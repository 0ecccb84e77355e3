/* Kinds of file and I/O buckets for the I/O volume of a trace (model.c). */
#ifndef RENACER_GOLDEN_GIO_H
#define RENACER_GOLDEN_GIO_H

/* Kinds of file for I/O volume. */
enum gio_kind {
	GK_FILE = 0,            /* regular file (also /proc, /sys, memfd) */
	GK_PIPE,                /* pipe or FIFO */
	GK_SOCKET,
	GK_TTY,                 /* terminal */
	GK_DEVICE,              /* another device (/dev/null, /dev/urandom) */
	GK_OTHER,               /* anything else, or not known */
	GK_STDIO,               /* the standard streams the command was given
				   (fds 0-2 as inherited): its messages */
	GK_NKINDS,
};
/* An I/O bucket: kind * 2 + direction (0 in: read or received, 1 out). */
#define GIO_BUCKET(kind, out) ((kind) * 2 + (out))
#define GIO_NBUCKETS (GK_NKINDS * 2)
/* "file_read", "socket_sent", ...: the bucket's name in traces and reports. */
const char *gio_bucket_name(int bucket);
/* "bytes written to regular files", "bytes received from sockets", ... */
const char *gio_bucket_phrase(int bucket);
/* The bucket named s, or -1. */
int gio_bucket_parse(const char *s);

#endif
