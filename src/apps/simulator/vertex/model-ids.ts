// Vertex AI names Anthropic's models by the provider's id and a version date after `@`
// (`claude-sonnet-4-6@20260217`); the simulator serves them under the id before the `@`.
export function modelOfVertexId(id: string): string {
  const at = id.indexOf('@');
  return at < 0 ? id : id.slice(0, at);
}
