import { LookupRefusals } from "./services/lookup-refusals"

/**
 * The plugin's one Medusa module service (key `paylater_ledger`), built as a chain of classes, one
 * job per file in services/, each adding its methods to the one below it. A chain rather than
 * separate services because Medusa builds a module from a single service class, and the
 * @InjectManager / @InjectTransactionManager decorators need the repository MedusaService gives it.
 *
 *   tables.ts           Medusa's generated CRUD for all seven tables (listPayLaterAttempts, ...)
 *   attempts.ts         the attempt ledger: writeAhead, recordStatus, recordOrderOwner, findAttempt, ...
 *   attention-list.ts   payments needing a person: flagForAttention, resolveAttention
 *   status-slots.ts     the status-call slots, for the provider's own status calls: takeStatusSlot
 *   refund-attempts.ts  the refund guard: beginRefund, settleRefund, ...; hands the port to the provider
 *   activity-history.ts the admin's history of a payment: record, listForPayments
 *   webhook-tallies.ts  webhook answers per minute: addWebhookTally, webhookSummary
 *   lookup-refusals.ts  the store route's shopper look-up refusals per hour: countLookupRefusal
 *
 * The attention list sits below the refund attempts because a refund of unknown outcome flags
 * itself for a person. Reconciliation runs have no layer: reconcile-runs.ts uses the generated CRUD.
 */
export class PayLaterLedgerModuleService extends LookupRefusals {}

export default PayLaterLedgerModuleService
