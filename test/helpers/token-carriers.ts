import { readdirSync, readFileSync } from 'node:fs'

export interface TokenCarrier {
  readonly pid: number
  readonly command: string
}

/**
 * Live processes whose environment carries a REA run token, optionally only those that also carry
 * `marker` (`NAME=value`), e.g. the test worker that started them. Zombies have no readable environment.
 */
export function findTokenCarriers(marker?: string): TokenCarrier[] {
  const carriers: TokenCarrier[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) {
      continue
    }
    let environ: string
    try {
      environ = readFileSync(`/proc/${name}/environ`, 'latin1')
    } catch {
      // Exited between the listing and the read, or a zombie: not a live carrier.
      continue
    }
    const entries = environ.split('\0')
    if (!entries.some((entry) => entry.startsWith('REA_RUN_TOKEN='))) {
      continue
    }
    if (marker !== undefined && !entries.includes(marker)) {
      continue
    }
    let command = ''
    try {
      command = readFileSync(`/proc/${name}/cmdline`, 'latin1').replaceAll('\0', ' ').trim()
    } catch {
      // The command line is only for the failure message.
    }
    carriers.push({ pid: Number(name), command })
  }
  return carriers
}

/** The marker every capture started from this worker inherits. */
export const WORKER_MARKER_VARIABLE = 'REA_TEST_WORKER'
