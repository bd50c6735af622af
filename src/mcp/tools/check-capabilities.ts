import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod'
import { checkCapabilities, type CapabilityReport } from '../../capabilities.js'
import { READ_ONLY_ANNOTATIONS, type ReaTool } from '../tool.js'
import { invalidArguments, unknownFieldIssues } from '../tool-arguments.js'
import { toolResult } from '../tool-results.js'

const TOOL = 'check_capabilities'
const ITEMS = ['capture', 'pty_backend', 'process_inspection', 'comparison'] as const

export function checkCapabilitiesTool(): ReaTool {
  return {
    name: TOOL,
    title: 'Check capture capabilities',
    description:
      'Diagnose what this host can do, as `rea capabilities` does: whether capture is available (a node-pty ' +
      'backend that runs a test process in a real PTY, and process ownership inspection), and that comparison ' +
      'is available everywhere. An unavailable item has a detail and, where there is one, a hint: a missing ' +
      'or incompatible node-pty binary (reinstall with optional dependencies) is told apart from native ' +
      'Windows, where capture is unavailable (use Linux REA inside WSL). Takes no arguments.',
    inputSchema: z.toJSONSchema(z.strictObject({})) as Tool['inputSchema'],
    annotations: READ_ONLY_ANNOTATIONS,
    async run(args) {
      const issues = unknownFieldIssues(args, [])
      if (issues.length > 0) {
        throw invalidArguments(TOOL, issues, 'nothing was checked')
      }
      const report = await checkCapabilities()
      return toolResult(describeReport(report), report)
    },
  }
}

function describeReport(report: CapabilityReport): string {
  const lines = [
    `REA ${report.rea_version} on ${report.platform} ${report.arch}, Node.js ${report.node_version}`,
  ]
  for (const item of ITEMS) {
    const capability = report[item]
    lines.push(`${item}: ${capability.status}: ${capability.detail}`)
    if (capability.hint !== undefined) {
      lines.push(`  hint: ${capability.hint}`)
    }
  }
  return `${lines.join('\n')}\n`
}
