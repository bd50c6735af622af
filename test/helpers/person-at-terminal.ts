import { createRequire } from 'node:module'
import { setTimeout as delay } from 'node:timers/promises'
import type * as NodePty from 'node-pty'
import { Renderer } from '../../src/screen/renderer.js'
import { waitFor } from './wait-for.js'

const pty = createRequire(import.meta.url)('node-pty') as typeof NodePty

/**
 * A person at a terminal: runs a command in a PTY of its own (the person's terminal), shows its output on a
 * screen model, and types keys one write at a time with a chosen gap, as fingers do. For tests that drive
 * `rea record` the way a person uses it, at a human pace or at a fast typist's.
 */
export class PersonAtTerminal {
  readonly #child: NodePty.IPty
  readonly #screen: Renderer
  #output = ''
  readonly exited: Promise<{ readonly code: number; readonly signal: number | undefined }>

  constructor(
    command: readonly string[],
    options: { cwd: string; env?: Record<string, string>; columns?: number; rows?: number },
  ) {
    const columns = options.columns ?? 80
    const rows = options.rows ?? 24
    this.#screen = new Renderer({ columns, rows, scrollback: 0 })
    this.#child = pty.spawn(command[0] as string, command.slice(1), {
      cwd: options.cwd,
      cols: columns,
      rows,
      name: 'xterm-256color',
      env: { ...process.env, NO_COLOR: '1', ...options.env },
    })
    this.#child.onData((data) => {
      this.#output += data
      this.#screen.write(data)
    })
    this.exited = new Promise((resolve) =>
      this.#child.onExit(({ exitCode, signal }) => resolve({ code: exitCode, signal })),
    )
  }

  get pid(): number {
    return this.#child.pid
  }

  /** Everything the terminal received. */
  get output(): string {
    return this.#output
  }

  async screen(): Promise<string> {
    return (await this.#screen.whenRendered(() => this.#screen.readLines())).join('\n')
  }

  /** Waits until the screen shows `text`, then until it has stopped changing for `quietMs` (a person reads). */
  async waitFor(text: string | RegExp, quietMs = 0, timeoutMs = 60_000): Promise<void> {
    await waitFor(
      async () => {
        const screen = await this.screen()
        // Rows are read without trailing spaces: a prompt's own is not there to match.
        return typeof text === 'string' ? screen.includes(text.trimEnd()) : text.test(screen)
      },
      { timeoutMs, description: `the screen to show ${String(text)}:\n${await this.screen()}` },
    )
    if (quietMs > 0) {
      let seen = this.#output.length
      await waitFor(
        async () => {
          await delay(quietMs)
          const quiet = this.#output.length === seen
          seen = this.#output.length
          return quiet
        },
        { timeoutMs },
      )
    }
  }

  /** Types `keys` one write each, `gapMs` apart (the bytes of a key go in one write, as a terminal sends them). */
  async type(keys: readonly string[], gapMs: number): Promise<void> {
    for (const [index, key] of keys.entries()) {
      if (index > 0) {
        await delay(gapMs)
      }
      this.#child.write(key)
    }
  }

  /** Ends the terminal's process if it is still running (a failed test). */
  kill(): void {
    try {
      this.#child.kill('SIGKILL')
    } catch {
      // Already gone: nothing to end.
    }
  }

  dispose(): void {
    this.#screen.dispose()
  }
}
