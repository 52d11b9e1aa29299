import type { LookupRefusalInput } from "../modules/paylater-ledger/types"
import { LOOKUP_REFUSAL_CODES } from "./definitions"

/**
 * The store route's shopper look-up refusals (paylater_lookup_refusal, one row per UTC hour, method
 * and code) in the funnel. They never overlap the attempts' own look-up refusals: the route answers
 * before Medusa creates a payment session, so the provider, which writes attempts, never runs for them.
 */

const HOUR_MS = 3_600_000

/** Start of the UTC hour `at` is in: the tally's row. */
export const hourStartOf = (at: Date): Date => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS)

/** What the store route counts for a refusal at `at`: the hour, the method and the code, nothing about the shopper. */
export const lookupRefusalOf = (requestToPay: boolean, code: string, at: Date): LookupRefusalInput => ({
  hour: hourStartOf(at),
  kind: requestToPay ? "request_to_pay" : "link",
  code,
})

const CODES = `(${LOOKUP_REFUSAL_CODES.map((c) => `'${c}'`).join(", ")})`

// An hour belongs to the day its start falls on in the store's zone (a zone half an hour off UTC
// splits hours at midnight). The range on the hour, an hour wider than the period, keeps the read to
// the period's rows of the unique index; the zone's date then decides.
export const LOOKUP_TALLY = `
select coalesce(sum("count"), 0)::int as n
from paylater_lookup_refusal
where deleted_at is null and kind = 'request_to_pay' and code in ${CODES}
  and "hour" > $from::timestamptz - interval '1 hour' and "hour" < $to
  and ("hour" at time zone $tz)::date between $from_date::date and $to_date::date
`

/** The funnel's look-up refusals: those recorded on attempts plus the store route's tally. */
export const lookupRefusalsTotal = (onAttempts: number, tallyRows: Array<{ n?: unknown }>): number =>
  onAttempts + tallyRows.reduce((s, r) => s + Number(r.n ?? 0), 0)
