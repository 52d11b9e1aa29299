import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { Badge, Button, Container, Copy, Heading, StatusBadge, Text, Tooltip } from "@medusajs/ui"
import { useCallback, useEffect, useState, type ReactNode } from "react"

// What GET /admin/paylater/orders/:id/activity answers: the server's own types, imported as types
// only (erased from the admin bundle, so no server code comes with them).
import type { ActivityTone as Tone } from "../../activity/events"
import type { OrderAttempt } from "../../activity/order-attempts"
import type { RefundWindow } from "../../activity/refund-window"
import { ATTENTION_KIND_LABEL, RESOLUTION_LABEL } from "../lib/attention-labels"
import type { ActivityEntry as Entry, ActivitySummary as Summary, OrderActivity as Activity } from "../../activity/timeline"

type OrderProps = { data: { id: string } }

const STATE: Record<Summary["state"], { label: string; color: "green" | "red" | "orange" | "blue" | "grey" }> = {
  waiting: { label: "Waiting for the shopper", color: "orange" },
  processing: { label: "Paid, recording", color: "blue" },
  paid: { label: "Paid", color: "green" },
  partially_refunded: { label: "Partially refunded", color: "blue" },
  refunded: { label: "Refunded", color: "grey" },
  declined: { label: "Declined", color: "red" },
  expired: { label: "Expired", color: "grey" },
}

const OUTCOME: Record<OrderAttempt["outcome"], { label: string; color: "green" | "red" | "orange" | "blue" | "grey" }> = {
  holds_order_money: { label: "This order's payment", color: "green" },
  paid_elsewhere: { label: "Paid, not this order's payment", color: "orange" },
  waiting: { label: "Waiting for the shopper", color: "orange" },
  declined: { label: "Declined", color: "red" },
  expired: { label: "Expired", color: "grey" },
  not_started: { label: "Not started", color: "grey" },
}

const KIND: Record<OrderAttempt["kind"], string> = {
  link: "Payment link",
  request_to_pay: "Request to Pay",
  point_of_sale: "Request to Pay (point of sale)",
}

/** The attempt's badge: what became of it, in Settings → PayLater's words for a listed payment. */
function badgeOf(a: OrderAttempt): { label: string; color: "green" | "red" | "orange" | "blue" | "grey" } {
  if (a.outcome === "paid_elsewhere" && a.refund) return { label: "Refunded", color: "grey" }
  if (a.outcome === "paid_elsewhere" && !a.order_id && a.listing) {
    return { label: ATTENTION_KIND_LABEL[a.listing.kind] ?? OUTCOME.paid_elsewhere.label, color: a.listing.status === "open" ? "red" : "grey" }
  }
  return OUTCOME[a.outcome]
}

/** Who refunded it, in words. */
function refundedBy(refund: NonNullable<OrderAttempt["refund"]>): string {
  switch (refund.by) {
    case "rule":
      return "automatically (paid without an order)"
    case "person":
      return `by ${refund.actor ?? "an admin"} (Settings → PayLater)`
    case "order":
      return "on the order"
  }
}

/** Where a paid attempt's money went when it is not this order's: another order, a refund, or the list. */
function elsewhere(a: OrderAttempt): string | null {
  if (a.outcome !== "paid_elsewhere" && !a.refund) return null
  if (a.refund) {
    return `Refunded ${a.refund.amount} ${a.currency_code.toUpperCase()}${a.refund.at ? ` on ${when(a.refund.at)}` : ""} ${refundedBy(a.refund)}`
  }
  if (a.order_id) return `Holds order ${a.order_id}'s money`
  if (a.listing?.status === "open") {
    return `On Settings → PayLater as "${ATTENTION_KIND_LABEL[a.listing.kind] ?? a.listing.kind}": refund it or resolve it there`
  }
  if (a.listing) {
    const how = a.listing.resolution ? (RESOLUTION_LABEL[a.listing.resolution] ?? a.listing.resolution) : "resolved"
    return `Settings → PayLater: ${how}${a.listing.resolved_at ? ` (${when(a.listing.resolved_at)})` : ""}`
  }
  return "No order holds it: see Settings → PayLater"
}

const DOT: Record<Tone, string> = {
  grey: "bg-ui-tag-neutral-icon",
  green: "bg-ui-tag-green-icon",
  red: "bg-ui-tag-red-icon",
  orange: "bg-ui-tag-orange-icon",
  blue: "bg-ui-tag-blue-icon",
}

const HISTORY_FOLDED = 6

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" })
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: "short" })
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" })

function when(iso: string): string {
  return dateTime.format(new Date(iso))
}

/** "14:05" today, "3 Mar 2026, 14:05" another day. */
function soon(iso: string): string {
  const d = new Date(iso)
  return d.toDateString() === new Date().toDateString() ? timeOnly.format(d) : dateTime.format(d)
}

function refundText(w: RefundWindow | null, currency: string): { text: string; hint: string | null } {
  if (!w) return { text: "Not paid: nothing to refund", hint: null }
  const hint = `PayLater accepts refunds from 10 minutes to 29 days after the payment (paid ${when(w.paid_at)}).`
  switch (w.state) {
    case "not_yet_open":
      return { text: `Refund possible from ${soon(w.opens_at)}`, hint }
    case "open":
      return { text: `Refund possible until ${dateOnly.format(new Date(w.closes_at))} (${w.refundable_amount} ${currency} left)`, hint }
    case "closed":
      return { text: `Closed on ${dateOnly.format(new Date(w.closes_at))}`, hint }
    case "fully_refunded":
      return { text: "Fully refunded", hint: null }
  }
}

async function call(orderId: string, action: "activity" | "check"): Promise<Activity> {
  // Same origin as the dashboard, so its session cookie authenticates the call.
  const res = await fetch(`/admin/paylater/orders/${orderId}/${action}`, {
    method: action === "check" ? "POST" : "GET",
    credentials: "include",
    headers: { "content-type": "application/json" },
  })
  const body = await res.json().catch(() => ({}))
  if (!res.ok) throw new Error(body?.message ?? `Request failed (${res.status})`)
  return body.activity as Activity
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-2 items-start gap-x-4 px-6 py-3">
      <Text size="small" weight="plus" leading="compact" className="text-ui-fg-subtle">
        {label}
      </Text>
      <div className="text-ui-fg-base txt-compact-small min-w-0 break-words">{children}</div>
    </div>
  )
}

const PayLaterOrderActivityWidget = ({ data: order }: OrderProps) => {
  const [activity, setActivity] = useState<Activity | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [checking, setChecking] = useState(false)
  const [checkedAt, setCheckedAt] = useState<Date | null>(null)
  const [showAll, setShowAll] = useState(false)

  const load = useCallback(() => {
    call(order.id, "activity").then(
      (a) => {
        setActivity(a)
        setError(null)
      },
      (e: Error) => setError(e.message)
    )
  }, [order.id])

  useEffect(() => {
    load()
  }, [load])

  // Follow a live payment (our records only; PayLater is asked by the button, the webhook or polls).
  const live = activity?.paylater?.state === "waiting" || activity?.paylater?.state === "processing"
  useEffect(() => {
    if (!live) return
    const timer = setInterval(load, 5000)
    return () => clearInterval(timer)
  }, [live, load])

  if (!activity || (!activity.paylater && activity.history.length === 0)) {
    return null
  }

  const check = async () => {
    setChecking(true)
    setError(null)
    try {
      setActivity(await call(order.id, "check"))
      setCheckedAt(new Date())
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setChecking(false)
    }
  }

  const s = activity.paylater
  const currency = (s?.currency_code ?? "qar").toUpperCase()
  const refund = s ? refundText(s.refund_window, currency) : null
  // Newest first; long histories (duplicate-heavy or retried checkouts) start folded.
  const newestFirst = [...activity.history].reverse()
  const history = showAll ? newestFirst : newestFirst.slice(0, HISTORY_FOLDED)

  return (
    <Container id="paylater-order-activity" className="divide-y p-0">
      <div className="flex items-center justify-between gap-x-4 px-6 py-4">
        <div className="flex items-center gap-x-3">
          <Heading level="h2">PayLater</Heading>
          {s && <StatusBadge color={STATE[s.state].color}>{STATE[s.state].label}</StatusBadge>}
        </div>
        <Button size="small" variant="secondary" onClick={check} isLoading={checking}>
          Check with PayLater now
        </Button>
      </div>

      {s && (
        <div className="divide-y">
          <Field label="PayLater reference">
            {s.reference ? (
              <span className="flex items-center gap-x-1">
                <span className="font-mono">{s.reference}</span>
                <Copy content={s.reference} className="text-ui-fg-muted" />
              </span>
            ) : (
              <span className="text-ui-fg-muted">Not paid yet</span>
            )}
          </Field>
          <Field label="PayLater order id">
            <span className="font-mono">{s.paylater_order_id ?? s.session_id}</span>
          </Field>
          <Field label="Method">
            {s.method === "request_to_pay"
              ? `Request to Pay${s.mobile_number_masked ? ` to ${s.mobile_number_masked}` : ""}`
              : "Payment link"}
          </Field>
          <Field label="Amount">
            {s.amount} {currency}
            {s.refunded_amount !== "0.00" && (
              <span className="text-ui-fg-subtle">
                {" "}
                ({s.refunded_amount} {currency} refunded)
              </span>
            )}
          </Field>
          {s.expires_at && (
            <Field label={s.method === "request_to_pay" ? "Request expiry" : "Link expiry"}>
              {when(s.expires_at)}
              {s.state === "paid" || s.state === "partially_refunded" || s.state === "refunded" ? (
                <span className="text-ui-fg-subtle"> (used)</span>
              ) : null}
            </Field>
          )}
          <Field label="Refund window">
            {refund?.hint ? (
              <Tooltip content={refund.hint}>
                <span className="cursor-help underline decoration-dotted underline-offset-2">{refund.text}</span>
              </Tooltip>
            ) : (
              refund?.text
            )}
          </Field>
        </div>
      )}

      {activity.attempts.length > 1 && (
        <div className="px-6 py-4">
          <Text size="small" weight="plus" leading="compact" className="mb-3">
            {activity.attempts.length} attempts
          </Text>
          <ul className="flex flex-col gap-y-3">
            {activity.attempts.map((a) => (
              <li key={a.paylater_order_id}>
                <div className="flex flex-wrap items-center gap-x-2">
                  <StatusBadge color={badgeOf(a).color}>{badgeOf(a).label}</StatusBadge>
                  <Text size="small" leading="compact">
                    {KIND[a.kind]}, {a.amount} {a.currency_code.toUpperCase()}
                  </Text>
                </div>
                <Text size="xsmall" leading="compact" className="text-ui-fg-muted">
                  <span className="font-mono">{a.paylater_order_id}</span>
                  {a.reference ? `, PayLater ${a.reference}` : ""}
                  {a.created_at ? `, ${when(a.created_at)}` : ""}
                  {a.superseded_by ? `, replaced by ${a.superseded_by}` : ""}
                </Text>
                {elsewhere(a) && (
                  <Text size="xsmall" leading="compact" className="text-ui-fg-subtle" data-testid="paylater-attempt-aftercare">
                    {elsewhere(a)}
                  </Text>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}

      <div className="px-6 py-4">
        <Text size="small" weight="plus" leading="compact" className="mb-3">
          History
        </Text>
        <ol className="flex flex-col">
          {history.map((e, i) => (
            <li key={`${e.kind}-${e.at}-${i}`} className="grid grid-cols-[12px_1fr] gap-x-3">
              <div className="flex flex-col items-center">
                <span className={`mt-1.5 size-2 shrink-0 rounded-full ${DOT[e.tone]}`} />
                {i < history.length - 1 && <span className="bg-ui-border-base my-1 w-px flex-1" />}
              </div>
              <div className="pb-4">
                <div className="flex flex-wrap items-center gap-x-2">
                  <Text size="small" weight="plus" leading="compact">
                    {e.title}
                  </Text>
                  {e.repeat_count > 0 && (
                    <Badge size="2xsmall" color="grey">
                      ×{e.repeat_count + 1}
                    </Badge>
                  )}
                </div>
                {e.detail && (
                  <Text size="small" leading="compact" className="text-ui-fg-subtle">
                    {e.detail}
                  </Text>
                )}
                <Text size="xsmall" leading="compact" className="text-ui-fg-muted">
                  {when(e.at)}
                  {e.repeat_count > 0 && e.last_at ? `, last ${soon(e.last_at)}` : ""}
                </Text>
              </div>
            </li>
          ))}
        </ol>
        {newestFirst.length > HISTORY_FOLDED && (
          <Button size="small" variant="transparent" className="-ml-2" onClick={() => setShowAll(!showAll)}>
            {showAll ? "Show fewer" : `Show all ${newestFirst.length} events`}
          </Button>
        )}
      </div>

      {(error || checkedAt) && (
        <div className="px-6 py-3">
          {error ? (
            <Text size="small" className="text-ui-fg-error">
              {error}
            </Text>
          ) : (
            <Text size="small" className="text-ui-fg-subtle">
              Checked with PayLater at {timeOnly.format(checkedAt!)}.
            </Text>
          )}
        </div>
      )}
    </Container>
  )
}

export const config = defineWidgetConfig({
  zone: "order.details.side.before",
})

export default PayLaterOrderActivityWidget
