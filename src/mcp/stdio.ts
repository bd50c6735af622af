import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { REA_VERSION } from '../version.js'
import { createReaMcpServer } from './server.js'

/** Why the server stopped: the client closed stdin (or stdout broke), or the server got a signal. */
export type McpStopReason = 'disconnected' | 'SIGINT' | 'SIGTERM' | 'SIGHUP'

/**
 * Inline Evidence may be passed to compare_process_captures, so requests may be larger than the SDK's 10 MiB
 * default; a message beyond this closes the connection (the SDK's behaviour), so larger captures go by path.
 */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024

export interface ServeStdioOptions {
  readonly log: (message: string) => void
  /** Aborted by SIGINT, SIGTERM or SIGHUP, with the signal's name as its reason; the caller's handlers. */
  readonly stop: AbortSignal
}

/**
 * Serves REA over this process's stdin and stdout until the client disconnects or `stop` is aborted.
 * Stopping closes the connection, which aborts every tool call in progress: running captures are cancelled
 * through their cleanup path (nothing is left running) before this resolves.
 */
export async function serveMcpOverStdio(options: ServeStdioOptions): Promise<McpStopReason> {
  const { log } = options
  const { mcp, cancelAll } = createReaMcpServer({ log })
  let stop: (reason: McpStopReason) => void = () => undefined
  const stopped = new Promise<McpStopReason>((resolve) => (stop = resolve))
  const onEnd = (): void => stop('disconnected')
  // EPIPE and friends: the client is gone, and an unhandled 'error' would crash with a stack trace.
  const onStdoutError = (error: Error): void => {
    log(`stdout failed (${(error as NodeJS.ErrnoException).code ?? error.message}); stopping`)
    stop('disconnected')
  }
  const onStop = (): void => stop(options.stop.reason as McpStopReason)
  process.stdin.once('end', onEnd)
  process.stdout.on('error', onStdoutError)
  if (options.stop.aborted) {
    onStop()
  } else {
    options.stop.addEventListener('abort', onStop, { once: true })
  }
  mcp.server.onclose = onEnd
  mcp.server.onerror = (error) => log(`protocol error: ${error.message}`)
  try {
    await mcp.connect(
      new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: MAX_REQUEST_BYTES }),
    )
    log(`REA ${REA_VERSION} serving MCP on stdio; capture root ${process.cwd()}`)
    const reason = await stopped
    log(reason === 'disconnected' ? 'client disconnected; stopping' : `received ${reason}; stopping`)
    await mcp.close()
    await cancelAll()
    return reason
  } finally {
    process.stdin.off('end', onEnd)
    options.stop.removeEventListener('abort', onStop)
  }
}
