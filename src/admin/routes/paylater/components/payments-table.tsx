import { Badge, Button, Heading, Table, Text } from "@medusajs/ui"
import { useEffect, useState } from "react"
import { csvUrl, METHOD_LABEL, periodQuery, qar, report, type Method, type Payment, type PeriodChoice } from "../api"
import { PAYMENT_STATUS_LABEL } from "../../../../words/payment-status"

const PAGE = 20

/** The finance report: the period's payments, paged as the CSV lists them, and the CSV itself. */
export const PaymentsTable = ({ choice, method, onAllMethods }: { choice: PeriodChoice; method: Method | null; onAllMethods: () => void }) => {
  // The cursors of the pages seen so far: Previous goes back one.
  const [cursors, setCursors] = useState<Array<string | null>>([null])
  const [data, setData] = useState<{ payments: Payment[]; next: string | null } | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => setCursors([null]), [choice, method])
  const after = cursors[cursors.length - 1]
  useEffect(() => {
    setError(null)
    report<{ payments: Payment[]; next: string | null }>("payments", periodQuery(choice, { method, limit: PAGE, after })).then(setData, (e) => setError((e as Error).message))
  }, [choice, method, after])
  return (
    <div className="divide-y" data-testid="paylater-payments">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">Finance report{method ? `: ${METHOD_LABEL[method]}` : ""}</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Every payment PayLater confirmed in the period, to match PayLater's settlement statement.
          </Text>
        </div>
        <div className="flex gap-2">
          {method && (
            <Button size="small" variant="transparent" onClick={onAllMethods}>
              All methods
            </Button>
          )}
          <a href={csvUrl(periodQuery(choice, { method }))} download data-testid="paylater-csv-download">
            <Button size="small" variant="secondary">
              Download CSV
            </Button>
          </a>
        </div>
      </div>
      {error && <Text className="px-6 py-4 text-ui-fg-error">{error}</Text>}
      <Table>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>Paid at</Table.HeaderCell>
            <Table.HeaderCell>PayLater order / reference</Table.HeaderCell>
            <Table.HeaderCell>Order</Table.HeaderCell>
            <Table.HeaderCell>Method</Table.HeaderCell>
            <Table.HeaderCell className="text-right">Amount</Table.HeaderCell>
            <Table.HeaderCell className="text-right">Refunded</Table.HeaderCell>
            <Table.HeaderCell className="text-right">Net</Table.HeaderCell>
            <Table.HeaderCell>Status</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {(data?.payments ?? []).map((p) => (
            <Table.Row key={p.paylater_order_id} data-testid="paylater-payment-row">
              <Table.Cell>{new Date(p.paid_at).toLocaleString()}</Table.Cell>
              <Table.Cell>
                <div>{p.paylater_order_id}</div>
                <Text size="xsmall" className="text-ui-fg-subtle">
                  {p.paylater_ref ?? "—"}
                </Text>
              </Table.Cell>
              <Table.Cell>{p.order_id ? <a href={`/app/orders/${p.order_id}`}>{p.order_display_id ? `#${p.order_display_id}` : "order"}</a> : "—"}</Table.Cell>
              <Table.Cell>{METHOD_LABEL[p.method]}</Table.Cell>
              <Table.Cell className="text-right">{qar(p.amount)}</Table.Cell>
              <Table.Cell className="text-right">{qar(p.refunded)}</Table.Cell>
              <Table.Cell className="text-right">{qar(p.net)}</Table.Cell>
              <Table.Cell>
                <Badge size="2xsmall" color={p.status === "placed" ? "green" : p.status === "paid_without_order" ? "red" : "orange"}>
                  {PAYMENT_STATUS_LABEL[p.status] ?? p.status}
                </Badge>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
      <div className="flex items-center justify-end gap-2 px-6 py-3">
        <Button size="small" variant="secondary" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous
        </Button>
        <Button size="small" variant="secondary" disabled={!data?.next} onClick={() => data?.next && setCursors([...cursors, data.next])}>
          Next
        </Button>
      </div>
    </div>
  )
}
