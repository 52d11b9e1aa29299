import { storeChannels } from "../channels"

describe("the channels a store can be told on", () => {
  const local = (channels: string[]) => ({ resolve: "@medusajs/medusa/notification-local", id: "local", options: { channels } })

  it("Medusa's default: the local provider on feed", () => {
    expect(storeChannels({ modules: { notification: { resolve: "@medusajs/medusa/notification", options: { providers: [local(["feed"])] } } } })).toEqual(
      new Set(["feed"])
    )
  })

  it("none without the module, or with it disabled", () => {
    expect(storeChannels({ modules: {} })).toBeNull()
    expect(storeChannels({ modules: { notification: { resolve: "@medusajs/medusa/notification", disable: true } } })).toBeNull()
  })

  it("an e-mail provider replacing the default leaves no feed; Medusa Cloud adds e-mail", () => {
    const resend = { resolve: "./src/modules/resend", id: "resend", options: { channels: ["email"] } }
    expect(storeChannels({ modules: { notification: { options: { providers: [resend] } } } })).toEqual(new Set(["email"]))
    expect(storeChannels({ modules: { notification: { options: { providers: [local(["feed"])], cloud: { api_key: "k" } } } } })).toEqual(
      new Set(["feed", "email"])
    )
  })

  it("reads the array form of the configuration too", () => {
    expect(storeChannels({ modules: [{ resolve: "@medusajs/medusa/notification", options: { providers: [local(["feed", "email"])] } }] })).toEqual(
      new Set(["feed", "email"])
    )
  })
})
