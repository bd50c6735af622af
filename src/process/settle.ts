import { setTimeout as delay } from 'node:timers/promises'
import { scanForRunToken, type TokenScan } from './token-scan.js'

const SETTLE_POLL_MS = 10

export type SettlementStatus = 'quiesced' | 'cleanup_needed' | 'unverifiable'

export interface Settlement {
  readonly status: SettlementStatus
  readonly elapsed_ms: number
  readonly reason?: string
  /** The last scan made; cleanup starts from it instead of scanning again. */
  readonly lastScan?: TokenScan
}

/**
 * After the root exited, watches for processes that still carry the run token until none is left
 * (`quiesced`) or `settleMs` runs out (`cleanup_needed`). It returns as soon as the tree is quiet, so a short
 * command does not pay the whole settle interval.
 */
export async function awaitSettlement(token: string, settleMs: number): Promise<Settlement> {
  const startedAt = performance.now()
  const elapsed = (): number => Math.round(performance.now() - startedAt)
  if (process.platform !== 'linux') {
    return {
      status: 'unverifiable',
      elapsed_ms: 0,
      reason: `process inspection is not available on ${process.platform}`,
    }
  }
  for (;;) {
    const scan = await scanForRunToken(token)
    if (scan.holders.length === 0) {
      return { status: 'quiesced', elapsed_ms: elapsed(), lastScan: scan }
    }
    if (performance.now() - startedAt >= settleMs) {
      return { status: 'cleanup_needed', elapsed_ms: elapsed(), lastScan: scan }
    }
    await delay(Math.min(SETTLE_POLL_MS, Math.max(1, settleMs - (performance.now() - startedAt))))
  }
}
