import { Badge, Button, Heading, Table, Text } from "@medusajs/ui"
import { useEffect, useState } from "react"
import { report, METHOD_LABEL, qar, type Attempt, type PeriodChoice } from "../api"
import { periodQuery } from "../api"
import type { Drill } from "./funnel-table"

const PAGE = 25

/** The attempts behind a funnel number (newest first), with links to their order or cart. */
export const AttemptsList = ({ choice, drill, onClose }: { choice: PeriodChoice; drill: Drill; onClose: () => void }) => {
  const [offset, setOffset] = useState(0)
  const [data, setData] = useState<{ attempts: Attempt[]; has_more: boolean } | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => setOffset(0), [drill.method, drill.outcome])
  useEffect(() => {
    const query = periodQuery(choice, {
      method: drill.method === "total" ? null : drill.method,
      outcome: drill.outcome === "started" ? null : drill.outcome,
      offset,
      limit: PAGE,
    })
    report<{ attempts: Attempt[]; has_more: boolean }>("attempts", query).then(setData, (e) => setError((e as Error).message))
  }, [choice, drill.method, drill.outcome, offset])
  return (
    <div className="divide-y" data-testid="paylater-attempts-list">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">
          {METHOD_LABEL[drill.method]}: {drill.outcome.replace(/_/g, " ")} (attempts)
        </Heading>
        <Button size="small" variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
      {error && <Text className="px-6 py-4 text-ui-fg-error">{error}</Text>}
      <Table>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>Created</Table.HeaderCell>
            <Table.HeaderCell>PayLater order</Table.HeaderCell>
            <Table.HeaderCell>Method</Table.HeaderCell>
            <Table.HeaderCell>Outcome</Table.HeaderCell>
            <Table.HeaderCell className="text-right">Amount</Table.HeaderCell>
            <Table.HeaderCell>Order / cart</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {(data?.attempts ?? []).map((a) => (
            <Table.Row key={a.paylater_order_id}>
              <Table.Cell>{new Date(a.created_at).toLocaleString()}</Table.Cell>
              <Table.Cell>
                {a.paylater_order_id}
                {a.mobile_number_masked ? ` · ${a.mobile_number_masked}` : ""}
              </Table.Cell>
              <Table.Cell>{METHOD_LABEL[a.method]}</Table.Cell>
              <Table.Cell>
                <Badge size="2xsmall">{a.outcome.replace(/_/g, " ")}</Badge>
                {a.start_error ? ` ${a.start_error}` : ""}
              </Table.Cell>
              <Table.Cell className="text-right">{qar(a.amount)}</Table.Cell>
              <Table.Cell>{a.order_id ? <a href={`/app/orders/${a.order_id}`}>order</a> : a.cart_id ?? "—"}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
      <div className="flex items-center justify-end gap-2 px-6 py-3">
        <Button size="small" variant="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          Previous
        </Button>
        <Button size="small" variant="secondary" disabled={!data?.has_more} onClick={() => setOffset(offset + PAGE)}>
          Next
        </Button>
      </div>
    </div>
  )
}
