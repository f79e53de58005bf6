// SPDX-License-Identifier: GPL-2.0
/*
 * vivi-timing - stream from a V4L2 capture node and measure its pacing.
 *
 * Usage: vivi-timing [options] /dev/videoN
 *        vivi-timing -B [-r FPS] [-n N] [-E FILE]
 *   -f FOURCC   pixel format (default YUYV; "Y16" is padded with a space)
 *   -s WxH      frame size (default 640x480)
 *   -r FPS      frame rate, set with S_PARM before streaming (default 30)
 *   -b N        MMAP buffers to request (default 8)
 *   -n N        frames to dequeue (default 300)
 *   -H F:K      after dequeuing frame index F (0-based), stop queueing
 *               buffers; once every buffer is back in userspace, queue them
 *               all again K + 1/2 frame periods after the last one's
 *               timestamp, midway between two deadlines (starves the queue
 *               for K deadlines)
 *   -R F:FPS    after frame index F, S_PARM FPS from a second file handle
 *   -C F:NAME=V after frame index F, set control NAME (as v4l2-ctl spells
 *               it, e.g. brightness, test_pattern) to V from a second file
 *               handle
 *   -S NAME=V   set control NAME to V before streaming
 *               (-C and -S together up to 16 times)
 *   -o DIR      write each frame's payload to DIR/SEQUENCE.raw (%06u)
 *   -O FILE     write the frames' payloads one after the other to FILE
 *   -E FILE     append each interval error of the buffer timestamps (with
 *               -B, of the wake-ups) to FILE, in microseconds, one a line:
 *               several runs pool into one distribution
 *   -c FILE     per-frame CSV: index, sequence, buffer timestamp and
 *               dequeue time in microseconds since the first buffer
 *               timestamp, bytesused, flags
 *   -B          no device: the platform's own timer jitter, for comparison.
 *               N wake-ups from clock_nanosleep(TIMER_ABSTIME) at absolute
 *               deadlines 1/FPS apart, like the driver's; prints
 *               sleep_late_us_p50/p99/max (wake-up - deadline) and
 *               sleep_err_us_p50/p99/max (|interval - 1/FPS|)
 *
 * SIGUSR1 ends the capture after the frame in hand, as if -n had been the
 * number dequeued so far: a client that streams for as long as something
 * else runs (check-configfs's cycles), and still reports its sequence.
 *
 * Every buffer is dequeued with poll() + VIDIOC_DQBUF; right after DQBUF
 * the tool reads CLOCK_MONOTONIC (the "dequeue time"). The summary on
 * stdout is one key=value per line:
 *   frames, seq_first, seq_last, seq_gaps (pairs of consecutive frames
 *   whose sequence numbers differ by more than one), seq_missing (the
 *   sequence numbers skipped), seq_backwards, error_buffers, flags_ok (all
 *   buffers MONOTONIC | TSTAMP_SRC_EOF), nominal_us (the interval G_PARM
 *   reports), ts_mean_us ((last - first timestamp) / sequence span),
 *   ts_err_us_p50/p99/max and dq_err_us_p50/p99/max (|interval - dseq *
 *   nominal| over consecutive frames, for buffer timestamps and dequeue
 *   times), ts_to_dq_us_min/p50/max (dequeue time - buffer timestamp).
 *   With -R, the interval statistics cover only the frames up to the rate
 *   change. Actions add their own keys (hold_*, rate_*, ctrl_*); *_at_us
 *   is when the action ran, on the time base of the CSV.
 * Exits 0 after n frames, 1 on any error (message on stderr).
 */
#include "vivi-tool.h"
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#define MAX_BUFS	32
#define MAX_CTRLS	16
#define POLL_MS		3000

struct ctrl_action {
	int before;		/* -S: set before streaming */
	unsigned int at;
	char name[64];
	int value;
	uint32_t id;
	int done;
	uint32_t after_seq;
	int64_t at_ns;		/* CLOCK_MONOTONIC when it was set */
};

static const char *dev_path;
static volatile sig_atomic_t stop_asked;	/* SIGUSR1 */
static int fd = -1, fd2 = -1;
static void *bufmem[MAX_BUFS];
static size_t buflen[MAX_BUFS];

static void on_sigusr1(int sig)
{
	(void)sig;
	stop_asked = 1;
}

static void sleep_until(int64_t t)
{
	struct timespec ts = {
		.tv_sec = t / 1000000000,
		.tv_nsec = t % 1000000000,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* "F:REST": F into *at, returns REST */
static char *parse_at(char *arg, unsigned int *at, const char *what)
{
	char *colon = strchr(arg, ':');

	if (!colon)
		die("%s wants F:..., got '%s'", what, arg);
	*colon = '\0';
	*at = parse_uint(arg, what);
	return colon + 1;
}

/* v4l2-ctl's spelling of a control name: lower case, '_' between words */
static void ctrl_var_name(const char *name, char *out, size_t size)
{
	size_t n = 0;
	int sep = 0;

	for (; *name && n + 1 < size; name++) {
		unsigned char c = *name;

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (sep && n)
				out[n++] = '_';
			sep = 0;
			if (n + 1 < size)
				out[n++] = c;
		} else if (c >= 'A' && c <= 'Z') {
			if (sep && n)
				out[n++] = '_';
			sep = 0;
			if (n + 1 < size)
				out[n++] = c - 'A' + 'a';
		} else {
			sep = 1;
		}
	}
	out[n] = '\0';
}

static uint32_t find_ctrl(int f, const char *want)
{
	struct v4l2_query_ext_ctrl q;
	char var[64];

	memset(&q, 0, sizeof(q));
	q.id = V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
	while (!xioctl(f, VIDIOC_QUERY_EXT_CTRL, &q)) {
		if (q.type != V4L2_CTRL_TYPE_CTRL_CLASS) {
			ctrl_var_name(q.name, var, sizeof(var));
			if (!strcmp(var, want))
				return q.id;
		}
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
	}
	die("%s has no control '%s'", dev_path, want);
	return 0;
}

static void set_ctrl(struct ctrl_action *c)
{
	struct v4l2_control v = { .id = c->id, .value = c->value };

	if (xioctl(fd2, VIDIOC_S_CTRL, &v))
		die("S_CTRL %s=%d: %s", c->name, c->value, strerror(errno));
	c->at_ns = now_ns();
	c->done = 1;
}

/* "NAME=V" into @c */
static void parse_ctrl(struct ctrl_action *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *end;

	if (!eq || eq == arg || eq - arg >= (long)sizeof(c->name))
		die("bad control setting '%s', want NAME=VALUE", arg);
	memcpy(c->name, arg, eq - arg);
	c->name[eq - arg] = '\0';
	errno = 0;
	c->value = strtol(eq + 1, &end, 0);
	if (errno || end == eq + 1 || *end)
		die("bad control value in '%s'", arg);
}

/*
 * Where the frames with sequence numbers in [lo, hi] sit on the frame grid
 * that starts at the first frame: the median of (timestamp - sequence *
 * period), in ns. A median, so that one late wake-up does not count.
 */
static double grid_offset(const struct frame_rec *r, unsigned int n, uint32_t lo,
			  uint32_t hi, double period)
{
	double *o = calloc(n ? n : 1, sizeof(*o)), m;
	unsigned int i, k = 0;

	if (!o)
		die("out of memory");
	for (i = 0; i < n; i++)
		if (r[i].seq >= lo && r[i].seq <= hi)
			o[k++] = (r[i].ts_ns - r[0].ts_ns) -
				 (double)(r[i].seq - r[0].seq) * period;
	m = pct(o, k, 50);
	free(o);
	return m;
}

/* -E: append @n interval errors to @path, if set */
static void append_errors(const char *path, const double *v, size_t n)
{
	FILE *f;
	size_t i;

	if (!path)
		return;
	f = fopen(path, "a");
	if (!f)
		die("open %s: %s", path, strerror(errno));
	for (i = 0; i < n; i++)
		fprintf(f, "%.1f\n", v[i]);
	if (fclose(f))
		die("write %s: %s", path, strerror(errno));
}

/* -B: absolute-deadline sleeps, the way the driver's thread paces frames */
static int sleep_baseline(unsigned int fps, unsigned int n, const char *errs)
{
	double *late = calloc(n, sizeof(*late)), *err = calloc(n, sizeof(*err));
	int64_t period = 1000000000LL / fps, t0 = now_ns(), prev = 0;
	unsigned int i;

	if (!late || !err)
		die("out of memory");
	for (i = 0; i < n; i++) {
		int64_t due = t0 + (int64_t)(i + 1) * period, t;

		sleep_until(due);
		t = now_ns();
		late[i] = (t - due) / 1e3;
		if (i)
			err[i - 1] = dabs((double)(t - prev - period)) / 1e3;
		prev = t;
	}
	append_errors(errs, err, n - 1);
	printf("sleep_wakeups=%u\nsleep_period_us=%.3f\n", n, period / 1e3);
	print_stats("", "sleep_late_us", late, n);
	print_stats("", "sleep_err_us", err, n - 1);
	free(late);
	free(err);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: vivi-timing [-f FOURCC] [-s WxH] [-r FPS] [-b N] [-n N]\n"
		"                   [-H F:K] [-R F:FPS] [-C F:NAME=V]... [-S NAME=V]...\n"
		"                   [-o DIR] [-O FILE] [-c FILE] [-E FILE] /dev/videoN\n"
		"       vivi-timing -B [-r FPS] [-n N] [-E FILE]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *outdir = NULL, *csv = NULL, *outfile = NULL, *errs = NULL;
	struct stream_opts so = { V4L2_PIX_FMT_YUYV, 640, 480, 8, MAX_BUFS,
				  300 };
	unsigned int w, h, fps = 30, nbufs, nframes;
	unsigned int hold_at = 0, hold_k = 0, rate_at = 0, rate_fps = 0;
	int have_hold = 0, have_rate = 0;
	struct ctrl_action ctrls[MAX_CTRLS];
	unsigned int nctrls = 0;
	struct v4l2_format fmt;
	struct sigaction sa;
	struct v4l2_fract tpf, tpf2 = { 0, 0 };
	struct frame_rec *r;
	double nominal_ns, *ts_err, *dq_err, *lat;
	size_t nerr = 0, nlat = 0;
	unsigned int held[MAX_BUFS], nheld = 0, i, stat_end;
	int holding = 0, hold_done = 0, rate_done = 0;
	uint32_t hold_last_seq = 0, rate_after_seq = 0;
	int64_t hold_last_ts = 0, hold_requeue_ns = 0, hold_empty_ns = 0;
	int64_t rate_at_ns = 0;
	struct seq_count sc = { 0, 0, 0 };
	uint64_t errors = 0;
	int flags_ok = 1, opt, type = V4L2_BUF_TYPE_VIDEO_CAPTURE, baseline = 0;
	FILE *cf = NULL, *of = NULL;
	char *arg;

	while ((opt = getopt(argc, argv, "f:s:r:b:n:H:R:C:S:o:O:c:E:Bh")) != -1) {
		switch (opt) {
		case 'r':
			fps = parse_uint(optarg, "rate");
			break;
		case 'H':
			arg = parse_at(optarg, &hold_at, "-H");
			hold_k = parse_uint(arg, "-H periods");
			have_hold = 1;
			break;
		case 'R':
			arg = parse_at(optarg, &rate_at, "-R");
			rate_fps = parse_uint(arg, "-R rate");
			have_rate = 1;
			break;
		case 'C':
		case 'S': {
			struct ctrl_action *c;

			if (nctrls == MAX_CTRLS)
				die("at most %d -C and -S", MAX_CTRLS);
			c = &ctrls[nctrls++];
			memset(c, 0, sizeof(*c));
			if (opt == 'S') {
				c->before = 1;
				parse_ctrl(c, optarg);
			} else {
				parse_ctrl(c, parse_at(optarg, &c->at, "-C"));
			}
			break;
		}
		case 'o':
			outdir = optarg;
			break;
		case 'O':
			outfile = optarg;
			break;
		case 'c':
			csv = optarg;
			break;
		case 'E':
			errs = optarg;
			break;
		case 'B':
			baseline = 1;
			break;
		default:
			if (!stream_option(opt, optarg, &so))
				usage();
		}
	}
	w = so.w;
	h = so.h;
	nbufs = so.nbufs;
	nframes = so.nframes;
	if (baseline) {
		if (optind != argc || nframes < 2 || !fps)
			usage();
		return sleep_baseline(fps, nframes, errs);
	}
	if (optind != argc - 1 || nframes < 1)
		usage();
	dev_path = argv[optind];

	fd = open(dev_path, O_RDWR | O_NONBLOCK);
	if (fd < 0)
		die("open %s: %s", dev_path, strerror(errno));
	fd2 = open(dev_path, O_RDWR);
	if (fd2 < 0)
		die("open %s (second handle): %s", dev_path, strerror(errno));
	for (i = 0; i < nctrls; i++) {
		ctrls[i].id = find_ctrl(fd2, ctrls[i].name);
		if (ctrls[i].before)
			set_ctrl(&ctrls[i]);
	}
	if (outfile) {
		of = fopen(outfile, "wb");
		if (!of)
			die("open %s: %s", outfile, strerror(errno));
	}

	set_format(fd, dev_path, so.fourcc, w, h, &fmt);
	tpf = set_interval(fd, dev_path, (struct v4l2_fract){ 1, fps });
	nominal_ns = 1e9 * tpf.numerator / tpf.denominator;
	nbufs = reqbufs_mmap(fd, dev_path, nbufs);
	if (nbufs < 1 || nbufs > MAX_BUFS)
		die("REQBUFS gave %u buffers", nbufs);
	map_and_queue(fd, dev_path, nbufs, bufmem, buflen);

	r = calloc(nframes, sizeof(*r));
	ts_err = calloc(nframes, sizeof(*ts_err));
	dq_err = calloc(nframes, sizeof(*dq_err));
	lat = calloc(nframes, sizeof(*lat));
	if (!r || !ts_err || !dq_err || !lat)
		die("out of memory");

	/* no SA_RESTART: a poll() in progress returns EINTR */
	sa.sa_handler = on_sigusr1;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGUSR1, &sa, NULL);

	if (xioctl(fd, VIDIOC_STREAMON, &type))
		die("STREAMON: %s", strerror(errno));

	for (i = 0; i < nframes && !stop_asked; i++) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct v4l2_buffer b;
		unsigned int k;
		int pr;

		for (;;) {
			pr = poll(&pfd, 1, POLL_MS);
			if (pr < 0 && errno == EINTR && stop_asked)
				break;
			if (pr < 0 && errno == EINTR)
				continue;
			if (pr < 0)
				die("poll: %s", strerror(errno));
			if (!pr)
				die("no frame within %d ms (frame index %u)",
				    POLL_MS, i);
			mmap_buffer(&b, 0);
			if (!xioctl(fd, VIDIOC_DQBUF, &b))
				break;
			if (errno != EAGAIN)
				die("DQBUF: %s", strerror(errno));
		}
		if (pr < 0)	/* SIGUSR1 while waiting: no frame in hand */
			break;
		r[i].dq_ns = now_ns();
		r[i].seq = b.sequence;
		r[i].flags = b.flags;
		r[i].bytesused = b.bytesused;
		r[i].ts_ns = buf_ts_ns(&b);
		if (b.index >= nbufs)
			die("DQBUF returned index %u", b.index);
		if (b.flags & V4L2_BUF_FLAG_ERROR)
			errors++;
		if ((b.flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) !=
		    V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC ||
		    (b.flags & V4L2_BUF_FLAG_TSTAMP_SRC_MASK) !=
		    V4L2_BUF_FLAG_TSTAMP_SRC_EOF)
			flags_ok = 0;

		if (outdir) {
			char path[4096];
			FILE *f;
			size_t n = b.bytesused < buflen[b.index] ?
				   b.bytesused : buflen[b.index];

			snprintf(path, sizeof(path), "%s/%06u.raw", outdir,
				 b.sequence);
			f = fopen(path, "wb");
			if (!f || fwrite(bufmem[b.index], 1, n, f) != n ||
			    fclose(f))
				die("write %s: %s", path, strerror(errno));
		}
		if (of) {
			size_t n = b.bytesused < buflen[b.index] ?
				   b.bytesused : buflen[b.index];

			if (fwrite(bufmem[b.index], 1, n, of) != n)
				die("write %s: %s", outfile, strerror(errno));
		}

		/* actions, right after dequeuing frame index i */
		if (have_hold && !hold_done && !holding && i == hold_at)
			holding = 1;
		if (have_rate && !rate_done && i == rate_at) {
			tpf2 = set_interval(fd2, dev_path,
					    (struct v4l2_fract){ 1, rate_fps });
			rate_at_ns = now_ns();
			rate_after_seq = b.sequence;
			rate_done = 1;
		}
		for (k = 0; k < nctrls; k++) {
			if (ctrls[k].done || ctrls[k].at != i)
				continue;
			set_ctrl(&ctrls[k]);
			ctrls[k].after_seq = b.sequence;
		}

		if (!holding) {
			qbuf_mmap(fd, dev_path, b.index);
			continue;
		}
		held[nheld++] = b.index;
		if (nheld < nbufs)
			continue;
		/*
		 * Every buffer is here: the driver has none for the next
		 * hold_k deadlines. Requeue midway to the one after, so that
		 * a late wake-up on either side cannot change the count.
		 */
		hold_last_seq = b.sequence;
		hold_last_ts = r[i].ts_ns;
		hold_empty_ns = r[i].dq_ns;
		sleep_until(hold_last_ts + (int64_t)((hold_k + 0.5) * nominal_ns));
		hold_requeue_ns = now_ns();
		for (k = 0; k < nheld; k++)
			qbuf_mmap(fd, dev_path, held[k]);
		nheld = 0;
		holding = 0;
		hold_done = 1;
	}
	if (xioctl(fd, VIDIOC_STREAMOFF, &type))
		die("STREAMOFF: %s", strerror(errno));
	if (i < nframes) {
		if (!i)
			die("stopped (SIGUSR1) before the first frame");
		nframes = i;	/* the summary covers the frames dequeued */
	}
	if (of && fclose(of))
		die("write %s: %s", outfile, strerror(errno));

	/* the interval statistics stop at a rate change */
	stat_end = nframes;
	if (rate_done)
		for (i = 0; i < nframes; i++)
			if (r[i].seq == rate_after_seq) {
				stat_end = i + 1;
				break;
			}
	for (i = 0; i < nframes; i++) {
		double d = (double)(r[i].dq_ns - r[i].ts_ns);

		lat[nlat++] = d;
		if (i && count_step(r, i, &sc) && i < stat_end) {
			interval_error(r, i, nominal_ns, &ts_err[nerr],
				       &dq_err[nerr]);
			nerr++;
		}
	}

	if (csv) {
		cf = fopen(csv, "w");
		if (!cf)
			die("open %s: %s", csv, strerror(errno));
		fprintf(cf, "index,sequence,timestamp_us,dequeue_us,bytesused,flags\n");
		for (i = 0; i < nframes; i++)
			fprintf(cf, "%u,%u,%.3f,%.3f,%u,0x%08x\n", i, r[i].seq,
				(r[i].ts_ns - r[0].ts_ns) / 1e3,
				(r[i].dq_ns - r[0].ts_ns) / 1e3, r[i].bytesused,
				r[i].flags);
		if (fclose(cf))
			die("write %s: %s", csv, strerror(errno));
	}

	printf("format=%.4s %ux%u\n", (char *)&fmt.fmt.pix.pixelformat,
	       fmt.fmt.pix.width, fmt.fmt.pix.height);
	printf("interval=%u/%u\n", tpf.numerator, tpf.denominator);
	printf("buffers=%u\n", nbufs);
	printf("frames=%u\n", nframes);
	printf("seq_first=%u\nseq_last=%u\n", r[0].seq, r[nframes - 1].seq);
	printf("seq_gaps=%llu\nseq_missing=%llu\nseq_backwards=%llu\n",
	       (unsigned long long)sc.gaps, (unsigned long long)sc.missing,
	       (unsigned long long)sc.backwards);
	printf("error_buffers=%llu\n", (unsigned long long)errors);
	printf("flags_ok=%d\n", flags_ok);
	printf("nominal_us=%.3f\n", nominal_ns / 1e3);
	/* the CSV's time base, to line it up with other traces */
	printf("ts_first_ns=%lld\n", (long long)r[0].ts_ns);
	if (stat_end >= 2 && r[stat_end - 1].seq > r[0].seq)
		printf("ts_mean_us=%.3f\n",
		       (r[stat_end - 1].ts_ns - r[0].ts_ns) / 1e3 /
		       (r[stat_end - 1].seq - r[0].seq));
	for (i = 0; i < nlat; i++)
		lat[i] /= 1e3;
	append_errors(errs, ts_err, nerr);
	print_stats("", "ts_err_us", ts_err, nerr);
	print_stats("", "dq_err_us", dq_err, nerr);
	printf("ts_to_dq_us_min=%.1f\n", pct(lat, nlat, 0));
	print_stats("", "ts_to_dq_us", lat, nlat);

	if (have_hold) {
		printf("hold_done=%d\n", hold_done);
		if (hold_done) {
			uint32_t next = hold_last_seq;
			int64_t next_ts = 0;
			double before, after;

			for (i = 0; i + 1 < nframes; i++)
				if (r[i].seq == hold_last_seq) {
					next = r[i + 1].seq;
					next_ts = r[i + 1].ts_ns;
					break;
				}
			printf("hold_last_seq=%u\nhold_next_seq=%u\n",
			       hold_last_seq, next);
			printf("hold_gap=%u\n", next - hold_last_seq - 1);
			/*
			 * deadlines that passed with no buffer queued, from
			 * the grid before the gap rather than the last
			 * frame's own (maybe late) timestamp
			 */
			before = grid_offset(r, nframes, 0, hold_last_seq,
					     nominal_ns);
			after = grid_offset(r, nframes, hold_last_seq + 1,
					    UINT32_MAX, nominal_ns);
			printf("hold_expected=%.2f\n",
			       (hold_requeue_ns - r[0].ts_ns - before) /
			       nominal_ns - (hold_last_seq - r[0].seq));
			printf("hold_empty_us=%.1f\n",
			       (hold_requeue_ns - hold_empty_ns) / 1e3);
			printf("hold_ts_periods=%.3f\n",
			       next_ts ? (next_ts - hold_last_ts) / nominal_ns :
					 NAN);
			/* how far the grid after the gap is shifted */
			printf("hold_grid_periods=%.3f\n",
			       (after - before) / nominal_ns);
		}
	}
	if (have_rate) {
		printf("rate_done=%d\n", rate_done);
		if (rate_done)
			printf("rate_after_seq=%u\nrate_at_us=%.3f\n"
			       "rate_interval=%u/%u\n", rate_after_seq,
			       (rate_at_ns - r[0].ts_ns) / 1e3, tpf2.numerator,
			       tpf2.denominator);
	}
	for (i = 0; i < nctrls; i++)
		if (ctrls[i].done && !ctrls[i].before)
			printf("ctrl_%s_after_seq=%u\nctrl_%s_at_us=%.3f\n",
			       ctrls[i].name, ctrls[i].after_seq, ctrls[i].name,
			       (ctrls[i].at_ns - r[0].ts_ns) / 1e3);
	for (i = 0; i < nbufs; i++)
		munmap(bufmem[i], buflen[i]);
	close(fd2);
	close(fd);
	free(r);
	free(ts_err);
	free(dq_err);
	free(lat);
	return 0;
}
