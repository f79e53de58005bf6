// SPDX-License-Identifier: GPL-2.0
/*
 * The pure test-pattern generator of vivi: the hub of the pattern path.
 *
 * How a frame is drawn:
 *
 * 1. The pattern's few colors (8 bars + box, 2 checker squares, 256 grays,
 *    1 solid) become a palette (vivi_pattern.c, with the sensor and the
 *    picture controls of vivi_color.c): converted once to the format's
 *    color space (BT.601 limited Y'CbCr, or full-range R'G'B'), with the
 *    controls applied in Y'CbCr, and pre-encoded for the byte-per-pixel
 *    formats (vivi_pack.c).
 * 2. Each picture row is a line of palette indices. Rows that must look the
 *    same share a "row class" (all rows of the bars, each checker band,
 *    each gray level of the vertical ramp); noise rows are all different.
 * 3. Each plane line is a pure function of the classes of the picture rows
 *    it covers (two rows for 4:2:0 chroma) and, for Bayer, of the row
 *    parity. It is packed once (vivi_convert()) into a template slot of
 *    the scratch area and memcpy'd into every line that repeats it, so
 *    that most of a frame costs what a memcpy of it costs; lines back to
 *    back in memory take several copies of it at once. Noise rows skip
 *    the template and are packed straight into the buffer.
 * 4. Text and the frame stamp are drawn last, per plane, over the lines
 *    they cover, with their own fixed black/white palette
 *    (vivi_overlay.c).
 * 5. The palette, the templates and the glyph tables stay in the scratch
 *    area for the next call, valid while their key (struct vivi_key; the
 *    format for the glyphs) is unchanged: a still picture costs the copies,
 *    the text and the stamp.
 *
 * Frames wider or taller than VIVI_PACK_MAX_DIM are refused with -EINVAL.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>

#include "vivi_gen.h"
#include "vivi_overlay.h"
#include "vivi_pack.h"
#include "vivi_pattern.h"

#define NSLOTS		4	/* template lines cached per plane */
#define SCRATCH_ALIGN	64
/*
 * A template slot holds at least this many bytes, so that narrow lines are
 * repeated in it and copied several at once: fewer, larger copies.
 */
#define SLOT_MIN	8192
#define VIVI_CACHE_MAGIC	0x7669766967656e32ull	/* "vivigen2" */

/*
 * Everything the palette and the template lines of a frame depend on:
 * the format and the scene's parameters. Equal keys draw equal templates,
 * so they are kept in the scratch area across calls. Zeroed before it is
 * filled in, so that it compares as bytes.
 */
struct vivi_key {
	u32 fourcc;
	struct vivi_scene_par scene;
};

/*
 * What survives between calls, at the start of the scratch area (see
 * vivi_gen_scratch_size()). Valid only while @seal matches the rest of the
 * header, so that neither garbage nor a header half overwritten is ever
 * trusted. The slots and the palette hold what @key drew; the text palette
 * and glyph tables what format @text_fourcc drew (0: none yet). Where they
 * lie depends only on the width, which the key holds.
 */
struct vivi_cache {
	u64 seal;
	struct vivi_key key;
	u32 text_fourcc;
	u32 slot_a[3][NSLOTS];
	u32 slot_b[3][NSLOTS];
	u32 slot_used[3][NSLOTS];	/* 0 = empty, else last use (LRU) */
	u32 slot_reps[3][NSLOTS];	/* copies of the line in the slot */
	u32 tick[3];
};

/* One call of vivi_gen_fill(), in the scratch area: a small stack */
struct vivi_gen {
	struct vivi_band b;
	struct vivi_key key;	/* what this call draws */
	struct vivi_scene sc;
	struct vivi_overlay ov;
	struct vivi_pal *pal;
	struct vivi_cache *c;
	u8 *slot[3][NSLOTS];
	u32 slot_bytes[3];
};

bool vivi_gen_supported(u32 fourcc)
{
	return vivi_layout_find(fourcc);
}

bool vivi_gen_is_yuv(u32 fourcc)
{
	const struct vivi_layout *l = vivi_layout_find(fourcc);

	return l && l->yuv;
}

/* An index line: w pixels, a pad pixel and the noise overrun. */
static size_t vivi_idx_bytes(u32 w)
{
	return ALIGN((size_t)w + 16, SCRATCH_ALIGN);
}

/*
 * A template slot of plane @pl: the widest line, XRGB32 (packed 4:2:2 needs
 * less) in plane 0, a chroma line (at most w + 1 bytes) in the others.
 */
static size_t vivi_slot_bytes(u32 w, u32 pl)
{
	size_t line = pl ? vivi_idx_bytes(w) :
		      ALIGN((size_t)w * 4 + 16, SCRATCH_ALIGN);

	return max_t(size_t, line, SLOT_MIN);
}

static size_t vivi_aligned(size_t bytes)
{
	return ALIGN(bytes, SCRATCH_ALIGN);
}

/* Matches the carving in vivi_carve_all(), plus room to align the start. */
size_t vivi_gen_scratch_size(u32 width)
{
	u32 w = clamp_t(u32, width, 1, VIVI_PACK_MAX_DIM);

	return SCRATCH_ALIGN + vivi_aligned(sizeof(struct vivi_cache)) +
	       vivi_aligned(sizeof(struct vivi_gen)) +
	       2 * vivi_aligned(sizeof(struct vivi_pal)) +
	       vivi_aligned(3 * sizeof(u8[256])) +
	       vivi_aligned(3 * sizeof(u8[2][256][VIVI_GLYPH_BYTES])) +
	       3 * vivi_idx_bytes(w) + NSLOTS * vivi_slot_bytes(w, 0) +
	       2 * NSLOTS * vivi_slot_bytes(w, 1);
}

/*
 * The slot of plane @pl's line keys (@ka, @kb), rendered on a miss into
 * the least recently used one. The slots persist across calls (see struct
 * vivi_cache).
 */
static u32 vivi_get_template(struct vivi_gen *g, u32 pl,
			     const struct vivi_plane_desc *pd, u32 ka, u32 kb,
			     u32 ya, u32 yb, u32 par)
{
	struct vivi_cache *c = g->c;
	u32 *used = c->slot_used[pl];
	u32 *reps = c->slot_reps[pl];
	u32 max_reps = g->slot_bytes[pl] / vivi_line_bytes(pd, g->b.w);
	u32 tick = ++c->tick[pl];
	const u8 *a, *b;
	u32 i, lru = 0;

	for (i = 0; i < NSLOTS; i++) {
		/* a count the slot cannot hold is a miss: the copy never spins */
		if (used[i] && c->slot_a[pl][i] == ka &&
		    c->slot_b[pl][i] == kb && reps[i] && reps[i] <= max_reps) {
			used[i] = tick;
			return i;
		}
		if (used[i] < used[lru])
			lru = i;
	}
	a = vivi_scene_line(&g->sc, ya, NULL);
	b = ya == yb ? a : vivi_scene_line(&g->sc, yb, a);
	vivi_convert(g->pal, pd, g->slot[pl][lru], a, b, par, g->b.w);
	c->slot_a[pl][lru] = ka;
	c->slot_b[pl][lru] = kb;
	reps[lru] = 1;
	/* a wrapped tick only makes a slot look empty: drawn again */
	used[lru] = tick;
	return lru;
}

/*
 * Copy slot @i of plane @pl into @n lines of @lb bytes from @line. Lines
 * that follow each other in memory take several copies of the template at
 * once, repeated in the slot on first need.
 */
static u8 *vivi_copy_run(struct vivi_gen *g, u32 pl, u32 i, u8 *line,
			 u32 stride, u32 lb, u32 n)
{
	u32 *reps = &g->c->slot_reps[pl][i];
	u32 want = min(n, g->slot_bytes[pl] / lb);
	u8 *t = g->slot[pl][i];
	u32 k;

	if (stride != lb || n < 4 || want < 2) {
		for (; n; n--, line += stride)
			memcpy(line, t, lb);
		return line;
	}
	for (; *reps < want; *reps += k) {
		k = min(*reps, want - *reps);
		memcpy(t + (size_t)*reps * lb, t, (size_t)k * lb);
	}
	for (; n; n -= k, line += (size_t)k * lb) {
		k = min(n, *reps);
		memcpy(line, t, (size_t)k * lb);
	}
	return line;
}

/* Noise: every row differs, so it is converted straight into the plane. */
static void vivi_fill_direct(struct vivi_gen *g,
			     const struct vivi_plane_desc *pd, u8 *line,
			     u32 stride, u32 r, u32 r1)
{
	bool sub = pd->vsub == 2;
	u32 ya, yb;
	const u8 *a, *b;

	for (; r < r1; r++, line += stride) {
		ya = sub ? 2 * r : r;
		yb = sub ? min(ya + 1, g->b.h - 1) : ya;
		a = vivi_scene_line(&g->sc, ya, NULL);
		b = ya == yb ? a : vivi_scene_line(&g->sc, yb, a);
		vivi_convert(g->pal, pd, line, a, b,
			     pd->type == VIVI_PT_BAYER ? r & 1 : 0, g->b.w);
	}
}

/* Plane lines from plane line @r on that repeat the template of line @r. */
static u32 vivi_line_run(struct vivi_gen *g, const struct vivi_plane_desc *pd,
			 bool flat, u32 r, u32 ph)
{
	u32 run;

	if (flat)
		return ph - r;
	if (pd->type == VIVI_PT_BAYER)
		return 1;
	if (pd->vsub != 2)
		return vivi_class_run(&g->sc, r);
	/* chroma line r covers picture rows 2r and 2r + 1 (if any) */
	run = vivi_class_run(&g->sc, 2 * r);
	if (2 * r + run == g->b.h)
		return DIV_ROUND_UP(run, 2);
	return max(run / 2, 1u);
}

static void vivi_fill_plane(struct vivi_gen *g, u32 pl, u8 *line, u32 stride)
{
	const struct vivi_plane_desc *pd = &g->b.l->pl[pl];
	bool sub = pd->vsub == 2;
	bool chroma = pd->type == VIVI_PT_CHROMA ||
		      pd->type == VIVI_PT_CHROMA2;
	bool flat = chroma && g->pal->flat_chroma;
	u32 lb = vivi_line_bytes(pd, g->b.w);
	u32 ph = sub ? DIV_ROUND_UP(g->b.h, 2) : g->b.h;
	u32 r, r1, n, ya, yb, ka, kb, par, i;

	vivi_band_rows(&g->b, pd, &r, &r1);
	if (g->sc.par->pattern == VIVI_PAT_NOISE && !flat) {
		vivi_fill_direct(g, pd, line, stride, r, r1);
		return;
	}
	for (; r < r1; r += n) {
		ya = sub ? 2 * r : r;
		yb = sub ? min(ya + 1, g->b.h - 1) : ya;
		par = pd->type == VIVI_PT_BAYER ? r & 1 : 0;
		if (flat) {
			ka = 0;
			kb = 0;
		} else {
			ka = vivi_row_class(&g->sc, ya);
			kb = sub ? vivi_row_class(&g->sc, yb) : par;
		}
		i = vivi_get_template(g, pl, pd, ka, kb, ya, yb, par);
		n = min(vivi_line_run(g, pd, flat, r, ph), r1 - r);
		line = vivi_copy_run(g, pl, i, line, stride, lb, n);
	}
}

/* The next @bytes of scratch, keeping *@p aligned */
static u8 *vivi_carve(u8 **p, size_t bytes)
{
	u8 *r = *p;

	*p += vivi_aligned(bytes);
	return r;
}

/* Carve the scratch area; everything after the cache is laid out by @w. */
static struct vivi_gen *vivi_carve_all(void *scratch, u32 w)
{
	struct vivi_cache *c;
	struct vivi_gen *g;
	u32 i, k;
	u8 *p;

	p = PTR_ALIGN((u8 *)scratch, SCRATCH_ALIGN);
	c = (struct vivi_cache *)vivi_carve(&p, sizeof(*c));
	/* the per-call state lives in the scratch area too: a small stack */
	g = (struct vivi_gen *)vivi_carve(&p, sizeof(*g));
	memset(g, 0, sizeof(*g));
	g->c = c;
	g->ov.b = &g->b;
	g->pal = (struct vivi_pal *)vivi_carve(&p, sizeof(*g->pal));
	g->ov.tpal = (struct vivi_pal *)vivi_carve(&p, sizeof(*g->ov.tpal));
	g->sc.lut = (u8 (*)[256])vivi_carve(&p, 3 * sizeof(*g->sc.lut));
	g->ov.glyph = (u8 (*)[2][256][VIVI_GLYPH_BYTES])
		      vivi_carve(&p, 3 * sizeof(*g->ov.glyph));
	g->sc.tmp = vivi_carve(&p, vivi_idx_bytes(w));
	g->ov.tmp = g->sc.tmp;
	g->sc.idx[0] = vivi_carve(&p, vivi_idx_bytes(w));
	g->sc.idx[1] = vivi_carve(&p, vivi_idx_bytes(w));
	for (k = 0; k < 3; k++) {
		g->slot_bytes[k] = vivi_slot_bytes(w, k);
		for (i = 0; i < NSLOTS; i++)
			g->slot[k][i] = vivi_carve(&p, g->slot_bytes[k]);
	}
	return g;
}

/* The seal of the cache header: the magic mixed with every byte after it */
static u64 vivi_cache_seal(const struct vivi_cache *c)
{
	const u8 *p = (const u8 *)c + sizeof(c->seal);
	const u8 *end = (const u8 *)c + sizeof(*c);
	u64 h = VIVI_CACHE_MAGIC, v;

	for (; p + sizeof(v) <= end; p += sizeof(v)) {
		memcpy(&v, p, sizeof(v));
		h = vivi_mix64(h ^ v);
	}
	for (; p < end; p++)
		h = vivi_mix64(h ^ *p);
	return h;
}

/*
 * Reuse what the scratch area holds from the last call where it was drawn
 * for the same key (if this call draws the @pattern) and format; else
 * draw the palette or the glyph tables again, and forget the templates
 * with the palette. A header whose seal does not match is forgotten whole.
 */
static void vivi_cache_update(struct vivi_gen *g, bool pattern)
{
	bool text = g->ov.s->font || g->ov.st.c;
	struct vivi_cache *c = g->c;
	const struct vivi_key *k = &g->key;
	u32 fourcc = g->b.l->fourcc;

	if (c->seal != vivi_cache_seal(c))
		memset(c, 0, sizeof(*c));
	if (pattern && memcmp(&c->key, k, sizeof(*k))) {
		memset(c->slot_used, 0, sizeof(c->slot_used));
		memset(c->slot_reps, 0, sizeof(c->slot_reps));
		c->key = *k;
		vivi_pal_build(&g->sc, g->b.l, g->pal);
	}
	/* the stamp draws with the text palette */
	if (text && c->text_fourcc != fourcc) {
		vivi_overlay_prepare(&g->ov);
		c->text_fourcc = fourcc;
	}
}

/* The per-call state of band @b in @scratch, with @s's text and stamp */
static struct vivi_gen *vivi_gen_start(const struct vivi_band *b,
				       const struct vivi_gen_settings *s,
				       void *scratch)
{
	struct vivi_gen *g = vivi_carve_all(scratch, b->w);

	g->b = *b;
	g->ov.s = s;
	vivi_stamp_init(&g->ov.st, s, b->w, b->h);
	return g;
}

int vivi_gen_fill(const struct vivi_gen_frame *f,
		  const struct vivi_gen_settings *s, u32 frame, void *scratch)
{
	struct vivi_band b;
	struct vivi_gen *g;
	u32 i;

	if (!f || !s || !scratch || s->pattern >= VIVI_PAT_COUNT ||
	    vivi_band_init(&b, f))
		return -EINVAL;

	g = vivi_gen_start(&b, s, scratch);
	g->key.fourcc = f->fourcc;
	vivi_scene_init(&g->sc, &g->key.scene, s, b.w, b.h, frame);
	vivi_cache_update(g, true);

	for (i = 0; i < b.l->nplanes; i++) {
		vivi_fill_plane(g, i, f->plane[i], f->stride[i]);
		vivi_overlay_draw(&g->ov, i, f->plane[i], f->stride[i]);
	}
	/* the header is trusted next time only as this call left it */
	g->c->seal = vivi_cache_seal(g->c);
	return 0;
}

int vivi_gen_overlay(const struct vivi_gen_frame *f,
		     const struct vivi_gen_settings *s, void *scratch)
{
	struct vivi_band b;
	struct vivi_gen *g;
	u32 i;

	if (!f || !s || !scratch || vivi_band_init(&b, f))
		return -EINVAL;

	g = vivi_gen_start(&b, s, scratch);
	vivi_cache_update(g, false);
	for (i = 0; i < b.l->nplanes; i++)
		vivi_overlay_draw(&g->ov, i, f->plane[i], f->stride[i]);
	g->c->seal = vivi_cache_seal(g->c);
	return 0;
}
