// SPDX-License-Identifier: GPL-2.0
/*
 * test_stamp_js.js - tests/guest/stamp.js on the frames test_stamp wrote
 *
 *   node test_stamp_js.js DIR
 *
 * DIR/frames.txt lists "NAME W H SEQ MS" (or "NAME W H none" for a frame
 * that must not decode); DIR/NAME.ppm is the frame as R'G'B'. Each is
 * turned into canvas ImageData bytes (R'G'B'A) and decoded by vivistamp(),
 * loaded as the browser loads it: a plain script in the global scope.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

vm.runInThisContext(fs.readFileSync(path.join(__dirname,
	'../guest/stamp.js'), 'utf8'), { filename: 'stamp.js' });

/* R'G'B'A bytes of a binary PPM (P6, maxval 255) */
function readPpm(file) {
	const buf = fs.readFileSync(file);
	const head = buf.toString('latin1', 0, 64).match(
		/^P6\s+(\d+)\s+(\d+)\s+255\s/);

	if (!head)
		throw new Error(file + ': not a P6 PPM');
	const w = +head[1], h = +head[2], off = head[0].length;
	const data = new Uint8ClampedArray(w * h * 4);

	for (let i = 0; i < w * h; i++) {
		data[4 * i] = buf[off + 3 * i];
		data[4 * i + 1] = buf[off + 3 * i + 1];
		data[4 * i + 2] = buf[off + 3 * i + 2];
		data[4 * i + 3] = 255;
	}
	return { data, w, h };
}

function check(dir, line) {
	const [name, w, h, seq, ms] = line.split(/\s+/);
	const img = readPpm(path.join(dir, name + '.ppm'));

	if (img.w !== +w || img.h !== +h)
		return `size ${img.w}x${img.h}, want ${w}x${h}`;
	const got = vivistamp(img.data, img.w, img.h);

	if (seq === 'none')
		return got ? `decodes to ${got.seq} ${got.ms}` : null;
	if (!got)
		return 'no stamp decoded';
	if (got.seq !== +seq || got.ms !== +ms)
		return `seq ${got.seq} ms ${got.ms}, want ${seq} ${ms}`;
	return null;
}

function main() {
	const dir = process.argv[2];
	const lines = fs.readFileSync(path.join(dir, 'frames.txt'), 'utf8')
		.split('\n').filter((l) => l.trim());
	let failed = 0;

	if (!lines.length) {
		console.log('FAIL: unit: stamp_js: no frames');
		process.exit(1);
	}
	for (const line of lines) {
		const name = line.split(/\s+/)[0];
		let why;

		try {
			why = check(dir, line);
		} catch (e) {
			why = e.message;
		}
		if (why) {
			console.log(`FAIL: unit: stamp_js/${name}: ${why}`);
			failed++;
		} else {
			console.log(`PASS: unit: stamp_js/${name}`);
		}
	}
	process.exit(failed ? 1 : 0);
}

main();
