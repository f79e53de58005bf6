// SPDX-License-Identifier: GPL-2.0
/*
 * vivi-stamp - stream with the frame stamp on and read it back from every
 * frame: which frames arrived, and how long after their capture time.
 *
 * Usage: vivi-stamp [-f FOURCC] [-s WxH] [-b BUFS] [-n FRAMES] /dev/videoN
 *   FOURCC: YUYV (default), RGB3, GREY, YU12 or NV12; 30 fps.
 * Prints key=value lines: frames, decoded (stamps read), mismatched (a
 * stamp whose sequence is not the buffer's), seq_lost (sequence numbers
 * skipped by the buffers), stamp_lost (skipped by the stamps), repeated
 * (a stamp not newer than the one before), error_buffers
 * (V4L2_BUF_FLAG_ERROR), and the latency from the stamp's capture time to
 * DQBUF in ms: latency_p50, latency_max. Exits 1 if a stamp did not decode.
 */
#include "vivi-tool.h"
#include "vivi-stamp.h"
#include <fcntl.h>
#include <getopt.h>
#include <unistd.h>

#define MAX_BUFS	32

/* bytes per pixel of the first plane, for the stamp decoder (2: YUYV's Y') */
static unsigned int luma_bpp(uint32_t fourcc)
{
	switch (fourcc) {
	case V4L2_PIX_FMT_YUYV:
		return 2;
	case V4L2_PIX_FMT_RGB24:
		return 3;
	case V4L2_PIX_FMT_GREY:
	case V4L2_PIX_FMT_YUV420:
	case V4L2_PIX_FMT_NV12:
		return 1;
	}
	die("format %.4s: use YUYV, RGB3, GREY, YU12 or NV12", (char *)&fourcc);
}

static int64_t realtime_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void set_stamp(int fd, const char *dev, int on)
{
	struct v4l2_queryctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };
	struct v4l2_control c = { .value = on };

	/* a private control: found by name */
	while (!xioctl(fd, VIDIOC_QUERYCTRL, &q)) {
		if (!strcmp((char *)q.name, "Frame Stamp")) {
			c.id = q.id;
			if (xioctl(fd, VIDIOC_S_CTRL, &c))
				die("%s: set Frame Stamp: %s", dev,
				    strerror(errno));
			return;
		}
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	die("%s: no Frame Stamp control", dev);
}

int main(int argc, char **argv)
{
	struct stream_opts o = { .fourcc = V4L2_PIX_FMT_YUYV, .w = 640,
				 .h = 480, .nbufs = 8, .max_bufs = MAX_BUFS,
				 .nframes = 60 };
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int decoded = 0, mismatched = 0, repeated = 0, errors = 0;
	unsigned int i, n, bpp, nlat = 0;
	uint64_t seq_lost = 0, stamp_lost = 0;
	uint32_t first_seq = 0, last_seq = 0, last_stamp = 0;
	double *lat;
	void *mem[MAX_BUFS];
	size_t len[MAX_BUFS];
	struct v4l2_format fmt;
	const char *dev;
	int fd, opt;

	while ((opt = getopt(argc, argv, "f:s:b:n:")) != -1)
		if (!stream_option(opt, optarg, &o))
			die("usage: vivi-stamp [-f FOURCC] [-s WxH] [-b BUFS] [-n FRAMES] /dev/videoN");
	if (optind != argc - 1 || !o.nframes)
		die("usage: vivi-stamp [-f FOURCC] [-s WxH] [-b BUFS] [-n FRAMES] /dev/videoN");
	dev = argv[optind];
	bpp = luma_bpp(o.fourcc);
	fd = open(dev, O_RDWR);
	if (fd < 0)
		die("%s: %s", dev, strerror(errno));
	lat = calloc(o.nframes, sizeof(*lat));
	if (!lat)
		die("out of memory");
	set_format(fd, dev, o.fourcc, o.w, o.h, &fmt);
	set_interval(fd, dev, (struct v4l2_fract){ 1, 30 });
	set_stamp(fd, dev, 1);
	n = reqbufs_mmap(fd, dev, o.nbufs);
	if (n > MAX_BUFS)
		die("%s: REQBUFS gave %u buffers", dev, n);
	map_and_queue(fd, dev, n, mem, len);
	if (xioctl(fd, VIDIOC_STREAMON, &type))
		die("%s: STREAMON: %s", dev, strerror(errno));

	for (i = 0; i < o.nframes; i++) {
		struct v4l2_buffer b;
		uint32_t seq;
		uint64_t ms;

		mmap_buffer(&b, 0);
		if (xioctl(fd, VIDIOC_DQBUF, &b))
			die("%s: DQBUF: %s", dev, strerror(errno));
		errors += !!(b.flags & V4L2_BUF_FLAG_ERROR);
		if (i)
			seq_lost += b.sequence - last_seq - 1;
		else
			first_seq = b.sequence;
		last_seq = b.sequence;
		if (!vivi_stamp_decode_px(mem[b.index], o.w, o.h,
					  fmt.fmt.pix.bytesperline, bpp, &seq,
					  &ms)) {
			/* the low 44 bits of now, less the stamp's */
			lat[nlat++] = (double)((realtime_ms() - ms) &
					       VIVI_STAMP_MS_MASK);
			mismatched += seq != b.sequence;
			if (decoded && seq - last_stamp - 1 >= 0x80000000u)
				repeated++;
			else if (decoded)
				stamp_lost += seq - last_stamp - 1;
			last_stamp = seq;
			decoded++;
		}
		qbuf_mmap(fd, dev, b.index);
	}
	xioctl(fd, VIDIOC_STREAMOFF, &type);
	set_stamp(fd, dev, 0);
	qsort(lat, nlat, sizeof(*lat), cmp_double);
	printf("frames=%u\ndecoded=%u\nmismatched=%u\nfirst_seq=%u\n"
	       "seq_lost=%llu\nstamp_lost=%llu\nrepeated=%u\n"
	       "error_buffers=%u\nlatency_p50=%.0f\nlatency_max=%.0f\n",
	       o.nframes, decoded, mismatched, first_seq,
	       (unsigned long long)seq_lost, (unsigned long long)stamp_lost,
	       repeated, errors, nlat ? pct(lat, nlat, 50) : -1.0,
	       nlat ? lat[nlat - 1] : -1.0);
	return decoded == o.nframes ? 0 : 1;
}
