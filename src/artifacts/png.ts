/** Pixel size of a PNG, from its IHDR chunk (always the first, at a fixed offset). */
export function pngSize(png: Buffer): { width: number; height: number } {
  const signature = '89504e470d0a1a0a';
  if (
    png.length < 24 ||
    png.subarray(0, 8).toString('hex') !== signature ||
    png.subarray(12, 16).toString('latin1') !== 'IHDR'
  ) {
    throw new Error('not a PNG image');
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
