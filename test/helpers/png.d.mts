export interface DecodedPng {
  readonly width: number
  readonly height: number
  readonly channels: number
  /** Row-major, `channels` bytes per pixel (RGB or RGBA, 8 bits each). */
  readonly pixels: Buffer
}

export declare function decodePng(file: string): DecodedPng

/** Pixels in the box (CSS pixels = image pixels at scale 1) for which `test(r, g, b)` holds. */
export declare function countPixels(
  png: DecodedPng,
  box: { readonly left: number; readonly top: number; readonly width: number; readonly height: number },
  test: (red: number, green: number, blue: number) => boolean,
): number
