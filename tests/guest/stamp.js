// SPDX-License-Identifier: GPL-2.0
/*
 * stamp.js - decode the frame stamp of vivi in a browser
 *
 * A plain script (no modules): <script src="stamp.js"> defines
 * vivistamp(data, w, h[, px]), which takes a canvas's ImageData.data
 * (R'G'B'A bytes, w * 4 per line; or 8-bit luma, see px) and returns
 * { seq, ms } (ms: the low 44 bits of
 * the capture time, CLOCK_REALTIME in ms) or null. The same decoder as
 * tests/tools/vivi-stamp.h, where the method is described; the layout is
 * in vivi_gen.h. Numbers beyond 32 bits are built by multiplication:
 * JavaScript's bit operators work on 32 bits.
 */
'use strict';

/* Image pixels [p0, p1) centered in the middle half of frame span [a, a + c) */
function vivistampRange(a, c, s, n) {
	let p = Math.floor(a / s);
	const end = Math.floor((a + c) / s) + 1;

	while (p < end && (4 * p + 2) * s < 4 * a + c)
		p++;
	const p0 = p;
	while (p < end && p < n && (4 * p + 2) * s <= 4 * a + 3 * c)
		p++;
	return [p0, p];
}

/* Cell i as 0 or 1 for a frame s times the image's size, -1 if empty */
function vivistampCell(data, w, h, s, i, px) {
	const fw = w * s, c = Math.floor(fw / 32);
	const x = Math.floor((fw - 32 * c) / 2) + (i % 32) * c;
	const y = h * s - 3 * c + Math.floor(i / 32) * c;
	const [x0, x1] = vivistampRange(x, c, s, w);
	const [y0, y1] = vivistampRange(y, c, s, h);
	const n = (x1 - x0) * (y1 - y0);
	let sum = 0;

	if (n <= 0)
		return -1;
	for (let py = y0; py < y1; py++)
		for (let x = x0; x < x1; x++) {
			const k = py * px.stride + x * px.bpp;

			sum += px.bpp < 3 ? data[k] :
				Math.floor((299 * data[k] + 587 * data[k + 1] +
					    114 * data[k + 2] + 500) / 1000);
		}
	return sum >= 128 * n ? 1 : 0;
}

/* The check: ~sum & 0xffff of the 16-bit pieces of seq and ms44 */
function vivistampCheck(seq, ms) {
	const sum = seq % 65536 + Math.floor(seq / 65536) + ms % 65536 +
		    Math.floor(ms / 65536) % 65536 + Math.floor(ms / 4294967296);

	return 65535 - sum % 65536;
}

/* The stamp under the layout of a frame s times the image's size */
function vivistampTry(data, w, h, s, px) {
	const c = Math.floor(w * s / 32);
	const bits = [];
	let seq = 0, ms = 0, check = 0;

	if (c < 4 || h * s < 3 * c)
		return null;
	for (let i = 0; i < 96; i++) {
		const b = vivistampCell(data, w, h, s, i, px);

		if (b < 0)
			return null;
		bits.push(b);
	}
	/* sync 1010, seq, ms44, check: 4 + 32 + 44 + 16 bits */
	if (bits[0] !== 1 || bits[1] !== 0 || bits[2] !== 1 || bits[3] !== 0)
		return null;
	for (let i = 4; i < 36; i++)
		seq = seq * 2 + bits[i];
	for (let i = 36; i < 80; i++)
		ms = ms * 2 + bits[i];
	for (let i = 80; i < 96; i++)
		check = check * 2 + bits[i];
	if (check !== vivistampCheck(seq, ms))
		return null;
	return { seq: seq, ms: ms };
}

/*
 * { seq, ms } of the stamp in ImageData.data of a w x h canvas, or null.
 * px: { stride, bpp } for other pixel layouts, e.g. a VideoFrame's Y'
 * plane as copyTo() lays it out ({ stride: layout.stride, bpp: 1 }).
 */
function vivistamp(data, w, h, px) {
	px = px || { stride: 4 * w, bpp: 4 };
	for (let s = 1; s <= 2; s++) {
		const r = vivistampTry(data, w, h, s, px);

		if (r)
			return r;
	}
	return null;
}
