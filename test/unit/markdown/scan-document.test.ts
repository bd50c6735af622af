import { describe, expect, test } from 'vitest'
import { scanDocument, splitLines } from '../../../src/markdown/scan-document.js'

describe('scanDocument', () => {
  test('finds fences with their info string, content, closing line and nearest heading', () => {
    const document = scanDocument('# Title\n\nText\n\n## Usage\n\n```console cols=60\n$ echo hi\nhi\n```\n')
    expect(document.fences).toHaveLength(1)
    const [fence] = document.fences
    expect(fence?.info).toBe('console cols=60')
    expect(fence?.heading).toBe('Usage')
    expect(fence?.open.number).toBe(7)
    expect(fence?.content.map((line) => line.text)).toEqual(['$ echo hi', 'hi'])
    expect(fence?.close?.number).toBe(10)
  })

  test('a longer outer fence hides a console block shown as an example', () => {
    const document = scanDocument('````markdown\n```console\n$ echo hi\n```\n````\n')
    expect(document.fences.map((fence) => fence.info)).toEqual(['markdown'])
  })

  test('fences in HTML comments and setext headings', () => {
    const document = scanDocument(
      'Setext\n======\n<!--\n```console\n$ hidden\n```\n-->\n~~~console\n$ shown\n~~~\n',
    )
    expect(document.fences.map((fence) => [fence.info, fence.heading])).toEqual([['console', 'Setext']])
  })

  test('an indented fence (in a list item) loses its indentation in its content, keeps its offsets', () => {
    const text = '1. Run:\n\n   ```console\n   $ echo hi\n   hi\n   ```\n'
    const [fence] = scanDocument(text).fences
    expect(fence?.indent).toBe('   ')
    expect(fence?.content.map((line) => line.text)).toEqual(['$ echo hi', 'hi'])
    expect(text.slice(fence?.content[1]?.start, fence?.content[1]?.end)).toBe('   hi')
  })

  test('an unclosed fence runs to the end of the file', () => {
    const [fence] = scanDocument('```console\n$ echo hi\n').fences
    expect(fence?.close).toBeNull()
    expect(fence?.content.map((line) => line.text)).toEqual(['$ echo hi'])
  })

  test('front matter is the lines between two --- lines at the top', () => {
    expect(scanDocument('---\nrea: cols=60\n---\n# x\n').frontMatter?.map((line) => line.text)).toEqual([
      'rea: cols=60',
    ])
    expect(scanDocument('---\nno closing line\n').frontMatter).toBeNull()
  })

  test('keeps CRLF line ends out of the text and remembers them, and steps over a byte-order mark', () => {
    const document = scanDocument('\uFEFFa\r\nb\r\n')
    expect(document.lineEnd).toBe('\r\n')
    expect(document.lines.map((line) => [line.text, line.start, line.end])).toEqual([
      ['a', 1, 2],
      ['b', 4, 5],
    ])
  })

  test('splitLines has no phantom line after the last line end', () => {
    expect(splitLines('a\n').map((line) => line.text)).toEqual(['a'])
    expect(splitLines('').map((line) => line.text)).toEqual([''])
  })
})
