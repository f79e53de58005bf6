// SPDX-License-Identifier: GPL-2.0
/*
 * vivi-unbind - unbind a vivi device from its driver under an application.
 *
 * Usage: vivi-unbind /dev/videoN vivi.N dqbuf|read [unplug]
 *
 * dqbuf: one file streams over mmap with every buffer dequeued, so one
 *	thread is blocked in VIDIOC_DQBUF and another in poll(); a second file
 *	is merely open.
 * read: one thread is blocked in read() (run it at a low frame rate, so
 *	that it waits for a frame most of the time); a second file is open.
 *
 * The tool then writes vivi.N to /sys/bus/platform/drivers/vivi/unbind (or,
 * with "unplug", N to vivi's debugfs knob /sys/kernel/debug/vivi/unplug) and
 * checks that the blocked calls return with an error (EIO for DQBUF under
 * an unplug, as uvcvideo's), that the generator
 * thread is gone, that later calls on both files fail cleanly, and (at
 * debug level >= 1) that vivi frees the device exactly when the last file
 * is closed. Prints PASS:/FAIL: lines; exits 1 if any failed.
 */
#include "vivi-tool.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>

#define NBUF		8
#define UNBIND		"/sys/bus/platform/drivers/vivi/unbind"
#define UNPLUG		"/sys/kernel/debug/vivi/unplug"
#define NQUEUED		(NBUF / 2)	/* queued under a stall at an unplug */

static const char *mode;
static const char *how = "unbind";	/* or "unplug" */
static char group[32];		/* result()'s: "unbind MODE" or "unplug MODE" */

/* Is there a task named vivi-<inst> (the generator thread)? */
static int thread_alive(const char *inst)
{
	char want[32], path[300], comm[64];
	struct dirent *de;
	int found = 0;
	DIR *d;

	snprintf(want, sizeof(want), "vivi-%s\n", inst);
	d = opendir("/proc");
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL && !found) {
		FILE *f;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, want))
			found = 1;
		fclose(f);
	}
	closedir(d);
	return found;
}

/* How often the kernel log says that device @pdev was freed */
static int freed_count(const char *pdev)
{
	char pat[96], *buf, *p;
	int len, n = 0;

	len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	if (len <= 0)
		return -1;
	buf = malloc(len + 1);
	if (!buf)
		return -1;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (len < 0) {
		free(buf);
		return -1;
	}
	buf[len] = 0;
	snprintf(pat, sizeof(pat), "vivi %s: last reference gone", pdev);
	for (p = buf; (p = strstr(p, pat)) != NULL; p++)
		n++;
	free(buf);
	return n;
}

/* unbind vivi.N through sysfs, or unplug device N through debugfs */
static int do_unbind(const char *pdev)
{
	int unplug = !strcmp(how, "unplug");
	const char *what = unplug ? strchr(pdev, '.') + 1 : pdev;
	int fd = open(unplug ? UNPLUG : UNBIND, O_WRONLY);
	ssize_t w;

	if (fd < 0)
		return -errno;
	w = write(fd, what, strlen(what));
	close(fd);
	return w < 0 ? -errno : 0;
}

static int sfd;				/* the streaming (or reading) file */

/*
 * Before an unplug: stall the stream (debugfs faults/stall_ms) and queue
 * NQUEUED buffers, which then stay with the driver while DQBUF and poll()
 * still block. The unplug must give them back with ERROR; userspace cannot
 * see that (DQBUF gets EIO, then ENODEV), but a buffer left with the driver
 * makes vb2 WARN when the node goes, which fails the run through the
 * kernel log check.
 */
static int queue_under_stall(const char *dev)
{
	struct v4l2_buffer b;
	int i, queued = 0;

	if (write_fault_knob(dev, "stall_ms", "60000")) {
		result(0, "stall the stream", "%s: faults/stall_ms: %s", dev,
		       strerror(errno));
		return 0;
	}
	for (i = 0; i < NQUEUED; i++) {
		mmap_buffer(&b, i);
		if (xioctl(sfd, VIDIOC_QBUF, &b))
			return 0;
	}
	usleep(300000);
	for (i = 0; i < NQUEUED; i++) {
		mmap_buffer(&b, i);
		if (!xioctl(sfd, VIDIOC_QUERYBUF, &b) &&
		    (b.flags & V4L2_BUF_FLAG_QUEUED) &&
		    !(b.flags & V4L2_BUF_FLAG_DONE))
			queued++;
	}
	return queued;
}

static size_t frame_size;
static atomic_int frames, in_call, done_dq, done_poll, done_read;
static int dq_err, read_err;
static short poll_revents;
static double dq_t, poll_t, read_t, read_start;

static void *dq_thread(void *unused)
{
	struct v4l2_buffer b;

	(void)unused;
	for (;;) {
		memset(&b, 0, sizeof(b));
		b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b.memory = V4L2_MEMORY_MMAP;
		/* nothing is requeued: after NBUF frames this one blocks */
		atomic_store(&in_call, 1);
		dq_err = xioctl(sfd, VIDIOC_DQBUF, &b);
		if (dq_err)
			break;
		atomic_fetch_add(&frames, 1);
	}
	dq_t = now_s();
	atomic_store(&done_dq, 1);
	return NULL;
}

static void *poll_thread(void *unused)
{
	struct pollfd p = { .fd = sfd, .events = POLLIN };

	(void)unused;
	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
	poll_revents = p.revents;
	poll_t = now_s();
	atomic_store(&done_poll, 1);
	return NULL;
}

static void *read_thread(void *unused)
{
	char *buf = malloc(frame_size);
	ssize_t r;

	(void)unused;
	for (;;) {
		read_start = now_s();
		atomic_store(&in_call, 1);
		r = read(sfd, buf, frame_size);
		atomic_store(&in_call, 0);
		if (r <= 0) {
			read_err = r < 0 ? -errno : 0;
			break;
		}
		atomic_fetch_add(&frames, 1);
	}
	read_t = now_s();
	atomic_store(&done_read, 1);
	free(buf);
	return NULL;
}

/* Wait up to @secs for *@flag */
static int wait_flag(atomic_int *flag, double secs)
{
	double end = now_s() + secs;

	while (!atomic_load(flag) && now_s() < end)
		usleep(10000);
	return atomic_load(flag);
}

/* Every later call on a file of the unbound device fails with ENODEV */
static void check_dead(int fd, const char *which)
{
	static const struct {
		unsigned long req;
		const char *name;
	} reqs[] = {
		{ VIDIOC_QUERYCAP, "QUERYCAP" }, { VIDIOC_G_FMT, "G_FMT" },
		{ VIDIOC_S_FMT, "S_FMT" }, { VIDIOC_REQBUFS, "REQBUFS" },
		{ VIDIOC_QBUF, "QBUF" }, { VIDIOC_DQBUF, "DQBUF" },
		{ VIDIOC_STREAMON, "STREAMON" },
		{ VIDIOC_STREAMOFF, "STREAMOFF" }, { VIDIOC_G_CTRL, "G_CTRL" },
	};
	char name[64], bad[256] = "";
	struct pollfd p = { .fd = fd, .events = POLLIN };
	union {
		struct v4l2_capability cap;
		struct v4l2_format fmt;
		struct v4l2_requestbuffers rb;
		struct v4l2_buffer b;
		struct v4l2_control c;
		int type;
		char raw[256];
	} arg;
	unsigned int i;
	char c;
	void *m;
	int r;

	for (i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		memset(&arg, 0, sizeof(arg));
		arg.fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		if (reqs[i].req == VIDIOC_QBUF || reqs[i].req == VIDIOC_DQBUF)
			arg.b.memory = V4L2_MEMORY_MMAP;
		if (reqs[i].req == VIDIOC_G_CTRL)
			arg.c.id = V4L2_CID_BRIGHTNESS;
		r = xioctl(fd, reqs[i].req, &arg);
		if (r != -ENODEV)
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
				 "%s=%d ", reqs[i].name, r);
	}
	snprintf(name, sizeof(name), "ioctls on the %s file fail with ENODEV",
		 which);
	result(!bad[0], name, bad[0] ? "%s" : NULL, bad);

	r = read(fd, &c, 1) < 0 ? -errno : 0;
	snprintf(name, sizeof(name), "read() on the %s file fails with ENODEV",
		 which);
	result(r == -ENODEV, name, r == -ENODEV ? NULL : "got %d", r);

	r = poll(&p, 1, 1000);
	snprintf(name, sizeof(name), "poll() on the %s file says POLLERR at once",
		 which);
	result(r == 1 && (p.revents & POLLERR), name,
	       r == 1 && (p.revents & POLLERR) ? NULL : "poll %d revents %#x",
	       r, p.revents);

	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	r = m == MAP_FAILED ? -errno : 0;
	if (m != MAP_FAILED)
		munmap(m, 4096);
	snprintf(name, sizeof(name), "mmap() on the %s file fails with ENODEV",
		 which);
	result(r == -ENODEV, name, r == -ENODEV ? NULL : "got %d", r);
}

int main(int argc, char **argv)
{
	struct v4l2_requestbuffers rb = { 0 };
	struct v4l2_format fmt = { 0 };
	void *maps[NBUF] = { 0 };
	size_t lens[NBUF] = { 0 };
	pthread_t t1, t2;
	const char *dev, *pdev, *inst;
	int idle, type, freed0, freed, i, r;
	double t_unbind, t0 = now_s();

	if (argc < 4 || argc > 5 ||
	    (strcmp(argv[3], "dqbuf") && strcmp(argv[3], "read")) ||
	    (argc == 5 && strcmp(argv[4], "unplug")) || !strchr(argv[2], '.')) {
		fprintf(stderr, "usage: %s /dev/videoN vivi.N dqbuf|read [unplug]\n",
			argv[0]);
		return 2;
	}
	dev = argv[1];
	pdev = argv[2];
	mode = argv[3];
	if (argc == 5)
		how = argv[4];
	snprintf(group, sizeof(group), "%s %s", how, mode);
	result_group = group;
	result_details_on_pass = 1;
	inst = strchr(pdev, '.') ? strchr(pdev, '.') + 1 : pdev;

	idle = open(dev, O_RDWR);
	sfd = open(dev, O_RDWR);
	if (idle < 0 || sfd < 0) {
		result(0, "open", "%s: %s", dev, strerror(errno));
		return 1;
	}
	fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (xioctl(sfd, VIDIOC_G_FMT, &fmt)) {
		result(0, "G_FMT", "%s", strerror(errno));
		return 1;
	}
	frame_size = fmt.fmt.pix.sizeimage;

	if (!strcmp(mode, "dqbuf")) {
		rb.count = NBUF;
		rb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		rb.memory = V4L2_MEMORY_MMAP;
		r = xioctl(sfd, VIDIOC_REQBUFS, &rb);
		if (r || rb.count != NBUF) {
			result(0, "REQBUFS", "%d, count %u", r, rb.count);
			return 1;
		}
		for (i = 0; i < NBUF; i++) {
			struct v4l2_buffer b = {
				.index = i,
				.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				.memory = V4L2_MEMORY_MMAP,
			};

			if (xioctl(sfd, VIDIOC_QUERYBUF, &b) ||
			    xioctl(sfd, VIDIOC_QBUF, &b)) {
				result(0, "QBUF", "%s", strerror(errno));
				return 1;
			}
			lens[i] = b.length;
			maps[i] = mmap(NULL, b.length, PROT_READ, MAP_SHARED,
				       sfd, b.m.offset);
			if (maps[i] == MAP_FAILED) {
				result(0, "mmap", "%s", strerror(errno));
				return 1;
			}
		}
		type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		if (xioctl(sfd, VIDIOC_STREAMON, &type)) {
			result(0, "STREAMON", "%s", strerror(errno));
			return 1;
		}
		pthread_create(&t1, NULL, dq_thread, NULL);
		/* all buffers dequeued: the next DQBUF waits forever */
		while (atomic_load(&frames) < NBUF && !atomic_load(&done_dq) &&
		       now_s() < t0 + 60)
			usleep(10000);
		result(atomic_load(&frames) == NBUF, "streams before the unbind",
		       "%d frames", atomic_load(&frames));
		if (!strcmp(how, "unplug")) {
			r = queue_under_stall(dev);
			result(r == NQUEUED,
			       "buffers queued under a stall stay queued until the unplug",
			       "%d of %d", r, NQUEUED);
		}
		pthread_create(&t2, NULL, poll_thread, NULL);
		usleep(300000);
	} else {
		pthread_create(&t1, NULL, read_thread, NULL);
		while (atomic_load(&frames) < 2 && !atomic_load(&done_read))
			usleep(10000);
		result(atomic_load(&frames) >= 2, "read() streams before the unbind",
		       "%d frames", atomic_load(&frames));
		/* just after a frame: the next one is a frame period away */
		while (!atomic_load(&done_read) &&
		       (!atomic_load(&in_call) || now_s() - read_start < 0.02))
			usleep(1000);
	}

	r = thread_alive(inst);
	result(r == 1, "generator thread runs before the unbind", NULL);

	freed0 = freed_count(pdev);
	t_unbind = now_s();
	r = do_unbind(pdev);
	if (r) {
		result(0, "write to the unbind or unplug file", "%s", strerror(-r));
		return 1;
	}
	if (!strcmp(mode, "dqbuf")) {
		int want = strcmp(how, "unplug") ? 0 : -EIO;

		r = wait_flag(&done_dq, 10);
		result(r && dq_err && (!want || dq_err == want),
		       want ? "blocked DQBUF returns EIO" :
			      "blocked DQBUF returns an error",
		       r ? "%s after %.3f s" : "still blocked after 10 s",
		       strerror(-dq_err), dq_t - t_unbind);
		r = wait_flag(&done_poll, 10);
		result(r && (poll_revents & POLLERR),
		       "blocked poll() returns POLLERR",
		       r ? "revents %#x after %.3f s" : "still blocked after 10 s",
		       poll_revents, poll_t - t_unbind);
		result(atomic_load(&frames) == NBUF,
		       "no buffer is dequeued after the unbind",
		       "%d frames", atomic_load(&frames));
	} else {
		r = wait_flag(&done_read, 10);
		result(r && read_err, "blocked read() returns an error",
		       r ? "%s after %.3f s" : "still blocked after 10 s",
		       strerror(-read_err), read_t - t_unbind);
		result(read_start < t_unbind || !r,
		       "the read() in flight at the unbind is the one that fails",
		       "started %.3f s after the unbind", read_start - t_unbind);
	}
	r = thread_alive(inst);
	result(r == 0, "generator thread is gone (streaming stopped)",
	       r ? "vivi-%s still runs" : NULL, inst);

	check_dead(sfd, "streaming");
	check_dead(idle, "idle");

	/* the mappings outlive the device: still readable */
	for (i = 0; i < NBUF && maps[i]; i++) {
		volatile const char *p = maps[i];
		char sum = 0;
		size_t off;

		for (off = 0; off < lens[i]; off += 4096)
			sum += p[off];
		(void)sum;
	}

	pthread_join(t1, NULL);
	if (!strcmp(mode, "dqbuf"))
		pthread_join(t2, NULL);

	freed = freed_count(pdev);
	if (freed0 >= 0 && freed >= 0) {
		result(freed == freed0, "the device is not freed while files are open",
		       "%d 'last reference gone' lines", freed - freed0);
		close(idle);
		for (i = 0; i < NBUF && maps[i]; i++)
			munmap(maps[i], lens[i]);
		freed = freed_count(pdev);
		result(freed == freed0, "nor while one file is still open",
		       "%d 'last reference gone' lines", freed - freed0);
		close(sfd);
		freed = freed_count(pdev);
		result(freed == freed0 + 1, "the device is freed at the last close",
		       "%d 'last reference gone' lines", freed - freed0);
	} else {
		result(0, "kernel log readable", "%s", strerror(errno));
	}
	return result_failures ? 1 : 0;
}
