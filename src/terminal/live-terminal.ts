import type { TerminalSettings } from '../scenario/schema.js'
import { Renderer, type RendererFlowControl } from './renderer.js'

/**
 * The terminal as the program sees it while it runs: fed with every retained chunk as it arrives (the
 * original text, masked but not normalized, as a real terminal would show it), it answers queries, holds the
 * modes keys are encoded for, and shows the screen waits look at. Frames are rendered separately, from the
 * normalized text. It stops following the output at the first chunk the output budget drops, so a flood past
 * the budget costs it nothing; what needed it then says so.
 */
export class LiveTerminal {
  readonly #renderer: Renderer
  readonly #listeners = new Set<() => void>()
  #stopped: string | undefined

  constructor(
    terminal: TerminalSettings,
    flowControl: RendererFlowControl,
    onReply: ((reply: string) => void) | undefined,
  ) {
    this.#renderer = new Renderer(terminal, flowControl, onReply === undefined ? {} : { onReply })
  }

  /** Output as the program wrote it; ignored once stopped. */
  feed(text: string): void {
    if (this.#stopped === undefined && text !== '') {
      this.#renderer.write(text, () => this.#changed())
    }
  }

  /** Stops following the output, for the reason given; waits on the screen then end. */
  stop(reason: string): void {
    if (this.#stopped === undefined) {
      this.#stopped = reason
      this.#changed()
    }
  }

  get stopped(): string | undefined {
    return this.#stopped
  }

  get applicationCursorKeys(): boolean {
    return this.#renderer.applicationCursorKeys
  }

  /** Everything fed so far is parsed. */
  get idle(): boolean {
    return this.#renderer.idle
  }

  /** The visible rows joined by newlines, or undefined before anything was parsed. */
  screenText(): string | undefined {
    return this.#renderer.opened ? this.#renderer.readLines().join('\n') : undefined
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  whenRendered<T>(read: () => T): Promise<T> {
    return this.#renderer.whenRendered(read)
  }

  resize(columns: number, rows: number): void {
    this.#renderer.resize(columns, rows)
  }

  dispose(): void {
    this.#listeners.clear()
    this.#renderer.dispose()
  }

  #changed(): void {
    for (const listener of this.#listeners) {
      listener()
    }
  }
}
