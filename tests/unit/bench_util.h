/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_util.h - the clocks and the median of the userspace benchmarks
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stdlib.h>
#include <time.h>

#include <linux/types.h>

static inline u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* CPU time of the calling thread: time other jobs take does not count */
static inline u64 cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n samples; sorts @v. */
static inline double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), bench_cmp);
	return v[n / 2];
}

#endif
