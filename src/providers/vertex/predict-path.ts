// Where a Vertex AI call goes: the regional endpoint (the global one for region `global`) and the
// rawPredict path of a publisher model. Path segments are percent-encoded, keeping the `@` of a
// versioned model id (`claude-sonnet-4-6@20260217`) as Google writes it.

/** The endpoint of a region: what a route's `baseUrl` replaces (everything before `/v1/…`). */
export function vertexEndpoint(region: string): string {
  return region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${region}-aiplatform.googleapis.com`;
}

function segment(value: string): string {
  return encodeURIComponent(value).replace(/%40/g, '@');
}

function modelsPath(project: string, region: string): string {
  return `/v1/projects/${segment(project)}/locations/${segment(region)}/publishers/anthropic/models`;
}

/** `:rawPredict` answers with the Messages JSON, `:streamRawPredict` with the provider's SSE stream. */
export function vertexPredictPath(project: string, region: string, model: string, streamed: boolean): string {
  return `${modelsPath(project, region)}/${segment(model)}:${streamed ? 'streamRawPredict' : 'rawPredict'}`;
}

/** The count-tokens model's path: the body keeps its `model`, as the provider's count_tokens takes it. */
export function vertexCountTokensPath(project: string, region: string): string {
  return `${modelsPath(project, region)}/count-tokens:rawPredict`;
}
