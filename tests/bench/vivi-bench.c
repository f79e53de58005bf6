// SPDX-License-Identifier: GPL-2.0
/*
 * vivi-bench - capture from one or more V4L2 nodes at once and measure the
 * driver: pacing, dropped frames and the CPU time of its generator threads.
 * Works with any capture driver (vivi, vivid); used by make bench-vm.
 *
 * Usage: vivi-bench [options] /dev/videoN...
 *        vivi-bench -I SECS [options] /dev/videoN
 *   -f FOURCC   pixel format (default YUYV)
 *   -s WxH      frame size (default 640x360)
 *   -r FPS      frame rate for S_PARM, decimal (30, 12.5; default 30);
 *               the driver's answer (G_PARM) is the nominal interval
 *   -i INPUT    VIDIOC_S_INPUT first (default: leave the input alone)
 *   -b N        MMAP buffers to request (default 8)
 *   -n N        stop when every device delivered N frames (default 300)
 *   -d SECS     instead of -n: stream for SECS seconds after STREAMON
 *   -k PATTERN  the driver's generator threads: fnmatch() pattern on
 *               /proc/PID/comm, e.g. 'vivi-[0-9]*' or 'vivid-*-vid-cap'
 *   -c FILE     per-frame CSV (first device): index, sequence, buffer
 *               timestamp and dequeue time in us since the first buffer
 *               timestamp, |interval - nominal| of both in us
 *   -I SECS     idle probe, no streaming: open the device and keep it open
 *               SECS seconds, then S_FMT, then REQBUFS; prints the driver
 *               threads that exist and their CPU time and wake-ups while
 *               open, and the Slab and VmallocUsed deltas of /proc/meminfo
 *               over each step
 *
 * Buffers are dequeued with poll() + VIDIOC_DQBUF and requeued at once; the
 * payload is not touched. Right after DQBUF the tool reads CLOCK_MONOTONIC
 * (the dequeue time). The generator threads exist only while streaming, so
 * their CPU time (schedstat: sum_exec_runtime in ns; stat: utime + stime)
 * is sampled at the first and at the last dequeued frame and divided by the
 * frames delivered in between.
 *
 * Output: key=value lines. Per device (prefix devN_ when more than one):
 * frames, seq_gaps, dropped (sequence numbers skipped), error_buffers,
 * nominal_us, fps (delivered, from buffer timestamps), ts_err_us_p50/p99/
 * max, dq_err_us_p50/p99/max (|interval - dseq * nominal| of consecutive
 * frames) and ok (no drops, no errors, and with -d at least 98% of the
 * nominal frames, less one for the start). Totals: streams, streams_ok,
 * threads, thread_pids, cpu_ns_per_frame, cpu_stat_ms, wakeups_per_frame.
 * Exits 0 when the run completed (drops are reported, not errors), 1 on
 * any error (message on stderr).
 */
#include "../tools/vivi-tool.h"
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <unistd.h>

#define MAX_DEVS	16
#define MAX_BUFS	32
#define MAX_THREADS	64
#define POLL_MS		5000

struct dev {
	const char *path;
	int fd;
	unsigned int nbufs;
	void *mem[MAX_BUFS];
	size_t len[MAX_BUFS];
	struct v4l2_fract tpf;
	struct frame_rec *r;
	unsigned int n;		/* frames dequeued */
	uint64_t errors;
	int done;
};

/* CPU counters of one thread */
struct tcpu {
	int pid;
	uint64_t run_ns;	/* schedstat sum_exec_runtime */
	uint64_t ticks;		/* stat utime + stime */
	uint64_t csw;		/* voluntary + involuntary context switches */
};

static struct dev devs[MAX_DEVS];
static unsigned int ndevs;
static const char *kpat;

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* "12.5" fps as the interval 2/25 s */
static struct v4l2_fract parse_rate(const char *s)
{
	double fps;
	char *end;
	uint64_t num = 1000, den, g;

	errno = 0;
	fps = strtod(s, &end);
	if (errno || end == s || *end || !(fps > 0) || fps > 10000)
		die("bad rate '%s'", s);
	den = (uint64_t)(fps * 1000 + 0.5);
	g = gcd(num, den);
	return (struct v4l2_fract){ .numerator = num / g,
				    .denominator = den / g };
}

static int read_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int f = open(path, O_RDONLY);

	if (f < 0)
		return -1;
	n = read(f, buf, size - 1);
	close(f);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* counters of thread @pid; 0 or -1 if it is gone */
static int thread_cpu(int pid, struct tcpu *t)
{
	char path[64], buf[2048], *p;
	unsigned long long v[2];
	int i;

	memset(t, 0, sizeof(*t));
	t->pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	if (!read_file(path, buf, sizeof(buf)))
		t->run_ns = strtoull(buf, NULL, 10);
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	/* utime and stime are fields 14 and 15; comm may hold spaces */
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	for (i = 0; i < 12 && p; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu %llu", &v[0], &v[1]) != 2)
		return -1;
	t->ticks = v[0] + v[1];
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (!read_file(path, buf, sizeof(buf))) {
		p = strstr(buf, "voluntary_ctxt_switches:");
		while (p) {
			t->csw += strtoull(strchr(p, ':') + 1, NULL, 10);
			p = strstr(p + 1, "voluntary_ctxt_switches:");
		}
	}
	return 0;
}

/* the threads whose comm matches kpat, with their counters */
static unsigned int find_threads(struct tcpu *t, unsigned int max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	unsigned int n = 0;

	if (!d)
		die("opendir /proc: %s", strerror(errno));
	while ((e = readdir(d)) && n < max) {
		char path[300], comm[64];
		size_t len;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		if (read_file(path, comm, sizeof(comm)))
			continue;
		len = strlen(comm);
		if (len && comm[len - 1] == '\n')
			comm[len - 1] = '\0';
		if (fnmatch(kpat, comm, 0))
			continue;
		if (!thread_cpu(atoi(e->d_name), &t[n]))
			n++;
	}
	closedir(d);
	return n;
}

/* counters of the threads in @t now, summed; threads gone count as 0 */
static void sum_threads(const struct tcpu *t, unsigned int n,
			struct tcpu *sum)
{
	unsigned int i;
	struct tcpu c;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < n; i++) {
		if (thread_cpu(t[i].pid, &c))
			continue;
		sum->run_ns += c.run_ns;
		sum->ticks += c.ticks;
		sum->csw += c.csw;
	}
}

static long meminfo_kb(const char *key)
{
	char buf[8192], *p;
	size_t len = strlen(key);

	if (read_file("/proc/meminfo", buf, sizeof(buf)))
		die("read /proc/meminfo: %s", strerror(errno));
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, len) && p[len] == ':')
			return strtol(p + len + 1, NULL, 10);
	return -1;
}

struct mem {
	long slab, vmalloc;
};

static void mem_now(struct mem *m)
{
	m->slab = meminfo_kb("Slab");
	m->vmalloc = meminfo_kb("VmallocUsed");
}

static void mem_delta(const char *step, const struct mem *a,
		      const struct mem *b)
{
	printf("%s_slab_kb=%ld\n%s_vmalloc_kb=%ld\n", step, b->slab - a->slab,
	       step, b->vmalloc - a->vmalloc);
}

static void set_input(int f, int input)
{
	if (input >= 0 && xioctl(f, VIDIOC_S_INPUT, &input))
		die("S_INPUT %d: %s", input, strerror(errno));
}

/* -I: what an open, idle device costs */
static int idle_probe(struct dev *d, unsigned int secs, uint32_t fourcc,
		      unsigned int w, unsigned int h, unsigned int nbufs)
{
	struct tcpu t[MAX_THREADS], a, b;
	struct mem m0, m1, m2, m3, m4;
	unsigned int n0, n1, got;
	struct v4l2_format fmt;
	int64_t t0;

	n0 = kpat ? find_threads(t, MAX_THREADS) : 0;
	mem_now(&m0);
	d->fd = open(d->path, O_RDWR | O_NONBLOCK);
	if (d->fd < 0)
		die("open %s: %s", d->path, strerror(errno));
	mem_now(&m1);
	/* threads that exist while the device is open and idle */
	n1 = kpat ? find_threads(t, MAX_THREADS) : 0;
	sum_threads(t, n1, &a);
	t0 = now_ns();
	sleep(secs);
	sum_threads(t, n1, &b);
	mem_now(&m2);
	printf("idle_secs=%.2f\n", (now_ns() - t0) / 1e9);
	printf("threads_before_open=%u\nthreads_open=%u\n", n0, n1);
	printf("idle_cpu_ns=%llu\nidle_wakeups=%llu\n",
	       (unsigned long long)(b.run_ns - a.run_ns),
	       (unsigned long long)(b.csw - a.csw));
	set_format(d->fd, d->path, fourcc, w, h, &fmt);
	mem_now(&m3);
	got = reqbufs_mmap(d->fd, d->path, nbufs);
	mem_now(&m4);
	mem_delta("open", &m0, &m1);
	mem_delta("idle", &m1, &m2);
	mem_delta("s_fmt", &m2, &m3);
	mem_delta("reqbufs", &m3, &m4);
	printf("reqbufs_count=%u\nsizeimage=%u\n", got, fmt.fmt.pix.sizeimage);
	printf("reqbufs_frames_kb=%llu\n",
	       (unsigned long long)got * fmt.fmt.pix.sizeimage / 1024);
	reqbufs_mmap(d->fd, d->path, 0);
	close(d->fd);
	return 0;
}

/* the interval statistics and verdict of one device */
static int report_dev(struct dev *d, const char *pfx, double secs,
		      FILE *csv)
{
	double nominal = 1e9 * d->tpf.numerator / d->tpf.denominator;
	double *te = calloc(d->n + 1, sizeof(double));
	double *de = calloc(d->n + 1, sizeof(double));
	struct seq_count sc = { 0, 0, 0 };
	size_t ne = 0;
	unsigned int i;
	double fps = NAN;
	int ok;

	if (!te || !de)
		die("out of memory");
	if (csv)
		fprintf(csv, "index,sequence,timestamp_us,dequeue_us,"
			"ts_err_us,dq_err_us\n");
	for (i = 0; i < d->n; i++) {
		const struct frame_rec *r = &d->r[i];
		double e1 = NAN, e2 = NAN;

		if (i && count_step(d->r, i, &sc)) {
			interval_error(d->r, i, nominal, &e1, &e2);
			te[ne] = e1;
			de[ne++] = e2;
		}
		if (csv)
			fprintf(csv, "%u,%u,%.3f,%.3f,%.3f,%.3f\n", i, r->seq,
				(r->ts_ns - d->r[0].ts_ns) / 1e3,
				(r->dq_ns - d->r[0].ts_ns) / 1e3, e1, e2);
	}
	if (d->n >= 2 && d->r[d->n - 1].ts_ns > d->r[0].ts_ns)
		fps = (d->n - 1) * 1e9 /
		      (d->r[d->n - 1].ts_ns - d->r[0].ts_ns);
	ok = !sc.gaps && !sc.backwards && !d->errors && d->n >= 2;
	/* with -d: the stream kept up with the nominal rate */
	if (secs > 0 && d->n + 1 < 0.98 * secs * 1e9 / nominal)
		ok = 0;
	printf("%sframes=%u\n", pfx, d->n);
	printf("%sseq_first=%u\n%sseq_last=%u\n", pfx,
	       d->n ? d->r[0].seq : 0, pfx, d->n ? d->r[d->n - 1].seq : 0);
	printf("%sseq_gaps=%llu\n%sdropped=%llu\n%sseq_backwards=%llu\n", pfx,
	       (unsigned long long)sc.gaps, pfx,
	       (unsigned long long)sc.missing, pfx,
	       (unsigned long long)sc.backwards);
	printf("%serror_buffers=%llu\n", pfx, (unsigned long long)d->errors);
	printf("%sinterval=%u/%u\n%snominal_us=%.3f\n", pfx, d->tpf.numerator,
	       d->tpf.denominator, pfx, nominal / 1e3);
	printf("%sfps=%.3f\n", pfx, fps);
	print_stats(pfx, "ts_err_us", te, ne);
	print_stats(pfx, "dq_err_us", de, ne);
	printf("%sok=%d\n", pfx, ok);
	free(te);
	free(de);
	return ok;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: vivi-bench [-f FOURCC] [-s WxH] [-r FPS] [-i INPUT] [-b N]\n"
		"                  [-n N | -d SECS] [-k PATTERN] [-c CSV] DEV...\n"
		"       vivi-bench -I SECS [-f FOURCC] [-s WxH] [-b N] [-k PATTERN] DEV\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *csv = NULL;
	struct stream_opts so = { V4L2_PIX_FMT_YUYV, 640, 360, 8, MAX_BUFS,
				  300 };
	unsigned int nframes, idle = 0;
	struct v4l2_fract rate = { 1, 30 };
	double secs = 0;
	int input = -1, type = V4L2_BUF_TYPE_VIDEO_CAPTURE, opt;
	struct tcpu thr[MAX_THREADS], c0, c1;
	unsigned int nthr = 0, i, left, ok = 0;
	uint64_t total = 0, at_c0 = 0, at_c1 = 0;
	int64_t t_start, t_end = 0;
	FILE *cf = NULL;

	memset(&c0, 0, sizeof(c0));
	memset(&c1, 0, sizeof(c1));
	while ((opt = getopt(argc, argv, "f:s:r:i:b:n:d:k:c:I:h")) != -1) {
		switch (opt) {
		case 'r':
			rate = parse_rate(optarg);
			break;
		case 'i':
			input = parse_uint(optarg, "input");
			break;
		case 'd':
			secs = parse_uint(optarg, "duration");
			break;
		case 'k':
			kpat = optarg;
			break;
		case 'c':
			csv = optarg;
			break;
		case 'I':
			idle = parse_uint(optarg, "idle seconds");
			break;
		default:
			if (!stream_option(opt, optarg, &so))
				usage();
		}
	}
	nframes = so.nframes;
	if (optind >= argc || argc - optind > MAX_DEVS || nframes < 2)
		usage();
	ndevs = argc - optind;
	for (i = 0; i < ndevs; i++)
		devs[i].path = argv[optind + i];
	if (idle) {
		if (ndevs != 1)
			usage();
		return idle_probe(&devs[0], idle, so.fourcc, so.w, so.h,
				  so.nbufs);
	}
	/* frames to record: -d gets room for twice the nominal count */
	if (secs > 0)
		nframes = (unsigned int)(2 * secs * rate.denominator /
					 rate.numerator) + 16;

	for (i = 0; i < ndevs; i++) {
		struct dev *d = &devs[i];
		struct v4l2_format fmt;

		d->fd = open(d->path, O_RDWR | O_NONBLOCK);
		if (d->fd < 0)
			die("open %s: %s", d->path, strerror(errno));
		set_input(d->fd, input);
		set_format(d->fd, d->path, so.fourcc, so.w, so.h, &fmt);
		d->tpf = set_interval(d->fd, d->path, rate);
		d->nbufs = reqbufs_mmap(d->fd, d->path, so.nbufs);
		if (d->nbufs < 1 || d->nbufs > MAX_BUFS)
			die("%s: REQBUFS gave %u buffers", d->path, d->nbufs);
		map_and_queue(d->fd, d->path, d->nbufs, d->mem, d->len);
		d->r = calloc(nframes, sizeof(*d->r));
		if (!d->r)
			die("out of memory");
	}
	t_start = now_ns();
	for (i = 0; i < ndevs; i++)
		if (xioctl(devs[i].fd, VIDIOC_STREAMON, &type))
			die("%s: STREAMON: %s", devs[i].path, strerror(errno));
	if (secs > 0)
		t_end = t_start + (int64_t)(secs * 1e9);

	for (left = ndevs; left;) {
		struct pollfd pfd[MAX_DEVS];
		int pr, timeout = POLL_MS;

		for (i = 0; i < ndevs; i++) {
			pfd[i].fd = devs[i].done ? -1 : devs[i].fd;
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		if (t_end) {
			int64_t rest = (t_end - now_ns()) / 1000000;

			if (rest <= 0)
				break;
			if (rest < timeout)
				timeout = rest + 1;
		}
		pr = poll(pfd, ndevs, timeout);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			die("poll: %s", strerror(errno));
		if (!pr && !t_end)
			die("no frame within %d ms", POLL_MS);
		for (i = 0; i < ndevs; i++) {
			struct dev *d = &devs[i];
			struct v4l2_buffer b;
			struct frame_rec *r;

			if (d->done || !(pfd[i].revents & (POLLIN | POLLERR)))
				continue;
			mmap_buffer(&b, 0);
			if (xioctl(d->fd, VIDIOC_DQBUF, &b)) {
				if (errno == EAGAIN)
					continue;
				die("%s: DQBUF: %s", d->path, strerror(errno));
			}
			r = &d->r[d->n];
			r->dq_ns = now_ns();
			if (t_end && r->dq_ns > t_end) {
				/* past the window: not counted */
				qbuf_mmap(d->fd, d->path, b.index);
				continue;
			}
			r->seq = b.sequence;
			r->ts_ns = buf_ts_ns(&b);
			if (b.flags & V4L2_BUF_FLAG_ERROR)
				d->errors++;
			d->n++;
			total++;
			if (kpat && total == 1) {
				/* the threads run now; start counting */
				nthr = find_threads(thr, MAX_THREADS);
				sum_threads(thr, nthr, &c0);
				at_c0 = total;
			}
			if (d->n == nframes) {
				d->done = 1;
				left--;
			}
			if (!left && kpat) {
				/* the last frame, before STREAMOFF */
				sum_threads(thr, nthr, &c1);
				at_c1 = total;
			}
			if (!d->done)
				qbuf_mmap(d->fd, d->path, b.index);
		}
	}
	if (kpat && !at_c1) {
		sum_threads(thr, nthr, &c1);
		at_c1 = total;
	}
	for (i = 0; i < ndevs; i++)
		if (xioctl(devs[i].fd, VIDIOC_STREAMOFF, &type))
			die("%s: STREAMOFF: %s", devs[i].path,
			    strerror(errno));

	printf("format=%.4s %ux%u\n", (char *)&so.fourcc, so.w, so.h);
	printf("streams=%u\nbuffers=%u\n", ndevs, devs[0].nbufs);
	if (csv) {
		cf = fopen(csv, "w");
		if (!cf)
			die("open %s: %s", csv, strerror(errno));
	}
	for (i = 0; i < ndevs; i++) {
		char pfx[16] = "";

		if (ndevs > 1)
			snprintf(pfx, sizeof(pfx), "dev%u_", i);
		ok += report_dev(&devs[i], pfx, secs, i ? NULL : cf);
	}
	if (cf && fclose(cf))
		die("write %s: %s", csv, strerror(errno));
	printf("streams_ok=%u\n", ok);
	printf("frames_total=%llu\n", (unsigned long long)total);
	if (kpat) {
		uint64_t n = at_c1 - at_c0;
		long hz = sysconf(_SC_CLK_TCK);

		printf("threads=%u\nthread_pids=", nthr);
		for (i = 0; i < nthr; i++)
			printf("%s%d", i ? "," : "", thr[i].pid);
		printf("\n");
		printf("cpu_frames=%llu\n", (unsigned long long)n);
		printf("cpu_ns=%llu\n",
		       (unsigned long long)(c1.run_ns - c0.run_ns));
		printf("cpu_stat_ms=%.1f\n",
		       (c1.ticks - c0.ticks) * 1e3 / (hz > 0 ? hz : 100));
		printf("cpu_ns_per_frame=%.0f\n",
		       n ? (double)(c1.run_ns - c0.run_ns) / n : NAN);
		printf("wakeups_per_frame=%.2f\n",
		       n ? (double)(c1.csw - c0.csw) / n : NAN);
	}
	for (i = 0; i < ndevs; i++)
		close(devs[i].fd);
	return 0;
}
