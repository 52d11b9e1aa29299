/**
 * A minimal router: each page is a full page load (plain links, plain redirects), and on load the
 * path picks the page to render. That keeps browser history, reloads and the PayLater redirects
 * trivially correct, which matters more here than client-side transitions.
 */
import type { Sdk } from "./store"

export interface PageContext {
  sdk: Sdk
  /** Named groups of the route's pattern, e.g. `id` in /order/confirmed/:id. */
  params: Record<string, string>
  query: URLSearchParams
}

export interface Route {
  pattern: RegExp
  render: (context: PageContext) => Promise<void>
}

export function match(routes: Route[], pathname: string): { route: Route; params: Record<string, string> } | null {
  for (const route of routes) {
    const found = route.pattern.exec(pathname)
    if (found) {
      const params: Record<string, string> = {}
      for (const [name, value] of Object.entries(found.groups ?? {})) params[name] = decodeURIComponent(value)
      return { route, params }
    }
  }
  return null
}
