import { PAY_BUTTON_TEXT } from "../choice"
import type { Locale } from "../messages"

/**
 * What every component shares: the shopper's language (Arabic is laid out right to left) and class
 * names. Each element has a stable `paylater-…` class and `data-*` state for plain CSS; `className`
 * and `classNames` add the storefront's own (e.g. Tailwind utilities) next to them.
 */

export interface StyleProps<Slot extends string> {
  locale?: Locale
  className?: string
  classNames?: Partial<Record<Slot, string>>
}

export function cx(...parts: Array<string | false | null | undefined>): string {
  return parts.filter(Boolean).join(" ")
}

export function dirOf(locale: Locale | undefined): "rtl" | "ltr" {
  return locale === "ar" ? "rtl" : "ltr"
}

/** Short texts of the components (longer shopper messages are in ../messages). */
export const LABELS = {
  payButton: PAY_BUTTON_TEXT.link,
  redirecting: { en: "Taking you to PayLater…", ar: "جارٍ تحويلك إلى PayLater…" },
  mobileLabel: { en: "PayLater mobile number", ar: "رقم الجوال المسجل في PayLater" },
  mobileHint: { en: "Your Qatar mobile number, e.g. 5111 8021 or +974 5111 8021.", ar: "رقم جوالك القطري، مثل 5111 8021 أو ‎+974 5111 8021." },
  sendRequest: PAY_BUTTON_TEXT.requestToPay,
  sending: { en: "Sending the request…", ar: "جارٍ إرسال الطلب…" },
  enterMobile: { en: "Enter the mobile number of your PayLater account, e.g. 5111 8021.", ar: "أدخل رقم الجوال المسجل في حسابك على PayLater، مثل 5111 8021." },
  sentTo: { en: "We sent a payment request for {amount} to the PayLater app on {mobile}.", ar: "أرسلنا طلب دفع بقيمة {amount} إلى تطبيق PayLater على الرقم {mobile}." },
  leftToApprove: { en: "left to approve", ar: "متبقٍ للموافقة" },
  timeUp: { en: "Time is up. Checking with PayLater…", ar: "انتهى الوقت. جارٍ التحقق مع PayLater…" },
  waitingApproval: { en: "Waiting for your approval…", ar: "بانتظار موافقتك…" },
  tryAgain: { en: "Send a new request", ar: "أرسل طلبًا جديدًا" },
  // The waiting screen's heading once the request has ended: what happened, not "approve".
  declinedTitle: { en: "The request was declined", ar: "تم رفض الطلب" },
  expiredTitle: { en: "The request has expired", ar: "انتهت صلاحية الطلب" },
  goneTitle: { en: "This request was replaced", ar: "تم استبدال هذا الطلب" },
  paidNotPlacedTitle: { en: "Payment received, order not placed", ar: "تم استلام الدفع ولم يُنشأ الطلب" },
  pendingTitle: { en: "Confirming your payment", ar: "جارٍ تأكيد الدفع" },
  checkAgain: { en: "Check again", ar: "تحقق مرة أخرى" },
  gaveUp: {
    en: "PayLater has not confirmed the payment yet. If you approved it, your order is placed as soon as PayLater confirms; check again in a moment.",
    ar: "لم يؤكد PayLater الدفع بعد. إذا وافقت عليه فسيتم تأكيد طلبك فور تأكيد PayLater؛ تحقق مرة أخرى بعد قليل.",
  },
  missingCart: {
    en: "We could not find this checkout. If you paid, your order confirmation has the details.",
    ar: "لم نجد عملية الشراء هذه. إذا دفعت، فستجد التفاصيل في تأكيد طلبك.",
  },
} as const

export function label(key: keyof typeof LABELS, locale: Locale | undefined, values: Record<string, string> = {}): string {
  return LABELS[key][locale ?? "en"].replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? "")
}

/** "14:05" */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`
}
