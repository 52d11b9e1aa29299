/**
 * The shopper's browser in the hosted-link flow, over real HTTP and without following redirects
 * automatically, so each hop can be asserted: PayLater's page → decision (303) → our return route
 * (303) → storefront.
 */
import axios, { type AxiosInstance } from "axios"

const manual = { maxRedirects: 0, validateStatus: () => true }

export type Decision = "approve" | "decline" | "abandon"

/** Opens the link page and submits the decision; returns where PayLater sends the shopper. */
export async function decideOnLink(linkUrl: string, decision: Decision): Promise<string> {
  const page = await axios.get(linkUrl, manual)
  if (page.status !== 200) {
    throw new Error(`payment page answered ${page.status}`)
  }
  const action = /<form[^>]*action="([^"]+)"/.exec(String(page.data))?.[1]
  if (!action) {
    throw new Error("no decision form on the payment page")
  }
  const target = new URL(action.replace(/&amp;/g, "&"), linkUrl).toString()
  const answer = await axios.post(target, new URLSearchParams({ decision }).toString(), {
    ...manual,
    headers: { "content-type": "application/x-www-form-urlencoded" },
  })
  if (answer.status !== 303 || typeof answer.headers.location !== "string") {
    throw new Error(`decision answered ${answer.status}, expected a 303`)
  }
  return answer.headers.location
}

/**
 * Follows PayLater's redirect into the app. The provider builds return URLs from MEDUSA_BACKEND_URL,
 * which cannot know the test app's random port, so only path and query are taken from it.
 */
export async function followToApp(api: AxiosInstance, location: string): Promise<{ status: number; location?: string; body: unknown }> {
  const url = new URL(location)
  const res = await api.get(url.pathname + url.search, manual)
  return { status: res.status, location: res.headers.location, body: res.data }
}
