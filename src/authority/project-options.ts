import { ReaError, type ReaIssue } from '../errors.js'
import { isPlainObject, objectIssues } from '../internal/plain-object.js'
import { describeValue } from '../internal/zod-issues.js'
import type { TestEnvironmentOptions } from '../scenario/test-defaults.js'
import { matcherOptionsIssues, parseMatcherOptions, type MatcherOptions } from './matcher-options.js'

/** What `configureRea` sets for a project: the matchers' options and the test environment of its captures. */
export interface ProjectOptions extends MatcherOptions, TestEnvironmentOptions {}

const ENVIRONMENT_OPTIONS = ['environment', 'inheritEnvironment'] as const

/**
 * The project's options, set once with `configureRea` in a setup file. Kept on the global object of the test's
 * realm, not in a module: a runner may load `rea-capture/vitest` twice for one test file (once as a setup entry, once from
 * the user's setup file), and both must see the same options.
 */
const KEY = Symbol.for('rea.project-options')

type Holder = Partial<Record<typeof KEY, ProjectOptions>>

/** The options `configureRea` set for the project; none until it is called. */
export function projectOptions(): ProjectOptions {
  return (globalThis as Holder)[KEY] ?? {}
}

/** Adds parsed options to the project's (`configureRea`): the options they name replace, the others stay. */
export function updateProjectOptions(options: ProjectOptions): void {
  ;(globalThis as Holder)[KEY] = { ...projectOptions(), ...options }
}

/**
 * Project-wide options, checked when they are set so that a typo fails the setup file, not every test. Throws
 * INVALID_ARGUMENTS naming every problem.
 */
export function parseProjectOptions(value: unknown, subject: string): ProjectOptions {
  const issues = projectOptionsIssues(value, subject)
  if (issues.length > 0) {
    // Runners print only the message of an error thrown in a setup file: it names every problem itself.
    const details = issues.map((issue) => `\n  - ${issue.path}: ${issue.message}`).join('')
    throw new ReaError('INVALID_ARGUMENTS', `${subject}: the options are not valid:${details}`, { issues })
  }
  const options = (value ?? {}) as ProjectOptions
  const { environment: _environment, inheritEnvironment: _inherit, ...matcherPart } = options
  return {
    ...parseMatcherOptions(matcherPart, subject),
    ...(options.environment === undefined ? {} : { environment: { ...options.environment } }),
    ...(options.inheritEnvironment === undefined
      ? {}
      : { inheritEnvironment: options.inheritEnvironment === true ? true : [...options.inheritEnvironment] }),
  }
}

function projectOptionsIssues(value: unknown, path: string): ReaIssue[] {
  if (!isPlainObject(value)) {
    return matcherOptionsIssues(value, path)
  }
  const record = value
  const matcherPart = Object.fromEntries(
    Object.entries(record).filter(([name]) => !(ENVIRONMENT_OPTIONS as readonly string[]).includes(name)),
  )
  return [
    ...matcherOptionsIssues(matcherPart, path).map((issue) =>
      issue.rule === 'unknown_key'
        ? { ...issue, message: `${issue.message.slice(0, -1)}, ${ENVIRONMENT_OPTIONS.join(', ')})` }
        : issue,
    ),
    ...environmentIssues(record['environment'], `${path}.environment`),
    ...inheritIssues(record['inheritEnvironment'], `${path}.inheritEnvironment`),
  ]
}

function environmentIssues(value: unknown, path: string): ReaIssue[] {
  if (value === undefined) {
    return []
  }
  if (!isPlainObject(value)) {
    return objectIssues(value, path, 'an object of variable names to a string or null')
  }
  return Object.entries(value).flatMap(([name, entry]): ReaIssue[] => {
    if (name === '' || name.includes('=') || name.includes('\0')) {
      return [
        {
          path: `${path}.${name}`,
          rule: 'environment_name',
          message: 'a variable name may not be empty or contain "=" or NUL',
        },
      ]
    }
    if (entry !== null && typeof entry !== 'string') {
      return [
        {
          path: `${path}.${name}`,
          rule: 'type',
          message: `must be a string (the value) or null (removed): got ${describeValue(entry)}`,
        },
      ]
    }
    if (name.includes('*') && (entry !== null || name.indexOf('*') !== name.length - 1)) {
      return [
        {
          path: `${path}.${name}`,
          rule: 'environment_wildcard',
          message: 'a name with "*" removes a family of variables: one "*", at the end, with the value null',
        },
      ]
    }
    return []
  })
}

function inheritIssues(value: unknown, path: string): ReaIssue[] {
  if (value === undefined || value === true) {
    return []
  }
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string' || name === '')) {
    return [
      {
        path,
        rule: 'type',
        message: `must be true (inherit everything) or a list of variable names (such as ["CI", "VSCODE_*"]): got ${describeValue(value)}`,
      },
    ]
  }
  return []
}
