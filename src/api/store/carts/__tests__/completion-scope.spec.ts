import { inCartCompletionScope } from "../completion-scope"
import { cartCompletionInScope } from "../../../../providers/paylater/cart-completion-scope"

describe("the store's cart completion route runs in the cart completion scope", () => {
  const call = (params: Record<string, unknown>) =>
    new Promise<string | null>((resolve) => {
      inCartCompletionScope({ params } as never, {} as never, () => {
        // What Medusa's route handler sees, also after an await inside it.
        void Promise.resolve().then(() => resolve(cartCompletionInScope()))
      })
    })

  it("names the route's cart to the provider for the whole handler", async () => {
    expect(await call({ id: "cart_1" })).toBe("cart_1")
    expect(cartCompletionInScope()).toBeNull()
  })

  it("passes a request without a cart id on untouched, outside the scope", async () => {
    expect(await call({})).toBeNull()
  })
})
