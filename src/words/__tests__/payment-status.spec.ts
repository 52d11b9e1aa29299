/**
 * One fact, one word (issue 45): a payment PayLater took that no order holds, an extra payment from
 * a second tab, read "Being placed" on the PayLater page and "placing" in the CSV for its first 10
 * minutes while Settings → PayLater and the order card already said "Paid, no order". Every surface
 * now classes it the same and names it from one table (src/words/payment-status.ts).
 */
import { readFileSync } from "node:fs"
import path from "node:path"
import { outcomeOf, paymentStatusOf, type FunnelAttempt } from "../../funnel/definitions"
import { paymentCsvLine } from "../../funnel/csv"
import type { PaymentRow } from "../../funnel/payments-sql"
import { ATTENTION_KIND_LABEL } from "../../admin/lib/attention-labels"
import { PAID_WITHOUT_ORDER_LABEL, PAYMENT_STATUS_LABEL } from "../payment-status"

const root = path.resolve(__dirname, "..", "..", "..")
const source = (file: string) => readFileSync(path.join(root, file), "utf8")

const PAID_AT = new Date("2026-11-10T09:00:00Z")
const aMinuteLater = new Date(PAID_AT.getTime() + 60_000)

function attempt(over: Partial<FunnelAttempt>): FunnelAttempt {
  return {
    paylater_order_id: "payses_2tab",
    kind: "link",
    cart_id: "cart_1",
    payment_collection_id: "pay_col_1",
    session_id: "payses_2tab",
    amount: "350.00",
    currency_code: "qar",
    state: "paid",
    created_at: PAID_AT,
    last_status_at: PAID_AT,
    paid_at: PAID_AT,
    expires_at: null,
    order_id: null,
    superseded_by: null,
    session_gone_at: null,
    start_error: null,
    ...over,
  }
}

describe("the extra payment's word on every screen", () => {
  // The second tab's session was deleted when the first tab's payment placed the order.
  const extra = attempt({ session_gone_at: PAID_AT })

  it("is paid without an order at once on the PayLater page and in the CSV, as on Settings → PayLater", () => {
    const outcome = outcomeOf(extra, aMinuteLater)
    expect(outcome).toBe("paid_without_order")
    const status = paymentStatusOf(outcome, "350.00", "0.00")
    expect(status).toBe("paid_without_order")
    // The CSV carries the code whose words the screens show.
    const csv = paymentCsvLine({ status, paylater_order_id: "payses_2tab", paylater_ref: null, order_display_id: null, method: "link", paid_at_local: "2026-11-10 12:00", amount: "350.00", refunded: "0.00", net: "350.00", currency_code: "qar", mobile_number_masked: null } as unknown as PaymentRow)
    expect(csv.split(",")[8]).toBe("paid_without_order")
    expect(PAYMENT_STATUS_LABEL[status]).toBe(PAID_WITHOUT_ORDER_LABEL)
    // Settings → PayLater and the order card name a listed payment by its attention kind.
    expect(ATTENTION_KIND_LABEL.paid_without_order).toBe(PAID_WITHOUT_ORDER_LABEL)
  })

  it("a replaced attempt paid anyway is the same fact", () => {
    expect(outcomeOf(attempt({ superseded_by: "payses_2tab-2" }), aMinuteLater)).toBe("paid_without_order")
  })

  it("a live checkout's payment is still being placed for its first 10 minutes", () => {
    expect(outcomeOf(attempt({}), aMinuteLater)).toBe("placing")
  })

  it("the PayLater page's funnel and payments list and the order card take the words from the one table", () => {
    const funnel = source("src/admin/routes/paylater/components/funnel-table.tsx")
    const payments = source("src/admin/routes/paylater/components/payments-table.tsx")
    const card = source("src/admin/widgets/paylater-order-activity.tsx")
    expect(funnel).toMatch(/key: "paid_without_order", label: PAYMENT_STATUS_LABEL\.paid_without_order/)
    expect(funnel).toMatch(/key: "placing", label: PAYMENT_STATUS_LABEL\.placing/)
    expect(payments).toMatch(/PAYMENT_STATUS_LABEL\[p\.status\]/)
    expect(card).toMatch(/ATTENTION_KIND_LABEL\[a\.listing\.kind\]/)
    // No screen spells the fact in words of its own.
    for (const text of [funnel, payments, card, source("src/admin/routes/settings/paylater/page.tsx")]) {
      expect(text).not.toMatch(/Paid without an order|Paid, no order|"Being placed"/)
    }
  })
})
