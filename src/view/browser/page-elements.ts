/** An element with its attributes and, when given, its text. */
export function element(tag: string, attributes: Record<string, string> = {}, text?: string): HTMLElement {
  const created = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    created.setAttribute(name, value)
  }
  if (text !== undefined) {
    created.textContent = text
  }
  return created
}

/** An element the page's HTML always holds (render-page.ts writes it with the section that uses it). */
export function requiredElement<Type extends HTMLElement>(id: string, kind: abstract new () => Type): Type {
  const found = document.getElementById(id)
  if (!(found instanceof kind)) {
    throw new Error(`the page has no ${kind.name} #${id}`)
  }
  return found
}
