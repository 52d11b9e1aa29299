/**
 * The DTC starter guide's code blocks as a developer pastes them into apps/storefront, written into
 * a minimal Next.js 15 app shaped like the starter (same routes, same cart cookie, the same cached
 * `retrieveCart`), for pnpm-workspace.spec.ts to type-check against the installed kit, Next 15,
 * React 19 and Medusa's js-sdk, then build with `next build` and play in Chromium. Blocks are taken
 * by their markers (readme-snippets.ts), so the test follows the guide.
 *
 * The starter's own modules the blocks import or the plays need (`@lib/config`, `@lib/data/cookies`,
 * the cart's data functions, the country middleware, a page with "Add to cart", the order
 * confirmation) are written here, small, with the starter's names, routes and cookie; they are not the
 * starter's code. What matters for the guide is kept as the starter does it: the cart cookie is
 * `SameSite=Strict`, and `retrieveCart` reads the cart from Next's data cache under the "carts" tag.
 */
import fs from "node:fs"
import path from "node:path"
import { readmeSnippet } from "./readme-snippets"

/** The starter's own helpers and pages, reduced to what the guide's steps and the plays need. */
const STARTER_FILES: Record<string, string> = {
  "next.config.js": [
    // The types are checked by the test's own `tsc` run (strict) before the build: not twice.
    `module.exports = { typescript: { ignoreBuildErrors: true }, eslint: { ignoreDuringBuilds: true } }`,
    ``,
  ].join("\n"),
  // Next's own (what `next build` writes): Next's types, e.g. fetch's `next: { tags }` the starter's retrieveCart passes.
  "next-env.d.ts": [`/// <reference types="next" />`, `/// <reference types="next/image-types/global" />`, ``].join("\n"),
  "src/lib/config.ts": [
    `import Medusa from "@medusajs/js-sdk"`,
    `export const sdk = new Medusa({`,
    `  baseUrl: process.env.MEDUSA_BACKEND_URL || "http://localhost:9000",`,
    `  publishableKey: process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY,`,
    `})`,
    ``,
  ].join("\n"),
  "src/lib/data/cookies.ts": [
    `import { cookies as nextCookies } from "next/headers"`,
    `export const getAuthHeaders = async (): Promise<{ authorization: string } | {}> => ({})`,
    `export const getCacheTag = async (tag: string): Promise<string> => tag`,
    `export const getCacheOptions = async (tag: string): Promise<{ tags: string[] }> => ({ tags: [await getCacheTag(tag)] })`,
    `export const getCartId = async () => (await nextCookies()).get("_medusa_cart_id")?.value`,
    `export const setCartId = async (cartId: string) => {`,
    `  ;(await nextCookies()).set("_medusa_cart_id", cartId, {`,
    `    maxAge: 60 * 60 * 24 * 7,`,
    `    httpOnly: true,`,
    `    sameSite: "strict",`,
    `    secure: process.env.NODE_ENV === "production",`,
    `  })`,
    `}`,
    `export const removeCartId = async () => {`,
    `  ;(await nextCookies()).set("_medusa_cart_id", "", { maxAge: -1 })`,
    `}`,
    ``,
  ].join("\n"),
  // The starter's link component, by its props: the href is prefixed with the country.
  "src/modules/common/components/localized-client-link/index.tsx": [
    `"use client"`,
    `import Link from "next/link"`,
    `import { useParams } from "next/navigation"`,
    `import type { ReactNode } from "react"`,
    `export default function LocalizedClientLink(props: { href: string; className?: string; children?: ReactNode }) {`,
    `  const { countryCode } = useParams() as { countryCode: string }`,
    `  return <Link href={\`/\${countryCode}\${props.href}\`} className={props.className}>{props.children}</Link>`,
    `}`,
    ``,
  ].join("\n"),
  // The starter's middleware, for one country: a path without it gets it (the return route sends
  // /checkout, /order/…/confirmed and /paylater/… without one).
  "src/middleware.ts": [
    `import { NextRequest, NextResponse } from "next/server"`,
    `export function middleware(request: NextRequest) {`,
    `  const { pathname } = request.nextUrl`,
    `  if (pathname === "/qa" || pathname.startsWith("/qa/")) return NextResponse.next()`,
    `  const url = request.nextUrl.clone()`,
    `  url.pathname = \`/qa\${pathname === "/" ? "" : pathname}\``,
    `  return NextResponse.redirect(url, 307)`,
    `}`,
    `export const config = { matcher: ["/((?!api|_next/static|_next/image|favicon.ico).*)"] }`,
    ``,
  ].join("\n"),
  "src/app/layout.tsx": [
    `import type { ReactNode } from "react"`,
    `export default function RootLayout(props: { children: ReactNode }) {`,
    `  return (`,
    `    <html lang="en">`,
    `      <body>{props.children}</body>`,
    `    </html>`,
    `  )`,
    `}`,
    ``,
  ].join("\n"),
  // The starter's header: "Cart (n)" from the cached cart.
  "src/app/[countryCode]/layout.tsx": [
    `import { retrieveCart } from "@lib/data/cart"`,
    `import type { ReactNode } from "react"`,
    `export default async function CountryLayout(props: { children: ReactNode }) {`,
    `  const cart = await retrieveCart()`,
    `  const count = cart?.items?.reduce((n, item) => n + item.quantity, 0) ?? 0`,
    `  return (`,
    `    <>`,
    `      <header>`,
    `        <span data-testid="nav-cart-link">Cart ({count})</span>`,
    `      </header>`,
    `      <main>{props.children}</main>`,
    `    </>`,
    `  )`,
    `}`,
    ``,
  ].join("\n"),
  // A product's "Add to cart" (the starter's product page takes the variant as ?v_id=).
  "src/app/[countryCode]/page.tsx": [
    `import { addToCart } from "@lib/data/cart"`,
    `export default async function Store(props: {`,
    `  params: Promise<{ countryCode: string }>`,
    `  searchParams: Promise<{ v_id?: string }>`,
    `}) {`,
    `  const { countryCode } = await props.params`,
    `  const { v_id } = await props.searchParams`,
    `  async function add() {`,
    `    "use server"`,
    `    if (v_id) await addToCart({ variantId: v_id, quantity: 1, countryCode })`,
    `  }`,
    `  return (`,
    `    <form action={add}>`,
    `      <button type="submit" data-testid="add-product-button">Add to cart</button>`,
    `    </form>`,
    `  )`,
    `}`,
    ``,
  ].join("\n"),
  // The starter's confirmation route.
  "src/app/[countryCode]/(main)/order/[id]/confirmed/page.tsx": [
    `export default async function OrderConfirmed(props: { params: Promise<{ id: string }> }) {`,
    `  const { id } = await props.params`,
    `  return <h1 data-testid="order-complete-container">Thank you! Your order {id} was placed.</h1>`,
    `}`,
    ``,
  ].join("\n"),
}

/** The starter's `cart.ts`: its cached `retrieveCart`, `getOrSetCart` with the guide's change, `addToCart`. */
function cartTs(getOrSetCartBlock: string): string {
  return [
    `"use server"`,
    `import { sdk } from "@lib/config"`,
    `import type { HttpTypes } from "@medusajs/types"`,
    `import { revalidateTag } from "next/cache"`,
    `import { getAuthHeaders, getCacheOptions, getCacheTag, getCartId, removeCartId, setCartId } from "./cookies"`,
    ``,
    `// As the starter reads a cart: from Next's data cache, under the "carts" tag.`,
    `export async function retrieveCart(cartId?: string, fields?: string): Promise<HttpTypes.StoreCart | null> {`,
    `  const id = cartId || (await getCartId())`,
    `  fields ??= "*items, *region, +items.total"`,
    `  if (!id) return null`,
    `  const headers = { ...(await getAuthHeaders()) }`,
    `  const next = { ...(await getCacheOptions("carts")) }`,
    `  return await sdk.client`,
    `    .fetch<HttpTypes.StoreCartResponse>(\`/store/carts/\${id}\`, { method: "GET", query: { fields }, headers, next, cache: "force-cache" })`,
    `    .then(({ cart }) => cart)`,
    `    .catch(() => null)`,
    `}`,
    ``,
    `export async function getOrSetCart(countryCode: string) {`,
    `  // The starter's getRegion(countryCode); this store has one region.`,
    `  const region = { id: process.env.SHOP_REGION_ID!, countryCode }`,
    getOrSetCartBlock,
    `  if (!cart) {`,
    `    cart = (await sdk.store.cart.create({ region_id: region.id }, {}, headers)).cart`,
    `    await setCartId(cart.id)`,
    `    revalidateTag(await getCacheTag("carts"))`,
    `  }`,
    `  return cart`,
    `}`,
    ``,
    `export async function addToCart(input: { variantId: string; quantity: number; countryCode: string }) {`,
    `  const cart = await getOrSetCart(input.countryCode)`,
    `  const headers = { ...(await getAuthHeaders()) }`,
    `  await sdk.store.cart.createLineItem(cart.id, { variant_id: input.variantId, quantity: input.quantity }, {}, headers)`,
    `  revalidateTag(await getCacheTag("carts"))`,
    `}`,
    ``,
  ].join("\n")
}

/** Writes the guide's files and the starter-shaped app around them into `storefrontDir`; returns the tsconfig to type-check them with. */
export function writeGuideFiles(guidePath: string, storefrontDir: string): string {
  const block = (name: string) => readmeSnippet(guidePath, name)
  const files: Record<string, string> = {
    ...STARTER_FILES,
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
    // Step 7: the return route.
    "src/app/api/paylater/back/route.ts": block("guide-back-route"),
    // Step 7b: the imports, and the new lines where the starter's checkout page checked its cart.
    "src/app/[countryCode]/(checkout)/checkout/page.tsx": [
      block("guide-checkout-imports"),
      `import { retrieveCart } from "@lib/data/cart"`,
      ``,
      `export default async function Checkout(props: { params: Promise<{ countryCode: string }> }) {`,
      `  const cart = await retrieveCart()`,
      block("guide-checkout-placed"),
      `  return <div data-testid="checkout-cart">Checkout of {cart.id}</div>`,
      `}`,
      ``,
    ].join("\n"),
    // Step 8's page for a payment taken without an order.
    "src/app/[countryCode]/(checkout)/paylater/paid-not-placed/page.tsx": block("guide-paid-not-placed"),
    // The cart.ts change: the block where getOrSetCart read its cart, with the starter's own lines around it.
    "src/lib/data/cart.ts": cartTs(block("guide-get-or-set-cart")),
  }
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(storefrontDir, file)), { recursive: true })
    fs.writeFileSync(path.join(storefrontDir, file), text)
  }
  const compilerOptions = {
    strict: true,
    noEmit: true,
    jsx: "preserve",
    module: "esnext",
    moduleResolution: "bundler",
    target: "es2022",
    lib: ["dom", "es2022"],
    skipLibCheck: true,
    esModuleInterop: true,
    isolatedModules: true,
    incremental: true,
    baseUrl: ".",
    paths: { "@lib/*": ["src/lib/*"], "@modules/*": ["src/modules/*"] },
  }
  // Next's own (the build reads its paths); the strict check of the guide's files uses the same options.
  fs.writeFileSync(
    path.join(storefrontDir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { ...compilerOptions, plugins: [{ name: "next" }] }, include: ["next-env.d.ts", "src/**/*"], exclude: ["node_modules"] }, null, 2)
  )
  const tsconfig = path.join(storefrontDir, "tsconfig.guide.json")
  fs.writeFileSync(
    tsconfig,
    JSON.stringify({ compilerOptions: { ...compilerOptions, incremental: false, types: ["react", "node"] }, include: ["next-env.d.ts", "src/**/*"] })
  )
  return tsconfig
}
