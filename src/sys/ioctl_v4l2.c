/*
 * Video4Linux2 ioctls ('V', linux/videodev2.h): capabilities, formats (by
 * buffer type), buffers, stream parameters, standards, inputs, controls
 * (ids by name or class+offset), tuners, crops, frame sizes and intervals.
 * Most structures show their input fields at entry and the rest at exit.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <linux/videodev2.h>

#include "sys/ioc.h"
#include "xlat/v4l2_buf_flags.h"
#include "xlat/v4l2_buf_flags_ts_src.h"
#include "xlat/v4l2_buf_flags_ts_type.h"
#include "xlat/v4l2_buf_types.h"
#include "xlat/v4l2_capture_modes.h"
#include "xlat/v4l2_colorspaces.h"
#include "xlat/v4l2_control_classes.h"
#include "xlat/v4l2_control_flags.h"
#include "xlat/v4l2_control_ids.h"
#include "xlat/v4l2_control_query_flags.h"
#include "xlat/v4l2_control_types.h"
#include "xlat/v4l2_device_capabilities_flags.h"
#include "xlat/v4l2_fields.h"
#include "xlat/v4l2_format_description_flags.h"
#include "xlat/v4l2_frameinterval_types.h"
#include "xlat/v4l2_framesize_types.h"
#include "xlat/v4l2_input_types.h"
#include "xlat/v4l2_memories.h"
#include "xlat/v4l2_meta_fmts.h"
#include "xlat/v4l2_pix_fmts.h"
#include "xlat/v4l2_sdr_fmts.h"
#include "xlat/v4l2_sliced_flags.h"
#include "xlat/v4l2_streaming_capabilities.h"
#include "xlat/v4l2_tuner_audmodes.h"
#include "xlat/v4l2_tuner_capabilities.h"
#include "xlat/v4l2_tuner_rxsubchanses.h"
#include "xlat/v4l2_tuner_types.h"
#include "xlat/v4l2_vbi_flags.h"

#include "util/banned.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define UPTO(n, a) ((n) < NELEM(a) ? (unsigned)(n) : (unsigned)NELEM(a))

/* ---- value helpers ------------------------------------------------------- */

static void rect(struct dctx *c, struct val *v, const char *name, const struct v4l2_rect *r)
{
	struct val *f = val_new_array(c, 4);

	FLD_D(&f[0], *r, left);
	FLD_D(&f[1], *r, top);
	FLD_U(&f[2], *r, width);
	FLD_U(&f[3], *r, height);
	val_set_struct(v, name, f, 4, false);
}

static void fract(struct dctx *c, struct val *v, const char *name, const struct v4l2_fract *f)
{
	val_set_text(c, v, name, ioc_printf(c, "%u/%u", f->numerator, f->denominator));
}

/* v4l2_fourcc('R', 'G', 'B', '3') / * V4L2_PIX_FMT_RGB24 * / (-X raw: the number) */
static void fourcc(struct dctx *c, struct val *v, const char *name, uint32_t x,
		   const struct xlat *xl)
{
	char a[4][8];
	struct val t, raw, ab;
	const char *nm = xl ? xlat_name(xl, x) : NULL;

	for (int i = 0; i < 4; i++)
		ioc_char_text(a[i], (unsigned char)(x >> (8 * i)), false);
	val_set_text(c, &t, NULL, ioc_printf(c, "v4l2_fourcc(%s, %s, %s, %s)", a[0], a[1], a[2],
					     a[3]));
	val_set_commented(c, &ab, NULL, &t, nm);
	val_set_hex(&raw, NULL, x);
	ioc_set_xalt(c, v, name, &ab, &raw, &ab);
}

/* KERNEL_VERSION(5, 19, 0) (-X raw: 0x51300) */
static void kernel_version(struct dctx *c, struct val *v, const char *name, uint32_t ver)
{
	const char *t = ioc_printf(c, "KERNEL_VERSION(%u, %u, %u)", ver >> 16, (ver >> 8) & 0xff,
				   ver & 0xff);

	val_set_enum(v, name, ver, ioc_xlat1(c, ver, t));
}

/* A control id: its name, CLASS+0x.. inside a known class, else
 * 0x... / * V4L2_CID_??? * /; next_flags: V4L2_CTRL_FLAG_NEXT_* first. */
static void cid(struct dctx *c, struct val *v, const char *name, uint32_t id, bool next_flags)
{
	uint32_t flags = next_flags ? id & (V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND)
				    : 0;
	uint32_t rest = id & ~flags;
	const char *nm = xlat_name(v4l2_control_ids, rest);
	struct val idv, ab, *parts;

	if (nm) {
		val_set_enum(&idv, NULL, rest, v4l2_control_ids);
	} else {
		const char *cls = NULL;
		uint64_t best = 0;

		for (uint32_t i = 0; i < v4l2_control_classes->size; i++) {
			uint64_t cv = v4l2_control_classes->data[i].val;

			if (cv <= rest && (!cls || cv > best)) {
				best = cv;
				cls = v4l2_control_classes->data[i].str;
			}
		}
		if (cls && rest - best < 0x10000)
			val_set_enum(&idv, NULL, rest,
				     ioc_xlat1(c, rest, ioc_printf(c, "%s+%#llx", cls,
								   (unsigned long long)(rest - best))));
		else
			val_set_enum(&idv, NULL, rest, v4l2_control_ids);
	}
	if (!flags) {
		*v = idv;
		v->name = name;
		return;
	}
	/* V4L2_CTRL_FLAG_NEXT_CTRL|V4L2_CID_BRIGHTNESS; -X raw: one number */
	parts = val_new_array(c, 3);
	val_set_flags(&parts[0], NULL, flags, v4l2_control_query_flags, NULL);
	val_set_text(c, &parts[1], NULL, "|");
	parts[2] = idv;
	val_set_op(&ab, NULL, parts, 3, NULL);
	{
		struct val raw;

		val_set_hex(&raw, NULL, id);
		ioc_set_xalt(c, v, name, &ab, &raw, &ab);
	}
}

/* ---- formats ------------------------------------------------------------- */

static void pix(struct dctx *c, struct val *v, const struct v4l2_pix_format *p)
{
	struct val *f = val_new_array(c, 7);

	FLD_U(&f[0], *p, width);
	FLD_U(&f[1], *p, height);
	fourcc(c, &f[2], "pixelformat", p->pixelformat, v4l2_pix_fmts);
	val_set_enum(&f[3], "field", p->field, v4l2_fields);
	FLD_U(&f[4], *p, bytesperline);
	FLD_U(&f[5], *p, sizeimage);
	val_set_enum(&f[6], "colorspace", p->colorspace, v4l2_colorspaces);
	val_set_struct(v, "fmt.pix", f, 7, false);
}

static void pix_mp(struct ioc *io, struct val *v, const struct v4l2_pix_format_mplane *p)
{
	struct dctx *c = io->c;
	struct val *f = val_new_array(c, 7);
	unsigned n = UPTO(p->num_planes, p->plane_fmt);
	struct val *pl = val_new_array(c, n);

	FLD_U(&f[0], *p, width);
	FLD_U(&f[1], *p, height);
	fourcc(c, &f[2], "pixelformat", p->pixelformat, v4l2_pix_fmts);
	val_set_enum(&f[3], "field", p->field, v4l2_fields);
	val_set_enum(&f[4], "colorspace", p->colorspace, v4l2_colorspaces);
	for (unsigned i = 0; i < n; i++) {
		struct val *g = val_new_array(c, 2);

		FLD_U(&g[0], p->plane_fmt[i], sizeimage);
		FLD_U(&g[1], p->plane_fmt[i], bytesperline);
		val_set_struct(&pl[i], NULL, g, 2, false);
	}
	val_set_local_array(c, &f[5], "plane_fmt", pl, n);
	FLD_U(&f[6], *p, num_planes);
	val_set_struct(v, "fmt.pix_mp", f, 7, false);
}

static void clip_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	const struct v4l2_clip *cl = elem;
	struct val *f = val_new_array(c, 1);

	rect(c, &f[0], "c", &cl->c);
	val_set_struct(item, NULL, f, 1, false);
}

/* false when a clip could not be read (strace then stops decoding) */
static bool win(struct ioc *io, struct val *v, const struct v4l2_window *w)
{
	struct dctx *c = io->c;
	struct val *f = val_new_array(c, 7);
	unsigned n = 0;
	bool ok;

	rect(c, &f[n++], "w", &w->w);
	val_set_enum(&f[n++], "field", w->field, v4l2_fields);
	FLD_X(&f[n++], *w, chromakey);
	ok = ioc_array(io, &f[n++], "clips", (uint64_t)(uintptr_t)w->clips, w->clipcount,
		       sizeof(struct v4l2_clip), UINT64_MAX, clip_elem, NULL);
	FLD_U(&f[n++], *w, clipcount);
	val_set_ptr(&f[n++], "bitmap", (uint64_t)(uintptr_t)w->bitmap);
	if (w->global_alpha)
		FLD_X(&f[n++], *w, global_alpha);
	val_set_struct(v, "fmt.win", f, n, false);
	return ok;
}

static void vbi(struct ioc *io, struct val *v, const struct v4l2_vbi_format *p)
{
	struct dctx *c = io->c;
	struct val *f = val_new_array(c, 7);

	FLD_U(&f[0], *p, sampling_rate);
	FLD_U(&f[1], *p, offset);
	FLD_U(&f[2], *p, samples_per_line);
	fourcc(c, &f[3], "sample_format", p->sample_format, v4l2_pix_fmts);
	ioc_set_int_array(c, &f[4], "start", p->start, 2, sizeof(p->start[0]), NUM_D);
	ioc_set_int_array(c, &f[5], "count", p->count, 2, sizeof(p->count[0]), NUM_U);
	val_set_flags(&f[6], "flags", p->flags, v4l2_vbi_flags, NULL);
	val_set_struct(v, "fmt.vbi", f, 7, false);
}

static void sliced(struct dctx *c, struct val *v, const struct v4l2_sliced_vbi_format *p)
{
	struct val *f = val_new_array(c, 3), *rows = val_new_array(c, 2);

	val_set_flags(&f[0], "service_set", p->service_set, v4l2_sliced_flags, NULL);
	for (int i = 0; i < 2; i++)
		ioc_set_int_array(c, &rows[i], NULL, p->service_lines[i], 24,
				  sizeof(p->service_lines[0][0]), NUM_X);
	val_set_array(&f[1], "service_lines", rows, 2, false);
	FLD_U(&f[2], *p, io_size);
	val_set_struct(v, "fmt.sliced", f, 3, false);
}

static void sdr(struct dctx *c, struct val *v, const struct v4l2_sdr_format *p)
{
	struct val *f = val_new_array(c, 2);
	unsigned n = 0;

	fourcc(c, &f[n++], "pixelformat", p->pixelformat, v4l2_sdr_fmts);
	if (p->buffersize)
		FLD_U(&f[n++], *p, buffersize);
	val_set_struct(v, "fmt.sdr", f, n, false);
}

static void meta(struct dctx *c, struct val *v, const struct v4l2_meta_format *p)
{
	struct val *f = val_new_array(c, 2);

	fourcc(c, &f[0], "dataformat", p->dataformat, v4l2_meta_fmts);
	FLD_U(&f[1], *p, buffersize);
	val_set_struct(v, "fmt.meta", f, 2, false);
}

/* The fmt union by type; *shown false for a type strace does not decode,
 * returns false when decoding should stop (a clip list unreadable). */
static bool format_fmt(struct ioc *io, struct val *v, const struct v4l2_format *f, bool *shown)
{
	*shown = true;
	switch (f->type) {
	case V4L2_BUF_TYPE_VIDEO_CAPTURE: case V4L2_BUF_TYPE_VIDEO_OUTPUT:
		pix(io->c, v, &f->fmt.pix);
		return true;
	case V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE: case V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE:
		pix_mp(io, v, &f->fmt.pix_mp);
		return true;
	case V4L2_BUF_TYPE_VIDEO_OUTPUT_OVERLAY: case V4L2_BUF_TYPE_VIDEO_OVERLAY:
		return win(io, v, &f->fmt.win);
	case V4L2_BUF_TYPE_VBI_CAPTURE: case V4L2_BUF_TYPE_VBI_OUTPUT:
		vbi(io, v, &f->fmt.vbi);
		return true;
	case V4L2_BUF_TYPE_SLICED_VBI_CAPTURE: case V4L2_BUF_TYPE_SLICED_VBI_OUTPUT:
		sliced(io->c, v, &f->fmt.sliced);
		return true;
	case V4L2_BUF_TYPE_SDR_OUTPUT: case V4L2_BUF_TYPE_SDR_CAPTURE:
		sdr(io->c, v, &f->fmt.sdr);
		return true;
	case V4L2_BUF_TYPE_META_OUTPUT: case V4L2_BUF_TYPE_META_CAPTURE:
		meta(io->c, v, &f->fmt.meta);
		return true;
	}
	*shown = false;
	return false;
}

/* G_FMT: {type=...} then ", fmt...}"; S_FMT/TRY_FMT: {type=..., fmt...}
 * then " => {fmt...}" */
static int format(struct ioc *io, bool get)
{
	struct v4l2_format f;
	struct val *st, after;
	bool shown;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &f, sizeof(f)))
			return IOC_DONE;
		st = ioc_open_struct(io, 2);
		val_set_enum(ioc_next(st), "type", f.type, v4l2_buf_types);
		if (get)
			return IOC_EXIT;
		if (!format_fmt(io, &st->c.items[1], &f, &shown)) {
			if (shown)
				st->c.n = 2;
			return IOC_DONE;
		}
		st->c.n = 2;
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (!st || io->ev->err || !tread(io->c, io->arg, &f, sizeof(f)))
		return IOC_DONE;
	if (get) {
		format_fmt(io, &st->c.items[1], &f, &shown);
		if (shown)
			st->c.n = 2;
		return IOC_DONE;
	}
	{
		struct val *g = val_new_array(io->c, 1);

		format_fmt(io, &g[0], &f, &shown);
		if (shown) {
			val_set_struct(&after, NULL, g, 1, false);
			ioc_set_after(io, &after);
		}
	}
	return IOC_DONE;
}

/* ---- the other structures ---------------------------------------------------- */

static int capability(struct ioc *io)
{
	struct dctx *c = io->c;
	struct v4l2_capability cp;
	struct val *v, *f;
	unsigned n = 0;

	if (!io->exiting)
		return IOC_EXIT;
	v = ioc_val(io);
	if (!ioc_read(io, v, io->arg, &cp, sizeof(cp)))
		return IOC_DONE;
	f = val_new_array(c, 6);
	ioc_set_cstring(c, &f[n++], "driver", cp.driver, sizeof(cp.driver));
	ioc_set_cstring(c, &f[n++], "card", cp.card, sizeof(cp.card));
	ioc_set_cstring(c, &f[n++], "bus_info", cp.bus_info, sizeof(cp.bus_info));
	kernel_version(c, &f[n++], "version", cp.version);
	val_set_flags(&f[n++], "capabilities", cp.capabilities, v4l2_device_capabilities_flags,
		      NULL);
	if (cp.device_caps)
		val_set_flags(&f[n++], "device_caps", cp.device_caps,
			      v4l2_device_capabilities_flags, NULL);
	val_set_struct(v, v->name, f, n, false);
	return IOC_DONE;
}

static int fmtdesc(struct ioc *io)
{
	struct v4l2_fmtdesc f;
	struct val *st;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &f, sizeof(f)))
			return IOC_DONE;
		st = ioc_open_struct(io, 5);
		FLD_U(ioc_next(st), f, index);
		val_set_enum(ioc_next(st), "type", f.type, v4l2_buf_types);
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (st && !io->ev->err && tread(io->c, io->arg, &f, sizeof(f))) {
		val_set_flags(ioc_next(st), "flags", f.flags, v4l2_format_description_flags, NULL);
		ioc_set_cstring(io->c, ioc_next(st), "description", f.description,
				sizeof(f.description));
		fourcc(io->c, ioc_next(st), "pixelformat", f.pixelformat, v4l2_pix_fmts);
	}
	return IOC_DONE;
}

static int reqbufs(struct ioc *io)
{
	struct v4l2_requestbuffers r;
	struct val *st;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &r, sizeof(r)))
			return IOC_DONE;
		st = ioc_open_struct(io, 3);
		val_set_enum(ioc_next(st), "type", r.type, v4l2_buf_types);
		val_set_enum(ioc_next(st), "memory", r.memory, v4l2_memories);
		FLD_U(ioc_next(st), r, count);
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (st && !io->ev->err && tread(io->c, io->arg, &r, sizeof(r))) {
		struct val *cnt = &st->c.items[2], *p = val_new_array(io->c, 3);

		p[0] = *cnt;
		p[0].name = NULL;
		val_set_text(io->c, &p[1], NULL, " => ");
		val_set_uint(&p[2], NULL, r.count);
		val_set_op(cnt, "count", p, 3, NULL);
	}
	return IOC_DONE;
}

/* flags|V4L2_BUF_FLAG_TIMESTAMP_x|V4L2_BUF_FLAG_TSTAMP_SRC_y (-X raw: one number) */
static void buf_flags(struct dctx *c, struct val *v, uint32_t x)
{
	uint32_t type = x & V4L2_BUF_FLAG_TIMESTAMP_MASK, src = x & V4L2_BUF_FLAG_TSTAMP_SRC_MASK;
	uint32_t rest = x & ~type & ~src;
	struct val *p = val_new_array(c, 5), ab, raw;
	unsigned n = 0;

	if (rest) {
		val_set_flags(&p[n++], NULL, rest, v4l2_buf_flags, NULL);
		val_set_text(c, &p[n++], NULL, "|");
	}
	val_set_enum(&p[n++], NULL, type, v4l2_buf_flags_ts_type);
	val_set_text(c, &p[n++], NULL, "|");
	val_set_enum(&p[n++], NULL, src, v4l2_buf_flags_ts_src);
	val_set_op(&ab, NULL, p, n, NULL);
	val_set_hex(&raw, NULL, x);
	ioc_set_xalt(c, v, "flags", &ab, &raw, &ab);
}

static int buffer(struct ioc *io)
{
	struct dctx *c = io->c;
	bool dq = io->code == VIDIOC_DQBUF;
	struct v4l2_buffer b;
	struct val *st, *f;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &b, sizeof(b)))
			return IOC_DONE;
		st = ioc_open_struct(io, 10);
		val_set_enum(ioc_next(st), "type", b.type, v4l2_buf_types);
		if (!dq)
			FLD_U(ioc_next(st), b, index);
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (!st || io->ev->err || !tread(c, io->arg, &b, sizeof(b)))
		return IOC_DONE;
	if (dq)
		FLD_U(ioc_next(st), b, index);
	val_set_enum(ioc_next(st), "memory", b.memory, v4l2_memories);
	if (b.memory == V4L2_MEMORY_MMAP)
		val_set_hex(ioc_next(st), "m.offset", b.m.offset);
	else if (b.memory == V4L2_MEMORY_USERPTR)
		val_set_ptr(ioc_next(st), "m.userptr", b.m.userptr);
	FLD_U(ioc_next(st), b, length);
	FLD_U(ioc_next(st), b, bytesused);
	buf_flags(c, ioc_next(st), b.flags);
	if (dq) {
		f = val_new_array(c, 2);
		val_set_int(&f[0], "tv_sec", b.timestamp.tv_sec);
		val_set_uint(&f[1], "tv_usec", (uint64_t)b.timestamp.tv_usec);
		val_set_struct(ioc_next(st), "timestamp", f, 2, false);
	}
	st->flags |= VF_MORE;
	return IOC_DONE;
}

static int framebuffer(struct ioc *io)
{
	struct v4l2_framebuffer b;
	struct val *v = ioc_val(io), *f;

	if (ioc_read(io, v, io->arg, &b, sizeof(b))) {
		f = val_new_array(io->c, 3);
		FLD_X(&f[0], b, capability);
		FLD_X(&f[1], b, flags);
		val_set_ptr(&f[2], "base", (uint64_t)(uintptr_t)b.base);
		val_set_struct(v, v->name, f, 3, false);
	}
	return IOC_DONE;
}

static int buf_type(struct ioc *io)
{
	struct val *v = ioc_val(io), in;
	int type;

	if (ioc_read(io, v, io->arg, &type, sizeof(type))) {
		val_set_enum(&in, NULL, (unsigned)type, v4l2_buf_types);
		val_set_boxed(io->c, v, v->name, &in);
	}
	return IOC_DONE;
}

static void streamparm_parm(struct dctx *c, struct val *v, const struct v4l2_streamparm *s)
{
	struct val *f = val_new_array(c, 5);

	if (s->type == V4L2_BUF_TYPE_VIDEO_CAPTURE) {
		const struct v4l2_captureparm *p = &s->parm.capture;

		val_set_flags(&f[0], "capability", p->capability, v4l2_streaming_capabilities,
			      NULL);
		val_set_flags(&f[1], "capturemode", p->capturemode, v4l2_capture_modes, NULL);
		fract(c, &f[2], "timeperframe", &p->timeperframe);
		FLD_X(&f[3], *p, extendedmode);
		FLD_U(&f[4], *p, readbuffers);
		val_set_struct(v, "parm.capture", f, 5, false);
	} else {
		const struct v4l2_outputparm *p = &s->parm.output;

		val_set_flags(&f[0], "capability", p->capability, v4l2_streaming_capabilities,
			      NULL);
		val_set_flags(&f[1], "outputmode", p->outputmode, v4l2_capture_modes, NULL);
		fract(c, &f[2], "timeperframe", &p->timeperframe);
		FLD_X(&f[3], *p, extendedmode);
		FLD_U(&f[4], *p, writebuffers);
		val_set_struct(v, "parm.output", f, 5, false);
	}
}

static int streamparm(struct ioc *io, bool get)
{
	struct v4l2_streamparm s;
	struct val *st, after, *g;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &s, sizeof(s)))
			return IOC_DONE;
		st = ioc_open_struct(io, 2);
		val_set_enum(ioc_next(st), "type", s.type, v4l2_buf_types);
		if (s.type != V4L2_BUF_TYPE_VIDEO_CAPTURE && s.type != V4L2_BUF_TYPE_VIDEO_OUTPUT)
			return IOC_DONE;
		if (get)
			return IOC_EXIT;
		streamparm_parm(io->c, ioc_next(st), &s);
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (!st || io->ev->err || !tread(io->c, io->arg, &s, sizeof(s)))
		return IOC_DONE;
	if (get) {
		streamparm_parm(io->c, ioc_next(st), &s);
		return IOC_DONE;
	}
	g = val_new_array(io->c, 1);
	streamparm_parm(io->c, &g[0], &s);
	val_set_struct(&after, NULL, g, 1, false);
	ioc_set_after(io, &after);
	return IOC_DONE;
}

static int standard(struct ioc *io)
{
	struct v4l2_standard s;
	struct val *st;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &s, sizeof(s)))
			return IOC_DONE;
		st = ioc_open_struct(io, 4);
		FLD_U(ioc_next(st), s, index);
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (st && !io->ev->err && tread(io->c, io->arg, &s, sizeof(s))) {
		ioc_set_cstring(io->c, ioc_next(st), "name", s.name, sizeof(s.name));
		fract(io->c, ioc_next(st), "frameperiod", &s.frameperiod);
		FLD_U(ioc_next(st), s, framelines);
	}
	return IOC_DONE;
}

static int input(struct ioc *io)
{
	struct v4l2_input i;
	struct val *st;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &i, sizeof(i)))
			return IOC_DONE;
		st = ioc_open_struct(io, 3);
		FLD_U(ioc_next(st), i, index);
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (st && !io->ev->err && tread(io->c, io->arg, &i, sizeof(i))) {
		ioc_set_cstring(io->c, ioc_next(st), "name", i.name, sizeof(i.name));
		val_set_enum(ioc_next(st), "type", i.type, v4l2_input_types);
	}
	return IOC_DONE;
}

static int control(struct ioc *io, bool get)
{
	struct v4l2_control ct;
	struct val *st;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &ct, sizeof(ct)))
			return IOC_DONE;
		st = ioc_open_struct(io, 2);
		cid(io->c, ioc_next(st), "id", ct.id, false);
		if (!get)
			FLD_D(ioc_next(st), ct, value);
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (!st || io->ev->err || !tread(io->c, io->arg, &ct, sizeof(ct)))
		return IOC_DONE;
	if (get) {
		FLD_D(ioc_next(st), ct, value);
	} else {
		struct val *vv = &st->c.items[1], *p = val_new_array(io->c, 3);

		p[0] = *vv;
		p[0].name = NULL;
		val_set_text(io->c, &p[1], NULL, " => ");
		val_set_int(&p[2], NULL, ct.value);
		val_set_op(vv, "value", p, 3, NULL);
	}
	return IOC_DONE;
}

static void tuner_fields(struct dctx *c, struct val *st, const struct v4l2_tuner *t)
{
	ioc_set_cstring(c, ioc_next(st), "name", t->name, sizeof(t->name));
	val_set_enum(ioc_next(st), "type", t->type, v4l2_tuner_types);
	val_set_flags(ioc_next(st), "capability", t->capability, v4l2_tuner_capabilities, NULL);
	FLD_U(ioc_next(st), *t, rangelow);
	FLD_U(ioc_next(st), *t, rangehigh);
	val_set_flags(ioc_next(st), "rxsubchans", t->rxsubchans, v4l2_tuner_rxsubchanses, NULL);
	val_set_enum(ioc_next(st), "audmode", t->audmode, v4l2_tuner_audmodes);
	FLD_D(ioc_next(st), *t, signal);
	FLD_D(ioc_next(st), *t, afc);
}

static int tuner(struct ioc *io, bool get)
{
	struct v4l2_tuner t;
	struct val *st, after;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &t, sizeof(t)))
			return IOC_DONE;
		st = ioc_open_struct(io, 11);
		FLD_U(ioc_next(st), t, index);
		if (!get)
			tuner_fields(io->c, st, &t);
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (!st || io->ev->err || !tread(io->c, io->arg, &t, sizeof(t)))
		return IOC_DONE;
	if (get) {
		tuner_fields(io->c, st, &t);
		return IOC_DONE;
	}
	val_set_struct(&after, NULL, val_new_array(io->c, 10), 0, false);
	tuner_fields(io->c, &after, &t);
	ioc_set_after(io, &after);
	return IOC_DONE;
}

/* QUERYCTRL / QUERY_EXT_CTRL: the id at entry (its value kept beyond the
 * shown items), " => id" at exit when the kernel changed it */
static int queryctrl(struct ioc *io, bool ext)
{
	struct dctx *c = io->c;
	struct v4l2_query_ext_ctrl e;
	struct v4l2_queryctrl q;
	struct val *st, *idv;
	uint32_t id;

	if (!io->exiting) {
		st = ioc_val(io);
		if (ext ? !ioc_read(io, st, io->arg, &e, sizeof(e))
			: !ioc_read(io, st, io->arg, &q, sizeof(q)))
			return IOC_DONE;
		id = ext ? e.id : q.id;
		st = ioc_open_struct(io, 16);
		cid(c, ioc_next(st), "id", id, true);
		val_set_uint(&st->c.items[15], NULL, id);
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (!st || io->ev->err)
		return IOC_DONE;
	if (ext ? !tread(c, io->arg, &e, sizeof(e)) : !tread(c, io->arg, &q, sizeof(q)))
		return IOC_DONE;
	id = ext ? e.id : q.id;
	if (id != st->c.items[15].u) {
		struct val *p = val_new_array(c, 3);

		idv = &st->c.items[0];
		p[0] = *idv;
		p[0].name = NULL;
		val_set_text(c, &p[1], NULL, " => ");
		cid(c, &p[2], NULL, id, false);
		val_set_op(idv, "id", p, 3, NULL);
	}
	val_set_enum(ioc_next(st), "type", ext ? e.type : q.type, v4l2_control_types);
	if (ext)
		ioc_set_cstring(c, ioc_next(st), "name", e.name, sizeof(e.name));
	else
		ioc_set_cstring(c, ioc_next(st), "name", q.name, sizeof(q.name));
	if (ioc_abbrev(io)) {
		st->flags |= VF_MORE;
		return IOC_DONE;
	}
	if (!ext) {
		FLD_D(ioc_next(st), q, minimum);
		FLD_D(ioc_next(st), q, maximum);
		FLD_D(ioc_next(st), q, step);
		FLD_D(ioc_next(st), q, default_value);
		val_set_flags(ioc_next(st), "flags", q.flags, v4l2_control_flags, NULL);
		if (!ioc_all_zero(q.reserved, sizeof(q.reserved)))
			ioc_set_local_array(io, ioc_next(st), "reserved", q.reserved,
					    NELEM(q.reserved), sizeof(q.reserved[0]), NUM_X);
		return IOC_DONE;
	}
	FLD_D(ioc_next(st), e, minimum);
	FLD_D(ioc_next(st), e, maximum);
	FLD_U(ioc_next(st), e, step);
	FLD_D(ioc_next(st), e, default_value);
	val_set_flags(ioc_next(st), "flags", e.flags, v4l2_control_flags, NULL);
	FLD_U(ioc_next(st), e, elem_size);
	FLD_U(ioc_next(st), e, elems);
	FLD_U(ioc_next(st), e, nr_of_dims);
	ioc_set_local_array(io, ioc_next(st), "dims", e.dims, UPTO(e.nr_of_dims, e.dims),
			    sizeof(e.dims[0]), NUM_U);
	if (!ioc_all_zero(e.reserved, sizeof(e.reserved)))
		ioc_set_local_array(io, ioc_next(st), "reserved", e.reserved, NELEM(e.reserved),
				    sizeof(e.reserved[0]), NUM_X);
	return IOC_DONE;
}

static int cropcap(struct ioc *io)
{
	struct v4l2_cropcap cc;
	struct val *st;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &cc, sizeof(cc)))
			return IOC_DONE;
		st = ioc_open_struct(io, 4);
		val_set_enum(ioc_next(st), "type", cc.type, v4l2_buf_types);
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (st && !io->ev->err && tread(io->c, io->arg, &cc, sizeof(cc))) {
		rect(io->c, ioc_next(st), "bounds", &cc.bounds);
		rect(io->c, ioc_next(st), "defrect", &cc.defrect);
		fract(io->c, ioc_next(st), "pixelaspect", &cc.pixelaspect);
	}
	return IOC_DONE;
}

static int crop(struct ioc *io, bool get)
{
	struct v4l2_crop cr;
	struct val *st;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &cr, sizeof(cr)))
			return IOC_DONE;
		st = ioc_open_struct(io, 2);
		val_set_enum(ioc_next(st), "type", cr.type, v4l2_buf_types);
		if (!get) {
			rect(io->c, ioc_next(st), "c", &cr.c);
			return IOC_DONE;
		}
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (st && !io->ev->err && tread(io->c, io->arg, &cr, sizeof(cr)))
		rect(io->c, ioc_next(st), "c", &cr.c);
	return IOC_DONE;
}

/* An element of an ext_controls array (strace reads them even after the
 * call failed). */
struct ext_arg {
	struct ioc *io;
};

static void ext_control_elem(struct dctx *c, struct val *item, const void *elem, void *arg)
{
	const struct v4l2_ext_control *p = elem;
	struct ioc *io = ((struct ext_arg *)arg)->io;
	struct val *f = val_new_array(c, 4);
	unsigned n = 0;

	val_set_enum(&f[n++], "id", p->id, v4l2_control_ids);
	FLD_U(&f[n++], *p, size);
	if (p->size > 0) {
		val_read_buf(c, &f[n++], "string", (uint64_t)(uintptr_t)p->string, p->size);
	} else {
		FLD_D(&f[n++], *p, value);
		FLD_D(&f[n++], *p, value64);
	}
	(void)io;
	val_set_struct(item, NULL, f, n, false);
}

static int ext_controls(struct ioc *io, bool get)
{
	struct dctx *c = io->c;
	struct v4l2_ext_controls ec;
	struct ext_arg ea = { io };
	struct val *st, *target;
	bool ok;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &ec, sizeof(ec)))
			return IOC_DONE;
		st = ioc_open_struct(io, 4);
		val_set_enum(ioc_next(st), "ctrl_class", ec.ctrl_class, v4l2_control_classes);
		FLD_U(ioc_next(st), ec, count);
		if (!ec.count || get)
			return ec.count ? IOC_EXIT : IOC_DONE;
		ok = ioc_array(io, ioc_next(st), "controls", (uint64_t)(uintptr_t)ec.controls,
			       ec.count, sizeof(struct v4l2_ext_control), UINT64_MAX,
			       ext_control_elem, &ea);
		return ok ? IOC_EXIT : IOC_DONE;
	}
	st = ioc_reopen(io);
	if (!st || !tread(c, io->arg, &ec, sizeof(ec)))
		return IOC_DONE;
	if (get) {
		target = st;
	} else {
		struct val after;

		val_set_struct(&after, NULL, val_new_array(c, 2), 0, false);
		ioc_set_after(io, &after);
		target = &io->ev->args[3].c.items[1];
	}
	/* strace reads the array even after a failure (tfetch_mem_ignore_syserror) */
	decode_array(c, ioc_next(target), "controls", (uint64_t)(uintptr_t)ec.controls, ec.count,
		     sizeof(struct v4l2_ext_control), ext_control_elem, &ea);
	if (io->ev->err)
		FLD_U(ioc_next(target), ec, error_idx);
	return IOC_DONE;
}

static int frmsizeenum(struct ioc *io)
{
	struct dctx *c = io->c;
	struct v4l2_frmsizeenum s;
	struct val *st, *f;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &s, sizeof(s)))
			return IOC_DONE;
		st = ioc_open_struct(io, 4);
		FLD_U(ioc_next(st), s, index);
		fourcc(c, ioc_next(st), "pixel_format", s.pixel_format, v4l2_pix_fmts);
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (!st || io->ev->err || !tread(c, io->arg, &s, sizeof(s)))
		return IOC_DONE;
	val_set_enum(ioc_next(st), "type", s.type, v4l2_framesize_types);
	if (s.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
		f = val_new_array(c, 2);
		FLD_U(&f[0], s.discrete, width);
		FLD_U(&f[1], s.discrete, height);
		val_set_struct(ioc_next(st), "discrete", f, 2, false);
	} else if (s.type == V4L2_FRMSIZE_TYPE_STEPWISE) {
		f = val_new_array(c, 6);
		FLD_U(&f[0], s.stepwise, min_width);
		FLD_U(&f[1], s.stepwise, max_width);
		FLD_U(&f[2], s.stepwise, step_width);
		FLD_U(&f[3], s.stepwise, min_height);
		FLD_U(&f[4], s.stepwise, max_height);
		FLD_U(&f[5], s.stepwise, step_height);
		val_set_struct(ioc_next(st), "stepwise", f, 6, false);
	}
	return IOC_DONE;
}

static int frmivalenum(struct ioc *io)
{
	struct dctx *c = io->c;
	struct v4l2_frmivalenum fi;
	struct val *st, *f;

	if (!io->exiting) {
		st = ioc_val(io);
		if (!ioc_read(io, st, io->arg, &fi, sizeof(fi)))
			return IOC_DONE;
		st = ioc_open_struct(io, 6);
		FLD_U(ioc_next(st), fi, index);
		fourcc(c, ioc_next(st), "pixel_format", fi.pixel_format, v4l2_pix_fmts);
		FLD_U(ioc_next(st), fi, width);
		FLD_U(ioc_next(st), fi, height);
		return IOC_EXIT;
	}
	st = ioc_reopen(io);
	if (!st || io->ev->err || !tread(c, io->arg, &fi, sizeof(fi)))
		return IOC_DONE;
	val_set_enum(ioc_next(st), "type", fi.type, v4l2_frameinterval_types);
	if (fi.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
		fract(c, ioc_next(st), "discrete", &fi.discrete);
	} else if (fi.type == V4L2_FRMIVAL_TYPE_STEPWISE ||
		   fi.type == V4L2_FRMIVAL_TYPE_CONTINUOUS) {
		f = val_new_array(c, 3);
		fract(c, &f[0], "min", &fi.stepwise.min);
		fract(c, &f[1], "max", &fi.stepwise.max);
		fract(c, &f[2], "step", &fi.stepwise.step);
		val_set_struct(ioc_next(st), "stepwise", f, 3, false);
	}
	return IOC_DONE;
}

/* {count=N, memory=..., format={...}} at entry; the result carries
 * "{index=I, count=N}" as a comment */
static int create_bufs(struct ioc *io)
{
	struct dctx *c = io->c;
	struct v4l2_create_buffers b;
	struct val *v, *f, *g;
	bool shown;

	if (!io->exiting) {
		v = ioc_val(io);
		if (!ioc_read(io, v, io->arg, &b, sizeof(b)))
			return IOC_DONE;
		f = val_new_array(c, 3);
		FLD_U(&f[0], b, count);
		val_set_enum(&f[1], "memory", b.memory, v4l2_memories);
		g = val_new_array(c, 2);
		val_set_enum(&g[0], "type", b.format.type, v4l2_buf_types);
		format_fmt(io, &g[1], &b.format, &shown);
		val_set_struct(&f[2], "format", g, shown ? 2 : 1, false);
		val_set_struct(v, v->name, f, 3, false);
		return IOC_EXIT;
	}
	if (!io->ev->err && tread(c, io->arg, &b, sizeof(b))) {
		struct val *aux = val_new_array(c, 1);

		val_set_text(c, aux, NULL, ioc_printf(c, "{index=%u, count=%u}", b.index, b.count));
		io->ev->ret_aux = aux;
	}
	return IOC_DONE;
}

int ioctl_v4l2(struct ioc *io)
{
	/* -e verbose= leaving the call out: strace does not decode these */
	if (io->c->opts->no_deref)
		return IOC_DEFAULT;
	switch (io->code) {
	case VIDIOC_QUERYCAP:
		return capability(io);
	case VIDIOC_ENUM_FMT:
		return fmtdesc(io);
	case VIDIOC_G_FMT: case VIDIOC_S_FMT: case VIDIOC_TRY_FMT:
		return format(io, io->code == VIDIOC_G_FMT);
	case VIDIOC_REQBUFS:
		return reqbufs(io);
	case VIDIOC_QUERYBUF: case VIDIOC_QBUF: case VIDIOC_DQBUF:
		return buffer(io);
	case VIDIOC_G_FBUF:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case VIDIOC_S_FBUF:
		return framebuffer(io);
	case VIDIOC_STREAMON: case VIDIOC_STREAMOFF:
		return buf_type(io);
	case VIDIOC_G_PARM: case VIDIOC_S_PARM:
		return streamparm(io, io->code == VIDIOC_G_PARM);
	case VIDIOC_G_STD:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case VIDIOC_S_STD:
		return ioc_arg_num(io, 8, NUM_X);
	case VIDIOC_ENUMSTD:
		return standard(io);
	case VIDIOC_ENUMINPUT:
		return input(io);
	case VIDIOC_G_CTRL: case VIDIOC_S_CTRL:
		return control(io, io->code == VIDIOC_G_CTRL);
	case VIDIOC_G_TUNER: case VIDIOC_S_TUNER:
		return tuner(io, io->code == VIDIOC_G_TUNER);
	case VIDIOC_QUERYCTRL:
		return queryctrl(io, false);
	case VIDIOC_QUERY_EXT_CTRL:
		return queryctrl(io, true);
	case VIDIOC_G_INPUT:
		if (!io->exiting)
			return IOC_EXIT;
		/* fall through */
	case VIDIOC_S_INPUT:
		return ioc_arg_num(io, sizeof(int), NUM_U);
	case VIDIOC_CROPCAP:
		return cropcap(io);
	case VIDIOC_G_CROP: case VIDIOC_S_CROP:
		return crop(io, io->code == VIDIOC_G_CROP);
	case VIDIOC_S_EXT_CTRLS: case VIDIOC_TRY_EXT_CTRLS: case VIDIOC_G_EXT_CTRLS:
		return ext_controls(io, io->code == VIDIOC_G_EXT_CTRLS);
	case VIDIOC_ENUM_FRAMESIZES:
		return frmsizeenum(io);
	case VIDIOC_ENUM_FRAMEINTERVALS:
		return frmivalenum(io);
	case VIDIOC_CREATE_BUFS:
		return create_bufs(io);
	}
	return IOC_DEFAULT;
}
