// SPDX-License-Identifier: GPL-2.0
/*
 * One frame of a capture node, between its clock (vivi_stream.c) and the
 * pure code: where the picture comes from, what the frame shows at its
 * deadline (the picture controls, the on-screen text, the stamp's
 * wall-clock time), then its buffer filled, raw planes or MJPEG coded
 * band by band (vivi_draw.c).
 */

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/spinlock.h>
#include <media/videobuf2-v4l2.h>

#include "vivi.h"
#include "vivi_draw.h"
#include "vivi_scale.h"

#define VIVI_TEXT_LEN		40

/**
 * struct vivi_frame - what one frame shows, copied at its start
 * @src: where the picture comes from
 * @s: the picture settings; its text points into @text
 * @text: the on-screen text lines
 * @quality: the MJPEG quality
 * @fed: the producer's frame, with VIVI_SOURCE_FED
 * @fed_ref: what holds it while the frame is drawn; its jpeg_size is not 0
 *	while @fed is a JPEG to copy into the buffer as it is
 */
struct vivi_frame {
	struct vivi_source src;
	struct vivi_gen_settings s;
	char text[VIVI_GEN_TEXT_LINES][VIVI_TEXT_LEN];
	u32 quality;
	struct vivi_gen_frame fed;
	struct vivi_out_ref fed_ref;
};

/*
 * Where the picture comes from: the producer's newest frame while it
 * streams, or the last one of its last stream if @idle asks (@fr holds it
 * until vivi_frame_done()); else the pattern
 */
static void vivi_frame_source(struct vivi_cap *cap, struct vivi_frame *fr,
			      u32 idle)
{
	struct vivi_dev *vivi = cap->node.vivi;

	fr->src.type = VIVI_SOURCE_PATTERN;
	fr->src.fed = &fr->fed;
	fr->fed_ref = (struct vivi_out_ref){};
	if (vivi->cfg.producer &&
	    vivi_out_get(&vivi->out, &fr->fed, idle == VIVI_IDLE_LAST_FRAME,
			 &fr->fed_ref))
		fr->src.type = VIVI_SOURCE_FED;
}

/* The frame is drawn: the producer's buffer may go back */
static void vivi_frame_done(struct vivi_cap *cap, struct vivi_frame *fr)
{
	if (fr->src.type == VIVI_SOURCE_FED)
		vivi_out_put(&cap->node.vivi->out, &fr->fed_ref);
}

/*
 * A slate: black at the controls' defaults, and @line0 (and @line1, if
 * not NULL) of text whatever "OSD Text" says; the frame stamp as set
 */
static void vivi_frame_slate(struct vivi_frame *fr, const char *line0,
			     const char *line1)
{
	struct vivi_gen_settings *s = &fr->s;

	*s = (struct vivi_gen_settings){
		.pattern = VIVI_PAT_BLACK,
		.brightness = VIVI_GEN_BRIGHTNESS_DEF,
		.contrast = VIVI_GEN_CONTRAST_DEF,
		.saturation = VIVI_GEN_SATURATION_DEF,
		.hue = VIVI_GEN_HUE_DEF,
		.font = s->font,
		.stamp = s->stamp,
		.stamp_seq = s->stamp_seq,
		.stamp_ms = s->stamp_ms,
		.zoom = VIVI_GEN_ZOOM_MIN,
	};
	strscpy(fr->text[0], line0, VIVI_TEXT_LEN);
	s->text[0] = fr->text[0];
	if (line1) {
		strscpy(fr->text[1], line1, VIVI_TEXT_LEN);
		s->text[1] = fr->text[1];
	}
}

/*
 * A fed MJPEG frame goes on as it is to an MJPEG capture frame of its
 * size, if it fits (@fr keeps it); vivi has no decoder, so any other
 * capture frame shows a slate saying what would show the feed, and the
 * reference given back (vivi_out_put() clears it) says no JPEG is kept
 */
static void vivi_frame_jpeg_feed(struct vivi_cap *cap, struct vivi_frame *fr,
				 size_t room)
{
	const struct v4l2_pix_format *pix = &cap->node.fmt;
	char want[VIVI_TEXT_LEN];

	if (vivi_fmt_compressed(pix->pixelformat) &&
	    pix->width == fr->fed.width && pix->height == fr->fed.height &&
	    fr->fed_ref.jpeg_size <= room)
		return;
	snprintf(want, sizeof(want), "CAPTURE MJPG %ux%u", fr->fed.width,
		 fr->fed.height);
	vivi_frame_done(cap, fr);
	fr->src.type = VIVI_SOURCE_PATTERN;
	vivi_frame_slate(fr, "FORMAT: FEED IS MJPG", want);
}

/* The text of frame @sequence, due at @due_ns, as @osd_mode asks */
static void vivi_frame_text(const struct vivi_cap *cap, struct vivi_frame *fr,
			    u32 sequence, u64 due_ns, u32 osd_mode,
			    const struct v4l2_fract *tpf,
			    const struct vivi_camera_osd *cam)
{
	const struct v4l2_pix_format *pix = &cap->node.fmt;
	struct vivi_gen_settings *s = &fr->s;
	char (*text)[VIVI_TEXT_LEN] = fr->text;
	u32 fcc = pix->pixelformat;
	u64 ms = div_u64(due_ns - cap->stream_start_ns, NSEC_PER_MSEC);
	u32 msec, sec, fps_x10;
	char fps[12];
	unsigned int i;

	for (i = 0; i < VIVI_GEN_TEXT_LINES; i++)
		s->text[i] = NULL;
	if (!s->font || osd_mode == VIVI_OSD_NONE)
		return;

	msec = do_div(ms, 1000);
	sec = do_div(ms, 60 * 60);
	snprintf(text[0], VIVI_TEXT_LEN, "%06u %02llu:%02u:%02u.%03u",
		 sequence, ms, sec / 60, sec % 60, msec);
	s->text[0] = text[0];
	if (osd_mode != VIVI_OSD_ALL)
		return;
	if (vivi_camera_text(cam, text[3], VIVI_TEXT_LEN))
		s->text[3] = text[3];
	fps_x10 = vivi_fps_x10(tpf);
	if (fps_x10 % 10)
		snprintf(fps, sizeof(fps), "%u.%u", fps_x10 / 10, fps_x10 % 10);
	else
		snprintf(fps, sizeof(fps), "%u", fps_x10 / 10);
	snprintf(text[1], VIVI_TEXT_LEN, "%ux%u %sfps %c%c%c%c", pix->width,
		 pix->height, fps, fcc & 0xff, (fcc >> 8) & 0xff,
		 (fcc >> 16) & 0xff, fcc >> 24);
	snprintf(text[2], VIVI_TEXT_LEN, "B%d C%d S%d H%d", s->brightness,
		 s->contrast, s->saturation, s->hue);
	s->text[1] = text[1];
	s->text[2] = text[2];
}

/*
 * What frame @sequence, due at @due_ns, shows: its source, the settings of
 * this moment, the text and the stamp
 */
static void vivi_frame_look(struct vivi_cap *cap, struct vivi_frame *fr,
			    u32 sequence, u64 due_ns)
{
	struct vivi_dev *vivi = cap->node.vivi;
	struct vivi_camera_osd cam;
	struct v4l2_fract tpf;
	u32 osd_mode, idle;

	fr->src.pattern = &fr->s;
	fr->src.frame = sequence;
	spin_lock_irq(&vivi->slock);
	fr->s = cap->settings;
	osd_mode = cap->osd_mode;
	fr->src.aspect = cap->aspect;
	idle = cap->idle;
	cam = cap->camera_osd;
	tpf = cap->timeperframe;
	fr->quality = cap->jpeg_quality;
	spin_unlock_irq(&vivi->slock);
	fr->s.font = vivi->font;
	/* the wall-clock time of the deadline, as a browser's Date.now() */
	fr->s.stamp_seq = sequence;
	fr->s.stamp_ms = div_u64(ktime_get_real_ns() - ktime_get_ns() + due_ns,
				 NSEC_PER_MSEC);
	vivi_frame_text(cap, fr, sequence, due_ns, osd_mode, &tpf, &cam);
	vivi_frame_source(cap, fr, idle);
	if (vivi->cfg.producer && fr->src.type == VIVI_SOURCE_PATTERN &&
	    idle == VIVI_IDLE_NO_SIGNAL)
		vivi_frame_slate(fr, "NO SIGNAL", NULL);
}

/**
 * vivi_frame_fill() - draw one frame of a capture node into a buffer
 * @cap: the streaming capture node
 * @vb: the buffer, taken off the queue
 * @sequence: the frame's sequence number
 * @due_ns: its deadline, monotonic
 * @fed_ns: if not NULL, set to the timestamp of the producer's frame the
 *	picture shows, 0 if it shows none (the pattern, a slate, the copy of
 *	a last frame)
 *
 * The picture goes into raw planes, or is coded as MJPEG (then the payload
 * is its size). Called by the node's thread, which alone uses
 * &vivi_cap.scratch; counts the frame and its drawing time in
 * &vivi_cap.stats.
 *
 * Return: 0, or the error that left the buffer unfilled
 */
int vivi_frame_fill(struct vivi_cap *cap, struct vb2_buffer *vb,
		    u32 sequence, u64 due_ns, u64 *fed_ns)
{
	const struct v4l2_pix_format *pix = &cap->node.fmt;
	struct vivi_dev *vivi = cap->node.vivi;
	u8 *vaddr = vb2_plane_vaddr(vb, 0);
	struct vivi_gen_frame f;
	struct vivi_frame fr;
	size_t used;
	u64 t0, t;
	int ret;

	vivi_frame_look(cap, &fr, sequence, due_ns);
	if (fr.fed_ref.jpeg_size)
		vivi_frame_jpeg_feed(cap, &fr, vb2_plane_size(vb, 0));
	t0 = ktime_get_ns();
	if (!vaddr) {
		ret = -EFAULT;
	} else if (fr.fed_ref.jpeg_size) {
		memcpy(vaddr, fr.fed.plane[0], fr.fed_ref.jpeg_size);
		vb2_set_plane_payload(vb, 0, fr.fed_ref.jpeg_size);
		ret = 0;
	} else if (!vivi_fmt_compressed(pix->pixelformat)) {
		ret = vivi_fmt_plane_layout(pix, &f, vaddr) ?:
		      vivi_draw_planes(&fr.src, &f, cap->scratch);
	} else {
		/*
		 * The buffer holds the worst case of the quality it was sized
		 * for; a quality raised since then may not fit: -ENOSPC
		 */
		ret = vivi_draw_mjpeg(&fr.src, pix->width, pix->height,
				      fr.quality, vaddr, vb2_plane_size(vb, 0),
				      &used, cap->scratch);
		vb2_set_plane_payload(vb, 0, ret ? 0 : used);
	}
	t = ktime_get_ns() - t0;
	if (fed_ns)
		*fed_ns = fr.fed_ref.buf ? fr.fed_ref.buf->vb.vb2_buf.timestamp : 0;
	vivi_frame_done(cap, &fr);

	spin_lock_irq(&vivi->slock);
	cap->stats.generated++;
	cap->stats.gen_last_ns = t;
	cap->stats.gen_total_ns += t;
	cap->stats.gen_max_ns = max(cap->stats.gen_max_ns, t);
	spin_unlock_irq(&vivi->slock);
	return ret;
}

/**
 * vivi_frame_scratch_size() - the scratch memory of a capture node
 * @width: the widest frame it serves
 * @fed: it shows a producer's frames too, of any width it takes
 *
 * Return: the size in bytes, for frames up to @width wide, raw or MJPEG
 */
size_t vivi_frame_scratch_size(u32 width, bool fed)
{
	if (fed)
		return vivi_draw_fed_scratch_size(width, VIVI_MAX_WIDTH);
	return vivi_draw_scratch_size(width);
}
