/**
 * The part of `@medusajs/js-sdk` the storefront kit uses, as a structural type: the kit takes the
 * storefront's own SDK instance and never imports the SDK itself (no second copy in a bundle, no
 * version to match). A `new Medusa({...})` from `@medusajs/js-sdk` 2.x fits it.
 */

export interface PaymentSessionLike {
  id: string
  provider_id: string
  status?: string
  data?: Record<string, unknown> | null
}

export interface CartLike {
  id: string
  email?: string | null
  region_id?: string | null
  shipping_address?: { phone?: string | null } | null
  payment_collection?: { payment_sessions?: PaymentSessionLike[] | null } | null
}

export interface PayLaterSdk {
  store: {
    payment: {
      // `any`: each SDK version types its cart parameter in full; the kit passes the cart through.
      initiatePaymentSession(
        cart: any,
        body: { provider_id: string; data?: Record<string, unknown> }
      ): Promise<{ payment_collection: { payment_sessions?: PaymentSessionLike[] | null } }>
      listPaymentProviders(query: { region_id: string }): Promise<{ payment_providers: Array<{ id: string }> }>
    }
    cart: {
      complete(cartId: string): Promise<{ type: string; order?: { id: string } } | Record<string, any>>
      retrieve(cartId: string, query?: Record<string, unknown>): Promise<{ cart: any }>
    }
  }
  client: {
    fetch<T>(path: string, init?: any): Promise<T>
  }
}

/** `pp_<provider identifier>_<id in medusa-config>`, as Medusa names payment providers. */
export const PAYLATER_LINK_PROVIDER_ID = "pp_paylater_paylater"
export const PAYLATER_RTP_PROVIDER_ID = "pp_paylater-rtp_paylater"
