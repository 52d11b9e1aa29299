/**
 * The shopper's browser and PayLater's hosted page for the fault tests, over real HTTP, with a
 * client timeout on every call: a request the app (or PayLater) leaves hanging fails the test with
 * a timeout error instead of hanging it.
 */
import axios, { type AxiosInstance } from "axios"

/** Longest any single HTTP call of these tests may take: PayLater's own timeouts and retries fit well inside. */
export const CLIENT_TIMEOUT_MS = 30_000

const manual = { maxRedirects: 0, validateStatus: () => true, timeout: CLIENT_TIMEOUT_MS }

/** Opens the link page and submits the decision; returns where PayLater sends the shopper (a 303). */
export async function decideOnLink(linkUrl: string, decision: "approve" | "decline" | "abandon"): Promise<string> {
  const page = await axios.get(linkUrl, manual)
  if (page.status !== 200) throw new Error(`payment page answered ${page.status}`)
  const action = /<form[^>]*action="([^"]+)"/.exec(String(page.data))?.[1]
  if (!action) throw new Error("no decision form on the payment page")
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

/** The shopper lands on our return route (path and query only: the app runs on a random port). */
export async function returnToStore(
  api: AxiosInstance,
  sessionId: string,
  outcome: "success" | "fail" = "success"
): Promise<{ status: number; location?: string; body: any }> {
  const res = await api.get(`/paylater/return/${sessionId}?outcome=${outcome}`, manual)
  return { status: res.status, location: res.headers.location, body: res.data }
}
