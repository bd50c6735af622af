import type { Terminal } from '@xterm/xterm'
import { element } from './page-elements.js'

export interface ScreenOverlay {
  /** A box over `width` cells from `row`, `column` (zero-based). */
  add(className: string, row: number, column: number, width: number): void
}

/**
 * Boxes over a terminal's cell grid, inside its screen element and placed in fractions of it: nothing is
 * measured, so a box never lands where a screen not yet laid out put it.
 */
export function overlayFor(terminal: Terminal): ScreenOverlay {
  const overlay = element('div', { class: 'rea-overlay' })
  terminal.element?.querySelector('.xterm-screen')?.append(overlay)
  const percent = (part: number, whole: number): string => `${(100 * part) / whole}%`
  return {
    add(className, row, column, width) {
      const box = element('div', {
        class: className,
        'data-row': String(row + 1),
        'data-column': String(column + 1),
        'data-width': String(width),
      })
      box.style.left = percent(column, terminal.cols)
      box.style.top = percent(row, terminal.rows)
      box.style.width = percent(width, terminal.cols)
      box.style.height = percent(1, terminal.rows)
      overlay.append(box)
    },
  }
}
