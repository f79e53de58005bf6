/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the userspace test and benchmark tools (tests/tools,
 * tests/fuzz, tests/bench), so that each exists once:
 * - xioctl(), now_ns(), now_s(), die(), parse_uint();
 * - a seeded generator (r64(), rnd()), so that a seed replays a run;
 * - result(): the PASS:/FAIL: lines of the tools that check things;
 * - enum_formats(): the formats a node offers, from VIDIOC_ENUM_FMT (the
 *   tools take the format list from the driver, never from a copy);
 * - the options and MMAP streaming setup of the pacing tools (vivi-timing,
 *   vivi-bench): exact S_FMT, S_PARM, REQBUFS, mmap and queue;
 * - their statistics: sequence accounting, interval errors, percentiles.
 * Include it first: it defines _GNU_SOURCE, and die() names the program
 * through the GNU program_invocation_short_name. Each tool is one file, so
 * the state below (result's counters) is per tool.
 */
#ifndef VIVI_TOOL_H
#define VIVI_TOOL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>

/* an ioctl that retries on EINTR: 0 or -errno (errno stays set) */
static inline int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do {
		r = ioctl(fd, req, arg);
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : 0;
}

static inline int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static inline double now_s(void)
{
	return now_ns() / 1e9;
}

static inline void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

/* a decimal option value up to INT_MAX; dies naming @what otherwise */
static inline unsigned int parse_uint(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v > 0x7fffffff)
		die("bad %s '%s'", what, s);
	return v;
}

/* splitmix64: a seeded sequence, the same on every machine */
struct rng {
	uint64_t s;
};

static inline uint64_t r64(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* in [0, @n), 0 if @n is 0 */
static inline uint32_t rnd(struct rng *r, uint32_t n)
{
	return n ? r64(r) % n : 0;
}

/* what result() prints after PASS:/FAIL:, e.g. "edge" */
static const char *result_group __attribute__((unused)) = "";
/* set: a PASS line carries the details too, in parentheses */
static int result_details_on_pass __attribute__((unused));
/* FAIL lines printed so far */
static int result_failures __attribute__((unused));

/*
 * One "PASS: GROUP: NAME" or "FAIL: GROUP: NAME: DETAILS" line, DETAILS
 * from @fmt (may be NULL). Flushed at once, as some tools fork.
 */
static inline void __attribute__((format(printf, 3, 4)))
result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%s: %s: %s", ok ? "PASS" : "FAIL", result_group, name);
	if (fmt && (!ok || result_details_on_pass)) {
		printf(ok ? " (" : ": ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		if (ok)
			printf(")");
	}
	printf("\n");
	fflush(stdout);
	result_failures += !ok;
}

/* the first @max formats @fd offers, in ENUM_FMT order; returns how many */
static inline unsigned int enum_formats(int fd, uint32_t *out,
					unsigned int max)
{
	struct v4l2_fmtdesc d = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	while (d.index < max && !xioctl(fd, VIDIOC_ENUM_FMT, &d)) {
		out[d.index] = d.pixelformat;
		d.index++;
	}
	return d.index;
}

/* a fourcc as v4l2-ctl spells it: "Y16" is 'Y16 ' */
static inline uint32_t parse_fourcc(const char *s)
{
	char c[4] = { ' ', ' ', ' ', ' ' };
	size_t n = strlen(s);

	if (!n || n > 4)
		die("bad fourcc '%s'", s);
	memcpy(c, s, n);
	return v4l2_fourcc(c[0], c[1], c[2], c[3]);
}

/* the streaming options vivi-timing and vivi-bench share */
struct stream_opts {
	uint32_t fourcc;		/* -f FOURCC */
	unsigned int w, h;		/* -s WxH */
	unsigned int nbufs;		/* -b N, 1 to max_bufs */
	unsigned int max_bufs;
	unsigned int nframes;		/* -n N */
};

/* getopt's @opt into @o if it is one of -f -s -b -n; returns 1 if so */
static inline int stream_option(int opt, const char *arg,
				struct stream_opts *o)
{
	switch (opt) {
	case 'f':
		o->fourcc = parse_fourcc(arg);
		return 1;
	case 's':
		if (sscanf(arg, "%ux%u", &o->w, &o->h) != 2 || !o->w || !o->h)
			die("bad size '%s'", arg);
		return 1;
	case 'b':
		o->nbufs = parse_uint(arg, "buffer count");
		if (o->nbufs < 1 || o->nbufs > o->max_bufs)
			die("buffer count 1..%u", o->max_bufs);
		return 1;
	case 'n':
		o->nframes = parse_uint(arg, "frame count");
		return 1;
	}
	return 0;
}

/* S_FMT to exactly @fourcc at @w x @h, or die; the result in @fmt */
static inline void set_format(int fd, const char *path, uint32_t fourcc,
			      unsigned int w, unsigned int h,
			      struct v4l2_format *fmt)
{
	memset(fmt, 0, sizeof(*fmt));
	fmt->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	fmt->fmt.pix.width = w;
	fmt->fmt.pix.height = h;
	fmt->fmt.pix.pixelformat = fourcc;
	fmt->fmt.pix.field = V4L2_FIELD_NONE;
	if (xioctl(fd, VIDIOC_S_FMT, fmt))
		die("%s: S_FMT: %s", path, strerror(errno));
	if (fmt->fmt.pix.width != w || fmt->fmt.pix.height != h ||
	    fmt->fmt.pix.pixelformat != fourcc)
		die("%s: S_FMT gave %.4s %ux%u", path,
		    (char *)&fmt->fmt.pix.pixelformat, fmt->fmt.pix.width,
		    fmt->fmt.pix.height);
}

/* S_PARM @want, or die; returns the interval G_PARM reports */
static inline struct v4l2_fract set_interval(int fd, const char *path,
					     struct v4l2_fract want)
{
	struct v4l2_streamparm p;

	memset(&p, 0, sizeof(p));
	p.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	p.parm.capture.timeperframe = want;
	if (xioctl(fd, VIDIOC_S_PARM, &p))
		die("%s: S_PARM %u/%u: %s", path, want.numerator,
		    want.denominator, strerror(errno));
	memset(&p, 0, sizeof(p));
	p.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (xioctl(fd, VIDIOC_G_PARM, &p))
		die("%s: G_PARM: %s", path, strerror(errno));
	want = p.parm.capture.timeperframe;
	if (!want.numerator || !want.denominator)
		die("%s: G_PARM gave %u/%u", path, want.numerator,
		    want.denominator);
	return want;
}

/*
 * Write @val to the debugfs fault knob vivi/videoN/faults/@knob of the
 * node @dev; 0, or -errno with errno set
 */
static inline int write_fault_knob(const char *dev, const char *knob,
				   const char *val)
{
	const char *node = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	char path[128];
	ssize_t n = (ssize_t)strlen(val);
	int fd, r = 0;

	snprintf(path, sizeof(path), "/sys/kernel/debug/vivi/%s/faults/%s",
		 node, knob);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, val, n) != n)
		r = errno ? -errno : -EIO;
	close(fd);
	if (r)
		errno = -r;
	return r;
}

/* REQBUFS @count MMAP buffers, or die; returns the count granted */
static inline unsigned int reqbufs_mmap(int fd, const char *path,
					unsigned int count)
{
	struct v4l2_requestbuffers rb;

	memset(&rb, 0, sizeof(rb));
	rb.count = count;
	rb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	rb.memory = V4L2_MEMORY_MMAP;
	if (xioctl(fd, VIDIOC_REQBUFS, &rb))
		die("%s: REQBUFS %u: %s", path, count, strerror(errno));
	return rb.count;
}

/* a v4l2_buffer for MMAP capture buffer @index */
static inline void mmap_buffer(struct v4l2_buffer *b, unsigned int index)
{
	memset(b, 0, sizeof(*b));
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = V4L2_MEMORY_MMAP;
	b->index = index;
}

/* QBUF MMAP buffer @index, or die */
static inline void qbuf_mmap(int fd, const char *path, unsigned int index)
{
	struct v4l2_buffer b;

	mmap_buffer(&b, index);
	if (xioctl(fd, VIDIOC_QBUF, &b))
		die("%s: QBUF %u: %s", path, index, strerror(errno));
}

/* map the @n MMAP buffers (read-only) and queue them all, or die */
static inline void map_and_queue(int fd, const char *path, unsigned int n,
				 void **mem, size_t *len)
{
	struct v4l2_buffer b;
	unsigned int i;

	for (i = 0; i < n; i++) {
		mmap_buffer(&b, i);
		if (xioctl(fd, VIDIOC_QUERYBUF, &b))
			die("%s: QUERYBUF %u: %s", path, i, strerror(errno));
		len[i] = b.length;
		mem[i] = mmap(NULL, b.length, PROT_READ, MAP_SHARED, fd,
			      b.m.offset);
		if (mem[i] == MAP_FAILED)
			die("%s: mmap %u: %s", path, i, strerror(errno));
		qbuf_mmap(fd, path, i);
	}
}

/* a buffer timestamp in ns */
static inline int64_t buf_ts_ns(const struct v4l2_buffer *b)
{
	return (int64_t)b->timestamp.tv_sec * 1000000000 +
	       (int64_t)b->timestamp.tv_usec * 1000;
}

/* one dequeued frame, as the pacing tools record it */
struct frame_rec {
	uint32_t seq;
	uint32_t flags;
	uint32_t bytesused;
	int64_t ts_ns;		/* buffer timestamp, CLOCK_MONOTONIC */
	int64_t dq_ns;		/* CLOCK_MONOTONIC right after DQBUF */
};

/* how the sequence numbers of consecutive frames step */
struct seq_count {
	uint64_t gaps;		/* steps of more than one */
	uint64_t missing;	/* the sequence numbers skipped */
	uint64_t backwards;	/* steps that do not go up */
};

/* frame @i's step from frame @i - 1, added to @c; 1 if it goes up */
static inline int count_step(const struct frame_rec *r, unsigned int i,
			     struct seq_count *c)
{
	if (r[i].seq <= r[i - 1].seq) {
		c->backwards++;
		return 0;
	}
	if (r[i].seq != r[i - 1].seq + 1) {
		c->gaps++;
		c->missing += r[i].seq - r[i - 1].seq - 1;
	}
	return 1;
}

static inline double dabs(double x)
{
	return x < 0 ? -x : x;
}

/*
 * |interval - dseq * @nominal_ns| between frames @i - 1 and @i, in us, of
 * the buffer timestamps (*@ts_us) and of the dequeue times (*@dq_us)
 */
static inline void interval_error(const struct frame_rec *r, unsigned int i,
				  double nominal_ns, double *ts_us,
				  double *dq_us)
{
	double want = (r[i].seq - r[i - 1].seq) * nominal_ns;

	*ts_us = dabs((double)(r[i].ts_ns - r[i - 1].ts_ns) - want) / 1e3;
	*dq_us = dabs((double)(r[i].dq_ns - r[i - 1].dq_ns) - want) / 1e3;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* the p-th percentile (nearest rank) of v[0..n-1], sorted in place */
static inline double pct(double *v, size_t n, unsigned int p)
{
	size_t k;

	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	k = (p * n + 99) / 100;
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return v[k - 1];
}

/* PFX KEY_p50=, _p99= and _max= lines of v[0..n-1] (sorted in place) */
static inline void print_stats(const char *pfx, const char *key, double *v,
			       size_t n)
{
	printf("%s%s_p50=%.1f\n", pfx, key, pct(v, n, 50));
	printf("%s%s_p99=%.1f\n", pfx, key, pct(v, n, 99));
	printf("%s%s_max=%.1f\n", pfx, key, pct(v, n, 100));
}

#endif
