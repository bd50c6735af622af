import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import { REA_VERSION } from '../version.js'
import { createProgressNotifier } from './progress-notifier.js'
import type { ReaTool } from './tool.js'
import { toolErrorResult } from './tool-results.js'
import { captureProcessScenarioTool } from './tools/capture-process-scenario.js'
import { captureProcessScenarioToFileTool } from './tools/capture-process-scenario-to-file.js'
import { checkCapabilitiesTool } from './tools/check-capabilities.js'
import { compareProcessCapturesTool } from './tools/compare-process-captures.js'
import { acceptPendingCapturesTool } from './tools/accept-pending-captures.js'
import { listPendingCapturesTool } from './tools/list-pending-captures.js'
import { rejectPendingCapturesTool } from './tools/reject-pending-captures.js'
import { showPendingCaptureTool } from './tools/show-pending-capture.js'

export interface ReaMcpServerOptions {
  /** One line for the server's log (stderr for `rea mcp`); never stdout, which carries only protocol. */
  readonly log?: (message: string) => void
}

export interface ReaMcpServer {
  readonly mcp: McpServer
  /** Cancels every tool call still running and resolves once each has ended, its captures cleaned up. */
  readonly cancelAll: () => Promise<void>
}

const INSTRUCTIONS =
  'REA runs one command in a real pseudo-terminal, drives it with a scenario and records bounded, honest ' +
  'Evidence of what happened; two captures of the same scenario (an authority and a reconstruction) can be ' +
  'compared. Relative paths resolve against this server’s current directory, the capture root. What was not ' +
  'fully observed is reported as unknown, never as equal.'

/**
 * The MCP front end over the same library calls as the CLI. Tools are served through the SDK's low-level
 * request handlers rather than `registerTool`, because `registerTool` validates arguments itself and answers
 * with zod's messages; here every document is checked by REA's own validation, so a bad scenario or edited
 * Evidence gives the CLI's message, and the input schemas are REA's JSON Schemas.
 */
export function createReaMcpServer(options: ReaMcpServerOptions = {}): ReaMcpServer {
  const log = options.log ?? (() => undefined)
  const tools: readonly ReaTool[] = [
    captureProcessScenarioTool(),
    captureProcessScenarioToFileTool(),
    compareProcessCapturesTool(),
    checkCapabilitiesTool(),
    listPendingCapturesTool(),
    showPendingCaptureTool(),
    acceptPendingCapturesTool(),
    rejectPendingCapturesTool(),
  ]
  const listing: Tool[] = tools.map(({ name, title, description, inputSchema, annotations }) => ({
    name,
    title,
    description,
    inputSchema,
    annotations,
  }))
  const mcp = new McpServer(
    { name: 'rea', title: 'REA process capture', version: REA_VERSION },
    { instructions: INSTRUCTIONS },
  )
  mcp.server.registerCapabilities({ tools: {} })
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }))

  const running = new Set<Promise<CallToolResult>>()
  // One controller per call, aborted on stop: the SDK keys its own by request id, which a client may reuse.
  const controllers = new Set<AbortController>()
  mcp.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = tools.find((candidate) => candidate.name === request.params.name)
    if (tool === undefined) {
      // MCP answers an unknown tool with a protocol error, not a tool result.
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${request.params.name}"; this server has ${tools.map((entry) => entry.name).join(', ')}.`,
      )
    }
    const progressToken = extra._meta?.progressToken
    const notifier =
      progressToken === undefined
        ? undefined
        : createProgressNotifier((notification) => extra.sendNotification(notification), progressToken)
    const controller = new AbortController()
    controllers.add(controller)
    const call = (async () => {
      try {
        return await tool.run(request.params.arguments ?? {}, {
          signal: AbortSignal.any([extra.signal, controller.signal]),
          onProgress: notifier?.onProgress,
        })
      } catch (error) {
        return toolErrorResult(error, log)
      } finally {
        controllers.delete(controller)
        await notifier?.flushed()
      }
    })()
    running.add(call)
    void call.then(() => running.delete(call))
    return call
  })

  return {
    mcp,
    cancelAll: async () => {
      for (const controller of controllers) {
        controller.abort()
      }
      await Promise.allSettled([...running])
    },
  }
}
