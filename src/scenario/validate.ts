import { ReaError, type ReaIssue } from '../errors.js'
import { describeValue, zodIssuesToReaIssues } from '../internal/zod-issues.js'
import { parseKeyName } from './key-names.js'
import { isCoverageVariable } from './coverage-variables.js'
import { RUN_TOKEN_VARIABLE } from './reserved-environment.js'
import {
  DEFAULT_SETTLE_MS,
  DEFAULT_TERMINAL,
  DEFAULT_TIMEOUT_MS,
  processScenarioSchema,
  TERMINAL_CELL_BUDGET,
  type ProcessScenario,
} from './schema.js'
import { compileWaitRegex, WAIT_CONDITIONS, WAIT_REGEX_FLAGS } from './wait-condition.js'

/**
 * Validates a scenario before anything is launched and applies its defaults.
 * Throws one `INVALID_SCENARIO` error listing every problem found, structural and semantic.
 *
 * @example
 * const scenario = validateScenario({ executable: 'node', arguments: ['app.mjs'] })
 */
export function validateScenario(input: unknown): ProcessScenario {
  // A scenario is parsed once per capture. zod's fast path is code it generates (new Function) on the first parse
  // of each object schema: building it costs more than one parse saves (measured in docs/performance.md).
  const result = processScenarioSchema.safeParse(input, { reportInput: true, jitless: true })
  const issues = [
    ...(result.success ? [] : zodIssuesToReaIssues(result.error, processScenarioSchema, input)),
    ...collectSemanticIssues(input),
  ]
  if (!result.success || issues.length > 0) {
    throw new ReaError('INVALID_SCENARIO', invalidScenarioMessage(issues.length), { issues })
  }
  return result.data
}

function invalidScenarioMessage(count: number): string {
  return `Invalid scenario (${count} ${count === 1 ? 'problem' : 'problems'}); nothing was run:`
}

type Loose = Record<string, unknown>

const isRecord = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isInt = (value: unknown): value is number => Number.isSafeInteger(value)
const intOr = (value: unknown, fallback: number): number | undefined =>
  value === undefined ? fallback : isInt(value) ? value : undefined

/**
 * Cross-field rules. They read the raw input defensively (a field of the wrong type is left to the schema), so
 * a scenario with both a typo and an ordering mistake reports both at once.
 */
function collectSemanticIssues(input: unknown): ReaIssue[] {
  if (!isRecord(input)) {
    return []
  }
  const issues: ReaIssue[] = []
  const timeoutMs = intOr(input['timeout_ms'], DEFAULT_TIMEOUT_MS)
  const terminal = isRecord(input['terminal'])
    ? input['terminal']
    : input['terminal'] === undefined
      ? {}
      : undefined
  const scrollback =
    terminal === undefined ? undefined : intOr(terminal['scrollback'], DEFAULT_TERMINAL.scrollback)

  if (terminal !== undefined && scrollback !== undefined) {
    const columns = intOr(terminal['columns'], DEFAULT_TERMINAL.columns)
    const rows = intOr(terminal['rows'], DEFAULT_TERMINAL.rows)
    checkCellBudget(issues, 'terminal', 'the start size', columns, rows, scrollback)
  }

  const events = Array.isArray(input['events']) ? (input['events'] as unknown[]) : []
  let previousAtMs: number | undefined
  events.forEach((event, index) => {
    if (!isRecord(event)) {
      return
    }
    const atMs = event['at_ms']
    if (isInt(atMs)) {
      if (previousAtMs !== undefined && atMs < previousAtMs) {
        issues.push({
          path: `events[${index}].at_ms`,
          rule: 'event_order',
          message: `events must be in non-decreasing at_ms order: got ${describeValue(atMs)} after ${describeValue(previousAtMs)}`,
        })
      }
      if (timeoutMs !== undefined && atMs > timeoutMs) {
        issues.push({
          path: `events[${index}].at_ms`,
          rule: 'event_within_timeout',
          message: `must be ≤ timeout_ms (${describeValue(timeoutMs)}): got ${describeValue(atMs)}`,
        })
      }
      previousAtMs = atMs
    }
    issues.push(...eventShapeIssues(event, index))
    if (
      event['type'] === 'resize' &&
      scrollback !== undefined &&
      isInt(event['columns']) &&
      isInt(event['rows'])
    ) {
      checkCellBudget(issues, `events[${index}]`, 'this resize', event['columns'], event['rows'], scrollback)
    }
  })

  const finalizationMs = intOr(input['finalization_ms'], 0)
  const settleMs = intOr(input['settle_ms'], DEFAULT_SETTLE_MS)
  if (timeoutMs !== undefined && finalizationMs !== undefined && settleMs !== undefined) {
    const total = timeoutMs + finalizationMs + settleMs
    if (!Number.isSafeInteger(total)) {
      issues.push({
        path: 'timeout_ms',
        rule: 'lifecycle_budget',
        message:
          `timeout_ms + finalization_ms + settle_ms must be ≤ Number.MAX_SAFE_INTEGER (9,007,199,254,740,991), ` +
          `the largest total a JavaScript number holds exactly: got ${describeValue(timeoutMs)} + ` +
          `${describeValue(finalizationMs)} + ${describeValue(settleMs)}`,
      })
    }
  }

  issues.push(...redactionIssues(input['normalization']))

  const environment = input['environment']
  issues.push(...wildcardIssues(environment))
  if (isRecord(environment) && Object.hasOwn(environment, RUN_TOKEN_VARIABLE)) {
    issues.push({
      path: `environment.${RUN_TOKEN_VARIABLE}`,
      rule: 'reserved_variable',
      message: `is set by REA for every capture to find the processes it owns; a scenario may not override it`,
    })
  }
  issues.push(...coverageVariableIssues(environment))
  // JSON.parse keeps "__proto__" as a key, but an object built from it drops it (the name sets the prototype),
  // so the variable would vanish without a word, from the run and from every commitment.
  if (isRecord(environment) && Object.hasOwn(environment, '__proto__')) {
    issues.push({
      path: 'environment.__proto__',
      rule: 'environment_name',
      message:
        'is not supported as a variable name: REA could not keep it through validation, commitments and Evidence, and would drop it; rename the variable',
    })
  }
  return issues
}

/**
 * What an event's fields say together: when it happens (at_ms, after, or both), what an input sends (data or
 * keys), which keys, and whether its wait names exactly one condition with a regex that compiles.
 */
function eventShapeIssues(event: Loose, index: number): ReaIssue[] {
  const issues: ReaIssue[] = []
  const at = `events[${index}]`
  const after = event['after']
  if (event['at_ms'] === undefined && after === undefined) {
    issues.push({
      path: `${at}.at_ms`,
      rule: 'event_time',
      message: 'is required unless the event waits with after: give a time from launch, a condition, or both',
    })
  }
  if (isRecord(after)) {
    const named = WAIT_CONDITIONS.filter((kind) => after[kind] !== undefined)
    // A wait for quiet alone names no condition: the program has printed nothing for quiet_ms.
    const quietAlone = named.length === 0 && after['quiet_ms'] !== undefined
    if (named.length !== 1 && !quietAlone) {
      issues.push({
        path: `${at}.after`,
        rule: 'wait_condition',
        message: `must name exactly one of ${WAIT_CONDITIONS.join(', ')}, or give quiet_ms alone: got ${named.length === 0 ? 'none' : named.join(' and ')}`,
      })
    }
    for (const kind of ['output_regex', 'screen_regex'] as const) {
      const source = after[kind]
      if (typeof source === 'string') {
        const compiled = compileWaitRegex(source)
        if ('error' in compiled) {
          issues.push({
            path: `${at}.after.${kind}`,
            rule: 'wait_regex',
            message: `must be a JavaScript regular expression (flags ${WAIT_REGEX_FLAGS}): ${compiled.error}`,
          })
        }
      }
    }
  }
  if (event['type'] === 'input') {
    const hasData = event['data'] !== undefined
    const hasKeys = event['keys'] !== undefined
    if (hasData === hasKeys) {
      issues.push({
        path: at,
        rule: 'input_content',
        message: `an input event sends exactly one of data and keys: got ${hasData ? 'both' : 'neither'}`,
      })
    }
    const keys = event['keys']
    if (Array.isArray(keys)) {
      keys.forEach((name, position) => {
        if (typeof name === 'string' && name !== '' && parseKeyName(name) === null) {
          issues.push({
            path: `${at}.keys[${position}]`,
            rule: 'key_name',
            message: `is not a key name: got ${describeValue(name)}; use a name such as Enter, Tab, Escape, Backspace, Space, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1–F12, a single character, Ctrl+<letter> or Alt+<key> (docs/events.md)`,
          })
        }
      })
    }
  }
  return issues
}

/**
 * A name with `*` removes a family of inherited variables: one `*`, at the end, after a prefix, and only with
 * `null`, since a family cannot be set to one value.
 */
function wildcardIssues(environment: unknown): ReaIssue[] {
  if (!isRecord(environment)) {
    return []
  }
  return Object.entries(environment).flatMap(([name, value]): ReaIssue[] => {
    if (!name.includes('*')) {
      return []
    }
    const wellFormed = name.indexOf('*') === name.length - 1 && name.length > 1
    if (wellFormed && value === null) {
      return []
    }
    return [
      {
        path: `environment.${name}`,
        rule: 'environment_wildcard',
        message: wellFormed
          ? `removes every inherited variable starting with ${describeValue(name.slice(0, -1))}, so its value must be null: got ${describeValue(value)}`
          : 'may hold "*" only once, at the end, after a prefix (as in "CI_*": null, which removes every inherited CI_ variable)',
      },
    ]
  })
}

/**
 * Coverage is observation, outside the contract: a scenario that set a coverage variable would commit where one
 * machine keeps its coverage into every authority, and one that removed it would make a capture with coverage and
 * one without incomparable.
 */
function coverageVariableIssues(environment: unknown): ReaIssue[] {
  if (!isRecord(environment)) {
    return []
  }
  return Object.keys(environment)
    .filter(isCoverageVariable)
    .map((name) => ({
      path: `environment.${name}`,
      rule: 'coverage_variable',
      message:
        'makes the program write coverage, which is observation and stays outside the scenario and its ' +
        'comparison contract (a scenario may neither set nor remove it): use `rea capture-process --coverage ' +
        "<dir>`, the test runner's coverage switch, or set it in the environment REA runs in (docs/coverage.md)",
    }))
}

/** Each redaction's expression must compile as REA runs it, with the flags waits use. */
function redactionIssues(normalization: unknown): ReaIssue[] {
  const redactions = isRecord(normalization) ? normalization['redactions'] : undefined
  if (!Array.isArray(redactions)) {
    return []
  }
  const issues: ReaIssue[] = []
  redactions.forEach((redaction: unknown, index) => {
    const source = isRecord(redaction) ? redaction['regex'] : undefined
    if (typeof source !== 'string' || source === '') {
      return
    }
    const compiled = compileWaitRegex(source)
    if ('error' in compiled) {
      issues.push({
        path: `normalization.redactions[${index}].regex`,
        rule: 'redaction_regex',
        message: `must be a JavaScript regular expression (flags ${WAIT_REGEX_FLAGS}): ${compiled.error}`,
      })
    }
  })
  return issues
}

function checkCellBudget(
  issues: ReaIssue[],
  path: string,
  what: string,
  columns: number | undefined,
  rows: number | undefined,
  scrollback: number,
): void {
  if (columns === undefined || rows === undefined) {
    return
  }
  const cells = columns * (rows + scrollback)
  if (cells > TERMINAL_CELL_BUDGET) {
    issues.push({
      path,
      rule: 'cell_budget',
      message:
        `columns × (rows + scrollback) must be ≤ 1,000,000 for ${what}: got ${describeValue(columns)} × ` +
        `(${describeValue(rows)} + ${describeValue(scrollback)}) = ${describeValue(cells)}; REA never clamps, ` +
        `lower the size or terminal.scrollback`,
    })
  }
}
