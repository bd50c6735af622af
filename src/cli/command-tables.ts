import type { CommandTable } from './command-table.js'
import { CAPABILITIES } from './tables/capabilities.js'
import { CAPTURE_PROCESS } from './tables/capture-process.js'
import { COMPARE_PROCESS_CAPTURES } from './tables/compare-process-captures.js'
import { EXPORT } from './tables/export.js'
import { MCP } from './tables/mcp.js'
import { RECORD } from './tables/record.js'
import { REVIEW } from './tables/review.js'
import { SCHEMA } from './tables/schema.js'
import { TEST } from './tables/test.js'
import { VIEW } from './tables/view.js'

/**
 * Every command's table, in the order `rea --help` lists them. A new command adds its table (`tables/<name>.ts`)
 * here; its options are entries of that table.
 */
export const COMMAND_TABLES = [
  CAPTURE_PROCESS,
  COMPARE_PROCESS_CAPTURES,
  RECORD,
  TEST,
  VIEW,
  REVIEW,
  EXPORT,
  SCHEMA,
  CAPABILITIES,
  MCP,
] as const satisfies readonly CommandTable[]

export type CommandName = (typeof COMMAND_TABLES)[number]['name']

export const COMMAND_NAMES: readonly CommandName[] = COMMAND_TABLES.map((table) => table.name)

export function isCommandName(name: string): name is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(name)
}

export function commandTable(name: CommandName): CommandTable {
  return COMMAND_TABLES.find((table) => table.name === name) as CommandTable
}
