// SPDX-License-Identifier: GPL-2.0
/*
 * vivi-produce - feed a vivi producer (output) node, and watch its
 * consumer (capture) node.
 *
 * Usage: vivi-produce [options] OUT FILE        stream FILE's frames to OUT
 *        vivi-produce -c [options] CAP          capture from CAP
 *        vivi-produce -t OUT                    bad-input checks on OUT
 *        vivi-produce -S CAP                    "status=0xS" of input 0
 *
 * Producer options:
 *   -m MODE     mmap (default), userptr, dmabuf or write; write is OBS's
 *               exact sequence: G_FMT, S_PARM, S_FMT (the G_FMT result with
 *               width, height and pixelformat changed), then one write()
 *               of sizeimage bytes per frame
 *   -f FOURCC   pixel format (default YUYV)
 *   -s WxH      frame size (default 640x480)
 *   -l BPL      bytesperline to ask for (default 0: the driver's minimum)
 *   -r FPS      frames per second, S_PARM and the tool's own pacing
 *               (default 30)
 *   -n N        frames to queue, then stop (default 0: until SIGTERM)
 *   -b N        buffers (default 4)
 *   -e DEV      with -m dmabuf: the capture node whose MMAP buffers are
 *               exported (EXPBUF) and imported by OUT
 *   -C N        with -n, mmap or userptr: N cycles of open, S_FMT, REQBUFS,
 *               stream, STREAMOFF and close, each followed by a pause as
 *               long as its stream (consumers see the idle picture), as N
 *               producers one after the other would be but without their
 *               process starts
 *   -P          print "frame=I ts=S.U n=K" for each frame queued: I its
 *               index in FILE, S.U the timestamp QBUF gave it
 *               (CLOCK_MONOTONIC, as every frame queued gets, write()
 *               aside), K how many were queued before it
 *   -U          at the end, the CPU line (below) from the first QBUF on
 *               (not with -m write)
 * FILE holds whole frames of sizeimage bytes (as S_FMT gives it), looped;
 * with -f MJPG, JPEGs one after the other, each frame ending where an EOI
 * (ff d9) is followed by an SOI (ff d8) or the end of FILE, queued with
 * bytesused its size (write: one write() each).
 * Prints "streaming" once STREAMON succeeded (write: after the first
 * write; with -C, the first cycle's) and "stopped frames=N errors=E" at
 * the end (N over every cycle; E: buffers dequeued
 * with V4L2_BUF_FLAG_ERROR); an error ends it with status 2
 * and the failing call and errno on stderr.
 *
 * Capture options (-c):
 *   -f, -s, -r  format, size, rate as above (-r default 30)
 *   -F LIST     for each fourcc of the comma-separated LIST: S_FMT, stream,
 *               wait until ENUMINPUT reports the input has a signal (a
 *               producer streams), drop the frames of the next 150 ms
 *               (for the first fourcc; for the others, which restart
 *               under a producer already seen, the first two frames),
 *               write the next one to DIR/FOURCC.raw (-o DIR) and print
 *               "FOURCC BPL SIZEIMAGE"
 *   -n N        without -F: frames to dequeue (0: until SIGTERM or SIGUSR1)
 *   -M FILE     without -F: each frame is compared with FILE's frames
 *               (with -f MJPG, JPEGs split as a producer's FILE is)
 *   -O FILE     without -F: every frame's payload appended to FILE
 *   -U          without -F: at the end, the CPU line (below) from the
 *               first DQBUF on
 *   One line per frame: "seq=S status=0xS match=I flags=0xF ts=S.U
 *   dq=S.U" (I: the index of the equal frame of -M's FILE, -1 if none;
 *   ts the buffer's timestamp, dq the CLOCK_MONOTONIC time DQBUF
 *   returned), then "frames=N gaps=G
 *   missing=M backwards=B"; a failing DQBUF prints "dqbuf: ERROR" and
 *   ends with status 2.
 *
 * The CPU line (-U), for make bench-vm: "cpu frames=F user_us=U sys_us=S
 * busy_ticks=B total_ticks=T hz=H": F frames queued or dequeued after the
 * first one, U and S this process's CPU time meanwhile (getrusage), B and
 * T the whole system's non-idle and all ticks meanwhile (/proc/stat's cpu
 * line, all CPUs; -1 if unreadable), H ticks per second.
 *
 * -t: S_FMT YUYV 640x480, MMAP buffers; a QBUF whose bytesused is one byte
 * short of sizeimage must fail with EINVAL, bytesused 0 (vb2: the whole
 * buffer) and sizeimage must be taken; PASS:/FAIL: lines.
 */
#include "vivi-tool.h"
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <linux/dma-buf.h>

#define MAX_BUFS	16
#define MAX_FRAMES	64

enum mode { M_MMAP, M_USERPTR, M_DMABUF, M_WRITE };

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: sleeps end early */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
}

struct opts {
	enum mode mode;
	uint32_t fourcc;
	unsigned int w, h, bpl, fps, nframes, nbufs, cycles;
	const char *export_dev, *list, *dir, *match, *out;
	int print_ts, print_cpu;
	int quiet;	/* "streaming" printed already */
};

/* this process's CPU time and the whole system's ticks at one moment */
struct cpu_mark {
	long long user_us, sys_us, busy, total;
};

static void cpu_mark(struct cpu_mark *m)
{
	unsigned long long v[8] = { 0 };
	struct rusage ru;
	FILE *f;
	int i, n = 0;

	getrusage(RUSAGE_SELF, &ru);
	m->user_us = ru.ru_utime.tv_sec * 1000000LL + ru.ru_utime.tv_usec;
	m->sys_us = ru.ru_stime.tv_sec * 1000000LL + ru.ru_stime.tv_usec;
	f = fopen("/proc/stat", "r");
	if (f) {
		/* user nice system idle iowait irq softirq steal (guest time
		 * is counted in user already) */
		n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		fclose(f);
	}
	m->busy = m->total = -1;
	if (n != 8)
		return;
	for (m->total = 0, i = 0; i < 8; i++)
		m->total += v[i];
	m->busy = m->total - v[3] - v[4];
}

/* -U's line: the CPU spent from @a to now, over @frames frames */
static void print_cpu(const struct cpu_mark *a, unsigned int frames)
{
	struct cpu_mark b;
	int ok;

	cpu_mark(&b);
	ok = a->busy >= 0 && b.busy >= 0;
	printf("cpu frames=%u user_us=%lld sys_us=%lld busy_ticks=%lld total_ticks=%lld hz=%ld\n",
	       frames, b.user_us - a->user_us, b.sys_us - a->sys_us,
	       ok ? b.busy - a->busy : -1, ok ? b.total - a->total : -1,
	       sysconf(_SC_CLK_TCK));
}

/* die with status 2, as every failing call does: the tests tell an
 * error the device gave from a crash or a hang */
static void __attribute__((noreturn, format(printf, 1, 2)))
fail_call(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	printf("error\n");
	fflush(stdout);
	exit(2);
}

static int open_dev(const char *path)
{
	int fd = open(path, O_RDWR);

	if (fd < 0)
		fail_call("open %s: %s", path, strerror(errno));
	return fd;
}

/* S_FMT of @type; the result in @f; dies unless the format is exact */
static void s_fmt(int fd, enum v4l2_buf_type type, const struct opts *o,
		  struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->fmt.pix.width = o->w;
	f->fmt.pix.height = o->h;
	f->fmt.pix.pixelformat = o->fourcc;
	f->fmt.pix.bytesperline = o->bpl;
	f->fmt.pix.field = V4L2_FIELD_NONE;
	if (xioctl(fd, VIDIOC_S_FMT, f))
		fail_call("S_FMT: %s", strerror(errno));
	if (f->fmt.pix.width != o->w || f->fmt.pix.height != o->h ||
	    f->fmt.pix.pixelformat != o->fourcc ||
	    (o->bpl && f->fmt.pix.bytesperline != o->bpl))
		fail_call("S_FMT gave %.4s %ux%u bpl %u", (char *)&f->fmt.pix.pixelformat,
			  f->fmt.pix.width, f->fmt.pix.height,
			  f->fmt.pix.bytesperline);
}

static void s_parm(int fd, enum v4l2_buf_type type, unsigned int fps)
{
	struct v4l2_streamparm p;

	memset(&p, 0, sizeof(p));
	p.type = type;
	if (type == V4L2_BUF_TYPE_VIDEO_OUTPUT) {
		p.parm.output.timeperframe.numerator = 1;
		p.parm.output.timeperframe.denominator = fps;
	} else {
		p.parm.capture.timeperframe.numerator = 1;
		p.parm.capture.timeperframe.denominator = fps;
	}
	if (xioctl(fd, VIDIOC_S_PARM, &p))
		fail_call("S_PARM 1/%u: %s", fps, strerror(errno));
}

/* where each frame of the loaded FILE starts, and its end */
static size_t frame_at[MAX_FRAMES + 1];

#define frame_len(i)	(frame_at[(i) + 1] - frame_at[i])

/* MJPEG: frames end at an EOI followed by an SOI or the end */
static unsigned int split_jpegs(const char *path, const char *d, size_t len)
{
	unsigned int n = 0;
	size_t i;

	frame_at[0] = 0;
	for (i = 0; i + 2 <= len; i++) {
		if ((unsigned char)d[i] != 0xff || (unsigned char)d[i + 1] != 0xd9 ||
		    (i + 2 < len && (i + 4 > len || (unsigned char)d[i + 2] != 0xff ||
				     (unsigned char)d[i + 3] != 0xd8)))
			continue;
		if (n == MAX_FRAMES)
			die("%s: more than %d frames", path, MAX_FRAMES);
		frame_at[++n] = i + 2;
	}
	if (frame_at[n] != len) {	/* a last frame without EOI */
		if (n == MAX_FRAMES)
			die("%s: more than %d frames", path, MAX_FRAMES);
		frame_at[++n] = len;
	}
	return n;
}

/*
 * the frames of FILE into *@out: each @size bytes, or with @jpeg, JPEGs;
 * returns how many (frame_at[] says where they are)
 */
static unsigned int load_frames(const char *path, size_t size, int jpeg,
				char **out)
{
	struct stat st;
	unsigned int n, i;
	FILE *f = fopen(path, "rb");

	if (!f || fstat(fileno(f), &st))
		die("%s: %s", path, strerror(errno));
	if (!st.st_size || (!jpeg && (!size || st.st_size % size)))
		die("%s: %lld bytes is not a whole number of %zu-byte frames",
		    path, (long long)st.st_size, size);
	*out = malloc(st.st_size);
	if (!*out || fread(*out, 1, st.st_size, f) != (size_t)st.st_size)
		die("%s: read failed", path);
	fclose(f);
	if (jpeg)
		return split_jpegs(path, *out, st.st_size);
	n = st.st_size / size;
	if (n > MAX_FRAMES)
		die("%s: more than %d frames", path, MAX_FRAMES);
	for (i = 0; i <= n; i++)
		frame_at[i] = (size_t)i * size;
	return n;
}

static void add_ns(struct timespec *t, int64_t ns)
{
	ns += t->tv_nsec;
	t->tv_sec += ns / 1000000000;
	t->tv_nsec = ns % 1000000000;
}

/* sleep to the absolute deadline @t; 1 if a signal asked to stop */
static int sleep_until(const struct timespec *t)
{
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL))
		if (stop)
			return 1;
	return stop;
}

/* OBS's sequence (its v4l2 output plugin): G_FMT, S_PARM, S_FMT, write() */
static unsigned int produce_write(int fd, const struct opts *o, const char *file)
{
	struct v4l2_format f;
	struct timespec t;
	unsigned int n, i;
	char *frames;
	ssize_t w;

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	if (xioctl(fd, VIDIOC_G_FMT, &f))
		fail_call("G_FMT: %s", strerror(errno));
	s_parm(fd, V4L2_BUF_TYPE_VIDEO_OUTPUT, o->fps);
	f.fmt.pix.width = o->w;
	f.fmt.pix.height = o->h;
	f.fmt.pix.pixelformat = o->fourcc;
	f.fmt.pix.sizeimage = o->w * o->h * 2;
	if (xioctl(fd, VIDIOC_S_FMT, &f))
		fail_call("S_FMT: %s", strerror(errno));
	n = load_frames(file, f.fmt.pix.sizeimage,
			o->fourcc == V4L2_PIX_FMT_MJPEG, &frames);
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (i = 0; !stop && (!o->nframes || i < o->nframes); i++) {
		w = write(fd, frames + frame_at[i % n], frame_len(i % n));
		if (w < 0 && errno == EINTR && stop)
			break;
		if (w != (ssize_t)frame_len(i % n))
			fail_call("write frame %u: %zd: %s", i, w,
				  w < 0 ? strerror(errno) : "short");
		if (!i) {
			printf("streaming\n");
			fflush(stdout);
		}
		add_ns(&t, 1000000000LL / o->fps);
		if (sleep_until(&t))
			break;
	}
	return i;
}

struct obuf {
	void *mem;
	size_t len;
	int dmafd;
};

/* the dma-bufs of @n MMAP buffers of the capture node @dev, mapped */
static int export_bufs(const char *dev, const struct opts *o, struct obuf *b,
		       unsigned int n)
{
	struct v4l2_exportbuffer e;
	struct v4l2_buffer qb;
	struct v4l2_format f;
	unsigned int i;
	int fd = open_dev(dev);

	s_fmt(fd, V4L2_BUF_TYPE_VIDEO_CAPTURE, o, &f);
	if (reqbufs_mmap(fd, dev, n) < n)
		fail_call("%s: REQBUFS gave fewer than %u buffers", dev, n);
	for (i = 0; i < n; i++) {
		mmap_buffer(&qb, i);
		if (xioctl(fd, VIDIOC_QUERYBUF, &qb))
			fail_call("%s: QUERYBUF: %s", dev, strerror(errno));
		memset(&e, 0, sizeof(e));
		e.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		e.index = i;
		e.flags = O_RDWR | O_CLOEXEC;
		if (xioctl(fd, VIDIOC_EXPBUF, &e))
			fail_call("%s: EXPBUF %u: %s", dev, i, strerror(errno));
		b[i].dmafd = e.fd;
		b[i].len = qb.length;
		b[i].mem = mmap(NULL, qb.length, PROT_READ | PROT_WRITE,
				MAP_SHARED, e.fd, 0);
		if (b[i].mem == MAP_FAILED)
			fail_call("%s: mmap of dma-buf %u: %s", dev, i,
				  strerror(errno));
	}
	return fd;
}

static void fill(struct obuf *b, const char *src, size_t size)
{
	struct dma_buf_sync s = { .flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE };

	if (b->dmafd >= 0)
		ioctl(b->dmafd, DMA_BUF_IOCTL_SYNC, &s);
	memcpy(b->mem, src, size);
	if (b->dmafd >= 0) {
		s.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE;
		ioctl(b->dmafd, DMA_BUF_IOCTL_SYNC, &s);
	}
}

static const unsigned int memory_of[] = {
	[M_MMAP] = V4L2_MEMORY_MMAP, [M_USERPTR] = V4L2_MEMORY_USERPTR,
	[M_DMABUF] = V4L2_MEMORY_DMABUF,
};

/* QBUF output buffer @i, stamped now; its timestamp */
static struct timeval qbuf(int fd, const struct opts *o, struct obuf *b,
			   unsigned int i, size_t size)
{
	struct v4l2_buffer qb;
	struct timespec now;

	memset(&qb, 0, sizeof(qb));
	clock_gettime(CLOCK_MONOTONIC, &now);
	qb.timestamp.tv_sec = now.tv_sec;
	qb.timestamp.tv_usec = now.tv_nsec / 1000;
	qb.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	qb.memory = memory_of[o->mode];
	qb.index = i;
	qb.bytesused = size;
	qb.field = V4L2_FIELD_NONE;
	if (o->mode == M_USERPTR) {
		qb.m.userptr = (unsigned long)b[i].mem;
		qb.length = b[i].len;
	} else if (o->mode == M_DMABUF) {
		qb.m.fd = b[i].dmafd;
		qb.length = b[i].len;
	}
	if (xioctl(fd, VIDIOC_QBUF, &qb))
		fail_call("QBUF %u: %s", i, strerror(errno));
	return qb.timestamp;
}

/* output buffers dequeued with V4L2_BUF_FLAG_ERROR */
static unsigned int dq_errors;

/* DQBUF an output buffer (blocking); its index */
static unsigned int dqbuf(int fd, const struct opts *o)
{
	struct v4l2_buffer qb;
	int r;

	memset(&qb, 0, sizeof(qb));
	qb.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	qb.memory = memory_of[o->mode];
	r = xioctl(fd, VIDIOC_DQBUF, &qb);
	if (r)
		fail_call("DQBUF: %s", strerror(-r));
	if (qb.flags & V4L2_BUF_FLAG_ERROR)
		dq_errors++;
	return qb.index;
}

/* the buffers for MMAP, USERPTR or DMABUF; returns how many */
static unsigned int setup_bufs(int fd, const struct opts *o, size_t size,
			       struct obuf *b)
{
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer qb;
	unsigned int i, n = o->nbufs;
	long page = sysconf(_SC_PAGESIZE);

	for (i = 0; i < MAX_BUFS; i++)
		b[i].dmafd = -1;
	memset(&rb, 0, sizeof(rb));
	rb.count = n;
	rb.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	rb.memory = memory_of[o->mode];
	if (xioctl(fd, VIDIOC_REQBUFS, &rb))
		fail_call("REQBUFS %u: %s", n, strerror(errno));
	if (rb.count < 1 || rb.count > MAX_BUFS)
		fail_call("REQBUFS gave %u buffers", rb.count);
	n = rb.count;
	/* as many dma-bufs as the output node asked for */
	if (o->mode == M_DMABUF)
		export_bufs(o->export_dev, o, b, n);
	for (i = 0; i < n; i++) {
		if (o->mode == M_USERPTR) {
			b[i].len = (size + page - 1) / page * page;
			b[i].mem = aligned_alloc(page, b[i].len);
			if (!b[i].mem)
				die("out of memory");
		} else if (o->mode == M_MMAP) {
			memset(&qb, 0, sizeof(qb));
			qb.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
			qb.memory = V4L2_MEMORY_MMAP;
			qb.index = i;
			if (xioctl(fd, VIDIOC_QUERYBUF, &qb))
				fail_call("QUERYBUF %u: %s", i, strerror(errno));
			b[i].len = qb.length;
			b[i].mem = mmap(NULL, qb.length, PROT_READ | PROT_WRITE,
					MAP_SHARED, fd, qb.m.offset);
			if (b[i].mem == MAP_FAILED)
				fail_call("mmap %u: %s", i, strerror(errno));
		}
		if (b[i].len < size)
			fail_call("buffer %u: %zu bytes, sizeimage %zu", i,
				  b[i].len, size);
	}
	return n;
}

/* undo setup_bufs(), so that a next cycle starts from nothing */
static void release_bufs(const struct opts *o, struct obuf *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (o->mode == M_MMAP && munmap(b[i].mem, b[i].len))
			fail_call("munmap %u: %s", i, strerror(errno));
		else if (o->mode == M_USERPTR)
			free(b[i].mem);
	}
}

/*
 * Queue one frame per period: a free buffer is filled and queued at each
 * deadline; with none free, DQBUF waits for the driver to give one back.
 */
static unsigned int produce_stream(int fd, const struct opts *o,
				   const char *file)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	struct obuf b[MAX_BUFS];
	unsigned int free_idx[MAX_BUFS], nfree, nbufs, n, i, k;
	struct v4l2_format f;
	struct cpu_mark cm;
	struct timespec t;
	struct timeval ts;
	size_t size;
	char *frames;

	s_fmt(fd, type, o, &f);
	s_parm(fd, type, o->fps);
	size = f.fmt.pix.sizeimage;
	n = load_frames(file, size, o->fourcc == V4L2_PIX_FMT_MJPEG, &frames);
	nbufs = setup_bufs(fd, o, size, b);
	for (nfree = 0; nfree < nbufs; nfree++)
		free_idx[nfree] = nbufs - 1 - nfree;
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (i = 0; !stop && (!o->nframes || i < o->nframes); i++) {
		if (!nfree)
			free_idx[nfree++] = dqbuf(fd, o);
		k = free_idx[--nfree];
		fill(&b[k], frames + frame_at[i % n], frame_len(i % n));
		ts = qbuf(fd, o, b, k, frame_len(i % n));
		if (o->print_ts)
			printf("frame=%u ts=%ld.%06ld n=%u\n", i % n,
			       (long)ts.tv_sec, (long)ts.tv_usec, i);
		if (!i) {
			if (xioctl(fd, VIDIOC_STREAMON, &type))
				fail_call("STREAMON: %s", strerror(errno));
			if (!o->quiet)
				printf("streaming\n");
			fflush(stdout);
			cpu_mark(&cm);
		}
		add_ns(&t, 1000000000LL / o->fps);
		if (sleep_until(&t))
			break;
	}
	if (o->print_cpu && i)
		print_cpu(&cm, i - 1);
	if (xioctl(fd, VIDIOC_STREAMOFF, &type))
		fail_call("STREAMOFF: %s", strerror(errno));
	release_bufs(o, b, nbufs);
	free(frames);
	return i;
}

static int produce(const char *dev, const char *file, struct opts *o)
{
	struct timespec t;
	unsigned int n = 0, c;
	int fd;

	if (o->mode == M_DMABUF && !o->export_dev)
		die("-m dmabuf needs -e DEV");
	if (o->cycles > 1 && (!o->nframes || o->mode > M_USERPTR))
		die("-C needs -n and -m mmap or userptr");
	for (c = 0; c < (o->cycles ?: 1) && !stop; c++) {
		fd = open_dev(dev);
		n += o->mode == M_WRITE ? produce_write(fd, o, file) :
					  produce_stream(fd, o, file);
		if (close(fd))
			fail_call("close: %s", strerror(errno));
		/* the quiet between two producers */
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (c + 1 < o->cycles)
			add_ns(&t, 1000000000LL * o->nframes / o->fps);
		sleep_until(&t);
		o->quiet = 1;
	}
	printf("stopped frames=%u errors=%u\n", n, dq_errors);
	return 0;
}

/* the input status of input 0 (ENUMINPUT), or -errno */
static long input_status(int fd)
{
	struct v4l2_input in = { .index = 0 };
	int r = xioctl(fd, VIDIOC_ENUMINPUT, &in);

	return r ? r : (long)in.status;
}

struct cap {
	int fd;
	void *mem[MAX_BUFS];
	size_t len[MAX_BUFS];
	unsigned int n;
	struct v4l2_format f;
};

/* format, rate and queued buffers, not streaming yet */
static void cap_setup(struct cap *c, const char *dev, const struct opts *o)
{
	s_fmt(c->fd, V4L2_BUF_TYPE_VIDEO_CAPTURE, o, &c->f);
	s_parm(c->fd, V4L2_BUF_TYPE_VIDEO_CAPTURE, o->fps);
	c->n = reqbufs_mmap(c->fd, dev, 4);
	if (c->n > MAX_BUFS)
		fail_call("REQBUFS gave %u buffers", c->n);
	map_and_queue(c->fd, dev, c->n, c->mem, c->len);
}

static void cap_on(struct cap *c)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	if (xioctl(c->fd, VIDIOC_STREAMON, &type))
		fail_call("STREAMON: %s", strerror(errno));
}

static void cap_start(struct cap *c, const char *dev, const struct opts *o)
{
	cap_setup(c, dev, o);
	cap_on(c);
}

static void cap_stop(struct cap *c, const char *dev)
{
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	unsigned int i;

	if (xioctl(c->fd, VIDIOC_STREAMOFF, &type))
		fail_call("STREAMOFF: %s", strerror(errno));
	for (i = 0; i < c->n; i++)
		munmap(c->mem[i], c->len[i]);
	reqbufs_mmap(c->fd, dev, 0);
}

/* DQBUF a capture buffer into @b; 0 or -errno */
static int cap_dq(struct cap *c, struct v4l2_buffer *b)
{
	mmap_buffer(b, 0);
	return xioctl(c->fd, VIDIOC_DQBUF, b);
}

static void cap_q(struct cap *c, struct v4l2_buffer *b)
{
	if (xioctl(c->fd, VIDIOC_QBUF, b))
		fail_call("QBUF: %s", strerror(errno));
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(p, 1, n, f) != n || fclose(f))
		die("%s: %s", path, strerror(errno));
}

/* -F: one frame of each format of the list, once a producer streams */
static int capture_list(const char *dev, struct opts *o)
{
	char *list = strdup(o->list), *tok, *save = NULL, path[512];
	struct v4l2_buffer b;
	struct cap c = { .fd = open_dev(dev) };
	int64_t since;
	int n, later = 0;

	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		o->fourcc = parse_fourcc(tok);
		cap_start(&c, dev, o);
		since = 0;
		for (n = 0;; n++) {
			if (cap_dq(&c, &b))
				fail_call("%s: DQBUF: %s", tok, strerror(errno));
			if (!since && input_status(c.fd) == 0)
				since = now_ns();
			/* the producer's frame is there by now: the third
			 * frame of a stream that restarted under it, or the
			 * first 150 ms after the signal came */
			if (since && (later ? n >= 2 : now_ns() - since > 150000000))
				break;
			cap_q(&c, &b);
		}
		later = 1;
		snprintf(path, sizeof(path), "%s/%s.raw", o->dir, tok);
		write_file(path, c.mem[b.index], b.bytesused);
		printf("%s %u %u\n", tok, c.f.fmt.pix.bytesperline,
		       c.f.fmt.pix.sizeimage);
		fflush(stdout);
		cap_stop(&c, dev);
	}
	free(list);
	close(c.fd);
	return 0;
}

/* -c without -F: a stream, one line a frame */
static int capture_stream(const char *dev, struct opts *o)
{
	struct cap c = { .fd = open_dev(dev) };
	struct frame_rec r[2] = { 0 };
	struct seq_count sc = { 0 };
	struct v4l2_buffer b;
	struct cpu_mark cm;
	unsigned int nref = 0, i, k;
	char *ref = NULL;
	FILE *out = NULL;
	int match, err = 0;
	struct timespec dq;
	long st;

	cap_setup(&c, dev, o);
	/* before STREAMON: its first frames do not wait for the loading */
	if (o->match)
		nref = load_frames(o->match, c.f.fmt.pix.sizeimage,
				   c.f.fmt.pix.pixelformat == V4L2_PIX_FMT_MJPEG,
				   &ref);
	if (o->out) {
		out = fopen(o->out, "wb");
		if (!out)
			die("%s: %s", o->out, strerror(errno));
	}
	cap_on(&c);
	for (i = 0; !stop && (!o->nframes || i < o->nframes); i++) {
		err = cap_dq(&c, &b);
		if (err)
			break;
		clock_gettime(CLOCK_MONOTONIC, &dq);
		if (!i)
			cpu_mark(&cm);
		st = input_status(c.fd);
		for (match = -1, k = 0; k < nref && match < 0; k++)
			if (b.bytesused == frame_len(k) &&
			    !memcmp(c.mem[b.index], ref + frame_at[k],
				    b.bytesused))
				match = k;
		if (out && fwrite(c.mem[b.index], 1, b.bytesused, out) != b.bytesused)
			die("%s: write failed", o->out);
		r[1].seq = b.sequence;
		if (i)
			count_step(r, 1, &sc);
		r[0].seq = b.sequence;
		printf("seq=%u status=%#lx match=%d flags=%#x ts=%ld.%06ld dq=%ld.%06ld\n",
		       b.sequence, st, match, b.flags, (long)b.timestamp.tv_sec,
		       (long)b.timestamp.tv_usec, (long)dq.tv_sec,
		       dq.tv_nsec / 1000);
		err = xioctl(c.fd, VIDIOC_QBUF, &b);
		if (err)
			break;
	}
	if (out)
		fclose(out);
	if (o->print_cpu && i)
		print_cpu(&cm, i - 1);
	printf("frames=%u gaps=%llu missing=%llu backwards=%llu\n", i,
	       (unsigned long long)sc.gaps, (unsigned long long)sc.missing,
	       (unsigned long long)sc.backwards);
	if (err) {
		printf("dqbuf: %s\n", strerror(-err));
		fflush(stdout);
		return 2;
	}
	cap_stop(&c, dev);
	if (close(c.fd))
		fail_call("close: %s", strerror(errno));
	return 0;
}

/* -S: "status=0xS" of input 0, without streaming */
static int print_status(const char *dev)
{
	int fd = open_dev(dev);
	long st = input_status(fd);

	if (st < 0)
		fail_call("ENUMINPUT: %s", strerror(-st));
	printf("status=%#lx\n", st);
	close(fd);
	return 0;
}

/* -t: a short bytesused is refused at QBUF, 0 and the full size are not */
static int check_short(const char *dev)
{
	struct opts o = { .mode = M_MMAP, .fourcc = parse_fourcc("YUYV"),
			  .w = 640, .h = 480, .nbufs = 3 };
	struct obuf b[MAX_BUFS];
	struct v4l2_buffer qb;
	struct v4l2_format f;
	int fd = open_dev(dev), r;
	size_t size;
	unsigned int i;
	const struct { unsigned int less; int want; const char *name; } c[] = {
		{ 1, -EINVAL, "QBUF with bytesused sizeimage - 1 fails with EINVAL" },
		{ 0, 0, "QBUF with bytesused sizeimage is taken" },
		{ ~0u, 0, "QBUF with bytesused 0 (the whole buffer) is taken" },
	};

	result_group = "bad input";
	s_fmt(fd, V4L2_BUF_TYPE_VIDEO_OUTPUT, &o, &f);
	size = f.fmt.pix.sizeimage;
	setup_bufs(fd, &o, size, b);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		memset(&qb, 0, sizeof(qb));
		qb.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
		qb.memory = V4L2_MEMORY_MMAP;
		qb.index = i;
		qb.field = V4L2_FIELD_NONE;
		qb.bytesused = c[i].less == ~0u ? 0 : size - c[i].less;
		r = xioctl(fd, VIDIOC_QBUF, &qb);
		result(r == c[i].want, c[i].name, "bytesused %u of %zu: %s",
		       qb.bytesused, size, r ? strerror(-r) : "taken");
	}
	close(fd);
	return result_failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .mode = M_MMAP, .fourcc = parse_fourcc("YUYV"),
			  .w = 640, .h = 480, .fps = 30, .nbufs = 4 };
	int opt, capture = 0, test = 0, status = 0;

	while ((opt = getopt(argc, argv, "m:f:s:l:r:n:C:b:e:PUcF:o:M:O:tS")) != -1) {
		switch (opt) {
		case 'm':
			if (!strcmp(optarg, "mmap"))
				o.mode = M_MMAP;
			else if (!strcmp(optarg, "userptr"))
				o.mode = M_USERPTR;
			else if (!strcmp(optarg, "dmabuf"))
				o.mode = M_DMABUF;
			else if (!strcmp(optarg, "write"))
				o.mode = M_WRITE;
			else
				die("bad mode '%s'", optarg);
			break;
		case 'f':
			o.fourcc = parse_fourcc(optarg);
			break;
		case 's':
			if (sscanf(optarg, "%ux%u", &o.w, &o.h) != 2)
				die("bad size '%s'", optarg);
			break;
		case 'l':
			o.bpl = parse_uint(optarg, "bytesperline");
			break;
		case 'r':
			o.fps = parse_uint(optarg, "rate");
			if (!o.fps)
				die("rate 0");
			break;
		case 'n':
			o.nframes = parse_uint(optarg, "frame count");
			break;
		case 'C':
			o.cycles = parse_uint(optarg, "cycle count");
			break;
		case 'b':
			o.nbufs = parse_uint(optarg, "buffer count");
			if (o.nbufs < 1 || o.nbufs > MAX_BUFS)
				die("buffer count 1..%d", MAX_BUFS);
			break;
		case 'e':
			o.export_dev = optarg;
			break;
		case 'P':
			o.print_ts = 1;
			break;
		case 'U':
			o.print_cpu = 1;
			break;
		case 'c':
			capture = 1;
			break;
		case 'F':
			o.list = optarg;
			break;
		case 'o':
			o.dir = optarg;
			break;
		case 'M':
			o.match = optarg;
			break;
		case 'O':
			o.out = optarg;
			break;
		case 't':
			test = 1;
			break;
		case 'S':
			status = 1;
			break;
		default:
			die("usage: see the comment at the top of vivi-produce.c");
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	catch_signals();
	if (test && optind + 1 == argc)
		return check_short(argv[optind]);
	if (status && optind + 1 == argc)
		return print_status(argv[optind]);
	if (capture && optind + 1 == argc) {
		if (o.list)
			return o.dir ? capture_list(argv[optind], &o) :
				       (die("-F needs -o DIR"), 1);
		return capture_stream(argv[optind], &o);
	}
	if (!capture && !test && optind + 2 == argc)
		return produce(argv[optind], argv[optind + 1], &o);
	die("usage: see the comment at the top of vivi-produce.c");
}
