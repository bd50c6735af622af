import { setTimeout as delay } from 'node:timers/promises'

export interface WaitForOptions {
  readonly timeoutMs?: number
  readonly intervalMs?: number
  readonly description?: string
}

/** Polls `condition` until it returns a value other than false/undefined; never a fixed sleep. */
export async function waitFor<T>(
  condition: () => T | false | undefined | Promise<T | false | undefined>,
  options: WaitForOptions = {},
): Promise<T> {
  const deadline = performance.now() + (options.timeoutMs ?? 20_000)
  for (;;) {
    const result = await condition()
    if (result !== false && result !== undefined) {
      return result
    }
    if (performance.now() > deadline) {
      throw new Error(
        `waitFor timed out${options.description === undefined ? '' : `: ${options.description}`}`,
      )
    }
    await delay(options.intervalMs ?? 10)
  }
}
