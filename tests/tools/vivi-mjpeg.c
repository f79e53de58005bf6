// SPDX-License-Identifier: GPL-2.0
/*
 * vivi-mjpeg - MJPEG negotiation, its quality control and bad input to both.
 *
 * Usage: vivi-mjpeg /dev/videoN
 * Prints one PASS:/FAIL: line per check, exits 1 if any failed. Leaves the
 * node at MJPEG 640x480, quality 95, no buffers.
 */
#include "vivi-tool.h"
#include <fcntl.h>
#include <unistd.h>

#define QUALITY		V4L2_CID_JPEG_COMPRESSION_QUALITY

static int fd;

static int fmt_ioctl(unsigned long req, __u32 w, __u32 h, __u32 sizeimage,
		     struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.pixelformat = V4L2_PIX_FMT_MJPEG;
	f->fmt.pix.width = w;
	f->fmt.pix.height = h;
	f->fmt.pix.sizeimage = sizeimage;
	return xioctl(fd, req, f);
}

static __u32 g_sizeimage(void)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	if (xioctl(fd, VIDIOC_G_FMT, &f))
		die("G_FMT: %s", strerror(errno));
	return f.fmt.pix.sizeimage;
}

static int s_quality(int q)
{
	struct v4l2_control c = { .id = QUALITY, .value = q };

	return xioctl(fd, VIDIOC_S_CTRL, &c);
}

static int g_ctrl(__u32 id)
{
	struct v4l2_control c = { .id = id };

	if (xioctl(fd, VIDIOC_G_CTRL, &c))
		die("G_CTRL %#x: %s", id, strerror(errno));
	return c.value;
}

static void check_enum(void)
{
	struct v4l2_fmtdesc d = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_queryctrl q = { .id = QUALITY };
	int r = xioctl(fd, VIDIOC_ENUM_FMT, &d);

	result(!r && d.pixelformat == V4L2_PIX_FMT_MJPEG &&
	       d.flags & V4L2_FMT_FLAG_COMPRESSED,
	       "ENUM_FMT lists MJPEG first, flagged compressed",
	       "r=%d %.4s flags %#x", r, (char *)&d.pixelformat, d.flags);
	r = xioctl(fd, VIDIOC_QUERYCTRL, &q);
	result(!r && q.type == V4L2_CTRL_TYPE_INTEGER && q.minimum == 1 &&
	       q.maximum == 100 && q.step == 1 && q.default_value == 95 &&
	       V4L2_CTRL_ID2CLASS(q.id) == V4L2_CTRL_CLASS_JPEG,
	       "JPEG class compression quality 1..100, default 95",
	       "r=%d type %u %d..%d step %d default %d", r, q.type, q.minimum,
	       q.maximum, q.step, q.default_value);
}

/* the application's sizeimage is ignored: the driver's worst case wins */
static void check_sizeimage(void)
{
	static const __u32 asked[] = { 1, 4096, 0x7fffffff, 0xffffffff };
	struct v4l2_format f;
	__u32 want;
	unsigned int i;
	int r;

	r = fmt_ioctl(VIDIOC_TRY_FMT, 640, 480, 0, &f);
	want = f.fmt.pix.sizeimage;
	result(!r && f.fmt.pix.pixelformat == V4L2_PIX_FMT_MJPEG &&
	       !f.fmt.pix.bytesperline && want > 640 * 480 / 8 &&
	       f.fmt.pix.quantization == V4L2_QUANTIZATION_FULL_RANGE,
	       "TRY_FMT MJPEG 640x480: bytesperline 0, a sizeimage, full range",
	       "r=%d bpl %u sizeimage %u quantization %u", r,
	       f.fmt.pix.bytesperline, want, f.fmt.pix.quantization);
	for (i = 0; i < sizeof(asked) / sizeof(asked[0]); i++) {
		char name[80];

		r = fmt_ioctl(VIDIOC_TRY_FMT, 640, 480, asked[i], &f);
		snprintf(name, sizeof(name),
			 "TRY_FMT and S_FMT with sizeimage %u give %u", asked[i],
			 want);
		if (!r && f.fmt.pix.sizeimage == want)
			r = fmt_ioctl(VIDIOC_S_FMT, 640, 480, asked[i], &f);
		result(!r && f.fmt.pix.sizeimage == want &&
		       g_sizeimage() == want, name, "r=%d got %u, G_FMT %u",
		       r, f.fmt.pix.sizeimage, g_sizeimage());
	}
}

/* lower quality, smaller worst case; out of range is clamped */
static void check_quality(void)
{
	static const int q[] = { 1, 50, 95, 100 };
	__u32 size[4];
	int bright = g_ctrl(V4L2_CID_BRIGHTNESS), r;
	unsigned int i;
	struct v4l2_format f;

	fmt_ioctl(VIDIOC_S_FMT, 1920, 1080, 0, &f);
	for (i = 0; i < 4; i++) {
		s_quality(q[i]);
		size[i] = g_sizeimage();
	}
	result(size[0] < size[1] && size[1] < size[2] && size[2] < size[3] &&
	       size[3] <= 3840 * 2160 * 9,
	       "sizeimage at 1920x1080 grows with the quality",
	       "q1 %u q50 %u q95 %u q100 %u", size[0], size[1], size[2],
	       size[3]);
	r = s_quality(0);
	result(!r && g_ctrl(QUALITY) == 1 && g_sizeimage() == size[0],
	       "quality 0 is clamped to 1", "r=%d got %d, sizeimage %u", r,
	       g_ctrl(QUALITY), g_sizeimage());
	r = s_quality(1000);
	result(!r && g_ctrl(QUALITY) == 100 && g_sizeimage() == size[3],
	       "quality 1000 is clamped to 100", "r=%d got %d, sizeimage %u",
	       r, g_ctrl(QUALITY), g_sizeimage());
	r = s_quality(-7);
	result(!r && g_ctrl(QUALITY) == 1 &&
	       g_ctrl(V4L2_CID_BRIGHTNESS) == bright,
	       "quality -7 is clamped to 1, brightness unchanged",
	       "r=%d got %d", r, g_ctrl(QUALITY));
	s_quality(95);
}

static int create_bufs(__u32 size)
{
	struct v4l2_create_buffers cb = {
		.count = 1, .memory = V4L2_MEMORY_MMAP,
		.format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
	};

	if (xioctl(fd, VIDIOC_G_FMT, &cb.format))
		die("G_FMT: %s", strerror(errno));
	cb.format.fmt.pix.sizeimage = size;
	return xioctl(fd, VIDIOC_CREATE_BUFS, &cb);
}

/*
 * USERPTR buffers of the sizeimage G_FMT gave, after the quality rose while
 * other buffers existed: they queue, and the frame comes back whole or as
 * ERROR (a JPEG of the new quality may not fit), never a QBUF refusal
 */
static void check_userptr(__u32 sizeimage)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_requestbuffers rb = {
		.count = 2, .type = type, .memory = V4L2_MEMORY_USERPTR,
	};
	struct v4l2_buffer b;
	unsigned char *mem[2] = { NULL, NULL };
	unsigned int i, qerr = 0;
	const unsigned char *p;
	int r, whole = 0;

	if (xioctl(fd, VIDIOC_REQBUFS, &rb))
		die("REQBUFS USERPTR: %s", strerror(errno));
	for (i = 0; i < 2; i++) {
		if (posix_memalign((void **)&mem[i], 4096, sizeimage))
			die("posix_memalign");
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = V4L2_MEMORY_USERPTR;
		b.index = i;
		b.m.userptr = (unsigned long)mem[i];
		b.length = sizeimage;
		if (xioctl(fd, VIDIOC_QBUF, &b))
			qerr = errno;
	}
	result(!qerr, "USERPTR buffers of G_FMT's sizeimage queue after a quality change",
	       "QBUF: %s", strerror(qerr));
	r = qerr ? -1 : xioctl(fd, VIDIOC_STREAMON, &type);
	memset(&b, 0, sizeof(b));
	b.type = type;
	b.memory = V4L2_MEMORY_USERPTR;
	if (!r)
		r = xioctl(fd, VIDIOC_DQBUF, &b);
	p = !r && b.index < 2 ? mem[b.index] : NULL;
	if (p && !(b.flags & V4L2_BUF_FLAG_ERROR))
		whole = b.bytesused >= 4 && b.bytesused <= sizeimage &&
			p[0] == 0xff && p[1] == 0xd8 &&
			p[b.bytesused - 2] == 0xff && p[b.bytesused - 1] == 0xd9;
	else if (p)
		whole = b.bytesused == 0;
	result(whole, "a quality-100 frame in them: a whole JPEG, or ERROR with no payload",
	       "r=%d flags %#x bytesused %u of %u", r, b.flags, b.bytesused,
	       sizeimage);
	xioctl(fd, VIDIOC_STREAMOFF, &type);
	rb.count = 0;
	xioctl(fd, VIDIOC_REQBUFS, &rb);
	free(mem[0]);
	free(mem[1]);
}

/*
 * Buffers keep the worst case they were made for, and the format an
 * application read does not change behind it: a quality changed while
 * buffers exist shows in sizeimage at the next S_FMT
 */
static void check_buffers(void)
{
	struct v4l2_format f;
	__u32 q50, q100;
	int r;

	fmt_ioctl(VIDIOC_S_FMT, 640, 480, 0, &f);
	s_quality(100);
	q100 = g_sizeimage();
	s_quality(50);
	q50 = g_sizeimage();
	r = create_bufs(q50 - 1);
	result(r == -EINVAL, "CREATE_BUFS below sizeimage is EINVAL", "r=%d",
	       r);
	r = create_bufs(q50);
	result(!r, "CREATE_BUFS of sizeimage works", "r=%d", r);
	reqbufs_mmap(fd, "", 0);
	reqbufs_mmap(fd, "", 2);
	s_quality(100);
	result(g_sizeimage() == q50,
	       "quality 100 with buffers of quality 50 keeps sizeimage",
	       "%u, want %u", g_sizeimage(), q50);
	reqbufs_mmap(fd, "", 0);
	reqbufs_mmap(fd, "", 2);
	result(g_sizeimage() == q50,
	       "REQBUFS after that keeps the sizeimage G_FMT gave",
	       "%u, want %u", g_sizeimage(), q50);
	reqbufs_mmap(fd, "", 0);
	check_userptr(q50);
	fmt_ioctl(VIDIOC_S_FMT, 640, 480, 0, &f);
	result(f.fmt.pix.sizeimage == q100 && g_sizeimage() == q100,
	       "the next S_FMT takes quality 100's worst case",
	       "S_FMT %u, G_FMT %u, want %u", f.fmt.pix.sizeimage,
	       g_sizeimage(), q100);
	s_quality(95);
}

/* each frame is a whole JPEG within sizeimage */
static void check_frames(void)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int n, i, good = 0, frames = 10;
	void *mem[8];
	size_t len[8];
	struct v4l2_format f;
	char why[120] = "";

	fmt_ioctl(VIDIOC_S_FMT, 320, 240, 0, &f);
	n = reqbufs_mmap(fd, "", 4);
	if (n > 8)
		die("REQBUFS gave %u buffers", n);
	map_and_queue(fd, "", n, mem, len);
	if (xioctl(fd, VIDIOC_STREAMON, &type))
		die("STREAMON: %s", strerror(errno));
	for (i = 0; i < frames; i++) {
		struct v4l2_buffer b;
		const unsigned char *p;

		mmap_buffer(&b, 0);
		if (xioctl(fd, VIDIOC_DQBUF, &b))
			die("DQBUF: %s", strerror(errno));
		p = mem[b.index];
		if (b.flags & V4L2_BUF_FLAG_ERROR || b.bytesused < 4 ||
		    b.bytesused > f.fmt.pix.sizeimage || p[0] != 0xff ||
		    p[1] != 0xd8 || p[b.bytesused - 2] != 0xff ||
		    p[b.bytesused - 1] != 0xd9)
			snprintf(why, sizeof(why),
				 "frame %u: flags %#x bytesused %u of %u", i,
				 b.flags, b.bytesused, f.fmt.pix.sizeimage);
		else
			good++;
		qbuf_mmap(fd, "", b.index);
	}
	xioctl(fd, VIDIOC_STREAMOFF, &type);
	for (i = 0; i < n; i++)
		munmap(mem[i], len[i]);
	reqbufs_mmap(fd, "", 0);
	result(good == frames,
	       "10 frames: SOI to EOI, bytesused within sizeimage", "%s", why);
}

int main(int argc, char **argv)
{
	struct v4l2_format f;

	if (argc != 2)
		die("usage: vivi-mjpeg /dev/videoN");
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		die("%s: %s", argv[1], strerror(errno));
	result_group = "mjpeg";
	check_enum();
	check_sizeimage();
	check_quality();
	check_buffers();
	check_frames();
	fmt_ioctl(VIDIOC_S_FMT, 640, 480, 0, &f);
	close(fd);
	return result_failures ? 1 : 0;
}
