/** A bad `model-gateway proxy` invocation; the message is safe to print (it never holds a value given). */
export class ProxyUsageError extends Error {}
