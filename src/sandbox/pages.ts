import { displayAmount, splitInstalments } from "./money"
import type { OrderRecord, ResolvedShopper } from "./types"

/**
 * The HTML the shopper sees. Self-contained (inline CSS, no scripts, no external assets) so that it
 * renders offline and in a locked-down headless browser. Element ids are a stable contract for
 * browser tests: #approve, #decline, #abandon, #approve-<ref>, #decline-<ref>.
 */

export function escapeHtml(value: unknown): string {
  return String(value)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f1fa;color:#1f1535}
header{background:#4b1e8c;color:#fff;padding:14px 24px;font-weight:700;letter-spacing:.02em}
header small{font-weight:400;opacity:.8;margin-left:8px}
main{max-width:560px;margin:24px auto;padding:0 16px}
.card{background:#fff;border-radius:12px;padding:24px;box-shadow:0 2px 10px rgba(40,10,90,.08);margin-bottom:16px}
h1{font-size:22px;margin:0 0 12px}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:0 0 16px}
dt{color:#6b5d86}dd{margin:0;font-weight:600}
table{width:100%;border-collapse:collapse;margin:8px 0 16px}
td{padding:6px 0;border-bottom:1px solid #eee}td:last-child{text-align:right;font-variant-numeric:tabular-nums}
.actions{display:flex;flex-wrap:wrap;gap:8px}
button,a.primary{font:inherit;border:0;border-radius:8px;padding:10px 16px;cursor:pointer;text-decoration:none}
.primary{background:#4b1e8c;color:#fff}.secondary{background:#ece6f6;color:#4b1e8c}.link{background:none;color:#6b5d86;text-decoration:underline}
.hint{font-size:14px;color:#6b5d86;background:#fff8e1;border-radius:8px;padding:10px 12px}
.muted{color:#6b5d86}
`

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><header>PayLater <small>sandbox</small></header><main>${body}</main></body></html>`
}

function formatDay(epochMs: number, addMonths: number): string {
  const d = new Date(epochMs)
  d.setUTCMonth(d.getUTCMonth() + addMonths)
  return d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" })
}

function shopperHint(shoppers: ResolvedShopper[]): string {
  if (shoppers.length === 0) return ""
  const mobiles = shoppers.map((s) => s.mobileNumber)
  const range = mobiles.length > 1 ? `${mobiles[0]} to ${mobiles[mobiles.length - 1]}` : mobiles[0]
  return `<p class="hint" id="test-shopper-hint">Sandbox: no money moves. Test shoppers ${escapeHtml(range)} (OTP 1234).</p>`
}

export interface CheckoutPageInput {
  order: OrderRecord
  amountDirhams: number
  merchantId: string
  decisionAction: string
  now: number
  shoppers: ResolvedShopper[]
}

export function checkoutPage(input: CheckoutPageInput): string {
  const { order } = input
  const parts = splitInstalments(input.amountDirhams, 4)
  const rows = parts
    .map(
      (dirhams, i) =>
        `<tr class="instalment"><td>${i === 0 ? "Today" : escapeHtml(formatDay(input.now, i))}</td><td>QAR ${displayAmount(dirhams)}</td></tr>`
    )
    .join("")
  const body = `
<section class="card">
  <h1>Pay in 4 with PayLater</h1>
  <dl>
    <dt>Merchant</dt><dd id="merchant">${escapeHtml(input.merchantId)}</dd>
    <dt>Amount</dt><dd id="amount">QAR ${displayAmount(input.amountDirhams)}</dd>
    <dt>Order</dt><dd id="order-id">${escapeHtml(order.orderId)}</dd>
  </dl>
  <p class="muted">4 interest-free instalments</p>
  <table id="instalments">${rows}</table>
  <form method="post" action="${escapeHtml(input.decisionAction)}" class="actions">
    <button id="approve" class="primary" name="decision" value="approve" type="submit">Pay with PayLater</button>
    <button id="decline" class="secondary" name="decision" value="decline" type="submit">Decline</button>
    <button id="abandon" class="link" name="decision" value="abandon" type="submit">Cancel and return to store</button>
  </form>
</section>
${shopperHint(input.shoppers)}`
  return layout(`PayLater: pay QAR ${displayAmount(input.amountDirhams)}`, body)
}

/**
 * Error and end-of-life pages (403 wrong token, 404 unknown link, 410 used or expired). `backTo`: the
 * way back to the store, for a link whose token was right (a used or expired link): never a dead end.
 */
export function messagePage(title: string, message: string, backTo?: { url: string; label: string }): string {
  const back = backTo
    ? `<p class="actions"><a id="back-to-store" class="primary" href="${escapeHtml(backTo.url)}">${escapeHtml(backTo.label)}</a></p>`
    : ""
  return layout(title, `<section class="card"><h1 id="title">${escapeHtml(title)}</h1><p id="message">${escapeHtml(message)}</p>${back}</section>`)
}

export interface AppPageInput {
  mobile: string | null
  shopper: ResolvedShopper | null
  pending: Array<{ order: OrderRecord; amount: string }>
  shoppers: ResolvedShopper[]
  notice?: string
}

/** A stand-in for the shopper's phone app: pending Request-to-Pay pushes with approve/decline. */
export function shopperAppPage(input: AppPageInput): string {
  const login = `
<section class="card">
  <h1>PayLater app</h1>
  <form method="get" action="/app" class="actions">
    <input name="mobile" id="mobile" placeholder="97451118021" value="${escapeHtml(input.mobile ?? "")}" style="font:inherit;padding:8px;border:1px solid #ccc;border-radius:8px">
    <button class="primary" type="submit" id="open-app">Open</button>
  </form>
  ${input.notice ? `<p id="notice">${escapeHtml(input.notice)}</p>` : ""}
</section>
${shopperHint(input.shoppers)}`
  if (!input.shopper) return layout("PayLater app", login)

  const items = input.pending.length
    ? input.pending
        .map(({ order, amount }) => {
          const ref = escapeHtml(order.orderId)
          const base = `/app/requests/${encodeURIComponent(order.orderId)}`
          return `<li class="card request" data-reference="${ref}">
  <dl><dt>Merchant</dt><dd>${escapeHtml(order.merchantId)}</dd><dt>Amount</dt><dd>QAR ${escapeHtml(amount)}</dd><dt>Reference</dt><dd>${ref}</dd></dl>
  <div class="actions">
    <form method="post" action="${escapeHtml(base)}/approve"><button id="approve-${ref}" class="primary" type="submit">Approve and pay</button></form>
    <form method="post" action="${escapeHtml(base)}/decline"><button id="decline-${ref}" class="secondary" type="submit">Decline</button></form>
  </div></li>`
        })
        .join("")
    : `<p id="no-requests" class="muted">No payment requests waiting.</p>`
  const body = `
<section class="card">
  <h1>Hello, ${escapeHtml(input.shopper.mobileNumber)}</h1>
  <p class="muted">Spending limit QAR ${escapeHtml(input.shopper.currentSpendingLimit)} of ${escapeHtml(input.shopper.allowedSpendingLimit)}</p>
  ${input.notice ? `<p id="notice">${escapeHtml(input.notice)}</p>` : ""}
</section>
<ul style="list-style:none;padding:0;margin:0" id="requests">${items}</ul>`
  return layout("PayLater app", body)
}

export function indexPage(baseUrl: string, apiBase: string, tokenUrl: string, shoppers: ResolvedShopper[]): string {
  const body = `
<section class="card">
  <h1>PayLater sandbox</h1>
  <dl>
    <dt>API base</dt><dd>${escapeHtml(baseUrl)}</dd>
    <dt>Token</dt><dd>POST ${escapeHtml(tokenUrl)}</dd>
    <dt>Operations</dt><dd>${escapeHtml(apiBase)}</dd>
  </dl>
  <p><a href="/app">Shopper app</a> · <a href="/__sandbox/orders">Orders (JSON)</a> · <a href="/__sandbox/deliveries">Webhook deliveries (JSON)</a></p>
</section>
${shopperHint(shoppers)}`
  return layout("PayLater sandbox", body)
}
