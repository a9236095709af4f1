// A small WebM (Matroska) writer for the help videos: one VP8 video track,
// a cluster per key frame, cues for seeking and the duration in the header,
// so a browser's <video> shows the length and seeks without scanning.
// The frames come from the browser's own encoder (WebCodecs' VideoEncoder),
// so the recording needs no ffmpeg. Spec: https://www.matroska.org/technical/elements.html

/** The EBML magic every WebM file starts with (the EBML header's ID). */
export const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

function idBytes(id) {
  const bytes = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from(bytes);
}

/** An element size as an 8-byte EBML variable-length integer (0x01 marker + 7 bytes). */
function size8(n) {
  const b = Buffer.alloc(8);
  b[0] = 0x01;
  b.writeUIntBE(Math.floor(n / 2 ** 24), 1, 3);
  b.writeUIntBE(n % 2 ** 24, 4, 4);
  return b;
}

function el(id, ...children) {
  const body = Buffer.concat(children.map((c) => (Buffer.isBuffer(c) ? c : Buffer.from(c))));
  return Buffer.concat([idBytes(id), size8(body.length), body]);
}

/** An unsigned integer element, `width` bytes wide (8 when it must have a fixed size). */
function uint(id, value, width = 0) {
  let w = width;
  if (!w) for (w = 1; value >= 2 ** (8 * w); w++);
  const b = Buffer.alloc(w);
  b.writeUIntBE(value % 2 ** 48, Math.max(0, w - 6), Math.min(w, 6));
  return el(id, b);
}

const str = (id, value) => el(id, Buffer.from(value, 'utf8'));

function float(id, value) {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(value);
  return el(id, b);
}

/**
 * muxWebM writes the encoded frames as a WebM file.
 * frames: [{ data: Buffer, timestamp: ms from the start, key: boolean }], in order, the first a key frame.
 * duration: ms, the length of the video (the last frame's end).
 */
export function muxWebM({ width, height, frames, duration, codec = 'V_VP8' }) {
  if (!frames.length || !frames[0].key) throw new Error('webm: the first frame must be a key frame');
  const header = el(
    0x1a45dfa3,
    uint(0x4286, 1), // EBMLVersion
    uint(0x42f7, 1), // EBMLReadVersion
    uint(0x42f2, 4), // EBMLMaxIDLength
    uint(0x42f3, 8), // EBMLMaxSizeLength
    str(0x4282, 'webm'), // DocType
    uint(0x4287, 2), // DocTypeVersion
    uint(0x4285, 2), // DocTypeReadVersion
  );
  const info = el(
    0x1549a966,
    uint(0x2ad7b1, 1_000_000), // TimecodeScale: timestamps in ms
    str(0x4d80, 'draindesign record-help-videos'), // MuxingApp
    str(0x5741, 'draindesign record-help-videos'), // WritingApp
    float(0x4489, duration), // Duration
  );
  const tracks = el(
    0x1654ae6b,
    el(
      0xae, // TrackEntry
      uint(0xd7, 1), // TrackNumber
      uint(0x73c5, 1), // TrackUID
      uint(0x83, 1), // TrackType: video
      uint(0x9c, 0), // FlagLacing
      str(0x86, codec), // CodecID
      el(0xe0, uint(0xb0, width), uint(0xba, height)), // Video: PixelWidth, PixelHeight
    ),
  );
  // A cluster starts at every key frame (and at least every 30 s, the block's 16-bit offset limit).
  const clusters = [];
  for (const frame of frames) {
    const current = clusters.at(-1);
    if (frame.key || !current || frame.timestamp - current.time > 30_000) clusters.push({ time: Math.round(frame.timestamp), frames: [] });
    clusters.at(-1).frames.push(frame);
  }
  const clusterBytes = clusters.map((cluster) =>
    el(
      0x1f43b675,
      uint(0xe7, cluster.time), // Timecode
      ...cluster.frames.map((frame) => {
        const head = Buffer.alloc(4);
        head[0] = 0x81; // track 1
        head.writeInt16BE(Math.round(frame.timestamp) - cluster.time, 1);
        head[3] = frame.key ? 0x80 : 0x00;
        return el(0xa3, head, frame.data); // SimpleBlock
      }),
    ),
  );
  // Cues sit before the clusters; fixed-width positions give them a size
  // known before the positions are.
  const cuesFor = (positions) =>
    el(
      0x1c53bb6b,
      ...clusters.map((cluster, i) =>
        el(0xbb, uint(0xb3, cluster.time, 8), el(0xb7, uint(0xf7, 1), uint(0xf1, positions[i], 8))),
      ),
    );
  const cuesLength = cuesFor(clusters.map(() => 0)).length;
  const positions = [];
  let offset = info.length + tracks.length + cuesLength;
  for (const bytes of clusterBytes) {
    positions.push(offset);
    offset += bytes.length;
  }
  const segment = el(0x18538067, info, tracks, cuesFor(positions), ...clusterBytes);
  return Buffer.concat([header, segment]);
}
