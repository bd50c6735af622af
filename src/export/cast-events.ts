import { readJournal } from '../evidence/journal.js'
import type { Evidence, TerminalFrame } from '../evidence/schema.js'

/** One recording event: `o` output, `i` input, `r` resize, `m` marker, `x` exit (asciicast v3 only). */
export interface CastEvent {
  readonly at_ms: number
  readonly code: 'o' | 'i' | 'r' | 'm' | 'x'
  readonly data: string
}

type CommittedEvent = Evidence['commitments']['comparison_contract']['value']['events'][number]

/**
 * The capture's journal as recording events, in journal order: every retained chunk's original text
 * (`raw_data ?? data`) as output, dispatched input (a sensitive value as `*` per byte, never the value) and
 * resizes as themselves, and markers for checkpoints, signals, omitted output, events that were not dispatched
 * and the exit. Times never go backwards, as players require.
 */
export function castEvents(evidence: Evidence): CastEvent[] {
  const events: CastEvent[] = []
  const contractEvents = evidence.commitments.comparison_contract.value.events
  let checkpoint = 0
  let last = 0
  const push = (at_ms: number, code: CastEvent['code'], data: string): void => {
    last = Math.max(last, at_ms)
    events.push({ at_ms: last, code, data })
  }
  for (const entry of readJournal(evidence)) {
    switch (entry.kind) {
      case 'chunk': {
        const chunk = evidence.terminal.chunks[entry.index]
        if (chunk !== undefined) {
          push(chunk.at_ms, 'o', chunk.raw_data ?? chunk.data)
        }
        break
      }
      case 'omitted_chunks': {
        const run = evidence.terminal.omitted_chunks[entry.index]
        if (run !== undefined) {
          push(
            run.at_ms,
            'm',
            `${run.count} output chunk${run.count === 1 ? '' : 's'} (${run.bytes} bytes) omitted by limits.output_bytes`,
          )
        }
        break
      }
      case 'frame': {
        const frame = evidence.terminal.frames[entry.index]
        if (frame?.checkpoint === true) {
          push(frame.at_ms, 'm', checkpointLabel(checkpoint++, frame))
        }
        break
      }
      case 'interaction': {
        const interaction = evidence.interactions[entry.index]
        const event = contractEvents[interaction?.event_index ?? -1]
        if (interaction !== undefined && event !== undefined) {
          const { code, data } = interactionEvent(interaction, event)
          push(interaction.at_ms, code, data)
        }
        break
      }
      case 'finalization_signal': {
        const signal = evidence.exit.finalization?.signals[entry.index]
        if (signal !== undefined) {
          push(signal.at_ms, 'm', `finalization ${signal.signal} (${signal.delivery})`)
        }
        break
      }
      case 'exit':
        push(evidence.exit.at_ms, 'm', exitLabel(evidence.exit))
        break
      case 'sample':
      case 'checkpoint':
        // Process samples and filesystem checkpoints are not terminal events; a recording has no place for them.
        break
    }
  }
  return events
}

function interactionEvent(
  interaction: Evidence['interactions'][number],
  event: CommittedEvent,
): Pick<CastEvent, 'code' | 'data'> {
  if (interaction.outcome !== 'dispatched') {
    return {
      code: 'm',
      data: `event ${interaction.event_index} (${event.type}) ${interaction.outcome}${interaction.reason === undefined ? '' : `: ${interaction.reason}`}`,
    }
  }
  switch (event.type) {
    case 'input':
      // Evidence never holds a sensitive value, only its byte count: the recording shows one `*` per byte.
      return { code: 'i', data: event.sensitive ? '*'.repeat(event.data_bytes) : event.data }
    case 'resize':
      return { code: 'r', data: `${event.columns}x${event.rows}` }
    case 'signal':
      return {
        code: 'm',
        data: `signal ${event.signal} (event ${interaction.event_index}, ${interaction.delivery ?? 'sent'})`,
      }
  }
}

function checkpointLabel(checkpoint: number, frame: TerminalFrame): string {
  const where =
    frame.trigger === 'before_event'
      ? `before event ${frame.event_index ?? '?'}`
      : frame.trigger === 'after_resize'
        ? `after resize (event ${frame.event_index ?? '?'})`
        : frame.trigger
  return `checkpoint ${checkpoint}: ${where}${frame.status === 'omitted' ? ` (not rendered: ${frame.reason})` : ''}`
}

function exitLabel(exit: Evidence['exit']): string {
  const finalCode = exit.finalization?.exit_code ?? null
  const how =
    exit.code !== null
      ? `code ${exit.code}`
      : exit.signal !== null && exit.signal > 0
        ? `signal ${exit.signal}`
        : finalCode !== null
          ? `code ${finalCode} during finalization`
          : exit.signal === null
            ? 'not observed'
            : 'without a code'
  return `exit ${how} (${exit.reason})`
}
