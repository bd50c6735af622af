import { describe, expect, test } from 'vitest'
import { replayScreen, replaySteps } from '../../../src/screen/screen-replay.js'
import { renderScreenSvg } from '../../../src/view/screen-svg.js'
import { parseScreenMoment } from '../../../src/view/screen-moment.js'

const terminal = { columns: 20, rows: 3, scrollback: 0, widthModel: 'grapheme-clusters-v1' } as const

function picture(state: string, cursorVisible = true): string {
  return renderScreenSvg({ screen: replayScreen({ ...terminal, state }), cursorVisible }, 'title')
}

describe('renderScreenSvg', () => {
  test('writes each row as one <text> whose content reads as the row, styles as tspans', () => {
    const svg = picture('\u001b[31mred\u001b[0m plain \u001b[1mbold\u001b[0m\r\nsecond row')
    const texts = svg.match(/<text[^>]*>.*?<\/text>/g) ?? []
    expect(texts).toHaveLength(2)
    expect(texts[0]!.replace(/<[^>]+>/g, '')).toBe('red plain bold')
    expect(texts[1]!.replace(/<[^>]+>/g, '')).toBe('second row')
    expect(texts[0]).toContain('fill="#cc0000">red </tspan>')
    expect(texts[0]).toContain('font-weight="bold"')
  })

  test('places a wide glyph at its column and the next glyph two columns on', () => {
    const svg = picture('a漢b')
    expect(svg).toContain('<text y="13"><tspan x="0 8.4 25.2">a漢b</tspan></text>')
  })

  test('draws the cursor where it is, and none when the program hid it', () => {
    expect(picture('ab')).toContain('<rect class="rea-cursor" x="16.8" y="0"')
    expect(picture('ab\u001b[?25l', false)).not.toContain('rea-cursor')
    expect(replaySteps(terminal, [{ text: 'ab\u001b[?25l' }]).cursorVisible).toBe(false)
  })

  test('is the same bytes for the same screen, and escapes what XML cannot hold', () => {
    const state = '\u001b[44m<&>\u001b[0m "q"'
    expect(picture(state)).toBe(picture(state))
    expect(picture(state)).toContain('&lt;&amp;&gt;')
    expect(picture(state)).not.toMatch(/id="/)
  })
})

describe('parseScreenMoment', () => {
  test('reads final, event <n> and milliseconds', () => {
    expect(parseScreenMoment('final')).toEqual({ kind: 'final' })
    expect(parseScreenMoment('event 3')).toEqual({ kind: 'event', index: 3 })
    expect(parseScreenMoment('1500')).toEqual({ kind: 'ms', ms: 1500 })
  })

  test.each(['', 'last', 'event', 'event -1', '-5', '1.5', 'event 2 3'])(
    'refuses %j naming the forms',
    (text) => {
      expect(() => parseScreenMoment(text)).toThrow(/--at must be final, event <n> .* or <ms>/)
    },
  )
})
