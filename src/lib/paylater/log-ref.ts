/**
 * An id as logs at info level and above show it. A payment session id (and the PayLater order id
 * made from it) or a cart id is a key: with the publishable key it reads the cart and its order,
 * and a log is read by more people and tools than the store's database. The short form keeps the
 * prefix, the last six characters and an attempt suffix: enough to tell log lines apart and to match
 * them to the admin, useless as a key. Full ids belong at debug level only.
 *
 *   payses_01JD3M6ZQ8W4Y2K7N5R9T1V3X5-2 → payses_…T1V3X5-2
 */

const SHOWN = 6

export function logRef(id: unknown): string {
  if (typeof id !== "string" || id === "") {
    return "?"
  }
  const attempt = /^(.*?)(-\d{1,3})?$/.exec(id)!
  const base = attempt[1]
  const suffix = attempt[2] ?? ""
  const underscore = base.indexOf("_")
  const prefix = underscore > 0 && underscore < 16 ? base.slice(0, underscore + 1) : ""
  const body = base.slice(prefix.length)
  if (body.length <= SHOWN) {
    return `${prefix}…${suffix}`
  }
  return `${prefix}…${body.slice(-SHOWN)}${suffix}`
}
