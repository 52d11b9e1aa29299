/**
 * Request bodies are written by hand so that money goes out as a JSON number with exactly the digits
 * of its decimal text ("amount":350.00). JSON.stringify would need a JS number, which would both
 * pass through binary floating point and drop the trailing zeros PayLater's examples show.
 */

const TWO_DECIMALS = /^\d+\.\d{2}$/

/** A JSON number written verbatim from canonical two-decimal text. */
export class JsonDecimal {
  readonly text: string

  constructor(text: string) {
    if (!TWO_DECIMALS.test(text)) {
      throw new TypeError(`JsonDecimal needs canonical two-decimal text, got "${text}"`)
    }
    this.text = text
  }
}

export type JsonField = string | number | JsonDecimal

export function jsonBody(fields: Readonly<Record<string, JsonField>>): string {
  const members = Object.entries(fields).map(([key, value]) => {
    if (value instanceof JsonDecimal) {
      return `${JSON.stringify(key)}:${value.text}`
    }
    if (typeof value === "number" && !Number.isSafeInteger(value)) {
      throw new TypeError(`Only whole numbers may be written as JSON numbers (field ${key})`)
    }
    return `${JSON.stringify(key)}:${JSON.stringify(value)}`
  })
  return `{${members.join(",")}}`
}
