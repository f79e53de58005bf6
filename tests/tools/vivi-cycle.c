// SPDX-License-Identifier: GPL-2.0
/*
 * vivi-cycle - repeat a setup/teardown cycle, for the leak checks.
 *
 * Usage: vivi-cycle /dev/videoN stream|open COUNT
 *        vivi-cycle /sys/kernel/config/vivi/NAME configfs COUNT
 *
 * stream: each cycle allocates 8 buffers (mmap, then userptr, alternating),
 *	queues them all, STREAMON, waits for one frame and requeues it, then
 *	tears down with buffers still queued: STREAMOFF + REQBUFS(0), or, every
 *	third cycle, by closing the file while streaming.
 * open: each cycle opens the node, QUERYCAP, G_FMT, closes.
 * configfs: each cycle makes the item NAME (mkdir; sizes 160x120, rates
 *	120 and the defaults to match, each one write()), enables it, reads
 *	the node from its "nodes", runs a stream cycle on it, disables it and
 *	removes it (rmdir); the tests' create/stream/remove cycles, in one
 *	process, as each exec costs tens of milliseconds under TCG.
 *
 * Prints one PASS:/FAIL: line; exits 1 on failure.
 */
#include "vivi-tool.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/videodev2.h>

#define NBUF	8

static int stream_cycle(const char *dev, int i, char *err, size_t errlen)
{
	enum v4l2_memory mem = i % 2 ? V4L2_MEMORY_USERPTR : V4L2_MEMORY_MMAP;
	struct v4l2_requestbuffers rb = { .count = NBUF,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = mem };
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	void *mem_of[NBUF] = { 0 };
	size_t len_of[NBUF] = { 0 };
	struct pollfd p;
	struct v4l2_buffer b;
	int fd, type = V4L2_BUF_TYPE_VIDEO_CAPTURE, n, r, ret = -1;

	fd = open(dev, O_RDWR);
	if (fd < 0) {
		snprintf(err, errlen, "open: %s", strerror(errno));
		return -1;
	}
	if (xioctl(fd, VIDIOC_G_FMT, &fmt) ||
	    xioctl(fd, VIDIOC_REQBUFS, &rb) || rb.count < NBUF) {
		snprintf(err, errlen, "REQBUFS: %s", strerror(errno));
		goto out;
	}
	for (n = 0; n < NBUF; n++) {
		memset(&b, 0, sizeof(b));
		b.index = n;
		b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b.memory = mem;
		if (xioctl(fd, VIDIOC_QUERYBUF, &b)) {
			snprintf(err, errlen, "QUERYBUF: %s", strerror(errno));
			goto out;
		}
		if (mem == V4L2_MEMORY_MMAP) {
			len_of[n] = b.length;
			mem_of[n] = mmap(NULL, b.length, PROT_READ, MAP_SHARED,
					 fd, b.m.offset);
			if (mem_of[n] == MAP_FAILED) {
				mem_of[n] = NULL;
				snprintf(err, errlen, "mmap: %s", strerror(errno));
				goto out;
			}
		} else {
			len_of[n] = fmt.fmt.pix.sizeimage;
			if (posix_memalign(&mem_of[n], 4096, len_of[n])) {
				snprintf(err, errlen, "posix_memalign failed");
				goto out;
			}
			b.m.userptr = (unsigned long)mem_of[n];
			b.length = len_of[n];
		}
		if (xioctl(fd, VIDIOC_QBUF, &b)) {
			snprintf(err, errlen, "QBUF: %s", strerror(errno));
			goto out;
		}
	}
	if (xioctl(fd, VIDIOC_STREAMON, &type)) {
		snprintf(err, errlen, "STREAMON: %s", strerror(errno));
		goto out;
	}
	p.fd = fd;
	p.events = POLLIN;
	r = poll(&p, 1, 10000);
	memset(&b, 0, sizeof(b));
	b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b.memory = mem;
	if (r != 1 || xioctl(fd, VIDIOC_DQBUF, &b)) {
		snprintf(err, errlen, "no frame within 10 s (poll %d, %s)", r,
			 strerror(errno));
		goto out;
	}
	if (b.flags & V4L2_BUF_FLAG_ERROR || b.bytesused != fmt.fmt.pix.sizeimage) {
		snprintf(err, errlen, "bad frame: flags %#x bytesused %u",
			 b.flags, b.bytesused);
		goto out;
	}
	if (mem == V4L2_MEMORY_USERPTR) {
		b.m.userptr = (unsigned long)mem_of[b.index];
		b.length = len_of[b.index];
	}
	if (xioctl(fd, VIDIOC_QBUF, &b)) {
		snprintf(err, errlen, "requeue: %s", strerror(errno));
		goto out;
	}
	ret = 0;
	/* every third cycle the close does the teardown */
	if (i % 3 == 2)
		goto out;
	rb.count = 0;
	if (xioctl(fd, VIDIOC_STREAMOFF, &type) ||
	    xioctl(fd, VIDIOC_REQBUFS, &rb)) {
		snprintf(err, errlen, "STREAMOFF/REQBUFS(0): %s", strerror(errno));
		ret = -1;
	}
out:
	for (n = 0; n < NBUF; n++) {
		if (!mem_of[n])
			continue;
		if (mem == V4L2_MEMORY_MMAP)
			munmap(mem_of[n], len_of[n]);
	}
	close(fd);
	/* userptr pages may be freed only once the queue let go of them */
	if (mem == V4L2_MEMORY_USERPTR)
		for (n = 0; n < NBUF; n++)
			free(mem_of[n]);
	return ret;
}

static int open_cycle(const char *dev, char *err, size_t errlen)
{
	struct v4l2_capability cap;
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	int fd = open(dev, O_RDWR);

	if (fd < 0) {
		snprintf(err, errlen, "open: %s", strerror(errno));
		return -1;
	}
	if (xioctl(fd, VIDIOC_QUERYCAP, &cap) || xioctl(fd, VIDIOC_G_FMT, &fmt)) {
		snprintf(err, errlen, "QUERYCAP/G_FMT: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return close(fd);
}

/* write @val and a newline to @dir/@attr in one write(), as echo does */
static int cfs_write(const char *dir, const char *attr, const char *val,
		     char *err, size_t errlen)
{
	char path[512], line[64];
	int fd, n, ok;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	n = snprintf(line, sizeof(line), "%s\n", val);
	fd = open(path, O_WRONLY);
	ok = fd >= 0 && write(fd, line, n) == n;
	if (!ok)
		snprintf(err, errlen, "%s=%s: %s", attr, val, strerror(errno));
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* the first line of @dir/nodes into @node */
static int cfs_node(const char *dir, char *node, size_t len, char *err,
		    size_t errlen)
{
	char path[512];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/nodes", dir);
	f = fopen(path, "r");
	ok = f && fgets(node, len, f) && node[0] == '/';
	if (f)
		fclose(f);
	if (!ok) {
		snprintf(err, errlen, "nodes: %s", f ? "empty" : strerror(errno));
		return -1;
	}
	node[strcspn(node, "\n")] = 0;
	return 0;
}

static int configfs_cycle(const char *dir, int i, char *err, size_t errlen)
{
	static const char *const set[][2] = {
		{ "sizes", "160x120" }, { "rates", "120" },
		{ "default_size", "160x120" }, { "default_rate", "120" },
		{ "enabled", "1" },
	};
	char node[64], why[200];
	unsigned int k;
	int ret = -1;

	if (mkdir(dir, 0755)) {
		snprintf(err, errlen, "mkdir: %s", strerror(errno));
		return -1;
	}
	for (k = 0; k < sizeof(set) / sizeof(set[0]); k++)
		if (cfs_write(dir, set[k][0], set[k][1], err, errlen))
			break;
	if (k < sizeof(set) / sizeof(set[0]))
		goto remove;
	if (cfs_node(dir, node, sizeof(node), err, errlen))
		goto disable;
	if (stream_cycle(node, i, why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s", node, why);
		goto disable;
	}
	ret = 0;
disable:
	if (cfs_write(dir, "enabled", "0", why, sizeof(why)) && !ret) {
		snprintf(err, errlen, "%s", why);
		ret = -1;
	}
remove:
	if (rmdir(dir) && !ret) {
		snprintf(err, errlen, "rmdir: %s", strerror(errno));
		ret = -1;
	}
	return ret;
}

int main(int argc, char **argv)
{
	static const char *const what[] = {
		"open/close", "STREAMON/STREAMOFF",
		"configfs create/enable/stream/disable/remove",
	};
	char err[300] = "";
	int i, count, mode;

	mode = argc != 4 ? -1 : !strcmp(argv[2], "open") ? 0 :
	       !strcmp(argv[2], "stream") ? 1 :
	       !strcmp(argv[2], "configfs") ? 2 : -1;
	if (mode < 0) {
		fprintf(stderr, "usage: %s /dev/videoN stream|open COUNT\n"
			"       %s /sys/kernel/config/vivi/NAME configfs COUNT\n",
			argv[0], argv[0]);
		return 2;
	}
	count = atoi(argv[3]);
	for (i = 0; i < count; i++) {
		if (mode == 0 ? open_cycle(argv[1], err, sizeof(err)) :
		    mode == 1 ? stream_cycle(argv[1], i, err, sizeof(err)) :
				configfs_cycle(argv[1], i, err, sizeof(err)))
			break;
	}
	if (i < count) {
		printf("FAIL: cycle: %d %s cycles: cycle %d: %s\n", count,
		       argv[2], i, err);
		return 1;
	}
	printf("PASS: cycle: %d %s cycles\n", count, what[mode]);
	return 0;
}
