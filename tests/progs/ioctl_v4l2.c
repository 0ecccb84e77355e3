/*
 * Video4Linux2 ioctls ('V') with filled, short and bad arguments on a bad
 * descriptor, for tests/t/decode_ioctl_v4l2.sh: formats of each buffer
 * type, buffers, stream parameters, controls, tuners, crops, enumerations.
 */
#include <linux/videodev2.h>

#include "ioctl_test.h"

int main(void)
{
	static const unsigned types[] = {
		V4L2_BUF_TYPE_VIDEO_CAPTURE, V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE,
		V4L2_BUF_TYPE_VIDEO_OVERLAY, V4L2_BUF_TYPE_VBI_CAPTURE,
		V4L2_BUF_TYPE_SLICED_VBI_OUTPUT, V4L2_BUF_TYPE_SDR_CAPTURE,
		V4L2_BUF_TYPE_META_CAPTURE, 0x77,
	};
	static const unsigned long fmt_reqs[] = { VIDIOC_G_FMT, VIDIOC_S_FMT, VIDIOC_TRY_FMT };
	struct v4l2_capability *cap = TAIL(struct v4l2_capability);
	struct v4l2_fmtdesc *fd = TAIL(struct v4l2_fmtdesc);
	struct v4l2_format *f = TAIL(struct v4l2_format);
	struct v4l2_requestbuffers *rb = TAIL(struct v4l2_requestbuffers);
	struct v4l2_buffer *b = TAIL(struct v4l2_buffer);
	struct v4l2_framebuffer *fb = TAIL(struct v4l2_framebuffer);
	struct v4l2_streamparm *sp = TAIL(struct v4l2_streamparm);
	struct v4l2_standard *st = TAIL(struct v4l2_standard);
	struct v4l2_input *in = TAIL(struct v4l2_input);
	struct v4l2_control *ct = TAIL(struct v4l2_control);
	struct v4l2_tuner *tu = TAIL(struct v4l2_tuner);
	struct v4l2_queryctrl *qc = TAIL(struct v4l2_queryctrl);
	struct v4l2_query_ext_ctrl *qe = TAIL(struct v4l2_query_ext_ctrl);
	struct v4l2_cropcap *cc = TAIL(struct v4l2_cropcap);
	struct v4l2_crop *cr = TAIL(struct v4l2_crop);
	struct v4l2_ext_controls *ec = TAIL(struct v4l2_ext_controls);
	struct v4l2_ext_control *ectl = tail_alloc(2 * sizeof(*ectl));
	struct v4l2_frmsizeenum *fs = TAIL(struct v4l2_frmsizeenum);
	struct v4l2_frmivalenum *fi = TAIL(struct v4l2_frmivalenum);
	struct v4l2_create_buffers *cb = TAIL(struct v4l2_create_buffers);
	struct v4l2_clip *clip = TAIL(struct v4l2_clip);
	int *pi = TAIL(int);
	uint64_t *std = TAIL(uint64_t);

	fill(cap, sizeof(*cap), 'a');
	cap->driver[3] = 0;
	cap->version = (5 << 16) | (19 << 8) | 1;
	cap->capabilities = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING | 0x40000000;
	cap->device_caps = 0;
	IOC(VIDIOC_QUERYCAP, cap);
	fill(fd, sizeof(*fd), 'b');
	fd->index = 0;
	fd->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	fd->flags = V4L2_FMT_FLAG_COMPRESSED;
	fd->pixelformat = V4L2_PIX_FMT_YUYV;
	IOC(VIDIOC_ENUM_FMT, fd);
	for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		fill(f, sizeof(*f), 0x10 + i);
		f->type = types[i];
		if (types[i] == V4L2_BUF_TYPE_VIDEO_CAPTURE) {
			f->fmt.pix.pixelformat = V4L2_PIX_FMT_H264;
			f->fmt.pix.field = V4L2_FIELD_NONE;
			f->fmt.pix.colorspace = V4L2_COLORSPACE_SRGB;
		} else if (types[i] == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
			f->fmt.pix_mp.num_planes = 2;
		} else if (types[i] == V4L2_BUF_TYPE_VIDEO_OVERLAY) {
			f->fmt.win.clips = clip;
			f->fmt.win.clipcount = 1;
			f->fmt.win.global_alpha = 0;
		}
		for (unsigned k = 0; k < sizeof(fmt_reqs) / sizeof(fmt_reqs[0]); k++)
			IOC(fmt_reqs[k], f);
	}
	f->type = V4L2_BUF_TYPE_VIDEO_OVERLAY;
	f->fmt.win.clipcount = 0;
	IOC(VIDIOC_S_FMT, f);
	IOC(VIDIOC_G_FMT, (char *)f + 1);

	rb->count = 4;
	rb->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	rb->memory = V4L2_MEMORY_MMAP;
	IOC(VIDIOC_REQBUFS, rb);
	fill(b, sizeof(*b), 0x20);
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = V4L2_MEMORY_MMAP;
	b->flags = V4L2_BUF_FLAG_MAPPED | V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
	IOC(VIDIOC_QUERYBUF, b);
	b->memory = V4L2_MEMORY_USERPTR;
	IOC(VIDIOC_QBUF, b);
	b->flags = 0x80000000;
	IOC(VIDIOC_DQBUF, b);
	fill(fb, sizeof(*fb), 0x30);
	IOC(VIDIOC_G_FBUF, fb);
	IOC(VIDIOC_S_FBUF, fb);
	*pi = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	IOC(VIDIOC_STREAMON, pi);
	IOC(VIDIOC_STREAMOFF, NULL);
	fill(sp, sizeof(*sp), 0x40);
	sp->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sp->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
	IOC(VIDIOC_G_PARM, sp);
	IOC(VIDIOC_S_PARM, sp);
	sp->type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	IOC(VIDIOC_S_PARM, sp);
	sp->type = V4L2_BUF_TYPE_VBI_CAPTURE;
	IOC(VIDIOC_G_PARM, sp);
	*std = V4L2_STD_PAL;
	IOC(VIDIOC_G_STD, std);
	IOC(VIDIOC_S_STD, std);
	fill(st, sizeof(*st), 0x50);
	IOC(VIDIOC_ENUMSTD, st);
	fill(in, sizeof(*in), 0x60);
	in->type = V4L2_INPUT_TYPE_CAMERA;
	IOC(VIDIOC_ENUMINPUT, in);
	ct->id = V4L2_CID_BRIGHTNESS;
	ct->value = -3;
	IOC(VIDIOC_G_CTRL, ct);
	IOC(VIDIOC_S_CTRL, ct);
	ct->id = V4L2_CTRL_CLASS_CAMERA | 0x999;
	IOC(VIDIOC_S_CTRL, ct);
	ct->id = 0x12345;
	IOC(VIDIOC_S_CTRL, ct);
	fill(tu, sizeof(*tu), 0x70);
	tu->type = V4L2_TUNER_RADIO;
	tu->audmode = V4L2_TUNER_MODE_STEREO;
	IOC(VIDIOC_G_TUNER, tu);
	IOC(VIDIOC_S_TUNER, tu);
	fill(qc, sizeof(*qc), 0x80);
	qc->id = V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CID_CONTRAST;
	qc->type = V4L2_CTRL_TYPE_INTEGER;
	memset(qc->reserved, 0, sizeof(qc->reserved));
	IOC(VIDIOC_QUERYCTRL, qc);
	fill(qe, sizeof(*qe), 0x90);
	qe->id = V4L2_CID_SATURATION;
	qe->nr_of_dims = 2;
	IOC(VIDIOC_QUERY_EXT_CTRL, qe);
	IOC(_IOWR('V', 30, int), pi);
	*pi = 5;
	IOC(VIDIOC_G_INPUT, pi);
	IOC(VIDIOC_S_INPUT, pi);
	fill(cc, sizeof(*cc), 0xa0);
	cc->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	IOC(VIDIOC_CROPCAP, cc);
	fill(cr, sizeof(*cr), 0xb0);
	cr->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	IOC(VIDIOC_G_CROP, cr);
	IOC(VIDIOC_S_CROP, cr);
	memset(ectl, 0, 2 * sizeof(*ectl));
	ectl[0].id = V4L2_CID_HUE;
	ectl[0].value = 7;
	ectl[1].id = V4L2_CID_AUDIO_VOLUME;
	ectl[1].size = 4;
	ectl[1].string = "vol!";
	memset(ec, 0, sizeof(*ec));
	ec->ctrl_class = V4L2_CTRL_CLASS_USER;
	ec->count = 2;
	ec->controls = ectl;
	IOC(VIDIOC_S_EXT_CTRLS, ec);
	IOC(VIDIOC_G_EXT_CTRLS, ec);
	IOC(VIDIOC_TRY_EXT_CTRLS, ec);
	ec->count = 0;
	IOC(VIDIOC_S_EXT_CTRLS, ec);
	fill(fs, sizeof(*fs), 0xc0);
	fs->pixel_format = V4L2_PIX_FMT_MJPEG;
	fs->type = V4L2_FRMSIZE_TYPE_DISCRETE;
	IOC(VIDIOC_ENUM_FRAMESIZES, fs);
	fs->type = V4L2_FRMSIZE_TYPE_STEPWISE;
	IOC(VIDIOC_ENUM_FRAMESIZES, fs);
	fill(fi, sizeof(*fi), 0xd0);
	fi->pixel_format = 0x20202020;
	fi->type = V4L2_FRMIVAL_TYPE_DISCRETE;
	IOC(VIDIOC_ENUM_FRAMEINTERVALS, fi);
	fi->type = V4L2_FRMIVAL_TYPE_CONTINUOUS;
	IOC(VIDIOC_ENUM_FRAMEINTERVALS, fi);
	fill(cb, sizeof(*cb), 0xe0);
	cb->memory = V4L2_MEMORY_DMABUF;
	cb->format.type = V4L2_BUF_TYPE_SDR_OUTPUT;
	IOC(VIDIOC_CREATE_BUFS, cb);
	IOC(VIDIOC_CREATE_BUFS, NULL);
	return 0;
}
