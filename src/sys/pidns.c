/*
 * Process ids across pid namespaces (see pidns.h).  An id a tracee sees in
 * its own namespace is found in /proc: each /proc/N/status lists the ids of
 * N in every namespace from the one /proc belongs to down to N's own
 * (NSpid, NStgid, NSpgid, NSsid), and /proc/N/ns/pid with the NS_GET_PARENT
 * ioctl gives N's namespaces from its own up to the highest renacer may see
 * (its own).  Found ids are cached by (namespace, id, type) and checked
 * again before use.
 */
#include "sys/pidns.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/decode_extra.h"
#include "sys/tmem.h"
#include "util/xmalloc.h"
#include "util/banned.h"

#define MAX_NS_DEPTH 32

/* What the namespace inodes and ids of one /proc entry say. */
struct proc_ids {
	unsigned ns[MAX_NS_DEPTH];   /* its namespace, then the parents */
	size_t nns;
	int id[MAX_NS_DEPTH];        /* ids of the type, /proc's namespace first */
	size_t nid;
};

static const char *const id_fields[] = {
	[PT_NONE] = "NSpid:", [PT_TID] = "NSpid:", [PT_TGID] = "NStgid:",
	[PT_PGID] = "NSpgid:", [PT_SID] = "NSsid:",
};

static bool ns_get_parent_broken;

/* The pid namespaces of /proc/<dir>, its own first. */
static size_t ns_hierarchy(const char *dir, unsigned *ns, size_t max)
{
	char path[64];
	size_t n = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/ns/pid", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while (n < max) {
		struct stat st;
		int parent;

		if (fstat(fd, &st))
			break;
		ns[n++] = (unsigned)st.st_ino;
		if (ns_get_parent_broken)
			break;
		parent = ioctl(fd, NS_GET_PARENT);
		if (parent < 0) {
			if (errno == ENOTTY)
				ns_get_parent_broken = true;
			break;
		}
		close(fd);
		fd = parent;
	}
	close(fd);
	return n;
}

/* The ids of field (NSpid: ...) in /proc/<dir>/status. */
static size_t id_list(const char *dir, const char *field, int *id, size_t max)
{
	char path[64], line[512];
	size_t n = 0, flen = strlen(field);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/status", dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + flen, *end;

		if (strncmp(line, field, flen))
			continue;
		while (n < max) {
			long x = strtol(p, &end, 10);

			if (end == p)
				break;
			id[n++] = (int)x;
			p = end;
		}
		break;
	}
	fclose(f);
	return n;
}

static bool read_ids(const char *dir, enum pid_type type, struct proc_ids *p)
{
	p->nns = ns_hierarchy(dir, p->ns, MAX_NS_DEPTH);
	p->nid = p->nns ? id_list(dir, id_fields[type], p->id, MAX_NS_DEPTH) : 0;
	return p->nns && p->nid >= p->nns;
}

/*
 * The id in the highest namespace renacer sees of the entry p, when its id
 * in namespace ns is id; 0 when it has none there.
 */
static int match_ids(const struct proc_ids *p, unsigned ns, int id)
{
	for (size_t i = 0; i < p->nns; i++) {
		if (p->ns[i] != ns)
			continue;
		if (p->id[p->nid - 1 - i] != id)
			return 0;
		return p->id[p->nid - p->nns];
	}
	return 0;
}

/* A few recent answers: (namespace, id, type) -> /proc entry. */
static struct {
	unsigned ns;
	int id, type;
	char dir[64];
} cache[64];
static unsigned cache_next;

static int from_cache(unsigned ns, int id, enum pid_type type, char *dir, size_t dsize)
{
	for (size_t i = 0; i < ARRAY_SIZE(cache); i++) {
		struct proc_ids p;
		int r;

		if (cache[i].ns != ns || cache[i].id != id || cache[i].type != (int)type)
			continue;
		if (read_ids(cache[i].dir, type, &p) && (r = match_ids(&p, ns, id))) {
			if (dir)
				snprintf(dir, dsize, "%s", cache[i].dir);
			return r;
		}
		cache[i].ns = 0;
	}
	return 0;
}

static void to_cache(unsigned ns, int id, enum pid_type type, const char *dir)
{
	cache[cache_next].ns = ns;
	cache[cache_next].id = id;
	cache[cache_next].type = (int)type;
	if (strlen(dir) >= sizeof(cache[cache_next].dir))
		return;
	memcpy(cache[cache_next].dir, dir, strlen(dir) + 1);
	cache_next = (cache_next + 1) % ARRAY_SIZE(cache);
}

/* Searches /proc (and each process's tasks) for the entry whose id in
 * namespace ns is id; its id for renacer, or 0.  dir gets its /proc name. */
static int search_proc(unsigned ns, int id, enum pid_type type, char *dir, size_t dsize)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int r = 0;

	if (!d)
		return 0;
	while (!r && (e = readdir(d))) {
		char tdir[300];
		size_t dlen = strlen(e->d_name);
		DIR *td;
		struct dirent *te;
		struct proc_ids p;

		if (e->d_name[0] < '1' || e->d_name[0] > '9' || dlen > 20)
			continue;
		snprintf(tdir, sizeof(tdir), "/proc/%s/task", e->d_name);
		td = opendir(tdir);
		while (td && !r && (te = readdir(td))) {
			char name[64];

			if (te->d_name[0] < '1' || te->d_name[0] > '9' || strlen(te->d_name) > 20)
				continue;
			memcpy(name, e->d_name, dlen);
			memcpy(name + dlen, "/task/", 6);
			memcpy(name + dlen + 6, te->d_name, strlen(te->d_name) + 1);
			if (read_ids(name, type, &p) && (r = match_ids(&p, ns, id)))
				snprintf(dir, dsize, "%s", name);
		}
		if (td)
			closedir(td);
		if (!r && read_ids(e->d_name, type, &p) && (r = match_ids(&p, ns, id)))
			snprintf(dir, dsize, "%s", e->d_name);
	}
	closedir(d);
	return r;
}

/* renacer's own pid namespace. */
static unsigned our_ns(void)
{
	static unsigned ns;

	if (!ns)
		ns_hierarchy("self", &ns, 1);
	return ns;
}

/* Whether /proc shows ids of renacer's namespace (its NSpid has one id). */
static bool proc_is_ours(void)
{
	static int ours = -1;

	if (ours < 0) {
		int id[MAX_NS_DEPTH];

		ours = id_list("self", "NSpid:", id, MAX_NS_DEPTH) <= 1;
	}
	return ours;
}

/* The /proc entry of thread tid (an id of renacer's namespace), in dir. */
static bool proc_dir_of(pid_t tid, char *dir, size_t dsize)
{
	if (proc_is_ours()) {
		snprintf(dir, dsize, "%d", (int)tid);
		return true;
	}
	if (from_cache(our_ns(), tid, PT_TID, dir, dsize) ||
	    search_proc(our_ns(), tid, PT_TID, dir, dsize)) {
		to_cache(our_ns(), tid, PT_TID, dir);
		return true;
	}
	return false;
}

int pidns_translate(pid_t tid, int id, enum pid_type type)
{
	char dir[320];
	unsigned ns;
	int r;

	if (id <= 0 || type == PT_NONE)
		return 0;
	/* a recording's task may be gone: taken to be in renacer's
	 * namespace (docs/architecture.md) */
	if (!proc_dir_of(tid, dir, sizeof(dir)) || !ns_hierarchy(dir, &ns, 1))
		return tmem_viewing() ? id : 0;
	if (ns == our_ns())
		return id;
	if (ns_get_parent_broken)
		return 0;
	r = from_cache(ns, id, type, dir, sizeof(dir));
	if (!r && (r = search_proc(ns, id, type, dir, sizeof(dir))))
		to_cache(ns, id, type, dir);
	return r;
}

const char *pidns_comm(struct dctx *c, int pid)
{
	char dir[320], buf[64], out[4 * sizeof(buf) + 1];
	ssize_t got;
	size_t n, k = 0;

	if (pid <= 0)
		return NULL;
	if (tmem_viewing()) {
		/* a recording: the command the task had at the call */
		got = tmem_task_comm(pid, buf, sizeof(buf));
	} else {
		char path[360];
		FILE *f;

		if (!proc_dir_of(pid, dir, sizeof(dir)))
			return NULL;
		snprintf(path, sizeof(path), "/proc/%s/comm", dir);
		f = fopen(path, "re");
		if (!f)
			return NULL;
		got = fgets(buf, sizeof(buf), f) ? (ssize_t)strcspn(buf, "\n") : 0;
		fclose(f);
	}
	if (got <= 0)
		return NULL;
	n = (size_t)got;
	/* escaped as strace's print_comm_str: '<', '>' and non-printable
	 * bytes in octal */
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)buf[i];

		if (ch < ' ' || ch >= 0x7f || ch == '<' || ch == '>' || ch == '\\')
			k += (size_t)snprintf(out + k, sizeof(out) - k, "\\%o", ch);
		else
			out[k++] = (char)ch;
	}
	out[k] = '\0';
	return arena_strndup(c->arena, out, k);
}

/* The items that follow a pid: "<comm>", " / * N in strace's PID NS * /";
 * returns how many were set in it (room for 3). */
static unsigned pid_suffix(struct dctx *c, struct val *it, int pid, enum pid_type type)
{
	unsigned mode = c->opts->decode_pids, n = 0;
	int ours;

	if (!(mode & (DECODE_PID_NS | DECODE_PID_COMM)) || pid <= 0 || type == PT_NONE)
		return 0;
	ours = pidns_translate(c->tid, pid, type);
	if (!ours)
		return 0;
	if ((mode & DECODE_PID_COMM) && (type == PT_TID || type == PT_TGID)) {
		const char *comm = pidns_comm(c, ours);

		if (comm) {
			char *s = arena_alloc(c->arena, strlen(comm) + 3);

			s[0] = '<';
			memcpy(s + 1, comm, strlen(comm));
			s[strlen(comm) + 1] = '>';
			s[strlen(comm) + 2] = '\0';
			val_set_text(c, &it[n++], NULL, s);
		}
	}
	if ((mode & DECODE_PID_NS) && ours != pid) {
		char buf[64];

		snprintf(buf, sizeof(buf), "%d in strace's PID NS", ours);
		val_set_text(c, &it[n++], NULL, " ");
		val_set_comment(c, &it[n++], buf);
	}
	return n;
}

void val_set_pid(struct dctx *c, struct val *v, const char *name, int pid,
		 enum pid_type type)
{
	struct val *it = val_new_array(c, 4);
	unsigned n;

	val_set_int(&it[0], NULL, pid);
	n = pid_suffix(c, it + 1, pid, type);
	if (!n) {
		val_set_int(v, name, pid);
		return;
	}
	val_set_op(v, name, it, n + 1, NULL);
}

void arg_pid(struct dctx *c, struct event *ev, unsigned i, enum pid_type type)
{
	struct val *v = arg_slot(c, ev, i);

	val_set_pid(c, v, v->name, (int)ev->karg[i], type);
	if (ev->type == EV_SYSCALL)
		v->flags |= VF_EXIT;
}

void val_set_pid_tgid_pgid(struct dctx *c, struct val *v, const char *name, int pid)
{
	if (pid > 0) {
		val_set_pid(c, v, name, pid, PT_TGID);
	} else if (pid < -1) {
		struct val *it = val_new_array(c, 4);
		unsigned n;

		val_set_int(&it[0], NULL, pid);
		n = pid_suffix(c, it + 1, -pid, PT_PGID);
		if (n)
			val_set_op(v, name, it, n + 1, NULL);
		else
			val_set_int(v, name, pid);
	} else {
		val_set_int(v, name, pid);
	}
}

void ret_set_pid(struct dctx *c, struct event *ev, enum pid_type type)
{
	struct val *it, *aux;
	unsigned n;

	if (ev->err || ev->retval <= 0)
		return;
	it = val_new_array(c, 3);
	n = pid_suffix(c, it, (int)ev->retval, type);
	if (!n)
		return;
	aux = arena_calloc(c->arena, sizeof(*aux));
	val_set_op(aux, NULL, it, n, NULL);
	aux->flags |= VF_RET_SUFFIX;
	ev->ret_aux = aux;
}
