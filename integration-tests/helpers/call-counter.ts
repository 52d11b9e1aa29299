/**
 * Counts the calls a piece of work makes on a live app's modules: ledger reads (the plugin's
 * module), Medusa payment-session reads and locks taken. Only outermost reads count (a service
 * method calling another of its own methods is one read), so the numbers are what the code under
 * test asked for, not how a module implements it. Every lock counts, nested ones too: the work a
 * lock runs takes the next one from inside it, and the locking module never calls itself.
 *
 * A call made inside a Medusa workflow run (the workflow engine's `run`, e.g. Medusa's own cart
 * completion) is named with the workflow first (`completeCart: acquire cart_…`), so a budget can say
 * which calls are the plugin's and which Medusa's own flow makes, and still counts all of them.
 */
import { AsyncLocalStorage } from "node:async_hooks"
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { PAYLATER_LEDGER_MODULE } from "../../src/modules/paylater-ledger"

export interface CallCounts {
  ledgerReads: string[]
  /**
   * Every other outermost call on the ledger (writes, attention items): a write's own
   * read-modify-write under the row's lock is part of the write, not a read the caller asked for.
   */
  ledgerWrites: string[]
  sessionReads: string[]
  locks: string[]
}

type AnyService = Record<string, unknown>

/** Read methods of the attempt ledger: anything that looks attempts up without writing. */
const LEDGER_READ = /^(findAttempt|currentAttemptOf|attemptsOfSession|openAttempts|paidAttemptsSince|refundedAmount|moneyGivenBack|givenBackFacts|list\w*Attempts?|listAndCount\w*Attempts?|retrieve\w*Attempt)$/
/** The ledger's own writes (each reads its row under the row's lock before it writes). */
const LEDGER_OTHER = /^(writeAhead|record\w*|linkAttempt|markSessionGone|flagForAttention|closeAttentionOfAttempt|resolveAttention|beginRefund|settleRefund|expireStaleRefundsOf)$/
const SESSION_READ = /^(listPaymentSessions|listAndCountPaymentSessions|retrievePaymentSession)$/
const LOCK = /^(execute|acquire)$/

function methodNames(service: AnyService): string[] {
  const names = new Set<string>()
  for (let proto = service; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== "constructor") names.add(name)
    }
  }
  return [...names].filter((n) => typeof service[n] === "function")
}

/** Outermost calls per service: one depth for all of a service's wrapped methods. */
type Depth = { value: number }

/** The Medusa workflow a call is made in, if any (outermost run). */
const inWorkflow = new AsyncLocalStorage<string>()

function workflowName(id: unknown): string {
  // "complete-cart" → "completeCart": the name Medusa's code gives the workflow.
  return String(id).replace(/-(\w)/g, (_, c: string) => c.toUpperCase())
}

function withinWorkflows(engine: AnyService): () => void {
  const original = engine.run as (...a: unknown[]) => unknown
  const own = Object.prototype.hasOwnProperty.call(engine, "run")
  engine.run = function (this: unknown, id: unknown, ...rest: unknown[]) {
    const outer = inWorkflow.getStore()
    return inWorkflow.run(outer ?? workflowName(id), () => original.apply(engine, [id, ...rest]))
  }
  return () => {
    if (own) engine.run = original
    else delete engine.run
  }
}

function wrap(service: AnyService, pattern: RegExp, sink: string[], options: { nested?: boolean; depth?: Depth } = {}): () => void {
  const restore: Array<() => void> = []
  const depth = options.depth ?? { value: 0 }
  for (const name of methodNames(service).filter((n) => pattern.test(n))) {
    const original = service[name] as (...a: unknown[]) => unknown
    const own = Object.prototype.hasOwnProperty.call(service, name)
    service[name] = async function (this: unknown, ...args: unknown[]) {
      // A lock is named by its key, so a failing budget says which lock was one too many.
      if (depth.value === 0 || options.nested) {
        const call = options.nested ? `${name} ${String(args[0])}` : name
        const workflow = inWorkflow.getStore()
        sink.push(workflow ? `${workflow}: ${call}` : call)
      }
      if (!options.nested) depth.value++
      try {
        return await original.apply(service, args)
      } finally {
        if (!options.nested) depth.value--
      }
    }
    restore.push(() => {
      if (own) service[name] = original
      else delete service[name]
    })
  }
  return () => restore.forEach((r) => r())
}

/** Runs `work` with the counters on, and takes them off again whatever happens. */
export async function countCalls<T>(container: MedusaContainer, work: () => Promise<T>): Promise<{ result: T; counts: CallCounts }> {
  const counts: CallCounts = { ledgerReads: [], ledgerWrites: [], sessionReads: [], locks: [] }
  const ledger = container.resolve(PAYLATER_LEDGER_MODULE) as AnyService
  const ledgerDepth: Depth = { value: 0 }
  const undo = [
    wrap(ledger, LEDGER_READ, counts.ledgerReads, { depth: ledgerDepth }),
    wrap(ledger, LEDGER_OTHER, counts.ledgerWrites, { depth: ledgerDepth }),
    wrap(container.resolve(Modules.PAYMENT) as unknown as AnyService, SESSION_READ, counts.sessionReads),
    wrap(container.resolve(Modules.LOCKING) as unknown as AnyService, LOCK, counts.locks, { nested: true }),
    withinWorkflows(container.resolve(Modules.WORKFLOW_ENGINE) as unknown as AnyService),
  ]
  try {
    return { result: await work(), counts }
  } finally {
    undo.forEach((u) => u())
  }
}
