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
  return findCarriers(
    (entries) =>
      entries.some((entry) => entry.startsWith('REA_RUN_TOKEN=')) &&
      (marker === undefined || entries.includes(marker)),
  )
}

/**
 * Live processes that inherited `marker` (`NAME=value`): everything a test worker started, captures and the
 * helper processes tests spawn themselves (writers, holders), except the worker itself.
 */
export function findMarkerCarriers(marker: string): TokenCarrier[] {
  return findCarriers((entries) => entries.includes(marker))
}

function findCarriers(matches: (environment: string[]) => boolean): TokenCarrier[] {
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
    if (!matches(environ.split('\0'))) {
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

/** This worker's marker as `NAME=value`, to find only what this worker's tests started. */
export function workerMarker(): string {
  return `${WORKER_MARKER_VARIABLE}=${process.env[WORKER_MARKER_VARIABLE] ?? process.pid}`
}
