/**
 * Storefront URL templates. The storefront base is inserted as is (it is a URL prefix chosen by the
 * merchant); every other placeholder is data and is URL-encoded so that an id or reason can never
 * change the shape of the URL it lands in.
 */

export const TEMPLATE_PLACEHOLDERS = ["storefront_url", "order_id", "cart_id", "reason", "session_id"] as const

export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number]
export type TemplateValues = Partial<Record<TemplatePlaceholder, string>>

/**
 * The defaults name no cart: anyone holding the return URL (a session id opens the return route)
 * would otherwise read the cart, and with the public publishable key its email, address and phone.
 * The storefront keeps its own cart (a cookie, local storage); the confirmation needs only the order.
 */
export const DEFAULT_TEMPLATES = {
  success: "{storefront_url}/order/confirmed/{order_id}",
  failure: "{storefront_url}/checkout?step=payment&paylater_error={reason}",
  pending: "{storefront_url}/order/pending",
} as const

const PLACEHOLDER = /\{([a-z_]+)\}/g

export function unknownPlaceholders(template: string): string[] {
  const known = new Set<string>(TEMPLATE_PLACEHOLDERS)
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]).filter((name) => !known.has(name))
}

/** Missing values become empty text rather than a literal "{cart_id}" in the shopper's address bar. */
export function fillTemplate(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name)) {
      return whole
    }
    const value = values[name as TemplatePlaceholder] ?? ""
    return name === "storefront_url" ? value.replace(/\/+$/, "") : encodeURIComponent(value)
  })
}

/** Fills only {storefront_url}: the rest is known when the shopper comes back. */
export function withStorefront(template: string, storefrontUrl: string): string {
  return template.replace(/\{storefront_url\}/g, storefrontUrl.replace(/\/+$/, ""))
}
