/**
 * fast-check generators of hostile webhook requests. Every generator says what the right answer is
 * by construction: a forgery can never verify, a harmless variation of a genuine notification must.
 */
import fc from "fast-check"
import {
  REQUIRED_FIELDS,
  getEntry,
  hmacOf,
  serialise,
  setEntry,
  signedEntries,
  txHashOf,
  withoutEntry,
  type Entries,
  type Notification,
  type WireRequest,
} from "./wire"

export interface Keys {
  merchantId: string
  secret: string
}

export const STATUSES = ["success", "failed", "pending"] as const

/** Keys an attacker adds to reach prototypes or shadow methods. Never a signed field. */
const PROTO_KEYS = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty", "__defineGetter__"]

/** Marks a prototype-pollution payload, so the test can look for it on Object.prototype. */
export const POLLUTION_MARK = "polluted_by_webhook"

const SIGNED_OR_REQUIRED = new Set<string>(["merchantId", "orderId", "status", "timestamp", "comments", "txHash", "signature", "paylaterRef"])

const hexChar = fc.constantFrom(..."0123456789abcdef")
const hex = (length: number) => fc.string({ unit: hexChar, minLength: length, maxLength: length })

/** Text from every corner of Unicode: graphemes, lone surrogates, Arabic-Indic digits, controls. */
export const anyText = (maxLength = 24) =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: "grapheme", maxLength }),
    fc.string({ unit: "binary", maxLength }),
    fc.constantFrom("", " ", "\u0000", "١٢٣", "طلب", "ß", "ǅ", "İ", "\ud800", "🇶🇦", "%00", "\r\n", "null", "{}", "'; drop table payment;--")
  )

/** A huge but bounded string: up to ~96 KB, built by repetition so generation stays cheap. */
export const hugeText = fc
  .tuple(fc.constantFrom("a", "é", "ح", "😀", "\\", '"', "0"), fc.integer({ min: 1_000, max: 48_000 }))
  .map(([unit, n]) => unit.repeat(n))

/** A JSON value of any shape, sometimes carrying a prototype-pollution payload. */
export const anyJson = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant({ [POLLUTION_MARK]: true }) },
  { weight: 1, arbitrary: fc.constant({ prototype: { [POLLUTION_MARK]: true } }) }
)

/** Extra members added next to the real ones: unknown keys, nested objects, prototype keys. */
export const extraEntries: fc.Arbitrary<Entries> = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 12 }).filter((k) => !SIGNED_OR_REQUIRED.has(k))),
    anyJson
  ),
  { maxLength: 4 }
)

export interface Targets {
  /** Order ids notifications name; the first one is the canary (paid at PayLater, no order yet). */
  orderIds: string[]
}

export const notification = (
  keys: Keys,
  targets: Targets,
  // Mostly "success": the only status that could place an order if a forgery got through.
  statuses: readonly string[] = ["success", "success", "success", "failed", "pending"]
): fc.Arbitrary<Notification> =>
  fc.record({
    merchantId: fc.constant(keys.merchantId),
    orderId: fc.constantFrom(...targets.orderIds),
    status: fc.constantFrom(...statuses),
    timestamp: fc.oneof(
      fc.integer({ min: 0, max: 2 ** 31 }),
      fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
      fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }).map(String)
    ),
    comments: fc.option(anyText(40), { nil: undefined }),
    paylaterRef: fc.option(fc.stringMatching(/^PL\d{10,16}$/), { nil: undefined }),
  })

/** A text that upper-cases differently from `original` (so the hash covers the change). */
function changedText(original: string, addition: string): string {
  const candidate = original + (addition.length > 0 ? addition : "x")
  return candidate.toUpperCase() === original.toUpperCase() ? `${original}x` : candidate
}

/** Flips the case of the letters `mask` selects; always flips at least one when there is one. */
export function flipCase(text: string, mask: boolean[]): string {
  const chars = [...text]
  const letters = chars.map((c, i) => (c.toLowerCase() !== c.toUpperCase() ? i : -1)).filter((i) => i >= 0)
  if (letters.length === 0) return text
  const chosen = letters.filter((i) => mask[i % mask.length])
  for (const i of chosen.length ? chosen : [letters[0]]) {
    const c = chars[i]
    chars[i] = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()
  }
  return chars.join("")
}

export const FORGERY_KINDS = [
  "wrong-secret",
  "tampered-field",
  "recomputed-hash",
  "txhash-case",
  "random-signature",
  "random-hash",
  "spliced",
  "signature-of-other-text",
  "malformed-hex",
  "wrong-type",
  "missing-field",
  "other-merchant",
  "shifted-merchant",
  "merchant-case",
  "status-spelling",
  "timestamp-spelling",
] as const
export type ForgeryKind = (typeof FORGERY_KINDS)[number]

export interface Forgery {
  kind: ForgeryKind
  entries: Entries
}

/**
 * Every way of getting a notification wrong, each starting from a genuine one so it is as close to
 * valid as possible. None of them can verify: the expected answer is always 403.
 */
export const forgery = (keys: Keys, targets: Targets): fc.Arbitrary<Forgery> =>
  fc
    .record({
      kind: fc.constantFrom(...FORGERY_KINDS),
      n: notification(keys, targets),
      other: notification(keys, targets),
      field: fc.constantFrom("merchantId", "orderId", "status", "timestamp", "comments"),
      required: fc.constantFrom(...REQUIRED_FIELDS),
      otherSecret: fc.string({ maxLength: 40 }),
      hex64: hex(64),
      hex32: hex(32),
      text: anyText(16),
      wrong: anyJson,
      mask: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
      pick: fc.nat(),
      extras: extraEntries,
    })
    .map((p): Forgery => {
      const { secret } = keys
      const genuine = signedEntries(p.n, secret)
      const hash = txHashOf(p.n)
      let entries: Entries
      switch (p.kind) {
        case "wrong-secret": {
          const other = p.otherSecret === secret ? `${secret}x` : p.otherSecret
          entries = signedEntries(p.n, other)
          break
        }
        case "tampered-field":
        case "recomputed-hash": {
          const tampered: Notification = { ...p.n }
          switch (p.field) {
            case "status":
              tampered.status = STATUSES.filter((s) => s !== p.n.status)[p.pick % 2]
              break
            case "orderId":
              tampered.orderId = changedText(p.n.orderId, p.text)
              break
            case "merchantId":
              tampered.merchantId = changedText(p.n.merchantId, p.text)
              break
            case "timestamp":
              tampered.timestamp = Number(p.n.timestamp) + 1 + (p.pick % 1_000_000)
              break
            case "comments":
              tampered.comments = changedText(p.n.comments ?? "", p.text)
              break
          }
          entries = genuine
          for (const f of ["merchantId", "orderId", "status", "timestamp", "comments"] as const) {
            if (tampered[f] !== p.n[f]) entries = setEntry(entries, f, tampered[f])
          }
          // Anyone can recompute the keyless MD5; only the HMAC can stop this one.
          if (p.kind === "recomputed-hash") entries = setEntry(entries, "txHash", txHashOf(tampered))
          break
        }
        case "txhash-case": {
          // The signature covers the txHash text as received, so its case is part of what is signed.
          const flipped = flipCase(hash, p.mask)
          entries = setEntry(genuine, "txHash", flipped === hash ? p.hex32 : flipped)
          break
        }
        case "random-signature":
          entries = setEntry(genuine, "signature", p.hex64 === hmacOf(hash, secret) ? "0".repeat(64) : p.hex64)
          break
        case "random-hash":
          entries = setEntry(genuine, "txHash", p.hex32 === hash ? "0".repeat(32) : p.hex32)
          break
        case "spliced": {
          // Digest and signature lifted from another genuine notification.
          const donor = signedEntries(p.other, secret)
          const same = txHashOf(p.other) === hash
          entries = setEntry(genuine, "txHash", same ? p.hex32 : getEntry(donor, "txHash"))
          entries = setEntry(entries, "signature", same ? p.hex64 : getEntry(donor, "signature"))
          break
        }
        case "signature-of-other-text": {
          const wrongTexts = [
            hash.toUpperCase(),
            `${hash}\n`,
            ` ${hash}`,
            p.n.merchantId + p.n.orderId + p.n.status + String(p.n.timestamp) + (p.n.comments ?? ""),
            secret,
          ]
          const text = wrongTexts[p.pick % wrongTexts.length]
          // Or the HMAC's arguments swapped (keyed with the hash, over the secret).
          const signature = p.pick % 6 === 5 ? hmacOf(secret, hash) : hmacOf(text, secret)
          entries = setEntry(genuine, "signature", signature === hmacOf(hash, secret) ? p.hex64 : signature)
          break
        }
        case "malformed-hex": {
          const field = p.pick % 2 === 0 ? "txHash" : "signature"
          const value = String(getEntry(genuine, field))
          const variants = [
            value.slice(1),
            `${value}0`,
            `${value.slice(1)}g`,
            `${value.slice(1)}١`,
            ` ${value}`,
            `${value}\n`,
            `0x${value}`,
            "",
            value.replace(/[0-9]/, (d) => String.fromCharCode(0xff10 + Number(d))),
          ]
          const variant = variants[Math.floor(p.pick / 2) % variants.length]
          entries = setEntry(genuine, field, variant === value ? "" : variant)
          break
        }
        case "wrong-type": {
          const fields = [...REQUIRED_FIELDS, "comments", "paylaterRef"] as const
          const field = fields[p.pick % fields.length]
          let value: unknown = p.wrong
          if (typeof value === "string" || value === null) value = [value]
          if (field === "timestamp" && typeof value === "number") value = { value }
          if ((field === "merchantId" || field === "orderId") && Array.isArray(value) && value.length === 0) value = {}
          entries = setEntry(genuine, field, value)
          break
        }
        case "missing-field":
          entries = withoutEntry(genuine, p.required)
          break
        case "other-merchant":
          // Correctly signed, for someone else: PayLater's own format, but not for this store.
          entries = signedEntries({ ...p.n, merchantId: changedText(`other-${keys.merchantId}`, p.text) }, secret)
          break
        case "shifted-merchant": {
          // Characters moved across the merchantId/orderId boundary keep the hash (a protocol limit).
          const cut = 1 + (p.pick % (keys.merchantId.length - 1))
          entries = signedEntries(
            { ...p.n, merchantId: keys.merchantId.slice(0, cut), orderId: keys.merchantId.slice(cut) + p.n.orderId },
            secret
          )
          break
        }
        case "merchant-case": {
          // The hash is over upper case, so this verifies; only the merchant check refuses it.
          entries = setEntry(genuine, "merchantId", flipCase(keys.merchantId, p.mask))
          break
        }
        case "status-spelling": {
          const spelled = [p.n.status.toUpperCase(), p.n.status[0].toUpperCase() + p.n.status.slice(1), ` ${p.n.status}`, "paid", "refunded", ""]
          entries = signedEntries({ ...p.n, status: spelled[p.pick % spelled.length] }, secret)
          break
        }
        case "timestamp-spelling": {
          const t = String(p.n.timestamp)
          const spelled: unknown[] = [`+${t}`, ` ${t}`, `${t}.0`, `${t} `, `-${t}`, -1 - Number(t), Number(t) + 0.5, `0x${Number(t).toString(16)}`]
          const value = spelled[p.pick % spelled.length]
          entries = signedEntries({ ...p.n, timestamp: value as string }, secret)
          break
        }
      }
      return { kind: p.kind, entries: [...entries, ...p.extras] }
    })

export const JSON_CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", "Application/JSON"]

export const contentType: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<string | null>(...JSON_CONTENT_TYPES) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<string | null>(
      null,
      "",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=xyz",
      "application/xml",
      "application/json; charset=utf-16",
      "application/json; charset=latin1",
      "application/octet-stream",
      "application/vnd.api+json",
      "*/*"
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")) }
)

export interface Garbage {
  kind: string
  request: WireRequest
}

const utf8 = (text: string) => Buffer.from(text, "utf8")

/**
 * Requests that are not a notification at all: other JSON shapes, broken JSON, binary, empty,
 * huge, under any content type. The expected answer is always 403 with a JSON message.
 */
export const garbage = (keys: Keys, targets: Targets): fc.Arbitrary<Garbage> => {
  const jsonOf = (kind: string, arb: fc.Arbitrary<unknown>) =>
    arb.map((value) => ({ kind, text: JSON.stringify(value) ?? "null" }))
  const text = fc.oneof(
    jsonOf("json-value", fc.jsonValue({ maxDepth: 4 })),
    jsonOf("array", fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 })),
    jsonOf("array-of-genuine", notification(keys, targets).map((n) => [Object.fromEntries(signedEntries(n, keys.secret))])),
    jsonOf(
      "object-of-anything",
      fc.record(
        {
          merchantId: anyJson,
          orderId: anyJson,
          status: anyJson,
          timestamp: anyJson,
          txHash: anyJson,
          signature: anyJson,
          comments: anyJson,
        },
        { requiredKeys: [] }
      )
    ),
    fc.tuple(extraEntries, notification(keys, targets)).map(([extras, n]) => ({
      kind: "nested-genuine",
      // The genuine notification one level down, under a prototype-ish key.
      text: serialise([...extras, [extras[0]?.[0] ?? "__proto__", Object.fromEntries(signedEntries(n, keys.secret))]]),
    })),
    fc.constantFrom(
      { kind: "proto", text: `{"__proto__":{"${POLLUTION_MARK}":true}}` },
      { kind: "proto", text: `{"constructor":{"prototype":{"${POLLUTION_MARK}":true}}}` },
      { kind: "empty", text: "" },
      { kind: "whitespace", text: " \n\t " },
      { kind: "broken", text: "{not json" },
      { kind: "broken", text: '{"merchantId":' },
      { kind: "broken", text: "{'merchantId':'x'}" },
      { kind: "literal", text: "null" },
      { kind: "literal", text: "true" },
      { kind: "literal", text: '"a string"' },
      { kind: "form", text: "merchantId=x&orderId=y&status=success" },
      { kind: "xml", text: "<webhook><status>success</status></webhook>" },
      { kind: "bom", text: "\ufeff{}" },
      { kind: "deep", text: `${"[".repeat(5000)}${"]".repeat(5000)}` },
      { kind: "deep", text: `${'{"a":'.repeat(3000)}1${"}".repeat(3000)}` }
    ),
    anyText(200).map((t) => ({ kind: "text", text: t })),
    fc.tuple(hugeText, notification(keys, targets), fc.constantFrom("comments", "orderId", "merchantId", "txHash", "extra")).map(
      ([huge, n, field]) => {
        const entries = signedEntries(n, keys.secret)
        // An extra member is not checked, so only size refuses it: always past the route's 64 KiB.
        const padding = huge + "a".repeat(64 * 1024)
        return { kind: `huge-${field}`, text: serialise(field === "extra" ? [...entries, ["padding", padding]] : setEntry(entries, field, huge)) }
      }
    )
  )
  return fc.oneof(
    { weight: 9, arbitrary: fc.tuple(text, contentType).map(([t, ct]) => ({ kind: t.kind, request: { body: utf8(t.text), contentType: ct } })) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.uint8Array({ maxLength: 512 }), contentType).map(([bytes, ct]) => ({
        kind: "binary",
        request: { body: Buffer.from(bytes), contentType: ct },
      })),
    },
    {
      weight: 1,
      // A genuine notification in another encoding: the route reads UTF-8 only.
      arbitrary: notification(keys, targets).map((n) => ({
        kind: "utf16",
        request: { body: Buffer.from(serialise(signedEntries(n, keys.secret)), "utf16le"), contentType: "application/json; charset=utf-16" },
      })),
    }
  )
}

/**
 * Variations of a genuine notification that must still verify: digest case games the decision
 * allows, case variants of hashed text, extra and prototype keys, the timestamp as text, another
 * paylaterRef. Built only for notifications that cannot place an order, so the state must not move.
 */
export const harmlessVariation = (keys: Keys, n: fc.Arbitrary<Notification>) =>
  fc
    .record({
      n,
      signatureMask: fc.option(fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), { nil: undefined }),
      rehashCase: fc.option(fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), { nil: undefined }),
      commentsMask: fc.option(fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), { nil: undefined }),
      timestampAsText: fc.boolean(),
      paylaterRef: fc.option(anyText(20), { nil: undefined }),
      extras: extraEntries,
      contentType: fc.constantFrom(...JSON_CONTENT_TYPES),
    })
    .map((p) => {
      const n: Notification = { ...p.n }
      if (p.timestampAsText) n.timestamp = String(n.timestamp)
      let entries = signedEntries(n, keys.secret)
      if (p.commentsMask && typeof n.comments === "string") {
        // Same text once upper-cased, so the MD5 is unchanged; only such variants are kept.
        const variant = flipCase(n.comments, p.commentsMask)
        if (variant.toUpperCase() === n.comments.toUpperCase()) entries = setEntry(entries, "comments", variant)
      }
      if (p.rehashCase) {
        // A txHash in other case, signed as written: verifies (digests compare case-insensitively).
        const flipped = flipCase(String(getEntry(entries, "txHash")), p.rehashCase)
        entries = setEntry(setEntry(entries, "txHash", flipped), "signature", hmacOf(flipped, keys.secret))
      }
      if (p.signatureMask) entries = setEntry(entries, "signature", flipCase(String(getEntry(entries, "signature")), p.signatureMask))
      if (p.paylaterRef !== undefined && p.paylaterRef.length > 0) entries = setEntry(entries, "paylaterRef", p.paylaterRef)
      return { n, entries: [...entries, ...p.extras], contentType: p.contentType }
    })
