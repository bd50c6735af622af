/** The signals that end a run of REA early: Ctrl-C, `kill`, and a closed terminal or dropped session. */
export const CANCELLING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
export type CancellingSignal = (typeof CANCELLING_SIGNALS)[number]

/**
 * Commands that turn a signal into cancellation: they own processes or captures that must be cleaned up and
 * recorded, or a terminal that must be given back (`review`). The other commands keep the default action, which
 * ends them at once.
 */
const CANCELLING_COMMANDS: ReadonlySet<string> = new Set([
  'capture-process',
  'mcp',
  'record',
  'review',
  'test',
])

export interface SignalCancellation {
  /** Aborted by the first signal, with the signal's name as its reason. */
  readonly signal: AbortSignal
  /** The first signal received, if any. */
  readonly received: () => CancellingSignal | undefined
}

/**
 * Installs the handlers for `command` (argv[2]) and records the first signal. Called before the rest of REA
 * is loaded, so a signal in the first few hundred milliseconds is seen; later signals are ignored, so a
 * second Ctrl-C does not cut cleanup short.
 */
export function installSignalHandlers(command: string | undefined): SignalCancellation {
  const controller = new AbortController()
  let received: CancellingSignal | undefined
  if (command !== undefined && CANCELLING_COMMANDS.has(command)) {
    for (const name of CANCELLING_SIGNALS) {
      process.on(name, () => {
        if (received === undefined) {
          received = name
          controller.abort(name)
        }
      })
    }
  }
  return { signal: controller.signal, received: () => received }
}
