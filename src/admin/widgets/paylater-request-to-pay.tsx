import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { Badge, Button, Container, Heading, Input, Label, Text } from "@medusajs/ui"
import { useCallback, useEffect, useState } from "react"

/** What GET/POST /admin/paylater/orders/:id/request-to-pay answer. */
type RequestState = {
  outstanding_amount: string
  currency_code: string
  can_send: boolean
  blocked_reason: string | null
  request: null | {
    status: "waiting" | "processing" | "paid" | "declined" | "expired"
    seconds_left?: number
    session_id: string
    mobile_number_masked: string | null
    amount: string | null
  }
}

type OrderProps = { data: { id: string; summary?: { pending_difference?: number } } }

// The widget polls our own route (which answers from Medusa's records), not PayLater.
const POLL_MS = 3000

const BADGE: Record<string, "orange" | "green" | "red" | "grey" | "blue"> = {
  waiting: "orange",
  processing: "blue",
  paid: "green",
  declined: "red",
  expired: "grey",
}

async function call(orderId: string, init?: RequestInit): Promise<RequestState> {
  // Same origin as the dashboard, so its session cookie authenticates the call.
  const res = await fetch(`/admin/paylater/orders/${orderId}/request-to-pay`, {
    credentials: "include",
    headers: { "content-type": "application/json" },
    ...init,
  })
  const body = await res.json().catch(() => ({}))
  if (!res.ok) throw new Error(body?.message ?? `Request failed (${res.status})`)
  return body.request_to_pay as RequestState
}

const PayLaterRequestToPayWidget = ({ data: order }: OrderProps) => {
  const [state, setState] = useState<RequestState | null>(null)
  const [mobile, setMobile] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)

  const refresh = useCallback(() => {
    call(order.id).then(setState, (e: Error) => setError(e.message))
  }, [order.id])

  useEffect(() => {
    refresh()
  }, [refresh])

  // Poll only while a request is live: nothing changes otherwise.
  const live = state?.request?.status === "waiting" || state?.request?.status === "processing"
  useEffect(() => {
    if (!live) return
    const timer = setInterval(refresh, POLL_MS)
    return () => clearInterval(timer)
  }, [live, refresh])

  const outstanding = state ? Number(state.outstanding_amount) > 0 : (order.summary?.pending_difference ?? 0) > 0
  if (!outstanding && !state?.request) {
    return null
  }

  const send = async () => {
    setSending(true)
    setError(null)
    try {
      setState(await call(order.id, { method: "POST", body: JSON.stringify({ mobile_number: mobile }) }))
      setMobile("")
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setSending(false)
    }
  }

  const request = state?.request
  const ended = request?.status === "declined" || request?.status === "expired"
  return (
    <Container id="paylater-request-to-pay" data-state={request?.status ?? "none"} className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">PayLater Request to Pay</Heading>
        {request && <Badge color={BADGE[request.status]}>{request.status}</Badge>}
      </div>
      <div className="flex flex-col gap-y-3 px-6 py-4">
        {state && (
          <Text size="small" id="paylater-rtp-outstanding">
            Outstanding: {state.outstanding_amount} {state.currency_code.toUpperCase()}
          </Text>
        )}
        {request && (
          <Text size="small" id="paylater-rtp-message" className="text-ui-fg-subtle">
            {request.status === "waiting" &&
              `Waiting for ${request.mobile_number_masked ?? "the shopper"} to approve in the PayLater app (${Math.floor((request.seconds_left ?? 0) / 60)} min ${(request.seconds_left ?? 0) % 60} s left).`}
            {request.status === "processing" && "Approved in the app; recording the payment…"}
            {request.status === "paid" && `Paid ${request.amount ?? ""} QAR with PayLater.`}
            {request.status === "declined" && "The shopper declined the request. You can send a new one."}
            {request.status === "expired" && "The request expired. You can send a new one."}
          </Text>
        )}
        {state?.can_send && (
          <div className="flex flex-col gap-y-2">
            <Label htmlFor="paylater-mobile" size="small">
              Shopper's PayLater mobile number
            </Label>
            <Input
              id="paylater-mobile"
              placeholder="5xxx xxxx"
              value={mobile}
              onChange={(e) => setMobile(e.target.value)}
              autoComplete="off"
            />
            <Button id="paylater-rtp-send" size="small" onClick={send} isLoading={sending} disabled={!mobile.trim()}>
              {ended ? "Send a new Request to Pay" : "Send Request to Pay"}
            </Button>
          </div>
        )}
        {state && !state.can_send && state.blocked_reason && !request && (
          <Text size="small" id="paylater-rtp-blocked" className="text-ui-fg-subtle">
            {state.blocked_reason}
          </Text>
        )}
        {error && (
          <Text size="small" id="paylater-rtp-error" className="text-ui-fg-error">
            {error}
          </Text>
        )}
      </div>
    </Container>
  )
}

export const config = defineWidgetConfig({
  zone: "order.details.side.before",
})

export default PayLaterRequestToPayWidget
