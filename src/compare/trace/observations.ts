import type { Evidence, FileEffect } from '../../evidence/schema.js'
import { skipCause } from '../../evidence/skip-cause.js'
import type { TraceObservation } from './result-schema.js'
import { readTerminalLines } from './terminal-lines.js'

type Of<K extends TraceObservation['kind']> = Extract<TraceObservation, { kind: K }>

/**
 * An observation with its place in the journal order: `[sequence, ordinal]`, where the ordinal orders lines
 * that end in the same chunk (sequences are otherwise unique). File effects have no place.
 */
export interface Positioned<T extends TraceObservation = TraceObservation> {
  readonly observation: T
  readonly position: readonly [number, number]
}

export interface ObservedEvents {
  readonly lines: Positioned<Of<'line'>>[]
  readonly partialLines: number
  readonly interactions: Positioned<Of<'interaction'>>[]
  /** Undefined when the exit was not observed. */
  readonly exit: Positioned<Of<'exit'>> | undefined
  /** created, deleted and modified effects; empty when no path was selected. */
  readonly files: Of<'file'>[]
  /** Every effect entry by path, unchanged and unknown ones included. */
  readonly effectsByPath: ReadonlyMap<string, FileEffect>
}

/** Every observed event of the kinds a trace speaks about. Timestamps are not read: order is the journal's. */
export function observeEvents(evidence: Evidence): ObservedEvents {
  const terminal = readTerminalLines(evidence)
  const exit = evidence.exit
  const files: Of<'file'>[] = []
  const effectsByPath = new Map<string, FileEffect>()
  for (const effect of evidence.filesystem.effects) {
    effectsByPath.set(effect.path, effect)
    if (effect.status === 'created' || effect.status === 'deleted' || effect.status === 'modified') {
      files.push({ kind: 'file', path: effect.path, effect: effect.status })
    }
  }
  return {
    lines: terminal.lines.map((line) => ({
      observation: {
        kind: 'line',
        sequence: line.sequence,
        chunk_index: line.chunk_index,
        byte_offset: line.byte_offset,
        text: line.text,
      },
      position: [line.sequence, line.ordinal],
    })),
    partialLines: terminal.partial_lines,
    interactions: [...evidence.interactions]
      .sort((a, b) => a.sequence - b.sequence)
      .map((interaction) => ({
        observation: {
          kind: 'interaction',
          sequence: interaction.sequence,
          event_index: interaction.event_index,
          type: interaction.type,
          outcome: interaction.outcome,
          ...(interaction.outcome === 'skipped'
            ? { skip_cause: skipCause(interaction, evidence.exit.reason) }
            : {}),
        },
        position: [interaction.sequence, 0],
      })),
    exit:
      exit.signal === null
        ? undefined
        : {
            observation: {
              kind: 'exit',
              sequence: exit.sequence,
              reason: exit.reason,
              code: exit.code,
              signal: exit.signal,
            },
            position: [exit.sequence, 0],
          },
    files,
    effectsByPath,
  }
}

/** Negative when `a` comes first in the journal order. */
export function comparePositions(a: Positioned, b: Positioned): number {
  return a.position[0] - b.position[0] || a.position[1] - b.position[1]
}

/** One short phrase that locates an observation for messages: what it is and where it sits. */
export function describeObservation(observation: TraceObservation): string {
  switch (observation.kind) {
    case 'line':
      return `line ${JSON.stringify(observation.text)} (sequence ${observation.sequence}, chunk ${observation.chunk_index} byte ${observation.byte_offset})`
    case 'interaction':
      return `scenario event ${observation.event_index} (${observation.type}, ${observation.outcome}, sequence ${observation.sequence})`
    case 'exit':
      return `exit (${observation.reason}, code ${String(observation.code)}, signal ${observation.signal}, sequence ${observation.sequence})`
    case 'file':
      return `${observation.path} ${observation.effect}`
  }
}
