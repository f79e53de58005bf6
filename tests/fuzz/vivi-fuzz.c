// SPDX-License-Identifier: GPL-2.0
/*
 * vivi-fuzz - a seeded ioctl fuzzer for a V4L2 capture or output node.
 *
 * Usage: vivi-fuzz [-s SEED] [-n IOCTLS] [-t SECONDS] [-j THREADS] /dev/videoN
 *
 * Issues random sequences of every VIDIOC_* ioctl (those the driver
 * implements get structured arguments: boundary values, bad types, bad
 * memory types, bad indices, bad userptr addresses, unaligned lengths;
 * the rest get random bytes), plus unknown ioctl numbers and arguments that
 * are bad pointers or that end in an unmapped page, interleaved with
 * mmap/munmap (of the node and of exported dma-bufs), read(), poll() and
 * reopening the node. Between streams it also changes the format (every
 * one offered, MJPEG too), size, test pattern and JPEG quality, often
 * back to the one before (A, B, A), and at times waits up to 100 ms for
 * a frame, so that what the driver keeps from one stream to the next
 * meets every transition. With -j 2 two threads share one file descriptor.
 *
 * QUERYCAP's device caps tell the node's direction. On an output node (a
 * vivi producer node) the buffer type is VIDEO_OUTPUT wherever it is
 * VIDEO_CAPTURE on a capture node (the other one stays a bad argument),
 * S_FMT and TRY_FMT also take any size up to and beyond 3840x2160 with any
 * bytesperline, QBUF gets payloads of 0, below, at and above sizeimage,
 * write() of any length takes the place of read(), and ENUMOUTPUT,
 * G/S_OUTPUT that of ENUMINPUT, G/S_INPUT.
 *
 * It stops after IOCTLS ioctls or SECONDS seconds, whichever comes first,
 * and prints the seed (the call sequence follows from it; pass it back
 * with -s to replay), the counts, and one PASS:/FAIL: line. It fails if a
 * format the driver returns breaks its own size arithmetic (bytesperline *
 * height > sizeimage, or sizes beyond the driver's limits): that is where
 * an integer overflow would show. Kernel-side failures (warnings, oopses,
 * leaks) are for the caller to check.
 */
#include "../tools/vivi-tool.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>

#define PAGE		4096UL
#define MAX_MAPS	16
#define MAX_DMABUFS	8
/* the fuzzer's own limit on buffer memory it asks for at once */
#define MEM_BUDGET	(64UL << 20)
/* vivi's largest buffer: 3840x2160 at 9 bytes a pixel (MJPEG's worst case) */
#define MAX_SIZEIMAGE	(3840UL * 9 * 2160)

static const char *dev;
static int vfd;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *maps[MAX_MAPS];
static size_t map_len[MAX_MAPS];
static int dmabufs[MAX_DMABUFS];
static uint32_t offsets[32];
static atomic_ulong cur_sizeimage = 640 * 480 * 2;
/*
 * About what the queue holds: vb2 takes up to 32 buffers of the largest
 * size, over 2 GB on an output node, so CREATE_BUFS adds none past
 * ALLOC_BUDGET (the driver's own limit on one buffer is what it tests)
 */
#define ALLOC_BUDGET	(4 * MEM_BUDGET)
static atomic_ulong alloc_bytes;
static atomic_long n_ioctls, n_other, n_invariant, n_unknown, n_transits;
static atomic_long res[8];	/* ok EINVAL ENOTTY EFAULT EBUSY EAGAIN ENOMEM other */
static atomic_int stop;
static long max_ioctls = 200000;
static double deadline;
static int nthreads = 1;
/* the node's direction, from QUERYCAP: its buffer type */
static uint32_t btype = V4L2_BUF_TYPE_VIDEO_CAPTURE;
static int output;
static char first_violation[200];
/* 3 pages: argument buffers and userptr targets, then a guard page */
static uint8_t *guard_area;

/* A boundary value or a random one */
static uint32_t val32(struct rng *r)
{
	static const uint32_t edge[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 33, 63, 64, 255, 256,
		4095, 4096, 4097, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff,
		0x80000000, 0xfffffffe, 0xffffffff, 640, 480, 3840, 2160,
		3841, 2161, 0x100000, 0x40000000,
	};

	switch (rnd(r, 4)) {
	case 0:
		return (uint32_t)r64(r);
	case 1:
		return rnd(r, 16);
	default:
		return edge[rnd(r, sizeof(edge) / sizeof(edge[0]))];
	}
}

static double start_time;

static uint32_t buf_type(struct rng *r)
{
	return rnd(r, 8) ? btype : rnd(r, 2) ? rnd(r, 16) : val32(r);
}

static uint32_t mem_type(struct rng *r)
{
	static const uint32_t m[] = { V4L2_MEMORY_MMAP, V4L2_MEMORY_MMAP,
		V4L2_MEMORY_USERPTR, V4L2_MEMORY_DMABUF, V4L2_MEMORY_OVERLAY,
		0, 5, 0xffffffff };

	return m[rnd(r, 8)];
}

/*
 * The formats the node offers (VIDIOC_ENUM_FMT at the start, so that the
 * fuzzer follows the driver's list), then a few that no capture driver of
 * this kind offers (compressed, multi-planar, none).
 */
#define MAX_FOURCCS	64
static uint32_t fourccs[MAX_FOURCCS];
static unsigned int n_fourccs, n_offered;

static void list_fourccs(int fd)
{
	static const uint32_t not_offered[] = { V4L2_PIX_FMT_H264,
		V4L2_PIX_FMT_NV12M, 0 };
	struct v4l2_fmtdesc d = { .type = btype };
	unsigned int i;

	while (d.index < MAX_FOURCCS - 3 && !ioctl(fd, VIDIOC_ENUM_FMT, &d))
		fourccs[d.index++] = d.pixelformat;
	n_offered = d.index;
	n_fourccs = n_offered;
	for (i = 0; i < 3; i++)
		fourccs[n_fourccs++] = not_offered[i];
}

static uint32_t fourcc(struct rng *r)
{
	if (!rnd(r, 10))
		return val32(r);
	return fourccs[rnd(r, n_fourccs)];
}

static const uint32_t cids[] = {
	V4L2_CID_BRIGHTNESS, V4L2_CID_CONTRAST, V4L2_CID_SATURATION,
	V4L2_CID_HUE, V4L2_CID_HFLIP, V4L2_CID_VFLIP, V4L2_CID_TEST_PATTERN,
	V4L2_CID_IMAGE_PROC_CLASS_BASE + 0x1000,
	V4L2_CID_IMAGE_PROC_CLASS_BASE + 0x1001,
	V4L2_CID_IMAGE_PROC_CLASS_BASE + 0x1002, V4L2_CID_IMAGE_PROC_CLASS,
	V4L2_CID_USER_CLASS, V4L2_CID_GAIN,
	V4L2_CID_CAMERA_CLASS, V4L2_CID_MIN_BUFFERS_FOR_CAPTURE,
	V4L2_CID_JPEG_COMPRESSION_QUALITY, V4L2_CID_JPEG_CLASS,
	/* the camera controls (vivi_camera.c) */
	V4L2_CID_GAMMA, V4L2_CID_SHARPNESS, V4L2_CID_BACKLIGHT_COMPENSATION,
	V4L2_CID_POWER_LINE_FREQUENCY, V4L2_CID_AUTO_WHITE_BALANCE,
	V4L2_CID_WHITE_BALANCE_TEMPERATURE, V4L2_CID_EXPOSURE_AUTO,
	V4L2_CID_EXPOSURE_ABSOLUTE, V4L2_CID_FOCUS_AUTO,
	V4L2_CID_FOCUS_ABSOLUTE, V4L2_CID_ZOOM_ABSOLUTE, V4L2_CID_PAN_ABSOLUTE,
	V4L2_CID_TILT_ABSOLUTE, V4L2_CID_PRIVACY, 0,
	0xffffffff, V4L2_CTRL_FLAG_NEXT_CTRL,
	V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND,
	V4L2_CID_BRIGHTNESS | V4L2_CTRL_FLAG_NEXT_CTRL,
};

static uint32_t cid(struct rng *r)
{
	if (!rnd(r, 8))
		return val32(r);
	return cids[rnd(r, sizeof(cids) / sizeof(cids[0]))];
}

/*
 * A user address for a buffer: ours (aligned or not), one running into an
 * unmapped page, or a bad one. *@room is how much of our memory follows it:
 * the driver writes frames there, so a length must never run past it into
 * other memory of ours.
 */
static unsigned long user_addr(struct rng *r, uint8_t *own, size_t own_len,
			       size_t *room)
{
	unsigned long off;

	*room = ~0UL;
	switch (rnd(r, 10)) {
	case 0:
		return 0;
	case 1:
		return 0xffff888000000000UL + rnd(r, 1 << 20) * PAGE;
	case 2:
		/* the guard page follows: any length runs into it */
		return (unsigned long)(guard_area + 3 * PAGE - rnd(r, 64));
	case 3:
		return val32(r) & 0xfffff;	/* below any mapping */
	default:
		off = rnd(r, 2) ? 0 : rnd(r, own_len);
		*room = own_len - off;
		return (unsigned long)own + off;
	}
}

/* Argument buffer: per thread, big enough for any V4L2 struct */
/*
 * Per thread, on the heap: the ioctl argument (any _IOC_SIZE fits), memory
 * for userptr buffers and read(), and control arrays as long as the core
 * accepts (it writes back as many entries as the count says).
 */
/* what a transition sets, to come back to it (A, B, A) */
struct transit {
	uint32_t fourcc, width, height;
	int32_t pattern, quality;
};

struct arena {
	struct transit hist[2];	/* the last transition, the one before */
	union {
		uint8_t raw[16384];
		uint64_t align;
	} arg;
	uint8_t *own;		/* page-aligned */
	size_t own_len;
	struct v4l2_ext_control ctrls[1024];
	uint8_t payload[8][256];
};

/*
 * An output node takes any size and stride: up to the limit, at it, past
 * it, odd, and a bytesperline from none to far more than the line needs
 */
static void out_size(struct rng *r, struct v4l2_pix_format *p)
{
	switch (rnd(r, 8)) {
	case 0:
		p->width = 3840 + rnd(r, 3);
		p->height = 2160 + rnd(r, 3);
		break;
	case 1:
		p->width = 1 + rnd(r, 4200);
		p->height = 1 + rnd(r, 2400);
		break;
	case 2:
		p->width = val32(r);
		p->height = val32(r);
		break;
	default:	/* mostly up to 1280x720: memory and time */
		p->width = 1 + rnd(r, 1280);
		p->height = 1 + rnd(r, 720);
	}
	switch (rnd(r, 4)) {
	case 0:
		p->bytesperline = 0;
		break;
	case 1:
		p->bytesperline = p->width * (1 + rnd(r, 4)) + rnd(r, 64) - 32;
		break;
	case 2:
		p->bytesperline = rnd(r, 65536);
		break;
	default:
		p->bytesperline = val32(r);
	}
}

static void fill_pix(struct rng *r, struct v4l2_pix_format *p, int for_s_fmt)
{
	static const uint32_t small[][2] = { { 160, 120 }, { 320, 240 },
		{ 640, 480 }, { 161, 119 }, { 1, 1 }, { 0, 0 } };
	int k = rnd(r, 6);

	p->pixelformat = fourcc(r);
	if (output && rnd(r, 2)) {
		out_size(r, p);
	} else if (for_s_fmt && rnd(r, 30)) {
		/* large frames cost time and memory: mostly small ones */
		p->width = small[k][0];
		p->height = small[k][1];
	} else {
		p->width = val32(r);
		p->height = val32(r);
	}
	if (!output || rnd(r, 2))
		p->bytesperline = rnd(r, 3) ? 0 : val32(r);
	p->sizeimage = val32(r);
	p->field = rnd(r, 2) ? V4L2_FIELD_ANY : val32(r);
	p->colorspace = rnd(r, 2) ? 0 : val32(r);
	p->priv = rnd(r, 2) ? 0 : val32(r);
	p->flags = rnd(r, 2) ? 0 : val32(r);
	p->ycbcr_enc = rnd(r, 16);
	p->quantization = rnd(r, 4);
	p->xfer_func = rnd(r, 8);
}

static void violation(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void violation(const char *fmt, ...)
{
	va_list ap;

	if (atomic_fetch_add(&n_invariant, 1))
		return;
	va_start(ap, fmt);
	vsnprintf(first_violation, sizeof(first_violation), fmt, ap);
	va_end(ap);
}

/*
 * A format the driver returned must be self-consistent; MJPEG, the one
 * compressed format, has no bytesperline
 */
static void check_pix(const char *what, const struct v4l2_pix_format *p)
{
	uint64_t need = (uint64_t)p->bytesperline * p->height;
	int jpeg = p->pixelformat == V4L2_PIX_FMT_MJPEG;

	if (!p->width || !p->height || p->width > 3840 || p->height > 2160 ||
	    (jpeg ? p->bytesperline != 0 || !p->sizeimage :
		    p->bytesperline < p->width || need > p->sizeimage) ||
	    p->sizeimage > MAX_SIZEIMAGE)
		violation("%s: %ux%u bytesperline %u sizeimage %u", what,
			  p->width, p->height, p->bytesperline, p->sizeimage);
}

/* Limit a buffer count so that count * size stays in the budget */
static uint32_t budget_count(uint32_t count, unsigned long size)
{
	unsigned long max;

	if (!size || size > MAX_SIZEIMAGE)
		return count;	/* the driver must refuse these */
	max = MEM_BUDGET / size;
	return count > max ? (max ? max : 1) : count;
}

/* An output buffer's payload: none (vb2: all), short, exact, too long */
static uint32_t out_bytesused(struct rng *r)
{
	uint32_t size = atomic_load(&cur_sizeimage);

	switch (rnd(r, 8)) {
	case 0:
		return 0;
	case 1:
		return size - 1;
	case 2:
		return rnd(r, size + 1);
	case 3:
		return size + 1 + rnd(r, 2 * PAGE);
	case 4:
		return val32(r);
	default:
		return size;
	}
}

static void fill_buffer(struct rng *r, struct arena *a, struct v4l2_buffer *b)
{
	b->index = rnd(r, 4) ? rnd(r, 10) : val32(r);
	b->type = buf_type(r);
	b->memory = mem_type(r);
	b->flags = rnd(r, 2) ? 0 : val32(r);
	b->field = rnd(r, 2) ? 0 : val32(r);
	b->bytesused = output ? out_bytesused(r) : rnd(r, 2) ? 0 : val32(r);
	b->length = rnd(r, 2) ? atomic_load(&cur_sizeimage) +
		    (rnd(r, 2) ? 0 : rnd(r, 9) - 4) : val32(r);
	switch (b->memory) {
	case V4L2_MEMORY_USERPTR: {
		size_t room;

		b->m.userptr = user_addr(r, a->own, a->own_len, &room);
		if (b->length > room)
			b->length = room;
		break;
	}
	case V4L2_MEMORY_DMABUF:
		pthread_mutex_lock(&lock);
		b->m.fd = rnd(r, 2) ? dmabufs[rnd(r, MAX_DMABUFS)] :
			  rnd(r, 2) ? vfd : (int)val32(r);
		pthread_mutex_unlock(&lock);
		break;
	default:
		b->m.offset = val32(r);
	}
	if (!rnd(r, 10)) {
		b->flags |= V4L2_BUF_FLAG_REQUEST_FD;
		b->request_fd = rnd(r, 2) ? -1 : (int)val32(r);
	}
	b->timestamp.tv_sec = rnd(r, 2) ? 0 : (int32_t)val32(r);
	b->timestamp.tv_usec = rnd(r, 2) ? 0 : (int32_t)val32(r);
}

static void fill_ext_ctrls(struct rng *r, struct arena *a,
			   struct v4l2_ext_controls *cs)
{
	static const uint32_t which[] = { V4L2_CTRL_WHICH_CUR_VAL,
		V4L2_CTRL_WHICH_DEF_VAL, V4L2_CTRL_WHICH_REQUEST_VAL,
		V4L2_CTRL_CLASS_USER, V4L2_CTRL_CLASS_CAMERA, 0xffffffff };
	uint32_t i, n = rnd(r, 9);

	cs->which = which[rnd(r, 6)];
	cs->count = rnd(r, 8) ? n : val32(r);
	cs->error_idx = val32(r);
	cs->request_fd = rnd(r, 2) ? 0 : (int)val32(r);
	for (i = 0; i < 8; i++) {
		struct v4l2_ext_control *c = &a->ctrls[i];
		size_t room;

		memset(c, 0, sizeof(*c));
		c->id = cid(r);
		c->size = rnd(r, 2) ? 0 : val32(r) % 256;
		if (rnd(r, 2))
			c->value = (int32_t)val32(r);
		else if (rnd(r, 2))
			c->ptr = a->payload[i];
		else
			c->ptr = (void *)user_addr(r, a->own, a->own_len,
						   &room);
	}
	switch (rnd(r, 8)) {
	case 0:
		cs->controls = NULL;
		break;
	case 1:
		cs->controls = (void *)(guard_area + 3 * PAGE -
					sizeof(a->ctrls[0]) * (1 + rnd(r, 2)));
		break;
	case 2:
		cs->controls = (void *)0xffff888000001000UL;
		break;
	default:
		cs->controls = a->ctrls;
	}
}

/* Structured arguments for the ioctls vivi implements */
static int fill_known(struct rng *r, struct arena *a, unsigned long cmd,
		      void *arg)
{
	switch (cmd) {
	case VIDIOC_QUERYCAP:
	case VIDIOC_LOG_STATUS:
	case VIDIOC_DQEVENT:
		return 1;
	case VIDIOC_ENUM_FMT: {
		struct v4l2_fmtdesc *f = arg;

		f->index = rnd(r, 3) ? rnd(r, 30) : val32(r);
		f->type = buf_type(r);
		f->mbus_code = rnd(r, 2) ? 0 : val32(r);
		return 1;
	}
	case VIDIOC_G_FMT:
	case VIDIOC_S_FMT:
	case VIDIOC_TRY_FMT: {
		struct v4l2_format *f = arg;

		f->type = buf_type(r);
		fill_pix(r, &f->fmt.pix, cmd == VIDIOC_S_FMT);
		return 1;
	}
	case VIDIOC_REQBUFS: {
		struct v4l2_requestbuffers *rb = arg;

		rb->count = budget_count(rnd(r, 4) ? rnd(r, 10) : val32(r),
					 atomic_load(&cur_sizeimage));
		rb->type = buf_type(r);
		rb->memory = mem_type(r);
		rb->flags = rnd(r, 2) ? 0 : val32(r);
		return 1;
	}
	case VIDIOC_CREATE_BUFS: {
		struct v4l2_create_buffers *cb = arg;
		unsigned long size;

		cb->memory = mem_type(r);
		cb->format.type = buf_type(r);
		fill_pix(r, &cb->format.fmt.pix, 1);
		if (rnd(r, 2))
			cb->format.fmt.pix.sizeimage =
				atomic_load(&cur_sizeimage) + rnd(r, 3) * PAGE;
		size = cb->format.fmt.pix.sizeimage;
		cb->count = budget_count(rnd(r, 4) ? rnd(r, 4) : val32(r), size);
		if (size <= MAX_SIZEIMAGE && atomic_load(&alloc_bytes) +
		    (unsigned long)cb->count * size > ALLOC_BUDGET)
			cb->count = 0;	/* a query: what it would take */
		cb->flags = rnd(r, 2) ? 0 : val32(r);
		return 1;
	}
	case VIDIOC_QUERYBUF:
	case VIDIOC_QBUF:
	case VIDIOC_DQBUF:
	case VIDIOC_PREPARE_BUF:
		fill_buffer(r, a, arg);
		return 1;
	case VIDIOC_EXPBUF: {
		struct v4l2_exportbuffer *e = arg;

		e->type = buf_type(r);
		e->index = rnd(r, 4) ? rnd(r, 10) : val32(r);
		e->plane = rnd(r, 4) ? 0 : val32(r);
		e->flags = rnd(r, 2) ? O_CLOEXEC | O_RDWR :
			   rnd(r, 2) ? O_RDONLY : val32(r);
		return 1;
	}
	case VIDIOC_STREAMON:
	case VIDIOC_STREAMOFF:
		*(uint32_t *)arg = buf_type(r);
		return 1;
	case VIDIOC_G_PARM:
	case VIDIOC_S_PARM: {
		struct v4l2_streamparm *p = arg;

		p->type = buf_type(r);
		p->parm.capture.capability = val32(r);
		p->parm.capture.capturemode = val32(r);
		p->parm.capture.timeperframe.numerator = val32(r);
		p->parm.capture.timeperframe.denominator = val32(r);
		p->parm.capture.extendedmode = val32(r);
		p->parm.capture.readbuffers = val32(r);
		return 1;
	}
	case VIDIOC_ENUMINPUT: {
		struct v4l2_input *in = arg;

		in->index = rnd(r, 3) ? rnd(r, 6) : val32(r);
		return 1;
	}
	case VIDIOC_S_INPUT:
	case VIDIOC_G_INPUT:
	case VIDIOC_S_OUTPUT:
	case VIDIOC_G_OUTPUT:
		*(uint32_t *)arg = rnd(r, 3) ? rnd(r, 6) : val32(r);
		return 1;
	case VIDIOC_ENUMOUTPUT: {
		struct v4l2_output *o = arg;

		o->index = rnd(r, 3) ? rnd(r, 6) : val32(r);
		return 1;
	}
	case VIDIOC_G_CTRL:
	case VIDIOC_S_CTRL: {
		struct v4l2_control *c = arg;

		c->id = cid(r);
		c->value = (int32_t)val32(r);
		return 1;
	}
	case VIDIOC_G_EXT_CTRLS:
	case VIDIOC_S_EXT_CTRLS:
	case VIDIOC_TRY_EXT_CTRLS:
		fill_ext_ctrls(r, a, arg);
		return 1;
	case VIDIOC_QUERYCTRL: {
		struct v4l2_queryctrl *q = arg;

		q->id = cid(r);
		return 1;
	}
	case VIDIOC_QUERY_EXT_CTRL: {
		struct v4l2_query_ext_ctrl *q = arg;

		q->id = cid(r);
		return 1;
	}
	case VIDIOC_QUERYMENU: {
		struct v4l2_querymenu *m = arg;

		m->id = cid(r);
		m->index = rnd(r, 3) ? rnd(r, 12) : val32(r);
		return 1;
	}
	case VIDIOC_ENUM_FRAMESIZES: {
		struct v4l2_frmsizeenum *fs = arg;

		fs->index = rnd(r, 3) ? rnd(r, 12) : val32(r);
		fs->pixel_format = fourcc(r);
		return 1;
	}
	case VIDIOC_ENUM_FRAMEINTERVALS: {
		struct v4l2_frmivalenum *fi = arg;

		fi->index = rnd(r, 3) ? rnd(r, 10) : val32(r);
		fi->pixel_format = fourcc(r);
		fi->width = rnd(r, 2) ? 640 : val32(r);
		fi->height = rnd(r, 2) ? 480 : val32(r);
		return 1;
	}
	case VIDIOC_SUBSCRIBE_EVENT:
	case VIDIOC_UNSUBSCRIBE_EVENT: {
		struct v4l2_event_subscription *s = arg;
		static const uint32_t types[] = { V4L2_EVENT_CTRL,
			V4L2_EVENT_ALL, V4L2_EVENT_SOURCE_CHANGE,
			V4L2_EVENT_EOS, V4L2_EVENT_FRAME_SYNC, 0xffffffff };

		s->type = types[rnd(r, 6)];
		s->id = cid(r);
		s->flags = rnd(r, 2) ? 0 : val32(r);
		return 1;
	}
	case VIDIOC_G_PRIORITY:
	case VIDIOC_S_PRIORITY:
		*(uint32_t *)arg = rnd(r, 3) ? rnd(r, 5) : val32(r);
		return 1;
	}
	return 0;
}

static const unsigned long ioctls[] = {
	/* implemented by vivi or the V4L2 core for it */
	VIDIOC_QUERYCAP, VIDIOC_ENUM_FMT, VIDIOC_G_FMT, VIDIOC_S_FMT,
	VIDIOC_TRY_FMT, VIDIOC_REQBUFS, VIDIOC_CREATE_BUFS, VIDIOC_QUERYBUF,
	VIDIOC_QBUF, VIDIOC_DQBUF, VIDIOC_PREPARE_BUF, VIDIOC_EXPBUF,
	VIDIOC_STREAMON, VIDIOC_STREAMOFF, VIDIOC_G_PARM, VIDIOC_S_PARM,
	VIDIOC_ENUMINPUT, VIDIOC_G_INPUT, VIDIOC_S_INPUT, VIDIOC_G_CTRL,
	VIDIOC_S_CTRL, VIDIOC_G_EXT_CTRLS, VIDIOC_S_EXT_CTRLS,
	VIDIOC_TRY_EXT_CTRLS, VIDIOC_QUERYCTRL, VIDIOC_QUERY_EXT_CTRL,
	VIDIOC_QUERYMENU, VIDIOC_ENUM_FRAMESIZES, VIDIOC_ENUM_FRAMEINTERVALS,
	VIDIOC_SUBSCRIBE_EVENT, VIDIOC_UNSUBSCRIBE_EVENT, VIDIOC_DQEVENT,
	VIDIOC_G_PRIORITY, VIDIOC_S_PRIORITY, VIDIOC_LOG_STATUS,
	/* the rest of videodev2.h: the core must refuse them */
	VIDIOC_G_FBUF, VIDIOC_S_FBUF, VIDIOC_OVERLAY, VIDIOC_G_STD,
	VIDIOC_S_STD, VIDIOC_ENUMSTD, VIDIOC_G_TUNER, VIDIOC_S_TUNER,
	VIDIOC_G_AUDIO, VIDIOC_S_AUDIO, VIDIOC_G_EDID, VIDIOC_S_EDID,
	VIDIOC_G_OUTPUT, VIDIOC_S_OUTPUT, VIDIOC_ENUMOUTPUT,
	VIDIOC_G_AUDOUT, VIDIOC_S_AUDOUT, VIDIOC_G_MODULATOR,
	VIDIOC_S_MODULATOR, VIDIOC_G_FREQUENCY, VIDIOC_S_FREQUENCY,
	VIDIOC_CROPCAP, VIDIOC_G_CROP, VIDIOC_S_CROP, VIDIOC_G_JPEGCOMP,
	VIDIOC_S_JPEGCOMP, VIDIOC_QUERYSTD, VIDIOC_ENUMAUDIO,
	VIDIOC_ENUMAUDOUT, VIDIOC_G_SLICED_VBI_CAP, VIDIOC_G_ENC_INDEX,
	VIDIOC_ENCODER_CMD, VIDIOC_TRY_ENCODER_CMD, VIDIOC_DBG_S_REGISTER,
	VIDIOC_DBG_G_REGISTER, VIDIOC_S_HW_FREQ_SEEK, VIDIOC_S_DV_TIMINGS,
	VIDIOC_G_DV_TIMINGS, VIDIOC_G_SELECTION, VIDIOC_S_SELECTION,
	VIDIOC_DECODER_CMD, VIDIOC_TRY_DECODER_CMD, VIDIOC_ENUM_DV_TIMINGS,
	VIDIOC_QUERY_DV_TIMINGS, VIDIOC_DV_TIMINGS_CAP,
	VIDIOC_ENUM_FREQ_BANDS, VIDIOC_DBG_G_CHIP_INFO,
};
#define N_IOCTLS	(sizeof(ioctls) / sizeof(ioctls[0]))
#define N_KNOWN		35

static void count_result(int r)
{
	static const int errs[] = { 0, EINVAL, ENOTTY, EFAULT, EBUSY, EAGAIN,
		ENOMEM };
	unsigned int i;

	for (i = 0; i < 7; i++)
		if (r == errs[i])
			break;
	atomic_fetch_add(&res[i], 1);
}

static void after_ioctl(unsigned long cmd, void *arg, int r)
{
	switch (cmd) {
	case VIDIOC_G_FMT:
	case VIDIOC_S_FMT:
	case VIDIOC_TRY_FMT: {
		struct v4l2_format *f = arg;

		if (r || f->type != btype)
			break;
		check_pix(cmd == VIDIOC_TRY_FMT ? "TRY_FMT" : "G/S_FMT",
			  &f->fmt.pix);
		if (cmd != VIDIOC_TRY_FMT)
			atomic_store(&cur_sizeimage, f->fmt.pix.sizeimage);
		break;
	}
	case VIDIOC_REQBUFS: {
		struct v4l2_requestbuffers *rb = arg;

		if (!r)
			atomic_store(&alloc_bytes, (unsigned long)rb->count *
				     atomic_load(&cur_sizeimage));
		break;
	}
	case VIDIOC_CREATE_BUFS: {
		struct v4l2_create_buffers *cb = arg;
		unsigned long size = cb->format.fmt.pix.sizeimage;

		if (!r)
			atomic_fetch_add(&alloc_bytes, (unsigned long)cb->count *
					 (size > MAX_SIZEIMAGE ? 0 : size));
		break;
	}
	case VIDIOC_QUERYBUF: {
		struct v4l2_buffer *b = arg;

		if (!r && b->memory == V4L2_MEMORY_MMAP)
			offsets[b->index % 32] = b->m.offset;
		break;
	}
	case VIDIOC_EXPBUF: {
		struct v4l2_exportbuffer *e = arg;
		int i;

		if (r)
			break;
		pthread_mutex_lock(&lock);
		i = e->fd % MAX_DMABUFS;
		if (dmabufs[i] > 0)
			close(dmabufs[i]);
		dmabufs[i] = e->fd;
		pthread_mutex_unlock(&lock);
		break;
	}
	}
}

/* An output node has outputs where a capture node has inputs */
static unsigned long out_ioctl(unsigned long cmd)
{
	switch (cmd) {
	case VIDIOC_ENUMINPUT:
		return VIDIOC_ENUMOUTPUT;
	case VIDIOC_G_INPUT:
		return VIDIOC_G_OUTPUT;
	case VIDIOC_S_INPUT:
		return VIDIOC_S_OUTPUT;
	}
	return cmd;
}

static void do_ioctl(struct rng *r, struct arena *a)
{
	typeof(a->arg) *buf = &a->arg;
	unsigned long cmd;
	void *arg = buf;
	int ret, known = 0;
	size_t size;

	switch (rnd(r, 20)) {
	case 0:	/* an unknown ioctl number */
		switch (rnd(r, 3)) {
		case 0:
			cmd = (uint32_t)r64(r);
			break;
		case 1:
			cmd = _IOC(rnd(r, 4), 'V', rnd(r, 256), rnd(r, 512));
			break;
		default:	/* a real number with the wrong size */
			cmd = ioctls[rnd(r, N_IOCTLS)];
			cmd = (cmd & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT)) |
			      ((unsigned long)rnd(r, 512) << _IOC_SIZESHIFT);
		}
		atomic_fetch_add(&n_unknown, 1);
		break;
	case 1:
	case 2:	/* one the driver does not implement */
		cmd = ioctls[N_KNOWN + rnd(r, N_IOCTLS - N_KNOWN)];
		break;
	default:
		cmd = ioctls[rnd(r, N_KNOWN)];
		/* LOG_STATUS writes a dozen log lines: keep it rare */
		if (cmd == VIDIOC_LOG_STATUS && rnd(r, 200))
			cmd = VIDIOC_QUERYCAP;
		if (output && rnd(r, 4))
			cmd = out_ioctl(cmd);
	}
	size = _IOC_SIZE(cmd);
	if (rnd(r, 5)) {
		memset(buf, 0, size);
		known = fill_known(r, a, cmd, buf);
	}
	if (!known)
		for (size_t i = 0; i < size; i++)
			buf->raw[i] = r64(r);
	switch (rnd(r, 25)) {
	case 0:
		arg = NULL;
		break;
	case 1:
		arg = (void *)0xffff888000000000UL;
		break;
	case 2:
		arg = (void *)(uintptr_t)val32(r);
		break;
	case 3:	/* the struct runs into an unmapped page */
		arg = guard_area + 3 * PAGE - (size > 1 ? 1 + rnd(r, size - 1) : 1);
		if (size > 3 * PAGE)
			arg = guard_area;
		memcpy(arg, buf, guard_area + 3 * PAGE - (uint8_t *)arg);
		break;
	}
	ret = ioctl(vfd, cmd, arg) ? errno : 0;
	atomic_fetch_add(&n_ioctls, 1);
	count_result(ret);
	if (arg == (void *)buf)
		after_ioctl(cmd, buf, ret);
}

static void do_mmap(struct rng *r)
{
	size_t len = rnd(r, 3) ? atomic_load(&cur_sizeimage) :
		     rnd(r, 2) ? PAGE * (1 + rnd(r, 4)) : val32(r);
	off_t off = rnd(r, 3) ? offsets[rnd(r, 32)] : val32(r);
	int fd = vfd, prot = rnd(r, 2) ? PROT_READ : PROT_READ | PROT_WRITE;
	void *p;
	int i;

	pthread_mutex_lock(&lock);
	if (!rnd(r, 4)) {
		fd = dmabufs[rnd(r, MAX_DMABUFS)];
		off = rnd(r, 2) ? 0 : val32(r);
	}
	pthread_mutex_unlock(&lock);
	if (len > MAX_SIZEIMAGE)
		len = PAGE;
	p = mmap(NULL, len, prot, rnd(r, 4) ? MAP_SHARED : MAP_PRIVATE, fd,
		 off);
	atomic_fetch_add(&n_other, 1);
	if (p == MAP_FAILED)
		return;
	/* read what it maps, first and last page */
	(void)*(volatile uint8_t *)p;
	(void)*(volatile uint8_t *)((uint8_t *)p + ((len - 1) & ~(PAGE - 1)));
	pthread_mutex_lock(&lock);
	i = rnd(r, MAX_MAPS);
	if (maps[i])
		munmap(maps[i], map_len[i]);
	maps[i] = p;
	map_len[i] = len;
	pthread_mutex_unlock(&lock);
}

static void do_munmap(struct rng *r)
{
	int i = rnd(r, MAX_MAPS);

	pthread_mutex_lock(&lock);
	if (maps[i]) {
		if (rnd(r, 4) || map_len[i] < 3 * PAGE) {
			munmap(maps[i], map_len[i]);
		} else {
			/* punch a hole first: the VMA splits */
			munmap((uint8_t *)maps[i] + PAGE, PAGE);
			munmap(maps[i], map_len[i]);
		}
		maps[i] = NULL;
	}
	pthread_mutex_unlock(&lock);
	atomic_fetch_add(&n_other, 1);
}

/*
 * read() on a capture node, write() on an output node (and now and then
 * the wrong one); a write mostly of about a frame, as OBS writes them
 */
static void do_read(struct rng *r, struct arena *a)
{
	size_t len = rnd(r, 2) ? a->own_len : val32(r) % (a->own_len + 1);
	unsigned long size = atomic_load(&cur_sizeimage);
	int wr = output ? rnd(r, 8) : !rnd(r, 16);
	void *p = a->own;
	ssize_t ret;

	if (output && wr && rnd(r, 2))
		len = size + (rnd(r, 2) ? 0 : rnd(r, 2 * PAGE) - PAGE);
	if (len > a->own_len)
		len = a->own_len;

	switch (rnd(r, 8)) {
	case 0:
		p = NULL;
		break;
	case 1:
		p = guard_area + 3 * PAGE - 16;
		len = 4096;
		break;
	case 2:
		p = (void *)0xffff888000000000UL;
		break;
	}
	ret = wr ? write(vfd, p, len) : read(vfd, p, len);
	(void)ret;
	atomic_fetch_add(&n_other, 1);
}

static void do_poll(struct rng *r)
{
	struct pollfd p = { .fd = vfd, .events = rnd(r, 2) ?
			    (output ? POLLOUT : POLLIN) | POLLPRI :
			    (short)val32(r) };

	poll(&p, 1, rnd(r, 2) ? 0 : 1 + rnd(r, 5));
	atomic_fetch_add(&n_other, 1);
}

/* A valid start of streaming, so the fuzzing also hits a running queue */
static void do_setup(struct rng *r, struct arena *a)
{
	struct v4l2_format f = { .type = btype };
	struct v4l2_requestbuffers rb = { .type = btype,
		.memory = V4L2_MEMORY_MMAP };
	int type = btype;
	unsigned long size;
	uint32_t i;

	if (ioctl(vfd, VIDIOC_G_FMT, &f))
		return;
	size = (f.fmt.pix.sizeimage + PAGE - 1) & ~(PAGE - 1);
	rb.count = 2 + rnd(r, 7);
	if (rnd(r, 3) == 0 && size * 8 <= a->own_len)
		rb.memory = V4L2_MEMORY_USERPTR;
	rb.count = budget_count(rb.count, size);
	if (!ioctl(vfd, VIDIOC_REQBUFS, &rb))
		atomic_store(&alloc_bytes, rb.count * size);
	for (i = 0; i < rb.count && i < 8; i++) {
		struct v4l2_buffer b = { .index = i, .memory = rb.memory,
			.type = btype };

		/* an output buffer holds a whole frame (0: vb2 takes all) */
		if (output)
			b.bytesused = rnd(r, 4) ? f.fmt.pix.sizeimage : 0;

		if (rb.memory == V4L2_MEMORY_USERPTR) {
			b.m.userptr = (unsigned long)a->own + i * size;
			b.length = size;
		}
		ioctl(vfd, VIDIOC_QBUF, &b);
	}
	ioctl(vfd, VIDIOC_STREAMON, &type);
	atomic_fetch_add(&n_other, 1);
}

/* drop our mappings and dma-bufs of the buffers, so REQBUFS 0 can free them */
static void drop_buffers(void)
{
	int i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < MAX_MAPS; i++) {
		if (maps[i])
			munmap(maps[i], map_len[i]);
		maps[i] = NULL;
	}
	for (i = 0; i < MAX_DMABUFS; i++) {
		if (dmabufs[i] > 0)
			close(dmabufs[i]);
		dmabufs[i] = -1;
	}
	pthread_mutex_unlock(&lock);
}

/* a size of a range, on its steps; mostly up to 1280x720 */
static void stepwise_size(struct rng *r, const struct v4l2_frmsize_stepwise *s,
			  struct v4l2_pix_format *p)
{
	uint32_t max_w = s->max_width, max_h = s->max_height;
	uint32_t sw = s->step_width ? s->step_width : 1;
	uint32_t sh = s->step_height ? s->step_height : 1;

	if (rnd(r, 4)) {
		max_w = max_w < 1280 ? max_w : 1280;
		max_h = max_h < 720 ? max_h : 720;
	}
	if (max_w < s->min_width || max_h < s->min_height)
		return;
	p->width = s->min_width + rnd(r, (max_w - s->min_width) / sw + 1) * sw;
	p->height = s->min_height +
		    rnd(r, (max_h - s->min_height) / sh + 1) * sh;
}

/* an offered size of @fourcc, mostly up to 1280x720 (memory and time) */
static void offered_size(struct rng *r, uint32_t fourcc,
			 struct v4l2_pix_format *p)
{
	struct v4l2_frmsizeenum fs = { .index = rnd(r, 16),
		.pixel_format = fourcc };

	p->width = 640;
	p->height = 480;
	if (output)
		fs.index = 0;
	if (ioctl(vfd, VIDIOC_ENUM_FRAMESIZES, &fs))
		return;
	if (fs.type != V4L2_FRMSIZE_TYPE_DISCRETE) {
		stepwise_size(r, &fs.stepwise, p);
		return;
	}
	if (
	    (fs.discrete.width * fs.discrete.height > 1280 * 720 &&
	     rnd(r, 4)))
		return;
	p->width = fs.discrete.width;
	p->height = fs.discrete.height;
}

/*
 * A well-formed change between two streams: stop, free the buffers, then
 * an offered format (MJPEG too) and size, a test pattern and a JPEG
 * quality, and stream again; so that what the driver keeps from one
 * stream to the next meets every transition
 */
static void do_transit(struct rng *r, struct arena *a)
{
	static const int32_t qualities[] = { 1, 50, 80, 95, 100 };
	struct v4l2_requestbuffers rb = { .type = btype,
		.memory = V4L2_MEMORY_MMAP };
	struct v4l2_format f = { .type = btype };
	struct v4l2_control c = { .id = V4L2_CID_TEST_PATTERN };
	struct pollfd p = { .fd = vfd, .events = output ? POLLOUT : POLLIN };
	int type = btype, ret;
	struct transit t;

	ioctl(vfd, VIDIOC_STREAMOFF, &type);
	drop_buffers();
	if (!ioctl(vfd, VIDIOC_REQBUFS, &rb))
		atomic_store(&alloc_bytes, 0);
	if (a->hist[1].fourcc && !rnd(r, 3)) {
		t = a->hist[1];		/* back to the one before: A, B, A */
	} else {
		f.fmt.pix.pixelformat = fourccs[rnd(r, n_offered)];
		offered_size(r, f.fmt.pix.pixelformat, &f.fmt.pix);
		t = (struct transit){ f.fmt.pix.pixelformat, f.fmt.pix.width,
			f.fmt.pix.height, rnd(r, 12), qualities[rnd(r, 5)] };
	}
	a->hist[1] = a->hist[0];
	a->hist[0] = t;
	f.fmt.pix.pixelformat = t.fourcc;
	f.fmt.pix.width = t.width;
	f.fmt.pix.height = t.height;
	f.fmt.pix.field = V4L2_FIELD_NONE;
	ret = ioctl(vfd, VIDIOC_S_FMT, &f) ? errno : 0;
	atomic_fetch_add(&n_ioctls, 1);
	count_result(ret);
	after_ioctl(VIDIOC_S_FMT, &f, ret);
	c.value = t.pattern;
	ioctl(vfd, VIDIOC_S_CTRL, &c);
	c.id = V4L2_CID_JPEG_COMPRESSION_QUALITY;
	c.value = t.quality;
	ioctl(vfd, VIDIOC_S_CTRL, &c);
	atomic_fetch_add(&n_transits, 1);
	do_setup(r, a);
	/* often a frame, so the driver draws in the new format */
	if (!rnd(r, 4))
		poll(&p, 1, 100);
}

static void do_reopen(void)
{
	int fd, old;

	pthread_mutex_lock(&lock);
	fd = open(dev, O_RDWR | O_NONBLOCK);
	if (fd >= 0) {
		old = vfd;
		vfd = fd;
		close(old);
	}
	pthread_mutex_unlock(&lock);
	atomic_fetch_add(&n_other, 1);
}

static void *fuzz_thread(void *argp)
{
	struct rng r = { .s = (uint64_t)(uintptr_t)argp };
	struct arena *a = calloc(1, sizeof(*a));
	unsigned long it;

	if (!a)
		return NULL;
	a->own_len = 8 * 1024 * 1024;
	if (posix_memalign((void **)&a->own, PAGE, a->own_len))
		return NULL;
	memset(a->own, 0, a->own_len);
	for (it = 0; !atomic_load(&stop); it++) {
		uint32_t k = rnd(&r, 1000);

		if (k < 880)
			do_ioctl(&r, a);
		else if (k < 910)
			do_mmap(&r);
		else if (k < 930)
			do_munmap(&r);
		else if (k < 955)
			do_read(&r, a);
		else if (k < 985)
			do_poll(&r);
		else if (k < 992)
			do_setup(&r, a);
		else if (k < 995)
			do_transit(&r, a);
		else if (nthreads == 1)
			do_reopen();
		if (atomic_load(&n_ioctls) >= max_ioctls ||
		    (!(it & 255) && now_s() > deadline))
			atomic_store(&stop, 1);
	}
	free(a->own);
	free(a);
	return NULL;
}

/* An output node (a producer) if its device caps say only output */
static void node_direction(int fd)
{
	struct v4l2_capability cap;
	uint32_t caps;

	memset(&cap, 0, sizeof(cap));
	if (ioctl(fd, VIDIOC_QUERYCAP, &cap))
		return;
	caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps :
	       cap.capabilities;
	if ((caps & V4L2_CAP_VIDEO_OUTPUT) && !(caps & V4L2_CAP_VIDEO_CAPTURE)) {
		output = 1;
		btype = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	}
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "ok", "EINVAL", "ENOTTY",
		"EFAULT", "EBUSY", "EAGAIN", "ENOMEM", "other" };
	unsigned long long seed = 0;
	pthread_t th[2];
	double secs = 60;
	int opt, i, have_seed = 0;

	while ((opt = getopt(argc, argv, "s:n:t:j:")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			have_seed = 1;
			break;
		case 'n':
			max_ioctls = atol(optarg);
			break;
		case 't':
			secs = atof(optarg);
			break;
		case 'j':
			nthreads = atoi(optarg) == 2 ? 2 : 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1) {
usage:
		fprintf(stderr, "usage: %s [-s SEED] [-n IOCTLS] [-t SECONDS] [-j 1|2] /dev/videoN\n",
			argv[0]);
		return 2;
	}
	dev = argv[optind];
	if (!have_seed)
		seed = (unsigned long long)time(NULL) * 1000003ULL ^ getpid();
	printf("fuzz: seed %llu, %d thread%s, up to %ld ioctls or %.0f s on %s (replay: vivi-fuzz -s %llu -n %ld -j %d %s)\n",
	       seed, nthreads, nthreads > 1 ? "s" : "", max_ioctls, secs, dev,
	       seed, max_ioctls, nthreads, dev);
	fflush(stdout);
	signal(SIGPIPE, SIG_IGN);

	/*
	 * The guard page is a shared mapping: a private PROT_NONE page stops
	 * copy_to_user() but not get_user_pages() with FOLL_FORCE, which
	 * 6.1 still uses to pin USERPTR buffers; the frame then runs through
	 * it into whatever memory of ours follows.
	 */
	guard_area = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard_area == MAP_FAILED ||
	    mmap(guard_area + 3 * PAGE, PAGE, PROT_NONE,
		 MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		return 2;
	for (i = 0; i < MAX_DMABUFS; i++)
		dmabufs[i] = -1;
	vfd = open(dev, O_RDWR | O_NONBLOCK);
	if (vfd < 0) {
		printf("FAIL: fuzz: open %s: %s\n", dev, strerror(errno));
		return 1;
	}
	node_direction(vfd);
	list_fourccs(vfd);
	printf("fuzz: %s node, %u formats offered\n",
	       output ? "output" : "capture", n_offered);
	start_time = now_s();
	deadline = start_time + secs;
	for (i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, fuzz_thread,
			       (void *)(uintptr_t)(seed + i * 0x1000193ULL));
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);

	for (i = 0; i < MAX_MAPS; i++)
		if (maps[i])
			munmap(maps[i], map_len[i]);
	for (i = 0; i < MAX_DMABUFS; i++)
		if (dmabufs[i] > 0)
			close(dmabufs[i]);
	close(vfd);

	printf("fuzz: %ld ioctls (%ld unknown numbers), %ld format transitions and %ld mmap/munmap/read/write/poll/reopen in %.1f s:",
	       atomic_load(&n_ioctls), atomic_load(&n_unknown),
	       atomic_load(&n_transits), atomic_load(&n_other),
	       now_s() - start_time);
	for (i = 0; i < 8; i++)
		printf(" %s %ld", names[i], atomic_load(&res[i]));
	printf("\n");
	if (atomic_load(&n_invariant)) {
		printf("FAIL: fuzz: %d thread%s, seed %llu: %ld inconsistent formats, first: %s\n",
		       nthreads, nthreads > 1 ? "s" : "", seed,
		       atomic_load(&n_invariant), first_violation);
		return 1;
	}
	printf("PASS: fuzz: %d thread%s, seed %llu: %ld ioctls, every format returned is self-consistent\n",
	       nthreads, nthreads > 1 ? "s" : "", seed, atomic_load(&n_ioctls));
	return 0;
}
