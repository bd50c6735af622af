import { createRequire } from 'node:module'
import type * as SerializeModule from '@xterm/addon-serialize'
import type * as XtermModule from '@xterm/headless'

type XtermTerminal = InstanceType<typeof XtermModule.Terminal>
type XtermSerializer = InstanceType<typeof SerializeModule.SerializeAddon>
type XtermLine = NonNullable<ReturnType<XtermTerminal['buffer']['active']['getLine']>>
interface XtermClasses {
  readonly Terminal: typeof XtermModule.Terminal
  readonly SerializeAddon: typeof SerializeModule.SerializeAddon
}

let xterm: XtermClasses | undefined

/**
 * Loads @xterm/headless on first need: a process that only compares Evidence never pays for it. Both packages
 * are CommonJS and are loaded with require: an ESM import of them first runs Node's CommonJS export scanner
 * over the 300 KB bundle, which doubled the load time (about 30 ms against 15 ms). Throws when they cannot be
 * loaded; a failure is not kept, so a later renderer tries again.
 */
function loadXterm(): XtermClasses {
  if (xterm === undefined) {
    const require = createRequire(import.meta.url)
    xterm = {
      Terminal: fromNamespace(require('@xterm/headless') as typeof XtermModule, 'Terminal'),
      SerializeAddon: fromNamespace(
        require('@xterm/addon-serialize') as typeof SerializeModule,
        'SerializeAddon',
      ),
    }
  }
  return xterm
}

// @xterm/headless is CommonJS: in Node ESM its namespace holds only `default`; under CJS interop the classes sit
// on the namespace itself. A named import passes tsc and Vitest but crashes in a built ESM package.
function fromNamespace<T extends object, K extends keyof T>(namespace: T, name: K): T[K] {
  const direct = namespace[name] as T[K] | undefined
  return direct ?? (namespace as unknown as { default: T }).default[name]
}

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
 * The screen of a terminal nothing was ever written to, as xterm shows it (every row blank, the cursor home, an
 * empty serialization; the renderer tests hold this against a real xterm of several sizes). A program that
 * printed nothing is framed with it, so its capture never loads or opens xterm: in a fresh process that is
 * about 30 ms, and opening and serializing a terminal most of what such a final frame costs.
 */
function untouchedScreen(size: RendererSize): RenderedScreen {
  // xterm's smallest terminal is 2 × 1 (scenarios ask for at least 2 columns anyway).
  const rows = Math.max(size.rows, 1)
  return {
    columns: Math.max(size.columns, 2),
    rows,
    cursor: { row: 0, column: 0 },
    lines: Array.from({ length: rows }, () => ''),
    serialized_state: '',
  }
}

/**
 * Queued text up to this size is parsed at once when a frame needs it and xterm has nothing pending, instead of
 * through xterm's write queue, which parses on a later timer tick (at least 1 ms in Node) for every frame. That
 * is 2–3 ms of parsing at most, less than one of the 12 ms slices xterm's write queue parses in, so a frame
 * taken while the program runs holds up reading its output no longer than the write queue would.
 */
export const RENDER_SYNC_CHARACTERS = 64 * 1024

/** Queued text is handed to xterm in pieces of about this size (xterm drops input beyond 50 MB pending). */
export const RENDER_QUEUE_FLUSH_CHARACTERS = 1024 * 1024
/** Flow control: ask the PTY reader to pause while xterm has this much unparsed text, resume at the low mark. */
export const RENDER_BACKLOG_HIGH_CHARACTERS = 8 * 1024 * 1024
export const RENDER_BACKLOG_LOW_CHARACTERS = 2 * 1024 * 1024

export interface RendererFlowControl {
  pause(): void
  resume(): void
}

export interface RendererOptions {
  /** Receives the terminal's replies to queries it parsed (cursor position, device attributes, …). */
  readonly onReply?: (reply: string) => void
}

interface PendingWrite {
  readonly text: string
  readonly onParsed: (() => void) | undefined
}

/**
 * A headless terminal that renders the normalized retained output. Output is queued with `enqueue` and handed
 * to xterm only when a frame needs it (or the queue grows large), so rendering runs in a few large writes off
 * the path that reads the PTY, and xterm itself loads only when something is rendered. xterm parses
 * asynchronously; `whenRendered` runs its callback synchronously at the point where everything written before
 * it is parsed, so a screen read there reflects exactly those writes.
 */
export class Renderer {
  readonly #size: RendererSize
  readonly #flowControl: RendererFlowControl | undefined
  readonly #options: RendererOptions
  #terminal: XtermTerminal | undefined
  #serializer: XtermSerializer | undefined
  #openFailure: Error | undefined
  /** Whether anything was ever enqueued, written or resized: until then the screen is the untouched one. */
  #touched = false
  #batch: string[] = []
  #batchCharacters = 0
  #pendingWrites = 0
  #pendingCharacters = 0
  #paused = false
  #disposed = false

  constructor(size: RendererSize, flowControl?: RendererFlowControl, options: RendererOptions = {}) {
    this.#size = size
    this.#flowControl = flowControl
    this.#options = options
  }

  /** Whether xterm is loaded and open, so the screen can be read. */
  get opened(): boolean {
    return this.#terminal !== undefined && !this.#disposed
  }

  /** DECCKM as the terminal stands: cursor keys send `ESC O x` instead of `ESC [ x`. */
  get applicationCursorKeys(): boolean {
    return this.#terminal?.modes.applicationCursorKeysMode ?? false
  }

  /** Writes handed on and not yet parsed (including those waiting for xterm to load). */
  get pendingWrites(): number {
    return this.#pendingWrites
  }

  /** Whether the screen already reflects everything enqueued or written, so it can be read synchronously. */
  get idle(): boolean {
    return (
      (this.#terminal !== undefined || this.#untouched) &&
      this.#batch.length === 0 &&
      this.#pendingWrites === 0
    )
  }

  /**
   * Whether everything handed to xterm is parsed and its parser stands outside any escape sequence, so plain
   * text queued now only prints. True before xterm is opened; text still queued is not looked at. False where
   * this xterm's parser state cannot be read (see `parserInGround`).
   */
  get parsedToGround(): boolean {
    return this.#pendingWrites === 0 && (this.#terminal === undefined || parserInGround(this.#terminal))
  }

  /** Queues text for the renderer; it reaches xterm when a frame is taken or the queue grows large. */
  enqueue(text: string): void {
    if (this.#disposed || text === '') {
      return
    }
    this.#touched = true
    this.#batch.push(text)
    this.#batchCharacters += text.length
    if (this.#batchCharacters >= RENDER_QUEUE_FLUSH_CHARACTERS) {
      this.#flushBatch()
    }
  }

  /** Drops queued text that no frame will need (after a raw gap no frame is rendered); written text stays. */
  discardQueued(): void {
    this.#batch = []
    this.#batchCharacters = 0
  }

  /** Hands text to xterm, after anything still queued. */
  write(text: string, onParsed?: () => void): void {
    if (this.#disposed) {
      // A read after disposal fails (readScreen throws) instead of waiting forever.
      onParsed?.()
      return
    }
    this.#touched = true
    this.#flushBatch()
    this.#hand({ text, onParsed })
  }

  /** Runs `read` once everything enqueued or written so far is parsed, and resolves with its result. */
  whenRendered<T>(read: () => T): Promise<T> {
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        try {
          resolve(read())
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)))
        }
      }
      // Nothing left to parse (or little enough to parse now): read now. Going through xterm's write queue would
      // cost a timer tick (at least 1 ms in Node) for every frame, which is most of what a frame costs.
      if (this.#readyToRead() || this.#parseQueueNow()) {
        settle()
      } else {
        this.write('', settle)
      }
    })
  }

  /** Resizes at this point of the stream: after everything enqueued or written before, before what follows. */
  resize(columns: number, rows: number): void {
    this.write('', () => this.#terminal?.resize(columns, rows))
  }

  /** Reads the current screen; call it inside `whenRendered` to tie it to a point in the stream. */
  readScreen(): RenderedScreen {
    if (this.#untouched) {
      return untouchedScreen(this.#size)
    }
    const terminal = this.#openTerminal()
    const buffer = terminal.buffer.active
    return {
      columns: terminal.cols,
      rows: terminal.rows,
      cursor: { row: buffer.cursorY, column: buffer.cursorX },
      lines: this.readLines(),
      serialized_state: (this.#serializer as XtermSerializer).serialize({
        scrollback: this.#size.scrollback,
      }),
    }
  }

  /** Every visible row as it stands, trailing U+0020 removed: cheaper than a whole screen. */
  readLines(): string[] {
    return this.#visibleRows((line) => trimTrailingSpaces(line.translateToString(false)))
  }

  /**
   * Every visible row as the program drew it: up to its last written cell, spaces the program wrote included
   * (a prompt `Name? ` keeps its space), cells never written or erased left out. What a screen wait reads.
   */
  readDrawnLines(): string[] {
    return this.#visibleRows((line) => line.translateToString(true))
  }

  #visibleRows(read: (line: XtermLine) => string): string[] {
    if (this.#untouched) {
      return untouchedScreen(this.#size).lines
    }
    const terminal = this.#openTerminal()
    const buffer = terminal.buffer.active
    const lines: string[] = []
    for (let row = 0; row < terminal.rows; row++) {
      const line = buffer.getLine(buffer.viewportY + row)
      lines.push(line === undefined ? '' : read(line))
    }
    return lines
  }

  dispose(): void {
    if (!this.#disposed) {
      this.#disposed = true
      this.#batch = []
      this.#terminal?.dispose()
    }
  }

  #openTerminal(): XtermTerminal {
    if (this.#disposed) {
      throw new Error('the renderer was disposed')
    }
    if (this.#terminal === undefined) {
      throw this.#openFailure ?? new Error('the renderer is not open yet: read it inside whenRendered')
    }
    return this.#terminal
  }

  /** Whether the screen reflects everything handed in so far (opening xterm if something was handed in). */
  #readyToRead(): boolean {
    if (this.#disposed || this.#batch.length > 0 || this.#pendingWrites > 0) {
      return false
    }
    return this.#untouched || this.#ensureOpen() !== undefined
  }

  /**
   * Parses what is queued synchronously, when it is small and xterm has nothing pending (so nothing written
   * earlier could be overtaken); false when the queue must go through xterm's write queue instead.
   */
  #parseQueueNow(): boolean {
    if (this.#disposed || this.#pendingWrites > 0 || this.#batchCharacters > RENDER_SYNC_CHARACTERS) {
      return false
    }
    const terminal = this.#ensureOpen()
    const writeSync = terminal === undefined ? undefined : synchronousWriter(terminal)
    if (writeSync === undefined) {
      return false
    }
    const text = this.#batch.join('')
    this.#batch = []
    this.#batchCharacters = 0
    writeSync(text)
    return true
  }

  /** Whether nothing was handed in yet (no terminal is open then): the screen is the untouched one. */
  get #untouched(): boolean {
    return this.#terminal === undefined && !this.#touched && !this.#disposed
  }

  #flushBatch(): void {
    if (this.#batch.length === 0) {
      return
    }
    const text = this.#batch.length === 1 ? (this.#batch[0] as string) : this.#batch.join('')
    this.#batch = []
    this.#batchCharacters = 0
    this.#hand({ text, onParsed: undefined })
  }

  #hand(write: PendingWrite): void {
    this.#pendingWrites++
    this.#pendingCharacters += write.text.length
    if (
      !this.#paused &&
      this.#pendingCharacters >= RENDER_BACKLOG_HIGH_CHARACTERS &&
      this.#flowControl !== undefined
    ) {
      this.#paused = true
      this.#flowControl.pause()
    }
    const terminal = this.#ensureOpen()
    if (terminal === undefined) {
      // xterm could not be loaded: the write counts as parsed, and a read then fails with the reason.
      this.#parsed(write)
      return
    }
    terminal.write(write.text, () => this.#parsed(write))
  }

  #parsed(write: PendingWrite): void {
    this.#pendingWrites--
    this.#pendingCharacters -= write.text.length
    if (this.#paused && this.#pendingCharacters <= RENDER_BACKLOG_LOW_CHARACTERS) {
      this.#paused = false
      this.#flowControl?.resume()
    }
    write.onParsed?.()
  }

  /** The terminal, opened on first need; undefined when xterm could not be loaded (`#openFailure` says why). */
  #ensureOpen(): XtermTerminal | undefined {
    if (this.#terminal !== undefined || this.#openFailure !== undefined) {
      return this.#terminal
    }
    let classes: XtermClasses
    try {
      classes = loadXterm()
    } catch (error) {
      this.#openFailure = new Error(
        `the terminal renderer (@xterm/headless) could not be loaded: ${String(error)}`,
      )
      return undefined
    }
    const terminal = new classes.Terminal({
      cols: this.#size.columns,
      rows: this.#size.rows,
      scrollback: this.#size.scrollback,
      allowProposedApi: true,
      logLevel: 'off',
    })
    this.#serializer = new classes.SerializeAddon()
    terminal.loadAddon(this.#serializer)
    const onReply = this.#options.onReply
    if (onReply !== undefined) {
      terminal.onData(onReply)
    }
    this.#terminal = terminal
    return terminal
  }
}

/**
 * xterm's synchronous write, where this xterm has one: the same parser its write queue runs, without the timer
 * tick. It is internal to xterm (its core's `writeSync`, kept for its own tests and deprecated in name), so REA
 * looks for it and falls back on the write queue when a version lacks it; the renderer tests compare both ways.
 */
function synchronousWriter(terminal: XtermTerminal): ((text: string) => void) | undefined {
  const core = (terminal as unknown as { _core?: { writeSync?: (text: string) => void } })._core
  return typeof core?.writeSync === 'function' ? (text) => core.writeSync?.(text) : undefined
}

/**
 * Whether xterm's escape sequence parser is in its ground state (0), outside any sequence. The state is internal to
 * xterm (its core's input handler's parser), so REA looks for it and answers false, "may be inside one", when a
 * version lacks it; the live terminal tests split queries across chunks to hold it to the real parser.
 */
function parserInGround(terminal: XtermTerminal): boolean {
  const core = terminal as unknown as { _core?: { _inputHandler?: { _parser?: { currentState?: unknown } } } }
  return core._core?._inputHandler?._parser?.currentState === 0
}

/** Only U+0020 is removed: other trailing whitespace is content the program wrote. */
export function trimTrailingSpaces(line: string): string {
  let end = line.length
  while (end > 0 && line.charCodeAt(end - 1) === 0x20) {
    end--
  }
  return end === line.length ? line : line.slice(0, end)
}
