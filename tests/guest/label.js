// SPDX-License-Identifier: GPL-2.0
/*
 * label.js - pick a camera by its label in a browser
 *
 * A plain script (no modules): <script src="label.js"> defines
 * cameraId(label), the deviceId of the video input whose label is @label.
 * Browsers show labels only once the page may use a camera, so it opens
 * the default camera once first.
 */
async function cameraId(label) {
	const s = await navigator.mediaDevices.getUserMedia({video: true});

	s.getTracks().forEach(t => t.stop());
	const d = (await navigator.mediaDevices.enumerateDevices()).find(
		d => d.kind == "videoinput" && d.label == label);
	if (!d)
		throw new Error("no camera labelled " + label);
	return d.deviceId;
}
