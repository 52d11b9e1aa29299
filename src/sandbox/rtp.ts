import type { SandboxContext } from "./context"
import { html, json, redirect, type Reply } from "./http"
import { nanoLocalDateTime } from "./ids"
import { readExpiryMinutes, readOutletId } from "./link"
import { STRICT_QATAR_MOBILE, normaliseQatarMobile } from "./mobile"
import { formatAmount, parseAmount } from "./money"
import { COMMENTS, SandboxActionError } from "./orders"
import { shopperAppPage } from "./pages"
import type { OrderRecord } from "./types"

/*
 * Request to Pay. Published errors: 409 duplicate reference, 404 upstream failure. Validation
 * failures are not published; they answer 400 in the same FAILED shape with the reference
 * RTP-400-VALIDATION. A mobile number that is no configured shopper answers the published 404
 * RTP-UPSTREAM-ERROR: that is what pushing to a phone with no PayLater app looks like from outside.
 */

function failed(httpCode: number, errorReference: string, message: string): Reply {
  return json(httpCode, { status: "FAILED", message, http_code: httpCode, error_reference: errorReference })
}

const invalid = (message: string) => failed(400, "RTP-400-VALIDATION", message)

export function handleRequestToPay(ctx: SandboxContext, body: Record<string, unknown>): Reply {
  const outletId = readOutletId(body.outlet_id)
  const outlet = outletId === null ? undefined : ctx.options.outlets.find((o) => o.id === outletId)
  if (!outlet) return invalid("outlet_id is missing or unknown")

  const mobile = body.mobile_number
  if (typeof mobile !== "string" || !STRICT_QATAR_MOBILE.test(mobile)) {
    return invalid("mobile_number must be 974 followed by 8 digits")
  }

  const amount = parseAmount(body.order_amount)
  if (!amount.ok || amount.dirhams <= 0) {
    return invalid("order_amount must be a positive amount with at most two decimals")
  }

  const reference = body.merchant_order_reference
  if (typeof reference !== "string" || reference.trim() === "") {
    return invalid("merchant_order_reference is required")
  }

  const expiry = readExpiryMinutes(body.expiry_minutes)
  if (expiry === null) {
    return invalid("expiry_minutes must be an integer between 1 and 1440")
  }

  if (ctx.orders.exists(reference)) {
    return failed(
      409,
      "RTP-409-DUPLICATE-REFERENCE",
      "A Request-to-Pay already exists for this merchant order reference"
    )
  }

  // The reference is not consumed by an upstream failure: "try again later" must be possible.
  if (!ctx.options.shoppers.some((s) => s.mobileNumber === mobile)) {
    return failed(404, "RTP-UPSTREAM-ERROR", "Unable to process the Request-to-Pay now; try again later")
  }

  const expiryDate = nanoLocalDateTime(ctx.clock.now() + expiry * 60_000)
  const order = ctx.orders.insert(
    {
      kind: "rtp",
      orderId: reference,
      outletId: outlet.id,
      amount: formatAmount(amount.dirhams),
      expiryMinutes: expiry,
      rtp: { mobileNumber: mobile, expiryDate },
    },
    1
  )
  ctx.orders.announce(order, COMMENTS.rtpSent)
  ctx.log(`request to pay ${reference} pushed to ${mobile}: QAR ${order.amount}`)
  return json(200, { merchant_order_reference: reference, status: "SUCCESS", expiry_date: expiryDate })
}

/* ---------- the shopper's app ---------- */

function pendingFor(ctx: SandboxContext, mobile: string): OrderRecord[] {
  const out: OrderRecord[] = []
  for (const order of ctx.store.orders.values()) {
    if (order.rtp?.mobileNumber !== mobile) continue
    ctx.orders.expireIfDue(order)
    if (order.status === 1) out.push(order)
  }
  return out
}

export function handleAppPage(ctx: SandboxContext, query: URLSearchParams): Reply {
  const typed = query.get("mobile")
  const notice = query.get("notice") ?? undefined
  if (!typed) {
    return html(200, shopperAppPage({ mobile: null, shopper: null, pending: [], shoppers: ctx.options.shoppers, notice }))
  }
  const mobile = normaliseQatarMobile(typed)
  const shopper = mobile ? ctx.options.shoppers.find((s) => s.mobileNumber === mobile) : undefined
  if (!shopper) {
    return html(
      404,
      shopperAppPage({
        mobile: typed,
        shopper: null,
        pending: [],
        shoppers: ctx.options.shoppers,
        notice: "No PayLater account uses this mobile number.",
      })
    )
  }
  const pending = pendingFor(ctx, shopper.mobileNumber).map((order) => ({ order, amount: order.amount }))
  return html(200, shopperAppPage({ mobile: shopper.mobileNumber, shopper, pending, shoppers: ctx.options.shoppers, notice }))
}

function pendingRequest(ctx: SandboxContext, reference: string): OrderRecord {
  const order = ctx.orders.find(reference)
  if (!order) throw new SandboxActionError("not_found", `No Request to Pay ${reference}`)
  if (order.kind !== "rtp") throw new SandboxActionError("wrong_kind", `${reference} is a payment link, not a Request to Pay`)
  if (ctx.orders.expireIfDue(order)) throw new SandboxActionError("expired", "This Request to Pay has expired")
  if (ctx.orders.isDecided(order)) throw new SandboxActionError("already_used", "This Request to Pay has already been answered")
  return order
}

export const rtpActions = {
  approve(ctx: SandboxContext, reference: string): void {
    ctx.orders.approve(pendingRequest(ctx, reference))
  },
  decline(ctx: SandboxContext, reference: string): void {
    ctx.orders.fail(pendingRequest(ctx, reference), "declined", COMMENTS.rtpDeclined)
  },
}

/** The app's buttons: act, then go back to the list (POST/redirect/GET, so reloads are harmless). */
export function handleAppDecision(ctx: SandboxContext, reference: string, decision: string): Reply {
  const order = ctx.orders.find(reference)
  const back = (notice: string) =>
    redirect(`/app?${new URLSearchParams({ mobile: order?.rtp?.mobileNumber ?? "", notice }).toString()}`)
  try {
    if (decision === "approve") {
      rtpActions.approve(ctx, reference)
      return back(`Paid QAR ${order?.amount} for ${reference}`)
    }
    rtpActions.decline(ctx, reference)
    return back(`Declined ${reference}`)
  } catch (e) {
    if (e instanceof SandboxActionError && order) return back(e.message)
    if (e instanceof SandboxActionError) return html(404, shopperAppPage({ mobile: null, shopper: null, pending: [], shoppers: ctx.options.shoppers, notice: e.message }))
    throw e
  }
}
