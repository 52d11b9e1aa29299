import { Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"

/**
 * `work` under the locking module's lock `key`, waiting at most `seconds` for it. When the lock was
 * not taken in time, `busy` answers instead (`isBusy` narrows which failures to acquire count, e.g.
 * only timeouts); an error thrown by `work` itself always propagates. The one way settlement takes
 * Medusa's locks and tells "somebody else holds it" from a real failure.
 */
export async function underLockOr<T>(
  container: MedusaContainer,
  key: string,
  seconds: number,
  busy: (error: unknown) => T | Promise<T>,
  work: () => Promise<T>,
  isBusy: (error: unknown) => boolean = () => true
): Promise<T> {
  let entered = false
  try {
    return await container.resolve(Modules.LOCKING).execute(
      key,
      () => {
        entered = true
        return work()
      },
      { timeout: seconds }
    )
  } catch (error) {
    if (!entered && isBusy(error)) return busy(error)
    throw error
  }
}
