import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Badge, Button, Container, Copy, Heading, Table, Text, toast, Toaster, usePrompt } from "@medusajs/ui"
import { useCallback, useEffect, useState } from "react"
import { ATTENTION_KIND_LABEL, RESOLUTION_LABEL, schedulerStalledSentence } from "../../../lib/attention-labels"

/**
 * Settings → PayLater: how the plugin is configured (nothing secret), whether PayLater answers,
 * what the webhook URL is and how webhooks went, when reconciliation last ran, and the payments
 * that need a person, with their actions. Everything comes from /admin/paylater/* routes.
 */

type Registration = {
  id: string
  configured: boolean
  environment: string | null
  outlet_id: number | null
  api_base_url: string | null
  webhook_url: string | null
  merchant_id_checked: boolean
  warnings: string[]
}

type Overview = {
  registrations: Registration[]
  webhooks: { accepted: number; refused: number; failed: number; last_refusal_reason: string | null; last_refusal_at: string | null }
  reconciliation: {
    schedule: string
    next_run_at: string | null
    scheduler_stalled_since: string | null
    last_run: null | { started_at: string; ran: boolean; checked: number; eligible: number; error: string | null; trigger: "schedule" | "watchdog" }
  }
  attention_open: number
  store_ceiling?: StoreCeiling
}

type StoreCeiling = {
  per_minute: number | null
  error: string | null
  last_24h?: number
  last_at?: string | null
  by_hour?: Array<{ hour: string; count: number }>
}

type Attention = {
  id: string
  kind: string
  summary: string
  amount: string | null
  paylater_order_id: string | null
  order_id: string | null
  cart_id: string | null
  created_at: string
  resolutions: string[]
  can_refund: boolean
}

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  // Same origin as the dashboard, so its session cookie authenticates the call.
  const res = await fetch(`/admin/paylater/${path}`, {
    credentials: "include",
    headers: { "content-type": "application/json" },
    ...init,
  })
  const body = await res.json().catch(() => ({}))
  if (!res.ok) throw new Error(body?.message ?? `Request failed (${res.status})`)
  return body as T
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "—")

const Row = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <div className="grid grid-cols-3 gap-4 px-6 py-3">
    <Text size="small" leading="compact" weight="plus">
      {label}
    </Text>
    <div className="col-span-2 flex items-center gap-2">{children}</div>
  </div>
)

const Connection = ({ registration }: { registration: Registration }) => {
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null)
  const [testing, setTesting] = useState(false)
  const test = async () => {
    setTesting(true)
    try {
      const { results } = await call<{ results: Array<{ id: string; ok: boolean; message: string }> }>("test-connection", {
        method: "POST",
      })
      setResult(results.find((r) => r.id === registration.id) ?? { ok: false, message: "No answer for this registration." })
    } catch (e) {
      setResult({ ok: false, message: (e as Error).message })
    } finally {
      setTesting(false)
    }
  }
  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">Connection ({registration.id})</Heading>
        <Button size="small" variant="secondary" onClick={test} isLoading={testing}>
          Test connection
        </Button>
      </div>
      <Row label="Environment">
        <Badge color={registration.environment === "production" ? "green" : "orange"}>{registration.environment ?? "—"}</Badge>
      </Row>
      <Row label="Outlet">
        <Text size="small">{registration.outlet_id ?? "—"}</Text>
      </Row>
      <Row label="API base">
        <Text size="small">{registration.api_base_url ?? "—"}</Text>
      </Row>
      <Row label="Merchant check">
        <Badge color={registration.merchant_id_checked ? "green" : "orange"} data-testid="paylater-merchant-check">
          {registration.merchant_id_checked ? "Webhooks must name your merchant id" : "Off: merchantId is not set"}
        </Badge>
      </Row>
      {registration.warnings.length > 0 && (
        <div className="px-6 py-3" data-testid="paylater-config-warnings">
          {registration.warnings.map((warning) => (
            <Text key={warning} size="small" className="text-ui-fg-error">
              {warning}
            </Text>
          ))}
        </div>
      )}
      <Row label="Webhook URL">
        <Text size="small" className="break-all" data-testid="paylater-webhook-url">
          {registration.webhook_url ?? "—"}
        </Text>
        {registration.webhook_url && <Copy content={registration.webhook_url} />}
      </Row>
      {result && (
        <div className="px-6 py-3" data-testid="paylater-connection-result">
          <Badge color={result.ok ? "green" : "red"}>{result.ok ? "Connected" : "Not connected"}</Badge>
          <Text size="small" className="mt-2">
            {result.message}
          </Text>
        </div>
      )}
    </Container>
  )
}

/** The store-wide ceiling refuses every shopper when it is reached (docs/security.md, "Sizing the store-wide ceiling"). */
const CeilingRefusals = ({ ceiling }: { ceiling: StoreCeiling }) => (
  <Row label="Store-wide ceiling, last 24 h">
    <Text size="small" data-testid="paylater-ceiling-refusals" className={ceiling.last_24h ? "text-ui-fg-error" : undefined}>
      {ceiling.error
        ? `unknown (${ceiling.error})`
        : ceiling.last_24h
          ? `${ceiling.last_24h} PayLater payments refused for every shopper (${ceiling.per_minute ?? "?"} a minute reached), last ${when(ceiling.last_at ?? null)}; busiest hour ${
              [...(ceiling.by_hour ?? [])].sort((a, b) => b.count - a.count).map((h) => `${when(h.hour)} (${h.count})`)[0] ?? "—"
            }`
          : `none refused (${ceiling.per_minute ?? "?"} a minute)`}
    </Text>
  </Row>
)

const AttentionList = ({ items, onChange }: { items: Attention[]; onChange: () => void }) => {
  const prompt = usePrompt()
  const [busy, setBusy] = useState<string | null>(null)

  const act = async (item: Attention, action: "refund" | string) => {
    const refund = action === "refund"
    const confirmed = await prompt({
      title: refund ? "Refund this payment?" : RESOLUTION_LABEL[action] ?? action,
      description: refund
        ? `The remaining amount is refunded through PayLater and recorded on the order.`
        : action === "refunded"
          ? `Only if PayLater's merchant portal shows the refund of ${item.amount ?? "?"} QAR. It is then recorded on the order; nothing is sent to PayLater.`
          : action === "not_refunded"
            ? "Only if PayLater's merchant portal shows no such refund. Refunds of this payment are allowed again."
            : "The item leaves the list.",
      confirmText: "Confirm",
      cancelText: "Cancel",
    })
    if (!confirmed) return
    setBusy(item.id)
    try {
      if (refund) {
        await call(`attention/${item.id}/refund`, { method: "POST", body: "{}" })
        toast.success("Refunded")
      } else {
        const out = await call<{ booked: boolean; booking_error: string | null }>(`attention/${item.id}/resolve`, {
          method: "POST",
          body: JSON.stringify({ resolution: action }),
        })
        if (out.booking_error) toast.warning(`Resolved; not recorded on the order: ${out.booking_error}`)
        else toast.success(out.booked ? "Resolved and recorded on the order" : "Resolved")
      }
      onChange()
    } catch (e) {
      toast.error((e as Error).message)
    } finally {
      setBusy(null)
    }
  }

  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">Payments needing a person</Heading>
        <Badge color={items.length ? "red" : "green"}>{items.length}</Badge>
      </div>
      {items.length === 0 ? (
        <div className="px-6 py-4">
          <Text size="small">Nothing needs attention.</Text>
        </div>
      ) : (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>What</Table.HeaderCell>
              <Table.HeaderCell>Amount</Table.HeaderCell>
              <Table.HeaderCell>Since</Table.HeaderCell>
              <Table.HeaderCell>Actions</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {items.map((item) => (
              <Table.Row key={item.id} data-testid="paylater-attention-row">
                <Table.Cell className="py-2">
                  <Badge color="red" size="2xsmall">
                    {ATTENTION_KIND_LABEL[item.kind] ?? item.kind}
                  </Badge>
                  <Text size="small" className="mt-1 whitespace-normal">
                    {item.summary}
                  </Text>
                  <Text size="xsmall" className="text-ui-fg-subtle">
                    PayLater order {item.paylater_order_id ?? "—"}
                  </Text>
                </Table.Cell>
                <Table.Cell>{item.amount ? `${item.amount} QAR` : "—"}</Table.Cell>
                <Table.Cell>{when(item.created_at)}</Table.Cell>
                <Table.Cell>
                  <div className="flex flex-wrap gap-2 py-2">
                    {item.order_id && (
                      <a href={`/app/orders/${item.order_id}`} className="text-ui-fg-interactive text-small">
                        Open order
                      </a>
                    )}
                    {!item.order_id && item.cart_id && <Text size="small">Cart {item.cart_id}</Text>}
                    {item.can_refund && (
                      <Button size="small" variant="secondary" disabled={busy === item.id} onClick={() => act(item, "refund")}>
                        Refund
                      </Button>
                    )}
                    {item.resolutions.map((r) => (
                      <Button key={r} size="small" variant="secondary" disabled={busy === item.id} onClick={() => act(item, r)}>
                        {RESOLUTION_LABEL[r] ?? r}
                      </Button>
                    ))}
                  </div>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
    </Container>
  )
}

const PayLaterSettingsPage = () => {
  const [overview, setOverview] = useState<Overview | null>(null)
  const [items, setItems] = useState<Attention[]>([])
  const [error, setError] = useState<string | null>(null)

  const refresh = useCallback(() => {
    Promise.all([call<{ paylater: Overview }>("settings"), call<{ attention: Attention[] }>("attention")]).then(
      ([o, a]) => {
        setOverview(o.paylater)
        setItems(a.attention)
        setError(null)
      },
      (e: Error) => setError(e.message)
    )
  }, [])

  useEffect(() => {
    refresh()
  }, [refresh])

  const w = overview?.webhooks
  const r = overview?.reconciliation
  return (
    <div className="flex flex-col gap-y-3">
      <Toaster />
      <Container className="px-6 py-4">
        <Heading level="h1">PayLater</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          Buy now, pay later in instalments (QAR). Secrets are never shown here.
        </Text>
        {error && (
          <Text size="small" className="text-ui-fg-error mt-2">
            {error}
          </Text>
        )}
      </Container>
      {overview?.registrations.length === 0 && (
        <Container className="px-6 py-4">
          <Text size="small">PayLater is not registered as a payment provider in medusa-config.</Text>
        </Container>
      )}
      {overview?.registrations.map((registration) => <Connection key={registration.id} registration={registration} />)}
      {overview && (
        <Container className="divide-y p-0">
          <div className="px-6 py-4">
            <Heading level="h2">Webhooks and reconciliation</Heading>
          </div>
          <Row label="Webhooks, last 24 h">
            <Text size="small" data-testid="paylater-webhook-counts">
              {w!.accepted} received, {w!.refused} refused{w!.failed ? `, ${w!.failed} failed` : ""}
            </Text>
          </Row>
          <Row label="Last refusal">
            <Text size="small" data-testid="paylater-last-refusal">
              {w!.last_refusal_reason ? `${w!.last_refusal_reason} (${when(w!.last_refusal_at)})` : "—"}
            </Text>
          </Row>
          <Row label="Last reconciliation">
            <Text size="small" data-testid="paylater-last-reconcile">
              {r!.last_run
                ? `${when(r!.last_run.started_at)}: ${
                    r!.last_run.error ? `failed (${r!.last_run.error})` : r!.last_run.ran ? `checked ${r!.last_run.checked} of ${r!.last_run.eligible}` : "skipped (another run was going)"
                  }${r!.last_run.trigger === "watchdog" ? " (run by the watchdog)" : ""}`
                : "not run yet"}
            </Text>
          </Row>
          {r!.scheduler_stalled_since && (
            <Row label="Scheduled jobs">
              <Text size="small" className="text-ui-fg-error" data-testid="paylater-scheduler-stalled">
                {schedulerStalledSentence(when(r!.scheduler_stalled_since))}
              </Text>
            </Row>
          )}
          <Row label="Next reconciliation">
            <Text size="small">{r!.schedule === "off" ? "off (PAYLATER_RECONCILE_SCHEDULE)" : when(r!.next_run_at)}</Text>
          </Row>
          {overview.store_ceiling && <CeilingRefusals ceiling={overview.store_ceiling} />}
        </Container>
      )}
      <AttentionList items={items} onChange={refresh} />
    </div>
  )
}

// No icon: the settings menu shows labels only, and @medusajs/icons would be one more package a
// storefront installing this package for its kit could conflict with.
export const config = defineRouteConfig({
  label: "PayLater",
})

export default PayLaterSettingsPage
