import type { Keystroke } from '../screen/keys.js'

/**
 * The line a person is typing into a field, as a line editor keeps it: characters go in at the cursor, Backspace
 * and Delete remove one, Left/Right/Home/End (and Ctrl+A/Ctrl+E) move, Ctrl+U clears what is left of the cursor.
 * Enter, Tab and other keys leave the text as it is (Tab is remembered: a completion may insert text nobody
 * typed). What the recorder compares with what the program drew, and what a replay types for a secret.
 */
export class TypedLine {
  #text: string[] = []
  #position = 0
  #completed = false

  get text(): string {
    return this.#text.join('')
  }

  /** Whether a Tab was typed: the program may have completed the text. */
  get completed(): boolean {
    return this.#completed
  }

  /** Applies one keystroke; true when the text changed. */
  apply(stroke: Keystroke): boolean {
    if (stroke.kind === 'reply') {
      return false
    }
    if (stroke.kind === 'text') {
      const characters = Array.from(stroke.text).filter(
        (character) => character !== '\r' && character !== '\n',
      )
      if (characters.length === 0 || characters.some((character) => character < ' ')) {
        return false
      }
      this.#text.splice(this.#position, 0, ...characters)
      this.#position += characters.length
      return true
    }
    return this.#applyKey(stroke.name)
  }

  #applyKey(name: string): boolean {
    switch (name) {
      case 'Backspace':
      case 'Ctrl+H':
        if (this.#position === 0) {
          return false
        }
        this.#text.splice(--this.#position, 1)
        return true
      case 'Delete':
        return this.#text.splice(this.#position, 1).length > 0
      case 'Ctrl+U': {
        const removed = this.#text.splice(0, this.#position).length
        this.#position = 0
        return removed > 0
      }
      case 'Left':
        this.#position = Math.max(0, this.#position - 1)
        return false
      case 'Right':
        this.#position = Math.min(this.#text.length, this.#position + 1)
        return false
      case 'Home':
      case 'Ctrl+A':
        this.#position = 0
        return false
      case 'End':
      case 'Ctrl+E':
        this.#position = this.#text.length
        return false
      case 'Tab':
        this.#completed = true
        return false
      default:
        return false
    }
  }
}
