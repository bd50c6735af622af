import { describe, expect, test } from 'vitest'
import { drawnColor, paletteColor } from '../../../src/screen/palette.js'

describe('paletteColor', () => {
  test.for([
    [0, '#2e3436'],
    [15, '#eeeeec'],
    [16, '#000000'],
    [21, '#0000ff'],
    [196, '#ff0000'],
    [231, '#ffffff'],
    [232, '#080808'],
    [255, '#eeeeee'],
  ] as const)('colour %i is %s', ([index, color]) => {
    expect(paletteColor(index)).toBe(color)
  })
})

describe('drawnColor', () => {
  test('draws the first 8 colours bright when bold, as xterm.js does', () => {
    expect(drawnColor(1, true)).toBe(paletteColor(9))
    expect(drawnColor(9, true)).toBe(paletteColor(9))
    expect(drawnColor(196, true)).toBe(paletteColor(196))
  })

  test('keeps a true colour and the default as they are', () => {
    expect(drawnColor('#123456', true)).toBe('#123456')
    expect(drawnColor(null, false)).toBeNull()
  })
})
