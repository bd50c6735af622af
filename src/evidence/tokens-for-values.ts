import { canonicalDigest } from './canonical-json.js'
import { sealEvidence } from './identity-digest.js'
import {
  activePlaceholders,
  machineValueRule,
  MACHINE_VALUES_VERSION,
  type MachineValueRule,
} from './machine-values.js'
import type { Evidence, EvidenceBody, FileEntry, TerminalChunk } from './schema.js'
import { scanRules } from '../normalize/stream-rule.js'
import type { PlaceholderRule } from '../normalize/placeholders.js'

/** Replaces every spelling of a machine value in one text by its token, counting the spans replaced. */
class TokenWriter {
  readonly #rule: PlaceholderRule
  replaced = 0

  constructor(rule: PlaceholderRule) {
    this.#rule = rule
  }

  text = (text: string): string => {
    if (text === '') {
      return text
    }
    const parts: string[] = []
    scanRules([this.#rule], text, 0, text.length, (start, end, match) => {
      if (match === undefined) {
        parts.push(text.slice(start, end))
      } else {
        parts.push(match.replacement)
        this.replaced++
      }
    })
    return parts.join('')
  }

  /** Bytes that are not valid UTF-8: the spellings are found among them as Latin-1 text of their UTF-8 bytes. */
  bytes = (base64: string): string => {
    const latin1 = Buffer.from(base64, 'base64').toString('latin1')
    return Buffer.from(this.text(latin1), 'latin1').toString('base64')
  }
}

/**
 * The capture as an authority file stores it: the values its active placeholders stand for, found as the
 * placeholders find them, replaced by their tokens outside the comparison text (which the placeholders already
 * made, and which is never rewritten after the capture): the capture root, the raw terminal text and bytes, the
 * scenario, executable and contract, file paths and symlink targets, and REA's own messages. The document says so
 * in `machine_values`, and its digests cover what it stores. A capture without placeholders, or already stored,
 * comes back as it is.
 */
export function withTokensForMachineValues(evidence: Evidence): Evidence {
  const { rule, applied } = machineValueRule(evidence, activePlaceholders(evidence))
  if (rule === undefined) {
    return evidence
  }
  const write = new TokenWriter(rule)
  const { identity_digest: _digest, ...body } = evidence
  const rewritten: EvidenceBody = {
    ...body,
    host: { ...body.host, capture_root: write.text(body.host.capture_root) },
    commitments: commitmentsWithTokens(body.commitments, write.text),
    ...(body.failure === undefined ? {} : { failure: write.text(body.failure) }),
    terminal: {
      ...body.terminal,
      chunks: body.terminal.chunks.map((chunk) => chunkWithTokens(chunk, write)),
    },
    interactions: body.interactions.map((interaction) => ({
      ...interaction,
      ...(interaction.reason === undefined ? {} : { reason: write.text(interaction.reason) }),
      ...(interaction.wait?.detail === undefined
        ? {}
        : { wait: { ...interaction.wait, detail: write.text(interaction.wait.detail) } }),
    })),
    settlement: {
      ...body.settlement,
      ...(body.settlement.reason === undefined ? {} : { reason: write.text(body.settlement.reason) }),
    },
    ...filesystemWithTokens(body, write.text),
  }
  return sealEvidence({
    ...rewritten,
    machine_values: { version: MACHINE_VALUES_VERSION, placeholders: applied, replaced: write.replaced },
  })
}

/**
 * The compared fields that a stored authority holds with tokens (the commitments, file paths and symlink targets),
 * rewritten the same way: what a comparison uses to set a capture held in memory beside a stored authority, so
 * that they say the same where the only difference is the machine. The comparison text needs nothing: the
 * placeholders made it.
 */
export function withTokensInComparedFields(evidence: Evidence, values: MachineValueRule): Evidence {
  if (values.rule === undefined) {
    return evidence
  }
  const write = new TokenWriter(values.rule)
  const rewritten = {
    ...evidence,
    commitments: commitmentsWithTokens(evidence.commitments, write.text),
    ...filesystemWithTokens(evidence, write.text),
  }
  return write.replaced === 0 ? evidence : rewritten
}

/** Observed roots as written, and symlink targets, which can name any path of the machine. */
function filesystemWithTokens(
  body: EvidenceBody,
  text: Rewrite,
): Pick<EvidenceBody, 'normalized_result' | 'filesystem'> {
  return {
    normalized_result: {
      files_before: filesWithTokens(body.normalized_result.files_before, text),
      files_after: filesWithTokens(body.normalized_result.files_after, text),
    },
    filesystem: {
      ...body.filesystem,
      roots: body.filesystem.roots.map((root) => ({ ...root, path: text(root.path) })),
      effects: body.filesystem.effects.map((effect) => ({
        ...effect,
        before: entryWithTokens(effect.before, text),
        after: entryWithTokens(effect.after, text),
      })) as EvidenceBody['filesystem']['effects'],
    },
  }
}

type Commitments = EvidenceBody['commitments']
type Rewrite = (text: string) => string

function commitmentsWithTokens(commitments: Commitments, text: Rewrite): Commitments {
  const scenario = commitments.scenario.value
  const executable = commitments.executable.value
  const contract = commitments.comparison_contract.value
  const events = (list: typeof contract.events) =>
    list.map((event) =>
      event.type === 'input' && !event.sensitive && 'data' in event
        ? { ...event, data: text(event.data) }
        : event,
    )
  const environment = (values: Record<string, string | null>) =>
    Object.fromEntries(
      Object.entries(values).map(([name, value]) => [name, value === null ? null : text(value)]),
    )
  const commit = <T>(value: T) => ({ sha256: canonicalDigest(value), value })
  return {
    scenario: commit({
      ...scenario,
      executable: text(scenario.executable),
      arguments: scenario.arguments.map(text),
      working_directory: text(scenario.working_directory),
      environment: environment(scenario.environment),
      filesystem_observation_paths: scenario.filesystem_observation_paths.map(text),
      events: events(scenario.events),
    }),
    executable: commit({
      executable: text(executable.executable),
      arguments: executable.arguments.map(text),
      resolved_path: text(executable.resolved_path),
    }),
    comparison_contract: commit({
      ...contract,
      working_directory: text(contract.working_directory),
      environment: environment(contract.environment),
      filesystem_observation_paths: contract.filesystem_observation_paths.map(text),
      events: events(contract.events),
    }),
    normalization: commitments.normalization,
  }
}

/** Raw text and bytes get tokens; raw text that then says what the comparison text says is no longer kept. */
function chunkWithTokens(chunk: TerminalChunk, write: TokenWriter): TerminalChunk {
  if (chunk.raw_data === undefined && chunk.bytes_base64 === undefined) {
    return chunk
  }
  const { raw_data: _raw, bytes_base64: _bytes, ...rest } = chunk
  // Bytes that are not UTF-8 are the truth the raw text was decoded from: the raw text follows them.
  const bytes = chunk.bytes_base64 === undefined ? undefined : write.bytes(chunk.bytes_base64)
  const raw =
    bytes === undefined
      ? write.text(chunk.raw_data ?? chunk.data)
      : Buffer.from(bytes, 'base64').toString('utf8')
  return {
    ...rest,
    ...(raw === chunk.data ? {} : { raw_data: raw }),
    ...(bytes === undefined ? {} : { bytes_base64: bytes }),
  }
}

function entryWithTokens(entry: FileEntry | null, text: Rewrite): FileEntry | null {
  return entry?.type === 'symlink' ? { ...entry, target: text(entry.target) } : entry
}

function filesWithTokens(
  files: Record<string, FileEntry> | null,
  text: Rewrite,
): Record<string, FileEntry> | null {
  if (files === null) {
    return null
  }
  return Object.fromEntries(
    Object.entries(files).map(([key, entry]) => [key, entryWithTokens(entry, text) as FileEntry]),
  )
}
