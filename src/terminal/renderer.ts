import * as serializeNs from '@xterm/addon-serialize'
import * as xtermNs from '@xterm/headless'

type XtermModule = typeof xtermNs
type SerializeModule = typeof serializeNs

// @xterm/headless is CommonJS: in Node ESM its namespace holds only `default`; under CJS interop the classes sit
// on the namespace itself. A named import passes tsc and Vitest but crashes in a built ESM package.
const { Terminal }: XtermModule =
  (xtermNs as Partial<XtermModule>).Terminal === undefined
    ? (xtermNs as unknown as { default: XtermModule }).default
    : xtermNs
const { SerializeAddon }: SerializeModule =
  (serializeNs as Partial<SerializeModule>).SerializeAddon === undefined
    ? (serializeNs as unknown as { default: SerializeModule }).default
    : serializeNs

export interface RenderedScreen {
  readonly columns: number
  readonly rows: number
  /** Zero-based cursor position within the visible rows. */
  readonly cursor: { readonly row: number; readonly column: number }
  /** Every visible row, trailing U+0020 removed; blank rows stay as empty strings. */
  readonly lines: string[]
  /** The serialize addon's rendering of scrollback plus screen. */
  readonly serialized_state: string
}

export interface RendererSize {
  readonly columns: number
  readonly rows: number
  readonly scrollback: number
}

/**
 * A headless terminal that renders the normalized retained output. Writes are asynchronous inside xterm;
 * `whenRendered` runs its callback synchronously at the point where everything written before it is parsed,
 * so a screen read there reflects exactly those writes.
 */
export class Renderer {
  readonly #terminal: InstanceType<XtermModule['Terminal']>
  readonly #serializer: InstanceType<SerializeModule['SerializeAddon']>
  readonly #scrollback: number
  #pendingWrites = 0
  #disposed = false

  constructor(size: RendererSize) {
    this.#scrollback = size.scrollback
    this.#terminal = new Terminal({
      cols: size.columns,
      rows: size.rows,
      scrollback: size.scrollback,
      allowProposedApi: true,
      logLevel: 'off',
    })
    this.#serializer = new SerializeAddon()
    this.#terminal.loadAddon(this.#serializer)
  }

  /** Writes not yet parsed; the capture pauses the PTY while this is high. */
  get pendingWrites(): number {
    return this.#pendingWrites
  }

  write(text: string, onParsed?: () => void): void {
    if (this.#disposed) {
      return
    }
    this.#pendingWrites++
    this.#terminal.write(text, () => {
      this.#pendingWrites--
      onParsed?.()
    })
  }

  /** Runs `read` once everything written so far is parsed, and resolves with its result. */
  whenRendered<T>(read: () => T): Promise<T> {
    return new Promise((resolve, reject) => {
      this.write('', () => {
        try {
          resolve(read())
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)))
        }
      })
    })
  }

  resize(columns: number, rows: number): void {
    this.#terminal.resize(columns, rows)
  }

  /** Reads the current screen; call it inside `whenRendered` to tie it to a point in the stream. */
  readScreen(): RenderedScreen {
    const buffer = this.#terminal.buffer.active
    const lines: string[] = []
    for (let row = 0; row < this.#terminal.rows; row++) {
      const line = buffer.getLine(buffer.viewportY + row)
      lines.push(line === undefined ? '' : trimTrailingSpaces(line.translateToString(false)))
    }
    return {
      columns: this.#terminal.cols,
      rows: this.#terminal.rows,
      cursor: { row: buffer.cursorY, column: buffer.cursorX },
      lines,
      serialized_state: this.#serializer.serialize({ scrollback: this.#scrollback }),
    }
  }

  dispose(): void {
    if (!this.#disposed) {
      this.#disposed = true
      this.#terminal.dispose()
    }
  }
}

/** Only U+0020 is removed: other trailing whitespace is content the program wrote. */
export function trimTrailingSpaces(line: string): string {
  let end = line.length
  while (end > 0 && line.charCodeAt(end - 1) === 0x20) {
    end--
  }
  return end === line.length ? line : line.slice(0, end)
}
