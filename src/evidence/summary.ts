import pc from 'picocolors'
import { escapeControlCharacters, showCommandLine } from '../internal/escape-controls.js'
import type { Evidence } from './schema.js'
import { describeInteractions } from './describe-run.js'
import { lastScreen, screenBox } from './screen-text.js'

export interface SummaryOptions {
  /** Colour the text (picocolors also honours NO_COLOR and FORCE_COLOR). Default: whether colours are supported. */
  readonly color?: boolean
}

/**
 * A few lines for people: what ran, how it ended, what became of each event (and the cause of each skip), what
 * was kept and dropped, and the final screen.
 */
export function summarizeEvidence(evidence: Evidence, options: SummaryOptions = {}): string {
  const c = pc.createColors(options.color ?? pc.isColorSupported)
  const executable = evidence.commitments.executable.value
  const raw = evidence.truncation_details.raw_terminal
  const rendered = evidence.truncation_details.rendered_terminal
  const exit = evidence.exit
  const outcome =
    exit.signal === null
      ? c.yellow('exit not observed')
      : exit.code !== null
        ? (exit.code === 0 ? c.green : c.red)(`exit code ${exit.code}`)
        : c.red(`signal ${exit.signal}`)
  const root = evidence.process.root
  const lines = [
    // The one rule for command lines (docs/cli.md): an argument holding a newline must not break the header.
    `${c.bold('REA capture')} ${showCommandLine([executable.executable, ...executable.arguments])}`,
    row(c, 'outcome', `${outcome} (${evidence.disposition}) after ${evidence.duration_ms} ms`),
    // What became of each event, and who ended a skipped one's chance: "signal 9 (timeout)" alone hides a wait.
    ...describeInteractions(evidence).map((line, index) =>
      row(c, index === 0 ? 'events' : '', escapeControlCharacters(line)),
    ),
    row(
      c,
      'terminal',
      `${raw.retained_chunks} of ${raw.observed_chunks} chunks kept, ${formatBytes(raw.retained_bytes)} of ${formatBytes(raw.observed_bytes)}; ` +
        `${rendered.retained_frames} of ${rendered.observed_frames} frames; drain ${raw.drain}`,
    ),
    row(
      c,
      'process',
      `${root === null ? 'not started' : `root pid ${root.pid} ${root.binding}`}; settlement ${evidence.settlement.status}; ` +
        `cleanup ${evidence.cleanup.owned_processes}`,
    ),
    row(c, 'truncated', evidence.truncated ? c.yellow('yes') : 'no'),
  ]
  for (const unknown of evidence.residual_unknowns) {
    lines.push(row(c, 'unknown', escapeControlCharacters(`${unknown.dimension}: ${unknown.detail}`)))
  }
  const frame = lastScreen(evidence)
  if (frame !== null) {
    // Rendered rows hold no escape sequences, but a program can still put other invisible characters there.
    lines.push(...screenBox(frame, `${frame.trigger} screen`, c))
  }
  return `${lines.join('\n')}\n`
}

function row(c: ReturnType<typeof pc.createColors>, label: string, text: string): string {
  return `  ${c.dim(label.padEnd(10))}${text}`
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) {
    return `${bytes} B`
  }
  const units = ['KiB', 'MiB', 'GiB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`
}
