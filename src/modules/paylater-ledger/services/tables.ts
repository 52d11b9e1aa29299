import { MedusaService } from "@medusajs/framework/utils"
import { PayLaterAttempt } from "../models/paylater-attempt"
import { PayLaterAttention } from "../models/paylater-attention"
import { PayLaterEvent } from "../models/paylater-event"
import { PayLaterLookupRefusal } from "../models/paylater-lookup-refusal"
import { PayLaterReconcileRun } from "../models/paylater-reconcile-run"
import { PayLaterRefundAttempt } from "../models/paylater-refund-attempt"
import { PayLaterWebhookTally } from "../models/paylater-webhook-tally"

/**
 * The bottom of the module's service: Medusa's generated CRUD for each of the plugin's tables
 * (`listPayLaterAttempts`, `createPayLaterRefundAttempts`, `updatePayLaterAttentions`, ...) and the
 * repository the @InjectManager / @InjectTransactionManager decorators of the layers above use.
 * One MedusaService for every model: Medusa builds a module from a single service class.
 */
export class PayLaterTables extends MedusaService({
  PayLaterAttempt,
  PayLaterEvent,
  PayLaterRefundAttempt,
  PayLaterAttention,
  PayLaterWebhookTally,
  PayLaterReconcileRun,
  PayLaterLookupRefusal,
}) {}
