import { createRequire } from 'node:module'
import { describe, expect, test } from 'vitest'
import { LEGACY_WIDTH_MODEL, WIDTH_MODEL, type WidthModel } from '../../../src/scenario/terminal-model.js'
import { Renderer } from '../../../src/screen/renderer.js'
import { replayScreen } from '../../../src/screen/screen-replay.js'

const ADDON = '@xterm/addon-unicode-graphemes'

/**
 * Evaluates the addon as a program that loads it itself would, with its Unicode data in a pooled Buffer at a
 * non-zero offset (xterm.js issue #6079). The addon then reads its header from the start of the pool, so the test
 * decides what it reads there: a fresh, larger pool is forced, and its first bytes say that the data ends at
 * U+002F (as in the issue) with the real uncompressed length (0xC770), so the data still decodes.
 */
function loadBrokenCopy(): void {
  const require = createRequire(import.meta.url)
  Reflect.deleteProperty(require.cache, require.resolve(ADDON))
  const poolSize = Buffer.poolSize
  Buffer.poolSize = 65_536
  try {
    const start = Buffer.allocUnsafe(32_000).fill(0)
    start.set([0x2f, 0, 0, 0, 0, 0, 0, 0, 0x70, 0xc7, 0, 0])
    require(ADDON)
  } finally {
    Buffer.poolSize = poolSize
  }
}

/** Columns the cursor advances over `text`, written after `X` (so a zero-width start cannot hide). */
function advance(text: string, widthModel: WidthModel = WIDTH_MODEL): number {
  const screen = replayScreen({ columns: 40, rows: 1, scrollback: 0, state: `X${text}`, widthModel })
  return screen.cursor[1] - 1
}

describe('applyWidthModel', () => {
  // First in the file: REA has not loaded the addon in this module graph yet, but the module cache holds a broken copy.
  test('draws astral emoji two cells wide even when a copy of the addon with broken data was loaded first', () => {
    loadBrokenCopy()
    expect(advance('\u{1F44D}')).toBe(2)
  })

  test.for([
    ['✅ check mark button', '\u2705', 2],
    ['✨ sparkles', '\u2728', 2],
    ['中 CJK', '\u4E2D', 2],
    ['❤️ heart with VS16', '\u2764\uFE0F', 2],
    ['❤ heart without VS16', '\u2764', 1],
    ['👍🏽 thumbs up with skin tone', '\u{1F44D}\u{1F3FD}', 2],
    ['👨‍👩‍👧 family joined by ZWJ', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', 2],
    ['🇩🇪 flag', '\u{1F1E9}\u{1F1EA}', 2],
    ['é decomposed', 'e\u0301', 1],
    ['─ box drawing (ambiguous width)', '\u2500', 1],
  ] as const)('%s: %j takes %i cells', ([, text, cells]) => {
    expect(advance(text)).toBe(cells)
  })

  test('the legacy model draws them as xterm.js’s Unicode 6 tables did', () => {
    expect(advance('\u2705', LEGACY_WIDTH_MODEL)).toBe(1)
    expect(advance('\u2728', LEGACY_WIDTH_MODEL)).toBe(1)
    expect(advance('\u4E2D', LEGACY_WIDTH_MODEL)).toBe(2)
  })

  test('the frame renderer and the live terminal draw with the current model', async () => {
    const renderer = new Renderer({ columns: 20, rows: 2, scrollback: 0 })
    renderer.write('\u2705\u2728\u4E2D|')
    const screen = await renderer.whenRendered(() => renderer.readScreen())
    expect(screen.cursor.column).toBe(7)
    renderer.dispose()
  })
})
