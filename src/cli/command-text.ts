/**
 * Each command's name, one-line summary and usage: everything `rea --help`, `rea help <command>` and
 * `rea <command> --help` print. Kept apart from the commands themselves so that answering those (and
 * `--version`) loads nothing of the engine: no zod, no schemas, no PTY.
 */
export const COMMAND_TEXT = {
  'capture-process': {
    summary: 'Run a scenario in a real PTY and print its Evidence',
    usage:
      'rea capture-process <scenario.json> [--json | --format toon|json|summary] [--output <file>] [--test-environment] [--no-progress]',
  },
  'compare-process-captures': {
    summary: 'Compare an authority capture with a reconstruction (exit 0 equivalent, 1 different, 2 unknown)',
    usage:
      'rea compare-process-captures <authority.json> <reconstruction.json> [trace.json] [--json | --format text|toon|json] [--timing tolerant|strict|ignore|tolerance_ms=<ms>,ratio=<0..1>] [--terminal stream|screens] [--output <file>]',
  },
  record: {
    summary: 'Record a scenario by using the program in your terminal (see docs/record.md)',
    usage:
      'rea record [--output <scenario.json>] [--test <file> [--runner vitest|jest]] [--evidence <capture.json>] [--verify <n>] [--secret <prompt text|/regex/>]… [--not-secret <prompt text|/regex/>]… [--dry-run] [--test-environment] -- <executable> [arguments…]',
  },
  view: {
    summary: 'Write a self-contained HTML page showing two captures side by side (screens, diff, replay)',
    usage:
      'rea view <authority.json> <reconstruction.json> [--output <page.html>] [--timing tolerant|strict|ignore|tolerance_ms=<ms>,ratio=<0..1>] [--terminal stream|screens]',
  },
  export: {
    summary: 'Export a capture as an asciicast recording (asciinema play, any asciicast player)',
    usage: 'rea export asciicast <evidence.json> [--cast-version 2|3] [--output <file.cast>]',
  },
  schema: {
    summary: 'Print the JSON Schema of a document REA reads or writes',
    // The names are SCHEMA_NAMES; a unit test keeps the two the same without loading the schemas here.
    usage: 'rea schema <scenario|evidence|trace|comparison>',
  },
  capabilities: {
    summary: 'Diagnose whether this host can capture (PTY backend, process inspection)',
    usage: 'rea capabilities [--json]',
  },
  mcp: {
    summary: 'Serve capture and comparison to MCP clients over stdio (see docs/mcp.md)',
    usage: 'rea mcp [--root <directory>]',
  },
} as const

export type CommandName = keyof typeof COMMAND_TEXT

export const COMMAND_NAMES = Object.keys(COMMAND_TEXT) as CommandName[]

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMAND_TEXT, name)
}
