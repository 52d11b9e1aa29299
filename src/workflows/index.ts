export * from "./paylater-order-request/workflow"
export * from "./paylater-reconcile/workflow"
