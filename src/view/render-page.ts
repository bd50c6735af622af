import { compareCaptures } from '../compare/compare-captures.js'
import type { Comparison } from '../compare/comparison-schema.js'
import type { TraceResult } from '../compare/trace/index.js'
import type { Evidence } from '../evidence/schema.js'
import { REA_VERSION } from '../version.js'
import { escapeHtml as h, inlineScript, loadPageAssets, scriptJson } from './page-assets.js'
import {
  dimensionsHtml,
  headerHtml,
  messageHtml,
  terminalDiffHtml,
  traceHtml,
  unknownsHtml,
} from './page-html.js'
import { pageHeadline } from './page-headline.js'
import type { SideLabel } from './page-data.js'
import { buildPageData } from './page-model.js'
import { pageScript } from './page-script.js'
import { PAGE_STYLE } from './page-style.js'

export interface DivergencePageInput {
  /** The authority capture; with `reconstruction`, the page shows both side by side. */
  readonly authority?: Evidence | null
  /** The capture under test (alone, for a trace check or when there was nothing to compare it with). */
  readonly reconstruction?: Evidence | null
  /** The comparison of the two; computed with the default options when both sides are given and this is not. */
  readonly comparison?: Comparison | null
  /** A trace result to show (toSatisfyTrace). */
  readonly trace?: TraceResult | null
  /** Why nothing was compared, shown as it is. */
  readonly message?: string | null
  /** The page's title. Default: "REA: <verdict>". */
  readonly title?: string
}

// The page loads nothing: everything it shows is inline, and the policy makes the browser refuse anything else.
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

/**
 * One self-contained HTML page to look at a divergence: the verdict and every dimension, both screens side by
 * side at each checkpoint with differing cells outlined (rendered by xterm.js, the emulator REA captures with),
 * the terminal diff, the unknowns, and a replay of each side's output stream. The page makes no network
 * requests, so it opens from a CI artifact download; it holds nothing that is not in the Evidence (sensitive
 * input stays masked), and renders one checkpoint at a time, so multi-megabyte captures stay usable.
 *
 * @example
 * const page = renderDivergencePage({ authority: await readEvidenceFile('a.json'), reconstruction: await readEvidenceFile('b.json') })
 * await writeFile('divergence.html', page)
 */
export function renderDivergencePage(input: DivergencePageInput): string {
  const authority = input.authority ?? null
  const reconstruction = input.reconstruction ?? null
  const comparison =
    input.comparison ??
    (authority !== null && reconstruction !== null ? compareCaptures(authority, reconstruction) : null)
  const sides = pageSides(authority, reconstruction, comparison)
  const verdict =
    comparison?.verdict ?? input.trace?.verdict ?? (input.message != null ? 'not compared' : 'captured')
  const title = input.title ?? `REA: ${verdict}`
  const data = buildPageData(sides, comparison)
  const hasScreens = sides.length > 0
  const body = [
    headerHtml(title, verdict, pageHeadline(comparison, input.trace ?? null), sides),
    input.message == null ? '' : messageHtml(input.message, comparison !== null || input.trace != null),
    hasScreens ? SCREENS_SECTION : '',
    comparison === null ? '' : dimensionsHtml(comparison),
    input.trace == null ? '' : traceHtml(input.trace),
    comparison === null ? '' : terminalDiffHtml(comparison),
    comparison === null ? '' : unknownsHtml(comparison),
    hasScreens ? REPLAY_SECTION : '',
    `<footer>Written by REA ${h(REA_VERSION)}. This page loads nothing from the network; it shows only what the Evidence holds, so sensitive input appears masked. Screens are rendered by xterm.js.</footer>`,
  ]
  const assets = hasScreens ? loadPageAssets() : null
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">`,
    `<title>${h(title)}</title>`,
    assets === null ? '' : `<style>${assets.xtermStyle}</style>`,
    `<style>${PAGE_STYLE}</style>`,
    '</head><body data-rea-rendered="false">',
    ...body,
    `<script type="application/json" id="rea-page-data">${scriptJson(data)}</script>`,
    assets === null ? '' : `<script>${assets.xtermScript}</script>`,
    assets === null ? '' : `<script>${assets.graphemesScript}</script>`,
    assets === null ? '' : `<script>${inlineScript(pageScript())}</script>`,
    '</body></html>',
    '',
  ].join('\n')
}

function pageSides(
  authority: Evidence | null,
  reconstruction: Evidence | null,
  comparison: Comparison | null,
) {
  const sides: { label: SideLabel; evidence: Evidence; source: string | null }[] = []
  if (authority !== null && reconstruction !== null) {
    sides.push({ label: 'authority', evidence: authority, source: comparison?.authority.source ?? null })
    sides.push({
      label: 'reconstruction',
      evidence: reconstruction,
      source: comparison?.reconstruction.source ?? null,
    })
  } else if (authority !== null || reconstruction !== null) {
    sides.push({ label: 'capture', evidence: (reconstruction ?? authority) as Evidence, source: null })
  }
  return sides
}

const SCREENS_SECTION = `<section id="screens"><h2>Screens at each checkpoint <small>(before each event, after each resize, and the final screen; differing cells outlined)</small></h2>
<div class="nav"><button type="button" id="rea-checkpoint-previous">◀</button><input type="range" id="rea-checkpoint" min="0" max="0" value="0" aria-label="checkpoint"><button type="button" id="rea-checkpoint-next">▶</button> <strong id="rea-checkpoint-label"></strong></div>
<ol id="rea-checkpoint-list" class="checkpoints"></ol>
<p id="rea-checkpoint-detail"></p>
<div id="rea-screens" class="panes"></div>
<noscript><p>The screens and the replay need JavaScript; everything else on this page is plain HTML.</p></noscript>
</section>`

const REPLAY_SECTION = `<section id="replay"><h2>Replay <small>(each side's output stream as recorded, on a shared clock)</small></h2>
<button type="button" id="rea-replay-load">Load the replay</button>
<div id="rea-replay" hidden>
<div class="nav"><button type="button" id="rea-replay-play">Play</button><button type="button" id="rea-replay-previous">◀ event</button><button type="button" id="rea-replay-next">event ▶</button>
<label>speed <select id="rea-replay-speed"><option value="0.25">¼×</option><option value="1" selected>1×</option><option value="4">4×</option><option value="16">16×</option></select></label>
<input type="range" id="rea-replay-time" min="0" max="1" value="0" aria-label="time"> <span id="rea-replay-readout"></span></div>
<div id="rea-replay-panes" class="panes"></div>
</div>
</section>`
