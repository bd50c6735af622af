import { realpathSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PLACEHOLDER_NAMES } from '../scenario/schema.js'
import {
  MIN_PLACEHOLDER_CHARACTERS,
  PLACEHOLDER_KINDS,
  PLACEHOLDER_TOKENS,
  pathSpellings,
  wordSpellings,
  type PlaceholderName,
  type Spelling,
} from './placeholders.js'

/** What a capture's placeholders are resolved from: its own context on this host. */
export interface PlaceholderContext {
  readonly root: string
  readonly workingDirectory: string
  /** The environment the command runs with (inherited, then the scenario's overrides). */
  readonly environment: Readonly<Record<string, string>>
}

export type PlaceholderSkipReason = 'unset' | 'too_short' | 'same_value'

/** What became of one requested placeholder; never its value, which is a fact of the capturing machine. */
export type PlaceholderResolution =
  | { readonly name: PlaceholderName; readonly token: string; readonly status: 'applied' }
  | {
      readonly name: PlaceholderName
      readonly token: string
      readonly status: 'skipped'
      readonly reason: PlaceholderSkipReason
      /** For `same_value`: the placeholder whose token is written instead. */
      readonly same_as?: PlaceholderName
    }

export interface ResolvedPlaceholders {
  readonly spellings: readonly Spelling[]
  readonly resolutions: readonly PlaceholderResolution[]
}

/**
 * Resolves the requested placeholders from the capture's context. Where two names have the same value, the one
 * listed first in `PLACEHOLDER_NAMES` is written (`[ROOT]` over `[CWD]` when the command runs in the capture
 * root); a value too short to mean anything is skipped rather than replacing ordinary text.
 */
export function resolvePlaceholders(
  requested: readonly PlaceholderName[],
  context: PlaceholderContext,
): ResolvedPlaceholders {
  const spellings: Spelling[] = []
  const resolutions: PlaceholderResolution[] = []
  const claimed = new Map<string, PlaceholderName>()
  for (const name of PLACEHOLDER_NAMES.filter((candidate) => requested.includes(candidate))) {
    const token = PLACEHOLDER_TOKENS[name]
    const value = placeholderValue(name, context)
    if (value === undefined) {
      resolutions.push({ name, token, status: 'skipped', reason: 'unset' })
      continue
    }
    if (value.length < MIN_PLACEHOLDER_CHARACTERS) {
      resolutions.push({ name, token, status: 'skipped', reason: 'too_short' })
      continue
    }
    const owner = claimed.get(value)
    if (owner !== undefined) {
      resolutions.push({ name, token, status: 'skipped', reason: 'same_value', same_as: owner })
      continue
    }
    claimed.set(value, name)
    if (PLACEHOLDER_KINDS[name] === 'word') {
      spellings.push(...wordSpellings(name, value))
    } else {
      const real = realPath(value)
      const paths = real === undefined || real === value || claimed.has(real) ? [value] : [value, real]
      spellings.push(...pathSpellings(name, paths))
    }
    resolutions.push({ name, token, status: 'applied' })
  }
  // A spelling shared by two names (one's real path is the other's value) belongs to the one listed first.
  const seen = new Set<string>()
  return {
    spellings: spellings.filter((spelling) => !seen.has(spelling.text) && seen.add(spelling.text)),
    resolutions,
  }
}

function placeholderValue(name: PlaceholderName, context: PlaceholderContext): string | undefined {
  const environment = context.environment
  switch (name) {
    case 'root':
      return trimSeparator(context.root)
    case 'cwd':
      return trimSeparator(context.workingDirectory)
    case 'home':
      return nonEmpty(environment['HOME'], trimSeparator)
    case 'tmpdir':
      // Without TMPDIR the command's temporary directory is the system's, not REA's own TMPDIR.
      return nonEmpty(environment['TMPDIR'], trimSeparator) ?? '/tmp'
    case 'user':
      return nonEmpty(environment['USER']) ?? nonEmpty(environment['LOGNAME']) ?? accountName()
    case 'hostname':
      // The system's name, never a HOSTNAME variable: shells set that one themselves and it can be stale.
      return nonEmpty(os.hostname())
  }
}

function nonEmpty(value: string | undefined, shape: (value: string) => string = (same) => same) {
  return value === undefined || value === '' ? undefined : shape(value)
}

function trimSeparator(value: string): string {
  const normalized = path.normalize(value)
  return normalized.length > 1 && normalized.endsWith('/') ? normalized.slice(0, -1) : normalized
}

function realPath(value: string): string | undefined {
  try {
    return realpathSync.native(value)
  } catch {
    // A path that does not exist (HOME may not) has no other spelling.
    return undefined
  }
}

function accountName(): string | undefined {
  try {
    return os.userInfo().username
  } catch {
    // No passwd entry for this uid (some containers): the user placeholder is unset.
    return undefined
  }
}
