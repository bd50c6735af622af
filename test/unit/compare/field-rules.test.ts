import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { FIELD_RULES, type FieldRule } from '../../helpers/field-rules.js'
import { evidenceSchema } from '../../../src/evidence/schema.js'
import { rulesCovering, schemaLeafPaths } from '../../helpers/evidence-paths.js'

const DOCS = new URL('../../../docs/comparison.md', import.meta.url)
const START = '<!-- field-rules:start (generated from test/helpers/field-rules.ts; see its test) -->'
const END = '<!-- field-rules:end -->'

function describeRule(rule: FieldRule): string {
  switch (rule.kind) {
    case 'compared':
      return `**compared** (${rule.dimension === 'named' ? 'the dimension it names' : rule.dimension}): ${rule.how}`
    case 'derived':
      return `**derived**, checked against ${rule.from}`
    case 'not_compared':
      return `**not compared**: ${rule.why}`
  }
}

const CONDITIONS = {
  quiet_frame: 'in quiet frames',
  undispatched_interaction: 'for events not dispatched',
  skipped_interaction: 'for skipped events',
} as const

/** The table docs/comparison.md shows, one row per rule entry. */
function fieldRuleTable(): string {
  const rows = FIELD_RULES.map((entry) => {
    const rule = describeRule(entry.rule)
    const except =
      entry.except === undefined
        ? ''
        : `; ${CONDITIONS[entry.except.condition]}: ${describeRule(entry.except.rule)}`
    return `| \`${entry.path}\` | ${`${rule}${except}`.replaceAll('|', '\\|')} |`
  })
  // Prettier would pad every column to the longest cell; the generated table stays compact instead.
  return [
    START,
    '<!-- prettier-ignore-start -->',
    '| Field | Rule |',
    '| --- | --- |',
    ...rows,
    '<!-- prettier-ignore-end -->',
    END,
  ].join('\n')
}

describe('FIELD_RULES', () => {
  const leaves = schemaLeafPaths(evidenceSchema)

  test('gives every field of the Evidence schema exactly one rule', () => {
    expect(leaves.length).toBeGreaterThan(200)
    const uncovered = leaves.filter((leaf) => rulesCovering(leaf).length === 0)
    const doubly = leaves.filter((leaf) => rulesCovering(leaf).length > 1)
    expect(uncovered, 'fields without a rule: add them to test/helpers/field-rules.ts').toEqual([])
    expect(doubly, 'fields with two rules').toEqual([])
  })

  test('names no field the schema does not have', () => {
    const stale = FIELD_RULES.filter(
      (entry) => !leaves.some((leaf) => rulesCovering(leaf, [entry]).length > 0),
    ).map((entry) => entry.path)
    expect(stale).toEqual([])
  })

  test('is the table docs/comparison.md shows', () => {
    const docs = readFileSync(DOCS, 'utf8')
    const table = fieldRuleTable()
    if (process.env['REA_WRITE_DOCS'] === '1') {
      const start = docs.indexOf(START)
      const end = docs.indexOf(END)
      writeFileSync(DOCS, `${docs.slice(0, start)}${table}${docs.slice(end + END.length)}`)
      return
    }
    // On a mismatch, run this test with REA_WRITE_DOCS=1 to rewrite the table, then review the diff.
    expect(docs).toContain(table)
  })
})
