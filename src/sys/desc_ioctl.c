/*
 * The ioctl decoder: the request's name (from the table generated from the
 * kernel headers, parametrised names, or strace's _IOC(dir, type, nr, size))
 * and a dispatch of the third argument on the request's type byte to the
 * family decoders (src/sys/ioctl_<family>.c), as strace's ioctl.c.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/ioc.h"
#include "sys/ioctlent.h"
#include "util/arena.h"
#include "util/xmalloc.h"

#include "util/banned.h"

/* ---- names ---------------------------------------------------------------- */

static struct ioctlent *sorted;
static size_t nsorted;
static pthread_once_t sorted_once = PTHREAD_ONCE_INIT;

static int cmp_code_name(const void *a, const void *b)
{
	const struct ioctlent *x = a, *y = b;

	if (x->code != y->code)
		return x->code < y->code ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void sort_table(void)
{
	nsorted = ioctlent_gen_count;
	sorted = xmalloc(nsorted * sizeof(*sorted) + 1);
	memcpy(sorted, ioctlent_gen, nsorted * sizeof(*sorted));
	qsort(sorted, nsorted, sizeof(*sorted), cmp_code_name);
}

static bool is_prefix(const char *p, const char *s)
{
	return !strncmp(p, s, strlen(p));
}

const char *ioctl_lookup_name(struct dctx *c, uint32_t code)
{
	size_t lo = 0, hi, len = 0;
	char *out, *p;

	pthread_once(&sorted_once, sort_table);
	hi = nsorted;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sorted[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= nsorted || sorted[lo].code != code)
		return NULL;
	/* every name of the number, "A or B", leaving out a name that the
	 * one before it is a prefix of (strace's ioctlsort) */
	for (size_t i = lo; i < nsorted && sorted[i].code == code; i++)
		len += strlen(sorted[i].name) + 4;
	p = out = arena_alloc(c->arena, len + 1);
	for (size_t i = lo; i < nsorted && sorted[i].code == code; i++) {
		size_t n = strlen(sorted[i].name);

		if (i > lo && is_prefix(sorted[i - 1].name, sorted[i].name))
			continue;
		if (p != out) {
			memcpy(p, " or ", 4);
			p += 4;
		}
		memcpy(p, sorted[i].name, n);
		p += n;
	}
	*p = '\0';
	return out;
}

const char *ioctl_ioc_text(struct dctx *c, uint32_t code)
{
	static const char *const dirs[] = {
		"_IOC_NONE", "_IOC_WRITE", "_IOC_READ", "_IOC_READ|_IOC_WRITE",
	};
	const char *d = dirs[_IOC_DIR(code) & 3];
	char nr[16], size[16], type[16];

	snprintf(type, sizeof(type), _IOC_TYPE(code) ? "%#x" : "0", _IOC_TYPE(code));
	snprintf(nr, sizeof(nr), _IOC_NR(code) ? "%#x" : "0", _IOC_NR(code));
	snprintf(size, sizeof(size), _IOC_SIZE(code) ? "%#x" : "0", _IOC_SIZE(code));
	return ioc_printf(c, "_IOC(%s, %s, %s, %s)", d, type, nr, size);
}

/* NAME(size) of the parametrised requests strace names (hiddev, joystick,
 * uinput, spidev, the OSS mixer); NULL for the others. */
static const char *param_name(struct dctx *c, uint32_t code)
{
	unsigned dir = _IOC_DIR(code), nr = _IOC_NR(code), size = _IOC_SIZE(code);

	switch (_IOC_TYPE(code)) {
	case 'H':
		if (dir == _IOC_READ) {
			switch (nr) {
			case 0x04: return ioc_printf(c, "HIDIOCGRAWNAME(%u)", size);
			case 0x05: return ioc_printf(c, "HIDIOCGRAWPHYS(%u)", size);
			case 0x06: return ioc_printf(c, "HIDIOCSFEATURE(%u)", size);
			case 0x08: return ioc_printf(c, "HIDIOCGRAWUNIQ(%u)", size);
			case 0x12: return ioc_printf(c, "HIDIOCGPHYS(%u)", size);
			}
		} else if (dir == (_IOC_READ | _IOC_WRITE)) {
			switch (nr) {
			case 0x06: return ioc_printf(c, "HIDIOCSFEATURE(%u)", size);
			case 0x07: return ioc_printf(c, "HIDIOCGFEATURE(%u)", size);
			}
		}
		return NULL;
	case 'M':
		if (dir == _IOC_WRITE)
			return ioc_printf(c, "MIXER_WRITE(%u)", nr);
		if (dir == _IOC_READ)
			return ioc_printf(c, "MIXER_READ(%u)", nr);
		return NULL;
	case 'U':
		if (dir == _IOC_READ && nr == 0x2c)
			return ioc_printf(c, "UI_GET_SYSNAME(%u)", size);
		return NULL;
	case 'j':
		if (dir == _IOC_READ && nr == 0x13)
			return ioc_printf(c, "JSIOCGNAME(%u)", size);
		return NULL;
	case 'k':
		if (dir == _IOC_WRITE && nr == 0)
			return ioc_printf(c, "SPI_IOC_MESSAGE(%u)", size);
		return NULL;
	case '!':
		/* the number the kernel used for SECCOMP_IOCTL_NOTIF_ID_VALID
		 * before 5.7 */
		if (code == _IOC(_IOC_READ, '!', 2, sizeof(uint64_t)))
			return "SECCOMP_IOCTL_NOTIF_ID_VALID_WRONG_DIR";
		return NULL;
	}
	return NULL;
}

/*
 * The request: its names as an enum of one entry (so that -X raw shows the
 * number and -X verbose both), or a parametrised name, or _IOC(...).
 */
static void set_request(struct ioc *io)
{
	struct dctx *c = io->c;
	struct val *v = arg_slot(c, io->ev, 1);
	const char *name = ioctl_lookup_name(c, io->code);
	const char *param;

	if (_IOC_TYPE(io->code) == 'E' && ioctl_evdev_name(io, v, name))
		return;
	param = param_name(c, io->code);
	if (param && name)
		name = ioc_printf(c, "%s or %s", param, name);
	else if (param)
		name = param;
	if (!name)
		name = ioctl_ioc_text(c, io->code);
	val_set_enum(v, v->name, io->code, ioc_xlat1(c, io->code, name));
}

/* ---- dispatch ------------------------------------------------------------- */

/* 'f' requests: the FS_IOC_* ones, and FIONREAD and friends on other
 * architectures (not here). */
static ioctl_fn family(uint32_t code)
{
	switch (_IOC_TYPE(code)) {
	case 0x03: return ioctl_hdio;
	case 0x12: return ioctl_block;
	case '!': return ioctl_seccomp;
	case '"': return ioctl_scsi;
	case '$': return ioctl_perf;
	case '=': return ioctl_ptp;
	case '>': return ioctl_counter;
	case 'E': return ioctl_evdev;
	case 'I': return ioctl_inotify;
	case 'K': return ioctl_kd;
	case 'L': return ioctl_loop;
	case 'M': return ioctl_mtd;
	case 'O': return ioctl_ubi;
	case 'R': return ioctl_random;
	case 'T': return ioctl_term;
	case 'V': return ioctl_v4l2;
	case 'W': return ioctl_watchdog;
	case 'X': return ioctl_fs_x;
	case 'f': return ioctl_fs_f;
	case 'i': return ioctl_lirc;
	case 'o': return ioctl_ubi;
	case 'p': return ioctl_rtc;
	case 0x89: return ioctl_sock;
	case 0x94: return ioctl_fs_0x94;
	case 0xa4: return ioctl_tee;
	case 0xaa: return ioctl_uffdio;
	case 0xab: return ioctl_nbd;
	case 0xae: return ioctl_kvm;
	case 0xb4: return ioctl_gpio;
	case 0xb7: return ioctl_nsfs;
	case 0xfd: return ioctl_dm;
	}
	return NULL;
}

SYS_FUNC(ioctl)
{
	struct ioc io = {
		.c = ctx, .ev = ev, .code = (uint32_t)ev->karg[1], .arg = ev->karg[2],
		.exiting = exiting != 0,
	};
	ioctl_fn fn = family(io.code);
	int rc = IOC_DEFAULT;

	if (!exiting) {
		arg_fd(ctx, ev, 0);
		set_request(&io);
	}
	if (fn)
		rc = fn(&io);
	if (rc == IOC_EXIT && !exiting) {
		if (!io.noarg)
			arg_count(ev, 3);
		return RVAL_EXIT;
	}
	if (rc == IOC_DEFAULT)
		arg_hex(ctx, ev, 2);
	else
		ioc_close_open(&io);
	return RVAL_DONE;
}
