/**
 * The words Settings → PayLater uses for a payment needing a person and for how it was resolved; the
 * order card and the merchant's notifications use the same ones (src/notifications/words.ts); a payment
 * without an order is named by the words every screen uses for it (src/words/payment-status.ts).
 */
export { ATTENTION_KIND_LABEL, RESOLUTION_LABEL, schedulerStalledSentence } from "../../notifications/words"
