import type { ProgressRecord } from '../capture/progress.js'

/**
 * Writes progress records to a stream as `{"rea_progress": …}` lines. While the stream is backed up, newer
 * intermediate records replace the one waiting (so `sequence` may skip); the terminal record always goes out and
 * discards any intermediate record still waiting.
 */
export function createProgressWriter(stream: NodeJS.WritableStream): (record: ProgressRecord) => void {
  let waiting: ProgressRecord | undefined
  let blocked = false
  const write = (record: ProgressRecord): void => {
    if (!stream.write(`${JSON.stringify({ rea_progress: record })}\n`)) {
      blocked = true
      stream.once('drain', () => {
        blocked = false
        const next = waiting
        waiting = undefined
        if (next !== undefined) {
          write(next)
        }
      })
    }
  }
  return (record) => {
    if (record.terminal === true) {
      waiting = undefined
      stream.write(`${JSON.stringify({ rea_progress: record })}\n`)
    } else if (blocked) {
      waiting = record
    } else {
      write(record)
    }
  }
}
