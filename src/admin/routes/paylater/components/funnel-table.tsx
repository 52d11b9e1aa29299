import { Badge, Button, Table, Text } from "@medusajs/ui"
import type { Counts, Funnel, MethodKey } from "../api"
import { duration, METHOD_LABEL, percent, qar } from "../api"
import { PAYMENT_STATUS_LABEL } from "../../../../words/payment-status"

export type Basis = "checkouts" | "attempts"
export type Drill = { method: MethodKey; outcome: keyof Counts | "paid" }

const METHODS: MethodKey[] = ["link", "request_to_pay", "point_of_sale", "total"]

const COUNT_ROWS: Array<{ key: keyof Counts; label: string; hint: string }> = [
  { key: "started", label: "Started PayLater", hint: "chose PayLater in the period" },
  { key: "paid", label: "Paid", hint: "PayLater confirmed the payment" },
  { key: "placed", label: PAYMENT_STATUS_LABEL.placed, hint: "paid, recorded on a Medusa order" },
  { key: "placing", label: PAYMENT_STATUS_LABEL.placing, hint: "paid in the last 10 minutes, order not made yet, its checkout still live" },
  { key: "paid_without_order", label: PAYMENT_STATUS_LABEL.paid_without_order, hint: "no order holds it: refunded or held by the plugin" },
  { key: "declined", label: "Declined", hint: "refused by PayLater or the shopper" },
  { key: "expired", label: "Expired", hint: "not paid before the link or request expired" },
  { key: "abandoned", label: "Abandoned", hint: "the shopper left for another attempt or method" },
  { key: "open", label: "Still open", hint: "waiting for the shopper" },
]

const MethodHeader = ({ first }: { first: string }) => (
  <Table.Header>
    <Table.Row>
      <Table.HeaderCell>{first}</Table.HeaderCell>
      {METHODS.map((m) => (
        <Table.HeaderCell key={m} className="text-right">
          {METHOD_LABEL[m]}
        </Table.HeaderCell>
      ))}
    </Table.Row>
  </Table.Header>
)

const change = (pp: number | null) =>
  pp === null ? null : <Badge size="2xsmall" color={pp > 0 ? "green" : pp < 0 ? "red" : "grey"}>{`${pp > 0 ? "+" : ""}${pp.toFixed(1)} pp`}</Badge>

/** The funnel: one column per method and the total; each count opens the attempts behind it. */
export const FunnelTable = ({ funnel, basis, onDrill }: { funnel: Funnel; basis: Basis; onDrill: (d: Drill) => void }) => (
  <Table data-testid="paylater-funnel-table">
    <MethodHeader first={basis === "checkouts" ? "Per checkout" : "Per attempt"} />
    <Table.Body>
      {COUNT_ROWS.map((row) => (
        <Table.Row key={row.key}>
          <Table.Cell title={row.hint}>{row.label}</Table.Cell>
          {METHODS.map((m) => (
            <Table.Cell key={m} className="text-right">
              <Button
                size="small"
                variant="transparent"
                data-testid={`funnel-${basis}-${m}-${row.key}`}
                onClick={() => onDrill({ method: m, outcome: row.key === "started" ? "started" : row.key })}
              >
                {funnel.methods[m][basis][row.key]}
              </Button>
            </Table.Cell>
          ))}
        </Table.Row>
      ))}
      <Table.Row>
        <Table.Cell>Conversion (paid / started)</Table.Cell>
        {METHODS.map((m) => (
          <Table.Cell key={m} className="text-right" data-testid={`funnel-${basis}-${m}-conversion`}>
            <div className="flex items-center justify-end gap-2">
              <Text size="small" weight="plus">
                {percent(funnel.methods[m].conversion[basis])}
              </Text>
              {change(funnel.methods[m].conversion_change[basis])}
            </div>
          </Table.Cell>
        ))}
      </Table.Row>
      <Table.Row>
        <Table.Cell>Time to pay (median / p90)</Table.Cell>
        {METHODS.map((m) => (
          <Table.Cell key={m} className="text-right">
            {duration(funnel.methods[m].time_to_pay.median_s)} / {duration(funnel.methods[m].time_to_pay.p90_s)}
          </Table.Cell>
        ))}
      </Table.Row>
    </Table.Body>
  </Table>
)

/** What the period's payments add up to: the finance report's totals; a method's figures open its payments. */
export const MoneyTable = ({ funnel, onPick }: { funnel: Funnel; onPick: (method: MethodKey) => void }) => (
  <Table data-testid="paylater-money-table">
    <MethodHeader first="Money in the period" />
    <Table.Body>
      {(
        [
          ["Payments (paid in the period)", (m: MethodKey) => String(funnel.methods[m].money.payments), "payments"],
          ["Paid", (m: MethodKey) => qar(funnel.methods[m].money.paid), "paid"],
          ["Refunded of these (by the period's end)", (m: MethodKey) => qar(funnel.methods[m].money.refunded), "refunded"],
          ["Net", (m: MethodKey) => qar(funnel.methods[m].money.net), "net"],
          ["Refunds sent in the period", (m: MethodKey) => `${funnel.methods[m].refunds.count} · ${qar(funnel.methods[m].refunds.amount)}`, "refunds"],
        ] as const
      ).map(([label, value, key]) => (
        <Table.Row key={key}>
          <Table.Cell>{label}</Table.Cell>
          {METHODS.map((m) => (
            <Table.Cell key={m} className="text-right">
              <Button size="small" variant="transparent" data-testid={`money-${m}-${key}`} onClick={() => onPick(m)}>
                {value(m)}
              </Button>
            </Table.Cell>
          ))}
        </Table.Row>
      ))}
    </Table.Body>
  </Table>
)
