/**
 * What a merchant does on day one with the installed package, checked the same way on every store
 * that installs it: as-installed.spec.ts (a fresh npm store on the Medusa the plugin is developed on)
 * and pnpm-workspace.spec.ts (the DTC starter's shape on the lowest Medusa of the peer range). Each
 * takes what it needs from the calling suite; none starts anything of its own but Chromium.
 */
import fs from "node:fs"
import path from "node:path"
import { chromium, type Browser } from "playwright-core"
import { REPO_ROOT } from "./fresh-store"
import { readmeSnippet } from "./readme-snippets"

const { launchOptions } = require("../../scripts/lib/chromium") as {
  launchOptions(): { executablePath: string; args: string[] }
}

type Json = Record<string, any>
const README = path.join(REPO_ROOT, "README.md")

/** The lowest Medusa the package's peer range accepts (its ">=x.y.z" floor). */
export function peerRangeFloor(): string {
  const own = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"))
  const floor = /^>=\s*(\d+\.\d+\.\d+)\s/.exec(own.peerDependencies["@medusajs/medusa"])
  if (!floor) throw new Error(`the @medusajs/medusa peer range has no ">=x.y.z" floor: ${own.peerDependencies["@medusajs/medusa"]}`)
  return floor[1]
}

/** Medusa's packages in `appDir` are `medusaVersion`, and the installed plugin's peer ranges accept them. */
export function expectPeersAccept(appDir: string, medusaVersion: string): void {
  const installed = (name: string) =>
    JSON.parse(fs.readFileSync(path.join(appDir, "node_modules", ...name.split("/"), "package.json"), "utf8")).version
  for (const name of ["@medusajs/medusa", "@medusajs/framework", "@medusajs/admin-sdk"]) expect(installed(name)).toBe(medusaVersion)
  const { satisfies } = require("semver") as { satisfies(version: string, range: string): boolean }
  const peers = JSON.parse(fs.readFileSync(path.join(appDir, "node_modules", "medusa-payment-paylater", "package.json"), "utf8")).peerDependencies
  for (const name of ["@medusajs/medusa", "@medusajs/framework", "@medusajs/admin-sdk", "@medusajs/ui"]) {
    expect([name, satisfies(installed(name), peers[name])]).toEqual([name, true])
  }
}

/** The sandbox sends a webhook signed with the wrong secret: 403 with a JSON message. */
export async function expectForgedWebhookRefused(sandboxUrl: string): Promise<void> {
  const res = await fetch(`${sandboxUrl}/__sandbox/webhooks/send`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ orderId: "payses_forged", status: "success", forged: true }),
  })
  const delivery = (await res.json()) as Json
  expect(delivery).toMatchObject({ responseStatus: 403 })
  expect(JSON.parse(delivery.responseBody)).toEqual({ message: expect.stringMatching(/signature/i) })
}

/**
 * README's one set-up command on a new store's database (migrated, never seeded), run by `exec`
 * (the store's `medusa exec` with `args`): it runs from the installed package and reports what it
 * made. `again`: run it a second time, which must change nothing. On the Medusa this repository
 * develops on, default-app/setup-qatar.ts already proves that in-process (the same script, run
 * twice); a store on another Medusa (the peer range's floor) runs it again, as its look-ups of what
 * exists go through that version's modules.
 */
export function expectSetupQatarFromReadme(exec: (step: string, args: string[]) => string, { again }: { again: boolean }): void {
  const command = readmeSnippet(README, "setup-qatar").trim()
  expect(command).toMatch(/^npx medusa exec \.\/node_modules\/medusa-payment-paylater\/\S+\.js$/)
  const args = command.split(/\s+/).slice(2)
  const first = exec("medusa exec setup-qatar", args)
  expect(first).toMatch(/Added QAR to the store's currencies/)
  expect(first).toMatch(/Created the region "Qatar" \(QAR, country Qatar\) with the payment providers pp_paylater-rtp_paylater, pp_paylater_paylater/)
  expect(first).toMatch(/Created a tax region for Qatar/)
  expect(first).toMatch(/Created the shipping option "Standard delivery \(Qatar\)"/)
  if (!again) return
  const second = exec("medusa exec setup-qatar (again)", args)
  expect(second).toMatch(/Changed: nothing \(everything was already there\)/)
  expect(second).toMatch(/The region "Qatar" \(QAR\) already offers/)
}

export interface AdminCheck {
  /** The store's public address (its admin at /app). */
  backend: string
  login: { email: string; password: string }
  /** An order placed with a payment link. */
  orderId: string
  regionId: string
  /** The admin API, authenticated. */
  admin(method: string, pathname: string, body?: unknown): Promise<Json>
  /** Where the order page's screenshot goes. */
  shots: string
}

/**
 * The built admin in headless Chromium: the PayLater card on the order page where README section 6
 * says, and README section 3's admin steps as named (the Currencies menu's Add, the region's
 * payment provider labels).
 */
export async function expectAdminCardAndReadmeSteps(check: AdminCheck): Promise<void> {
  const { backend, admin } = check
  // The card's own data first: a failure here names itself instead of an empty page.
  const { activity } = await admin("GET", `/admin/paylater/orders/${check.orderId}/activity`)
  expect(activity.paylater).toMatchObject({ state: "paid" })
  fs.mkdirSync(check.shots, { recursive: true })
  const readme = fs.readFileSync(README, "utf8")
  let browser: Browser | undefined
  try {
    browser = await chromium.launch(launchOptions())
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } })
    await page.goto(`${backend}/app/login`)
    await page.fill('input[name="email"]', check.login.email, { timeout: 60_000 })
    await page.fill('input[name="password"]', check.login.password)
    await page.click('button[type="submit"]')
    await page.waitForURL((url) => !url.pathname.endsWith("/login"), { timeout: 60_000 })
    await page.goto(`${backend}/app/orders/${check.orderId}`)
    const card = page.locator("#paylater-order-activity")
    try {
      await card.waitFor({ timeout: 60_000 })
    } finally {
      await page.screenshot({ path: path.join(check.shots, "order-page.png"), fullPage: true })
    }
    expect(await card.textContent()).toMatch(/PayLater/)
    expect(await card.textContent()).toMatch(/Payment link/i)

    // README section 6 says where to look: the right-hand column, below Customer and Activity.
    const box = async (locator: ReturnType<typeof page.locator>) => (await locator.first().boundingBox())!
    const [cardBox, customer, activityBox, summaryBox] = await Promise.all([
      box(card),
      box(page.locator("h2", { hasText: /^Customer$/ })),
      box(page.locator("h2", { hasText: /^Activity$/ })),
      box(page.locator("h2", { hasText: /^Summary$/ })),
    ])
    expect(cardBox.x).toBeGreaterThan(summaryBox.x + summaryBox.width)
    expect(cardBox.y).toBeGreaterThan(customer.y)
    expect(cardBox.y).toBeGreaterThan(activityBox.y)
    expect(readme).toMatch(/right-hand column of its page, below \*\*Customer\*\* and \*\*Activity\*\*/)

    // README section 3's first admin step: the Currencies section's menu offers "Add".
    await page.goto(`${backend}/app/settings/store`)
    const currencies = page.locator("h2", { hasText: /^Currencies$/ })
    await currencies.waitFor({ timeout: 60_000 })
    await currencies.locator("xpath=..").locator("button").click()
    await page.getByRole("menuitem", { name: /^Add$/ }).waitFor({ timeout: 10_000 })
    expect(readme).toContain("section **Currencies**: its menu (**⋯**) → **Add**")
    await page.keyboard.press("Escape")

    // README section 3 names the region's payment providers as the admin shows them. The region
    // offers exactly the two PayLater methods (as section 3 ticks them), so both names are shown.
    await admin("POST", `/admin/regions/${check.regionId}`, { payment_providers: ["pp_paylater_paylater", "pp_paylater-rtp_paylater"] })
    const labels = ["Paylater (PAYLATER)", "Paylater Rtp (PAYLATER)"]
    await page.goto(`${backend}/app/settings/regions/${check.regionId}`)
    const summary = page.getByText(/Paylater \(PAYLATER\)/).first()
    await summary.waitFor({ timeout: 60_000 })
    for (const label of labels) {
      expect(await summary.textContent()).toContain(label)
      expect(readme).toContain(`**${label}**`)
    }
  } finally {
    await browser?.close()
  }
}
