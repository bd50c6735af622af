/**
 * A line scanner for the parts of Markdown that hold console cases: fenced code blocks (with their info
 * strings), the headings that name them, a front-matter block and HTML comments. It follows CommonMark where that
 * decides which lines are a block, and keeps every line's offsets so that `--update` can rewrite lines in place
 * and leave every other character of the file as it was. No Markdown library: none keeps offsets per line, and
 * what is read here is small.
 */

export interface SourceLine {
  /** 1-based. */
  readonly number: number
  /** Offset of the line's first character in the text. */
  readonly start: number
  /** Offset just after its last character, before `\r\n` or `\n`. */
  readonly end: number
  /** The line without its line end; in a fence's content, without the fence's indentation. */
  readonly text: string
}

export interface Fence {
  /** The info string, trimmed. */
  readonly info: string
  /** The fence's indentation (a fence may sit in a list item): removed from its content lines. */
  readonly indent: string
  readonly open: SourceLine
  readonly content: readonly SourceLine[]
  /** Null when the file ends first. */
  readonly close: SourceLine | null
  /** The nearest heading above the fence. */
  readonly heading: string | null
}

export interface ScannedDocument {
  readonly lines: readonly SourceLine[]
  /** The file's line end, for lines `--update` writes: its first line end, `\n` when it has none. */
  readonly lineEnd: '\n' | '\r\n'
  /** The lines between the front matter's `---` lines; null without one. */
  readonly frontMatter: readonly SourceLine[] | null
  readonly fences: readonly Fence[]
}

const FENCE_OPEN = /^( *)(`{3,}|~{3,})(.*)$/
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/

export function splitLines(text: string): SourceLine[] {
  const lines: SourceLine[] = []
  // A byte-order mark is not part of the first line's text, and stays where it is.
  let start = text.startsWith('\uFEFF') ? 1 : 0
  for (let number = 1; start <= text.length; number++) {
    const newline = text.indexOf('\n', start)
    const next = newline === -1 ? text.length : newline
    const end = next > start && text[next - 1] === '\r' ? next - 1 : next
    if (newline === -1 && start === text.length && number > 1) {
      break
    }
    lines.push({ number, start, end, text: text.slice(start, end) })
    if (newline === -1) {
      break
    }
    start = newline + 1
  }
  return lines
}

export function scanDocument(text: string): ScannedDocument {
  const lines = splitLines(text)
  const frontMatter = readFrontMatter(lines)
  const fences: Fence[] = []
  let heading: string | null = null
  let paragraph: string | null = null
  let index = frontMatter === null ? 0 : frontMatter.length + 2
  while (index < lines.length) {
    const line = lines[index] as SourceLine
    const open = fenceOpening(line.text)
    if (open !== null) {
      const fence = readFence(lines, index, open, heading)
      fences.push(fence)
      index = fence.close === null ? lines.length : fence.close.number
      paragraph = null
      continue
    }
    if (/^ {0,3}<!--/.test(line.text)) {
      index = commentEnd(lines, index) + 1
      paragraph = null
      continue
    }
    const atx = ATX_HEADING.exec(line.text)
    if (atx !== null) {
      heading = (atx[1] ?? '').trim()
      paragraph = null
    } else if (paragraph !== null && SETEXT_UNDERLINE.test(line.text)) {
      heading = paragraph
      paragraph = null
    } else {
      paragraph = line.text.trim() === '' ? null : line.text.trim()
    }
    index++
  }
  const firstEnd = lines.find((line) => text[line.end] === '\r' || text[line.end] === '\n')
  return {
    lines,
    lineEnd: firstEnd !== undefined && text[firstEnd.end] === '\r' ? '\r\n' : '\n',
    frontMatter,
    fences,
  }
}

interface FenceOpening {
  readonly indent: string
  readonly marker: string
  readonly info: string
}

function fenceOpening(text: string): FenceOpening | null {
  const match = FENCE_OPEN.exec(text)
  if (match === null) {
    return null
  }
  const [, indent = '', marker = '', info = ''] = match
  // CommonMark: a backtick fence's info string holds no backtick (else the line is inline code).
  if (marker.startsWith('`') && info.includes('`')) {
    return null
  }
  return { indent, marker, info: info.trim() }
}

function readFence(
  lines: readonly SourceLine[],
  openIndex: number,
  open: FenceOpening,
  heading: string | null,
): Fence {
  const content: SourceLine[] = []
  const character = open.marker[0] as string
  for (let index = openIndex + 1; index < lines.length; index++) {
    const line = lines[index] as SourceLine
    const closing = /^ *(`+|~+)[ \t]*$/.exec(line.text)
    if (
      closing?.[1] !== undefined &&
      closing[1][0] === character &&
      closing[1].length >= open.marker.length
    ) {
      return {
        info: open.info,
        indent: open.indent,
        open: lines[openIndex] as SourceLine,
        content,
        close: line,
        heading,
      }
    }
    content.push({ ...line, text: removeIndent(line.text, open.indent.length) })
  }
  return {
    info: open.info,
    indent: open.indent,
    open: lines[openIndex] as SourceLine,
    content,
    close: null,
    heading,
  }
}

/** CommonMark removes up to the fence's indentation from each content line. */
function removeIndent(text: string, width: number): string {
  let cut = 0
  while (cut < width && text[cut] === ' ') {
    cut++
  }
  return text.slice(cut)
}

function commentEnd(lines: readonly SourceLine[], start: number): number {
  for (let index = start; index < lines.length; index++) {
    if ((lines[index] as SourceLine).text.includes('-->')) {
      return index
    }
  }
  return lines.length - 1
}

/** A `---` first line up to the next `---` (or `...`) line; without that closing line there is none. */
function readFrontMatter(lines: readonly SourceLine[]): SourceLine[] | null {
  if (lines[0]?.text.trimEnd() !== '---') {
    return null
  }
  const close = lines.findIndex((line, index) => index > 0 && /^(?:---|\.\.\.)\s*$/.test(line.text))
  return close === -1 ? null : lines.slice(1, close)
}
