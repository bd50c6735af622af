import { accessSync, constants as fsConstants, statSync } from 'node:fs'
import path from 'node:path'
import { ReaError, type ReaIssue } from '../errors.js'
import { isCoverageVariable } from './coverage-variables.js'
import { RUN_TOKEN_VARIABLE } from './reserved-environment.js'
import type { ProcessScenario } from './schema.js'

/** TERM given to the child unless the scenario's environment sets it. */
export const DEFAULT_TERMINAL_TYPE = 'xterm-256color'
/** An environment name ending in this removes every inherited variable whose name starts with what precedes it. */
export const ENVIRONMENT_PREFIX_WILDCARD = '*'

/**
 * A validated scenario with its paths and environment made concrete for this host: the one value a capture
 * carries through its phases. Nothing resolved here is committed as-is.
 */
export interface ResolvedScenario {
  /** The validated scenario, every default applied. */
  readonly scenario: ProcessScenario
  /** Absolute capture root: relative paths in the scenario are read against it. */
  readonly root: string
  readonly workingDirectory: string
  /** Where the executable was found (informational; the PTY child resolves the name itself). */
  readonly executablePath: string
  /** The inherited environment with the scenario's overrides (null removes); see {@link childEnvironment}. */
  readonly environment: Record<string, string>
  /** TERM for the child and the terminal the PTY declares. */
  readonly terminalType: string
  readonly observationPaths: string[]
}

/**
 * Resolves paths against the capture root and looks the executable up, still before any side effect.
 * `inherited` is the environment the command inherits (the host's, normally).
 */
export function resolveScenario(
  scenario: ProcessScenario,
  root: string,
  inherited: Readonly<Record<string, string | undefined>> = process.env,
): ResolvedScenario {
  const issues: ReaIssue[] = []
  const absoluteRoot = path.resolve(root)
  const workingDirectory = path.resolve(absoluteRoot, scenario.working_directory)
  if (!isDirectory(workingDirectory)) {
    issues.push({
      path: 'working_directory',
      rule: 'directory_exists',
      message: `must name an existing directory: ${workingDirectory} is not one (resolved against the capture root ${absoluteRoot})`,
    })
  }
  const environment = mergeEnvironment(inherited, scenario.environment)
  const executablePath = findExecutable(scenario.executable, workingDirectory, environment['PATH'])
  if (executablePath === undefined && issues.length === 0) {
    issues.push({
      path: 'executable',
      rule: 'executable_found',
      message: scenario.executable.includes('/')
        ? `must name an executable file: ${path.resolve(workingDirectory, scenario.executable)} is missing or not executable`
        : `was not found as an executable on the command's PATH (${environment['PATH'] ?? 'PATH is unset'})`,
    })
  }
  if (issues.length > 0 || executablePath === undefined) {
    throw new ReaError(
      'INVALID_SCENARIO',
      `Invalid scenario (${issues.length} ${issues.length === 1 ? 'problem' : 'problems'}); nothing was run:`,
      { issues },
    )
  }
  return {
    scenario,
    root: absoluteRoot,
    workingDirectory,
    executablePath,
    environment,
    terminalType: scenario.environment['TERM'] ?? DEFAULT_TERMINAL_TYPE,
    observationPaths: scenario.filesystem_observation_paths.map((entry) =>
      path.resolve(workingDirectory, entry),
    ),
  }
}

/**
 * The inherited environment with the scenario's overrides: `null` removes a variable, a name ending in `*` (with
 * `null`) removes every inherited variable that starts with the rest, and a string sets one. A name the
 * scenario sets itself is never removed by a `*` entry, and neither is a coverage variable (coverage is
 * observation, outside the scenario: see `COVERAGE_VARIABLES`). The PTY backends replace the child's environment
 * rather than merging, so REA merges here.
 */
export function mergeEnvironment(
  inherited: Readonly<Record<string, string | undefined>>,
  overrides: Readonly<Record<string, string | null>>,
): Record<string, string> {
  const prefixes = Object.keys(overrides)
    .filter((name) => name.endsWith(ENVIRONMENT_PREFIX_WILDCARD))
    .map((name) => name.slice(0, -ENVIRONMENT_PREFIX_WILDCARD.length))
  const environment = new Map<string, string>()
  for (const [name, value] of Object.entries(inherited)) {
    const removed = !isCoverageVariable(name) && prefixes.some((prefix) => name.startsWith(prefix))
    if (value !== undefined && !removed) {
      environment.set(name, value)
    }
  }
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) {
      environment.delete(name)
    } else {
      environment.set(name, value)
    }
  }
  return Object.fromEntries(environment)
}

/**
 * The child's complete environment, built once for both the size check before the launch and the launch:
 * the merged environment, TERM, PWD (the working directory, as shells and node-pty set it), the run token and
 * what REA sets to collect coverage (`observation`, the capture's own coverage folder). The last two are the
 * launch's, never the scenario's: they are in no commitment.
 */
export function childEnvironment(
  resolved: ResolvedScenario,
  runToken: string,
  observation: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    ...resolved.environment,
    TERM: resolved.terminalType,
    PWD: resolved.workingDirectory,
    ...observation,
    [RUN_TOKEN_VARIABLE]: runToken,
  }
}

/** A name with a slash is a path from the working directory; a bare name is looked up like execvp does. */
export function findExecutable(
  executable: string,
  workingDirectory: string,
  searchPath: string | undefined,
): string | undefined {
  if (executable.includes('/')) {
    const candidate = path.resolve(workingDirectory, executable)
    return isExecutableFile(candidate) ? candidate : undefined
  }
  // With PATH unset, execvp searches the C library's default path, /bin:/usr/bin.
  for (const directory of (searchPath ?? '/bin:/usr/bin').split(path.delimiter)) {
    // An empty PATH entry means the current directory, which for the child is its working directory.
    const candidate = path.resolve(workingDirectory, directory === '' ? '.' : directory, executable)
    if (isExecutableFile(candidate)) {
      return candidate
    }
  }
  return undefined
}

function isDirectory(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory()
  } catch {
    // Missing or unreadable: reported as an invalid working_directory.
    return false
  }
}

function isExecutableFile(candidate: string): boolean {
  try {
    accessSync(candidate, fsConstants.X_OK)
    return statSync(candidate).isFile()
  } catch {
    // Missing or not executable: the lookup moves on, as execvp does.
    return false
  }
}
