// Where a Bedrock call goes: the runtime endpoint of a region, and the InvokeModel path of a model.
// A model id may hold characters a path segment cannot (an inference profile's ':' version, an ARN's
// '/'), so it is percent-encoded as one segment; the signature covers the path as sent.

/** The signing name of the Bedrock runtime (AWS Signature V4's service). */
export const BEDROCK_SERVICE = 'bedrock';

/** The runtime endpoint of a region: what a route's `baseUrl` replaces. */
export function bedrockEndpoint(region: string): string {
  return `https://bedrock-runtime.${region}.amazonaws.com`;
}

/** `InvokeModel` (`/model/{id}/invoke`), or `InvokeModelWithResponseStream` when streamed. */
export function bedrockInvokePath(modelId: string, streamed: boolean): string {
  return `/model/${encodeURIComponent(modelId)}/${streamed ? 'invoke-with-response-stream' : 'invoke'}`;
}
