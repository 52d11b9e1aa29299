/**
 * Lenient reading of a Qatari mobile number for humans typing into the sandbox's own pages and
 * options. The merchant API itself stays strict (974 + 8 digits), as PayLater documents it.
 */
export const STRICT_QATAR_MOBILE = /^974\d{8}$/

export function normaliseQatarMobile(input: string): string | null {
  let digits = input.replace(/[\s\-().]/g, "")
  if (digits.startsWith("+")) digits = digits.slice(1)
  else if (digits.startsWith("00")) digits = digits.slice(2)
  if (!/^\d+$/.test(digits)) return null
  if (digits.length === 8) digits = `974${digits}`
  return STRICT_QATAR_MOBILE.test(digits) ? digits : null
}
