import { randomUUID } from 'node:crypto'
import { RUN_TOKEN_VARIABLE } from '../scenario/reserved-environment.js'

/**
 * A fresh token per capture: 122 random bits (a v4 UUID, drawn from Node's cached entropy pool, which is much
 * cheaper per call than `randomBytes`), so parallel captures never claim each other's processes.
 */
export function createRunToken(): string {
  return `rea-${randomUUID().replaceAll('-', '')}`
}

/** The exact `NAME=value` entry to look for in a process environment block. */
export function runTokenEntry(token: string): string {
  return `${RUN_TOKEN_VARIABLE}=${token}`
}
