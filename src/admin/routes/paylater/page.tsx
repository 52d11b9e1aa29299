import { defineRouteConfig } from "@medusajs/admin-sdk"
import { ChartBar } from "@medusajs/icons"
import { Button, Container, Heading, Input, Table, Text } from "@medusajs/ui"
import { useEffect, useMemo, useState } from "react"
import { report, periodQuery, type Funnel, type Method, type PeriodChoice } from "./api"
import { AttemptsList } from "./components/attempts-list"
import { DailyChart } from "./components/daily-chart"
import { FunnelTable, MoneyTable, type Basis, type Drill } from "./components/funnel-table"
import { PaymentsTable } from "./components/payments-table"

/**
 * PayLater: what it earns the store. The funnel (does it sell?) and the finance report (does the
 * money add up?) for a period in the store's time zone, read from the plugin's ledger by
 * /admin/paylater/reports/*. What each number means: docs/funnel.md (src/funnel/definitions.ts).
 */

const PRESETS = [
  { period: "today", label: "Today" },
  { period: "7d", label: "7 days" },
  { period: "30d", label: "30 days" },
  { period: "90d", label: "90 days" },
] as const

const PayLaterReportsPage = () => {
  const [choice, setChoice] = useState<PeriodChoice>({ period: "30d" })
  const [custom, setCustom] = useState({ from: "", to: "" })
  const [basis, setBasis] = useState<Basis>("checkouts")
  const [funnel, setFunnel] = useState<Funnel | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [drill, setDrill] = useState<Drill | null>(null)
  const [paymentsMethod, setPaymentsMethod] = useState<Method | null>(null)
  const query = useMemo(() => periodQuery(choice), [choice])

  useEffect(() => {
    setError(null)
    setDrill(null)
    report<Funnel>("funnel", query).then(setFunnel, (e) => setError((e as Error).message))
  }, [query])

  return (
    <div className="flex flex-col gap-y-3">
      <Container className="divide-y p-0">
        <div className="flex flex-wrap items-center justify-between gap-3 px-6 py-4">
          <div>
            <Heading level="h1">PayLater</Heading>
            <Text size="small" className="text-ui-fg-subtle" data-testid="paylater-period">
              {funnel ? `${funnel.period.from} to ${funnel.period.to} (${funnel.period.time_zone}), compared with ${funnel.previous.from} to ${funnel.previous.to}` : "Loading…"}
            </Text>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {PRESETS.map((p) => (
              <Button
                key={p.period}
                size="small"
                variant={choice.period === p.period ? "primary" : "secondary"}
                data-testid={`period-${p.period}`}
                onClick={() => setChoice({ period: p.period })}
              >
                {p.label}
              </Button>
            ))}
            <Input size="small" type="date" aria-label="From" value={custom.from} onChange={(e) => setCustom({ ...custom, from: e.target.value })} />
            <Input size="small" type="date" aria-label="To" value={custom.to} onChange={(e) => setCustom({ ...custom, to: e.target.value })} />
            <Button
              size="small"
              variant={choice.period === "custom" ? "primary" : "secondary"}
              disabled={!custom.from || !custom.to}
              data-testid="period-custom"
              onClick={() => setChoice({ period: "custom", ...custom })}
            >
              Custom
            </Button>
          </div>
        </div>
        {error && (
          <Text className="px-6 py-4 text-ui-fg-error" data-testid="paylater-report-error">
            {error}
          </Text>
        )}
        {funnel && (
          <>
            <div className="flex items-center justify-between px-6 py-3">
              <Heading level="h2">Funnel</Heading>
              <div className="flex gap-2">
                {(["checkouts", "attempts"] as const).map((b) => (
                  <Button key={b} size="small" variant={basis === b ? "primary" : "secondary"} data-testid={`basis-${b}`} onClick={() => setBasis(b)}>
                    Per {b === "checkouts" ? "checkout" : "attempt"}
                  </Button>
                ))}
              </div>
            </div>
            <FunnelTable funnel={funnel} basis={basis} onDrill={setDrill} />
          </>
        )}
      </Container>
      {funnel && drill && (
        <Container className="p-0">
          <AttemptsList choice={choice} drill={drill} onClose={() => setDrill(null)} />
        </Container>
      )}
      {funnel && (
        <Container className="divide-y p-0">
          <div className="px-6 py-4">
            <Heading level="h2">Paid QAR and conversion per day</Heading>
          </div>
          <DailyChart daily={funnel.daily} />
          <MoneyTable
            funnel={funnel}
            onPick={(m) => {
              setPaymentsMethod(m === "total" ? null : m)
              document.querySelector('[data-testid="paylater-payments"]')?.scrollIntoView({ behavior: "smooth" })
            }}
          />
        </Container>
      )}
      {funnel && (
        <Container className="grid grid-cols-1 gap-0 divide-y p-0 md:grid-cols-2 md:divide-x md:divide-y-0">
          <div>
            <div className="px-6 py-4">
              <Heading level="h2">Request to Pay</Heading>
            </div>
            <Table data-testid="paylater-rtp">
              <Table.Body>
                {(
                  [
                    ["Pushes sent", funnel.request_to_pay.pushes_sent],
                    ["Approved", funnel.request_to_pay.approved],
                    ["Declined", funnel.request_to_pay.declined],
                    ["Expired", funnel.request_to_pay.expired],
                    ["Abandoned", funnel.request_to_pay.abandoned],
                    ["Still open", funnel.request_to_pay.open],
                    // Not pushes: refused before one, for who the shopper is (no PayLater account, too little room, a number PayLater does not know), at the store route's look-up or on an attempt.
                    ["Refused at the shopper look-up (nothing pushed)", funnel.request_to_pay.lookup_refusals],
                  ] as const
                ).map(([label, n]) => (
                  <Table.Row key={label}>
                    <Table.Cell>{label}</Table.Cell>
                    <Table.Cell className="text-right">{n}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          </div>
          <div>
            <div className="px-6 py-4">
              <Heading level="h2">Most frequent PayLater errors</Heading>
            </div>
            <Table data-testid="paylater-errors">
              <Table.Body>
                {funnel.errors.length === 0 && (
                  <Table.Row>
                    <Table.Cell>None in the period</Table.Cell>
                  </Table.Row>
                )}
                {funnel.errors.map((e) => (
                  <Table.Row key={e.code}>
                    <Table.Cell>{e.code}</Table.Cell>
                    <Table.Cell className="text-right">{e.count}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          </div>
        </Container>
      )}
      {funnel && (
        <Container className="p-0">
          <PaymentsTable choice={choice} method={paymentsMethod} onAllMethods={() => setPaymentsMethod(null)} />
        </Container>
      )}
    </div>
  )
}

export const config = defineRouteConfig({
  label: "PayLater",
  icon: ChartBar,
})

export default PayLaterReportsPage
