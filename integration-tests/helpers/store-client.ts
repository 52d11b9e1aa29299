/**
 * Typed helpers over the test runner's `api` (an axios instance on the booted app) for the
 * storefront checkout and for admin calls.
 *
 * Two kinds of helper, on purpose:
 * - setup steps (createCart, createPaymentCollection, getOrder) throw on a non-2xx answer, with the
 *   response body in the message, because a failure there is a broken test, not a result;
 * - the steps a PayLater test asserts on (createPaymentSession, completeCart, get/post) never
 *   throw for an HTTP status: they return the status and the body so the test can check both.
 */
import type { AxiosInstance, AxiosResponse } from "axios"
import { createUserAccountWorkflow } from "@medusajs/core-flows"
import type { HttpTypes, MedusaContainer } from "@medusajs/framework/types"

/** The body Medusa's error handler sends (`{ type, message, code? }`). */
export interface MedusaErrorBody {
  type?: string
  message?: string
  code?: string
  [k: string]: unknown
}

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; error: MedusaErrorBody }

export type CompleteCartResult =
  | { status: number; type: "order"; order: HttpTypes.StoreOrder }
  /** 200 with the cart: payment authorization failed or needs more (Medusa's "try again"). */
  | { status: number; type: "cart"; cart: HttpTypes.StoreCart; error: MedusaErrorBody }
  /** A 4xx/5xx: the cart could not be completed at all. */
  | { status: number; type: "error"; error: MedusaErrorBody }

export type Address = HttpTypes.StoreAddAddress & { country_code: string }

/** A plausible Doha address (Qatar has no postal codes). */
export const QA_ADDRESS: Address = {
  first_name: "Noor",
  last_name: "Al-Kuwari",
  address_1: "Building 12, Street 840, Zone 66",
  city: "Doha",
  country_code: "qa",
  phone: "+97455123456",
}

export const DE_ADDRESS: Address = {
  first_name: "Lena",
  last_name: "Schmidt",
  address_1: "Hauptstrasse 1",
  city: "Berlin",
  postal_code: "10115",
  country_code: "de",
  phone: "+4915112345678",
}

export interface CreateCartInput {
  regionId: string
  /** One line; or pass `items` for several. */
  variantId?: string
  quantity?: number
  items?: { variant_id: string; quantity: number }[]
  email?: string
  /** Defaults to QA_ADDRESS; use DE_ADDRESS (or any address) for the EUR region. */
  shippingAddress?: Address
  /**
   * Shipping option to add. Default: the first option the store offers for the cart.
   * `null` leaves the cart without a shipping method (it then cannot complete).
   */
  shippingOptionId?: string | null
}

export interface StoreClient {
  /** Headers every /store call needs; exposed for ad-hoc calls. */
  headers: Record<string, string>
  get<T = unknown>(path: string): Promise<ApiResult<T>>
  post<T = unknown>(path: string, body?: unknown): Promise<ApiResult<T>>
  listPaymentProviders(regionId: string): Promise<HttpTypes.StorePaymentProvider[]>
  createCart(input: CreateCartInput): Promise<HttpTypes.StoreCart>
  getCart(cartId: string): Promise<HttpTypes.StoreCart>
  createPaymentCollection(cartId: string): Promise<HttpTypes.StorePaymentCollection>
  /** The collection as answered, plus the session for `providerId` when one was created. */
  createPaymentSession(
    paymentCollectionId: string,
    providerId: string,
    data?: Record<string, unknown>
  ): Promise<
    ApiResult<{
      payment_collection: HttpTypes.StorePaymentCollection
      session: HttpTypes.StorePaymentSession | undefined
    }>
  >
  completeCart(cartId: string): Promise<CompleteCartResult>
  /** `fields` is Medusa's `?fields=` syntax, e.g. "*payment_collections.payments". */
  getOrder(orderId: string, fields?: string): Promise<HttpTypes.StoreOrder>
}

/** Never throw for a status: axios would, and its error hides the body. */
const keepStatus = { validateStatus: () => true }

function toResult<T>(res: AxiosResponse): ApiResult<T> {
  return res.status >= 200 && res.status < 300
    ? { ok: true, status: res.status, data: res.data as T }
    : { ok: false, status: res.status, error: (res.data ?? {}) as MedusaErrorBody }
}

function unwrap<T>(what: string, r: ApiResult<T>): T {
  if (!r.ok) {
    throw new Error(`${what} failed: HTTP ${r.status} ${JSON.stringify(r.error)}`)
  }
  return r.data
}

export function storeClient(api: AxiosInstance, publishableKey: string): StoreClient {
  const headers = { "x-publishable-api-key": publishableKey }
  const get = async <T>(path: string) => toResult<T>(await api.get(path, { headers, ...keepStatus }))
  const post = async <T>(path: string, body?: unknown) =>
    toResult<T>(await api.post(path, body ?? {}, { headers, ...keepStatus }))

  const client: StoreClient = {
    headers,
    get,
    post,

    async listPaymentProviders(regionId) {
      const r = await get<{ payment_providers: HttpTypes.StorePaymentProvider[] }>(
        `/store/payment-providers?region_id=${encodeURIComponent(regionId)}`
      )
      return unwrap("list payment providers", r).payment_providers
    },

    async createCart(input) {
      const items =
        input.items ??
        (input.variantId ? [{ variant_id: input.variantId, quantity: input.quantity ?? 1 }] : [])
      const created = await post<{ cart: HttpTypes.StoreCart }>("/store/carts", {
        region_id: input.regionId,
        // The sandbox's first test shopper (97451118021): a Request to Pay goes only to a number
        // PayLater matches with the cart's own email.
        email: input.email ?? "shopper1@sandbox.paylater.test",
        items,
        shipping_address: input.shippingAddress ?? QA_ADDRESS,
        billing_address: input.shippingAddress ?? QA_ADDRESS,
      })
      let cart = unwrap("create cart", created).cart
      if (input.shippingOptionId === null) return cart

      let optionId = input.shippingOptionId
      if (!optionId) {
        const options = unwrap(
          "list shipping options",
          await get<{ shipping_options: HttpTypes.StoreCartShippingOption[] }>(
            `/store/shipping-options?cart_id=${cart.id}`
          )
        ).shipping_options
        if (!options.length) throw new Error(`no shipping option offered for cart ${cart.id}`)
        optionId = options[0].id
      }
      cart = unwrap(
        "add shipping method",
        await post<{ cart: HttpTypes.StoreCart }>(`/store/carts/${cart.id}/shipping-methods`, {
          option_id: optionId,
        })
      ).cart
      return cart
    },

    async getCart(cartId) {
      return unwrap("get cart", await get<{ cart: HttpTypes.StoreCart }>(`/store/carts/${cartId}`)).cart
    },

    async createPaymentCollection(cartId) {
      const r = await post<{ payment_collection: HttpTypes.StorePaymentCollection }>(
        "/store/payment-collections",
        { cart_id: cartId }
      )
      return unwrap("create payment collection", r).payment_collection
    },

    async createPaymentSession(paymentCollectionId, providerId, data) {
      const r = await post<{ payment_collection: HttpTypes.StorePaymentCollection }>(
        `/store/payment-collections/${paymentCollectionId}/payment-sessions`,
        data === undefined ? { provider_id: providerId } : { provider_id: providerId, data }
      )
      if (!r.ok) return r
      const pc = r.data.payment_collection
      const session = pc.payment_sessions?.find((s) => s.provider_id === providerId)
      return { ok: true, status: r.status, data: { payment_collection: pc, session } }
    },

    async completeCart(cartId) {
      const res = await api.post(`/store/carts/${cartId}/complete`, {}, { headers, ...keepStatus })
      const body = res.data ?? {}
      if (res.status >= 300) return { status: res.status, type: "error", error: body }
      if (body.type === "order") return { status: res.status, type: "order", order: body.order }
      return { status: res.status, type: "cart", cart: body.cart, error: body.error ?? {} }
    },

    async getOrder(orderId, fields) {
      const q = fields ? `?fields=${encodeURIComponent(fields)}` : ""
      return unwrap("get order", await get<{ order: HttpTypes.StoreOrder }>(`/store/orders/${orderId}${q}`))
        .order
    },
  }
  return client
}

/** Cart with shipping, a payment collection and a session: the state just before "Pay". */
export async function startCheckout(
  client: StoreClient,
  cartInput: CreateCartInput,
  providerId: string,
  data?: Record<string, unknown>
) {
  const cart = await client.createCart(cartInput)
  const paymentCollection = await client.createPaymentCollection(cart.id)
  const session = await client.createPaymentSession(paymentCollection.id, providerId, data)
  return { cart, paymentCollection, session }
}

export interface AdminAuth {
  /** Pass as `{ headers }` to `api.get("/admin/...", admin)`. */
  headers: Record<string, string>
  userId: string
  email: string
}

/**
 * An admin user logged in the way the dashboard does it: register an emailpass identity over
 * HTTP, attach a user to it with `createUserAccountWorkflow` (what accepting an invite does), then
 * log in for a bearer token. Nothing is forged, so this works whatever JWT secret the app uses.
 * The user lives in the database: create it in the suite's `beforeAll` (kept by the runner's
 * snapshot) or in each test.
 */
export async function createAdminUser(
  api: AxiosInstance,
  container: MedusaContainer,
  opts: { email?: string; password?: string } = {}
): Promise<AdminAuth> {
  const email = opts.email ?? `admin-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  const password = opts.password ?? "paylater-admin-password"

  const registered = unwrap(
    "register admin identity",
    toResult<{ token: string }>(
      await api.post("/auth/user/emailpass/register", { email, password }, keepStatus)
    )
  )
  // The registration token is a JWT carrying the new auth identity's id (no user yet).
  const payload = JSON.parse(Buffer.from(registered.token.split(".")[1], "base64url").toString())
  const authIdentityId: string = payload.auth_identity_id

  const { result: user } = await createUserAccountWorkflow(container).run({
    input: { authIdentityId, userData: { email, first_name: "Test", last_name: "Admin" } },
  })

  const login = unwrap(
    "admin login",
    toResult<{ token: string }>(await api.post("/auth/user/emailpass", { email, password }, keepStatus))
  )
  return { headers: { authorization: `Bearer ${login.token}` }, userId: user.id, email }
}
