// What a translation needs to know about the model a request goes to. The catalogue's model
// (src/catalog/model.ts) is one; translators see only these fields, so they do not depend on the catalogue.
export interface ModelTraits {
  id: string;
  /** Sent as `max_tokens` when a chat request names none. */
  defaultMaxTokens: number;
  /** The model's own ceiling on output tokens, when known. */
  maxOutputTokens: number | null;
  /** Sampling fields the model accepts; the chat surface leaves the others out, with a warning. */
  accepts: { temperature: boolean; topP: boolean; topK: boolean };
}
