import { AsyncLocalStorage } from "node:async_hooks"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { processSingleton } from "./process-slot"
import { STATUS_ANSWER_SLOT } from "./slot-keys"

/**
 * PayLater's answer to the status question a settlement caused, handed back as a value. Settlement
 * reaches PayLater through Medusa's authorizePaymentSession (Medusa must record the payment itself),
 * so the provider cannot return the answer directly; it reports it here, in the settlement's own
 * async context, after recording it in the ledger. `answered: false`: PayLater was called and did
 * not answer. No answer at all (null): PayLater was never called (e.g. Medusa refused first).
 * `attempt`: the ledger row as the answer left it, so settlement need not read it again.
 */
export interface StatusAnswer {
  answered: boolean
  attempt?: AttemptRecord | null
}

interface Box {
  answer: StatusAnswer | null
}

// Process-wide: the provider and settlement may come from two copies of this package (process-slot.ts).
const storage = processSingleton(STATUS_ANSWER_SLOT, () => new AsyncLocalStorage<Box>())

/** Runs `run` and returns what PayLater answered to a status call made inside it, if one was made. */
export async function collectStatusAnswer<T>(run: () => Promise<T>): Promise<{ result: T; answer: StatusAnswer | null }> {
  const box: Box = { answer: null }
  const result = await storage.run(box, run)
  return { result, answer: box.answer }
}

/** Called by the provider once the answer is recorded; a no-op outside a collecting settlement. */
export function reportStatusAnswer(answer: StatusAnswer): void {
  const box = storage.getStore()
  if (box) box.answer = answer
}
