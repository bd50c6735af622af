// A PNG reader for screenshots (8-bit RGB or RGBA, not interlaced, as Chromium writes them), so a test can look
// at the pixels a browser drew without a dependency.
import { readFileSync } from 'node:fs'
import { inflateSync } from 'node:zlib'

export function decodePng(file) {
  const bytes = readFileSync(file)
  const chunks = []
  let header
  for (let position = 8; position < bytes.length;) {
    const length = bytes.readUInt32BE(position)
    const kind = bytes.toString('ascii', position + 4, position + 8)
    const data = bytes.subarray(position + 8, position + 8 + length)
    if (kind === 'IHDR') {
      header = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), depth: data[8], type: data[9] }
    } else if (kind === 'IDAT') {
      chunks.push(data)
    }
    position += 12 + length
  }
  if (header === undefined || header.depth !== 8 || (header.type !== 2 && header.type !== 6)) {
    throw new Error(`${file}: not an 8-bit RGB or RGBA PNG`)
  }
  const channels = header.type === 6 ? 4 : 3
  const stride = header.width * channels
  const raw = inflateSync(Buffer.concat(chunks))
  const pixels = Buffer.alloc(header.height * stride)
  for (let y = 0; y < header.height; y++) {
    const filter = raw[y * (stride + 1)]
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? pixels[y * stride + x - channels] : 0
      const up = y > 0 ? pixels[(y - 1) * stride + x] : 0
      const corner = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0
      let value = raw[y * (stride + 1) + 1 + x]
      if (filter === 1) value += left
      else if (filter === 2) value += up
      else if (filter === 3) value += (left + up) >> 1
      else if (filter === 4) {
        const estimate = left + up - corner
        const [a, b, c] = [left, up, corner].map((candidate) => Math.abs(estimate - candidate))
        value += a <= b && a <= c ? left : b <= c ? up : corner
      }
      pixels[y * stride + x] = value & 255
    }
  }
  return { width: header.width, height: header.height, channels, pixels }
}

export function countPixels(png, box, test) {
  let found = 0
  const right = Math.min(png.width, Math.ceil(box.left + box.width))
  const bottom = Math.min(png.height, Math.ceil(box.top + box.height))
  for (let y = Math.max(0, Math.floor(box.top)); y < bottom; y++) {
    for (let x = Math.max(0, Math.floor(box.left)); x < right; x++) {
      const at = (y * png.width + x) * png.channels
      if (test(png.pixels[at], png.pixels[at + 1], png.pixels[at + 2])) found++
    }
  }
  return found
}
