import { readNotifyOptions } from "../notify-options"

describe("notification options", () => {
  const read = (raw: Record<string, unknown>) => {
    const problems: string[] = []
    return { settings: readNotifyOptions(raw, problems), problems }
  }

  it("default: the admin's panel, no e-mail", () => {
    expect(read({})).toEqual({ settings: { feed: true, emails: [] }, problems: [] })
  })

  it("reads a list, or one text from the environment, and turns the panel off", () => {
    expect(read({ notifyEmails: "Ops@Store.qa, finance@store.qa,", notifyFeed: "false" }).settings).toEqual({
      feed: false,
      emails: ["ops@store.qa", "finance@store.qa"],
    })
    expect(read({ notifyEmails: ["ops@store.qa", "ops@store.qa"], notifyFeed: false }).settings.emails).toEqual(["ops@store.qa"])
  })

  it("refuses what is not an address or a boolean, saying which", () => {
    const { problems } = read({ notifyEmails: ["ops", 5], notifyFeed: "yes" })
    expect(problems).toEqual([
      "notifyFeed must be true or false",
      'notifyEmails: "ops" is not an e-mail address',
      'notifyEmails: "5" is not an e-mail address',
    ])
    expect(read({ notifyEmails: 7 }).problems).toEqual([expect.stringMatching(/^notifyEmails must be a list/)])
  })
})
