import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { isPayLaterError, PayLaterClient } from "../../../../lib/paylater"
import { readRegistrations } from "../../../../medusa-records/registrations"

/**
 * POST /admin/paylater/test-connection: asks PayLater for a token with each registration's options
 * and reports plainly (`{ results: [{ id, ok, message, duration_ms }] }`). The token is neither
 * kept nor shown; error texts come from the client, which never includes secrets.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const registrations = await readRegistrations(req.scope)
  const results = await Promise.all(
    registrations.map(async (registration) => {
      const options = registration.options
      if (!options) {
        return { id: registration.id, ok: false, message: "The provider's options could not be read from medusa-config.", duration_ms: null }
      }
      const where = `${options.config.environment}, ${options.config.apiBaseUrl}`
      try {
        const { durationMs } = await new PayLaterClient(options.config).checkConnection()
        return {
          id: registration.id,
          ok: true,
          message: `Connected: PayLater accepted the client id and secret and issued a token in ${durationMs} ms (${where}).`,
          duration_ms: durationMs,
        }
      } catch (error) {
        const reason = isPayLaterError(error) ? error.message : "unexpected error"
        return { id: registration.id, ok: false, message: `Not connected (${where}): ${reason}`, duration_ms: null }
      }
    })
  )
  res.setHeader("Cache-Control", "no-store")
  res.json({ results })
}
