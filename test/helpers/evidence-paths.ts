import type * as z from 'zod'
import { FIELD_RULES, type FieldRule, type FieldRuleEntry } from './field-rules.js'

/* The walkers below read zod's own definitions: the schema is the source of truth for what a field is. */
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return */
type Schema = any

const WRAPPERS = new Set(['nullable', 'optional', 'default', 'prefault', 'readonly', 'nonoptional'])

/** Every leaf of a schema as a rule path (`a.b[].c`, `files{}.sha256`), union variants merged. */
export function schemaLeafPaths(schema: z.ZodType): string[] {
  const leaves = new Set<string>()
  const walk = (node: Schema, path: string): void => {
    const def = node._zod.def
    if (WRAPPERS.has(def.type)) {
      walk(def.innerType, path)
    } else if (def.type === 'pipe') {
      walk(def.in, path)
    } else if (def.type === 'object') {
      for (const [key, child] of Object.entries(def.shape)) {
        walk(child, path === '' ? key : `${path}.${key}`)
      }
    } else if (def.type === 'array') {
      walk(def.element, `${path}[]`)
    } else if (def.type === 'record') {
      walk(def.valueType, `${path}{}`)
    } else if (def.type === 'union') {
      for (const option of def.options) {
        walk(option, path)
      }
    } else {
      leaves.add(path)
    }
  }
  walk(schema, '')
  return [...leaves]
}

/** The entries of FIELD_RULES that cover a rule path: itself, or a `.*` entry above it. */
export function rulesCovering(
  path: string,
  rules: readonly FieldRuleEntry[] = FIELD_RULES,
): FieldRuleEntry[] {
  return rules.filter((entry) => {
    if (!entry.path.endsWith('.*')) {
      return entry.path === path
    }
    const prefix = entry.path.slice(0, -2)
    return path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`) || path.startsWith(`${prefix}{`)
  })
}

/** One place in a real document: its rule path, its concrete path, its value, and the schema node there. */
export interface DocumentNode {
  readonly segments: readonly (string | number)[]
  readonly path: string
  readonly value: unknown
  readonly schema: Schema
  /** The key may be left out (an optional field). */
  readonly optional: boolean
  /** Set for array items and record values: they can be removed from their container. */
  readonly removable: boolean
  /** The nearest enclosing array item that is a record, for conditional rules (a quiet frame, …). */
  readonly record: unknown
}

function unwrap(node: Schema): { node: Schema; optional: boolean } {
  let optional = false
  let current = node
  for (;;) {
    const def = current._zod.def
    if (def.type === 'optional') {
      optional = true
    }
    if (WRAPPERS.has(def.type)) {
      current = def.innerType
    } else if (def.type === 'pipe') {
      current = def.in
    } else {
      return { node: current, optional }
    }
  }
}

/** The union member a value belongs to: the first that accepts it. */
function variantOf(node: Schema, value: unknown): Schema {
  if (node._zod.def.type !== 'union') {
    return node
  }
  return (
    node._zod.def.options.find((option: Schema) => option.safeParse(value).success) ??
    node._zod.def.options[0]
  )
}

/** Every node of a document that matches `schema`, containers included, depth first. */
export function documentNodes(schema: z.ZodType, document: unknown): DocumentNode[] {
  const nodes: DocumentNode[] = []
  const walk = (
    node: Schema,
    value: unknown,
    segments: (string | number)[],
    path: string,
    optional: boolean,
    removable: boolean,
    record: unknown,
  ): void => {
    const unwrapped = unwrap(node)
    const resolved = value === null ? unwrapped.node : variantOf(unwrapped.node, value)
    const inner = value === null ? resolved : unwrap(resolved).node
    nodes.push({
      segments,
      path,
      value,
      schema: inner,
      optional: optional || unwrapped.optional,
      removable,
      record,
    })
    if (value === null || typeof value !== 'object') {
      return
    }
    const def = inner._zod.def
    if (def.type === 'object') {
      for (const [key, child] of Object.entries(def.shape)) {
        if (key in value) {
          walk(
            child,
            (value as any)[key],
            [...segments, key],
            path === '' ? key : `${path}.${key}`,
            false,
            false,
            record,
          )
        }
      }
    } else if (def.type === 'array') {
      ;(value as unknown[]).forEach((item, index) =>
        walk(
          def.element,
          item,
          [...segments, index],
          `${path}[]`,
          false,
          true,
          typeof item === 'object' && item !== null ? item : record,
        ),
      )
    } else if (def.type === 'record') {
      for (const [key, item] of Object.entries(value)) {
        walk(def.valueType, item, [...segments, key], `${path}{}`, false, true, record)
      }
    }
  }
  walk(schema, document, [], '', false, false, undefined)
  return nodes
}

/** The rule that applies to one node, with conditional rules resolved against its record. */
export function effectiveRule(entry: FieldRuleEntry, record: unknown): FieldRule {
  if (entry.except === undefined || typeof record !== 'object' || record === null) {
    return entry.rule
  }
  const item = record as Record<string, unknown>
  const holds = {
    quiet_frame: item['checkpoint'] === false,
    undispatched_interaction: item['outcome'] !== undefined && item['outcome'] !== 'dispatched',
    skipped_interaction: item['outcome'] === 'skipped',
  }[entry.except.condition]
  return holds ? entry.except.rule : entry.rule
}
