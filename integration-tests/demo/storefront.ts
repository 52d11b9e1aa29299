/**
 * What a shopper does on the demo storefront, as Playwright steps. Selectors are the pages' ids
 * and accessible labels, so the test reads like the shopper's path.
 */
import type { Page } from "playwright-core"

/**
 * Server work between two pages (a cart's creation, PayLater's link, a completion) has taken more
 * than Playwright's 30 s default on a loaded 2-core CI machine. A failure the page shows ends the wait.
 */
export const SERVER_STEP_MS = 120_000

/**
 * Waits until the page is at `url`. When one of `errors` shows text first, or nothing happens in
 * SERVER_STEP_MS, fails saying where the page is and what it shows (not only "timeout"). `errors`
 * are the elements the step itself fills on failure: one already showing text ends the wait at once.
 */
export async function arriveAt(page: Page, url: RegExp | ((url: URL) => boolean), step: string, errors: string[]): Promise<void> {
  const shown = errors.map((selector) => page.locator(selector).filter({ hasText: /\S/ }).first())
  const arrived = await Promise.race([
    page.waitForURL(url, { timeout: SERVER_STEP_MS }).then(() => true, () => false),
    ...shown.map((error) => error.waitFor({ timeout: SERVER_STEP_MS }).then(() => false, () => false)),
  ])
  if (arrived) return
  const texts: string[] = []
  for (const error of shown) if (await error.count()) texts.push(((await error.textContent()) ?? "").trim())
  const busy = await page.locator("button[disabled]").allTextContents().catch(() => [])
  throw new Error(
    `${step}: still at ${page.url()} (errors shown: ${texts.length ? texts.join(" | ") : "none"}; disabled buttons: ${busy.join(", ") || "none"})`
  )
}

/** From the catalogue to the checkout with one variant (matched on its visible label). */
export async function buy(page: Page, storefrontUrl: string, variant: RegExp): Promise<string> {
  await page.goto(`${storefrontUrl}/`)
  await page.locator("#products a.button").first().click()
  await page.getByLabel(variant).check()
  await page.click("#add-to-cart")
  await arriveAt(page, /\/checkout\?cart_id=/, '"Buy now"', ["#product-error"])
  const cartId = new URL(page.url()).searchParams.get("cart_id")
  if (!cartId) throw new Error(`no cart id in ${page.url()} after "Buy now"`)
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
  await arriveAt(page, (url) => url.toString().startsWith(`${sandboxUrl}/paylink/`), '"Pay with PayLater"', ["#checkout-error"])
  await page.waitForSelector("#approve")
}

/**
 * Types the PayLater mobile number into the checkout's Request to Pay option, sends it and waits for
 * the waiting screen. Returns the new payment session's id (from the waiting screen's URL).
 */
export async function requestToPay(page: Page, mobileNumber: string): Promise<string> {
  await page.fill("#paylater-rtp-mobile", mobileNumber)
  await page.click("#paylater-rtp-send")
  await arriveAt(page, /\/checkout\/request-to-pay\?/, "Request to Pay's send", ["#paylater-rtp-error"])
  await page.waitForSelector('#rtp-waiting[data-state="waiting"]')
  const sessionId = new URL(page.url()).searchParams.get("session_id")
  if (!sessionId) throw new Error(`no session id in ${page.url()}`)
  return sessionId
}

/**
 * After PayLater's approval: the return (the payment page's error page on failure, #paylater-error)
 * or the Request to Pay waiting screen (#rtp-message once it has ended) places the order.
 */
export async function toOrderConfirmed(page: Page): Promise<string> {
  await arriveAt(page, /\/order\/confirmed\/order_/, "the order confirmation", ["#paylater-error", "#rtp-message"])
  return decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!)
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
