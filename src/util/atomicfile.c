/* Atomic file writing (see atomicfile.h). */
#include "util/atomicfile.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int atomicfile_open(struct atomicfile *af, const char *path)
{
	struct strbuf tmp = STRBUF_INIT;
	struct stat st;
	int fd;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* /dev/null, /dev/stderr, a FIFO: written in place, never
		 * renamed over (af->tmp stays NULL) */
		af->fp = fopen(path, "we");
		if (!af->fp)
			return error("cannot open '%s': %s", path, strerror(errno));
		af->path = xstrdup(path);
		af->tmp = NULL;
		return 0;
	}
	strbuf_addf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot create '%s': %s", path, strerror(errno));
		strbuf_release(&tmp);
		return -1;
	}
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		close(fd);
		unlink(tmp.buf);
		strbuf_release(&tmp);
		return error("cannot open '%s': %s", path, strerror(errno));
	}
	af->path = xstrdup(path);
	af->tmp = strbuf_detach(&tmp, NULL);
	return 0;
}

static void af_free(struct atomicfile *af)
{
	free(af->path);
	free(af->tmp);
	af->path = af->tmp = NULL;
	af->fp = NULL;
}

int atomicfile_commit(struct atomicfile *af)
{
	int bad = ferror(af->fp);
	int e = 0;

	/* no fsync: the rename already makes the file complete or absent for
	 * every reader and against renacer dying; fsync would only guard
	 * against power loss, at a cost of milliseconds per trace */
	if (fflush(af->fp) != 0 || bad)
		e = errno ? errno : EIO;
	if (fclose(af->fp) != 0 && !e)
		e = errno;
	if (!e && af->tmp && rename(af->tmp, af->path) != 0)
		e = errno;
	if (e) {
		if (af->tmp)
			unlink(af->tmp);
		error("cannot write '%s': %s", af->path, strerror(e));
		af_free(af);
		return -1;
	}
	af_free(af);
	return 0;
}

void atomicfile_abort(struct atomicfile *af)
{
	if (af->fp)
		fclose(af->fp);
	if (af->tmp)
		unlink(af->tmp);
	af_free(af);
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	struct atomicfile af;

	if (atomicfile_open(&af, path) < 0)
		return -1;
	if (len && fwrite(data, 1, len, af.fp) != len) {
		atomicfile_abort(&af);
		return error("cannot write '%s': %s", path, strerror(errno));
	}
	return atomicfile_commit(&af);
}
