import type { ProgressNotification } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, test } from 'vitest'
import type { ProgressRecord } from '../../../src/index.js'
import { createProgressNotifier, progressMessage } from '../../../src/mcp/progress-notifier.js'

const intermediate = (sequence: number): ProgressRecord => ({
  phase: 'running',
  completed: sequence,
  total: null,
  message: `elapsed_ms=${sequence * 100} frames=0 samples=${sequence} interactions=0`,
  sequence,
})

const terminal = (sequence: number): ProgressRecord => ({
  phase: 'cleanup',
  completed: 1,
  total: null,
  message: 'elapsed_ms=900 frames=1 samples=0 interactions=0',
  sequence,
  terminal: true,
  disposition: 'cancelled',
  cleanup: { owned_processes: 'completed', renderer: 'disposed', temporary_root: 'not_created' },
})

/** A client whose every send stays pending until the test releases it. */
function slowClient() {
  const sent: ProgressNotification[] = []
  const releases: (() => void)[] = []
  const send = (notification: ProgressNotification) => {
    sent.push(notification)
    return new Promise<void>((resolve) => releases.push(resolve))
  }
  const releaseOne = async () => {
    releases.shift()?.()
    // Let the notifier's continuation run.
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { sent, send, releaseOne }
}

describe('createProgressNotifier', () => {
  test('sends each record with its sequence as progress, no total, and the token', async () => {
    const client = slowClient()
    const notifier = createProgressNotifier(client.send, 'token-1')
    notifier.onProgress(intermediate(1))
    await client.releaseOne()
    notifier.onProgress(intermediate(2))
    await client.releaseOne()
    expect(client.sent.map((notification) => notification.params)).toEqual([
      { progressToken: 'token-1', progress: 1, message: progressMessage(intermediate(1)) },
      { progressToken: 'token-1', progress: 2, message: progressMessage(intermediate(2)) },
    ])
    await notifier.flushed()
  })

  test('merges records that arrive while a send is pending into the latest one', async () => {
    const client = slowClient()
    const notifier = createProgressNotifier(client.send, 7)
    notifier.onProgress(intermediate(1))
    notifier.onProgress(intermediate(2))
    notifier.onProgress(intermediate(3))
    await client.releaseOne()
    await client.releaseOne()
    expect(client.sent.map((notification) => notification.params.progress)).toEqual([1, 3])
    await notifier.flushed()
  })

  test('the terminal record replaces a waiting intermediate one, and flushed waits for it', async () => {
    const client = slowClient()
    const notifier = createProgressNotifier(client.send, 'token')
    notifier.onProgress(intermediate(1))
    notifier.onProgress(intermediate(2))
    notifier.onProgress(terminal(3))
    let flushed = false
    const flushing = notifier.flushed().then(() => (flushed = true))
    await client.releaseOne()
    expect(flushed).toBe(false)
    await client.releaseOne()
    await flushing
    expect(client.sent.map((notification) => notification.params.progress)).toEqual([1, 3])
  })

  test('a failed send (the client went away) does not stop later records', async () => {
    const sent: number[] = []
    const notifier = createProgressNotifier((notification) => {
      sent.push(notification.params.progress)
      return Promise.reject(new Error('Not connected'))
    }, 'token')
    notifier.onProgress(intermediate(1))
    notifier.onProgress(terminal(2))
    await notifier.flushed()
    expect(sent).toEqual([1, 2])
  })
})

describe('progressMessage', () => {
  test('names the phase, then the counts, then the disposition and cleanup states of the terminal record', () => {
    expect(progressMessage(intermediate(4))).toBe(
      'phase=running elapsed_ms=400 frames=0 samples=4 interactions=0',
    )
    expect(progressMessage(terminal(5))).toBe(
      'phase=cleanup elapsed_ms=900 frames=1 samples=0 interactions=0 disposition=cancelled ' +
        'owned_processes=completed renderer=disposed temporary_root=not_created',
    )
  })
})
