import type { ReaIssue } from '../../errors.js'
import { normalizeLine } from './terminal-lines.js'

type Loose = Record<string, unknown>

const isRecord = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const quote = (text: string) => JSON.stringify(text)

/**
 * Rules across fields. They read the raw input defensively (a field of the wrong type is left to the schema),
 * so a specification with a typo and a cycle reports both at once.
 */
export function specSemanticIssues(document: Loose): ReaIssue[] {
  const events = Array.isArray(document['events']) ? (document['events'] as unknown[]) : []
  const issues: ReaIssue[] = []
  const kindById = new Map<string, string>()
  const firstIndexById = new Map<string, number>()
  const firstByMatcher = new Map<string, number>()
  events.forEach((event, index) => {
    if (!isRecord(event)) {
      return
    }
    const path = `events[${index}]`
    const id = event['id']
    if (typeof id === 'string' && id !== '') {
      const first = firstIndexById.get(id)
      if (first === undefined) {
        firstIndexById.set(id, index)
        kindById.set(id, kindOf(event))
      } else {
        issues.push({
          path: `${path}.id`,
          rule: 'duplicate_id',
          message: `${quote(id)} is already the id of events[${first}]`,
        })
      }
    }
    const line = event['line']
    if (typeof line === 'string') {
      const problem = unmatchableLine(line)
      if (problem !== undefined) {
        issues.push({ path: `${path}.line`, rule: 'unmatchable_line', message: problem })
      }
    }
    const matcher = matcherOf(event)
    if (matcher !== undefined) {
      const first = firstByMatcher.get(matcher.key)
      if (first === undefined) {
        firstByMatcher.set(matcher.key, index)
      } else {
        issues.push({
          path: `${path}.${matcher.field}`,
          rule: 'duplicate_event',
          message: `accepts the same observations as events[${first}]; ${matcher.advice}`,
        })
      }
    }
  })
  const order = Array.isArray(document['order']) ? (document['order'] as unknown[]) : []
  const edges: Edge[] = []
  order.forEach((constraint, index) => {
    if (!isRecord(constraint)) {
      return
    }
    const { before, after } = constraint
    let usable = typeof before === 'string' && typeof after === 'string'
    for (const side of ['before', 'after'] as const) {
      const id = constraint[side]
      if (typeof id !== 'string') {
        continue
      }
      const kind = kindById.get(id)
      if (kind === undefined) {
        usable = false
        issues.push({
          path: `order[${index}].${side}`,
          rule: 'unknown_event',
          message: `${quote(id)} names no event; ids are ${listIds([...kindById.keys()])}`,
        })
      } else if (kind === 'file') {
        usable = false
        issues.push({
          path: `order[${index}].${side}`,
          rule: 'unobservable_order',
          message: `${quote(id)} is a file effect: effects come from comparing two snapshots and have no position in the journal, so they cannot be ordered`,
        })
      }
    }
    if (usable && before === after) {
      usable = false
      issues.push({
        path: `order[${index}]`,
        rule: 'order_cycle',
        message: `puts ${quote(String(before))} before itself`,
      })
    }
    if (usable) {
      edges.push({ before: String(before), after: String(after), index })
    }
  })
  return [...issues, ...cycleIssues(edges)]
}

function kindOf(event: Loose): string {
  return ['line', 'interaction', 'exit', 'file'].find((kind) => Object.hasOwn(event, kind)) ?? 'none'
}

/** Why an observed line could never equal this text, or undefined when it could. */
export function unmatchableLine(line: string): string | undefined {
  if (line.includes('\n')) {
    return 'must be a single line: observed lines are split at "\\n"'
  }
  const normalized = normalizeLine(line)
  if (normalized === '') {
    return 'is blank after normalization, and blank lines are not events'
  }
  if (normalized !== line) {
    return `can never match: observed lines have escape sequences and trailing spaces and carriage returns removed, so write ${quote(normalized)}`
  }
  return undefined
}

interface Matcher {
  readonly key: string
  readonly field: string
  readonly advice: string
}

/** Two events with the same matcher would compete for the same observations, so which one matched is arbitrary. */
function matcherOf(event: Loose): Matcher | undefined {
  const { line, interaction, exit, file } = event
  if (typeof line === 'string') {
    return { key: `line:${line}`, field: 'line', advice: 'use one event with "count" for a repeated line' }
  }
  if (isRecord(interaction) && typeof interaction['event_index'] === 'number') {
    const advice = 'each scenario event has one outcome'
    return { key: `interaction:${interaction['event_index']}`, field: 'interaction.event_index', advice }
  }
  if (exit !== undefined) {
    return { key: 'exit', field: 'exit', advice: 'a capture has one exit' }
  }
  if (isRecord(file) && typeof file['path'] === 'string') {
    return { key: `file:${file['path']}`, field: 'file.path', advice: 'each path has one effect' }
  }
  return undefined
}

function listIds(ids: readonly string[]): string {
  if (ids.length === 0) {
    return 'none (no valid events)'
  }
  const shown = ids.slice(0, 10).map(quote).join(', ')
  return ids.length > 10 ? `${shown} and ${ids.length - 10} more` : shown
}

interface Edge {
  readonly before: string
  readonly after: string
  readonly index: number
}

/** One issue per cycle found by depth-first search, naming its events and the constraints that form it. */
function cycleIssues(edges: readonly Edge[]): ReaIssue[] {
  const outgoing = new Map<string, Edge[]>()
  for (const edge of edges) {
    outgoing.set(edge.before, [...(outgoing.get(edge.before) ?? []), edge])
  }
  const state = new Map<string, 'open' | 'done'>()
  const stack: Edge[] = []
  const issues: ReaIssue[] = []
  const visit = (node: string): void => {
    state.set(node, 'open')
    for (const edge of outgoing.get(node) ?? []) {
      const next = state.get(edge.after)
      if (next === 'open') {
        const start = stack.findIndex((entry) => entry.before === edge.after)
        const cycle = [...stack.slice(start), edge]
        issues.push({
          path: `order[${edge.index}]`,
          rule: 'order_cycle',
          message: `closes a cycle, so no run can satisfy the order: ${[...cycle.map((entry) => quote(entry.before)), quote(edge.after)].join(' → ')} (${cycle.map((entry) => `order[${entry.index}]`).join(', ')})`,
        })
      } else if (next === undefined) {
        stack.push(edge)
        visit(edge.after)
        stack.pop()
      }
    }
    state.set(node, 'done')
  }
  for (const edge of edges) {
    if (!state.has(edge.before)) {
      visit(edge.before)
    }
  }
  return issues
}
