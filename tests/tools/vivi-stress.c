// SPDX-License-Identifier: GPL-2.0
/*
 * vivi-stress - a concurrent mix of clients on several vivi devices.
 *
 * Usage: vivi-stress SECONDS /dev/videoA /dev/videoB ...
 *
 * Forks 8 processes: one streamer per device (up to 4; restarting with a
 * new format every few seconds, checking that sequence numbers and
 * timestamps only go up), two control changers, a format prober and an
 * open/close loop that also grabs the queue when it is free. Every process
 * reports progress in shared memory; a process that makes none for 20 s, or
 * does not stop at the end, counts as deadlocked. Prints PASS:/FAIL: lines
 * and per-process counts; exits 1 if any failed.
 */
#include "vivi-tool.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>

#define NPROC		8
#define MAXDEV		4
#define NBUF		8
#define STALL_S		20

struct shared {
	volatile int stop;
	struct {
		volatile long ops;		/* completed operations */
		volatile long frames;		/* streamers: frames */
		volatile long sessions;		/* streamers: STREAMON count */
		volatile long busy;		/* EBUSY answers (expected) */
		volatile long errors;		/* unexpected results */
		volatile long order_errors;	/* sequence/timestamp order */
		volatile double last_progress;
		char what[48];			/* current operation */
		char first_error[160];
	} p[NPROC];
};

static struct shared *sh;
static int me;
static char *devs[MAXDEV];
static int ndev;

static void progress(const char *what)
{
	sh->p[me].ops++;
	sh->p[me].last_progress = now_s();
	snprintf(sh->p[me].what, sizeof(sh->p[me].what), "%s", what);
}

static void error(const char *fmt, ...)
{
	va_list ap;

	if (!sh->p[me].errors++) {
		va_start(ap, fmt);
		vsnprintf(sh->p[me].first_error, sizeof(sh->p[me].first_error),
			  fmt, ap);
		va_end(ap);
	}
}

/* Expect success, or EBUSY when @busy_ok */
static void want(const char *what, int r, int busy_ok)
{
	if (r == -EBUSY && busy_ok)
		sh->p[me].busy++;
	else if (r)
		error("%s: %s", what, strerror(-r));
	progress(what);
}

/* the formats of the first device, from ENUM_FMT before the fork */
static uint32_t fmts[64];
static unsigned int nfmts;
static const uint32_t sizes[][2] = { { 160, 120 }, { 320, 240 }, { 640, 480 } };

static void streamer(const char *dev)
{
	while (!sh->stop) {
		struct v4l2_requestbuffers rb = { .count = NBUF,
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP };
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
		int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, fd, i, r;
		void *maps[NBUF] = { 0 };
		size_t lens[NBUF] = { 0 };
		double end = now_s() + 2 + rand() % 5;
		uint32_t last_seq = 0;
		double last_ts = -1;
		long n = 0;

		fd = open(dev, O_RDWR);
		if (fd < 0) {
			error("open: %s", strerror(errno));
			sleep(1);
			continue;
		}
		xioctl(fd, VIDIOC_G_FMT, &f);
		f.fmt.pix.pixelformat = fmts[rand() % nfmts];
		f.fmt.pix.width = sizes[rand() % 3][0];
		f.fmt.pix.height = f.fmt.pix.width * 3 / 4;
		f.fmt.pix.bytesperline = 0;
		/* the open/close loop may hold the queue for a moment */
		r = xioctl(fd, VIDIOC_S_FMT, &f);
		if (!r)
			r = xioctl(fd, VIDIOC_REQBUFS, &rb);
		if (r) {
			want("streamer S_FMT/REQBUFS", r, 1);
			close(fd);
			usleep(50000);
			continue;
		}
		xioctl(fd, VIDIOC_G_FMT, &f);
		for (i = 0; i < (int)rb.count && i < NBUF; i++) {
			struct v4l2_buffer b = { .index = i,
				.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				.memory = V4L2_MEMORY_MMAP };

			if (xioctl(fd, VIDIOC_QUERYBUF, &b) ||
			    xioctl(fd, VIDIOC_QBUF, &b)) {
				error("QUERYBUF/QBUF: %s", strerror(errno));
				break;
			}
			lens[i] = b.length;
			maps[i] = mmap(NULL, b.length, PROT_READ, MAP_SHARED,
				       fd, b.m.offset);
			if (maps[i] == MAP_FAILED)
				maps[i] = NULL;
		}
		want("streamer STREAMON", xioctl(fd, VIDIOC_STREAMON, &type), 0);
		sh->p[me].sessions++;
		while (!sh->stop && now_s() < end) {
			struct pollfd p = { .fd = fd, .events = POLLIN };
			struct v4l2_buffer b = {
				.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				.memory = V4L2_MEMORY_MMAP };
			double ts;

			snprintf(sh->p[me].what, sizeof(sh->p[me].what),
				 "streamer poll");
			r = poll(&p, 1, 10000);
			if (r != 1) {
				error("no frame within 10 s (poll %d)", r);
				break;
			}
			r = xioctl(fd, VIDIOC_DQBUF, &b);
			if (r) {
				error("DQBUF: %s", strerror(-r));
				break;
			}
			ts = b.timestamp.tv_sec + b.timestamp.tv_usec / 1e6;
			/* a compressed frame is as long as it is */
			if (b.flags & V4L2_BUF_FLAG_ERROR || !b.bytesused ||
			    b.bytesused > f.fmt.pix.sizeimage ||
			    (f.fmt.pix.bytesperline &&
			     b.bytesused != f.fmt.pix.sizeimage))
				error("bad buffer: flags %#x bytesused %u",
				      b.flags, b.bytesused);
			if (n && (b.sequence <= last_seq || ts <= last_ts)) {
				if (!sh->p[me].order_errors++)
					error("seq %u after %u, ts %.6f after %.6f",
					      b.sequence, last_seq, ts, last_ts);
			}
			last_seq = b.sequence;
			last_ts = ts;
			n++;
			sh->p[me].frames++;
			want("streamer QBUF", xioctl(fd, VIDIOC_QBUF, &b), 0);
		}
		/* tear down with buffers queued, one way or the other */
		if (rand() % 2)
			want("streamer STREAMOFF",
			     xioctl(fd, VIDIOC_STREAMOFF, &type), 0);
		for (i = 0; i < NBUF; i++)
			if (maps[i])
				munmap(maps[i], lens[i]);
		close(fd);
	}
}

static const uint32_t cids[] = {
	V4L2_CID_BRIGHTNESS, V4L2_CID_CONTRAST, V4L2_CID_SATURATION,
	V4L2_CID_HUE, V4L2_CID_HFLIP, V4L2_CID_VFLIP, V4L2_CID_TEST_PATTERN,
};

static void controller(void)
{
	int fds[MAXDEV], i;
	double next_log = now_s() + 10;

	for (i = 0; i < ndev; i++)
		fds[i] = open(devs[i], O_RDWR | O_NONBLOCK);
	for (i = 0; i < ndev; i++) {
		struct v4l2_event_subscription sub = {
			.type = V4L2_EVENT_CTRL, .id = V4L2_CID_BRIGHTNESS };

		want("SUBSCRIBE_EVENT", xioctl(fds[i], VIDIOC_SUBSCRIBE_EVENT, &sub), 0);
	}
	while (!sh->stop) {
		int fd = fds[rand() % ndev];
		struct v4l2_queryctrl q = { .id = cids[rand() % 7] };
		struct v4l2_control c = { .id = q.id };
		struct v4l2_streamparm parm = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
		struct v4l2_event ev;
		static const int fps[] = { 5, 10, 15, 25, 30, 60 };

		switch (rand() % 6) {
		case 0:
		case 1:
			if (xioctl(fd, VIDIOC_QUERYCTRL, &q)) {
				error("QUERYCTRL %#x: %s", q.id, strerror(errno));
				break;
			}
			c.value = q.minimum + rand() % (q.maximum - q.minimum + 1);
			want("S_CTRL", xioctl(fd, VIDIOC_S_CTRL, &c), 0);
			break;
		case 2:
			want("G_CTRL", xioctl(fd, VIDIOC_G_CTRL, &c), 0);
			break;
		case 3: {
			struct v4l2_ext_control ec[2] = {
				{ .id = V4L2_CID_BRIGHTNESS, .value = rand() % 256 },
				{ .id = V4L2_CID_HFLIP, .value = rand() % 2 },
			};
			struct v4l2_ext_controls ecs = {
				.which = V4L2_CTRL_WHICH_CUR_VAL, .count = 2,
				.controls = ec };

			want("S_EXT_CTRLS", xioctl(fd, VIDIOC_S_EXT_CTRLS, &ecs), 0);
			break;
		}
		case 4:
			parm.parm.capture.timeperframe.numerator = 1;
			parm.parm.capture.timeperframe.denominator =
				fps[rand() % 6];
			want("S_PARM", xioctl(fd, VIDIOC_S_PARM, &parm), 0);
			break;
		case 5:
			while (!xioctl(fd, VIDIOC_DQEVENT, &ev))
				;
			progress("DQEVENT");
			break;
		}
		if (me == 5 && now_s() > next_log) {
			want("LOG_STATUS", xioctl(fd, VIDIOC_LOG_STATUS, NULL), 0);
			next_log = now_s() + 10;
		}
		usleep(rand() % 5000);
	}
	for (i = 0; i < ndev; i++)
		close(fds[i]);
}

static void prober(void)
{
	int fds[MAXDEV], i;

	for (i = 0; i < ndev; i++)
		fds[i] = open(devs[i], O_RDWR | O_NONBLOCK);
	while (!sh->stop) {
		int fd = fds[rand() % ndev];
		struct v4l2_fmtdesc fd_ = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
		struct v4l2_frmsizeenum fs = { 0 };
		struct v4l2_frmivalenum fi = { 0 };
		int input = rand() % 2;

		switch (rand() % 5) {
		case 0:
			for (fd_.index = 0; !xioctl(fd, VIDIOC_ENUM_FMT, &fd_);
			     fd_.index++)
				;
			progress("ENUM_FMT");
			fs.pixel_format = fmts[rand() % nfmts];
			for (; !xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs); fs.index++) {
				fi.pixel_format = fs.pixel_format;
				fi.width = fs.discrete.width;
				fi.height = fs.discrete.height;
				for (fi.index = 0;
				     !xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi);
				     fi.index++)
					;
			}
			progress("ENUM_FRAMESIZES");
			break;
		case 1:
			f.fmt.pix.pixelformat = fmts[rand() % nfmts];
			f.fmt.pix.width = rand() % 4000;
			f.fmt.pix.height = rand() % 2500;
			f.fmt.pix.bytesperline = rand() % 20000;
			want("TRY_FMT", xioctl(fd, VIDIOC_TRY_FMT, &f), 0);
			if ((uint64_t)f.fmt.pix.bytesperline * f.fmt.pix.height >
			    f.fmt.pix.sizeimage)
				error("TRY_FMT: sizeimage %u < %u * %u",
				      f.fmt.pix.sizeimage, f.fmt.pix.bytesperline,
				      f.fmt.pix.height);
			break;
		case 2:
			want("G_FMT", xioctl(fd, VIDIOC_G_FMT, &f), 0);
			f.fmt.pix.pixelformat = fmts[rand() % nfmts];
			f.fmt.pix.width = sizes[rand() % 3][0];
			f.fmt.pix.height = f.fmt.pix.width * 3 / 4;
			want("S_FMT", xioctl(fd, VIDIOC_S_FMT, &f), 1);
			break;
		case 3:
			want("S_INPUT", xioctl(fd, VIDIOC_S_INPUT, &input), 1);
			want("G_INPUT", xioctl(fd, VIDIOC_G_INPUT, &input), 0);
			break;
		case 4: {
			struct v4l2_capability cap;

			want("QUERYCAP", xioctl(fd, VIDIOC_QUERYCAP, &cap), 0);
			break;
		}
		}
		usleep(rand() % 5000);
	}
	for (i = 0; i < ndev; i++)
		close(fds[i]);
}

static void opener(void)
{
	while (!sh->stop) {
		int fd = open(devs[rand() % ndev], O_RDWR | O_NONBLOCK);
		struct v4l2_requestbuffers rb = { .count = 2,
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP };
		struct v4l2_capability cap;
		char buf[4096];
		ssize_t r;

		if (fd < 0) {
			error("open: %s", strerror(errno));
			continue;
		}
		progress("open");
		want("QUERYCAP", xioctl(fd, VIDIOC_QUERYCAP, &cap), 0);
		switch (rand() % 3) {
		case 0:
			/* grab the queue if it is free, let go at close */
			want("REQBUFS", xioctl(fd, VIDIOC_REQBUFS, &rb), 1);
			break;
		case 1:
			/* starts read() streaming if the queue is free */
			r = read(fd, buf, sizeof(buf));
			if (r < 0 && errno != EAGAIN)
				want("read", -errno, 1);
			else
				progress("read");
			break;
		}
		close(fd);
		usleep(rand() % 20000);
	}
}

int main(int argc, char **argv)
{
	pid_t pids[NPROC];
	int secs, i, bad = 0, stalled = -1, stuck = 0;
	double t0, end;
	char name[128];

	if (argc < 3) {
		fprintf(stderr, "usage: %s SECONDS /dev/videoA ...\n", argv[0]);
		return 2;
	}
	secs = atoi(argv[1]);
	for (i = 2; i < argc && ndev < MAXDEV; i++)
		devs[ndev++] = argv[i];
	i = open(devs[0], O_RDWR);
	nfmts = i < 0 ? 0 : enum_formats(i, fmts, 64);
	if (i >= 0)
		close(i);
	if (!nfmts) {
		printf("FAIL: stress: ENUM_FMT on %s: no format\n", devs[0]);
		return 1;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 2;
	memset(sh, 0, sizeof(*sh));
	t0 = now_s();
	for (i = 0; i < NPROC; i++)
		sh->p[i].last_progress = t0;
	fflush(stdout);
	for (i = 0; i < NPROC; i++) {
		pids[i] = fork();
		if (pids[i])
			continue;
		me = i;
		srand(1000 + i);
		if (i < 4)
			streamer(devs[i % ndev]);
		else if (i < 6)
			controller();
		else if (i == 6)
			prober();
		else
			opener();
		_exit(0);
	}

	end = t0 + secs;
	while (now_s() < end && stalled < 0) {
		sleep(1);
		for (i = 0; i < NPROC; i++)
			if (now_s() - sh->p[i].last_progress > STALL_S)
				stalled = i;
	}
	sh->stop = 1;
	/* every process must come back from whatever call it is in */
	end = now_s() + 30;
	for (i = 0; i < NPROC; i++) {
		int status;

		while (waitpid(pids[i], &status, WNOHANG) == 0) {
			if (now_s() > end) {
				printf("stress: process %d stuck in %s\n", i,
				       sh->p[i].what);
				stuck++;
				kill(pids[i], SIGKILL);
				break;
			}
			usleep(50000);
		}
	}

	for (i = 0; i < NPROC; i++) {
		static const char *const role[] = { "streamer", "streamer",
			"streamer", "streamer", "controls", "controls",
			"formats", "open/close" };

		printf("stress: process %d (%s%s%s): %ld ops, %ld frames in %ld sessions, %ld EBUSY, %ld unexpected%s%s\n",
		       i, role[i], i < 4 ? " on " : "", i < 4 ? devs[i % ndev] : "",
		       sh->p[i].ops, sh->p[i].frames, sh->p[i].sessions,
		       sh->p[i].busy, sh->p[i].errors,
		       sh->p[i].errors ? ": " : "", sh->p[i].first_error);
	}
	snprintf(name, sizeof(name), "%d processes on %d devices for %d s: no deadlock",
		 NPROC, ndev, secs);
	if (stalled >= 0 || stuck) {
		printf("FAIL: stress: %s: %s\n", name, stuck ?
		       "processes did not stop" : "a process made no progress");
		bad++;
	} else {
		printf("PASS: stress: %s\n", name);
	}
	for (i = 0; i < 4; i++) {
		int ok = sh->p[i].frames > 0 && !sh->p[i].order_errors;

		printf("%s: stress: streamer %d sees rising sequence numbers and timestamps (%ld frames, %ld sessions)%s%s\n",
		       ok ? "PASS" : "FAIL", i, sh->p[i].frames,
		       sh->p[i].sessions, ok ? "" : ": ",
		       ok ? "" : sh->p[i].first_error);
		bad += !ok;
	}
	for (i = 0; i < NPROC; i++)
		if (sh->p[i].errors && !sh->p[i].order_errors)
			break;
	if (i < NPROC) {
		printf("FAIL: stress: every call answers as V4L2 says: process %d: %s\n",
		       i, sh->p[i].first_error);
		bad++;
	} else {
		printf("PASS: stress: every call answers as V4L2 says\n");
	}
	return bad ? 1 : 0;
}
