import { DEFAULT_TERMINAL_TYPE } from '../scenario/resolve.js'
import { WIDTH_MODEL, type WidthModel } from '../scenario/terminal-model.js'
import { readCursorState, readRowsWithoutCursorCells, type CursorState } from './cursor-cells.js'
import { QueryReplies } from './query-replies.js'
import { applyWidthModel, prepareWidthModel } from './width-model.js'
import {
  cursorHidden,
  loadTerminalClass,
  loadXterm,
  parserInGround,
  synchronousWriter,
  type XtermSerializer,
  type XtermTerminal,
} from './xterm.js'

type XtermLine = NonNullable<ReturnType<XtermTerminal['buffer']['active']['getLine']>>

export interface RenderedScreen {
  readonly columns: number
  readonly rows: number
  /**
   * Zero-based cursor position within the visible rows, and whether the cursor is shown (DECTCEM); `visible` is
   * absent where this xterm does not say.
   */
  readonly cursor: { readonly row: number; readonly column: number; readonly visible?: boolean }
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
 * printed nothing is framed with it, so its capture never loads or opens xterm: loading it is a noticeable part of
 * a fresh process's start, and opening and serializing a terminal most of what such a final frame costs.
 */
function untouchedScreen(size: RendererSize, widthModel: WidthModel): RenderedScreen {
  // xterm's smallest terminal is 2 × 1 (scenarios ask for at least 2 columns anyway).
  const rows = Math.max(size.rows, 1)
  return {
    columns: Math.max(size.columns, 2),
    rows,
    cursor: { row: 0, column: 0, ...(widthModel === WIDTH_MODEL ? { visible: true } : {}) },
    lines: Array.from({ length: rows }, () => ''),
    serialized_state: '',
  }
}

/**
 * Queued text up to this size is parsed at once when a frame needs it and xterm has nothing pending, instead of
 * through xterm's write queue, which parses on a later timer tick (at least 1 ms in Node) for every frame. That
 * much text parses in less than one of the time slices xterm's write queue parses in, so a frame taken while the
 * program runs holds up reading its output no longer than the write queue would.
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
  /**
   * Receives the terminal's replies to queries it parsed, from REA's reply table (cursor position, device
   * attributes, colours, XTVERSION, XTGETTCAP, …); without it nothing is answered.
   */
  readonly onReply?: (reply: string) => void
  /** The `TERM` the program was given, whose capabilities XTGETTCAP reports; default `xterm-256color`. */
  readonly terminalType?: string
  /** How wide characters are drawn; the current model unless a capture made under another one is replayed. */
  readonly widthModel?: WidthModel
  /**
   * Whether screens are read whole (`readScreen`, with the serialize addon); default true. The live terminal
   * reads only rows and modes, and spares loading the addon.
   */
  readonly serializes?: boolean
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
  readonly #replies: QueryReplies | undefined
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
    this.#replies =
      options.onReply === undefined
        ? undefined
        : new QueryReplies(
            options.onReply,
            options.terminalType ?? DEFAULT_TERMINAL_TYPE,
            options.widthModel ?? WIDTH_MODEL,
          )
  }

  /**
   * Loads and opens xterm now, before anything is written, so that the first query is answered as fast as later
   * ones. Each step (the emulator, the width model's data, the terminal) may be taken on its own, in order; the
   * last opens the terminal. Returns false when the renderer cannot be opened (it was disposed, or xterm could
   * not be loaded: a later read says why).
   */
  prepare(step: 'emulator' | 'width_model' | 'terminal'): boolean {
    if (this.#disposed || this.#openFailure !== undefined) {
      return false
    }
    try {
      switch (step) {
        case 'emulator':
          loadTerminalClass()
          break
        case 'width_model':
          prepareWidthModel(this.#widthModel)
          break
        case 'terminal':
          return this.#ensureOpen() !== undefined
      }
    } catch {
      // The same step fails again when the terminal opens for real, and the failure is kept and reported then.
      return false
    }
    return true
  }

  /** Whether xterm is loaded and open, so the screen can be read. */
  get opened(): boolean {
    return this.#terminal !== undefined && !this.#disposed
  }

  /** DECCKM as the terminal stands: cursor keys send `ESC O x` instead of `ESC [ x`. */
  get applicationCursorKeys(): boolean {
    return this.#terminal?.modes.applicationCursorKeysMode ?? false
  }

  /** The cursor's zero-based row within the visible rows; 0 before anything was drawn. */
  get cursorRow(): number {
    return this.opened ? (this.#terminal as XtermTerminal).buffer.active.cursorY : 0
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

  /**
   * Hands text to xterm and parses it before returning when that keeps the order and costs no more than the
   * write queue would: xterm has nothing pending and the text, with anything queued before it, is small
   * (`RENDER_SYNC_CHARACTERS`). A query in it is then answered at once, where xterm's write queue would parse it
   * on a later timer tick (at least 1 ms in Node, longer while the event loop is busy), and the program would
   * wait that long for its reply. `onParsed` still runs after the caller returns (a microtask), as it would
   * from the write queue, so no listener runs in the middle of the caller's work. Otherwise as `write`.
   */
  writeNow(text: string, onParsed?: () => void): void {
    if (
      this.#disposed ||
      this.#pendingWrites > 0 ||
      this.#batchCharacters + text.length > RENDER_SYNC_CHARACTERS
    ) {
      this.write(text, onParsed)
      return
    }
    this.#touched = true
    this.#batch.push(text)
    this.#batchCharacters += text.length
    if (this.#parseQueueNow()) {
      if (onParsed !== undefined) {
        queueMicrotask(onParsed)
      }
      return
    }
    // This xterm has no synchronous write, or could not be opened: through the write queue, as `write` does.
    this.write('', onParsed)
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
      return untouchedScreen(this.#size, this.#widthModel)
    }
    const terminal = this.#openTerminal()
    const buffer = terminal.buffer.active
    return {
      columns: terminal.cols,
      rows: terminal.rows,
      cursor: {
        row: buffer.cursorY,
        column: buffer.cursorX,
        // Frames under the legacy width model keep the form captures had then (see docs/evidence.md#frames).
        ...(this.#widthModel === WIDTH_MODEL ? cursorVisibility(terminal) : {}),
      },
      lines: this.readLines(),
      serialized_state: this.#serialize(),
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

  /** The cursor's position and visibility, and which buffer is active; call it inside `whenRendered`. */
  readCursorState(): CursorState {
    return this.opened
      ? readCursorState(this.#terminal as XtermTerminal)
      : { row: 0, column: 0, visible: true, alternate: false }
  }

  /** The visible rows with cells drawn as a cursor blanked (see `readRowsWithoutCursorCells`). */
  readRowsWithoutCursorCells(): string[] {
    return this.#untouched ? this.readDrawnLines() : readRowsWithoutCursorCells(this.#openTerminal())
  }

  /** The text of the cursor's row left of the cursor, as drawn: the prompt a program is reading after. */
  readBeforeCursor(): string {
    if (!this.opened) {
      return ''
    }
    const buffer = (this.#terminal as XtermTerminal).buffer.active
    return (
      buffer.getLine(buffer.viewportY + buffer.cursorY)?.translateToString(false, 0, buffer.cursorX) ?? ''
    )
  }

  #visibleRows(read: (line: XtermLine) => string): string[] {
    if (this.#untouched) {
      return untouchedScreen(this.#size, this.#widthModel).lines
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

  get #widthModel(): WidthModel {
    return this.#options.widthModel ?? WIDTH_MODEL
  }

  dispose(): void {
    if (!this.#disposed) {
      this.#disposed = true
      this.#batch = []
      this.#terminal?.dispose()
    }
  }

  #serialize(): string {
    if (this.#serializer === undefined) {
      throw new Error('this renderer does not serialize its screen (serializes: false)')
    }
    return this.#serializer.serialize({ scrollback: this.#size.scrollback })
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
    this.#replies?.parsed()
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
    this.#replies?.parsed()
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
    let Terminal: ReturnType<typeof loadTerminalClass>
    try {
      Terminal = loadTerminalClass()
      if (this.#options.serializes !== false) {
        this.#serializer = new (loadXterm().SerializeAddon)()
      }
    } catch (error) {
      this.#openFailure = new Error(
        `the terminal renderer (@xterm/headless) could not be loaded: ${String(error)}`,
      )
      return undefined
    }
    const terminal = new Terminal({
      cols: this.#size.columns,
      rows: this.#size.rows,
      scrollback: this.#size.scrollback,
      allowProposedApi: true,
      logLevel: 'off',
    })
    try {
      applyWidthModel(terminal, this.#widthModel)
    } catch (error) {
      terminal.dispose()
      this.#openFailure = error instanceof Error ? error : new Error(String(error))
      return undefined
    }
    if (this.#serializer !== undefined) {
      terminal.loadAddon(this.#serializer)
    }
    this.#replies?.install(terminal)
    this.#terminal = terminal
    return terminal
  }
}

function cursorVisibility(terminal: XtermTerminal): { visible?: boolean } {
  const hidden = cursorHidden(terminal)
  return hidden === undefined ? {} : { visible: !hidden }
}

/** Only U+0020 is removed: other trailing whitespace is content the program wrote. */
export function trimTrailingSpaces(line: string): string {
  let end = line.length
  while (end > 0 && line.charCodeAt(end - 1) === 0x20) {
    end--
  }
  return end === line.length ? line : line.slice(0, end)
}
