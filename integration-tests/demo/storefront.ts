/**
 * What a shopper does on the demo storefront, as Playwright steps. Selectors are the pages' ids
 * and accessible labels, so the test reads like the shopper's path.
 */
import type { Page } from "playwright-core"

/** From the catalogue to the checkout with one variant (matched on its visible label). */
export async function buy(page: Page, storefrontUrl: string, variant: RegExp): Promise<string> {
  await page.goto(`${storefrontUrl}/`)
  await page.locator("#products a.button").first().click()
  await page.getByLabel(variant).check()
  await page.click("#add-to-cart")
  // Creating the cart is the purchase's first write to the store: on a loaded CI it has taken longer
  // than Playwright's 30 s default. A refusal shows on the page at once and is reported as such.
  const refusal = page.locator("#product-error").filter({ hasText: /\S/ })
  await Promise.race([
    page.waitForURL(/\/checkout\?cart_id=/, { timeout: 120_000 }).catch(() => undefined),
    refusal.waitFor({ timeout: 120_000 }).catch(() => undefined),
  ])
  const cartId = new URL(page.url()).searchParams.get("cart_id")
  if (!cartId) {
    const shown = (await refusal.count()) ? await refusal.first().textContent() : "nothing"
    throw new Error(`no cart id in ${page.url()} after "Buy now" (the page shows: ${shown})`)
  }
  return cartId
}

/**
 * The checkout form. For Request to Pay the email must be the one of the sandbox's test shopper
 * whose number is used: the plugin looks the shopper up (mobile + email) before the push.
 */
export async function fillCheckout(page: Page, email = "noor@example.qa"): Promise<void> {
  await page.fill("#email", email)
  await page.fill("#first_name", "Noor")
  await page.fill("#last_name", "Al-Kuwari")
  await page.fill("#address_1", "Building 12, Street 840, Zone 66")
  await page.fill("#city", "Doha")
  await page.fill("#phone", "+97455123456")
}

/** Clicks "Pay with PayLater" and waits for PayLater's (the sandbox's) hosted page. */
export async function payWithPayLater(page: Page, sandboxUrl: string): Promise<void> {
  await page.click("#pay-with-paylater")
  await page.waitForURL((url) => url.toString().startsWith(`${sandboxUrl}/paylink/`))
  await page.waitForSelector("#approve")
}

/**
 * Types the PayLater mobile number into the checkout's Request to Pay option, sends it and waits for
 * the waiting screen. Returns the new payment session's id (from the waiting screen's URL).
 */
export async function requestToPay(page: Page, mobileNumber: string): Promise<string> {
  await page.fill("#paylater-rtp-mobile", mobileNumber)
  await page.click("#paylater-rtp-send")
  await page.waitForURL(/\/checkout\/request-to-pay\?/)
  await page.waitForSelector('#rtp-waiting[data-state="waiting"]')
  const sessionId = new URL(page.url()).searchParams.get("session_id")
  if (!sessionId) throw new Error(`no session id in ${page.url()}`)
  return sessionId
}

/** The reference the waiting screen shows, which the sandbox's shopper app lists the request under. */
export async function requestReference(page: Page): Promise<string> {
  const reference = (await page.textContent("#rtp-reference"))?.trim()
  if (!reference) throw new Error("the waiting screen shows no reference")
  return reference
}

/** Approves or declines a request in the sandbox's shopper app (a second tab: the shopper's "phone"). */
export async function answerInShopperApp(app: Page, reference: string, answer: "approve" | "decline"): Promise<void> {
  // Attribute selector: the id may hold characters a CSS #id selector would need escaped.
  await app.click(`[id="${answer}-${reference}"]`)
  await app.waitForSelector("#notice")
}
