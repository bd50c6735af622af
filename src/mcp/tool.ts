import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import { type ProgressRecord } from '../capture/progress.js'

/** What a tool call gets besides its arguments. */
export interface ToolContext {
  /** Aborted when the client cancels the call or disconnects; a capture then cancels and cleans up. */
  readonly signal: AbortSignal
  /** Present only when the client asked for progress (it sent a progress token). */
  readonly onProgress: ((record: ProgressRecord) => void) | undefined
}

/** One MCP tool: its listing, and how to run it. A REA error thrown by `run` becomes a tool error result. */
export interface ReaTool {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: Tool['inputSchema']
  readonly annotations: ToolAnnotations
  run(args: Readonly<Record<string, unknown>>, context: ToolContext): Promise<CallToolResult>
}

/** Capture runs a caller-selected command with the server's permissions: neither read-only nor idempotent. */
export const CAPTURE_ANNOTATIONS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
}

/** Reading saved Evidence and diagnosing the host change nothing. */
export const READ_ONLY_ANNOTATIONS: ToolAnnotations = {
  readOnlyHint: true,
  openWorldHint: false,
}

export const HOST_SUPPORT_NOTE =
  'Capture needs Linux or macOS with a working PTY backend; on native Windows the capture tools return a ' +
  'CAPABILITY_UNAVAILABLE error (use Linux REA inside WSL), while compare_process_captures works everywhere.'
