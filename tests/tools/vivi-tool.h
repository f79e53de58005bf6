/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the userspace test and benchmark tools: an ioctl that
 * retries on EINTR and returns 0 or -errno (errno stays set), the monotonic
 * clock in ns and in seconds, and die(). Include it first: die() names the program through
 * the GNU program_invocation_short_name.
 */
#ifndef VIVI_TOOL_H
#define VIVI_TOOL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>

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

#endif
