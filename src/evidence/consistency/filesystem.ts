import { canonicalJson } from '../canonical-json.js'
import { classifyEffects } from '../file-effects.js'
import type { Evidence, FileEntry } from '../schema.js'
import { filesystemAccountingCut } from '../derived-unknowns.js'
import { sameJson, type DerivedFacts } from './facts.js'

type Accounting = NonNullable<Evidence['truncation_details']['filesystem_before']>
type Files = Record<string, FileEntry>

const CHECKPOINTS = [
  { files: 'files_before', accounting: 'filesystem_before', name: 'before_launch' },
  { files: 'files_after', accounting: 'filesystem_after', name: 'after_settlement' },
] as const

const aliasOf = (key: string): string => key.slice(0, key.indexOf(':'))

/**
 * The filesystem record follows from the contract's observation paths and from the two checkpoints in
 * `normalized_result`: the roots, each checkpoint's accounting, and above all the effects, which are
 * recomputed here, so an entry's digest, size, mode or presence cannot disagree with what is compared.
 */
export function checkFilesystem(evidence: Evidence, facts: DerivedFacts): void {
  const { filesystem_observation_paths: paths, limits } = evidence.commitments.comparison_contract.value
  const { filesystem, normalized_result: result, truncation_details: details } = evidence
  const selected = paths.length > 0
  facts.expect(
    (filesystem.status === 'observed') === selected,
    'filesystem.status',
    'the contract’s filesystem_observation_paths',
    () => `is ${filesystem.status} with ${paths.length} observation paths`,
  )
  if (!selected || filesystem.status !== 'observed') {
    const empty =
      filesystem.roots.length === 0 &&
      filesystem.checkpoints.length === 0 &&
      filesystem.effects.length === 0 &&
      result.files_before === null &&
      result.files_after === null &&
      details.filesystem_before === null &&
      details.filesystem_after === null
    facts.expect(
      empty,
      'filesystem',
      'filesystem.status',
      () => 'an unobserved filesystem has no roots, checkpoints, entries, effects or accounting',
    )
    return
  }
  const aliases = paths.map((_path, index) => `root_${index}`)
  facts.expect(
    sameJson(
      filesystem.roots.map((root) => [root.alias, root.path]),
      paths.map((path, index) => [aliases[index], path]),
    ),
    'filesystem.roots',
    'the contract’s filesystem_observation_paths',
    () => 'there is one root per observation path, root_0 first, each with the path as written',
  )
  facts.expect(
    result.files_before !== null && details.filesystem_before !== null,
    'normalized_result.files_before',
    'filesystem.status',
    () => 'an observed filesystem has a before_launch checkpoint and its accounting',
  )
  facts.expect(
    (result.files_after === null) === (details.filesystem_after === null),
    'normalized_result.files_after',
    'truncation_details.filesystem_after',
    () => 'a checkpoint and its accounting are present together',
  )
  for (const checkpoint of CHECKPOINTS) {
    const files = result[checkpoint.files]
    const accounting = details[checkpoint.accounting]
    if (files !== null && accounting !== null) {
      checkAccounting(files, accounting, aliases, limits, checkpoint, facts)
    }
  }
  const names = filesystem.checkpoints.map((checkpoint) => checkpoint.name)
  facts.expect(
    sameJson(names, ['before_launch', 'after_settlement'].slice(0, names.length)),
    'filesystem.checkpoints',
    'the capture lifecycle',
    () => `checkpoints are before_launch then after_settlement, got ${names.join(', ')}`,
  )
  const before = result.files_before
  const after = result.files_after
  if (before === null || details.filesystem_before === null) {
    return
  }
  const expected =
    after === null || details.filesystem_after === null
      ? []
      : classifyEffects(
          { entries: before, accounting: details.filesystem_before },
          { entries: after, accounting: details.filesystem_after },
        )
  if (canonicalJson(expected) !== canonicalJson(filesystem.effects)) {
    const recorded = new Map(filesystem.effects.map((effect) => [effect.path, effect]))
    const first =
      expected.find((effect) => canonicalJson(effect) !== canonicalJson(recorded.get(effect.path) ?? null))
        ?.path ??
      filesystem.effects.find((effect) => !expected.some((candidate) => candidate.path === effect.path))?.path
    facts.expect(
      false,
      `filesystem.effects${first === undefined ? '' : `[${first}]`}`,
      'normalized_result.files_before, files_after and the roots’ accounting',
      () =>
        first === undefined
          ? 'the effects are not the ones the two checkpoints give'
          : `the effect recorded for ${first} is not the one the two checkpoints give (${describeEffect(expected.find((effect) => effect.path === first))})`,
    )
  }
}

function describeEffect(effect: { readonly status: string } | undefined): string {
  return effect === undefined ? 'no effect: the path is in neither checkpoint' : `expected ${effect.status}`
}

function checkAccounting(
  files: Files,
  accounting: Accounting,
  aliases: readonly string[],
  limits: Evidence['commitments']['comparison_contract']['value']['limits'],
  checkpoint: (typeof CHECKPOINTS)[number],
  facts: DerivedFacts,
): void {
  const at = `truncation_details.${checkpoint.accounting}`
  const entries = `normalized_result.${checkpoint.files}`
  const keys = Object.keys(files)
  facts.expect(
    accounting.file_count_limit === limits.file_count &&
      accounting.depth_limit === limits.filesystem_depth &&
      accounting.file_bytes_budget === limits.file_bytes,
    `${at}.file_count_limit, depth_limit and file_bytes_budget`,
    'the contract’s limits',
    () => 'each checkpoint works under the limits the contract names',
  )
  facts.expect(
    sameJson(
      accounting.roots.map((root) => root.alias),
      aliases,
    ),
    `${at}.roots`,
    'the contract’s filesystem_observation_paths',
    () => 'there is one accounted root per observation path',
  )
  facts.expect(
    keys.every((key) => aliases.includes(aliasOf(key))),
    entries,
    'the contract’s filesystem_observation_paths',
    () => `every entry belongs to one of ${aliases.join(', ')}`,
  )
  facts.expect(
    accounting.entries_retained === keys.length,
    `${at}.entries_retained`,
    entries,
    () => `is ${accounting.entries_retained} but the checkpoint holds ${keys.length} entries`,
  )
  let hashed = 0
  const unhashed = new Map<string, number>()
  for (const [key, entry] of Object.entries(files)) {
    if (entry.type === 'file') {
      if (entry.sha256 === null) {
        unhashed.set(key, entry.size)
      } else {
        hashed += entry.size
      }
    }
  }
  facts.expect(
    accounting.bytes_hashed === hashed,
    `${at}.bytes_hashed`,
    entries,
    () => `is ${accounting.bytes_hashed} but the files with a digest hold ${hashed} bytes`,
  )
  facts.expect(
    sameJson(
      accounting.hash_omissions.map((omission) => [omission.path, omission.size]),
      [...unhashed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ),
    `${at}.hash_omissions`,
    entries,
    () => 'exactly the files without a digest are listed, each with its size',
  )
  const exhausted = new Map(accounting.roots.map((root) => [root.alias, root.exhausted]))
  for (const field of ['depth_limited', 'incomplete_directories'] as const) {
    accounting[field].forEach((key, index) =>
      facts.expect(
        files[key]?.type === 'directory' && exhausted.get(aliasOf(key)) === false,
        `${at}.${field}[${index}]`,
        `${entries} and ${at}.roots`,
        () => `${key} must be a directory of a root that was not enumerated to the end`,
      ),
    )
  }
  facts.expect(
    (accounting.incomplete_directories.length === 0 || accounting.count_limit_reached) &&
      (!accounting.count_limit_reached || accounting.roots.some((root) => !root.exhausted)),
    `${at}.count_limit_reached`,
    `${at}.incomplete_directories and roots`,
    () =>
      `is ${accounting.count_limit_reached} with ${accounting.incomplete_directories.length} cut directories`,
  )
  facts.expect(
    accounting.truncated === filesystemAccountingCut(accounting),
    `${at}.truncated`,
    `${at}.roots, hash_omissions and enumeration_failures`,
    () =>
      `is ${accounting.truncated} but they say ${filesystemAccountingCut(accounting) ? 'something was left out' : 'nothing was left out'}`,
  )
}
