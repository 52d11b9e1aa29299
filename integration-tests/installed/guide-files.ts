/**
 * The DTC starter guide's code blocks as a developer pastes them into apps/storefront, for
 * pnpm-workspace.spec.ts to type-check against the installed kit, React 19's types and Medusa's
 * js-sdk. Blocks are taken by their markers (readme-snippets.ts), so the test follows the guide. The
 * starter's own modules the blocks import (`@lib/config`, `@lib/data/cookies`) are written as the
 * starter has them; Next.js's are declared with Next 15's signatures (the shaped workspace does not
 * install Next itself).
 */
import fs from "node:fs"
import path from "node:path"
import { readmeSnippet } from "./readme-snippets"

const NEXT_STUBS = `
declare module "next/navigation" {
  export interface AppRouterInstance {
    push(href: string, options?: { scroll?: boolean }): void
    replace(href: string, options?: { scroll?: boolean }): void
    refresh(): void
    back(): void
  }
  export function useRouter(): AppRouterInstance
  export function useParams<T extends Record<string, string | string[]> = Record<string, string | string[]>>(): T
  export function useSearchParams(): URLSearchParams
  export function redirect(url: string, type?: "replace" | "push"): never
  export function notFound(): never
}
declare module "next/headers" {
  export function cookies(): Promise<{ get(name: string): { name: string; value: string } | undefined }>
}
declare module "next/cache" {
  export function revalidateTag(tag: string): void
}
`

/** The starter's own helpers the blocks use, with the starter's signatures. */
const STARTER_FILES: Record<string, string> = {
  "src/lib/config.ts": `import Medusa from "@medusajs/js-sdk"\nexport const sdk = new Medusa({ baseUrl: "http://localhost:9000", publishableKey: "pk_test" })\n`,
  "src/lib/data/cookies.ts": [
    `import { cookies as nextCookies } from "next/headers"`,
    `export const getCartId = async () => (await nextCookies()).get("_medusa_cart_id")?.value`,
    `export const getAuthHeaders = async (): Promise<{ authorization: string } | {}> => ({})`,
    `export const removeCartId = async (): Promise<void> => {}`,
    `export const getCacheTag = async (tag: string): Promise<string> => tag`,
    ``,
  ].join("\n"),
  // The starter's link component, by its props.
  "src/modules/common/components/localized-client-link/index.tsx": [
    `import type { ReactNode } from "react"`,
    `export default function LocalizedClientLink(props: { href: string; className?: string; children?: ReactNode }) {`,
    `  return <a href={props.href} className={props.className}>{props.children}</a>`,
    `}`,
    ``,
  ].join("\n"),
}

/** Writes the guide's files and a tsconfig into `storefrontDir`; returns the tsconfig's path. */
export function writeGuideFiles(guidePath: string, storefrontDir: string): string {
  const block = (name: string) => readmeSnippet(guidePath, name)
  const files: Record<string, string> = {
    ...STARTER_FILES,
    "next-stubs.d.ts": NEXT_STUBS,
    "src/lib/paylater/browser-sdk.ts": block("guide-browser-sdk"),
    "src/lib/paylater/placed-order.ts": block("guide-placed-order"),
    "src/lib/paylater/placed-order-client.ts": block("guide-placed-order-client"),
    // Step 6: the imports pasted after the starter's own (HttpTypes is one of them), the component at the end.
    "src/modules/checkout/components/payment-button/paylater.tsx": [
      `import { HttpTypes } from "@medusajs/types"`,
      block("guide-payment-button-imports"),
      block("guide-payment-button-component"),
      `export default PayLaterPaymentButton`,
      ``,
    ].join("\n"),
    // Step 7b: the imports, and the new lines where the starter's checkout page checked its cart.
    "src/app/checkout/page.tsx": [
      block("guide-checkout-imports"),
      `import type { HttpTypes } from "@medusajs/types"`,
      `declare function retrieveCart(): Promise<HttpTypes.StoreCart | null>`,
      `export default async function Checkout(props: { params: Promise<{ countryCode: string }> }) {`,
      `  const cart = await retrieveCart()`,
      block("guide-checkout-placed"),
      `  return cart.id`,
      `}`,
      ``,
    ].join("\n"),
    // Step 8's page for a payment taken without an order.
    "src/app/paylater/paid-not-placed/page.tsx": block("guide-paid-not-placed"),
    // The cart.ts change: the block where getOrSetCart read its cart, with the starter's own lines around it.
    "src/lib/data/cart.ts": [
      `"use server"`,
      `import { sdk } from "@lib/config"`,
      `import { revalidateTag } from "next/cache"`,
      `import { getAuthHeaders, getCacheTag, getCartId, removeCartId } from "./cookies"`,
      `export async function getOrSetCart(countryCode: string) {`,
      `  const region = { id: countryCode }`,
      block("guide-get-or-set-cart"),
      `  if (!cart) {`,
      `    cart = (await sdk.store.cart.create({ region_id: region.id }, {}, headers)).cart`,
      `  }`,
      `  return cart`,
      `}`,
      ``,
    ].join("\n"),
  }
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(storefrontDir, file)), { recursive: true })
    fs.writeFileSync(path.join(storefrontDir, file), text)
  }
  const tsconfig = path.join(storefrontDir, "tsconfig.guide.json")
  fs.writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        jsx: "react-jsx",
        module: "esnext",
        moduleResolution: "bundler",
        target: "es2022",
        lib: ["dom", "es2022"],
        skipLibCheck: true,
        types: ["react", "node"],
        baseUrl: ".",
        paths: { "@lib/*": ["src/lib/*"], "@modules/*": ["src/modules/*"] },
      },
      include: ["src/**/*", "next-stubs.d.ts"],
    })
  )
  return tsconfig
}
