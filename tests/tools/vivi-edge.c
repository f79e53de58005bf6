// SPDX-License-Identifier: GPL-2.0
/*
 * vivi-edge - negotiation edge cases that v4l2-ctl cannot express.
 *
 * Usage: vivi-edge /dev/videoN
 *        vivi-edge /dev/videoN fail_reqbufs
 * Prints one PASS:/FAIL: line per check, exits 1 if any failed.
 *
 * fail_reqbufs: the debugfs knob vivi/videoN/faults/fail_reqbufs armed
 * before CREATE_BUFS and before the first read(): each fails with exactly
 * the armed errno, once, and the next attempt brings a frame.
 */
#include "vivi-tool.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/videodev2.h>

static int is_offered_size(int fd, __u32 fcc, __u32 w, __u32 h)
{
	struct v4l2_frmsizeenum fs = { .pixel_format = fcc };

	for (fs.index = 0; !xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs); fs.index++)
		if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE &&
		    fs.discrete.width == w && fs.discrete.height == h)
			return 1;
	return 0;
}

static int try_size(int fd, __u32 fcc, __u32 w, __u32 h, struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.pixelformat = fcc;
	f->fmt.pix.width = w;
	f->fmt.pix.height = h;
	return xioctl(fd, VIDIOC_TRY_FMT, f);
}

static void check_try_sizes(int fd)
{
	static const __u32 sz[][2] = {
		{ 0, 0 }, { 1, 1 }, { 65535, 65535 }, { 0, 65535 },
		{ 65535, 1 }, { 641, 479 }, { 0xffffffff, 0xffffffff },
	};
	struct v4l2_format f;
	char name[64];
	unsigned int i;

	for (i = 0; i < sizeof(sz) / sizeof(sz[0]); i++) {
		int r = try_size(fd, V4L2_PIX_FMT_YUYV, sz[i][0], sz[i][1], &f);

		snprintf(name, sizeof(name), "TRY_FMT %ux%u", sz[i][0], sz[i][1]);
		result(!r && is_offered_size(fd, f.fmt.pix.pixelformat,
					     f.fmt.pix.width, f.fmt.pix.height) &&
		       f.fmt.pix.bytesperline >= f.fmt.pix.width * 2 &&
		       f.fmt.pix.sizeimage >= f.fmt.pix.bytesperline * f.fmt.pix.height,
		       name, "r=%d got %ux%u bpl %u size %u", r, f.fmt.pix.width,
		       f.fmt.pix.height, f.fmt.pix.bytesperline,
		       f.fmt.pix.sizeimage);
	}
	/* nearest, not just any */
	try_size(fd, V4L2_PIX_FMT_YUYV, 1270, 725, &f);
	result(f.fmt.pix.width == 1280 && f.fmt.pix.height == 720,
	       "TRY_FMT 1270x725 picks 1280x720", "got %ux%u",
	       f.fmt.pix.width, f.fmt.pix.height);
}

static void check_unknown_fourcc(int fd)
{
	struct v4l2_fmtdesc d = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_format f;
	__u32 want = 0;
	int r;

	/* the default is YUYV when offered, else the first format */
	for (; !xioctl(fd, VIDIOC_ENUM_FMT, &d); d.index++)
		if (!d.index || d.pixelformat == V4L2_PIX_FMT_YUYV)
			want = d.pixelformat;
	r = try_size(fd, v4l2_fourcc('A', 'B', 'C', 'D'), 640, 480, &f);
	result(!r && f.fmt.pix.pixelformat == want,
	       "TRY_FMT unknown fourcc falls back to the default", "r=%d got %.4s",
	       r, (char *)&f.fmt.pix.pixelformat);
}

static void check_busy(int fd)
{
	struct v4l2_requestbuffers rb = {
		.count = 2, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_input inp = { .index = 1 };
	int r;

	xioctl(fd, VIDIOC_G_FMT, &f);
	r = xioctl(fd, VIDIOC_REQBUFS, &rb);
	/* the generator draws the next frame ahead: at least 8 (docs/device.md) */
	result(!r && rb.count >= 8, "REQBUFS 2 gives at least 8 buffers",
	       "r=%d count=%u", r, rb.count);
	r = xioctl(fd, VIDIOC_S_FMT, &f);
	result(r == -EBUSY, "S_FMT with buffers allocated is EBUSY", "r=%d", r);
	if (!xioctl(fd, VIDIOC_ENUMINPUT, &inp)) {
		int other = 1;

		r = xioctl(fd, VIDIOC_S_INPUT, &other);
		result(r == -EBUSY, "S_INPUT with buffers allocated is EBUSY",
		       "r=%d", r);
	}
	r = xioctl(fd, VIDIOC_TRY_FMT, &f);
	result(!r, "TRY_FMT with buffers allocated works", "r=%d", r);
	rb.count = 0;
	xioctl(fd, VIDIOC_REQBUFS, &rb);
	r = xioctl(fd, VIDIOC_S_FMT, &f);
	result(!r, "S_FMT after freeing buffers works", "r=%d", r);
}

static int s_parm(int fd, __u32 num, __u32 den, struct v4l2_streamparm *p)
{
	memset(p, 0, sizeof(*p));
	p->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	p->parm.capture.timeperframe.numerator = num;
	p->parm.capture.timeperframe.denominator = den;
	return xioctl(fd, VIDIOC_S_PARM, p);
}

static void check_parm(int fd)
{
	static const __u32 iv[][2] = {
		{ 0, 0 }, { 0, 30 }, { 1, 0 }, { 1, 1000000 }, { 1000, 1 },
		{ 0xffffffff, 1 }, { 1, 0xffffffff },
	};
	struct v4l2_frmivalenum fi;
	struct v4l2_streamparm p;
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	char name[64];
	unsigned int i;

	xioctl(fd, VIDIOC_G_FMT, &f);
	for (i = 0; i < sizeof(iv) / sizeof(iv[0]); i++) {
		int r = s_parm(fd, iv[i][0], iv[i][1], &p), found = 0;
		struct v4l2_fract *t = &p.parm.capture.timeperframe;

		memset(&fi, 0, sizeof(fi));
		fi.pixel_format = f.fmt.pix.pixelformat;
		fi.width = f.fmt.pix.width;
		fi.height = f.fmt.pix.height;
		for (; !xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi); fi.index++)
			if (fi.discrete.numerator == t->numerator &&
			    fi.discrete.denominator == t->denominator)
				found = 1;
		snprintf(name, sizeof(name), "S_PARM %u/%u gives an offered interval",
			 iv[i][0], iv[i][1]);
		result(!r && found &&
		       (p.parm.capture.capability & V4L2_CAP_TIMEPERFRAME),
		       name, "r=%d got %u/%u", r, t->numerator, t->denominator);
	}
	s_parm(fd, 1, 1000000, &p);
	result(p.parm.capture.timeperframe.denominator == 120,
	       "S_PARM 1/1000000 at 640x480 snaps to 1/120", "got %u/%u",
	       p.parm.capture.timeperframe.numerator,
	       p.parm.capture.timeperframe.denominator);
	s_parm(fd, 1000, 1, &p);
	result(p.parm.capture.timeperframe.denominator == 5,
	       "S_PARM 1000/1 snaps to 1/5", "got %u/%u",
	       p.parm.capture.timeperframe.numerator,
	       p.parm.capture.timeperframe.denominator);
	s_parm(fd, 1, 12, &p);
	result(p.parm.capture.timeperframe.numerator == 2 &&
	       p.parm.capture.timeperframe.denominator == 25,
	       "S_PARM 1/12 snaps to 2/25 (12.5 fps)", "got %u/%u",
	       p.parm.capture.timeperframe.numerator,
	       p.parm.capture.timeperframe.denominator);
	s_parm(fd, 1, 30, &p);
}

/* write @err to the device's fail_reqbufs knob, or die */
static void arm_fail_reqbufs(const char *dev, int err)
{
	char val[16];

	snprintf(val, sizeof(val), "%d", err);
	if (write_fault_knob(dev, "fail_reqbufs", val))
		die("%s: cannot write fail_reqbufs %s: %s", dev, val,
		    strerror(errno));
}

/* CREATE_BUFS of @count buffers of the current format; 0 or -errno */
static int create_bufs(int fd, unsigned int count, unsigned int *index)
{
	struct v4l2_create_buffers cb = {
		.count = count, .memory = V4L2_MEMORY_MMAP,
		.format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
	};
	int r;

	if (xioctl(fd, VIDIOC_G_FMT, &cb.format))
		die("G_FMT: %s", strerror(errno));
	r = xioctl(fd, VIDIOC_CREATE_BUFS, &cb);
	*index = cb.index;
	return r ? r : cb.count == count ? 0 : -ERANGE;
}

/* queue the @n MMAP buffers from @first, stream until one comes back */
static int one_frame(int fd, unsigned int first, unsigned int n)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct v4l2_buffer b;
	unsigned int i;
	int ok;

	for (i = first; i < first + n; i++) {
		mmap_buffer(&b, i);
		if (xioctl(fd, VIDIOC_QBUF, &b))
			return 0;
	}
	if (xioctl(fd, VIDIOC_STREAMON, &type))
		return 0;
	mmap_buffer(&b, 0);
	ok = poll(&p, 1, 5000) == 1 && !xioctl(fd, VIDIOC_DQBUF, &b) &&
	     !(b.flags & V4L2_BUF_FLAG_ERROR) && b.bytesused;
	xioctl(fd, VIDIOC_STREAMOFF, &type);
	return ok;
}

/* fail_reqbufs before CREATE_BUFS: that errno once, then buffers and a frame */
static void check_fail_create_bufs(int fd, const char *dev)
{
	unsigned int index;
	int r;

	arm_fail_reqbufs(dev, ENOMEM);
	r = create_bufs(fd, 8, &index);
	result(r == -ENOMEM, "fail_reqbufs=12: CREATE_BUFS fails with ENOMEM",
	       "got %d", r);
	r = create_bufs(fd, 8, &index);
	result(!r && one_frame(fd, index, 8),
	       "fail_reqbufs: only once, the next CREATE_BUFS works and a frame arrives",
	       "CREATE_BUFS %d", r);
	reqbufs_mmap(fd, dev, 0);
}

/* fail_reqbufs before the first read(): that errno once, then a frame */
static void check_fail_read(const char *dev)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	int fd = open(dev, O_RDWR);
	ssize_t n;
	char *buf;
	int r;

	if (fd < 0 || xioctl(fd, VIDIOC_G_FMT, &f))
		die("%s: %s", dev, strerror(errno));
	buf = malloc(f.fmt.pix.sizeimage);
	if (!buf)
		die("out of memory");
	arm_fail_reqbufs(dev, ENOBUFS);
	r = read(fd, buf, f.fmt.pix.sizeimage) < 0 ? -errno : 0;
	result(r == -ENOBUFS, "fail_reqbufs=105: the first read() fails with ENOBUFS",
	       "got %d", r);
	n = read(fd, buf, f.fmt.pix.sizeimage);
	result(n == (ssize_t)f.fmt.pix.sizeimage,
	       "fail_reqbufs: only once, the next read() gives a frame",
	       "read %zd of %u bytes: %s", n, f.fmt.pix.sizeimage,
	       n < 0 ? strerror(errno) : "short");
	free(buf);
	close(fd);
}

int main(int argc, char **argv)
{
	int fd;

	if (argc != 2 && (argc != 3 || strcmp(argv[2], "fail_reqbufs"))) {
		fprintf(stderr, "usage: %s /dev/videoN [fail_reqbufs]\n",
			argv[0]);
		return 2;
	}
	result_group = argc == 3 ? "faults" : "edge";
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	if (argc == 3) {
		check_fail_create_bufs(fd, argv[1]);
		close(fd);
		check_fail_read(argv[1]);
		return result_failures ? 1 : 0;
	}
	check_try_sizes(fd);
	check_unknown_fourcc(fd);
	check_busy(fd);
	check_parm(fd);
	close(fd);
	return result_failures ? 1 : 0;
}
