/*
 * UnbufferedIO: `ap_unbuffered tiny FILE N` writes N bytes to FILE one
 * byte per write, then reads them back one byte per read;
 * `ap_unbuffered buffered FILE N` writes and reads the same bytes through
 * stdio's buffers (a few 4 KiB calls).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	long n = atol(argv[3]);
	if (!strcmp(argv[1], "tiny")) {
		int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return 1;
		for (long i = 0; i < n; i++)
			if (write(fd, "x", 1) != 1)
				return 1;
		close(fd);
		fd = open(argv[2], O_RDONLY);
		char c;
		while (read(fd, &c, 1) == 1)
			;
		close(fd);
		return 0;
	}
	FILE *f = fopen(argv[2], "w");
	if (!f)
		return 1;
	for (long i = 0; i < n; i++)
		fputc('x', f);
	fclose(f);
	f = fopen(argv[2], "r");
	if (!f)
		return 1;
	while (fgetc(f) != EOF)
		;
	fclose(f);
	return 0;
}
