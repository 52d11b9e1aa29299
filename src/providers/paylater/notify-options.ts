/**
 * Who the plugin tells when something needs a person (src/notifications): Medusa's admin panel (the
 * Notification Module's `feed` channel) unless `notifyFeed` is false, and, on its `email` channel,
 * the addresses in `notifyEmails`. Kept with the other provider options so a wrong value stops boot.
 */
export interface NotifyOptionsInput {
  /** Show what needs a person in the admin's notification panel (default true). */
  notifyFeed?: boolean | string
  /** E-mail addresses told too, through the store's `email` notification provider: a list, or one text separated by commas. */
  notifyEmails?: string[] | string
}

export interface NotifySettings {
  feed: boolean
  emails: string[]
}

// Enough to catch a typo or a name where an address belongs; the e-mail provider has the last word.
const EMAIL = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/
const MAX_EMAILS = 20

/** Reads the notification options; `problems` collects what is wrong (reported with every other option problem). */
export function readNotifyOptions(raw: Record<string, unknown>, problems: string[]): NotifySettings {
  let feed = true
  const rawFeed = raw.notifyFeed
  if (rawFeed === false || rawFeed === "false") feed = false
  else if (!(rawFeed === undefined || rawFeed === null || rawFeed === "" || rawFeed === true || rawFeed === "true")) {
    problems.push("notifyFeed must be true or false")
  }
  const rawEmails = raw.notifyEmails
  let list: unknown[] = []
  if (typeof rawEmails === "string") list = rawEmails.split(",")
  else if (Array.isArray(rawEmails)) list = rawEmails
  else if (rawEmails !== undefined && rawEmails !== null) {
    problems.push("notifyEmails must be a list of e-mail addresses (or one text with addresses separated by commas)")
  }
  const emails: string[] = []
  for (const entry of list) {
    const text = typeof entry === "string" ? entry.trim() : ""
    if (typeof entry === "string" && text === "") continue
    if (!EMAIL.test(text)) {
      problems.push(`notifyEmails: "${String(entry).slice(0, 80)}" is not an e-mail address`)
      continue
    }
    if (!emails.includes(text.toLowerCase())) emails.push(text.toLowerCase())
  }
  if (emails.length > MAX_EMAILS) {
    problems.push(`notifyEmails names ${emails.length} addresses; at most ${MAX_EMAILS} (use a mailing list for more)`)
  }
  return { feed, emails }
}
