// `npm run bench`: every benchmark side by side with its baseline in the same run; ratios for docs/performance.md.
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { runCompareBenchmark } from './compare.mjs'
import { runCoverageBenchmark } from './coverage.mjs'
import { runDrawGapsBenchmark } from './draw-gaps.mjs'
import { runExchangeBenchmark } from './exchange.mjs'
import { runExportSvgBenchmark } from './export-svg.mjs'
import { runFilesystemBenchmark } from './filesystem.mjs'
import { runFloodBenchmark } from './flood.mjs'
import { runFidelityBenchmark } from './fidelity.mjs'
import { runFloodMemoryBenchmark } from './flood-memory.mjs'
import { runFloodWidthsBenchmark } from './flood-widths.mjs'
import { runMarkdownBenchmark } from './markdown.mjs'
import { runMcpBenchmark } from './mcp.mjs'
import { runProcessScanBenchmark } from './process-scan.mjs'
import { runRecordBenchmark } from './record.mjs'
import { runReviewDiffBenchmark } from './review-diff.mjs'
import { runScreensBenchmark } from './screens.mjs'
import { runSpawnCostBenchmark } from './spawn-cost.mjs'
import { runSpawnExitBenchmark } from './spawn-exit.mjs'
import { runStartupBenchmark } from './startup.mjs'
import { runStreamNormalizationBenchmark } from './stream-normalization.mjs'
import { runSupervisorBenchmark } from './supervisor.mjs'
import { runVitestCapturesBenchmark } from './vitest-captures.mjs'
import { runViewerBenchmark } from './viewer.mjs'
import { runWaitsBenchmark } from './waits.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const only = process.argv.slice(2)
const wanted = (name) => only.length === 0 || only.includes(name)
const results = {
  date: new Date().toISOString(),
  host: { node: process.version, cpus: os.cpus().length, model: os.cpus()[0]?.model, load: os.loadavg() },
}

if (wanted('spawn-exit')) {
  results.spawn_exit = await runSpawnExitBenchmark()
  results.spawn_exit_busy_host = await runSpawnExitBenchmark({ idleProcesses: 300 })
  for (const r of [results.spawn_exit, results.spawn_exit_busy_host]) {
    console.log(
      `captureProcess(true) ${r.capture_median_ms} ms vs raw node-pty ${r.raw_median_ms} ms: ${r.ratio}×, median of ${r.iterations} pair ratios ${r.pair_ratio}× (target ≤ 1.5×); back to back, ${r.blocks.per_block} at a time: ${r.capture_block_median_ms} vs ${r.raw_block_median_ms} ms, ${r.block_ratio}× (pairs of blocks ${r.block_pair_ratio}×); ${r.processes_on_host} processes on the host; PTY backend ${process.env.REA_PTY_BACKEND ?? 'auto'}`,
    )
  }
}
if (wanted('export-svg')) {
  results.export_svg = await runExportSvgBenchmark()
  const r = results.export_svg
  console.log(
    `rea export svg of a ${r.evidence_bytes}-byte capture (${r.chunks} chunks): final screen ${r.final_median_ms} ms, ${r.final_ratio}× rea export asciicast (${r.asciicast_median_ms} ms); the screen at the last chunk, replayed from the output, ${r.replayed_median_ms} ms, ${r.replayed_ratio}×; median of ${r.pairs} pair ratios; picture ${r.svg_bytes} bytes`,
  )
}
if (wanted('spawn-cost')) {
  results.spawn_cost = runSpawnCostBenchmark()
  for (const r of results.spawn_cost) {
    console.log(
      `starting a command in a PTY from a ${r.rss_mb} MB process: REA's native spawner ${r.native_spawn_median_ms} ms, node-pty ${r.node_pty_spawn_median_ms} ms (${(r.node_pty_spawn_median_ms / r.native_spawn_median_ms).toFixed(2)}×)`,
    )
  }
}
if (wanted('startup')) {
  results.startup = runStartupBenchmark()
  const { version, help, capture_true: capture, against_before: before, pairs } = results.startup
  console.log(
    `rea --version ${version.rea_median_ms} ms vs node -e 0 ${version.node_median_ms} ms: ${version.ratio}× (target ≤ 1.3×); rea capture-process --help ${help.rea_median_ms} ms: ${help.ratio}×; rea capture-process of true ${capture.rea_median_ms} ms vs ${capture.node_median_ms} ms: ${capture.ratio}× (target ≤ 2.0×); ${pairs} alternating pairs`,
  )
  if (before !== null) {
    console.log(
      `against the build before (REA_BEFORE_CLI): --help ${before.help.rea_median_ms} vs ${before.help.node_median_ms} ms, ${before.help.ratio}×; capture of true ${before.capture_true.rea_median_ms} vs ${before.capture_true.node_median_ms} ms, ${before.capture_true.ratio}×`,
    )
  }
}
if (wanted('supervisor')) {
  results.supervisor = await runSupervisorBenchmark()
  const r = results.supervisor
  console.log(
    `captureProcess(true) with the supervisor ${r.capture_with_supervisor_median_ms} ms vs without ${r.capture_without_supervisor_median_ms} ms: ${r.with_vs_without}× (raw node-pty ${r.raw_node_pty_median_ms} ms: ${r.with_vs_raw_node_pty}×); first capture of a process ${r.first_capture_with_supervisor_median_ms} ms (Node.js supervisor from the start ${r.first_capture_with_node_supervisor_median_ms} ms) vs ${r.first_capture_without_supervisor_median_ms} ms: start ${r.supervisor_start_ms} ms; the machine's CPU per fresh process: waiter ${r.machine_cpu_per_fresh_process_ms.waiter} ms, Node.js supervisor ${r.machine_cpu_per_fresh_process_ms.node_supervisor} ms, none ${r.machine_cpu_per_fresh_process_ms.no_supervisor} ms; supervisor RSS ${r.supervisor_rss_kib} KiB`,
  )
}
if (wanted('process-scan')) {
  results.process_scan = await runProcessScanBenchmark()
  for (const scan of results.process_scan.scans) {
    console.log(
      `token scan with ${scan.idle_processes} extra idle processes (${scan.processes_on_host} on host): complete ${scan.complete_scan_median_ms} ms, the next one ${scan.following_scan_median_ms} ms (${scan.following_scans_without_listing} examined only the recent processes: no task created in between)`,
    )
  }
  console.log(
    `cleanup after exit (one detached child): median ${results.process_scan.cleanup_after_exit_median_ms} ms`,
  )
}
if (wanted('filesystem')) {
  results.filesystem = await runFilesystemBenchmark()
  const { hashing, small_files: small } = results.filesystem
  if (hashing.skipped !== undefined) {
    console.log(`filesystem hashing skipped: ${hashing.skipped}`)
  } else {
    console.log(
      `snapshot of ${hashing.total_mb} MB in ${hashing.files} files: rea ${hashing.rea_median_ms} ms (${hashing.mb_per_s} MB/s) vs sha256sum ${hashing.sha256sum_median_ms} ms: ${hashing.ratio_vs_sha256sum}× (target ≥ 0.9×); just written: ${hashing.recently_written_ratio_vs_sha256sum}×`,
    )
  }
  console.log(
    `20,000 small files: rea ${small.rea_median_ms} ms vs find + sha256sum ${small.sha256sum_median_ms} ms: ${small.ratio_vs_find_sha256sum}×`,
  )
}
if (wanted('flood')) {
  results.flood = runFloodBenchmark()
  for (const row of results.flood.rows) {
    console.log(
      `${row.name.padEnd(38)} median ${row.median_ms} ms  ${row.mb_per_s} MB/s  runs ${row.runs_ms.join(' ')}`,
    )
  }
  const ratios = results.flood.ratios
  console.log(
    `flood: rea at ${ratios.rea_vs_bare_node_pty_throughput}× the bare node-pty reader, median of ${results.flood.rounds} pair ratios ${ratios.rea_vs_bare_node_pty_pair_throughput}× (target ≥ 0.9×), ${ratios.rea_vs_script_throughput}× script(1)`,
  )
}
if (wanted('stream-normalization')) {
  results.stream_normalization = await runStreamNormalizationBenchmark()
  const r = results.stream_normalization
  for (const row of [...r.flood.rows, ...r.root_lines.rows]) {
    console.log(
      `${row.name}: ${row.median_ms} ms${row.mb_per_s === undefined ? '' : ` (${row.mb_per_s} MB/s)`}, ${row.vs_bare_reader}× the bare reader's throughput (pairs)`,
    )
  }
  const held = r.held_answer
  console.log(
    `waited answer, question → answer in the program, median of ${held.answers}: no stream rules ${held.no_rules_median_ms} ms, default placeholders ${held.placeholders_median_ms} ms, placeholders and every filter ${held.placeholders_and_filters_median_ms} ms`,
  )
}
if (wanted('flood-widths')) {
  results.flood_widths = runFloodWidthsBenchmark()
  for (const flood of results.flood_widths) {
    const rows = flood.rows.map((row) => `${row.name} ${row.median_ms} ms (${row.mb_per_s} MB/s)`).join(', ')
    const before =
      flood.throughput_vs_before === undefined
        ? 'no build before (set REA_BEFORE_CLI)'
        : `this build at ${flood.throughput_vs_before}× the build before's throughput (pairs ${flood.throughput_vs_before_pairs}×)`
    console.log(
      `flood with widths, ${flood.kind} ${flood.bytes / 1e6} MB, ${flood.rounds} rounds: ${rows}; ${before}; ${flood.throughput_vs_bare_reader}× the bare reader`,
    )
  }
}
if (wanted('flood-memory')) {
  results.flood_memory = runFloodMemoryBenchmark()
  const r = results.flood_memory
  console.log(
    r.skipped !== undefined
      ? `flood memory skipped: ${r.skipped}`
      : `peak RSS of rea capture-process: 50 MB flood ${r.peak_50mb_mb} MB, 500 MB flood ${r.peak_500mb_mb} MB: growth ${r.growth_mb} MB (target ≤ 20 MB)`,
  )
}
if (wanted('compare')) {
  results.compare = await runCompareBenchmark()
  for (const row of results.compare.rows) {
    console.log(
      `compare ${row.mib} MiB (${row.chunks} chunks, ${row.verdict}): compareCaptures ${row.compare_median_ms} ms, import both + compare ${row.import_and_compare_median_ms} ms vs diff -u ${row.gnu_diff_median_ms} ms (${row.import_and_compare_vs_diff}×); target ≤ 500 ms at 8 MiB`,
    )
  }
}
if (wanted('screens')) {
  results.screens = await runScreensBenchmark()
  const r = results.screens
  for (const [label, row] of [
    ['one line changed', r.one_line_changed],
    ['colour spelled two ways', r.colour_spelled_two_ways],
  ]) {
    console.log(
      `screens, two ${r.mib} MiB captures, ${label}: by stream ${row.stream_median_ms} ms (${row.stream}, screens_equal ${row.screens_equal}), by screens ${row.screens_median_ms} ms (${row.screens}): ${row.screens_vs_stream}× (pairs ${row.screens_vs_stream_pairs}×)`,
    )
  }
}
if (wanted('vitest')) {
  results.vitest_captures = runVitestCapturesBenchmark()
  const r = results.vitest_captures
  console.log(
    `${r.captures} captures in one Vitest test (fixture + toMatchCapture) ${r.vitest_median_ms} ms vs raw node-pty ${r.raw_node_pty_median_ms} ms: ${r.ratio}×, median of ${r.rounds} pair ratios ${r.pair_ratio}× (target ≤ 2.0×)`,
  )
  console.log(
    `  with rea-capture/reporter: ${r.with_reporter_median_ms} ms in the test (${r.with_reporter_ratio}× raw); whole vitest run ${r.whole_run_with_reporter_median_ms} ms vs ${r.whole_run_median_ms} ms without (${r.whole_run_reporter_ratio}×)`,
  )
}
if (wanted('markdown')) {
  results.markdown = await runMarkdownBenchmark()
  const r = results.markdown
  const p = r.in_process
  console.log(
    `${r.blocks} Markdown blocks in Vitest ${r.markdown_tests_median_ms} ms of tests vs the same ${r.blocks} captures in a Vitest file ${r.captures_tests_median_ms} ms: ${r.ratio}×, median of ${r.rounds} pair ratios ${r.pair_ratio}× (target ≤ 1.1×); whole vitest run ${r.markdown_whole_run_median_ms} vs ${r.captures_whole_run_median_ms} ms (${r.whole_run_ratio}×)`,
  )
  console.log(
    `  in one process, as rea test runs it: the file ${p.file_median_ms} ms vs the ${r.blocks} captures alone ${p.direct_median_ms} ms: ${p.ratio}× (pairs ${p.pair_ratio}×); outside the captures ${p.layer_median_ms} ms (${p.layer_per_block_ms} ms a block, ${p.layer_share} of the file's run)`,
  )
}
if (wanted('mcp')) {
  results.mcp = await runMcpBenchmark()
  const r = results.mcp
  console.log(
    `capture of true through rea mcp ${r.mcp_median_ms} ms vs library ${r.library_median_ms} ms (${r.mcp_vs_library}×), raw node-pty ${r.raw_node_pty_median_ms} ms (${r.mcp_vs_raw_node_pty}×), CLI process ${r.cli_process_median_ms} ms (${r.cli_process_vs_mcp}× the MCP call); server start ${r.connect_ms} ms, first call ${r.first_call_ms} ms`,
  )
}
if (wanted('review-diff')) {
  results.review_diff = runReviewDiffBenchmark()
  const r = results.review_diff
  console.log(
    `re-recorded with -u, git diff --numstat of the authority: one-glyph colour change ${r.colour_change_lines.min}-${r.colour_change_lines.max} lines (target ≤ 12), in the review section: ${r.colour_change_in_review}; one-word change ${r.one_word_change_lines.min}-${r.one_word_change_lines.max} lines (target ≤ 14); ${r.rounds} rounds. Accepting the pending capture (rea review --accept) ${r.accept_median_ms} ms vs re-running the test with -u ${r.update_run_median_ms} ms: ${r.accept_vs_update}× (median of pair ratios)`,
  )
}
if (wanted('viewer')) {
  results.viewer = await runViewerBenchmark()
  const r = results.viewer
  console.log(
    `divergence page for two ${r.mib} MiB captures: built in ${r.build_median_ms} ms (diff -u ${r.gnu_diff_median_ms} ms), ${(r.page_bytes / 1048576).toFixed(1)} MiB = ${r.page_vs_evidence}× the two Evidence files`,
  )
  console.log(
    r.browser_skipped !== undefined
      ? `  in Chromium: skipped (${r.browser_skipped})`
      : `  in Chromium: first checkpoint shown after ${r.first_render_median_ms} ms vs ${r.baseline_load_median_ms} ms to load the same bytes; replay to the end ${r.replay_to_end_median_ms} ms; ${r.elements} elements (${r.elements_after_replay} after the replay), JS heap ${r.heap_mb} MB`,
  )
}
if (wanted('coverage')) {
  results.coverage = runCoverageBenchmark()
  const r = results.coverage
  for (const measure of ['cpu', 'wall']) {
    const m = r[measure]
    const runner =
      m.runner_median_ms === undefined
        ? 'Vitest 4 has no tracking of its own to compare with (set REA_TEST_VITEST_MODULES to a Vitest 5)'
        : `Vitest's own tracking (autoAttachSubprocess) ${m.runner_median_ms} ms, +${m.runner_cost_ms} ms (${m.runner_vs_off}×); REA vs Vitest's own ${m.rea_vs_runner}× (target ≤ 1.0×)`
    console.log(
      `coverage of ${r.captures} captures of a Node.js CLI, whole vitest ${r.vitest} runs on Node ${r.node}, ${measure} time, medians of ${r.rounds}: off ${m.off_median_ms} ms; REA's ${m.rea_median_ms} ms, +${m.rea_cost_ms} ms (${m.rea_vs_off}×); ${runner}`,
    )
  }
  console.log(`  captures covered: ${JSON.stringify(r.covered_captures)}`)
}
if (wanted('waits')) {
  results.waits = await runWaitsBenchmark()
  const r = results.waits
  console.log(
    `waited input, ${r.answers} answers, question → answer in the program: rea median ${r.rea_program_median_ms} ms p99 ${r.rea_program_p99_ms} ms vs bare node-pty ${r.bare_node_pty_program_median_ms} ms / ${r.bare_node_pty_program_p99_ms} ms; rea's own record (met → sent): median ${r.rea_met_to_sent_median_ms} ms p99 ${r.rea_met_to_sent_p99_ms} ms (target ≤ 5 ms)`,
  )
  console.log(
    `todo example: typed at a guessed 1,500 ms ${r.todo_timed_median_ms} ms per capture vs after the prompt ${r.todo_waited_median_ms} ms`,
  )
}
if (wanted('exchange')) {
  results.exchange = await runExchangeBenchmark()
  const r = results.exchange
  for (const [when, terminals] of Object.entries(r.first_reply)) {
    const each = Object.entries(terminals).map(
      ([name, entry]) => `${name} ${entry.first_median_ms} ms (later ${entry.later_median_ms} ms)`,
    )
    console.log(
      `first reply to a DA1, ${when.replaceAll('_', ' ')}, median as the program measured it, ${r.runs} runs each: ${each.join(', ')}`,
    )
  }
  console.log(
    `question → answer per waited event, ${r.answers_per_model} answers each: settled-v1 ${r.answer_settled_median_ms} ms, quiet_ms 0 (exchange only) ${r.answer_exchange_only_median_ms} ms, immediate ${r.answer_immediate_median_ms} ms`,
  )
  for (const [name, entry] of Object.entries(r.against_baseline ?? {})) {
    console.log(
      `rea capture-process of ${name}: ${entry.current_median_ms} ms vs the baseline build ${entry.baseline_median_ms} ms: ${entry.ratio}×`,
    )
  }
}
if (wanted('draw-gaps')) {
  results.draw_gaps = await runDrawGapsBenchmark()
  for (const entry of results.draw_gaps) {
    console.log(
      entry.skipped === undefined
        ? `draw-gaps ${entry.name}: ${entry.chunks} chunks, largest gap inside a reaction ${entry.largest_gap_ms} ms; over 50 ms: ${entry.gaps_over_50_ms.join(', ') || 'none'}`
        : `draw-gaps ${entry.name}: skipped, ${entry.skipped}`,
    )
  }
}
if (wanted('record')) {
  results.record = await runRecordBenchmark()
  const r = results.record
  console.log(
    `rea record, Enter → next question on the person's screen, median of ${r.answers} answers (${r.rounds} sessions of the Inquirer sign-up): ${r.answer_rea_median_ms} ms (max ${r.answer_rea_max_ms}) vs node-pty alone ${r.answer_bare_median_ms} ms (max ${r.answer_bare_max_ms}): ${r.answer_ratio}× (pairs); whole session to the program's end ${r.session_rea_median_ms} vs ${r.session_bare_median_ms} ms: ${r.session_ratio}×`,
  )
  console.log(
    `rea record --verify 3: ${r.verify_median_ms} ms vs three rea capture-process runs ${r.three_cli_captures_median_ms} ms (${r.verify_vs_cli}×) and three captureProcess calls ${r.three_library_captures_median_ms} ms (${r.verify_vs_library}×), pairs`,
  )
}
if (wanted('fidelity')) {
  // Each program's lines are printed as it finishes; the table in docs/fidelity.md explains every difference.
  results.fidelity = await runFidelityBenchmark()
  const measured = results.fidelity.filter((entry) => entry.skipped === undefined)
  const compared = measured.flatMap((entry) => entry.checkpoints)
  const steady = measured.filter((entry) => entry.rea_consistent === entry.rea_runs)
  console.log(
    `fidelity: ${compared.filter((checkpoint) => checkpoint.status === 'equal').length} of ${compared.length} checkpoints equal to tmux; ${steady.length} of ${measured.length} programs showed the same screens in every REA capture; ${results.fidelity.length - measured.length} programs skipped`,
  )
}
mkdirSync(path.join(here, 'results'), { recursive: true })
writeFileSync(path.join(here, 'results/latest.json'), `${JSON.stringify(results, null, 2)}\n`)
