// SPDX-License-Identifier: GPL-2.0
/*
 * vivi-prio - two processes on one node: queue ownership and priority.
 *
 * Usage: vivi-prio /dev/videoN
 *
 * The parent owns the queue (REQBUFS); a child process opening the same
 * node must get EBUSY for everything that would touch the queue, yet may
 * query. Then the parent takes V4L2_PRIORITY_RECORD and the child's
 * state-changing ioctls must get EBUSY until the parent lets go. Prints
 * PASS:/FAIL: lines; exits 1 if any failed.
 */
#include "vivi-tool.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/videodev2.h>

static const char *dev;

static const char *err_name(int r)
{
	static char buf[32];

	if (!r)
		return "success";
	snprintf(buf, sizeof(buf), "%s", strerror(-r));
	return buf;
}

/* expect NAME R WANT: one result line */
static void expect(const char *name, int r, int want)
{
	result(r == want, name, "got %s, want %s", err_name(r),
	       want ? strerror(-want) : "success");
}

static int reqbufs(int fd, unsigned int count)
{
	struct v4l2_requestbuffers rb = { .count = count,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP };

	return xioctl(fd, VIDIOC_REQBUFS, &rb);
}

static int g_fmt(int fd, struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	return xioctl(fd, VIDIOC_G_FMT, f);
}

static int s_fmt_width(int fd, unsigned int w, unsigned int h)
{
	struct v4l2_format f;

	g_fmt(fd, &f);
	f.fmt.pix.width = w;
	f.fmt.pix.height = h;
	return xioctl(fd, VIDIOC_S_FMT, &f);
}

static int s_ctrl(int fd, int val)
{
	struct v4l2_control c = { .id = V4L2_CID_BRIGHTNESS, .value = val };

	return xioctl(fd, VIDIOC_S_CTRL, &c);
}

static int s_ext_ctrl(int fd, int val)
{
	struct v4l2_ext_control c = { .id = V4L2_CID_CONTRAST, .value = val };
	struct v4l2_ext_controls cs = { .which = V4L2_CTRL_WHICH_CUR_VAL,
		.count = 1, .controls = &c };

	return xioctl(fd, VIDIOC_S_EXT_CTRLS, &cs);
}

static int s_input(int fd, int i)
{
	return xioctl(fd, VIDIOC_S_INPUT, &i);
}

static int s_parm(int fd, unsigned int fps)
{
	struct v4l2_streamparm p = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	p.parm.capture.timeperframe.numerator = 1;
	p.parm.capture.timeperframe.denominator = fps;
	return xioctl(fd, VIDIOC_S_PARM, &p);
}

static int s_prio(int fd, enum v4l2_priority p)
{
	return xioctl(fd, VIDIOC_S_PRIORITY, &p);
}

/* The second process while the first owns the queue */
static void child_queue_busy(void)
{
	struct v4l2_create_buffers cb = { .count = 1,
		.memory = V4L2_MEMORY_MMAP };
	struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP };
	struct v4l2_format f;
	int fd = open(dev, O_RDWR | O_NONBLOCK);
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	char c;

	expect("second process opens the node", fd < 0 ? -errno : 0, 0);
	expect("second process: REQBUFS is EBUSY", reqbufs(fd, 4), -EBUSY);
	expect("second process: REQBUFS(0) is EBUSY", reqbufs(fd, 0), -EBUSY);
	g_fmt(fd, &cb.format);
	expect("second process: CREATE_BUFS is EBUSY",
	       xioctl(fd, VIDIOC_CREATE_BUFS, &cb), -EBUSY);
	expect("second process: QBUF is EBUSY", xioctl(fd, VIDIOC_QBUF, &b),
	       -EBUSY);
	expect("second process: STREAMON is EBUSY",
	       xioctl(fd, VIDIOC_STREAMON, &type), -EBUSY);
	expect("second process: read() is EBUSY",
	       read(fd, &c, 1) < 0 ? -errno : 0, -EBUSY);
	expect("second process: S_FMT is EBUSY (buffers allocated)",
	       s_fmt_width(fd, 320, 240), -EBUSY);
	expect("second process: G_FMT works", g_fmt(fd, &f), 0);
	close(fd);
	exit(result_failures ? 1 : 0);
}

static void child_queue_free(void)
{
	int fd = open(dev, O_RDWR);

	expect("second process: REQBUFS works once the first freed the queue",
	       reqbufs(fd, 4), 0);
	expect("second process: REQBUFS(0)", reqbufs(fd, 0), 0);
	close(fd);
	exit(result_failures ? 1 : 0);
}

/* The second process while the first holds V4L2_PRIORITY_RECORD */
static void child_prio_busy(void)
{
	int fd = open(dev, O_RDWR);
	struct v4l2_control c = { .id = V4L2_CID_BRIGHTNESS };
	enum v4l2_priority p = 0;
	struct v4l2_format f;

	expect("G_PRIORITY in the second process", xioctl(fd, VIDIOC_G_PRIORITY, &p), 0);
	result(p == V4L2_PRIORITY_RECORD, "G_PRIORITY reports RECORD", "got %d", p);
	expect("RECORD: S_FMT from the other file is EBUSY",
	       s_fmt_width(fd, 320, 240), -EBUSY);
	expect("RECORD: S_INPUT from the other file is EBUSY", s_input(fd, 0),
	       -EBUSY);
	expect("RECORD: S_CTRL from the other file is EBUSY", s_ctrl(fd, 10),
	       -EBUSY);
	expect("RECORD: S_EXT_CTRLS from the other file is EBUSY",
	       s_ext_ctrl(fd, 10), -EBUSY);
	expect("RECORD: S_PARM from the other file is EBUSY", s_parm(fd, 15),
	       -EBUSY);
	expect("RECORD: REQBUFS from the other file is EBUSY", reqbufs(fd, 4),
	       -EBUSY);
	expect("RECORD: S_PRIORITY(RECORD) from the other file is EBUSY",
	       s_prio(fd, V4L2_PRIORITY_RECORD), -EBUSY);
	expect("RECORD: the other file may still G_FMT", g_fmt(fd, &f), 0);
	expect("RECORD: the other file may still TRY_FMT",
	       xioctl(fd, VIDIOC_TRY_FMT, &f), 0);
	expect("RECORD: the other file may still G_CTRL",
	       xioctl(fd, VIDIOC_G_CTRL, &c), 0);
	close(fd);
	exit(result_failures ? 1 : 0);
}

static void child_prio_free(void)
{
	int fd = open(dev, O_RDWR);
	enum v4l2_priority p = 0;

	xioctl(fd, VIDIOC_G_PRIORITY, &p);
	result(p == V4L2_PRIORITY_INTERACTIVE,
	       "G_PRIORITY is back to INTERACTIVE after the RECORD file closed",
	       "got %d", p);
	expect("S_FMT works again", s_fmt_width(fd, 640, 480), 0);
	expect("S_CTRL works again", s_ctrl(fd, 128), 0);
	close(fd);
	exit(result_failures ? 1 : 0);
}

static void in_child(void (*fn)(void))
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		fn();
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status)) {
		result(0, "child process", "did not exit normally");
		return;
	}
	result_failures += WEXITSTATUS(status) != 0;
}

int main(int argc, char **argv)
{
	struct v4l2_create_buffers cb = { .count = 2,
		.memory = V4L2_MEMORY_MMAP };
	int fd, r;

	if (argc != 2) {
		fprintf(stderr, "usage: %s /dev/videoN\n", argv[0]);
		return 2;
	}
	dev = argv[1];
	result_group = "two files";
	fd = open(dev, O_RDWR);
	if (fd < 0) {
		result(0, "open", "%s", strerror(errno));
		return 1;
	}

	expect("first process: REQBUFS", reqbufs(fd, 8), 0);
	in_child(child_queue_busy);
	expect("first process: REQBUFS(0)", reqbufs(fd, 0), 0);
	in_child(child_queue_free);

	/* a buffer size no format needs is refused, not allocated */
	g_fmt(fd, &cb.format);
	cb.format.fmt.pix.sizeimage = 0xfffff000;
	r = xioctl(fd, VIDIOC_CREATE_BUFS, &cb);
	expect("CREATE_BUFS with a 4 GiB sizeimage is EINVAL", r, -EINVAL);
	if (!r)
		reqbufs(fd, 0);

	expect("first process: S_PRIORITY(RECORD)",
	       s_prio(fd, V4L2_PRIORITY_RECORD), 0);
	in_child(child_prio_busy);
	expect("RECORD: its own S_FMT works", s_fmt_width(fd, 320, 240), 0);
	expect("RECORD: its own S_CTRL works", s_ctrl(fd, 100), 0);
	expect("RECORD: its own S_PARM works", s_parm(fd, 30), 0);
	close(fd);
	in_child(child_prio_free);
	return result_failures ? 1 : 0;
}
