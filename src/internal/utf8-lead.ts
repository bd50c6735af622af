/**
 * The length of the UTF-8 sequence a lead byte announces (1–4), or 0 for a byte that cannot start one:
 * a continuation byte, an overlong lead (0xC0, 0xC1) or a lead beyond U+10FFFF (0xF5–0xFF), per RFC 3629.
 */
export function utf8SequenceLength(lead: number): number {
  if (lead < 0x80) {
    return 1
  }
  if (lead >= 0xc2 && lead <= 0xdf) {
    return 2
  }
  if (lead >= 0xe0 && lead <= 0xef) {
    return 3
  }
  return lead >= 0xf0 && lead <= 0xf4 ? 4 : 0
}
