/**
 * A screenshot's viewport, the same on every door (native, `/v2`, MCP, CLI): past these bounds a
 * page's raster grows with the area (10,000,000 x 10,000,000 took a browser from 0.9 to 6.1 GB
 * in 15 s) without a screen anyone has.
 */
export const SCREENSHOT_VIEWPORT = {
  width: { minimum: 320, maximum: 3840, default: 1920 },
  height: { minimum: 240, maximum: 2160, default: 1080 },
} as const;
