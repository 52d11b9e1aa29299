import type { SandboxContext } from "./context"
import { html, json, redirect, type Reply } from "./http"
import { newUuid, randomToken } from "./ids"
import { formatAmount, formatBound, parseAmount } from "./money"
import { SandboxActionError } from "./orders"
import { checkoutPage, messagePage } from "./pages"
import type { OrderRecord } from "./types"

/*
 * Generate Payment Link and the hosted page behind it.
 *
 * Error statuses are not published; every refusal here is 400 with PayLater's `{"error": "..."}`
 * body, and clients are expected to classify by the text (paylater-facts.md).
 */

const err = (message: string): Reply => json(400, { error: message })

/** outlet_id is a Java long over there: integers and their digit strings are both accepted. */
export function readOutletId(value: unknown): number | null {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return value
  if (typeof value === "string" && /^\d{1,15}$/.test(value.trim())) {
    const n = Number(value.trim())
    return n > 0 ? n : null
  }
  return null
}

function readOrderId(value: unknown): string | null {
  if (typeof value === "string" && value.trim() !== "") return value.trim()
  if (typeof value === "number" && Number.isFinite(value)) return String(value)
  return null
}

export function readExpiryMinutes(value: unknown): number | null {
  const n = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value
  return typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= 1440 ? n : null
}

function readRedirectUrl(value: unknown): string | null {
  if (typeof value !== "string") return null
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:" ? value : null
  } catch {
    return null
  }
}

export function handleCreateLink(ctx: SandboxContext, body: Record<string, unknown>): Reply {
  const outletId = readOutletId(body.outlet_id)
  const outlet = outletId === null ? undefined : ctx.options.outlets.find((o) => o.id === outletId)
  if (!outlet) return err("Merchant ID cannot be null")

  const orderId = readOrderId(body.order_id)
  if (orderId === null) return err("Order ID is required")

  if (body.currency === undefined || body.currency === null || body.currency === "") {
    return err("Currency is required")
  }
  if (body.currency !== "QAR") return err("Currency must be QAR")

  const amount = parseAmount(body.amount)
  if (!amount.ok) {
    if (amount.reason === "missing") return err("Amount is required")
    if (amount.reason === "too_many_decimals") return err("Amount must have at most two decimal places")
    if (amount.reason === "not_a_number") return err("Amount must be a number")
  }
  const dirhams = amount.ok ? amount.dirhams : -1
  if (dirhams < outlet.minDirhams || dirhams > outlet.maxDirhams) {
    return err(`Amount must be between ${formatBound(outlet.minDirhams)} and ${formatBound(outlet.maxDirhams)}`)
  }

  if (body.expiry_duration === undefined || body.expiry_duration === null) {
    return err("Expiry duration is required")
  }
  const expiryMinutes = readExpiryMinutes(body.expiry_duration)
  if (expiryMinutes === null) return err("Expiry duration must be an integer between 1 and 1440 minutes")

  if (body.success_redirect_url === undefined || body.success_redirect_url === "") {
    return err("Success redirect URL is required")
  }
  const successRedirectUrl = readRedirectUrl(body.success_redirect_url)
  if (!successRedirectUrl) return err("Success redirect URL is invalid")
  if (body.fail_redirect_url === undefined || body.fail_redirect_url === "") {
    return err("Fail redirect URL is required")
  }
  const failRedirectUrl = readRedirectUrl(body.fail_redirect_url)
  if (!failRedirectUrl) return err("Fail redirect URL is invalid")

  if (ctx.orders.exists(orderId)) return err("Order ID must be unique")

  const uuid = newUuid()
  const token = randomToken(24)
  const paymentLinkUrl = `${ctx.options.publicUrl}/paylink/${uuid}?token=${token}&channel=web`
  ctx.orders.insert(
    {
      kind: "link",
      orderId,
      outletId: outlet.id,
      amount: formatAmount(dirhams),
      expiryMinutes,
      link: {
        uuid,
        token,
        paymentLinkUrl,
        successRedirectUrl,
        failRedirectUrl,
        openedAt: null,
        abandonedAt: null,
        cardDeclines: 0,
      },
    },
    0
  )
  ctx.log(`link created for ${orderId}: QAR ${formatAmount(dirhams)}, ${expiryMinutes} min`)
  return json(200, { paymentLinkUrl })
}

/* ---------- hosted page ---------- */

/**
 * A used link (the shopper pressed Back after paying, or opened it again) leads back to the store
 * through the attempt's own return URL, as PayLater would have sent them: the success URL for a paid
 * link (the store's return route then shows the order's confirmation), the failure URL otherwise.
 */
function usedPage(order: OrderRecord): string {
  const link = order.link as NonNullable<OrderRecord["link"]>
  const paid = order.status === 2
  return messagePage(
    "Payment link already used",
    "This payment link has already been used.",
    { url: paid ? link.successRedirectUrl : link.failRedirectUrl, label: paid ? "Back to the store to see your order" : "Back to the store" }
  )
}

function expiredPage(order: OrderRecord): string {
  const link = order.link as NonNullable<OrderRecord["link"]>
  return messagePage("Payment link expired", "This payment link has expired. Please return to the store and try again.", {
    url: link.failRedirectUrl,
    label: "Back to the store",
  })
}

type Gate = { ok: true; order: OrderRecord } | { ok: false; reply: Reply }

/** Token, expiry and single-use checks shared by the page and its form. */
function gate(ctx: SandboxContext, uuid: string, query: URLSearchParams): Gate {
  const orderId = ctx.store.linkIndex.get(uuid)
  const order = orderId ? ctx.store.orders.get(orderId) : undefined
  if (!order?.link) {
    return { ok: false, reply: html(404, messagePage("Payment link not found", "This payment link does not exist.")) }
  }
  // The whole query string is part of the link: a missing channel is as wrong as a bad token.
  if (query.get("token") !== order.link.token || query.get("channel") !== "web") {
    return { ok: false, reply: html(403, messagePage("Invalid payment link", "This payment link is not valid. Please use the link exactly as the store gave it.")) }
  }
  if (ctx.orders.expireIfDue(order)) return { ok: false, reply: html(410, expiredPage(order)) }
  if (ctx.orders.isDecided(order)) return { ok: false, reply: html(410, usedPage(order)) }
  return { ok: true, order }
}

export function handlePaylinkPage(ctx: SandboxContext, uuid: string, query: URLSearchParams): Reply {
  const g = gate(ctx, uuid, query)
  if (!g.ok) return g.reply
  ctx.orders.open(g.order)
  const amount = parseAmount(g.order.amount) as { dirhams: number }
  const qs = new URLSearchParams({ token: query.get("token") ?? "", channel: query.get("channel") ?? "" })
  return html(
    200,
    checkoutPage({
      order: g.order,
      amountDirhams: amount.dirhams,
      merchantId: ctx.options.merchantId,
      decisionAction: `/paylink/${encodeURIComponent(uuid)}/decision?${qs.toString()}`,
      now: ctx.clock.now(),
      shoppers: ctx.options.shoppers,
    })
  )
}

export function handlePaylinkDecision(
  ctx: SandboxContext,
  uuid: string,
  query: URLSearchParams,
  form: Record<string, string>
): Reply {
  const g = gate(ctx, uuid, query)
  if (!g.ok) return g.reply
  const order = g.order
  const link = order.link as NonNullable<OrderRecord["link"]>
  switch (form.decision) {
    case "approve":
      ctx.orders.open(order)
      ctx.orders.approve(order)
      return redirect(link.successRedirectUrl)
    case "decline":
      ctx.orders.open(order)
      ctx.orders.fail(order, "declined", "declined by shopper")
      return redirect(link.failRedirectUrl)
    case "abandon":
      ctx.orders.open(order)
      abandon(ctx, order)
      return redirect(link.failRedirectUrl)
    default:
      return html(400, messagePage("Unknown choice", "Please choose to pay, decline or return to the store."))
  }
}

/* ---------- the same shopper actions, for code and the control API ---------- */

function abandon(ctx: SandboxContext, order: OrderRecord): void {
  // Leaving the page is not a payment attempt: the link stays usable until it expires.
  if (order.link) order.link.abandonedAt = ctx.clock.now()
  ctx.orders.note(order, "abandoned")
}

function activeLink(ctx: SandboxContext, orderId: string): OrderRecord {
  const order = ctx.orders.find(orderId)
  if (!order) throw new SandboxActionError("not_found", `No order ${orderId}`)
  if (order.kind !== "link") throw new SandboxActionError("wrong_kind", `${orderId} is a Request to Pay, not a payment link`)
  if (ctx.orders.expireIfDue(order)) throw new SandboxActionError("expired", "This payment link has expired")
  if (ctx.orders.isDecided(order)) throw new SandboxActionError("already_used", "This payment link has already been used")
  return order
}

export const linkActions = {
  open(ctx: SandboxContext, orderId: string): void {
    ctx.orders.open(activeLink(ctx, orderId))
  },
  approve(ctx: SandboxContext, orderId: string): void {
    const order = activeLink(ctx, orderId)
    ctx.orders.open(order)
    ctx.orders.approve(order)
  },
  /**
   * final (default): the shopper declines, the order fails. final:false: a card was declined, the
   * order stays pending so the shopper can retry until the link expires (as PayLater documents).
   */
  decline(ctx: SandboxContext, orderId: string, final = true): void {
    const order = activeLink(ctx, orderId)
    ctx.orders.open(order)
    if (final) {
      ctx.orders.fail(order, "declined", "declined by shopper")
    } else {
      ;(order.link as NonNullable<OrderRecord["link"]>).cardDeclines += 1
      ctx.orders.note(order, "card_declined", "card declined")
    }
  },
  abandon(ctx: SandboxContext, orderId: string): void {
    const order = activeLink(ctx, orderId)
    ctx.orders.open(order)
    abandon(ctx, order)
  },
}
