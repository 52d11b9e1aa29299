/**
 * Every sentence a shopper may read about PayLater, in English and Arabic (Qatar's storefronts are
 * bilingual). The plugin's server raises its shopper-facing errors with the English text from this
 * table, so a storefront recognises them exactly (the JS SDK keeps only an error's message and HTTP
 * status) and can show the Arabic one instead. No dependencies: this file ships to browsers.
 */

export type Locale = "en" | "ar"

export type Bilingual = Record<Locale, string>

export const SHOPPER_MESSAGES = {
  // One answer for "no account" and "limit below the total": told apart, they would let anyone with
  // a number and an email learn whether that person has PayLater and bracket their limit (docs/security.md).
  not_eligible: {
    en: "PayLater cannot take this payment for this mobile number and email address. Use the mobile number and email of your PayLater account and check that your available spending limit covers this order, or choose another payment method.",
    ar: "لا يمكن لـ PayLater قبول هذا الدفع بهذا الرقم وهذا البريد الإلكتروني. استخدم رقم الجوال والبريد الإلكتروني المسجلين في حسابك على PayLater وتأكد أن حد الإنفاق المتاح يغطي هذا الطلب، أو اختر طريقة دفع أخرى.",
  },
  too_many_requests: {
    en: "Too many PayLater payments were started in a short time. Please wait a few minutes before trying again, or choose another payment method.",
    ar: "تم بدء عدد كبير جدًا من عمليات الدفع عبر PayLater خلال وقت قصير. يرجى الانتظار بضع دقائق قبل المحاولة مرة أخرى، أو اختيار طريقة دفع أخرى.",
  },
  // A Request to Pay goes only to the number PayLater matches with the cart's own email.
  email_required: {
    en: "Add your email address to your order before paying with the PayLater app: use the email of your PayLater account.",
    ar: "أضف بريدك الإلكتروني إلى طلبك قبل الدفع عبر تطبيق PayLater: استخدم البريد الإلكتروني المسجل في حسابك على PayLater.",
  },
  lookup_unavailable: {
    en: "PayLater could not check your account just now, so no request was sent to your phone. Pay with the PayLater payment link instead, or try again in a few minutes.",
    ar: "تعذّر على PayLater التحقق من حسابك الآن، لذلك لم يُرسل أي طلب إلى هاتفك. ادفع عبر رابط الدفع من PayLater بدلًا من ذلك، أو حاول مرة أخرى بعد دقائق.",
  },
  amount_out_of_range: {
    en: "PayLater cannot pay for an order of this amount. Please choose another payment method.",
    ar: "لا يمكن الدفع عبر PayLater لطلب بهذا المبلغ. يرجى اختيار طريقة دفع أخرى.",
  },
  currency: {
    en: "PayLater accepts payments in Qatari riyal (QAR) only.",
    ar: "يقبل PayLater الدفع بالريال القطري فقط.",
  },
  invalid_mobile: {
    en: "The mobile number must be a Qatar mobile number: 8 digits starting with 3, 5, 6 or 7, optionally preceded by +974.",
    ar: "يجب أن يكون رقم الجوال رقمًا قطريًا من 8 أرقام يبدأ بـ 3 أو 5 أو 6 أو 7، ويمكن أن يسبقه ‎+974.",
  },
  duplicate: {
    en: "A Request to Pay was already sent for this payment. Start a new payment to send another request.",
    ar: "تم إرسال طلب دفع لهذه العملية من قبل. ابدأ عملية دفع جديدة لإرسال طلب آخر.",
  },
  try_later: {
    en: "PayLater could not send the request to this mobile number right now. Check that it is the number of your PayLater account, or try again in a few minutes.",
    ar: "تعذّر على PayLater إرسال الطلب إلى هذا الرقم الآن. تأكد أنه رقم حسابك في PayLater، أو حاول مرة أخرى بعد دقائق.",
  },
  unconfirmed: {
    en: "PayLater did not confirm the request. A request may already be waiting in the PayLater app: please check the app, or wait for it to expire before sending a new one.",
    ar: "لم يؤكد PayLater الطلب. قد يكون هناك طلب بانتظارك في تطبيق PayLater: تحقق من التطبيق، أو انتظر انتهاء صلاحيته قبل إرسال طلب جديد.",
  },
  unavailable: {
    en: "PayLater could not be reached to start the payment. Please try again in a moment.",
    ar: "تعذّر الاتصال بـ PayLater لبدء الدفع. يرجى المحاولة بعد قليل.",
  },
  already_placed: {
    en: "This order is already placed and paid. You can see it on its confirmation page; nothing more is charged.",
    ar: "تم تقديم هذا الطلب ودفعه بالفعل. يمكنك مشاهدته في صفحة التأكيد؛ لن يتم خصم أي مبلغ إضافي.",
  },
  network: {
    en: "We could not reach the store. Check your connection and try again.",
    ar: "تعذّر الاتصال بالمتجر. تحقق من اتصالك وحاول مرة أخرى.",
  },
  no_link: {
    en: "PayLater did not return a payment page. Please try again.",
    ar: "لم يُرجع PayLater صفحة الدفع. يرجى المحاولة مرة أخرى.",
  },
  unknown: {
    en: "The PayLater payment could not be started. Please try again or choose another payment method.",
    ar: "تعذّر بدء الدفع عبر PayLater. يرجى المحاولة مرة أخرى أو اختيار طريقة دفع أخرى.",
  },
  // Outcomes the plugin's return route reports in `paylater_error=` (failure page).
  declined: {
    en: "PayLater declined the payment. No money was taken. You can try again, for example after checking your spending limit in the PayLater app.",
    ar: "رفض PayLater عملية الدفع ولم يُخصم أي مبلغ. يمكنك المحاولة مرة أخرى، مثلًا بعد التحقق من حد الإنفاق في تطبيق PayLater.",
  },
  expired: {
    en: "The PayLater payment was not completed in time, so nothing was charged. Start a new PayLater payment to continue.",
    ar: "لم تكتمل عملية الدفع عبر PayLater في الوقت المحدد، ولم يُخصم أي مبلغ. ابدأ عملية دفع جديدة للمتابعة.",
  },
  abandoned: {
    en: "You left PayLater before paying. Nothing was charged and your cart is still here.",
    ar: "غادرت PayLater قبل الدفع. لم يُخصم أي مبلغ وسلتك ما زالت هنا.",
  },
  error: {
    en: "Something went wrong after PayLater answered. Please try again; if it keeps happening, contact us and we will check the payment for you.",
    ar: "حدث خطأ بعد رد PayLater. يرجى المحاولة مرة أخرى، وإذا تكرر ذلك تواصل معنا وسنتحقق من الدفع.",
  },
  // PayLater took the money but the cart could not become an order (an item sold out, the cart
  // changed): never "declined", and never an invitation to pay again. Refunded, as a rule; but where
  // Medusa kept the paid session, the store tries the completion again until the money goes back,
  // and a try that passes (a lock that was busy, stock back) places the order after all.
  paid_not_placed: {
    en: "Your payment was received but the order could not be placed, so the payment is refunded in full to your PayLater account (PayLater accepts refunds from 10 minutes after a payment). If the store manages to place the order before that, the order is placed instead and nothing is refunded. You do not need to do anything, and you were not charged twice.",
    ar: "تم استلام دفعتك لكن تعذّر إنشاء الطلب، لذا سيُعاد المبلغ كاملًا إلى حسابك في PayLater (يقبل PayLater الاسترداد بعد 10 دقائق من الدفع). وإذا تمكّن المتجر من إنشاء الطلب قبل ذلك فسيُنشأ الطلب بدلًا من الاسترداد. لا حاجة لأي إجراء منك، ولم يُخصم المبلغ مرتين.",
  },
  pending: {
    en: "PayLater is still confirming your payment. This page updates by itself; there is no need to pay again.",
    ar: "ما زال PayLater يؤكد عملية الدفع. ستتحدث هذه الصفحة تلقائيًا، ولا حاجة للدفع مرة أخرى.",
  },
  // Request to Pay waiting screen.
  rtp_waiting: {
    en: "Approve the request in your PayLater app",
    ar: "وافق على الطلب في تطبيق PayLater",
  },
  rtp_processing: {
    en: "Approved in the PayLater app. Placing your order…",
    ar: "تمت الموافقة في تطبيق PayLater. جارٍ تأكيد طلبك…",
  },
  rtp_paid: { en: "Your order is placed.", ar: "تم تأكيد طلبك." },
  rtp_declined: {
    en: "The request was declined, so nothing was charged. You can send a new request, or pay another way.",
    ar: "تم رفض الطلب ولم يُخصم أي مبلغ. يمكنك إرسال طلب جديد أو الدفع بطريقة أخرى.",
  },
  rtp_expired: {
    en: "The request was not approved in time, so nothing was charged. Send a new request to pay with the PayLater app.",
    ar: "لم تتم الموافقة على الطلب في الوقت المحدد ولم يُخصم أي مبلغ. أرسل طلبًا جديدًا للدفع عبر تطبيق PayLater.",
  },
  rtp_paid_not_placed: {
    en: "Your payment was received, but the order could not be placed. It will be refunded in full; there is nothing to do and nothing to pay again.",
    ar: "تم استلام دفعتك لكن تعذّر إنشاء الطلب. سيُعاد المبلغ كاملًا؛ لا حاجة لأي إجراء ولا للدفع مرة أخرى.",
  },
  // The store kept the paid session and tries the completion again until the money goes back; the
  // waiting screen keeps checking (poll.ts NOT_PLACED_WATCH) and hands over the order if a try places it.
  rtp_paid_not_placed_retrying: {
    en: "Your payment was received, but the order could not be placed yet. The store is trying again: if it succeeds, your order opens here; if not, the payment is refunded in full. There is nothing to do and nothing to pay again.",
    ar: "تم استلام دفعتك لكن تعذّر إنشاء الطلب حتى الآن. يحاول المتجر مرة أخرى: إذا نجح فسيظهر طلبك هنا، وإلا فسيُعاد المبلغ كاملًا. لا حاجة لأي إجراء ولا للدفع مرة أخرى.",
  },
  rtp_gone: {
    en: "A newer request or another payment method has replaced this one.",
    ar: "تم استبدال هذا الطلب بطلب أحدث أو بطريقة دفع أخرى.",
  },
  rtp_connection: {
    en: "We can't reach the store right now. Still checking; nothing to do on your side.",
    ar: "لا يمكننا الاتصال بالمتجر الآن. ما زلنا نتحقق، ولا حاجة لأي إجراء منك.",
  },
} satisfies Record<string, Bilingual>

export type ShopperMessageKey = keyof typeof SHOPPER_MESSAGES

export function shopperMessage(key: ShopperMessageKey, locale: Locale = "en"): string {
  return SHOPPER_MESSAGES[key][locale]
}
