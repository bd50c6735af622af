/**
 * The versions of REA's terminal that a capture commits in its comparison contract: how wide each character is
 * drawn, and what the terminal answers when a program asks it something. Both change what a program shows and
 * does, so two captures made under different versions are never compared. The behaviour itself lives in
 * `screen/width-model.ts` and `screen/reply-table.ts`; only the names are here, for the scenario (which may
 * choose the legacy width model) and the Evidence schema.
 */

/**
 * Grapheme clusters drawn as current terminals draw them (kitty, Ghostty, WezTerm, Windows Terminal): an emoji,
 * with or without a variation selector, skin tone or zero-width joiner, takes two cells; see docs/fidelity.md.
 */
export const WIDTH_MODEL = 'grapheme-clusters-v1'

/**
 * xterm.js's built-in Unicode 6 tables, which every capture used before REA named its width model (a committed
 * terminal without `width_model`). A scenario may still ask for it, to compare with authorities recorded then.
 */
export const LEGACY_WIDTH_MODEL = 'unicode-6'

export const WIDTH_MODELS = [LEGACY_WIDTH_MODEL, WIDTH_MODEL] as const
export type WidthModel = (typeof WIDTH_MODELS)[number]

/**
 * REA's table of query replies (docs/events.md#terminal-replies): the emulator's own answers plus colours,
 * XTVERSION and XTGETTCAP. A capture that answered queries without `terminal.reply_table` answered only what
 * the emulator answers by itself.
 */
export const REPLY_TABLE = 'replies-v1'

/** The width model a committed terminal names; absent means the model of captures made before it was named. */
export function widthModelOf(terminal: { readonly width_model?: string | undefined }): WidthModel {
  return terminal.width_model === WIDTH_MODEL ? WIDTH_MODEL : LEGACY_WIDTH_MODEL
}
