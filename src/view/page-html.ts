import { DIMENSIONS, type Comparison } from '../compare/comparison-schema.js'
import { describeDifference, describeNormalizationHint } from '../compare/format-comparison.js'
import { formatTraceResult, type TraceResult } from '../compare/trace/index.js'
import type { Evidence } from '../evidence/schema.js'
import { showCommandLine, showName } from '../internal/escape-controls.js'
import { escapeHtml as h } from './page-assets.js'
import type { SideLabel } from './page-data.js'

/**
 * The parts of the page that are plain HTML, readable before any script runs: the verdict, each side, every
 * dimension with its differences, unknowns and notes, a trace result, why nothing was compared, and the
 * terminal diff.
 */

/** Differences listed per dimension; the comparison document has them all. */
const LISTED_DIFFERENCES = 20

export function headerHtml(
  title: string,
  verdict: string,
  headline: string | null,
  sides: readonly {
    readonly label: SideLabel
    readonly evidence: Evidence
    readonly source: string | null
  }[],
): string {
  const rows = sides.map(({ label, evidence, source }) => {
    const { executable, arguments: args } = evidence.commitments.executable.value
    return `<tr><th>${h(label)}</th><td>${h(source === null ? '(in memory)' : showName(source))}</td><td><code>${h(showCommandLine([executable, ...args]))}</code></td><td>${h(evidence.captured_at)}</td><td>${h(evidence.disposition)}</td><td><code title="${h(evidence.identity_digest)}">${h(evidence.identity_digest.slice(0, 12))}</code></td></tr>`
  })
  return [
    '<header>',
    `<h1>${h(title)}</h1>`,
    `<p class="verdict-line"><span id="rea-verdict" class="badge ${badgeClass(verdict)}">${h(verdict)}</span>${headline === null ? '' : ` <span id="rea-headline">${h(headline)}</span>`}</p>`,
    sides.length === 0
      ? ''
      : `<table class="sides"><thead><tr><th></th><th>Evidence</th><th>Command</th><th>Captured</th><th>Disposition</th><th>Identity</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    '</header>',
  ].join('\n')
}

export function badgeClass(outcome: string): string {
  switch (outcome) {
    case 'equivalent':
    case 'equal':
    case 'satisfied':
    case 'matched':
      return 'good'
    case 'different':
    case 'violated':
    case 'error':
      return 'bad'
    case 'not_selected':
      return 'neutral'
    default:
      return 'unsure'
  }
}

export function dimensionsHtml(comparison: Comparison): string {
  const rows = DIMENSIONS.map((name) => {
    const result = comparison.dimensions[name]
    const differences = result.differences.slice(0, LISTED_DIFFERENCES)
    const more = result.differences.length - differences.length + result.differences_omitted
    const items = [
      ...differences.map(
        (difference) => `<li class="difference">≠ ${h(describeDifference(difference))}</li>`,
      ),
      ...(more > 0 ? [`<li class="more">… ${more} more (see the comparison document)</li>`] : []),
      ...result.unknowns.map(
        (unknown) => `<li class="unknown">? <code>${h(unknown.reason)}</code>: ${h(unknown.detail)}</li>`,
      ),
      ...result.notes.map((note) => `<li class="note">· ${h(note)}</li>`),
    ]
    return `<tr data-dimension="${name}"><th>${name}</th><td><span class="badge ${badgeClass(result.outcome)}">${h(result.outcome)}</span></td><td>${items.length === 0 ? '' : `<ul>${items.join('')}</ul>`}</td></tr>`
  })
  return [
    '<section id="dimensions"><h2>Dimensions</h2>',
    `<p>Verdict <strong>${h(comparison.verdict)}</strong>${comparison.verdict_basis === 'trace' ? ' (decided by the trace specification)' : ''}; timing policy ${h(comparison.timing.policy)}.</p>`,
    `<table class="dimensions"><tbody>${rows.join('')}</tbody></table>`,
    comparison.first_divergence === null
      ? ''
      : `<p id="rea-first-divergence"><strong>First divergence:</strong> ${h(describeDifference(comparison.first_divergence))}</p>`,
    normalizationHintHtml(comparison),
    '</section>',
  ].join('\n')
}

function normalizationHintHtml(comparison: Comparison): string {
  const hint = comparison.normalization_hint
  if (hint === null || hint === undefined) {
    return ''
  }
  const [headline, snippet] = describeNormalizationHint(hint)
  return `<p id="rea-normalization-hint">${h(headline ?? '')}<br><code>${h((snippet ?? '').trim())}</code></p>`
}

export function unknownsHtml(comparison: Comparison): string {
  const items = comparison.unknowns.map(
    (unknown) =>
      `<li><strong>${h(unknown.dimension)}</strong> <code>${h(unknown.reason)}</code>: ${h(unknown.detail)}</li>`,
  )
  return `<section id="unknowns"><h2>Unknowns <small>(never counted as equal)</small></h2>${items.length === 0 ? '<p>None: everything both sides needed was observed.</p>' : `<ul>${items.join('')}</ul>`}</section>`
}

export function terminalDiffHtml(comparison: Comparison): string {
  if (comparison.terminal_diff === null) {
    return '<section id="terminal-diff"><h2>Terminal diff</h2><p>The normalized terminal texts are identical.</p></section>'
  }
  const lines = comparison.terminal_diff.unified
    .trimEnd()
    .split('\n')
    .map((line) => `<span class="${diffClass(line)}">${h(line)}</span>`)
  return [
    '<section id="terminal-diff"><h2>Terminal diff <small>(normalized text, authority → reconstruction)</small></h2>',
    `<pre class="diff">${lines.join('\n')}</pre>`,
    comparison.terminal_diff.truncated
      ? '<p>The diff was cut to its size cap; the comparison document has every difference.</p>'
      : '',
    '</section>',
  ].join('\n')
}

function diffClass(line: string): string {
  return line.startsWith('+++') || line.startsWith('---')
    ? 'file'
    : line.startsWith('@@')
      ? 'hunk'
      : line.startsWith('+')
        ? 'add'
        : line.startsWith('-')
          ? 'del'
          : 'context'
}

export function traceHtml(trace: TraceResult): string {
  return `<section id="trace"><h2>Trace: <span class="badge ${badgeClass(trace.verdict)}">${h(trace.verdict)}</span></h2><pre>${h(formatTraceResult(trace).join('\n'))}</pre></section>`
}

export function messageHtml(message: string, compared: boolean): string {
  return `<section id="message"><h2>${compared ? 'Notes' : 'Why nothing was compared'}</h2><pre>${h(message)}</pre></section>`
}
