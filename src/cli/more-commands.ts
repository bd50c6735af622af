import type { Command } from './arguments.js'
import type { CommandName } from './command-tables.js'

/**
 * Every command but `capture-process`, each evaluated only when it runs. The CLI's build makes this module the entry
 * of a second bundle (dist/cli/commands.cjs), so that a capture's bundle (dist/cli/run.cjs) holds only what a capture
 * runs: the other commands, the comparison, the page builder and the MCP server are not even compiled for it. The
 * second bundle takes every module the first one holds from it, never a copy (tsup.cli-bundles.ts).
 */
export const MORE_COMMANDS: Record<
  Exclude<CommandName, 'capture-process'>,
  () => Promise<{ readonly command: Command }>
> = {
  'compare-process-captures': () => import('./commands/compare-process-captures.js'),
  record: () => import('./commands/record.js'),
  test: () => import('./commands/test.js'),
  view: () => import('./commands/view.js'),
  review: () => import('./commands/review.js'),
  export: () => import('./commands/export.js'),
  schema: () => import('./commands/schema.js'),
  capabilities: () => import('./commands/capabilities.js'),
  mcp: () => import('./commands/mcp.js'),
}
