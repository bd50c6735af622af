import { inspect } from 'node:util'
import { ReaError } from '../../errors.js'
import { escapeControlCharacters, showName } from '../../internal/escape-controls.js'
import { parseCommandLine, type Command } from '../arguments.js'
import { EXIT, EXIT_BY_SIGNAL } from '../exit-codes.js'
import { MCP } from '../tables/mcp.js'

export const command: Command = {
  async run(argv, context) {
    const { values } = parseCommandLine(MCP, argv)
    if (values.root !== undefined) {
      changeToRoot(values.root)
    }
    // Stdout carries only protocol messages: a stray console.log (in REA or a dependency) would corrupt it.
    console.log = console.error
    console.info = console.error
    console.debug = console.error
    console.dir = (item, dirOptions) => process.stderr.write(`${inspect(item, dirOptions)}\n`)
    console.dirxml = console.error
    // Loaded on demand, so other commands do not pay for the MCP SDK. The MCP front end is a sibling of the
    // CLI, not the core: this is the CLI's one import past src/index.ts.
    const { serveMcpOverStdio } = await import('../../mcp/stdio.js')
    const reason = await serveMcpOverStdio({
      // Log lines quote client input and error messages: never let them drive the terminal.
      log: (message) => process.stderr.write(`rea mcp: ${escapeControlCharacters(message)}\n`),
      stop: context.signals.signal,
    })
    return reason === 'disconnected' ? EXIT.ok : EXIT_BY_SIGNAL[reason]
  },
}

/** The capture root is the server's current directory; `--root` sets it for clients that cannot set a cwd. */
function changeToRoot(directory: string): void {
  try {
    process.chdir(directory)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error'
    throw new ReaError(
      'INVALID_ARGUMENTS',
      `--root ${showName(directory)} is not a usable directory (${code}).`,
      {
        cause: error,
      },
    )
  }
}
