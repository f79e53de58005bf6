// SPDX-License-Identifier: GPL-2.0
/*
 * vivi-opener - opens any /dev/video* node that appears, as a udev rule or
 * a camera application would while a module loads.
 *
 * Usage: vivi-opener MAX_SECONDS STOPFILE
 *
 * Prints "opener: ready", then spins trying to open every /dev/video*
 * until STOPFILE exists or MAX_SECONDS pass. A node that opens is held
 * for a second, then asked VIDIOC_QUERYCAP and closed; each open prints a
 * line at once (the close may run code of a module that is gone), and the
 * end a count. check-robust starts it before an insmod whose last device
 * fails to probe: no node of that load may open.
 */
#include "vivi-tool.h"
#include <fcntl.h>
#include <glob.h>
#include <unistd.h>

/* hold @path's file for a second, then QUERYCAP and close it */
static void hold(const char *path, int fd, double t0, unsigned int *caps_ok)
{
	struct v4l2_capability cap;

	printf("opener: opened %s at %.3f s\n", path, now_s() - t0);
	fflush(stdout);
	usleep(1000000);
	memset(&cap, 0, sizeof(cap));
	if (!xioctl(fd, VIDIOC_QUERYCAP, &cap)) {
		(*caps_ok)++;
		printf("opener: %s: QUERYCAP after the hold: driver %.16s\n",
		       path, (char *)cap.driver);
	} else {
		printf("opener: %s: QUERYCAP after the hold: %s\n", path,
		       strerror(errno));
	}
	fflush(stdout);
	close(fd);
}

int main(int argc, char **argv)
{
	unsigned int opens = 0, caps_ok = 0, tries = 0;
	double t0 = now_s(), max;
	glob_t g;
	size_t i;
	int fd;

	if (argc != 3)
		die("usage: vivi-opener MAX_SECONDS STOPFILE");
	max = parse_uint(argv[1], "seconds");
	printf("opener: ready\n");
	fflush(stdout);
	while (access(argv[2], F_OK) && now_s() - t0 < max) {
		tries++;
		if (glob("/dev/video*", 0, NULL, &g))
			continue;
		for (i = 0; i < g.gl_pathc; i++) {
			fd = open(g.gl_pathv[i], O_RDWR | O_NONBLOCK);
			if (fd < 0)
				continue;
			opens++;
			hold(g.gl_pathv[i], fd, t0, &caps_ok);
		}
		globfree(&g);
	}
	printf("opener: %u opens succeeded (%u QUERYCAP after the hold) in %u rounds over %.1f s\n",
	       opens, caps_ok, tries, now_s() - t0);
	return 0;
}
