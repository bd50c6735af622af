/**
 * The terminal of the person at the keyboard, as `rea record` and `rea review` use it: Node's TTY streams, or
 * anything that behaves like them (tests pass a PTY's streams). Raw mode, the size and its changes are all either
 * command needs.
 */
export interface PersonTerminal {
  readonly input: NodeJS.ReadableStream & { setRawMode(raw: boolean): unknown; readonly isRaw?: boolean }
  readonly output: NodeJS.WritableStream & {
    readonly columns: number
    readonly rows: number
    on(event: 'resize', listener: () => void): unknown
    off(event: 'resize', listener: () => void): unknown
  }
}
