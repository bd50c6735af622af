import type { ProgressNotification, ProgressToken } from '@modelcontextprotocol/sdk/types.js'
import { type ProgressRecord } from '../capture/progress.js'

export interface ProgressNotifier {
  readonly onProgress: (record: ProgressRecord) => void
  /** Resolves once every record handed over was sent or replaced; the result must not overtake them. */
  flushed(): Promise<void>
}

/**
 * Turns a capture's progress records into `notifications/progress` for one request. `progress` is the record's
 * `sequence`, which increases with every record as MCP requires; `total` is left out because REA does not
 * invent one. While a notification is being sent (a slow client), newer records replace the one waiting, and
 * the terminal record replaces any intermediate one still waiting, as on the CLI's stderr.
 */
export function createProgressNotifier(
  send: (notification: ProgressNotification) => Promise<void>,
  progressToken: ProgressToken,
): ProgressNotifier {
  let sending: Promise<void> | undefined
  let waiting: ProgressRecord | undefined
  const sendNow = (record: ProgressRecord): void => {
    sending = send({
      method: 'notifications/progress',
      params: { progressToken, progress: record.sequence, message: progressMessage(record) },
    })
      .catch(() => {
        // Progress is advisory. A send fails only when the client went away, which cancels the capture anyway.
      })
      .then(() => {
        const next = waiting
        waiting = undefined
        if (next === undefined) {
          sending = undefined
        } else {
          sendNow(next)
        }
      })
  }
  return {
    onProgress(record) {
      if (sending === undefined) {
        sendNow(record)
      } else {
        waiting = record
      }
    },
    async flushed() {
      while (sending !== undefined) {
        await sending
      }
    },
  }
}

/**
 * `phase=running elapsed_ms=1200 frames=1 samples=2 interactions=0`; the terminal record adds the disposition
 * and the cleanup states. Never child output.
 */
export function progressMessage(record: ProgressRecord): string {
  const fields = [`phase=${record.phase}`, record.message]
  if (record.disposition !== undefined) {
    fields.push(`disposition=${record.disposition}`)
  }
  if (record.cleanup !== undefined) {
    const { owned_processes, renderer, temporary_root } = record.cleanup
    fields.push(`owned_processes=${owned_processes} renderer=${renderer} temporary_root=${temporary_root}`)
  }
  return fields.join(' ')
}
