import { MedusaError } from "@medusajs/framework/utils"
import { normalizeQatarMobile } from "../../../lib/paylater"

/**
 * The shopper's mobile number from the session data the storefront (or the admin) sent, as PayLater
 * wants it: "974" + 8 digits. Refused here, before any call, so PayLater never sees a number we
 * could have rejected ourselves. The message never repeats the input (it may reach logs).
 */
export function mobileFromSessionData(data: Record<string, unknown> | undefined): string {
  const value = data?.mobile_number
  if (value === undefined || value === null || value === "") {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      'Request to Pay needs the shopper\'s PayLater mobile number in data.mobile_number, e.g. "3312 3456" or "+974 3312 3456".'
    )
  }
  try {
    return normalizeQatarMobile(value)
  } catch {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      "The mobile number must be a Qatar mobile number: 8 digits starting with 3, 5, 6 or 7, optionally preceded by +974 (e.g. 3312 3456 or +974 3312 3456)."
    )
  }
}
