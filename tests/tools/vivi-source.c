// SPDX-License-Identifier: GPL-2.0
/*
 * vivi-source - an application's side of a source change on vivi's HDMI
 * input (hdmi_input=1), as the DV timings API has it.
 *
 * Usage: vivi-source /dev/videoN KNOB NEW OUT
 *   KNOB  the device's debugfs source file (vivi/videoN/source)
 *   NEW   the timings the source changes to, e.g. 1920x1080p30
 *   OUT   where the last frame after the change goes (RGB24)
 *
 * Selects the HDMI input (the last one), where ENUM_FRAMESIZES,
 * ENUM_FRAMEINTERVALS and S_PARM must give ENOTTY (and work on camera
 * input 0), subscribes to
 * V4L2_EVENT_SOURCE_CHANGE for it, matches the receiver to the source
 * (QUERY_DV_TIMINGS, S_DV_TIMINGS) and streams RGB24. Mid-stream it
 * writes NEW to KNOB, and checks: the event arrives (resolution); the
 * stream goes on at the old size; S_DV_TIMINGS is refused with EBUSY
 * while buffers exist; after STREAMOFF and REQBUFS 0, QUERY_DV_TIMINGS
 * gives NEW, S_DV_TIMINGS takes it, G_FMT and G_PARM follow it, and a
 * restarted stream delivers frames of the new size. Prints PASS:/FAIL:
 * lines; exit status 1 if any failed.
 */
#include "vivi-tool.h"
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define NBUF	16	/* vivi gives at least 8 */

static const char *dev;

/* dequeue one frame (poll up to 5 s); returns its index, -1 on timeout */
static int dqbuf(int fd, struct v4l2_buffer *b)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, 5000) != 1 || !(p.revents & POLLIN))
		return -1;
	mmap_buffer(b, 0);
	if (xioctl(fd, VIDIOC_DQBUF, b))
		return -1;
	return b->index;
}

/* REQBUFS, map, queue, STREAMON; returns the buffer count */
static unsigned int start(int fd, void **mem, size_t *len)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int cnt = reqbufs_mmap(fd, dev, 8);

	if (cnt > NBUF)
		die("REQBUFS gave %u buffers", cnt);
	map_and_queue(fd, dev, cnt, mem, len);
	if (xioctl(fd, VIDIOC_STREAMON, &type))
		die("STREAMON: %s", strerror(errno));
	return cnt;
}

/* STREAMOFF, unmap, REQBUFS 0 */
static void stop(int fd, void **mem, size_t *len, unsigned int cnt)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int i;

	xioctl(fd, VIDIOC_STREAMOFF, &type);
	for (i = 0; i < cnt; i++)
		munmap(mem[i], len[i]);
	reqbufs_mmap(fd, dev, 0);
}

/* stream @n frames; the last one's bytes to @out if set; returns bytesused */
static unsigned int stream(int fd, unsigned int n, const char *out)
{
	void *mem[NBUF];
	size_t len[NBUF];
	unsigned int i, cnt, used = 0;
	struct v4l2_buffer b;
	FILE *f;

	cnt = start(fd, mem, len);
	for (i = 0; i < n; i++) {
		if (dqbuf(fd, &b) < 0)
			die("DQBUF: no frame");
		used = b.bytesused;
		if (out && i == n - 1) {
			f = fopen(out, "wb");
			if (!f || fwrite(mem[b.index], 1, used, f) != used)
				die("%s: cannot write", out);
			fclose(f);
		}
		qbuf_mmap(fd, dev, b.index);
	}
	stop(fd, mem, len, cnt);
	return used;
}

/* receiver := source; the format's size afterwards */
static void match_source(int fd, struct v4l2_format *fmt)
{
	struct v4l2_dv_timings t;

	memset(&t, 0, sizeof(t));
	if (xioctl(fd, VIDIOC_QUERY_DV_TIMINGS, &t))
		die("QUERY_DV_TIMINGS: %s", strerror(errno));
	if (xioctl(fd, VIDIOC_S_DV_TIMINGS, &t))
		die("S_DV_TIMINGS: %s", strerror(errno));
	set_format(fd, dev, V4L2_PIX_FMT_RGB24, t.bt.width, t.bt.height, fmt);
}

/*
 * The size and rate enumerations and S_PARM on the current input: a bit
 * each that failed with @want (0: that succeeded)
 */
static unsigned int size_rate_calls(int fd, int want)
{
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_frmsizeenum fs = { 0 };
	struct v4l2_frmivalenum fi = { 0 };
	struct v4l2_streamparm parm = { .type = fmt.type };
	unsigned int got = 0;

	if (xioctl(fd, VIDIOC_G_FMT, &fmt))
		die("G_FMT: %s", strerror(errno));
	fs.pixel_format = fmt.fmt.pix.pixelformat;
	fi.pixel_format = fmt.fmt.pix.pixelformat;
	fi.width = fmt.fmt.pix.width;
	fi.height = fmt.fmt.pix.height;
	parm.parm.capture.timeperframe = (struct v4l2_fract){ 1, 30 };
	got |= (xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs) == want) << 0;
	/* the intervals of a size the input offers, where it offers any */
	if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
		fi.width = fs.discrete.width;
		fi.height = fs.discrete.height;
	}
	got |= (xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi) == want) << 1;
	got |= (xioctl(fd, VIDIOC_S_PARM, &parm) == want) << 2;
	return got;
}

/*
 * The HDMI input's size and rate are the timings': the three calls give
 * ENOTTY there (as vivid's), and work on the camera input beside it
 */
static void check_enotty(int fd, unsigned int hdmi)
{
	unsigned int cam = 0, got;

	got = size_rate_calls(fd, -ENOTTY);
	result(got == 7,
	       "HDMI input: ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS and S_PARM give ENOTTY",
	       "ENOTTY from %s%s%s", got & 1 ? "ENUM_FRAMESIZES " : "",
	       got & 2 ? "ENUM_FRAMEINTERVALS " : "", got & 4 ? "S_PARM" : "");
	if (xioctl(fd, VIDIOC_S_INPUT, &cam))
		die("S_INPUT 0: %s", strerror(errno));
	got = size_rate_calls(fd, 0);
	result(got == 7,
	       "camera input beside it: ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS and S_PARM work",
	       "succeeded: %s%s%s", got & 1 ? "ENUM_FRAMESIZES " : "",
	       got & 2 ? "ENUM_FRAMEINTERVALS " : "", got & 4 ? "S_PARM" : "");
	if (xioctl(fd, VIDIOC_S_INPUT, &hdmi))
		die("S_INPUT %u: %s", hdmi, strerror(errno));
}

static void write_knob(const char *knob, const char *val)
{
	int k = open(knob, O_WRONLY);

	if (k < 0 || write(k, val, strlen(val)) != (ssize_t)strlen(val))
		die("%s: cannot write '%s'", knob, val);
	close(k);
}

int main(int argc, char **argv)
{
	struct v4l2_event_subscription sub;
	struct v4l2_input in = { 0 };
	struct v4l2_format fmt, fmt2;
	struct v4l2_streamparm parm;
	struct v4l2_dv_timings t;
	struct pollfd p;
	struct v4l2_event ev;
	unsigned int input = 0, w0, h0, w1, h1, fps, cnt;
	void *mem[NBUF];
	size_t len[NBUF];
	struct v4l2_buffer b;
	int fd, r, i;

	if (argc != 5 || sscanf(argv[3], "%ux%up%u", &w1, &h1, &fps) != 3)
		die("usage: vivi-source /dev/videoN KNOB WxHpR OUT");
	dev = argv[1];
	result_group = "source";
	fd = open(dev, O_RDWR);
	if (fd < 0)
		die("%s: %s", dev, strerror(errno));
	while (in.index = input, !xioctl(fd, VIDIOC_ENUMINPUT, &in) &&
	       !(in.capabilities & V4L2_IN_CAP_DV_TIMINGS))
		input++;
	if (!(in.capabilities & V4L2_IN_CAP_DV_TIMINGS))
		die("%s: no input with DV timings (hdmi_input=1?)", dev);
	if (xioctl(fd, VIDIOC_S_INPUT, &input))
		die("S_INPUT %u: %s", input, strerror(errno));
	check_enotty(fd, input);

	memset(&sub, 0, sizeof(sub));
	sub.type = V4L2_EVENT_SOURCE_CHANGE;
	sub.id = input;
	r = xioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &sub);
	result(!r, "subscribe to V4L2_EVENT_SOURCE_CHANGE of the HDMI input",
	       "%s", strerror(errno));
	match_source(fd, &fmt);
	w0 = fmt.fmt.pix.width;
	h0 = fmt.fmt.pix.height;

	/* mid-stream, the source changes */
	cnt = start(fd, mem, len);
	for (i = 0; i < 3; i++)
		if (dqbuf(fd, &b) >= 0)
			qbuf_mmap(fd, dev, b.index);
	write_knob(argv[2], argv[3]);
	p = (struct pollfd){ .fd = fd, .events = POLLPRI };
	r = poll(&p, 1, 5000) == 1 && (p.revents & POLLPRI);
	memset(&ev, 0, sizeof(ev));
	r = r && !xioctl(fd, VIDIOC_DQEVENT, &ev);
	result(r && ev.type == V4L2_EVENT_SOURCE_CHANGE && ev.id == input &&
	       (ev.u.src_change.changes & V4L2_EVENT_SRC_CH_RESOLUTION),
	       "the source change arrives as an event (POLLPRI, DQEVENT)",
	       "got %s, type %u id %u changes %#x", r ? "an event" : "none",
	       ev.type, ev.id, ev.u.src_change.changes);
	r = dqbuf(fd, &b) >= 0 && b.bytesused == w0 * h0 * 3;
	result(r, "the running stream goes on at the old size",
	       "bytesused %u, want %u", b.bytesused, w0 * h0 * 3);
	qbuf_mmap(fd, dev, b.index);
	memset(&t, 0, sizeof(t));
	if (xioctl(fd, VIDIOC_QUERY_DV_TIMINGS, &t))
		r = -1;
	else
		r = xioctl(fd, VIDIOC_S_DV_TIMINGS, &t) ? errno : 0;
	result(r == EBUSY, "S_DV_TIMINGS of the new timings while streaming: EBUSY",
	       "got %s", r < 0 ? "QUERY_DV_TIMINGS failing" : strerror(r));
	stop(fd, mem, len, cnt);

	/* the application follows the source */
	match_source(fd, &fmt);
	memset(&fmt2, 0, sizeof(fmt2));
	fmt2.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	xioctl(fd, VIDIOC_G_FMT, &fmt2);
	result(fmt2.fmt.pix.width == w1 && fmt2.fmt.pix.height == h1,
	       "after QUERY_DV_TIMINGS and S_DV_TIMINGS, G_FMT gives the new size",
	       "%ux%u, want %ux%u", fmt2.fmt.pix.width, fmt2.fmt.pix.height,
	       w1, h1);
	memset(&parm, 0, sizeof(parm));
	parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	xioctl(fd, VIDIOC_G_PARM, &parm);
	r = parm.parm.capture.timeperframe.numerator &&
	    (parm.parm.capture.timeperframe.denominator +
	     parm.parm.capture.timeperframe.numerator / 2) /
	    parm.parm.capture.timeperframe.numerator == fps;
	result(r, "G_PARM gives the new rate", "%u/%u, want 1/%u",
	       parm.parm.capture.timeperframe.numerator,
	       parm.parm.capture.timeperframe.denominator, fps);
	r = stream(fd, 3, argv[4]) == w1 * h1 * 3;
	result(r, "a restarted stream delivers frames of the new size",
	       "want %u bytes", w1 * h1 * 3);
	close(fd);
	return result_failures ? 1 : 0;
}
