import type { ReaIssue } from '../errors.js'
import { describeValue } from './zod-issues.js'

/** Whether `value` is an object with fields: not null, not an array (both are objects to `typeof`). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The issue of an option that must be an object, or none when it is one. `expected` completes "must be …", so
 * the message says what to write: `must be an object such as { timing: 'strict' }: got 'strict'`.
 */
export function objectIssues(value: unknown, path: string, expected: string): ReaIssue[] {
  return isPlainObject(value)
    ? []
    : [{ path, rule: 'type', message: `must be ${expected}: got ${describeValue(value)}` }]
}
