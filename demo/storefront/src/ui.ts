/**
 * Tiny DOM helpers. Pages build elements with `h()` and set text with `textContent`, never
 * `innerHTML`: product names and error messages come from the network and must not become markup.
 */
type Child = Node | string | number | null | undefined | false
type Attrs = Record<string, string | number | boolean | undefined | null | EventListener>

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue
    if (typeof value === "function") element.addEventListener(name.replace(/^on/, ""), value)
    else if (value === true) element.setAttribute(name, "")
    else element.setAttribute(name, String(value))
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    element.append(typeof child === "object" ? child : String(child))
  }
  return element
}

/**
 * Replaces the page content and sets the tab title. Every page is a full page load, so focus and
 * screen-reader position already start at the top; nothing to move.
 */
export function showPage(title: string, ...content: Node[]): void {
  document.getElementById("main")!.replaceChildren(...content)
  document.title = `${title} · Majlis Store`
}

/** An alert box; `role="alert"` makes screen readers announce it as soon as it gets text. */
export function alertBox(kind: "error" | "success", id: string): HTMLDivElement {
  return h("div", { class: `alert ${kind}`, id, role: kind === "error" ? "alert" : "status" })
}

/** Money as the shopper reads it: "QAR 1,250.50". Medusa amounts are in major units. */
export function money(amount: number | null | undefined, currencyCode: string): string {
  if (amount === null || amount === undefined) return "-"
  return new Intl.NumberFormat("en-QA", { style: "currency", currency: currencyCode.toUpperCase() }).format(amount)
}

/** Shows work in progress on a button and prevents a double submit. */
export function busy(button: HTMLButtonElement, label: string): () => void {
  const original = button.textContent
  button.disabled = true
  button.replaceChildren(h("span", { class: "spinner", "aria-hidden": "true" }), label)
  return () => {
    button.disabled = false
    button.textContent = original
  }
}
