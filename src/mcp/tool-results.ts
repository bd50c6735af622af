import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { formatReaError, isReaError, type ReaErrorCode, type ReaIssue } from '../errors.js'
import { errorMessage } from '../internal/error-message.js'
import { escapeControlCharacters } from '../internal/escape-controls.js'

/** `structuredContent` of a tool error, so a client can branch on the code instead of parsing text. */
export interface ToolErrorContent {
  readonly error: {
    readonly code: ReaErrorCode
    readonly message: string
    readonly issues: readonly ReaIssue[]
    readonly hint?: string
  }
}

/** A successful result: a short text for people and the document itself for programs. */
export function toolResult(text: string, document: object): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    structuredContent: document as Record<string, unknown>,
  }
}

/**
 * A tool error (`isError: true`) with the paragraph the CLI prints for the same problem. Anything but a REA
 * error is a bug in REA: its stack goes to the server's stderr log, never to the client.
 */
export function toolErrorResult(error: unknown, log: (message: string) => void): CallToolResult {
  if (isReaError(error)) {
    // Clients show these texts too: control characters are made visible here as in the text content.
    const content: ToolErrorContent = {
      error: {
        code: error.code,
        message: escapeControlCharacters(error.message),
        issues: error.issues.map((issue) => ({
          path: escapeControlCharacters(issue.path),
          rule: issue.rule,
          message: escapeControlCharacters(issue.message),
        })),
        ...(error.hint === undefined ? {} : { hint: escapeControlCharacters(error.hint) }),
      },
    }
    return {
      isError: true,
      content: [{ type: 'text', text: formatReaError(error) }],
      structuredContent: content as unknown as Record<string, unknown>,
    }
  }
  const detail = escapeControlCharacters(errorMessage(error))
  log(`internal error: ${error instanceof Error ? (error.stack ?? detail) : detail}`)
  const content: ToolErrorContent = { error: { code: 'INTERNAL', message: detail, issues: [] } }
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text:
          `internal error: ${detail}\nThis is a bug in REA; please report it with the tool call you made. ` +
          'The server’s stderr log has the stack trace.',
      },
    ],
    structuredContent: content as unknown as Record<string, unknown>,
  }
}
